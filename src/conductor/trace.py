"""Per-request and per-round records of one run: what happened, when, and what it cost.

Times are seconds from ``time.perf_counter()`` relative to the start of the run,
so a trace can be drawn (``charts``) or printed (:meth:`Trace.table`) as is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import display
from .records import Attempt, ModelCall, Round, ToolCallRecord  # the records a trace gathers; their names stay here
from .types import Usage

if TYPE_CHECKING:  # matplotlib loads only when a chart is drawn
    from matplotlib.figure import Figure


@dataclass(frozen=True)
class Trace:
    """Everything measured in one run."""

    model_calls: tuple[ModelCall, ...] = ()
    rounds: tuple[Round, ...] = ()
    seconds: float = 0.0
    model_name: str = ""
    priced_as: str = ""
    input_price: float = field(default=0.0, repr=False)  # $ per million tokens at the base rates
    output_price: float = field(default=0.0, repr=False)

    @property
    def usage(self) -> Usage:
        total = Usage()
        for call in self.model_calls:
            total = total + call.usage
        return total

    @property
    def cost(self) -> float:
        return sum(call.cost for call in self.model_calls)

    @property
    def batched(self) -> bool:
        """Did any request of the run go through a provider's batch API (``model_calls[i].batch_id``)?"""
        return any(call.batch_id is not None for call in self.model_calls)

    def rows(self) -> list[dict[str, Any]]:
        """One row per model request: the round it belongs to, timings, tokens, cost."""
        rounds = {r.model.index: r for r in self.rounds}
        rows = []
        for call in self.model_calls:
            round_ = rounds.get(call.index)
            split = call.cost_split
            rows.append(
                {
                    "request": call.index,
                    "step": f"round {round_.index}" if round_ else "answer",
                    "tool_calls": len(round_.tool_calls) if round_ else 0,
                    "model_s": call.seconds,
                    "tools_s": round_.tool_seconds if round_ else 0.0,
                    "input_tokens": call.usage.input_tokens,
                    "cached_tokens": call.usage.cache_read_tokens,
                    "cache_write_tokens": call.usage.cache_write_tokens,
                    "output_tokens": call.usage.output_tokens,
                    "reasoning_tokens": call.usage.reasoning_tokens,
                    "web_searches": call.usage.web_search_requests,
                    "cost_usd": call.cost,
                    "input_usd": split.input if split else None,
                    "cached_usd": split.cached if split else None,
                    "output_usd": split.output if split else None,
                    "stop": call.stop_reason.value,
                    "model": call.model,
                }
            )
        return rows

    def table(self) -> str:
        """The figures behind the charts as a plain-text table.

        Token counts billed at their own rates (cached, written to the cache,
        reasoning, web searches) get a column only when a request reported some;
        each is part of the column to its left ("in tok" or "out tok"). A run
        answered by several models (a model fallback) names each request's model,
        and each request's cost is at that model's prices.
        """
        usage = self.usage
        # (title, width, row key, total): the optional ones only when the run has any.
        counts = [("in tok", 7, "input_tokens", usage.input_tokens)]
        counts += [
            (title, 8, key, total)
            for title, key, total in (
                ("cached", "cached_tokens", usage.cache_read_tokens),
                ("cache wr", "cache_write_tokens", usage.cache_write_tokens),
            )
            if total
        ]
        counts.append(("out tok", 7, "output_tokens", usage.output_tokens))
        counts += [
            (title, 8, key, total)
            for title, key, total in (
                ("reason", "reasoning_tokens", usage.reasoning_tokens),
                ("searches", "web_searches", usage.web_search_requests),
            )
            if total
        ]
        titles = " ".join(f"{title:>{w}}" for title, w, _, _ in counts)
        # Times carry an "s" so the course's sanitize rules turn them into a stable token.
        header = f"{'step':<9} {'calls':>5} {'model':>8} {'tools':>8} {titles} {'cost $':>9}  stop"
        mixed = len({call.model for call in self.model_calls}) > 1
        column = display.width(header) + 8  # past the longest stop reason ("max_tokens")
        if mixed:
            header = f"{header:<{column}}answered by"
        lines = [header, "-" * display.width(header)]
        for row in self.rows():
            figures = " ".join(f"{row[key]:>{w}}" for _, w, key, _ in counts)
            line = (
                f"{row['step']:<9} {row['tool_calls']:>5} {row['model_s']:>7.3f}s {row['tools_s']:>7.3f}s "
                f"{figures} {row['cost_usd']:>9.6f}  {row['stop']}"
            )
            lines.append(f"{line:<{column}}{row['model']}" if mixed else line)
        lines.append("-" * display.width(header))
        totals = " ".join(f"{total:>{w}}" for _, w, _, total in counts)
        lines.append(
            f"{'total':<9} {sum(len(r.tool_calls) for r in self.rounds):>5} "
            f"{sum(c.seconds for c in self.model_calls):>7.3f}s {sum(r.tool_seconds for r in self.rounds):>7.3f}s "
            f"{totals} {self.cost:>9.6f}"
        )
        return "\n".join(lines)

    def plot(self, *, figsize: tuple[float, float] = (10, 3.6)) -> Figure:
        """Round-by-round latency (model vs tools) and cost (input vs output, cumulative)."""
        from . import charts

        return charts.plot_trace(self, figsize=figsize)


__all__ = ["Attempt", "ModelCall", "Round", "ToolCallRecord", "Trace"]
