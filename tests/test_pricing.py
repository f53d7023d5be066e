"""conductor.pricing: figures from genai-prices, the offline model's stand-in prices, unknown models."""

from __future__ import annotations

import logging
import socket
import subprocess
import sys
import threading

import pytest

from conductor import pricing
from conductor.types import Usage

QUERY = Usage(input_tokens=3_500, output_tokens=500)  # the two-round query of FACTS.md


@pytest.fixture(autouse=True)
def fresh_cache():
    """Each test sees its own lookups (and so its own 'unknown model' warnings)."""
    pricing.price_per_million.cache_clear()
    yield
    pricing.price_per_million.cache_clear()


@pytest.mark.parametrize(
    ("model", "provider", "dollars"),
    [("gpt-4.1-mini", "openai", 0.0022), ("claude-haiku-4-5", "anthropic", 0.0060)],
)
def test_cost_matches_the_checked_figures(model, provider, dollars):
    assert pricing.cost(QUERY, model, provider) == pytest.approx(dollars, abs=1e-12)


def test_dated_model_names_are_priced_as_their_model():
    assert pricing.cost(QUERY, "claude-haiku-4-5-20251001", "anthropic") == pytest.approx(0.0060)
    assert pricing.price_per_million("gpt-4.1-mini-2025-04-14", "openai").model == "gpt-4.1-mini"


@pytest.mark.parametrize(
    ("provider", "expected"),
    [
        ("offline-responses", ("gpt-5.4-mini", "openai")),
        ("offline-chat", ("gpt-4.1-mini", "openai")),
        ("offline-messages", ("claude-haiku-4-5", "anthropic")),
        ("offline-openai", ("gpt-4.1-mini", "openai")),  # the older names, still accepted
        ("offline-anthropic", ("claude-haiku-4-5", "anthropic")),
    ],
)
def test_offline_model_is_priced_as_a_real_model(provider, expected):
    assert pricing.priced_as("offline", provider) == expected
    price = pricing.price_per_million("any-offline-name", provider)
    assert (price.model, price.provider) == expected
    assert pricing.cost(QUERY, "any-offline-name", provider) == pricing.cost(QUERY, *expected)


def test_real_providers_price_the_model_named():
    assert pricing.priced_as("gpt-4o", "openai") == ("gpt-4o", "openai")
    assert pricing.priced_as("claude-sonnet-4-5", "anthropic") == ("claude-sonnet-4-5", "anthropic")


def test_unknown_provider_names_the_accepted_ones():
    with pytest.raises(ValueError, match="offline-responses, offline-chat, offline-messages"):
        pricing.priced_as("m", "offline")


def test_unknown_model_costs_nothing_and_warns_once(caplog):
    caplog.set_level(logging.WARNING, logger="conductor.pricing")
    for _ in range(3):
        assert pricing.cost(QUERY, "llama3.2", "openai") == 0.0
    price = pricing.price_per_million("llama3.2", "openai")
    assert not price.known
    assert (price.input_per_mtok, price.output_per_mtok) == (0.0, 0.0)
    warnings = [r for r in caplog.records if r.name == "conductor.pricing"]
    assert len(warnings) == 1
    assert warnings[0].levelno == logging.WARNING
    assert "llama3.2" in warnings[0].getMessage()


def test_each_unknown_model_gets_its_own_warning(caplog):
    caplog.set_level(logging.WARNING, logger="conductor.pricing")
    pricing.cost(QUERY, "llama3.2", "openai")
    pricing.cost(QUERY, "qwen3:8b", "openai")
    assert len([r for r in caplog.records if r.name == "conductor.pricing"]) == 2


@pytest.mark.parametrize(
    ("model", "provider"),
    [("gpt-4.1-mini", "openai"), ("claude-haiku-4-5", "anthropic"), ("gpt-4o", "openai")],
)
def test_per_token_prices_add_up_to_cost(model, provider):
    price = pricing.price_per_million(model, provider)
    assert price.known and price.input_per_mtok > 0 and price.output_per_mtok > price.input_per_mtok
    by_hand = (QUERY.input_tokens * price.input_per_mtok + QUERY.output_tokens * price.output_per_mtok) / 1e6
    assert pricing.cost(QUERY, model, provider) == pytest.approx(by_hand, rel=1e-9)
    assert pricing.cost(Usage(input_tokens=1_000_000), model, provider) == pytest.approx(price.input_per_mtok)
    assert pricing.cost(Usage(output_tokens=1_000_000), model, provider) == pytest.approx(price.output_per_mtok)


def test_tiered_prices_apply_above_the_threshold():
    price = pricing.price_per_million("claude-sonnet-4-5", "anthropic")
    short = Usage(input_tokens=100_000)
    long = Usage(input_tokens=300_000)
    assert pricing.cost(short, "claude-sonnet-4-5", "anthropic") == pytest.approx(0.1 * price.input_per_mtok)
    # above the tier the whole prompt is billed at the higher rate, so it costs more than base * tokens
    assert pricing.cost(long, "claude-sonnet-4-5", "anthropic") > 0.3 * price.input_per_mtok


@pytest.mark.parametrize("model", ["claude-sonnet-4-5", "claude-haiku-4-5"])  # tiered rates, flat rates
def test_an_hour_long_cache_write_costs_twice_the_input_price(model):
    written = Usage(input_tokens=10_000, output_tokens=20, cache_write_tokens=10_000, cache_write_1h_tokens=10_000)
    price = pricing.price_per_million(model, "anthropic")
    by_hand = (10_000 * 2 * price.input_per_mtok + 20 * price.output_per_mtok) / 1e6
    assert pricing.cost(written, model, "anthropic") == pytest.approx(by_hand, rel=1e-9)
    five_minutes = Usage(input_tokens=10_000, output_tokens=20, cache_write_tokens=10_000)
    assert pricing.cost(five_minutes, model, "anthropic") == pytest.approx(by_hand - 10_000 * 0.75 * price.input_per_mtok / 1e6)


def test_lookups_are_cached():
    first = pricing.price_per_million("gpt-4.1-mini", "openai")
    assert pricing.price_per_million("gpt-4.1-mini", "openai") is first
    assert pricing.price_per_million.cache_info().hits >= 1


def test_price_names_its_source():
    price = pricing.price_per_million("gpt-4.1-mini", "openai")
    assert price.source.startswith("genai-prices ")
    assert "gpt-4.1-mini" in str(price) and "per million tokens" in str(price)


def test_pricing_never_touches_the_network(monkeypatch):
    def refuse(*_args, **_kwargs):
        raise AssertionError("pricing tried to open a network connection")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    assert pricing.cost(QUERY, "gpt-4.1-mini", "openai") == pytest.approx(0.0022)
    assert pricing.cost(QUERY, "no-such-model", "anthropic") == 0.0
    assert not any(t.name.startswith("genai_prices") for t in threading.enumerate())


def test_importing_pricing_does_not_load_genai_prices():
    code = "import sys, conductor.pricing; assert 'genai_prices' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_offline_model_named_after_a_real_model_is_priced_as_it():
    import conductor as cd

    @cd.tool
    def warmth(city: str) -> dict:
        """Get the temperature in a city right now."""
        return {"city": city, "temperature_c": 20.0 if city == "Rome" else 8.0}

    assert pricing.priced_as("claude-sonnet-4-6", "offline-messages") == ("claude-sonnet-4-6", "anthropic")
    assert pricing.priced_as("gpt-5.4", "offline-responses") == ("gpt-5.4", "openai")
    assert pricing.priced_as("primary", "offline-messages") == ("claude-haiku-4-5", "anthropic")  # no such model
    assert pricing.priced_as("gpt-5.4", "offline-messages") == ("claude-haiku-4-5", "anthropic")  # not that API's
    llm = cd.connect("offline", api="messages", model="claude-sonnet-4-6", latency_scale=0)
    assert llm.prices.model == "claude-sonnet-4-6" and llm.prices.input_per_mtok == 3.0
    result = llm.run("Which city is warmest, Oslo or Rome?", tools=[warmth])
    assert result.cost == pytest.approx(pricing.cost(result.usage, "claude-sonnet-4-6", "anthropic"))


def test_container_time_bills_its_minimum_and_the_free_hours():
    price = pricing.CODE_EXECUTION
    assert (price.free_hours_per_month, price.usd_per_hour, price.minimum_minutes) == (1550, 0.05, 5)
    assert pricing.container_hours(12) == pytest.approx(5 / 60)  # a few seconds: the 5-minute minimum
    assert pricing.container_hours(7200) == pytest.approx(2)
    assert pricing.container_cost([12, 7200]) == pytest.approx(0.05 * (2 + 5 / 60))
    assert pricing.container_cost([7200], free_hours_left=1.5) == pytest.approx(0.05 * 0.5)
    assert pricing.container_cost([7200], free_hours_left=price.free_hours_per_month) == 0.0
    with pytest.raises(ValueError, match="cannot live"):
        pricing.container_hours(-1)
