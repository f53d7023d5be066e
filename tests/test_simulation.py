"""The contention simulation: seeded, sane, and AWS's result (no jitter is far worse)."""

from __future__ import annotations

import pytest
from matplotlib.figure import Figure

from conductor.course.simulation import (
    STRATEGIES,
    Contention,
    StrategyResult,
    chart,
    compare,
    format_table,
    simulate,
    simulation_table,
    sweep,
)


@pytest.fixture(scope="module")
def occ() -> dict[str, StrategyResult]:
    return {r.strategy: r for r in compare(Contention(clients=50), trials=6)}


@pytest.fixture(scope="module")
def limited() -> dict[str, StrategyResult]:
    return {r.strategy: r for r in compare(Contention(clients=50, server="rate_limit"), trials=6)}


def test_the_same_seed_gives_the_same_run() -> None:
    setup = Contention(clients=10)
    assert simulate("full", setup, seed=3) == simulate("full", setup, seed=3)
    assert simulate("full", setup, seed=3) != simulate("full", setup, seed=4)


def test_one_client_succeeds_at_once() -> None:
    for strategy in STRATEGIES:
        trial = simulate(strategy, Contention(clients=1), seed=0)
        assert trial.calls == 1 and 0 < trial.time < 0.1  # read, write, answer: about 4 hops of 10 ms


@pytest.mark.parametrize("server", ["occ", "rate_limit"])
def test_every_client_gets_through_and_each_call_counts(server: str) -> None:
    for strategy in STRATEGIES:
        trial = simulate(strategy, Contention(clients=20, server=server), seed=1)  # type: ignore[arg-type]
        assert trial.calls >= 20  # at least one successful call per client


def test_a_server_that_takes_everyone_needs_one_call_each() -> None:
    trial = simulate("none", Contention(clients=20, server="rate_limit", capacity=100), seed=0)
    assert trial.calls == 20


@pytest.mark.parametrize("fixture", ["occ", "limited"])
def test_no_jitter_costs_far_more_calls_and_time_than_any_jitter(
    fixture: str, request: pytest.FixtureRequest
) -> None:
    results: dict[str, StrategyResult] = request.getfixturevalue(fixture)
    plain = results["none"]
    for jitter in ("full", "equal", "decorrelated"):
        assert plain.calls > 1.2 * results[jitter].calls, (jitter, plain.calls, results[jitter].calls)
        assert plain.time > 3 * results[jitter].time, (jitter, plain.time, results[jitter].time)


@pytest.mark.parametrize("fixture", ["occ", "limited"])
def test_no_backoff_is_quick_but_makes_the_most_calls(fixture: str, request: pytest.FixtureRequest) -> None:
    results: dict[str, StrategyResult] = request.getfixturevalue(fixture)
    eager = results["no backoff"]
    assert eager.calls == max(r.calls for r in results.values())
    assert eager.time == min(r.time for r in results.values())


def test_results_report_work_per_client(occ: dict[str, StrategyResult]) -> None:
    full = occ["full"]
    assert full.clients == 50 and full.trials == 6
    assert full.calls_per_client == pytest.approx(full.calls / 50)


def test_sweep_covers_each_client_count_and_more_clients_cost_more_calls() -> None:
    results = sweep((5, 15), strategies=("full",), trials=4)
    assert [r.clients for r in results] == [5, 15]
    assert results[1].calls > results[0].calls


def test_table_names_every_strategy_with_bare_numbers() -> None:
    text = simulation_table(10, trials=2)
    assert text.splitlines()[0].startswith("10 clients contending")
    for label in ("exponential, no jitter", "full jitter", "equal jitter", "decorrelated jitter", "no backoff"):
        assert label in text
    assert "time (ms)" in text and " ms " not in text.splitlines()[-1]
    assert format_table(compare(Contention(clients=3), ("full",), trials=1)).count("\n") == 2


def test_chart_draws_bars_for_one_setup_and_lines_for_a_sweep() -> None:
    bars = chart(compare(Contention(clients=5), trials=1))
    lines = chart(sweep((5, 10), strategies=("full", "none"), trials=1))
    assert isinstance(bars, Figure) and len(bars.axes) == 2 and len(bars.axes[0].patches) == len(STRATEGIES)
    assert len(lines.axes[0].lines) == 2 and lines.axes[0].get_legend() is not None


@pytest.mark.parametrize(
    ("make", "fix"),
    [
        (lambda: Contention(clients=0), "clients must be"),
        (lambda: Contention(server="queue"), "choose 'occ' or 'rate_limit'"),  # type: ignore[arg-type]
        (lambda: Contention(server="rate_limit", capacity=0), "capacity >= 1"),
        (lambda: simulate("linear"), "choose one of"),  # type: ignore[arg-type]
        (lambda: compare(trials=0), "trials must be"),
    ],
)
def test_bad_set_ups_name_the_fix(make, fix: str) -> None:
    with pytest.raises(ValueError, match=fix):
        make()
