"""The offline model rejects what the real APIs reject, with their status and error text."""

from __future__ import annotations

import anthropic
import openai
import pytest

from conductor.offline import CallTools, LatencyModel, OfflineModel, PlannedCall, Reply
from scripted import ANTHROPIC_TOOLS, OPENAI_TOOLS

USER = {"role": "user", "content": "Weather in Beijing?"}


def call_weather(conversation):
    if conversation.tools_allowed and not conversation.exchanges():
        return CallTools((PlannedCall("get_weather", {"city": "Beijing"}),))
    return Reply("done")


@pytest.fixture
def model() -> OfflineModel:
    return OfflineModel(latency=LatencyModel.instant(), policies=[call_weather])


# ----------------------------------------------------------------------------- OpenAI


def openai_reject(offline: OfflineModel, **request) -> openai.BadRequestError:
    client = offline.openai_client(max_retries=0)
    request.setdefault("model", "gpt-4.1-mini")
    with pytest.raises(openai.BadRequestError) as caught:
        client.chat.completions.create(**request)
    assert caught.value.status_code == 400
    assert caught.value.type == "invalid_request_error"
    assert offline.requests[-1].status == 400
    return caught.value


def assistant_with_calls(*ids: str) -> dict:
    calls = [{"id": i, "type": "function", "function": {"name": "get_weather", "arguments": "{}"}} for i in ids]
    return {"role": "assistant", "content": None, "tool_calls": calls}


def test_openai_unanswered_tool_calls(model: OfflineModel) -> None:
    answer_a = {"role": "tool", "tool_call_id": "call_a", "content": "ok"}
    messages = [USER, assistant_with_calls("call_a", "call_b"), answer_a, USER]
    error = openai_reject(model, messages=messages, tools=OPENAI_TOOLS)
    assert error.body["message"] == (
        "An assistant message with 'tool_calls' must be followed by tool messages responding to each "
        "'tool_call_id'. The following tool_call_ids did not have response messages: call_b"
    )
    assert error.param == "messages.[3].role"


def test_openai_tool_message_answering_nothing(model: OfflineModel) -> None:
    messages = [USER, {"role": "tool", "tool_call_id": "call_zzz", "content": "ok"}]
    error = openai_reject(model, messages=messages, tools=OPENAI_TOOLS)
    assert error.body["message"] == (
        "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'."
    )
    assert error.param == "messages.[1].role"


def test_openai_tool_message_without_id(model: OfflineModel) -> None:
    messages = [USER, assistant_with_calls("call_a"), {"role": "tool", "content": "ok"}]
    error = openai_reject(model, messages=messages, tools=OPENAI_TOOLS)
    assert "messages with role 'tool' must have a 'tool_call_id'" in error.body["message"]


def test_openai_tool_choice_without_tools(model: OfflineModel) -> None:
    error = openai_reject(model, messages=[USER], tool_choice="none")
    assert error.body["message"] == (
        "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified."
    )
    assert error.param == "tool_choice"


def test_openai_empty_messages(model: OfflineModel) -> None:
    error = openai_reject(model, messages=[])
    assert error.body["message"].startswith("Invalid 'messages': empty array.")
    assert (error.param, error.code) == ("messages", "empty_array")


def test_openai_missing_model(model: OfflineModel) -> None:
    error = openai_reject(model, messages=[USER], model=openai.omit)
    assert error.body["message"] == "you must provide a model parameter"


def test_openai_tool_without_function_name(model: OfflineModel) -> None:
    tools = [{"type": "function", "function": {"description": "x", "parameters": {"type": "object"}}}]
    error = openai_reject(model, messages=[USER], tools=tools)
    assert error.body["message"] == "Missing required parameter: 'tools[0].function.name'."
    assert error.code == "missing_required_parameter"


def test_openai_tool_parameters_not_an_object_schema(model: OfflineModel) -> None:
    tools = [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "string"}}}]
    error = openai_reject(model, messages=[USER], tools=tools)
    assert error.body["message"] == (
        "Invalid schema for function 'get_weather': schema must be a JSON Schema of 'type: \"object\"', "
        "got 'type: \"string\"'."
    )
    assert (error.param, error.code) == ("tools[0].function.parameters", "invalid_function_parameters")


def test_openai_answered_tool_calls_and_tool_choice_none_are_accepted(model: OfflineModel) -> None:
    messages = [USER, assistant_with_calls("call_a"), {"role": "tool", "tool_call_id": "call_a", "content": "sunny"}]
    reply = model.openai_client().chat.completions.create(
        model="m", messages=messages, tools=OPENAI_TOOLS, tool_choice="none"
    )
    assert reply.choices[0].message.content == "done"


# -------------------------------------------------------------------------- Anthropic


def anthropic_reject(offline: OfflineModel, **request) -> anthropic.BadRequestError:
    client = offline.anthropic_client(max_retries=0)
    request.setdefault("model", "claude-haiku-4-5")
    request.setdefault("max_tokens", 1024)
    with pytest.raises(anthropic.BadRequestError) as caught:
        client.messages.create(**request)
    error = caught.value
    assert error.status_code == 400
    assert error.body["type"] == "error" and error.body["error"]["type"] == "invalid_request_error"
    assert error.body["request_id"] == error.response.headers["request-id"]
    assert offline.requests[-1].status == 400
    return error


def message_text(error: anthropic.BadRequestError) -> str:
    return error.body["error"]["message"]


def tool_use(*ids: str) -> dict:
    return {
        "role": "assistant",
        "content": [{"type": "tool_use", "id": i, "name": "get_weather", "input": {"city": "Beijing"}} for i in ids],
    }


def tool_results(*ids: str) -> dict:
    return {"role": "user", "content": [{"type": "tool_result", "tool_use_id": i, "content": "sunny"} for i in ids]}


def test_anthropic_missing_max_tokens(model: OfflineModel) -> None:
    # An explicit timeout: without one the SDK derives it from max_tokens before sending.
    error = anthropic_reject(model, messages=[USER], max_tokens=anthropic.omit, timeout=30)
    assert message_text(error) == "max_tokens: Field required"


def test_anthropic_empty_messages(model: OfflineModel) -> None:
    error = anthropic_reject(model, messages=[])
    assert message_text(error) == "messages: at least one message is required"


def test_anthropic_tool_use_without_results(model: OfflineModel) -> None:
    messages = [USER, tool_use("toolu_a", "toolu_b"), tool_results("toolu_a")]
    error = anthropic_reject(model, messages=messages, tools=ANTHROPIC_TOOLS)
    assert message_text(error) == (
        "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_b. "
        "Each `tool_use` block must have a corresponding `tool_result` block in the next message."
    )


def test_anthropic_tool_results_must_come_first(model: OfflineModel) -> None:
    late = {"role": "user", "content": [{"type": "text", "text": "here:"}, *tool_results("toolu_a")["content"]]}
    error = anthropic_reject(model, messages=[USER, tool_use("toolu_a"), late], tools=ANTHROPIC_TOOLS)
    assert "`tool_use` ids were found without `tool_result` blocks immediately after: toolu_a" in message_text(error)


def test_anthropic_tool_result_answering_nothing(model: OfflineModel) -> None:
    messages = [USER, tool_use("toolu_a"), tool_results("toolu_a", "toolu_x")]
    error = anthropic_reject(model, messages=messages, tools=ANTHROPIC_TOOLS)
    assert message_text(error) == (
        "messages.2.content.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_x. "
        "Each `tool_result` block must have a corresponding `tool_use` block in the previous message."
    )


def test_anthropic_tool_blocks_need_tools(model: OfflineModel) -> None:
    error = anthropic_reject(model, messages=[USER, tool_use("toolu_a"), tool_results("toolu_a")])
    assert message_text(error) == "Requests which include `tool_use` or `tool_result` blocks must define tools."


def test_anthropic_first_message_must_be_user(model: OfflineModel) -> None:
    error = anthropic_reject(model, messages=[{"role": "assistant", "content": "Hello"}, USER])
    assert message_text(error) == 'messages: first message must use the "user" role'


def test_a_mid_conversation_system_message_is_taken_from_claude_4_8_on() -> None:
    seen = []

    def answer(conversation):
        seen.append((conversation.system, conversation.messages[-1].text))
        return Reply("done")

    offline = OfflineModel(latency=LatencyModel.instant(), policies=[answer])
    reminder = {"role": "system", "content": "Answer in one word."}
    messages = [USER, {"role": "assistant", "content": "Sunny."}, {"role": "user", "content": "And tomorrow?"},
                reminder]
    client = offline.anthropic_client(max_retries=0)
    for model in ("claude-opus-4-8", "claude-sonnet-5"):
        client.messages.create(model=model, max_tokens=50, system="Be brief.", messages=messages)
    # Instructions join the system prompt; the question stays the user's last message.
    assert seen == [("Be brief.\n\nAnswer in one word.", "And tomorrow?")] * 2
    older = anthropic_reject(offline, model="claude-sonnet-4-6", messages=messages)
    assert message_text(older) == "role 'system' is not supported on this model"
    first = anthropic_reject(offline, model="claude-opus-4-8", messages=[reminder, USER])
    assert message_text(first) == "messages.0: use the top-level 'system' parameter"


def test_anthropic_empty_content(model: OfflineModel) -> None:
    error = anthropic_reject(model, messages=[{"role": "user", "content": ""}])
    assert message_text(error) == (
        "messages.0: all messages must have non-empty content except for the optional final assistant message"
    )


@pytest.mark.parametrize(
    ("tool", "text"),
    [
        ({"description": "x", "input_schema": {"type": "object"}}, "tools.0.custom.name: Field required"),
        ({"name": "get_weather", "description": "x"}, "tools.0.custom.input_schema: Field required"),
        (
            {"name": "get_weather", "input_schema": {"properties": {}}},
            "tools.0.custom.input_schema.type: Field required",
        ),
    ],
)
def test_anthropic_malformed_tool(model: OfflineModel, tool: dict, text: str) -> None:
    assert message_text(anthropic_reject(model, messages=[USER], tools=[tool])) == text


def test_anthropic_consecutive_same_role_messages_are_combined(model: OfflineModel) -> None:
    """The API combines consecutive turns of one role, so tool results then a text message are fine."""
    follow_up = {"role": "user", "content": "Answer now, please."}
    messages = [USER, tool_use("toolu_a"), tool_results("toolu_a"), follow_up]
    reply = model.anthropic_client().messages.create(
        model="m", max_tokens=100, messages=messages, tools=ANTHROPIC_TOOLS, tool_choice={"type": "none"}
    )
    assert reply.content[0].text == "done"


def test_bad_requests_are_not_retried(model: OfflineModel) -> None:
    client = model.anthropic_client(max_retries=2)
    with pytest.raises(anthropic.BadRequestError):
        client.messages.create(model="m", max_tokens=10, messages=[])
    assert len(model.requests) == 1
