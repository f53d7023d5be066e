"""The round loop: ask the model, run the tools it asks for, feed the results back, repeat.

Round semantics (``max_rounds`` counts tool rounds):

* while rounds remain, every request offers the tools;
* when the model asks for tools in the last allowed round, those calls run and
  one final request is made with tool use forbidden (``tool_choice`` none, tools
  still defined), so a run makes at most ``max_rounds + 1`` requests;
* if the model asks for tools in that final request anyway, they are not run
  and the run ends with whatever text the model wrote;
* every tool call id the model issued is answered exactly once, in call order.

:class:`Conversation` holds the state of one run and knows what to send next;
``LLM.run`` / ``LLM.arun`` only drive it (sync and async share every decision).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .trace import ModelCall, Round, ToolCallRecord, Trace
from .types import StopReason, ToolCall, Turn, Usage

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from .adapters import AnthropicAdapter, OpenAIAdapter, RequestSettings
    from .tools import ToolRegistry

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class RunResult:
    """What one ``llm.run`` produced."""

    answer: str
    messages: list[dict[str, Any]] = field(repr=False)
    trace: Trace = field(repr=False)
    stop_reason: StopReason = StopReason.END_TURN
    native_stop_reason: str | None = None
    truncated: bool = False  # the answer was cut by max_tokens / length
    refused: bool = False  # the model refused; ``answer`` holds the refusal
    empty: bool = False  # the model returned no text at all
    hit_round_limit: bool = False  # the final answer was forced with tool use forbidden
    ignored_tool_calls: tuple[ToolCall, ...] = ()  # calls asked for when tools were forbidden; never run

    @property
    def rounds(self) -> tuple[Round, ...]:
        """One record per tool round."""
        return self.trace.rounds

    @property
    def api_calls(self) -> int:
        """Model requests made (at most ``max_rounds + 1``)."""
        return len(self.trace.model_calls)

    @property
    def usage(self) -> Usage:
        return self.trace.usage

    @property
    def cost(self) -> float:
        """US dollars for every request of the run."""
        return self.trace.cost

    @property
    def seconds(self) -> float:
        return self.trace.seconds

    @property
    def tool_calls(self) -> list[ToolCallRecord]:
        """Every tool call of every round, in order."""
        return [call for r in self.rounds for call in r.tool_calls]

    def table(self) -> str:
        """Round-by-round latency, tokens and cost as plain text."""
        return self.trace.table()

    def plot(self, *, figsize: tuple[float, float] = (10, 3.6)) -> Figure:
        """Round-by-round latency and cost charts."""
        return self.trace.plot(figsize=figsize)

    def transcript(self, *, width: int = 100) -> str:
        """What happened, one line per tool call, then the answer (deterministic: no timings)."""

        def clip(text: str) -> str:
            text = " ".join(str(text).split())
            return text if len(text) <= width else text[: width - 1] + "…"

        lines = []
        for r in self.rounds:
            for c in r.tool_calls:
                mark = "error" if c.is_error else "ok"
                lines.append(clip(f"round {r.index}: {c.name}({c.arguments}) -> [{mark}] {c.output}"))
        status = [
            flag
            for flag, on in (
                ("cut by max_tokens", self.truncated),
                ("refused", self.refused),
                ("empty answer", self.empty),
                ("round limit reached", self.hit_round_limit),
            )
            if on
        ]
        suffix = f"  ({', '.join(status)})" if status else ""
        lines.append(f"answer after {len(self.rounds)} round(s), {self.api_calls} request(s){suffix}:")
        lines.append(self.answer)
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.answer


class Conversation:
    """The state of one run and the decision of what to do next.

    ``next_request`` gives the SDK arguments for the next model request, or
    ``None`` when the run is over; ``receive`` takes the model's response and
    returns the tool calls to run (empty when there is nothing to run);
    ``add_results`` takes the executed calls' records.
    """

    def __init__(
        self,
        *,
        adapter: OpenAIAdapter | AnthropicAdapter,
        settings: RequestSettings,
        question: str,
        history: Sequence[dict[str, Any]] | None,
        max_rounds: int,
        price: Callable[[Usage], float],
    ) -> None:
        if max_rounds < 0:
            raise ValueError(f"max_rounds must be 0 or more, got {max_rounds}")
        self.adapter = adapter
        self.settings = settings
        self.max_rounds = max_rounds
        self.price = price
        self.messages = adapter.initial_messages(question, settings.system, history)
        self.origin = time.perf_counter()
        self.model_calls: list[ModelCall] = []
        self.rounds: list[Round] = []
        self.final: Turn | None = None
        self._pending: tuple[Turn, ModelCall] | None = None

    @property
    def tools(self) -> ToolRegistry:
        return self.settings.tools

    @property
    def tools_allowed(self) -> bool:
        return len(self.rounds) < self.max_rounds

    def next_request(self) -> dict[str, Any] | None:
        if self.final is not None:
            return None
        return self.adapter.request(self.settings, self.messages, tools_allowed=self.tools_allowed)

    def receive(self, response: Any, started: float, ended: float) -> list[ToolCall]:
        """Record one model response; return the calls to run now."""
        turn = self.adapter.parse(response)
        call = ModelCall(
            index=len(self.model_calls) + 1,
            started=started - self.origin,
            ended=ended - self.origin,
            usage=turn.usage,
            cost=self.price(turn.usage),
            stop_reason=turn.stop_reason,
            native_stop_reason=turn.native_stop_reason,
            tools_allowed=self.tools_allowed,
        )
        self.model_calls.append(call)
        if not turn.tool_calls or not self.tools_allowed or not len(self.tools):
            if turn.tool_calls:
                logger.warning(
                    "the model asked for %d tool call(s) when tool use was not allowed; they were not run",
                    len(turn.tool_calls),
                )
            self.final = turn
            message = self.adapter.assistant_message(turn, with_tool_calls=False)
            if message is not None:
                self.messages.append(message)
            return []
        self.messages.append(self.adapter.assistant_message(turn))
        self._pending = (turn, call)
        return list(turn.tool_calls)

    def add_results(self, records: Sequence[ToolCallRecord]) -> None:
        """Answer every pending call, in call order, and close the round."""
        from .execution import results_of

        assert self._pending is not None, "add_results() called with no tool calls pending"
        turn, call = self._pending
        by_id = {r.id: r for r in records}
        ordered = tuple(by_id[c.id] for c in turn.tool_calls)
        self.messages += self.adapter.tool_result_messages(results_of(ordered))
        self.rounds.append(Round(index=len(self.rounds) + 1, model=call, tool_calls=ordered, text=turn.text))
        self._pending = None
        logger.info("round %d: %s", len(self.rounds), ", ".join(c.name for c in turn.tool_calls))

    def result(self, *, model_name: str, priced_as: str, prices: tuple[float, float]) -> RunResult:
        assert self.final is not None, "result() called before the run ended"
        final = self.final
        text = final.refusal if final.stop_reason is StopReason.REFUSAL and final.refusal else final.text
        trace = Trace(
            model_calls=tuple(self.model_calls),
            rounds=tuple(self.rounds),
            seconds=time.perf_counter() - self.origin,
            model_name=model_name,
            priced_as=priced_as,
            input_price=prices[0],
            output_price=prices[1],
        )
        empty = not text.strip()
        if empty:
            logger.warning("the model's final answer is empty (stop reason %s)", final.native_stop_reason)
        return RunResult(
            answer=text,
            messages=self.messages,
            trace=trace,
            stop_reason=final.stop_reason,
            native_stop_reason=final.native_stop_reason,
            truncated=final.stop_reason is StopReason.MAX_TOKENS,
            refused=final.stop_reason is StopReason.REFUSAL,
            empty=empty,
            hit_round_limit=bool(len(self.tools)) and not self.model_calls[-1].tools_allowed,
            ignored_tool_calls=final.tool_calls,
        )
