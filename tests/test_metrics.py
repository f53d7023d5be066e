"""Metrics on scripted runs: the production figures and the alerts at their thresholds."""

from __future__ import annotations

import pytest

import conductor as cd
from conductor import scenarios as sc
from conductor.metrics import QueryRecord, Thresholds, compute, percentile, plot_dashboard, record_of
from conductor.offline import LatencyModel, OfflineModel
from conductor.ratelimit import Wait


def query(rounds: int, seconds: float, calls: int = 1, failures: int = 0, cost: float = 0.001,
          error: str | None = None, batched: bool = False) -> QueryRecord:
    return QueryRecord(run_id="r", user="u", seconds=seconds, rounds=rounds, requests=rounds + 1, tool_calls=calls,
                       tool_failures=failures, refused_calls=0, failures_by_tool=(("t", calls, failures),),
                       cost=cost, tokens=100, stopped_by=None, error=error, batched=batched)


def test_figures_of_scripted_queries() -> None:
    records = [query(1, 1.0), query(2, 2.0, calls=2, failures=1), query(1, 3.0), query(2, 10.0, calls=3)]
    m = compute(records, [Wait("requests", 0.5, False), Wait("tool calls of u", 60, True)], Thresholds(min_queries=1))
    assert m.queries == 4 and m.avg_rounds == 1.5 and m.two_round_share == 0.5
    assert m.tool_calls == 7 and m.tool_failure_rate == pytest.approx(1 / 7)
    assert m.p50_latency == 2.5 and m.p95_latency == pytest.approx(3 + 7 * 0.85)
    assert m.total_cost == pytest.approx(0.004) and m.cost_per_query == pytest.approx(0.001)
    assert m.rate_limit_waits == 1 and m.rate_limit_wait_seconds == 0.5
    assert m.alerts == ["tool failure rate 14.3% is above 5%", "p95 latency 8.9s is above 4s"]


def test_alerts_fire_just_above_each_threshold() -> None:
    calm = [query(1, 1.0)] * 9 + [query(2, 1.0)] * 5  # avg 1.36 rounds
    busy = [query(2, 1.0)] * 11 + [query(1, 1.0)] * 9  # avg 1.55
    assert compute(calm).alerts == []
    assert compute(busy).alerts == ["average tool rounds per query 1.55 is above 1.5"]
    assert compute([query(1, 1.0, error="APIError")] + [query(1, 1.0)] * 9).alerts == [
        "10.0% of conversations failed (above 0%)"]


def test_a_batchs_turnaround_is_shown_apart_and_raises_no_latency_alert() -> None:
    direct = [query(1, 1.0)] * 10
    batched = [query(1, 3600.0 + i, batched=True) for i in range(20)]  # an hour in a provider's batch queue
    m = compute(direct + batched)
    assert m.queries == 30 and m.p95_latency == 1.0 and m.alerts == []
    assert m.batched == 20 and m.batch_p95_turnaround == pytest.approx(3600 + 19 * 0.95)
    assert "batched queries" in m.table() and "batch turnaround p95" in m.table()
    assert "batched" not in compute(direct).table()  # the rows appear only when a batch ran
    assert compute([query(1, 9.0)] * 10).alerts == ["p95 latency 9.0s is above 4s"]  # direct ones still alert


def test_no_alert_before_enough_queries() -> None:
    assert compute([query(2, 9.0, failures=1)] * 3).alerts == []


def test_percentile() -> None:
    assert percentile([], 0.95) == 0 and percentile([4.0], 0.95) == 4.0
    assert percentile(list(range(101)), 0.95) == 95


def test_record_of_a_real_run_counts_the_failed_call() -> None:
    llm = cd.connect("offline", offline_model=OfflineModel(latency=LatencyModel.instant()))
    result = llm.run("What's the weather in Beijing, Mars and Guangzhou today?", tools=[sc.get_weather])
    record = record_of(result, run_id="run-1", user="alice", seconds=0.1)
    assert (record.rounds, record.tool_calls, record.tool_failures) == (1, 3, 1)
    assert record.failures_by_tool == (("get_weather", 3, 1),)
    assert record.cost == result.cost > 0


def test_dashboard_has_four_panels_and_the_thresholds() -> None:
    records = [query(1, 1.0), query(2, 5.0, failures=1)] * 6
    m = compute(records)
    fig = plot_dashboard(records, m)
    assert len(fig.axes) == 4 and "ALERT" not in fig._suptitle.get_text()
    assert "tool failure rate" in fig._suptitle.get_text()
