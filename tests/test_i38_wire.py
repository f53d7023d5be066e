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
from test_context_limit import QUESTION as REPORTS, get_report
from test_tool_search import FORECAST, TOOLS
from wire import entries

SEARCH_ITEMS = ("tool_search_call", "tool_search_output")
SEARCH_BLOCKS = ("server_tool_use", "tool_search_tool_result")
# Loads both weather tools with one search and calls only get_weather: get_forecast stays deferred, loaded
# by that search alone.
BOTH = "What's the weather now and the forecast for the next days in Lisbon?"


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
def test_a_compatible_server_gets_no_prompt_cache_key_and_only_the_allowed_tools(api):
    server = RawServer(api, [_reply(api)])
    llm = cd.connect(_openai_client(server, "http://localhost:11434/v1"), model="llama3.2", api=api)
    llm.run("Weather in Paris?", tools=[get_weather, get_time], allowed_tools=["get_weather"])
    body = server.bodies[0]
    assert "prompt_cache_key" not in body and "tool_choice" not in body
    names = [t.get("name") or t["function"]["name"] for t in body["tools"]]
    assert names == ["get_weather"]


@pytest.mark.parametrize("api", ["chat", "responses"])
def test_openais_own_server_gets_prompt_cache_key_and_allowed_tools(api):
    server = RawServer(api, [_reply(api)])
    llm = cd.connect(_openai_client(server, "https://api.openai.com/v1"), model="gpt-5.4-mini", api=api)
    llm.run("Weather in Paris?", tools=[get_weather, get_time], allowed_tools=["get_weather"])
    body = server.bodies[0]
    assert body["prompt_cache_key"].startswith("conductor-")
    assert body["tool_choice"]["type"] == "allowed_tools" and len(body["tools"]) == 2


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
