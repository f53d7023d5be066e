"""Lesson 03's exercises: full jitter by hand, a deadline no wait may cross, the library's policy on a tool.

In the notebook::

    from conductor.course.exercises import ____, lesson03 as ex
    ex.q1.check()

Nothing here sleeps: the checks pass a recording ``sleep`` and seeded
``random.Random`` generators, so every verdict is instant and the same on any machine.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import conductor as cd
from conductor import retry
from conductor import scenarios as sc
from conductor.backoff import backoff_delay
from conductor.course.flaky import get_weather_cached

from .core import Exercise, Wrong, WrongAnswer, as_tool, explain, learner_call, offline_llm

__all__ = ["SETUP", "EXERCISES", "q1", "q2", "q3"]

SETUP = "from conductor.course.exercises import ____, lesson03 as ex"
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


def _check_spread(values: list[float], number: int, exponential: float) -> None:
    """The waits before retry ``number`` must spread uniformly over [0, exponential]: one per seed, all different."""
    uniform = (f"full jitter draws uniformly from 0 to the delay ({exponential:g} s): rng.uniform(0, delay), "
               f"which averages {exponential / 2:g} s")
    if min(values) == max(values):
        if abs(values[0] - exponential) < 1e-9:
            raise Wrong(f"before retry {number} every wait is the whole delay, {exponential:g} s (no jitter); "
                        f"{uniform}.")
        raise Wrong(f"before retry {number} all {len(values)} waits are {values[0]:.2f} s, though each came "
                    "from a random.Random with its own seed: the wait does not depend on rng. Draw it from the "
                    "rng passed in, without seeding it or making another (rng.uniform(0, delay)).")
    mean = statistics.fmean(values)
    if abs(mean - exponential / 2) > 0.05 * exponential:
        raise Wrong(f"before retry {number} the waits average {mean:.2f} s; {uniform}.")
    if min(values) > 0.02 * exponential or max(values) < 0.98 * exponential:
        raise Wrong(f"before retry {number} the waits run from {min(values):.2f} s to {max(values):.2f} s only, "
                    f"a narrower spread; {uniform}.")


def _judge_full_jitter(full_jitter: Any) -> str:
    base, cap = 0.5, 4.0
    first = learner_call("full_jitter(1, 0.5, 4.0, random.Random(7))", full_jitter, 1, base, cap, random.Random(7))
    again = learner_call("full_jitter(1, 0.5, 4.0, random.Random(7))", full_jitter, 1, base, cap, random.Random(7))
    if first != again:
        raise Wrong("two calls with random.Random(7) gave different waits: draw from the rng passed in "
                    "(rng.uniform), not from the random module, so a seeded run repeats.")
    for number in (1, 2, 3, 4, 6):
        exponential = min(cap, base * 2 ** (number - 1))
        values = _draws(full_jitter, number, base, cap)
        if max(values) > cap + 1e-9:
            raise Wrong(f"before retry {number} a wait of {max(values):.2f} s exceeds the cap of {cap} s: "
                        "take min(cap, ...) of the exponential delay.")
        if max(values) > exponential + 1e-9 or min(values) < 0:
            raise Wrong(f"before retry {number} the waits run from {min(values):.2f} s to {max(values):.2f} s; "
                        f"they should lie in [0, {exponential:g}]: the exponential delay is "
                        "base * 2 ** (retry - 1), so the first retry waits at most base.")
        _check_spread(values, number, exponential)
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


def _fixed_seed() -> tuple[Any, ...]:
    def full_jitter(retry: int, base: float, cap: float, rng: random.Random) -> float:
        """Makes its own seeded generator: the same wait whatever rng is passed in."""
        return random.Random(7).uniform(0, min(cap, base * 2 ** (retry - 1)))

    return (full_jitter,)


def _half_the_delay() -> tuple[Any, ...]:
    def full_jitter(retry: int, base: float, cap: float, rng: random.Random) -> float:
        """Waits half the delay: the right average, but no jitter."""
        return min(cap, base * 2 ** (retry - 1)) / 2

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
        WrongAnswer("no jitter", _no_jitter, fix="every wait is the whole delay"),
        WrongAnswer("the random module instead of rng", _global_random, fix="draw from the rng passed in"),
        WrongAnswer("a generator of its own, seeded", _fixed_seed, fix="Draw it from the rng passed in"),
        WrongAnswer("half the delay, every time", _half_the_delay, fix="the wait does not depend on rng"),
        WrongAnswer("doubles once too often", _off_by_one, fix="base * 2 ** (retry - 1)"),
        WrongAnswer("no cap", _no_cap, fix="min(cap, ...)"),
        WrongAnswer("equal jitter", _equal_jitter, fix="rng.uniform(0, delay)"),
    ),
)

# -- exercise 2: a deadline for the whole call -----------------------------------------------------

RETRYABLE = (TimeoutError, ConnectionError)
DEADLINE = 3.0  # seconds the check allows a call, from its first attempt
CALL_SECONDS = 0.2  # how long each of the check's attempts takes on its clock


def call_with_deadline(func, *, deadline, clock, rng, attempts=10, base=0.5, cap=8.0):
    """Retry func()'s transient failures with full jitter; no wait may end past the deadline."""
    start = clock.now()
    for attempt in range(1, attempts + 1):
        try:
            return func()
        except RETRYABLE:
            wait = backoff_delay("full", attempt, base=base, cap=cap, previous=None, rng=rng)
            if attempt == attempts or clock.now() + wait > start + deadline:
                raise  # out of attempts, or the wait would cross the deadline: give up now
            clock.sleep(wait)


class _FakeClock:
    """A clock that starts at 1000 s and moves only when told: sleeps and the calls' own time."""

    def __init__(self) -> None:
        self.time = 1000.0
        self.waits: list[tuple[float, float]] = []  # (when the wait started, seconds)

    def now(self) -> float:
        return self.time

    def sleep(self, seconds: float) -> None:
        self.waits.append((self.time, seconds))
        self.time += seconds


class _Service:
    """A call that takes CALL_SECONDS on the clock and fails with the listed errors in turn, then answers."""

    def __init__(self, clock: _FakeClock, failures: list[BaseException]) -> None:
        self.clock, self.failures, self.calls = clock, failures, 0

    def __call__(self) -> str:
        self.calls += 1
        self.clock.time += CALL_SECONDS
        if self.failures:
            raise self.failures.pop(0)
        return "sunny"


@dataclass(frozen=True)
class _Trace:
    """What one run of a deadline loop did: its calls, its waits, when and how it ended."""

    calls: int
    waits: tuple[tuple[float, float], ...]
    ended: float  # seconds after the start
    value: Any
    error: BaseException | None


def _trace(loop: Any, failures: list[BaseException], seed: int) -> _Trace:
    clock = _FakeClock()
    service = _Service(clock, failures)
    doing = f"call_with_deadline(<service>, deadline={DEADLINE}, clock=..., rng=random.Random({seed}))"
    try:
        value, error = loop(service, deadline=DEADLINE, clock=clock, rng=random.Random(seed)), None
    except (TimeoutError, ConnectionError, ValueError) as exc:
        value, error = None, exc
    except Exception as exc:  # noqa: BLE001 - the learner's own bug is explained
        raise Wrong(explain(exc, doing)) from exc
    waits = tuple((start - 1000.0, seconds) for start, seconds in clock.waits)
    return _Trace(service.calls, waits, clock.time - 1000.0, value, error)


def _always_failing() -> list[BaseException]:
    return [TimeoutError(f"timeout {i}") for i in range(1, 100)]


def _judge_deadline(call_with_deadline: Any) -> str:
    if not callable(call_with_deadline):
        raise Wrong(f"`call_with_deadline` should be a function, but it is {type(call_with_deadline).__name__}.")
    recovered = _trace(call_with_deadline, [TimeoutError("t"), ConnectionError("c")], seed=0)
    if recovered.value != "sunny":
        raise Wrong(f"a call that fails twice, then answers well within the deadline, ended with "
                    f"{recovered.error!r}: the loop gave up while its waits still fitted. Measure from the "
                    "start: give up when clock.now() + wait > start + deadline.")
    mars = _trace(call_with_deadline, [ValueError("unknown city '火星'")] * 5, seed=0)
    if mars.calls != 1 or not isinstance(mars.error, ValueError):
        raise Wrong("an unknown city (ValueError) must be raised at once, not retried: keep `except RETRYABLE`.")
    for seed in range(20):
        mine = _trace(call_with_deadline, _always_failing(), seed)
        right = _trace(globals()["call_with_deadline"], _always_failing(), seed)
        if mine.error is None:
            raise Wrong(f"a call that always times out returned {mine.value!r}; raise its last error.")
        late = [(start, wait) for start, wait in mine.waits if start + wait > DEADLINE + 1e-9]
        if late:
            start, wait = late[0]
            raise Wrong(f"a wait of {wait:.2f} s started at {start:.2f} s and ended at {start + wait:.2f} s, "
                        f"past the {DEADLINE:g} s deadline. Check the wait before sleeping: give up when "
                        "clock.now() + wait would pass start + deadline (checking the time alone lets the "
                        "last wait overshoot, as tenacity's stop_after_delay does).")
        if mine.calls < right.calls:
            start, wait = right.waits[mine.calls - 1]
            raise Wrong(f"with random.Random({seed}) the loop gave up after {mine.calls} call(s) at "
                        f"{mine.ended:.2f} s, but the next wait ({wait:.2f} s) would have ended at "
                        f"{start + wait:.2f} s, within the {DEADLINE:g} s deadline. Measure from the start: "
                        "clock.now() + wait > start + deadline.")
    return (f"over 20 seeds, no wait ended past the {DEADLINE:g} s deadline and none that fitted was skipped; "
            "a recoverable call answered and 火星's ValueError was raised at once.")


def _checks_the_time_only() -> tuple[Any, ...]:
    def call_with_deadline(func, *, deadline, clock, rng, attempts=10, base=0.5, cap=8.0):
        """Checks the time before the wait, not after it: the last wait overshoots."""
        start = clock.now()
        for attempt in range(1, attempts + 1):
            try:
                return func()
            except RETRYABLE:
                wait = backoff_delay("full", attempt, base=base, cap=cap, previous=None, rng=rng)
                if attempt == attempts or clock.now() > start + deadline:
                    raise
                clock.sleep(wait)

    return (call_with_deadline,)


def _forgets_the_start() -> tuple[Any, ...]:
    def call_with_deadline(func, *, deadline, clock, rng, attempts=10, base=0.5, cap=8.0):
        """Compares the clock's reading with the deadline itself, as if the clock started at 0."""
        for attempt in range(1, attempts + 1):
            try:
                return func()
            except RETRYABLE:
                wait = backoff_delay("full", attempt, base=base, cap=cap, previous=None, rng=rng)
                if attempt == attempts or clock.now() + wait > deadline:
                    raise
                clock.sleep(wait)

    return (call_with_deadline,)


def _ignores_the_deadline() -> tuple[Any, ...]:
    def call_with_deadline(func, *, deadline, clock, rng, attempts=10, base=0.5, cap=8.0):
        """Counts attempts only."""
        for attempt in range(1, attempts + 1):
            try:
                return func()
            except RETRYABLE:
                wait = backoff_delay("full", attempt, base=base, cap=cap, previous=None, rng=rng)
                if attempt == attempts:
                    raise
                clock.sleep(wait)

    return (call_with_deadline,)


q2 = Exercise(
    number=2,
    title="A deadline no wait may cross",
    task=f"""\
`call_with_deadline` retries a call's transient failures with full jitter, like `call_with_retry`
above, and also has a deadline: `deadline` seconds from its first attempt. A wait that would end
past the deadline is not started; the loop raises the last error instead. (tenacity's
`stop_after_delay` checks the time only before each attempt, so its last wait can overshoot.)
Complete the condition. The check runs a service that always times out, with a
{DEADLINE:g} s deadline, on a fake clock, for 20 seeds: no wait may end past the deadline, and
no wait that fits may be skipped.""",
    stub='''\
import random

import conductor as cd
from conductor import retry
from conductor import scenarios as sc
from conductor.backoff import backoff_delay
from conductor.course.flaky import get_weather_cached

RETRYABLE = (TimeoutError, ConnectionError)


def call_with_deadline(func, *, deadline, clock, rng, attempts=10, base=0.5, cap=8.0):
    """Retry func()'s transient failures with full jitter; no wait may end past the deadline."""
    start = clock.now()
    for attempt in range(1, attempts + 1):
        try:
            return func()
        except RETRYABLE:
            wait = backoff_delay("full", attempt, base=base, cap=cap, previous=None, rng=rng)
            if attempt == attempts or ____:
                raise  # out of attempts, or the wait would cross the deadline: give up now
            clock.sleep(wait)


ex.q2.check()''',
    hint_text="The wait would end at clock.now() + wait; the deadline falls at start + deadline. Give up "
    "when the first is later than the second.",
    names=("call_with_deadline",),
    judge=_judge_deadline,
    reference=lambda: (call_with_deadline,),
    solution_parts=(
        "import random\n\nfrom conductor.backoff import backoff_delay\n\nRETRYABLE = (TimeoutError, ConnectionError)",
        call_with_deadline,
    ),
    wrong_answers=(
        WrongAnswer("checks the time, not the end of the wait", _checks_the_time_only,
                    fix="clock.now() + wait would pass start + deadline"),
        WrongAnswer("forgets the start", _forgets_the_start, fix="Measure from the start"),
        WrongAnswer("no deadline", _ignores_the_deadline, fix="Check the wait before sleeping"),
    ),
)

# -- exercise 3: the library's policy ---------------------------------------------------------------

WEATHER_QUESTION = "北京今天天气怎么样?"  # "What's the weather in Beijing today?"
MARS_QUESTION = "火星今天天气怎么样?"  # "What's the weather on Mars today?"
MAX_TIMEOUT = 2.0


def resilient(func):
    """`func` as get_weather: 4 attempts with full jitter, 1 s per attempt, then the cache."""
    policy = cd.Retry(attempts=4, base=0.5, cap=8.0, jitter="full")
    return cd.tool(func, name="get_weather", retry=policy, timeout=1.0,
                   fallbacks=[get_weather_cached])


def _api_down(city: str) -> dict:
    """Get today's weather for a city: the sky and the temperature in °C.

    Args:
        city: The city name in Chinese or English, e.g. 北京 or Beijing.
    """
    raise TimeoutError(f"the weather API did not answer for {city}")


def _api_up(city: str) -> dict:
    """Get today's weather for a city: the sky and the temperature in °C.

    Args:
        city: The city name in Chinese or English, e.g. 北京 or Beijing.
    """
    return sc.get_weather.func(city)


def _run_with(resilient: Any, func: Any, question: str, what: str) -> Any:
    """Ask ``question`` of a fresh offline model with ``resilient(func)`` as the tool; waits are simulated."""
    tool = as_tool(learner_call(f"resilient(<{what}>)", resilient, func), "resilient(...)")
    if tool.name != "get_weather":
        raise Wrong(f'the tool is named {tool.name!r}; pass name="get_weather" so the model calls it.')
    previous = retry.set_clock(retry.SimulatedClock())
    try:
        calls = offline_llm().run(question, tools=[tool]).tool_calls
    finally:
        retry.set_clock(previous)
    if len(calls) != 1:
        raise Wrong(f"the model made {len(calls)} calls for {question!r}, expected one get_weather call.")
    return tool, calls[0]


def _judge_policy(resilient: Any) -> str:
    tool, beijing = _run_with(resilient, _api_down, WEATHER_QUESTION, "an API that is down")
    if not isinstance(tool.retry, cd.Retry):
        raise Wrong("the tool has no retry policy: pass retry=cd.Retry(attempts=4, ...) to cd.tool.")
    if tool.retry.attempts < 3:
        raise Wrong(f"cd.Retry(attempts={tool.retry.attempts}) tries {tool.retry.attempts} time(s) in all; "
                    "allow at least 3 attempts.")
    if tool.retry.jitter == "none":
        raise Wrong('jitter="none" makes every client that failed together retry together: use "full".')
    if tool.timeout is None or tool.timeout > MAX_TIMEOUT:
        raise Wrong(f"timeout={tool.timeout!r}: a hung weather API should cost at most {MAX_TIMEOUT:g} s per "
                    "attempt; pass timeout=1.0.")
    tries = sum(a.tool == "get_weather" for a in beijing.attempts)
    if beijing.is_error or beijing.fallback != "get_weather_cached":
        raise Wrong(f"with the API down, 北京 ended with {beijing.output}; it should come from the cache: "
                    "pass fallbacks=[get_weather_cached].")
    if tries != tool.retry.attempts:
        raise Wrong(f"with the API down, get_weather ran {tries} times; the policy allows {tool.retry.attempts}.")
    _, mars = _run_with(resilient, _api_up, MARS_QUESTION, "an API that is up")
    mars_tries = sum(a.tool == "get_weather" for a in mars.attempts)
    if mars_tries > 1 or mars.fallback:
        raise Wrong(f"火星 (Mars) was tried {mars_tries} time(s) and went to {mars.fallback or 'no fallback'}: an "
                    "unknown city is not transient. Leave ValueError out of retry_on, so the model hears the "
                    "error at once.")
    if not mars.is_error:
        raise Wrong(f"火星 came back as data ({mars.output}); it must be an error result for the model.")
    waits = ", ".join(f"{a.waited:.2f}" for a in beijing.attempts[1:tries])
    return (f"with the API down, 北京 was tried {tries} times (simulated waits {waits} s) and answered from "
            "the cache; 火星 failed once, straight to the model.")


def _policy_variant(retry_options: dict[str, Any] | None = None, **options: Any) -> Callable[[], tuple[Any, ...]]:
    def make() -> tuple[Any, ...]:
        def resilient(func):
            """The reference policy with one thing changed."""
            policy = {"name": "get_weather", "retry": cd.Retry(**{"attempts": 4, **(retry_options or {})}),
                      "timeout": 1.0, "fallbacks": [get_weather_cached], **options}
            return cd.tool(func, **policy)

        return (resilient,)

    return make


q3 = Exercise(
    number=3,
    title="The library's policy: retry, timeout, fallback",
    task="""\
Complete `resilient(func)`, which makes `func` the `get_weather` tool with a policy: retry its
transient failures (at least 3 attempts, full jitter), time an attempt out after 1 s, and fall back
to `get_weather_cached` when the retries are spent. The check asks a fresh offline model about
北京 (Beijing) with an API that is down: the answer must come from the cache after every attempt.
Then it asks about 火星 (Mars): that must fail once, straight to the model, without retries or the
cache. Waits run on a simulated clock, so the check takes no time.""",
    stub='''\
from conductor.course.flaky import get_weather_cached


def resilient(func):
    """`func` as get_weather: 4 attempts with full jitter, 1 s per attempt, then the cache."""
    return cd.tool(func, name="get_weather", retry=____, timeout=____, fallbacks=____)


ex.q3.check()''',
    hint_text="retry=cd.Retry(attempts=4, base=0.5, cap=8.0, jitter=\"full\"), timeout=1.0, "
    "fallbacks=[get_weather_cached]. cd.Retry retries TimeoutError and ConnectionError by default and "
    "nothing else, which is what 火星 needs.",
    names=("resilient",),
    judge=_judge_policy,
    reference=lambda: (resilient,),
    solution_parts=("from conductor.course.flaky import get_weather_cached", resilient),
    wrong_answers=(
        WrongAnswer("retries ValueError too", _policy_variant({"retry_on": (ValueError,)}),
                    fix="Leave ValueError out of retry_on"),
        WrongAnswer("no jitter", _policy_variant({"jitter": "none"}), fix='use "full"'),
        WrongAnswer("no fallback", _policy_variant(fallbacks=[]), fix="fallbacks=[get_weather_cached]"),
        WrongAnswer("one attempt", _policy_variant({"attempts": 1}), fix="allow at least 3 attempts"),
        WrongAnswer("no timeout", _policy_variant(timeout=None), fix="timeout=1.0"),
        WrongAnswer("another name", _policy_variant(name="weather"), fix='name="get_weather"'),
    ),
)

EXERCISES: tuple[Exercise, ...] = (q1, q2, q3)
