"""`python -m conductor bench` with no argument: every benchmark reduced to one table of ratios and bars."""

from __future__ import annotations

from conductor import bench
from conductor.__main__ import build_parser


def _fake_benchmarks(monkeypatch, *, loop=1.05, batch_wall=6.0, retry=1.02, accuracy=0.9, unstated=0):
    monkeypatch.setattr(bench, "bench_loops", lambda n: [bench.LoopBench(n, 1.0, loop, api) for api in bench.OFFLINE_APIS])
    monkeypatch.setattr(bench, "bench_parallel", lambda **k: [bench.ParallelRow(8, 0.1, 0.8, 0.104)])
    monkeypatch.setattr(
        bench, "bench_batch", lambda n, **k: [bench.BatchRow(100, n, 10_000, 0.05, batch_wall, 0, batch_wall)]
    )
    monkeypatch.setattr(bench, "bench_retry", lambda n: bench.RetryBench(n, 1.0, retry, 3, 10.0, 50.0))

    class Score:
        def __init__(self) -> None:
            self.accuracy, self.unstated_calls = accuracy, unstated

    monkeypatch.setattr(bench, "bench_offline", lambda: [Score(), Score()])
    monkeypatch.setattr(bench, "_import_seconds", lambda statement: 0.1 if "conductor" in statement else 0.5)
    monkeypatch.setattr(bench, "sdk_floor_ms", lambda: 0.9)


def test_every_figure_is_held_to_its_bar(monkeypatch, capsys):
    _fake_benchmarks(monkeypatch)
    rows = bench.bench_summary()
    assert [r.ok for r in rows] == [True] * 8
    assert [r.measure.split(":")[0] for r in rows][:3] == ["loop (responses)", "loop (chat)", "loop (messages)"]
    # batch: 6 s against 10,000 x 0.05 / 100; the SDK alone, 0.9 ms a request, allows 1.8x at best
    assert [r.shown for r in rows][2:5] == ["1.05x", "1.04x", "1.20x (SDK alone: 1.80x)"]
    bench.print_summary(rows)
    out = capsys.readouterr().out
    assert "NO" not in out and out.count("yes") == 8


def test_a_missed_bar_shows(monkeypatch, capsys):
    _fake_benchmarks(monkeypatch, batch_wall=9.0, unstated=1)
    rows = bench.bench_summary()
    assert [r.ok for r in rows] == [True, True, True, True, False, True, True, False]
    bench.print_summary(rows)
    assert capsys.readouterr().out.count(" NO") == 2


def test_bench_without_an_argument_means_the_summary():
    assert build_parser().parse_args(["bench"]).which is None
    assert build_parser().parse_args(["bench", "loop"]).which == "loop"
