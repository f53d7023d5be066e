"""What llm.run does with the caller's options: tool_choice, SDK arguments, max_rounds, max_tokens."""

from __future__ import annotations

import pytest

import conductor as cd
from scripted import offline, scripted

APIS = ["openai", "anthropic"]
FORBIDDEN = {"openai": "none", "anthropic": {"type": "none"}}


@cd.tool
def get_weather(city: str) -> dict:
    """Get today's weather for a city."""
    return {"city": city, "temperature": 5}


@cd.tool
def get_time(city: str) -> str:
    """Get the local time in a city."""
    return "09:00"


def choices(model) -> list:
    return [r.body.get("tool_choice") for r in model.requests]


@pytest.mark.parametrize(
    "api, given, sent",
    [
        ("openai", "required", "required"),
        ("openai", {"type": "any"}, "required"),
        ("anthropic", "required", {"type": "any"}),
        ("anthropic", {"type": "any"}, {"type": "any"}),
        ("openai", {"type": "tool", "name": "get_weather"}, {"type": "function", "function": {"name": "get_weather"}}),
        ("anthropic", {"type": "function", "function": {"name": "get_weather"}}, {"type": "tool", "name": "get_weather"}),
    ],
)
def test_tool_choice_is_honoured_while_rounds_remain_and_the_final_request_forbids_tools(api, given, sent):
    llm, model = offline(api, scripted([("get_weather", {"city": "北京"})], [("get_weather", {"city": "上海"})], "Done."))
    result = llm.run("Weather?", tools=[get_weather, get_time], max_rounds=2, tool_choice=given)
    assert choices(model) == [sent, sent, FORBIDDEN[api]]
    assert all(r.status == 200 for r in model.requests) and result.answer == "Done."


def test_anthropic_one_call_per_turn_becomes_openai_parallel_tool_calls_false():
    llm, model = offline("openai", scripted("ok"))
    llm.run("Weather?", tools=[get_weather], tool_choice={"type": "any", "disable_parallel_tool_use": True})
    body = model.requests[0].body
    assert body["tool_choice"] == "required" and body["parallel_tool_calls"] is False


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize(
    "tools, choice, message",
    [
        ([get_weather], {"type": "tool", "name": "get_wether"}, "not among the tools offered: get_weather"),
        ([], "required", "needs tools"),
        ([get_weather], "sometimes", "unsupported tool_choice 'sometimes'"),
    ],
)
def test_bad_tool_choice_is_refused_before_any_request(api, tools, choice, message):
    llm, model = offline(api, scripted("ok"))
    with pytest.raises(ValueError, match=message):
        llm.run("Weather?", tools=tools, tool_choice=choice)
    assert model.requests == []


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize(
    "options, message",
    [
        ({"messages": []}, "history="),
        ({"model": "gpt-4o"}, r"cd.connect\(..., model="),
        ({"stream": True}, "stream=True is not supported.*llm.client"),
        ({"n": 2}, "one choice per response"),
        ({"max_completion_tokens": 10}, "max_tokens="),
    ],
)
def test_sdk_arguments_run_sets_itself_are_refused_with_the_fix(api, options, message):
    llm, model = offline(api, scripted("ok"))
    with pytest.raises(ValueError, match=message):
        llm.run("Hi", **options)
    assert model.requests == []


@pytest.mark.parametrize("api", APIS)
def test_schema_dicts_as_tools_are_refused_naming_the_tool(api):
    llm, _ = offline(api, scripted("ok"))
    schema = {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}
    with pytest.raises(ValueError, match="schema dict for 'get_weather'.*@cd.tool"):
        llm.run("Hi", tools=[schema])


@pytest.mark.parametrize(
    "api, options",
    [
        ("openai", {"temperature": 0.2, "stop": ["\n\n"]}),
        ("anthropic", {"metadata": {"user_id": "u-1"}, "stop_sequences": ["\n\n"]}),
    ],
)
def test_other_sdk_arguments_reach_the_request(api, options):
    llm, model = offline(api, scripted("ok"))
    llm.run("Hi", **options)
    body = model.requests[0].body
    assert {key: body[key] for key in options} == options


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize(
    "value, error", [(True, TypeError), ("2", TypeError), (1.5, TypeError), (None, TypeError), (-1, ValueError)]
)
def test_max_rounds_must_be_a_non_negative_int(api, value, error):
    llm, model = offline(api, scripted("ok"))
    with pytest.raises(error, match="max_rounds"):
        llm.run("Hi", tools=[get_weather], max_rounds=value)
    assert model.requests == []


def test_anthropic_max_tokens_defaults_to_4096_and_can_be_set():
    llm, model = offline("anthropic", scripted("ok"))
    llm.run("Hi")
    llm.run("Hi", max_tokens=200)
    assert [r.body["max_tokens"] for r in model.requests] == [4096, 200]
