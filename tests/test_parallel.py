"""Parallel tool calls: order, ids, partial failure, the cap, async tools, exclusive tools, flags.

The cap holds under ``arun`` too, for sync tools; repeated or empty call ids never merge records.

Overlap is judged from each call's recorded start and end, never from wall-clock thresholds.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time

import pytest

import conductor as cd
from conductor.execution import aexecute, execute, results_of
from conductor.trace import ToolCallRecord
from conductor.types import ToolCall
from scripted import offline, scripted
from wire import APIS, tool_results


def max_overlap(calls: list[ToolCallRecord]) -> int:
    """The largest number of calls running at one instant."""
    events = sorted([(c.started, 1) for c in calls] + [(c.ended, -1) for c in calls], key=lambda e: (e[0], e[1]))
    running = peak = 0
    for _, step in events:
        running += step
        peak = max(peak, running)
    return peak


def all_overlap(calls: list[ToolCallRecord]) -> bool:
    """Every call started before any call ended."""
    return max(c.started for c in calls) < min(c.ended for c in calls)


@cd.tool
def slow_echo(text: str, seconds: float) -> str:
    """Echo the text after sleeping."""
    time.sleep(seconds)
    if text == "boom":
        raise RuntimeError("boom failed")
    return text


def echo_calls(*items: tuple[str, float]):
    return [("slow_echo", {"text": t, "seconds": s}) for t, s in items]


@pytest.mark.parametrize("api", APIS)
def test_results_return_in_call_order_matched_to_ids(api):
    # The first call is the slowest, so completion order is the reverse of call order.
    llm, model = offline(api, scripted(echo_calls(("a", 0.15), ("b", 0.08), ("c", 0.01)), "done"))
    result = llm.run("go", tools=[slow_echo], parallel=True)
    calls = result.rounds[0].tool_calls
    assert [c.output for c in calls] == ["a", "b", "c"]
    assert calls[0].ended > calls[2].ended, "the slow first call finished last"
    assert all_overlap(list(calls))
    sent = [(call_id, text) for call_id, text, _ in tool_results(model.requests[1].body)]
    assert sent == [(c.id, c.output) for c in calls]


@pytest.mark.parametrize("api", APIS)
def test_sequential_calls_do_not_overlap(api):
    llm, _ = offline(api, scripted(echo_calls(("a", 0.02), ("b", 0.02), ("c", 0.02)), "done"))
    calls = list(llm.run("go", tools=[slow_echo], parallel=False).rounds[0].tool_calls)
    assert max_overlap(calls) == 1
    assert all(later.started >= earlier.ended for earlier, later in zip(calls, calls[1:]))


@pytest.mark.parametrize("api", APIS)
def test_one_failing_call_does_not_lose_the_others(api):
    llm, _ = offline(api, scripted(echo_calls(("a", 0.05), ("boom", 0.01), ("c", 0.05)), "done"))
    calls = llm.run("go", tools=[slow_echo], parallel=True).rounds[0].tool_calls
    assert [c.is_error for c in calls] == [False, True, False]
    assert calls[0].output == "a" and calls[2].output == "c"
    assert "RuntimeError: boom failed" in calls[1].output


@pytest.mark.parametrize("cap", [1, 2, 3])
def test_concurrency_cap_is_respected(cap):
    llm, _ = offline("responses", scripted(echo_calls(*[(str(i), 0.05) for i in range(6)]), "done"))
    calls = list(llm.run("go", tools=[slow_echo], parallel=True, max_workers=cap).rounds[0].tool_calls)
    peak = max_overlap(calls)
    assert peak <= cap
    assert peak >= min(cap, 2), "the pool ran the calls concurrently up to the cap"


@pytest.mark.parametrize("api", APIS)
def test_exclusive_tool_runs_alone_and_in_order(api):
    @cd.tool(exclusive=True)
    def write_file(path: str) -> str:
        """Write a file (must not run beside other calls)."""
        time.sleep(0.03)
        return f"wrote {path}"

    steps = [
        ("slow_echo", {"text": "before-1", "seconds": 0.03}),
        ("slow_echo", {"text": "before-2", "seconds": 0.03}),
        ("write_file", {"path": "notes.txt"}),
        ("slow_echo", {"text": "after", "seconds": 0.03}),
    ]
    llm, _ = offline(api, scripted(steps, "done"))
    calls = llm.run("go", tools=[slow_echo, write_file], parallel=True).rounds[0].tool_calls
    assert [c.output for c in calls] == ["before-1", "before-2", "wrote notes.txt", "after"]
    before, writer, after = calls[:2], calls[2], calls[3]
    assert all_overlap(list(before)), "independent calls still overlap"
    assert writer.started >= max(c.ended for c in before)
    assert after.started >= writer.ended


@pytest.mark.parametrize("api", APIS)
def test_async_tools_run_concurrently_with_arun(api):
    from conductor.offline import LatencyModel, OfflineModel

    @cd.tool
    async def fetch(key: str, seconds: float) -> str:
        """Fetch a key after waiting."""
        await asyncio.sleep(seconds)
        return key.upper()

    steps = [("fetch", {"key": k, "seconds": s}) for k, s in [("a", 0.1), ("b", 0.05), ("c", 0.01)]]
    model = OfflineModel(latency=LatencyModel.instant(), policies=[scripted(steps, "done")])
    llm = cd.connect("offline", api=api, asynchronous=True, offline_model=model)
    result = asyncio.run(llm.arun("go", tools=[fetch], parallel=True))
    calls = list(result.rounds[0].tool_calls)
    assert [c.output for c in calls] == ["A", "B", "C"]
    assert all_overlap(calls)


def test_async_tool_in_sync_run_inside_a_running_loop():
    """A notebook cell runs inside an event loop; a sync run must still run async tools."""

    @cd.tool
    async def ping() -> str:
        """Ping."""
        return "pong"

    llm, _ = offline("responses", scripted([("ping", {})], "done"))

    async def inside_loop():
        return llm.run("go", tools=[ping])

    assert asyncio.run(inside_loop()).rounds[0].tool_calls[0].output == "pong"


@pytest.mark.parametrize("api", APIS)
def test_parallel_tool_calls_false_sends_the_flag_and_gets_one_call_per_turn(api):
    llm, model = offline(api)
    tools = cd.scenarios.weather_tools()
    result = llm.run("北京、上海、广州今天天气如何?哪个最暖和?", tools=tools, max_rounds=5, parallel_tool_calls=False)
    bodies = [r.body for r in model.requests]
    if api in ("responses", "chat"):
        assert all(b["parallel_tool_calls"] is False for b in bodies)
    else:
        assert all(b["tool_choice"] == {"type": "auto", "disable_parallel_tool_use": True} for b in bodies[:-1])
    assert [len(r.tool_calls) for r in result.rounds] == [1, 1, 1]
    assert "广州" in result.answer


@pytest.mark.parametrize("api", APIS)
def test_default_lets_the_model_call_all_at_once(api):
    llm, model = offline(api)
    result = llm.run("北京、上海、广州今天天气如何?哪个最暖和?", tools=cd.scenarios.weather_tools(), parallel=True)
    assert [len(r.tool_calls) for r in result.rounds] == [3]
    assert "parallel_tool_calls" not in model.requests[0].body


# -- the cap and start times under arun, and calls that share an id ----------------------


@pytest.mark.parametrize("api", APIS)
def test_arun_runs_sync_tools_up_to_max_workers_at_once(api):
    """More sync calls at once than the event loop's default pool holds (CPU count + 4).

    Each call waits at a barrier until all of them have arrived, so the run only
    succeeds when every call has a thread of its own at the same moment.
    """
    width = (os.cpu_count() or 1) + 6
    gate = threading.Barrier(width, timeout=10)

    @cd.tool
    def rendezvous(n: int) -> int:
        """Wait until every call has started."""
        gate.wait()
        return n

    llm, _ = offline(api, scripted([("rendezvous", {"n": i}) for i in range(width)], "done"))
    result = asyncio.run(llm.arun("go", tools=[rendezvous], parallel=True, max_workers=width))
    calls = result.rounds[0].tool_calls
    assert [c.output for c in calls] == [str(i) for i in range(width)]
    assert not any(c.is_error for c in calls)


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("asynchronous", [False, True], ids=["run", "arun"])
def test_a_queued_call_starts_when_it_runs_not_when_queued(api, asynchronous):
    llm, _ = offline(api, scripted(echo_calls(("a", 0.02), ("b", 0.02), ("c", 0.02)), "done"))
    options = dict(tools=[slow_echo], parallel=True, max_workers=1)
    result = asyncio.run(llm.arun("go", **options)) if asynchronous else llm.run("go", **options)
    calls = list(result.rounds[0].tool_calls)
    assert max_overlap(calls) == 1
    assert all(later.started >= earlier.ended for earlier, later in zip(calls, calls[1:]))


@pytest.mark.parametrize("parallel", [False, True], ids=["sequential", "parallel"])
@pytest.mark.parametrize("asynchronous", [False, True], ids=["execute", "aexecute"])
def test_calls_sharing_an_id_each_get_their_own_record_in_order(parallel, asynchronous):
    calls = [
        ToolCall("", "slow_echo", '{"text": "first", "seconds": 0.02}'),
        ToolCall("", "slow_echo", '{"text": "second", "seconds": 0}'),
        ToolCall("call_1", "slow_echo", '{"text": "third", "seconds": 0.01}'),
        ToolCall("call_1", "slow_echo", '{"text": "boom", "seconds": 0}'),
    ]
    registry = cd.ToolRegistry([slow_echo])
    if asynchronous:
        records = asyncio.run(aexecute(calls, registry, parallel=parallel))
    else:
        records = execute(calls, registry, parallel=parallel)
    assert [(r.id, r.output, r.is_error) for r in records] == [
        ("", "first", False),
        ("", "second", False),
        ("call_1", "third", False),
        ("call_1", "RuntimeError: boom failed", True),
    ]
    assert [(r.call_id, r.content) for r in results_of(records)] == [(r.id, r.output) for r in records]
