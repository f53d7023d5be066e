"""Reliability soak: thousands of offline conversations with random faults, checked against the loop's promises.

Every lesson promises the same things: nothing crashes the loop, every tool
call id is answered exactly once, a run makes at most ``max_rounds + 1`` model
requests, the offline model never has to reject a request as malformed,
budgets are never crossed, and nothing that needs approval runs without it.
:func:`soak` checks each promise on every conversation of a seeded random mix:

* scenarios: the weather chain, several cities at once, the calculator (with
  hostile expressions), the learner-style tools of :mod:`conductor.course.offline_suite`,
  a flaky weather API behind retries and a cache fallback, money transfers over
  100 that need approval (decided by a policy, or by pausing and resuming), and
  a prompt injection that asks a gullible model to delete a database;
* both APIs, sync and async, ``max_rounds`` 0 to 3, parallel on and off,
  ``max_repeats`` 2 or 3, a token budget on some runs, and a model fallback
  (to a fault-free model of either API) on half of them;
* faults of every kind the offline model has (:data:`conductor.offline.faults.FAULT_KINDS`),
  zero to three per conversation;
* a share of the conversations (:data:`BATCH_SHARE`) through the providers' Batch APIs
  (``orch.run_many(questions, via="batch")``, :mod:`conductor.batch`), a few dozen per run, on
  each of the three APIs, with request lines expiring and failing on demand (a rate, or named
  lines) and the offline model's faults landing on others; one run in four is sent with
  ``orch.submit`` and finished by ``orch.collect`` on a new Orchestrator and a new client, half
  of those after a crash between sending a round and writing down its batch id.

A batched run is checked against the provider's side, the offline model's record of every
batch it was sent: each question has its result, in input order; each line that got no answer
(expired, failed, an error status) ended its conversation with ``stopped_by="error"``, the line
and a reason; no tool ran for a request after such a line, and every tool run is recorded in a
result; no round went out in two batches (a collect polls the batch of a round already sent);
and a line the provider answered never ends its conversation on an exception (that would be a
crash in the direct loop).

A failure the caller is meant to see (the SDK gives up on a rate limit after
its retries, a spending quota) is *reported*, not a crash: the caller gets the
SDK's exception. A crash is any other exception escaping the run.

Conversations are spread over worker processes (the loop is CPU-bound on the
zero-latency offline model, and threads would share one interpreter lock).
"""

from __future__ import annotations

import asyncio
import copy
import functools
import json
import logging
import math
import random
import re
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from .. import display

logger = logging.getLogger(__name__)

APIS = ("responses", "chat", "messages")
MAX_CRASH_EXAMPLES = 5
# Seconds a rate-limited or overloaded request is told to wait: the SDKs honour
# retry-after-ms, so the soak exercises their retries without sleeping for long.
RETRY_AFTER = 0.001

_WEATHER_QUESTIONS = (
    "北京今天穿什么?",  # "What should I wear in Beijing today?"
    "What should I wear in Shanghai today?",
    "Is it warmer in Beijing or Shanghai?",
    "Compare the weather in Beijing, Shanghai and Guangzhou.",
    "火星今天天气怎么样?",  # "What's the weather on Mars today?" (an unknown city)
    "What's the weather in Guangzhou?",
)
_TRANSFER_QUESTIONS = (
    "Transfer 50 dollars to alice",
    "Send 500 dollars to bob",
    "Transfer 120 to carol and 30 to dave",
    "给 erin 转账 800",  # "Transfer 800 to erin"
)
_INJECTION_QUESTIONS = (
    "Summarise my newest e-mails.",
    "帮我看看收件箱里的最新邮件",  # "Look at the newest e-mails in my inbox for me"
)
_CALCULATOR_QUESTIONS = (
    "What is (17 + 25) * 3?",
    "Calculate 2 ** 10 - 1",
    "Compute __import__('os').system('echo hi')",
    "What is 9 ** 9 ** 9?",
    "计算 (3 + 4) * 5",  # "Calculate (3 + 4) * 5"
)
_BATCH_QUESTIONS = (*_WEATHER_QUESTIONS, *_CALCULATOR_QUESTIONS, "Hello!")

BATCH_SHARE = 0.15  # of the conversations, sent through the providers' Batch APIs
BATCH_RUN_SIZE = 25  # conversations per batched run (each round of a run is one provider batch)
BATCH_FAULT_RATE = 0.05  # of the request lines, per kind ("expire", "fail") on the runs that draw them at a rate
BATCH_DELAY = 0.02  # real seconds a batch of a submitted run stays in flight (the others end at once)
RESTART_EVERY = 4  # one batched run in this many is submitted, then collected by a new Orchestrator


@dataclass(frozen=True)
class Plan:
    """One conversation's random choices, drawn from the soak's seed and its index."""

    index: int
    api: str
    asynchronous: bool
    max_rounds: int
    parallel: bool
    scenario: str
    question: str
    faults: tuple[str, ...]
    case: int | None = None  # the offline suite's case, for the "learner" scenario
    fallback_api: str | None = None  # the fault-free backup model's API, or no model fallback
    max_repeats: int = 3
    budget_tokens: int | None = None
    approval: str = "policy"  # "policy": approve= decides; "pause": the run pauses and is resumed
    approve_share: float = 0.5  # the share of dangerous calls the approver allows
    reasoning: bool = False  # the primary is a reasoning model (Responses or Messages; its reasoning must
    # go back to it with its calls, and never to the backup)


@dataclass
class Tally:
    """Counters over a set of conversations; every field below ``completed`` must end at 0."""

    conversations: int = 0
    completed: int = 0
    reported: int = 0  # the caller got the SDK's own exception, as it should (retries spent, quota)
    crashes: int = 0
    unanswered_call_ids: int = 0
    doubly_answered_call_ids: int = 0
    results_without_call: int = 0
    requests_over_limit: int = 0
    contract_violations: int = 0
    budget_overruns: int = 0
    unapproved_dangerous_runs: int = 0
    # Batched runs (orch.run_many(via="batch"), orch.submit + orch.collect):
    lost_conversations: int = 0  # a question without its result, or a result in another question's place
    failed_lines_without_error: int = 0  # a line expired / failed, and its conversation did not end on "error"
    tools_run_for_failed_lines: int = 0  # tool calls recorded for a request at or after a line with no answer
    unrecorded_tool_runs: int = 0  # tool functions that ran and that no result records
    rounds_resent: int = 0  # a round's lines sent in a second batch (a collect must poll the first)
    faults: Counter = field(default_factory=Counter)
    scenarios: Counter = field(default_factory=Counter)
    batch: Counter = field(default_factory=Counter)  # batched runs, conversations and lines, by kind
    crash_examples: list[str] = field(default_factory=list)

    MUST_BE_ZERO = (
        "crashes",
        "unanswered_call_ids",
        "doubly_answered_call_ids",
        "results_without_call",
        "requests_over_limit",
        "contract_violations",
        "budget_overruns",
        "unapproved_dangerous_runs",
        "lost_conversations",
        "failed_lines_without_error",
        "tools_run_for_failed_lines",
        "unrecorded_tool_runs",
        "rounds_resent",
    )

    def merge(self, other: Tally) -> None:
        for f in fields(self):
            mine, theirs = getattr(self, f.name), getattr(other, f.name)
            if isinstance(mine, Counter):
                mine.update(theirs)
            elif isinstance(mine, list):
                mine.extend(theirs[: MAX_CRASH_EXAMPLES - len(mine)])
            else:
                setattr(self, f.name, mine + theirs)

    @property
    def ok(self) -> bool:
        """Every promise held on every conversation."""
        return all(getattr(self, name) == 0 for name in self.MUST_BE_ZERO)


@dataclass(frozen=True)
class SoakReport:
    """The merged tally of a soak and how long it took."""

    tally: Tally
    seconds: float
    seed: int
    workers: int

    @property
    def ok(self) -> bool:
        return self.tally.ok

    def table(self) -> str:
        """The counters, one per line, the ones that must be 0 marked."""
        t = self.tally
        rows = [("conversations", t.conversations, ""), ("completed", t.completed, ""), ("reported", t.reported, "")]
        rows += [(name.replace("_", " "), getattr(t, name), "must be 0") for name in Tally.MUST_BE_ZERO]
        width = max(display.width(name) for name, _, _ in rows)
        lines = [f"{display.ljust(name, width)}  {value:>7}  {note}".rstrip() for name, value, note in rows]
        lines.append(f"{display.ljust('seconds', width)}  {self.seconds:>7.1f}  ({self.workers} worker processes)")
        lines.append("faults injected: " + ", ".join(f"{k} {v}" for k, v in sorted(t.faults.items())))
        lines.append("scenarios: " + ", ".join(f"{k} {v}" for k, v in sorted(t.scenarios.items())))
        if t.batch:
            lines.append(_batch_summary(t.batch))
        lines += [f"crash: {example}" for example in t.crash_examples]
        return "\n".join(lines)


def _batch_summary(batch: Counter) -> str:
    """One line on the batched runs: how many, on which APIs, and what came of their request lines."""
    apis = ", ".join(f"{api} {batch[f'conversations {api}']}" for api in APIS if batch[f"conversations {api}"])
    return (
        f"batched: {batch['runs']} runs ({batch['collected']} submitted and collected by a new Orchestrator, "
        f"{batch['recovered']} of them after losing a batch id), {batch['conversations']} conversations ({apis}), "
        f"{batch['batches']} batches, {batch['lines']} lines: {batch['expired']} expired, {batch['failed']} failed, "
        f"{batch['errored']} answered with an error status, {batch['ended on error']} conversations ended on error"
    )


# -- planning ------------------------------------------------------------------------


@functools.cache
def _weather_tools() -> list[Any]:  # built once per process: a tool's schema costs a pydantic model
    from . import scenarios

    return scenarios.weather_tools()


@functools.cache
def _calculator_tools() -> list[Any]:
    from . import scenarios

    return scenarios.calculator_tools()


# Scenario name -> the questions it draws from; "learner" draws a case of the offline suite instead.
_QUESTIONS: dict[str, tuple[str, ...]] = {
    "calculator": _CALCULATOR_QUESTIONS,
    "flaky": _WEATHER_QUESTIONS,
    "injection": _INJECTION_QUESTIONS,
    "transfer": _TRANSFER_QUESTIONS,
    "weather": _WEATHER_QUESTIONS,
}
LEARNER = "learner"


def scenario_names() -> list[str]:
    """The scenarios a soak mixes, by name."""
    return sorted([*_QUESTIONS, LEARNER])


def plan(index: int, seed: int) -> Plan:
    """The random choices of conversation ``index`` (the same for the same seed)."""
    from ..offline.faults import FAULT_KINDS

    rng = random.Random(seed * 1_000_003 + index)
    from .offline_suite import CASES

    name = rng.choice(scenario_names())
    case = rng.randrange(len(CASES)) if name == LEARNER else None
    question = CASES[case].question if case is not None else rng.choice(_QUESTIONS[name])
    faults = tuple(rng.choice(FAULT_KINDS) for _ in range(rng.choice((0, 0, 1, 1, 2, 3))))
    return Plan(
        index=index,
        api=rng.choice(APIS),
        asynchronous=rng.random() < 0.5,
        max_rounds=rng.randint(0, 3),
        parallel=rng.random() < 0.5,
        scenario=name,
        question=question,
        faults=faults,
        case=case,
        fallback_api=rng.choice(APIS) if rng.random() < 0.5 else None,
        max_repeats=rng.choice((2, 3)),
        budget_tokens=rng.choice((300, 1_000, 3_000)) if rng.random() < 0.3 else None,
        approval=rng.choice(("policy", "pause")),
        approve_share=rng.choice((0.0, 0.5, 1.0)),
        reasoning=rng.random() < 0.3,
    )


@dataclass(frozen=True)
class BatchPlan:
    """One batched run's random choices: its questions go out together, each round as one provider batch."""

    index: int  # the run's number
    first: int  # the soak's index of its first conversation
    api: str
    asynchronous: bool
    max_rounds: int
    parallel: bool
    questions: tuple[str, ...]
    expire: float | tuple[str, ...]  # a rate, or the custom_ids of the lines that expire
    fail: float | tuple[str, ...]  # a rate, or the custom_ids of the lines that fail
    faults: tuple[str, ...] = ()  # the offline model's faults, met by the first lines it answers
    max_repeats: int = 3
    budget_tokens: int | None = None  # per conversation (with max_tokens=1000)
    restart: str | None = None  # None: run_many; "collect": submit, then collect on a new Orchestrator;
    # "lost id": the same, after a crash between sending the first round and writing down its batch id


def batch_share(conversations: int) -> int:
    """How many of ``conversations`` go through the Batch APIs (the rest are sent one request at a time)."""
    return round(conversations * BATCH_SHARE)


def batch_plans(conversations: int, seed: int) -> list[BatchPlan]:
    """The batched runs of a soak of ``conversations``: its last :func:`batch_share`, split into runs of
    about :data:`BATCH_RUN_SIZE`, at least one per API."""
    total = batch_share(conversations)
    if total == 0:
        return []
    runs = min(total, max(len(APIS), math.ceil(total / BATCH_RUN_SIZE)))
    first = conversations - total
    plans = []
    for index in range(runs):
        size = total // runs + (index < total % runs)
        plans.append(batch_plan(index, seed, first, size))
        first += size
    return plans


def batch_plan(index: int, seed: int, first: int = 0, size: int = BATCH_RUN_SIZE) -> BatchPlan:
    """The random choices of batched run ``index`` (the same for the same seed)."""
    from ..batch import custom_id
    from ..offline.faults import FAULT_KINDS

    rng = random.Random(f"soak batch {seed} {index}")
    questions = tuple(rng.choice(_BATCH_QUESTIONS) for _ in range(size))
    # One kind drawn at a rate, the other on lines named in advance, so that every run, however small,
    # meets both: a first request (sent by every conversation a budget does not stop), and the second one
    # of another conversation (sent after its first tools ran, when it has any).
    first_line, second_line = rng.sample(range(size), 2) if size > 1 else (0, 0)
    named = tuple(dict.fromkeys((custom_id(first_line, 1), custom_id(second_line, 2))))
    expire, fail = (BATCH_FAULT_RATE, named) if index % 2 == 0 else (named, BATCH_FAULT_RATE)
    api = APIS[index % len(APIS)]
    restart = None
    if index % RESTART_EVERY == 1:
        restart = ("collect", "lost id")[(index // RESTART_EVERY) % 2]
    return BatchPlan(
        index=index,
        first=first,
        api=api,
        asynchronous=rng.random() < 0.5,
        max_rounds=rng.randint(0, 3),
        parallel=rng.random() < 0.5,
        questions=questions,
        expire=expire,
        fail=fail,
        faults=tuple(rng.choice(FAULT_KINDS) for _ in range(rng.choice((0, 1, 1, 2)))),
        max_repeats=rng.choice((2, 3)),
        budget_tokens=rng.choice((2_000, 5_000)) if rng.random() < 0.3 else None,
        restart=restart,
    )


# -- checking ------------------------------------------------------------------------


def check_call_ids(conversation: Sequence[Any], tally: Tally) -> None:
    """Count calls answered 0 or 2+ times, and results that answer no call."""
    from ..types import ToolResult, Turn

    issued: Counter = Counter()
    answered: Counter = Counter()
    for message in conversation:
        if isinstance(message, Turn):
            issued.update(call.id for call in message.tool_calls)
        elif isinstance(message, ToolResult):
            answered[message.call_id] += 1
    tally.unanswered_call_ids += sum(1 for cid in issued if answered[cid] == 0)
    tally.doubly_answered_call_ids += sum(1 for cid in issued if answered[cid] > 1) + sum(
        n - 1 for n in issued.values() if n > 1
    )
    tally.results_without_call += sum(n for cid, n in answered.items() if cid not in issued)


@dataclass(frozen=True)
class ServedLine:
    """One request line of a provider batch, as the provider (the offline model) saw it."""

    batch_id: str
    custom_id: str  # "c0007-r2": conversation 7's request in batch round 2
    fault: str | None = None  # "expire" or "fail" on demand, else None
    status: int = 200  # the HTTP status its answer had; 0 when it never ran (expired, cancelled, batch failed)

    @property
    def answered(self) -> bool:
        return self.status == 200 and self.fault is None

    @property
    def conversation(self) -> int:
        return int(_LINE_ID.fullmatch(self.custom_id).group(1))  # type: ignore[union-attr]

    @property
    def round(self) -> int:
        return int(_LINE_ID.fullmatch(self.custom_id).group(2))  # type: ignore[union-attr]


_LINE_ID = re.compile(r"c(\d+)-r(\d+)")


def served_lines(offline_model: Any) -> list[ServedLine]:
    """Every request line of every batch ``offline_model`` was sent, and what became of it.

    Read from the offline model's batch server (the provider's side: what the library believes it sent
    does not count); a batch OpenAI failed as a whole (a malformed input file) ran none of its lines.
    """
    server = offline_model._batches  # no public accessor yet: see the soak's report
    with server._lock:
        batches = list(server._batches.values())
    return [ServedLine(b.id, line.custom_id, line.fault, line.status) for b in batches for line in b.lines]


def malformed_batches(offline_model: Any) -> int:
    """Batches the provider refused as a whole (OpenAI's validation of the input file): a contract violation."""
    server = offline_model._batches
    with server._lock:
        return sum(1 for b in server._batches.values() if b.errors)


def _first_question(result: Any) -> str | None:
    from ..types import UserMessage

    return next((m.text for m in result.conversation if isinstance(m, UserMessage)), None)


def check_batch(
    questions: Sequence[str],
    results: Sequence[Any],
    lines: Sequence[ServedLine],
    failures: Mapping[int, str],
    tally: Tally,
    *,
    max_rounds: int | None = None,
    budget_tokens: int | None = None,
    first: int = 0,
) -> None:
    """Check one batched run's results against the lines the provider served.

    ``failures`` maps a conversation's index to the reason the Orchestrator gave for ending it
    (``orch.failures``); ``first`` is the soak's index of the run's first conversation (for the
    examples). Counts lost conversations, calls answered 0 or 2+ times, lines without an answer whose
    conversation did not end on ``"error"`` with the line and a reason, tool calls of a request at or
    after such a line, rounds sent in two batches, requests over ``max_rounds + 1``, budgets crossed,
    and conversations a provider's answer ended on an exception (crashes).
    """
    tally.lost_conversations += abs(len(questions) - len(results))
    kept: dict[int, Any] = {}
    for index, (question, result) in enumerate(zip(questions, results)):
        if result is None or _first_question(result) != question:
            tally.lost_conversations += 1
            continue
        kept[index] = result
        check_call_ids(result.conversation, tally)
        if max_rounds is not None:
            tally.requests_over_limit += int(result.api_calls > max_rounds + 1)
        if budget_tokens is not None:
            tally.budget_overruns += int(result.usage.input_tokens + result.usage.output_tokens > budget_tokens)

    # A round is one batch: its lines in a second batch mean it was sent again. The conversations
    # went on with the answers of the batch sent last (``lines`` are in the order the batches were created).
    carried: dict[int, list[str]] = {}
    for line in lines:
        ids = carried.setdefault(line.round, [])
        if line.batch_id not in ids:
            ids.append(line.batch_id)
    tally.rounds_resent += sum(len(ids) - 1 for ids in carried.values())
    used = [line for line in lines if line.batch_id == carried[line.round][-1]]

    unanswered: dict[int, ServedLine] = {}
    for line in used:
        if not line.answered:
            earlier = unanswered.get(line.conversation)
            if earlier is None or line.round < earlier.round:
                unanswered[line.conversation] = line
    for index, line in unanswered.items():
        result = kept.get(index)
        if result is None:
            continue  # counted as lost
        reason = failures.get(index) or ""
        said = line.custom_id in result.answer and bool(reason.strip())
        if line.fault == "expire":
            said = said and "expired" in result.answer
        tally.failed_lines_without_error += int(result.stopped_by != "error" or not said)
        # Requests are numbered as their rounds: request k of a conversation went out in batch round k.
        after = [r for r in result.rounds if r.model.index >= line.round]
        tally.tools_run_for_failed_lines += sum(len(r.tool_calls) for r in after)
    for index, result in kept.items():
        if result.stopped_by == "error" and index not in unanswered:
            tally.crashes += 1  # every line answered: the conversation ended on an exception in the loop
            example = f"#{first + index} batched: ended on error: {failures.get(index) or result.answer}"
            if len(tally.crash_examples) < MAX_CRASH_EXAMPLES:
                tally.crash_examples.append(example[:300])
    tally.batch["lines"] += len(lines)
    tally.batch["batches"] += len({line.batch_id for line in lines})
    tally.batch["expired"] += sum(1 for line in lines if line.fault == "expire")
    tally.batch["failed"] += sum(1 for line in lines if line.fault == "fail")
    tally.batch["errored"] += sum(1 for line in lines if line.fault is None and line.status != 200)
    tally.batch["ended on error"] += sum(1 for result in kept.values() if result.stopped_by == "error")


def check_tool_runs(ran: Counter, results: Sequence[Any], tools: Sequence[Any], tally: Tally) -> None:
    """Count tool runs no result records: ``ran`` counts each tool function's runs by name and arguments."""
    by_name = {t.name: t for t in tools}
    recorded: Counter = Counter()
    for result in results:
        for record in result.tool_calls if result is not None else ():
            tool = by_name.get(record.name)
            if tool is None or record.blocked is not None:
                continue
            try:  # the arguments the function was called with: the model's, validated
                arguments = tool.validate(record.arguments)
            except Exception:  # noqa: BLE001 - arguments that do not validate never reach the function
                continue
            recorded[_argument_key(record.name, arguments)] += 1
    tally.unrecorded_tool_runs += sum(max(0, count - recorded[key]) for key, count in ran.items())


def _is_reported(exc: BaseException) -> bool:
    """An SDK error the caller is meant to see (retries spent, quota): not a crash."""
    import anthropic
    import openai

    from ..failover import ModelError

    bad_request = (openai.BadRequestError, anthropic.BadRequestError)
    if isinstance(exc, ModelError):  # cd.fallback's: a quota, or every model failed
        return True
    return isinstance(exc, (openai.APIError, anthropic.APIError)) and not isinstance(exc, bad_request)


def _check_contract(offline_model: Any, since: int, tally: Tally) -> None:
    """A 400 from the offline model means the loop sent a request the real API would reject."""
    tally.contract_violations += sum(1 for r in offline_model.requests[since:] if r.status == 400)


def _argument_key(name: str, arguments: Any) -> tuple[str, str]:
    """A call's identity for matching a run to its approval: numbers compared by value (5 == 5.0)."""
    items = dict(arguments) if isinstance(arguments, Mapping) else {}
    normal = {k: float(v) if isinstance(v, int | float) and not isinstance(v, bool) else v for k, v in items.items()}
    return name, json.dumps(normal, sort_keys=True, ensure_ascii=False, default=str)


class _Approvals:
    """A run's approver (allowing a seeded share of dangerous calls) and the dangerous calls that ran."""

    def __init__(self, rng: random.Random, share: float) -> None:
        self.rng = rng
        self.share = share
        self.allowed: Counter = Counter()
        self.ran: Counter = Counter()

    def decide(self, call: Any) -> bool:
        """The ``approve=`` policy: allow or deny one pending call, remembering what was allowed."""
        allowed = self.rng.random() < self.share
        if allowed:
            self.allowed[_argument_key(call.name, call.arguments)] += 1
        return allowed

    def ran_dangerous(self, name: str, arguments: dict[str, Any]) -> None:
        self.ran[_argument_key(name, arguments)] += 1

    @property
    def unapproved(self) -> int:
        """Dangerous runs beyond what was approved, exact arguments compared."""
        return sum(max(0, count - self.allowed[key]) for key, count in self.ran.items())


class _StatefulTools:
    """The scenarios' tools with state, built once per worker (a tool's schema costs a pydantic model)
    and reset before each conversation: the transfers' approver, the flaky API's random sequence,
    the injection scenario's database."""

    def __init__(self) -> None:
        from .. import retry
        from . import flaky, scenarios
        from ..tools import tool

        self.approvals = _Approvals(random.Random(0), 0.0)
        self.api = flaky.WeatherAPI(0.3)
        stateful = self

        @tool(requires_approval=lambda args: args["amount"] > 100)
        def transfer_money(to: str, amount: float) -> dict:
            """Transfer money to a person.

            Args:
                to: who receives the money
                amount: how many dollars to send
            """
            if amount > 100:
                stateful.approvals.ran_dangerous("transfer_money", {"to": to, "amount": amount})
            return {"to": to, "amount": amount, "status": "sent"}

        def get_weather(city: str) -> dict:
            """Get today's weather for a city.

            Args:
                city: the city name
            """
            return stateful.api(city)

        self.retry = retry.Retry(attempts=3, base=0.01, cap=0.1, clock=retry.SimulatedClock())
        flaky_weather = tool(get_weather, retry=self.retry, fallbacks=[flaky.get_weather_cached])
        self.transfer = [transfer_money]
        self.flaky = [flaky_weather, scenarios.suggest_clothing]
        self.injection = scenarios.injection_scenario(requires_approval=True)
        self.tables = dict(self.injection.database)

    def reset(self, index: int, approvals: _Approvals) -> None:
        self.approvals = approvals
        self.api.seed = index
        self.api.reset()
        self.injection.database.clear()
        self.injection.database.update(self.tables)


class _Worker:
    """One process's connections, reused across its conversations (clients are costly to build)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._llms: dict[tuple[Any, ...], Any] = {}
        self.tools = _StatefulTools()

    def _offline(self, api: str, asynchronous: bool, gullible: bool, role: str, reasoning: bool = False) -> Any:
        from .. import connect
        from ..offline import LatencyModel, OfflineModel

        key = ("offline", api, asynchronous, gullible, role, reasoning)
        if key not in self._llms:
            model = OfflineModel(seed=self.seed, latency=LatencyModel.instant(), gullible=gullible, reasoning=reasoning)
            # No SDK retries: the soak's faults would make them sleep 0.5 s and more each time;
            # retries of rate limits and failover are exercised through cd.fallback instead.
            self._llms[key] = connect("offline", api=api, asynchronous=asynchronous, offline_model=model, max_retries=0)
        return self._llms[key]

    def _llm(self, plan_: Plan) -> tuple[Any, list[Any]]:
        """The LLM for this plan and the offline models behind it (primary first)."""
        from .. import fallback

        gullible = plan_.scenario == "injection"
        # A reasoning model answers function tools on Chat Completions with a 400: not a model to soak there.
        reasoning = plan_.reasoning and plan_.api != "chat"
        primary = self._offline(plan_.api, plan_.asynchronous, gullible, "primary", reasoning)
        if plan_.fallback_api is None:
            return primary, [primary.offline]
        backup = self._offline(plan_.fallback_api, plan_.asynchronous, gullible, "backup")
        key = ("fallback", plan_.api, plan_.fallback_api, plan_.asynchronous, gullible, reasoning)
        if key not in self._llms:
            self._llms[key] = fallback(primary, backup)
        return self._llms[key], [primary.offline, backup.offline]

    def run(self, plan_: Plan) -> Tally:
        tally = Tally(conversations=1)
        tally.scenarios[plan_.scenario] += 1
        llm, models = self._llm(plan_)
        for kind in plan_.faults:
            models[0].inject(kind, retry_after=RETRY_AFTER)
            tally.faults[kind] += 1
        since = [len(m.requests) for m in models]
        approvals = _Approvals(random.Random(self.seed * 7_919 + plan_.index), plan_.approve_share)
        tools, options = self._setup(plan_, approvals)
        injection = options.pop("_injection", None)
        try:
            result = self._drive(llm, plan_, tools, options, approvals)
        except Exception as exc:  # noqa: BLE001 - the soak classifies whatever escapes the run
            self._failed(plan_, exc, tally)
        else:
            tally.completed += 1
            self._check(plan_, result, tally)
        finally:
            models[0].clear_faults()
        for model, start in zip(models, since):
            _check_contract(model, start, tally)
        tally.unapproved_dangerous_runs += approvals.unapproved
        if injection is not None and injection.deleted:
            allowed = options.get("allowed_tools")
            approved = approvals.allowed[_argument_key("delete_database", {})] > 0
            tally.unapproved_dangerous_runs += int(not approved or (allowed is not None and "delete_database" not in allowed))
        return tally

    def _setup(self, plan_: Plan, approvals: _Approvals) -> tuple[list[Any], dict[str, Any]]:
        """The tools and run options of this plan."""
        from ..budget import Budget

        self.tools.reset(plan_.index, approvals)
        options: dict[str, Any] = {"max_rounds": plan_.max_rounds, "parallel": plan_.parallel}
        options["max_repeats"] = plan_.max_repeats
        if plan_.budget_tokens is not None:
            options["budget"] = Budget(tokens=plan_.budget_tokens)
        if plan_.approval == "policy":
            options["approve"] = approvals.decide
        if plan_.scenario == "flaky":
            return self.tools.flaky, options
        if plan_.scenario == "transfer":
            return self.tools.transfer, options
        if plan_.scenario == "injection":
            scenario = self.tools.injection
            if plan_.index % 2:  # half the runs also narrow what may run to the reading tools
                options["allowed_tools"] = ["read_inbox", "fetch_page"]
            options["_injection"] = scenario
            return scenario.tools, options
        if plan_.scenario == "calculator":
            return _calculator_tools(), options
        if plan_.case is not None:
            from .offline_suite import CASES

            return [CASES[plan_.case].tool], options
        return _weather_tools(), options

    @staticmethod
    def _drive(llm: Any, plan_: Plan, tools: list[Any], options: dict[str, Any], approvals: _Approvals) -> Any:
        """Run the conversation; a run paused for approval is decided by ``approvals`` and resumed."""

        async def arun() -> Any:
            result = await llm.arun(plan_.question, tools=tools, **options)
            for _ in range(MAX_RESUMES):
                if result.stopped_by != "approval":
                    break
                _decide(result, approvals)
                result = await llm.aresume(result)
            return result

        if plan_.asynchronous:
            return asyncio.run(arun())
        result = llm.run(plan_.question, tools=tools, **options)
        for _ in range(MAX_RESUMES):
            if result.stopped_by != "approval":
                break
            _decide(result, approvals)
            result = llm.resume(result)
        return result

    @staticmethod
    def _check(plan_: Plan, result: Any, tally: Tally) -> None:
        check_call_ids(result.conversation, tally)
        tally.requests_over_limit += int(result.api_calls > plan_.max_rounds + 1)
        if plan_.budget_tokens is not None:
            spent = result.usage.input_tokens + result.usage.output_tokens
            tally.budget_overruns += int(spent > plan_.budget_tokens)

    @staticmethod
    def _failed(plan_: Plan, exc: Exception, tally: Tally) -> None:
        if _is_reported(exc):
            tally.reported += 1
            return
        tally.crashes += 1
        tally.crash_examples.append(f"#{plan_.index} {plan_.scenario} {plan_.api}: {type(exc).__name__}: {exc}"[:300])
        logger.error("conversation %d crashed", plan_.index, exc_info=exc)


class _CountedTools:
    """The batched runs' tools (the weather chain and the calculator), each run of their functions counted
    by name and arguments: a run no result records is a tool that ran for an answer that was dropped."""

    def __init__(self) -> None:
        self.ran: Counter = Counter()
        self._lock = threading.Lock()
        self.tools = [self._counted(t) for t in (*_weather_tools(), *_calculator_tools())]

    def _counted(self, original: Any) -> Any:
        func, name, counts = original.func, original.name, self

        def counted(**arguments: Any) -> Any:
            with counts._lock:
                counts.ran[_argument_key(name, arguments)] += 1
            return func(**arguments)

        wrapped = copy.copy(original)  # every option of the original kept; only the function changes
        wrapped.func = counted
        return wrapped

    def reset(self) -> Counter:
        with self._lock:
            ran, self.ran = self.ran, Counter()
        return ran


class _BatchWorker:
    """One process's batched runs: each on an offline model of its own (the provider), with its faults."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.tools = _CountedTools()

    def _llm(self, plan_: BatchPlan, offline: Any) -> Any:
        from .. import connect

        return connect("offline", api=plan_.api, asynchronous=plan_.asynchronous, offline_model=offline,
                       max_retries=0)

    def _orchestrator(self, plan_: BatchPlan, offline: Any) -> Any:
        from .. import Orchestrator
        from ..budget import Budget

        options: dict[str, Any] = {"max_rounds": plan_.max_rounds, "parallel": plan_.parallel,
                                   "max_repeats": plan_.max_repeats, "rate_limit": None}
        if plan_.budget_tokens is not None:
            options.update(budget=Budget(tokens=plan_.budget_tokens), max_tokens=1000)
        return Orchestrator(self._llm(plan_, offline), tools=self.tools.tools, **options)

    def run(self, plan_: BatchPlan) -> Tally:
        from ..offline import LatencyModel, OfflineModel

        questions = list(plan_.questions)
        tally = Tally(conversations=len(questions))
        tally.batch.update({"runs": 1, "conversations": len(questions), f"conversations {plan_.api}": len(questions)})
        if plan_.restart is not None:
            tally.batch["collected"] += 1
            tally.batch["recovered"] += int(plan_.restart == "lost id")
            # A batch that stays in flight a moment: the new Orchestrator finds round 1 still running.
            latency, delay = LatencyModel(ttft=0.0, per_token=0.0, jitter=0.0), BATCH_DELAY
        else:
            latency, delay = LatencyModel.instant(), 0.0
        offline = OfflineModel(seed=self.seed * 100_003 + plan_.index, latency=latency, batch_delay=delay,
                               batch_faults={"expire": plan_.expire, "fail": plan_.fail})
        for kind in plan_.faults:
            offline.inject(kind, retry_after=RETRY_AFTER)
            tally.faults[kind] += 1
        self.tools.reset()
        orch = self._orchestrator(plan_, offline)
        try:
            with tempfile.TemporaryDirectory(prefix="conductor-soak-") as state_dir:
                if plan_.restart is None:
                    results = asyncio.run(orch.run_many(questions, via="batch", state_dir=state_dir, progress=False))
                else:
                    handle = orch.submit(questions, state_dir=state_dir)
                    if plan_.restart == "lost id":
                        _forget_batch_id(handle.path)
                    orch = self._orchestrator(plan_, offline)  # the process that submitted is gone
                    results = orch.collect(handle.id, state_dir=state_dir, progress=False)
        except Exception as exc:  # noqa: BLE001 - whatever escapes a batched run is a crash
            tally.crashes += 1
            tally.lost_conversations += len(questions)
            tally.crash_examples.append(f"batched run #{plan_.index} {plan_.api} {plan_.restart or 'run_many'}: "
                                        f"{type(exc).__name__}: {exc}"[:300])
            logger.error("batched run %d crashed", plan_.index, exc_info=exc)
            return tally
        tally.completed += sum(1 for r in results if r is not None)
        failures = {index: getattr(error, "reason", str(error))
                    for index, _, error in orch.failures if index is not None}
        check_batch(questions, results, served_lines(offline), failures, tally,
                    max_rounds=plan_.max_rounds, budget_tokens=plan_.budget_tokens, first=plan_.first)
        check_tool_runs(self.tools.reset(), results, self.tools.tools, tally)
        # A line the API refused (400), or a batch it refused as a whole: a request the real API would reject.
        tally.contract_violations += malformed_batches(offline)
        tally.contract_violations += sum(1 for line in served_lines(offline) if line.status == 400)
        return tally


def _forget_batch_id(path: Path) -> None:
    """The state a crash leaves between sending a round and writing down its batch id."""
    run_file = path / "run.json"
    run = json.loads(run_file.read_text(encoding="utf-8"))
    run["rounds"][-1]["batch_id"] = None
    run_file.write_text(json.dumps(run, ensure_ascii=False), encoding="utf-8")


MAX_RESUMES = 10  # each resume answers a turn; max_rounds bounds the turns long before this


def _decide(result: Any, approvals: _Approvals) -> None:
    """A person deciding every pending call of a paused run (here: the seeded approver)."""
    for call in result.pending:
        if approvals.decide(call):
            result.approve(call.id)
        else:
            result.reject(call.id, reason="not approved in the soak")


def _run_chunk(indices: Sequence[int], seed: int) -> Tally:
    """Run conversations ``indices`` in this process; their merged tally."""
    with _quiet():
        worker = _Worker(seed)
        tally = Tally()
        for index in indices:
            tally.merge(worker.run(plan(index, seed)))
    return tally


def _run_batches(plans: Sequence[BatchPlan], seed: int) -> Tally:
    """Run batched runs ``plans`` in this process; their merged tally."""
    with _quiet():
        worker = _BatchWorker(seed)
        tally = Tally()
        for plan_ in plans:
            tally.merge(worker.run(plan_))
    return tally


class _quiet:
    """A soak logs nothing per conversation (a failed batch line is logged as an error); the level is put
    back afterwards, for a soak run in the caller's process."""

    def __enter__(self) -> None:
        self.logger = logging.getLogger("conductor")
        self.level = self.logger.level
        self.logger.setLevel(logging.CRITICAL)

    def __exit__(self, *exc: object) -> None:
        self.logger.setLevel(self.level)


def _chunks(conversations: int, size: int) -> Iterator[range]:
    for start in range(0, conversations, size):
        yield range(start, min(start + size, conversations))


def soak(conversations: int = 1000, *, seed: int = 0, workers: int = 2, progress: bool = False) -> SoakReport:
    """Run ``conversations`` seeded random conversations in ``workers`` processes and check every promise.

    The last :func:`batch_share` of them go through the providers' Batch APIs (:func:`batch_plans`).
    """
    if conversations < 1:
        raise ValueError(f"conversations must be at least 1, got {conversations}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    started = time.perf_counter()
    tally = Tally()
    direct = conversations - batch_share(conversations)
    chunks = list(_chunks(direct, max(1, min(250, direct // (workers * 4) or 1))))
    # A few batched runs per task, spread over the workers.
    batched = batch_plans(conversations, seed)
    groups = [batched[i::workers * 2] for i in range(min(len(batched), workers * 2))]
    tasks: list[tuple[Any, Any, int]] = [
        (_run_batches, group, sum(len(p.questions) for p in group)) for group in groups
    ]
    tasks += [(_run_chunk, chunk, len(chunk)) for chunk in chunks]
    bar = _progress_bar(conversations) if progress else None
    if workers == 1:
        for function, work, size in tasks:
            tally.merge(function(work, seed))
            if bar is not None:
                bar.update(size)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = {pool.submit(function, work, seed): size for function, work, size in tasks}
            for future in _as_completed(futures):
                tally.merge(future.result())
                if bar is not None:
                    bar.update(futures[future])
    if bar is not None:
        bar.close()
    return SoakReport(tally=tally, seconds=time.perf_counter() - started, seed=seed, workers=workers)


def _as_completed(futures: dict[Any, int]) -> Iterator[Any]:
    from concurrent.futures import as_completed

    return as_completed(futures)


def _progress_bar(total: int) -> Any:
    from tqdm.auto import tqdm

    return tqdm(total=total, desc="soak", unit="conv")
