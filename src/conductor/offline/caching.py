"""The stand-in's prompt cache, modelled on what each provider documents.

A model reads a prompt in order: tools, system text, messages. A request whose beginning (its
*prefix*) matches the prefix of an earlier request, within the cache's lifetime, reads that part
from the cache: billed at the cache-read price and read faster (:mod:`.latency`). What must match
is every part up to a point, in order: a changed system prompt (a timestamp in it) or a reordered
tool list changes the prefix from there on, so everything after it misses, as on the real APIs.
The prefix is compared part by part (a tool, the system text, a message), where the real APIs
compare tokens: a part that differs misses as a whole.

OpenAI (Responses, Chat Completions), "Prompt caching" guide and the "Prompt Caching 201" cookbook:

* automatic on every request of :data:`OPENAI_MINIMUM` (1,024) tokens or more; hits come in
  :data:`OPENAI_STEP` (128) token increments (1,024, 1,152, 1,280, ...);
* requests are routed to a cache by a hash of the prefix and the ``prompt_cache_key``: requests
  with different keys land on different caches here (they miss one another's prefixes);
* kept :data:`OPENAI_TTL` (5 minutes) after its last use (the guide: 5 to 10 minutes of inactivity);
* no charge for writing; reads at the model's cached-input price. ``cache_write_tokens`` is
  reported as 0, as OpenAI reports it for models without explicit cache breakpoints.

Anthropic (Messages), "Prompt caching" guide and pricing page:

* only what a request marks is cached: the top-level ``cache_control`` (automatic caching: the
  breakpoint is the last block) or ``cache_control`` on a tool or a system block; a mark on a message
  block counts as a mark at the end of the messages here;
* a prefix shorter than the model's minimum (:data:`ANTHROPIC_MINIMUMS`) is not cached at all;
* a request reads the longest cached prefix ending at one of its breakpoints or at one of the
  :data:`ANTHROPIC_LOOKBACK` (20) blocks before it, and writes the prefix up to its breakpoints:
  ``cache_read_input_tokens`` and ``cache_creation_input_tokens``, the rest in ``input_tokens``;
* a change of ``tool_choice`` invalidates the cached messages (the tools and system stay cached);
* writes cost 1.25x the input price for 5 minutes, 2x for an hour (``"ttl": "1h"``); reads 0.1x
  (the prices themselves are genai-prices', see :mod:`conductor.pricing`); a hit refreshes the lifetime.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ..tokens import anthropic_tool_use_prompt
from .conversation import Conversation
from .tokens import prompt_parts

__all__ = [
    "CacheUse", "PromptCache", "allowed_only", "hosted_allowed", "minimum_prefix", "openai_hit", "prefix_view",
    "second_pass",
]

OPENAI_MINIMUM = 1024
OPENAI_STEP = 128
OPENAI_TTL = 300.0
ANTHROPIC_TTLS = {"5m": 300.0, "1h": 3600.0}
ANTHROPIC_LOOKBACK = 20
# The minimum cacheable prompt per model (Anthropic's "Prompt caching" guide, "Cache limitations"),
# by name prefix; the first match wins.
ANTHROPIC_MINIMUMS: tuple[tuple[str, int], ...] = (
    ("claude-haiku-4-5", 4096),
    ("claude-opus-4-6", 4096),
    ("claude-opus-4-5", 4096),
    ("claude-opus-4-7", 2048),
    ("claude-sonnet-4-6", 2048),
    ("claude-3-5-haiku", 2048),
    ("claude-3-haiku", 2048),
)
ANTHROPIC_DEFAULT_MINIMUM = 1024  # Sonnet 4.5, Sonnet 4, Opus 4.1, Opus 4, Sonnet 3.7
# The stand-in's own model names are cached like the model each API's stand-in is priced as.
OFFLINE_AS = {"chat": "gpt-4.1-mini", "responses": "gpt-5.4-mini", "messages": "claude-haiku-4-5"}


def minimum_prefix(api: str, model: str) -> int:
    """The fewest prompt tokens ``model`` caches on ``api``."""
    if api != "messages":
        return OPENAI_MINIMUM
    model = OFFLINE_AS["messages"] if model.startswith("conductor-offline") else model
    return next((tokens for prefix, tokens in ANTHROPIC_MINIMUMS if model.startswith(prefix)), ANTHROPIC_DEFAULT_MINIMUM)


@dataclass(frozen=True)
class CacheUse:
    """What one request read from and wrote to the cache, in prompt tokens."""

    read: int = 0
    written: int = 0
    written_1h: int = 0  # part of ``written`` kept for an hour (Anthropic "ttl": "1h")


def openai_hit(matched: int) -> int:
    """The cached tokens OpenAI bills when the first ``matched`` prompt tokens repeat a cached prefix."""
    return 0 if matched < OPENAI_MINIMUM else OPENAI_MINIMUM + (matched - OPENAI_MINIMUM) // OPENAI_STEP * OPENAI_STEP


def second_pass(api: str, first: CacheUse, first_pass_tokens: int) -> CacheUse:
    """``first`` with what a response's second pass over the same prompt reads from the cache (a hosted tool
    search reads the prompt again, with what it loaded after it): on OpenAI the first pass's prompt, cached by
    itself from 1,024 tokens; on Anthropic the marked prefix the first pass read or wrote."""
    again = first.read + first.written if api == "messages" else openai_hit(first_pass_tokens)
    return replace(first, read=first.read + again)


class PromptCache:
    """The prefixes one account has cached, by API, model and (OpenAI) ``prompt_cache_key``.

    ``clock`` gives seconds (``time.monotonic`` by default); a test moves it to let entries expire.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._entries: dict[bytes, float] = {}  # prefix digest -> when it expires
        self._lock = threading.Lock()

    def use(self, api: str, body: dict[str, Any], conversation: Conversation) -> CacheUse:
        """Look the request's prefixes up, store the ones it caches, and say what it read and wrote."""
        parts = prompt_parts(conversation)
        scope = f"{api}\n{conversation.model}\n{body.get('prompt_cache_key') if api != 'messages' else ''}"
        if api == "messages":
            # tool_choice sits between the system text and the messages: changing it misses the messages only.
            after_system = _leading(conversation) + len(conversation.tools) + (1 if conversation.system else 0)
            marker = f"tool_choice {conversation.tool_choice} {conversation.forced_tool}"
            # What a forced tool_choice adds to the tool-use system prompt is read with the tool_choice, after the
            # system text: the tools and system stay cached across a change of tool_choice, as Anthropic documents.
            extra = _forced_share(body, conversation)
            if extra:
                parts[0] = (parts[0][0], parts[0][1] - extra)
            parts.insert(after_system, (marker, extra))
        digests, ends = _chain(scope, parts)
        with self._lock:
            now = self._clock()
            self._entries = {d: t for d, t in self._entries.items() if t > now}
            if api == "messages":
                return self._anthropic(body, conversation, digests, ends, now)
            return self._openai(digests, ends, now)

    def _openai(self, digests: list[bytes], ends: list[int], now: float) -> CacheUse:
        matched = 0
        for digest, end in zip(digests, ends):  # a chained digest matches only when every part before it does
            if digest in self._entries:
                matched = end
                self._entries[digest] = now + OPENAI_TTL  # a hit keeps the prefix
        if ends and ends[-1] >= OPENAI_MINIMUM:
            for digest, end in zip(digests, ends):
                if end >= OPENAI_MINIMUM:
                    self._entries[digest] = now + OPENAI_TTL
        return CacheUse(read=openai_hit(matched))

    def _anthropic(
        self, body: dict[str, Any], conversation: Conversation, digests: list[bytes], ends: list[int], now: float
    ) -> CacheUse:
        marks = _breakpoints(body, conversation, len(digests))
        if not marks:
            return CacheUse()
        minimum = minimum_prefix("messages", conversation.model)
        read_at = -1
        for end_index in sorted(marks, reverse=True):
            for index in range(end_index, max(-1, end_index - ANTHROPIC_LOOKBACK - 1), -1):
                if digests[index] in self._entries:
                    read_at = max(read_at, index)
                    break
        read = ends[read_at] if read_at >= 0 else 0
        written = written_1h = 0
        for end_index, ttl in sorted(marks.items()):
            if ends[end_index] < minimum or end_index <= read_at:
                continue
            lifetime = ANTHROPIC_TTLS[ttl]
            self._entries[digests[end_index]] = max(self._entries.get(digests[end_index], 0.0), now + lifetime)
        if read_at >= 0:
            ttl = max((marks[i] for i in marks if i >= read_at), key=ANTHROPIC_TTLS.__getitem__, default="5m")
            self._entries[digests[read_at]] = max(self._entries[digests[read_at]], now + ANTHROPIC_TTLS[ttl])
        last = max((i for i in marks if ends[i] >= minimum), default=-1)
        if last > read_at:
            written = ends[last] - read
            written_1h = written if marks[last] == "1h" else 0
        return CacheUse(read=read, written=written, written_1h=written_1h)


def _chain(scope: str, parts: list[tuple[object, int]]) -> tuple[list[bytes], list[int]]:
    """The digest of each prefix (every part up to and including it) and the tokens it ends at."""
    digest = hashlib.sha256(scope.encode()).digest()
    digests: list[bytes] = []
    ends: list[int] = []
    total = 0
    for part, tokens in parts:
        digest = hashlib.sha256(digest + repr(part).encode()).digest()
        total += tokens
        digests.append(digest)
        ends.append(total)
    return digests, ends


def _forced_share(body: dict[str, Any], conversation: Conversation) -> int:
    """The tokens a forced tool_choice (any, tool) adds to Anthropic's tool-use system prompt."""
    if not conversation.hidden or not body.get("tools"):
        return 0
    forced = anthropic_tool_use_prompt(conversation.model, body.get("tool_choice"))
    return max(0, forced - anthropic_tool_use_prompt(conversation.model, None))


def _leading(conversation: Conversation) -> int:
    """How many prompt parts come before the first tool: the hidden prompts' part, when there is one."""
    return 1 if conversation.hidden else 0


def _ttl(control: Any) -> str | None:
    if not isinstance(control, dict) or control.get("type") != "ephemeral":
        return None
    return "1h" if control.get("ttl") == "1h" else "5m"


def _breakpoints(body: dict[str, Any], conversation: Conversation, parts: int) -> dict[int, str]:
    """The request's cache breakpoints: the index of the prompt part each ends at, and its lifetime."""
    marks: dict[int, str] = {}
    last = parts - 1
    first = _leading(conversation)  # the hidden prompts come before the first tool
    if (ttl := _ttl(body.get("cache_control"))) is not None and last >= 0:
        marks[last] = ttl
    tools = [t for t in body.get("tools") or [] if t.get("type", "custom") == "custom" and not t.get("defer_loading")]
    for index, tool in enumerate(tools):
        if (ttl := _ttl(tool.get("cache_control"))) is not None:
            marks[first + index] = ttl
    system = body.get("system")
    if isinstance(system, list) and conversation.system:
        ttl = next((t for b in system if (t := _ttl(b.get("cache_control"))) is not None), None)
        if ttl is not None:
            marks[first + len(conversation.tools)] = ttl
    for message in body.get("messages") or []:
        content = message.get("content")
        if isinstance(content, list) and any(_ttl(b.get("cache_control")) for b in content if isinstance(b, dict)):
            marks.setdefault(last, "5m")
    return marks


def allowed_only(conversation: Conversation, body: dict[str, Any]) -> Conversation:
    """The conversation as the model decides it under ``tool_choice: {"type": "allowed_tools", ...}``: every
    tool stays in the prompt (and its cached prefix), but only the allowed ones may be called.

    Both OpenAI shapes: Responses ``{"type": "allowed_tools", "mode", "tools": [{"type": "function", "name"}]}``,
    Chat Completions ``{"type": "allowed_tools", "allowed_tools": {"mode", "tools": [{"type": "function",
    "function": {"name"}}]}}``.
    """
    choice = body.get("tool_choice")
    if not isinstance(choice, dict) or choice.get("type") != "allowed_tools" or conversation.api == "messages":
        return conversation
    listed = choice.get("tools") if conversation.api == "responses" else (choice.get("allowed_tools") or {}).get("tools")
    names = {
        entry.get("name") if conversation.api == "responses" else (entry.get("function") or {}).get("name")
        for entry in listed or ()
        if isinstance(entry, dict)
    }
    return replace(conversation, tools=tuple(t for t in conversation.tools if t.name in names))


def hosted_allowed(body: dict[str, Any], kind: str) -> bool:
    """May the model use the hosted tool of type ``kind`` (the Responses ``tool_search``, ...)? Yes unless the
    request's ``tool_choice: {"type": "allowed_tools", ...}`` leaves it out: that list names hosted tools by
    their type (``{"type": "tool_search"}``), beside the functions."""
    choice = body.get("tool_choice")
    if not isinstance(choice, dict) or choice.get("type") != "allowed_tools" or "tools" not in choice:
        return True  # no allowlist, or Chat Completions' shape (Chat has no hosted tools)
    return any(isinstance(entry, dict) and entry.get("type") == kind for entry in choice.get("tools") or ())


def prefix_view(api: str, body: dict[str, Any], conversation: Conversation) -> Conversation:
    """The conversation as its prompt is laid out for the cache, with deferred tools (``"defer_loading": true``)
    where the model reads them: on Responses their names and descriptions stay among the tools (their
    parameters load with a search); on Messages nothing of them is in the prompt until a search loads them
    into the conversation, after the cached prefix."""
    listed = [t for t in body.get("tools") or () if isinstance(t, dict)]
    # Responses: a namespace's deferred functions are not in the prompt at all (the namespace's line is, with the
    # hidden prompts), and those a search loads come with its output, after the cached prefix.
    spaced = {inner["name"] for t in listed if t.get("type") == "namespace" for inner in t.get("tools") or ()
              if isinstance(inner, dict) and inner.get("defer_loading") and "name" in inner}
    deferred = {t["name"] for t in listed if t.get("defer_loading") and "name" in t} | spaced
    if not deferred:
        return conversation
    if api == "responses":
        tools = tuple(replace(t, parameters={}) if t.name in deferred else t for t in conversation.tools
                      if t.name not in spaced)
    else:
        tools = tuple(t for t in conversation.tools if t.name not in deferred)
    return replace(conversation, tools=tools)
