"""Tool search: a run with many tools sends their definitions for the model to search, not to read.

Every request of a tool loop resends every tool definition; with three MCP servers that is
thousands of tokens before the question. With tool search most tools are *deferred*: the
model starts with the tools that are not, plus a search tool, and loads the others when it
needs them. ``llm.run(q, tools=catalogue, tool_search=True)`` defers every tool except those
marked ``@cd.tool(defer_loading=False)``; without ``tool_search=``, only the tools marked
``@cd.tool(defer_loading=True)`` (or ``server.tools(defer_loading=True)``) are deferred.

Where the search runs depends on the API:

* Responses (models from gpt-5.4 on) and Messages (Claude Haiku 4.5, Sonnet 4.5, Opus 4.5 and
  later): the provider's hosted search. Every tool is still sent, the deferred ones with
  ``"defer_loading": true``, beside ``{"type": "tool_search"}`` (Responses) or
  ``{"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"}`` (Messages).
  The search happens inside the response (``tool_search_call`` / ``tool_search_output`` items;
  ``server_tool_use`` / ``tool_search_tool_result`` blocks with ``tool_reference`` s), which the
  run keeps in ``result.messages`` and sends back as received.
* Chat Completions, compatible servers, a model without the hosted search (said in one INFO
  line), or anywhere with ``tool_search="client"``: conductor's own ``search_tools(query)``
  tool, a BM25 ranking (SQLite FTS5) over the deferred tools' names, descriptions and
  parameter names (Chinese, Japanese and Korean text by overlapping character pairs). It
  loads the best matches, up to 5, leaving out those that score under half the best (a word
  the question shares with many tools, such as "now", is not a reason to load them: every
  tool loaded is resent on every later request). The tools it finds are appended
  after those already offered, so the request's prefix (and the provider's prompt cache) holds,
  and they stay for the run.

:class:`ToolIndex` is the ranking, usable on its own; :func:`prepare` is what ``llm.run`` calls.
"""

from __future__ import annotations

import json
import logging
import re
import sqlite3
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .tools import Tool, ToolRegistry
from .types import is_provider_model

if TYPE_CHECKING:
    from .apis.base import ApiName

__all__ = [
    "HOSTED_SEARCH",
    "RELEVANCE",
    "RESULT_LIMIT",
    "SEARCH_MODELS",
    "SEARCH_TOOL",
    "Prepared",
    "Search",
    "ToolIndex",
    "check_hosted_search",
    "check_tool_search",
    "cjk_pairs",
    "client_search_registry",
    "has_hosted_search",
    "is_hosted_search",
    "lacks_hosted_search",
    "prepare",
    "search_words",
    "searches",
]

logger = logging.getLogger(__name__)

SEARCH_TOOL = "search_tools"  # conductor's own search tool, offered where the search runs client-side
RESULT_LIMIT = 5  # tools one search loads: Anthropic's hosted search returns 5 by default
# A match loads when it scores at least this share of the best match's BM25 score: weaker ones share only a
# common word with the query, and each tool loaded costs its definition on every later request.
RELEVANCE = 0.5
QUERY_LIMIT = 500  # characters of a query: the most Anthropic's BM25 search takes
CHOICES = (True, False, "client")
# The hosted search tool of each API, as its request carries it.
HOSTED_SEARCH: dict[str, dict[str, Any]] = {
    "responses": {"type": "tool_search"},
    "messages": {"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"},
}
# Models that have the hosted search, by name prefix (OpenAI: "gpt-5.4 and later"; Anthropic's
# model list on its tool search page). Extend it for a model of your own:
# cd.search.SEARCH_MODELS["responses"].append("my-model").
SEARCH_MODELS: dict[str, list[str]] = {
    "responses": ["gpt-5.4", "gpt-5.5", "gpt-5.6", "gpt-5.7", "gpt-5.8", "gpt-6", "conductor-offline"],
    "messages": [
        "claude-haiku-4-5", "claude-sonnet-4-5", "claude-opus-4-5", "claude-sonnet-4-6", "claude-opus-4-6",
        "claude-opus-4-7", "claude-opus-4-8", "claude-haiku-5", "claude-sonnet-5", "claude-opus-5",
        "claude-fable", "claude-mythos", "conductor-offline",
    ],
}
# Column weights of the ranking (name, description, parameter names): a word in a tool's name says
# more about what it does than the same word in its description.
_WEIGHTS = (3.0, 1.0, 1.0)
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
# Scripts written without spaces between words: Hiragana, Katakana, CJK ideographs (extension A, the
# unified block, compatibility ideographs, extensions B on) and Hangul syllables.
_CJK = re.compile(r"[\u3041-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0002fa1f]+")


def search_words(text: str) -> list[str]:
    """The words of ``text`` as the index reads them: ``get_weather`` and ``getWeather`` are "get weather"."""
    return [w.lower() for w in _WORD.findall(_CAMEL.sub(" ", text))]


def cjk_pairs(text: str) -> list[str]:
    """The runs of Chinese, Japanese or Korean characters in ``text`` as overlapping pairs, in order.

    "天气预报" is "天气 气预 预报"; a run of one character is itself. Most Chinese words have two
    characters, so two texts about the same thing share pairs though neither has spaces to split on.
    """
    pairs: list[str] = []
    for run in _CJK.findall(text):
        pairs.extend([run] if len(run) == 1 else [run[i : i + 2] for i in range(len(run) - 1)])
    return pairs


def _parameter_names(tool: Any) -> str:
    names: list[str] = []

    def walk(schema: Any) -> None:
        if isinstance(schema, dict):
            for key, value in (schema.get("properties") or {}).items():
                names.append(key)
                walk(value)
            walk(schema.get("items"))

    walk(tool.parameters)
    return " ".join(" ".join(search_words(name)) for name in names)


class ToolIndex:
    """A BM25 ranking of tools by their names, descriptions and parameter names (SQLite FTS5).

    ``ToolIndex(tools).search("weather tomorrow in Paris")`` gives the names of the best
    matches, best first; words are stemmed (Porter), so "forecasts" finds "forecast". Chinese,
    Japanese and Korean text is matched by overlapping character pairs (:func:`cjk_pairs`), so
    "北京的天气预报" finds "查询城市的天气预报". ``tools`` are ``@cd.tool`` tools or anything with
    their ``name``, ``description`` and ``parameters`` (the offline stand-in ranks the tool
    definitions of a request). Thread-safe: a run may search from several tool calls at once.
    """

    def __init__(self, tools: Iterable[Any]) -> None:
        self.tools = {t.name: t for t in tools}
        self._lock = threading.Lock()
        self._db = sqlite3.connect(":memory:", check_same_thread=False)
        # unicode61 makes a whole run of CJK characters one token, so a Chinese query never matched a Chinese
        # description. FTS5's trigram tokenizer would match them, but it needs terms of 3+ characters (most
        # Chinese words have two) and scores English differently. So the words table stays as it was and a
        # second table holds each CJK run as overlapping pairs; a tool's score is the sum of its scores in the
        # two. Not a column beside the words: FTS5's bm25 normalises by the whole row's length, so the pairs
        # would move English scores. An English query never matches a pair, and scores exactly as before.
        self._db.execute(
            "CREATE VIRTUAL TABLE tools USING fts5(name UNINDEXED, words, description, parameters, "
            "tokenize='porter unicode61')"
        )
        self._db.execute("CREATE VIRTUAL TABLE cjk USING fts5(name UNINDEXED, pairs, tokenize='unicode61')")
        words: list[tuple[int, str, str, str, str]] = []
        pairs: list[tuple[int, str, str]] = []
        for rowid, t in enumerate(self.tools.values(), 1):  # one rowid per tool in both: the tie-break order
            parameters = _parameter_names(t)
            words.append((rowid, t.name, " ".join(search_words(t.name)), t.description, parameters))
            pairs.append((rowid, t.name, " ".join(cjk_pairs(f"{t.name}\n{t.description}\n{parameters}"))))
        self._db.executemany(
            "INSERT INTO tools (rowid, name, words, description, parameters) VALUES (?, ?, ?, ?, ?)", words
        )
        self._db.executemany("INSERT INTO cjk (rowid, name, pairs) VALUES (?, ?, ?)", pairs)

    def search(self, query: str, limit: int = RESULT_LIMIT, relevance: float = RELEVANCE) -> list[str]:
        """The names of the tools that match ``query`` best (at most ``limit``), best first; [] for none.

        A match scoring under ``relevance`` times the best one's score is left out (0 keeps the top ``limit``).
        """
        query = query[:QUERY_LIMIT]
        # A CJK run is matched by its pairs only: as a whole it is a word no other text shares.
        words = sorted(set(search_words(_CJK.sub(" ", query))))
        pairs = sorted(set(cjk_pairs(query)))
        if not (words or pairs) or limit < 1:
            return []
        queries: list[tuple[str, tuple[Any, ...]]] = []
        if words:
            queries.append(("SELECT rowid, name, bm25(tools, 0, ?, ?, ?) FROM tools WHERE tools MATCH ?",
                            (*_WEIGHTS, " OR ".join(f'"{w}"' for w in words))))
        if pairs:
            queries.append(("SELECT rowid, name, bm25(cjk) FROM cjk WHERE cjk MATCH ?",
                            (" OR ".join(f'"{p}"' for p in pairs),)))
        names: dict[int, str] = {}
        totals: dict[int, float] = {}  # a tool's score: the sum of its scores in the two tables
        with self._lock:  # two queries, not one: FTS5's bm25() cannot be called inside a compound SELECT
            for sql, parameters in queries:
                for rowid, name, score in self._db.execute(sql, parameters):
                    names[rowid], totals[rowid] = name, totals.get(rowid, 0.0) + score
        # By score, then by rowid (the order the tools were given), as the words table alone would order them.
        ranked = sorted(totals, key=lambda rowid: (totals[rowid], rowid))[:limit]
        best = totals[ranked[0]] if ranked else 0.0  # FTS5's bm25() is negative: lower is better
        return [names[rowid] for rowid in ranked if totals[rowid] <= best * relevance]


def check_tool_search(value: Any) -> bool | str | None:
    """``tool_search=`` as given, or a ValueError naming the choices."""
    if value is None or value is True or value is False or value == "client":
        return value
    raise ValueError(
        f"tool_search= takes True (the API's hosted search where the model has one, else conductor's own), "
        f"'client' (conductor's own search_tools tool on any API) or False (no search); got {value!r}"
    )


def has_hosted_search(api: str, model: str) -> bool:
    """Does ``model`` on ``api`` have the provider's hosted tool search?"""
    return any(model == prefix or model.startswith(prefix) for prefix in SEARCH_MODELS.get(api, ()))


def is_hosted_search(api: str, tool: dict[str, Any]) -> bool:
    """Is ``tool`` (a hosted tool's dict given to ``tools=``) the API's own tool search?"""
    kind = str(tool.get("type", ""))
    return kind == "tool_search" if api == "responses" else api == "messages" and kind.startswith("tool_search_tool_")


def lacks_hosted_search(api: str, model: str) -> bool:
    """Is ``model`` one of the provider's own that SEARCH_MODELS leaves out (so the API refuses its hosted search)?"""
    return not has_hosted_search(api, model) and is_provider_model(api, model)


def check_hosted_search(hosted: Sequence[dict[str, Any]], api: str, model: str) -> None:
    """Refuse, before any request, the API's hosted tool search given by hand on a model that does not have it."""
    tool = next((t for t in hosted if is_hosted_search(api, t)), None)
    if tool is None or not lacks_hosted_search(api, model):
        return
    offered = ", ".join(m for m in SEARCH_MODELS[api] if m != "conductor-offline")
    raise ValueError(
        f"tools= got {{'type': {tool.get('type')!r}, ...}}: {model} has no hosted tool search on the {api} API (the "
        f"API would refuse the request with a 400). Models that have it: {offered}. Leave the dict out and pass "
        f"tool_search='client' (conductor's own search_tools tool, on any model), or connect to one of those models"
    )


@dataclass(frozen=True)
class Prepared:
    """What a run sends, tool-wise, once its tool search is set up (see :func:`prepare`)."""

    tools: ToolRegistry  # the tools the run offers (client search: the live list that grows as tools load)
    deferred: frozenset[str] = frozenset()  # sent with defer_loading to the hosted search
    hosted: tuple[dict[str, Any], ...] = ()  # the hosted search tool, to go beside the other hosted tools
    search_tool: str | None = None  # the client search tool's name, when one is offered


def _deferred(tools: Sequence[Tool], asked: bool | str | None, loaded: set[str]) -> list[Tool]:
    if asked is None:  # only the tools marked defer_loading=True
        deferred = [t for t in tools if getattr(t, "defer_loading", None) is True]
    else:
        deferred = [t for t in tools if getattr(t, "defer_loading", None) is not False]
    # A tool the history already called stays loaded (the search that loaded it is not carried over), and
    # so does a tool the run forces: the API cannot force a tool the model does not have.
    return [t for t in deferred if t.name not in loaded]


def called_in(history: Sequence[Any] | None) -> set[str]:
    """The names of the tools an earlier conversation (``history=``, in any API's form) called."""
    names: set[str] = set()
    for entry in history or ():
        if hasattr(entry, "model_dump") and not isinstance(entry, dict):
            entry = entry.model_dump(mode="json", exclude_none=True)
        if not isinstance(entry, dict):
            names.update(call.name for call in getattr(entry, "tool_calls", ()) or ())
            continue
        if entry.get("type") == "function_call":
            names.add(str(entry.get("name")))
        for call in entry.get("tool_calls") or ():
            names.add(str((call.get("function") or {}).get("name") if isinstance(call, dict) else ""))
        content = entry.get("content")
        for block in content if isinstance(content, list) else ():
            block = block.model_dump(mode="json") if hasattr(block, "model_dump") else block
            if isinstance(block, dict) and block.get("type") == "tool_use":
                names.add(str(block.get("name")))
    return names


def prepare(
    asked: Any, registry: ToolRegistry, api: ApiName, model: str, history: Sequence[Any] | None = None,
    keep: str | None = None,
) -> Prepared:
    """The tools a run sends for ``tool_search=asked`` (True, "client", False or None) on ``api`` and ``model``.

    None (the default) searches only when some tool is marked ``defer_loading=True``; False sends every
    tool loaded. A run with nothing to defer sends no search tool, said in one line. The tools ``history``
    already called, and ``keep`` (a tool the run forces with tool_choice), are sent loaded.
    """
    asked = check_tool_search(asked)
    if asked is False:
        if any(getattr(t, "defer_loading", None) for t in registry):
            logger.info("tool_search=False: the tools marked defer_loading=True are sent loaded like the others")
        return Prepared(registry)
    loaded = (called_in(history) if history else set()) | ({keep} if keep else set())
    deferred = _deferred(list(registry), asked, loaded)
    if not deferred:
        if asked is not None:
            logger.info(
                "tool_search=%r, but no tool is deferred (each is marked defer_loading=False, or the history "
                "called it, or tool_choice forces it); no search tool is sent", asked,
            )
        return Prepared(registry)
    if SEARCH_TOOL in registry:
        raise ValueError(
            f"a tool is named {SEARCH_TOOL!r}, the name of conductor's tool search: rename it "
            f"(cd.tool(t, name='...')) or pass tool_search=False"
        )
    if asked is True or asked is None:
        if api in HOSTED_SEARCH and has_hosted_search(api, model):
            return Prepared(registry, frozenset(t.name for t in deferred), (dict(HOSTED_SEARCH[api]),))
        if api in HOSTED_SEARCH:
            logger.info(
                "%s on the %s API has no hosted tool search (see cd.search.SEARCH_MODELS); conductor's own "
                "search_tools tool searches the deferred tools instead", model, api,
            )
    return _client(registry, deferred)


def _client(registry: ToolRegistry, deferred: list[Tool]) -> Prepared:
    """Conductor's own search: the loaded tools, then ``search_tools``, then each tool it finds."""
    hidden = {t.name for t in deferred}
    return Prepared(client_search_registry([t for t in registry if t.name not in hidden], deferred),
                    search_tool=SEARCH_TOOL)


def client_search_registry(loaded: Sequence[Tool], deferred: Sequence[Tool], found: Sequence[Tool] = ()) -> ToolRegistry:
    """The tools a run with conductor's search offers: ``loaded``, ``search_tools``, then what it ``found``
    so far; each search appends the deferred tools it finds. (Also how a paused run's search is made anew.)"""
    live = ToolRegistry([*loaded])
    index = ToolIndex([*deferred, *found])
    lock = threading.Lock()

    def search_tools(query: str) -> dict[str, Any]:
        """Load more tools: the best matches (up to 5) join your tools for the next step on.

        Args:
            query: what the tool should do, e.g. "weather forecast for a city".
        """
        # Short on purpose: this definition is resent on every request of the run (see tests/test_scale.py).
        found = index.search(query)
        with lock:
            new = [name for name in found if name not in live]
            for name in new:
                live.add(index.tools[name])
        if not found:
            return {"loaded": [], "note": "No tool matched these words; try other words for what you need."}
        return {
            "loaded": found,  # names: each definition, description and all, is in the tools now offered
            "note": "These tools can be called now.",
        }

    search_tools.index = index  # type: ignore[attr-defined]  # what it searches, for a paused run made anew
    live.add(Tool(search_tools, name=SEARCH_TOOL, sync_to_thread=False))
    for tool in found:
        live.add(tool)
    return live


def searchable(search_tool: Tool | None) -> list[Tool]:
    """The tools a run's ``search_tools`` searches (loaded or not); [] for None or another tool."""
    index = getattr(getattr(search_tool, "func", None), "index", None)
    return list(index.tools.values()) if isinstance(index, ToolIndex) else []


@dataclass(frozen=True)
class Search:
    """One tool search of a run: what the model searched for (None where the API does not say: OpenAI's
    hosted search names the tools it loads) and the tools it loaded, best first."""

    query: str | None
    loaded: tuple[str, ...]
    where: str  # "hosted" (the provider's search) or "client" (conductor's search_tools)


def searches(result: Any) -> list[Search]:
    """The tool searches of a run (``llm.run``'s result), in order, read from ``result.messages`` on any API."""
    found: list[Search] = []
    queries: dict[str, str] = {}  # client search call id -> its query
    for message in result.messages:
        if message.get("type") == "tool_search_output":  # a function, or a namespace and the functions it loaded
            names = [inner.get("name", "") for t in message.get("tools") or ()
                     for inner in (t.get("tools") if t.get("type") == "namespace" else [t]) or ()]
            found.append(Search(None, tuple(names), "hosted"))
        for call in message.get("tool_calls") or ():  # Chat Completions
            if call.get("function", {}).get("name") == SEARCH_TOOL:
                queries[call["id"]] = _query(call["function"].get("arguments"))
        if message.get("type") == "function_call" and message.get("name") == SEARCH_TOOL:  # Responses
            queries[message["call_id"]] = _query(message.get("arguments"))
        if message.get("role") == "tool" and message.get("tool_call_id") in queries:
            found.append(Search(queries[message["tool_call_id"]], _loaded(message.get("content")), "client"))
        if message.get("type") == "function_call_output" and message.get("call_id") in queries:
            found.append(Search(queries[message["call_id"]], _loaded(message.get("output")), "client"))
        content = message.get("content")
        for block in content if isinstance(content, list) else ():  # Messages
            if not isinstance(block, dict):
                continue
            if block.get("type") == "server_tool_use" and str(block.get("name", "")).startswith("tool_search"):
                queries[block["id"]] = str((block.get("input") or {}).get("query", "")) or None  # type: ignore[assignment]
            elif block.get("type") == "tool_search_tool_result":
                references = (block.get("content") or {}).get("tool_references") or ()
                found.append(Search(queries.get(block.get("tool_use_id", "")),
                                    tuple(r.get("tool_name", "") for r in references), "hosted"))
            elif block.get("type") == "tool_use" and block.get("name") == SEARCH_TOOL:
                queries[block["id"]] = str((block.get("input") or {}).get("query", ""))
            elif block.get("type") == "tool_result" and block.get("tool_use_id") in queries:
                found.append(Search(queries[block["tool_use_id"]], _loaded(block.get("content")), "client"))
    return found


def _query(arguments: Any) -> str:
    try:
        return str(json.loads(arguments or "{}").get("query", ""))
    except (ValueError, AttributeError):
        return ""


def _loaded(output: Any) -> tuple[str, ...]:
    """The tools a client search's result names (its JSON, as the model read it)."""
    if isinstance(output, list):
        output = "".join(part.get("text", "") for part in output if isinstance(part, dict))
    try:
        return tuple(str(name) for name in json.loads(output or "{}").get("loaded", ()))
    except (ValueError, AttributeError, KeyError, TypeError):
        return ()
