"""Injected faults surface through the SDKs as the SDKs' own exceptions and objects."""

from __future__ import annotations

import json

import anthropic
import httpx2
import openai
import pytest

from conductor.offline import FAULT_KINDS, CallTools, Fault, LatencyModel, OfflineModel, PlannedCall, Reply

OPENAI_TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Get today's weather for a city.",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
                "required": ["city"],
            },
        },
    }
]
ANTHROPIC_TOOLS = [
    {"name": f["name"], "description": f["description"], "input_schema": f["parameters"]}
    for f in (t["function"] for t in OPENAI_TOOLS)
]
USER = {"role": "user", "content": "What is the weather in Beijing today? Tell me in a few words."}


def weather(conversation):
    if conversation.tools_allowed and not conversation.exchanges():
        return CallTools((PlannedCall("get_weather", {"city": "Beijing", "days": 1}),))
    return Reply("Beijing is sunny today with a light breeze and a high of thirty-one degrees.")


@pytest.fixture
def model() -> OfflineModel:
    return OfflineModel(latency=LatencyModel.instant(), policies=[weather])


def ask_openai(model: OfflineModel, max_retries: int = 0, **extra):
    client = model.openai_client(max_retries=max_retries)
    return client.chat.completions.create(model="gpt-4.1-mini", messages=[USER], **extra)


def ask_anthropic(model: OfflineModel, max_retries: int = 0, **extra):
    client = model.anthropic_client(max_retries=max_retries)
    return client.messages.create(model="claude-haiku-4-5", max_tokens=1024, messages=[USER], **extra)


# ----------------------------------------------------------------------------- transport faults


@pytest.mark.parametrize(
    ("kind", "openai_error", "anthropic_error", "status"),
    [
        ("rate_limit", openai.RateLimitError, anthropic.RateLimitError, 429),
        ("server_error", openai.InternalServerError, anthropic.InternalServerError, 500),
        ("unavailable", openai.InternalServerError, anthropic.ServiceUnavailableError, 503),
        ("overloaded", openai.InternalServerError, anthropic.OverloadedError, 529),
    ],
)
def test_http_faults_raise_the_sdk_errors(model: OfflineModel, kind, openai_error, anthropic_error, status) -> None:
    model.inject(kind, times=2)
    with pytest.raises(openai_error) as from_openai:
        ask_openai(model)
    with pytest.raises(anthropic_error) as from_anthropic:
        ask_anthropic(model)
    assert from_openai.value.status_code == from_anthropic.value.status_code == status
    assert [r.status for r in model.requests] == [status, status]


def test_rate_limit_sends_retry_after_headers(model: OfflineModel) -> None:
    model.inject("rate_limit", retry_after=0.25)
    with pytest.raises(openai.RateLimitError) as caught:
        ask_openai(model)
    headers = caught.value.response.headers
    assert (headers["retry-after-ms"], headers["retry-after"]) == ("250", "1")
    assert caught.value.code == "rate_limit_exceeded"


def test_overloaded_has_anthropic_overloaded_error_body(model: OfflineModel) -> None:
    model.inject("overloaded")
    with pytest.raises(anthropic.OverloadedError) as caught:
        ask_anthropic(model)
    assert caught.value.body["error"] == {"type": "overloaded_error", "message": "Overloaded"}


@pytest.mark.parametrize("ask", [ask_openai, ask_anthropic])
def test_a_rate_limit_then_success_is_retried_by_the_sdk(model: OfflineModel, ask) -> None:
    model.inject("rate_limit", retry_after=0.001)
    reply = ask(model, max_retries=2)
    assert reply is not None
    assert [r.status for r in model.requests] == [429, 200]


@pytest.mark.parametrize(
    ("kind", "openai_error", "anthropic_error"),
    [
        ("timeout", openai.APITimeoutError, anthropic.APITimeoutError),
        ("connection", openai.APIConnectionError, anthropic.APIConnectionError),
    ],
)
def test_network_faults_raise_the_sdk_errors(model: OfflineModel, kind, openai_error, anthropic_error) -> None:
    model.inject(kind, times=2)
    with pytest.raises(openai_error):
        ask_openai(model)
    with pytest.raises(anthropic_error):
        ask_anthropic(model)
    assert [r.status for r in model.requests] == [0, 0]  # no response was sent


def test_timeout_comes_from_the_transport(model: OfflineModel) -> None:
    model.inject("timeout")
    with httpx2.Client(transport=model.transport()) as client, pytest.raises(httpx2.ReadTimeout):
        client.post("http://offline.invalid/v1/chat/completions", json={"model": "m", "messages": [USER]})


# ----------------------------------------------------------------------------- content faults


def test_malformed_arguments_openai_sends_invalid_json(model: OfflineModel) -> None:
    model.inject("malformed_arguments")
    call = ask_openai(model, tools=OPENAI_TOOLS).choices[0].message.tool_calls[0]
    with pytest.raises(json.JSONDecodeError):
        json.loads(call.function.arguments)
    assert call.function.arguments.startswith('{"city": "Beijing"')


def test_malformed_arguments_anthropic_breaks_the_schema(model: OfflineModel) -> None:
    model.inject("malformed_arguments")
    block = [b for b in ask_anthropic(model, tools=ANTHROPIC_TOOLS).content if b.type == "tool_use"][0]
    assert block.input == {"days": 1}  # the required "city" is missing


def test_unknown_tool(model: OfflineModel) -> None:
    model.inject("unknown_tool", times=2)
    openai_call = ask_openai(model, tools=OPENAI_TOOLS).choices[0].message.tool_calls[0]
    anthropic_block = ask_anthropic(model, tools=ANTHROPIC_TOOLS).content[0]
    assert openai_call.function.name == anthropic_block.name == "get_weather_v2"
    model.inject("unknown_tool", name="send_email")
    assert ask_openai(model, tools=OPENAI_TOOLS).choices[0].message.tool_calls[0].function.name == "send_email"


def test_truncated(model: OfflineModel) -> None:
    full = ask_openai(model).choices[0].message.content
    model.inject("truncated", times=2)
    choice = ask_openai(model).choices[0]
    message = ask_anthropic(model)
    assert choice.finish_reason == "length"
    assert full.startswith(choice.message.content) and choice.message.content != full
    assert message.stop_reason == "max_tokens" and message.content[0].text == choice.message.content


def test_refusal(model: OfflineModel) -> None:
    model.inject("refusal", times=2)
    choice = ask_openai(model).choices[0]
    message = ask_anthropic(model)
    assert choice.message.refusal and choice.message.content is None and choice.finish_reason == "stop"
    assert message.stop_reason == "refusal" and message.content[0].text == choice.message.refusal


def test_refusal_streams_as_refusal_deltas(model: OfflineModel) -> None:
    model.inject("refusal", text="No.")
    chunks = list(ask_openai(model, stream=True))
    assert "".join(c.choices[0].delta.refusal or "" for c in chunks) == "No."


def test_empty(model: OfflineModel) -> None:
    model.inject("empty", times=2)
    choice = ask_openai(model, tools=OPENAI_TOOLS).choices[0]
    message = ask_anthropic(model, tools=ANTHROPIC_TOOLS)
    assert (choice.message.content, choice.message.tool_calls, choice.finish_reason) == ("", None, "stop")
    assert (message.content, message.stop_reason) == ([], "end_turn")


def test_stream_error_openai(model: OfflineModel) -> None:
    model.inject("stream_error")
    stream = ask_openai(model, stream=True)
    with pytest.raises(openai.APIError, match="The server had an error"):
        list(stream)


def test_stream_error_anthropic(model: OfflineModel) -> None:
    model.inject("stream_error")
    with pytest.raises(anthropic.APIStatusError) as caught:
        with model.anthropic_client(max_retries=0).messages.stream(
            model="m", max_tokens=100, messages=[USER]
        ) as stream:
            stream.get_final_message()
    assert caught.value.body["error"]["type"] == "overloaded_error"


def test_stream_error_on_a_json_request_is_a_server_error(model: OfflineModel) -> None:
    model.inject("stream_error")
    with pytest.raises(openai.InternalServerError):
        ask_openai(model)


def test_ignore_tool_choice(model: OfflineModel) -> None:
    model.inject("ignore_tool_choice", times=2)
    choice = ask_openai(model, tools=OPENAI_TOOLS, tool_choice="none").choices[0]
    message = ask_anthropic(model, tools=ANTHROPIC_TOOLS, tool_choice={"type": "none"})
    assert choice.finish_reason == "tool_calls" and choice.message.tool_calls[0].function.name == "get_weather"
    assert message.stop_reason == "tool_use"


# ----------------------------------------------------------------------------- scheduling


def test_unknown_fault_kind_lists_the_valid_ones(model: OfflineModel) -> None:
    with pytest.raises(ValueError, match="rate_limit, server_error"):
        model.inject("gremlins")
    with pytest.raises(ValueError, match="unknown fault kind"):
        OfflineModel(faults={"gremlins": 0.5})
    with pytest.raises(ValueError, match="probability"):
        OfflineModel(faults={"rate_limit": 2})
    assert Fault("timeout").transport and not Fault("refusal").transport
    assert len(FAULT_KINDS) == 13


def test_injected_faults_are_served_in_order_then_stop(model: OfflineModel) -> None:
    model.inject("server_error")
    model.inject("rate_limit", retry_after=0.001)
    for error in (openai.InternalServerError, openai.RateLimitError):
        with pytest.raises(error):
            ask_openai(model)
    ask_openai(model)
    assert [r.status for r in model.requests] == [500, 429, 200]


def test_fault_rates_are_seeded(model: OfflineModel) -> None:
    def statuses(seed: int) -> list[int]:
        offline = OfflineModel(
            seed=seed, latency=LatencyModel.instant(), policies=[weather], faults={"server_error": 0.5}
        )
        for _ in range(20):
            try:
                ask_openai(offline)
            except openai.InternalServerError:
                pass
        return [r.status for r in offline.requests]

    first = statuses(3)
    assert first == statuses(3)
    assert set(first) == {200, 500}
