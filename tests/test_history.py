"""Continuing a conversation with history=, from either API's messages or the neutral ones."""

from __future__ import annotations

import json

import pytest

import conductor as cd
from conductor.apis import api_for
from conductor.types import SystemMessage, ToolResult, Turn, UserMessage
from scripted import RawServer, offline, scripted

APIS = ["openai", "anthropic"]


@cd.tool
def get_weather(city: str) -> dict:
    """Get today's weather for a city."""
    return {"city": city, "temperature": {"北京": 5, "上海": 18}.get(city, 20)}


def calls_and_answers(api: str, messages: list[dict]) -> tuple[list[str], list[str]]:
    """The call ids a request's messages hold, and the ids their results answer, in order."""
    calls: list[str] = []
    answers: list[str] = []
    for m in messages:
        if api == "openai":
            calls += [c["id"] for c in m.get("tool_calls") or ()]
            if m["role"] == "tool":
                answers.append(m["tool_call_id"])
        elif isinstance(m["content"], list):
            calls += [b["id"] for b in m["content"] if b["type"] == "tool_use"]
            answers += [b["tool_use_id"] for b in m["content"] if b["type"] == "tool_result"]
    return calls, answers


def wire(api: str, messages) -> list[dict]:
    out: list[dict] = []
    api_for(api).render(messages, out)
    return out


def two_round_script():
    return scripted([("get_weather", {"city": "北京"})], [("get_weather", {"city": "上海"})], "北京 5°C, 上海 18°C.")


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("view", ["messages", "conversation"])
def test_three_runs_in_a_row_continue_after_tool_rounds(api, view):
    llm, model = offline(api, two_round_script())
    history = None
    for question in ("Weather?", "And again?", "Once more?"):
        result = llm.run(question, tools=[get_weather], max_rounds=2, history=history)
        assert result.answer == "北京 5°C, 上海 18°C." and len(result.rounds) == 2
        history = getattr(result, view)
    assert all(r.status == 200 for r in model.requests) and len(model.requests) == 9
    calls, answers = calls_and_answers(api, model.requests[-1].body["messages"])
    assert len(calls) == 6 and calls == answers and len(set(calls)) == 6
    questions = [m.text for m in result.conversation if isinstance(m, UserMessage)]
    assert questions == ["Weather?", "And again?", "Once more?"]


@pytest.mark.parametrize("first, second", [("openai", "anthropic"), ("anthropic", "openai")])
def test_history_from_the_other_api_is_converted(first, second):
    llm, _ = offline(first, two_round_script())
    earlier = llm.run("Weather?", tools=[get_weather], max_rounds=2, system="Be brief.")
    other, model = offline(second, scripted("Still 5°C."))
    result = other.run("Still?", tools=[get_weather], history=earlier.messages, system="Be brief.")
    assert result.answer == "Still 5°C." and model.requests[0].status == 200
    body = model.requests[0].body
    calls, answers = calls_and_answers(second, body["messages"])
    assert calls == answers == [c.id for c in earlier.tool_calls]
    if second == "anthropic":
        assert body["system"] == "Be brief."
    else:
        assert [m["content"] for m in body["messages"] if m["role"] == "system"] == ["Be brief."]
    # The same turns, whatever API carried them (metadata such as usage stays with the run that had it).
    assert wire("openai", result.conversation[: len(earlier.conversation)]) == wire("openai", earlier.conversation)


OPENAI_HISTORY = [
    {"role": "system", "content": "You are a weather assistant."},
    {"role": "user", "content": [{"type": "text", "text": "Weather in 北京?"}]},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "call_a1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "北京"}'}}
        ],
    },
    {"role": "tool", "tool_call_id": "call_a1", "content": '{"city": "北京", "temperature": 5}'},
    {"role": "assistant", "content": "It is 5°C in 北京."},
]
ANTHROPIC_HISTORY = [
    {"role": "user", "content": "Weather in 北京?"},
    {
        "role": "assistant",
        "content": [
            {"type": "text", "text": "Let me check."},
            {"type": "tool_use", "id": "toolu_01A", "name": "get_weather", "input": {"city": "北京"}},
        ],
    },
    {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": "toolu_01A", "content": [{"type": "text", "text": "5°C"}]}],
    },
    {"role": "assistant", "content": [{"type": "text", "text": "It is 5°C in 北京."}]},
]


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("history", [OPENAI_HISTORY, ANTHROPIC_HISTORY], ids=["openai-format", "anthropic-format"])
def test_hand_written_history_in_either_format_reaches_either_api(api, history):
    llm, model = offline(api, scripted("Warmer tomorrow."))
    result = llm.run("And tomorrow?", tools=[get_weather], history=history)
    assert result.answer == "Warmer tomorrow." and model.requests[0].status == 200
    neutral = result.conversation
    first_call = next(m for m in neutral if isinstance(m, Turn) and m.tool_calls).tool_calls[0]
    answer = next(m for m in neutral if isinstance(m, ToolResult))
    assert first_call.name == answer.name == "get_weather" and answer.call_id == first_call.id
    assert json.loads(first_call.arguments) == {"city": "北京"}
    assert isinstance(neutral[-2], UserMessage) and neutral[-2].text == "And tomorrow?"
    if history is OPENAI_HISTORY:
        assert neutral[0] == SystemMessage("You are a weather assistant.")


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize(
    "history, message",
    [
        (
            [
                {"role": "user", "content": "q"},
                {
                    "role": "assistant",
                    "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}],
                },
                {"role": "user", "content": "next"},
            ],
            r"history\[1\] has tool call 'c1' \(get_weather\) with no result before history\[2\]; add its tool result",
        ),
        (
            [{"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "get_weather", "input": {}}]}],
            r"history\[0\] has tool call 't1' \(get_weather\) with no result by the end of the history",
        ),
        (
            [{"role": "tool", "tool_call_id": "zz", "content": "x"}],
            r"history\[0\] answers tool call 'zz', which no earlier assistant message made",
        ),
        (
            [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "https://x/y.png"}}]}],
            r"history\[0\] holds a 'image_url' part",
        ),
        ([{"role": "user"}], r"history\[0\] \(user\) has no 'content'"),
        ([{"role": "robot", "content": "?"}], r"history\[0\] must be a message with role 'system', 'user'"),
        ("Hello", r"history must be a list of messages"),
    ],
)
def test_malformed_history_names_the_entry_and_the_fix(api, history, message):
    llm, model = offline(api, scripted("x"))
    with pytest.raises(ValueError, match=message):
        llm.run("q", tools=[get_weather], history=history)
    assert model.requests == []


@pytest.mark.parametrize("api", APIS)
def test_same_system_prompt_again_is_not_repeated(api):
    llm, model = offline(api, scripted("ok"))
    first = llm.run("Hi", system="Be brief.")
    llm.run("Again", system="Be brief.", history=first.messages)
    body = model.requests[-1].body
    if api == "anthropic":
        assert body["system"] == "Be brief."
    else:
        assert sum(m["role"] == "system" for m in body["messages"]) == 1


@pytest.mark.parametrize("api", APIS)
def test_each_neutral_message_is_rendered_once(api, monkeypatch):
    llm, _ = offline(api, two_round_script())
    rendered: list[int] = []
    render = llm.adapter.render
    monkeypatch.setattr(llm.adapter, "render", lambda messages, into: (rendered.append(len(messages)), render(messages, into)))
    result = llm.run("Weather?", tools=[get_weather], max_rounds=2, history=OPENAI_HISTORY)
    assert sum(rendered) == len(result.conversation)  # each once, the final answer for result.messages
    assert result.messages == wire(api, result.conversation)


def test_anthropic_turn_is_rebuilt_from_request_fields_keeping_thinking():
    """Response-only fields (``caller`` on tool_use) stay out; thinking blocks keep their signature."""
    first = {
        "id": "msg_01X",
        "type": "message",
        "role": "assistant",
        "model": "claude-haiku-4-5-20251001",
        "content": [
            {"type": "thinking", "thinking": "Need the weather.", "signature": "EqQBCkYIBxgCKkD"},
            {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va"},
            {"type": "text", "text": "Checking."},
            {
                "type": "tool_use",
                "id": "toolu_01Q",
                "name": "get_weather",
                "input": {"city": "北京"},
                "caller": {"type": "direct"},  # a response-only field: must not be sent back
            },
        ],
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": {"input_tokens": 500, "output_tokens": 80},
    }
    second = {**first, "content": [{"type": "text", "text": "5°C."}], "stop_reason": "end_turn"}
    server = RawServer("anthropic", [first, second])
    llm = cd.connect(server.client(), model="claude-haiku-4-5")
    result = llm.run("Weather in 北京?", tools=[get_weather])
    assert result.answer == "5°C."
    assert server.bodies[1]["messages"][1] == {
        "role": "assistant",
        "content": [
            {"type": "thinking", "thinking": "Need the weather.", "signature": "EqQBCkYIBxgCKkD"},
            {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va"},
            {"type": "text", "text": "Checking."},
            {"type": "tool_use", "id": "toolu_01Q", "name": "get_weather", "input": {"city": "北京"}},
        ],
    }


@pytest.mark.parametrize("api", APIS)
def test_history_from_a_hand_written_sdk_loop_continues(api):
    """The classic loop appends the SDK's message object as is; run takes that history too."""
    llm, _ = offline("openai", scripted([("get_weather", {"city": "北京"})], "5°C."))
    client = llm.client
    messages: list = [{"role": "user", "content": "Weather in 北京?"}]
    reply = client.chat.completions.create(model=llm.model, messages=messages, tools=[get_weather.openai_schema()])
    message = reply.choices[0].message
    messages.append(message)
    for call in message.tool_calls:
        output = get_weather.func(**json.loads(call.function.arguments))
        messages.append({"role": "tool", "tool_call_id": call.id, "content": json.dumps(output, ensure_ascii=False)})
    other, other_model = offline(api, scripted("Still 5°C."))
    result = other.run("Still?", tools=[get_weather], history=messages)
    assert result.answer == "Still 5°C." and other_model.requests[0].status == 200
    calls, answers = calls_and_answers(api, other_model.requests[0].body["messages"])
    assert calls == answers == [message.tool_calls[0].id]


def test_a_run_can_move_to_the_other_api_between_requests():
    """The neutral conversation is rendered for whichever API serves the next request (model fallback)."""
    from conductor.apis import MessagesApi, RequestSettings
    from conductor.execution import execute
    from conductor.rounds import Conversation
    from conductor.tools import ToolRegistry
    from conductor.types import CostSplit

    first, _ = offline("openai", scripted([("get_weather", {"city": "北京"})]))
    second, model = offline("anthropic", scripted("unused", [("get_weather", {"city": "上海"})], "北京 5°C, 上海 18°C."))
    conversation = Conversation(
        adapter=first.adapter,
        settings=RequestSettings(first.model, ToolRegistry([get_weather]), system="Be brief."),
        question="Weather?",
        history=None,
        max_rounds=2,
        price=lambda usage: CostSplit(),
    )
    client = first.client
    while (request := conversation.next_request()) is not None:
        calls = conversation.receive(conversation.adapter.create(client, request), 0.0, 0.0)
        if calls:
            conversation.add_results(execute(calls, conversation.tools, origin=conversation.origin))
        conversation.adapter, client = MessagesApi(), second.client  # every later request on Anthropic
    result = conversation.result(model_name="mixed", priced_as="", prices=(0.0, 0.0))
    assert result.answer == "北京 5°C, 上海 18°C." and all(r.status == 200 for r in model.requests)
    body = model.requests[-1].body
    assert body["system"] == "Be brief."
    calls, answers = calls_and_answers("anthropic", body["messages"])
    assert calls == answers == [c.id for c in result.tool_calls] and len(calls) == 2
