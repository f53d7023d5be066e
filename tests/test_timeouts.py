"""Timeouts of hung tools (sync and async), the cooperative cancel, the hard kill, and a run's deadline."""

from __future__ import annotations

import asyncio
import contextvars
import os
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import conductor as cd
from conductor.execution import aexecute, execute
from conductor.retry import Retry, SimulatedClock, ToolTimeout, run_killable
from conductor.tools import ToolRegistry
from conductor.types import ToolCall

HANG = 30.0  # seconds a hung tool would wait; every test releases it long before


@pytest.fixture
def release():
    """An event hung tools wait on; set at the end of the test so no thread lingers."""
    event = threading.Event()
    yield event
    event.set()


def weather_call(city: str, call_id: str = "c1", name: str = "get_weather") -> ToolCall:
    return ToolCall(call_id, name, f'{{"city": "{city}"}}')


def hung_sync(release: threading.Event, finished: list[str]):
    def get_weather(city: str) -> dict:
        """Get today's weather for a city."""
        if city == "hang":
            release.wait(HANG)
            finished.append(city)
        return {"city": city}

    return get_weather


def test_a_hung_sync_tool_becomes_an_error_result_and_the_turn_goes_on(release):
    finished: list[str] = []
    tool = cd.tool(hung_sync(release, finished), timeout=0.2)
    records = execute([weather_call("hang", "a"), weather_call("上海", "b")], ToolRegistry([tool]))
    assert records[0].is_error and records[0].output == "get_weather timed out after 0.2 s"
    assert not records[1].is_error and "上海" in records[1].output
    assert [r.id for r in records] == ["a", "b"]
    assert finished == []  # the thread is still blocked: a thread cannot be killed


def test_a_hung_async_tool_is_cancelled():
    cancelled = threading.Event()

    async def get_weather(city: str) -> dict:
        """Get today's weather for a city."""
        try:
            await asyncio.sleep(HANG)
        except asyncio.CancelledError:
            cancelled.set()
            raise
        return {"city": city}

    tool = cd.tool(get_weather, timeout=0.1)
    [record] = asyncio.run(aexecute([weather_call("北京")], ToolRegistry([tool])))
    assert record.is_error and record.output == "get_weather timed out after 0.1 s"
    assert cancelled.is_set()


def test_a_hung_async_tool_times_out_in_the_sync_loop_too():
    async def get_weather(city: str) -> dict:
        """Get today's weather for a city."""
        await asyncio.sleep(HANG)
        return {"city": city}

    [record] = execute([weather_call("北京")], ToolRegistry([cd.tool(get_weather, timeout=0.1)]))
    assert record.output == "get_weather timed out after 0.1 s"


def test_a_hung_sync_tool_on_the_event_loop_times_out(release):
    tool = cd.tool(hung_sync(release, []), timeout=0.1)
    records = asyncio.run(aexecute([weather_call("hang", "a"), weather_call("广州", "b")], ToolRegistry([tool])))
    assert records[0].output == "get_weather timed out after 0.1 s"
    assert not records[1].is_error


def test_a_timed_out_attempt_is_retried(release):
    state = {"calls": 0}

    def get_weather(city: str) -> dict:
        """Get today's weather for a city."""
        state["calls"] += 1
        if state["calls"] == 1:
            release.wait(HANG)
        return {"city": city}

    tool = cd.tool(get_weather, timeout=0.1, retry=Retry(attempts=2, clock=SimulatedClock()))
    [record] = execute([weather_call("北京")], ToolRegistry([tool]))
    assert not record.is_error
    assert [a.error for a in record.attempts] == ["get_weather timed out after 0.1 s", None]


def test_a_cooperative_tool_sees_it_was_given_up():
    stopped = threading.Event()

    def count_words(city: str) -> int:
        """Count words, step by step."""
        while not cd.cancelled():
            time.sleep(0.01)
        stopped.set()
        return 0

    tool = cd.tool(count_words, timeout=0.1)
    [record] = execute([weather_call("x", name="count_words")], ToolRegistry([tool]))
    assert record.is_error and "timed out" in record.output
    assert stopped.wait(HANG)  # the tool noticed and returned on its own
    assert not cd.cancelled()  # outside a call there is nothing to cancel


def _sleep_then(seconds: float, value: int) -> int:
    time.sleep(seconds)
    return value


def _raise(message: str) -> None:
    raise KeyError(message)


def test_run_killable_kills_a_child_that_runs_too_long():
    with pytest.raises(ToolTimeout, match="_sleep_then timed out after 0.3 s"):
        run_killable(_sleep_then, HANG, 1, timeout=0.3)
    assert run_killable(_sleep_then, 0.0, 42, timeout=HANG) == 42
    with pytest.raises(KeyError, match="no such city"):
        run_killable(_raise, "no such city", timeout=HANG)


def test_a_tool_that_must_stop_runs_killable():
    def report(seconds: float) -> int:
        """Build a report."""
        return run_killable(_sleep_then, seconds, 7, timeout=0.3)

    registry = ToolRegistry([cd.tool(report)])
    records = execute([ToolCall("a", "report", '{"seconds": 30}'), ToolCall("b", "report", '{"seconds": 0}')], registry)
    assert records[0].output == "ToolTimeout: _sleep_then timed out after 0.3 s (its process was killed)"
    assert records[1].output == "7"


@pytest.mark.parametrize("parallel", [False, True])
def test_the_run_deadline_abandons_running_calls_and_skips_the_rest(release, parallel):
    finished: list[str] = []
    tool = cd.tool(hung_sync(release, finished), exclusive=True)  # exclusive: one after another, even in parallel
    calls = [weather_call("北京", "a"), weather_call("hang", "b"), weather_call("上海", "c")]
    records = execute(calls, ToolRegistry([tool]), parallel=parallel, deadline=time.perf_counter() + 0.3)
    assert [r.id for r in records] == ["a", "b", "c"]
    assert not records[0].is_error
    assert records[1].is_error and "abandoned at the run's deadline" in records[1].output
    assert records[2].is_error and "not run: the run's deadline had passed" in records[2].output
    release.set()


def test_the_run_deadline_on_the_event_loop(release):
    cancelled = threading.Event()

    async def slow(city: str) -> dict:
        """A slow async lookup."""
        try:
            await asyncio.sleep(HANG)
        except asyncio.CancelledError:
            cancelled.set()
            raise
        return {}

    registry = ToolRegistry([cd.tool(slow), cd.tool(hung_sync(release, []))])
    calls = [weather_call("x", "a", name="slow"), weather_call("hang", "b"), weather_call("y", "c")]

    async def main():
        return await aexecute(calls, registry, parallel=True, deadline=time.perf_counter() + 0.3)

    records = asyncio.run(main())
    assert [r.id for r in records] == ["a", "b", "c"]
    assert all("abandoned at the run's deadline" in r.output for r in records[:2])
    assert not records[2].is_error
    assert cancelled.is_set()


def test_a_deadline_already_passed_runs_nothing():
    ran: list[str] = []

    def get_weather(city: str) -> dict:
        """Get today's weather for a city."""
        ran.append(city)
        return {}

    records = execute([weather_call("北京", "a"), weather_call("上海", "b")], ToolRegistry([cd.tool(get_weather)]),
                      deadline=time.perf_counter() - 1)
    assert ran == [] and all(r.is_error and "not run" in r.output for r in records)


def test_retries_stop_at_the_run_deadline():
    def get_weather(city: str) -> dict:
        """Get today's weather for a city."""
        raise cd.TransientError("down")

    clock = SimulatedClock()
    tool = cd.tool(get_weather, retry=Retry(attempts=50, base=1.0, cap=1.0, jitter="none", clock=clock))
    [record] = execute([weather_call("北京")], ToolRegistry([tool]), deadline=time.perf_counter() + 0.5)
    # Each 1 s wait would cross the run's deadline 0.5 s away: the first failure is the last attempt.
    assert len(record.attempts) == 1 and clock.waited == 0


@pytest.mark.parametrize("use_async", [False, True])
def test_a_tools_own_timeout_error_keeps_its_message(use_async):
    """A TimeoutError raised inside the tool is the tool's (and transient), not the policy's timeout."""

    async def lookup_async(city: str) -> dict:
        """Look a city up."""
        raise TimeoutError("upstream read timed out")

    def lookup(city: str) -> dict:
        """Look a city up."""
        raise TimeoutError("upstream read timed out")

    tool = cd.tool(lookup_async if use_async else lookup, name="lookup", timeout=5.0)
    call = weather_call("北京", name="lookup")
    [record] = asyncio.run(aexecute([call], ToolRegistry([tool]))) if use_async else execute([call], ToolRegistry([tool]))
    assert record.output == "TimeoutError: upstream read timed out"


def test_an_async_tool_under_a_policy_runs_from_a_thread_that_has_a_loop():
    """A Jupyter cell calls llm.run (sync) on a thread whose event loop is running."""

    async def get_weather(city: str) -> dict:
        """Get today's weather for a city."""
        return {"city": city}

    tool = cd.tool(get_weather, retry=Retry(attempts=2))

    async def cell():
        return execute([weather_call("北京")], ToolRegistry([tool]))

    [record] = asyncio.run(cell())
    assert not record.is_error and "北京" in record.output


@settings(max_examples=25, deadline=None)
@given(
    kinds=st.lists(st.sampled_from(["fast", "hang", "fail", "async_fast", "async_hang"]), min_size=1, max_size=6),
    parallel=st.booleans(),
    use_async=st.booleans(),
)
def test_under_a_run_deadline_every_call_gets_one_record_in_order(kinds, parallel, use_async):
    release = threading.Event()

    def sync_tool(kind: str) -> str:
        """Do one kind of thing."""
        if kind == "hang":
            release.wait(HANG)
        if kind == "fail":
            raise cd.TransientError("down")
        return kind

    async def async_tool(kind: str) -> str:
        """Do one kind of thing, on the loop."""
        if kind == "async_hang":
            await asyncio.sleep(HANG)
        return kind

    registry = ToolRegistry([cd.tool(sync_tool), cd.tool(async_tool)])
    calls = [
        ToolCall(f"id{i}", "async_tool" if kind.startswith("async") else "sync_tool", f'{{"kind": "{kind}"}}')
        for i, kind in enumerate(kinds)
    ]
    deadline = time.perf_counter() + 0.05
    try:
        if use_async:
            records = asyncio.run(aexecute(calls, registry, parallel=parallel, deadline=deadline))
        else:
            records = execute(calls, registry, parallel=parallel, deadline=deadline)
    finally:
        release.set()
    assert [r.id for r in records] == [c.id for c in calls]
    for kind, record in zip(kinds, records):
        if kind in ("hang", "async_hang", "fail"):
            assert record.is_error
        elif not record.is_error:
            assert record.output == kind
        else:  # a quick call queued behind a hung one may find the deadline passed
            assert "deadline" in record.output


def test_a_sync_tool_under_a_timeout_sees_the_callers_context_variables():
    request = contextvars.ContextVar("request", default="none")

    def get_weather(city: str) -> dict:
        """Get today's weather for a city."""
        return {"city": city, "request": request.get()}

    tool = cd.tool(get_weather, timeout=1.0)
    request.set("r-42")
    records = execute([weather_call("上海")], ToolRegistry([tool]))
    assert not records[0].is_error and "r-42" in records[0].output


def test_reused_workers_answer_every_call_while_one_still_hangs(release):
    finished: list[str] = []
    tool = cd.tool(hung_sync(release, finished), timeout=0.2)
    calls = [weather_call("hang", "hung")] + [weather_call(f"city{i}", f"c{i}") for i in range(20)]
    records = execute(calls, ToolRegistry([tool]))
    assert records[0].is_error
    assert all(not r.is_error and f"city{r.id[1:]}" in r.output for r in records[1:])


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_forked_child_runs_tools_under_a_timeout_with_workers_of_its_own():
    tool = cd.tool(hung_sync(threading.Event(), []), timeout=1.0)
    registry = ToolRegistry([tool])
    assert not execute([weather_call("北京")], registry)[0].is_error  # the parent now has an idle worker
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its calls must not go to the parent's idle worker
        ok = all(not execute([weather_call("上海")], registry)[0].is_error for _ in range(3))
        os.write(write, b"1" if ok else b"0")
        os._exit(0)
    os.close(write)
    answer = os.read(read, 1)
    os.waitpid(pid, 0)
    os.close(read)
    assert answer == b"1"
    assert not execute([weather_call("广州")], registry)[0].is_error
