"""The offline model speaks both wire formats well enough for the SDKs' own models."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import anthropic
import httpx2
import openai
import pydantic
import pytest
from anthropic.types import Message, RawMessageStreamEvent
from openai.types.chat import ChatCompletion, ChatCompletionChunk

from conductor.offline import (
    CallTools,
    Conversation,
    LatencyModel,
    OfflineModel,
    PlannedCall,
    Reply,
    estimate_tokens,
)
from conductor.offline.language import find_places
from conductor.offline.preface import preface
from conductor.types import ToolResult
from scripted import ANTHROPIC_TOOLS, OPENAI_TOOLS

QUESTION = "Is it warmer in Beijing or Shanghai?"
EVENT_ADAPTER = pydantic.TypeAdapter(RawMessageStreamEvent)


class WeatherPolicy:
    """Calls get_weather for both cities, then answers from the results; remembers what it saw."""

    def __init__(self) -> None:
        self.seen: list[Conversation] = []

    def __call__(self, conversation: Conversation) -> CallTools | Reply:
        self.seen.append(conversation)
        exchanges = conversation.exchanges()
        if exchanges:
            return Reply("From the tools: " + "; ".join(result.content for _, result in exchanges))
        if conversation.tools_allowed:
            calls = tuple(PlannedCall("get_weather", {"city": city}) for city in ("Beijing", "Shanghai"))
            return CallTools(calls, "Let me check both cities.")
        return Reply("I answer without tools: both cities are mild today, and I did not look it up.")


@pytest.fixture
def policy() -> WeatherPolicy:
    return WeatherPolicy()


@pytest.fixture
def model(policy: WeatherPolicy) -> OfflineModel:
    return OfflineModel(seed=7, latency=LatencyModel.instant(), policies=[policy])


def raw_post(model: OfflineModel, path: str, body: dict, headers: dict | None = None) -> httpx2.Response:
    with httpx2.Client(transport=model.transport(), base_url="http://offline.invalid") as client:
        return client.post(path, json=body, headers=headers or {})


def sse_data(text: str) -> list[str]:
    return [line[len("data: ") :] for line in text.splitlines() if line.startswith("data: ")]


def sse_events(text: str) -> list[tuple[str, dict]]:
    events = []
    for block in text.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines())
        events.append((lines["event"], json.loads(lines["data"])))
    return events


# ----------------------------------------------------------------------------- OpenAI


def openai_body(**extra) -> dict:
    messages = [{"role": "user", "content": QUESTION}]
    return {"model": "gpt-4.1-mini", "messages": messages, "tools": OPENAI_TOOLS, **extra}


def test_openai_json_validates_and_carries_tool_calls(model: OfflineModel) -> None:
    response = raw_post(model, "/v1/chat/completions", openai_body())
    completion = ChatCompletion.model_validate(response.json())
    choice = completion.choices[0]
    assert choice.finish_reason == "tool_calls"
    assert [json.loads(c.function.arguments) for c in choice.message.tool_calls] == [
        {"city": "Beijing"},
        {"city": "Shanghai"},
    ]
    assert all(re.fullmatch(r"call_[0-9A-Za-z]{24}", c.id) for c in choice.message.tool_calls)
    assert re.fullmatch(r"chatcmpl-[0-9A-Za-z]{29}", completion.id) and completion.model == "gpt-4.1-mini"
    assert re.fullmatch(r"fp_[0-9a-f]{10}", completion.system_fingerprint)
    assert completion.usage.total_tokens == completion.usage.prompt_tokens + completion.usage.completion_tokens > 0
    assert re.fullmatch(r"req_[0-9a-f]{32}", response.headers["x-request-id"])


def test_openai_tool_roundtrip_feeds_results_to_the_policy(model: OfflineModel, policy: WeatherPolicy) -> None:
    client = model.openai_client()
    messages: list[dict] = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": QUESTION}]
    first = client.chat.completions.create(model="gpt-4.1-mini", messages=messages, tools=OPENAI_TOOLS)
    calls = first.choices[0].message.tool_calls
    messages.append({"role": "assistant", "content": None, "tool_calls": [c.model_dump() for c in calls]})
    for call, temp in zip(calls, ("31°C", "28°C")):
        messages.append({"role": "tool", "tool_call_id": call.id, "content": temp})
    second = client.chat.completions.create(model="gpt-4.1-mini", messages=messages, tools=OPENAI_TOOLS)

    assert second.choices[0].finish_reason == "stop"
    assert second.choices[0].message.content == "From the tools: 31°C; 28°C"
    seen = policy.seen[-1]
    assert seen.system == "Be brief."
    assert [(c.id, r) for c, r in seen.exchanges()] == [
        (calls[0].id, ToolResult(calls[0].id, "get_weather", "31°C")),
        (calls[1].id, ToolResult(calls[1].id, "get_weather", "28°C")),
    ]


def test_openai_stream_chunks_validate_and_add_up(model: OfflineModel) -> None:
    body = openai_body(stream=True, stream_options={"include_usage": True})
    response = raw_post(model, "/v1/chat/completions", body)
    assert response.headers["content-type"] == "text/event-stream"
    data = sse_data(response.text)
    assert data[-1] == "[DONE]"
    chunks = [ChatCompletionChunk.model_validate(json.loads(d)) for d in data[:-1]]

    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    arguments: dict[int, str] = {}
    heads = []
    for chunk in chunks:
        for delta in (chunk.choices[0].delta.tool_calls or []) if chunk.choices else []:
            if delta.id:
                heads.append((delta.index, delta.id, delta.function.name))
            arguments[delta.index] = arguments.get(delta.index, "") + (delta.function.arguments or "")
    final = ChatCompletion.model_validate(raw_post(model, "/v1/chat/completions", openai_body()).json())
    assert text == final.choices[0].message.content
    assert [json.loads(a) for a in arguments.values()] == [{"city": "Beijing"}, {"city": "Shanghai"}]
    assert [h[2] for h in heads] == ["get_weather", "get_weather"]
    assert sum(1 for c in chunks if c.choices and c.choices[0].delta.content) > 1  # really split
    assert [c.choices[0].finish_reason for c in chunks if c.choices][-1] == "tool_calls"
    usage_chunk = chunks[-1]
    assert usage_chunk.choices == [] and usage_chunk.usage.completion_tokens == final.usage.completion_tokens


def test_openai_sdk_stream_without_usage_has_no_usage_chunk(model: OfflineModel) -> None:
    stream = model.openai_client().chat.completions.create(
        model="gpt-4.1-mini", messages=[{"role": "user", "content": QUESTION}], stream=True
    )
    chunks = list(stream)
    assert all(c.choices for c in chunks)
    assert "".join(c.choices[0].delta.content or "" for c in chunks).startswith("I answer without tools")


def test_openai_content_parts_and_developer_messages_are_read(model: OfflineModel, policy: WeatherPolicy) -> None:
    model.openai_client().chat.completions.create(
        model="gpt-4.1-mini",
        messages=[
            {"role": "developer", "content": [{"type": "text", "text": "Answer in English."}]},
            {"role": "user", "content": [{"type": "text", "text": "Hello "}, {"type": "text", "text": "there"}]},
        ],
        seed=3,
        max_completion_tokens=100,
    )
    seen = policy.seen[-1]
    assert (seen.system, seen.question, seen.max_tokens) == ("Answer in English.", "Hello there", 100)
    assert seen.seed != model.seed  # the request's seed is mixed in


def test_openai_parallel_tool_calls_false_gives_one_call(model: OfflineModel) -> None:
    completion = model.openai_client().chat.completions.create(
        model="gpt-4.1-mini",
        messages=[{"role": "user", "content": QUESTION}],
        tools=OPENAI_TOOLS,
        parallel_tool_calls=False,
    )
    assert len(completion.choices[0].message.tool_calls) == 1


def test_openai_tool_choice_none_is_honoured(model: OfflineModel) -> None:
    completion = model.openai_client().chat.completions.create(
        model="gpt-4.1-mini", messages=[{"role": "user", "content": QUESTION}], tools=OPENAI_TOOLS, tool_choice="none"
    )
    assert completion.choices[0].message.tool_calls is None
    assert completion.choices[0].finish_reason == "stop"


def test_openai_max_tokens_cuts_the_answer(model: OfflineModel) -> None:
    completion = model.openai_client().chat.completions.create(
        model="gpt-4.1-mini", messages=[{"role": "user", "content": QUESTION}], max_tokens=5
    )
    assert completion.choices[0].finish_reason == "length"
    assert estimate_tokens(completion.choices[0].message.content) <= 5
    assert completion.usage.completion_tokens <= 5


# -------------------------------------------------------------------------- Anthropic


def anthropic_body(**extra) -> dict:
    return {
        "model": "claude-haiku-4-5",
        "max_tokens": 1024,
        "messages": [{"role": "user", "content": QUESTION}],
        "tools": ANTHROPIC_TOOLS,
        **extra,
    }


ANTHROPIC_HEADERS = {"anthropic-version": "2023-06-01"}


def test_anthropic_json_validates_and_carries_tool_use(model: OfflineModel) -> None:
    response = raw_post(model, "/v1/messages", anthropic_body(), ANTHROPIC_HEADERS)
    message = Message.model_validate(response.json())
    assert message.stop_reason == "tool_use" and message.stop_sequence is None
    assert message.content[0].type == "text"
    assert [(b.name, b.input) for b in message.content[1:]] == [
        ("get_weather", {"city": "Beijing"}),
        ("get_weather", {"city": "Shanghai"}),
    ]
    assert re.fullmatch(r"msg_01[0-9A-Za-z]{22}", message.id)
    assert all(re.fullmatch(r"toolu_01[0-9A-Za-z]{22}", b.id) for b in message.content[1:])
    assert message.usage.input_tokens > 0 and message.usage.output_tokens > 0
    assert re.fullmatch(r"req_011C[0-9A-Za-z]{20}", response.headers["request-id"])


def test_anthropic_tool_roundtrip_feeds_results_to_the_policy(model: OfflineModel, policy: WeatherPolicy) -> None:
    client = model.anthropic_client()
    messages: list[dict] = [{"role": "user", "content": QUESTION}]
    first = client.messages.create(
        model="claude-haiku-4-5", max_tokens=1024, messages=messages, tools=ANTHROPIC_TOOLS, system="Be brief."
    )
    uses = [b for b in first.content if b.type == "tool_use"]
    messages.append({"role": "assistant", "content": [b.model_dump(exclude_none=True) for b in first.content]})
    results = [
        {"type": "tool_result", "tool_use_id": uses[0].id, "content": "31°C"},
        {
            "type": "tool_result",
            "tool_use_id": uses[1].id,
            "content": [{"type": "text", "text": "28°C"}],
            "is_error": True,
        },
    ]
    messages.append({"role": "user", "content": results})
    second = client.messages.create(
        model="claude-haiku-4-5",
        max_tokens=1024,
        messages=messages,
        tools=ANTHROPIC_TOOLS,
        system=[{"type": "text", "text": "Be brief."}],
    )

    assert second.stop_reason == "end_turn"
    assert second.content[0].text == "From the tools: 31°C; 28°C"
    seen = policy.seen[-1]
    assert seen.system == "Be brief."
    assert [r for _, r in seen.exchanges()] == [
        ToolResult(uses[0].id, "get_weather", "31°C"),
        ToolResult(uses[1].id, "get_weather", "28°C", is_error=True),
    ]


def test_anthropic_stream_events_validate_and_add_up(model: OfflineModel) -> None:
    response = raw_post(model, "/v1/messages", anthropic_body(stream=True), ANTHROPIC_HEADERS)
    events = sse_events(response.text)
    names = [name for name, _ in events]
    assert names[0] == "message_start" and names[-2:] == ["message_delta", "message_stop"]
    parsed = [EVENT_ADAPTER.validate_python(data) for name, data in events if name != "ping"]
    assert all(name == data["type"] for name, data in events)

    text = "".join(e.delta.text for e in parsed if e.type == "content_block_delta" and e.delta.type == "text_delta")
    partial: dict[int, str] = {}
    for event in parsed:
        if event.type == "content_block_delta" and event.delta.type == "input_json_delta":
            partial[event.index] = partial.get(event.index, "") + event.delta.partial_json
    final = Message.model_validate(raw_post(model, "/v1/messages", anthropic_body(), ANTHROPIC_HEADERS).json())
    assert text == final.content[0].text
    assert [json.loads(p) for p in partial.values()] == [b.input for b in final.content[1:]]
    assert parsed[-2].delta.stop_reason == "tool_use"
    assert parsed[-2].usage.output_tokens == final.usage.output_tokens


def test_anthropic_messages_stream_helper(model: OfflineModel) -> None:
    client = model.anthropic_client()
    with client.messages.stream(
        model="claude-haiku-4-5", max_tokens=1024, messages=[{"role": "user", "content": "Hi"}]
    ) as stream:
        text = "".join(stream.text_stream)
        final = stream.get_final_message()
    assert text == final.content[0].text and text.startswith("I answer without tools")
    assert final.stop_reason == "end_turn"

    streamed = client.messages.create(
        model="claude-haiku-4-5", max_tokens=1024, messages=[{"role": "user", "content": QUESTION}],
        tools=ANTHROPIC_TOOLS, stream=True,
    )
    assert [e.type for e in streamed][-1] == "message_stop"


def test_anthropic_disable_parallel_tool_use_gives_one_call(model: OfflineModel) -> None:
    message = model.anthropic_client().messages.create(
        model="claude-haiku-4-5",
        max_tokens=1024,
        messages=[{"role": "user", "content": QUESTION}],
        tools=ANTHROPIC_TOOLS,
        tool_choice={"type": "auto", "disable_parallel_tool_use": True},
    )
    assert [b.type for b in message.content].count("tool_use") == 1


def test_anthropic_tool_choice_none_is_honoured(model: OfflineModel) -> None:
    message = model.anthropic_client().messages.create(
        model="claude-haiku-4-5",
        max_tokens=1024,
        messages=[{"role": "user", "content": QUESTION}],
        tools=ANTHROPIC_TOOLS,
        tool_choice={"type": "none"},
    )
    assert [b.type for b in message.content] == ["text"] and message.stop_reason == "end_turn"


def test_anthropic_max_tokens_cuts_the_answer(model: OfflineModel) -> None:
    message = model.anthropic_client().messages.create(
        model="claude-haiku-4-5", max_tokens=4, messages=[{"role": "user", "content": "Hi"}]
    )
    assert message.stop_reason == "max_tokens" and message.usage.output_tokens <= 4


# ----------------------------------------------------------------- text before tool calls


def call_every_place(conversation: Conversation) -> CallTools | Reply:
    """Calls get_weather for each place in the question, with no text of its own; then answers."""
    if conversation.exchanges() or not conversation.tools_allowed:
        return Reply("Done.")
    return CallTools(tuple(PlannedCall("get_weather", {"city": place}) for place in find_places(conversation.question)))


QUESTIONS = [
    f"Is it warmer in {a} or {b}?" for a in ("Beijing", "Paris", "Tokyo", "London") for b in ("Shanghai", "Seoul")
] + [f"What should I wear in {city} today?" for city in ("Berlin", "Sydney", "Chengdu", "Harbin", "Wuhan", "Xi'an")]


def ask_claude(model: OfflineModel, question: str, **extra) -> Message:
    body = anthropic_body(messages=[{"role": "user", "content": question}], **extra)
    return Message.model_validate(raw_post(model, "/v1/messages", body, ANTHROPIC_HEADERS).json())


@pytest.fixture
def plain_model() -> OfflineModel:
    return OfflineModel(seed=0, latency=LatencyModel.instant(), policies=[call_every_place])


def test_anthropic_tool_use_turns_usually_open_with_a_sentence_about_the_calls(plain_model: OfflineModel) -> None:
    messages = [ask_claude(plain_model, question) for question in QUESTIONS]
    prefaced = [m for m in messages if m.content[0].type == "text"]
    assert 0.6 <= len(prefaced) / len(messages) < 1  # usually, as 12 of 14 recorded Claude replies, not always
    for message in prefaced:
        sentence, *calls = message.content
        assert message.stop_reason == "tool_use" and [b.type for b in calls] == ["tool_use"] * len(calls)
        assert sentence.text.endswith(".") and all(c.input["city"] in sentence.text for c in calls)
    assert len({m.content[0].text.split()[0] for m in prefaced}) > 1  # worded in more than one way


def test_the_preface_follows_the_question_language_and_is_reproducible(plain_model: OfflineModel) -> None:
    def prefaces(model: OfflineModel) -> list[tuple[str, list[str]]]:
        pairs = (("北京", "上海"), ("广州", "深圳"), ("成都", "重庆"))
        replies = [ask_claude(model, f"{a}和{b}哪里更暖和?") for a, b in pairs]
        prefaced = [r for r in replies if r.content[0].type == "text"]
        return [(r.content[0].text, [b.input["city"] for b in r.content[1:]]) for r in prefaced]

    chinese = prefaces(plain_model)
    assert chinese and all(text.endswith("。") and all(c in text for c in cities) for text, cities in chinese)
    assert chinese == prefaces(OfflineModel(seed=0, latency=LatencyModel.instant(), policies=[call_every_place]))


def test_the_preface_is_built_from_the_calls_names_and_values() -> None:
    calls = [("calculate", {"expression": "2 + 3 * 4"}), ("search_course_content", {"query": "retries", "limit": 3})]
    many = [("get_weather", {"city": city}) for city in ("Paris", "London", "Tokyo", "Berlin", "Sydney")]
    for choice in range(0, 14 * 6, 7):  # every opener and style, and the replies without a preface
        sentence = preface(calls, "en", choice)
        assert sentence == "" or ("2 + 3 * 4" in sentence and "retries" in sentence and "calculate" in sentence)
        crowded = preface(many, "en", choice)
        assert crowded == "" or ("Paris, London, Tokyo and 2 more" in crowded and "Berlin" not in crowded)
    assert len({preface(calls, "en", choice) for choice in range(14 * 6)}) == 7  # six wordings and no preface


def test_a_forced_tool_use_has_no_preface(plain_model: OfflineModel) -> None:
    for question in QUESTIONS[:7]:
        message = ask_claude(plain_model, question, tool_choice={"type": "any"})
        assert [b.type for b in message.content] == ["tool_use"] * len(message.content)


def test_the_stream_carries_the_same_text_block_first(plain_model: OfflineModel) -> None:
    question = next(q for q in QUESTIONS if ask_claude(plain_model, q).content[0].type == "text")
    final = ask_claude(plain_model, question)
    with plain_model.anthropic_client().messages.stream(
        model="claude-haiku-4-5", max_tokens=1024, messages=[{"role": "user", "content": question}],
        tools=ANTHROPIC_TOOLS,
    ) as stream:
        events = [event for event in stream if event.type == "content_block_start"]
        streamed = Message.model_validate(stream.get_final_message().model_dump())
    assert events[0].content_block.type == "text" and events[1].content_block.type == "tool_use"
    assert streamed.content[0].text == final.content[0].text
    assert [(b.name, b.input) for b in streamed.content[1:]] == [(b.name, b.input) for b in final.content[1:]]
    raw = raw_post(plain_model, "/v1/messages", anthropic_body(
        messages=[{"role": "user", "content": question}], stream=True), ANTHROPIC_HEADERS)
    for name, data in sse_events(raw.text):
        if name != "ping":
            EVENT_ADAPTER.validate_python(data)


def test_openai_sends_content_null_beside_tool_calls(plain_model: OfflineModel) -> None:
    body = openai_body(messages=[{"role": "user", "content": QUESTIONS[0]}])
    completion = ChatCompletion.model_validate(raw_post(plain_model, "/v1/chat/completions", body).json())
    assert completion.choices[0].message.content is None and len(completion.choices[0].message.tool_calls) == 2
    streamed = raw_post(plain_model, "/v1/chat/completions", {**body, "stream": True})
    chunks = [ChatCompletionChunk.model_validate(json.loads(d)) for d in sse_data(streamed.text)[:-1]]
    assert all(c.choices[0].delta.content is None for c in chunks)
    assert sum(len(c.choices[0].delta.tool_calls or []) for c in chunks if c.choices[0].delta.tool_calls) > 2


def test_a_retry_gets_a_request_id_of_its_own(plain_model: OfflineModel) -> None:
    plain_model.inject("rate_limit", retry_after=0.001)
    ids: list[str] = []
    http = httpx2.Client(
        transport=plain_model.transport(),
        event_hooks={"response": [lambda response: ids.append(response.headers["x-request-id"])]},
    )
    client = openai.OpenAI(api_key="offline", base_url="http://offline.invalid/v1", max_retries=1, http_client=http)
    client.chat.completions.create(model="gpt-4.1-mini", messages=[{"role": "user", "content": "Hi"}])
    assert len(ids) == 2 and ids[0] != ids[1]


# ----------------------------------------------------------------------------- both


def test_one_call_per_turn_applies_to_both_apis(policy: WeatherPolicy) -> None:
    model = OfflineModel(latency=LatencyModel.instant(), policies=[policy], one_call_per_turn=True)
    openai_reply = model.openai_client().chat.completions.create(
        model="m", messages=[{"role": "user", "content": QUESTION}], tools=OPENAI_TOOLS
    )
    anthropic_reply = model.anthropic_client().messages.create(
        model="m", max_tokens=100, messages=[{"role": "user", "content": QUESTION}], tools=ANTHROPIC_TOOLS
    )
    assert len(openai_reply.choices[0].message.tool_calls) == 1
    assert [b.type for b in anthropic_reply.content].count("tool_use") == 1


@pytest.mark.parametrize(
    ("path", "body", "headers"),
    [
        ("/v1/chat/completions", openai_body(), {}),
        ("/v1/chat/completions", openai_body(stream=True), {}),
        ("/v1/messages", anthropic_body(), ANTHROPIC_HEADERS),
        ("/v1/messages", anthropic_body(stream=True), ANTHROPIC_HEADERS),
    ],
)
def test_same_request_and_seed_give_identical_bytes(
    policy: WeatherPolicy, path: str, body: dict, headers: dict
) -> None:
    first = raw_post(OfflineModel(seed=1, latency=LatencyModel.instant(), policies=[policy]), path, body, headers)
    again = raw_post(OfflineModel(seed=1, latency=LatencyModel.instant(), policies=[policy]), path, body, headers)
    other = raw_post(OfflineModel(seed=2, latency=LatencyModel.instant(), policies=[policy]), path, body, headers)
    assert first.content == again.content
    assert first.content != other.content  # ids follow the seed


def test_requests_are_recorded_in_order_with_status(model: OfflineModel) -> None:
    client = model.openai_client(max_retries=0)
    client.chat.completions.create(model="m", messages=[{"role": "user", "content": "Hi"}])
    with pytest.raises(openai.BadRequestError):
        client.chat.completions.create(model="m", messages=[])
    raw_post(model, "/v1/nowhere", {})
    assert [(r.api, r.path, r.status) for r in model.requests] == [
        ("chat", "/v1/chat/completions", 200),
        ("chat", "/v1/chat/completions", 400),
        ("chat", "/v1/nowhere", 404),
    ]
    assert model.requests[0].body["messages"] == [{"role": "user", "content": "Hi"}]


def test_async_clients_use_the_async_transport(model: OfflineModel) -> None:
    async def both() -> tuple[str, str, str]:
        openai_client = model.openai_client(async_=True)
        anthropic_client = model.anthropic_client(async_=True)
        completion = await openai_client.chat.completions.create(
            model="m", messages=[{"role": "user", "content": QUESTION}], tools=OPENAI_TOOLS
        )
        stream = await openai_client.chat.completions.create(
            model="m", messages=[{"role": "user", "content": "Hi"}], stream=True
        )
        streamed = "".join([c.choices[0].delta.content or "" async for c in stream])
        async with anthropic_client.messages.stream(
            model="m", max_tokens=100, messages=[{"role": "user", "content": "Hi"}]
        ) as astream:
            message = await astream.get_final_message()
        return completion.choices[0].finish_reason, streamed, message.content[0].text

    finish, streamed, text = asyncio.run(both())
    assert finish == "tool_calls"
    assert streamed == text and text.startswith("I answer without tools")


def test_latency_really_elapses(policy: WeatherPolicy) -> None:
    model = OfflineModel(latency=LatencyModel(ttft=0.05, per_token=0.0, jitter=0.0), policies=[policy])
    start = time.perf_counter()
    model.openai_client().chat.completions.create(model="m", messages=[{"role": "user", "content": "Hi"}])
    assert time.perf_counter() - start >= 0.05  # a lower bound only: sleeping never takes less


def test_latency_model_is_seeded_and_scalable() -> None:
    latency = LatencyModel(ttft=0.3, per_token=0.01, jitter=0.2)
    assert latency.timing(42) == latency.timing(42) != latency.timing(43)
    timing = latency.timing(42)
    assert 0.24 <= timing.first_token <= 0.36 and timing.total(100) > timing.first_token
    half = LatencyModel(ttft=0.3, per_token=0.01, jitter=0.2, scale=0.5).timing(42)
    assert half.first_token == pytest.approx(timing.first_token / 2)
    assert LatencyModel.instant().timing(42).total(1000) == 0
    with pytest.raises(ValueError, match="jitter"):
        LatencyModel(jitter=1.5)


def test_estimate_tokens_rule() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("abcd" * 10) == 10  # 4 ASCII characters per token
    assert estimate_tokens("北京上海") == 4  # one per CJK character
    assert estimate_tokens("café") == 2  # 3 x 0.25 + 0.5, rounded up


def test_importing_the_package_does_not_import_the_sdks() -> None:
    code = "import sys, conductor, conductor.offline; print('openai' in sys.modules or 'anthropic' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


def test_clients_point_at_the_offline_host(model: OfflineModel) -> None:
    assert str(model.openai_client().base_url) == "http://offline.invalid/v1/"
    assert str(model.anthropic_client().base_url).startswith("http://offline.invalid")
    assert isinstance(model.anthropic_client(async_=True), anthropic.AsyncAnthropic)


def test_a_crashing_policy_is_reported_as_a_500_not_retried() -> None:
    def broken(conversation: Conversation) -> Reply:
        raise KeyError("city")

    model = OfflineModel(latency=LatencyModel.instant(), policies=[broken])
    with pytest.raises(openai.InternalServerError, match="KeyError: 'city'"):
        model.openai_client(max_retries=2).chat.completions.create(
            model="m", messages=[{"role": "user", "content": "Hi"}]
        )
    assert [r.status for r in model.requests] == [500]


def test_concurrent_requests_are_all_answered_and_recorded(model: OfflineModel) -> None:
    client = model.openai_client()

    def ask(index: int) -> str:
        reply = client.chat.completions.create(model="m", messages=[{"role": "user", "content": f"Hi {index}"}])
        return reply.choices[0].message.content

    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(ask, range(32)))
    assert len(answers) == 32 and all(a.startswith("I answer without tools") for a in answers)
    assert sorted(r.body["messages"][0]["content"] for r in model.requests) == sorted(f"Hi {i}" for i in range(32))
