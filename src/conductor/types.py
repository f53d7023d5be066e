"""The neutral representation every module speaks.

Provider adapters turn OpenAI Chat Completions and Anthropic Messages objects
into these plain dataclasses and back; the round loop, the tool executor, the
trace and the offline model only ever see these. Keeping them frozen makes a
conversation a value: a round takes one and returns a new one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Literal


class StopReason(str, Enum):
    """Why the model stopped, in one vocabulary for both APIs.

    The native value (``"tool_calls"``, ``"end_turn"``, ...) is kept beside it
    in :attr:`Turn.native_stop_reason`.
    """

    END_TURN = "end_turn"  # OpenAI "stop", Anthropic "end_turn" / "stop_sequence"
    TOOL_USE = "tool_use"  # OpenAI "tool_calls" / "function_call", Anthropic "tool_use"
    MAX_TOKENS = "max_tokens"  # OpenAI "length", Anthropic "max_tokens"
    REFUSAL = "refusal"  # OpenAI "content_filter" or a message.refusal, Anthropic "refusal"
    PAUSE_TURN = "pause_turn"  # Anthropic server tools paused a long turn
    OTHER = "other"  # anything a newer API version adds


@dataclass(frozen=True)
class Usage:
    """Tokens billed for one model request."""

    input_tokens: int = 0
    output_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(self.input_tokens + other.input_tokens, self.output_tokens + other.output_tokens)

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens


@dataclass(frozen=True)
class ToolCall:
    """One tool call the model asked for.

    ``arguments`` is the raw JSON text exactly as the model sent it: models do
    send invalid JSON, and the executor must be able to say so to the model.
    """

    id: str
    name: str
    arguments: str = "{}"

    def parsed_arguments(self) -> dict[str, Any]:
        """The arguments as a dict; raises ``ValueError`` when they are not a JSON object."""
        value = json.loads(self.arguments or "{}")
        if not isinstance(value, dict):
            raise ValueError(f"tool arguments must be a JSON object, got {type(value).__name__}")
        return value


@dataclass(frozen=True)
class ToolResult:
    """The answer to one :class:`ToolCall`, matched by ``call_id``."""

    call_id: str
    name: str
    content: str
    is_error: bool = False


@dataclass(frozen=True)
class UserMessage:
    """A user (or earlier-history) message with plain text content."""

    text: str
    role: Literal["user"] = "user"


@dataclass(frozen=True)
class Turn:
    """One assistant reply: its text blocks and tool calls, in the order sent."""

    text_blocks: tuple[str, ...] = ()
    tool_calls: tuple[ToolCall, ...] = ()
    stop_reason: StopReason = StopReason.END_TURN
    native_stop_reason: str | None = None
    usage: Usage = field(default_factory=Usage)
    refusal: str | None = None
    model: str | None = None
    raw: Any = field(default=None, compare=False, repr=False)  # the SDK object, for inspection
    role: Literal["assistant"] = "assistant"

    @property
    def text(self) -> str:
        """All text blocks joined (never just the first block: it may be a tool call)."""
        return "".join(self.text_blocks)


@dataclass(frozen=True)
class ToolSpec:
    """A tool as the model sees it: name, description and JSON schema of its arguments."""

    name: str
    description: str
    parameters: dict[str, Any]


# One entry of a neutral conversation.
Message = UserMessage | Turn | ToolResult
