"""The model's answer to one request, before a wire module renders it, and the constants the wire modules and
the batch server share with the model.

Below ``model``, ``wire/`` and ``batches``: the model makes a :class:`Completion`, each wire module renders one, and
the batch server answers its lines through the model; none of them imports another for these.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from .caching import CacheUse
from .compaction import Compaction
from .tool_search import SearchStep

CREATED_EPOCH = 1_767_225_600  # 2026-01-01T00:00:00Z: "created" never reads the clock

BATCH_LINE = "conductor_batch_line"
"""The request extension that marks a line of a batch, answered through the model's own request path."""

Finish = Literal["end_turn", "tool_use", "max_tokens", "refusal"]


@dataclass(frozen=True)
class RenderedCall:
    """A tool call as it goes on the wire: final id, name, and arguments JSON text (maybe invalid)."""

    id: str
    name: str
    arguments: str


@dataclass(frozen=True)
class Completion:
    """The model's answer to one request, before it is rendered in an API's format.

    ``output_tokens`` counts the reasoning too (``reasoning_tokens`` of them), as the APIs bill it.
    """

    id: str
    created: int
    model: str
    text: str
    calls: tuple[RenderedCall, ...]
    finish: Finish
    refusal: str | None
    input_tokens: int
    output_tokens: int
    reasoning: str = ""  # what a reasoning model thought first; "" for none
    reasoning_tokens: int = 0
    cache: CacheUse = CacheUse()  # the part of input_tokens read from / written to the prompt cache
    compaction: Compaction | None = None  # server-side compaction done before this answer (see .compaction)
    search: SearchStep | None = None  # a hosted tool search made inside the response, before its calls
    program: Any = None  # a programmatic response's step (offline.programs.Step), else None
    container: str | None = None  # Messages: the code execution container the program runs in


__all__ = ["BATCH_LINE", "CREATED_EPOCH", "Completion", "Finish", "RenderedCall"]
