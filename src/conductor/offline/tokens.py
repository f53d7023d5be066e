"""Token estimates for the offline model.

The offline model has no tokenizer, and pulling one in (``tiktoken`` downloads
its vocabulary on first use) would break the "no network" promise. Instead it
counts tokens with a documented rule of thumb that is deterministic and close
enough to real tokenizers for charts of cost and latency:

* ASCII text: one token per 4 characters (OpenAI's own published rule of thumb
  for English);
* CJK ideographs, kana and hangul (and their full-width punctuation): one token
  per character, which is what BPE tokenizers roughly give for Chinese;
* any other non-ASCII character (accents, emoji, ...): half a token each;
* the sum is rounded up, so any non-empty text costs at least one token.

A request costs the estimate of every text in it plus fixed overheads: 3 tokens
per message (role and separators) and 3 tokens to prime the reply, as in
OpenAI's cookbook recipe for counting chat tokens; for every tool, its schema
counted from its JSON text plus 8 tokens of framing. Output costs the generated
text plus, per tool call, the name and the arguments JSON plus 4 tokens of
framing. The tool constants are this module's own round figures: neither API
publishes them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable

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
PER_TOOL = 8
PER_TOOL_CALL = 4

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


def _is_cjk(code: int) -> bool:
    return any(low <= code <= high for low, high in _CJK_RANGES)


def _char_cost(char: str) -> float:
    code = ord(char)
    if code < 128:
        return 0.25
    return 1.0 if _is_cjk(code) else 0.5


def estimate_tokens(text: str) -> int:
    """Estimated tokens of ``text``: ASCII 4 chars/token, CJK 1 char/token, other 2 chars/token."""
    return math.ceil(token_weight(text))


def _message_tokens(message: UserMessage | Turn | ToolResult) -> int:
    if isinstance(message, UserMessage):
        return PER_MESSAGE + estimate_tokens(message.text)
    if isinstance(message, ToolResult):
        return PER_MESSAGE + estimate_tokens(message.call_id) + estimate_tokens(message.content)
    calls = sum(PER_TOOL_CALL + estimate_tokens(c.name) + estimate_tokens(c.arguments) for c in message.tool_calls)
    return PER_MESSAGE + estimate_tokens(message.text) + calls


def request_tokens(conversation: Conversation) -> int:
    """Estimated input tokens of a whole request: system, messages and tool schemas."""
    return REPLY_PRIMING + sum(tokens for _, tokens in prompt_parts(conversation))


def prompt_parts(conversation: Conversation) -> list[tuple[object, int]]:
    """The parts of a request's prompt in the order a model reads them (tools, system, messages), each with
    its estimated tokens; :func:`request_tokens` is their sum plus the reply's priming."""
    parts: list[tuple[object, int]] = []
    for spec in conversation.tools:
        schema = json.dumps(spec.parameters, ensure_ascii=False, sort_keys=True)
        tokens = PER_TOOL + estimate_tokens(spec.name) + estimate_tokens(spec.description) + estimate_tokens(schema)
        parts.append((spec, tokens))
    if conversation.system:
        parts.append((conversation.system, PER_MESSAGE + estimate_tokens(conversation.system)))
    parts.extend((m, _message_tokens(m)) for m in conversation.messages)
    return parts


def output_tokens(text: str, calls: Iterable[tuple[str, str]] = ()) -> int:
    """Estimated output tokens of generated ``text`` and tool ``calls`` given as (name, arguments JSON)."""
    return estimate_tokens(text) + sum(PER_TOOL_CALL + estimate_tokens(n) + estimate_tokens(a) for n, a in calls)


def token_weight(text: str) -> float:
    """The unrounded estimate of ``text`` (for spreading time over the pieces of a stream)."""
    return sum(_char_cost(c) for c in text)


def truncate_to_tokens(text: str, limit: int) -> str:
    """The longest prefix of ``text`` whose estimate fits in ``limit`` tokens."""
    spent = 0.0
    for index, char in enumerate(text):
        spent += _char_cost(char)
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
    for char in text:
        if current and cost >= tokens and (char.isspace() or cost >= 2 * tokens or _is_cjk(ord(char))):
            pieces.append(current)
            current, cost = "", 0.0
        current += char
        cost += _char_cost(char)
    if current:
        pieces.append(current)
    return pieces
