"""`python -m conductor bench` with no argument: every benchmark reduced to one table of ratios and bars.

No timing is asserted here (a shared machine's timings drift): the tests check the table's
shape, that each figure is held to its bar, and that the benchmarks run and compare the same work.
"""

from __future__ import annotations

import asyncio
import re

import pytest

from conductor import bench
from conductor.course import programmatic, scale
from conductor.__main__ import build_parser
from conductor.course.scenarios import get_weather

BARS = ("batch cpu", "batch wall", "retry alone", "retry timeout")
# A bar's line: its label first, then what it measured, the ratio as N.NNx, the target, and yes or NO.
BAR_LINE = re.compile(r"^(batch cpu|batch wall|retry alone|retry timeout): .+?\s(\d+\.\d\d)x\s+(<=|<) \d\.\d\dx\s+(yes|NO)$")


def _fake_benchmarks(monkeypatch, *, loop=1.05, cpu=1.2, wall=1.05, retry=1.02, timeout=1.08, accuracy=0.9,
                     unstated=0, tracing=1.04, scaled=0.25, program=0.3):
    monkeypatch.setattr(bench, "bench_loops", lambda n: [bench.LoopBench(n, 1.0, loop, api) for api in bench.OFFLINE_APIS])
    monkeypatch.setattr(bench, "bench_parallel", lambda **k: [bench.ParallelRow(8, 0.1, 0.8, 0.104)])
    monkeypatch.setattr(bench, "bench_batch_cpu", lambda n, c, **k: bench.BatchCpu(n, c, 5, 2.0, 2.0 * cpu))
    monkeypatch.setattr(bench, "bench_batch_wall",
                        lambda n, c, **k: bench.BatchWall(n, c, 0.5, 0.5, 0, 10.0, 9.5, 10.0 * wall))
    monkeypatch.setattr(bench, "bench_retry",
                        lambda n, **k: bench.RetryBench(n, 1.0, retry, timeout, 10.0, 12.0, 40.0))

    class Score:
        def __init__(self) -> None:
            self.accuracy, self.unstated_calls = accuracy, unstated

    monkeypatch.setattr(bench, "bench_offline", lambda: [Score(), Score()])
    monkeypatch.setattr(bench, "bench_tracing", lambda n: bench.TracingBench(n, 1.0, tracing, 6))

    def row(name, cost, answer="Sydney: 25°C"):
        return scale.ScaleRow(name, 100, 0, 0, cost, 5, 0.0, answer, True)

    # At 62 tools the floor is 0.2x: a best strategy at `scaled` gets (1 - scaled) / 0.8 of the possible saving.
    monkeypatch.setattr(scale, "bench", lambda: [
        scale.ApiScale(api, size, (row("naive", 1.0), row("client search", scaled), row("floor", 0.2)))
        for size in scale.SIZES for api in bench.OFFLINE_APIS])
    def comparison(api: str) -> programmatic.Comparison:
        way = programmatic.Way  # the loop reads 1,000 input tokens, the program ``program`` of them
        loop = way("loop", 2, 1000, 0.1, 0.01, "Rome is warmest", "Rome is warmest.")
        program_way = way("program", 2, round(1000 * program), 0.1, 0.004, "Rome is warmest", "Rome is warmest.")
        return programmatic.Comparison(api, loop, program_way, "large")

    monkeypatch.setattr(programmatic, "bench_programmatic",
                        lambda tasks: [comparison(api) for api in ("responses", "messages")])
    monkeypatch.setattr(bench, "_import_seconds", lambda statement: 0.1 if "conductor" in statement else 0.5)


def test_every_figure_is_held_to_its_bar(monkeypatch, capsys):
    _fake_benchmarks(monkeypatch)
    rows = bench.bench_summary()
    assert [r.ok for r in rows] == [True] * 16
    assert [r.measure.split(":")[0] for r in rows] == [
        "loop (responses)", "loop (chat)", "loop (messages)", "parallel", *BARS, "tracing (chat)",
        "scale (responses)", "scale (chat)", "scale (messages)", "programmatic (responses)", "programmatic (messages)",
        "import conductor / import openai (SDKs load lazily)", "offline model",
    ]
    assert [r.shown for r in rows][12:14] == ["0.30x", "0.30x"]
    assert [r.shown for r in rows][4:12] == ["1.20x", "1.05x", "1.02x", "1.08x", "1.04x", *["94%; 0.25x"] * 3]
    bench.print_summary(rows)
    out = capsys.readouterr().out
    assert "NO" not in out and out.count("yes") == 16


def test_a_missed_bar_shows(monkeypatch, capsys):
    _fake_benchmarks(monkeypatch, cpu=1.3, timeout=1.12, unstated=1, tracing=1.11, scaled=0.31, program=0.51)
    rows = bench.bench_summary()
    assert [r.ok for r in rows] == [True, True, True, True, False, True, True, False, False, False, False, False,
                                    False, False, True, False]
    bench.print_summary(rows)
    assert capsys.readouterr().out.count(" NO") == 9


def test_the_bars_are_bounded_as_the_issue_says(monkeypatch):
    # At the bar itself: batch cpu, batch wall and retry timeout pass (<=), retry alone does not (<).
    _fake_benchmarks(monkeypatch, cpu=1.25, wall=1.10, retry=1.05, timeout=1.10)
    assert [r.ok for r in bench.bench_summary()][4:8] == [True, True, False, True]


def test_the_four_bars_print_label_first_and_the_ratio_as_n_nn_x(capsys):
    """The real benchmarks at a tiny scale (20 conversations, a 10 ms median latency): the table's shape only."""
    rows = bench.bench_bars(0.02, latency=0.01)
    bench.print_summary(rows)
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith(BARS)]
    assert [BAR_LINE.match(line).group(1) for line in lines] == list(BARS), lines
    for row, line in zip(rows, lines):
        assert BAR_LINE.match(line).group(2) == f"{row.value:.2f}" and row.value > 0


def test_bench_without_an_argument_means_the_summary():
    assert build_parser().parse_args(["bench"]).which is None
    assert build_parser().parse_args(["bench", "loop"]).which == "loop"


# -- the pieces of the batch benchmarks ----------------------------------------------------------


def test_the_canned_model_calls_the_tool_then_answers_for_both_loops():
    client = bench.CannedModel().client()
    questions = bench.canned_questions(6)
    answers = asyncio.run(bench.hand_written_batch(client, questions, [get_weather], concurrency=3))
    in_thread = asyncio.run(bench.hand_written_batch(client, questions, [get_weather], concurrency=3, in_thread=True))
    assert in_thread == answers  # the reference loop with its tool in to_thread does the same work
    orch = bench.batch_orchestrator(client)
    results = asyncio.run(orch.run_many(questions, concurrency=3, progress=False))
    assert answers == [bench.CANNED_ANSWER] * 6
    assert [(r.answer, r.api_calls, len(r.tool_calls)) for r in results] == [(bench.CANNED_ANSWER, 2, 1)] * 6
    assert all('"city":"北京"' in r.tool_calls[0].output.replace(" ", "") for r in results)
    bench._check_batch(results, answers)  # the benchmark's own check passes


def test_the_ablation_changes_one_part_at_a_time_on_the_same_requests(capsys):
    # The bar's tool and the default one differ only in where they run: the requests are the same.
    assert bench.IN_LINE_WEATHER.openai_schema() == get_weather.openai_schema()
    assert not bench.IN_LINE_WEATHER.sync_to_thread and get_weather.sync_to_thread
    rows = bench.ablate_batch(conversations=20, concurrency=5, repeats=1)
    assert [r.label for r in rows][0].startswith("defaults") and len(rows) == 5
    assert all(r.ratio > 0 for r in rows)
    bench.print_ablation(rows)
    out = capsys.readouterr().out
    assert "no deadline" in out and "worker threads" in out and "keep_raw=True" in out


def test_the_check_refuses_a_batch_that_did_other_work():
    client = bench.CannedModel().client()
    results = asyncio.run(bench.batch_orchestrator(client).run_many(bench.canned_questions(2), concurrency=2,
                                                                    progress=False))
    with pytest.raises(RuntimeError, match="other work"):
        bench._check_batch(results, ["something else"])


def test_the_ideal_fills_the_slots_in_input_order():
    assert bench.ideal_makespan([1.0, 1.0, 1.0, 1.0], slots=2) == 2.0
    assert bench.ideal_makespan([3.0, 1.0, 1.0, 1.0], slots=2) == 3.0  # 1 + 1 + 1 on the second slot
    assert bench.ideal_makespan([1.0, 1.0, 3.0], slots=2) == 4.0  # the 3 s one starts when a slot frees at 1 s
    assert bench.ideal_makespan([0.5] * 10, slots=100) == 0.5


def test_latencies_are_seeded_lognormal_around_their_median():
    latencies = bench.lognormal_latencies(2000, median=0.5, sigma=0.5, seed=0)
    assert latencies == bench.lognormal_latencies(2000, median=0.5, sigma=0.5, seed=0)
    values = sorted(x for pair in latencies for x in pair)
    assert 0.45 < values[len(values) // 2] < 0.55 and min(values) > 0


def test_the_latency_transport_waits_each_conversations_own_latency():
    latencies = bench.lognormal_latencies(8, median=0.01, sigma=0.5, seed=1)
    seen: list[tuple[int, float]] = []

    class Watched(bench.CannedModel):
        async def _after_latency(self, request):
            index = int(bench._CONVERSATION.search(request.content).group(1))
            seen.append((index, self.latencies[index][b'"tool_call_id"' in request.content]))
            return await super()._after_latency(request)

    client = Watched(latencies).client()
    results = asyncio.run(bench.batch_orchestrator(client).run_many(bench.canned_questions(8), concurrency=4,
                                                                    progress=False))
    bench._check_batch(results)
    assert sorted(seen) == sorted((i, x) for i, pair in enumerate(latencies) for x in pair)
    wall = bench.bench_batch_wall(8, 4, median=0.01, sigma=0.5, seed=1, hand_written=True)
    assert wall.ideal_s >= wall.mean_load_s > 0 and wall.wall_s > 0 and wall.hand_wall_s > 0


def test_bench_batch_prints_both_bars_and_the_profile(capsys):
    from conductor.__main__ import main

    assert main(["bench", "batch", "--conversations", "12", "--concurrency", "4", "--model-latency", "0.005",
                 "--profile"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"batch cpu: \d+\.\d\dx", out) and re.search(r"batch wall: \d+\.\d\dx", out)
    assert "hand-written asyncio loop" in out and "in the SDK's create" in out
    assert re.search(r"both with the tool off the event loop .*: \d+\.\d\dx", out)
    kept = re.search(r"(\d+\.\d) KB \(keep_raw=False, the default\), (\d+\.\d) KB with", out)
    assert kept and float(kept.group(1)) < float(kept.group(2))  # the SDK's objects are what keep_raw leaves out


def test_bench_exits_1_when_a_bar_is_missed(monkeypatch, capsys):
    from conductor.__main__ import main

    _fake_benchmarks(monkeypatch)
    assert main(["bench"]) == 0
    _fake_benchmarks(monkeypatch, scaled=0.31)  # the 300-tool catalogue at 0.31x the naive loop: over 0.30x
    assert main(["bench"]) == 1
    out = capsys.readouterr().out
    assert [line.split(":")[0] for line in out.splitlines() if line.endswith(" NO")] == ["scale (responses)",
                                                                                         "scale (chat)",
                                                                                         "scale (messages)"]

