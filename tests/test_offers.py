"""An option the chosen model does not offer is refused before any request (naming the option, the model and what
to use instead), and the stand-in answers such a request by hand with the API's 400: 24-hour prompt cache
retention, in-memory retention on gpt-5.5 and later, and the hosted tool search given on a model without it.
(Programmatic calling: tests/test_programs.py.)"""

from __future__ import annotations

import anthropic
import openai
import pytest

import conductor as cd
from conductor.caching import offers_24h
from conductor.offline import LatencyModel, OfflineModel


@cd.tool
def get_weather(city: str) -> dict:
    """Get today's weather for a city."""
    return {"city": city, "temperature": 21}


QUESTION = "What is the weather in Paris?"


def connect(api: str, model: str) -> tuple[cd.LLM, OfflineModel]:
    stand_in = OfflineModel(latency=LatencyModel.instant())
    return cd.connect("offline", api=api, model=model, offline_model=stand_in), stand_in


@pytest.mark.parametrize(("model", "offered"), [
    ("gpt-4.1", True), ("gpt-4.1-2025-04-14", True), ("gpt-5.1-codex-mini", True), ("gpt-5.4", True),
    ("gpt-5.5", True), ("gpt-6", True), ("gpt-4.1-mini", False), ("gpt-5-mini", False), ("gpt-4o", False),
    ("o4-mini", False), ("my-local-model", None),
])
def test_which_models_offer_24_hour_retention(model: str, offered: bool | None) -> None:
    assert offers_24h(model) is offered


@pytest.mark.parametrize("api", ["responses", "chat"])
def test_24h_retention_on_a_model_without_it_is_refused_before_any_request(api: str) -> None:
    llm, stand_in = connect(api, "gpt-4.1-mini")
    with pytest.raises(ValueError, match=r"prompt_cache_retention='24h': gpt-4\.1-mini does not offer .* Models "
                                         r"that do: gpt-4\.1, .* Leave the option out"):
        llm.run(QUESTION, tools=[get_weather], prompt_cache_retention="24h")
    assert not stand_in.requests


@pytest.mark.parametrize("api", ["responses", "chat"])
def test_24h_retention_on_a_model_with_it_is_sent(api: str) -> None:
    llm, stand_in = connect(api, "gpt-4.1")
    result = llm.run(QUESTION, tools=[get_weather], prompt_cache_retention="24h")
    assert "21" in result.answer
    assert {r.body.get("prompt_cache_retention") for r in stand_in.requests} == {"24h"}


def test_in_memory_retention_on_gpt_5_5_is_refused_naming_24h() -> None:
    llm, stand_in = connect("responses", "gpt-5.5")
    with pytest.raises(ValueError, match=r"'in_memory': gpt-5\.5 takes only 24-hour retention.*pass '24h'"):
        llm.run(QUESTION, tools=[get_weather], prompt_cache_retention="in_memory")
    assert not stand_in.requests


def test_the_stand_in_refuses_retention_the_model_lacks_as_the_api_does() -> None:
    llm, _ = connect("responses", "gpt-4.1-mini")
    with pytest.raises(openai.BadRequestError, match="'24h' is not supported with model 'gpt-4.1-mini'"):
        llm.client.responses.create(model="gpt-4.1-mini", input=QUESTION, prompt_cache_retention="24h")
    with pytest.raises(openai.BadRequestError, match="compatible only with 24h extended prompt caching"):
        llm.client.chat.completions.create(model="gpt-5.5", messages=[{"role": "user", "content": QUESTION}],
                                           prompt_cache_retention="in_memory")


@pytest.mark.filterwarnings("ignore:The model 'claude-sonnet-4-0' is deprecated:DeprecationWarning")
@pytest.mark.parametrize(("api", "model", "search"), [
    ("responses", "gpt-4.1", {"type": "tool_search"}),
    ("messages", "claude-sonnet-4-0", {"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"}),
])
def test_hosted_search_on_a_model_without_it_is_refused_naming_client_search(api: str, model: str, search) -> None:
    llm, stand_in = connect(api, model)
    with pytest.raises(ValueError, match=rf"{model} has no hosted tool search .* Models that have it: .* "
                                         r"tool_search='client'"):
        llm.run(QUESTION, tools=[get_weather, search])
    assert not stand_in.requests
    # The stand-in, sent the same by hand, refuses it as the API does.
    error = anthropic.BadRequestError if api == "messages" else openai.BadRequestError
    with pytest.raises(error, match=f"not supported (on|with) model '{model}'"):
        if api == "messages":
            llm.client.messages.create(model=model, max_tokens=100, messages=[{"role": "user", "content": QUESTION}],
                                       tools=[search])
        else:
            llm.client.responses.create(model=model, input=QUESTION, tools=[search])


def test_tool_search_true_on_a_model_without_hosted_search_uses_conductors_own() -> None:
    llm, stand_in = connect("responses", "gpt-4.1")
    from conductor.course.toolbox import TOOLS

    result = llm.run(QUESTION, tools=list(TOOLS), tool_search=True)
    assert result.tool_calls[0].name == "search_tools"
    assert all(t.get("type") != "tool_search" for r in stand_in.requests for t in r.body.get("tools") or [])
