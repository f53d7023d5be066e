"""Worker threads for sync tools: daemon threads reused between calls, and the hand-over to them and back.

A sync tool must not run on the event loop (it would stall every other
conversation), and a sync tool under a timeout must not run in the caller's
thread (Python cannot interrupt it there). Either way the call is handed to a
worker thread. Every sync tool call of a batch pays for that hand-over, so it is
kept lean, and the threads are made once and reused across calls, turns and runs
(a thread start costs about as much as a whole tool call).

* :func:`submit` runs ``func(*args)`` on a worker in a given context and returns
  its :class:`Job`; a thread waits for it with ``job.wait(timeout)``.
* :func:`hand_over` does the same from a coroutine: it awaits the job on the
  event loop, at most ``timeout`` seconds.

Not a ``ThreadPoolExecutor`` on purpose: its workers are joined when the
interpreter exits, so one hung tool would keep Python from exiting, and a hung
worker keeps its slot forever, queueing later calls behind it. Here a busy
worker never delays a call (a new thread starts when none is idle), and idle
workers are reused.
"""

from __future__ import annotations

import asyncio
import collections
import contextvars
import os
import threading
import weakref
from collections.abc import Callable
from typing import Any

__all__ = ["Job", "submit", "hand_over"]


class Job:
    """One call to run on a worker in the caller's context.

    Leaner than a ``concurrent.futures.Future`` (no condition variable, no state
    machine): a thread waiting for it blocks on ``done``, a lock released when the
    call ends; a coroutine waiting for it is woken through its loop's inbox.
    """

    __slots__ = ("func", "args", "context", "value", "error", "done", "waiter", "inbox", "on_done")

    def __init__(self, func: Callable[..., Any], args: tuple[Any, ...], context: contextvars.Context | None) -> None:
        self.func = func
        self.args = args
        self.context = context
        self.value: Any = None
        self.error: BaseException | None = None
        self.done: threading.Lock | None = None  # set for a thread that waits
        self.waiter: asyncio.Future[None] | None = None  # set for a coroutine that waits
        self.inbox: _Inbox | None = None
        self.on_done: Callable[[], Any] | None = None  # called in the worker once the call has ended

    def run(self) -> None:
        try:
            if self.context is None:
                self.value = self.func(*self.args)
            else:
                self.value = self.context.run(self.func, *self.args)
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting caller
            self.error = exc

    def finish(self) -> None:
        if self.done is not None:
            self.done.release()
        if self.on_done is not None:
            self.on_done()
        if self.inbox is not None:
            self.inbox.post(self)

    def wait(self, timeout: float | None = None) -> bool:
        """Block this thread until the call has ended (True), or ``timeout`` seconds have passed (False)."""
        assert self.done is not None, "a job submitted for a coroutine is awaited with hand_over"
        return self.done.acquire(timeout=-1 if timeout is None else timeout)

    def result(self) -> Any:
        """The call's return value; raises what the call raised."""
        if self.error is not None:
            raise self.error
        return self.value


class _Workers:
    """Daemon threads that run jobs, reused between calls.

    An idle worker sleeps in ``os.read`` on a pipe, and a job wakes it with one byte.
    ``os.write`` lets go of the GIL before it wakes the worker, so the worker can
    run the tool at once. A queue or a lock would wake it while the caller still
    holds the GIL: the worker would wake only to wait for the GIL, and each call
    would pay twice the thread switches (on a loaded machine, each can cost a
    scheduler slice).
    """

    def __init__(self) -> None:
        self._start()
        if hasattr(os, "register_at_fork"):
            os.register_at_fork(after_in_child=self._after_fork)

    def _after_fork(self) -> None:
        """A forked child has none of the parent's workers, and must not wake them through the shared pipe."""
        os.close(self._wake_in)
        os.close(self._wake_out)
        self._start()

    def _start(self) -> None:
        self._jobs: collections.deque[Job] = collections.deque()
        self._wake_in, self._wake_out = os.pipe()
        # One token per idle worker. A deque's append and pop are atomic, so no lock is taken on the
        # way in, nor between the tool's end and the caller's wake-up.
        self._idle: collections.deque[None] = collections.deque()

    def submit(self, job: Job) -> Job:
        self._jobs.append(job)
        try:
            self._idle.pop()
        except IndexError:
            threading.Thread(target=self._work, name="tool-worker", daemon=True).start()
        else:
            os.write(self._wake_out, b"\0")
        return job

    def _work(self) -> None:
        # Each job in the deque comes with a thread start or a byte, so each take finds one.
        while True:
            job = self._jobs.popleft()
            job.run()
            self._idle.append(None)  # idle again before the caller wakes: nothing left to hold the GIL for
            job.finish()
            job = None  # an idle worker must not keep its last call (its tool, its run, its result) alive
            os.read(self._wake_in, 1)


_workers = _Workers()


def submit(
    func: Callable[..., Any],
    *args: Any,
    context: contextvars.Context | None = None,
    on_done: Callable[[], Any] | None = None,
) -> Job:
    """Run ``func(*args)`` on a worker thread (in ``context``, if given); wait with ``job.wait()``.

    ``on_done`` is called in the worker thread when the call has ended.
    """
    job = Job(func, args, context)
    job.done = threading.Lock()
    job.done.acquire()
    job.on_done = on_done
    return _workers.submit(job)


# -- the way back to an event loop -----------------------------------------------------------------


class _Inbox:
    """The jobs that finished for one event loop, handed to it together.

    A worker that finishes a job posts it here, and the loop is woken once
    (``call_soon_threadsafe``) for however many jobs finish before it gets to
    them: under load, many calls share one wake-up.
    """

    __slots__ = ("loop", "finished", "scheduled")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = weakref.ref(loop)  # not the loop itself: the inboxes are keyed by their loops, weakly
        self.finished: collections.deque[Job] = collections.deque()
        self.scheduled = False

    def post(self, job: Job) -> None:
        """In the worker: queue ``job`` for the loop and wake it, unless a wake-up is already on its way."""
        self.finished.append(job)
        if self.scheduled:
            return  # the pending delivery runs after this append, and takes this job too
        self.scheduled = True
        loop = self.loop()
        try:
            if loop is None:
                raise RuntimeError("the loop is gone")
            loop.call_soon_threadsafe(self._deliver)
        except RuntimeError:
            # The loop has closed: the call was given up long ago, nobody waits for it.
            self.finished.clear()
            self.scheduled = False

    def _deliver(self) -> None:
        """On the loop: wake the coroutine waiting for each finished job."""
        self.scheduled = False  # first: a job posted from here on schedules the next delivery
        finished = self.finished
        while finished:
            waiter = finished.popleft().waiter
            if waiter is not None and not waiter.done():
                waiter.set_result(None)


_inboxes: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Inbox] = weakref.WeakKeyDictionary()
_inboxes_lock = threading.Lock()


def _inbox(loop: asyncio.AbstractEventLoop) -> _Inbox:
    inbox = _inboxes.get(loop)
    if inbox is None:
        with _inboxes_lock:
            inbox = _inboxes.get(loop)
            if inbox is None:
                inbox = _inboxes[loop] = _Inbox(loop)
    return inbox


def _expire(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_exception(TimeoutError())


async def hand_over(
    func: Callable[..., Any], *args: Any, context: contextvars.Context | None = None, timeout: float | None = None
) -> Job:
    """Run ``func(*args)`` on a worker thread and await it on this loop; returns the finished :class:`Job`.

    Raises ``TimeoutError`` after ``timeout`` seconds, leaving the call to finish in
    its thread (its result is then thrown away); a cancelled caller leaves it too.
    """
    loop = asyncio.get_running_loop()
    job = Job(func, args, context)
    job.waiter = waiter = loop.create_future()
    job.inbox = _inbox(loop)
    _workers.submit(job)
    if timeout is None:
        await waiter
        return job
    timer = loop.call_later(timeout, _expire, waiter)
    try:
        await waiter
    finally:
        timer.cancel()
    return job
