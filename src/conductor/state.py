"""A run in progress and its outcome, as the modules below the loop read them.

``rounds.Conversation`` and ``rounds.RunResult`` are the real things. The loop hands them to the parts it calls:
``context`` clears old results to fit the context limit, ``budget`` weighs a request before it goes, ``tracing``
records spans. Those modules sit below the loop, so they name here only what they read and never import ``rounds``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from .apis.base import RequestSettings, WireApi
from .records import ModelCall
from .types import CostSplit, Message, StopReason, Turn, Usage


class RunState(Protocol):
    """One run as the loop keeps it (:class:`conductor.rounds.Conversation`)."""

    adapter: WireApi  # the wire API the next request goes out on
    settings: RequestSettings
    neutral: list[Message]  # the conversation in the neutral form
    carried: int  # how many of ``neutral``'s messages a request has carried to the model
    continued: tuple[str, int] | None  # server state: (last response id, messages it holds)
    origin: float  # perf_counter() when the run started
    provider: str
    final: Turn | None  # the final turn, once the run is over
    model_calls: list[ModelCall]
    price: Callable[[Usage], CostSplit]

    @property
    def messages(self) -> list[dict[str, Any]]: ...

    @property
    def tools_allowed(self) -> bool: ...

    def next_request(self) -> dict[str, Any] | None: ...

    def reset_rendering(self) -> None: ...

    def stop(self, reason: str, answer: str) -> None: ...


class Paused(Protocol):
    @property
    def token(self) -> str: ...


class RunOutcome(Protocol):
    """What a finished run reports (:class:`conductor.rounds.RunResult`)."""

    @property
    def usage(self) -> Usage: ...

    @property
    def cost(self) -> float: ...

    @property
    def stop_reason(self) -> StopReason: ...

    @property
    def native_stop_reason(self) -> str | None: ...

    @property
    def stopped_by(self) -> str | None: ...

    @property
    def paused(self) -> Paused | None: ...


__all__ = ["RunState", "RunOutcome", "Paused"]
