"""The neutral representation every module speaks.

Each wire API's module (:mod:`conductor.apis`) turns that API's objects
into these plain dataclasses and back; the round loop, the tool executor, the
trace and the offline model only ever see these. Keeping them frozen makes a
conversation a value: a round takes one and returns a new one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Literal


def _not_json(constant: str) -> Any:
    raise json.JSONDecodeError(f"{constant} is not JSON (JSON has no NaN or Infinity)", constant, 0)


_DECODER = json.JSONDecoder(parse_constant=_not_json)  # one decoder: json.loads with an option builds one per call


def loads_json(text: str) -> Any:
    """``json.loads`` without Python's NaN/Infinity extension.

    A model's arguments string may hold ``Infinity``; Python would read it as a
    float the APIs cannot carry back (the SDKs refuse to send it), so it is an
    invalid-JSON error like any other.
    """
    return _DECODER.decode(text)


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
    """Tokens billed for one model request, as the API reported them.

    ``input_tokens`` counts every prompt token, cached or not (OpenAI's
    ``prompt_tokens``; Anthropic's ``input_tokens`` plus its two cache counts),
    and ``output_tokens`` every generated token, reasoning included. The other
    counts are parts of those totals that are billed at their own rates.
    """

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0  # part of input_tokens read from the prompt cache (cheaper)
    cache_write_tokens: int = 0  # part of input_tokens written to the cache (Anthropic: dearer)
    reasoning_tokens: int = 0  # part of output_tokens spent on hidden reasoning
    # Hosted web searches, billed per search: Anthropic's usage.server_tool_use.web_search_requests; on
    # Responses, the response's web_search_call output items (its usage has no count of them).
    web_search_requests: int = 0
    # Anthropic's usage.server_tool_use.web_fetch_requests: counted; a fetch costs nothing beyond its tokens.
    web_fetch_requests: int = 0
    # Part of cache_write_tokens written for an hour (Anthropic's cache_creation.ephemeral_1h_input_tokens),
    # billed at twice the input price rather than the 5-minute write price.
    cache_write_1h_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.cache_read_tokens + other.cache_read_tokens,
            self.cache_write_tokens + other.cache_write_tokens,
            self.reasoning_tokens + other.reasoning_tokens,
            self.web_search_requests + other.web_search_requests,
            self.web_fetch_requests + other.web_fetch_requests,
            self.cache_write_1h_tokens + other.cache_write_1h_tokens,
        )

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens

    @property
    def uncached_input_tokens(self) -> int:
        """Prompt tokens billed at the plain input rate (neither read from nor written to the cache)."""
        return self.input_tokens - self.cache_read_tokens - self.cache_write_tokens


@dataclass(frozen=True)
class CostSplit:
    """US dollars of one request, by what was billed: the parts add up to :attr:`total`."""

    input: float = 0.0  # prompt tokens at the input rate, cache writes included
    cached: float = 0.0  # prompt tokens read from the cache
    output: float = 0.0  # generated tokens, reasoning included
    server_tools: float = 0.0  # server-side tool use such as web searches

    @property
    def total(self) -> float:
        return self.input + self.cached + self.output + self.server_tools


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
        value = loads_json(self.arguments or "{}")
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
class SystemMessage:
    """Instructions for the model: OpenAI's system message, Anthropic's ``system`` parameter."""

    text: str
    role: Literal["system"] = "system"


@dataclass(frozen=True)
class Reasoning:
    """An Anthropic thinking block, kept to send back beside the tool calls it led to.

    With extended thinking on, the API requires the turn's thinking blocks,
    signature included, in the assistant message that holds its tool calls.
    ``redacted`` blocks carry only ``data``. Chat Completions has no such block.
    """

    thinking: str = ""
    signature: str = ""
    redacted: bool = False
    data: str = ""


@dataclass(frozen=True)
class Turn:
    """One assistant reply: its text blocks and tool calls, in the order sent.

    ``items`` keeps the reply as the API sent it, to go back unchanged to the same API and
    model (``origin``). Another model of the same API gets the server's items and blocks as
    received but not the reasoning; another API gets the neutral turn (text and calls).
    Responses: every output item, ids included (reasoning, ``web_search_call``, ``tool_search_output``
    and other hosted tools' items, ``compaction``, messages, function calls). Messages: every content
    block, kept when the turn holds a server's blocks (``server_tool_use``, ``tool_search_tool_result``,
    ``compaction``, ...) or was paused (``pause_turn``, continued by sending it back as it came); empty
    otherwise. A turn read from ``history=`` keeps them too, its ``origin`` ``(API, "")``: the API its
    format names, the model unknown. Hosted tools' calls are never run here: the provider ran them.
    """

    text_blocks: tuple[str, ...] = ()
    tool_calls: tuple[ToolCall, ...] = ()
    stop_reason: StopReason = StopReason.END_TURN
    native_stop_reason: str | None = None
    usage: Usage = field(default_factory=Usage)
    refusal: str | None = None
    model: str | None = None
    reasoning: tuple[Reasoning, ...] = ()  # thinking blocks, sent first when rendered for Anthropic
    items: tuple[dict[str, Any], ...] = ()  # the output items / content blocks as received (see above)
    response_id: str | None = None  # Responses API: the response's id (for previous_response_id)
    # (API, model asked) that wrote the turn; (API, "") for history= items of that API; None for a neutral turn
    origin: tuple[str, str] | None = None
    container: str | None = None  # Messages: the code execution container a program ran in (conductor.programs)
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
    strict: bool = False  # sent strict: every key arrives, null where the caller means "the default"


# One entry of a neutral conversation.
Message = SystemMessage | UserMessage | Turn | ToolResult


# The providers' own model names, by wire API. A model so named that a feature's table leaves out is known not to
# have the feature (the API answers a 400, so conductor refuses it before sending); any other name (a compatible
# server's model) is left to the server to judge.
_OPENAI_MODELS = ("gpt-", "o1", "o3", "o4", "chatgpt-")
PROVIDER_MODEL_PREFIXES: dict[str, tuple[str, ...]] = {
    "responses": _OPENAI_MODELS, "chat": _OPENAI_MODELS, "messages": ("claude-",),
}


def is_provider_model(api: str, model: str) -> bool:
    """Is ``model`` named as one of the provider's own models on ``api``?"""
    return model.startswith(PROVIDER_MODEL_PREFIXES.get(api, ()))

