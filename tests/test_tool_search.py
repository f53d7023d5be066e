"""Tool search: deferred tools, the hosted search of Responses and Messages, conductor's client search,
and the offline stand-in searching and refusing as the real APIs do."""

from __future__ import annotations

import json
import logging
from typing import Any

import anthropic
import openai
import pytest

import conductor as cd
from conductor.course import scale
from conductor.search import SEARCH_TOOL, ToolIndex, prepare, search_words
from conductor.tools import ToolRegistry
from scripted import RawServer, raw_response
from wire import APIS

HOSTED = {"responses": {"type": "tool_search"},
          "messages": {"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"}}


@cd.tool
def get_weather(city: str) -> dict:
    """Current conditions in a city right now: temperature and sky.

    Args:
        city: the city
    """
    return {"temperature_c": {"Paris": 6, "Lisbon": 16}.get(city, 10), "conditions": "cloudy"}


@cd.tool
def get_forecast(city: str, days: int = 3) -> dict:
    """Daily forecast for the coming days in a city: high and low per day.

    Args:
        city: the city
        days: how many days ahead
    """
    return {"days": [{"high_c": 10 + i, "low_c": 2 + i} for i in range(days)]}


@cd.tool
def convert_currency(amount: float, from_currency: str, to_currency: str) -> dict:
    """Convert an amount of money from one currency to another.

    Args:
        amount: the amount to convert
        from_currency: the ISO code of the amount's currency
        to_currency: the ISO code to convert to
    """
    return {"converted": round(amount * 0.93, 2)}


@cd.tool
def list_events(date: str) -> dict:
    """The calendar's events on a date.

    Args:
        date: the date, YYYY-MM-DD
    """
    return {"events": [{"title": "Review", "start": "14:00"}]}


TOOLS = [get_weather, get_forecast, convert_currency, list_events]
FORECAST = "What's the forecast for Lisbon for the next 3 days?"


def offline(api: str) -> cd.LLM:
    return cd.connect("offline", api=api, latency_scale=0)


def tool_dicts(body: dict[str, Any]) -> list[dict[str, Any]]:
    return body.get("tools") or []


def sent_names(body: dict[str, Any]) -> list[str]:
    return [t["function"]["name"] if "function" in t else t.get("name") or t["type"] for t in tool_dicts(body)]


def deferred_names(body: dict[str, Any]) -> list[str]:
    return [t["name"] for t in tool_dicts(body) if t.get("defer_loading")]


# -- the ranking --------------------------------------------------------------------------------


def test_the_index_ranks_a_name_above_a_description_and_stems_words():
    index = ToolIndex(TOOLS)
    assert index.search("forecasts") == ["get_forecast"]  # "forecast", stemmed
    assert index.search("weather")[0] == "get_weather"  # in the name (and in no description)
    assert index.search("currency") == ["convert_currency"]
    assert index.search("days")[0] == "get_forecast"  # a parameter name
    assert index.search("") == [] and index.search("zebra") == []
    assert len(index.search("city", limit=1)) == 1


def test_a_match_that_shares_only_a_common_word_is_not_loaded():
    from conductor.course.toolbox import TOOLS as CATALOGUE

    index = ToolIndex(CATALOGUE)
    question = "hot sydney right now"  # "now" is in the descriptions of many tools that do not tell the weather
    assert index.search(question) == ["get_weather"]
    assert len(index.search(question, relevance=0)) == 5  # without the cut: the top 5
    # Two close matches both load: the search cannot tell which of them the question needs.
    assert set(index.search("flights london paris")) == {"search_flights", "get_flight_status"}


def test_a_client_search_result_names_what_it_loaded_once():
    llm = offline("chat")
    result = llm.run(FORECAST, tools=TOOLS, tool_search=True, max_rounds=3)
    found = json.loads(next(m["content"] for m in result.messages if m.get("role") == "tool"))
    assert found["loaded"] == ["get_forecast"]  # names only: the definitions are among the tools sent
    assert sent_names(llm.offline.requests[1].body) == [SEARCH_TOOL, "get_forecast"]


@pytest.mark.parametrize(("api", "loaded"), [("responses", 1), ("messages", 5)])
def test_the_hosted_search_loads_as_each_provider_does(api, loaded):
    # OpenAI's model names the paths it loads, having read each deferred function's name and description (one
    # tool in recorded traffic); Anthropic's BM25 search returns its top matches, 5 by default.
    from conductor.course.toolbox import TOOLS as CATALOGUE
    from conductor.search import searches

    result = offline(api).run("How hot is it in Sydney right now?", tools=CATALOGUE, tool_search=True, max_rounds=3)
    (search,) = searches(result)
    assert search.loaded[0] == "get_weather" and len(search.loaded) == loaded


def test_a_response_that_searched_bills_its_prompt_twice():
    # Recorded on Responses: 600 input tokens for the response that searched, 496 for the longer request after
    # it. The model reads the prompt, searches, and reads it again with what it loaded; on a cold cache the
    # second pass reads the first pass's prompt from OpenAI's automatic cache when it is 1,024 tokens or more.
    from conductor.course.toolbox import TOOLS as CATALOGUE

    llm = offline("responses")
    result = llm.run("How hot is it in Sydney right now?", tools=CATALOGUE, tool_search=True, max_rounds=3)
    searched, after = (call.usage for call in result.trace.model_calls[:2])
    assert searched.input_tokens > after.input_tokens
    assert searched.cache_read_tokens >= 1024 and searched.cache_read_tokens % 128 == 0


def test_search_words_split_names_as_people_read_them():
    assert search_words("getWeather get_forecast list-events") == ["get", "weather", "get", "forecast", "list", "events"]


# -- what each API is sent ----------------------------------------------------------------------


@pytest.mark.parametrize("api", ["responses", "messages"])
def test_the_hosted_search_goes_beside_every_tool_sent_deferred(api):
    llm = offline(api)
    result = llm.run(FORECAST, tools=TOOLS, tool_search=True)
    body = llm.offline.requests[0].body
    assert tool_dicts(body)[-1] == HOSTED[api]
    assert deferred_names(body) == [t.name for t in TOOLS]
    assert [c.name for c in result.tool_calls] == ["get_forecast"]
    # every request sends the same tools: the prefix the provider caches holds
    assert all(tool_dicts(r.body) == tool_dicts(body) for r in llm.offline.requests)


def test_chat_gets_conductors_search_and_the_tools_it_finds_are_appended_after_those_sent():
    llm = offline("chat")
    result = llm.run(FORECAST, tools=TOOLS, tool_search=True, max_rounds=3)
    first, second = (r.body for r in llm.offline.requests[:2])
    assert sent_names(first) == [SEARCH_TOOL] and not deferred_names(first)
    assert tool_dicts(second)[: len(tool_dicts(first))] == tool_dicts(first)  # appended after: the prefix holds
    assert "get_forecast" in sent_names(second)
    assert [c.name for c in result.tool_calls] == [SEARCH_TOOL, "get_forecast"]
    assert result.tool_calls[1].arguments == {"city": "Lisbon", "days": 3}
    assert all(tool_dicts(r.body)[: len(tool_dicts(second))] == tool_dicts(second) for r in llm.offline.requests[1:])


@pytest.mark.parametrize("api", APIS)
def test_client_search_works_on_every_api(api):
    llm = offline(api)
    result = llm.run(FORECAST, tools=TOOLS, tool_search="client", max_rounds=3)
    assert [c.name for c in result.tool_calls] == [SEARCH_TOOL, "get_forecast"]
    assert not any(deferred_names(r.body) for r in llm.offline.requests)
    assert "Lisbon" in result.answer or "10" in result.answer


@pytest.mark.parametrize("api", APIS)
def test_a_tool_marked_defer_loading_false_stays_loaded(api):
    always = cd.tool(get_weather, defer_loading=False)
    llm = offline(api)
    llm.run(FORECAST, tools=[always, get_forecast, convert_currency], tool_search=True, max_rounds=3)
    body = llm.offline.requests[0].body
    assert "get_weather" not in deferred_names(body)
    assert "get_weather" in sent_names(body)
    if api == "chat":
        assert sent_names(body) == ["get_weather", SEARCH_TOOL]


@pytest.mark.parametrize("api", APIS)
def test_a_tool_marked_defer_loading_true_turns_the_search_on_by_itself(api):
    llm = offline(api)
    result = llm.run("Convert 250 USD to EUR", tools=[get_weather, cd.tool(convert_currency, defer_loading=True)],
                     max_rounds=3)
    body = llm.offline.requests[0].body
    if api == "chat":
        assert sent_names(body) == ["get_weather", SEARCH_TOOL]
    else:
        assert deferred_names(body) == ["convert_currency"] and tool_dicts(body)[-1] == HOSTED[api]
    assert result.tool_calls[-1].name == "convert_currency"


@pytest.mark.parametrize("api", APIS)
def test_tool_search_false_sends_every_tool_loaded(api):
    llm = offline(api)
    llm.run("Convert 250 USD to EUR", tools=[cd.tool(convert_currency, defer_loading=True)], tool_search=False)
    body = llm.offline.requests[0].body
    assert sent_names(body) == ["convert_currency"] and not deferred_names(body)


def test_cd_tool_applies_defer_loading_to_a_copy():
    deferred = cd.tool(get_weather, defer_loading=True)
    assert deferred.defer_loading is True and get_weather.defer_loading is None
    with pytest.raises(TypeError, match="defer_loading= takes True, False or None"):
        cd.tool(get_weather, defer_loading="yes")


def test_an_mcp_servers_tools_can_all_be_deferred():
    from conductor.course.catalogue_server import build_server

    with cd.mcp_server(build_server()) as server:
        tools = server.tools(defer_loading=True)
    assert tools and all(t.defer_loading is True for t in tools)


# -- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize("api", APIS)
def test_an_unknown_tool_search_value_names_the_choices(api):
    with pytest.raises(ValueError, match=r"tool_search= takes True .* 'client' .* False"):
        offline(api).run(FORECAST, tools=TOOLS, tool_search="hosted")


@pytest.mark.parametrize("api", APIS)
def test_nothing_to_defer_logs_one_line_and_sends_no_search_tool(api, caplog):
    loaded = [cd.tool(t, defer_loading=False) for t in TOOLS]
    llm = offline(api)
    with caplog.at_level(logging.INFO, logger="conductor.search"):
        llm.run(FORECAST, tools=loaded, tool_search=True)
    assert len([r for r in caplog.records if r.name == "conductor.search"]) == 1
    assert "no tool is deferred" in caplog.text
    body = llm.offline.requests[0].body
    assert sent_names(body) == [t.name for t in TOOLS] and not deferred_names(body)


def test_a_model_without_the_hosted_search_gets_the_client_search_said_in_one_line(caplog):
    llm = cd.connect("offline", api="responses", model="gpt-4.1-mini", latency_scale=0)
    with caplog.at_level(logging.INFO, logger="conductor.search"):
        result = llm.run(FORECAST, tools=TOOLS, tool_search=True, max_rounds=3)
    assert [r.levelname for r in caplog.records if r.name == "conductor.search"] == ["INFO"]
    assert "gpt-4.1-mini" in caplog.text and "no hosted tool search" in caplog.text
    assert sent_names(llm.offline.requests[0].body) == [SEARCH_TOOL]
    assert [c.name for c in result.tool_calls] == [SEARCH_TOOL, "get_forecast"]


def test_a_tool_named_like_the_search_tool_is_refused_with_the_fix():
    @cd.tool
    def search_tools(query: str) -> str:
        """Search."""
        return query

    with pytest.raises(ValueError, match="rename it"):
        prepare(True, ToolRegistry([search_tools, get_weather]), "chat", "gpt-4.1-mini")


def test_an_allowlist_keeps_the_search_tool_usable():
    llm = offline("chat")
    result = llm.run(FORECAST, tools=TOOLS, tool_search=True, allowed_tools=["get_forecast"], max_rounds=3)
    assert [(c.name, c.blocked) for c in result.tool_calls] == [(SEARCH_TOOL, None), ("get_forecast", None)]


def test_a_call_to_a_deferred_tool_the_client_search_has_not_loaded_is_an_error_for_the_model():
    """A model that guesses a hidden tool's name: the call is not run, and the model is told which tools it has."""
    server = RawServer("chat", [raw_response("chat", calls=[("call_1", "get_forecast", {"city": "Lisbon"})]),
                                raw_response("chat", "I cannot tell.")])
    llm = cd.connect(server.client(), model="gpt-4.1-mini", api="chat")
    result = llm.run(FORECAST, tools=TOOLS, tool_search=True, max_rounds=1)
    call = result.tool_calls[0]
    assert call.name == "get_forecast" and call.is_error and "unknown tool 'get_forecast'" in call.output
    assert SEARCH_TOOL in call.output  # the tools it has: the search among them


# -- the stand-in's hosted search: real items and blocks, validated by the SDKs -------------------


def test_the_responses_search_items_validate_and_go_back_as_received():
    llm = offline("responses")
    result = llm.run(FORECAST, tools=TOOLS, tool_search=True)
    first = llm.offline.requests[0]
    assert first.status == 200
    items = [m for m in result.messages if isinstance(m, dict) and m.get("type", "").startswith("tool_search")]
    call, output = items
    assert call["type"] == "tool_search_call" and call["execution"] == "server"
    assert call["arguments"]["paths"][0] == "get_forecast"
    assert output["type"] == "tool_search_output" and output["tools"][0]["name"] == "get_forecast"
    assert output["tools"][0]["defer_loading"] is True
    replayed = llm.offline.requests[1].body["input"]
    assert [i for i in replayed if i.get("type", "").startswith("tool_search")] == items


def test_the_messages_search_blocks_validate_and_go_back_as_received():
    llm = offline("messages")
    result = llm.run(FORECAST, tools=TOOLS, tool_search=True)
    turn = result.messages[1]
    kinds = [b["type"] for b in turn["content"]]
    assert kinds[:2] == ["server_tool_use", "tool_search_tool_result"] and kinds[-1] == "tool_use"
    use, found = turn["content"][:2]
    assert use["name"] == "tool_search_tool_bm25" and use["input"] == {"query": "forecast lisbon next 3 days", "limit": 5}
    assert use["id"].startswith("srvtoolu_01") and found["tool_use_id"] == use["id"]
    assert found["content"]["tool_references"][0] == {"type": "tool_reference", "tool_name": "get_forecast"}
    assert llm.offline.requests[1].body["messages"][1] == turn  # sent back as received


@pytest.mark.parametrize("api", ["responses", "messages"])
def test_the_search_responses_are_valid_sdk_models(api):
    llm = offline(api)
    llm.run(FORECAST, tools=TOOLS, tool_search=True)
    client = llm.offline.openai_client() if api == "responses" else llm.offline.anthropic_client()
    body = llm.offline.requests[0].body
    if api == "responses":
        raw = client.responses.with_raw_response.create(**body).http_response.json()
        openai.types.responses.Response.model_validate(raw)
    else:
        raw = client.messages.with_raw_response.create(**body).http_response.json()
        anthropic.types.Message.model_validate(raw)


@pytest.mark.parametrize("api", APIS)
def test_a_streamed_run_searches_the_same_way(api):
    llm = offline(api)
    events = list(llm.stream(FORECAST, tools=TOOLS, tool_search=True, max_rounds=3))
    result = events[-1].result
    assert [c.name for c in result.tool_calls if c.name != SEARCH_TOOL] == ["get_forecast"]
    assert result.answer == offline(api).run(FORECAST, tools=TOOLS, tool_search=True, max_rounds=3).answer


@pytest.mark.parametrize("api", ["responses", "messages"])
def test_the_search_costs_fewer_input_tokens_than_every_definition(api):
    from conductor.course import toolbox

    question = "Convert 250 USD to EUR"
    naive = offline(api).run(question, tools=toolbox.TOOLS)
    searched = offline(api).run(question, tools=toolbox.TOOLS, tool_search=True)
    assert searched.answer == naive.answer
    # What is billed at the full input price: a search response reads its prompt twice (the second time from the
    # cache), with the search tool's own instructions each time, and on Responses every deferred name and
    # description stays in the prompt; over a two-request run of 40 tools the search still costs less.
    def uncached(result):
        return result.usage.input_tokens - result.usage.cache_read_tokens

    assert uncached(searched) < uncached(naive) and searched.cost < naive.cost
    if api == "messages":  # nothing deferred is in the prompt there: the totals fall by more than half
        assert searched.usage.input_tokens < naive.usage.input_tokens / 2


# -- the stand-in refuses what the real APIs refuse -----------------------------------------------


def raw(api: str, body: dict[str, Any]) -> Exception:
    model = cd.OfflineModel(latency=None)
    client = model.openai_client(max_retries=0) if api == "responses" else model.anthropic_client(max_retries=0)
    create = client.responses.create if api == "responses" else client.messages.create
    with pytest.raises((openai.BadRequestError, anthropic.BadRequestError)) as caught:
        create(**body)
    return caught.value


FORECAST_RESPONSES = {"type": "function", "name": "get_forecast", "description": "Forecast.", "strict": False,
                      "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}
FORECAST_MESSAGES = {"name": "get_forecast", "description": "Forecast.",
                     "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}}


def test_a_deferred_tool_with_no_search_tool_never_reaches_the_model_on_messages():
    """Messages takes deferred tools beside an undeferred one with no search tool; nothing can load them, so the
    model answers without them (the stand-in once called them, and refused the request after)."""
    client = cd.OfflineModel(latency=None).anthropic_client(max_retries=0)
    weather = {"name": "get_weather", "description": "Current weather in a city.",
               "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}
    tools = [{**FORECAST_MESSAGES, "defer_loading": True}, weather]
    response = client.messages.create(model="claude-haiku-4-5", max_tokens=300, tools=tools,
                                      messages=[{"role": "user", "content": FORECAST}])
    assert [b.name for b in response.content if b.type == "tool_use"] in ([], ["get_weather"])
    asked = client.messages.create(model="claude-haiku-4-5", max_tokens=300, tools=[{**weather, "defer_loading": True},
                                   FORECAST_MESSAGES], messages=[{"role": "user", "content": "Weather in Oslo?"}])
    assert "get_weather" not in [b.name for b in asked.content if b.type == "tool_use"]


def test_responses_refuses_deferred_tools_without_the_search_tool():
    error = raw("responses", {"model": "gpt-5.4", "input": "Forecast?",
                              "tools": [{**FORECAST_RESPONSES, "defer_loading": True}]})
    assert "Invalid Value: 'tools.defer_loading'. Deferred tools require tools.tool_search." in str(error)


def test_responses_refuses_the_search_tool_with_nothing_deferred():
    error = raw("responses", {"model": "gpt-5.4", "input": "Forecast?", "tools": [FORECAST_RESPONSES, HOSTED["responses"]]})
    assert "tools.tool_search requires at least one deferred tool" in str(error)


def test_messages_refuses_every_tool_deferred():
    error = raw("messages", {"model": "claude-haiku-4-5", "max_tokens": 100,
                             "messages": [{"role": "user", "content": "Forecast?"}],
                             "tools": [{**FORECAST_MESSAGES, "defer_loading": True}]})
    assert "At least one tool must have defer_loading=false. All tools cannot be deferred." in str(error)


def test_messages_refuses_a_reference_to_a_tool_it_was_not_given():
    blocks = [{"type": "server_tool_use", "id": "srvtoolu_01A", "name": "tool_search_tool_bm25",
               "input": {"query": "forecast"}},
              {"type": "tool_search_tool_result", "tool_use_id": "srvtoolu_01A",
               "content": {"type": "tool_search_tool_search_result",
                           "tool_references": [{"type": "tool_reference", "tool_name": "get_tides"}]}}]
    error = raw("messages", {"model": "claude-haiku-4-5", "max_tokens": 100,
                             "messages": [{"role": "user", "content": "Forecast?"}, {"role": "assistant", "content": blocks},
                                          {"role": "user", "content": "Go on"}],
                             "tools": [{**FORECAST_MESSAGES, "defer_loading": True}, HOSTED["messages"]]})
    assert "Tool reference 'get_tides' not found in available tools" in str(error)


@pytest.mark.parametrize("api", ["responses", "messages"])
def test_a_history_that_dropped_the_search_is_taken_as_the_real_apis_take_it(api):
    """A history that kept the call but dropped the search that loaded it: recorded traffic shows both APIs
    answering it (tests/recorded_traffic.py), so the stand-in answers it too. Dropping the search tool
    itself while tools stay deferred is the 400."""
    llm = offline(api)
    llm.run(FORECAST, tools=TOOLS, tool_search=True)
    body = llm.offline.requests[1].body  # the request after the call: its history holds the search, then the call
    client = llm.offline.openai_client(max_retries=0) if api == "responses" else llm.offline.anthropic_client(max_retries=0)
    create = client.responses.create if api == "responses" else client.messages.create
    assert create(**scale.without_search(api, body))
    with pytest.raises((openai.BadRequestError, anthropic.BadRequestError),
                       match="Deferred tools require tools.tool_search|All tools cannot be deferred"):
        create(**scale.without_search_tool(api, body))


def test_json_of_a_search_turn_round_trips():
    result = offline("messages").run(FORECAST, tools=TOOLS, tool_search=True)
    again = cd.RunResult.from_json(result.to_json())
    assert again.messages == json.loads(json.dumps(result.messages))


@pytest.mark.parametrize("api", APIS)
def test_a_conversation_continued_with_history_keeps_the_tools_it_called_loaded(api):
    llm = offline(api)
    first = llm.run(FORECAST, tools=TOOLS, tool_search=True, max_rounds=3)
    again = llm.run("And for Paris for the next 2 days?", tools=TOOLS, tool_search=True, history=first.messages,
                    max_rounds=3)
    body = llm.offline.requests[-1].body
    assert "get_forecast" in sent_names(body) and "get_forecast" not in deferred_names(body)
    assert again.tool_calls[-1].name == "get_forecast"
    assert again.tool_calls[-1].arguments == {"city": "Paris", "days": 2}


@pytest.mark.parametrize("api", APIS)
def test_a_forced_tool_use_with_every_tool_deferred_searches_then_calls(api):
    llm = offline(api)
    result = llm.run(FORECAST, tools=TOOLS, tool_search=True, tool_choice="required", max_rounds=3)
    assert "get_forecast" in [c.name for c in result.tool_calls]
    assert all(r.status == 200 for r in llm.offline.requests)


def test_a_run_paused_with_the_client_search_resumes_from_json_with_its_search_made_anew():
    from conductor.course import toolbox

    llm = offline("chat")
    question = 'Send an e-mail to ana@team.example with subject "Hi" and body "See you at 14:00"'
    paused = llm.run(question, tools=toolbox.TOOLS, tool_search=True, max_rounds=3)
    assert paused.stopped_by == "approval" and [p.name for p in paused.pending] == ["send_mail"]
    loaded = cd.RunResult.from_json(paused.to_json())  # as another process reads it: no live tools
    loaded.approve(loaded.pending[0].id)
    done = llm.resume(loaded, tools=toolbox.TOOLS)  # the catalogue again: what was not loaded stays searchable
    sent = [c for c in done.tool_calls if c.name == "send_mail"]
    assert sent and not sent[0].is_error and sent[0].blocked is None
    body = llm.offline.requests[-1].body
    assert sent_names(body)[: len(sent_names(llm.offline.requests[1].body))] == sent_names(llm.offline.requests[1].body)


def test_a_run_resumed_in_the_same_process_searches_into_its_own_tools():
    from conductor.course import toolbox

    llm = offline("chat")
    question = 'Send an e-mail to ana@team.example with subject "Hi" and body "See you at 14:00"'
    paused = llm.run(question, tools=toolbox.TOOLS, tool_search=True, max_rounds=3)
    assert paused.stopped_by == "approval"
    resumed = paused._paused_run().registry()  # the tools llm.resume(paused) continues with
    assert "get_forecast" not in resumed
    answer = resumed.get(SEARCH_TOOL)(query="weather forecast for a city")
    assert "get_forecast" in answer["loaded"]
    assert "get_forecast" in resumed  # the next request offers what the search loaded
    assert "get_forecast" not in paused._paused_run().live_tools  # and the run before the pause is left as it was


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("mode", [True, "client"])
def test_a_runs_searches_are_read_back_from_its_messages(api, mode):
    from conductor.search import searches

    result = offline(api).run(FORECAST, tools=TOOLS, tool_search=mode, max_rounds=3)
    (search,) = searches(result)
    assert search.loaded[0] == "get_forecast"
    assert search.where == ("client" if mode == "client" or api == "chat" else "hosted")
    if api != "responses" or search.where == "client":  # OpenAI's hosted search names paths, not a query
        assert search.query == "forecast lisbon next 3 days"


@pytest.mark.parametrize("api", APIS)
def test_a_tool_forced_with_tool_choice_stays_loaded(api):
    llm = offline(api)
    result = llm.run(FORECAST, tools=TOOLS, tool_search=True, tool_choice={"type": "tool", "name": "get_forecast"})
    body = llm.offline.requests[0].body
    assert "get_forecast" in sent_names(body) and "get_forecast" not in deferred_names(body)
    assert result.tool_calls[0].name == "get_forecast"


def test_a_search_chained_with_server_state_is_remembered_by_the_server():
    llm = offline("responses")
    result = llm.run(FORECAST, tools=TOOLS, tool_search=True, server_state=True, max_rounds=3)
    second = llm.offline.requests[1].body
    assert second["previous_response_id"] and not any(i.get("type", "").startswith("tool_search") for i in second["input"])
    assert [c.name for c in result.tool_calls] == ["get_forecast"]
    assert all(r.status == 200 for r in llm.offline.requests)  # the stored search loaded the tool for the call
