"""Responses namespaces: cd.tools.Namespace, server.tools(namespace=True), and the stand-in's reading of them."""

from __future__ import annotations

import json
from typing import Any

import openai
import pytest

import conductor as cd
from conductor.course import scale, toolbox
from conductor.search import searches
from conductor.tokens import hidden_prompts, openai_namespace_tokens
from conductor.tools import Namespace

WEATHER = Namespace("weather", toolbox._INSTRUCTIONS["weather"])


def _namespaced() -> list[Any]:
    return scale.namespaced(toolbox.TOOLS)


def _offline(api: str = "responses") -> cd.LLM:
    return cd.connect("offline", api=api, latency_scale=0)


def test_a_namespace_needs_a_valid_name_and_a_description():
    with pytest.raises(ValueError, match="letters, digits"):
        Namespace("my crm", "CRM tools.")
    with pytest.raises(ValueError, match="needs a description"):
        Namespace("crm", " ")
    with pytest.raises(TypeError, match=r"namespace= takes a cd.tools.Namespace"):
        cd.tool(toolbox.get_weather, namespace="weather")


def test_cd_tool_puts_a_copy_in_a_namespace():
    copied = cd.tool(toolbox.get_weather, namespace=WEATHER)
    assert copied.namespace == WEATHER and toolbox.get_weather.namespace is None


def test_responses_sends_each_namespace_once_where_its_first_tool_was():
    llm = _offline()
    llm.run("How hot is it in Sydney right now?", tools=[*_namespaced()[:12]], tool_search=True)
    tools = llm.offline.requests[0].body["tools"]
    assert [(t["type"], t.get("name")) for t in tools] == [("namespace", "weather"), ("namespace", "mail"),
                                                          ("tool_search", None)]
    assert [f["name"] for f in tools[0]["tools"]] == [t.name for t in toolbox.DOMAINS["weather"]]
    assert all(f["defer_loading"] is True and f["type"] == "function" for f in tools[0]["tools"])
    assert "defer_loading" not in tools[0]  # the API takes it on the functions inside, not on the namespace


@pytest.mark.parametrize("api", ["chat", "messages"])
def test_the_other_apis_send_the_tools_one_by_one(api):
    llm = _offline(api)
    llm.run("How hot is it in Sydney right now?", tools=_namespaced()[:10])
    body = llm.offline.requests[0].body
    assert len(body["tools"]) == 10 and "namespace" not in json.dumps(body["tools"])


def test_a_search_loads_one_function_inside_its_namespace_and_the_call_names_it():
    llm = _offline()
    result = llm.run("How hot is it in Sydney right now?", tools=_namespaced(), tool_search=True)
    assert [c.name for c in result.tool_calls] == ["get_weather"]
    output = [m for m in result.messages if m.get("type") in ("tool_search_call", "tool_search_output",
                                                              "function_call")]
    call, loaded, function_call = output[:3]
    assert call["arguments"] == {"paths": ["weather.get_weather"]}
    assert [(t["type"], t["name"], [f["name"] for f in t["tools"]]) for t in loaded["tools"]] == [
        ("namespace", "weather", ["get_weather"])]
    assert function_call["namespace"] == "weather" and function_call["name"] == "get_weather"
    assert [s.loaded for s in searches(result)] == [("get_weather",)]


def test_namespaces_bill_their_line_not_their_deferred_functions():
    """A namespace whose functions are deferred is read as its name and description alone."""
    flat, spaced = _offline(), _offline()
    a = flat.run("How hot is it in Sydney right now?", tools=toolbox.TOOLS, tool_search=True)
    b = spaced.run("How hot is it in Sydney right now?", tools=_namespaced(), tool_search=True)
    body = spaced.offline.requests[0].body
    lines = sum(openai_namespace_tokens(n, toolbox._INSTRUCTIONS[n]) for n in toolbox.DOMAINS)
    assert hidden_prompts("responses", body)["namespace names and descriptions"] == lines
    first_flat, first_spaced = (llm_result.trace.model_calls[0].usage.input_tokens for llm_result in (a, b))
    assert first_spaced < first_flat - 500


def _raw(body: dict[str, Any]) -> Exception:
    client = cd.OfflineModel(latency=None).openai_client(max_retries=0)
    with pytest.raises(openai.BadRequestError) as caught:
        client.responses.create(**body)
    return caught.value


FUNCTION = {"type": "function", "name": "get_weather", "description": "Weather.", "defer_loading": True,
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}, "strict": False}


def test_the_stand_in_refuses_a_namespace_as_the_api_does():
    base = {"model": "gpt-5.4", "input": "Weather in Oslo?"}
    space = {"type": "namespace", "name": "weather", "description": "Weather tools.", "tools": [FUNCTION]}
    deferred_namespace = {**space, "defer_loading": True}
    assert "Unknown parameter: 'tools[0].defer_loading'." in str(
        _raw({**base, "tools": [deferred_namespace, {"type": "tool_search"}]}))
    no_description = {k: v for k, v in space.items() if k != "description"}
    assert "Missing required parameter: 'tools[0].description'." in str(_raw({**base, "tools": [no_description]}))
    hosted_inside = {**space, "tools": [{"type": "web_search"}]}
    error = _raw({**base, "tools": [hosted_inside]})
    assert "Invalid value: 'web_search'." in str(error) and error.param == "tools[0].tools[0].type"
    # a deferred function inside a namespace still needs the search tool
    assert "Deferred tools require tools.tool_search" in str(_raw({**base, "tools": [space]}))


def test_an_mcp_servers_tools_in_its_namespace():
    with cd.mcp_server(toolbox.build_server("weather")) as server:
        tools = server.tools(namespace=True, defer_loading=True)
        named = server.tools(namespace="forecasts")
        result = _offline().run("How hot is it in Sydney right now?", tools=tools, tool_search=True)
    assert {t.namespace for t in tools} == {Namespace("toolbox-weather", toolbox._INSTRUCTIONS["weather"])}
    assert {t.namespace.name for t in named} == {"forecasts"}
    assert result.tool_calls[0].name == "get_weather" and "25" in result.answer
