"""Sync tools declared ``sync_to_thread=False`` run in-line on the event loop; the Orchestrator's results leave
the SDK's response objects out unless ``keep_raw=True``."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

import conductor as cd
from conductor import scenarios as sc
from conductor.execution import aexecute, execute
from conductor.offline import LatencyModel, OfflineModel
from conductor.ratelimit import FakeClock, RateLimit
from conductor.retry import Retry
from conductor.tools import ToolRegistry
from conductor.types import ToolCall, Turn

CHAIN = "北京今天天气怎么样?应该穿什么衣服?"  # "Beijing's weather today? What should I wear?"


def offline(asynchronous: bool = True) -> cd.LLM:
    model = OfflineModel(latency=LatencyModel.instant())
    return cd.connect("offline", api="chat", offline_model=model, asynchronous=asynchronous)


def threads_seen(**options):
    """A weather tool that notes the thread each call runs in, and that list."""
    seen: list[str] = []

    def get_weather(city: str) -> dict:
        """Get today's weather for a city.

        Args:
            city: The city name.
        """
        seen.append(threading.current_thread().name)
        return sc.get_weather.func(city)

    return cd.tool(get_weather, **options), seen


async def _on_loop(calls, registry, deadline=None):
    loop_thread = threading.current_thread().name
    return loop_thread, await aexecute(calls, registry, parallel=True, deadline=deadline)


@pytest.mark.parametrize("deadline", [None, 30.0], ids=["no deadline", "a run deadline"])
@pytest.mark.parametrize("policy", [{}, {"retry": Retry(attempts=2)}], ids=["plain", "with a retry policy"])
def test_an_in_line_tool_runs_on_the_loop_and_a_default_one_on_a_worker(deadline, policy):
    in_line, in_line_threads = threads_seen(sync_to_thread=False, **policy)
    default, default_threads = threads_seen(**policy)
    calls = [ToolCall("c1", "get_weather", '{"city": "北京"}'), ToolCall("c2", "get_weather", '{"city": "上海"}')]
    for tool, seen in ((in_line, in_line_threads), (default, default_threads)):
        at = None if deadline is None else time.perf_counter() + deadline
        loop_thread, records = asyncio.run(_on_loop(calls, ToolRegistry([tool]), at))
        assert [r.is_error for r in records] == [False, False] and "5" in records[0].output
        if tool is in_line:
            assert seen == [loop_thread, loop_thread]
        else:
            assert seen and loop_thread not in seen


def test_an_in_line_tool_still_runs_in_the_callers_thread_on_the_sync_path():
    tool, seen = threads_seen(sync_to_thread=False)
    records = execute([ToolCall("c1", "get_weather", '{"city": "北京"}')], ToolRegistry([tool]), deadline=None)
    assert not records[0].is_error and seen == [threading.current_thread().name]


def test_an_in_line_tool_gives_the_same_answer_as_a_threaded_one_through_the_orchestrator():
    in_line, seen = threads_seen(sync_to_thread=False)
    threaded, _ = threads_seen()
    answers = []
    for tool in (in_line, threaded):
        orch = cd.Orchestrator(offline(), tools=[tool, sc.suggest_clothing])
        results = asyncio.run(orch.run_many([CHAIN] * 3, concurrency=3, progress=False))
        answers.append([(r.answer, [c.output for c in r.tool_calls]) for r in results])
    assert answers[0] == answers[1] and "羽绒服" in answers[0][0][0]
    assert len(seen) == 3 and not any(name.startswith("tool-worker") for name in seen)


def test_the_rate_limit_wait_of_an_in_line_tool_is_awaited_not_slept_on_the_loop():
    clock = FakeClock()
    in_line, _ = threads_seen(sync_to_thread=False)
    orch = cd.Orchestrator(offline(), tools=[in_line, sc.suggest_clothing], clock=clock, deadline=None,
                           rate_limit=RateLimit(tool_calls_per_minute=1, max_wait=120))
    result = asyncio.run(orch.arun(CHAIN, user="carol"))
    assert result.stopped_by is None and not any(c.is_error for c in result.tool_calls)
    assert orch.metrics().rate_limit_waits >= 1 and clock.now() >= 60  # the second call waited its minute


@pytest.mark.parametrize(
    ("make", "error", "fix"),
    [
        (lambda: cd.tool(sc.get_weather.func, sync_to_thread=False, timeout=1.0), ValueError, "drop timeout="),
        (lambda: sc.get_weather.in_line().with_policy(timeout=1.0), ValueError, "drop timeout="),
        (lambda: cd.tool(sc.get_weather.func, sync_to_thread="no"), TypeError, "True or False"),
        (lambda: cd.tool(_async_weather, sync_to_thread=False), ValueError, "leave sync_to_thread out"),
    ],
    ids=["with a timeout", "a timeout added later", "not a bool", "an async tool"],
)
def test_sync_to_thread_mistakes_are_refused_with_the_fix(make, error, fix):
    with pytest.raises(error, match=fix):
        make()


async def _async_weather(city: str) -> dict:
    """Get today's weather for a city.

    Args:
        city: The city name.
    """
    return sc.get_weather.func(city)


def test_in_line_copies_leave_the_course_tool_as_it_was():
    copied = cd.tool(sc.get_weather, sync_to_thread=False)
    assert not copied.sync_to_thread and sc.get_weather.sync_to_thread
    assert copied.openai_schema() == sc.get_weather.openai_schema()


def _raws(result) -> list:
    return [m.raw for m in result.conversation if isinstance(m, Turn)]


def test_the_orchestrator_leaves_the_sdk_objects_out_unless_asked():
    kept = asyncio.run(cd.Orchestrator(offline(), tools=sc.weather_tools(), keep_raw=True).arun(CHAIN))
    lean = asyncio.run(cd.Orchestrator(offline(), tools=sc.weather_tools()).arun(CHAIN))
    assert lean.answer == kept.answer and lean.messages == kept.messages
    assert _raws(kept) and all(r is not None for r in _raws(kept))
    assert _raws(lean) and all(r is None for r in _raws(lean))


def test_llm_run_keeps_the_sdk_objects_by_default():
    llm = offline(asynchronous=False)
    assert all(r is not None for r in _raws(llm.run(CHAIN, tools=sc.weather_tools())))
    assert all(r is None for r in _raws(llm.run(CHAIN, tools=sc.weather_tools(), keep_raw=False)))


def test_an_in_line_tools_wait_for_the_rate_limit_never_passes_the_deadline():
    clock = FakeClock()
    in_line, seen = threads_seen(sync_to_thread=False)
    orch = cd.Orchestrator(offline(), tools=[in_line, sc.suggest_clothing.in_line()], clock=clock, deadline=5.0,
                           rate_limit=RateLimit(tool_calls_per_minute=1, max_wait=120))
    result = asyncio.run(orch.arun(CHAIN, user="dave"))
    refused = result.tool_calls[1]
    assert not result.tool_calls[0].is_error and len(seen) == 1
    assert refused.is_error and "dave may make 1 tool calls a minute" in refused.output
    assert clock.now() < 5  # nothing waited out the minute
