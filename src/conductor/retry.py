"""Tool-level resilience: retries with backoff, per-attempt timeouts, fallbacks.

``@cd.tool(retry=cd.Retry(...), timeout=2.0, fallbacks=[cached])`` gives a tool
a policy. :func:`run_policy` (sync) and :func:`arun_policy` (on the event loop)
carry it out for one call and report every attempt:

1. The primary tool is tried up to ``Retry.attempts`` times. Only *transient*
   failures are retried: :class:`TransientError`, ``TimeoutError`` (a timed-out
   attempt included), ``ConnectionError``, the transport errors of httpx, requests
   and aiohttp (:data:`TRANSPORT_ERRORS`) and what ``Retry.retry_on`` adds.
   Anything else (a city that does not exist, a bad value) is the model's to
   hear at once: retrying it would fail the same way.
2. Before each retry the policy waits a backoff from :mod:`conductor.backoff`
   (full jitter by default). ``Retry.deadline`` bounds the whole call: a wait
   that would cross it is not started, the call stops there instead.
3. When the primary's last failure is transient, the fallbacks are tried once
   each, in order. The first that answers gives the output, marked with where
   it came from so the model can say the data may be stale: a dict output gets
   ``"source": "<fallback name>"`` added (unless it has a ``"source"`` key of its
   own), any other output is wrapped as ``{"source": ..., "result": ...}``.

The retry loop is tenacity's (``Retrying`` / ``AsyncRetrying``); the wait, the
stop and the attempt records are this module's, plugged into it. The first try
runs before tenacity is set up, and tenacity takes over only once it has failed:
a call that succeeds at once (nearly all of them) pays for none of its machinery.

Timeouts. An async tool that runs past its timeout is cancelled for real. A sync
tool cannot be: Python has no way to kill a thread, so the call becomes an error
result at the timeout and the thread is left to finish, its late result thrown
away. For a sync tool that must really stop, two remedies:

* :func:`cancelled` -- a cooperative cancel: a long loop inside the tool asks
  ``cd.cancelled()`` now and then and returns early once its time is up;
* :func:`run_killable` -- run the work in a child process, killed at the timeout.

Waits. The policy sleeps on a :class:`Clock`. The default one really sleeps;
:class:`SimulatedClock` only advances its own time, so a lesson notebook can show
a schedule of 0.5 s, 1 s, 2 s waits in no time: ``set_clock(SimulatedClock())``
for every policy, or ``Retry(clock=SimulatedClock())`` for one. Records keep the
wait the policy chose (``Attempt.waited``) either way; their start and end times
are always real.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import inspect
import logging
import math
import multiprocessing
import random
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import tenacity

from . import workers
from .backoff import JITTERS, Jitter, backoff_delay
from .trace import Attempt

__all__ = [
    "TransientError",
    "ToolTimeout",
    "RunDeadlineExceeded",
    "Retry",
    "Clock",
    "RealClock",
    "SimulatedClock",
    "set_clock",
    "get_clock",
    "Outcome",
    "run_policy",
    "arun_policy",
    "is_transient",
    "mark_source",
    "cancelled",
    "run_killable",
    "check_policy",
]

logger = logging.getLogger(__name__)

class TransientError(Exception):
    """Raised by a tool for a failure worth retrying (a service briefly down, a 503): always retried."""


class ToolTimeout(TimeoutError):
    """An attempt ran past its timeout; transient, so a retry policy retries it."""


class RunDeadlineExceeded(Exception):
    """A call was cut off by the whole run's deadline; not transient: nothing is retried after it."""


RETRIED_BY_DEFAULT: tuple[type[BaseException], ...] = (TransientError, TimeoutError, ConnectionError)
# The HTTP libraries' own transport errors (a refused connection, a read timeout) do not subclass the
# builtins above; they are retried too. Named, not imported: a tool that raised one has loaded it.
TRANSPORT_ERRORS = {
    "httpx": ("TransportError",),
    "httpx2": ("TransportError",),
    "requests.exceptions": ("ConnectionError", "Timeout"),
    "aiohttp": ("ClientConnectionError",),
}


def transport_errors() -> tuple[type[BaseException], ...]:
    """The transport error classes of the HTTP libraries loaded in this process."""
    found = []
    for module_name, names in TRANSPORT_ERRORS.items():
        module = sys.modules.get(module_name)
        found += [c for c in (getattr(module, n, None) for n in names) if isinstance(c, type)]
    return tuple(found)


# -- clocks ------------------------------------------------------------------------------


class Clock(Protocol):
    """Where a policy reads the time and waits its backoff."""

    def now(self) -> float: ...

    def sleep(self, seconds: float) -> None: ...

    async def asleep(self, seconds: float) -> None: ...


class RealClock:
    """Real time: ``time.perf_counter``, ``time.sleep`` and ``asyncio.sleep``."""

    def now(self) -> float:
        return time.perf_counter()

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)

    async def asleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    def __repr__(self) -> str:
        return "RealClock()"


class SimulatedClock:
    """Waits take no time: each one only moves this clock's time forward.

    ``now()`` is real time plus every wait taken so far, so deadlines still count
    the waits. ``waited`` is the total. Thread-safe (parallel calls share it).
    """

    def __init__(self) -> None:
        self.waited = 0.0
        self._lock = threading.Lock()

    def now(self) -> float:
        return time.perf_counter() + self.waited

    def sleep(self, seconds: float) -> None:
        with self._lock:
            self.waited += seconds

    async def asleep(self, seconds: float) -> None:
        self.sleep(seconds)

    def __repr__(self) -> str:
        return f"SimulatedClock(waited={self.waited:.3f})"


_clock: Clock = RealClock()


def set_clock(clock: Clock | None) -> Clock:
    """Make ``clock`` the one every policy without ``clock=`` uses (None: real time); returns the old one.

    A lesson notebook calls ``cd.retry.set_clock(cd.SimulatedClock())`` once, so that
    backoff waits are recorded but not slept.
    """
    global _clock
    previous, _clock = _clock, clock if clock is not None else RealClock()
    return previous


def get_clock() -> Clock:
    """The clock policies use when theirs is not set."""
    return _clock


# -- the policy ----------------------------------------------------------------------------


def _seconds(name: str, value: Any, *, allow_zero: bool = True) -> None:
    ok = not isinstance(value, bool) and isinstance(value, int | float) and math.isfinite(value)
    if not ok or value < 0 or (value == 0 and not allow_zero):
        bound = ">= 0" if allow_zero else "> 0"
        raise ValueError(f"{name} must be a finite number of seconds {bound}, got {value!r}")


@dataclass(frozen=True)
class Retry:
    """How to retry a tool's transient failures.

    Args:
        attempts: tries in all, the first included (``attempts=1``: no retry).
        base: the first backoff, in seconds; each later one doubles, up to ``cap``.
        cap: the longest single wait, in seconds.
        jitter: ``"full"`` (default), ``"equal"``, ``"decorrelated"`` or ``"none"``
            (see :mod:`conductor.backoff`).
        deadline: total seconds for the primary's attempts, from the first; a wait
            that would cross it is not started. It also shortens an attempt's ``timeout``
            when less time is left (without a ``timeout`` an attempt itself is not cut).
            The fallbacks still get their turn after it.
        retry_on: more exception types to retry, besides :class:`TransientError`,
            ``TimeoutError`` and ``ConnectionError``.
        seed: seeds the jitter, for the same waits on every run (None: fresh randomness).
        clock: where to wait (None: the clock of :func:`set_clock`, real time by default).
    """

    attempts: int = 3
    base: float = 0.5
    cap: float = 8.0
    jitter: Jitter = "full"
    deadline: float | None = None
    retry_on: tuple[type[BaseException], ...] = ()
    seed: int | None = None
    clock: Clock | None = field(default=None, compare=False)
    _rng: random.Random = field(init=False, repr=False, compare=False)
    _lock: threading.Lock = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.attempts, bool) or not isinstance(self.attempts, int) or self.attempts < 1:
            raise ValueError(f"attempts counts tries, the first included: a whole number >= 1, got {self.attempts!r}")
        _seconds("base", self.base)
        _seconds("cap", self.cap)
        if self.cap < self.base:
            raise ValueError(f"cap ({self.cap!r} s) is below base ({self.base!r} s); pass a cap of at least base")
        if self.jitter not in JITTERS:
            raise ValueError(f"unknown jitter {self.jitter!r}; choose one of: {', '.join(map(repr, JITTERS))}")
        if self.deadline is not None:
            _seconds("deadline", self.deadline, allow_zero=False)
        retry_on = self.retry_on if isinstance(self.retry_on, tuple | list) else (self.retry_on,)
        for kind in retry_on:
            if not (isinstance(kind, type) and issubclass(kind, BaseException)):
                raise ValueError(f"retry_on takes exception classes, e.g. retry_on=(KeyError,), got {kind!r}")
        object.__setattr__(self, "retry_on", tuple(retry_on))
        # One generator per policy, drawn under a lock: parallel calls of one tool get different
        # waits (the point of jitter), and a seeded run repeats them in the same call order.
        object.__setattr__(self, "_rng", random.Random(self.seed))
        object.__setattr__(self, "_lock", threading.Lock())

    def wait(self, retry: int, previous: float | None) -> float:
        """Seconds to wait before retry number ``retry`` (1 = the first retry)."""
        with self._lock:
            return backoff_delay(self.jitter, retry, base=self.base, cap=self.cap, previous=previous, rng=self._rng)

    def retries(self, error: BaseException) -> bool:
        """True when ``error`` is transient for this policy."""
        return isinstance(error, RETRIED_BY_DEFAULT + self.retry_on) or isinstance(error, transport_errors())


NO_RETRY = Retry(attempts=1)


def is_transient(error: BaseException, retry: Retry | None = None) -> bool:
    """True for what a retry (or a fallback) may fix: see :class:`Retry`'s ``retry_on``."""
    return (retry or NO_RETRY).retries(error)


def check_policy(name: str, retry: Any, timeout: Any, fallbacks: Any) -> tuple[Retry | None, float | None, tuple]:
    """Validate ``@tool``'s policy arguments; raise ``ValueError`` / ``TypeError`` naming the fix."""
    if retry is not None and not isinstance(retry, Retry):
        raise TypeError(f"tool {name!r}: retry= takes a cd.Retry(...), e.g. retry=cd.Retry(attempts=3), got {retry!r}")
    if timeout is not None:
        _seconds(f"tool {name!r}: timeout", timeout, allow_zero=False)
    if callable(fallbacks) or isinstance(fallbacks, str):
        fallbacks = [fallbacks]  # a lone fallback is taken as a list of one
    fallbacks = tuple(fallbacks or ())
    for fallback in fallbacks:
        if not callable(fallback):
            raise TypeError(f"tool {name!r}: each fallback must be a tool or a function taking the same arguments, "
                            f"got {fallback!r}")
    return retry, (float(timeout) if timeout is not None else None), fallbacks


# -- running one attempt -----------------------------------------------------------------------

class _Flag:
    """Set once when a call is given up. A bare attribute, not a threading.Event: no tool waits
    on it, tools only poll it, and an Event (a condition and a lock) costs each guarded call ~10 us."""

    __slots__ = ("is_set",)

    def __init__(self) -> None:
        self.is_set = False


_cancel: contextvars.ContextVar[_Flag | None] = contextvars.ContextVar("conductor_cancel", default=None)


def cancelled() -> bool:
    """True once the tool call running in this thread has been given up (timeout or run deadline).

    A sync tool cannot be stopped from outside; a long one checks this between
    steps and returns early. Outside a call with a timeout it is always False.
    """
    flag = _cancel.get()
    return flag is not None and flag.is_set


def _call_sync(func: Callable[..., Any], arguments: dict[str, Any]) -> Any:
    """Call a tool's function in this thread; an async one gets a loop of its own.

    Where this thread already runs a loop (a Jupyter cell calling ``llm.run``), that
    loop is busy waiting for us: the coroutine runs on a new loop in a helper thread.
    """
    result = func(**arguments)
    if not inspect.isawaitable(result):
        return result
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(_awaited(result))
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, _awaited(result)).result()


async def _awaited(awaitable: Awaitable[Any]) -> Any:
    return await awaitable


@dataclass(frozen=True)
class _Limit:
    """How long one attempt may run, and what to say when it runs out."""

    seconds: float | None
    by_run_deadline: bool = False

    def error(self, name: str, ran: bool = True) -> Exception:
        if self.by_run_deadline and ran:
            return RunDeadlineExceeded(
                f"{name} was abandoned at the run's deadline (still running after {self.seconds:.1f} s); "
                f"its result, if it comes, is discarded"
            )
        if self.by_run_deadline:
            return RunDeadlineExceeded(f"{name} was not run: the run's deadline had passed before it could start")
        if ran:
            return ToolTimeout(f"{name} timed out after {self.seconds:.1f} s")
        return ToolTimeout(f"{name} was not tried: its retry deadline had passed")


def _limit(timeout: float | None, until: float | None, run_deadline: float | None, clock: Clock) -> _Limit:
    """The tightest of the tool's timeout, the policy's deadline and the run's deadline."""
    seconds, by_run = timeout, False
    if until is not None:
        left = max(0.0, until - clock.now())
        seconds = left if seconds is None else min(seconds, left)
    if run_deadline is not None:
        left = max(0.0, run_deadline - time.perf_counter())
        if seconds is None or left < seconds:
            seconds, by_run = left, True
    return _Limit(seconds, by_run)


def attempt_sync(
    name: str, func: Callable[..., Any], arguments: dict[str, Any], limit: _Limit, in_line: bool = False
) -> Any:
    """One try, in this thread when nothing limits it (or the tool is declared never to block, ``in_line``),
    else in a daemon worker waited on for ``limit``."""
    if limit.seconds is not None and limit.seconds <= 0:
        raise limit.error(name, ran=False)  # no time left: not started, so no side effect runs unseen
    if limit.seconds is None or in_line:
        return _call_sync(func, arguments)
    flag = _Flag()
    context = contextvars.copy_context()
    context.run(_cancel.set, flag)
    job = workers.submit(_call_sync, func, arguments, context=context)
    if not job.wait(limit.seconds):
        flag.is_set = True  # a cooperative tool sees cd.cancelled() and can stop
        raise limit.error(name)
    return job.result()


async def attempt_async(
    name: str, func: Callable[..., Any], arguments: dict[str, Any], limit: _Limit, is_async: bool,
    in_line: bool = False,
) -> Any:
    """One try on the event loop: an async tool is cancelled at its limit, a sync one abandoned in its thread
    (a sync one declared never to block, ``in_line``, runs on the loop: it cannot be interrupted, and needs not be)."""
    if limit.seconds is not None and limit.seconds <= 0:
        raise limit.error(name, ran=False)  # no time left: not started, so no side effect runs unseen
    if in_line and not is_async:
        return _call_sync(func, arguments)
    if is_async:
        if limit.seconds is None:
            return await func(**arguments)
        # asyncio.timeout, not wait_for: a TimeoutError the tool raises itself stays the tool's.
        scope = asyncio.timeout(limit.seconds)
        try:
            async with scope:
                return await func(**arguments)
        except TimeoutError:
            if scope.expired():
                raise limit.error(name) from None
            raise
    # A worker thread either way: the loop must not wait for a sync tool. Only a limit needs the flag.
    if limit.seconds is None:
        return (await workers.hand_over(_call_sync, func, arguments, context=contextvars.copy_context())).result()
    flag = _Flag()
    context = contextvars.copy_context()
    context.run(_cancel.set, flag)
    try:
        job = await workers.hand_over(_call_sync, func, arguments, context=context, timeout=limit.seconds)
    except TimeoutError:
        flag.is_set = True
        raise limit.error(name) from None
    return job.result()


# -- one call: the primary's attempts, then the fallbacks ------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """What a call under a policy came to: a value, or the error for the model; every attempt."""

    value: Any
    error: str | None
    attempts: tuple[Attempt, ...]
    fallback: str | None = None


def error_text(exc: BaseException) -> str:
    """The model's view of a failure; a timeout's message says it all by itself."""
    if isinstance(exc, ToolTimeout | RunDeadlineExceeded):
        return str(exc)
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def mark_source(value: Any, source: str) -> Any:
    """A fallback's output, marked with where it came from (see the module's docstring)."""
    if isinstance(value, dict) and "source" not in value:
        return {**value, "source": source}
    return {"source": source, "result": value}


def _fallback_name(fallback: Any) -> str:
    return getattr(fallback, "name", None) or getattr(fallback, "__name__", None) or repr(fallback)


def _fallback_func(fallback: Any) -> tuple[Callable[..., Any], bool, bool]:
    """A fallback's function, whether it is async, and whether it runs in-line (a tool's ``sync_to_thread=False``)."""
    func = getattr(fallback, "func", fallback)  # a Tool's function; a plain function as it is
    is_async = getattr(fallback, "is_async", None)
    if is_async is None:
        is_async = inspect.iscoroutinefunction(func)
    return func, bool(is_async), getattr(fallback, "sync_to_thread", True) is False


class _Book:
    """The attempts of one call as they happen, in times relative to ``origin``."""

    def __init__(self, origin: float) -> None:
        self.origin = origin
        self.attempts: list[Attempt] = []
        self.pending_wait = 0.0  # chosen by the policy before the next attempt
        self.previous_wait: float | None = None

    def add(self, name: str, started: float, error: BaseException | None) -> None:
        self.attempts.append(Attempt(
            tool=name,
            error=None if error is None else error_text(error),
            waited=self.pending_wait,
            started=started - self.origin,
            ended=time.perf_counter() - self.origin,
        ))
        self.pending_wait = 0.0

    def slept(self, seconds: float) -> None:
        self.pending_wait = seconds
        self.previous_wait = seconds


@dataclass
class _Plan:
    """Everything one call's policy needs, worked out once."""

    name: str
    func: Callable[..., Any]
    is_async: bool
    in_line: bool  # a sync tool declared sync_to_thread=False
    retry: Retry
    timeout: float | None
    fallbacks: tuple[Any, ...]
    clock: Clock
    until: float | None  # the policy's deadline on ``clock``
    run_deadline: float | None  # the run's, on perf_counter
    book: _Book


def _plan(tool: Any, origin: float, run_deadline: float | None) -> _Plan:
    retry = tool.retry or NO_RETRY
    clock = retry.clock or _clock
    until = clock.now() + retry.deadline if retry.deadline is not None else None
    return _Plan(tool.name, tool.func, tool.is_async, not tool.sync_to_thread, retry, tool.timeout, tool.fallbacks,
                 clock, until, run_deadline, _Book(origin))


def _tenacity_options(plan: _Plan) -> dict[str, Any]:
    """The wait, stop and retry rules of ``plan`` in tenacity's terms.

    tenacity runs the loop; two rules are this module's own. The wait: tenacity's
    ``wait_random_exponential`` is full jitter only and draws from the global
    ``random``, while a lesson needs all four jitters and a seed. The deadline:
    ``stop_before_delay`` reads ``time.monotonic``, which a simulated clock's waits
    never move, and knows nothing of the run's deadline.
    """
    retry = plan.retry

    def wait(state: tenacity.RetryCallState) -> float:
        if state.attempt_number >= retry.attempts:
            return 0.0  # stopping anyway: draw nothing, so the next call's waits stay as seeded
        return retry.wait(state.attempt_number, plan.book.previous_wait)

    def crosses_a_deadline(state: tenacity.RetryCallState) -> bool:
        # Stop *before* a wait that would cross a deadline (tenacity's stop_after_delay would sleep through it).
        wake = state.upcoming_sleep
        if plan.until is not None and plan.clock.now() + wake >= plan.until:
            return True
        return plan.run_deadline is not None and time.perf_counter() + wake >= plan.run_deadline

    def before_sleep(state: tenacity.RetryCallState) -> None:
        plan.book.slept(state.upcoming_sleep)
        logger.info("%s: attempt %d failed (%s); retrying in %.2f s", plan.name, state.attempt_number,
                    plan.book.attempts[-1].error, state.upcoming_sleep)

    return {
        "stop": tenacity.stop_after_attempt(retry.attempts) | crosses_a_deadline,
        "wait": wait,
        "retry": tenacity.retry_if_exception(retry.retries),
        "before_sleep": before_sleep,
        "reraise": True,
    }


def _replaying(first: Exception, attempt: Callable[[], Any]) -> Callable[[], Any]:
    """``attempt`` for tenacity once the first try has failed: its first call re-raises that failure.

    The first try runs outside tenacity because nearly every call succeeds at once, and
    setting tenacity up (its state, a Future per attempt, the rules) would cost each
    call more than the tool itself. Replaying the failure lets tenacity take over as if
    it had run that try: the same waits, stops and records, the try not run twice.
    """
    replayed = False

    def replay_then_attempt() -> Any:
        nonlocal replayed
        if not replayed:
            replayed = True
            raise first
        return attempt()

    return replay_then_attempt


def _areplaying(first: Exception, attempt: Callable[[], Awaitable[Any]]) -> Callable[[], Awaitable[Any]]:
    """The event-loop twin of :func:`_replaying`."""
    replayed = False

    async def replay_then_attempt() -> Any:
        nonlocal replayed
        if not replayed:
            replayed = True
            raise first
        return await attempt()

    return replay_then_attempt


def _fallback_limit(fallback: Any, plan: _Plan) -> _Limit:
    """A fallback's own timeout (else the tool's) and the run's deadline; not the retry deadline,
    which bounds the primary's retries: the fallbacks are what is left to try once it has passed."""
    return _limit(getattr(fallback, "timeout", None) or plan.timeout, None, plan.run_deadline, plan.clock)


def _final_error(plan: _Plan, primary: BaseException, fallback_errors: Sequence[str]) -> str:
    tries = sum(1 for a in plan.book.attempts if a.tool == plan.name)
    text = error_text(primary) + (f" ({tries} attempts)" if tries > 1 else "")
    if fallback_errors:
        text += "; the fallbacks failed too: " + "; ".join(fallback_errors)
    return text


class _Recorded:
    """Record the attempt run inside the ``with`` block: its times, and its error if it raises.

    A class rather than a ``contextlib.contextmanager`` generator: every guarded call
    enters one, and a generator costs it a microsecond more.
    """

    __slots__ = ("book", "name", "started")

    def __init__(self, book: _Book, name: str) -> None:
        self.book = book
        self.name = name

    def __enter__(self) -> None:
        self.started = time.perf_counter()

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, traceback: Any) -> None:
        if error is None:
            self.book.add(self.name, self.started, None)
        elif isinstance(error, Exception):  # KeyboardInterrupt or a cancelled task is no attempt's outcome
            self.book.add(self.name, self.started, error)


@dataclass(frozen=True)
class _Fallback:
    name: str
    func: Callable[..., Any]
    is_async: bool
    in_line: bool
    limit: _Limit


def _fallbacks(plan: _Plan, primary: BaseException) -> Iterator[_Fallback]:
    """The fallbacks to try, in order: none after a failure that is not transient."""
    if not plan.retry.retries(primary):
        return
    for fallback in plan.fallbacks:
        func, is_async, in_line = _fallback_func(fallback)
        yield _Fallback(_fallback_name(fallback), func, is_async, in_line, _fallback_limit(fallback, plan))


def _answered(plan: _Plan, value: Any) -> Outcome:
    return Outcome(value, None, tuple(plan.book.attempts))


def _from_fallback(plan: _Plan, value: Any, fallback: str, primary: BaseException) -> Outcome:
    logger.info("%s answered from fallback %s after: %s", plan.name, fallback, error_text(primary))
    return Outcome(mark_source(value, fallback), None, tuple(plan.book.attempts), fallback)


def _failed(plan: _Plan, primary: BaseException, fallback_errors: Sequence[str]) -> Outcome:
    return Outcome(None, _final_error(plan, primary, fallback_errors), tuple(plan.book.attempts))


def run_policy(tool: Any, arguments: dict[str, Any], *, origin: float = 0.0, deadline: float | None = None) -> Outcome:
    """Call ``tool`` with ``arguments`` under its retry, timeout and fallbacks, in this thread.

    ``deadline`` is the run's, an absolute ``time.perf_counter()``: no attempt
    runs past it and no wait crosses it.
    """
    plan = _plan(tool, origin, deadline)

    def attempt() -> Any:
        with _Recorded(plan.book, plan.name):
            limit = _limit(plan.timeout, plan.until, deadline, plan.clock)
            return attempt_sync(plan.name, plan.func, arguments, limit, plan.in_line)

    try:
        try:
            value = attempt()
        except Exception as first:  # noqa: BLE001 - tenacity decides what follows (see _replaying)
            retrying = tenacity.Retrying(sleep=plan.clock.sleep, **_tenacity_options(plan))
            value = retrying(_replaying(first, attempt))
        return _answered(plan, value)
    except Exception as exc:  # noqa: BLE001 - the model hears of it
        primary = exc
    errors = []
    for fallback in _fallbacks(plan, primary):
        try:
            with _Recorded(plan.book, fallback.name):
                value = attempt_sync(fallback.name, fallback.func, arguments, fallback.limit, fallback.in_line)
        except Exception as exc:  # noqa: BLE001 - on to the next fallback
            errors.append(f"{fallback.name}: {error_text(exc)}")
            continue
        return _from_fallback(plan, value, fallback.name, primary)
    return _failed(plan, primary, errors)


async def arun_policy(tool: Any, arguments: dict[str, Any], *, origin: float = 0.0,
                      deadline: float | None = None) -> Outcome:
    """The event-loop twin of :func:`run_policy`: waits are ``await``-ed, async tools cancelled at their limit."""
    plan = _plan(tool, origin, deadline)

    async def attempt() -> Any:
        with _Recorded(plan.book, plan.name):
            limit = _limit(plan.timeout, plan.until, deadline, plan.clock)
            return await attempt_async(plan.name, plan.func, arguments, limit, plan.is_async, plan.in_line)

    try:
        try:
            value = await attempt()
        except Exception as first:  # noqa: BLE001 - tenacity decides what follows (see _replaying)
            retrying = tenacity.AsyncRetrying(sleep=plan.clock.asleep, **_tenacity_options(plan))
            value = await retrying(_areplaying(first, attempt))
        return _answered(plan, value)
    except Exception as exc:  # noqa: BLE001 - the model hears of it
        primary = exc
    errors = []
    for fallback in _fallbacks(plan, primary):
        try:
            with _Recorded(plan.book, fallback.name):
                value = await attempt_async(fallback.name, fallback.func, arguments, fallback.limit, fallback.is_async,
                                            fallback.in_line)
        except Exception as exc:  # noqa: BLE001 - on to the next fallback
            errors.append(f"{fallback.name}: {error_text(exc)}")
            continue
        return _from_fallback(plan, value, fallback.name, primary)
    return _failed(plan, primary, errors)


# -- a hard stop: a child process -------------------------------------------------------------


def _child(conn: Any, func: Callable[..., Any], args: tuple, kwargs: dict[str, Any]) -> None:
    try:
        conn.send((True, func(*args, **kwargs)))
    except BaseException as exc:  # noqa: BLE001 - sent back to the parent, raised there
        conn.send((False, exc))
    finally:
        conn.close()


def run_killable(func: Callable[..., Any], /, *args: Any, timeout: float, **kwargs: Any) -> Any:
    """Run ``func(*args, **kwargs)`` in a child process and kill it if it runs past ``timeout`` seconds.

    The remedy for a sync tool that must really stop (a thread cannot be killed).
    Raises :class:`ToolTimeout` after killing the child, and re-raises an exception
    the function raised. Arguments and the result cross a pipe, so they must
    pickle. On Linux the child is forked (a function defined in a notebook works);
    where fork is unavailable it is spawned and ``func`` must be importable.
    """
    _seconds("timeout", timeout, allow_zero=False)
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(send, func, args, kwargs), daemon=True)
    process.start()
    send.close()
    try:
        if not receive.poll(timeout):
            process.kill()
            process.join()
            name = getattr(func, "__name__", "the function")
            raise ToolTimeout(f"{name} timed out after {timeout:.1f} s (its process was killed)")
        ok, payload = receive.recv()
    except EOFError:
        process.join()
        raise RuntimeError(f"the child process died (exit code {process.exitcode}) before it answered") from None
    finally:
        receive.close()
    process.join()
    if ok:
        return payload
    raise payload
