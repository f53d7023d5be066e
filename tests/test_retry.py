"""Tool-level retries: which failures are retried, the backoff waited, the deadline, the records."""

from __future__ import annotations

import asyncio
import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import conductor as cd
from conductor.backoff import JITTERS, schedule
from conductor.execution import aexecute, execute
from conductor.offline import CallTools, Conversation, LatencyModel, OfflineModel, PlannedCall, Reply
from conductor.retry import Retry, SimulatedClock, TransientError, set_clock
from conductor.tools import ToolRegistry
from conductor.types import ToolCall


class FakeClock:
    """A clock whose time moves only when the policy waits."""

    def __init__(self) -> None:
        self.t = 0.0
        self.sleeps: list[float] = []

    def now(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.t += seconds

    async def asleep(self, seconds: float) -> None:
        self.sleep(seconds)


def failing(times: int, error: type[Exception] = TransientError):
    """A weather function failing ``times`` times with ``error``, then answering."""
    state = {"calls": 0}

    def get_weather(city: str) -> dict:
        """Get today's weather for a city."""
        state["calls"] += 1
        if state["calls"] <= times:
            raise error(f"weather service unavailable (call {state['calls']})")
        return {"city": city, "temp_c": 21}

    get_weather.state = state  # type: ignore[attr-defined]
    return get_weather


def call(city: str = "北京", call_id: str = "c1") -> ToolCall:
    return ToolCall(call_id, "get_weather", f'{{"city": "{city}"}}')


@pytest.mark.parametrize("jitter", JITTERS)
def test_waits_follow_the_seeded_backoff_schedule(jitter):
    clock = FakeClock()
    func = failing(10)
    tool = cd.tool(func, retry=Retry(attempts=5, base=0.5, cap=4.0, jitter=jitter, seed=7, clock=clock))
    [record] = execute([call()], ToolRegistry([tool]))
    expected = schedule(jitter, 4, base=0.5, cap=4.0, seed=7)
    assert clock.sleeps == pytest.approx(expected)
    assert [a.waited for a in record.attempts] == pytest.approx([0.0, *expected])
    assert func.state["calls"] == 5 and record.is_error
    assert "(5 attempts)" in record.output and "TransientError" in record.output


def test_same_seed_same_waits_other_seed_other_waits():
    def waits(seed: int) -> list[float]:
        tool = cd.tool(failing(10), retry=Retry(attempts=4, seed=seed, clock=FakeClock()))
        [record] = execute([call()], ToolRegistry([tool]))
        return [a.waited for a in record.attempts]

    assert waits(3) == waits(3)
    assert waits(3) != waits(4)


def test_a_transient_failure_is_retried_until_the_tool_answers():
    func = failing(2)
    tool = cd.tool(func, retry=Retry(attempts=3, seed=0, clock=FakeClock()))
    [record] = execute([call()], ToolRegistry([tool]))
    assert not record.is_error and '"temp_c":21' in record.output
    assert [a.error is None for a in record.attempts] == [False, False, True]
    assert all(a.tool == "get_weather" for a in record.attempts)
    assert record.fallback is None


@pytest.mark.parametrize("error", [TimeoutError, ConnectionError, ConnectionResetError])
def test_timeouts_and_connection_errors_are_retried_by_default(error):
    func = failing(1, error)
    tool = cd.tool(func, retry=Retry(attempts=2, seed=0, clock=FakeClock()))
    [record] = execute([call()], ToolRegistry([tool]))
    assert not record.is_error and len(record.attempts) == 2


def test_a_not_found_error_goes_to_the_model_at_once():
    clock = FakeClock()
    calls = []

    def get_weather(city: str) -> dict:
        """Get today's weather for a city."""
        calls.append(city)
        raise ValueError(f"unknown city {city!r}: no weather station there")

    tool = cd.tool(get_weather, retry=Retry(attempts=5, clock=clock))
    [record] = execute([call("火星")], ToolRegistry([tool]))
    assert calls == ["火星"] and clock.sleeps == []
    assert record.is_error and record.output == "ValueError: unknown city '火星': no weather station there"
    assert len(record.attempts) == 1


def test_retry_on_adds_exception_types():
    tool = cd.tool(failing(1, KeyError), retry=Retry(attempts=2, retry_on=(KeyError,), clock=FakeClock()))
    [record] = execute([call()], ToolRegistry([tool]))
    assert not record.is_error and len(record.attempts) == 2


def test_invalid_arguments_are_never_retried():
    func = failing(0)
    tool = cd.tool(func, retry=Retry(attempts=5, clock=FakeClock()))
    [record] = execute([ToolCall("c1", "get_weather", '{"town": "北京"}')], ToolRegistry([tool]))
    assert record.is_error and "invalid arguments for get_weather" in record.output
    assert func.state["calls"] == 0 and record.attempts == ()


@settings(max_examples=60, deadline=None)
@given(
    base=st.floats(0.0, 2.0),
    extra=st.floats(0.0, 10.0),
    attempts=st.integers(1, 12),
    deadline=st.floats(0.01, 20.0),
    jitter=st.sampled_from(JITTERS),
    seed=st.integers(0, 1000),
)
def test_waits_never_overshoot_the_deadline(base, extra, attempts, deadline, jitter, seed):
    clock = FakeClock()
    policy = Retry(attempts=attempts, base=base, cap=base + extra, jitter=jitter, deadline=deadline, seed=seed,
                   clock=clock)
    tool = cd.tool(failing(100), retry=policy)
    [record] = execute([call()], ToolRegistry([tool]))
    assert clock.t <= deadline  # the attempts take no fake time: the clock holds only the waits
    assert 1 <= len(record.attempts) <= attempts and record.is_error


def test_a_wait_that_would_cross_the_deadline_is_not_started():
    clock = FakeClock()
    tool = cd.tool(failing(100), retry=Retry(attempts=10, base=1.0, cap=1.0, jitter="none", deadline=2.5, clock=clock))
    [record] = execute([call()], ToolRegistry([tool]))
    assert clock.sleeps == [1.0, 1.0]  # a third 1 s wait would end at 3 s, past 2.5 s
    assert len(record.attempts) == 3


def test_async_tools_retry_on_the_event_loop():
    clock = FakeClock()
    state = {"calls": 0}

    async def get_weather(city: str) -> dict:
        """Get today's weather for a city."""
        state["calls"] += 1
        if state["calls"] < 3:
            raise TransientError("try again")
        return {"city": city}

    tool = cd.tool(get_weather, retry=Retry(attempts=3, seed=1, clock=clock))
    [record] = asyncio.run(aexecute([call()], ToolRegistry([tool])))
    assert not record.is_error and len(record.attempts) == 3
    assert clock.sleeps == pytest.approx(schedule("full", 2, base=0.5, cap=8.0, seed=1))


def test_a_simulated_clock_records_waits_without_sleeping():
    previous = set_clock(SimulatedClock())
    try:
        tool = cd.tool(failing(3), retry=Retry(attempts=4, base=30.0, cap=60.0, jitter="none"))
        started = time.perf_counter()
        [record] = execute([call()], ToolRegistry([tool]))
        assert time.perf_counter() - started < 30  # a real wait would be 30 + 60 + 60 s
    finally:
        set_clock(previous)
    assert [a.waited for a in record.attempts] == [0.0, 30.0, 60.0, 60.0]
    assert not record.is_error


@pytest.mark.parametrize(
    ("kwargs", "fix"),
    [
        ({"attempts": 0}, "attempts"),
        ({"base": -1}, "base"),
        ({"base": 2.0, "cap": 1.0}, "cap"),
        ({"jitter": "random"}, "jitter"),
        ({"deadline": 0}, "deadline"),
        ({"retry_on": ("KeyError",)}, "retry_on"),
    ],
)
def test_a_bad_policy_says_what_to_fix(kwargs, fix):
    with pytest.raises(ValueError, match=fix):
        Retry(**kwargs)


def test_tool_rejects_what_is_not_a_policy():
    with pytest.raises(TypeError, match="cd.Retry"):
        cd.tool(failing(0), retry=3)
    with pytest.raises(ValueError, match="timeout"):
        cd.tool(failing(0), timeout=-1)
    with pytest.raises(TypeError, match="fallback"):
        cd.tool(failing(0), fallbacks=[42])


def test_a_tool_without_a_policy_records_no_attempts():
    [record] = execute([call()], ToolRegistry([cd.tool(failing(0))]))
    assert record.attempts == () and not cd.tool(failing(0)).guarded


@settings(max_examples=40, deadline=None)
@given(
    failures=st.lists(st.integers(0, 4), min_size=1, max_size=6),
    attempts=st.integers(1, 4),
    parallel=st.booleans(),
    with_fallback=st.booleans(),
    use_async=st.booleans(),
)
def test_nothing_is_lost_under_random_failures(failures, attempts, parallel, with_fallback, use_async):
    """Every call gets one record, in order; it answers iff its failures fit in its attempts or a fallback."""
    remaining = {f"city{i}": n for i, n in enumerate(failures)}

    def get_weather(city: str) -> dict:
        """Get today's weather for a city."""
        if remaining[city] > 0:
            remaining[city] -= 1
            raise random.choice([TransientError, TimeoutError, ConnectionError])("flaky")
        return {"city": city}

    def cached(city: str) -> dict:
        return {"city": city, "stale": True}

    tool = cd.tool(get_weather, retry=Retry(attempts=attempts, seed=0, clock=FakeClock()),
                   fallbacks=[cached] if with_fallback else [])
    calls = [call(city, f"id{i}") for i, city in enumerate(remaining)]
    registry = ToolRegistry([tool])
    if use_async:
        records = asyncio.run(aexecute(calls, registry, parallel=parallel))
    else:
        records = execute(calls, registry, parallel=parallel)
    assert [r.id for r in records] == [c.id for c in calls]
    for n, record in zip(failures, records):
        primary = [a for a in record.attempts if a.tool == "get_weather"]
        assert len(primary) == min(n + 1, attempts)
        if n < attempts:
            assert not record.is_error and record.fallback is None
        elif with_fallback:
            assert not record.is_error and record.fallback == "cached" and '"source":"cached"' in record.output
        else:
            assert record.is_error and record.fallback is None


def _weather_then_answer(conversation: Conversation):
    if conversation.exchanges():
        return Reply(f"got: {conversation.exchanges()[-1]}")
    return CallTools((PlannedCall("get_weather", {"city": "北京"}),))


def test_attempts_reach_the_run_result():
    llm = cd.connect("offline", offline_model=OfflineModel(latency=LatencyModel.instant(), policies=[_weather_then_answer]))
    tool = cd.tool(failing(2), retry=Retry(attempts=3, seed=0, clock=FakeClock()))
    result = llm.run("weather in Beijing?", tools=[tool], max_rounds=1)
    [record] = result.tool_calls
    assert len(record.attempts) == 3 and not record.is_error
    assert all(0 <= a.started <= a.ended <= result.trace.seconds for a in record.attempts)


def test_bench_retry_command_prints_the_ratio_and_the_simulation(capsys):
    from conductor.__main__ import main

    assert main(["bench", "retry", "--conversations", "4", "--clients", "5"]) == 0
    out = capsys.readouterr().out
    assert "ratio guarded / plain on the loop:" in out
    assert "5 clients contending" in out and "full jitter" in out


def test_an_existing_tool_gets_a_policy_without_being_redefined():
    from conductor import scenarios

    guarded = cd.tool(scenarios.get_weather, retry=Retry(attempts=2), timeout=2.0)
    assert guarded is not scenarios.get_weather and not scenarios.get_weather.guarded
    assert guarded.guarded and guarded.timeout == 2.0 and guarded.parameters == scenarios.get_weather.parameters
    assert cd.tool(scenarios.get_weather) is scenarios.get_weather
    [record] = execute([call()], ToolRegistry([guarded]))
    assert not record.is_error and len(record.attempts) == 1
