"""The one token estimate (conductor.tokens): text, tool definitions, hidden prompts."""

from __future__ import annotations

import conductor.offline.tokens as offline_tokens
from conductor.tokens import (
    FUNCTION_START,
    FUNCTIONS_END,
    HIDDEN_PROMPTS,
    anthropic_tool_use_prompt,
    estimate_tokens,
    hidden_prompts,
    split_pieces,
    token_weight,
    tool_tokens,
    tools_tokens,
    truncate_to_tokens,
)

WEATHER = {"type": "object", "properties": {"city": {"type": "string", "description": "The city."}},
           "required": ["city"]}


def test_digits_cost_a_token_per_group_of_three_and_a_space_before_a_number_is_its_own():
    assert estimate_tokens("0") == 1 and estimate_tokens("123") == 1 and estimate_tokens("1234") == 2
    assert estimate_tokens("abcd" * 3) == 3  # letters: 4 a token, as before
    # "Entry 0042": "Entry" (1.25), the space before the number (1), "004" and "2" (2)
    assert token_weight("Entry 0042") == 1.25 + 1 + 2
    assert estimate_tokens("a phone number 0123 456 789") > len("a phone number 0123 456 789") / 4


def test_truncating_and_streaming_follow_the_same_weights():
    text = "Order 12345 of 2026, shipped."
    cut = truncate_to_tokens(text, 4)
    assert text.startswith(cut) and estimate_tokens(cut) <= 4 < estimate_tokens(text[: len(cut) + 1])
    assert "".join(split_pieces(text, 2)) == text


def test_the_stand_in_reads_the_library_estimate():
    assert offline_tokens.estimate_tokens is estimate_tokens
    assert offline_tokens.split_pieces is split_pieces and offline_tokens.truncate_to_tokens is truncate_to_tokens


def test_an_openai_function_costs_its_compact_rendering_not_its_json():
    tokens = tool_tokens("chat", "get_weather", "Get the weather.", WEATHER)
    assert tokens == FUNCTION_START + estimate_tokens("get_weather:Get the weather") + 1 + estimate_tokens(
        "city:string:The city")
    assert tokens < estimate_tokens('{"name": "get_weather", "description": "Get the weather.", "parameters": '
                                    '{"type": "object", "properties": {"city": {"type": "string", "description": '
                                    '"The city."}}, "required": ["city"]}}')
    assert tools_tokens("responses", [("get_weather", "Get the weather.", WEATHER)]) == tokens + FUNCTIONS_END
    assert tools_tokens("chat", []) == 0


def test_nested_parameters_and_refs_are_counted_one_level_down():
    flat = {"type": "object", "properties": {"answers": {"type": "array", "items": {"type": "string"}}}}
    nested = {"$defs": {"Answer": {"type": "object", "properties": {"label": {"type": "string"},
                                                                   "answer": {"type": "string"}}}},
              "type": "object", "properties": {"answers": {"type": "array", "items": {"$ref": "#/$defs/Answer"}}}}
    assert tool_tokens("chat", "final", "", nested) > tool_tokens("chat", "final", "", flat)
    enum = {"type": "object", "properties": {"unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}}
    assert tool_tokens("chat", "convert", "", enum) > tool_tokens("chat", "convert", "", {"type": "object"})


def test_anthropics_tool_use_prompt_by_model_and_tool_choice():
    assert anthropic_tool_use_prompt("claude-haiku-4-5", None) == 496
    assert anthropic_tool_use_prompt("claude-haiku-4-5-20251001", {"type": "any"}) == 588
    assert anthropic_tool_use_prompt("claude-sonnet-4-6", {"type": "tool", "name": "x"}) == 588
    assert anthropic_tool_use_prompt("claude-sonnet-4-0", {"type": "auto"}) == 346
    assert anthropic_tool_use_prompt("claude-3-haiku-20240307", {"type": "any"}) == 340


def test_hidden_prompts_by_api_and_tools():
    weather = {"name": "get_weather", "description": "", "input_schema": WEATHER}
    assert hidden_prompts("messages", {"model": "claude-haiku-4-5", "tools": []}) == {}
    assert hidden_prompts("messages", {"model": "claude-haiku-4-5", "tools": [weather]}) == {"tool use system prompt": 496}
    searching = hidden_prompts("messages", {"model": "claude-sonnet-4-6", "tools": [
        weather, {"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"},
        {"type": "code_execution_20260120", "name": "code_execution"}]})
    assert set(searching) == {"tool use system prompt", "tool search tool", "code execution tool"}

    deferred = {"type": "function", "name": "get_weather", "defer_loading": True, "parameters": WEATHER}
    request = {"model": "gpt-5.4", "tools": [{"type": "tool_search"}, deferred], "input": [{"role": "user", "content": "Hi"}]}
    before = hidden_prompts("responses", request)["tool_search instructions"]
    loaded = {**request, "input": [*request["input"], {"type": "tool_search_output", "tools": [deferred]}]}
    assert hidden_prompts("responses", loaded)["tool_search instructions"] < before
    assert hidden_prompts("responses", {"model": "gpt-5.4", "tools": [deferred]}) == {}

    function = {"type": "function", "function": {"name": "get_weather", "parameters": WEATHER}}
    assert hidden_prompts("chat", {"model": "gpt-4o", "tools": [function]}) == {}
    assert hidden_prompts("chat", {"model": "gpt-5-mini", "tools": [function]})
    assert hidden_prompts("chat", {"model": "gpt-5-mini"}) == {}


def test_every_hidden_prompt_rule_says_where_its_number_comes_from():
    assert HIDDEN_PROMPTS and all(rule.tokens > 0 and rule.source for rule in HIDDEN_PROMPTS)
    # The catch-all rule (model "") comes after the rules for named models of the same prompt and case.
    seen: dict[tuple[str, str, str], bool] = {}
    for rule in HIDDEN_PROMPTS:
        key = (rule.api, rule.prompt, rule.case)
        assert not seen.get(key), f"a rule after the catch-all is never read: {rule}"
        seen[key] = rule.model == ""
