"""Reliability soak: thousands of offline conversations with random faults, checked against the loop's promises.

Every lesson promises the same things: nothing crashes the loop, every tool
call id is answered exactly once, a run makes at most ``max_rounds + 1`` model
requests, the offline model never has to reject a request as malformed,
budgets are never crossed, and nothing that needs approval runs without it.
:func:`soak` checks each promise on every conversation of a seeded random mix:

* scenarios: the weather chain, several cities at once, the calculator (with
  hostile expressions), the learner-style tools of :mod:`conductor.offline_suite`,
  a flaky weather API behind retries and a cache fallback, money transfers over
  100 that need approval (decided by a policy, or by pausing and resuming), and
  a prompt injection that asks a gullible model to delete a database;
* both APIs, sync and async, ``max_rounds`` 0 to 3, parallel on and off,
  ``max_repeats`` 2 or 3, a token budget on some runs, and a model fallback
  (to a fault-free model of either API) on half of them;
* faults of every kind the offline model has (:data:`conductor.offline.faults.FAULT_KINDS`),
  zero to three per conversation.

A failure the caller is meant to see (the SDK gives up on a rate limit after
its retries, a spending quota) is *reported*, not a crash: the caller gets the
SDK's exception. A crash is any other exception escaping the run.

Conversations are spread over worker processes (the loop is CPU-bound on the
zero-latency offline model, and threads would share one interpreter lock).
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import random
import time
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, fields
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
    faults: Counter = field(default_factory=Counter)
    scenarios: Counter = field(default_factory=Counter)
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
        lines += [f"crash: {example}" for example in t.crash_examples]
        return "\n".join(lines)


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
    logging.getLogger("conductor").setLevel(logging.CRITICAL)  # a soak logs nothing per conversation
    worker = _Worker(seed)
    tally = Tally()
    for index in indices:
        tally.merge(worker.run(plan(index, seed)))
    return tally


def _chunks(conversations: int, size: int) -> Iterator[range]:
    for start in range(0, conversations, size):
        yield range(start, min(start + size, conversations))


def soak(conversations: int = 1000, *, seed: int = 0, workers: int = 2, progress: bool = False) -> SoakReport:
    """Run ``conversations`` seeded random conversations in ``workers`` processes and check every promise."""
    if conversations < 1:
        raise ValueError(f"conversations must be at least 1, got {conversations}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    started = time.perf_counter()
    tally = Tally()
    chunks = list(_chunks(conversations, max(1, min(250, conversations // (workers * 4) or 1))))
    bar = _progress_bar(conversations) if progress else None
    if workers == 1:
        for chunk in chunks:
            tally.merge(_run_chunk(chunk, seed))
            if bar is not None:
                bar.update(len(chunk))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = {pool.submit(_run_chunk, chunk, seed): len(chunk) for chunk in chunks}
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
