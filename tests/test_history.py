"""Continuing a conversation with history=, from any API's messages or the neutral ones."""

from __future__ import annotations

import json

import pytest

import conductor as cd
from conductor.apis import api_for
from conductor.types import SystemMessage, ToolResult, Turn, UserMessage
from scripted import RawServer, offline, raw_response, scripted
from wire import APIS, results_by_id, system_texts, tool_calls


@cd.tool
def get_weather(city: str) -> dict:
    """Get today's weather for a city."""
    return {"city": city, "temperature": {"北京": 5, "上海": 18}.get(city, 20)}


def calls_and_answers(body: dict) -> tuple[list[str], list[str]]:
    """The call ids a request body holds, and the ids its results answer, in order (each answered once)."""
    return [call_id for call_id, _, _ in tool_calls(body)], list(results_by_id(body))


def rendered(api: str, messages) -> list[dict]:
    out: list[dict] = []
    api_for(api).render(messages, out, model="m")
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
    calls, answers = calls_and_answers(model.requests[-1].body)
    assert len(calls) == 6 and calls == answers and len(set(calls)) == 6
    questions = [m.text for m in result.conversation if isinstance(m, UserMessage)]
    assert questions == ["Weather?", "And again?", "Once more?"]


@pytest.mark.parametrize("api", ["responses", "messages"])
@pytest.mark.parametrize("view", ["messages", "conversation"])
def test_a_reasoning_model_continues_over_three_runs(api, view):
    """Each run's reasoning goes back within the run; earlier runs' turns come back without it, and are accepted."""
    from conductor.offline import LatencyModel, OfflineModel

    model = OfflineModel(latency=LatencyModel.instant(), reasoning=True, policies=[two_round_script()])
    llm = cd.connect("offline", api=api, offline_model=model)
    history = None
    for question in ("Weather?", "And again?", "Once more?"):
        result = llm.run(question, tools=[get_weather], max_rounds=2, history=history)
        assert result.answer == "北京 5°C, 上海 18°C."
        history = getattr(result, view)
    assert [r.status for r in model.requests] == [200] * 9
    calls, answers = calls_and_answers(model.requests[-1].body)
    assert len(calls) == 6 and calls == answers


@pytest.mark.parametrize("first, second", [(a, b) for a in APIS for b in APIS if a != b])
def test_history_from_the_other_api_is_converted(first, second):
    llm, _ = offline(first, two_round_script())
    earlier = llm.run("Weather?", tools=[get_weather], max_rounds=2, system="Be brief.")
    other, model = offline(second, scripted("Still 5°C."))
    result = other.run("Still?", tools=[get_weather], history=earlier.messages, system="Be brief.")
    assert result.answer == "Still 5°C." and model.requests[0].status == 200
    body = model.requests[0].body
    calls, answers = calls_and_answers(body)
    assert calls == answers == [c.id for c in earlier.tool_calls]
    assert system_texts(body) == ["Be brief."]
    # The same turns, whatever API carried them (metadata such as usage stays with the run that had it).
    assert rendered("chat", result.conversation[: len(earlier.conversation)]) == rendered("chat", earlier.conversation)


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

RESPONSES_HISTORY = [
    {"role": "developer", "content": "You are a weather assistant."},
    {"role": "user", "content": [{"type": "input_text", "text": "Weather in 北京?"}]},
    {"type": "function_call", "call_id": "call_r1", "name": "get_weather", "arguments": '{"city": "北京"}'},
    {"type": "function_call_output", "call_id": "call_r1", "output": '{"city": "北京", "temperature": 5}'},
    {"role": "assistant", "content": [{"type": "output_text", "text": "It is 5°C in 北京."}]},
]


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("history", [RESPONSES_HISTORY, OPENAI_HISTORY, ANTHROPIC_HISTORY],
                         ids=["responses-format", "chat-format", "messages-format"])
def test_hand_written_history_in_any_format_reaches_any_api(api, history):
    llm, model = offline(api, scripted("Warmer tomorrow."))
    result = llm.run("And tomorrow?", tools=[get_weather], history=history)
    assert result.answer == "Warmer tomorrow." and model.requests[0].status == 200
    neutral = result.conversation
    first_call = next(m for m in neutral if isinstance(m, Turn) and m.tool_calls).tool_calls[0]
    answer = next(m for m in neutral if isinstance(m, ToolResult))
    assert first_call.name == answer.name == "get_weather" and answer.call_id == first_call.id
    assert json.loads(first_call.arguments) == {"city": "北京"}
    assert isinstance(neutral[-2], UserMessage) and neutral[-2].text == "And tomorrow?"
    if history is not ANTHROPIC_HISTORY:
        assert neutral[0] == SystemMessage("You are a weather assistant.")
        assert system_texts(model.requests[0].body) == ["You are a weather assistant."]
    calls, answers = calls_and_answers(model.requests[0].body)
    assert calls == answers == [first_call.id]


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
        (
            [{"type": "function_call_output", "output": "5°C"}],
            r"history\[0\] is a function_call_output without 'call_id'",
        ),
        (
            [{"role": "user", "content": "q"}, {"type": "function_call", "call_id": "c9", "arguments": "{}"}],
            r"history\[1\] is a function_call without 'name' or 'call_id'",
        ),
        (
            [{"type": "function_call", "call_id": "c2", "name": "get_weather", "arguments": "{}"},
             {"role": "user", "content": "next"}],
            r"history\[0\] has tool call 'c2' \(get_weather\) with no result before history\[1\]",
        ),
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
    assert system_texts(model.requests[-1].body) == ["Be brief."]


@pytest.mark.parametrize("api", APIS)
def test_each_neutral_message_is_rendered_once(api, monkeypatch):
    llm, _ = offline(api, two_round_script())
    counts: list[int] = []
    render = llm.adapter.render
    monkeypatch.setattr(llm.adapter, "render", lambda messages, into, *, model: (
        counts.append(len(messages)), render(messages, into, model=model)))
    result = llm.run("Weather?", tools=[get_weather], max_rounds=2, history=OPENAI_HISTORY)
    assert sum(counts) == len(result.conversation)  # each once, the final answer for result.messages
    again: list[dict] = []
    api_for(api).render(result.conversation, again, model=llm.model)
    assert result.messages == again


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
    server = RawServer("messages", [first, second])
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


def test_responses_output_items_go_back_with_their_reasoning_to_the_same_model():
    """A reasoning model's items come back as received (ids kept), reasoning first, output-only fields left out."""
    first = raw_response("responses", "Checking.", [("call_1", "get_weather", {"city": "北京"})])
    reasoning = {"id": "rs_0123", "type": "reasoning", "summary": [{"type": "summary_text", "text": "Need the weather."}],
                 "encrypted_content": "gAAAAABencrypted", "status": "completed"}
    first["output"].insert(0, reasoning)
    server = RawServer("responses", [first, raw_response("responses", "5°C.")])
    llm = cd.connect(server.client(), model="gpt-5.4-mini", api="responses")
    result = llm.run("Weather in 北京?", tools=[get_weather])
    assert result.answer == "5°C."
    assert all(b["include"] == ["reasoning.encrypted_content"] and b["store"] is False for b in server.bodies)
    sent = server.bodies[1]["input"]
    assert sent[0] == {"role": "user", "content": "Weather in 北京?"}
    assert sent[1] == {k: v for k, v in reasoning.items() if k != "status"}
    assert [(i["type"], i["id"]) for i in sent[2:4]] == [(o["type"], o["id"]) for o in first["output"][1:]]
    assert sent[4]["type"] == "function_call_output" and sent[4]["call_id"] == "call_1"
    # The same history given to another model carries no reasoning: it was not that model's.
    other = RawServer("responses", [raw_response("responses", "Still 5°C.")])
    cd.connect(other.client(), model="gpt-5.4", api="responses").run("Still?", tools=[get_weather],
                                                                        history=result.messages)
    assert "reasoning" not in [i.get("type") for i in other.bodies[0]["input"]]
    assert [c[0] for c in tool_calls(other.bodies[0])] == list(results_by_id(other.bodies[0])) == ["call_1"]


def chat_completions_loop() -> tuple[list, list[str]]:
    """The classic Chat Completions loop, appending the SDK's message object as is: its messages and call ids."""
    llm, _ = offline("chat", scripted([("get_weather", {"city": "北京"})], "5°C."))
    messages: list = [{"role": "user", "content": "Weather in 北京?"}]
    reply = llm.client.chat.completions.create(model=llm.model, messages=messages, tools=[get_weather.openai_schema()])
    message = reply.choices[0].message
    messages.append(message)
    for call in message.tool_calls:
        output = get_weather.func(**json.loads(call.function.arguments))
        messages.append({"role": "tool", "tool_call_id": call.id, "content": json.dumps(output, ensure_ascii=False)})
    return messages, [c.id for c in message.tool_calls]


def responses_loop() -> tuple[list, list[str]]:
    """The Responses API loop from OpenAI's guide: ``input += response.output``, then a function_call_output each."""
    llm, _ = offline("responses", scripted([("get_weather", {"city": "北京"})], "5°C."))
    items: list = [{"role": "user", "content": "Weather in 北京?"}]
    response = llm.client.responses.create(model=llm.model, input=items, tools=[get_weather.responses_schema()])
    items += response.output  # the SDK's item objects, as the guide appends them
    calls = [item for item in response.output if item.type == "function_call"]
    for call in calls:
        output = get_weather.func(**json.loads(call.arguments))
        items.append({"type": "function_call_output", "call_id": call.call_id,
                      "output": json.dumps(output, ensure_ascii=False)})
    return items, [c.call_id for c in calls]


def messages_loop(*, as_dicts: bool = True) -> tuple[list, list[str]]:
    """The Anthropic tool loop: the response's content as the assistant turn, then tool_result blocks.

    ``as_dicts=False`` appends ``reply.content`` as is (the SDK's block objects), as Anthropic's guide does.
    """
    llm, _ = offline("messages", scripted([("get_weather", {"city": "北京"})], "5°C."))
    messages: list = [{"role": "user", "content": "Weather in 北京?"}]
    reply = llm.client.messages.create(model=llm.model, max_tokens=1024, messages=messages,
                                       tools=[get_weather.anthropic_schema()])
    content = [b.model_dump(mode="json", exclude_none=True) for b in reply.content] if as_dicts else reply.content
    messages.append({"role": "assistant", "content": content})
    uses = [b for b in reply.content if b.type == "tool_use"]
    messages.append({"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": b.id, "content": json.dumps(get_weather.func(**b.input), ensure_ascii=False)}
        for b in uses]})
    return messages, [b.id for b in uses]


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("loop", [chat_completions_loop, responses_loop, messages_loop])
def test_history_from_a_hand_written_sdk_loop_continues(api, loop):
    """The classic loop appends the SDK's objects as they come; run takes that history too, on any API."""
    history, call_ids = loop()
    assert len(call_ids) == 1
    other, other_model = offline(api, scripted("Still 5°C."))
    result = other.run("Still?", tools=[get_weather], history=history)
    assert result.answer == "Still 5°C." and other_model.requests[0].status == 200
    calls, answers = calls_and_answers(other_model.requests[0].body)
    assert calls == answers == call_ids


def test_history_from_anthropics_guide_loop_with_the_sdks_blocks_continues():
    history, call_ids = messages_loop(as_dicts=False)
    llm, model = offline("messages", scripted("Still 5°C."))
    result = llm.run("Still?", tools=[get_weather], history=history)
    assert result.answer == "Still 5°C." and calls_and_answers(model.requests[0].body)[1] == call_ids


@pytest.mark.parametrize("first, second", [(a, b) for a in APIS for b in APIS if a != b])
def test_a_run_can_move_to_another_api_between_requests(first, second):
    """The neutral conversation is rendered for whichever API serves the next request (model fallback)."""
    from conductor.apis import RequestSettings
    from conductor.execution import execute
    from conductor.rounds import Conversation
    from conductor.tools import ToolRegistry
    from conductor.types import CostSplit

    before, _ = offline(first, scripted([("get_weather", {"city": "北京"})]))
    after, model = offline(second, scripted("unused", [("get_weather", {"city": "上海"})], "北京 5°C, 上海 18°C."))
    conversation = Conversation(
        adapter=before.adapter,
        settings=RequestSettings(before.model, ToolRegistry([get_weather]), system="Be brief."),
        question="Weather?",
        history=None,
        max_rounds=2,
        price=lambda usage: CostSplit(),
    )
    client = before.client
    while (request := conversation.next_request()) is not None:
        calls = conversation.receive(conversation.adapter.create(client, request), 0.0, 0.0)
        if calls:
            conversation.add_results(execute(calls, conversation.tools, origin=conversation.origin))
        conversation.adapter, client = api_for(second), after.client  # every later request on the other API
    result = conversation.result(model_name="mixed", priced_as="", prices=(0.0, 0.0))
    assert result.answer == "北京 5°C, 上海 18°C." and all(r.status == 200 for r in model.requests)
    assert len(model.requests) == 2 and all(r.api == second for r in model.requests)
    body = model.requests[-1].body
    assert system_texts(body) == ["Be brief."]
    calls, answers = calls_and_answers(body)
    assert calls == answers == [c.id for c in result.tool_calls] and len(calls) == 2
