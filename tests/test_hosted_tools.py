"""Hosted tools (web search) pass through, their results are kept as received, and Anthropic's
``pause_turn`` is continued: against real-shaped responses of each API, through the official SDKs."""

from __future__ import annotations

import copy
import json
import logging
from typing import Any

import pytest

import conductor as cd
from conductor.apis.base import RequestSettings, hosted_tools_for
from conductor.tools import ToolRegistry
from conductor.types import StopReason
from scripted import Bank, RawServer, raw_response

WEB_SEARCH_RESPONSES = {"type": "web_search"}
WEB_SEARCH_MESSAGES = {"type": "web_search_20250305", "name": "web_search", "max_uses": 2}
SEARCH_PRICE = 10 / 1000  # genai-prices: $10 per 1,000 web searches, on both providers' models used here

executed: list[dict[str, Any]] = []


@cd.tool
def get_weather(city: str) -> dict:
    """Get today's weather for a city."""
    executed.append({"city": city})
    return {"city": city, "temp_c": 21}


@pytest.fixture(autouse=True)
def _nothing_ran():
    executed.clear()
    yield


# -- real-shaped responses (Anthropic's web search guide; OpenAI's web search guide) ------------------

SEARCH_ID = "srvtoolu_01WYG3ziw53XMcoyKL4XcZmE"


def search_blocks(query: str = "capital of France", *, preamble: str = "I'll search for that.") -> list[dict]:
    """A text block, a server_tool_use block and its web_search_tool_result, as the API sends them."""
    return [
        {"type": "text", "text": preamble, "citations": None},
        {"type": "server_tool_use", "id": SEARCH_ID, "name": "web_search", "input": {"query": query}},
        {
            "type": "web_search_tool_result",
            "tool_use_id": SEARCH_ID,
            "content": [
                {
                    "type": "web_search_result",
                    "url": "https://en.wikipedia.org/wiki/Paris",
                    "title": "Paris - Wikipedia",
                    "encrypted_content": "EqgfCioIARgBIiQ3YTAwMjY1Mi1mZjM5LTQ1NGUtODgxNC1kNjNjNTk1ZWI3Y2ISDH",
                    "page_age": "April 30, 2025",
                }
            ],
        },
    ]


ANSWER_BLOCKS = [
    {"type": "text", "text": "Based on the search results, ", "citations": None},
    {
        "type": "text",
        "text": "Paris is the capital of France.",
        "citations": [
            {
                "type": "web_search_result_location",
                "url": "https://en.wikipedia.org/wiki/Paris",
                "title": "Paris - Wikipedia",
                "encrypted_index": "Eo8BCioIAhgBIiQyYjQ0OWJmZi1lNm",
                "cited_text": "Paris is the capital and largest city of France.",
            }
        ],
    },
]


def messages_response(content: list[dict], stop_reason: str = "end_turn", searches: int = 1) -> dict[str, Any]:
    return {
        "id": "msg_01AbCdEfGhIjKlMnOpQrStUv",
        "type": "message",
        "role": "assistant",
        "model": "claude-haiku-4-5-20251001",
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {
            "input_tokens": 6_039,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0,
            "output_tokens": 931,
            "server_tool_use": {"web_search_requests": searches, "web_fetch_requests": 0},
            "service_tier": "standard",
        },
    }


def responses_search_response() -> dict[str, Any]:
    body = raw_response("responses")
    body["output"] = [
        {
            "id": "ws_67c9fa0502748190b7dd390736892e100be649c1a5ff9609",
            "type": "web_search_call",
            "status": "completed",
            "action": {"type": "search", "query": "capital of France"},
        },
        {
            "id": "msg_67c9fa077e288190af08fdffda2e34f20be649c1a5ff9609",
            "type": "message",
            "status": "completed",
            "role": "assistant",
            "content": [
                {
                    "type": "output_text",
                    "text": "Paris is the capital of France.",
                    "annotations": [
                        {
                            "type": "url_citation",
                            "start_index": 0,
                            "end_index": 31,
                            "url": "https://en.wikipedia.org/wiki/Paris",
                            "title": "Paris - Wikipedia",
                        }
                    ],
                }
            ],
        },
    ]
    body["tools"] = [{"type": "web_search", "search_context_size": "medium"}]
    body["usage"] = {
        "input_tokens": 8_000,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": 300,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 8_300,
    }
    return body


def without_nulls(value: Any) -> Any:
    """A JSON value with its null fields left out: how a response's blocks go back (a request may not
    carry some of them as null)."""
    if isinstance(value, dict):
        return {k: without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [without_nulls(v) for v in value]
    return value


def connect(server: RawServer, api: str) -> cd.LLM:
    model = "claude-haiku-4-5" if api == "messages" else "gpt-5.4-mini"
    return cd.connect(server.client(), model=model, api=api)


# -- the hosted tool goes into the request unchanged, beside the function tools ------------------------


@pytest.mark.parametrize(
    "api, hosted, response",
    [
        ("messages", WEB_SEARCH_MESSAGES, lambda: messages_response([*search_blocks(), *ANSWER_BLOCKS])),
        ("responses", WEB_SEARCH_RESPONSES, responses_search_response),
    ],
)
def test_a_hosted_tool_dict_goes_into_the_request_unchanged_beside_function_tools(api, hosted, response):
    server = RawServer(api, [response()])
    given = copy.deepcopy(hosted)
    result = connect(server, api).run("What is the capital of France?", tools=[get_weather, given])
    tools = server.bodies[0]["tools"]
    assert tools[-1] == hosted  # exactly as written
    assert [t.get("name") for t in tools[:-1]] == ["get_weather"]  # the function tool, in the API's own form
    assert given == hosted  # the caller's dict is not changed either
    assert result.answer.endswith("Paris is the capital of France.")
    assert executed == [] and result.rounds == ()  # the provider ran the search: nothing runs here


def test_only_hosted_tools_make_one_request_with_them():
    server = RawServer("responses", [responses_search_response()])
    result = connect(server, "responses").run("What is the capital of France?", tools=[WEB_SEARCH_RESPONSES])
    assert server.bodies[0]["tools"] == [WEB_SEARCH_RESPONSES]
    assert "tool_choice" not in server.bodies[0]  # auto, the API's default beside tools
    assert result.api_calls == 1 and result.answer == "Paris is the capital of France."


@pytest.mark.parametrize("api, hosted", [("messages", WEB_SEARCH_MESSAGES), ("responses", WEB_SEARCH_RESPONSES)])
def test_the_forced_final_request_keeps_the_hosted_tool_with_tool_use_forbidden(api, hosted):
    server = RawServer(api, [
        raw_response(api, calls=[("call_1", "get_weather", {"city": "Paris"})]),
        raw_response(api, "It is 21 °C in Paris."),
    ])
    result = connect(server, api).run("Weather in Paris?", tools=[get_weather, hosted], max_rounds=1)
    assert result.forced_final and executed == [{"city": "Paris"}]
    final = server.bodies[-1]
    assert final["tools"][-1] == hosted
    assert final["tool_choice"] in ("none", {"type": "none"})


# -- server-tool blocks and items: parsed, kept as received, never run, priced -------------------------


def test_messages_server_tool_blocks_are_kept_as_received_and_their_searches_priced():
    content = [*search_blocks(), *ANSWER_BLOCKS]
    server = RawServer("messages", [messages_response(content)])
    llm = connect(server, "messages")
    result = llm.run("What is the capital of France?", tools=[get_weather, WEB_SEARCH_MESSAGES])
    # The answer joins every text block, the cited one included.
    assert result.answer == "I'll search for that.Based on the search results, Paris is the capital of France."
    assert result.messages[-1] == {"role": "assistant", "content": without_nulls(content)}
    turn = result.conversation[-1]
    assert turn.tool_calls == () and [b["type"] for b in turn.items][:3] == [
        "text", "server_tool_use", "web_search_tool_result"]
    assert result.usage.web_search_requests == 1
    split = result.trace.model_calls[0].cost_split
    assert split.server_tools == pytest.approx(SEARCH_PRICE)
    assert result.cost == pytest.approx(split.input + split.output + SEARCH_PRICE)
    assert result.cost == pytest.approx(llm.cost(result.usage))


def test_responses_web_search_call_items_are_kept_as_received_and_counted_as_searches():
    body = responses_search_response()
    server = RawServer("responses", [body])
    llm = connect(server, "responses")
    result = llm.run("What is the capital of France?", tools=[get_weather, WEB_SEARCH_RESPONSES])
    assert result.answer == "Paris is the capital of France."
    assert result.messages[1:] == body["output"]  # after the question: the output items, ids included
    assert result.usage.web_search_requests == 1  # one web_search_call item
    split = result.trace.model_calls[0].cost_split
    assert split.server_tools == pytest.approx(SEARCH_PRICE)
    assert result.cost == pytest.approx(8_000 * 0.75 / 1e6 + 300 * 4.5 / 1e6 + SEARCH_PRICE)


def test_a_messages_turn_with_server_blocks_goes_back_unchanged_beside_a_function_call():
    """A turn that searched and then called a function: the next request carries its blocks as received."""
    call = {"type": "tool_use", "id": "toolu_01A", "name": "get_weather", "input": {"city": "Paris"}}
    content = [*search_blocks(), call]
    server = RawServer("messages", [
        messages_response(content, stop_reason="tool_use"),
        messages_response([{"type": "text", "text": "Paris is the capital; it is 21 °C there."}], searches=0),
    ])
    result = connect(server, "messages").run(
        "Capital of France and its weather?", tools=[get_weather, WEB_SEARCH_MESSAGES]
    )
    assert executed == [{"city": "Paris"}] and len(result.rounds) == 1
    second = server.bodies[1]["messages"]
    assert second[1] == {"role": "assistant", "content": without_nulls(content)}
    assert second[2]["content"][0]["tool_use_id"] == "toolu_01A"
    assert result.usage.web_search_requests == 1


def test_result_messages_with_server_blocks_and_items_are_accepted_as_history():
    server = RawServer(
        "messages", [messages_response([*search_blocks(), *ANSWER_BLOCKS]), raw_response("messages", "Yes.")]
    )
    llm = connect(server, "messages")
    first = llm.run("What is the capital of France?", tools=[WEB_SEARCH_MESSAGES])
    again = llm.run("Are you sure?", tools=[WEB_SEARCH_MESSAGES], history=first.messages)
    assert again.answer == "Yes."
    replayed = server.bodies[1]["messages"][1]  # a history turn: its blocks as received, the server tool's too
    assert replayed == first.messages[1] and "server_tool_use" in [b["type"] for b in replayed["content"]]

    server = RawServer("responses", [responses_search_response(), raw_response("responses", "Yes.")])
    llm = connect(server, "responses")
    first = llm.run("What is the capital of France?", tools=[WEB_SEARCH_RESPONSES])
    assert llm.run("Are you sure?", tools=[WEB_SEARCH_RESPONSES], history=first.messages).answer == "Yes."
    searched = [item for item in first.messages if item.get("type") == "web_search_call"]
    assert searched and [i for i in server.bodies[1]["input"] if i.get("type") == "web_search_call"] == searched


# -- pause_turn ------------------------------------------------------------------------------------


def test_pause_turn_is_continued_by_sending_the_paused_turn_back_unchanged():
    paused = search_blocks()
    server = RawServer("messages", [
        messages_response(paused, stop_reason="pause_turn"),
        messages_response(ANSWER_BLOCKS, searches=0),
    ])
    result = connect(server, "messages").run(
        "What is the capital of France?", tools=[get_weather, WEB_SEARCH_MESSAGES]
    )
    assert result.api_calls == 2 and result.rounds == ()  # one request more, no tool round
    assert result.stop_reason is StopReason.END_TURN and result.stopped_by is None
    first, second = server.bodies
    # The continuation: the same conversation with the paused turn after it, as received; no new user message.
    assert second["messages"] == [*first["messages"], {"role": "assistant", "content": without_nulls(paused)}]
    assert second["tools"] == first["tools"] and second["tool_choice"] == first["tool_choice"]
    assert result.answer == "I'll search for that.Based on the search results, Paris is the capital of France."
    assert result.trace.model_calls[0].stop_reason is StopReason.PAUSE_TURN
    assert result.usage.web_search_requests == 1


def test_a_pause_never_counts_as_a_tool_round():
    server = RawServer("messages", [
        messages_response(search_blocks(), stop_reason="pause_turn"),
        raw_response("messages", calls=[("toolu_01A", "get_weather", {"city": "Paris"})]),
        raw_response("messages", "It is 21 °C in Paris."),
    ])
    result = connect(server, "messages").run("Weather in the capital of France?",
                                               tools=[get_weather, WEB_SEARCH_MESSAGES], max_rounds=1)
    assert result.api_calls == 3 and len(result.rounds) == 1 and executed == [{"city": "Paris"}]
    assert server.bodies[1]["tool_choice"] == {"type": "auto"}  # the continuation still offers the tools
    assert server.bodies[2]["tool_choice"] == {"type": "none"}  # the one round used: the forced final answer
    assert result.answer == "It is 21 °C in Paris."  # a tool turn came between: the pause's text is not the answer


@pytest.mark.parametrize("max_pauses", [0, 2, None])
def test_a_model_that_never_stops_pausing_ends_at_the_pause_limit_with_its_text(max_pauses):
    server = RawServer("messages", [messages_response(search_blocks(preamble="Searching."), stop_reason="pause_turn")])
    options = {} if max_pauses is None else {"max_pauses": max_pauses}
    result = connect(server, "messages").run("Capital of France?", tools=[WEB_SEARCH_MESSAGES], **options)
    limit = 3 if max_pauses is None else max_pauses
    assert result.api_calls == limit + 1 and result.rounds == ()
    assert result.stopped_by == "pause_limit" and result.stop_reason is StopReason.PAUSE_TURN
    assert result.answer == "Searching." * (limit + 1)  # every paused turn's text, joined
    assert result.usage.web_search_requests == limit + 1
    assert "still pausing" in result.transcript()
    # Each continuation carried every paused turn before it, as received.
    assert [len(body["messages"]) for body in server.bodies] == list(range(1, limit + 2))


def test_a_paused_turn_without_text_at_the_limit_says_why_it_stopped():
    server = RawServer("messages", [messages_response(search_blocks()[1:], stop_reason="pause_turn")])
    result = connect(server, "messages").run("Capital of France?", tools=[WEB_SEARCH_MESSAGES], max_pauses=1)
    assert result.stopped_by == "pause_limit" and "max_pauses=1" in result.answer


@pytest.mark.parametrize("bad", [-1, 1.5, True, "3"])
def test_max_pauses_must_be_a_whole_number(bad):
    server = RawServer("messages", [raw_response("messages", "ok")])
    with pytest.raises(ValueError, match="max_pauses must be a whole number"):
        connect(server, "messages").run("Hi", max_pauses=bad)
    assert server.bodies == []


def test_a_run_paused_for_approval_keeps_its_hosted_tools_and_pause_count_through_json():
    bank = Bank()
    server = RawServer("messages", [
        messages_response(search_blocks(), stop_reason="pause_turn"),
        raw_response("messages", calls=[("toolu_01T", "transfer", {"to": "bob", "amount": 500})]),
        raw_response("messages", "Sent."),
    ])
    llm = connect(server, "messages")
    paused = llm.run("Send bob 500", tools=[bank.transfer, WEB_SEARCH_MESSAGES], max_pauses=1)
    assert paused.stopped_by == "approval"
    restored = cd.RunResult.from_json(paused.to_json())
    restored.approve("toolu_01T")
    done = llm.resume(restored, tools=[bank.transfer])
    assert done.answer == "Sent." and bank.transfers == [("bob", 500)]
    assert server.bodies[-1]["tools"][-1] == WEB_SEARCH_MESSAGES
    assert restored.paused.pauses == 1 and restored.paused.max_pauses == 1


# -- streaming: the same loop, pause_turn included -------------------------------------------------


def _sse(message: dict[str, Any]) -> bytes:
    """``message`` as the Messages API streams it: message_start, each block, message_delta, message_stop."""
    events: list[tuple[str, dict[str, Any]]] = []
    start = {**message, "content": [], "stop_reason": None,
             "usage": {"input_tokens": message["usage"]["input_tokens"], "output_tokens": 1}}
    events.append(("message_start", {"type": "message_start", "message": start}))
    for index, block in enumerate(message["content"]):
        if block["type"] == "text":
            opened = {"type": "text", "text": ""}
            deltas = [{"type": "text_delta", "text": block["text"]}]
        elif block["type"] in ("server_tool_use", "tool_use"):
            opened = {**block, "input": {}}
            deltas = [{"type": "input_json_delta", "partial_json": json.dumps(block["input"])}]
        else:
            opened, deltas = block, []
        events.append(("content_block_start", {"type": "content_block_start", "index": index, "content_block": opened}))
        events += [("content_block_delta", {"type": "content_block_delta", "index": index, "delta": d}) for d in deltas]
        events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
    usage = message["usage"]
    events.append(("message_delta", {
        "type": "message_delta",
        "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
        "usage": {"output_tokens": usage["output_tokens"], "server_tool_use": usage.get("server_tool_use")},
    }))
    events.append(("message_stop", {"type": "message_stop"}))
    return "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in events).encode()


class StreamingServer(RawServer):
    """A RawServer that streams each response as server-sent events."""

    def _handle(self, request):
        import httpx2

        self.bodies.append(json.loads(request.content))
        message = self.responses[min(len(self.bodies), len(self.responses)) - 1]
        return httpx2.Response(200, headers={"content-type": "text/event-stream"}, content=_sse(message))


def test_a_streamed_run_continues_a_paused_turn_too():
    paused = [{"type": "text", "text": "Let me search. "}, *search_blocks()[1:]]
    server = StreamingServer("messages", [
        messages_response(paused, stop_reason="pause_turn"),
        messages_response([{"type": "text", "text": "Paris is the capital of France."}], searches=0),
    ])
    events = list(connect(server, "messages").stream("Capital of France?", tools=[get_weather, WEB_SEARCH_MESSAGES]))
    assert [e.type for e in events if e.type != "text"] == ["round_start", "round_start", "done"]
    assert "".join(e.text for e in events if e.type == "text") == "Let me search. Paris is the capital of France."
    result = events[-1].result
    assert result.answer == "Let me search. Paris is the capital of France."
    assert result.rounds == () and result.api_calls == 2 and result.usage.web_search_requests == 1
    sent_back = server.bodies[1]["messages"][-1]
    assert sent_back["role"] == "assistant"
    assert [b["type"] for b in sent_back["content"]] == ["text", "server_tool_use", "web_search_tool_result"]
    assert sent_back["content"][1]["input"] == {"query": "capital of France"}


def test_a_streamed_run_stops_at_the_pause_limit():
    paused = messages_response(search_blocks(preamble="Searching."), stop_reason="pause_turn")
    server = StreamingServer("messages", [paused])
    events = list(connect(server, "messages").stream("Capital?", tools=[WEB_SEARCH_MESSAGES], max_pauses=1))
    result = events[-1].result
    assert result.stopped_by == "pause_limit" and result.answer == "Searching.Searching." and result.api_calls == 2


# -- where hosted tools cannot go ------------------------------------------------------------------


@pytest.mark.parametrize(
    "api, hosted, connect_line",
    [
        ("responses", WEB_SEARCH_RESPONSES, 'cd.connect("openai") with OPENAI_API_KEY set'),
        ("messages", WEB_SEARCH_MESSAGES, 'cd.connect("anthropic") with ANTHROPIC_API_KEY set'),
    ],
)
def test_the_offline_stand_in_refuses_a_hosted_tool_saying_it_runs_only_on_the_real_api(api, hosted, connect_line):
    import anthropic
    import openai

    llm = cd.connect("offline", api=api)
    with pytest.raises((openai.BadRequestError, anthropic.BadRequestError)) as raised:
        llm.run("What is the capital of France?", tools=[get_weather, hosted])
    body = raised.value.body  # OpenAI's SDK gives the error object, Anthropic's the whole body
    message = (body.get("error") or body)["message"]
    assert raised.value.status_code == 400
    assert "hosted tools run only on the real API" in message
    assert repr(hosted["type"]) in message and connect_line in message
    assert executed == []


def test_hosted_tools_on_chat_completions_are_refused_naming_the_api_and_the_fix():
    llm = cd.connect("offline", api="chat")
    with pytest.raises(ValueError, match=r"Chat Completions API, which has no hosted tools.*cd\.connect\('openai'\)"):
        llm.run("Capital of France?", tools=[get_weather, WEB_SEARCH_RESPONSES])
    assert llm.offline.requests == []


@pytest.mark.parametrize(
    "api, tool, message",
    [
        ("messages", WEB_SEARCH_RESPONSES, r"hosted tool of the OpenAI Responses API.*web_search_20250305"),
        ("responses", WEB_SEARCH_MESSAGES, r"hosted tool of the Anthropic Messages API.*\{'type': 'web_search'\}"),
        ("responses", {"type": "computer_use_preview", "display_width": 1024}, r"your own code.*@cd\.tool"),
        ("messages", {"type": "bash_20250124", "name": "bash"}, r"your own code to carry out.*@cd\.tool"),
        ("messages", {"type": "function", "function": {"name": "get_weather"}}, r"schema dict for 'get_weather'"),
    ],
)
def test_a_tool_dict_the_api_cannot_take_is_refused_before_any_request(api, tool, message):
    llm = cd.connect("offline", api=api)
    with pytest.raises(ValueError, match=message):
        llm.run("Capital of France?", tools=[get_weather, tool])
    assert llm.offline.requests == []


def test_a_fallback_to_another_api_sends_its_requests_without_the_hosted_tools(caplog):
    settings = RequestSettings("m", ToolRegistry([get_weather]), hosted_tools=(WEB_SEARCH_RESPONSES,),
                               hosted_api="responses")
    assert hosted_tools_for(settings, "responses") == [WEB_SEARCH_RESPONSES]
    with caplog.at_level(logging.WARNING, logger="conductor.apis.base"):
        assert hosted_tools_for(settings, "messages") == []
    assert "does not take the responses API's hosted tools" in caplog.text


def test_a_budget_holds_the_searches_max_uses_allows():
    server = RawServer("messages", [messages_response([*search_blocks(), *ANSWER_BLOCKS])])
    llm = connect(server, "messages")
    # Tokens alone would fit in a cent; two searches at $0.01 each would not.
    result = llm.run("Capital of France?", tools=[WEB_SEARCH_MESSAGES], budget=cd.Budget(usd=0.015), max_tokens=200)
    assert result.stopped_by == "budget" and server.bodies == []
    # Without max_uses nothing bounds the searches: the request goes, and they are counted once billed.
    unbounded = {"type": "web_search_20250305", "name": "web_search"}
    result = llm.run("Capital of France?", tools=[unbounded], budget=cd.Budget(usd=0.015), max_tokens=200)
    assert len(server.bodies) == 1 and result.usage.web_search_requests == 1


def test_an_openai_web_search_under_a_budget_is_bounded_before_it_is_sent():
    server = RawServer("responses", [responses_search_response()] * 2)
    llm = connect(server, "responses")
    # Five searches at $0.01 each would pass $0.03: bounded by max_tool_calls, the request is not sent.
    result = llm.run("Capital of France?", tools=[WEB_SEARCH_RESPONSES], budget=cd.Budget(usd=0.03), max_tokens=200)
    assert result.stopped_by == "budget" and server.bodies == []
    # The caller's own bound is kept and held: two searches fit.
    result = llm.run("Capital of France?", tools=[WEB_SEARCH_RESPONSES], budget=cd.Budget(usd=0.03), max_tokens=200,
                     max_tool_calls=2)
    assert result.answer == "Paris is the capital of France." and server.bodies[0]["max_tool_calls"] == 2
    llm.run("Capital of France?", tools=[WEB_SEARCH_RESPONSES], budget=cd.Budget(usd=1.0), max_tokens=200)
    assert server.bodies[1]["max_tool_calls"] == 5  # a bound set where the caller gave none
    assert "max_tool_calls" not in json.dumps(server.bodies[0]["tools"])


def test_anthropic_web_fetches_are_counted_and_cost_only_their_tokens():
    body = messages_response(ANSWER_BLOCKS, searches=0)
    body["usage"]["server_tool_use"]["web_fetch_requests"] = 2
    server = RawServer("messages", [body, body])
    llm = connect(server, "messages")
    fetch = {"type": "web_fetch_20250910", "name": "web_fetch", "max_uses": 2}
    result = llm.run("Summarise https://example.com", tools=[fetch])
    assert (result.usage.web_fetch_requests, result.usage.web_search_requests) == (2, 0)
    assert result.trace.model_calls[0].cost_split.server_tools == 0
    assert result.cost == pytest.approx(llm.cost(cd.Usage(input_tokens=6_039, output_tokens=931)))
    assert (result.usage + result.usage).web_fetch_requests == 4


def test_the_orchestrator_sends_a_hosted_tool_as_given_and_never_wraps_it():
    from conductor import scenarios as sc
    from conductor.offline import LatencyModel, OfflineModel

    model = OfflineModel(seed=0, latency=LatencyModel.instant())
    orch = cd.Orchestrator(cd.connect("offline", offline_model=model), tools=[sc.get_weather, {"type": "web_search"}])
    result = orch.run("What's the weather in Beijing?")
    # the stand-in has no web: it refuses, and the request shows the hosted tool went out unchanged
    assert result.stopped_by == "error" and "hosted tools run only on the real API" in result.answer
    assert model.requests[0].body["tools"][1] == {"type": "web_search"}


# -- a hosted MCP call held for approval (OpenAI's remote MCP guide: require_approval is on by default) -------

DEEPWIKI = {"type": "mcp", "server_label": "deepwiki", "server_url": "https://mcp.deepwiki.com/mcp"}
APPROVAL_ID = "mcpr_682d498e3bd4819196a0ce1664f8e77b04ad1e533afccbfa"


def mcp_approval_response() -> dict[str, Any]:
    body = raw_response("responses")
    body["output"] = [
        {"id": "mcpl_682d4379df088191886b70f4ec39f90403937d5f622d7a90", "type": "mcp_list_tools",
         "server_label": "deepwiki", "tools": [{"name": "ask_question", "input_schema": {"type": "object"}}]},
        {"id": APPROVAL_ID, "type": "mcp_approval_request", "server_label": "deepwiki", "name": "ask_question",
         "arguments": '{"repoName":"modelcontextprotocol/modelcontextprotocol","question":"What transports?"}'},
    ]
    return body


def mcp_answer_response() -> dict[str, Any]:
    body = raw_response("responses")
    body["output"] = [
        {"id": "mcp_682d437d90a88191bf88cd03aae0c3e503937d5f622d7a90", "type": "mcp_call", "status": "completed",
         "approval_request_id": APPROVAL_ID, "server_label": "deepwiki", "name": "ask_question",
         "arguments": '{"repoName":"modelcontextprotocol/modelcontextprotocol","question":"What transports?"}',
         "output": "stdio and Streamable HTTP", "error": None},
        {"id": "msg_682d437d90a88191bf88cd03aae0c3e503937d5f622d7a91", "type": "message", "status": "completed",
         "role": "assistant", "content": [{"type": "output_text", "text": "stdio and Streamable HTTP.",
                                           "annotations": []}]},
    ]
    return body


def test_a_hosted_mcp_call_held_for_approval_pauses_the_run_and_the_decision_goes_back():
    server = RawServer("responses", [mcp_approval_response(), mcp_answer_response()])
    llm = connect(server, "responses")
    paused = llm.run("What transports does MCP define?", tools=[DEEPWIKI])
    assert paused.stopped_by == "approval" and len(server.bodies) == 1
    pending = paused.pending[0]
    assert (pending.id, pending.name) == (APPROVAL_ID, "mcp:deepwiki.ask_question")
    assert pending.arguments["question"] == "What transports?"
    with pytest.raises(ValueError, match="not edited"):
        paused.approve(APPROVAL_ID, arguments={"question": "Something else"})
    paused = cd.RunResult.from_json(paused.to_json())  # saved while a person decides, as any paused run
    paused.approve(APPROVAL_ID)
    done = llm.resume(paused)
    assert done.answer == "stdio and Streamable HTTP." and done.stopped_by is None
    sent = server.bodies[1]["input"]
    assert sent[-2]["type"] == "mcp_approval_request" and sent[-2]["id"] == APPROVAL_ID  # replayed as received
    assert sent[-1] == {"type": "mcp_approval_response", "approval_request_id": APPROVAL_ID, "approve": True}
    assert not any(item.get("type") == "function_call_output" for item in sent)
    assert any(item.get("type") == "mcp_call" for item in done.messages)


def test_a_rejected_or_policy_denied_hosted_mcp_call_goes_back_as_approve_false():
    server = RawServer("responses", [mcp_approval_response(), raw_response("responses")])
    llm = connect(server, "responses")
    paused = llm.run("What transports does MCP define?", tools=[DEEPWIKI])
    paused.reject(APPROVAL_ID, reason="not this repository")
    llm.resume(paused)
    answer = server.bodies[1]["input"][-1]
    assert answer["type"] == "mcp_approval_response" and answer["approve"] is False
    assert "not this repository" in answer["reason"]
    server = RawServer("responses", [mcp_approval_response(), mcp_answer_response()])
    seen = []
    headless = connect(server, "responses").run(
        "What transports does MCP define?", tools=[DEEPWIKI], approve=lambda call: seen.append(call.name) or True)
    assert seen == ["mcp:deepwiki.ask_question"] and headless.answer == "stdio and Streamable HTTP."
    assert server.bodies[1]["input"][-1]["approve"] is True
