"""Token counts of the offline model's requests and answers, with :mod:`conductor.tokens`' one estimate.

The text estimate, the tool definitions as each API renders them, and the hidden prompts an API adds by
itself are :mod:`conductor.tokens`' (the library's own estimates read the same rules); this module adds up a
request from them. A request costs, in the order a model reads it: the hidden prompts
(:attr:`~.conversation.Conversation.hidden`), each tool's definition (on OpenAI's APIs 12 tokens more once for
the list), the system text and every message, plus fixed overheads: 3 tokens per message (role and
separators) and 3 tokens to prime the reply, as in OpenAI's cookbook recipe for counting chat tokens; a tool call
its name and arguments JSON plus 4 tokens, a tool result its content (on Messages also the call's id, and
Claude's framing of each call and result, :data:`conductor.tokens.ANTHROPIC_PER_CALL`). Output costs the generated
text plus, per tool call, the name and the arguments JSON plus 4 tokens of framing (this module's own round
figure: neither API publishes it).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..tokens import (
    ANTHROPIC_PER_CALL,
    ANTHROPIC_PER_RESULT,
    FUNCTIONS_END,
    estimate_tokens,
    split_pieces,
    token_weight,
    tool_tokens,
    truncate_to_tokens,
)
from ..types import ToolResult, Turn, UserMessage
from .conversation import Conversation

__all__ = [
    "estimate_tokens",
    "request_tokens",
    "prompt_parts",
    "output_tokens",
    "token_weight",
    "truncate_to_tokens",
    "split_pieces",
]

PER_MESSAGE = 3
REPLY_PRIMING = 3
PER_TOOL_CALL = 4


def _message_tokens(message: UserMessage | Turn | ToolResult, api: str) -> int:
    if isinstance(message, UserMessage):
        return PER_MESSAGE + estimate_tokens(message.text)
    if isinstance(message, ToolResult):
        if api != "messages":  # OpenAI renders a result under its function's name, not the call's id
            return PER_MESSAGE + estimate_tokens(message.content)
        return PER_MESSAGE + ANTHROPIC_PER_RESULT + estimate_tokens(message.call_id) + estimate_tokens(message.content)
    framing = PER_TOOL_CALL + (ANTHROPIC_PER_CALL if api == "messages" else 0)
    calls = sum(framing + estimate_tokens(c.name) + estimate_tokens(c.arguments) for c in message.tool_calls)
    return PER_MESSAGE + estimate_tokens(message.text) + calls


def request_tokens(conversation: Conversation) -> int:
    """Estimated input tokens of a whole request: system, messages and tool schemas."""
    return REPLY_PRIMING + sum(tokens for _, tokens in prompt_parts(conversation))


def prompt_parts(conversation: Conversation) -> list[tuple[object, int]]:
    """The parts of a request's prompt in the order a model reads them (hidden prompts, tools, system,
    messages), each with its estimated tokens; :func:`request_tokens` is their sum plus the reply's priming."""
    parts: list[tuple[object, int]] = []
    if conversation.hidden:
        parts.append(("hidden prompts", conversation.hidden))
    for index, spec in enumerate(conversation.tools):
        tokens = tool_tokens(conversation.api, spec.name, spec.description, spec.parameters)
        if index == 0 and conversation.api != "messages":
            tokens += FUNCTIONS_END  # the namespace around OpenAI's functions, once per list
        parts.append((spec, tokens))
    if conversation.system:
        parts.append((conversation.system, PER_MESSAGE + estimate_tokens(conversation.system)))
    parts.extend((m, _message_tokens(m, conversation.api)) for m in conversation.messages)
    return parts


def output_tokens(text: str, calls: Iterable[tuple[str, str]] = ()) -> int:
    """Estimated output tokens of generated ``text`` and tool ``calls`` given as (name, arguments JSON)."""
    return estimate_tokens(text) + sum(PER_TOOL_CALL + estimate_tokens(n) + estimate_tokens(a) for n, a in calls)
