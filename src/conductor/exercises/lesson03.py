"""Lesson 03's exercises: full jitter by hand, a retry loop that knows what to retry, a resilient tool.

In the notebook::

    from conductor.exercises import ____, lesson03 as ex
    ex.q1.check()

Nothing here sleeps: the checks pass a recording ``sleep`` and seeded
``random.Random`` generators, so every verdict is instant and the same on any machine.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from conductor.backoff import backoff_delay

from .core import Exercise, Wrong, WrongAnswer, explain, learner_call

__all__ = ["SETUP", "EXERCISES", "q1", "q2"]

SETUP = "from conductor.exercises import ____, lesson03 as ex"
"""The notebook cell that comes before the exercises."""

DRAWS = 2000  # draws per retry number: the mean is then within a few percent of its expectation

# -- exercise 1: full jitter -----------------------------------------------------------------------


def full_jitter(retry: int, base: float, cap: float, rng: random.Random) -> float:
    """Seconds to wait before retry number `retry` (1 = the first retry), with full jitter."""
    exponential = min(cap, base * 2 ** (retry - 1))
    return rng.uniform(0, exponential)


def _draws(full_jitter: Any, retry: int, base: float, cap: float) -> list[float]:
    doing = f"full_jitter({retry}, base={base}, cap={cap}, rng)"
    values = [learner_call(doing, full_jitter, retry, base, cap, random.Random(seed)) for seed in range(DRAWS)]
    bad = [v for v in values if not isinstance(v, int | float) or isinstance(v, bool)]
    if bad:
        raise Wrong(f"{doing} returned {bad[0]!r}; return the number of seconds to wait (a float).")
    return values


def _judge_full_jitter(full_jitter: Any) -> str:
    base, cap = 0.5, 4.0
    first = learner_call("full_jitter(1, 0.5, 4.0, random.Random(7))", full_jitter, 1, base, cap, random.Random(7))
    again = learner_call("full_jitter(1, 0.5, 4.0, random.Random(7))", full_jitter, 1, base, cap, random.Random(7))
    if first != again:
        raise Wrong("two calls with random.Random(7) gave different waits: draw from the rng passed in "
                    "(rng.uniform), not from the random module, so a seeded run repeats.")
    for retry in (1, 2, 3, 4, 6):
        exponential = min(cap, base * 2 ** (retry - 1))
        values = _draws(full_jitter, retry, base, cap)
        if max(values) > cap + 1e-9:
            raise Wrong(f"before retry {retry} a wait of {max(values):.2f} s exceeds the cap of {cap} s: "
                        "take min(cap, ...) of the exponential delay.")
        if max(values) > exponential + 1e-9 or min(values) < 0:
            raise Wrong(f"before retry {retry} the waits run from {min(values):.2f} s to {max(values):.2f} s; "
                        f"they should lie in [0, {exponential:g}]: the exponential delay is "
                        "base * 2 ** (retry - 1), so the first retry waits at most base.")
        mean = statistics.fmean(values)
        if abs(mean - exponential / 2) > 0.05 * exponential:
            kind = "the whole delay every time (no jitter)" if min(values) == max(values) else "a narrower spread"
            raise Wrong(f"before retry {retry} the waits average {mean:.2f} s, as with {kind}; full jitter "
                        f"draws uniformly from 0 to the delay ({exponential:g} s): rng.uniform(0, delay), "
                        f"which averages {exponential / 2:g} s.")
    return (f"{DRAWS} seeded draws per retry stay within [0, min({cap:g}, {base:g} * 2 ** (retry - 1))], "
            "average half of it, and repeat for the same seed.")


def _no_jitter() -> tuple[Any, ...]:
    def full_jitter(retry: int, base: float, cap: float, rng: random.Random) -> float:
        """Plain exponential backoff."""
        return min(cap, base * 2 ** (retry - 1))

    return (full_jitter,)


def _global_random() -> tuple[Any, ...]:
    def full_jitter(retry: int, base: float, cap: float, rng: random.Random) -> float:
        """Ignores the rng passed in."""
        return random.uniform(0, min(cap, base * 2 ** (retry - 1)))

    return (full_jitter,)


def _off_by_one() -> tuple[Any, ...]:
    def full_jitter(retry: int, base: float, cap: float, rng: random.Random) -> float:
        """Doubles once too often: the first retry may wait twice the base."""
        return rng.uniform(0, min(cap, base * 2**retry))

    return (full_jitter,)


def _no_cap() -> tuple[Any, ...]:
    def full_jitter(retry: int, base: float, cap: float, rng: random.Random) -> float:
        """Forgets the cap."""
        return rng.uniform(0, base * 2 ** (retry - 1))

    return (full_jitter,)


def _equal_jitter() -> tuple[Any, ...]:
    def full_jitter(retry: int, base: float, cap: float, rng: random.Random) -> float:
        """Equal jitter: half the delay, plus a random half."""
        exponential = min(cap, base * 2 ** (retry - 1))
        return exponential / 2 + rng.uniform(0, exponential / 2)

    return (full_jitter,)


q1 = Exercise(
    number=1,
    title="Full jitter by hand",
    task="""\
Write `full_jitter(retry, base, cap, rng)`: the seconds to wait before retry number `retry`
(1 = the first retry). The exponential delay is `base` doubled for each retry after the first,
never more than `cap`; full jitter waits a uniformly random time between 0 and that delay. Draw
from `rng` (a `random.Random`), so a seeded run repeats. The check draws 2,000 waits for several
retry numbers and compares their range and mean with what full jitter gives.""",
    stub='''\
import random


def full_jitter(retry: int, base: float, cap: float, rng: random.Random) -> float:
    """Seconds to wait before retry number `retry` (1 = the first retry), with full jitter."""
    exponential = ____  # base, doubled for each retry after the first, at most cap
    return ____  # a uniform draw from 0 to the exponential delay, from rng


ex.q1.check()''',
    hint_text="The exponential delay is min(cap, base * 2 ** (retry - 1)): retry 1 waits up to base, "
    "retry 2 up to twice that. Then return rng.uniform(0, exponential).",
    names=("full_jitter",),
    judge=_judge_full_jitter,
    reference=lambda: (full_jitter,),
    solution_parts=("import random", full_jitter),
    wrong_answers=(
        WrongAnswer("no jitter", _no_jitter, fix="rng.uniform(0, delay)"),
        WrongAnswer("the random module instead of rng", _global_random, fix="draw from the rng passed in"),
        WrongAnswer("doubles once too often", _off_by_one, fix="base * 2 ** (retry - 1)"),
        WrongAnswer("no cap", _no_cap, fix="min(cap, ...)"),
        WrongAnswer("equal jitter", _equal_jitter, fix="rng.uniform(0, delay)"),
    ),
)

# -- exercise 2: a retry loop that knows what to retry ---------------------------------------------

RETRYABLE = (TimeoutError, ConnectionError)


def call_with_retry(func, *, attempts=3, base=0.5, cap=8.0, sleep=time.sleep, rng=None):
    """Call func(); retry the failures in RETRYABLE with full-jitter backoff; raise anything else at once."""
    rng = rng or random.Random()
    for attempt in range(1, attempts + 1):
        try:
            return func()
        except RETRYABLE:
            if attempt == attempts:
                raise  # retries spent: the caller (a fallback, or the model) hears the last error
            sleep(backoff_delay("full", attempt, base=base, cap=cap, previous=None, rng=rng))


class _Script:
    """A function that raises the listed exceptions in turn, then returns "sunny"."""

    def __init__(self, *failures: BaseException) -> None:
        self.failures = list(failures)
        self.calls = 0

    def __call__(self) -> str:
        self.calls += 1
        if self.failures:
            raise self.failures.pop(0)
        return "sunny"


def _run(call_with_retry: Any, script: _Script, what: str, seed: int = 0) -> tuple[Any, BaseException | None, list]:
    """Run the learner's loop on ``script`` with a recording sleep: (value, exception raised, waits)."""
    waits: list[float] = []
    doing = f"call_with_retry(<{what}>, attempts=3, base=0.5, cap=8.0, sleep=..., rng=random.Random({seed}))"
    try:
        value = call_with_retry(script, attempts=3, base=0.5, cap=8.0, sleep=waits.append, rng=random.Random(seed))
    except (TimeoutError, ConnectionError, ValueError) as exc:
        return None, exc, waits
    except Exception as exc:  # noqa: BLE001 - the learner's own bug is explained
        raise Wrong(explain(exc, doing)) from exc
    return value, None, waits


def _judge_retry(call_with_retry: Any) -> str:
    if not callable(call_with_retry):
        raise Wrong(f"`call_with_retry` should be a function, but it is {type(call_with_retry).__name__}.")
    flaky = _Script(TimeoutError("timed out"), ConnectionError("reset"))
    value, exc, waits = _run(call_with_retry, flaky, "times out, then the connection drops, then answers")
    if exc is not None or value != "sunny":
        ended = repr(exc) if exc is not None else f"returning {value!r}"
        raise Wrong(f"a call that fails twice with TimeoutError and ConnectionError, then answers, ended with "
                    f"{ended}; retry both and return the answer of the third attempt.")
    if flaky.calls != 3 or len(waits) != 2:
        raise Wrong(f"that call ran {flaky.calls} time(s) with {len(waits)} wait(s); it needs 3 runs and a "
                    "wait before each retry (2).")
    if not (0 <= waits[0] <= 0.5 and 0 <= waits[1] <= 1.0):
        raise Wrong(f"the waits were {waits}; with full jitter the first lies in [0, 0.5] and the second in "
                    "[0, 1.0]: wait backoff_delay('full', attempt, ...) after failed attempt `attempt`.")
    spread = {tuple(_run(call_with_retry, _Script(TimeoutError(), TimeoutError()), "fails twice", s)[2])
              for s in range(5)}
    if len(spread) == 1:
        raise Wrong("the waits are the same for every seed: that is no jitter. Draw them from rng, "
                    "e.g. backoff_delay('full', attempt, base=base, cap=cap, previous=None, rng=rng).")
    mars = _Script(*[ValueError("unknown city '火星'")] * 3)
    _, exc, waits = _run(call_with_retry, mars, "raises ValueError: unknown city")
    if mars.calls > 1:
        raise Wrong(f"an unknown city (ValueError) was tried {mars.calls} times; it cannot change on a retry: "
                    "retry only TimeoutError and ConnectionError (except RETRYABLE) and let anything else "
                    "raise at once.")
    if not isinstance(exc, ValueError):
        raise Wrong(f"the ValueError was not raised (got {exc!r}); let it propagate so the model hears it.")
    down = _Script(*[TimeoutError(f"timeout {i}") for i in range(1, 10)])
    value, exc, waits = _run(call_with_retry, down, "always times out")
    if down.calls != 3:
        raise Wrong(f"a call that always times out ran {down.calls} times with attempts=3; run it 3 times.")
    if len(waits) != 2:
        raise Wrong(f"a call that always times out waited {len(waits)} times for 3 attempts: do not sleep "
                    "after the last attempt, there is no retry to wait for.")
    if exc is None:
        raise Wrong(f"when every attempt times out, call_with_retry returned {value!r}; raise the last error "
                    "instead, so a fallback or the model hears that the call failed.")
    if str(exc) != "timeout 3":
        raise Wrong(f"when every attempt times out, raise the last error (`raise` inside except), got {exc!r}.")
    return ("two transient failures were retried after jittered waits; 火星's ValueError was raised after "
            "1 call; a call that always times out ran 3 times, waited twice and raised its last error.")


def _retries_everything() -> tuple[Any, ...]:
    def call_with_retry(func, *, attempts=3, base=0.5, cap=8.0, sleep=time.sleep, rng=None):
        """Retries every exception, like the tutorial's executor."""
        rng = rng or random.Random()
        for attempt in range(1, attempts + 1):
            try:
                return func()
            except Exception:
                if attempt == attempts:
                    raise
                sleep(backoff_delay("full", attempt, base=base, cap=cap, previous=None, rng=rng))

    return (call_with_retry,)


def _sleeps_after_the_last() -> tuple[Any, ...]:
    def call_with_retry(func, *, attempts=3, base=0.5, cap=8.0, sleep=time.sleep, rng=None):
        """Waits after every failure, the last one too."""
        rng = rng or random.Random()
        for attempt in range(1, attempts + 1):
            try:
                return func()
            except RETRYABLE:
                sleep(backoff_delay("full", attempt, base=base, cap=cap, previous=None, rng=rng))
                if attempt == attempts:
                    raise

    return (call_with_retry,)


def _returns_error_dict() -> tuple[Any, ...]:
    def call_with_retry(func, *, attempts=3, base=0.5, cap=8.0, sleep=time.sleep, rng=None):
        """Swallows the last error into a dict, which a model takes for data."""
        rng = rng or random.Random()
        for attempt in range(1, attempts + 1):
            try:
                return func()
            except RETRYABLE as exc:
                if attempt == attempts:
                    return {"success": False, "error": str(exc)}
                sleep(backoff_delay("full", attempt, base=base, cap=cap, previous=None, rng=rng))

    return (call_with_retry,)


def _fixed_waits() -> tuple[Any, ...]:
    def call_with_retry(func, *, attempts=3, base=0.5, cap=8.0, sleep=time.sleep, rng=None):
        """Exponential waits without jitter."""
        for attempt in range(1, attempts + 1):
            try:
                return func()
            except RETRYABLE:
                if attempt == attempts:
                    raise
                sleep(backoff_delay("none", attempt, base=base, cap=cap, previous=None, rng=random.Random()))

    return (call_with_retry,)


q2 = Exercise(
    number=2,
    title="Retry only what a retry can fix",
    task="""\
Complete `call_with_retry(func, ...)`: call `func()` up to `attempts` times. Retry only the failures
a retry can fix (`TimeoutError`, `ConnectionError`), waiting a full-jitter backoff before each
retry (`backoff_delay("full", attempt, ...)` from `conductor.backoff`, drawn from `rng`, slept with
the `sleep` passed in). Anything else, like the `ValueError` for 火星 (Mars), is raised at once.
When every attempt fails, raise the last error: do not sleep after the last attempt, and do not
return an error dict. The check passes a recording `sleep`, so nothing really waits.""",
    stub='''\
import random
import time

from conductor.backoff import backoff_delay

RETRYABLE = (TimeoutError, ConnectionError)


def call_with_retry(func, *, attempts=3, base=0.5, cap=8.0, sleep=time.sleep, rng=None):
    """Call func(); retry the failures in RETRYABLE with full-jitter backoff; raise anything else at once."""
    rng = rng or random.Random()
    for attempt in range(1, attempts + 1):
        try:
            return func()
        except ____:
            if attempt == attempts:
                ____
            sleep(____)


ex.q2.check()''',
    hint_text="`except RETRYABLE:` catches only the transient failures, so a ValueError flies straight "
    "out. On the last attempt, a bare `raise` re-raises the error being handled. Otherwise "
    "`sleep(backoff_delay(\"full\", attempt, base=base, cap=cap, previous=None, rng=rng))`.",
    names=("call_with_retry",),
    judge=_judge_retry,
    reference=lambda: (call_with_retry,),
    solution_parts=(
        "import random\nimport time\n\nfrom conductor.backoff import backoff_delay\n\n"
        "RETRYABLE = (TimeoutError, ConnectionError)",
        call_with_retry,
    ),
    wrong_answers=(
        WrongAnswer("retries every exception", _retries_everything, fix="retry only TimeoutError and ConnectionError"),
        WrongAnswer("sleeps after the last attempt", _sleeps_after_the_last, fix="do not sleep after the last attempt"),
        WrongAnswer("returns an error dict", _returns_error_dict, fix="raise the last error"),
        WrongAnswer("no jitter", _fixed_waits, fix="that is no jitter"),
    ),
)

EXERCISES: tuple[Exercise, ...] = (q1, q2)
