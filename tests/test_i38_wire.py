"""What production code hits, round 5 (issue 38), on the wire: hosted tools under allowed_tools, server items
and blocks kept across a continued conversation, Anthropic's thinking tokens, and compatible servers.

The continuation tests replay what real recorded exchanges show (pydantic/pydantic-ai VCR cassettes:
``tests/cassettes/test_tool_search/test_openai_hosted_tool_search_stateless_continuation*.yaml``, a hosted
tool search continued over runs; ``tests/models/cassettes/test_anthropic/test_anthropic_compaction_end_to_end.yaml``,
a compaction block sent back on the next run): the items and blocks the server added go back as received.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import anthropic
import openai
import pytest

import conductor as cd
from conductor.offline import LatencyModel, OfflineModel
from conductor.types import Turn
from scripted import RawServer, anthropic_response, openai_response, responses_response
from test_context_limit import QUESTION as REPORTS, get_report, get_station_log
from test_tool_search import FORECAST, TOOLS
from wire import entries

SEARCH_ITEMS = ("tool_search_call", "tool_search_output")
SEARCH_BLOCKS = ("server_tool_use", "tool_search_tool_result")


@cd.tool
def list_events(date: str) -> dict:
    """List the calendar events on a date.

    Args:
        date: the date, YYYY-MM-DD
    """
    return {"events": [{"title": "Review", "start": "14:00"}]}


@cd.tool
def add_event(title: str, date: str) -> dict:
    """Add an event to the calendar on a date.

    Args:
        title: the event's title
        date: the date, YYYY-MM-DD
    """
    return {"added": title, "date": date}


CALENDAR = [*TOOLS[:3], list_events, add_event]
# One search loads both calendar tools and the run calls only list_events: add_event stays deferred, loaded
# by that search alone, for the next run to call.
LIST = "What events are on the calendar on 2026-11-03?"
ADD = 'Add an event titled "Review" to the calendar on 2026-11-04.'


def offline(api: str, **options: Any) -> tuple[cd.LLM, OfflineModel]:
    model = OfflineModel(latency=LatencyModel.instant(), **options)
    return cd.connect("offline", api=api, offline_model=model), model


def server_entries(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The server's own items (Responses) and assistant blocks (Messages) of a conversation, in order."""
    found = []
    for entry in messages:
        if entry.get("type") in (*SEARCH_ITEMS, "compaction"):
            found.append(entry)
        content = entry.get("content")
        if entry.get("role") == "assistant" and isinstance(content, list):
            found += [b for b in content if b.get("type") in (*SEARCH_BLOCKS, "compaction")]
    return found


# -- 4. allowed_tools keeps the hosted tools conductor adds ---------------------------------------


def test_allowed_tools_on_responses_lists_the_hosted_search_and_the_deferred_tool_loads():
    llm, model = offline("responses")
    result = llm.run(FORECAST, tools=TOOLS, tool_search=True, allowed_tools=["get_forecast"], max_rounds=3)
    choice = model.requests[0].body["tool_choice"]
    assert choice == {"type": "allowed_tools", "mode": "auto",
                      "tools": [{"type": "function", "name": "get_forecast"}, {"type": "tool_search"}]}
    assert [c.name for c in result.tool_calls] == ["get_forecast"]  # searched, loaded, called
    assert all(r.status == 200 for r in model.requests)


def test_allowed_tools_on_responses_lists_programmatic_tool_calling():
    llm, model = offline("responses")
    llm.run(FORECAST, tools=TOOLS, programmatic=True, allowed_tools=["get_forecast"])
    tools = model.requests[0].body["tool_choice"]["tools"]
    assert {"type": "programmatic_tool_calling"} in tools and {"type": "function", "name": "get_forecast"} in tools


@pytest.mark.parametrize("listed", [False, True])
def test_the_stand_in_runs_the_hosted_search_only_when_allowed_tools_lists_it(listed):
    """A request whose allowed_tools leaves the hosted search out cannot search; listed, it searches."""
    _, model = offline("responses")
    client = model.openai_client(max_retries=0)
    tools = [cd.apis.ResponsesApi.tool(t, t.name != "get_weather") for t in TOOLS] + [{"type": "tool_search"}]
    allowed = [{"type": "function", "name": "get_forecast"}] + ([{"type": "tool_search"}] if listed else [])
    response = client.responses.create(model="conductor-offline", input=FORECAST, tools=tools, store=False,
                                       tool_choice={"type": "allowed_tools", "mode": "auto", "tools": allowed})
    kinds = [item.type for item in response.output]
    if listed:
        assert kinds[:2] == list(SEARCH_ITEMS) and kinds[-1] == "function_call"
    else:
        assert not set(SEARCH_ITEMS) & set(kinds) and "function_call" not in kinds


# -- 14. a continued conversation keeps what the server added --------------------------------------


@pytest.mark.parametrize("api", ["responses", "messages"])
def test_a_hosted_search_continued_over_three_runs_goes_back_as_received(api):
    llm, model = offline(api)
    first = llm.run(LIST, tools=CALENDAR, tool_search=True, max_rounds=3)
    assert [c.name for c in first.tool_calls] == ["list_events"]
    searched = server_entries(first.messages)
    assert searched and "add_event" in json.dumps(searched)  # the search loaded add_event too, not called
    start = len(model.requests)
    second = llm.run(ADD, tools=CALENDAR, tool_search=True, history=first.messages, max_rounds=3)
    sent = model.requests[start].body
    assert server_entries(entries(sent)) == searched  # as received, ids and all
    assert any(t.get("name") == "add_event" and t.get("defer_loading") for t in sent["tools"])
    # add_event, still deferred, is loaded by the earlier run's search: called with no new search
    assert second.tool_calls[0].name == "add_event"
    assert server_entries(second.messages) == searched
    third = llm.run("And the weather in Paris now?", tools=CALENDAR, tool_search=True, history=second.messages)
    assert server_entries(entries(model.requests[-1].body))[: len(searched)] == searched
    assert third.tool_calls[0].name == "get_weather" and all(r.status == 200 for r in model.requests)


@pytest.mark.parametrize("api", ["responses", "messages"])
def test_a_continued_history_without_its_search_is_taken_as_the_real_api_takes_it(api):
    """Recorded traffic shows both APIs answering a history that calls a deferred tool its search items no longer
    load (tests/recorded_traffic.py): the stand-in answers both forms."""
    llm, model = offline(api)
    first = llm.run(LIST, tools=CALENDAR, tool_search=True, max_rounds=3)
    start = len(model.requests)
    llm.run(ADD, tools=CALENDAR, tool_search=True, history=first.messages, max_rounds=3)
    body = model.requests[start + 1].body  # after the call of add_event: its result goes back
    if api == "responses":
        stripped = {**body, "input": [i for i in body["input"] if i.get("type") not in SEARCH_ITEMS]}
        create = model.openai_client(max_retries=0).responses.create
    else:
        stripped = {**body, "messages": [
            {**m, "content": [b for b in m["content"] if b.get("type") not in SEARCH_BLOCKS]}
            if m["role"] == "assistant" and isinstance(m["content"], list) else m for m in body["messages"]]}
        create = model.anthropic_client(max_retries=0).messages.create
    assert create(**stripped) and create(**body)


RECORDED_SEARCH = [  # the hosted search of a recorded first run (gpt-5.4; trimmed to its fields)
    {"arguments": {"paths": ["get_exchange_rate"]}, "call_id": None, "execution": "server",
     "id": "tsc_0638f0bdb2b29dee006a5ef8695c90819ab439a5999c0a4214", "status": "completed", "type": "tool_search_call"},
    {"call_id": None, "execution": "server", "id": "tso_0638f0bdb2b29dee006a5ef8697e98819a84d00c05e9b6c650",
     "status": "completed", "type": "tool_search_output",
     "tools": [{"defer_loading": True, "description": "Look up an exchange rate.", "name": "get_exchange_rate",
                "parameters": {"additionalProperties": False, "properties": {"pair": {"type": "string"}},
                               "required": ["pair"], "type": "object"}, "strict": True, "type": "function"}]},
    {"content": [{"annotations": [], "logprobs": [], "text": "loaded", "type": "output_text"}],
     "id": "msg_0638f0bdb2b29dee006a5ef869cb90819a82b693dbd1723446", "phase": "final_answer", "role": "assistant",
     "status": "completed", "type": "message"},
]


@cd.tool
def get_exchange_rate(pair: str) -> str:
    """Look up an exchange rate."""
    return f"{pair}: 0.92"


def test_the_recorded_search_continuation_is_sent_as_the_real_api_accepted_it():
    server = RawServer("responses", [responses_response("USD/EUR is 0.92.")])
    llm = cd.connect(server.client(), model="gpt-5.4", api="responses")
    history = [{"role": "user", "content": 'Use hosted tool search to load get_exchange_rate. Reply only "loaded".'},
               *copy.deepcopy(RECORDED_SEARCH)]
    llm.run('Call get_exchange_rate with pair="USD/EUR".', tools=[get_exchange_rate], tool_search=True,
            history=history)
    sent = server.bodies[0]["input"]
    assert sent[1:3] == RECORDED_SEARCH[:2]  # unchanged, ids and nulls included, as recorded and accepted
    assert sent[3] == {"role": "assistant", "content": "loaded"}


@pytest.mark.parametrize("api", ["responses", "messages"])
@pytest.mark.parametrize("server_context", [True, False])
def test_a_compaction_goes_back_as_received_on_the_next_run(api, server_context):
    llm, model = offline(api)
    # Messages compacts from 50,000 tokens at the least: long station logs get there
    report, limit = (get_report, 1200) if api == "responses" else (get_station_log, 50_000)
    context = {"context": "server", "context_limit": limit}
    first = llm.run(REPORTS, tools=[report], parallel_tool_calls=False, max_rounds=6, **context)
    compactions = server_entries(first.messages)
    assert compactions and all(c["type"] == "compaction" for c in compactions)
    start = len(model.requests)
    again = llm.run("Which city was it about?", tools=[report], history=first.messages,
                    **(context if server_context else {}))
    assert server_entries(entries(model.requests[start].body)) == compactions
    assert model.requests[start].status == 200 and again.answer


def test_a_messages_compaction_in_history_goes_through_the_beta_client_without_context_management():
    """A compaction block needs the compaction beta, as the request that made it did."""
    llm, _ = offline("messages")
    first = llm.run(REPORTS, tools=[get_station_log], parallel_tool_calls=False, max_rounds=6, context="server",
                    context_limit=50_000)
    seen = []
    original = llm.client.beta.messages.create

    def spy(**kwargs: Any) -> Any:
        seen.append(kwargs)
        return original(**kwargs)

    llm.client.beta.messages.create = spy
    llm.run("Which city was it about?", tools=[get_station_log], history=first.messages)
    assert seen and all(k["betas"] == ["compact-2026-01-12"] and "context_management" not in k for k in seen)


@pytest.mark.parametrize("history_api", ["responses", "messages"])
def test_server_items_of_another_api_stay_out_and_the_run_goes_on(history_api):
    first_llm, _ = offline(history_api)
    first = first_llm.run(LIST, tools=CALENDAR, tool_search=True, max_rounds=3)
    for api in ("responses", "chat", "messages"):
        if api == history_api:
            continue
        llm, model = offline(api)
        llm.run(ADD, tools=CALENDAR, history=first.messages)
        assert not server_entries(entries(model.requests[0].body))
        assert all(r.status == 200 for r in model.requests)


def test_a_fallback_to_another_model_of_the_same_api_keeps_the_search_items():
    """Reasoning goes back only to the model that made it; the server's items go to any model of its API."""
    llm, model = offline("responses", reasoning=True)
    first = llm.run(LIST, tools=CALENDAR, tool_search=True, max_rounds=3)
    searched = server_entries(first.messages)
    other = cd.connect("offline", api="responses", offline_model=model, model="conductor-offline-reasoning-2")
    start = len(model.requests)
    second = other.run(ADD, tools=CALENDAR, tool_search=True, history=first.conversation, max_rounds=3)
    sent = entries(model.requests[start].body)
    assert server_entries(sent) == searched
    assert not any(i.get("type") == "reasoning" for i in sent[: len(first.messages)])
    assert second.tool_calls[0].name == "add_event" and all(r.status == 200 for r in model.requests)


# -- 15a. Anthropic's thinking tokens --------------------------------------------------------------


def test_messages_reads_thinking_tokens_into_reasoning_tokens():
    body = anthropic_response("5°C.", usage={"input_tokens": 100, "output_tokens": 80,
                                             "output_tokens_details": {"thinking_tokens": 60}})
    llm = cd.connect(RawServer("messages", [body]).client(), model="claude-haiku-4-5")
    assert llm.run("Weather?").usage.reasoning_tokens == 60


@pytest.mark.parametrize("driver", ["run", "stream"])
def test_the_stand_ins_thinking_answers_report_their_thinking_tokens(driver):
    llm, _ = offline("messages", reasoning=True)
    if driver == "stream":
        events = list(llm.stream(FORECAST, tools=TOOLS))
        result = events[-1].result
    else:
        result = llm.run(FORECAST, tools=TOOLS)
    calls = result.trace.model_calls
    assert len(calls) == 2 and all(0 < c.usage.reasoning_tokens < c.usage.output_tokens for c in calls)
    turn = next(m for m in result.conversation if isinstance(m, Turn))
    assert turn.raw.usage.output_tokens_details.thinking_tokens == turn.usage.reasoning_tokens


# -- 15d. OpenAI-compatible servers ------------------------------------------------------------------


@cd.tool
def get_weather(city: str) -> str:
    """Current weather in a city."""
    return f"{city}: 6°C"


@cd.tool
def get_time(city: str) -> str:
    """Local time in a city."""
    return f"{city}: 14:00"


def _openai_client(server: RawServer, base_url: str) -> openai.OpenAI:
    import httpx2

    return openai.OpenAI(api_key="k", base_url=base_url, max_retries=0,
                         http_client=httpx2.Client(transport=httpx2.MockTransport(server._handle)))


def _reply(api: str) -> dict[str, Any]:
    return openai_response("Fine.") if api == "chat" else responses_response("Fine.")


@pytest.mark.parametrize("api", ["chat", "responses"])
@pytest.mark.parametrize(("base_url", "model", "openais_own"), [
    ("http://localhost:11434/v1", "llama3.2", False),  # a compatible server (Ollama)
    ("https://api.openai.com/v1", "gpt-5.4-mini", True),
])
def test_only_openais_own_server_gets_prompt_cache_key_and_allowed_tools(api, base_url, model, openais_own):
    server = RawServer(api, [_reply(api)])
    llm = cd.connect(_openai_client(server, base_url), model=model, api=api)
    llm.run("Weather in Paris?", tools=[get_weather, get_time], allowed_tools=["get_weather"])
    body = server.bodies[0]
    names = [t.get("name") or t["function"]["name"] for t in body["tools"]]
    if openais_own:
        assert body["prompt_cache_key"].startswith("conductor-")
        assert body["tool_choice"]["type"] == "allowed_tools" and names == ["get_weather", "get_time"]
    else:  # compatible servers reject both: no key, and only the allowed tools sent
        assert "prompt_cache_key" not in body and "tool_choice" not in body
        assert names == ["get_weather"]


def test_connect_with_a_base_url_builds_a_compatible_adapter(monkeypatch):
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    local = cd.connect("openai", base_url="http://localhost:8000/v1", model="m")
    assert local.adapter.openai_fields is False
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    assert cd.connect("openai").adapter.openai_fields is True
    assert cd.connect("offline", api="chat").adapter.openai_fields is True


def test_a_compatible_servers_caller_key_still_goes():
    server = RawServer("chat", [_reply("chat")])
    llm = cd.connect(_openai_client(server, "http://localhost:11434/v1"), model="llama3.2", api="chat")
    llm.run("Hi", prompt_cache_key="mine")
    assert server.bodies[0]["prompt_cache_key"] == "mine"


def test_json_round_trip_keeps_history_turns_server_items():
    llm, _ = offline("responses")
    first = llm.run(LIST, tools=CALENDAR, tool_search=True, max_rounds=3)
    second = llm.run(ADD, tools=CALENDAR, tool_search=True, history=first.messages, max_rounds=3)
    again = cd.RunResult.from_json(second.to_json())
    assert server_entries(again.messages) == server_entries(second.messages)
    assert json.loads(json.dumps(again.messages)) == again.messages
