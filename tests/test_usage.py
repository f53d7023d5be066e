"""Usage as the APIs report it (cache reads and writes, reasoning, web searches) and its cost by part."""

from __future__ import annotations

import genai_prices
import pytest
from anthropic.types import Message
from openai.types.chat import ChatCompletion
from openai.types.responses import Response

import conductor as cd
from conductor import charts, pricing
from conductor.apis import ChatApi, MessagesApi, ResponsesApi
from conductor.types import Usage
from scripted import RawServer, offline, raw_response, scripted
from wire import APIS

OPENAI_USAGE = {
    "prompt_tokens": 2_000,
    "completion_tokens": 300,
    "total_tokens": 2_300,
    "prompt_tokens_details": {"cached_tokens": 1_536, "audio_tokens": 0},
    "completion_tokens_details": {
        "reasoning_tokens": 192,
        "audio_tokens": 0,
        "accepted_prediction_tokens": 0,
        "rejected_prediction_tokens": 0,
    },
}
ANTHROPIC_USAGE = {
    "input_tokens": 50,
    "cache_creation_input_tokens": 1_000,
    "cache_read_input_tokens": 3_000,
    "cache_creation": {"ephemeral_5m_input_tokens": 1_000, "ephemeral_1h_input_tokens": 0},
    "output_tokens": 400,
    "server_tool_use": {"web_search_requests": 2, "web_fetch_requests": 0},
    "service_tier": "standard",
}
USAGES = {"responses": OPENAI_USAGE, "chat": OPENAI_USAGE, "messages": ANTHROPIC_USAGE}  # Responses: translated
MODELS = {"responses": "gpt-5.4-mini", "chat": "gpt-4.1-mini", "messages": "claude-haiku-4-5"}
PROVIDERS = {"responses": "openai", "chat": "openai", "messages": "anthropic"}


def test_openai_cached_and_reasoning_tokens_are_parts_of_the_totals():
    response = ChatCompletion.model_validate(raw_response("chat", "hi", usage=OPENAI_USAGE))
    assert ChatApi().parse(response).usage == Usage(
        input_tokens=2_000, output_tokens=300, cache_read_tokens=1_536, reasoning_tokens=192
    )


def test_responses_cached_and_reasoning_tokens_are_parts_of_the_totals():
    body = raw_response("responses", "hi", usage=OPENAI_USAGE)
    assert body["usage"]["input_tokens_details"] == {"cached_tokens": 1_536}  # the Responses API's own names
    assert ResponsesApi().parse(Response.construct(**body)).usage == Usage(
        input_tokens=2_000, output_tokens=300, cache_read_tokens=1_536, reasoning_tokens=192
    )


def test_anthropic_cache_tokens_join_the_input_and_searches_are_counted():
    response = Message.model_validate(raw_response("messages", "hi", usage=ANTHROPIC_USAGE))
    usage = MessagesApi().parse(response).usage
    assert usage == Usage(
        input_tokens=4_050, output_tokens=400, cache_read_tokens=3_000, cache_write_tokens=1_000, web_search_requests=2
    )
    assert usage.uncached_input_tokens == 50


@pytest.mark.parametrize(
    "model, provider", [("gpt-4.1-mini", "openai"), ("claude-haiku-4-5", "anthropic"), ("claude-sonnet-4-5", "anthropic")]
)
@pytest.mark.parametrize(
    "usage",
    [
        Usage(2_000, 300, cache_read_tokens=1_536, reasoning_tokens=192),
        Usage(4_050, 400, cache_read_tokens=3_000, cache_write_tokens=1_000, web_search_requests=2),
        Usage(300_000, 1_000, cache_read_tokens=250_000),  # above claude-sonnet-4-5's long-prompt tier
    ],
)
def test_cost_by_part_adds_up_to_genai_prices(model, provider, usage):
    split = pricing.cost_split(usage, model, provider)
    expected = genai_prices.calc_price(
        genai_prices.Usage(
            input_tokens=usage.input_tokens,
            output_tokens=usage.output_tokens,
            cache_read_tokens=usage.cache_read_tokens,
            cache_write_tokens=usage.cache_write_tokens,
            web_searches=usage.web_search_requests,
        ),
        model_ref=model,
        provider_id=provider,
    )
    assert split.total == pytest.approx(float(expected.total_price), rel=1e-9)
    assert split.input + split.cached == pytest.approx(float(expected.input_price), rel=1e-9)
    assert split.output == pytest.approx(float(expected.output_price), rel=1e-9)
    price = pricing.price_per_million(model, provider)
    if not price.tiered:
        assert split.cached == pytest.approx(usage.cache_read_tokens * price.cache_read_per_mtok / 1e6)
    # Cached tokens cost less than at the input rate.
    assert split.cached < usage.cache_read_tokens * price.input_per_mtok / 1e6


@pytest.mark.parametrize("api", APIS)
def test_run_records_reported_usage_and_its_cost_by_part(api):
    server = RawServer(api, [raw_response(api, "Cached answer.", usage=USAGES[api])])
    llm = cd.connect(server.client(), model=MODELS[api], api=api)
    result = llm.run("Hello")
    call = result.trace.model_calls[0]
    assert call.usage.cache_read_tokens > 0
    assert call.cost_split == pricing.cost_split(call.usage, MODELS[api], PROVIDERS[api])
    assert call.cost == pytest.approx(call.cost_split.total) and call.cost_split.cached > 0
    table = result.table()
    header, _, row = table.splitlines()[:3]
    assert "cached" in header and str(call.usage.cache_read_tokens) in row
    assert ("cache wr" in header) == (api == "messages") and ("reason" in header) == (api != "messages")
    assert ("searches" in header) == (api == "messages")
    assert max(len(line) for line in table.splitlines()) <= 100
    # The chart's input / cached / output bars are the recorded parts.
    assert charts._cost_split(result.trace, call) == pytest.approx(
        (call.cost_split.input, call.cost_split.cached, call.cost_split.output + call.cost_split.server_tools)
    )


@pytest.mark.parametrize("api", APIS)
def test_table_without_cached_tokens_keeps_its_columns(api):
    llm, _ = offline(api, scripted("Hi."))
    header = llm.run("Hello").table().splitlines()[0]
    assert header.split() == ["step", "calls", "model", "tools", "in", "tok", "out", "tok", "cost", "$", "stop"]
