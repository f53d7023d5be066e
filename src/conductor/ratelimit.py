"""Rate limits: tool calls per user, and requests and tokens per minute for the whole app.

Written by hand rather than with ``aiolimiter`` or ``pyrate-limiter``: one
limiter here serves both sync and async code, takes an injectable clock (tests
run a minute in no time), tells a caller *how long* it would wait before it
waits (so a wait that would pass a deadline or ``max_wait`` is refused up
front), and records every wait; aiolimiter is async-only and neither library
lets a test swap the clock.

The rule is a sliding window, exactly as the limits are stated: at most
``limit`` units in any ``period`` seconds. A caller that must wait is given
its slot in the future at once, so concurrent callers queue in order instead
of all waking together.
"""

from __future__ import annotations

import asyncio
import logging
import math
import threading
import time
from collections import deque
from dataclasses import dataclass

__all__ = ["RateLimit", "Clock", "SystemClock", "FakeClock", "Window", "RateLimited", "WaitLog", "Wait"]

logger = logging.getLogger(__name__)

MINUTE = 60.0


@dataclass(frozen=True)
class RateLimit:
    """How much work may start per minute.

    * ``tool_calls_per_minute``: per user (the production advice: 10). A call
      over the limit waits up to ``max_wait`` seconds for its turn; beyond
      that it is refused and the model is told when to try again.
    * ``requests_per_minute`` / ``tokens_per_minute``: model requests and
      their tokens (estimated input plus ``max_tokens``, as OpenAI counts)
      for the whole orchestrator, to stay under the provider's own limits.
      These wait, as long as the run's deadline allows.

    ``None`` switches a limit off.
    """

    tool_calls_per_minute: int | None = 10
    requests_per_minute: int | None = None
    tokens_per_minute: int | None = None
    max_wait: float = 0.0

    def __post_init__(self) -> None:
        for name in ("tool_calls_per_minute", "requests_per_minute", "tokens_per_minute"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise ValueError(f"RateLimit {name} must be a whole number above 0, or None for no limit; got {value!r}")
        if not self.max_wait >= 0:
            raise ValueError(f"RateLimit max_wait must be seconds, 0 or more; got {self.max_wait!r}")


class Clock:
    """What a limiter reads and how it waits; tests pass a :class:`FakeClock`."""

    def now(self) -> float:
        raise NotImplementedError

    def sleep(self, seconds: float) -> None:
        raise NotImplementedError

    async def asleep(self, seconds: float) -> None:
        raise NotImplementedError


class SystemClock(Clock):
    """The machine's monotonic clock."""

    def now(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)

    async def asleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


class FakeClock(Clock):
    """A clock that moves only when something sleeps on it (or :meth:`advance` is called)."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._lock = threading.Lock()

    def now(self) -> float:
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> None:
        with self._lock:
            self._now += seconds

    def sleep(self, seconds: float) -> None:
        self.advance(seconds)

    async def asleep(self, seconds: float) -> None:
        self.advance(seconds)
        await asyncio.sleep(0)  # let other tasks run, as a real wait would


class RateLimited(Exception):
    """Work refused by a rate limit; the message says which limit and when to try again."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


@dataclass(frozen=True)
class Wait:
    """One wait (or refusal) a limit imposed."""

    limit: str  # "tool calls of alice", "requests", "tokens"
    seconds: float
    refused: bool


class WaitLog:
    """Every wait and refusal, thread-safe, for the metrics."""

    def __init__(self) -> None:
        self._waits: list[Wait] = []
        self._lock = threading.Lock()

    def add(self, wait: Wait) -> None:
        with self._lock:
            self._waits.append(wait)
        logger.info("rate limit on %s: %s %.3f s", wait.limit, "refused, retry in" if wait.refused else "waited",
                    wait.seconds)

    @property
    def waits(self) -> list[Wait]:
        with self._lock:
            return list(self._waits)

    def clear(self) -> None:
        """Forget the waits logged so far (the limits' windows are kept: they are not measurements)."""
        with self._lock:
            self._waits.clear()


class Window:
    """At most ``limit`` units in any ``period`` seconds: a sliding-window log with future slots."""

    def __init__(self, limit: int, period: float = MINUTE, clock: Clock | None = None) -> None:
        if limit < 1 or period <= 0:
            raise ValueError("a Window needs limit >= 1 and period > 0")
        self.limit = limit
        self.period = period
        self.clock = clock or SystemClock()
        self._events: deque[tuple[float, int]] = deque()  # (start time, units), in time order
        self._lock = threading.Lock()

    def _slot(self, units: int, now: float) -> float:
        """The earliest time, no earlier than the last slot given, when ``units`` more fit in the window."""
        while self._events and self._events[0][0] <= now - self.period:
            self._events.popleft()
        at = max(now, self._events[-1][0]) if self._events else now
        events = list(self._events)
        first = next((i for i, (t, _) in enumerate(events) if t > at - self.period), len(events))
        used = sum(u for _, u in events[first:])
        # Walk the window by index, not by comparing times again: t + period - period may round below t.
        while used + units > self.limit:
            start, amount = events[first]
            at = max(at, start + self.period)  # the oldest slot in the window leaves it then
            used -= amount
            first += 1
        return at

    def idle(self, now: float) -> bool:
        """Has every slot taken left the window by ``now`` (so forgetting the window changes nothing)?"""
        with self._lock:
            return not self._events or self._events[-1][0] <= now - self.period

    def reserve(self, units: int = 1, max_wait: float = math.inf) -> float:
        """Take a slot for ``units``; the seconds to wait for it. Raises :class:`RateLimited` past ``max_wait``."""
        return self.take(units, max_wait)[1]

    def take(self, units: int = 1, max_wait: float = math.inf) -> tuple[tuple[float, int], float]:
        """:meth:`reserve`, also returning the slot itself, for :meth:`cancel`."""
        if units > self.limit:
            raise RateLimited(f"{units} units can never fit a limit of {self.limit} per {self.period:g} s", math.inf)
        with self._lock:
            now = self.clock.now()
            at = self._slot(units, now)
            wait = at - now
            if wait > max_wait:
                raise RateLimited(f"limit of {self.limit} per {self.period:g} s reached", wait)
            self._events.append((at, units))
            return (at, units), wait

    def cancel(self, slot: tuple[float, int]) -> None:
        """Give back a slot from :meth:`take` (the work will not start after all)."""
        with self._lock:
            if slot in self._events:
                self._events.remove(slot)

    def acquire(self, units: int = 1, max_wait: float = math.inf) -> float:
        """:meth:`reserve`, then sleep until the slot; the seconds waited."""
        wait = self.reserve(units, max_wait)
        if wait > 0:
            self.clock.sleep(wait)
        return wait

    async def aacquire(self, units: int = 1, max_wait: float = math.inf) -> float:
        wait = self.reserve(units, max_wait)
        if wait > 0:
            await self.clock.asleep(wait)
        return wait


USERS_BEFORE_SWEEP = 1024


class Limiters:
    """The windows of one :class:`RateLimit`: one per user for tool calls, one each for requests and tokens."""

    def __init__(self, rate: RateLimit, clock: Clock | None = None) -> None:
        self.rate = rate
        self.clock = clock or SystemClock()
        self.log = WaitLog()
        self._users: dict[str, Window] = {}
        self._sweep_at = USERS_BEFORE_SWEEP  # windows kept before the idle ones are dropped
        self._lock = threading.Lock()
        self.requests = Window(rate.requests_per_minute, clock=self.clock) if rate.requests_per_minute else None
        self.tokens = Window(rate.tokens_per_minute, clock=self.clock) if rate.tokens_per_minute else None

    @property
    def paces_requests(self) -> bool:
        """Is there a request or token limit to wait for?"""
        return self.requests is not None or self.tokens is not None

    def user_window(self, user: str) -> Window | None:
        if self.rate.tool_calls_per_minute is None:
            return None
        with self._lock:
            window = self._users.get(user)
            if window is None:
                if len(self._users) >= self._sweep_at:
                    self._drop_idle_windows()
                window = self._users[user] = Window(self.rate.tool_calls_per_minute, clock=self.clock)
            return window

    def _drop_idle_windows(self) -> None:
        """Forget the users whose calls have all left their window: a long-lived orchestrator meets new
        users without end, and would otherwise keep a window for each. Swept when the count doubles."""
        now = self.clock.now()
        self._users = {user: window for user, window in self._users.items() if not window.idle(now)}
        self._sweep_at = max(USERS_BEFORE_SWEEP, 2 * len(self._users))

    def _tool_wait(self, user: str, max_wait: float = math.inf) -> tuple[Window, float] | None:
        window = self.user_window(user)
        if window is None:
            return None
        try:
            wait = window.reserve(1, min(self.rate.max_wait, max_wait))
        except RateLimited as exc:
            self.log.add(Wait(f"tool calls of {user}", exc.retry_after, refused=True))
            raise RateLimited(
                f"rate limit: {user} may make {self.rate.tool_calls_per_minute} tool calls a minute and has "
                f"made them; this call was not run. Try again in {math.ceil(exc.retry_after)} s, or answer "
                "with what you have.",
                exc.retry_after,
            ) from None
        if wait > 0:
            self.log.add(Wait(f"tool calls of {user}", wait, refused=False))
        return window, wait

    def tool_call(self, user: str) -> None:
        """Before one tool call of ``user``: wait for its turn, or raise :class:`RateLimited`."""
        taken = self._tool_wait(user)
        if taken and taken[1] > 0:
            self.clock.sleep(taken[1])

    async def atool_call(self, user: str, max_wait: float = math.inf) -> None:
        """:meth:`tool_call` on the event loop; ``max_wait`` (seconds) lowers the limit's own ``max_wait``."""
        taken = self._tool_wait(user, max_wait)
        if taken and taken[1] > 0:
            await self.clock.asleep(taken[1])

    def _request_wait(self, tokens: int, max_wait: float) -> float:
        wait = 0.0
        taken: list[tuple[Window, tuple[float, int]]] = []
        for name, window, units in (("requests", self.requests, 1), ("tokens", self.tokens, tokens)):
            if window is None:
                continue
            try:
                slot, step = window.take(units, max_wait)
            except RateLimited as exc:
                for earlier, earlier_slot in taken:  # the request will not be sent: free what it held
                    earlier.cancel(earlier_slot)
                self.log.add(Wait(name, exc.retry_after, refused=True))
                raise
            taken.append((window, slot))
            wait = max(wait, step)
        if wait > 0:
            self.log.add(Wait("requests and tokens", wait, refused=False))
        return wait

    def request(self, tokens: int, max_wait: float = math.inf) -> None:
        """Before one model request of ``tokens``: wait for its slot (raises past ``max_wait``)."""
        wait = self._request_wait(tokens, max_wait)
        if wait > 0:
            self.clock.sleep(wait)

    async def arequest(self, tokens: int, max_wait: float = math.inf) -> None:
        wait = self._request_wait(tokens, max_wait)
        if wait > 0:
            await self.clock.asleep(wait)

