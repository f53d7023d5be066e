"""Tool fallbacks: tried in order once retries are spent, marked so the model sees the source."""

from __future__ import annotations

import asyncio
import json

import pytest

import conductor as cd
from conductor.execution import aexecute, execute
from conductor.offline import CallTools, Conversation, LatencyModel, OfflineModel, PlannedCall, Reply
from conductor.retry import Retry, SimulatedClock, mark_source
from conductor.tools import ToolRegistry
from conductor.types import ToolCall

CALL = ToolCall("c1", "get_weather", '{"city": "北京"}')


def down(error: type[Exception] = cd.TransientError):
    calls: list[str] = []

    def get_weather(city: str) -> dict:
        """Get today's weather for a city."""
        calls.append(city)
        raise error("weather service is down")

    get_weather.calls = calls  # type: ignore[attr-defined]
    return get_weather


def cache_miss(city: str) -> dict:
    raise KeyError(city)


def cache(city: str) -> dict:
    return {"city": city, "temp_c": 18}


def yesterday(city: str) -> str:
    return f"{city}: 17 C yesterday"


def policy(attempts: int = 2) -> Retry:
    return Retry(attempts=attempts, seed=0, clock=SimulatedClock())


def test_fallbacks_are_tried_in_order_after_the_retries():
    primary = down()
    tool = cd.tool(primary, retry=policy(3), fallbacks=[cache_miss, cache, yesterday])
    [record] = execute([CALL], ToolRegistry([tool]))
    assert primary.calls == ["北京"] * 3
    assert [a.tool for a in record.attempts] == ["get_weather"] * 3 + ["cache_miss", "cache"]
    assert [a.error is None for a in record.attempts] == [False, False, False, False, True]
    assert record.attempts[3].error == "KeyError: '北京'"
    assert record.fallback == "cache" and not record.is_error
    assert json.loads(record.output) == {"city": "北京", "temp_c": 18, "source": "cache"}


def test_a_plain_output_is_wrapped_with_its_source():
    tool = cd.tool(down(), retry=policy(), fallbacks=[yesterday])
    [record] = execute([CALL], ToolRegistry([tool]))
    assert json.loads(record.output) == {"source": "yesterday", "result": "北京: 17 C yesterday"}


def test_a_dict_with_its_own_source_is_wrapped_not_overwritten():
    assert mark_source({"source": "noaa", "t": 1}, "cache") == {"source": "cache", "result": {"source": "noaa", "t": 1}}
    assert mark_source({"t": 1}, "cache") == {"t": 1, "source": "cache"}


def test_a_fallback_may_be_a_tool_or_async():
    @cd.tool(name="weather_cache")
    async def cached(city: str) -> dict:
        """Yesterday's weather from the cache."""
        return {"city": city}

    tool = cd.tool(down(), fallbacks=[cached])  # no retry: one try, then the fallback
    [record] = execute([CALL], ToolRegistry([tool]))
    assert record.fallback == "weather_cache" and '"source":"weather_cache"' in record.output
    [record] = asyncio.run(aexecute([CALL], ToolRegistry([tool])))
    assert record.fallback == "weather_cache"


def test_when_every_fallback_fails_the_model_hears_all_of_it():
    tool = cd.tool(down(), retry=policy(2), fallbacks=[cache_miss])
    [record] = execute([CALL], ToolRegistry([tool]))
    assert record.is_error and record.fallback is None
    assert record.output == (
        "TransientError: weather service is down (2 attempts); the fallbacks failed too: cache_miss: KeyError: '北京'"
    )


@pytest.mark.parametrize("use_async", [False, True])
def test_a_non_transient_error_never_falls_back(use_async):
    used: list[str] = []

    def spy(city: str) -> dict:
        used.append(city)
        return {}

    tool = cd.tool(down(ValueError), retry=policy(3), fallbacks=[spy])
    registry = ToolRegistry([tool])
    [record] = asyncio.run(aexecute([CALL], registry)) if use_async else execute([CALL], registry)
    assert used == [] and record.is_error and len(record.attempts) == 1


def test_invalid_arguments_never_fall_back():
    used: list[str] = []
    tool = cd.tool(down(), fallbacks=[lambda city: used.append(city)])
    [record] = execute([ToolCall("c1", "get_weather", '{"city": 3}')], ToolRegistry([tool]))
    assert record.is_error and "invalid arguments" in record.output and used == []


def test_the_model_sees_the_fallbacks_mark():
    def policy_(conversation: Conversation):
        exchanges = conversation.exchanges()
        if exchanges:
            return Reply(f"result seen: {exchanges[-1][1].content}")
        return CallTools((PlannedCall("get_weather", {"city": "北京"}),))

    llm = cd.connect("offline", offline_model=OfflineModel(latency=LatencyModel.instant(), policies=[policy_]))
    tool = cd.tool(down(), retry=policy(), fallbacks=[cache])
    result = llm.run("weather in Beijing?", tools=[tool], max_rounds=1)
    assert '"source":"cache"' in result.answer
    assert result.tool_calls[0].fallback == "cache"


def test_fallbacks_still_run_once_the_retry_deadline_has_passed():
    clock = SimulatedClock()
    retry = Retry(attempts=10, base=5.0, cap=5.0, jitter="none", deadline=1.0, clock=clock)
    tool = cd.tool(down(), retry=retry, timeout=1.0, fallbacks=[cache])
    [record] = execute([CALL], ToolRegistry([tool]))
    assert [a.tool for a in record.attempts] == ["get_weather", "cache"]  # a 5 s wait would cross the 1 s deadline
    assert record.fallback == "cache" and not record.is_error and clock.waited == 0
