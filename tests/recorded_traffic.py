"""Real requests and what the real APIs billed for them: the measure of the stand-in's billing.

Each entry is one exchange recorded against the real API (OpenAI Responses, OpenAI Chat Completions or
Anthropic Messages) in pydantic/pydantic-ai's public VCR cassettes, read at commit
4fda38988f2939fa6ea9cdefcf120693e10ef491 (November 2026): the cassette's path in that repository, the
interaction's index in the cassette (0 is the first request), the API, the model, the request body exactly
as recorded (``parsed_body``), and the input tokens the response billed: Chat Completions
``prompt_tokens``; Responses ``input_tokens``; Messages ``input_tokens`` + ``cache_read_input_tokens`` +
``cache_creation_input_tokens``, summed over ``usage.iterations`` where the response has them (a compaction
pass and the answer's pass are both billed). ``cached_tokens`` is the part read from the prompt cache.

The bodies are kept whole. One is long: the compaction exchanges send a 225,000-character filler
(``FILLER`` below, built exactly as recorded: one sentence 5,000 times between a head and a tail).

What was picked, and why: every API with tools of several list sizes (1 to 21 functions), ``tool_choice``
auto / none / any (required) / a named tool and OpenAI's ``allowed_tools``, the same tool and question sent to
all three APIs (``test_tool_choice_matrix``), Anthropic's tool search tool and OpenAI's hosted
``tool_search`` (searching responses and the requests after them), Anthropic's code execution tool,
server-side compaction on Messages and Responses, prompt caching (Anthropic breakpoints, OpenAI
``prompt_cache_key`` with a digit-heavy catalogue), thinking, and models from Claude Sonnet 4.0 and Haiku 4.5 to Opus 4.8
and from gpt-4o to gpt-5.6. No recording in those cassettes holds Chinese text. Messages exchanges recorded in
2025 were left out: they bill the tool-use system prompt of the time (the 2025 table's 346 tokens with
tool_choice auto, e.g. ``test_anthropic/test_multiple_parallel_tool_calls.yaml``), not the current one, which
those recorded in 2026 show. Exchanges whose bodies carry
what the stand-in cannot read were left out: images, PDFs and audio; encrypted reasoning items produced by
OpenAI (the stand-in cannot decrypt another server's, as the real API cannot); requests that continue a
``previous_response_id`` the stand-in never stored; and hosted tools it does not run (web search, file
search, MCP, image generation).
"""

from __future__ import annotations

from typing import Any, NamedTuple

__all__ = ["REPOSITORY", "COMMIT", "Recorded", "RECORDED"]

REPOSITORY = "pydantic/pydantic-ai"
COMMIT = "4fda38988f2939fa6ea9cdefcf120693e10ef491"

FOX = "The quick brown fox jumps over the lazy dog. "
FILLER = "Remember this context: " + FOX * 5000 + "\n\nNow say hello."


class Recorded(NamedTuple):
    """One recorded exchange: where it is, the request body as sent, and the input tokens billed for it."""

    source: str  # the cassette's path in REPOSITORY
    interaction: int  # the request's index in the cassette
    api: str  # "messages", "responses" or "chat"
    model: str
    input_tokens: int  # every input token the response billed, cached ones included
    cached_tokens: int
    body: dict[str, Any]


RECORDED: tuple[Recorded, ...] = (
    Recorded(
        'tests/models/cassettes/test_tool_choice_matrix/test_tool_choice_matrix[auto-anthropic].yaml',
        0, 'messages', 'claude-sonnet-4-5', input_tokens=572, cached_tokens=0,
        body=
        {'max_tokens': 4096,
         'messages': [{'content': [{'text': "What's the weather in Paris?", 'type': 'text'}], 'role': 'user'}],
         'model': 'claude-sonnet-4-5',
         'stream': False,
         'tool_choice': {'type': 'auto'},
         'tools': [{'description': 'Get the current weather for a city.',
                    'input_schema': {'additionalProperties': False,
                                     'properties': {'city': {'type': 'string'}},
                                     'required': ['city'],
                                     'type': 'object'},
                    'name': 'get_weather'}]},
    ),
    Recorded(
        'tests/models/cassettes/test_tool_choice_matrix/test_tool_choice_matrix[auto-anthropic].yaml',
        1, 'messages', 'claude-sonnet-4-5', input_tokens=646, cached_tokens=0,
        body=
        {'max_tokens': 4096,
         'messages': [{'content': [{'text': "What's the weather in Paris?", 'type': 'text'}], 'role': 'user'},
                      {'content': [{'id': 'toolu_01WN4AuToBnJyXNQXwQBBebj',
                                    'input': {'city': 'Paris'},
                                    'name': 'get_weather',
                                    'type': 'tool_use'}],
                       'role': 'assistant'},
                      {'content': [{'content': 'Sunny, 22C in Paris',
                                    'is_error': False,
                                    'tool_use_id': 'toolu_01WN4AuToBnJyXNQXwQBBebj',
                                    'type': 'tool_result'}],
                       'role': 'user'}],
         'model': 'claude-sonnet-4-5',
         'stream': False,
         'tool_choice': {'type': 'auto'},
         'tools': [{'description': 'Get the current weather for a city.',
                    'input_schema': {'additionalProperties': False,
                                     'properties': {'city': {'type': 'string'}},
                                     'required': ['city'],
                                     'type': 'object'},
                    'name': 'get_weather'}]},
    ),
    Recorded(
        'tests/models/cassettes/test_tool_choice_matrix/test_tool_choice_matrix[none-anthropic].yaml',
        0, 'messages', 'claude-sonnet-4-5', input_tokens=567, cached_tokens=0,
        body=
        {'max_tokens': 4096,
         'messages': [{'content': [{'text': 'Say hello', 'type': 'text'}], 'role': 'user'}],
         'model': 'claude-sonnet-4-5',
         'stream': False,
         'tool_choice': {'type': 'none'},
         'tools': [{'description': 'Get the current weather for a city.',
                    'input_schema': {'additionalProperties': False,
                                     'properties': {'city': {'type': 'string'}},
                                     'required': ['city'],
                                     'type': 'object'},
                    'name': 'get_weather'}]},
    ),
    Recorded(
        'tests/models/cassettes/test_tool_choice_matrix/test_tool_choice_matrix[required-anthropic].yaml',
        0, 'messages', 'claude-sonnet-4-5', input_tokens=655, cached_tokens=0,
        body=
        {'max_tokens': 4096,
         'messages': [{'content': [{'text': "What's the weather in Paris?", 'type': 'text'}], 'role': 'user'}],
         'model': 'claude-sonnet-4-5',
         'stream': False,
         'tool_choice': {'type': 'any'},
         'tools': [{'description': 'Get weather for a city',
                    'input_schema': {'properties': {'city': {'type': 'string'}},
                                     'required': ['city'],
                                     'type': 'object'},
                    'name': 'get_weather'}]},
    ),
    Recorded(
        'tests/models/cassettes/test_tool_choice_matrix/test_tool_choice_matrix[list_single-anthropic].yaml',
        0, 'messages', 'claude-sonnet-4-5', input_tokens=713, cached_tokens=0,
        body=
        {'max_tokens': 4096,
         'messages': [{'content': [{'text': "What's the weather in Paris?", 'type': 'text'}], 'role': 'user'}],
         'model': 'claude-sonnet-4-5',
         'stream': False,
         'tool_choice': {'name': 'get_weather', 'type': 'tool'},
         'tools': [{'description': 'Get weather for a city',
                    'input_schema': {'properties': {'city': {'type': 'string'}},
                                     'required': ['city'],
                                     'type': 'object'},
                    'name': 'get_weather'},
                   {'description': 'Get time in a timezone',
                    'input_schema': {'properties': {'timezone': {'type': 'string'}},
                                     'required': ['timezone'],
                                     'type': 'object'},
                    'name': 'get_time'}]},
    ),
    Recorded(
        'tests/models/cassettes/test_tool_choice_matrix/test_tool_choice_matrix[tools_plus_output-anthropic].yaml',
        1, 'messages', 'claude-sonnet-4-5', input_tokens=805, cached_tokens=0,
        body=
        {'max_tokens': 4096,
         'messages': [{'content': [{'text': 'Get weather for Paris and summarize', 'type': 'text'}], 'role': 'user'},
                      {'content': [{'id': 'toolu_01ALzezEGs8tF6RPL5m4hRZA',
                                    'input': {'city': 'Paris'},
                                    'name': 'get_weather',
                                    'type': 'tool_use'}],
                       'role': 'assistant'},
                      {'content': [{'content': 'Sunny, 22C in Paris',
                                    'is_error': False,
                                    'tool_use_id': 'toolu_01ALzezEGs8tF6RPL5m4hRZA',
                                    'type': 'tool_result'}],
                       'role': 'user'}],
         'model': 'claude-sonnet-4-5',
         'stream': False,
         'tool_choice': {'type': 'any'},
         'tools': [{'description': 'Get the current weather for a city.',
                    'input_schema': {'additionalProperties': False,
                                     'properties': {'city': {'type': 'string'}},
                                     'required': ['city'],
                                     'type': 'object'},
                    'name': 'get_weather'},
                   {'description': 'The final response which ends this conversation',
                    'input_schema': {'properties': {'city': {'type': 'string'}, 'summary': {'type': 'string'}},
                                     'required': ['city', 'summary'],
                                     'type': 'object'},
                    'name': 'final_result'}]},
    ),
    Recorded(
        'tests/cassettes/test_ref_sibling_wire_contract/test_ref_sibling_wire_contract[anthropic-structured-dict].yaml',
        0, 'messages', 'claude-haiku-4-5', input_tokens=746, cached_tokens=0,
        body=
        {'max_tokens': 4096,
         'messages': [{'content': [{'text': 'Record this person: Ada Lovelace, who lives at 12 Baker Street in '
                                            'London.',
                                    'type': 'text'}],
                       'role': 'user'}],
         'model': 'claude-haiku-4-5',
         'stream': False,
         'tool_choice': {'type': 'any'},
         'tools': [{'description': 'The final response which ends this conversation',
                    'input_schema': {'properties': {'address': {'default': None,
                                                                'description': 'pyai-ref-sibling-sentinel: primary '
                                                                               'mailing address',
                                                                'properties': {'city': {'type': 'string'},
                                                                               'street': {'type': 'string'}},
                                                                'required': ['street', 'city'],
                                                                'type': 'object'},
                                                    'name': {'description': 'The person full name',
                                                             'type': 'string'}},
                                     'required': ['name'],
                                     'type': 'object'},
                    'name': 'final_result'}]},
    ),
    Recorded(
        'tests/models/cassettes/test_anthropic/test_anthropic_deferred_capability_without_tool_search_across_models[claude-haiku-4-5].yaml',
        0, 'messages', 'claude-haiku-4-5', input_tokens=657, cached_tokens=0,
        body=
        {'max_tokens': 4096,
         'messages': [{'content': [{'text': 'First load the refunds capability. Then call lookup_refund_policy for '
                                            'order-123. Return only the tool result.',
                                    'type': 'text'}],
                       'role': 'user'}],
         'model': 'claude-haiku-4-5',
         'stream': False,
         'system': [{'text': 'The following capabilities are deferred and can be loaded using the `load_capability` '
                             'tool:\n'
                             '- refunds: Refund policy tools. Load this capability before looking up refund policy.',
                     'type': 'text'}],
         'tool_choice': {'type': 'auto'},
         'tools': [{'description': 'Load a capability to access its full instructions and tools.',
                    'input_schema': {'description': 'Typed arguments for a `load_capability` tool call.',
                                     'properties': {'id': {'description': 'The id of the capability to load.',
                                                           'type': 'string'}},
                                     'required': ['id'],
                                     'type': 'object'},
                    'name': 'load_capability'},
                   {'defer_loading': True,
                    'description': '',
                    'input_schema': {'additionalProperties': False,
                                     'properties': {'order_id': {'type': 'string'}},
                                     'required': ['order_id'],
                                     'type': 'object'},
                    'name': 'lookup_refund_policy'}]},
    ),
    Recorded(
        'tests/models/cassettes/test_anthropic/test_anthropic_deferred_capability_without_tool_search_across_models[claude-haiku-4-5].yaml',
        1, 'messages', 'claude-haiku-4-5', input_tokens=858, cached_tokens=0,
        body=
        {'max_tokens': 4096,
         'messages': [{'content': [{'text': 'First load the refunds capability. Then call lookup_refund_policy for '
                                            'order-123. Return only the tool result.',
                                    'type': 'text'}],
                       'role': 'user'},
                      {'content': [{'id': 'toolu_01QQd3Sjue14gb3ghacSd33V',
                                    'input': {'id': 'refunds'},
                                    'name': 'load_capability',
                                    'type': 'tool_use'}],
                       'role': 'assistant'},
                      {'content': [{'content': [{'text': '{}', 'type': 'text'}],
                                    'is_error': False,
                                    'tool_use_id': 'toolu_01QQd3Sjue14gb3ghacSd33V',
                                    'type': 'tool_result'}],
                       'role': 'user'},
                      {'content': [{'id': 'auto_load_0f10f8b659c3c105',
                                    'input': {'queries': ['refunds']},
                                    'name': 'search_tools',
                                    'type': 'tool_use'}],
                       'role': 'assistant'},
                      {'content': [{'content': [{'tool_name': 'lookup_refund_policy', 'type': 'tool_reference'}],
                                    'is_error': False,
                                    'tool_use_id': 'auto_load_0f10f8b659c3c105',
                                    'type': 'tool_result'}],
                       'role': 'user'}],
         'model': 'claude-haiku-4-5',
         'stream': False,
         'system': [{'text': 'The following capabilities are deferred and can be loaded using the `load_capability` '
                             'tool:\n'
                             '- refunds: Refund policy tools. Load this capability before looking up refund policy.',
                     'type': 'text'}],
         'tool_choice': {'type': 'auto'},
         'tools': [{'description': 'Load a capability to access its full instructions and tools.',
                    'input_schema': {'description': 'Typed arguments for a `load_capability` tool call.',
                                     'properties': {'id': {'description': 'The id of the capability to load.',
                                                           'type': 'string'}},
                                     'required': ['id'],
                                     'type': 'object'},
                    'name': 'load_capability'},
                   {'defer_loading': True,
                    'description': '',
                    'input_schema': {'additionalProperties': False,
                                     'properties': {'order_id': {'type': 'string'}},
                                     'required': ['order_id'],
                                     'type': 'object'},
                    'name': 'lookup_refund_policy'}]},
    ),
    Recorded(
        'tests/models/cassettes/test_anthropic/test_anthropic_deferred_capability_without_tool_search_across_models[claude-haiku-4-5].yaml',
        2, 'messages', 'claude-haiku-4-5', input_tokens=980, cached_tokens=0,
        body=
        {'max_tokens': 4096,
         'messages': [{'content': [{'text': 'First load the refunds capability. Then call lookup_refund_policy for '
                                            'order-123. Return only the tool result.',
                                    'type': 'text'}],
                       'role': 'user'},
                      {'content': [{'id': 'toolu_01QQd3Sjue14gb3ghacSd33V',
                                    'input': {'id': 'refunds'},
                                    'name': 'load_capability',
                                    'type': 'tool_use'}],
                       'role': 'assistant'},
                      {'content': [{'content': [{'text': '{}', 'type': 'text'}],
                                    'is_error': False,
                                    'tool_use_id': 'toolu_01QQd3Sjue14gb3ghacSd33V',
                                    'type': 'tool_result'}],
                       'role': 'user'},
                      {'content': [{'id': 'auto_load_0f10f8b659c3c105',
                                    'input': {'queries': ['refunds']},
                                    'name': 'search_tools',
                                    'type': 'tool_use'}],
                       'role': 'assistant'},
                      {'content': [{'content': [{'tool_name': 'lookup_refund_policy', 'type': 'tool_reference'}],
                                    'is_error': False,
                                    'tool_use_id': 'auto_load_0f10f8b659c3c105',
                                    'type': 'tool_result'}],
                       'role': 'user'},
                      {'content': [{'text': "I apologize, but I don't have access to a `search_tools` function. Let "
                                            'me try calling the lookup_refund_policy function directly based on the '
                                            'refunds capability that was loaded:',
                                    'type': 'text'},
                                   {'id': 'toolu_018cqAFwLtULyoaiLSS2bgko',
                                    'input': {'order_id': 'order-123'},
                                    'name': 'lookup_refund_policy',
                                    'type': 'tool_use'}],
                       'role': 'assistant'},
                      {'content': [{'content': [{'text': 'order-123: refund allowed', 'type': 'text'}],
                                    'is_error': False,
                                    'tool_use_id': 'toolu_018cqAFwLtULyoaiLSS2bgko',
                                    'type': 'tool_result'}],
                       'role': 'user'}],
         'model': 'claude-haiku-4-5',
         'stream': False,
         'system': [{'text': 'The following capabilities are deferred and can be loaded using the `load_capability` '
                             'tool:\n'
                             '- refunds: Refund policy tools. Load this capability before looking up refund policy.',
                     'type': 'text'}],
         'tool_choice': {'type': 'auto'},
         'tools': [{'description': 'Load a capability to access its full instructions and tools.',
                    'input_schema': {'description': 'Typed arguments for a `load_capability` tool call.',
                                     'properties': {'id': {'description': 'The id of the capability to load.',
                                                           'type': 'string'}},
                                     'required': ['id'],
                                     'type': 'object'},
                    'name': 'load_capability'},
                   {'defer_loading': True,
                    'description': '',
                    'input_schema': {'additionalProperties': False,
                                     'properties': {'order_id': {'type': 'string'}},
                                     'required': ['order_id'],
                                     'type': 'object'},
                    'name': 'lookup_refund_policy'}]},
    ),
    Recorded(
        'tests/models/cassettes/test_anthropic/test_anthropic_opus_46_adaptive_thinking_accepts_tool_output[unified].yaml',
        0, 'messages', 'claude-opus-4-6', input_tokens=671, cached_tokens=0,
        body=
        {'max_tokens': 4096,
         'messages': [{'content': [{'text': 'What is the capital of France?', 'type': 'text'}], 'role': 'user'}],
         'model': 'claude-opus-4-6',
         'output_config': {'effort': 'high'},
         'stream': False,
         'thinking': {'type': 'adaptive'},
         'tool_choice': {'type': 'any'},
         'tools': [{'description': 'The final response which ends this conversation',
                    'input_schema': {'properties': {'city': {'type': 'string'}, 'country': {'type': 'string'}},
                                     'required': ['city', 'country'],
                                     'type': 'object'},
                    'name': 'final_result'}]},
    ),
    Recorded(
        'tests/models/cassettes/test_anthropic/test_anthropic_tool_with_thinking.yaml',
        1, 'messages', 'claude-sonnet-4-0', input_tokens=566, cached_tokens=0,
        body=
        {'max_tokens': 4096,
         'messages': [{'content': [{'text': 'What is the largest city in the user country?', 'type': 'text'}],
                       'role': 'user'},
                      {'content': [{'signature': 'EqEECkYICxgCKkAo3UA4WwDbB8ihhpykVCsPx6iMzwNTNP8dePIgYjNpu2EWrt5JbApWWONEZaf5w46939Vu1SDU1//mDyr2/Vw+EgzsGM/71Y3P0MXKjXUaDHkHCRdukfBjp1m8TSIwzpBcCTBuNvX8NFjVMEou+UuHA4AtNJpahNT/iGfsTwwon4x/mlYNE+EZSDRaLY+jKogD7Bi7ls1t/hhZPrU6wxlcKv6qqXXkGdFSSyrRFvRgG9325pNIk9Dwc/GJriXjj+nGkaNWMfNLdWHtCj/5fTw+qZQCeeyoxzZAG+3Nxp1d694aCO/DkbTUf2B0JcCKVQBgyeTXmCDkZvSLwdalOb3Al4zV3H0ejqF++8r+5p8f67O2MOrxVQHNhJGpIaynvlouJP++FQdTCxUDFlyuvyGYqpijxFFSY0yaZe4KpOaTv4XLZiDwd5WohnKB3JUQnh0S5xY7AjDqPccxo0c88qO4XLRAa0TiDO6dP6o9SXz9zUiPxsBwAHymsZL/iomyZqKRJ3AMjKo8cLFWwxWHq8HsCqrikq/HZ1R8tr2PpMIBH+TJ0FyFMGCYkVqfH0/HzEqGGre8iOA11XCU3r5dwHXHfh4qgRP2lxTrGR7RcSGkNfmdTtziti2whEAWKhN0dcgNmRfJ2sKKSo/sNcTAcxOBUgJMB5L0B/ze9H9oDR9WtGspFUsKYkAHvHeBlXKVa+SkcXhw9EK5/JwYAQ==',
                                    'thinking': 'The user is asking about the largest city in "the user country". To '
                                                'answer this question, I first need to determine what country the '
                                                'user is from. I have access to a function called "get_user_country" '
                                                "that can help me find out the user's country. Once I know the "
                                                'country, I can then provide information about its largest city.\n'
                                                '\n'
                                                'Let me call the get_user_country function first.',
                                    'type': 'thinking'},
                                   {'text': "I'll help you find the largest city in your country. First, let me "
                                            "determine which country you're from.",
                                    'type': 'text'},
                                   {'id': 'toolu_01YGzqpRE16Vricda3Aqcejo',
                                    'input': {},
                                    'name': 'get_user_country',
                                    'type': 'tool_use'}],
                       'role': 'assistant'},
                      {'content': [{'content': 'Mexico',
                                    'is_error': False,
                                    'tool_use_id': 'toolu_01YGzqpRE16Vricda3Aqcejo',
                                    'type': 'tool_result'}],
                       'role': 'user'}],
         'model': 'claude-sonnet-4-0',
         'stream': False,
         'thinking': {'budget_tokens': 3000, 'type': 'enabled'},
         'tool_choice': {'type': 'auto'},
         'tools': [{'description': '',
                    'input_schema': {'additionalProperties': False, 'properties': {}, 'type': 'object'},
                    'name': 'get_user_country'}]},
    ),
    Recorded(
        'tests/cassettes/test_tool_search/test_anthropic_custom_callable_round_trip.yaml',
        2, 'messages', 'claude-sonnet-4-5', input_tokens=1073, cached_tokens=0,
        body=
        {'max_tokens': 4096,
         'messages': [{'content': [{'text': 'What is the USD to EUR exchange rate?', 'type': 'text'}],
                       'role': 'user'},
                      {'content': [{'text': "I'll search for a tool that can help with currency exchange rates.",
                                    'type': 'text'},
                                   {'id': 'toolu_01FWrycbhCvuTogJufWKj2Mu',
                                    'input': {'queries': ['currency exchange rate USD EUR',
                                                          'exchange rate converter',
                                                          'foreign exchange']},
                                    'name': 'search_tools',
                                    'type': 'tool_use'}],
                       'role': 'assistant'},
                      {'content': [{'content': [{'tool_name': 'get_exchange_rate', 'type': 'tool_reference'}],
                                    'is_error': False,
                                    'tool_use_id': 'toolu_01FWrycbhCvuTogJufWKj2Mu',
                                    'type': 'tool_result'}],
                       'role': 'user'},
                      {'content': [{'text': 'Great! I found a tool to get exchange rates. Let me check the current '
                                            'USD to EUR exchange rate for you.',
                                    'type': 'text'},
                                   {'id': 'toolu_01NKR8AepojeiSr76aFLLTiL',
                                    'input': {'from_currency': 'USD', 'to_currency': 'EUR'},
                                    'name': 'get_exchange_rate',
                                    'type': 'tool_use'}],
                       'role': 'assistant'},
                      {'content': [{'content': [{'text': '1 USD = 0.92 EUR', 'type': 'text'}],
                                    'is_error': False,
                                    'tool_use_id': 'toolu_01NKR8AepojeiSr76aFLLTiL',
                                    'type': 'tool_result'}],
                       'role': 'user'}],
         'model': 'claude-sonnet-4-5',
         'stream': False,
         'tool_choice': {'type': 'auto'},
         'tools': [{'description': 'Get the current weather for a city.',
                    'input_schema': {'additionalProperties': False,
                                     'properties': {'city': {'type': 'string'}},
                                     'required': ['city'],
                                     'type': 'object'},
                    'name': 'get_weather'},
                   {'defer_loading': True,
                    'description': 'Look up the current exchange rate between two currencies.',
                    'input_schema': {'additionalProperties': False,
                                     'properties': {'from_currency': {'type': 'string'},
                                                    'to_currency': {'type': 'string'}},
                                     'required': ['from_currency', 'to_currency'],
                                     'type': 'object'},
                    'name': 'get_exchange_rate'},
                   {'defer_loading': True,
                    'description': 'Look up stock price by ticker symbol.',
                    'input_schema': {'additionalProperties': False,
                                     'properties': {'symbol': {'type': 'string'}},
                                     'required': ['symbol'],
                                     'type': 'object'},
                    'name': 'stock_lookup'},
                   {'description': 'There are additional tools not yet visible to you. When you need a capability '
                                   'not provided by your current tools, search here by providing one or more queries '
                                   'to discover and activate relevant tools. Each query is tokenized into words; '
                                   'tool names and descriptions are scored by token overlap. If no tools are found, '
                                   'they do not exist -- do not retry.',
                    'input_schema': {'additionalProperties': False,
                                     'properties': {'queries': {'description': 'List of search queries to match '
                                                                               'against tool names and descriptions. '
                                                                               'Use specific words likely to appear '
                                                                               'in tool names or descriptions to '
                                                                               'narrow down relevant tools. Each '
                                                                               'query is independently tokenized; '
                                                                               'matches across queries are unioned.',
                                                                'items': {'type': 'string'},
                                                                'type': 'array'}},
                                     'required': ['queries'],
                                     'type': 'object'},
                    'name': 'search_tools'}]},
    ),
    Recorded(
        'tests/models/cassettes/test_anthropic/test_anthropic_mixed_strict_tool_run.yaml',
        2, 'messages', 'claude-sonnet-4-5', input_tokens=757, cached_tokens=0,
        body=
        {'max_tokens': 4096,
         'messages': [{'content': [{'text': 'Use the registered tools and respond exactly as `Capital: <city>`.',
                                    'type': 'text'}],
                       'role': 'user'},
                      {'content': [{'text': "I'll help you find the capital city using the available tools.",
                                    'type': 'text'},
                                   {'id': 'toolu_01Ttepb9joVoQFHP568v7UAL',
                                    'input': {},
                                    'name': 'country_source',
                                    'type': 'tool_use'}],
                       'role': 'assistant'},
                      {'content': [{'content': 'Japan',
                                    'is_error': False,
                                    'tool_use_id': 'toolu_01Ttepb9joVoQFHP568v7UAL',
                                    'type': 'tool_result'}],
                       'role': 'user'},
                      {'content': [{'id': 'toolu_011j5uC2Tg3TZJo3nmLtJ8Mm',
                                    'input': {'country': 'Japan'},
                                    'name': 'capital_lookup',
                                    'type': 'tool_use'}],
                       'role': 'assistant'},
                      {'content': [{'content': 'Tokyo',
                                    'is_error': False,
                                    'tool_use_id': 'toolu_011j5uC2Tg3TZJo3nmLtJ8Mm',
                                    'type': 'tool_result'}],
                       'role': 'user'}],
         'model': 'claude-sonnet-4-5',
         'stream': False,
         'system': 'Always call `country_source` first, then call `capital_lookup` with that result before replying.',
         'tool_choice': {'type': 'auto'},
         'tools': [{'description': '',
                    'input_schema': {'additionalProperties': False, 'properties': {}, 'type': 'object'},
                    'name': 'country_source',
                    'strict': True},
                   {'description': '',
                    'input_schema': {'additionalProperties': False,
                                     'properties': {'country': {'type': 'string'}},
                                     'required': ['country'],
                                     'type': 'object'},
                    'name': 'capital_lookup'}]},
    ),
    Recorded(
        'tests/cassettes/test_tool_search/test_anthropic_native_tool_search_round_trip.yaml',
        0, 'messages', 'claude-sonnet-4-5', input_tokens=1605, cached_tokens=0,
        body=
        {'max_tokens': 4096,
         'messages': [{'content': [{'text': 'What is the current USD to EUR exchange rate?', 'type': 'text'}],
                       'role': 'user'}],
         'model': 'claude-sonnet-4-5',
         'stream': False,
         'tool_choice': {'type': 'auto'},
         'tools': [{'defer_loading': True,
                    'description': 'Look up the current exchange rate between two currencies.',
                    'input_schema': {'additionalProperties': False,
                                     'properties': {'from_currency': {'type': 'string'},
                                                    'to_currency': {'type': 'string'}},
                                     'required': ['from_currency', 'to_currency'],
                                     'type': 'object'},
                    'name': 'get_exchange_rate'},
                   {'defer_loading': True,
                    'description': 'Look up stock price by ticker symbol.',
                    'input_schema': {'additionalProperties': False,
                                     'properties': {'symbol': {'type': 'string'}},
                                     'required': ['symbol'],
                                     'type': 'object'},
                    'name': 'stock_lookup'},
                   {'name': 'tool_search_tool_bm25', 'type': 'tool_search_tool_bm25_20251119'}]},
    ),
    Recorded(
        'tests/cassettes/test_tool_search/test_anthropic_native_tool_search_round_trip.yaml',
        1, 'messages', 'claude-sonnet-4-5', input_tokens=1029, cached_tokens=0,
        body=
        {'max_tokens': 4096,
         'messages': [{'content': [{'text': 'What is the current USD to EUR exchange rate?', 'type': 'text'}],
                       'role': 'user'},
                      {'content': [{'text': "I'll search for a tool that can provide currency exchange rates.",
                                    'type': 'text'},
                                   {'id': 'srvtoolu_01HYRS22QTaC1QoZzAv2QBFE',
                                    'input': {'limit': 5, 'query': 'USD EUR exchange rate currency conversion'},
                                    'name': 'tool_search_tool_bm25',
                                    'type': 'server_tool_use'},
                                   {'content': {'tool_references': [{'tool_name': 'get_exchange_rate',
                                                                     'type': 'tool_reference'}],
                                                'type': 'tool_search_tool_search_result'},
                                    'tool_use_id': 'srvtoolu_01HYRS22QTaC1QoZzAv2QBFE',
                                    'type': 'tool_search_tool_result'},
                                   {'text': 'Perfect! I found a tool to get the exchange rate. Let me use it to find '
                                            'the current USD to EUR exchange rate.',
                                    'type': 'text'},
                                   {'id': 'toolu_016VSqyszw35EYg7XCuPZ8cg',
                                    'input': {'from_currency': 'USD', 'to_currency': 'EUR'},
                                    'name': 'get_exchange_rate',
                                    'type': 'tool_use'}],
                       'role': 'assistant'},
                      {'content': [{'content': [{'text': '1 USD = 0.92 EUR', 'type': 'text'}],
                                    'is_error': False,
                                    'tool_use_id': 'toolu_016VSqyszw35EYg7XCuPZ8cg',
                                    'type': 'tool_result'}],
                       'role': 'user'}],
         'model': 'claude-sonnet-4-5',
         'stream': False,
         'tool_choice': {'type': 'auto'},
         'tools': [{'defer_loading': True,
                    'description': 'Look up the current exchange rate between two currencies.',
                    'input_schema': {'additionalProperties': False,
                                     'properties': {'from_currency': {'type': 'string'},
                                                    'to_currency': {'type': 'string'}},
                                     'required': ['from_currency', 'to_currency'],
                                     'type': 'object'},
                    'name': 'get_exchange_rate'},
                   {'defer_loading': True,
                    'description': 'Look up stock price by ticker symbol.',
                    'input_schema': {'additionalProperties': False,
                                     'properties': {'symbol': {'type': 'string'}},
                                     'required': ['symbol'],
                                     'type': 'object'},
                    'name': 'stock_lookup'},
                   {'name': 'tool_search_tool_bm25', 'type': 'tool_search_tool_bm25_20251119'}]},
    ),
    Recorded(
        'tests/cassettes/test_native_tool_search_vcr/test_anthropic_native_tool_search.yaml',
        0, 'messages', 'claude-sonnet-4-5', input_tokens=1867, cached_tokens=0,
        body=
        {'max_tokens': 1024,
         'messages': [{'content': 'What is the current exchange rate from USD to EUR?', 'role': 'user'}],
         'model': 'claude-sonnet-4-5',
         'tools': [{'description': 'Get the current weather for a city.',
                    'input_schema': {'additionalProperties': False,
                                     'properties': {'city': {'type': 'string'}},
                                     'required': ['city'],
                                     'type': 'object'},
                    'name': 'get_weather',
                    'type': 'custom'},
                   {'defer_loading': True,
                    'description': 'Look up the current exchange rate between two currencies.',
                    'input_schema': {'additionalProperties': False,
                                     'properties': {'from_currency': {'type': 'string'},
                                                    'to_currency': {'type': 'string'}},
                                     'required': ['from_currency', 'to_currency'],
                                     'type': 'object'},
                    'name': 'get_exchange_rate',
                    'type': 'custom'},
                   {'defer_loading': True,
                    'description': 'Look up stock price by ticker symbol.',
                    'input_schema': {'additionalProperties': False,
                                     'properties': {'symbol': {'type': 'string'}},
                                     'required': ['symbol'],
                                     'type': 'object'},
                    'name': 'stock_lookup',
                    'type': 'custom'},
                   {'defer_loading': True,
                    'description': 'Calculate monthly mortgage payment for a home loan.',
                    'input_schema': {'additionalProperties': False,
                                     'properties': {'principal': {'type': 'number'},
                                                    'rate': {'type': 'number'},
                                                    'years': {'type': 'integer'}},
                                     'required': ['principal', 'rate', 'years'],
                                     'type': 'object'},
                    'name': 'mortgage_calculator',
                    'type': 'custom'},
                   {'name': 'tool_search_tool_bm25', 'type': 'tool_search_tool_bm25_20251119'}]},
    ),
    Recorded(
        'tests/cassettes/test_tool_availability_portability/test_tool_availability_portability_matrix[R1-T2-native-search].yaml',
        0, 'messages', 'claude-sonnet-4-6', input_tokens=910, cached_tokens=0,
        body=
        {'max_tokens': 4096,
         'messages': [{'content': [{'text': 'Find the exchange-rate tool.', 'type': 'text'}], 'role': 'user'},
                      {'content': [{'id': 'search_call_1',
                                    'input': {'queries': ['exchange rate']},
                                    'name': 'search_tools',
                                    'type': 'tool_use'}],
                       'role': 'assistant'},
                      {'content': [{'content': [{'tool_name': 'lookup_exchange_rate', 'type': 'tool_reference'}],
                                    'is_error': False,
                                    'tool_use_id': 'search_call_1',
                                    'type': 'tool_result'},
                                   {'text': 'Acknowledge the available exchange-rate tool without calling it.',
                                    'type': 'text'}],
                       'role': 'user'}],
         'model': 'claude-sonnet-4-6',
         'stream': False,
         'tool_choice': {'type': 'auto'},
         'tools': [{'description': 'Provide an always-available tool so provider tool lists remain valid.',
                    'input_schema': {'additionalProperties': False, 'properties': {}, 'type': 'object'},
                    'name': 'always_ready'},
                   {'defer_loading': True,
                    'description': 'Look up an exchange rate.',
                    'input_schema': {'additionalProperties': False,
                                     'properties': {'currency': {'type': 'string'}},
                                     'required': ['currency'],
                                     'type': 'object'},
                    'name': 'lookup_exchange_rate'},
                   {'name': 'tool_search_tool_bm25', 'type': 'tool_search_tool_bm25_20251119'}]},
    ),
    Recorded(
        'tests/cassettes/test_tool_search/test_tool_search_eval[anthropic].yaml',
        2, 'messages', 'claude-sonnet-4-5', input_tokens=1010, cached_tokens=0,
        body=
        {'max_tokens': 4096,
         'messages': [{'content': [{'text': 'What is the current exchange rate from USD to EUR?', 'type': 'text'}],
                       'role': 'user'},
                      {'content': [{'text': "I'll search for a tool that can help with currency exchange rates.",
                                    'type': 'text'},
                                   {'id': 'toolu_01TJFmX2n49mEqVYj7CJcXzg',
                                    'input': {'queries': ['currency exchange rate',
                                                          'USD EUR conversion',
                                                          'foreign exchange',
                                                          'currency converter']},
                                    'name': 'search_tools',
                                    'type': 'tool_use'}],
                       'role': 'assistant'},
                      {'content': [{'content': [{'text': '{"discovered_tools":[{"name":"get_exchange_rate","description":"Look '
                                                         'up the current exchange rate between two currencies."}]}',
                                                 'type': 'text'}],
                                    'is_error': False,
                                    'tool_use_id': 'toolu_01TJFmX2n49mEqVYj7CJcXzg',
                                    'type': 'tool_result'}],
                       'role': 'user'},
                      {'content': [{'text': 'Great! I found a tool to get exchange rates. Let me get the current USD '
                                            'to EUR exchange rate for you.',
                                    'type': 'text'},
                                   {'id': 'toolu_01AkhyaNEd3ZiaheHj6DiYEv',
                                    'input': {'from_currency': 'USD', 'to_currency': 'EUR'},
                                    'name': 'get_exchange_rate',
                                    'type': 'tool_use'}],
                       'role': 'assistant'},
                      {'content': [{'content': [{'text': '1 USD = 0.92 EUR', 'type': 'text'}],
                                    'is_error': False,
                                    'tool_use_id': 'toolu_01AkhyaNEd3ZiaheHj6DiYEv',
                                    'type': 'tool_result'}],
                       'role': 'user'}],
         'model': 'claude-sonnet-4-5',
         'stream': False,
         'tool_choice': {'type': 'auto'},
         'tools': [{'description': 'Get the current weather for a city.',
                    'input_schema': {'additionalProperties': False,
                                     'properties': {'city': {'type': 'string'}},
                                     'required': ['city'],
                                     'type': 'object'},
                    'name': 'get_weather'},
                   {'defer_loading': True,
                    'description': 'Look up the current exchange rate between two currencies.',
                    'input_schema': {'additionalProperties': False,
                                     'properties': {'from_currency': {'type': 'string'},
                                                    'to_currency': {'type': 'string'}},
                                     'required': ['from_currency', 'to_currency'],
                                     'type': 'object'},
                    'name': 'get_exchange_rate'},
                   {'description': 'There are additional tools not yet visible to you. When you need a capability '
                                   'not provided by your current tools, search here by providing one or more queries '
                                   'to discover and activate relevant tools. Each query is tokenized into words; '
                                   'tool names and descriptions are scored by token overlap. If no tools are found, '
                                   'they do not exist -- do not retry.',
                    'input_schema': {'additionalProperties': False,
                                     'properties': {'queries': {'description': 'List of search queries to match '
                                                                               'against tool names and descriptions. '
                                                                               'Use specific words likely to appear '
                                                                               'in tool names or descriptions to '
                                                                               'narrow down relevant tools. Each '
                                                                               'query is independently tokenized; '
                                                                               'matches across queries are unioned.',
                                                                'items': {'type': 'string'},
                                                                'type': 'array'}},
                                     'required': ['queries'],
                                     'type': 'object'},
                    'name': 'search_tools'}]},
    ),
    Recorded(
        'tests/models/cassettes/test_anthropic/test_anthropic_code_execution_tool.yaml',
        0, 'messages', 'claude-sonnet-4-6', input_tokens=4692, cached_tokens=0,
        body=
        {'max_tokens': 4096,
         'messages': [{'content': [{'text': 'How much is 3 * 12390?', 'type': 'text'}], 'role': 'user'}],
         'model': 'claude-sonnet-4-6',
         'stream': False,
         'system': [{'text': 'Always use the code execution tool for math.', 'type': 'text'}],
         'thinking': {'budget_tokens': 3000, 'type': 'enabled'},
         'tool_choice': {'type': 'auto'},
         'tools': [{'name': 'code_execution', 'type': 'code_execution_20260120'}]},
    ),
    Recorded(
        'tests/models/cassettes/test_anthropic/test_anthropic_code_execution_tool_container_reuse.yaml',
        1, 'messages', 'claude-sonnet-4-5', input_tokens=4840, cached_tokens=0,
        body=
        {'container': 'container_011Caqgq9X3d68B2So2LZGmk',
         'max_tokens': 4096,
         'messages': [{'content': [{'text': 'How much is 3 * 12390?', 'type': 'text'}], 'role': 'user'},
                      {'content': [{'id': 'srvtoolu_01HdeXFEfm2TUaENsFep6QUJ',
                                    'input': {'command': 'echo $((3 * 12390))'},
                                    'name': 'bash_code_execution',
                                    'type': 'server_tool_use'},
                                   {'content': {'content': [],
                                                'return_code': 0,
                                                'stderr': '',
                                                'stdout': '37170\n',
                                                'type': 'bash_code_execution_result'},
                                    'tool_use_id': 'srvtoolu_01HdeXFEfm2TUaENsFep6QUJ',
                                    'type': 'bash_code_execution_tool_result'},
                                   {'text': '3 * 12390 = **37,170**', 'type': 'text'}],
                       'role': 'assistant'},
                      {'content': [{'text': 'And what about 4 * 12390?', 'type': 'text'}], 'role': 'user'}],
         'model': 'claude-sonnet-4-5',
         'stream': False,
         'system': [{'text': 'Always use the code execution tool for math.', 'type': 'text'}],
         'tool_choice': {'type': 'auto'},
         'tools': [{'name': 'code_execution', 'type': 'code_execution_20260120'}]},
    ),
    Recorded(
        'tests/models/cassettes/test_anthropic/test_anthropic_compaction_end_to_end.yaml',
        0, 'messages', 'claude-sonnet-4-6', input_tokens=55416, cached_tokens=0,
        body=
        {'context_management': {'edits': [{'trigger': {'type': 'input_tokens', 'value': 50000},
                                           'type': 'compact_20260112'}]},
         'max_tokens': 4096,
         'messages': [{'content': [{'text': FILLER, 'type': 'text'}], 'role': 'user'}],
         'model': 'claude-sonnet-4-6',
         'stream': False,
         'system': 'You are a helpful assistant. Be very brief.'},
    ),
    Recorded(
        'tests/models/cassettes/test_anthropic/test_anthropic_compaction_end_to_end.yaml',
        1, 'messages', 'claude-sonnet-4-6', input_tokens=239, cached_tokens=0,
        body=
        {'context_management': {'edits': [{'trigger': {'type': 'input_tokens', 'value': 50000},
                                           'type': 'compact_20260112'}]},
         'max_tokens': 4096,
         'messages': [{'content': [{'text': FILLER, 'type': 'text'}], 'role': 'user'},
                      {'content': [{'content': 'The user provided a very long context consisting entirely of the '
                                               'repeated sentence "The quick brown fox jumps over the lazy dog." '
                                               'repeated hundreds of times, followed by the instruction "Now say '
                                               'hello." The user then asked for a summary of the transcript for '
                                               'continuity purposes.\n'
                                               '\n'
                                               'The task is simple: the user wants me to say hello. The entire '
                                               'context was just filler text (the pangram repeated many times) with '
                                               'the actual request being "Now say hello" at the end.\n'
                                               '\n'
                                               'Next step: Say hello to the user.',
                                    'type': 'compaction'},
                                   {'text': 'Hello! 👋', 'type': 'text'}],
                       'role': 'assistant'},
                      {'content': [{'text': 'What did I ask you to do?', 'type': 'text'}], 'role': 'user'}],
         'model': 'claude-sonnet-4-6',
         'stream': False,
         'system': 'You are a helpful assistant. Be very brief.'},
    ),
    Recorded(
        'tests/models/cassettes/test_anthropic/test_anthropic_cache_real_api.yaml',
        0, 'messages', 'claude-sonnet-4-5', input_tokens=1114, cached_tokens=1111,
        body=
        {'cache_control': {'ttl': '5m', 'type': 'ephemeral'},
         'max_tokens': 4096,
         'messages': [{'content': [{'text': 'Please explain what Python is and its main use cases. Please explain '
                                            'what Python is and its main use cases. Please explain what Python is '
                                            'and its main use cases. Please explain what Python is and its main use '
                                            'cases. Please explain what Python is and its main use cases. Please '
                                            'explain what Python is and its main use cases. Please explain what '
                                            'Python is and its main use cases. Please explain what Python is and its '
                                            'main use cases. Please explain what Python is and its main use cases. '
                                            'Please explain what Python is and its main use cases. Please explain '
                                            'what Python is and its main use cases. Please explain what Python is '
                                            'and its main use cases. Please explain what Python is and its main use '
                                            'cases. Please explain what Python is and its main use cases. Please '
                                            'explain what Python is and its main use cases. Please explain what '
                                            'Python is and its main use cases. Please explain what Python is and its '
                                            'main use cases. Please explain what Python is and its main use cases. '
                                            'Please explain what Python is and its main use cases. Please explain '
                                            'what Python is and its main use cases. Please explain what Python is '
                                            'and its main use cases. Please explain what Python is and its main use '
                                            'cases. Please explain what Python is and its main use cases. Please '
                                            'explain what Python is and its main use cases. Please explain what '
                                            'Python is and its main use cases. Please explain what Python is and its '
                                            'main use cases. Please explain what Python is and its main use cases. '
                                            'Please explain what Python is and its main use cases. Please explain '
                                            'what Python is and its main use cases. Please explain what Python is '
                                            'and its main use cases. Please explain what Python is and its main use '
                                            'cases. Please explain what Python is and its main use cases. Please '
                                            'explain what Python is and its main use cases. Please explain what '
                                            'Python is and its main use cases. Please explain what Python is and its '
                                            'main use cases. Please explain what Python is and its main use cases. '
                                            'Please explain what Python is and its main use cases. Please explain '
                                            'what Python is and its main use cases. Please explain what Python is '
                                            'and its main use cases. Please explain what Python is and its main use '
                                            'cases. Please explain what Python is and its main use cases. Please '
                                            'explain what Python is and its main use cases. Please explain what '
                                            'Python is and its main use cases. Please explain what Python is and its '
                                            'main use cases. Please explain what Python is and its main use cases. '
                                            'Please explain what Python is and its main use cases. Please explain '
                                            'what Python is and its main use cases. Please explain what Python is '
                                            'and its main use cases. Please explain what Python is and its main use '
                                            'cases. Please explain what Python is and its main use cases. Please '
                                            'explain what Python is and its main use cases. Please explain what '
                                            'Python is and its main use cases. Please explain what Python is and its '
                                            'main use cases. Please explain what Python is and its main use cases. '
                                            'Please explain what Python is and its main use cases. Please explain '
                                            'what Python is and its main use cases. Please explain what Python is '
                                            'and its main use cases. Please explain what Python is and its main use '
                                            'cases. Please explain what Python is and its main use cases. Please '
                                            'explain what Python is and its main use cases. Please explain what '
                                            'Python is and its main use cases. Please explain what Python is and its '
                                            'main use cases. Please explain what Python is and its main use cases. '
                                            'Please explain what Python is and its main use cases. Please explain '
                                            'what Python is and its main use cases. Please explain what Python is '
                                            'and its main use cases. Please explain what Python is and its main use '
                                            'cases. Please explain what Python is and its main use cases. Please '
                                            'explain what Python is and its main use cases. Please explain what '
                                            'Python is and its main use cases. Please explain what Python is and its '
                                            'main use cases. Please explain what Python is and its main use cases. '
                                            'Please explain what Python is and its main use cases. Please explain '
                                            'what Python is and its main use cases. Please explain what Python is '
                                            'and its main use cases. Please explain what Python is and its main use '
                                            'cases. Please explain what Python is and its main use cases. Please '
                                            'explain what Python is and its main use cases. Please explain what '
                                            'Python is and its main use cases. Please explain what Python is and its '
                                            'main use cases. Please explain what Python is and its main use cases. '
                                            'Please explain what Python is and its main use cases. Please explain '
                                            'what Python is and its main use cases. Please explain what Python is '
                                            'and its main use cases. Please explain what Python is and its main use '
                                            'cases. Please explain what Python is and its main use cases. Please '
                                            'explain what Python is and its main use cases. Please explain what '
                                            'Python is and its main use cases. Please explain what Python is and its '
                                            'main use cases. Please explain what Python is and its main use cases. '
                                            'Please explain what Python is and its main use cases. Please explain '
                                            'what Python is and its main use cases. Please explain what Python is '
                                            'and its main use cases. Please explain what Python is and its main use '
                                            'cases. Please explain what Python is and its main use cases. Please '
                                            'explain what Python is and its main use cases. Please explain what '
                                            'Python is and its main use cases. Please explain what Python is and its '
                                            'main use cases. Please explain what Python is and its main use cases. '
                                            'Please explain what Python is and its main use cases. ',
                                    'type': 'text'}],
                       'role': 'user'}],
         'model': 'claude-sonnet-4-5',
         'stream': False,
         'system': 'You are a helpful assistant.'},
    ),
    Recorded(
        'tests/models/cassettes/test_anthropic/test_anthropic_cache_real_api.yaml',
        1, 'messages', 'claude-sonnet-4-5', input_tokens=1532, cached_tokens=1111,
        body=
        {'cache_control': {'ttl': '5m', 'type': 'ephemeral'},
         'max_tokens': 4096,
         'messages': [{'content': [{'text': 'Please explain what Python is and its main use cases. Please explain '
                                            'what Python is and its main use cases. Please explain what Python is '
                                            'and its main use cases. Please explain what Python is and its main use '
                                            'cases. Please explain what Python is and its main use cases. Please '
                                            'explain what Python is and its main use cases. Please explain what '
                                            'Python is and its main use cases. Please explain what Python is and its '
                                            'main use cases. Please explain what Python is and its main use cases. '
                                            'Please explain what Python is and its main use cases. Please explain '
                                            'what Python is and its main use cases. Please explain what Python is '
                                            'and its main use cases. Please explain what Python is and its main use '
                                            'cases. Please explain what Python is and its main use cases. Please '
                                            'explain what Python is and its main use cases. Please explain what '
                                            'Python is and its main use cases. Please explain what Python is and its '
                                            'main use cases. Please explain what Python is and its main use cases. '
                                            'Please explain what Python is and its main use cases. Please explain '
                                            'what Python is and its main use cases. Please explain what Python is '
                                            'and its main use cases. Please explain what Python is and its main use '
                                            'cases. Please explain what Python is and its main use cases. Please '
                                            'explain what Python is and its main use cases. Please explain what '
                                            'Python is and its main use cases. Please explain what Python is and its '
                                            'main use cases. Please explain what Python is and its main use cases. '
                                            'Please explain what Python is and its main use cases. Please explain '
                                            'what Python is and its main use cases. Please explain what Python is '
                                            'and its main use cases. Please explain what Python is and its main use '
                                            'cases. Please explain what Python is and its main use cases. Please '
                                            'explain what Python is and its main use cases. Please explain what '
                                            'Python is and its main use cases. Please explain what Python is and its '
                                            'main use cases. Please explain what Python is and its main use cases. '
                                            'Please explain what Python is and its main use cases. Please explain '
                                            'what Python is and its main use cases. Please explain what Python is '
                                            'and its main use cases. Please explain what Python is and its main use '
                                            'cases. Please explain what Python is and its main use cases. Please '
                                            'explain what Python is and its main use cases. Please explain what '
                                            'Python is and its main use cases. Please explain what Python is and its '
                                            'main use cases. Please explain what Python is and its main use cases. '
                                            'Please explain what Python is and its main use cases. Please explain '
                                            'what Python is and its main use cases. Please explain what Python is '
                                            'and its main use cases. Please explain what Python is and its main use '
                                            'cases. Please explain what Python is and its main use cases. Please '
                                            'explain what Python is and its main use cases. Please explain what '
                                            'Python is and its main use cases. Please explain what Python is and its '
                                            'main use cases. Please explain what Python is and its main use cases. '
                                            'Please explain what Python is and its main use cases. Please explain '
                                            'what Python is and its main use cases. Please explain what Python is '
                                            'and its main use cases. Please explain what Python is and its main use '
                                            'cases. Please explain what Python is and its main use cases. Please '
                                            'explain what Python is and its main use cases. Please explain what '
                                            'Python is and its main use cases. Please explain what Python is and its '
                                            'main use cases. Please explain what Python is and its main use cases. '
                                            'Please explain what Python is and its main use cases. Please explain '
                                            'what Python is and its main use cases. Please explain what Python is '
                                            'and its main use cases. Please explain what Python is and its main use '
                                            'cases. Please explain what Python is and its main use cases. Please '
                                            'explain what Python is and its main use cases. Please explain what '
                                            'Python is and its main use cases. Please explain what Python is and its '
                                            'main use cases. Please explain what Python is and its main use cases. '
                                            'Please explain what Python is and its main use cases. Please explain '
                                            'what Python is and its main use cases. Please explain what Python is '
                                            'and its main use cases. Please explain what Python is and its main use '
                                            'cases. Please explain what Python is and its main use cases. Please '
                                            'explain what Python is and its main use cases. Please explain what '
                                            'Python is and its main use cases. Please explain what Python is and its '
                                            'main use cases. Please explain what Python is and its main use cases. '
                                            'Please explain what Python is and its main use cases. Please explain '
                                            'what Python is and its main use cases. Please explain what Python is '
                                            'and its main use cases. Please explain what Python is and its main use '
                                            'cases. Please explain what Python is and its main use cases. Please '
                                            'explain what Python is and its main use cases. Please explain what '
                                            'Python is and its main use cases. Please explain what Python is and its '
                                            'main use cases. Please explain what Python is and its main use cases. '
                                            'Please explain what Python is and its main use cases. Please explain '
                                            'what Python is and its main use cases. Please explain what Python is '
                                            'and its main use cases. Please explain what Python is and its main use '
                                            'cases. Please explain what Python is and its main use cases. Please '
                                            'explain what Python is and its main use cases. Please explain what '
                                            'Python is and its main use cases. Please explain what Python is and its '
                                            'main use cases. Please explain what Python is and its main use cases. '
                                            'Please explain what Python is and its main use cases. ',
                                    'type': 'text'}],
                       'role': 'user'},
                      {'content': [{'text': '# What is Python?\n'
                                            '\n'
                                            'Python is a high-level, interpreted programming language created by '
                                            "Guido van Rossum and first released in 1991. It's designed with an "
                                            'emphasis on code readability and simplicity, using significant '
                                            'whitespace (indentation) to define code blocks.\n'
                                            '\n'
                                            '## Key Characteristics:\n'
                                            '- **Easy to learn and read** - Clean, English-like syntax\n'
                                            '- **Interpreted** - Code runs without compilation\n'
                                            '- **Dynamically typed** - No need to declare variable types\n'
                                            '- **Multi-paradigm** - Supports procedural, object-oriented, and '
                                            'functional programming\n'
                                            '- **Extensive libraries** - Vast ecosystem of packages and frameworks\n'
                                            '\n'
                                            '## Main Use Cases:\n'
                                            '\n'
                                            '### 1. **Web Development**\n'
                                            '   - Frameworks: Django, Flask, FastAPI\n'
                                            '   - Backend services and APIs\n'
                                            '\n'
                                            '### 2. **Data Science & Analytics**\n'
                                            '   - Libraries: Pandas, NumPy, Matplotlib\n'
                                            '   - Data manipulation and visualization\n'
                                            '\n'
                                            '### 3. **Machine Learning & AI**\n'
                                            '   - Libraries: TensorFlow, PyTorch, scikit-learn\n'
                                            '   - Model development and deployment\n'
                                            '\n'
                                            '### 4. **Automation & Scripting**\n'
                                            '   - Task automation\n'
                                            '   - System administration\n'
                                            '\n'
                                            '### 5. **Scientific Computing**\n'
                                            '   - Research and simulations\n'
                                            '   - Libraries: SciPy, SymPy\n'
                                            '\n'
                                            '### 6. **Software Development**\n'
                                            '   - Prototyping\n'
                                            '   - Application development\n'
                                            '\n'
                                            '### 7. **Cybersecurity**\n'
                                            '   - Penetration testing\n'
                                            '   - Security analysis tools\n'
                                            '\n'
                                            '### 8. **Game Development**\n'
                                            '   - Library: Pygame\n'
                                            '   - Prototyping game logic\n'
                                            '\n'
                                            "Python's versatility and beginner-friendly nature make it one of the "
                                            'most popular programming languages today, used by companies like '
                                            'Google, Netflix, NASA, and Instagram.',
                                    'type': 'text'}],
                       'role': 'assistant'},
                      {'content': [{'text': 'Can you summarize that in one sentence?', 'type': 'text'}],
                       'role': 'user'}],
         'model': 'claude-sonnet-4-5',
         'stream': False,
         'system': 'You are a helpful assistant.'},
    ),
    Recorded(
        'tests/models/cassettes/test_anthropic/test_anthropic_sampling_settings_reach_the_wire.yaml',
        0, 'messages', 'claude-haiku-4-5', input_tokens=8, cached_tokens=0,
        body=
        {'max_tokens': 4096,
         'messages': [{'content': [{'text': 'hello', 'type': 'text'}], 'role': 'user'}],
         'model': 'claude-haiku-4-5',
         'stream': False,
         'temperature': 0.2,
         'top_k': 40},
    ),
    Recorded(
        'tests/models/cassettes/test_anthropic_mid_conversation_system/test_mid_conversation_system_prompt_kept_mid_history.yaml',
        0, 'messages', 'claude-opus-4-8', input_tokens=109, cached_tokens=0,
        body=
        {'max_tokens': 4096,
         'messages': [{'content': [{'text': 'Review `def add(a, b): return a + b`.', 'type': 'text'}],
                       'role': 'user'},
                      {'content': [{'text': 'Looks fine.', 'type': 'text'}], 'role': 'assistant'},
                      {'content': [{'text': 'Review it again.', 'type': 'text'}], 'role': 'user'},
                      {'content': [{'text': 'From now on, every suggestion must include explicit type annotations.',
                                    'type': 'text'}],
                       'role': 'system'},
                      {'content': [{'text': 'def add(a: int, b: int) -> int: return a + b', 'type': 'text'}],
                       'role': 'assistant'},
                      {'content': [{'text': 'Now do `def mul(a, b): return a * b`.', 'type': 'text'}],
                       'role': 'user'}],
         'model': 'claude-opus-4-8',
         'stream': False,
         'system': 'You are a code reviewer.'},
    ),
    Recorded(
        'tests/models/cassettes/test_tool_choice_matrix/test_tool_choice_matrix[auto-openai_responses].yaml',
        0, 'responses', 'gpt-5-mini', input_tokens=50, cached_tokens=0,
        body=
        {'include': ['reasoning.encrypted_content'],
         'input': [{'content': "What's the weather in Paris?", 'role': 'user'}],
         'model': 'gpt-5-mini',
         'stream': False,
         'tool_choice': 'auto',
         'tools': [{'description': 'Get the current weather for a city.',
                    'name': 'get_weather',
                    'parameters': {'additionalProperties': False,
                                   'properties': {'city': {'type': 'string'}},
                                   'required': ['city'],
                                   'type': 'object'},
                    'strict': True,
                    'type': 'function'}]},
    ),
    Recorded(
        'tests/models/cassettes/test_tool_choice_matrix/test_tool_choice_matrix[none-openai_responses].yaml',
        0, 'responses', 'gpt-5-mini', input_tokens=50, cached_tokens=0,
        body=
        {'include': ['reasoning.encrypted_content'],
         'input': [{'content': "What's the weather in Paris?", 'role': 'user'}],
         'model': 'gpt-5-mini',
         'stream': False,
         'tool_choice': 'none',
         'tools': [{'description': 'Get the current weather for a city.',
                    'name': 'get_weather',
                    'parameters': {'additionalProperties': False,
                                   'properties': {'city': {'type': 'string'}},
                                   'required': ['city'],
                                   'type': 'object'},
                    'strict': True,
                    'type': 'function'}]},
    ),
    Recorded(
        'tests/models/cassettes/test_tool_choice_matrix/test_tool_choice_matrix[required-openai_responses].yaml',
        0, 'responses', 'gpt-5-mini', input_tokens=48, cached_tokens=0,
        body=
        {'include': ['reasoning.encrypted_content'],
         'input': [{'content': "What's the weather in Paris?", 'role': 'user'}],
         'model': 'gpt-5-mini',
         'stream': False,
         'tool_choice': 'required',
         'tools': [{'description': 'Get weather for a city',
                    'name': 'get_weather',
                    'parameters': {'additionalProperties': False,
                                   'properties': {'city': {'type': 'string'}},
                                   'required': ['city'],
                                   'type': 'object'},
                    'strict': True,
                    'type': 'function'}]},
    ),
    Recorded(
        'tests/models/cassettes/test_tool_choice_matrix/test_tool_choice_matrix[list_single-openai_responses].yaml',
        0, 'responses', 'gpt-5-mini', input_tokens=68, cached_tokens=0,
        body=
        {'include': ['reasoning.encrypted_content'],
         'input': [{'content': "What's the weather in Paris?", 'role': 'user'}],
         'model': 'gpt-5-mini',
         'stream': False,
         'tool_choice': {'name': 'get_weather', 'type': 'function'},
         'tools': [{'description': 'Get weather for a city',
                    'name': 'get_weather',
                    'parameters': {'additionalProperties': False,
                                   'properties': {'city': {'type': 'string'}},
                                   'required': ['city'],
                                   'type': 'object'},
                    'strict': True,
                    'type': 'function'},
                   {'description': 'Get time in a timezone',
                    'name': 'get_time',
                    'parameters': {'additionalProperties': False,
                                   'properties': {'timezone': {'type': 'string'}},
                                   'required': ['timezone'],
                                   'type': 'object'},
                    'strict': True,
                    'type': 'function'}]},
    ),
    Recorded(
        'tests/models/cassettes/test_tool_choice_matrix/test_tool_choice_matrix[tools_plus_output-openai_responses].yaml',
        0, 'responses', 'gpt-5-mini', input_tokens=98, cached_tokens=0,
        body=
        {'include': ['reasoning.encrypted_content'],
         'input': [{'content': 'Get weather for Paris and summarize', 'role': 'user'}],
         'model': 'gpt-5-mini',
         'stream': False,
         'tool_choice': {'mode': 'required',
                         'tools': [{'name': 'final_result', 'type': 'function'},
                                   {'name': 'get_weather', 'type': 'function'}],
                         'type': 'allowed_tools'},
         'tools': [{'description': 'Get the current weather for a city.',
                    'name': 'get_weather',
                    'parameters': {'additionalProperties': False,
                                   'properties': {'city': {'type': 'string'}},
                                   'required': ['city'],
                                   'type': 'object'},
                    'strict': True,
                    'type': 'function'},
                   {'description': 'Get the current time in a timezone.',
                    'name': 'get_time',
                    'parameters': {'additionalProperties': False,
                                   'properties': {'timezone': {'type': 'string'}},
                                   'required': ['timezone'],
                                   'type': 'object'},
                    'strict': True,
                    'type': 'function'},
                   {'description': 'The final response which ends this conversation',
                    'name': 'final_result',
                    'parameters': {'additionalProperties': False,
                                   'properties': {'city': {'type': 'string'}, 'summary': {'type': 'string'}},
                                   'required': ['city', 'summary'],
                                   'type': 'object'},
                    'strict': True,
                    'type': 'function'}]},
    ),
    Recorded(
        'tests/cassettes/test_tool_search/test_openai_native_tool_search_round_trip.yaml',
        0, 'responses', 'gpt-5.4', input_tokens=600, cached_tokens=0,
        body=
        {'include': ['reasoning.encrypted_content'],
         'input': [{'content': 'What is the current USD to EUR exchange rate?', 'role': 'user'}],
         'model': 'gpt-5.4',
         'stream': False,
         'tool_choice': 'auto',
         'tools': [{'type': 'tool_search'},
                   {'defer_loading': True,
                    'description': 'Look up the current exchange rate between two currencies.',
                    'name': 'get_exchange_rate',
                    'parameters': {'additionalProperties': False,
                                   'properties': {'from_currency': {'type': 'string'},
                                                  'to_currency': {'type': 'string'}},
                                   'required': ['from_currency', 'to_currency'],
                                   'type': 'object'},
                    'strict': True,
                    'type': 'function'},
                   {'defer_loading': True,
                    'description': 'Look up stock price by ticker symbol.',
                    'name': 'stock_lookup',
                    'parameters': {'additionalProperties': False,
                                   'properties': {'symbol': {'type': 'string'}},
                                   'required': ['symbol'],
                                   'type': 'object'},
                    'strict': True,
                    'type': 'function'}]},
    ),
    Recorded(
        'tests/cassettes/test_tool_search/test_openai_native_tool_search_round_trip.yaml',
        1, 'responses', 'gpt-5.4', input_tokens=496, cached_tokens=0,
        body=
        {'include': ['reasoning.encrypted_content'],
         'input': [{'content': 'What is the current USD to EUR exchange rate?', 'role': 'user'},
                   {'arguments': {'paths': ['get_exchange_rate']},
                    'call_id': 'tsc_0ab095b1426acab50069f17095bdb481968dc6fe8187caa2e0',
                    'execution': 'server',
                    'id': 'tsc_0ab095b1426acab50069f17095bdb481968dc6fe8187caa2e0',
                    'status': 'completed',
                    'type': 'tool_search_call'},
                   {'arguments': '{"from_currency":"USD","to_currency":"EUR"}',
                    'call_id': 'call_S3NEVtiFX40NHVwtLaoz5NRN',
                    'id': 'fc_0ab095b1426acab50069f170964d148196a5fba8b365a1bcbd',
                    'name': 'get_exchange_rate',
                    'namespace': 'get_exchange_rate',
                    'type': 'function_call'},
                   {'call_id': 'call_S3NEVtiFX40NHVwtLaoz5NRN',
                    'output': '1 USD = 0.92 EUR',
                    'type': 'function_call_output'}],
         'model': 'gpt-5.4',
         'stream': False,
         'tool_choice': 'auto',
         'tools': [{'type': 'tool_search'},
                   {'defer_loading': True,
                    'description': 'Look up the current exchange rate between two currencies.',
                    'name': 'get_exchange_rate',
                    'parameters': {'additionalProperties': False,
                                   'properties': {'from_currency': {'type': 'string'},
                                                  'to_currency': {'type': 'string'}},
                                   'required': ['from_currency', 'to_currency'],
                                   'type': 'object'},
                    'strict': True,
                    'type': 'function'},
                   {'defer_loading': True,
                    'description': 'Look up stock price by ticker symbol.',
                    'name': 'stock_lookup',
                    'parameters': {'additionalProperties': False,
                                   'properties': {'symbol': {'type': 'string'}},
                                   'required': ['symbol'],
                                   'type': 'object'},
                    'strict': True,
                    'type': 'function'}]},
    ),
    Recorded(
        'tests/cassettes/test_tool_search/test_openai_native_tool_search_gpt_5_6.yaml',
        0, 'responses', 'gpt-5.6-sol', input_tokens=613, cached_tokens=0,
        body=
        {'include': ['reasoning.encrypted_content'],
         'input': [{'content': 'What is the current USD to EUR exchange rate?', 'role': 'user'}],
         'model': 'gpt-5.6-sol',
         'stream': False,
         'tool_choice': 'auto',
         'tools': [{'type': 'tool_search'},
                   {'defer_loading': True,
                    'description': 'Look up the current exchange rate between two currencies.',
                    'name': 'get_exchange_rate',
                    'parameters': {'additionalProperties': False,
                                   'properties': {'from_currency': {'type': 'string'},
                                                  'to_currency': {'type': 'string'}},
                                   'required': ['from_currency', 'to_currency'],
                                   'type': 'object'},
                    'strict': True,
                    'type': 'function'},
                   {'defer_loading': True,
                    'description': 'Look up stock price by ticker symbol.',
                    'name': 'stock_lookup',
                    'parameters': {'additionalProperties': False,
                                   'properties': {'symbol': {'type': 'string'}},
                                   'required': ['symbol'],
                                   'type': 'object'},
                    'strict': True,
                    'type': 'function'}]},
    ),
    Recorded(
        'tests/cassettes/test_tool_search/test_openai_hosted_tool_search_stateless_continuation.yaml',
        0, 'responses', 'gpt-5.4', input_tokens=570, cached_tokens=0,
        body=
        {'include': ['reasoning.encrypted_content'],
         'input': [{'content': 'Use hosted tool search to load get_exchange_rate. Do not call it yet. Reply only '
                               'with "loaded".',
                    'role': 'user'}],
         'model': 'gpt-5.4',
         'stream': False,
         'tool_choice': 'auto',
         'tools': [{'type': 'tool_search'},
                   {'defer_loading': True,
                    'description': 'Look up an exchange rate.',
                    'name': 'get_exchange_rate',
                    'parameters': {'additionalProperties': False,
                                   'properties': {'pair': {'type': 'string'}},
                                   'required': ['pair'],
                                   'type': 'object'},
                    'strict': True,
                    'type': 'function'}]},
    ),
    Recorded(
        'tests/cassettes/test_tool_search/test_openai_hosted_tool_search_stateless_continuation.yaml',
        2, 'responses', 'gpt-5.4', input_tokens=264, cached_tokens=0,
        body=
        {'include': ['reasoning.encrypted_content'],
         'input': [{'content': 'Use hosted tool search to load get_exchange_rate. Do not call it yet. Reply only '
                               'with "loaded".',
                    'role': 'user'},
                   {'arguments': {'queries': ['get_exchange_rate']},
                    'call_id': None,
                    'execution': 'server',
                    'id': 'tsc_0e6a0bc81f6d8648006a5dd7c8d3ec819a904686d7dca65cb4',
                    'status': 'completed',
                    'type': 'tool_search_call'},
                   {'call_id': None,
                    'execution': 'server',
                    'id': 'tso_0e6a0bc81f6d8648006a5dd7c8eb74819a96ec6c4cfaef7135',
                    'status': 'completed',
                    'tools': [{'defer_loading': True,
                               'description': 'Look up an exchange rate.',
                               'name': 'get_exchange_rate',
                               'parameters': {'additionalProperties': False,
                                              'properties': {'pair': {'type': 'string'}},
                                              'required': ['pair'],
                                              'type': 'object'},
                               'strict': True,
                               'type': 'function'}],
                    'type': 'tool_search_output'},
                   {'content': [{'annotations': [], 'text': 'loaded', 'type': 'output_text'}],
                    'id': 'msg_0e6a0bc81f6d8648006a5dd7c942d8819aa78a5c7a2b0b9618',
                    'phase': 'final_answer',
                    'role': 'assistant',
                    'status': 'completed',
                    'type': 'message'},
                   {'content': 'Call get_exchange_rate with pair="USD/EUR". Do not search again.', 'role': 'user'},
                   {'arguments': '{"pair":"USD/EUR"}',
                    'call_id': 'call_CyqoMGFYNESobWGrep6xELj2',
                    'id': 'fc_0e6a0bc81f6d8648006a5dd7cab830819aaf0ece9351ad0579',
                    'name': 'get_exchange_rate',
                    'namespace': 'get_exchange_rate',
                    'type': 'function_call'},
                   {'call_id': 'call_CyqoMGFYNESobWGrep6xELj2',
                    'output': 'USD/EUR: 0.92',
                    'type': 'function_call_output'}],
         'model': 'gpt-5.4',
         'stream': False,
         'tool_choice': 'auto',
         'tools': [{'type': 'tool_search'},
                   {'defer_loading': True,
                    'description': 'Look up an exchange rate.',
                    'name': 'get_exchange_rate',
                    'parameters': {'additionalProperties': False,
                                   'properties': {'pair': {'type': 'string'}},
                                   'required': ['pair'],
                                   'type': 'object'},
                    'strict': True,
                    'type': 'function'}]},
    ),
    Recorded(
        'tests/models/cassettes/test_openai_tool_availability_delta/test_openai_live_delta_preserves_the_warmed_cache_prefix.yaml',
        0, 'responses', 'gpt-5.6', input_tokens=392, cached_tokens=0,
        body=
        {'include': ['reasoning.encrypted_content'],
         'input': [{'content': 'Reply only with: ready', 'role': 'user'}],
         'model': 'gpt-5.6',
         'reasoning': {'context': 'all_turns'},
         'stream': False,
         'tool_choice': 'auto',
         'tools': [{'type': 'tool_search'},
                   {'defer_loading': True,
                    'description': 'Look up the refund policy for an order.',
                    'name': 'lookup_refund_policy',
                    'parameters': {'additionalProperties': False,
                                   'properties': {'order_id': {'type': 'string'}},
                                   'required': ['order_id'],
                                   'type': 'object'},
                    'strict': True,
                    'type': 'function'}]},
    ),
    Recorded(
        'tests/models/cassettes/test_openai_prompt_cache/test_openai_responses_prompt_cache_e2e.yaml',
        0, 'responses', 'gpt-5.6-sol', input_tokens=4020, cached_tokens=0,
        body=
        {'include': ['reasoning.encrypted_content'],
         'input': [{'content': [{'prompt_cache_breakpoint': {'mode': 'explicit'},
                                 'text': 'Reference catalogue for the prompt cache test corpus.\n'
                                         'Entry 0000: shelf 0, aisle 0, volume 0, catalogued under subject heading '
                                         '0.\n'
                                         'Entry 0001: shelf 1, aisle 1, volume 1, catalogued under subject heading '
                                         '1.\n'
                                         'Entry 0002: shelf 2, aisle 2, volume 2, catalogued under subject heading '
                                         '2.\n'
                                         'Entry 0003: shelf 3, aisle 3, volume 3, catalogued under subject heading '
                                         '3.\n'
                                         'Entry 0004: shelf 4, aisle 4, volume 4, catalogued under subject heading '
                                         '4.\n'
                                         'Entry 0005: shelf 5, aisle 5, volume 5, catalogued under subject heading '
                                         '5.\n'
                                         'Entry 0006: shelf 6, aisle 6, volume 6, catalogued under subject heading '
                                         '6.\n'
                                         'Entry 0007: shelf 7, aisle 0, volume 7, catalogued under subject heading '
                                         '7.\n'
                                         'Entry 0008: shelf 8, aisle 1, volume 8, catalogued under subject heading '
                                         '8.\n'
                                         'Entry 0009: shelf 9, aisle 2, volume 9, catalogued under subject heading '
                                         '9.\n'
                                         'Entry 0010: shelf 10, aisle 3, volume 10, catalogued under subject heading '
                                         '10.\n'
                                         'Entry 0011: shelf 11, aisle 4, volume 11, catalogued under subject heading '
                                         '0.\n'
                                         'Entry 0012: shelf 12, aisle 5, volume 12, catalogued under subject heading '
                                         '1.\n'
                                         'Entry 0013: shelf 13, aisle 6, volume 13, catalogued under subject heading '
                                         '2.\n'
                                         'Entry 0014: shelf 14, aisle 0, volume 14, catalogued under subject heading '
                                         '3.\n'
                                         'Entry 0015: shelf 15, aisle 1, volume 15, catalogued under subject heading '
                                         '4.\n'
                                         'Entry 0016: shelf 16, aisle 2, volume 16, catalogued under subject heading '
                                         '5.\n'
                                         'Entry 0017: shelf 17, aisle 3, volume 17, catalogued under subject heading '
                                         '6.\n'
                                         'Entry 0018: shelf 18, aisle 4, volume 18, catalogued under subject heading '
                                         '7.\n'
                                         'Entry 0019: shelf 19, aisle 5, volume 19, catalogued under subject heading '
                                         '8.\n'
                                         'Entry 0020: shelf 20, aisle 6, volume 20, catalogued under subject heading '
                                         '9.\n'
                                         'Entry 0021: shelf 21, aisle 0, volume 21, catalogued under subject heading '
                                         '10.\n'
                                         'Entry 0022: shelf 22, aisle 1, volume 22, catalogued under subject heading '
                                         '0.\n'
                                         'Entry 0023: shelf 0, aisle 2, volume 23, catalogued under subject heading '
                                         '1.\n'
                                         'Entry 0024: shelf 1, aisle 3, volume 24, catalogued under subject heading '
                                         '2.\n'
                                         'Entry 0025: shelf 2, aisle 4, volume 25, catalogued under subject heading '
                                         '3.\n'
                                         'Entry 0026: shelf 3, aisle 5, volume 26, catalogued under subject heading '
                                         '4.\n'
                                         'Entry 0027: shelf 4, aisle 6, volume 27, catalogued under subject heading '
                                         '5.\n'
                                         'Entry 0028: shelf 5, aisle 0, volume 28, catalogued under subject heading '
                                         '6.\n'
                                         'Entry 0029: shelf 6, aisle 1, volume 29, catalogued under subject heading '
                                         '7.\n'
                                         'Entry 0030: shelf 7, aisle 2, volume 30, catalogued under subject heading '
                                         '8.\n'
                                         'Entry 0031: shelf 8, aisle 3, volume 31, catalogued under subject heading '
                                         '9.\n'
                                         'Entry 0032: shelf 9, aisle 4, volume 32, catalogued under subject heading '
                                         '10.\n'
                                         'Entry 0033: shelf 10, aisle 5, volume 33, catalogued under subject heading '
                                         '0.\n'
                                         'Entry 0034: shelf 11, aisle 6, volume 34, catalogued under subject heading '
                                         '1.\n'
                                         'Entry 0035: shelf 12, aisle 0, volume 35, catalogued under subject heading '
                                         '2.\n'
                                         'Entry 0036: shelf 13, aisle 1, volume 36, catalogued under subject heading '
                                         '3.\n'
                                         'Entry 0037: shelf 14, aisle 2, volume 37, catalogued under subject heading '
                                         '4.\n'
                                         'Entry 0038: shelf 15, aisle 3, volume 38, catalogued under subject heading '
                                         '5.\n'
                                         'Entry 0039: shelf 16, aisle 4, volume 39, catalogued under subject heading '
                                         '6.\n'
                                         'Entry 0040: shelf 17, aisle 5, volume 40, catalogued under subject heading '
                                         '7.\n'
                                         'Entry 0041: shelf 18, aisle 6, volume 41, catalogued under subject heading '
                                         '8.\n'
                                         'Entry 0042: shelf 19, aisle 0, volume 42, catalogued under subject heading '
                                         '9.\n'
                                         'Entry 0043: shelf 20, aisle 1, volume 43, catalogued under subject heading '
                                         '10.\n'
                                         'Entry 0044: shelf 21, aisle 2, volume 44, catalogued under subject heading '
                                         '0.\n'
                                         'Entry 0045: shelf 22, aisle 3, volume 45, catalogued under subject heading '
                                         '1.\n'
                                         'Entry 0046: shelf 0, aisle 4, volume 46, catalogued under subject heading '
                                         '2.\n'
                                         'Entry 0047: shelf 1, aisle 5, volume 47, catalogued under subject heading '
                                         '3.\n'
                                         'Entry 0048: shelf 2, aisle 6, volume 48, catalogued under subject heading '
                                         '4.\n'
                                         'Entry 0049: shelf 3, aisle 0, volume 49, catalogued under subject heading '
                                         '5.\n'
                                         'Entry 0050: shelf 4, aisle 1, volume 50, catalogued under subject heading '
                                         '6.\n'
                                         'Entry 0051: shelf 5, aisle 2, volume 51, catalogued under subject heading '
                                         '7.\n'
                                         'Entry 0052: shelf 6, aisle 3, volume 52, catalogued under subject heading '
                                         '8.\n'
                                         'Entry 0053: shelf 7, aisle 4, volume 53, catalogued under subject heading '
                                         '9.\n'
                                         'Entry 0054: shelf 8, aisle 5, volume 54, catalogued under subject heading '
                                         '10.\n'
                                         'Entry 0055: shelf 9, aisle 6, volume 55, catalogued under subject heading '
                                         '0.\n'
                                         'Entry 0056: shelf 10, aisle 0, volume 56, catalogued under subject heading '
                                         '1.\n'
                                         'Entry 0057: shelf 11, aisle 1, volume 57, catalogued under subject heading '
                                         '2.\n'
                                         'Entry 0058: shelf 12, aisle 2, volume 58, catalogued under subject heading '
                                         '3.\n'
                                         'Entry 0059: shelf 13, aisle 3, volume 59, catalogued under subject heading '
                                         '4.\n'
                                         'Entry 0060: shelf 14, aisle 4, volume 60, catalogued under subject heading '
                                         '5.\n'
                                         'Entry 0061: shelf 15, aisle 5, volume 61, catalogued under subject heading '
                                         '6.\n'
                                         'Entry 0062: shelf 16, aisle 6, volume 62, catalogued under subject heading '
                                         '7.\n'
                                         'Entry 0063: shelf 17, aisle 0, volume 63, catalogued under subject heading '
                                         '8.\n'
                                         'Entry 0064: shelf 18, aisle 1, volume 64, catalogued under subject heading '
                                         '9.\n'
                                         'Entry 0065: shelf 19, aisle 2, volume 65, catalogued under subject heading '
                                         '10.\n'
                                         'Entry 0066: shelf 20, aisle 3, volume 66, catalogued under subject heading '
                                         '0.\n'
                                         'Entry 0067: shelf 21, aisle 4, volume 67, catalogued under subject heading '
                                         '1.\n'
                                         'Entry 0068: shelf 22, aisle 5, volume 68, catalogued under subject heading '
                                         '2.\n'
                                         'Entry 0069: shelf 0, aisle 6, volume 69, catalogued under subject heading '
                                         '3.\n'
                                         'Entry 0070: shelf 1, aisle 0, volume 70, catalogued under subject heading '
                                         '4.\n'
                                         'Entry 0071: shelf 2, aisle 1, volume 71, catalogued under subject heading '
                                         '5.\n'
                                         'Entry 0072: shelf 3, aisle 2, volume 72, catalogued under subject heading '
                                         '6.\n'
                                         'Entry 0073: shelf 4, aisle 3, volume 73, catalogued under subject heading '
                                         '7.\n'
                                         'Entry 0074: shelf 5, aisle 4, volume 74, catalogued under subject heading '
                                         '8.\n'
                                         'Entry 0075: shelf 6, aisle 5, volume 75, catalogued under subject heading '
                                         '9.\n'
                                         'Entry 0076: shelf 7, aisle 6, volume 76, catalogued under subject heading '
                                         '10.\n'
                                         'Entry 0077: shelf 8, aisle 0, volume 77, catalogued under subject heading '
                                         '0.\n'
                                         'Entry 0078: shelf 9, aisle 1, volume 78, catalogued under subject heading '
                                         '1.\n'
                                         'Entry 0079: shelf 10, aisle 2, volume 79, catalogued under subject heading '
                                         '2.\n'
                                         'Entry 0080: shelf 11, aisle 3, volume 80, catalogued under subject heading '
                                         '3.\n'
                                         'Entry 0081: shelf 12, aisle 4, volume 81, catalogued under subject heading '
                                         '4.\n'
                                         'Entry 0082: shelf 13, aisle 5, volume 82, catalogued under subject heading '
                                         '5.\n'
                                         'Entry 0083: shelf 14, aisle 6, volume 83, catalogued under subject heading '
                                         '6.\n'
                                         'Entry 0084: shelf 15, aisle 0, volume 84, catalogued under subject heading '
                                         '7.\n'
                                         'Entry 0085: shelf 16, aisle 1, volume 85, catalogued under subject heading '
                                         '8.\n'
                                         'Entry 0086: shelf 17, aisle 2, volume 86, catalogued under subject heading '
                                         '9.\n'
                                         'Entry 0087: shelf 18, aisle 3, volume 87, catalogued under subject heading '
                                         '10.\n'
                                         'Entry 0088: shelf 19, aisle 4, volume 88, catalogued under subject heading '
                                         '0.\n'
                                         'Entry 0089: shelf 20, aisle 5, volume 89, catalogued under subject heading '
                                         '1.\n'
                                         'Entry 0090: shelf 21, aisle 6, volume 90, catalogued under subject heading '
                                         '2.\n'
                                         'Entry 0091: shelf 22, aisle 0, volume 91, catalogued under subject heading '
                                         '3.\n'
                                         'Entry 0092: shelf 0, aisle 1, volume 92, catalogued under subject heading '
                                         '4.\n'
                                         'Entry 0093: shelf 1, aisle 2, volume 93, catalogued under subject heading '
                                         '5.\n'
                                         'Entry 0094: shelf 2, aisle 3, volume 94, catalogued under subject heading '
                                         '6.\n'
                                         'Entry 0095: shelf 3, aisle 4, volume 95, catalogued under subject heading '
                                         '7.\n'
                                         'Entry 0096: shelf 4, aisle 5, volume 96, catalogued under subject heading '
                                         '8.\n'
                                         'Entry 0097: shelf 5, aisle 6, volume 97, catalogued under subject heading '
                                         '9.\n'
                                         'Entry 0098: shelf 6, aisle 0, volume 98, catalogued under subject heading '
                                         '10.\n'
                                         'Entry 0099: shelf 7, aisle 1, volume 99, catalogued under subject heading '
                                         '0.\n'
                                         'Entry 0100: shelf 8, aisle 2, volume 100, catalogued under subject heading '
                                         '1.\n'
                                         'Entry 0101: shelf 9, aisle 3, volume 101, catalogued under subject heading '
                                         '2.\n'
                                         'Entry 0102: shelf 10, aisle 4, volume 102, catalogued under subject '
                                         'heading 3.\n'
                                         'Entry 0103: shelf 11, aisle 5, volume 103, catalogued under subject '
                                         'heading 4.\n'
                                         'Entry 0104: shelf 12, aisle 6, volume 104, catalogued under subject '
                                         'heading 5.\n'
                                         'Entry 0105: shelf 13, aisle 0, volume 105, catalogued under subject '
                                         'heading 6.\n'
                                         'Entry 0106: shelf 14, aisle 1, volume 106, catalogued under subject '
                                         'heading 7.\n'
                                         'Entry 0107: shelf 15, aisle 2, volume 107, catalogued under subject '
                                         'heading 8.\n'
                                         'Entry 0108: shelf 16, aisle 3, volume 108, catalogued under subject '
                                         'heading 9.\n'
                                         'Entry 0109: shelf 17, aisle 4, volume 109, catalogued under subject '
                                         'heading 10.\n'
                                         'Entry 0110: shelf 18, aisle 5, volume 110, catalogued under subject '
                                         'heading 0.\n'
                                         'Entry 0111: shelf 19, aisle 6, volume 111, catalogued under subject '
                                         'heading 1.\n'
                                         'Entry 0112: shelf 20, aisle 0, volume 112, catalogued under subject '
                                         'heading 2.\n'
                                         'Entry 0113: shelf 21, aisle 1, volume 113, catalogued under subject '
                                         'heading 3.\n'
                                         'Entry 0114: shelf 22, aisle 2, volume 114, catalogued under subject '
                                         'heading 4.\n'
                                         'Entry 0115: shelf 0, aisle 3, volume 115, catalogued under subject heading '
                                         '5.\n'
                                         'Entry 0116: shelf 1, aisle 4, volume 116, catalogued under subject heading '
                                         '6.\n'
                                         'Entry 0117: shelf 2, aisle 5, volume 117, catalogued under subject heading '
                                         '7.\n'
                                         'Entry 0118: shelf 3, aisle 6, volume 118, catalogued under subject heading '
                                         '8.\n'
                                         'Entry 0119: shelf 4, aisle 0, volume 119, catalogued under subject heading '
                                         '9.\n'
                                         'Entry 0120: shelf 5, aisle 1, volume 120, catalogued under subject heading '
                                         '10.\n'
                                         'Entry 0121: shelf 6, aisle 2, volume 121, catalogued under subject heading '
                                         '0.\n'
                                         'Entry 0122: shelf 7, aisle 3, volume 122, catalogued under subject heading '
                                         '1.\n'
                                         'Entry 0123: shelf 8, aisle 4, volume 123, catalogued under subject heading '
                                         '2.\n'
                                         'Entry 0124: shelf 9, aisle 5, volume 124, catalogued under subject heading '
                                         '3.\n'
                                         'Entry 0125: shelf 10, aisle 6, volume 125, catalogued under subject '
                                         'heading 4.\n'
                                         'Entry 0126: shelf 11, aisle 0, volume 126, catalogued under subject '
                                         'heading 5.\n'
                                         'Entry 0127: shelf 12, aisle 1, volume 127, catalogued under subject '
                                         'heading 6.\n'
                                         'Entry 0128: shelf 13, aisle 2, volume 128, catalogued under subject '
                                         'heading 7.\n'
                                         'Entry 0129: shelf 14, aisle 3, volume 129, catalogued under subject '
                                         'heading 8.\n'
                                         'Entry 0130: shelf 15, aisle 4, volume 130, catalogued under subject '
                                         'heading 9.\n'
                                         'Entry 0131: shelf 16, aisle 5, volume 131, catalogued under subject '
                                         'heading 10.\n'
                                         'Entry 0132: shelf 17, aisle 6, volume 132, catalogued under subject '
                                         'heading 0.\n'
                                         'Entry 0133: shelf 18, aisle 0, volume 133, catalogued under subject '
                                         'heading 1.\n'
                                         'Entry 0134: shelf 19, aisle 1, volume 134, catalogued under subject '
                                         'heading 2.\n'
                                         'Entry 0135: shelf 20, aisle 2, volume 135, catalogued under subject '
                                         'heading 3.\n'
                                         'Entry 0136: shelf 21, aisle 3, volume 136, catalogued under subject '
                                         'heading 4.\n'
                                         'Entry 0137: shelf 22, aisle 4, volume 137, catalogued under subject '
                                         'heading 5.\n'
                                         'Entry 0138: shelf 0, aisle 5, volume 138, catalogued under subject heading '
                                         '6.\n'
                                         'Entry 0139: shelf 1, aisle 6, volume 139, catalogued under subject heading '
                                         '7.\n'
                                         'Entry 0140: shelf 2, aisle 0, volume 140, catalogued under subject heading '
                                         '8.\n'
                                         'Entry 0141: shelf 3, aisle 1, volume 141, catalogued under subject heading '
                                         '9.\n'
                                         'Entry 0142: shelf 4, aisle 2, volume 142, catalogued under subject heading '
                                         '10.\n'
                                         'Entry 0143: shelf 5, aisle 3, volume 143, catalogued under subject heading '
                                         '0.\n'
                                         'Entry 0144: shelf 6, aisle 4, volume 144, catalogued under subject heading '
                                         '1.\n'
                                         'Entry 0145: shelf 7, aisle 5, volume 145, catalogued under subject heading '
                                         '2.\n'
                                         'Entry 0146: shelf 8, aisle 6, volume 146, catalogued under subject heading '
                                         '3.\n'
                                         'Entry 0147: shelf 9, aisle 0, volume 147, catalogued under subject heading '
                                         '4.\n'
                                         'Entry 0148: shelf 10, aisle 1, volume 148, catalogued under subject '
                                         'heading 5.\n'
                                         'Entry 0149: shelf 11, aisle 2, volume 149, catalogued under subject '
                                         'heading 6.\n'
                                         'Entry 0150: shelf 12, aisle 3, volume 150, catalogued under subject '
                                         'heading 7.\n'
                                         'Entry 0151: shelf 13, aisle 4, volume 151, catalogued under subject '
                                         'heading 8.\n'
                                         'Entry 0152: shelf 14, aisle 5, volume 152, catalogued under subject '
                                         'heading 9.\n'
                                         'Entry 0153: shelf 15, aisle 6, volume 153, catalogued under subject '
                                         'heading 10.\n'
                                         'Entry 0154: shelf 16, aisle 0, volume 154, catalogued under subject '
                                         'heading 0.\n'
                                         'Entry 0155: shelf 17, aisle 1, volume 155, catalogued under subject '
                                         'heading 1.\n'
                                         'Entry 0156: shelf 18, aisle 2, volume 156, catalogued under subject '
                                         'heading 2.\n'
                                         'Entry 0157: shelf 19, aisle 3, volume 157, catalogued under subject '
                                         'heading 3.\n'
                                         'Entry 0158: shelf 20, aisle 4, volume 158, catalogued under subject '
                                         'heading 4.\n'
                                         'Entry 0159: shelf 21, aisle 5, volume 159, catalogued under subject '
                                         'heading 5.',
                                 'type': 'input_text'},
                                {'text': 'Reply with exactly: OK', 'type': 'input_text'}],
                    'role': 'user'}],
         'model': 'gpt-5.6-sol',
         'prompt_cache_key': 'pydantic-ai-prompt-cache-e2e-responses',
         'prompt_cache_options': {'mode': 'explicit', 'ttl': '30m'},
         'stream': False},
    ),
    Recorded(
        'tests/models/cassettes/test_openai_responses/test_openai_responses_model_simple_response_with_tool_call.yaml',
        1, 'responses', 'gpt-4o', input_tokens=67, cached_tokens=0,
        body=
        {'input': [{'content': 'What is the capital of PotatoLand?', 'role': 'user'},
                   {'arguments': '{"country":"PotatoLand"}',
                    'call_id': 'call_YfwRsW8sUxDKipwyhWTzOXCA',
                    'name': 'get_capital',
                    'status': None,
                    'type': 'function_call'},
                   {'call_id': 'call_YfwRsW8sUxDKipwyhWTzOXCA',
                    'output': 'Potato City',
                    'type': 'function_call_output'}],
         'model': 'gpt-4o',
         'stream': False,
         'tool_choice': 'auto',
         'tools': [{'description': None,
                    'name': 'get_capital',
                    'parameters': {'additionalProperties': False,
                                   'properties': {'country': {'type': 'string'}},
                                   'required': ['country'],
                                   'type': 'object'},
                    'strict': True,
                    'type': 'function'}]},
    ),
    Recorded(
        'tests/models/cassettes/test_openai_responses/test_tool_output.yaml',
        1, 'responses', 'gpt-4o', input_tokens=85, cached_tokens=0,
        body=
        {'input': [{'content': 'What is the largest city in the user country?', 'role': 'user'},
                   {'content': '', 'role': 'assistant'},
                   {'arguments': '{}',
                    'call_id': 'call_ZWkVhdUjupo528U9dqgFeRkH',
                    'name': 'get_user_country',
                    'type': 'function_call'},
                   {'call_id': 'call_ZWkVhdUjupo528U9dqgFeRkH', 'output': 'Mexico', 'type': 'function_call_output'}],
         'model': 'gpt-4o',
         'stream': False,
         'tool_choice': 'required',
         'tools': [{'description': '',
                    'name': 'get_user_country',
                    'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'},
                    'strict': False,
                    'type': 'function'},
                   {'description': 'The final response which ends this conversation',
                    'name': 'final_result',
                    'parameters': {'properties': {'city': {'type': 'string'}, 'country': {'type': 'string'}},
                                   'required': ['city', 'country'],
                                   'type': 'object'},
                    'strict': False,
                    'type': 'function'}]},
    ),
    Recorded(
        'tests/cassettes/test_tool_search/test_openai_deferred_capability_runs_on_model_without_native_tool_search.yaml',
        2, 'responses', 'gpt-5.2', input_tokens=371, cached_tokens=0,
        body=
        {'include': ['reasoning.encrypted_content'],
         'input': [{'content': 'Use foo with x=1.', 'role': 'user'},
                   {'arguments': '{"id":"foo"}',
                    'call_id': 'call_oD98mk1GikNahiJd9ld4gNMk',
                    'id': 'fc_0f19077ea087b45d006a433bff503481a19d056b1d5d2deb5a',
                    'name': 'load_capability',
                    'type': 'function_call'},
                   {'call_id': 'call_oD98mk1GikNahiJd9ld4gNMk', 'output': '{}', 'type': 'function_call_output'},
                   {'arguments': '{"queries":["foo"]}',
                    'call_id': 'auto_load_d85fe7a9a0e51eb3',
                    'name': 'search_tools',
                    'type': 'function_call'},
                   {'call_id': 'auto_load_d85fe7a9a0e51eb3',
                    'output': '{"discovered_tools":[{"name":"bar","description":"Return x."}]}',
                    'type': 'function_call_output'},
                   {'arguments': '{"x":1}',
                    'call_id': 'call_BUmPMEwNfrp69Ou8ELM3TaAG',
                    'id': 'fc_0f19077ea087b45d006a433c00992c81a1a4f0d94323b767af',
                    'name': 'bar',
                    'type': 'function_call'},
                   {'call_id': 'call_BUmPMEwNfrp69Ou8ELM3TaAG', 'output': '1', 'type': 'function_call_output'}],
         'instructions': "First load capability id 'foo', then call bar.\n"
                         '\n'
                         'The following capabilities are deferred and can be loaded using the `load_capability` '
                         'tool:\n'
                         '- foo: Use this capability when the user asks for foo.',
         'model': 'gpt-5.2',
         'stream': False,
         'tool_choice': 'auto',
         'tools': [{'description': 'Load a capability to access its full instructions and tools.',
                    'name': 'load_capability',
                    'parameters': {'additionalProperties': False,
                                   'description': 'Typed arguments for a `load_capability` tool call.',
                                   'properties': {'id': {'description': 'The id of the capability to load.',
                                                         'type': 'string'}},
                                   'required': ['id'],
                                   'type': 'object'},
                    'strict': True,
                    'type': 'function'},
                   {'description': 'Return x.',
                    'name': 'bar',
                    'parameters': {'additionalProperties': False,
                                   'properties': {'x': {'type': 'integer'}},
                                   'required': ['x'],
                                   'type': 'object'},
                    'strict': True,
                    'type': 'function'},
                   {'description': 'There are additional tools not yet visible to you. When you need a capability '
                                   'not provided by your current tools, search here by providing one or more queries '
                                   'to discover and activate relevant tools. Each query is tokenized into words; '
                                   'tool names and descriptions are scored by token overlap. If no tools are found, '
                                   'they do not exist -- do not retry.',
                    'name': 'search_tools',
                    'parameters': {'additionalProperties': False,
                                   'properties': {'queries': {'description': 'List of search queries to match '
                                                                             'against tool names and descriptions. '
                                                                             'Use specific words likely to appear in '
                                                                             'tool names or descriptions to narrow '
                                                                             'down relevant tools. Each query is '
                                                                             'independently tokenized; matches '
                                                                             'across queries are unioned.',
                                                              'items': {'type': 'string'},
                                                              'type': 'array'}},
                                   'required': ['queries'],
                                   'type': 'object'},
                    'strict': True,
                    'type': 'function'}]},
    ),
    Recorded(
        'tests/cassettes/test_tool_availability_portability/test_tool_availability_portability_matrix[R5-T4-local-search].yaml',
        0, 'responses', 'gpt-5', input_tokens=237, cached_tokens=0,
        body=
        {'include': ['reasoning.encrypted_content'],
         'input': [{'content': 'Find the exchange-rate tool.', 'role': 'user'},
                   {'arguments': '{"queries":["exchange rate"]}',
                    'call_id': 'search_call_1',
                    'name': 'search_tools',
                    'type': 'function_call'},
                   {'call_id': 'search_call_1', 'output': 'Found one matching tool.', 'type': 'function_call_output'},
                   {'content': 'Acknowledge the available exchange-rate tool without calling it.', 'role': 'user'}],
         'model': 'gpt-5',
         'stream': False,
         'tool_choice': 'auto',
         'tools': [{'description': 'Provide an always-available tool so provider tool lists remain valid.',
                    'name': 'always_ready',
                    'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'},
                    'strict': False,
                    'type': 'function'},
                   {'description': 'Look up an exchange rate.',
                    'name': 'lookup_exchange_rate',
                    'parameters': {'additionalProperties': False,
                                   'properties': {'currency': {'type': 'string'}},
                                   'required': ['currency'],
                                   'type': 'object'},
                    'strict': True,
                    'type': 'function'},
                   {'description': 'Search first for a standalone deferred tool when current tools and catalog '
                                   'descriptions do not name the requested operation. A capability id used as an '
                                   'ordinary domain word does not request that capability. This cannot find '
                                   'capability-owned tools; load a listed capability by id instead. If no tools are '
                                   'found, do not retry.',
                    'name': 'search_tools',
                    'parameters': {'additionalProperties': False,
                                   'properties': {'queries': {'description': 'List of search queries to match '
                                                                             'against tool names and descriptions. '
                                                                             'Use specific words likely to appear in '
                                                                             'tool names or descriptions to narrow '
                                                                             'down relevant tools. Each query is '
                                                                             'independently tokenized; matches '
                                                                             'across queries are unioned.',
                                                              'items': {'type': 'string'},
                                                              'type': 'array'}},
                                   'required': ['queries'],
                                   'type': 'object'},
                    'strict': True,
                    'type': 'function'}]},
    ),
    Recorded(
        'tests/models/cassettes/test_openai_responses/test_openai_responses_streaming_usage.yaml',
        0, 'responses', 'gpt-5', input_tokens=53, cached_tokens=0,
        body=
        {'include': ['reasoning.encrypted_content'],
         'input': [{'content': 'Calculate 100 * 200 / 3', 'role': 'user'}],
         'model': 'gpt-5',
         'previous_response_id': None,
         'reasoning': {'effort': 'low', 'summary': None},
         'service_tier': 'flex',
         'stream': True,
         'tool_choice': 'required',
         'tools': [{'description': 'The final response which ends this conversation',
                    'name': 'final_result',
                    'parameters': {'additionalProperties': False,
                                   'properties': {'result': {'type': 'integer'}},
                                   'required': ['result'],
                                   'type': 'object'},
                    'strict': True,
                    'type': 'function'}]},
    ),
    Recorded(
        'tests/models/cassettes/test_openai_responses/test_openai_responses_compact_stateful_mode.yaml',
        2, 'responses', 'gpt-4.1', input_tokens=847, cached_tokens=0,
        body=
        {'context_management': [{'compact_threshold': 1000, 'type': 'compaction'}],
         'input': [{'content': 'Tell me a 300-word story about a fox exploring a forest. Be very descriptive.',
                    'role': 'user'},
                   {'content': 'Beneath a canopy of emerald leaves, the early morning sun painted the forest floor '
                               'in delicate dappled gold. Rustling quietly through undergrowth beaded with dew, a '
                               'red fox named Lira slipped between bramble and fern, her russet fur glowing against '
                               'the shadowy world.\n'
                               '\n'
                               'The air was thick with the scent of moss and wild garlic. Every step quickened '
                               "Lira's heart--younger foxes might shy away from the unknown, but curiosity lit her "
                               'amber eyes. Birds warbled high overhead, while a squirrel chattered in indignation '
                               'from a low-hanging branch, its tail flickering like a candle flame. Lira paused, '
                               'nose twitching, savoring the earthy perfume of leaf litter as she contemplated her '
                               'path.\n'
                               '\n'
                               'Slipping through a patch of bluebells, their soft petals brushing her sides, she '
                               'startled a family of rabbits who disappeared into a tangle of roots. Not far away, a '
                               'chorus of frogs sang by a crystal brook. Lira padded closer, watching their comical '
                               "leaps with tilted head, her own reflection rippling on the water's surface.\n"
                               '\n'
                               'Continuing on, she found a fallen oak, its ancient trunk sprawled across her path--a '
                               'bridge blanketed in moss and lichen. With a light leap, she climbed atop it, where '
                               'the world seemed to slow. Up here, she watched shafts of sunlight pierce the gloom, '
                               'catching motes of pollen swirling in the air like gold dust. The forest buzzed '
                               'around her, insect wings humming and leaves murmuring old secrets.\n'
                               '\n'
                               'Lira cocked her head, listening to the heartbeat of the forest--the distant hoot of '
                               'an owl, the thump of a distant deer. Each sound was familiar, comforting, and a '
                               'little thrilling. With one last glance at the waking world, she bounded off the log, '
                               'disappearing into the green shadows, eager for whatever wonders lay hidden in the '
                               'heart of the ancient wood.',
                    'role': 'assistant'},
                   {'content': 'Now a 300-word story about a rabbit in a meadow. Be very descriptive.',
                    'role': 'user'},
                   {'content': 'In the gentle embrace of sunrise, a silvery mist hovered above the meadow, clinging '
                               'to each blade of grass like a whispered secret. A young rabbit named Willow emerged '
                               'from the safety of her burrow, her velvety fur brushed by dew. Her ears, soft as '
                               'petals, turned toward the distant chirruping of larks as she took her first '
                               'tentative steps into the open.\n'
                               '\n'
                               'The meadow, awash in golden light, unfurled before her like a colossal quilt, '
                               'stitched together with wildflowers--violet clover, butter-yellow dandelions, and '
                               'delicate, nodding daisies. Willow nibbled at clover leaves glistening with morning '
                               'moisture, the sweetness flooding her senses as she tasted the new day.\n'
                               '\n'
                               'A gentle breeze swept through the grasses, bending them in rippling green waves. '
                               "Willow's nose twitched, picking up the scent of earth and honeysuckle, and she "
                               'paused to watch bees buzzing from blossom to blossom, their legs weighed down with '
                               'pollen. Pastel butterflies drifted lazily over the tall grass, their wings flashing '
                               'soft blues and oranges whenever the sunlight struck them.\n'
                               '\n'
                               "From her vantage beneath a tuft of trembling fescue, Willow saw the meadow's secret "
                               'wonders unfold--a shimmer of wings as a red dragonfly darted past, the flicker of a '
                               'shrew vanishing beneath a leaf. Overhead, clouds sailed across an endless sky as '
                               'swallows swooped and turned, slicing through the air with playful grace.\n'
                               '\n'
                               'A sudden gust sent dandelion seeds swirling into the breeze, dancing like tiny stars '
                               'in the air around Willow. She froze, perfectly still, as a shadow crossed her '
                               'path--just a kestrel, wheeling high above, its sharp cry quickly swallowed by the '
                               'wide, open day.\n'
                               '\n'
                               'With the world brightening around her, Willow hopped joyfully through the tall '
                               'grass, heart pounding with the simple thrill of freedom beneath the sunlit sky.',
                    'role': 'assistant'},
                   {'content': 'Now a 300-word story about a bear in a cave. Be very descriptive.', 'role': 'user'}],
         'model': 'gpt-4.1',
         'stream': False},
    ),
    Recorded(
        'tests/models/cassettes/test_openai_responses/test_openai_responses_compact_stateful_mode.yaml',
        3, 'responses', 'gpt-4.1', input_tokens=552, cached_tokens=0,
        body=
        {'context_management': [{'compact_threshold': 1000, 'type': 'compaction'}],
         'input': [{'content': 'Tell me a 300-word story about a fox exploring a forest. Be very descriptive.',
                    'role': 'user'},
                   {'content': 'Beneath a canopy of emerald leaves, the early morning sun painted the forest floor '
                               'in delicate dappled gold. Rustling quietly through undergrowth beaded with dew, a '
                               'red fox named Lira slipped between bramble and fern, her russet fur glowing against '
                               'the shadowy world.\n'
                               '\n'
                               'The air was thick with the scent of moss and wild garlic. Every step quickened '
                               "Lira's heart--younger foxes might shy away from the unknown, but curiosity lit her "
                               'amber eyes. Birds warbled high overhead, while a squirrel chattered in indignation '
                               'from a low-hanging branch, its tail flickering like a candle flame. Lira paused, '
                               'nose twitching, savoring the earthy perfume of leaf litter as she contemplated her '
                               'path.\n'
                               '\n'
                               'Slipping through a patch of bluebells, their soft petals brushing her sides, she '
                               'startled a family of rabbits who disappeared into a tangle of roots. Not far away, a '
                               'chorus of frogs sang by a crystal brook. Lira padded closer, watching their comical '
                               "leaps with tilted head, her own reflection rippling on the water's surface.\n"
                               '\n'
                               'Continuing on, she found a fallen oak, its ancient trunk sprawled across her path--a '
                               'bridge blanketed in moss and lichen. With a light leap, she climbed atop it, where '
                               'the world seemed to slow. Up here, she watched shafts of sunlight pierce the gloom, '
                               'catching motes of pollen swirling in the air like gold dust. The forest buzzed '
                               'around her, insect wings humming and leaves murmuring old secrets.\n'
                               '\n'
                               'Lira cocked her head, listening to the heartbeat of the forest--the distant hoot of '
                               'an owl, the thump of a distant deer. Each sound was familiar, comforting, and a '
                               'little thrilling. With one last glance at the waking world, she bounded off the log, '
                               'disappearing into the green shadows, eager for whatever wonders lay hidden in the '
                               'heart of the ancient wood.',
                    'role': 'assistant'},
                   {'content': 'Now a 300-word story about a rabbit in a meadow. Be very descriptive.',
                    'role': 'user'},
                   {'content': 'In the gentle embrace of sunrise, a silvery mist hovered above the meadow, clinging '
                               'to each blade of grass like a whispered secret. A young rabbit named Willow emerged '
                               'from the safety of her burrow, her velvety fur brushed by dew. Her ears, soft as '
                               'petals, turned toward the distant chirruping of larks as she took her first '
                               'tentative steps into the open.\n'
                               '\n'
                               'The meadow, awash in golden light, unfurled before her like a colossal quilt, '
                               'stitched together with wildflowers--violet clover, butter-yellow dandelions, and '
                               'delicate, nodding daisies. Willow nibbled at clover leaves glistening with morning '
                               'moisture, the sweetness flooding her senses as she tasted the new day.\n'
                               '\n'
                               'A gentle breeze swept through the grasses, bending them in rippling green waves. '
                               "Willow's nose twitched, picking up the scent of earth and honeysuckle, and she "
                               'paused to watch bees buzzing from blossom to blossom, their legs weighed down with '
                               'pollen. Pastel butterflies drifted lazily over the tall grass, their wings flashing '
                               'soft blues and oranges whenever the sunlight struck them.\n'
                               '\n'
                               "From her vantage beneath a tuft of trembling fescue, Willow saw the meadow's secret "
                               'wonders unfold--a shimmer of wings as a red dragonfly darted past, the flicker of a '
                               'shrew vanishing beneath a leaf. Overhead, clouds sailed across an endless sky as '
                               'swallows swooped and turned, slicing through the air with playful grace.\n'
                               '\n'
                               'A sudden gust sent dandelion seeds swirling into the breeze, dancing like tiny stars '
                               'in the air around Willow. She froze, perfectly still, as a shadow crossed her '
                               'path--just a kestrel, wheeling high above, its sharp cry quickly swallowed by the '
                               'wide, open day.\n'
                               '\n'
                               'With the world brightening around her, Willow hopped joyfully through the tall '
                               'grass, heart pounding with the simple thrill of freedom beneath the sunlit sky.',
                    'role': 'assistant'},
                   {'content': 'Now a 300-word story about a bear in a cave. Be very descriptive.', 'role': 'user'},
                   {'content': 'In the silent hush of early evening, when shadows deepened and the forest outside '
                               'shimmered in faint silvery light, a solitary bear named Rune stirred in the heart of '
                               'his cave. Thick stone walls pressed close around him, their surfaces mottled with '
                               'patches of moss and ancient, glimmering lichen. The air inside was cool and damp, '
                               'tinged with the scent of earth and the faint whisper of pine carried in on secret '
                               'breezes.\n'
                               '\n'
                               'Rune shifted atop a bed of leaves and pine needles, each strand woven carefully over '
                               'seasons past. The soft, crinkling sound echoed through the cavern, mingling with the '
                               'quiet drip of water that slipped, drop by measured drop, from the cave roof to form '
                               'mirror-like pools in the dimness below. Shadows danced along the rough, uneven '
                               'walls--sometimes taking the shape of silent ancestors or remembered prey, watching '
                               'as strangers from the past.\n'
                               '\n'
                               "The bear's senses sharpened with the approach of night. Outside, the forest's "
                               'muffled symphony drifted in--a distant river splashing over stones, the hushed '
                               "scurry of nocturnal feet, owl calls lingering on the breeze. Rune's breath misted "
                               'gently in the chill air, each exhale curling upward and vanishing into the gloom. \n'
                               '\n'
                               'He stretched, massive paws spreading, claws scraping softly over stone. Hunger '
                               'stirred in his belly, a reminder of distant berries, honeycombs, and fat, darting '
                               'fish in sunlit streams. Yet tonight, Rune remained cradled in his haven--safe, '
                               'content to listen as the wind hummed low songs through cracks and crevices. \n'
                               '\n'
                               "From the darkness, Rune peered out at the world framed by his cave's mighty "
                               'arch--where the moon laid a pale ribbon across the forest, promising adventure. For '
                               'now, he settled deeper into leaf and fur, a guardian of secrets, dreaming beneath a '
                               "mountain of stone, wrapped in the cave's ancient, earthy embrace.",
                    'role': 'assistant'},
                   {'encrypted_content': 'gAAAAABp4CVuo_va1l5KdyyIfA553gFmrl8KTk8SKrPp_SIQ7wQf_vL8JoOsSqrLAocOUzN7QdFyegZUmEurqviM9OCWvMDLW9CdLYo3y5x_fNXQ366BegyUse32vdV3BHPCxLwVuhAvjUvML_i2lkPBvuucutd5MslUkLVHXu9tqEm2XyQmw9vKoWMm1G1ULBzxmh_888dDCADvmzNFOqai-MLu5gB8CeuaBjAuRlTQLIr4nY0VVlXa_3egSQqRt1G1svVSCfoli6GolGAFDD90z3UEet4F39mnmy1sY4hkGTWgRVtPNw7OAVNxvPndrtHB-MjL2sdTQL3C6LFj6fhlio09BlLS15sh5r6dJFSiu2C3r86KNIYueAE43OlSP952J_tcat9rqNjM8V-XgSPHi41QHFjBw8cNujTluzOsLuHpMMkh1XeruJsCNPZSgCqCMpO4Wbo6pjfMH-mIupx-GkQ1hFeXMz5Id1jLTbPx2Eyz-nia5ymFSqKeavKpjSkepwmgNl45PkPHHDn_M0XqUizMl7RpC5X8lc-9P6LLUkkUafUTsaIQi_x1eJ385vhmpk2jmYPBG4f2SfYsSID0gTG1U27snuZA3DxwSqhN9EEIMgmzaeOcJlHaVWq3nz2K0LguGMv3w5N5GrPQt9n19-yNKudlo1JCVP3nysfDjVv4y2AMp8yBPB6TE2oxLBtY3dpo3cW6nHV9rseveusuZ-ksfWT6CF3RPg1fbi99EsuI-CJyxhsGH6kkTO1KrvViGihzLzzYo_q0EcxQNM0oCYo4lLCDZnzMBpdimvhNgpZVLzCPkv49ycsvvYKWTXCoZVuKzcVtucLatEI8ARk0FK-C-P8zDPBX80zYcq3LI79F4Y8xMy9AMhORYKJHR1YWj3GlajNUgp9zY_JKPHx3Xv1l-ygTaCTJ-Zeuqx3jDvtHQZBIgHyGKkxZSk5QtPrnfa-L45Tok3lq6acFJUQW_hqgi4bHe-4pdti3rN04-v6_u44WzYi1KcAVR6EGxb_ng9uXik7fs0O5FBtY_4I0tAtzGgbdy1FKTnFxCTNeibVdU7hq6TS27XRFJV4kAEmjvCOMBRukzxx-S7LuHPRgX_IwyaKAxsyc3JhXn7Frw3JgNdU2eG-h1YVDcpit2MtzcsguEUINU34JBVT5kjXbepq9Leqzo7LMCxkfUAEtGbS6-n0JSeDRL2QbvjjtYHHsVTDkLSEqwZQ_Gg2mnVDNIdYmXW7PowW-oV7pBUfjzjySu9IVBB98KjQ1Rr7Vx7A59Vf9ak_bzdIPnO349eAgNjqttxlkqnbFfVccx1m-B-DzxjY7GDB37PTH4GZXrIVLfHsKvcqlSdK75UYrYU5OeaziXk0LUCV17bvSmV2xGJhpnbtdYJqaQqgF0eEoqLcr6rmI_3-o24EI_ReilOCxi227D_lyYCFtVbbsLKjUCpFI4pGk5y3r1WFlYAOIGhsGfoktbgOCI9fTTXGD15SJQRXAbjv0bBc_htWE0dZZelh49k9V5_zBSp2aLYoVVf6jKufMtUdQauA7_5mIQ4DE4U3nxFSorZh1HvMjCZv6w7CcnMCuyal_N7JtfLyuCwkRnJkBzAwkQMvm2DM_YbZi-tcYKa-cr3EccvTT2aHZEBnnYzER9L9Pb1Ns6ls_ZzmnStOWuXoNGvhYZhB0FCweCGfzYuTTbTBPd5jUYg44EeKMBsYoSJgIEWgVZOdHUxZzCM6myL81tnnner2lmW6vlIARgsvu2Qr548m8RWRC_kNxPr2tAlRZn3dNK4zY6NwDadVeVHgQeggyLDY9eeGXgQCXm5KEo6DLprBEW-MupV0SsnwD_alc73nWszpQ8856lXWrj3QkMY1kbQYpcUIW3K9gCahXQNoGN1FrIto8uBRzh5SA5Qiqjx198xk2xeTpeplzJi1kSvjbbAWmjHkZ-47ezOkxtQhSCg5ZX5QC4gcoLrHFdEGZglvPW6xsiCDBKi4algpQEE_h-QKk3ZoSEepFt1or3lIdGx9lWXj6Jm6VsmFM3D5t6n1oK5N0KiZwBhIlrZb7ReMT7yhmkKo95RKm4tkj2wbLnlTw-_ccGhzG1Cz9PVhUr5f9g0X9js6RtpzdhPJku-4sa5Xi_WH5nVftOZLn_lFqVC5EqIXlvhiSMbC89YJFvzmlwRJ96iUSQJnFXfbLNNmG1qCNuHy-V_gAvopPRRjRsHQ-QjCDlsC1qxRqdwb7fHMAZsLXg3Tn8XHrsdPHHyEsAEXn0-7U4INmN3zyEXYiWJfULcuWR9SFSf2S1gMdy7mxsbaoPykoHv_1bG2dCb_gdAQmbHGMKepz32ASoe52mosR4md_cWXTzd00UurhNkOjV9uR8hNsHT_asJQcqbp2mf_bsKS1cfuhvRfCiHWIJmGrIAzF5cGIIU9MHlSXJzHuy6cLI67gRd4tYqZfzMU02Q_tAps9PBeffGZ273ve5MtqHEKXYWkfczHqn0SGNPwR_C25ZuRB_RC31KLAx1tlKSiOIvAUzwEyQmbM1NspQWx7YwgfBR41aIRtRaUGMfWU72FmGO7Goi03EO_RdMXwADNSkQzfn0T7d8TjnQNsxl6KuL4qUsupKoNC74rNp-bC87gyhQxjciTxZJYlXGhhoRrIiyfm8gkAJad3KWzW69x8ni0s5nK5xNCKUunHDWxNbYG03C2GsJl8LiKaKUEwyZ3fm7-nKIkYsoI8HJcZloGtgVIn4KzGcX4xFUfndIK2mZ800o02wXBDlC2uF-6KejEVzZTiTnI1tp6u3C3yPaHkjL453kAHZMdRbO-3kd2nvzUNVW22weTQeK7aMTV94oiPadv0V5dHLtStAW8UMTdGnH-iDEJYep0E4q7f08WtkqqrnT6JMRYFvl8v6thQOf1993XHPfyR509cpx3esLcvjuTGO0g2obbZWeteSnvih0dlrRGJtdQOvfAe4ltPigOH_JVxWRaaWLldrxcYfjpmt1rZr3chqEe6iAKfIwryxu1jpC3UYxQ8ZKetPJ_mEg_aWK6emeWdYGXzwRkHrPn1gPljfIRobApb39Q1Mn6gQ4EuHLSUEkvNQo-ABRcgYg-NlhngngsUE5WdPINiAHAm4MGOJ6LLenRoh9N0fV535UAzoLMw5lIR7raXiZwpnz9M1Dur3-KPtjy73FIe_YDtj5go1RO9__Rjj9BgMAmDnKz0k5QxWEzoFkorilci-tU0PZu_v7jUqN6qgEmKlP9wjQCwqu4sqenswN9wnH-9QW-m17Tyd9NSps_nTn1BAd7DRO9YVgb_2mkHNP4an7abMneG58JYns5lFYqV6QzqtcbwEaQ-IIsPJvW-Hs-voHp7kmoPDh7cp7Ef5N75uAxPS0x37_DG6W81fUaZ4HFSw7AN0ZpfYc8rAXIZllw75x2GseRbRWLJavujVBW5B8Z1eS4VLSQHvF6KHJGoFsLvVVrG1iGrQLDZj250Pd7-0kr1Ve8Tl_WxAITiELSQKPsq0FJzHwkE8qqCzlpHxNlH6qxuQsg1gp9lGVsHqzJlRaLzkWNcQO31prlbWMmE6JDwwCUiTkuPiw3R_SxX1aFUQf4iHFtgjWA2iAJDPKVZT5MmuiNfrUWRjJN1mZHIRm6tm1eBXMaWPier_j1iIGt-n38DaSTrcunsJdf4SyXYHQhwGBHGY1cjHq6yOlHewwLt7deflLC_bRfRjbjE5pQt579OZ4WGYC7rs1Mdp96pgVZybOKzKFzEUeYL8dLoxHwAuvgktp3XeLjDSkCgQeAc1ciF1aKSmKkc6MWmAGNJQRwCP79H1WVrq-39WuGAh5xajznzbSyI5tW6Xd1dwA5hiT9HP7J7EJ70GSoNAdeXAzlS0j7aN12uqlsSS_vWaD_LoZo0YCu3kMVTL1qt7D_otLHfsLR2-ot0iPvEKeHF1y82OyM3AJvCcBMllMsBa1tNseIdbVIl34tH3eH5oJZA0fE7oFVvwxiJ-5VUqbQ_IdxJfQW17emNik4JxaLOm39QKreCVyezZuom2KYUy82-YbVEn4RVC2VYYaqR2Td-jzpt7bBPPylPb5gFiN4jCyXjuviLw408HnUoJP7Trd70DTtm7gtTyixm3ptxylleeuYbzRdyJjllKqp8wPcC7CShj_ZMbPfOvhiMu-t9c7R_wAGY1WXvzHOKHQiFUPwAFY5NRkaeQ-RfnApHG1HuMK4-LMNuB7qH31jtklUJ72OcloUczIBLteyIrl04vOejvbUFs_0YfsQFzORXop7Uia6PXvqr19gqFR_cRyA1--FpnPylKipbEx7UXDLXhPj3lxfzyU0leH4RH6lzcsWGbxSUAnSKZ397ECFujdsgpJy37fI01mTcw95lxudTBWUSTYORHQozVb2Ihbwsj3CBsEgyp7qUd9HF5N_6FezghLFXtd2iIeSvw-4qQGYwFYsauIJOwaf3EMfMeAYvo00Pw072E_2SreY5iCzqH6AgohnsEMrL2Jpl4trhVjNGfiWdjluUvBVcR6QIl9OiCQmnidS1eyoMy-UKblb9ZdMb_cQaFoToI5Lf-k7OaX-vukR8I-V2ozdUTaAoLS0FEB2uVuxSKlOykuDDTGLjuJKMdicUAAWBJeRC66BF6AIJVX85WrjP9xITupWiNhQ5682qUmAO_aoO26DZtL-25iiv1u8NnKCgitJFcugYQvz-MFQb3M5YKnMqrtB0prW7rz51hZQ_ZoUHEzdGThn1nZlEGNe40Olxyj3_atWhEgdWbuy0A_YjEe3xapn2sPS29w==',
                    'id': 'cmp_0b0c928ec0ba401f0069e0256e19388193b74237b70aeed0f5',
                    'type': 'compaction'},
                   {'content': 'What is 2+2?', 'role': 'user'}],
         'model': 'gpt-4.1',
         'stream': False},
    ),
    Recorded(
        'tests/models/cassettes/test_tool_choice_matrix/test_tool_choice_matrix[auto-openai].yaml',
        0, 'chat', 'gpt-5-mini', input_tokens=132, cached_tokens=0,
        body=
        {'messages': [{'content': "What's the weather in Paris?", 'role': 'user'}],
         'model': 'gpt-5-mini',
         'stream': False,
         'tool_choice': 'auto',
         'tools': [{'function': {'description': 'Get the current weather for a city.',
                                 'name': 'get_weather',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'city': {'type': 'string'}},
                                                'required': ['city'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'}]},
    ),
    Recorded(
        'tests/models/cassettes/test_tool_choice_matrix/test_tool_choice_matrix[auto-openai].yaml',
        1, 'chat', 'gpt-5-mini', input_tokens=167, cached_tokens=0,
        body=
        {'messages': [{'content': "What's the weather in Paris?", 'role': 'user'},
                      {'content': None,
                       'role': 'assistant',
                       'tool_calls': [{'function': {'arguments': '{"city":"Paris"}', 'name': 'get_weather'},
                                       'id': 'call_aDdJTteHrpMdhdkEkyxjxEHH',
                                       'type': 'function'}]},
                      {'content': 'Sunny, 22C in Paris',
                       'role': 'tool',
                       'tool_call_id': 'call_aDdJTteHrpMdhdkEkyxjxEHH'}],
         'model': 'gpt-5-mini',
         'stream': False,
         'tool_choice': 'auto',
         'tools': [{'function': {'description': 'Get the current weather for a city.',
                                 'name': 'get_weather',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'city': {'type': 'string'}},
                                                'required': ['city'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'}]},
    ),
    Recorded(
        'tests/models/cassettes/test_tool_choice_matrix/test_tool_choice_matrix[none-openai].yaml',
        0, 'chat', 'gpt-5-mini', input_tokens=132, cached_tokens=0,
        body=
        {'messages': [{'content': "What's the weather in Paris?", 'role': 'user'}],
         'model': 'gpt-5-mini',
         'stream': False,
         'tool_choice': 'none',
         'tools': [{'function': {'description': 'Get the current weather for a city.',
                                 'name': 'get_weather',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'city': {'type': 'string'}},
                                                'required': ['city'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'}]},
    ),
    Recorded(
        'tests/models/cassettes/test_tool_choice_matrix/test_tool_choice_matrix[required-openai].yaml',
        0, 'chat', 'gpt-5-mini', input_tokens=130, cached_tokens=0,
        body=
        {'messages': [{'content': "What's the weather in Paris?", 'role': 'user'}],
         'model': 'gpt-5-mini',
         'stream': False,
         'tool_choice': 'required',
         'tools': [{'function': {'description': 'Get weather for a city',
                                 'name': 'get_weather',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'city': {'type': 'string'}},
                                                'required': ['city'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'}]},
    ),
    Recorded(
        'tests/models/cassettes/test_tool_choice_matrix/test_tool_choice_matrix[list_single-openai].yaml',
        0, 'chat', 'gpt-5-mini', input_tokens=150, cached_tokens=0,
        body=
        {'messages': [{'content': "What's the weather in Paris?", 'role': 'user'}],
         'model': 'gpt-5-mini',
         'stream': False,
         'tool_choice': {'function': {'name': 'get_weather'}, 'type': 'function'},
         'tools': [{'function': {'description': 'Get weather for a city',
                                 'name': 'get_weather',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'city': {'type': 'string'}},
                                                'required': ['city'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'},
                   {'function': {'description': 'Get time in a timezone',
                                 'name': 'get_time',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'timezone': {'type': 'string'}},
                                                'required': ['timezone'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'}]},
    ),
    Recorded(
        'tests/models/cassettes/test_tool_choice_matrix/test_tool_choice_matrix[tools_plus_output-openai].yaml',
        1, 'chat', 'gpt-5-mini', input_tokens=215, cached_tokens=0,
        body=
        {'messages': [{'content': 'Get weather for Paris and summarize', 'role': 'user'},
                      {'content': None,
                       'role': 'assistant',
                       'tool_calls': [{'function': {'arguments': '{"city":"Paris"}', 'name': 'get_weather'},
                                       'id': 'call_LCWM0K5IkLjASFTllZhX5HM3',
                                       'type': 'function'}]},
                      {'content': 'Sunny, 22C in Paris',
                       'role': 'tool',
                       'tool_call_id': 'call_LCWM0K5IkLjASFTllZhX5HM3'}],
         'model': 'gpt-5-mini',
         'stream': False,
         'tool_choice': 'required',
         'tools': [{'function': {'description': 'Get the current weather for a city.',
                                 'name': 'get_weather',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'city': {'type': 'string'}},
                                                'required': ['city'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'},
                   {'function': {'description': 'Get the current time in a timezone.',
                                 'name': 'get_time',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'timezone': {'type': 'string'}},
                                                'required': ['timezone'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'},
                   {'function': {'description': 'The final response which ends this conversation',
                                 'name': 'final_result',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'city': {'type': 'string'},
                                                               'summary': {'type': 'string'}},
                                                'required': ['city', 'summary'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'}]},
    ),
    Recorded(
        'tests/cassettes/test_temporal/test_complex_agent_run.yaml',
        0, 'chat', 'gpt-4o', input_tokens=364, cached_tokens=0,
        body=
        {'messages': [{'content': 'Tell me: the capital of the country; the weather there; the product name',
                       'role': 'user'}],
         'model': 'gpt-4o',
         'stream': True,
         'stream_options': {'include_usage': True},
         'tool_choice': 'required',
         'tools': [{'function': {'description': '',
                                 'name': 'get_weather',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'city': {'type': 'string'}},
                                                'required': ['city'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'get_country',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': 'Convert Celsius to Fahrenheit.\n'
                                                '\n'
                                                '    Args:\n'
                                                '        celsius: Temperature in Celsius\n'
                                                '\n'
                                                '    Returns:\n'
                                                '        Temperature in Fahrenheit\n'
                                                '    ',
                                 'name': 'celsius_to_fahrenheit',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'celsius': {'type': 'number'}},
                                                'required': ['celsius'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'},
                   {'function': {'description': 'Get the weather forecast for a location.\n'
                                                '\n'
                                                '    Args:\n'
                                                '        location: The location to get the weather forecast for.\n'
                                                '\n'
                                                '    Returns:\n'
                                                '        The weather forecast for the location.\n'
                                                '    ',
                                 'name': 'get_weather_forecast',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'location': {'type': 'string'}},
                                                'required': ['location'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'get_image_resource',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'get_image_resource_link',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'get_audio_resource',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'get_audio_resource_link',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'get_product_name',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'get_product_name_link',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'get_image',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'get_dict',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'get_error',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'value': {'default': False, 'type': 'boolean'}},
                                                'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'get_none',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'get_multiple_items',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': 'Get the current log level.\n'
                                                '\n'
                                                '    Returns:\n'
                                                '        The current log level.\n'
                                                '    ',
                                 'name': 'get_log_level',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': 'Echo the run context.\n'
                                                '\n'
                                                '    Args:\n'
                                                '        ctx: Context object containing request and session '
                                                'information.\n'
                                                '\n'
                                                '    Returns:\n'
                                                '        Dictionary with an echo message and the deps.\n'
                                                '    ',
                                 'name': 'echo_deps',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': 'Use sampling callback.',
                                 'name': 'use_sampling',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'foo': {'type': 'string'}},
                                                'required': ['foo'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'},
                   {'function': {'description': 'The final response which ends this conversation',
                                 'name': 'final_result',
                                 'parameters': {'$defs': {'Answer': {'additionalProperties': False,
                                                                     'properties': {'answer': {'type': 'string'},
                                                                                    'label': {'type': 'string'}},
                                                                     'required': ['label', 'answer'],
                                                                     'type': 'object'}},
                                                'additionalProperties': False,
                                                'properties': {'answers': {'items': {'$ref': '#/$defs/Answer'},
                                                                           'type': 'array'}},
                                                'required': ['answers'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'}]},
    ),
    Recorded(
        'tests/cassettes/test_temporal/test_complex_agent_run.yaml',
        2, 'chat', 'gpt-4o', input_tokens=448, cached_tokens=0,
        body=
        {'messages': [{'content': 'Tell me: the capital of the country; the weather there; the product name',
                       'role': 'user'},
                      {'role': 'assistant',
                       'tool_calls': [{'function': {'arguments': '{}', 'name': 'get_country'},
                                       'id': 'call_q2UyBRP7eXNTzAoR8lEhjc9Z',
                                       'type': 'function'},
                                      {'function': {'arguments': '{}', 'name': 'get_product_name'},
                                       'id': 'call_b51ijcpFkDiTQG1bQzsrmtW5',
                                       'type': 'function'}]},
                      {'content': 'Mexico', 'role': 'tool', 'tool_call_id': 'call_q2UyBRP7eXNTzAoR8lEhjc9Z'},
                      {'content': 'Pydantic AI', 'role': 'tool', 'tool_call_id': 'call_b51ijcpFkDiTQG1bQzsrmtW5'},
                      {'role': 'assistant',
                       'tool_calls': [{'function': {'arguments': '{"city":"Mexico City"}', 'name': 'get_weather'},
                                       'id': 'call_LwxJUB9KppVyogRRLQsamRJv',
                                       'type': 'function'}]},
                      {'content': 'sunny', 'role': 'tool', 'tool_call_id': 'call_LwxJUB9KppVyogRRLQsamRJv'}],
         'model': 'gpt-4o',
         'stream': True,
         'stream_options': {'include_usage': True},
         'tool_choice': 'required',
         'tools': [{'function': {'description': '',
                                 'name': 'get_weather',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'city': {'type': 'string'}},
                                                'required': ['city'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'get_country',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': 'Convert Celsius to Fahrenheit.\n'
                                                '\n'
                                                '    Args:\n'
                                                '        celsius: Temperature in Celsius\n'
                                                '\n'
                                                '    Returns:\n'
                                                '        Temperature in Fahrenheit\n'
                                                '    ',
                                 'name': 'celsius_to_fahrenheit',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'celsius': {'type': 'number'}},
                                                'required': ['celsius'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'},
                   {'function': {'description': 'Get the weather forecast for a location.\n'
                                                '\n'
                                                '    Args:\n'
                                                '        location: The location to get the weather forecast for.\n'
                                                '\n'
                                                '    Returns:\n'
                                                '        The weather forecast for the location.\n'
                                                '    ',
                                 'name': 'get_weather_forecast',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'location': {'type': 'string'}},
                                                'required': ['location'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'get_image_resource',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'get_image_resource_link',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'get_audio_resource',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'get_audio_resource_link',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'get_product_name',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'get_product_name_link',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'get_image',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'get_dict',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'get_error',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'value': {'default': False, 'type': 'boolean'}},
                                                'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'get_none',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'get_multiple_items',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': 'Get the current log level.\n'
                                                '\n'
                                                '    Returns:\n'
                                                '        The current log level.\n'
                                                '    ',
                                 'name': 'get_log_level',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': 'Echo the run context.\n'
                                                '\n'
                                                '    Args:\n'
                                                '        ctx: Context object containing request and session '
                                                'information.\n'
                                                '\n'
                                                '    Returns:\n'
                                                '        Dictionary with an echo message and the deps.\n'
                                                '    ',
                                 'name': 'echo_deps',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': 'Use sampling callback.',
                                 'name': 'use_sampling',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'foo': {'type': 'string'}},
                                                'required': ['foo'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'},
                   {'function': {'description': 'The final response which ends this conversation',
                                 'name': 'final_result',
                                 'parameters': {'$defs': {'Answer': {'additionalProperties': False,
                                                                     'properties': {'answer': {'type': 'string'},
                                                                                    'label': {'type': 'string'}},
                                                                     'required': ['label', 'answer'],
                                                                     'type': 'object'}},
                                                'additionalProperties': False,
                                                'properties': {'answers': {'items': {'$ref': '#/$defs/Answer'},
                                                                           'type': 'array'}},
                                                'required': ['answers'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'}]},
    ),
    Recorded(
        'tests/cassettes/test_prefect/test_complex_agent_run_in_flow.yaml',
        1, 'chat', 'gpt-4o', input_tokens=417, cached_tokens=0,
        body=
        {'messages': [{'content': 'Tell me: the capital of the country; the weather there; the product name',
                       'role': 'user'},
                      {'content': None,
                       'role': 'assistant',
                       'tool_calls': [{'function': {'arguments': '{}', 'name': 'get_country'},
                                       'id': 'call_rI3WKPYvVwlOgCGRjsPP2hEx',
                                       'type': 'function'}]},
                      {'content': 'Mexico', 'role': 'tool', 'tool_call_id': 'call_rI3WKPYvVwlOgCGRjsPP2hEx'}],
         'model': 'gpt-4o',
         'stream': True,
         'stream_options': {'include_usage': True},
         'tool_choice': 'required',
         'tools': [{'function': {'description': '',
                                 'name': 'get_weather',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'city': {'type': 'string'}},
                                                'required': ['city'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'get_country',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': 'Convert Celsius to Fahrenheit.\n'
                                                '\n'
                                                '    Args:\n'
                                                '        celsius: Temperature in Celsius\n'
                                                '\n'
                                                '    Returns:\n'
                                                '        Temperature in Fahrenheit\n'
                                                '    ',
                                 'name': 'celsius_to_fahrenheit',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'celsius': {'type': 'number'}},
                                                'required': ['celsius'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'},
                   {'function': {'description': 'Get the weather forecast for a location.\n'
                                                '\n'
                                                '    Args:\n'
                                                '        location: The location to get the weather forecast for.\n'
                                                '\n'
                                                '    Returns:\n'
                                                '        The weather forecast for the location.\n'
                                                '    ',
                                 'name': 'get_weather_forecast',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'location': {'type': 'string'}},
                                                'required': ['location'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'get_image_resource',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'get_image_resource_link',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'get_audio_resource',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'get_audio_resource_link',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'get_product_name',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'get_product_name_link',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'get_image',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'get_dict',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'get_error',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'value': {'default': False, 'type': 'boolean'}},
                                                'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'get_none',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'get_multiple_items',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': 'Get the current log level.\n'
                                                '\n'
                                                '    Returns:\n'
                                                '        The current log level.\n'
                                                '    ',
                                 'name': 'get_log_level',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': 'Echo the run context.\n'
                                                '\n'
                                                '    Args:\n'
                                                '        ctx: Context object containing request and session '
                                                'information.\n'
                                                '\n'
                                                '    Returns:\n'
                                                '        Dictionary with an echo message and the deps.\n'
                                                '    ',
                                 'name': 'echo_deps',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': 'Use sampling callback.',
                                 'name': 'use_sampling',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'foo': {'type': 'string'}},
                                                'required': ['foo'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'},
                   {'function': {'description': 'Use elicitation callback to ask the user a question.',
                                 'name': 'use_elicitation',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'question': {'type': 'string'}},
                                                'required': ['question'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'},
                   {'function': {'description': '',
                                 'name': 'external',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': 'The final response which ends this conversation',
                                 'name': 'final_result',
                                 'parameters': {'$defs': {'Answer': {'additionalProperties': False,
                                                                     'properties': {'answer': {'type': 'string'},
                                                                                    'label': {'type': 'string'}},
                                                                     'required': ['label', 'answer'],
                                                                     'type': 'object'}},
                                                'additionalProperties': False,
                                                'properties': {'answers': {'items': {'$ref': '#/$defs/Answer'},
                                                                           'type': 'array'}},
                                                'required': ['answers'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'}]},
    ),
    Recorded(
        'tests/cassettes/test_tool_search/test_tool_search_eval[openai-chat].yaml',
        1, 'chat', 'gpt-5.4-mini', input_tokens=356, cached_tokens=0,
        body=
        {'messages': [{'content': 'What is the current exchange rate from USD to EUR?', 'role': 'user'},
                      {'content': None,
                       'role': 'assistant',
                       'tool_calls': [{'function': {'arguments': '{"queries":["exchange rate currency USD EUR '
                                                                 'current"]}',
                                                    'name': 'search_tools'},
                                       'id': 'call_HXEEsG0rVIvymWmAHG4fgIwp',
                                       'type': 'function'}]},
                      {'content': '{"discovered_tools":[{"name":"get_exchange_rate","description":"Look up the '
                                  'current exchange rate between two currencies."}]}',
                       'role': 'tool',
                       'tool_call_id': 'call_HXEEsG0rVIvymWmAHG4fgIwp'}],
         'model': 'gpt-5.4-mini',
         'stream': False,
         'tool_choice': 'auto',
         'tools': [{'function': {'description': 'Get the current weather for a city.',
                                 'name': 'get_weather',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'city': {'type': 'string'}},
                                                'required': ['city'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'},
                   {'function': {'description': 'Look up the current exchange rate between two currencies.',
                                 'name': 'get_exchange_rate',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'from_currency': {'type': 'string'},
                                                               'to_currency': {'type': 'string'}},
                                                'required': ['from_currency', 'to_currency'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'},
                   {'function': {'description': 'There are additional tools not yet visible to you. When you need a '
                                                'capability not provided by your current tools, search here by '
                                                'providing one or more queries to discover and activate relevant '
                                                'tools. Each query is tokenized into words; tool names and '
                                                'descriptions are scored by token overlap. If no tools are found, '
                                                'they do not exist -- do not retry.',
                                 'name': 'search_tools',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'queries': {'description': 'List of search queries to '
                                                                                          'match against tool names '
                                                                                          'and descriptions. Use '
                                                                                          'specific words likely to '
                                                                                          'appear in tool names or '
                                                                                          'descriptions to narrow '
                                                                                          'down relevant tools. Each '
                                                                                          'query is independently '
                                                                                          'tokenized; matches across '
                                                                                          'queries are unioned.',
                                                                           'items': {'type': 'string'},
                                                                           'type': 'array'}},
                                                'required': ['queries'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'}]},
    ),
    Recorded(
        'tests/cassettes/test_tool_search/test_tool_search_eval[openai-chat].yaml',
        5, 'chat', 'gpt-5.4-mini', input_tokens=431, cached_tokens=0,
        body=
        {'messages': [{'content': 'What is the current stock price for AAPL?', 'role': 'user'},
                      {'content': None,
                       'role': 'assistant',
                       'tool_calls': [{'function': {'arguments': '{"queries":["stock price market quote AAPL '
                                                                 'current"]}',
                                                    'name': 'search_tools'},
                                       'id': 'call_I0Yk90iUIGFHEQBlkTfJGj4U',
                                       'type': 'function'}]},
                      {'content': '{"discovered_tools":[{"name":"stock_lookup","description":"Look up stock price by '
                                  'ticker symbol."},{"name":"get_exchange_rate","description":"Look up the current '
                                  'exchange rate between two currencies."}]}',
                       'role': 'tool',
                       'tool_call_id': 'call_I0Yk90iUIGFHEQBlkTfJGj4U'},
                      {'content': None,
                       'role': 'assistant',
                       'tool_calls': [{'function': {'arguments': '{"symbol":"AAPL"}', 'name': 'stock_lookup'},
                                       'id': 'call_gaKxiqVgOxxX9Q3RvqvtKKCn',
                                       'type': 'function'}]},
                      {'content': 'Stock AAPL: $150.00',
                       'role': 'tool',
                       'tool_call_id': 'call_gaKxiqVgOxxX9Q3RvqvtKKCn'}],
         'model': 'gpt-5.4-mini',
         'stream': False,
         'tool_choice': 'auto',
         'tools': [{'function': {'description': 'Get the current weather for a city.',
                                 'name': 'get_weather',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'city': {'type': 'string'}},
                                                'required': ['city'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'},
                   {'function': {'description': 'Look up the current exchange rate between two currencies.',
                                 'name': 'get_exchange_rate',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'from_currency': {'type': 'string'},
                                                               'to_currency': {'type': 'string'}},
                                                'required': ['from_currency', 'to_currency'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'},
                   {'function': {'description': 'Look up stock price by ticker symbol.',
                                 'name': 'stock_lookup',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'symbol': {'type': 'string'}},
                                                'required': ['symbol'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'},
                   {'function': {'description': 'There are additional tools not yet visible to you. When you need a '
                                                'capability not provided by your current tools, search here by '
                                                'providing one or more queries to discover and activate relevant '
                                                'tools. Each query is tokenized into words; tool names and '
                                                'descriptions are scored by token overlap. If no tools are found, '
                                                'they do not exist -- do not retry.',
                                 'name': 'search_tools',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'queries': {'description': 'List of search queries to '
                                                                                          'match against tool names '
                                                                                          'and descriptions. Use '
                                                                                          'specific words likely to '
                                                                                          'appear in tool names or '
                                                                                          'descriptions to narrow '
                                                                                          'down relevant tools. Each '
                                                                                          'query is independently '
                                                                                          'tokenized; matches across '
                                                                                          'queries are unioned.',
                                                                           'items': {'type': 'string'},
                                                                           'type': 'array'}},
                                                'required': ['queries'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'}]},
    ),
    Recorded(
        'tests/cassettes/test_tool_availability_portability/test_tool_availability_portability_matrix[R1-T6-local-search].yaml',
        0, 'chat', 'gpt-5', input_tokens=329, cached_tokens=0,
        body=
        {'messages': [{'content': 'Find the exchange-rate tool.', 'role': 'user'},
                      {'content': None,
                       'role': 'assistant',
                       'tool_calls': [{'function': {'arguments': '{"queries":["exchange rate"]}',
                                                    'name': 'search_tools'},
                                       'id': 'search_call_1',
                                       'type': 'function'}]},
                      {'content': '{"discovered_tools":[{"name":"lookup_exchange_rate"}]}',
                       'role': 'tool',
                       'tool_call_id': 'search_call_1'},
                      {'content': 'Acknowledge the available exchange-rate tool without calling it.',
                       'role': 'user'}],
         'model': 'gpt-5',
         'stream': False,
         'tool_choice': 'auto',
         'tools': [{'function': {'description': 'Provide an always-available tool so provider tool lists remain '
                                                'valid.',
                                 'name': 'always_ready',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': 'Look up an exchange rate.',
                                 'name': 'lookup_exchange_rate',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'currency': {'type': 'string'}},
                                                'required': ['currency'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'},
                   {'function': {'description': 'Search first for a standalone deferred tool when current tools and '
                                                'catalog descriptions do not name the requested operation. A '
                                                'capability id used as an ordinary domain word does not request that '
                                                'capability. This cannot find capability-owned tools; load a listed '
                                                'capability by id instead. If no tools are found, do not retry.',
                                 'name': 'search_tools',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'queries': {'description': 'List of search queries to '
                                                                                          'match against tool names '
                                                                                          'and descriptions. Use '
                                                                                          'specific words likely to '
                                                                                          'appear in tool names or '
                                                                                          'descriptions to narrow '
                                                                                          'down relevant tools. Each '
                                                                                          'query is independently '
                                                                                          'tokenized; matches across '
                                                                                          'queries are unioned.',
                                                                           'items': {'type': 'string'},
                                                                           'type': 'array'}},
                                                'required': ['queries'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'}]},
    ),
    Recorded(
        'tests/models/cassettes/test_openai_prompt_cache/test_openai_chat_prompt_cache_e2e.yaml',
        0, 'chat', 'gpt-5.6-sol', input_tokens=4020, cached_tokens=0,
        body=
        {'messages': [{'content': [{'prompt_cache_breakpoint': {'mode': 'explicit'},
                                    'text': 'Reference catalogue for the prompt cache test corpus.\n'
                                            'Entry 0000: shelf 0, aisle 0, volume 0, catalogued under subject '
                                            'heading 0.\n'
                                            'Entry 0001: shelf 1, aisle 1, volume 1, catalogued under subject '
                                            'heading 1.\n'
                                            'Entry 0002: shelf 2, aisle 2, volume 2, catalogued under subject '
                                            'heading 2.\n'
                                            'Entry 0003: shelf 3, aisle 3, volume 3, catalogued under subject '
                                            'heading 3.\n'
                                            'Entry 0004: shelf 4, aisle 4, volume 4, catalogued under subject '
                                            'heading 4.\n'
                                            'Entry 0005: shelf 5, aisle 5, volume 5, catalogued under subject '
                                            'heading 5.\n'
                                            'Entry 0006: shelf 6, aisle 6, volume 6, catalogued under subject '
                                            'heading 6.\n'
                                            'Entry 0007: shelf 7, aisle 0, volume 7, catalogued under subject '
                                            'heading 7.\n'
                                            'Entry 0008: shelf 8, aisle 1, volume 8, catalogued under subject '
                                            'heading 8.\n'
                                            'Entry 0009: shelf 9, aisle 2, volume 9, catalogued under subject '
                                            'heading 9.\n'
                                            'Entry 0010: shelf 10, aisle 3, volume 10, catalogued under subject '
                                            'heading 10.\n'
                                            'Entry 0011: shelf 11, aisle 4, volume 11, catalogued under subject '
                                            'heading 0.\n'
                                            'Entry 0012: shelf 12, aisle 5, volume 12, catalogued under subject '
                                            'heading 1.\n'
                                            'Entry 0013: shelf 13, aisle 6, volume 13, catalogued under subject '
                                            'heading 2.\n'
                                            'Entry 0014: shelf 14, aisle 0, volume 14, catalogued under subject '
                                            'heading 3.\n'
                                            'Entry 0015: shelf 15, aisle 1, volume 15, catalogued under subject '
                                            'heading 4.\n'
                                            'Entry 0016: shelf 16, aisle 2, volume 16, catalogued under subject '
                                            'heading 5.\n'
                                            'Entry 0017: shelf 17, aisle 3, volume 17, catalogued under subject '
                                            'heading 6.\n'
                                            'Entry 0018: shelf 18, aisle 4, volume 18, catalogued under subject '
                                            'heading 7.\n'
                                            'Entry 0019: shelf 19, aisle 5, volume 19, catalogued under subject '
                                            'heading 8.\n'
                                            'Entry 0020: shelf 20, aisle 6, volume 20, catalogued under subject '
                                            'heading 9.\n'
                                            'Entry 0021: shelf 21, aisle 0, volume 21, catalogued under subject '
                                            'heading 10.\n'
                                            'Entry 0022: shelf 22, aisle 1, volume 22, catalogued under subject '
                                            'heading 0.\n'
                                            'Entry 0023: shelf 0, aisle 2, volume 23, catalogued under subject '
                                            'heading 1.\n'
                                            'Entry 0024: shelf 1, aisle 3, volume 24, catalogued under subject '
                                            'heading 2.\n'
                                            'Entry 0025: shelf 2, aisle 4, volume 25, catalogued under subject '
                                            'heading 3.\n'
                                            'Entry 0026: shelf 3, aisle 5, volume 26, catalogued under subject '
                                            'heading 4.\n'
                                            'Entry 0027: shelf 4, aisle 6, volume 27, catalogued under subject '
                                            'heading 5.\n'
                                            'Entry 0028: shelf 5, aisle 0, volume 28, catalogued under subject '
                                            'heading 6.\n'
                                            'Entry 0029: shelf 6, aisle 1, volume 29, catalogued under subject '
                                            'heading 7.\n'
                                            'Entry 0030: shelf 7, aisle 2, volume 30, catalogued under subject '
                                            'heading 8.\n'
                                            'Entry 0031: shelf 8, aisle 3, volume 31, catalogued under subject '
                                            'heading 9.\n'
                                            'Entry 0032: shelf 9, aisle 4, volume 32, catalogued under subject '
                                            'heading 10.\n'
                                            'Entry 0033: shelf 10, aisle 5, volume 33, catalogued under subject '
                                            'heading 0.\n'
                                            'Entry 0034: shelf 11, aisle 6, volume 34, catalogued under subject '
                                            'heading 1.\n'
                                            'Entry 0035: shelf 12, aisle 0, volume 35, catalogued under subject '
                                            'heading 2.\n'
                                            'Entry 0036: shelf 13, aisle 1, volume 36, catalogued under subject '
                                            'heading 3.\n'
                                            'Entry 0037: shelf 14, aisle 2, volume 37, catalogued under subject '
                                            'heading 4.\n'
                                            'Entry 0038: shelf 15, aisle 3, volume 38, catalogued under subject '
                                            'heading 5.\n'
                                            'Entry 0039: shelf 16, aisle 4, volume 39, catalogued under subject '
                                            'heading 6.\n'
                                            'Entry 0040: shelf 17, aisle 5, volume 40, catalogued under subject '
                                            'heading 7.\n'
                                            'Entry 0041: shelf 18, aisle 6, volume 41, catalogued under subject '
                                            'heading 8.\n'
                                            'Entry 0042: shelf 19, aisle 0, volume 42, catalogued under subject '
                                            'heading 9.\n'
                                            'Entry 0043: shelf 20, aisle 1, volume 43, catalogued under subject '
                                            'heading 10.\n'
                                            'Entry 0044: shelf 21, aisle 2, volume 44, catalogued under subject '
                                            'heading 0.\n'
                                            'Entry 0045: shelf 22, aisle 3, volume 45, catalogued under subject '
                                            'heading 1.\n'
                                            'Entry 0046: shelf 0, aisle 4, volume 46, catalogued under subject '
                                            'heading 2.\n'
                                            'Entry 0047: shelf 1, aisle 5, volume 47, catalogued under subject '
                                            'heading 3.\n'
                                            'Entry 0048: shelf 2, aisle 6, volume 48, catalogued under subject '
                                            'heading 4.\n'
                                            'Entry 0049: shelf 3, aisle 0, volume 49, catalogued under subject '
                                            'heading 5.\n'
                                            'Entry 0050: shelf 4, aisle 1, volume 50, catalogued under subject '
                                            'heading 6.\n'
                                            'Entry 0051: shelf 5, aisle 2, volume 51, catalogued under subject '
                                            'heading 7.\n'
                                            'Entry 0052: shelf 6, aisle 3, volume 52, catalogued under subject '
                                            'heading 8.\n'
                                            'Entry 0053: shelf 7, aisle 4, volume 53, catalogued under subject '
                                            'heading 9.\n'
                                            'Entry 0054: shelf 8, aisle 5, volume 54, catalogued under subject '
                                            'heading 10.\n'
                                            'Entry 0055: shelf 9, aisle 6, volume 55, catalogued under subject '
                                            'heading 0.\n'
                                            'Entry 0056: shelf 10, aisle 0, volume 56, catalogued under subject '
                                            'heading 1.\n'
                                            'Entry 0057: shelf 11, aisle 1, volume 57, catalogued under subject '
                                            'heading 2.\n'
                                            'Entry 0058: shelf 12, aisle 2, volume 58, catalogued under subject '
                                            'heading 3.\n'
                                            'Entry 0059: shelf 13, aisle 3, volume 59, catalogued under subject '
                                            'heading 4.\n'
                                            'Entry 0060: shelf 14, aisle 4, volume 60, catalogued under subject '
                                            'heading 5.\n'
                                            'Entry 0061: shelf 15, aisle 5, volume 61, catalogued under subject '
                                            'heading 6.\n'
                                            'Entry 0062: shelf 16, aisle 6, volume 62, catalogued under subject '
                                            'heading 7.\n'
                                            'Entry 0063: shelf 17, aisle 0, volume 63, catalogued under subject '
                                            'heading 8.\n'
                                            'Entry 0064: shelf 18, aisle 1, volume 64, catalogued under subject '
                                            'heading 9.\n'
                                            'Entry 0065: shelf 19, aisle 2, volume 65, catalogued under subject '
                                            'heading 10.\n'
                                            'Entry 0066: shelf 20, aisle 3, volume 66, catalogued under subject '
                                            'heading 0.\n'
                                            'Entry 0067: shelf 21, aisle 4, volume 67, catalogued under subject '
                                            'heading 1.\n'
                                            'Entry 0068: shelf 22, aisle 5, volume 68, catalogued under subject '
                                            'heading 2.\n'
                                            'Entry 0069: shelf 0, aisle 6, volume 69, catalogued under subject '
                                            'heading 3.\n'
                                            'Entry 0070: shelf 1, aisle 0, volume 70, catalogued under subject '
                                            'heading 4.\n'
                                            'Entry 0071: shelf 2, aisle 1, volume 71, catalogued under subject '
                                            'heading 5.\n'
                                            'Entry 0072: shelf 3, aisle 2, volume 72, catalogued under subject '
                                            'heading 6.\n'
                                            'Entry 0073: shelf 4, aisle 3, volume 73, catalogued under subject '
                                            'heading 7.\n'
                                            'Entry 0074: shelf 5, aisle 4, volume 74, catalogued under subject '
                                            'heading 8.\n'
                                            'Entry 0075: shelf 6, aisle 5, volume 75, catalogued under subject '
                                            'heading 9.\n'
                                            'Entry 0076: shelf 7, aisle 6, volume 76, catalogued under subject '
                                            'heading 10.\n'
                                            'Entry 0077: shelf 8, aisle 0, volume 77, catalogued under subject '
                                            'heading 0.\n'
                                            'Entry 0078: shelf 9, aisle 1, volume 78, catalogued under subject '
                                            'heading 1.\n'
                                            'Entry 0079: shelf 10, aisle 2, volume 79, catalogued under subject '
                                            'heading 2.\n'
                                            'Entry 0080: shelf 11, aisle 3, volume 80, catalogued under subject '
                                            'heading 3.\n'
                                            'Entry 0081: shelf 12, aisle 4, volume 81, catalogued under subject '
                                            'heading 4.\n'
                                            'Entry 0082: shelf 13, aisle 5, volume 82, catalogued under subject '
                                            'heading 5.\n'
                                            'Entry 0083: shelf 14, aisle 6, volume 83, catalogued under subject '
                                            'heading 6.\n'
                                            'Entry 0084: shelf 15, aisle 0, volume 84, catalogued under subject '
                                            'heading 7.\n'
                                            'Entry 0085: shelf 16, aisle 1, volume 85, catalogued under subject '
                                            'heading 8.\n'
                                            'Entry 0086: shelf 17, aisle 2, volume 86, catalogued under subject '
                                            'heading 9.\n'
                                            'Entry 0087: shelf 18, aisle 3, volume 87, catalogued under subject '
                                            'heading 10.\n'
                                            'Entry 0088: shelf 19, aisle 4, volume 88, catalogued under subject '
                                            'heading 0.\n'
                                            'Entry 0089: shelf 20, aisle 5, volume 89, catalogued under subject '
                                            'heading 1.\n'
                                            'Entry 0090: shelf 21, aisle 6, volume 90, catalogued under subject '
                                            'heading 2.\n'
                                            'Entry 0091: shelf 22, aisle 0, volume 91, catalogued under subject '
                                            'heading 3.\n'
                                            'Entry 0092: shelf 0, aisle 1, volume 92, catalogued under subject '
                                            'heading 4.\n'
                                            'Entry 0093: shelf 1, aisle 2, volume 93, catalogued under subject '
                                            'heading 5.\n'
                                            'Entry 0094: shelf 2, aisle 3, volume 94, catalogued under subject '
                                            'heading 6.\n'
                                            'Entry 0095: shelf 3, aisle 4, volume 95, catalogued under subject '
                                            'heading 7.\n'
                                            'Entry 0096: shelf 4, aisle 5, volume 96, catalogued under subject '
                                            'heading 8.\n'
                                            'Entry 0097: shelf 5, aisle 6, volume 97, catalogued under subject '
                                            'heading 9.\n'
                                            'Entry 0098: shelf 6, aisle 0, volume 98, catalogued under subject '
                                            'heading 10.\n'
                                            'Entry 0099: shelf 7, aisle 1, volume 99, catalogued under subject '
                                            'heading 0.\n'
                                            'Entry 0100: shelf 8, aisle 2, volume 100, catalogued under subject '
                                            'heading 1.\n'
                                            'Entry 0101: shelf 9, aisle 3, volume 101, catalogued under subject '
                                            'heading 2.\n'
                                            'Entry 0102: shelf 10, aisle 4, volume 102, catalogued under subject '
                                            'heading 3.\n'
                                            'Entry 0103: shelf 11, aisle 5, volume 103, catalogued under subject '
                                            'heading 4.\n'
                                            'Entry 0104: shelf 12, aisle 6, volume 104, catalogued under subject '
                                            'heading 5.\n'
                                            'Entry 0105: shelf 13, aisle 0, volume 105, catalogued under subject '
                                            'heading 6.\n'
                                            'Entry 0106: shelf 14, aisle 1, volume 106, catalogued under subject '
                                            'heading 7.\n'
                                            'Entry 0107: shelf 15, aisle 2, volume 107, catalogued under subject '
                                            'heading 8.\n'
                                            'Entry 0108: shelf 16, aisle 3, volume 108, catalogued under subject '
                                            'heading 9.\n'
                                            'Entry 0109: shelf 17, aisle 4, volume 109, catalogued under subject '
                                            'heading 10.\n'
                                            'Entry 0110: shelf 18, aisle 5, volume 110, catalogued under subject '
                                            'heading 0.\n'
                                            'Entry 0111: shelf 19, aisle 6, volume 111, catalogued under subject '
                                            'heading 1.\n'
                                            'Entry 0112: shelf 20, aisle 0, volume 112, catalogued under subject '
                                            'heading 2.\n'
                                            'Entry 0113: shelf 21, aisle 1, volume 113, catalogued under subject '
                                            'heading 3.\n'
                                            'Entry 0114: shelf 22, aisle 2, volume 114, catalogued under subject '
                                            'heading 4.\n'
                                            'Entry 0115: shelf 0, aisle 3, volume 115, catalogued under subject '
                                            'heading 5.\n'
                                            'Entry 0116: shelf 1, aisle 4, volume 116, catalogued under subject '
                                            'heading 6.\n'
                                            'Entry 0117: shelf 2, aisle 5, volume 117, catalogued under subject '
                                            'heading 7.\n'
                                            'Entry 0118: shelf 3, aisle 6, volume 118, catalogued under subject '
                                            'heading 8.\n'
                                            'Entry 0119: shelf 4, aisle 0, volume 119, catalogued under subject '
                                            'heading 9.\n'
                                            'Entry 0120: shelf 5, aisle 1, volume 120, catalogued under subject '
                                            'heading 10.\n'
                                            'Entry 0121: shelf 6, aisle 2, volume 121, catalogued under subject '
                                            'heading 0.\n'
                                            'Entry 0122: shelf 7, aisle 3, volume 122, catalogued under subject '
                                            'heading 1.\n'
                                            'Entry 0123: shelf 8, aisle 4, volume 123, catalogued under subject '
                                            'heading 2.\n'
                                            'Entry 0124: shelf 9, aisle 5, volume 124, catalogued under subject '
                                            'heading 3.\n'
                                            'Entry 0125: shelf 10, aisle 6, volume 125, catalogued under subject '
                                            'heading 4.\n'
                                            'Entry 0126: shelf 11, aisle 0, volume 126, catalogued under subject '
                                            'heading 5.\n'
                                            'Entry 0127: shelf 12, aisle 1, volume 127, catalogued under subject '
                                            'heading 6.\n'
                                            'Entry 0128: shelf 13, aisle 2, volume 128, catalogued under subject '
                                            'heading 7.\n'
                                            'Entry 0129: shelf 14, aisle 3, volume 129, catalogued under subject '
                                            'heading 8.\n'
                                            'Entry 0130: shelf 15, aisle 4, volume 130, catalogued under subject '
                                            'heading 9.\n'
                                            'Entry 0131: shelf 16, aisle 5, volume 131, catalogued under subject '
                                            'heading 10.\n'
                                            'Entry 0132: shelf 17, aisle 6, volume 132, catalogued under subject '
                                            'heading 0.\n'
                                            'Entry 0133: shelf 18, aisle 0, volume 133, catalogued under subject '
                                            'heading 1.\n'
                                            'Entry 0134: shelf 19, aisle 1, volume 134, catalogued under subject '
                                            'heading 2.\n'
                                            'Entry 0135: shelf 20, aisle 2, volume 135, catalogued under subject '
                                            'heading 3.\n'
                                            'Entry 0136: shelf 21, aisle 3, volume 136, catalogued under subject '
                                            'heading 4.\n'
                                            'Entry 0137: shelf 22, aisle 4, volume 137, catalogued under subject '
                                            'heading 5.\n'
                                            'Entry 0138: shelf 0, aisle 5, volume 138, catalogued under subject '
                                            'heading 6.\n'
                                            'Entry 0139: shelf 1, aisle 6, volume 139, catalogued under subject '
                                            'heading 7.\n'
                                            'Entry 0140: shelf 2, aisle 0, volume 140, catalogued under subject '
                                            'heading 8.\n'
                                            'Entry 0141: shelf 3, aisle 1, volume 141, catalogued under subject '
                                            'heading 9.\n'
                                            'Entry 0142: shelf 4, aisle 2, volume 142, catalogued under subject '
                                            'heading 10.\n'
                                            'Entry 0143: shelf 5, aisle 3, volume 143, catalogued under subject '
                                            'heading 0.\n'
                                            'Entry 0144: shelf 6, aisle 4, volume 144, catalogued under subject '
                                            'heading 1.\n'
                                            'Entry 0145: shelf 7, aisle 5, volume 145, catalogued under subject '
                                            'heading 2.\n'
                                            'Entry 0146: shelf 8, aisle 6, volume 146, catalogued under subject '
                                            'heading 3.\n'
                                            'Entry 0147: shelf 9, aisle 0, volume 147, catalogued under subject '
                                            'heading 4.\n'
                                            'Entry 0148: shelf 10, aisle 1, volume 148, catalogued under subject '
                                            'heading 5.\n'
                                            'Entry 0149: shelf 11, aisle 2, volume 149, catalogued under subject '
                                            'heading 6.\n'
                                            'Entry 0150: shelf 12, aisle 3, volume 150, catalogued under subject '
                                            'heading 7.\n'
                                            'Entry 0151: shelf 13, aisle 4, volume 151, catalogued under subject '
                                            'heading 8.\n'
                                            'Entry 0152: shelf 14, aisle 5, volume 152, catalogued under subject '
                                            'heading 9.\n'
                                            'Entry 0153: shelf 15, aisle 6, volume 153, catalogued under subject '
                                            'heading 10.\n'
                                            'Entry 0154: shelf 16, aisle 0, volume 154, catalogued under subject '
                                            'heading 0.\n'
                                            'Entry 0155: shelf 17, aisle 1, volume 155, catalogued under subject '
                                            'heading 1.\n'
                                            'Entry 0156: shelf 18, aisle 2, volume 156, catalogued under subject '
                                            'heading 2.\n'
                                            'Entry 0157: shelf 19, aisle 3, volume 157, catalogued under subject '
                                            'heading 3.\n'
                                            'Entry 0158: shelf 20, aisle 4, volume 158, catalogued under subject '
                                            'heading 4.\n'
                                            'Entry 0159: shelf 21, aisle 5, volume 159, catalogued under subject '
                                            'heading 5.',
                                    'type': 'text'},
                                   {'text': 'Reply with exactly: OK', 'type': 'text'}],
                       'role': 'user'}],
         'model': 'gpt-5.6-sol',
         'prompt_cache_key': 'pydantic-ai-prompt-cache-e2e-chat',
         'prompt_cache_options': {'mode': 'explicit', 'ttl': '30m'},
         'stream': False},
    ),
    Recorded(
        'tests/models/cassettes/test_openai/test_openai_tool_output.yaml',
        1, 'chat', 'gpt-4o', input_tokens=89, cached_tokens=0,
        body=
        {'messages': [{'content': 'What is the largest city in the user country?', 'role': 'user'},
                      {'role': 'assistant',
                       'tool_calls': [{'function': {'arguments': '{}', 'name': 'get_user_country'},
                                       'id': 'call_iXFttys57ap0o16JSlC8yhYo',
                                       'type': 'function'}]},
                      {'content': 'Mexico', 'role': 'tool', 'tool_call_id': 'call_iXFttys57ap0o16JSlC8yhYo'}],
         'model': 'gpt-4o',
         'n': 1,
         'stream': False,
         'tool_choice': 'required',
         'tools': [{'function': {'description': '',
                                 'name': 'get_user_country',
                                 'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}},
                    'type': 'function'},
                   {'function': {'description': 'The final response which ends this conversation',
                                 'name': 'final_result',
                                 'parameters': {'properties': {'city': {'type': 'string'},
                                                               'country': {'type': 'string'}},
                                                'required': ['city', 'country'],
                                                'type': 'object'}},
                    'type': 'function'}]},
    ),
    Recorded(
        'tests/cassettes/test_cache_prefix_stability/test_openai_tool_call_roundtrip_wire_stable[vercel].yaml',
        1, 'chat', 'gpt-4o', input_tokens=74, cached_tokens=0,
        body=
        {'messages': [{'content': 'What is the weather in Paris? Use the tool.', 'role': 'user'},
                      {'content': None,
                       'role': 'assistant',
                       'tool_calls': [{'function': {'arguments': '{"city":"Paris"}', 'name': 'get_weather'},
                                       'id': 'call_i8bNJ8oVFq9EVr3dZvYC0tiJ',
                                       'type': 'function'}]},
                      {'content': 'sunny in Paris', 'role': 'tool', 'tool_call_id': 'call_i8bNJ8oVFq9EVr3dZvYC0tiJ'}],
         'model': 'gpt-4o',
         'stream': False,
         'tool_choice': 'auto',
         'tools': [{'function': {'description': '',
                                 'name': 'get_weather',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'city': {'type': 'string'}},
                                                'required': ['city'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'}]},
    ),
    Recorded(
        'tests/models/cassettes/test_openai/test_multiple_agent_tool_calls.yaml',
        3, 'chat', 'gpt-4o-mini', input_tokens=129, cached_tokens=0,
        body=
        {'messages': [{'content': 'What is the capital of France?', 'role': 'user'},
                      {'role': 'assistant',
                       'tool_calls': [{'function': {'arguments': '{"country":"France"}', 'name': 'get_capital'},
                                       'id': 'pyd_ai_504f8147f83f44f3a5f14d87bfd01bda',
                                       'type': 'function'}]},
                      {'content': 'Paris', 'role': 'tool', 'tool_call_id': 'pyd_ai_504f8147f83f44f3a5f14d87bfd01bda'},
                      {'content': 'The capital of France is Paris.\n', 'role': 'assistant'},
                      {'content': 'What is the capital of England?', 'role': 'user'},
                      {'role': 'assistant',
                       'tool_calls': [{'function': {'arguments': '{"country":"England"}', 'name': 'get_capital'},
                                       'id': 'call_SkEQ3ZGSJC8m6AvaIGNuuKdm',
                                       'type': 'function'}]},
                      {'content': 'London', 'role': 'tool', 'tool_call_id': 'call_SkEQ3ZGSJC8m6AvaIGNuuKdm'}],
         'model': 'gpt-4o-mini',
         'n': 1,
         'stream': False,
         'tool_choice': 'auto',
         'tools': [{'function': {'description': 'Get the capital of a country.',
                                 'name': 'get_capital',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'country': {'description': 'The country name.',
                                                                           'type': 'string'}},
                                                'required': ['country'],
                                                'type': 'object'}},
                    'type': 'function'}]},
    ),
    Recorded(
        'tests/models/cassettes/test_openai/test_openai_instructions_with_tool_calls_keep_instructions.yaml',
        1, 'chat', 'gpt-4.1-mini', input_tokens=75, cached_tokens=0,
        body=
        {'messages': [{'content': 'You are a helpful assistant.', 'role': 'system'},
                      {'content': 'What is the temperature in Tokyo?', 'role': 'user'},
                      {'role': 'assistant',
                       'tool_calls': [{'function': {'arguments': '{"city":"Tokyo"}', 'name': 'get_temperature'},
                                       'id': 'call_bhZkmIKKItNGJ41whHUHB7p9',
                                       'type': 'function'}]},
                      {'content': '20.0', 'role': 'tool', 'tool_call_id': 'call_bhZkmIKKItNGJ41whHUHB7p9'}],
         'model': 'gpt-4.1-mini',
         'n': 1,
         'stream': False,
         'tool_choice': 'auto',
         'tools': [{'function': {'description': '',
                                 'name': 'get_temperature',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'city': {'type': 'string'}},
                                                'required': ['city'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'}]},
    ),
    Recorded(
        'tests/cassettes/test_temporal/test_mcptoolset_in_temporal_workflow.yaml',
        8, 'chat', 'gpt-4o', input_tokens=1636, cached_tokens=0,
        body=
        {'messages': [{'content': 'Can you tell me more about the pydantic/pydantic-ai repo? Keep your answer short',
                       'role': 'user'},
                      {'content': None,
                       'role': 'assistant',
                       'tool_calls': [{'function': {'arguments': '{"repoName":"pydantic/pydantic-ai","question":"Can '
                                                                 'you provide a brief overview of the '
                                                                 'pydantic/pydantic-ai repository?"}',
                                                    'name': 'ask_question'},
                                       'id': 'call_E6buTJzN2iixh8hPq09Bbz8I',
                                       'type': 'function'}]},
                      {'content': 'Pydantic AI is a Python framework designed to build production-grade applications '
                                  'using Generative AI, emphasizing an ergonomic developer experience and '
                                  'type-safety . It provides type-safe agents, a model-agnostic design supporting '
                                  'over 15 LLM providers, structured outputs with Pydantic validation, comprehensive '
                                  'observability, and production-ready tooling . The project is structured as a `uv` '
                                  'workspace monorepo, including core framework components, an evaluation system, a '
                                  'graph execution engine, examples, and a CLI tool .\n'
                                  '\n'
                                  '## Core Purpose and Features\n'
                                  'The primary purpose of Pydantic AI is to simplify the development of reliable AI '
                                  'applications by offering a robust framework that integrates type-safety and an '
                                  'intuitive developer experience . It aims to provide a unified approach to '
                                  'interacting with various LLM providers and managing complex agent workflows .\n'
                                  '\n'
                                  'Key features include:\n'
                                  '*   **Type-Safe Agents**: Agents are generic `Agent[Deps, Output]` for '
                                  'compile-time validation, utilizing `RunContext[Deps]` for dependency injection '
                                  'and Pydantic `output_type` for output validation .\n'
                                  '*   **Model-Agnostic Design**: It supports over 15 LLM providers through a '
                                  'unified `Model` interface, allowing developers to switch between different models '
                                  'without significant code changes .\n'
                                  '*   **Structured Outputs**: Pydantic AI leverages Pydantic for automatic '
                                  'validation and self-correction of structured outputs from LLMs .\n'
                                  '*   **Comprehensive Observability**: The framework includes comprehensive '
                                  'observability features via OpenTelemetry and native Logfire integration .\n'
                                  '*   **Production-Ready Tooling**: This includes an evaluation framework '
                                  '(`pydantic-evals`), durable execution capabilities, and protocol integrations .\n'
                                  '\n'
                                  '## Monorepo Package Structure\n'
                                  'Pydantic AI is organized as a `uv` workspace monorepo containing several distinct '
                                  'Python packages :\n'
                                  '\n'
                                  '```mermaid\n'
                                  'graph TB\n'
                                  '    subgraph "Main Packages"\n'
                                  '        PYDANTIC_AI["pydantic-ai<br/>(Metapackage)"]\n'
                                  '        SLIM["pydantic-ai-slim<br/>Core Framework"]\n'
                                  '        GRAPH["pydantic-graph<br/>State Machine"]\n'
                                  '        EVALS["pydantic-evals<br/>Evaluation Framework"]\n'
                                  '        CLAI["clai<br/>CLI Tool"]\n'
                                  '    end\n'
                                  '    \n'
                                  '    subgraph "Package Relationships"\n'
                                  '        PYDANTIC_AI -->|"bundles"| SLIM\n'
                                  '        PYDANTIC_AI -->|"bundles"| GRAPH\n'
                                  '        PYDANTIC_AI -->|"bundles"| EVALS\n'
                                  '        PYDANTIC_AI -->|"bundles"| CLAI\n'
                                  '        \n'
                                  '        SLIM -->|"depends on"| GRAPH\n'
                                  '        EVALS -->|"depends on"| SLIM\n'
                                  '        CLAI -->|"depends on"| PYDANTIC_AI\n'
                                  '    end\n'
                                  '    \n'
                                  '    subgraph "External Dependencies"\n'
                                  '        PYDANTIC["Pydantic>=2.12"]\n'
                                  '        HTTPX["httpx>=0.27"]\n'
                                  '        LOGFIRE["logfire-api>=3.14.1"]\n'
                                  '    end\n'
                                  '    \n'
                                  '    SLIM -->|"requires"| PYDANTIC\n'
                                  '    SLIM -->|"requires"| HTTPX\n'
                                  '    GRAPH -->|"requires"| LOGFIRE\n'
                                  '```\n'
                                  '\n'
                                  '\n'
                                  '| Package | Purpose | Key Exports |\n'
                                  '|---------|---------|--------------|\n'
                                  '| `pydantic-ai-slim` | Core agent framework with minimal base dependencies. | '
                                  '`Agent`, `Model`, `RunContext` |\n'
                                  '| `pydantic-graph` | A typed graph and state machine library used for agent '
                                  'loops. | `BaseNode`, `Graph` |\n'
                                  '| `pydantic-evals` | Framework for systematic testing and evaluation of LLM '
                                  'performance. | `Dataset`, `Evaluator` |\n'
                                  '| `clai` | Command-line interface for interacting with agents and models. | `pai` '
                                  '/ `clai` commands |\n'
                                  '| `pydantic-ai` | Batteries-included package bundling all features and common '
                                  'providers. | (Re-exports from slim) |\n'
                                  '\n'
                                  '\n'
                                  '## Core Architecture Components\n'
                                  'The architecture bridges the gap between high-level natural language intent and '
                                  'structured code execution .\n'
                                  '\n'
                                  '```mermaid\n'
                                  'graph TB\n'
                                  '    subgraph "Natural Language Space"\n'
                                  '        PROMPT["User Prompt / System Instructions"]\n'
                                  '        HISTORY["Conversation History (ModelMessage)"]\n'
                                  '    end\n'
                                  '\n'
                                  '    subgraph "Code Entity Space (pydantic_ai)"\n'
                                  '        AGENT["Agent Class"]\n'
                                  '        RUN_CTX["RunContext"]\n'
                                  '        TOOLS["Tool Registry (@agent.tool)"]\n'
                                  '        MODEL_BASE["Model ABC"]\n'
                                  '    end\n'
                                  '\n'
                                  '    subgraph "Graph Engine (pydantic_graph)"\n'
                                  '        NODE_UP["UserPromptNode"]\n'
                                  '        NODE_MR["ModelRequestNode"]\n'
                                  '        NODE_CT["CallToolsNode"]\n'
                                  '    end\n'
                                  '\n'
                                  '    PROMPT --> AGENT\n'
                                  '    AGENT --> NODE_UP\n'
                                  '    NODE_UP --> NODE_MR\n'
                                  '    NODE_MR --> MODEL_BASE\n'
                                  '    MODEL_BASE --> HISTORY\n'
                                  '    NODE_MR --> NODE_CT\n'
                                  '    NODE_CT --> TOOLS\n'
                                  '    TOOLS --> RUN_CTX\n'
                                  '    NODE_CT --> NODE_MR\n'
                                  '```\n'
                                  '\n'
                                  '\n'
                                  '**Key Code Entities:**\n'
                                  '1.  **Agent (`pydantic_ai.Agent`)**: The central orchestrator managing tools, '
                                  'instructions, and model interaction .\n'
                                  '2.  **Model (`pydantic_ai.models.Model`)**: An abstract base class defining how '
                                  'to communicate with LLM providers .\n'
                                  '3.  **Graph Nodes**: The internal execution loop uses nodes like '
                                  '`ModelRequestNode` to manage the state machine of an agent run .\n'
                                  '4.  **RunContext (`pydantic_ai.RunContext`)**: Provides access to dependencies '
                                  'and state within tools and dynamic instructions .\n'
                                  '\n'
                                  '## Notes\n'
                                  'The `CLAUDE.md` file provides guidance for Claude Code when working with the '
                                  'repository, including development commands and an overview of core components and '
                                  'design patterns . The `mkdocs.yml` file defines the structure and content of the '
                                  "project's documentation, including navigation, plugins, and watch directories for "
                                  'various packages . The `docs/install.md` file details how to install the '
                                  '`pydantic-ai` package and its optional components, including a "slim" '
                                  'installation option for specific model dependencies .\n'
                                  '\n'
                                  'Wiki pages you might want to explore:\n'
                                  '- [Overview (pydantic/pydantic-ai)](/wiki/pydantic/pydantic-ai#1)\n'
                                  '- [Project Philosophy and Contribution Guidelines '
                                  '(pydantic/pydantic-ai)](/wiki/pydantic/pydantic-ai#1.3)\n'
                                  '- [Anthropic Integration (pydantic/pydantic-ai)](/wiki/pydantic/pydantic-ai#4.3)\n'
                                  '\n'
                                  'View this search on DeepWiki: '
                                  'https://deepwiki.com/search/can-you-provide-a-brief-overvi_371585fa-e3cd-4bad-8846-1c602f7c12a1\n',
                       'role': 'tool',
                       'tool_call_id': 'call_E6buTJzN2iixh8hPq09Bbz8I'}],
         'model': 'gpt-4o',
         'stream': False,
         'tool_choice': 'auto',
         'tools': [{'function': {'description': 'Get a list of documentation topics for a GitHub repository.\n'
                                                '\n'
                                                'Args:\n'
                                                '    repoName: GitHub repository in owner/repo format (e.g. '
                                                '"facebook/react")',
                                 'name': 'read_wiki_structure',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'repoName': {'type': 'string'}},
                                                'required': ['repoName'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'},
                   {'function': {'description': 'View documentation about a GitHub repository.\n'
                                                '\n'
                                                'Args:\n'
                                                '    repoName: GitHub repository in owner/repo format (e.g. '
                                                '"facebook/react")',
                                 'name': 'read_wiki_contents',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'repoName': {'type': 'string'}},
                                                'required': ['repoName'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'},
                   {'function': {'description': 'Ask any question about a GitHub repository and get an AI-powered, '
                                                'context-grounded response.\n'
                                                '\n'
                                                'Args:\n'
                                                '    repoName: GitHub repository or list of repositories (max 10) in '
                                                'owner/repo format\n'
                                                '    question: The question to ask about the repository',
                                 'name': 'ask_question',
                                 'parameters': {'additionalProperties': False,
                                                'properties': {'question': {'type': 'string'},
                                                               'repoName': {'anyOf': [{'type': 'string'},
                                                                                      {'items': {'type': 'string'},
                                                                                       'type': 'array'}]}},
                                                'required': ['repoName', 'question'],
                                                'type': 'object'},
                                 'strict': True},
                    'type': 'function'}]},
    ),
    Recorded(
        'tests/models/cassettes/test_openai/test_openai_instructions.yaml',
        0, 'chat', 'gpt-4o', input_tokens=24, cached_tokens=0,
        body=
        {'messages': [{'content': 'You are a helpful assistant.', 'role': 'system'},
                      {'content': 'What is the capital of France?', 'role': 'user'}],
         'model': 'gpt-4o',
         'n': 1,
         'stream': False},
    ),
)
