"""Lesson 06's catalogue: 62 tools in six domains, served as MCP servers, and tool search finding the right one."""

from __future__ import annotations

import sys

import pytest

import conductor as cd
from conductor.course import toolbox
from conductor.search import SEARCH_TOOL
from wire import APIS


def test_the_catalogue_has_sixty_tools_or_more_in_five_domains_or_more():
    assert len(toolbox.TOOLS) >= 60 and len(toolbox.DOMAINS) >= 5
    assert len({t.name for t in toolbox.TOOLS}) == len(toolbox.TOOLS)
    assert all(len(tools) >= 10 for tools in toolbox.DOMAINS.values())
    names = {t.name for t in toolbox.TOOLS}
    for pair in (("get_weather", "get_forecast"), ("search_mail", "search_messages"),
                 ("convert_currency", "get_exchange_rate")):
        assert set(pair) <= names
    assert all(t.description for t in toolbox.TOOLS)


def test_the_tools_answer_from_their_tables():
    assert toolbox.get_weather.func("lisbon")["temperature_c"] == toolbox.CITIES["Lisbon"]["temp"]
    assert [d["high_c"] for d in toolbox.get_forecast.func("Tokyo", 2)["days"]] == [12, 11]
    assert toolbox.convert_currency.func(108, "USD", "EUR")["converted"] == 100.0
    assert toolbox.get_account_balance.func()["balance_eur"] == round(
        toolbox.OPENING_BALANCE + sum(t["amount"] for t in toolbox.TRANSACTIONS), 2)
    assert [e["id"] for e in toolbox.list_events.func("2026-12-03")["events"]] == ["e6", "e3"]
    assert toolbox.find_free_slots.func("2026-12-03", 60)["free"] == ["09:00-10:00", "12:00-14:00", "15:30-18:00"]
    assert toolbox.search_mail.func("invoice")["emails"][0]["id"] == "m101"
    assert toolbox.search_messages.func("deploy")["messages"][0]["channel"] == "deploys"


def test_a_bad_argument_is_an_error_that_names_the_choices():
    with pytest.raises(ValueError, match="the cities are: Lisbon"):
        toolbox.get_weather.func("Atlantis")
    with pytest.raises(ValueError, match="YYYY-MM-DD"):
        toolbox.list_events.func("next Tuesday")


def test_each_domain_is_an_mcp_server_listing_its_tools_as_they_describe_themselves():
    with toolbox.connected() as tools:
        served = {t.name: t for t in tools}
        assert list(served) == [t.name for t in toolbox.TOOLS]
        for original in toolbox.TOOLS:
            assert served[original.name].description == original.description
            assert served[original.name].parameters == original.parameters
        assert served["convert_currency"].invoke({"amount": 108, "from_currency": "USD", "to_currency": "EUR"}) \
            == {"amount": 108, "from": "USD", "converted": 100.0, "to": "EUR"}


def test_an_unknown_domain_names_the_domains():
    with pytest.raises(ValueError, match="the domains are: weather, mail"):
        toolbox.tools_of("sports")


def test_one_domain_is_served_over_stdio():
    with cd.mcp_server(sys.executable, "-m", "conductor.course.toolbox", "weather") as server:
        tools = server.tools(defer_loading=True)
    assert [t.name for t in tools] == [t.name for t in toolbox.DOMAINS["weather"]]
    assert all(t.defer_loading for t in tools)


@pytest.mark.parametrize("api", APIS)
def test_tool_search_picks_the_right_tool_for_every_lesson_question(api):
    llm = cd.connect("offline", api=api, latency_scale=0)
    picked = {}
    for question in toolbox.QUESTIONS:
        result = llm.run(question.text, tools=toolbox.TOOLS, tool_search=True, max_rounds=3)
        calls = [c for c in result.tool_calls if c.name != SEARCH_TOOL]
        picked[question.text] = calls[0].name if calls else None
        assert calls and not calls[0].is_error, result.transcript()
    assert picked == {q.text: q.tool for q in toolbox.QUESTIONS}


@pytest.mark.parametrize("api", APIS)
def test_the_mcp_served_catalogue_searches_the_same(api):
    question = toolbox.QUESTIONS[5]
    llm = cd.connect("offline", api=api, latency_scale=0)
    with toolbox.connected(defer_loading=True) as tools:
        result = llm.run(question.text, tools=tools, max_rounds=3)
    assert [c.name for c in result.tool_calls if c.name != SEARCH_TOOL] == [question.tool]
    direct = cd.connect("offline", api=api, latency_scale=0).run(question.text, tools=toolbox.TOOLS, tool_search=True,
                                                                 max_rounds=3)
    assert result.answer == direct.answer


@pytest.mark.parametrize("api", APIS)
def test_the_pitfalls_call_the_confusable_tool_because_the_search_did_not_load_the_right_one(api):
    from conductor.search import searches

    llm = cd.connect("offline", api=api, latency_scale=0)
    for question in toolbox.PITFALLS:
        result = llm.run(question.text, tools=toolbox.TOOLS, tool_search=True, max_rounds=3)
        (search,) = searches(result)
        assert question.tool not in search.loaded and question.confusable in search.loaded
        assert [c.name for c in result.tool_calls if c.name != SEARCH_TOOL][0] == question.confusable
