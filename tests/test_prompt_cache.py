"""Prompt caching: what cd.connect(cache=...) sends on each API, what the stand-in caches, and how it is priced."""

from __future__ import annotations

import logging
from dataclasses import replace

import anthropic
import openai
import pytest

import conductor as cd
from conductor import pricing
from conductor.offline import LatencyModel, OfflineModel
from conductor.offline.caching import (
    ANTHROPIC_LOOKBACK,
    OPENAI_MINIMUM,
    OPENAI_STEP,
    PromptCache,
    minimum_prefix,
)

from wire import APIS

logging.getLogger("conductor").setLevel(logging.WARNING)

# A system prompt long enough for every stand-in's minimum (Anthropic's Haiku 4.5 caches 4,096+ tokens).
LONG_SYSTEM = "You answer questions about the weather and quote every figure you were given. " * 240


@cd.tool
def get_weather(city: str) -> str:
    """Current weather of a city."""
    return f"{city}: sunny, 21 C. " + "Light wind from the west, humidity 40%, visibility 10 km. " * 10


def _run(api: str, *, cache=True, system: str = LONG_SYSTEM, model: OfflineModel | None = None, **options):
    model = model or OfflineModel(latency=LatencyModel.instant())
    llm = cd.connect("offline", api=api, offline_model=model, cache=cache)
    result = llm.run("What is the weather in Paris, then in Rome, then in Oslo?", tools=[get_weather],
                     system=system, parallel_tool_calls=False, max_rounds=4, **options)
    return result, model


# -- what each API is sent ------------------------------------------------------------------------


@pytest.mark.parametrize("api", APIS)
def test_cache_true_sends_each_apis_own_field(api):
    _, model = _run(api)
    bodies = [r.body for r in model.requests]
    if api == "messages":
        assert all(b["cache_control"] == {"type": "ephemeral"} for b in bodies)
        assert not any("prompt_cache_key" in b for b in bodies)
    else:
        keys = {b["prompt_cache_key"] for b in bodies}
        assert len(keys) == 1 and next(iter(keys)).startswith("conductor-")
        assert not any("cache_control" in b for b in bodies)


@pytest.mark.parametrize("api", APIS)
def test_cache_false_sends_neither(api):
    result, model = _run(api, cache=False)
    assert not any({"cache_control", "prompt_cache_key"} & set(r.body) for r in model.requests)
    if api == "messages":
        assert result.usage.cache_read_tokens == 0 and result.usage.cache_write_tokens == 0


def test_one_hour_adds_the_ttl_and_is_billed_at_twice_the_input_price():
    result, model = _run("messages", cache="1h")
    assert model.requests[0].body["cache_control"] == {"type": "ephemeral", "ttl": "1h"}
    first = result.trace.model_calls[0].usage
    assert first.cache_write_tokens > 0 and first.cache_write_1h_tokens == first.cache_write_tokens
    price = pricing.price_per_million("claude-haiku-4-5", "anthropic")
    five_minutes = replace(first, cache_write_1h_tokens=0)
    assert pricing.cost(first, "claude-haiku-4-5", "anthropic") - pricing.cost(
        five_minutes, "claude-haiku-4-5", "anthropic"
    ) == pytest.approx(first.cache_write_tokens * (2 * price.input_per_mtok - price.cache_write_per_mtok) / 1e6)


def test_the_key_is_stable_for_the_same_system_and_tools_and_changes_with_them():
    keys = []
    for system in (LONG_SYSTEM, LONG_SYSTEM, "Another system prompt."):
        _, model = _run("responses", system=system)
        keys.append(model.requests[0].body["prompt_cache_key"])
    assert keys[0] == keys[1] != keys[2]


def test_a_callers_own_key_is_kept():
    _, model = _run("chat", prompt_cache_key="tenant-42")
    assert {r.body["prompt_cache_key"] for r in model.requests} == {"tenant-42"}


@pytest.mark.parametrize("value", ["1d", 5, None, "true"])
def test_cache_takes_only_its_four_choices(value):
    with pytest.raises(ValueError, match=r"True.*False.*'5m'.*'1h'"):
        cd.connect("offline", cache=value)


@pytest.mark.parametrize(("api", "option", "owner"), [
    ("messages", "prompt_cache_key", "responses and chat"),
    ("chat", "cache_control", "messages"),
    ("chat", "context_management", "responses and messages"),
])
def test_an_option_of_another_api_names_the_api_that_has_it(api, option, owner):
    llm = cd.connect("offline", api=api, latency_scale=0)
    with pytest.raises(ValueError, match=f"{option}= is an option of the {owner} API"):
        llm.run("Weather in Paris?", tools=[get_weather], **{option: "x"})


# -- what the stand-in caches ---------------------------------------------------------------------


@pytest.mark.parametrize("api", APIS)
def test_a_tool_loop_reads_its_growing_prefix_from_the_cache(api):
    result, _ = _run(api)
    usages = [c.usage for c in result.trace.model_calls]
    assert len(usages) >= 4
    assert usages[0].cache_read_tokens == 0
    for before, after in zip(usages, usages[1:]):
        assert after.cache_read_tokens >= before.cache_read_tokens > 0 or before is usages[0]
        assert 0 < after.cache_read_tokens < after.input_tokens
    assert usages[-1].cache_read_tokens > usages[1].cache_read_tokens  # the cached prefix grows with the loop
    if api == "messages":
        assert usages[0].cache_write_tokens > 0  # written once, then read
        assert all(u.cache_write_tokens < usages[0].cache_write_tokens for u in usages[1:])
    else:
        assert all(u.cache_write_tokens == 0 for u in usages)  # OpenAI bills no writes
        assert all((u.cache_read_tokens - OPENAI_MINIMUM) % OPENAI_STEP == 0 for u in usages[1:])


@pytest.mark.parametrize("api", APIS)
def test_the_cached_run_costs_less_and_answers_the_same(api):
    cached, _ = _run(api)
    plain, _ = _run(api, cache=False)
    assert cached.answer == plain.answer
    if api == "messages":  # Anthropic caches only what a request marks
        assert plain.usage.cache_read_tokens == 0
        assert cached.cost < plain.cost * 0.6
    else:  # OpenAI caches every long prompt: cache=False only leaves prompt_cache_key out
        assert plain.usage.cache_read_tokens == cached.usage.cache_read_tokens > 0


@pytest.mark.parametrize("api", APIS)
def test_a_timestamp_in_the_system_prompt_misses_the_cache(api):
    model = OfflineModel(latency=LatencyModel.instant())
    _run(api, model=model)
    steady, _ = _run(api, model=model)
    assert steady.trace.model_calls[0].usage.cache_read_tokens > 0  # the same prefix, a new run: read
    busted, _ = _run(api, model=model, system="Now: 2026-11-28 07:01:13. " + LONG_SYSTEM)
    assert busted.trace.model_calls[0].usage.cache_read_tokens == 0


@pytest.mark.parametrize("api", APIS)
def test_a_reordered_tool_list_misses_the_cache(api):
    @cd.tool
    def get_forecast(city: str) -> str:
        """Forecast for a city."""
        return "rain"

    model = OfflineModel(latency=LatencyModel.instant())
    llm = cd.connect("offline", api=api, offline_model=model)
    first = llm.run("Weather in Paris?", tools=[get_weather, get_forecast], system=LONG_SYSTEM)
    again = llm.run("Weather in Paris?", tools=[get_weather, get_forecast], system=LONG_SYSTEM)
    swapped = llm.run("Weather in Paris?", tools=[get_forecast, get_weather], system=LONG_SYSTEM)
    assert first.trace.model_calls[0].usage.cache_read_tokens == 0
    assert again.trace.model_calls[0].usage.cache_read_tokens > 0
    assert swapped.trace.model_calls[0].usage.cache_read_tokens == 0


@pytest.mark.parametrize("api", APIS)
def test_a_prompt_below_the_minimum_is_not_cached(api):
    result, _ = _run(api, system="Be brief.")
    assert result.usage.cache_read_tokens == 0 and result.usage.cache_write_tokens == 0
    assert result.trace.model_calls[-1].usage.input_tokens < minimum_prefix(api, "conductor-offline")


def test_different_prompt_cache_keys_use_different_caches():
    model = OfflineModel(latency=LatencyModel.instant())
    _run("responses", model=model, prompt_cache_key="a")
    same, _ = _run("responses", model=model, prompt_cache_key="a")
    other, _ = _run("responses", model=model, prompt_cache_key="b")
    assert same.trace.model_calls[0].usage.cache_read_tokens > 0
    assert other.trace.model_calls[0].usage.cache_read_tokens == 0


@pytest.mark.parametrize("api", APIS)
def test_entries_expire_after_their_lifetime(api):
    now = [0.0]
    model = OfflineModel(latency=LatencyModel.instant())
    model.prompt_cache = PromptCache(clock=lambda: now[0])
    _run(api, model=model)
    now[0] += 299
    assert _run(api, model=model)[0].trace.model_calls[0].usage.cache_read_tokens > 0  # a hit refreshes it
    now[0] += 301
    assert _run(api, model=model)[0].trace.model_calls[0].usage.cache_read_tokens == 0


def test_an_hour_long_entry_outlives_five_minutes():
    now = [0.0]
    model = OfflineModel(latency=LatencyModel.instant())
    model.prompt_cache = PromptCache(clock=lambda: now[0])
    _run("messages", model=model, cache="1h")
    now[0] += 1800
    assert _run("messages", model=model, cache="1h")[0].trace.model_calls[0].usage.cache_read_tokens > 0


def test_changing_tool_choice_on_messages_misses_the_messages_but_not_tools_and_system():
    model = OfflineModel(latency=LatencyModel.instant())
    client = model.anthropic_client()
    tools = [get_weather.anthropic_schema()]
    system = [{"type": "text", "text": LONG_SYSTEM, "cache_control": {"type": "ephemeral"}}]
    question = [{"role": "user", "content": "What is the weather in Paris?"}]
    kwargs = {"model": "claude-haiku-4-5", "max_tokens": 200, "tools": tools, "system": system,
              "messages": question, "cache_control": {"type": "ephemeral"}}
    first = client.messages.create(**kwargs, tool_choice={"type": "auto"}).usage
    forced = client.messages.create(**kwargs, tool_choice={"type": "any"}).usage
    assert first.cache_read_input_tokens == 0 and first.cache_creation_input_tokens > 0
    # the system breakpoint still hits; the messages after the changed tool_choice are written again
    assert 0 < forced.cache_read_input_tokens < first.cache_creation_input_tokens
    assert forced.cache_creation_input_tokens > 0


def test_anthropic_looks_back_twenty_blocks_for_an_entry():
    assert ANTHROPIC_LOOKBACK == 20
    model = OfflineModel(latency=LatencyModel.instant())
    client = model.anthropic_client()
    base = {"model": "claude-haiku-4-5", "max_tokens": 50, "system": LONG_SYSTEM,
            "cache_control": {"type": "ephemeral"}}
    turns = [{"role": "user", "content": "Hello."}]
    client.messages.create(**base, messages=turns)
    near = turns + [{"role": "assistant", "content": "Hi."}, {"role": "user", "content": "And?"}]
    assert client.messages.create(**base, messages=near).usage.cache_read_input_tokens > 0
    far = list(turns)
    for index in range(12):
        far += [{"role": "assistant", "content": f"Reply {index}."}, {"role": "user", "content": f"More {index}."}]
    assert client.messages.create(**base, messages=far).usage.cache_read_input_tokens == 0


def test_a_cached_prefix_is_answered_sooner():
    latency = LatencyModel(jitter=0.0)
    plain = latency.timing(1, 10_000)
    cached = latency.timing(1, 10_000 - 9_984)
    assert cached.first_token < plain.first_token
    assert plain.first_token - cached.first_token == pytest.approx(9_984 * latency.per_input_token)


@pytest.mark.parametrize("api", APIS)
def test_cache_counts_validate_against_the_sdks_own_models(api):
    _, model = _run(api)
    client = model.anthropic_client() if api == "messages" else model.openai_client()
    if api == "messages":
        response = client.messages.with_raw_response.create(
            model="claude-haiku-4-5", max_tokens=50, system=LONG_SYSTEM, cache_control={"type": "ephemeral"},
            messages=[{"role": "user", "content": "Hello."}],
        )
        anthropic.types.Message.model_validate(response.http_response.json())
    elif api == "chat":
        response = client.chat.completions.with_raw_response.create(
            model="gpt-4.1-mini", messages=[{"role": "system", "content": LONG_SYSTEM}, {"role": "user", "content": "Hi"}]
        )
        openai.types.chat.ChatCompletion.model_validate(response.http_response.json())
    else:
        response = client.responses.with_raw_response.create(model="gpt-5.4-mini", instructions=LONG_SYSTEM, input="Hi")
        openai.types.responses.Response.model_validate(response.http_response.json())


# -- allowed tools keep the prefix ----------------------------------------------------------------


@cd.tool
def get_forecast(city: str) -> str:
    """Weather forecast for the next days in a city."""
    return f"{city}: rain tomorrow"


@pytest.mark.parametrize("api", ["responses", "chat"])
def test_allowed_tools_send_every_tool_and_restrict_with_tool_choice(api):
    model = OfflineModel(latency=LatencyModel.instant())
    llm = cd.connect("offline", api=api, offline_model=model)
    result = llm.run("What is the weather in Paris?", tools=[get_weather, get_forecast], allowed_tools=["get_forecast"])
    body = model.requests[0].body
    names = [t.get("name") or t["function"]["name"] for t in body["tools"]]
    assert names == ["get_weather", "get_forecast"]
    if api == "responses":
        assert body["tool_choice"] == {"type": "allowed_tools", "mode": "auto",
                                       "tools": [{"type": "function", "name": "get_forecast"}]}
    else:
        assert body["tool_choice"] == {"type": "allowed_tools", "allowed_tools": {
            "mode": "auto", "tools": [{"type": "function", "function": {"name": "get_forecast"}}]}}
    # the stand-in never calls a tool outside the allowlist, though get_weather fits the question better
    assert [c.name for c in result.tool_calls] == ["get_forecast"] and not any(c.blocked for c in result.tool_calls)


@pytest.mark.parametrize("api", ["responses", "chat"])
def test_an_allowlist_change_keeps_the_cached_prefix_where_removing_tools_loses_it(api):
    model = OfflineModel(latency=LatencyModel.instant())
    llm = cd.connect("offline", api=api, offline_model=model)
    tools = [get_weather, get_forecast]
    llm.run("What is the weather in Paris?", tools=tools, system=LONG_SYSTEM)
    allowed = llm.run("What is the weather in Paris?", tools=tools, system=LONG_SYSTEM, allowed_tools=["get_forecast"])
    removed = llm.run("What is the weather in Paris?", tools=[get_forecast], system=LONG_SYSTEM)
    assert allowed.trace.model_calls[0].usage.cache_read_tokens > 0
    assert removed.trace.model_calls[0].usage.cache_read_tokens == 0


def test_messages_keeps_its_allowlist_as_a_guard():
    model = OfflineModel(latency=LatencyModel.instant())
    llm = cd.connect("offline", api="messages", offline_model=model)
    llm.run("What is the weather in Paris?", tools=[get_weather, get_forecast], allowed_tools=["get_forecast"])
    assert model.requests[0].body["tool_choice"] == {"type": "auto"}
