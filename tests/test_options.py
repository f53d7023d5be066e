"""What llm.run does with the caller's options: tool_choice, SDK arguments, max_rounds, max_tokens."""

from __future__ import annotations

import pytest

import conductor as cd
from scripted import offline, scripted
from wire import APIS

FORBIDDEN = {"responses": "none", "chat": "none", "messages": {"type": "none"}}


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
        ("responses", "required", "required"),
        ("responses", {"type": "any"}, "required"),
        ("chat", "required", "required"),
        ("chat", {"type": "any"}, "required"),
        ("messages", "required", {"type": "any"}),
        ("messages", {"type": "any"}, {"type": "any"}),
        ("responses", {"type": "tool", "name": "get_weather"}, {"type": "function", "name": "get_weather"}),
        ("responses", {"type": "function", "function": {"name": "get_weather"}}, {"type": "function", "name": "get_weather"}),
        ("chat", {"type": "tool", "name": "get_weather"}, {"type": "function", "function": {"name": "get_weather"}}),
        ("messages", {"type": "function", "function": {"name": "get_weather"}}, {"type": "tool", "name": "get_weather"}),
        # auto, asked for or not: the OpenAI APIs' default beside tools, so it is left out there
        ("responses", "auto", None),
        ("chat", None, None),
        ("chat", {"type": "auto"}, None),
        ("messages", None, {"type": "auto"}),
        ("messages", "auto", {"type": "auto"}),
    ],
)
def test_tool_choice_is_honoured_while_rounds_remain_and_the_final_request_forbids_tools(api, given, sent):
    llm, model = offline(api, scripted([("get_weather", {"city": "北京"})], [("get_weather", {"city": "上海"})], "Done."))
    result = llm.run("Weather?", tools=[get_weather, get_time], max_rounds=2, tool_choice=given)
    assert choices(model) == [sent, sent, FORBIDDEN[api]]
    assert all(r.status == 200 for r in model.requests) and result.answer == "Done."


@pytest.mark.parametrize("api", ["responses", "chat"])
def test_anthropic_one_call_per_turn_becomes_openai_parallel_tool_calls_false(api):
    llm, model = offline(api, scripted("ok"))
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
        ({"max_output_tokens": 10}, "max_tokens="),
        ({"input": "Hi"}, "history="),
        ({"instructions": "Be brief."}, "system="),
        ({"previous_response_id": "resp_1"}, "server_state=True"),
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
        ("responses", {"temperature": 0.2, "metadata": {"user_id": "u-1"}, "truncation": "auto"}),
        ("chat", {"temperature": 0.2, "stop": ["\n\n"]}),
        ("messages", {"metadata": {"user_id": "u-1"}, "stop_sequences": ["\n\n"]}),
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
    llm, model = offline("messages", scripted("ok"))
    llm.run("Hi")
    llm.run("Hi", max_tokens=200)
    assert [r.body["max_tokens"] for r in model.requests] == [4096, 200]


@pytest.mark.parametrize(("api", "field"), [("responses", "max_output_tokens"), ("chat", "max_completion_tokens")])
def test_openai_max_tokens_is_sent_under_each_apis_name_and_only_when_set(api, field):
    llm, model = offline(api, scripted("ok"))
    llm.run("Hi")
    llm.run("Hi", max_tokens=200)
    assert [r.body.get(field) for r in model.requests] == [None, 200]
    assert all("max_tokens" not in r.body for r in model.requests)


@pytest.mark.parametrize("api", ["responses", "chat"])
def test_temperature_reaches_the_request_where_the_api_takes_it(api):
    llm, model = offline(api, scripted("ok"))
    assert llm.run("Hi", temperature=0.2).answer == "ok"
    assert model.requests[0].body["temperature"] == 0.2


@pytest.mark.parametrize("option", ["temperature", "top_p"])
def test_sampling_options_are_refused_on_messages_naming_the_apis_that_take_them(option):
    llm, model = offline("messages", scripted("ok"))
    with pytest.raises(ValueError, match=f"{option}= is an option of the responses and chat APIs"):
        llm.run("Hi", **{option: 0.2})
    assert not model.requests
