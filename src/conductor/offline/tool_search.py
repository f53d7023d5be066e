"""Tool search in the offline stand-in: the hosted search of both APIs, and how it uses a client search.

A request may send tools with ``"defer_loading": true`` beside a hosted search tool
(Responses ``{"type": "tool_search"}``, Messages ``{"type": "tool_search_tool_bm25_20251119",
"name": "tool_search_tool_bm25"}``). A deferred tool is out of the model's context until a
search loads it: on Responses a ``tool_search_output`` item lists the tools it loaded, on
Messages a ``tool_search_tool_result`` block holds a ``tool_reference`` per tool (as does a
``tool_result`` of the caller's own search). Loaded tools stay loaded for the rest of the
conversation.

The stand-in decides the way a model given these tools would: it sees the tools that are
not deferred and those already loaded. When the tool the question needs is deferred and not
loaded, it searches with the question's own words (a BM25 ranking over the deferred tools'
names, descriptions and parameter names, :class:`conductor.search.ToolIndex`), then calls
what the search loaded, all in one response: ``tool_search_call`` + ``tool_search_output``
items, or ``server_tool_use`` + ``tool_search_tool_result`` blocks, before the call. A search
that loads a confusable tool leads to calling that tool, as it would on the real API.

Conductor's client-side search (a function tool named ``search_tools`` taking a ``query``,
:mod:`conductor.search`) is used the same way on any API: when no offered tool can answer,
the stand-in calls it with the question's words, then decides again among the tools it
loaded.

The 400s a deferred tool can get are here too (see :func:`check_responses`, :func:`check_messages`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from ..search import RELEVANCE, RESULT_LIMIT, SEARCH_TOOL, ToolIndex
from ..types import ToolResult, ToolSpec, Turn
from .contract import InvalidRequest, offered_tool
from .conversation import CallTools, Conversation, Decision, PlannedCall
from .arguments import chinese_concepts_in
from .caching import hosted_allowed
from .language import words
from .policies import _MATCH_THRESHOLD as MATCH_THRESHOLD
from .policies import match_score
from ..tokens import OPENAI_TOOL_SEARCH_LOADED, OPENAI_TOOL_SEARCH_UNLOADED, tool_tokens
from .tokens import request_tokens

__all__ = [
    "SearchStep",
    "check_messages",
    "check_responses",
    "decide_with_search",
    "is_messages_search",
    "is_responses_search",
]

# Anthropic's tool search tool page ("Error handling"), word for word.
ALL_DEFERRED = "At least one tool must have defer_loading=false. All tools cannot be deferred."
UNKNOWN_REFERENCE = "Tool reference '{name}' not found in available tools"
# OpenAI's Responses API, as quoted in public bug reports: Wei-Shaw/sub2api#5942 (a deferred tool with no
# tool_search) and justrach/codegraff#746 (tool_search with no deferred tool).
NO_SEARCH_TOOL = "Invalid Value: 'tools.defer_loading'. Deferred tools require tools.tool_search."
NOTHING_DEFERRED = "Invalid Value: 'tools.tool_search'. tools.tool_search requires at least one deferred tool."
# A history that calls a deferred tool no search in it loaded is accepted by both APIs: pydantic-ai's
# recordings hold such requests answered 200 (docs/offline_model.md), so the stand-in takes them too.

_MESSAGES_SEARCH_TYPES = ("tool_search_tool_bm25_20251119", "tool_search_tool_bm25")


def is_responses_search(tool: dict[str, Any]) -> bool:
    """Is ``tool`` the Responses API's hosted tool search (run by the server, as the stand-in does)?"""
    return tool.get("type") == "tool_search" and tool.get("execution", "server") == "server"


def responses_functions(tools: Sequence[dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any] | None]]:
    """A Responses request's function tools, each with the namespace it is in (None at the top level)."""
    found: list[tuple[dict[str, Any], dict[str, Any] | None]] = []
    for tool in tools:
        if tool.get("type") == "function":
            found.append((tool, None))
        elif tool.get("type") == "namespace":
            found += [(inner, tool) for inner in tool.get("tools") or () if inner.get("type") == "function"]
    return found


def namespace_of(tools: Sequence[dict[str, Any]], name: str) -> dict[str, Any] | None:
    """The namespace tool that holds the function ``name`` in a Responses request, if one does."""
    return next((space for tool, space in responses_functions(tools) if tool.get("name") == name), None)


def is_messages_search(tool: dict[str, Any]) -> bool:
    """Is ``tool`` Anthropic's BM25 tool search tool?"""
    return tool.get("type") in _MESSAGES_SEARCH_TYPES


@dataclass(frozen=True)
class SearchStep:
    """One search the stand-in makes inside its response: the query and the tools it loaded."""

    query: str
    found: tuple[str, ...]
    definitions: tuple[dict[str, Any], ...]  # the request's definitions of the found tools, in order
    limit: int = RESULT_LIMIT


# -- what a request says about deferral --------------------------------------------------------


@dataclass(frozen=True)
class _Deferral:
    deferred: dict[str, dict[str, Any]]  # name -> the request's definition
    loaded: frozenset[str]
    searchable: bool  # a hosted search tool is in the request
    searched: bool = False  # the model already searched since the question


def _searched_responses(items: Sequence[dict[str, Any]]) -> bool:
    searched = False
    for item in items:
        if item.get("type", "message") == "message" and item.get("role") == "user":
            searched = False
        elif item.get("type") == "tool_search_call":
            searched = True
    return searched


def _searched_messages(messages: Sequence[dict[str, Any]]) -> bool:
    searched = False
    for message in messages:
        blocks = _blocks(message) if isinstance(message.get("content"), list) else [{"type": "text"}]
        if message.get("role") == "user" and any(b.get("type") == "text" for b in blocks):
            searched = False
        elif any(b.get("type") == "server_tool_use" and str(b.get("name", "")).startswith("tool_search") for b in blocks):
            searched = True
    return searched


def _responses_loaded(items: Sequence[dict[str, Any]]) -> set[str]:
    loaded: set[str] = set()
    for item in items:
        if item.get("type") == "tool_search_output":
            for tool in item.get("tools") or ():
                loaded.add(tool.get("name", ""))
                loaded.update(inner.get("name", "") for inner in tool.get("tools") or ())  # a namespace
    return loaded


def _references(block: dict[str, Any]) -> list[str]:
    """The tool names a block loads: a hosted search's result, or a tool_result of the caller's own search."""
    if block.get("type") == "tool_search_tool_result":
        content = block.get("content") or {}
        return [r.get("tool_name", "") for r in content.get("tool_references") or ()] if isinstance(content, dict) else []
    if block.get("type") == "tool_result" and isinstance(block.get("content"), list):
        return [p.get("tool_name", "") for p in block["content"] if isinstance(p, dict) and p.get("type") == "tool_reference"]
    return []


def _blocks(message: dict[str, Any]) -> list[dict[str, Any]]:
    content = message.get("content")
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def _deferral(api: str, body: dict[str, Any], items: Sequence[dict[str, Any]]) -> _Deferral:
    tools = body.get("tools") or []
    if api == "responses":
        deferred = {t["name"]: t for t, _ in responses_functions(tools) if t.get("defer_loading") and "name" in t}
        searchable = any(is_responses_search(t) for t in tools)
        loaded = _responses_loaded(items)
        searched = _searched_responses(items)
    else:
        deferred = {t["name"]: t for t in tools if t.get("type", "custom") == "custom" and t.get("defer_loading")
                    and "name" in t}
        searchable = any(is_messages_search(t) for t in tools)
        loaded = {name for m in body.get("messages") or () for b in _blocks(m) for name in _references(b)}
        searched = _searched_messages(body.get("messages") or ())
    return _Deferral(deferred, frozenset(loaded), searchable, searched)


# -- the request contract --------------------------------------------------------------------


def check_responses(body: dict[str, Any], context: Sequence[dict[str, Any]]) -> None:
    """The Responses API's rules for deferred tools, over the request and the context it continues."""
    deferral = _deferral("responses", body, context)
    if deferral.deferred and not deferral.searchable:
        raise InvalidRequest(NO_SEARCH_TOOL, param="tools", code="invalid_value")
    if deferral.searchable and not deferral.deferred:
        raise InvalidRequest(NOTHING_DEFERRED, param="tools", code="invalid_value")


def check_messages(body: dict[str, Any]) -> None:
    """Anthropic's rules for deferred tools and tool references."""
    tools = body.get("tools") or []
    if tools and all(t.get("defer_loading") for t in tools):
        raise InvalidRequest(ALL_DEFERRED)
    defined = {t.get("name") for t in tools}
    for message in body.get("messages") or ():
        for block in _blocks(message):
            for name in _references(block):
                if name not in defined:
                    raise InvalidRequest(UNKNOWN_REFERENCE.format(name=name))


# -- deciding ----------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _index(tools: tuple[tuple[str, str, str], ...]) -> ToolIndex:
    """A ranking of the deferred tools, kept for the next request with the same ones (a tool loop's)."""
    return ToolIndex(ToolSpec(name, description, json.loads(schema)) for name, description, schema in tools)


def search(specs: Sequence[ToolSpec], query: str, limit: int = RESULT_LIMIT, relevance: float = RELEVANCE) -> list[str]:
    """The names of the tools of ``specs`` that ``query`` finds, best first (see :meth:`ToolIndex.search`)."""
    key = tuple((s.name, s.description, json.dumps(s.parameters, sort_keys=True)) for s in specs)
    return _index(key).search(query, limit, relevance) if key else []


def query_of(question: str) -> str:
    """The search a question makes: its own words, function words left out, each once; a Chinese
    question's words as the concepts they name ("天气" searches for "weather": the tools are described
    in English, as a model searching them would know)."""
    return " ".join(dict.fromkeys([*words(question), *sorted(chinese_concepts_in(question))]))


def _spec(api: str, tool: dict[str, Any]) -> ToolSpec:
    if api == "responses":
        parameters = tool.get("parameters") or {"type": "object", "properties": {}}
        return offered_tool(tool["name"], tool.get("description") or "", parameters, tool.get("strict", True))
    return offered_tool(tool["name"], tool.get("description", ""), tool["input_schema"], tool.get("strict"))


def _among(conversation: Conversation, tools: Sequence[ToolSpec]) -> Conversation:
    """The conversation as the model reads it with only ``tools`` in its context (a forced tool use that
    none of them can meet leaves the choice to the model: the search tool was what it could call)."""
    narrowed = replace(conversation, tools=tuple(tools))
    if not tools and conversation.tool_choice in ("required", "tool"):
        narrowed = replace(narrowed, tool_choice="auto", forced_tool=None)
    return narrowed


def _calls_hidden(decision: Decision, hidden: set[str]) -> bool:
    return isinstance(decision, CallTools) and any(c.name in hidden for c in decision.calls)


def _without_search_calls(conversation: Conversation, name: str) -> Conversation:
    """The conversation without the client search's calls and results: what the search found is in the
    tools now offered, and a search is not an answer to the question."""
    ids: set[str] = set()
    messages = []
    for message in conversation.messages:
        if isinstance(message, Turn) and any(c.name == name for c in message.tool_calls):
            ids |= {c.id for c in message.tool_calls if c.name == name}
            kept = tuple(c for c in message.tool_calls if c.name != name)
            if not kept and not message.text_blocks:
                continue
            message = replace(message, tool_calls=kept)
        elif isinstance(message, ToolResult) and message.call_id in ids:
            continue
        messages.append(message)
    return replace(conversation, messages=tuple(messages))


def _searched_since_question(conversation: Conversation, name: str) -> bool:
    return any(call.name == name for call, _ in conversation.exchanges())


@dataclass(frozen=True)
class Outcome:
    """The decision, the conversation the model decided in (its tools: those in its context), the search."""

    decision: Decision
    conversation: Conversation
    step: SearchStep | None = None
    extra_tokens: int = 0  # input the model reads besides the conversation's tools (OpenAI: deferred names)
    # A response that searched read its prompt twice: before the search, and again with what it loaded, and
    # both passes are billed (recorded: 600 then 496 input tokens on Responses, 1,605 then 1,029 on Messages,
    # for a search response and the longer request after it).
    first_pass_tokens: int = 0

    @property
    def input_tokens(self) -> int:
        return request_tokens(self.conversation) + self.extra_tokens + self.first_pass_tokens


def _plainly_asked(decision: CallTools, conversation: Conversation) -> bool:
    """Does the question name what each call's tool does (not only fit its parameters, as among few tools)?"""
    question = conversation.question
    specs = [conversation.tool(call.name) for call in decision.calls]
    return all(spec is not None and match_score(spec, question) >= MATCH_THRESHOLD for spec in specs)


def _client_search_tool(conversation: Conversation) -> ToolSpec | None:
    spec = conversation.tool(SEARCH_TOOL)
    properties = (spec.parameters.get("properties") or {}) if spec else {}
    return spec if spec is not None and "query" in properties else None


def decide_with_search(
    api: str, body: dict[str, Any], conversation: Conversation, items: Sequence[dict[str, Any]],
    decide: Callable[[Conversation], Decision],
) -> Outcome | None:
    """The stand-in's decision when the request has deferred tools or a client search tool; else None."""
    if api in ("responses", "messages"):
        deferral = _deferral(api, body, items)
        if deferral.deferred and deferral.searchable:
            # An allowed_tools list without the hosted search: the model cannot search, as on the real API.
            may_search = api != "responses" or hosted_allowed(body, "tool_search")
            return _hosted(api, deferral, conversation, decide, body, may_search)
        if deferral.deferred:  # no search tool to load them: a deferred tool never reaches the model's context
            return _hosted(api, deferral, conversation, decide, body, may_search=False)
    client = _client_search_tool(conversation)
    if client is not None:
        return _client(conversation, client, decide)
    return None


def _hosted(api: str, deferral: _Deferral, conversation: Conversation,
            decide: Callable[[Conversation], Decision], body: dict[str, Any], may_search: bool = True) -> Outcome:
    hidden = {name for name in deferral.deferred if name not in deferral.loaded}
    visible = _among(conversation, [t for t in conversation.tools if t.name not in hidden])
    extra = _listed(api, conversation, hidden, body)
    # one search per question, and none when the request's allowed_tools leaves the search out
    searching = may_search and hidden and conversation.tools_allowed and not deferral.searched
    if not searching or not _calls_hidden(decide(conversation), hidden):
        return Outcome(decide(visible), visible, extra_tokens=extra)
    # The tool it needs is deferred: search with the question's words, then decide among what is loaded.
    query = query_of(conversation.question)
    # Anthropic's BM25 search returns its top 5; OpenAI's model names the paths it loads, and it reads each
    # deferred function's name and description first, so it loads the ones that fit (one, in recordings).
    relevance = RELEVANCE if api == "responses" else 0.0
    specs = [_spec(api, deferral.deferred[n]) for n in deferral.deferred if n in hidden]
    found = tuple(search(specs, query, relevance=relevance))
    loaded = hidden - set(found)
    after = _among(conversation, [t for t in conversation.tools if t.name not in loaded])
    step = SearchStep(query, found, tuple(deferral.deferred[n] for n in found))
    first_pass = request_tokens(visible) + extra
    if api == "responses" and found and after.hidden >= OPENAI_TOOL_SEARCH_UNLOADED:
        # The search loaded a function: the second pass reads tool_search's shorter instructions.
        after = replace(after, hidden=after.hidden - OPENAI_TOOL_SEARCH_UNLOADED + OPENAI_TOOL_SEARCH_LOADED)
    return Outcome(decide(after), after, step, _listed(api, conversation, loaded, body), first_pass)


def _listed(api: str, conversation: Conversation, names: set[str], body: dict[str, Any]) -> int:
    """What the model reads of the deferred tools ``names``: on Responses each one's name and description (its
    parameters load later, OpenAI's tool search guide) unless it is in a namespace, whose name and description
    alone the model reads (billed with the request's other namespaces, :func:`conductor.tokens.hidden_prompts`);
    on Messages nothing until a search loads it."""
    if api != "responses":
        return 0
    spaced = {t.get("name") for t, space in responses_functions(body.get("tools") or ()) if space is not None}
    return sum(tool_tokens(api, t.name, t.description, {}) for t in conversation.tools
               if t.name in names and t.name not in spaced)


def _client(conversation: Conversation, tool: ToolSpec, decide: Callable[[Conversation], Decision]) -> Outcome:
    others = _among(_without_search_calls(conversation, tool.name), [t for t in conversation.tools if t.name != tool.name])
    decision = decide(others)
    if not conversation.tools_allowed or _searched_since_question(conversation, tool.name):
        return Outcome(decision, conversation)
    if isinstance(decision, CallTools) and (others.exchanges() or _plainly_asked(decision, others)):
        return Outcome(decision, conversation)
    # No offered tool is plainly what the question asks for, and there are tools it cannot see: search first.
    query = query_of(conversation.question)
    return Outcome(CallTools((PlannedCall(tool.name, {"query": query}),)), conversation)
