"""The records of one run, one per model request, tool call, attempt and round.

Plain data, below everything that reads them: :class:`~conductor.trace.Trace` gathers them for one run,
``charts`` draws them, ``tracing`` rebuilds them from spans. Times are seconds from ``time.perf_counter()``
relative to the start of the run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .types import CostSplit, StopReason, Usage


@dataclass(frozen=True)
class ModelCall:
    """One request to the model."""

    index: int  # 1-based, in the order sent
    started: float
    ended: float
    usage: Usage
    cost: float  # US dollars
    stop_reason: StopReason
    native_stop_reason: str | None = None
    tools_allowed: bool = True  # False on the forced final request
    cost_split: CostSplit | None = None  # ``cost`` by part, as priced when the response came
    model: str = ""  # the model that answered (a run with a model fallback may switch mid-way)
    provider: str = ""  # "openai", "anthropic" or "offline"
    # The provider batch that carried the request (OpenAI Batch API, Anthropic Message Batches), priced at
    # the batch rate; None when it was sent directly. ``seconds`` then spans the wait for the batch.
    batch_id: str | None = None

    @property
    def seconds(self) -> float:
        return self.ended - self.started


@dataclass(frozen=True)
class Attempt:
    """One try at a tool call: the primary tool's, a retry's, or a fallback's."""

    tool: str  # the name of the tool or fallback that ran
    error: str | None  # None when this attempt produced the output
    waited: float  # seconds slept before it (backoff)
    started: float
    ended: float


@dataclass(frozen=True)
class ToolCallRecord:
    """One tool call the model asked for, and what came of it."""

    id: str
    name: str
    arguments: Any  # the parsed dict when the JSON was valid, else the raw text
    output: str
    is_error: bool
    started: float
    ended: float
    attempts: tuple[Attempt, ...] = ()  # every try in order (empty for a tool without a retry policy)
    fallback: str | None = None  # the fallback that produced ``output``, or None
    blocked: str | None = None  # why the call was not run ("allowlist", "loop", "denied", ...), or None
    # Where the call came from when a tool result, not the user, named its tool (prompt injection):
    # "read_inbox's result named delete_database (call_1)"; see conductor.guards.provenance.
    provenance: str | None = None
    # The model's own arguments when a person approved the call with an edit of them (``arguments`` then
    # holds the ones that ran, and ``output`` opens with what changed, as the model read it); else None.
    edited_from: Any = None
    caller: str = "model"  # "program" for a call a program the model wrote made (conductor.programs)

    @property
    def seconds(self) -> float:
        return self.ended - self.started


@dataclass(frozen=True)
class Round:
    """One tool round: the model request that asked for tools, and the calls it made."""

    index: int  # 1-based
    model: ModelCall
    tool_calls: tuple[ToolCallRecord, ...]
    text: str = ""  # any text the model wrote beside its tool calls

    @property
    def model_seconds(self) -> float:
        return self.model.seconds

    @property
    def tool_seconds(self) -> float:
        """Wall time of the round's tool execution (first start to last end)."""
        if not self.tool_calls:
            return 0.0
        return max(c.ended for c in self.tool_calls) - min(c.started for c in self.tool_calls)

    @property
    def usage(self) -> Usage:
        return self.model.usage

    @property
    def input_tokens(self) -> int:
        return self.model.usage.input_tokens

    @property
    def output_tokens(self) -> int:
        return self.model.usage.output_tokens

    @property
    def cost(self) -> float:
        return self.model.cost

    @property
    def stop_reason(self) -> StopReason:
        return self.model.stop_reason
