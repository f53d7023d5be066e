"""Reliability soak: thousands of offline conversations with random faults, checked against the loop's promises.

Every lesson promises the same things: nothing crashes the loop, every tool
call id is answered exactly once, a run makes at most ``max_rounds + 1`` model
requests, the offline model never has to reject a request as malformed,
budgets are never crossed, and nothing that needs approval runs without it.
:func:`soak` checks each promise on every conversation of a seeded random mix:

* scenarios: the weather chain, several cities at once, the calculator (with
  hostile expressions), and the learner-style tools of
  :mod:`conductor.offline_suite`;
* both APIs, sync and async, ``max_rounds`` 0 to 3, parallel on and off;
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
import logging
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, fields
from typing import Any

from . import display

logger = logging.getLogger(__name__)

APIS = ("openai", "anthropic")
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


def _scenarios() -> dict[str, Callable[[random.Random], tuple[str, list[Any]]]]:
    """Scenario name -> a function drawing (question, tools)."""
    from . import offline_suite

    def weather(rng: random.Random) -> tuple[str, list[Any]]:
        return rng.choice(_WEATHER_QUESTIONS), _weather_tools()

    def calculator(rng: random.Random) -> tuple[str, list[Any]]:
        return rng.choice(_CALCULATOR_QUESTIONS), _calculator_tools()

    def learner(rng: random.Random) -> tuple[str, list[Any]]:
        case = rng.choice(offline_suite.CASES)
        return case.question, [case.tool]

    return {"weather": weather, "calculator": calculator, "learner": learner}


def scenario_names() -> list[str]:
    """The scenarios a soak mixes, by name."""
    return sorted(_scenarios())


def plan(index: int, seed: int) -> Plan:
    """The random choices of conversation ``index`` (the same for the same seed)."""
    from .offline.faults import FAULT_KINDS

    rng = random.Random(seed * 1_000_003 + index)
    name = rng.choice(sorted(_scenarios()))
    question, _ = _scenarios()[name](rng)
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
    )


def _tools_for(plan_: Plan, seed: int) -> list[Any]:
    rng = random.Random(seed * 1_000_003 + plan_.index)
    rng.choice(sorted(_scenarios()))  # replay the draws of plan() to get the same tools
    return _scenarios()[plan_.scenario](rng)[1]


# -- checking ------------------------------------------------------------------------


def check_call_ids(conversation: Sequence[Any], tally: Tally) -> None:
    """Count calls answered 0 or 2+ times, and results that answer no call."""
    from .types import ToolResult, Turn

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

    bad_request = (openai.BadRequestError, anthropic.BadRequestError)
    return isinstance(exc, (openai.APIError, anthropic.APIError)) and not isinstance(exc, bad_request)


def _check_contract(offline_model: Any, since: int, tally: Tally) -> None:
    """A 400 from the offline model means the loop sent a request the real API would reject."""
    tally.contract_violations += sum(1 for r in offline_model.requests[since:] if r.status == 400)


class _Worker:
    """One process's connections, reused across its conversations (clients are costly to build)."""

    def __init__(self, seed: int) -> None:
        from . import connect

        self.seed = seed
        self.llms = {
            (api, asynchronous): connect(
                "offline", api=api, asynchronous=asynchronous, latency_scale=0, seed=seed, max_retries=0
            )
            for api in APIS
            for asynchronous in (False, True)
        }

    def run(self, plan_: Plan) -> Tally:
        tally = Tally(conversations=1)
        tally.scenarios[plan_.scenario] += 1
        llm = self.llms[(plan_.api, plan_.asynchronous)]
        offline_model = llm.offline
        for kind in plan_.faults:
            offline_model.inject(kind, retry_after=RETRY_AFTER)
            tally.faults[kind] += 1
        since = len(offline_model.requests)
        tools = _tools_for(plan_, self.seed)
        options = {"tools": tools, "max_rounds": plan_.max_rounds, "parallel": plan_.parallel}
        try:
            if plan_.asynchronous:
                result = asyncio.run(llm.arun(plan_.question, **options))
            else:
                result = llm.run(plan_.question, **options)
        except Exception as exc:  # noqa: BLE001 - the soak classifies whatever escapes the run
            self._failed(plan_, exc, tally)
        else:
            tally.completed += 1
            check_call_ids(result.conversation, tally)
            tally.requests_over_limit += int(result.api_calls > plan_.max_rounds + 1)
        finally:
            offline_model.clear_faults()
        _check_contract(offline_model, since, tally)
        return tally

    @staticmethod
    def _failed(plan_: Plan, exc: Exception, tally: Tally) -> None:
        if _is_reported(exc):
            tally.reported += 1
            return
        tally.crashes += 1
        tally.crash_examples.append(f"#{plan_.index} {plan_.scenario} {plan_.api}: {type(exc).__name__}: {exc}"[:300])
        logger.error("conversation %d crashed", plan_.index, exc_info=exc)


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
