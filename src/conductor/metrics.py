"""Production metrics of many conversations, the thresholds that raise alerts, and their dashboard.

The figures a team watches once an assistant has users (from the monitoring
table of a real multi-round rollout): average tool rounds per query (alert
above 1.5: the model is searching too much), the share of queries that used
two rounds, the tool failure rate (alert above 5 %), p50 / p95 latency (alert
above 4 s), cost per query and in total, and how often rate limits made work
wait or refused it. Conversations sent through a provider's Batch API
(``run_many(via="batch")``) are counted everywhere but in the latency figures:
their seconds are a batch's turnaround, shown apart and never alerted on.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from .ratelimit import Wait
    from .rounds import RunResult

__all__ = ["QueryRecord", "Thresholds", "Metrics", "record_of", "compute", "plot_dashboard", "RATE_LIMITED"]

RATE_LIMITED = "RateLimited"
"""How a tool call refused by a per-user rate limit starts its error text (it is no tool failure)."""


@dataclass(frozen=True)
class QueryRecord:
    """One conversation as the metrics see it."""

    run_id: str
    user: str
    seconds: float  # wall time the user waited, rate-limit waits included
    rounds: int
    requests: int
    tool_calls: int
    tool_failures: int  # calls that ran and failed (not blocked, not refused by a rate limit)
    refused_calls: int  # calls a per-user rate limit refused
    failures_by_tool: tuple[tuple[str, int, int], ...]  # (tool, calls, failures)
    cost: float
    tokens: int
    stopped_by: str | None
    error: str | None = None  # the exception that ended the conversation, if any
    batched: bool = False  # sent through a provider's Batch API: its seconds are a batch's turnaround


def _is_refused(output: str) -> bool:
    return output.startswith(RATE_LIMITED)


def record_of(
    result: RunResult, *, run_id: str, user: str, seconds: float, error: str | None = None, batched: bool | None = None
) -> QueryRecord:
    """The metrics' view of one finished conversation (``batched``: sent via a Batch API; default: its trace says)."""
    calls = result.tool_calls
    refused = failed = 0
    per_tool: dict[str, list[int]] = {}  # tool -> [calls, failures], refused calls left out
    for call in calls:
        if call.is_error and _is_refused(call.output):
            refused += 1
            continue
        counts = per_tool.setdefault(call.name, [0, 0])
        counts[0] += 1
        if call.is_error and not call.blocked:
            counts[1] += 1
            failed += 1
    usage = result.usage
    return QueryRecord(
        run_id=run_id,
        user=user,
        seconds=seconds,
        rounds=len(result.rounds),
        requests=result.api_calls,
        tool_calls=len(calls),
        tool_failures=failed,
        refused_calls=refused,
        failures_by_tool=tuple(sorted((name, n, failing) for name, (n, failing) in per_tool.items())),
        cost=result.cost,
        tokens=usage.input_tokens + usage.output_tokens,
        stopped_by=result.stopped_by,
        error=error,
        batched=result.trace.batched if batched is None else batched,
    )


@dataclass(frozen=True)
class Thresholds:
    """When a metric raises an alert; ``None`` switches one off.

    Alerts wait for ``min_queries`` conversations: three slow queries out of
    five say little.
    """

    avg_rounds: float | None = 1.5
    tool_failure_rate: float | None = 0.05
    p95_latency: float | None = 4.0
    cost_per_query: float | None = None
    error_rate: float | None = 0.0
    min_queries: int = 10


def percentile(values: Sequence[float], share: float) -> float:
    """The ``share`` quantile (0.95 for p95) with linear interpolation; 0 for no values."""
    ordered = sorted(values)
    if not ordered:
        return 0.0
    position = share * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


@dataclass(frozen=True)
class Metrics:
    """The production figures of a set of conversations, and the alerts they raise."""

    queries: int
    avg_rounds: float
    two_round_share: float
    tool_calls: int
    tool_failure_rate: float
    p50_latency: float
    p95_latency: float
    cost_per_query: float
    total_cost: float
    rate_limit_waits: int  # times work waited for a rate limit
    rate_limit_wait_seconds: float
    refused_calls: int  # tool calls a per-user limit refused
    errors: int  # conversations that raised
    stopped: dict[str, int] = field(default_factory=dict)  # stopped_by -> conversations
    alerts: list[str] = field(default_factory=list)
    # Conversations sent through a provider's Batch API: their seconds are a batch's turnaround (up to 24 h
    # by contract), kept out of the latency figures and their alert, and shown apart.
    batched: int = 0
    batch_p95_turnaround: float = 0.0

    def table(self) -> str:
        """The figures as aligned text, alerts last."""
        rows = [
            ("queries", f"{self.queries}"),
            ("avg tool rounds / query", f"{self.avg_rounds:.2f}"),
            ("share using 2+ rounds", f"{self.two_round_share:.1%}"),
            ("tool calls", f"{self.tool_calls}"),
            ("tool failure rate", f"{self.tool_failure_rate:.1%}"),
            ("p50 latency", f"{self.p50_latency:.3f} s"),
            ("p95 latency", f"{self.p95_latency:.3f} s"),
            *([("batched queries", f"{self.batched}"),
               ("batch turnaround p95", f"{self.batch_p95_turnaround:.3f} s")] if self.batched else []),
            ("cost / query", f"${self.cost_per_query:.6f}"),
            ("total cost", f"${self.total_cost:.6f}"),
            ("rate-limit waits", f"{self.rate_limit_waits}"),
            ("refused tool calls", f"{self.refused_calls}"),
            ("failed conversations", f"{self.errors}"),
            ("stopped early", ", ".join(f"{k}: {v}" for k, v in sorted(self.stopped.items())) or "none"),
        ]
        lines = [f"{name:<24} {value:>12}" for name, value in rows]
        lines += [f"ALERT: {alert}" for alert in self.alerts] or ["no alerts"]
        return "\n".join(lines)


def _alerts(m: Metrics, limits: Thresholds) -> list[str]:
    if m.queries < limits.min_queries:
        return []
    checks = [
        (limits.avg_rounds, m.avg_rounds, "average tool rounds per query {v:.2f} is above {t:g}"),
        (limits.tool_failure_rate, m.tool_failure_rate, "tool failure rate {v:.1%} is above {t:.0%}"),
        (limits.p95_latency, m.p95_latency, "p95 latency {v:.1f}s is above {t:g}s"),
        (limits.cost_per_query, m.cost_per_query, "cost per query ${v:.6f} is above ${t:g}"),
        (limits.error_rate, m.errors / m.queries, "{v:.1%} of conversations failed (above {t:.0%})"),
    ]
    return [text.format(v=value, t=threshold) for threshold, value, text in checks
            if threshold is not None and value > threshold]


def compute(records: Sequence[QueryRecord], waits: Sequence[Wait] = (), thresholds: Thresholds | None = None) -> Metrics:
    """The metrics of ``records`` (and the rate-limit ``waits``), with alerts against ``thresholds``."""
    n = len(records)
    latencies = [r.seconds for r in records if not r.batched]
    turnarounds = [r.seconds for r in records if r.batched]
    calls = sum(r.tool_calls - r.refused_calls for r in records)
    total = sum(r.cost for r in records)
    metrics = Metrics(
        queries=n,
        avg_rounds=sum(r.rounds for r in records) / n if n else 0.0,
        two_round_share=sum(r.rounds >= 2 for r in records) / n if n else 0.0,
        tool_calls=calls,
        tool_failure_rate=sum(r.tool_failures for r in records) / calls if calls else 0.0,
        p50_latency=statistics.median(latencies) if latencies else 0.0,
        p95_latency=percentile(latencies, 0.95),
        cost_per_query=total / n if n else 0.0,
        total_cost=total,
        rate_limit_waits=sum(not w.refused for w in waits),
        rate_limit_wait_seconds=sum(w.seconds for w in waits if not w.refused),
        refused_calls=sum(r.refused_calls for r in records),
        errors=sum(r.error is not None for r in records),
        stopped=dict(Counter(r.stopped_by for r in records if r.stopped_by)),
        batched=len(turnarounds),
        batch_p95_turnaround=percentile(turnarounds, 0.95),
    )
    metrics.alerts.extend(_alerts(metrics, thresholds or Thresholds()))
    return metrics


def plot_dashboard(
    records: Sequence[QueryRecord], metrics: Metrics, thresholds: Thresholds | None = None,
    *, figsize: tuple[float, float] = (12, 7),
) -> Figure:
    """Four panels: rounds per query, latency, tool failures per tool, cumulative cost; thresholds dashed."""
    import matplotlib.pyplot as plt

    limits = thresholds or Thresholds()
    fig, axes = plt.subplots(2, 2, figsize=figsize)
    (rounds_ax, latency_ax), (tools_ax, cost_ax) = axes
    counts = Counter(r.rounds for r in records)
    xs = list(range(0, max(counts, default=0) + 1))
    rounds_ax.bar(xs, [counts.get(x, 0) for x in xs], color="#4C72B0")
    rounds_ax.set(title=f"tool rounds per query (avg {metrics.avg_rounds:.2f})", xlabel="rounds", ylabel="queries")
    rounds_ax.set_xticks(xs)
    if limits.avg_rounds is not None:
        rounds_ax.axvline(limits.avg_rounds, color="red", linestyle="--", label=f"alert above avg {limits.avg_rounds:g}")
        rounds_ax.axvline(metrics.avg_rounds, color="black", label="average")
        rounds_ax.legend(fontsize=8)

    latency_ax.hist([r.seconds for r in records if not r.batched], bins=30, color="#55A868")
    latency_ax.axvline(metrics.p50_latency, color="black", label="p50")
    latency_ax.axvline(metrics.p95_latency, color="black", linestyle=":", label="p95")
    if limits.p95_latency is not None:
        latency_ax.axvline(limits.p95_latency, color="red", linestyle="--", label=f"alert above {limits.p95_latency:g} s")
    latency_ax.set(title="latency per query", xlabel="seconds", ylabel="queries")
    latency_ax.legend(fontsize=8)

    per_tool: dict[str, list[int]] = {}
    for r in records:
        for name, calls, failures in r.failures_by_tool:
            totals = per_tool.setdefault(name, [0, 0])
            totals[0] += calls
            totals[1] += failures
    names = sorted(per_tool)
    rates = [per_tool[n][1] / per_tool[n][0] if per_tool[n][0] else 0.0 for n in names]
    tools_ax.barh(names, [100 * r for r in rates], color="#C44E52")
    if limits.tool_failure_rate is not None:
        tools_ax.axvline(100 * limits.tool_failure_rate, color="red", linestyle="--",
                         label=f"alert above {limits.tool_failure_rate:.0%}")
        tools_ax.legend(fontsize=8)
    tools_ax.set(title=f"tool failure rate (all tools {metrics.tool_failure_rate:.1%})", xlabel="% of calls failed")

    running, cumulative = 0.0, []
    for r in records:
        running += r.cost
        cumulative.append(running)
    cost_ax.plot(range(1, len(cumulative) + 1), cumulative, color="#8172B2")
    # "\\$": a bare pair of dollar signs would start matplotlib's mathtext.
    cost_ax.set(title=f"cost: \\${metrics.total_cost:.4f} total, \\${metrics.cost_per_query:.6f} per query",
                xlabel="queries (in the order they finished)", ylabel="US dollars, cumulative")
    status = "; ".join(metrics.alerts) if metrics.alerts else "no alerts"
    fig.suptitle(f"{metrics.queries} queries, {metrics.rate_limit_waits} rate-limit waits, "
                 f"{metrics.refused_calls} refused calls: {status}", fontsize=10)
    fig.tight_layout()
    plt.close(fig)  # returned, not shown twice in a notebook
    return fig
