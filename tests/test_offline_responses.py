"""The offline model on OpenAI's Responses API, and as a reasoning model on all three APIs.

Everything goes through the official SDK clients the offline model hands out, as
a learner's code would; every response is checked against the SDK's own types.
"""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import anthropic
import httpx2
import openai
import pytest
from openai.types.responses import Response

from conductor.offline import LatencyModel, OfflineModel
from conductor.offline.state import ResponseStore

MODEL = "gpt-5.4-mini"
QUESTION = "Is it warmer in Beijing or Shanghai today?"
TEMPERATURES = {"Beijing": 31, "Shanghai": 27}
WEATHER_TOOL = {
    "type": "function",
    "name": "get_weather",
    "description": "Get today's weather for a city.",
    "parameters": {
        "type": "object",
        "properties": {"city": {"type": "string"}},
        "required": ["city"],
        "additionalProperties": False,
    },
    "strict": True,
}
TOOLS = [WEATHER_TOOL]
ENCRYPTED = ["reasoning.encrypted_content"]


def offline(**options: Any) -> OfflineModel:
    return OfflineModel(seed=3, latency=LatencyModel.instant(), **options)


@pytest.fixture
def model() -> OfflineModel:
    return offline()


@pytest.fixture
def thinker() -> OfflineModel:
    return offline(reasoning=True)


def valid(response: Any) -> Response:
    """The response, checked against the SDK's type (the SDK itself does not validate)."""
    return Response.model_validate(response.to_dict())


def weather_outputs(response: Response) -> list[dict[str, Any]]:
    """What a learner's loop sends back: one function_call_output per call, from the (made-up) weather service."""
    outputs = []
    for item in response.output:
        if item.type == "function_call":
            city = json.loads(item.arguments)["city"]
            result = {"city": city, "temperature_c": TEMPERATURES[city]}
            outputs.append({"type": "function_call_output", "call_id": item.call_id, "output": json.dumps(result)})
    return outputs


def replayed(response: Response) -> list[dict[str, Any]]:
    """The response's output items as input items, kept as received."""
    return [item.model_dump(exclude_none=True) for item in response.output]


def first_round(client: Any, **options: Any) -> tuple[list[dict[str, Any]], Response]:
    question = [{"role": "user", "content": QUESTION}]
    return question, valid(client.responses.create(model=MODEL, input=question, tools=TOOLS, **options))


def reject(client: Any, error: type[openai.APIStatusError] = openai.BadRequestError, **request: Any) -> dict:
    request.setdefault("model", MODEL)
    with pytest.raises(error) as caught:
        client.responses.create(**request)
    assert caught.value.body["type"] == "invalid_request_error"
    return caught.value.body


def raw_post(model: OfflineModel, body: dict[str, Any]) -> httpx2.Response:
    with httpx2.Client(transport=model.transport(), base_url="http://offline.invalid") as client:
        return client.post("/v1/responses", json=body)


def sse_events(text: str) -> list[tuple[str, dict]]:
    events = []
    for block in text.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines())
        events.append((lines["event"], json.loads(lines["data"])))
    return events


def without_parsed(value: Any) -> Any:
    """What the stream helper's ParsedResponse adds (``parsed``, ``parsed_arguments``); the wire never sends it."""
    if isinstance(value, dict):
        return {k: without_parsed(v) for k, v in value.items() if k not in ("parsed", "parsed_arguments")}
    if isinstance(value, list):
        return [without_parsed(v) for v in value]
    return value


# ----------------------------------------------------------------------------- a tool conversation by hand


def test_a_two_round_tool_conversation_written_by_hand(model: OfflineModel) -> None:
    client = model.openai_client()
    question, asked = first_round(client)
    calls = [item for item in asked.output if item.type == "function_call"]
    assert asked.status == "completed" and asked.id.startswith("resp_") and len(asked.id) == 55
    assert sorted(json.loads(call.arguments)["city"] for call in calls) == ["Beijing", "Shanghai"]
    assert all(call.id.startswith("fc_") and call.call_id.startswith("call_") for call in calls)
    assert asked.tools[0].name == "get_weather" and asked.store is True
    usage = asked.usage
    assert usage.total_tokens == usage.input_tokens + usage.output_tokens
    assert usage.output_tokens_details.reasoning_tokens == 0

    answered = valid(
        client.responses.create(model=MODEL, input=[*question, *replayed(asked), *weather_outputs(asked)], tools=TOOLS)
    )
    assert [item.type for item in answered.output] == ["message"]
    assert answered.output[0].id.startswith("msg_") and answered.output[0].role == "assistant"
    assert "31" in answered.output_text and "27" in answered.output_text  # built from the tool results
    assert answered.usage.input_tokens > asked.usage.input_tokens
    assert [(r.api, r.path, r.status) for r in model.requests] == [("responses", "/v1/responses", 200)] * 2


def test_an_error_output_is_read_as_a_failed_call(model: OfflineModel) -> None:
    client = model.openai_client()
    question, asked = first_round(client)
    failed = [{**output, "output": "Error: the weather service is down"} for output in weather_outputs(asked)]
    answered = valid(client.responses.create(model=MODEL, input=[*question, *replayed(asked), *failed], tools=TOOLS))
    assert "31" not in answered.output_text and "down" in answered.output_text


def test_the_async_client_gets_the_same_answers() -> None:
    async def conversation() -> tuple[Response, Response, list[Any]]:
        client = offline().openai_client(async_=True)
        question = [{"role": "user", "content": QUESTION}]
        asked = await client.responses.create(model=MODEL, input=question, tools=TOOLS)
        follow_up = [*question, *replayed(asked), *weather_outputs(asked)]
        async with client.responses.stream(model=MODEL, input=follow_up, tools=TOOLS) as stream:
            answered = await stream.get_final_response()
        events = [event async for event in await client.responses.create(model=MODEL, input=question, stream=True)]
        return valid(asked), answered, events

    asked, answered, events = asyncio.run(conversation())
    _, sync_asked = first_round(offline().openai_client())
    assert asked == sync_asked
    assert "31" in answered.output_text
    assert events[0].type == "response.created" and events[-1].type == "response.completed"


# ----------------------------------------------------------------------------- streaming


@pytest.mark.parametrize("reasoning", [False, True])
def test_the_stream_helper_assembles_exactly_the_json_response(reasoning: bool) -> None:
    client = offline(reasoning=reasoning).openai_client()
    request = {"model": MODEL, "input": QUESTION, "tools": TOOLS, "include": ENCRYPTED if reasoning else []}
    with client.responses.stream(**request) as stream:
        types = [event.type for event in stream]
        streamed = stream.get_final_response()
    plain = valid(client.responses.create(**request))
    assert without_parsed(streamed.to_dict()) == plain.to_dict()
    assert types[:2] == ["response.created", "response.in_progress"] and types[-1] == "response.completed"
    assert types.count("response.output_item.added") == types.count("response.output_item.done") == len(plain.output)


def test_stream_events_come_in_the_real_order_with_sequence_numbers(model: OfflineModel) -> None:
    body = {"model": MODEL, "input": QUESTION, "tools": TOOLS, "stream": True}
    events = sse_events(raw_post(model, body).text)
    assert [data["sequence_number"] for _, data in events] == list(range(len(events)))
    assert all(name == data["type"] for name, data in events)
    first_call = [name for name, data in events if data.get("output_index") == 0]
    assert first_call[0] == "response.output_item.added" and first_call[-1] == "response.output_item.done"
    assert set(first_call[1:-2]) == {"response.function_call_arguments.delta"}
    assert first_call[-2] == "response.function_call_arguments.done"
    # The last event holds the response exactly as the same request unstreamed returns it.
    plain = raw_post(model, {**body, "stream": False}).json()
    completed = {"type": "response.completed", "response": plain, "sequence_number": len(events) - 1}
    assert events[-1] == ("response.completed", completed)


def test_a_text_answer_streams_as_content_part_and_text_deltas() -> None:
    client = offline().openai_client()
    stream = client.responses.create(model=MODEL, input="What can you do?", stream=True)
    events = list(stream)
    types = [event.type for event in events]
    assert types[2:5] == ["response.output_item.added", "response.content_part.added", "response.output_text.delta"]
    assert types[-4:] == [
        "response.output_text.done",
        "response.content_part.done",
        "response.output_item.done",
        "response.completed",
    ]
    assert set(types[4:-4]) == {"response.output_text.delta"}
    text = "".join(event.delta for event in events if event.type == "response.output_text.delta")
    assert text == events[-1].response.output_text


# ----------------------------------------------------------------------------- the real 400s


def test_an_output_for_a_call_that_was_never_made(model: OfflineModel) -> None:
    orphan = {"type": "function_call_output", "call_id": "call_nowhere", "output": "sunny"}
    question = {"role": "user", "content": QUESTION}
    body = reject(model.openai_client(max_retries=0), input=[question, orphan], tools=TOOLS)
    assert body["message"] == "No tool call found for function call output with call_id call_nowhere."
    assert body["param"] == "input"


def test_a_call_left_without_its_output(model: OfflineModel) -> None:
    client = model.openai_client(max_retries=0)
    question, asked = first_round(client)
    first, second = weather_outputs(asked)
    interrupted = {"role": "user", "content": "And tomorrow?"}
    # The second call is never answered; then the outputs come only after the next user message.
    for tail in ([first], [first, interrupted], [interrupted, first, second]):
        body = reject(client, input=[*question, *replayed(asked), *tail], tools=TOOLS)
        unanswered = second if tail[0] is first else first
        assert body["message"] == f"No tool output found for function call {unanswered['call_id']}."


@pytest.mark.parametrize(
    ("request_options", "message", "param", "code"),
    [
        (
            {"previous_response_id": "resp_x", "conversation": "conv_x"},
            "Mutually exclusive parameters: Ensure you are only providing one of: "
            "'previous_response_id' or 'conversation'.",
            None,
            None,
        ),
        (
            {"previous_response_id": "resp_never_made"},
            "Previous response with id 'resp_never_made' not found.",
            "previous_response_id",
            "previous_response_not_found",
        ),
        (
            {"tools": [{"type": "function", "function": WEATHER_TOOL}]},  # Chat Completions' shape
            "Missing required parameter: 'tools[0].name'.",
            "tools[0].name",
            "missing_required_parameter",
        ),
        (
            {"max_output_tokens": 10},
            "Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got 10 instead.",
            "max_output_tokens",
            "integer_below_min_value",
        ),
        (
            {"include": ENCRYPTED},  # asked of a model that does not reason
            "Encrypted content is not supported with this model.",
            "include",
            None,
        ),
        (
            {"tools": [{**WEATHER_TOOL, "parameters": {**WEATHER_TOOL["parameters"], "required": []}}]},
            "Invalid schema for function 'get_weather': In context=(), 'required' is required to be supplied and to "
            "be an array including every key in properties. Missing 'city'.",
            "tools[0].parameters",
            "invalid_function_parameters",
        ),
        ({"model": openai.omit}, "Missing required parameter: 'model'.", "model", "missing_required_parameter"),
        ({"input": openai.omit}, "Missing required parameter: 'input'.", "input", "missing_required_parameter"),
    ],
)
def test_what_the_real_api_rejects(
    model: OfflineModel, request_options: dict, message: str, param: str | None, code: str | None
) -> None:
    body = reject(model.openai_client(max_retries=0), **{"input": QUESTION, **request_options})
    assert (body["message"], body["param"], body["code"]) == (message, param, code)
    assert model.requests[-1].status == 400


def test_a_tool_without_strict_is_echoed_as_strict_and_strict_false_stays_false(model: OfflineModel) -> None:
    client = model.openai_client()
    loose = {key: value for key, value in WEATHER_TOOL.items() if key != "strict"}
    tools = [loose, {**loose, "name": "b", "strict": False}]
    echoed = valid(client.responses.create(model=MODEL, input="Hi", tools=tools))
    assert [tool.strict for tool in echoed.tools] == [True, False]


# ----------------------------------------------------------------------------- faults


@pytest.mark.parametrize(
    ("kind", "error"),
    [
        ("rate_limit", openai.RateLimitError),
        ("quota", openai.RateLimitError),
        ("server_error", openai.InternalServerError),
        ("unavailable", openai.InternalServerError),
        ("overloaded", openai.InternalServerError),
        ("timeout", openai.APITimeoutError),
        ("connection", openai.APIConnectionError),
    ],
)
def test_transport_faults_reach_the_sdk_as_on_chat_completions(model: OfflineModel, kind: str, error: type) -> None:
    model.inject(kind, retry_after=0.001)
    with pytest.raises(error):
        model.openai_client(max_retries=0).responses.create(model=MODEL, input=QUESTION)


def test_a_rate_limit_carries_openais_headers_and_is_retried(model: OfflineModel) -> None:
    model.inject("rate_limit", retry_after=0.001)
    raw = model.openai_client(max_retries=0).responses.with_raw_response
    with pytest.raises(openai.RateLimitError) as caught:
        raw.create(model=MODEL, input=QUESTION)
    headers = caught.value.response.headers
    assert headers["x-ratelimit-remaining-requests"] == "0" and headers["retry-after"] == "1"
    assert caught.value.code == "rate_limit_exceeded" and "Rate limit reached for gpt-5.4-mini" in caught.value.message
    model.inject("rate_limit", retry_after=0.001)
    assert valid(model.openai_client(max_retries=1).responses.create(model=MODEL, input=QUESTION)).status == "completed"


def test_content_faults_change_the_answer(model: OfflineModel) -> None:
    client = model.openai_client()

    def ask(kind: str, **options: Any) -> Response:
        model.inject(kind)
        return valid(client.responses.create(model=MODEL, input=QUESTION, tools=TOOLS, **options))

    truncated = ask("truncated", tool_choice="none")
    assert (truncated.status, truncated.incomplete_details.reason) == ("incomplete", "max_output_tokens")
    assert truncated.output[0].status == "incomplete"
    refused = ask("refusal")
    assert refused.output[0].content[0].type == "refusal" and refused.output_text == ""
    assert ask("empty").output == []
    assert [item.type for item in ask("ignore_tool_choice", tool_choice="none").output] == ["function_call"] * 2
    assert ask("unknown_tool").output[0].name == "get_weather_v2"
    with pytest.raises(json.JSONDecodeError):
        json.loads(ask("malformed_arguments").output[0].arguments)  # sent as text, so broken as text


def test_max_output_tokens_cuts_the_answer(model: OfflineModel) -> None:
    cut = valid(model.openai_client().responses.create(model=MODEL, input="What can you do?", max_output_tokens=16))
    assert cut.status == "incomplete" and cut.usage.output_tokens <= 16 and cut.output_text


def test_an_error_mid_stream_ends_with_error_and_response_failed(model: OfflineModel) -> None:
    model.inject("stream_error")
    client = model.openai_client()
    events = list(client.responses.create(model=MODEL, input=QUESTION, tools=TOOLS, stream=True))
    assert [event.type for event in events[-2:]] == ["error", "response.failed"]
    assert events[-2].code == "server_error" and events[-1].response.status == "failed"
    assert [event.sequence_number for event in events] == list(range(len(events)))
    model.inject("stream_error")
    with client.responses.stream(model=MODEL, input=QUESTION, tools=TOOLS) as stream:
        with pytest.raises(RuntimeError, match="response.completed"):
            stream.get_final_response()
    # A failed response is not stored: nothing can continue it.
    body = reject(client, input="Go on", previous_response_id=events[-1].response.id)
    assert body["code"] == "previous_response_not_found"


# ----------------------------------------------------------------------------- server state


def test_previous_response_id_continues_a_stored_response(model: OfflineModel) -> None:
    client = model.openai_client()
    question, asked = first_round(client)  # store is on by default, as on the real API
    chained = valid(
        client.responses.create(model=MODEL, previous_response_id=asked.id, input=weather_outputs(asked), tools=TOOLS)
    )
    assert chained.previous_response_id == asked.id and "31" in chained.output_text
    # Billed over the whole context, as if it had all been sent again.
    full = valid(
        client.responses.create(
            model=MODEL, input=[*question, *replayed(asked), *weather_outputs(asked)], tools=TOOLS, store=False
        )
    )
    assert chained.usage.input_tokens == full.usage.input_tokens
    assert chained.output_text == full.output_text
    # The continued calls still need their outputs.
    body = reject(client, previous_response_id=asked.id, input="And in Guangzhou?", tools=TOOLS)
    assert body["message"].startswith("No tool output found for function call call_")


def test_a_response_with_store_false_cannot_be_continued(model: OfflineModel) -> None:
    client = model.openai_client(max_retries=0)
    _, asked = first_round(client, store=False)
    assert asked.store is False
    body = reject(client, previous_response_id=asked.id, input=weather_outputs(asked), tools=TOOLS)
    assert body["message"] == f"Previous response with id '{asked.id}' not found."


def test_stored_responses_are_shared_between_threads_and_bounded(model: OfflineModel) -> None:
    client = model.openai_client()
    with ThreadPoolExecutor(max_workers=4) as pool:
        ids = list(pool.map(lambda n: client.responses.create(model=MODEL, input=f"Hi {n}").id, range(12)))
    for response_id in ids:
        assert valid(client.responses.create(model=MODEL, previous_response_id=response_id, input="Again")).status
    store = ResponseStore(capacity=2)
    for name in ("a", "b", "c"):
        store.keep(name, [], [{"id": f"rs_{name}", "type": "reasoning"}])
    assert store.context("a") is None and not store.holds_item("rs_a") and store.holds_item("rs_c")


# ----------------------------------------------------------------------------- reasoning on Responses


def test_a_reasoning_model_reasons_before_its_calls(thinker: OfflineModel) -> None:
    client = thinker.openai_client()
    _, asked = first_round(client)
    reasoning = asked.output[0]
    assert [item.type for item in asked.output] == ["reasoning", "function_call", "function_call"]
    assert reasoning.id.startswith("rs_") and reasoning.summary == [] and reasoning.encrypted_content is None
    details = asked.usage.output_tokens_details
    assert 0 < details.reasoning_tokens < asked.usage.output_tokens
    _, sealed = first_round(client, include=ENCRYPTED)
    assert sealed.output[0].encrypted_content.startswith("gAAAAA")


def test_the_reasoning_summary_says_what_the_model_is_about_to_do(thinker: OfflineModel) -> None:
    client = thinker.openai_client()
    english = valid(client.responses.create(model=MODEL, input=QUESTION, tools=TOOLS, reasoning={"summary": "auto"}))
    text = english.output[0].summary[0].text
    assert "Beijing" in text and "Shanghai" in text and "weather" in text
    chinese = valid(
        client.responses.create(model=MODEL, input="北京今天天气怎么样?", tools=TOOLS, reasoning={"summary": "auto"})
    )
    assert "北京" in chinese.output[0].summary[0].text and "get_weather" in chinese.output[0].summary[0].text
    with client.responses.stream(model=MODEL, input=QUESTION, tools=TOOLS, reasoning={"summary": "auto"}) as stream:
        deltas = "".join(event.delta for event in stream if event.type == "response.reasoning_summary_text.delta")
    assert deltas == text


def test_reasoning_effort_none_turns_the_reasoning_off(thinker: OfflineModel) -> None:
    _, asked = first_round(thinker.openai_client(), reasoning={"effort": "none"})
    assert asked.output[0].type == "function_call" and asked.usage.output_tokens_details.reasoning_tokens == 0


def test_replaying_the_reasoning_item_with_its_encrypted_content_passes_without_storage(thinker: OfflineModel) -> None:
    client = thinker.openai_client(max_retries=0)
    question, asked = first_round(client, store=False, include=ENCRYPTED)
    answered = valid(
        client.responses.create(
            model=MODEL, input=[*question, *replayed(asked), *weather_outputs(asked)], tools=TOOLS, store=False
        )
    )
    assert answered.output[0].type == "reasoning" and "31" in answered.output_text


def test_a_call_replayed_without_its_reasoning_item(thinker: OfflineModel) -> None:
    client = thinker.openai_client(max_retries=0)
    question, asked = first_round(client, store=False, include=ENCRYPTED)
    reasoning, first_call = asked.output[0], asked.output[1]
    items = [item for item in replayed(asked) if item["type"] != "reasoning"]
    body = reject(client, input=[*question, *items, *weather_outputs(asked)], tools=TOOLS, store=False)
    assert body["message"] == (
        f"Item '{first_call.id}' of type 'function_call' was provided without its required "
        f"'reasoning' item: '{reasoning.id}'."
    )
    assert body["param"] == "input"
    # Without the calls' item ids the API cannot pair them with their reasoning: accepted.
    anonymous = [{k: v for k, v in item.items() if k != "id"} for item in items]
    valid(client.responses.create(model=MODEL, input=[*question, *anonymous, *weather_outputs(asked)], tools=TOOLS))


def test_a_reasoning_item_that_cannot_be_found_or_verified(thinker: OfflineModel) -> None:
    client = thinker.openai_client(max_retries=0)
    question, asked = first_round(client, store=False, include=ENCRYPTED)
    items, outputs = replayed(asked), weather_outputs(asked)
    unsealed = [{k: v for k, v in item.items() if k != "encrypted_content"} for item in items]
    body = reject(client, openai.NotFoundError, input=[*question, *unsealed, *outputs], tools=TOOLS, store=False)
    assert body["message"] == (
        f"Item with id '{asked.output[0].id}' not found. Items are not persisted when `store` is set to false. "
        "Try again with `store` set to true, or remove this item from your input."
    )
    token = items[0]["encrypted_content"]
    tampered = [{**items[0], "encrypted_content": token[:40] + ("A" if token[40] != "A" else "B") + token[41:]}]
    body = reject(client, input=[*question, *tampered, *items[1:], *outputs], tools=TOOLS, store=False)
    assert body["code"] == "invalid_encrypted_content"
    assert body["message"] == (
        f"The encrypted content {token[:4]}...{token[-4:]} could not be verified. "
        "Reason: Encrypted content could not be decrypted or parsed."
    )
    # Stored (the default), the reasoning item can be named by its id alone.
    question, stored = first_round(client)
    by_id = [{k: v for k, v in item.items() if k != "encrypted_content"} for item in replayed(stored)]
    valid(client.responses.create(model=MODEL, input=[*question, *by_id, *weather_outputs(stored)], tools=TOOLS))


# ----------------------------------------------------------------------------- reasoning on Chat Completions

CHAT_TOOLS = [{"type": "function", "function": {k: v for k, v in WEATHER_TOOL.items() if k != "type"}}]


def test_chat_completions_refuses_function_tools_to_a_reasoning_model(thinker: OfflineModel) -> None:
    client = thinker.openai_client(max_retries=0)
    messages = [{"role": "user", "content": QUESTION}]
    with pytest.raises(openai.BadRequestError) as caught:
        client.chat.completions.create(model="gpt-5.4", messages=messages, tools=CHAT_TOOLS)
    assert caught.value.body["message"] == (
        "Function tools with reasoning_effort are not supported for gpt-5.4 in /v1/chat/completions. "
        "To use function tools, use /v1/responses or set reasoning_effort to 'none'."
    )
    assert caught.value.param == "reasoning_effort"
    off = client.chat.completions.create(model="gpt-5.4", messages=messages, tools=CHAT_TOOLS, reasoning_effort="none")
    assert off.choices[0].finish_reason == "tool_calls" and off.usage.completion_tokens_details.reasoning_tokens == 0
    chat = client.chat.completions.create(model="gpt-5.4", messages=messages)
    assert chat.usage.completion_tokens_details.reasoning_tokens > 0


# ----------------------------------------------------------------------------- reasoning on Messages

CLAUDE_TOOLS = [
    {
        "name": WEATHER_TOOL["name"],
        "description": WEATHER_TOOL["description"],
        "input_schema": WEATHER_TOOL["parameters"],
    }
]


def claude_first_round(client: Any, question: str = QUESTION) -> tuple[list[dict], anthropic.types.Message]:
    messages = [{"role": "user", "content": question}]
    return messages, client.messages.create(model="claude-x", max_tokens=2048, messages=messages, tools=CLAUDE_TOOLS)


def claude_second_round(messages: list[dict], content: list[dict], reply: anthropic.types.Message) -> list[dict]:
    results = [
        {"type": "tool_result", "tool_use_id": block.id, "content": str(TEMPERATURES[block.input["city"]])}
        for block in reply.content
        if block.type == "tool_use"
    ]
    return [*messages, {"role": "assistant", "content": content}, {"role": "user", "content": results}]


def test_claude_thinks_in_a_signed_block_before_its_tool_use(thinker: OfflineModel) -> None:
    client = thinker.anthropic_client(max_retries=0)
    messages, reply = claude_first_round(client)
    assert reply.content[0].type == "thinking" and reply.content[-1].type == "tool_use"
    assert "Beijing" in reply.content[0].thinking and reply.content[0].signature
    content = [block.model_dump(exclude_none=True) for block in reply.content]
    answer = client.messages.create(
        model="claude-x", max_tokens=2048, messages=claude_second_round(messages, content, reply), tools=CLAUDE_TOOLS
    )
    assert answer.content[0].type == "thinking" and "31" in answer.content[-1].text
    _, chinese = claude_first_round(client, "北京和上海今天哪个更暖和?")
    assert "北京" in chinese.content[0].thinking


def test_claude_streams_thinking_then_its_signature(thinker: OfflineModel) -> None:
    client = thinker.anthropic_client()
    messages, reply = claude_first_round(client)
    with client.messages.stream(model="claude-x", max_tokens=2048, messages=messages, tools=CLAUDE_TOOLS) as stream:
        deltas = [event.delta.type for event in stream if event.type == "content_block_delta"]
        streamed = stream.get_final_message()
    assert deltas[0] == "thinking_delta" and "signature_delta" in deltas
    assert deltas.index("signature_delta") == deltas.count("thinking_delta")  # after the thinking, before the rest
    assert streamed.content[0] == reply.content[0]


def test_claude_rejects_a_tool_loop_without_its_thinking_or_with_it_changed(thinker: OfflineModel) -> None:
    client = thinker.anthropic_client(max_retries=0)
    messages, reply = claude_first_round(client)
    content = [block.model_dump(exclude_none=True) for block in reply.content]
    first_kept = content[1]["type"]

    def rejected(blocks: list[dict]) -> str:
        loop = claude_second_round(messages, blocks, reply)
        with pytest.raises(anthropic.BadRequestError) as caught:
            client.messages.create(model="claude-x", max_tokens=2048, messages=loop, tools=CLAUDE_TOOLS)
        return caught.value.body["error"]["message"]

    assert rejected(content[1:]) == (
        f"messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `{first_kept}`. "
        "When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the "
        "lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous "
        "turns. To avoid this requirement, disable `thinking`. Please consult our documentation at "
        "https://docs.claude.com/en/docs/build-with-claude/extended-thinking"
    )
    edited = [{**content[0], "thinking": content[0]["thinking"] + " Also check Guangzhou."}, *content[1:]]
    assert rejected(edited) == "messages.1.content.0: Invalid `signature` in `thinking` block"


def test_claude_thinking_and_forced_tool_use(thinker: OfflineModel) -> None:
    client = thinker.anthropic_client(max_retries=0)
    request = {"model": "claude-x", "max_tokens": 2048, "messages": [{"role": "user", "content": QUESTION}]}
    with pytest.raises(anthropic.BadRequestError, match="Thinking may not be enabled when tool_choice forces tool use"):
        thinking = {"type": "enabled", "budget_tokens": 1024}
        client.messages.create(**request, tools=CLAUDE_TOOLS, tool_choice={"type": "any"}, thinking=thinking)
    forced = client.messages.create(**request, tools=CLAUDE_TOOLS, tool_choice={"type": "any"})
    assert forced.content[0].type == "tool_use"  # no room left to think
    quiet = client.messages.create(**request, tools=CLAUDE_TOOLS, thinking={"type": "disabled"})
    assert all(block.type != "thinking" for block in quiet.content)


def test_claude_asks_for_thinking_back_only_where_it_thought(thinker: OfflineModel) -> None:
    client = thinker.anthropic_client(max_retries=0)
    messages = [{"role": "user", "content": QUESTION}]
    forced = client.messages.create(
        model="claude-x", max_tokens=2048, messages=messages, tools=CLAUDE_TOOLS, tool_choice={"type": "any"}
    )
    content = [block.model_dump(exclude_none=True) for block in forced.content]
    loop = claude_second_round(messages, content, forced)
    answer = client.messages.create(model="claude-x", max_tokens=2048, messages=loop, tools=CLAUDE_TOOLS)
    assert "31" in answer.content[-1].text  # no thinking was made, so none is missing
    # Thinking the request enables must open the loop's assistant turn, as the real API demands.
    thinking = {"type": "enabled", "budget_tokens": 1024}
    with pytest.raises(anthropic.BadRequestError, match="Expected `thinking` or `redacted_thinking`"):
        client.messages.create(model="claude-x", max_tokens=2048, messages=loop, tools=CLAUDE_TOOLS, thinking=thinking)
