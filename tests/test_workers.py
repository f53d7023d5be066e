"""conductor.workers: the daemon threads sync tools run on, reused across calls, turns and runs."""

from __future__ import annotations

import asyncio
import contextvars
import gc
import threading
import time
import weakref

import pytest

import conductor as cd
from conductor import workers
from conductor.execution import aexecute, execute
from conductor.tools import ToolRegistry
from conductor.types import ToolCall

request_id = contextvars.ContextVar("request_id", default="none")


@cd.tool
def where(city: str) -> dict:
    """Say which thread and request a call ran in."""
    return {"city": city, "thread": threading.get_ident(), "request": request_id.get()}


def calls(count: int) -> list[ToolCall]:
    return [ToolCall(f"c{i}", "where", f'{{"city": "city{i}"}}') for i in range(count)]


def threads_of(records) -> set[int]:
    import json

    return {json.loads(r.output)["thread"] for r in records}


@pytest.fixture
def thread_starts(monkeypatch) -> list[str]:
    """The names of the threads started while the test runs."""
    started: list[str] = []
    start = threading.Thread.start

    def counted(self: threading.Thread) -> None:
        started.append(self.name)
        start(self)

    monkeypatch.setattr(threading.Thread, "start", counted)
    return started


def test_sync_tools_on_the_loop_reuse_worker_threads_across_turns(thread_starts):
    registry = ToolRegistry([where])

    async def turns(count: int) -> set[int]:
        seen: set[int] = set()
        for _ in range(count):
            seen |= threads_of(await aexecute(calls(1), registry))
        return seen

    used = asyncio.run(turns(30))
    assert threading.get_ident() not in used  # never on the loop's thread
    assert len(thread_starts) <= 1  # one call at a time: an idle worker takes each, no thread per turn


def test_parallel_sync_calls_reuse_worker_threads_and_see_the_callers_context(thread_starts):
    registry = ToolRegistry([where])
    request_id.set("r-7")
    for _ in range(10):
        records = execute(calls(4), registry, parallel=True, max_workers=4)
        assert all('"request":"r-7"' in r.output.replace(" ", "") for r in records)
        assert threading.get_ident() not in threads_of(records)
    assert len(thread_starts) <= 4  # at most 4 at once, and reused between turns (not 40)


def test_the_cap_holds_with_reused_workers():
    running, peak, lock = [0], [0], threading.Lock()

    @cd.tool
    def slow(n: int) -> int:
        """Take a little while."""
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        time.sleep(0.01)
        with lock:
            running[0] -= 1
        return n

    many = [ToolCall(f"c{i}", "slow", f'{{"n": {i}}}') for i in range(9)]
    records = execute(many, ToolRegistry([slow]), parallel=True, max_workers=3)
    assert [r.output for r in records] == [str(i) for i in range(9)] and peak[0] <= 3


def test_an_idle_worker_keeps_nothing_of_its_last_call():
    class Payload:
        pass

    payload = Payload()
    alive = weakref.ref(payload)
    job = workers.submit(lambda p: None, payload)
    assert job.wait(5)
    del payload, job
    for _ in range(200):  # the worker lets go of the job right after it wakes the caller
        gc.collect()
        if alive() is None:
            break
        time.sleep(0.005)
    assert alive() is None


def test_hand_over_gives_up_at_its_timeout_and_the_call_finishes_on_its_own():
    release, finished = threading.Event(), []

    def hung() -> str:
        release.wait(5)
        finished.append(True)
        return "late"

    async def main() -> None:
        with pytest.raises(TimeoutError):
            await workers.hand_over(hung, timeout=0.05)
        assert (await workers.hand_over(lambda: "next", timeout=5)).result() == "next"  # a hung worker delays no one

    asyncio.run(main())
    release.set()
    for _ in range(200):
        if finished:
            break
        time.sleep(0.005)
    assert finished == [True]


def test_a_job_that_finishes_after_its_loop_closed_is_dropped_quietly():
    release = threading.Event()

    async def give_up() -> None:
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(workers.hand_over(release.wait, 5), 0.05)

    asyncio.run(give_up())  # the loop closes with the call still running
    release.set()
    time.sleep(0.05)
    assert asyncio.run(workers.hand_over(lambda: 42)).result() == 42


def test_an_exception_comes_back_to_the_caller():
    def boom() -> None:
        raise KeyError("nope")

    with pytest.raises(KeyError):
        asyncio.run(workers.hand_over(boom)).result()
    job = workers.submit(boom)
    assert job.wait(5)
    with pytest.raises(KeyError):
        job.result()


def test_many_calls_at_once_on_one_loop_all_come_back():
    async def main() -> list[int]:
        jobs = await asyncio.gather(*(workers.hand_over(lambda i=i: i * i) for i in range(200)))
        return [job.result() for job in jobs]

    assert asyncio.run(main()) == [i * i for i in range(200)]
