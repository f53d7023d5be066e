"""Loop detection (lesson 04): the max_repeats-th identical call is not run; one more ends the run."""

from __future__ import annotations

import asyncio

import pytest
from scripted import offline, scripted
from wire import APIS

import conductor as cd
from conductor.offline import LatencyModel, OfflineModel


@pytest.fixture
def counter():
    ran: list[str] = []

    @cd.tool
    def get_weather(city: str) -> dict:
        """Get today's weather for a city."""
        ran.append(city)
        return {"city": city, "temperature": 18}

    return get_weather, ran


def same_call_forever():
    return scripted([("get_weather", {"city": "Paris"})])


@pytest.mark.parametrize("api", APIS)
def test_the_third_identical_call_is_not_run_and_the_fourth_ends_the_run(api, counter):
    tool, ran = counter
    llm, model = offline(api, same_call_forever())
    result = llm.run("Weather?", tools=[tool], max_rounds=10)
    assert ran == ["Paris", "Paris"]
    assert [c.blocked for c in result.tool_calls] == [None, None, "loop", "loop"]
    assert "already called get_weather" in result.tool_calls[2].output
    assert result.stopped_by == "loop" and "same arguments" in result.answer
    assert result.api_calls == 4 == len(model.requests)  # no request after the stop


@pytest.mark.parametrize("api", APIS)
def test_async_loop_detection(api, counter):
    tool, ran = counter
    model = OfflineModel(seed=0, latency=LatencyModel.instant(), policies=[same_call_forever()])
    llm = cd.connect("offline", api=api, asynchronous=True, offline_model=model)
    result = asyncio.run(llm.arun("Weather?", tools=[tool], max_rounds=10, max_repeats=2))
    assert ran == ["Paris"] and result.stopped_by == "loop" and result.api_calls == 3


def test_key_order_and_spacing_do_not_hide_a_repeat(counter):
    tool, ran = counter
    policy = scripted(
        [("get_weather", '{"city": "Paris"}')], [("get_weather", '{ "city":"Paris" }')], [("get_weather", {"city": "Paris"})], "ok"
    )
    llm, _ = offline("responses", policy)
    result = llm.run("Weather?", tools=[tool], max_rounds=3)
    assert [c.blocked for c in result.tool_calls] == [None, None, "loop"]


def test_different_arguments_are_not_a_loop_and_max_repeats_none_turns_it_off(counter):
    tool, ran = counter
    cities = scripted(*([("get_weather", {"city": c})] for c in ("Paris", "Oslo", "Rome", "Paris")), "ok")
    llm, _ = offline("responses", cities)
    assert llm.run("Weather?", tools=[tool], max_rounds=4).stopped_by is None
    llm, _ = offline("responses", same_call_forever())
    result = llm.run("Weather?", tools=[tool], max_rounds=4, max_repeats=None)
    assert result.stopped_by is None and len(ran) == 8


def test_a_model_that_stops_repeating_after_the_warning_goes_on(counter):
    tool, ran = counter
    paris = [("get_weather", {"city": "Paris"})]
    llm, _ = offline("messages", scripted(paris, paris, paris, "It is 18 degrees."))
    result = llm.run("Weather?", tools=[tool], max_rounds=5)
    assert result.stopped_by is None and result.answer == "It is 18 degrees." and ran == ["Paris", "Paris"]


@pytest.mark.parametrize("bad", [1, 0, -3, 2.5, True, "3"])
def test_max_repeats_must_be_two_or_more(bad, counter):
    llm, _ = offline("responses", scripted("ok"))
    with pytest.raises(ValueError, match="max_repeats"):
        llm.run("hi", tools=[counter[0]], max_repeats=bad)
