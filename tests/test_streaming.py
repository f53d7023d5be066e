"""llm.stream / llm.astream: the same run as llm.run, read as it is generated, on each of the three APIs.

What a learner relies on: the events come in a usable order, the text deltas
add up to the answer, tool calls are assembled whole from their streamed
deltas, the result is the one ``run`` gives, and a stream that breaks off
raises a clear error without sending anything half-received back to the model.
"""

from __future__ import annotations

import asyncio
import io
import json
import re
from typing import Any

import httpx2
import pytest

import conductor as cd
from conductor import display
from conductor.course.scenarios import get_weather, suggest_clothing, weather_tools
from conductor.streaming import (
    Done,
    RoundStart,
    StreamInterrupted,
    TextDelta,
    ToolEnd,
    ToolStart,
    aprint_stream,
    call_label,
    print_stream,
)

from scripted import offline, scripted
from wire import APIS
CHAIN = "What should I wear in Beijing today?"
TWO_CITIES = "Is it warmer in Beijing or Shanghai today?"
LONG_ANSWER = "The answer is a long sentence that streams in many small pieces, one by one."


def connect(api: str, *, asynchronous: bool = False) -> cd.LLM:
    return cd.connect("offline", api=api, latency_scale=0, asynchronous=asynchronous)


def collect(llm: cd.LLM, question: str, **kwargs: Any) -> list[Any]:
    return list(llm.stream(question, tools=kwargs.pop("tools", weather_tools()), **kwargs))


async def acollect(llm: cd.LLM, question: str, **kwargs: Any) -> list[Any]:
    return [event async for event in llm.astream(question, tools=kwargs.pop("tools", weather_tools()), **kwargs)]


def final_text(events: list[Any]) -> str:
    """The text deltas of the last request, joined."""
    last = max(e.request for e in events if isinstance(e, RoundStart))
    return "".join(e.text for e in events if isinstance(e, TextDelta) and e.request == last)


def summary(result: cd.RunResult) -> tuple[Any, ...]:
    calls = [(c.name, c.arguments, c.output, c.is_error) for c in result.tool_calls]
    return result.answer, result.api_calls, len(result.rounds), calls, result.forced_final


@pytest.mark.parametrize("api", APIS)
def test_stream_gives_the_same_run_as_run(api: str) -> None:
    llm = connect(api)
    events = collect(llm, CHAIN)
    result = events[-1].result
    assert summary(result) == summary(llm.run(CHAIN, tools=weather_tools()))
    assert [c.name for c in result.tool_calls] == ["get_weather", "suggest_clothing"]
    assert final_text(events) == result.answer != ""


@pytest.mark.parametrize("api", APIS)
def test_events_come_in_order_round_by_round(api: str) -> None:
    events = collect(connect(api), CHAIN, max_rounds=2)
    assert isinstance(events[0], RoundStart) and isinstance(events[-1], Done)
    assert [e for e in events if isinstance(e, Done)] == [events[-1]]
    starts = [e for e in events if isinstance(e, RoundStart)]
    assert [(s.request, s.tools_allowed) for s in starts] == [(1, True), (2, True), (3, False)]
    # Each request: its text first, then its calls starting, then its calls ending.
    letter = {"round_start": "R", "text": "t", "tool_start": "s", "tool_end": "e", "done": "D"}
    letters = "".join(letter[e.type] for e in events)
    assert re.fullmatch(r"(Rt*(s+e+)?)+D", letters), letters
    ats = [e.at for e in events if not isinstance(e, Done)]
    assert ats == sorted(ats)


@pytest.mark.parametrize("api", APIS)
def test_tool_events_pair_up_with_the_recorded_calls(api: str) -> None:
    events = collect(connect(api), TWO_CITIES, parallel=True)
    result = events[-1].result
    starts = [e for e in events if isinstance(e, ToolStart)]
    ends = [e for e in events if isinstance(e, ToolEnd)]
    assert [s.call.id for s in starts] == [e.record.id for e in ends] == [c.id for c in result.tool_calls]
    assert [e.record for e in ends] == result.tool_calls
    assert [(s.round, s.name) for s in starts] == [(1, "get_weather"), (1, "get_weather")]
    assert not any(e.is_error for e in ends)


@pytest.mark.parametrize("api", APIS)
def test_tool_calls_are_assembled_whole_from_streamed_deltas(api: str) -> None:
    """Several calls in one turn, arguments split over many deltas: each call arrives as valid, complete JSON."""
    long_text = "a rather long note that the offline model streams in many small pieces, 北京 included"
    llm, _ = offline(api, scripted([("get_weather", {"city": "Beijing"}), ("note", {"text": long_text})], "ok"))

    @cd.tool
    def note(text: str) -> str:
        """Keep a note."""
        return "kept"

    events = list(llm.stream("go", tools=[get_weather, note], max_rounds=1))
    starts = [e for e in events if isinstance(e, ToolStart)]
    assert [(s.name, json.loads(s.arguments)) for s in starts] == [
        ("get_weather", {"city": "Beijing"}),
        ("note", {"text": long_text}),
    ]
    assert [e.output for e in events if isinstance(e, ToolEnd)][1] == "kept"


@pytest.mark.parametrize("api", ["responses", "messages"])
def test_a_streamed_reasoning_model_gets_its_reasoning_back_with_its_calls(api: str) -> None:
    """The items assembled from the stream (reasoning, thinking signatures) are what the next request replays."""
    llm = cd.connect("offline", api=api, latency_scale=0, reasoning=True)
    events = collect(llm, CHAIN)
    result = events[-1].result
    assert result.answer and [c.name for c in result.tool_calls] == ["get_weather", "suggest_clothing"]
    assert [r.status for r in llm.offline.requests] == [200, 200, 200]  # a call without its reasoning is a 400
    assert summary(result) == summary(cd.connect("offline", api=api, latency_scale=0, reasoning=True).run(
        CHAIN, tools=weather_tools()))


@pytest.mark.parametrize("api", APIS)
def test_astream_gives_the_same_events_as_stream(api: str) -> None:
    sync_events = collect(connect(api), CHAIN)
    async_events = asyncio.run(acollect(connect(api, asynchronous=True), CHAIN))
    assert [e.type for e in async_events] == [e.type for e in sync_events]
    assert [e.text for e in async_events if isinstance(e, TextDelta)] == [
        e.text for e in sync_events if isinstance(e, TextDelta)
    ]
    assert summary(async_events[-1].result) == summary(sync_events[-1].result)


@pytest.mark.parametrize("api", APIS)
def test_astream_over_a_sync_client_reads_it_in_a_thread(api: str) -> None:
    events = asyncio.run(acollect(connect(api), CHAIN))
    assert summary(events[-1].result) == summary(connect(api).run(CHAIN, tools=weather_tools()))


@pytest.mark.parametrize("api", APIS)
def test_streamed_usage_is_recorded_and_priced(api: str) -> None:
    result = collect(connect(api), CHAIN)[-1].result
    for call in result.trace.model_calls:
        assert call.usage.input_tokens > 0 and call.usage.output_tokens > 0
    assert result.cost > 0


@pytest.mark.parametrize("api", APIS)
def test_an_error_mid_stream_raises_and_nothing_half_received_is_sent_back(api: str) -> None:
    llm, model = offline(api, scripted(LONG_ANSWER))
    model.inject("stream_error")
    received: list[str] = []
    with pytest.raises(StreamInterrupted, match="broke off mid-stream") as caught:
        for event in llm.stream("Hello?"):
            if isinstance(event, TextDelta):
                received.append(event.text)
    assert caught.value.request == 1
    assert caught.value.partial_text == "".join(received) != ""
    assert caught.value.__cause__ is not None  # the SDK's own error, for the details
    assert len(model.requests) == 1  # not retried, and no later request carries the broken turn
    # Asking again works: the fault was one request's.
    again = list(llm.stream("Hello?"))
    assert again[-1].result.answer.startswith("The answer is")


@pytest.mark.parametrize("api", APIS)
def test_an_error_in_a_later_round_stops_the_run_after_the_tool_round(api: str) -> None:
    llm = connect(api)
    seen: list[str] = []
    with pytest.raises(StreamInterrupted) as caught:
        for event in llm.stream(CHAIN, tools=weather_tools()):
            seen.append(event.type)
            if isinstance(event, ToolEnd):
                llm.offline.inject("stream_error")  # the next request breaks off
    assert caught.value.request == 2
    assert "done" not in seen and seen.count("tool_end") == 1
    assert len(llm.offline.requests) == 2


@pytest.mark.parametrize("api", APIS)
def test_astream_raises_the_same_error_mid_stream(api: str) -> None:
    llm = connect(api, asynchronous=True)
    llm.offline.inject("stream_error")
    with pytest.raises(StreamInterrupted):
        asyncio.run(acollect(llm, CHAIN))
    assert len(llm.offline.requests) == 1


def test_a_chat_stream_that_ends_before_the_model_finished_is_an_interruption() -> None:
    """An OpenAI-compatible server that closes the stream without a finish_reason."""

    def chunk(delta: dict[str, Any]) -> str:
        body = {"id": "c1", "object": "chat.completion.chunk", "created": 0, "model": "m",
                "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
        return f"data: {json.dumps(body)}\n\n"

    sse = chunk({"role": "assistant", "content": ""}) + chunk({"content": "Half an ans"}) + "data: [DONE]\n\n"

    def handle(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, headers={"content-type": "text/event-stream"}, content=sse.encode())

    import openai

    client = openai.OpenAI(api_key="test", base_url="http://raw.invalid/v1", max_retries=0,
                           http_client=httpx2.Client(transport=httpx2.MockTransport(handle)))
    llm = cd.connect(client, model="m")
    with pytest.raises(StreamInterrupted, match="no finish_reason") as caught:
        list(llm.stream("Hi"))
    assert caught.value.partial_text == "Half an ans"


@pytest.mark.parametrize("api", APIS)
def test_a_cut_answer_is_a_result_not_an_error(api: str) -> None:
    llm = connect(api)
    llm.offline.inject("truncated")
    result = list(llm.stream("Hello?"))[-1].result
    assert result.truncated and result.answer


@pytest.mark.parametrize("api", APIS)
def test_a_refusal_streams_its_text(api: str) -> None:
    llm = connect(api)
    llm.offline.inject("refusal", text="I can't help with that.")
    events = list(llm.stream("Hello?"))
    assert events[-1].result.refused
    assert final_text(events) == events[-1].result.answer == "I can't help with that."


def test_leaving_the_loop_early_closes_the_stream() -> None:
    llm = connect("responses")
    for event in llm.stream(CHAIN, tools=weather_tools()):
        if isinstance(event, ToolStart):
            break
    assert summary(collect(llm, CHAIN)[-1].result) == summary(llm.run(CHAIN, tools=weather_tools()))


def test_learner_mistakes_are_refused_with_the_fix() -> None:
    with pytest.raises(cd.ProviderError, match="astream"):
        connect("responses", asynchronous=True).stream("Hi")
    with pytest.raises(ValueError, match="llm.stream"):
        connect("responses").run("Hi", stream=True)
    with pytest.raises(ValueError, match="max_rounds"):
        connect("responses").stream("Hi", max_rounds=-1)


def test_guards_apply_to_a_streamed_run() -> None:
    events = collect(connect("responses"), CHAIN, allowed_tools=["get_weather"])
    result = events[-1].result
    blocked = [c for c in result.tool_calls if c.name == "suggest_clothing"]
    assert all(c.is_error for c in blocked)
    assert any(c.name == "get_weather" and not c.is_error for c in result.tool_calls)


def test_the_events_are_typed_dataclasses() -> None:
    events = collect(connect("messages"), CHAIN)
    assert {type(e) for e in events} == {RoundStart, TextDelta, ToolStart, ToolEnd, Done}
    assert {e.type for e in events} == {"round_start", "text", "tool_start", "tool_end", "done"}
    assert suggest_clothing.name in {e.name for e in events if isinstance(e, ToolEnd)}


# --- print_stream: the chat-app view ------------------------------------------------------


def printed(events: list[Any], columns: int = 40) -> tuple[str, cd.RunResult]:
    out = io.StringIO()
    result = print_stream(iter(events), file=out, columns=columns)
    return out.getvalue(), result


def test_print_stream_shows_progress_lines_and_the_answer() -> None:
    events = collect(connect("responses"), CHAIN)
    text, result = printed(events, columns=100)
    assert result is events[-1].result
    lines = text.splitlines()
    assert lines[0] == "Checking the weather in Beijing…"  # the tool's own progress= label
    assert lines[1].startswith("  got get_weather: {")
    assert lines[2] == "Choosing clothes for 5 °C…"
    assert " ".join(lines[4:]) == result.answer
    out = io.StringIO()
    print_stream(iter(events), file=out, columns=100, progress="Working…")  # a label of the caller's own
    assert out.getvalue().splitlines()[0] == "Working… get_weather(city='Beijing')"


@pytest.mark.parametrize(
    "pieces",
    [
        ["The quick brown fox jumps over the lazy dog and keeps on running far away"],
        ["The qu", "ick bro", "wn fox jumps ov", "er the lazy dog and keeps on run", "ning far away"],
    ],
)
def test_print_stream_wraps_words_split_across_deltas(pieces: list[str]) -> None:
    """However the text is cut into deltas, the printed lines are the same, whole words, within the width."""
    events = [TextDelta(piece, 1, 0.0) for piece in pieces]
    text, _ = printed([*events, Done(connect("responses").run("Hi"))], columns=20)
    lines = text.splitlines()
    assert all(display.width(line) <= 20 for line in lines)
    assert " ".join(lines) == "".join(pieces)
    assert lines[0] == "The quick brown fox"


def test_print_stream_breaks_chinese_between_characters() -> None:
    chinese = "北京今天晴,气温5°C。建议穿羽绒服、厚外套。"  # "Beijing: sunny, 5°C. Wear a down coat."
    events = [TextDelta(chinese[:7], 1, 0.0), TextDelta(chinese[7:], 1, 0.0)]
    text, _ = printed([*events, Done(connect("responses").run("Hi"))], columns=12)
    lines = text.splitlines()
    assert "".join(lines) == chinese
    assert all(display.width(line) <= 12 for line in lines) and len(lines) > 1


def test_print_stream_needs_the_done_event() -> None:
    with pytest.raises(RuntimeError, match="done"):
        printed([TextDelta("Hi", 1, 0.0)])


@pytest.mark.parametrize("api", APIS)
def test_aprint_stream_prints_what_print_stream_prints(api: str) -> None:
    out = io.StringIO()
    asyncio.run(aprint_stream(connect(api, asynchronous=True).astream(CHAIN, tools=weather_tools()), file=out))
    assert out.getvalue() == printed(collect(connect(api), CHAIN), columns=100)[0]


def test_call_label_reads_like_a_call() -> None:
    assert call_label("get_weather", '{"city": "北京"}') == "get_weather(city='北京')"
    assert call_label("get_weather", '{"city": "Bei') == 'get_weather({"city": "Bei)'


def test_print_stream_shows_every_word_received_before_a_break() -> None:
    llm, model = offline("responses", scripted(LONG_ANSWER))
    model.inject("stream_error")
    out = io.StringIO()
    with pytest.raises(StreamInterrupted) as caught:
        print_stream(llm.stream("Hello?"), file=out)
    assert out.getvalue() == caught.value.partial_text + "\n"


@pytest.mark.parametrize("api", APIS)
def test_a_budget_stops_a_streamed_run_as_it_stops_run(api: str) -> None:
    from conductor.budget import Budget

    first = connect(api).run(CHAIN, tools=weather_tools())
    budget = Budget(usd=first.trace.model_calls[0].cost * 2.5)  # room for the first request, not the chain
    streamed = collect(connect(api), CHAIN, budget=budget)[-1].result
    plain = connect(api).run(CHAIN, tools=weather_tools(), budget=Budget(usd=budget.usd))
    assert streamed.stopped_by == plain.stopped_by == "budget"
    assert streamed.api_calls == plain.api_calls < first.api_calls


def _sse_client(api: str, body: Any) -> cd.LLM:
    """An SDK client on a server that answers every request with the stream ``body`` (bytes, or a generator)."""
    import anthropic
    import openai

    def handle(request: httpx2.Request) -> httpx2.Response:
        content = body() if callable(body) else body
        return httpx2.Response(200, headers={"content-type": "text/event-stream"}, content=content)

    http = httpx2.Client(transport=httpx2.MockTransport(handle))
    if api in ("responses", "chat"):
        client: Any = openai.OpenAI(api_key="test", base_url="http://raw.invalid/v1", max_retries=0, http_client=http)
    else:
        client = anthropic.Anthropic(api_key="test", base_url="http://raw.invalid", max_retries=0, http_client=http)
    return cd.connect(client, model="m", api=api)


def _anthropic_events(*events: dict[str, Any]) -> bytes:
    return "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events).encode()


ANTHROPIC_START = [
    {"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", "model": "m",
                                          "content": [], "stop_reason": None, "stop_sequence": None,
                                          "usage": {"input_tokens": 5, "output_tokens": 0}}},
    {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
    {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Half an ans"}},
]


def _responses_events(*events: dict[str, Any]) -> bytes:
    numbered = [{**e, "sequence_number": n} for n, e in enumerate(events)]
    return "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in numbered).encode()


RESPONSES_START = [
    {"type": "response.created", "response": {
        "id": "resp_1", "object": "response", "created_at": 0, "status": "in_progress", "model": "m", "output": [],
        "parallel_tool_calls": True, "tool_choice": "auto", "tools": []}},
    {"type": "response.output_item.added", "output_index": 0, "item": {
        "id": "msg_1", "type": "message", "role": "assistant", "status": "in_progress", "content": []}},
    {"type": "response.content_part.added", "item_id": "msg_1", "output_index": 0, "content_index": 0,
     "part": {"type": "output_text", "text": "", "annotations": []}},
    {"type": "response.output_text.delta", "item_id": "msg_1", "output_index": 0, "content_index": 0,
     "delta": "Half an ans", "logprobs": []},
]


def test_a_responses_stream_without_its_completed_event_is_an_interruption() -> None:
    llm = _sse_client("responses", _responses_events(*RESPONSES_START))
    with pytest.raises(StreamInterrupted, match="response.completed") as caught:
        list(llm.stream("Hi"))
    assert caught.value.partial_text == "Half an ans"


def test_an_anthropic_stream_without_a_stop_reason_is_an_interruption() -> None:
    llm = _sse_client("messages", _anthropic_events(*ANTHROPIC_START, {"type": "content_block_stop", "index": 0}))
    with pytest.raises(StreamInterrupted, match="no stop_reason") as caught:
        list(llm.stream("Hi"))
    assert caught.value.partial_text == "Half an ans"


@pytest.mark.parametrize("api", APIS)
def test_a_dropped_connection_mid_stream_is_an_interruption(api: str) -> None:
    first = {
        "responses": _responses_events(*RESPONSES_START),
        "chat": b'data: {"id":"c","object":"chat.completion.chunk","created":0,"model":"m","choices":'
        b'[{"index":0,"delta":{"role":"assistant","content":"Half an ans"},"finish_reason":null}]}\n\n',
        "messages": _anthropic_events(*ANTHROPIC_START),
    }[api]

    def dropped():
        yield first
        raise httpx2.RemoteProtocolError("peer closed connection without sending complete message body")

    with pytest.raises(StreamInterrupted, match="RemoteProtocolError") as caught:
        list(_sse_client(api, dropped).stream("Hi"))
    assert caught.value.partial_text == "Half an ans"
