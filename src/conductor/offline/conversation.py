"""What the offline model's decision policies see and return.

The wire layer (:mod:`.wire`) parses a request in any
API's format into one :class:`Conversation`; a policy reads it and returns a
:class:`Decision`; the wire layer renders the decision back in that API's
format. Policies therefore never deal with JSON or SSE, and one policy serves
every API.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from ..types import Message, ToolCall, ToolResult, ToolSpec, Turn, UserMessage

ToolChoice = Literal["auto", "none", "required", "tool"]
ApiName = Literal["chat", "responses", "messages"]  # the wire API a request came in on


@dataclass(frozen=True)
class Conversation:
    """A request to the offline model, in neutral form."""

    api: ApiName
    model: str
    messages: tuple[Message, ...]
    tools: tuple[ToolSpec, ...] = ()
    system: str | None = None
    tool_choice: ToolChoice = "auto"
    forced_tool: str | None = None  # the name, when tool_choice == "tool"
    parallel_tool_calls: bool = True  # False: at most one call per turn
    max_tokens: int | None = None
    seed: int = 0
    hidden: int = 0  # input the API adds by itself, billed before the tools (conductor.tokens.hidden_prompts)

    @property
    def tools_allowed(self) -> bool:
        """May the reply call tools at all? (``tool_choice`` none, or no tools, says no.)"""
        return bool(self.tools) and self.tool_choice != "none"

    @property
    def question(self) -> str:
        """The text of the last user message (the question being answered)."""
        for message in reversed(self.messages):
            if isinstance(message, UserMessage):
                return message.text
        return ""

    def tool(self, name: str) -> ToolSpec | None:
        """The offered tool called ``name``, if any."""
        return next((t for t in self.tools if t.name == name), None)

    @property
    def tool_names(self) -> list[str]:
        return [t.name for t in self.tools]

    def exchanges(self) -> list[tuple[ToolCall, ToolResult]]:
        """Every tool call since the last user question, paired with its result, in order.

        Results pair with the calls of the assistant turn before them by
        position, so duplicate or empty call ids still pair; a result whose id
        names exactly one unanswered call of that turn pairs with that call
        (the APIs let results come in any order).
        """
        pairs: list[tuple[ToolCall, ToolResult]] = []
        unanswered: list[ToolCall] = []
        for message in self.messages:
            if isinstance(message, UserMessage):
                pairs.clear()
                unanswered = []
            elif isinstance(message, Turn):
                unanswered = list(message.tool_calls)
            elif isinstance(message, ToolResult) and unanswered:
                named = [c for c in unanswered if c.id and c.id == message.call_id]
                call = named[0] if len(named) == 1 else unanswered[0]
                unanswered.remove(call)
                pairs.append((call, message))
        return pairs

    def results_of(self, name: str) -> list[tuple[ToolCall, ToolResult]]:
        """The exchanges of one tool, in order."""
        return [pair for pair in self.exchanges() if pair[0].name == name]


@dataclass(frozen=True)
class PlannedCall:
    """A tool call the offline model decides to make. ``arguments`` may be a raw
    string (used by fault injection to send malformed JSON)."""

    name: str
    arguments: dict[str, Any] | str = field(default_factory=dict)


@dataclass(frozen=True)
class Reply:
    """Answer in text; no tool calls."""

    text: str


@dataclass(frozen=True)
class CallTools:
    """Call these tools (in one turn), optionally with a short text before them."""

    calls: tuple[PlannedCall, ...]
    text: str | None = None


Decision = Reply | CallTools
Policy = Callable[[Conversation], Decision | None]
"""A decision policy: return a decision, or ``None`` to let the next policy decide."""
