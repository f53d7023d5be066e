"""Long tool loops that fit: ``llm.run(..., context_limit=N)`` and ``context="server"``.

Every request of a tool loop carries every tool result so far. ``context_limit=N`` keeps a run's
requests under ``N`` input tokens on every API: before a request would pass ``N``, the oldest tool
results (of :data:`CLEAR_MIN_TOKENS` or more) are cleared, their content replaced by a short note; the call, its id and the pairing of
call and result stay, so the request is still one the API accepts and the model still sees what it
asked for. Results are cleared in one batch, down to :data:`CLEAR_TO` of the limit, rather than one
per request: clearing changes the prompt from the first cleared result on, so each clearing costs
the cached prefix after it once.

``context="server"`` leaves it to the API's own compaction instead (the model summarises the
conversation once it passes ``context_limit``): Responses ``"context_management": [{"type":
"compaction", "compact_threshold": N}]``; Messages, through the SDK's beta client and its header,
``"context_management": {"edits": [{"type": "compact_20260112", "trigger": {"type": "input_tokens",
"value": N}}]}``. The compaction item or block the API returns is kept with its turn and sent back
as received (the offline stand-in compacts too, see :mod:`conductor.offline.compaction`). Chat Completions
has no compaction: a clear error says so.
"""

from __future__ import annotations

import json
import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from . import programs
from .tokens import estimate_tokens
from .types import ToolResult, Turn

if TYPE_CHECKING:
    from .state import RunState as Conversation  # the loop's Conversation, as this module reads it

logger = logging.getLogger(__name__)

CONTEXT_CHOICES = (None, "client", "server")
SERVER_CONTEXT_APIS = ("responses", "messages")
CLEAR_TO = 0.7  # clearing goes down to this share of context_limit, so it need not happen on every request
CLEAR_MIN_TOKENS = 50  # a shorter result is left alone: its note would save next to nothing
COMPACT_BETA = "compact-2026-01-12"  # the anthropic-beta header of compact_20260112
# compact_20260112's trigger when none is given (anthropic BetaCompact20260112EditParam: "Defaults to 150000 input tokens")
MESSAGES_DEFAULT_TRIGGER = 150_000
# The lowest threshold each API's compaction accepts: Anthropic's compaction guide gives 50,000 input tokens for
# compact_20260112's trigger (a lower one is a 400); OpenAI documents no minimum for compact_threshold.
SERVER_COMPACTION_MINIMUM = {"messages": 50_000}
CLEARED_PREFIX = "[cleared to fit the context"
CLEARED_NOTE = CLEARED_PREFIX + ": this {name} result ({tokens} tokens) was read earlier]"


def check_context(context: Any, context_limit: Any, api: str) -> None:
    """Refuse a ``context=`` / ``context_limit=`` the run cannot honour on ``api``, saying what to pass."""
    if context not in CONTEXT_CHOICES:
        raise ValueError(f"context={context!r}: choose None (the default), 'client' or 'server'")
    if context_limit is not None and (
        isinstance(context_limit, bool) or not isinstance(context_limit, int) or context_limit < 1
    ):
        raise ValueError(f"context_limit must be a whole number of input tokens, got {context_limit!r}")
    if context == "server" and api not in SERVER_CONTEXT_APIS:
        raise ValueError(
            f"context='server' uses the API's own compaction, which the responses and messages APIs have; this "
            f"llm speaks {api!r}: connect with api='responses' or api='messages', or pass context_limit=N alone "
            "(conductor then clears old tool results itself, on every API)"
        )
    floor = SERVER_COMPACTION_MINIMUM.get(api)
    if context == "server" and context_limit is not None and floor is not None and context_limit < floor:
        raise ValueError(
            f"context_limit={context_limit:,} is below the lowest compaction threshold the {api} API accepts "
            f"({floor:,} input tokens; a lower one is refused with a 400): pass context_limit={floor:,} or more, or "
            "leave out context='server' so that conductor clears old tool results itself past context_limit"
        )
    if context == "client" and context_limit is None:
        raise ValueError("context='client' clears old tool results past context_limit: pass context_limit=N too")
    if context == "server" and context_limit is None:
        # Sent without a threshold, Responses has no documented default; say what to pass rather than guess.
        raise ValueError(
            "context='server' asks the API to compact the conversation once a request passes context_limit input "
            f"tokens: pass context_limit=N too (Anthropic's own default is {MESSAGES_DEFAULT_TRIGGER:,})"
        )


def compaction_edits(limit: int) -> dict[str, Any]:
    """The Messages ``context_management`` of compaction from ``limit`` input tokens."""
    return {"edits": [{"type": "compact_20260112", "trigger": {"type": "input_tokens", "value": limit}}]}


def request_tokens(conversation: Conversation, request: dict[str, Any]) -> int:
    """The input tokens of ``request``, estimated over the conversation, system text and tools it sends
    (4 characters a token, 1 per CJK character), plus input the API adds by itself."""
    from .apis.base import HiddenPrompt

    extras = conversation.adapter.prompt_extras(request)
    hidden = sum(value.tokens for value in extras.values() if isinstance(value, HiddenPrompt))
    parts = {"conversation": conversation.messages}
    parts.update((key, value) for key, value in extras.items() if not isinstance(value, HiddenPrompt))
    if isinstance(parts.get("tools"), list):  # a deferred tool is read as its name and description until loaded
        parts["tools"] = [_as_read(tool) for tool in parts["tools"]]
    # A program's call results went to the program, not into the model's context: the API bills them as no input.
    unbilled = sum(estimate_tokens(json.dumps(r.content, ensure_ascii=False)) for r in _program_results(conversation))
    return max(0, estimate_tokens(json.dumps(parts, ensure_ascii=False, default=str)) - unbilled) + hidden


def _program_results(conversation: Conversation) -> list[ToolResult]:
    ids = {call_id for m in conversation.neutral if isinstance(m, Turn) for call_id in programs.caller_ids(m)}
    return [m for m in conversation.neutral if isinstance(m, ToolResult) and m.call_id in ids] if ids else []


def _as_read(tool: Any) -> Any:
    if isinstance(tool, dict) and tool.get("defer_loading"):
        return {key: tool[key] for key in ("name", "description") if key in tool}
    return tool


def fit(conversation: Conversation) -> None:
    """Clear the oldest tool results of ``conversation`` when its next request would pass ``context_limit``.

    Raises ValueError, saying how large a request is, when even the first request does not fit.
    """
    limit = conversation.settings.context_limit
    assert limit is not None
    size = _size(conversation)
    if size <= limit:
        return
    # Only what a request has carried (a result the model has not read yet is never cleared), and never a
    # program's: the program holds it, and clearing it would free nothing the API bills.
    held = {id(r) for r in _program_results(conversation)}
    results = [i for i, m in enumerate(conversation.neutral[: conversation.carried])
               if isinstance(m, ToolResult) and id(m) not in held and not cleared(m.content)
               and estimate_tokens(m.content) >= CLEAR_MIN_TOKENS]
    if not results:
        if not conversation.model_calls:
            raise ValueError(
                f"context_limit={limit} is below the size of one request: the first request is about {size} input "
                f"tokens (tools, system text and question); pass a context_limit above {size}"
            )
        logger.warning("the next request is about %d input tokens, over context_limit=%d, with no tool result "
                       "left that the model has read; it is sent as it is", size, limit)
        return
    target = int(limit * CLEAR_TO)
    count = 0
    for index in results:
        result = conversation.neutral[index]
        note = CLEARED_NOTE.format(name=result.name or "tool", tokens=estimate_tokens(result.content))
        conversation.neutral[index] = replace(result, content=note, is_error=False)
        conversation.reset_rendering()
        count += 1
        size = _size(conversation)
        if size <= target:
            break
    logger.info("cleared the %d oldest tool result(s) to fit context_limit=%d: the next request is about %d "
                "input tokens", count, limit, size)


def _size(conversation: Conversation) -> int:
    request = conversation.adapter.request(
        conversation.settings, conversation.messages, tools_allowed=conversation.tools_allowed,
        continued=conversation.continued,
    )
    return request_tokens(conversation, request)


def cleared(content: str) -> bool:
    """Is ``content`` the note left in place of a cleared tool result?"""
    return content.startswith(CLEARED_PREFIX)
