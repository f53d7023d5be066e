"""The one token estimate: what a text, a tool definition and the APIs' hidden prompts cost in tokens.

Conductor has no tokenizer, and pulling one in (``tiktoken`` downloads its vocabulary on first use) would
break the "no network" promise. It counts with rules that are deterministic and close to what the real
APIs bill; the offline stand-in bills with them and the library's own estimates (the budget's worst case,
``context_limit``) read them, so each number lives here once. ``tests/test_recorded_billing.py`` measures the
rules against real recorded requests (docs/offline_model.md has the figures).

Text (:func:`estimate_tokens`):

* ASCII text: one token per 4 characters (OpenAI's rule of thumb for English);
* digits: a run of digits costs one token per 3 digits or part of them, since BPE tokenizers cut numbers
  into groups of at most three digits and never join them with letters ("Entry 0042" is 3 tokens, not 2.5);
  a space before a number is a token of its own;
* CJK ideographs, kana and hangul (and full-width punctuation): one token per character;
* any other non-ASCII character (accents, emoji, ...): half a token;
* the sum is rounded up, so any non-empty text costs at least one token.

Tool definitions (:func:`tool_tokens`): neither provider shows a definition to the model as the JSON it was
given. OpenAI renders functions compactly (a TypeScript-like namespace); the count has the shape of OpenAI's
cookbook ("How to count tokens with tiktoken", ``num_tokens_for_tools``): per function a constant and its
``name:description``, per parameter a constant and its ``name:type:description``, enum values, and a constant
once per request with functions; nested objects, arrays of objects and ``$ref`` one level down the same way. The
constants are refitted on recorded requests of today's models (:data:`FUNCTION_START` and the rest below).
Anthropic's custom tools are counted as their name, description and JSON schema, plus framing.

Tool calls and results in a conversation: Claude's prompt frames each call and each result
(:data:`ANTHROPIC_PER_CALL`, :data:`ANTHROPIC_PER_RESULT`); OpenAI's renders a result without its call's id.

Hidden prompts (:func:`hidden_prompts`): input an API adds to a request by itself, billed but never seen in it:
Anthropic's tool-use system prompt (by model and ``tool_choice``), its tool search and code execution tools' own
prompts, OpenAI's ``tool_search`` instructions (larger until a search has loaded a deferred function), a reasoning
model's tool instructions on Chat Completions, and the framing of a compaction's summary. Each number is one
:class:`HiddenPromptRule` of :data:`HIDDEN_PROMPTS`, with where it comes from.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "estimate_tokens",
    "token_weight",
    "truncate_to_tokens",
    "split_pieces",
    "is_cjk",
    "tool_tokens",
    "tools_tokens",
    "openai_function_tokens",
    "openai_namespace_tokens",
    "anthropic_tool_tokens",
    "HiddenPromptRule",
    "HIDDEN_PROMPTS",
    "hidden_rule",
    "anthropic_tool_use_prompt",
    "hidden_prompt_tokens",
    "hidden_prompts",
]

# Unicode blocks counted as one token per character.
_CJK_RANGES = (
    (0x1100, 0x11FF),  # Hangul Jamo
    (0x2E80, 0x2FDF),  # CJK radicals
    (0x3000, 0x30FF),  # CJK punctuation, Hiragana, Katakana
    (0x3100, 0x31FF),  # Bopomofo, Hangul compatibility, Katakana extensions
    (0x3400, 0x4DBF),  # CJK Extension A
    (0x4E00, 0x9FFF),  # CJK Unified Ideographs
    (0xAC00, 0xD7AF),  # Hangul syllables
    (0xF900, 0xFAFF),  # CJK compatibility ideographs
    (0xFF00, 0xFFEF),  # full-width forms
    (0x20000, 0x2FFFF),  # CJK Extensions B-F
)
_DIGITS_PER_TOKEN = 3


def is_cjk(char: str) -> bool:
    """Is ``char`` an ideograph, kana, hangul or full-width form (one token each)?"""
    code = ord(char)
    return any(low <= code <= high for low, high in _CJK_RANGES)


def _weights(text: str) -> Iterator[float]:
    """The tokens each character of ``text`` adds, in order (their sum is the unrounded estimate)."""
    run = 0  # digits so far in the current run of digits
    for index, char in enumerate(text):
        if "0" <= char <= "9":
            yield 1.0 if run % _DIGITS_PER_TOKEN == 0 else 0.0  # a new group of up to three digits
            run += 1
            continue
        run = 0
        code = ord(char)
        if code < 128:
            # A space before a number is a token of its own (the number cannot absorb it).
            before_number = char == " " and index + 1 < len(text) and "0" <= text[index + 1] <= "9"
            yield 1.0 if before_number else 0.25
        else:
            yield 1.0 if is_cjk(char) else 0.5


def token_weight(text: str) -> float:
    """The unrounded estimate of ``text`` (for spreading time over the pieces of a stream)."""
    return sum(_weights(text))


def estimate_tokens(text: str) -> int:
    """Estimated tokens of ``text``: ASCII 4 characters a token, digits 3 a token, CJK 1, other non-ASCII 2."""
    return math.ceil(token_weight(text))


def truncate_to_tokens(text: str, limit: int) -> str:
    """The longest prefix of ``text`` whose estimate fits in ``limit`` tokens."""
    spent = 0.0
    for index, weight in enumerate(_weights(text)):
        spent += weight
        if spent > limit:
            return text[:index]
    return text


def split_pieces(text: str, tokens: float = 3.0) -> list[str]:
    """Cut ``text`` into consecutive pieces of about ``tokens`` tokens each, the way a stream delivers it.

    Pieces end before whitespace where possible (so they look like real deltas,
    " world"), after any CJK character, or at twice the size for long words.
    Joining the pieces gives back ``text`` exactly.
    """
    pieces: list[str] = []
    current, cost = "", 0.0
    for char, weight in zip(text, _weights(text)):
        if current and cost >= tokens and (char.isspace() or cost >= 2 * tokens or is_cjk(char)):
            pieces.append(current)
            current, cost = "", 0.0
        current += char
        cost += weight
    if current:
        pieces.append(current)
    return pieces


# -- tool definitions ---------------------------------------------------------------------------------

# OpenAI renders functions compactly. The shape of the count is that of OpenAI's cookbook ("How to count tokens
# with tiktoken", openai/openai-cookbook examples/How_to_count_tokens_with_tiktoken.ipynb, num_tokens_for_tools):
# per function, its "name:description"; per parameter, its "name:type:description"; enum values; once per list.
# The cookbook's constants (7 per function, 3 + 3 per parameter, 12 once, for gpt-4o) bill the recorded requests of
# today's models 10-35% over; these are refitted on the first turns of tests/recorded_traffic.py's sources (Chat
# Completions, gpt-4o to gpt-5.4-mini, 1 to 21 functions: mean error under 2 tokens a request).
FUNCTION_START = 3
PROPERTIES_START = 0
PROPERTY = 1
ENUM_START = -3  # the cookbook's: the values replace the type's name
ENUM_ITEM = 3
FUNCTIONS_END = 19
# Anthropic renders a custom tool's name, description and schema as JSON in its tool-use system prompt; the
# framing around each one is fitted on recorded requests (Anthropic publishes none).
ANTHROPIC_PER_TOOL = 8
# Tool calls and results in the conversation: Claude's prompt frames each call and its result (recorded tool loops
# bill about 40 tokens a call and result more than their JSON); OpenAI's renders a result without the call's id.
ANTHROPIC_PER_CALL = 20
ANTHROPIC_PER_RESULT = 20


def _type_name(schema: Mapping[str, Any]) -> str:
    """A parameter's type as OpenAI's rendering names it (``string``, ``number[]``, ``"a" | "b"``...)."""
    kind = schema.get("type")
    if isinstance(kind, list):
        return " | ".join(str(k) for k in kind)
    if kind == "array" and isinstance(schema.get("items"), Mapping):
        return _type_name(schema["items"]) + "[]"
    if isinstance(kind, str):
        return kind
    if "anyOf" in schema or "oneOf" in schema:
        return " | ".join(_type_name(b) for b in schema.get("anyOf") or schema.get("oneOf") or () if isinstance(b, Mapping))
    return "any"


def _resolve(schema: Mapping[str, Any], definitions: Mapping[str, Any]) -> Mapping[str, Any]:
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.rsplit("/", 1)[-1] in definitions:
        return definitions[ref.rsplit("/", 1)[-1]]
    return schema


def _nested(schema: Mapping[str, Any], definitions: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The object a parameter holds (itself, its items, or a branch of anyOf), when it holds one."""
    schema = _resolve(schema, definitions)
    if isinstance(schema.get("properties"), Mapping) and schema["properties"]:
        return schema
    items = schema.get("items")
    if isinstance(items, Mapping):
        return _nested(items, definitions)
    for branch in schema.get("anyOf") or ():
        if isinstance(branch, Mapping) and (found := _nested(branch, definitions)) is not None:
            return found
    return None


def _properties_tokens(schema: Mapping[str, Any], definitions: Mapping[str, Any], depth: int = 0) -> int:
    properties = schema.get("properties")
    if not isinstance(properties, Mapping) or not properties:
        return 0
    tokens = PROPERTIES_START
    for key, value in properties.items():
        value = _resolve(value, definitions) if isinstance(value, Mapping) else {}
        description = str(value.get("description") or "").removesuffix(".")
        tokens += PROPERTY + estimate_tokens(f"{key}:{_type_name(value)}:{description}")
        if isinstance(value.get("enum"), list):
            tokens += ENUM_START + sum(ENUM_ITEM + estimate_tokens(str(item)) for item in value["enum"])
        inner = _nested(value, definitions)
        if inner is not None and depth < 8:
            tokens += _properties_tokens(inner, definitions, depth + 1)
    return tokens


def openai_function_tokens(name: str, description: str, parameters: Mapping[str, Any]) -> int:
    """One function definition as OpenAI renders it for the model (without :data:`FUNCTIONS_END`)."""
    definitions = parameters.get("$defs") or parameters.get("definitions") or {}
    text = f"{name}:{(description or '').removesuffix('.')}"
    return FUNCTION_START + estimate_tokens(text) + _properties_tokens(parameters, definitions)


def openai_namespace_tokens(name: str, description: str) -> int:
    """A Responses namespace's own name and description, which the model reads whether or not a search has loaded
    any of its functions (those it reads are counted as functions). No recorded request shows a namespace's
    price: this is the stand-in's estimate, shaped as a deferred function's listing (a name and description)."""
    return FUNCTION_START + estimate_tokens(f"{name}:{(description or '').removesuffix('.')}")


def anthropic_tool_tokens(name: str, description: str, input_schema: Mapping[str, Any]) -> int:
    """One custom tool's definition on Messages: its name, description and schema as JSON."""
    schema = json.dumps(input_schema, ensure_ascii=False, sort_keys=True)
    return ANTHROPIC_PER_TOOL + estimate_tokens(name) + estimate_tokens(description) + estimate_tokens(schema)


def tool_tokens(api: str, name: str, description: str, parameters: Mapping[str, Any]) -> int:
    """The prompt tokens of one function / custom tool definition on ``api`` ("responses", "chat", "messages")."""
    if api == "messages":
        return anthropic_tool_tokens(name, description, parameters)
    return openai_function_tokens(name, description, parameters)


def tools_tokens(api: str, tools: Iterable[tuple[str, str, Mapping[str, Any]]]) -> int:
    """The prompt tokens of a request's function definitions, given as (name, description, parameters)."""
    listed = list(tools)
    if not listed:
        return 0
    end = FUNCTIONS_END if api != "messages" else 0
    return end + sum(tool_tokens(api, *tool) for tool in listed)


# -- hidden prompts -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HiddenPromptRule:
    """Input an API adds to a request by itself, billed but never seen in it: one number and where it comes from.

    ``model`` is a model-name prefix ("" for any model); among the rules for the same API, prompt and case, the
    first whose prefix the model's name starts with applies.
    """

    api: str  # "messages", "responses", "chat"
    prompt: str  # what is added
    case: str  # when (tool_choice, loaded or not, ...): a key of the lookup
    model: str
    tokens: int
    source: str


_PAGE_2026 = "Anthropic's tool use page (platform.claude.com, agents-and-tools/tool-use/overview), 2026 copy"
_PAGE_2025 = "Anthropic's tool use pricing page, 2025 table (Claude 3.7, Claude 4.0 and 4.1)"
_PAGE_2024 = "Anthropic's tool use pricing page, 2024 table"
_RECORDED = "pydantic/pydantic-ai cassettes (tests/recorded_traffic.py): "

HIDDEN_PROMPTS: tuple[HiddenPromptRule, ...] = (
    # Anthropic's tool-use system prompt, on every request that has tools, by tool_choice.
    HiddenPromptRule("messages", "tool use system prompt", "auto", "claude-haiku-4-5", 496, _PAGE_2026),
    HiddenPromptRule("messages", "tool use system prompt", "any", "claude-haiku-4-5", 588, _PAGE_2026),
    *(HiddenPromptRule("messages", "tool use system prompt", case, prefix, tokens, _PAGE_2025)
      for prefix in ("claude-3-7-sonnet", "claude-sonnet-4-0", "claude-sonnet-4-2025", "claude-opus-4-0",
                     "claude-opus-4-1", "claude-opus-4-2025")
      for case, tokens in (("auto", 346), ("any", 313))),
    *(HiddenPromptRule("messages", "tool use system prompt", case, prefix, tokens, _PAGE_2024)
      for prefix, auto, forced in (("claude-3-opus", 530, 281), ("claude-3-sonnet", 159, 235),
                                   ("claude-3-haiku", 264, 340))
      for case, tokens in (("auto", auto), ("any", forced))),
    # Claude 4.5 and later, which the page does not list apart: the Haiku 4.5 figures, borne out by requests recorded
    # in 2026 to Sonnet 4.5 and 4.6 and Opus 4.6 (one small tool: 500-515 tokens over the visible text with auto or
    # none, 590-605 with any or tool). The stand-in's own model is priced, and so billed, as Haiku 4.5.
    HiddenPromptRule("messages", "tool use system prompt", "auto", "", 496,
                     _PAGE_2026 + "; " + _RECORDED + "Sonnet 4.5/4.6, Opus 4.6"),
    HiddenPromptRule("messages", "tool use system prompt", "any", "", 588,
                     _PAGE_2026 + "; " + _RECORDED + "Sonnet 4.5/4.6, Opus 4.6"),
    # Anthropic's server tools' own prompts, on every request that offers them, once per sampling pass.
    HiddenPromptRule("messages", "tool search tool", "offered", "", 300,
                     _RECORDED + "250-350 a pass over the tool-use prompt and the visible text "
                     "(test_anthropic_native_tool_search_round_trip: 1,605 for a response that searched, two passes, "
                     "1,029 for the request after it; test_tool_availability_portability_matrix: 756-782)"),
    HiddenPromptRule("messages", "code execution tool", "offered", "", 1750,
                     _RECORDED + "a one-line question bills 4,600-4,850 over two passes (code, then answer), about "
                     "2,250 a pass with the tool-use prompt (test_anthropic_code_execution_tool*.yaml)"),
    # OpenAI's hosted tool_search: its instructions, larger until a search has loaded a deferred function.
    HiddenPromptRule("responses", "tool_search instructions", "nothing loaded", "", 350,
                     _RECORDED + "a one-line question with one deferred function bills 392 on gpt-5.6 "
                     "(test_openai_live_delta_preserves_the_warmed_cache_prefix)"),
    HiddenPromptRule("responses", "tool_search instructions", "loaded", "", 130,
                     _RECORDED + "127-140 over the visible text once a search has loaded one (gpt-5.4 to gpt-5.6); a "
                     "response that searched reads both, 570-613 for a short question"),
    # Chat Completions, a reasoning model with function tools: the tool-calling channel's instructions.
    HiddenPromptRule("chat", "reasoning model's tool instructions", "functions", "gpt-5-mini", 82,
                     _RECORDED + "the same tool and question bill 80-82 more on Chat Completions than on Responses "
                     "(test_tool_choice_matrix, gpt-5-mini)"),
    *(HiddenPromptRule("chat", "reasoning model's tool instructions", "functions", prefix, 48,
                       _RECORDED + "gpt-5 and gpt-5.4-mini requests bill 38-59 over their visible text")
      for prefix in ("gpt-5", "o1", "o3", "o4")),
    # A compaction's summary is read inside framing of the API's own.
    HiddenPromptRule("messages", "compaction summary framing", "after a compaction", "", 85,
                     _RECORDED + "the answer after a compaction bills about 85 over the system text, the summary and "
                     "what followed (220 and 239, test_anthropic_compaction_end_to_end)"),
)

ANTHROPIC_TOOL_SEARCH_TYPES = ("tool_search_tool_bm25", "tool_search_tool_regex")  # type prefixes
ANTHROPIC_CODE_EXECUTION_TYPES = ("code_execution_",)


def hidden_rule(api: str, prompt: str, case: str, model: str = "") -> HiddenPromptRule | None:
    """The rule of :data:`HIDDEN_PROMPTS` for ``prompt`` in ``case`` on ``api`` for ``model``, if any applies."""
    return next((r for r in HIDDEN_PROMPTS if r.api == api and r.prompt == prompt and r.case == case
                 and model.startswith(r.model)), None)


def _tokens(api: str, prompt: str, case: str, model: str = "") -> int:
    rule = hidden_rule(api, prompt, case, model)
    return rule.tokens if rule is not None else 0


def anthropic_tool_use_prompt(model: str, tool_choice: Mapping[str, Any] | None) -> int:
    """The tokens of the tool-use system prompt Anthropic adds to a request to ``model`` that has tools."""
    case = "any" if (tool_choice or {}).get("type") in ("any", "tool") else "auto"
    return _tokens("messages", "tool use system prompt", case, model)


OPENAI_TOOL_SEARCH_UNLOADED = _tokens("responses", "tool_search instructions", "nothing loaded")
OPENAI_TOOL_SEARCH_LOADED = _tokens("responses", "tool_search instructions", "loaded")
COMPACTION_FRAMING = {"messages": _tokens("messages", "compaction summary framing", "after a compaction")}


def _tools(request: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [t for t in request.get("tools") or () if isinstance(t, Mapping)]


def _none_loaded(request: Mapping[str, Any], items: Iterable[Mapping[str, Any]] | None) -> bool:
    """Has no search loaded a deferred function yet (no ``tool_search_output`` or ``additional_tools`` item
    with tools in what the model reads)?"""
    read = list(items) if items is not None else [i for i in request.get("input") or () if isinstance(i, Mapping)]
    return not any(item.get("type") in ("tool_search_output", "additional_tools") and item.get("tools")
                   for item in read)


def hidden_prompts(
    api: str, request: Mapping[str, Any], items: Iterable[Mapping[str, Any]] | None = None
) -> dict[str, int]:
    """What ``api`` adds to ``request`` by itself, by name, in tokens (see :data:`HIDDEN_PROMPTS`).

    ``items``: on Responses, every input item the model reads when the request continues a stored response
    (by default the request's own ``input``): where a tool search loaded its tools.
    """
    tools = _tools(request)
    if not tools:
        return {}
    model = str(request.get("model") or "")
    kinds = [str(t.get("type") or "custom") for t in tools]
    found: dict[str, int] = {}
    if api == "messages":
        found["tool use system prompt"] = anthropic_tool_use_prompt(model, request.get("tool_choice"))
        if any(k.startswith(ANTHROPIC_TOOL_SEARCH_TYPES) for k in kinds):
            found["tool search tool"] = _tokens(api, "tool search tool", "offered", model)
        if any(k.startswith(ANTHROPIC_CODE_EXECUTION_TYPES) for k in kinds):
            found["code execution tool"] = _tokens(api, "code execution tool", "offered", model)
    elif api == "responses" and ("tool_search" in kinds or "namespace" in kinds):
        if "tool_search" in kinds:
            case = "nothing loaded" if _none_loaded(request, items) else "loaded"
            found["tool_search instructions"] = _tokens(api, "tool_search instructions", case, model)
        if "namespace" in kinds:
            found["namespace names and descriptions"] = sum(
                openai_namespace_tokens(str(t.get("name") or ""), str(t.get("description") or ""))
                for t in tools if t.get("type") == "namespace")
    elif api == "chat" and "function" in kinds and (rule := hidden_rule(api, "reasoning model's tool instructions",
                                                                        "functions", model)) is not None:
        found[rule.prompt] = rule.tokens
    return found


def hidden_prompt_tokens(
    api: str, request: Mapping[str, Any], items: Iterable[Mapping[str, Any]] | None = None
) -> int:
    """The tokens ``api`` adds to ``request`` by itself: the sum of :func:`hidden_prompts`."""
    return sum(hidden_prompts(api, request, items).values())
