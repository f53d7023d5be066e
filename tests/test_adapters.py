"""The wire API modules between the SDKs' objects and the neutral turn, both ways."""

from __future__ import annotations

import json

import pytest
from anthropic.types import Message
from openai.types.chat import ChatCompletion
from openai.types.responses import Response

from conductor.apis import ChatApi, MessagesApi, RequestSettings, ResponsesApi
from conductor.types import StopReason, ToolCall, ToolResult, Turn, Usage
from scripted import responses_response


def completion(finish_reason: str, content: str | None = "hi", tool_calls=None, refusal=None) -> ChatCompletion:
    return ChatCompletion.model_validate(
        {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 0,
            "model": "gpt-4.1-mini",
            "choices": [
                {
                    "index": 0,
                    "finish_reason": finish_reason,
                    "message": {"role": "assistant", "content": content, "tool_calls": tool_calls, "refusal": refusal},
                }
            ],
            "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
        }
    )


def render(adapter, *messages, model: str = "m") -> list[dict]:
    """The wire messages ``adapter`` renders for neutral ``messages``, for requests to ``model``."""
    out: list[dict] = []
    adapter.render(messages, out, model=model)
    return out


def response(status: str = "completed", text: str | None = "hi", calls=(), incomplete: str | None = None,
             refusal: str | None = None) -> Response:
    """A Responses API response object as the SDK builds it from the JSON."""
    body = responses_response(text, calls, {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18})
    body["status"] = status
    if incomplete:
        body["incomplete_details"] = {"reason": incomplete}
    if refusal:
        body["output"].append({"id": "msg_2", "type": "message", "role": "assistant", "status": "completed",
                               "content": [{"type": "refusal", "refusal": refusal}]})
    return Response.construct(**body)


def message(stop_reason: str, content: list[dict]) -> Message:
    return Message.model_validate(
        {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-haiku-4-5",
            "content": content,
            "stop_reason": stop_reason,
            "stop_sequence": None,
            "usage": {"input_tokens": 11, "output_tokens": 7},
        }
    )


@pytest.mark.parametrize(
    "native, neutral",
    [
        ("stop", StopReason.END_TURN),
        ("tool_calls", StopReason.TOOL_USE),
        ("function_call", StopReason.TOOL_USE),
        ("length", StopReason.MAX_TOKENS),
        ("content_filter", StopReason.REFUSAL),
    ],
)
def test_openai_stop_reasons(native, neutral):
    turn = ChatApi().parse(completion(native))
    assert turn.stop_reason is neutral and turn.native_stop_reason == native
    assert turn.usage == Usage(11, 7)


def test_openai_refusal_field_wins():
    turn = ChatApi().parse(completion("stop", content=None, refusal="I can't help with that."))
    assert turn.stop_reason is StopReason.REFUSAL and turn.refusal == "I can't help with that."
    assert turn.native_stop_reason == "stop"


@pytest.mark.parametrize(
    "native, neutral",
    [
        ("end_turn", StopReason.END_TURN),
        ("stop_sequence", StopReason.END_TURN),
        ("tool_use", StopReason.TOOL_USE),
        ("max_tokens", StopReason.MAX_TOKENS),
        ("refusal", StopReason.REFUSAL),
        ("pause_turn", StopReason.PAUSE_TURN),
    ],
)
def test_anthropic_stop_reasons(native, neutral):
    turn = MessagesApi().parse(message(native, [{"type": "text", "text": "hi"}]))
    assert turn.stop_reason is neutral and turn.native_stop_reason == native


def test_openai_tool_calls_both_ways():
    adapter = ChatApi()
    raw = completion(
        "tool_calls",
        content="Checking.",
        tool_calls=[{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city":"北京"}'}}],
    )
    turn = adapter.parse(raw)
    assert turn.tool_calls == (ToolCall("call_1", "get_weather", '{"city":"北京"}'),)
    assert render(adapter, turn) == [{
        "role": "assistant",
        "content": "Checking.",
        "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city":"北京"}'}}],
    }]
    results = [ToolResult("call_1", "get_weather", '{"t": 5}'), ToolResult("call_2", "x", "boom", is_error=True)]
    assert render(adapter, *results) == [
        {"role": "tool", "tool_call_id": "call_1", "content": '{"t": 5}'},
        {"role": "tool", "tool_call_id": "call_2", "content": "Error: boom"},
    ]


def test_anthropic_tool_use_both_ways_keeps_block_order():
    adapter = MessagesApi()
    raw = message(
        "tool_use",
        [
            {"type": "text", "text": "Checking."},
            {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "北京"}},
        ],
    )
    turn = adapter.parse(raw)
    assert turn.text == "Checking."
    assert json.loads(turn.tool_calls[0].arguments) == {"city": "北京"}
    assert render(adapter, turn) == [{
        "role": "assistant",
        "content": [
            {"type": "text", "text": "Checking."},
            {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "北京"}},
        ],
    }]
    results = [ToolResult("toolu_1", "get_weather", ""), ToolResult("toolu_2", "x", "boom", is_error=True)]
    assert render(adapter, *results) == [
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_1"},
                {"type": "tool_result", "tool_use_id": "toolu_2", "content": "boom", "is_error": True},
            ],
        }
    ]


@pytest.mark.parametrize(
    "status, incomplete, calls, neutral, native",
    [
        ("completed", None, (), StopReason.END_TURN, "completed"),
        ("completed", None, (("call_1", "get_weather", {"city": "北京"}),), StopReason.TOOL_USE, "completed"),
        ("incomplete", "max_output_tokens", (), StopReason.MAX_TOKENS, "max_output_tokens"),
        ("incomplete", "content_filter", (), StopReason.REFUSAL, "content_filter"),
    ],
)
def test_responses_stop_reasons(status, incomplete, calls, neutral, native):
    turn = ResponsesApi().parse(response(status, calls=calls, incomplete=incomplete))
    assert turn.stop_reason is neutral and turn.native_stop_reason == native
    assert turn.usage == Usage(11, 7)


def test_responses_refusal_part_is_a_refusal():
    turn = ResponsesApi().parse(response(text=None, refusal="I can't help with that."))
    assert turn.stop_reason is StopReason.REFUSAL and turn.refusal == "I can't help with that."
    assert turn.text == "I can't help with that." and turn.native_stop_reason == "completed"


def test_responses_function_calls_both_ways():
    adapter = ResponsesApi()
    turn = adapter.parse(response(text="Checking.", calls=[("call_1", "get_weather", {"city": "北京"})]))
    assert turn.text == "Checking."
    assert [(c.id, c.name, json.loads(c.arguments)) for c in turn.tool_calls] == [
        ("call_1", "get_weather", {"city": "北京"})]
    # Another model (or a history turn) gets the neutral turn: text, then the calls, no output item ids.
    assert render(adapter, turn) == [
        {"role": "assistant", "content": "Checking."},
        {"type": "function_call", "call_id": "call_1", "name": "get_weather", "arguments": turn.tool_calls[0].arguments},
    ]
    results = [ToolResult("call_1", "get_weather", '{"t": 5}'), ToolResult("call_2", "x", "boom", is_error=True)]
    assert render(adapter, *results) == [
        {"type": "function_call_output", "call_id": "call_1", "output": '{"t": 5}'},
        {"type": "function_call_output", "call_id": "call_2", "output": "Error: boom"},
    ]


def test_responses_output_items_go_back_as_received_only_to_the_model_that_made_them():
    from dataclasses import replace

    adapter = ResponsesApi()
    turn = replace(adapter.parse(response(text="Checking.", calls=[("call_1", "get_weather", {"city": "北京"})])),
                   origin=("responses", "m"))
    replayed = render(adapter, turn, model="m")
    assert [(i["type"], i["id"]) for i in replayed] == [(item["type"], item["id"]) for item in turn.items]
    assert all("id" not in i for i in render(adapter, turn, model="another-model"))


@pytest.mark.parametrize("adapter", [ResponsesApi(), ChatApi(), MessagesApi()])
def test_turn_with_only_empty_text_is_not_sent(adapter):
    assert render(adapter, Turn(text_blocks=("",))) == []


@pytest.mark.parametrize("adapter", [ResponsesApi(), ChatApi(), MessagesApi()])
def test_final_request_forbids_tools_but_keeps_them(adapter):
    from conductor.tools import ToolRegistry
    from conductor.course.scenarios import get_weather

    settings = RequestSettings(model="m", tools=ToolRegistry([get_weather]))
    kwargs = adapter.request(settings, [{"role": "user", "content": "q"}], tools_allowed=False)
    assert kwargs["tools"]
    assert kwargs["tool_choice"] == {"type": "none"} if adapter.api == "messages" else kwargs["tool_choice"] == "none"
