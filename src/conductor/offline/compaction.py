"""The stand-in's server-side compaction: Responses ``context_management`` and Messages ``compact_20260112``.

A request that asks for compaction and whose prompt reaches the threshold is compacted before the model
answers: the model first writes a summary of the conversation (a pass billed on its own), then answers
having read only the system text, the tools and that summary. The response starts with what the
providers return for it, to be sent back with the rest of the turn:

* Messages (the beta API, ``anthropic-beta: compact-2026-01-12``): a ``{"type": "compaction",
  "content": <summary>, "encrypted_content": ...}`` block before the answer's blocks; the usage's
  top-level counts are the answer's pass, ``usage.iterations`` holds both passes (as a recorded real
  exchange shows). The trigger defaults to 150,000 input tokens.
* Responses: a ``{"type": "compaction", "id": "cmp_...", "encrypted_content": ...}`` output item
  before the others; ``usage`` counts both passes.

A later request that carries the block or item is read from it on: what came before it is dropped,
as the real APIs do; so is one the real API compacted (its summary read as the block holds it, or, for a
sealed Responses item, billed as its length shows). The summary lists the question (its first 400
characters) and, one line each, the tool calls made and what they returned; the opaque
``encrypted_content`` (round-tripped verbatim on the real APIs too) holds the conversation it summarises,
sealed with the stand-in's key, so that the rule-based model can still tell which calls it made.
Streamed requests are not compacted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..context import MESSAGES_DEFAULT_TRIGGER, SERVER_COMPACTION_MINIMUM
from ..types import ToolResult, Turn, UserMessage
from .answers import in_words
from .conversation import Conversation
from .contract import InvalidRequest
from .reasoning import seal, unseal
from .tokens import PER_MESSAGE, estimate_tokens

__all__ = ["Compaction", "Restored", "threshold", "restore", "summarise", "summary_tokens"]

MESSAGES_MINIMUM_TRIGGER = SERVER_COMPACTION_MINIMUM["messages"]
SUMMARY_RESULT_CHARS = 160  # how much of each tool result the summary keeps (a long table: said in words)
SUMMARY_QUESTION_CHARS = 400  # and of the question: a summary is short, whatever the prompt was
# A real Responses compaction item holds its summary encrypted: a recorded 4,772-character item was read as about
# 540 tokens (pydantic-ai, test_openai_responses_compact_stateful_mode.yaml, the request after the compaction).
SEALED_CHARS_PER_TOKEN = 9


@dataclass(frozen=True)
class Compaction:
    """A compaction done for one response: the summary, its sealed context, and the compaction pass's tokens."""

    summary: str
    sealed: str
    input_tokens: int  # the pass that wrote the summary read the whole prompt
    output_tokens: int  # and wrote the summary


def check_trigger(body: dict[str, Any]) -> None:
    """Refuse a Messages compaction trigger under the API's minimum, as the real API does (a 400).

    The wording is the stand-in's own: no public recording quotes the real error; Anthropic's compaction
    guide gives the minimum.
    """
    management = body.get("context_management")
    for index, edit in enumerate(management.get("edits") or () if isinstance(management, dict) else ()):
        value = (edit.get("trigger") or {}).get("value") if isinstance(edit, dict) else None
        if edit.get("type") == "compact_20260112" and isinstance(value, int) and value < MESSAGES_MINIMUM_TRIGGER:
            raise InvalidRequest(
                f"context_management.edits.{index}.trigger.value: Input should be greater than or equal to "
                f"{MESSAGES_MINIMUM_TRIGGER}"
            )


def threshold(api: str, body: dict[str, Any]) -> int | None:
    """The input tokens at which ``body`` asks to be compacted, or None when it does not ask."""
    if body.get("stream"):
        return None
    management = body.get("context_management")
    if api == "responses" and isinstance(management, list):
        for entry in management:
            if isinstance(entry, dict) and entry.get("type") == "compaction":
                return int(entry.get("compact_threshold") or 0) or None
    if api == "messages" and isinstance(management, dict):
        for edit in management.get("edits") or ():
            if isinstance(edit, dict) and edit.get("type") == "compact_20260112":
                trigger = edit.get("trigger") or {}
                return int(trigger.get("value") or MESSAGES_DEFAULT_TRIGGER)
    return None


def _entries_key(api: str) -> str:
    return "input" if api == "responses" else "messages"


def _position(api: str, entries: list[Any]) -> tuple[int, int] | None:
    """Where the last compaction is: (entry index, block index; -1 for a Responses item)."""
    for index in range(len(entries) - 1, -1, -1):
        entry = entries[index]
        if not isinstance(entry, dict):
            continue
        if api == "responses" and entry.get("type") == "compaction":
            return index, -1
        content = entry.get("content")
        if api == "messages" and entry.get("role") == "assistant" and isinstance(content, list):
            for block in range(len(content) - 1, -1, -1):
                if isinstance(content[block], dict) and content[block].get("type") == "compaction":
                    return index, block
    return None


@dataclass(frozen=True)
class Restored:
    """A request that carries a compaction: what the model knows, what it reads, and the summary."""

    known: dict[str, Any]  # the body with the compaction undone: the conversation it summarised, then the rest
    after: dict[str, Any]  # the body with only what followed the compaction
    summary: str
    sealed_tokens: int = 0  # another server's opaque summary, read but not readable here: its estimated tokens


def restore(api: str, body: dict[str, Any], key: bytes) -> Restored | None:
    """``body`` read from its last compaction on, or None when it holds no compaction of this stand-in's."""
    name = _entries_key(api)
    entries = body.get(name)
    if not isinstance(entries, list):
        return None
    found = _position(api, entries)
    if found is None:
        return None
    index, block = found
    marker = entries[index] if block < 0 else entries[index]["content"][block]
    payload = unseal(key, str(marker.get("encrypted_content") or ""))
    rest = entries[index + 1:]
    if block >= 0:  # the assistant message that holds the block goes on without it
        kept = [b for i, b in enumerate(entries[index]["content"]) if i != block]
        rest = ([{**entries[index], "content": kept}] if kept else []) + rest
    if payload is None:
        # Another server's compaction (the real API's): the model reads from it on all the same, knowing only
        # its summary, in clear on Messages; a Responses item's is sealed, billed as its length shows.
        summary = str(marker.get("content") or "")
        sealed = 0 if summary else len(str(marker.get("encrypted_content") or "")) // SEALED_CHARS_PER_TOKEN
        return Restored({**body, name: rest}, {**body, name: rest}, summary, sealed)
    earlier = json.loads(payload.decode())
    return Restored({**body, name: [*earlier["entries"], *rest]}, {**body, name: rest}, earlier["summary"])


def summarise(api: str, body: dict[str, Any], conversation: Conversation, key: bytes, created: int) -> tuple[str, str]:
    """The summary of ``conversation`` (its question, each call and what it returned) and, sealed, the
    request entries it stands for."""
    lines = [f"The user asked: {_short(conversation.question, SUMMARY_QUESTION_CHARS)}"]
    calls = {c.id: c for m in conversation.messages if isinstance(m, Turn) for c in m.tool_calls}
    for message in conversation.messages:
        if isinstance(message, ToolResult):
            call = calls.get(message.call_id)
            said = _said(message.content)
            lines.append(f"- {call.name if call else message.name}({call.arguments if call else ''}) returned: {said}")
        elif isinstance(message, UserMessage) and message.text != conversation.question:
            lines.append(f"The user also said: {_short(message.text, SUMMARY_QUESTION_CHARS)}")
    summary = "\n".join(lines)
    # The model goes on from the summary alone: each result is known only as far as the summary kept it.
    entries = [_abridged(entry) for entry in body.get(_entries_key(api)) or []]
    sealed = seal(key, json.dumps({"summary": summary, "entries": entries}, ensure_ascii=False).encode(), created)
    return summary, sealed


def _said(content: Any) -> Any:
    """A tool result as the summary keeps it: a long table said in words (how many rows, the range of its first
    fields), as a model summarising would, else its first :data:`SUMMARY_RESULT_CHARS` characters."""
    if not isinstance(content, str):
        return content
    try:
        data = json.loads(content)
    except ValueError:
        data = None
    if isinstance(data, dict):
        tables = [v for v in data.values() if isinstance(v, list) and v and isinstance(v[0], dict)]
        worded = in_words(data, " ".join(str(key) for table in tables for key in table[0]))
        if worded != data:
            return json.dumps(worded, ensure_ascii=False)
    return _short(content)


def _short(text: Any, chars: int = SUMMARY_RESULT_CHARS) -> Any:
    return " ".join(text.split())[:chars] if isinstance(text, str) else text


def _abridged(entry: Any) -> Any:
    """A request entry with its tool results cut to what the summary keeps (Responses items, Messages blocks)."""
    if not isinstance(entry, dict):
        return entry
    if entry.get("type") == "function_call_output":
        return {**entry, "output": _said(entry.get("output"))}
    content = entry.get("content")
    if isinstance(content, list):
        blocks = [
            {**b, "content": _said(b.get("content"))} if isinstance(b, dict) and b.get("type") == "tool_result" else b
            for b in content
        ]
        return {**entry, "content": blocks}
    return entry


def summary_tokens(summary: str) -> int:
    """The prompt tokens of the summary as the model reads it: one message."""
    return PER_MESSAGE + estimate_tokens(summary)
