"""The short soak `make test` runs: 500 seeded random conversations with faults, some of them through the
providers' Batch APIs; every promise must hold, and the checks catch a promise broken on purpose."""

from __future__ import annotations

import asyncio
import dataclasses
from collections import Counter

import pytest

import conductor as cd
from conductor import scenarios as sc
from conductor import soak
from conductor.offline import LatencyModel, OfflineModel
from conductor.__main__ import main
from conductor.types import ToolResult, Turn, ToolCall


@pytest.mark.slow  # volume: make slow and CI run it; make test runs the 50-conversation soak below
def test_a_500_conversation_soak_keeps_every_promise():
    report = soak.soak(500, seed=7, workers=2)
    assert report.tally.conversations == 500
    assert report.tally.completed + report.tally.reported + report.tally.crashes == 500
    assert report.ok, report.table()
    assert report.tally.completed > 250  # faults are the exception, not the rule
    assert len(report.tally.faults) >= 10  # most fault kinds met in 500 conversations
    assert set(report.tally.scenarios) == set(soak.scenario_names())


def test_the_same_seed_plans_the_same_conversations():
    assert [soak.plan(i, 3) for i in range(50)] == [soak.plan(i, 3) for i in range(50)]
    assert [soak.plan(i, 3) for i in range(50)] != [soak.plan(i, 4) for i in range(50)]


def test_the_call_id_check_finds_unanswered_doubled_and_orphan_results():
    calls = (ToolCall("a", "t", "{}"), ToolCall("b", "t", "{}"), ToolCall("b", "t", "{}"))
    conversation = [Turn(tool_calls=calls), ToolResult("a", "t", "1"), ToolResult("a", "t", "1"), ToolResult("z", "t", "")]
    tally = soak.Tally()
    soak.check_call_ids(conversation, tally)
    assert tally.unanswered_call_ids == 1  # b
    assert tally.doubly_answered_call_ids == 2  # a answered twice, b issued twice
    assert tally.results_without_call == 1  # z
    assert not tally.ok


def test_the_command_exits_1_when_a_promise_breaks(monkeypatch, capsys):
    broken = soak.Tally(conversations=1, crashes=1)
    monkeypatch.setattr(soak, "soak", lambda *a, **k: soak.SoakReport(broken, 0.1, 0, 1))
    assert main(["soak", "--conversations", "1", "--quiet"]) == 1
    assert "FAILED" in capsys.readouterr().out


@pytest.mark.parametrize("arguments", [["--conversations", "0"], ["--workers", "0"]])
def test_the_command_refuses_nonsense(arguments, capsys):
    assert main(["soak", "--quiet", *arguments]) == 2
    assert "at least 1" in capsys.readouterr().err


# -- the batched runs: orch.run_many(via="batch"), orch.submit + orch.collect ------------------------------

BATCH_COUNTERS = ("lost_conversations", "failed_lines_without_error", "tools_run_for_failed_lines",
                  "unrecorded_tool_runs", "rounds_resent")
CHAIN = "北京今天天气怎么样?应该穿什么衣服?"  # two tool rounds: the weather, then clothes for it


def test_a_small_soak_with_batches_keeps_every_promise():
    report = soak.soak(50, seed=0, workers=1)
    tally = report.tally
    assert set(BATCH_COUNTERS) <= set(soak.Tally.MUST_BE_ZERO)
    assert {name: getattr(tally, name) for name in soak.Tally.MUST_BE_ZERO} == dict.fromkeys(
        soak.Tally.MUST_BE_ZERO, 0), report.table()
    assert report.ok
    assert tally.conversations == 50 and tally.completed + tally.reported == 50
    batch = tally.batch
    assert batch["conversations"] == soak.batch_share(50) > 0
    assert all(batch[f"conversations {api}"] > 0 for api in soak.APIS)  # each of the three APIs
    assert batch["collected"] >= 1  # submitted, then collected by a new Orchestrator
    assert batch["expired"] > 0 and batch["failed"] > 0
    assert "batched: 3 runs" in report.table() and "rounds resent" in report.table()


@pytest.mark.parametrize("api_index", [0, 1, 2], ids=soak.APIS)
def test_a_batch_id_lost_in_a_crash_is_found_and_the_round_not_sent_again(api_index):
    plan = dataclasses.replace(soak.batch_plan(api_index, 0, size=6), restart="lost id", budget_tokens=None)
    assert plan.api == soak.APIS[api_index]
    tally = soak._BatchWorker(0).run(plan)
    assert tally.ok and tally.rounds_resent == 0, tally
    assert tally.batch["recovered"] == 1 and tally.completed == 6


def test_the_batch_plans_take_their_share_on_every_api_and_submit_some():
    plans = soak.batch_plans(10_000, 0)
    assert sum(len(p.questions) for p in plans) == soak.batch_share(10_000) == 1500
    assert plans[0].first == 10_000 - 1500 and plans[-1].first + len(plans[-1].questions) == 10_000
    assert {p.api for p in plans} == set(soak.APIS)
    assert {p.restart for p in plans} == {None, "collect", "lost id"}
    assert soak.batch_plans(1, 0) == [] and soak.batch_plans(50, 0) == soak.batch_plans(50, 0)


@pytest.fixture(scope="module")
def batched_run(tmp_path_factory):
    """A real batched run on the offline model: conversation 1's first line expires, conversation 2's second fails."""
    offline = OfflineModel(latency=LatencyModel.instant(), batch_faults={"expire": {"c0001-r1"}, "fail": {"c0002-r2"}})
    llm = cd.connect("offline", api="responses", offline_model=offline)
    orch = cd.Orchestrator(llm, tools=sc.weather_tools(), rate_limit=None)
    questions = [CHAIN, CHAIN, CHAIN, "Hello!"]
    results = asyncio.run(orch.run_many(questions, via="batch", state_dir=tmp_path_factory.mktemp("batches"),
                                        progress=False))
    failures = {index: error.reason for index, _, error in orch.failures}
    return questions, results, soak.served_lines(offline), failures


def _check(batched_run, *, questions=None, results=None, lines=None, failures=None) -> soak.Tally:
    tally = soak.Tally()
    real_questions, real_results, real_lines, real_failures = batched_run
    soak.check_batch(real_questions if questions is None else questions,
                     real_results if results is None else results,
                     real_lines if lines is None else lines,
                     real_failures if failures is None else failures, tally, max_rounds=2)
    return tally


def _broken(tally: soak.Tally) -> dict[str, int]:
    return {name: getattr(tally, name) for name in soak.Tally.MUST_BE_ZERO if getattr(tally, name)}


def test_the_batch_check_passes_a_real_run(batched_run):
    _, results, lines, failures = batched_run
    assert [r.stopped_by for r in results] == [None, "error", "error", None]
    assert sorted(failures) == [1, 2]
    tally = _check(batched_run)
    assert _broken(tally) == {} and tally.ok
    assert (tally.batch["expired"], tally.batch["failed"], tally.batch["ended on error"]) == (1, 1, 2)
    assert {line.custom_id for line in lines if not line.answered} == {"c0001-r1", "c0002-r2"}


def test_the_batch_check_catches_a_doubly_answered_call(batched_run):
    results = list(batched_run[1])
    answer = next(m for m in results[0].conversation if isinstance(m, ToolResult))
    results[0] = dataclasses.replace(results[0], conversation=(*results[0].conversation, answer))
    assert _broken(_check(batched_run, results=results)) == {"doubly_answered_call_ids": 1}


def test_the_batch_check_catches_lost_and_reordered_conversations(batched_run):
    results = batched_run[1]
    assert _broken(_check(batched_run, results=results[:-1])) == {"lost_conversations": 1}
    swapped = [results[0], results[3], results[2], results[1]]
    assert _check(batched_run, results=swapped).lost_conversations == 2


def test_the_batch_check_catches_a_failed_line_whose_conversation_went_on(batched_run):
    results = list(batched_run[1])
    results[2] = dataclasses.replace(results[2], stopped_by=None)
    assert _broken(_check(batched_run, results=results)) == {"failed_lines_without_error": 1}
    assert _broken(_check(batched_run, failures={1: "expired"})) == {"failed_lines_without_error": 1}  # no reason


def test_the_batch_check_catches_tools_run_for_a_failed_line(batched_run):
    # Conversation 0 answered its weather call in round 1; had that line failed, no tool should have run.
    lines = [dataclasses.replace(line, fault="fail") if line.custom_id == "c0000-r1" else line
             for line in batched_run[2]]
    failures = {**batched_run[3], 0: "HTTP 500"}
    tally = _check(batched_run, lines=lines, failures=failures)
    assert tally.tools_run_for_failed_lines == len(batched_run[1][0].tool_calls) > 0
    assert tally.failed_lines_without_error == 1  # and it did not end on "error" either


def test_the_batch_check_catches_a_round_sent_twice_and_an_error_on_an_answered_line(batched_run):
    lines = batched_run[2]
    again = [dataclasses.replace(line, batch_id="batch_sent_again") for line in lines if line.round == 1]
    assert _broken(_check(batched_run, lines=[*again, *lines])) == {"rounds_resent": 1}
    results = list(batched_run[1])
    results[3] = dataclasses.replace(results[3], stopped_by="error")
    tally = _check(batched_run, results=results)
    assert _broken(tally) == {"crashes": 1} and tally.crash_examples[0].startswith("#3 batched: ended on error")


def test_the_tool_run_check_catches_a_run_no_result_records(batched_run):
    results = batched_run[1]
    tools = sc.weather_tools()
    ran = Counter()
    for result in results:
        for record in result.tool_calls:
            ran[soak._argument_key(record.name, record.arguments)] += 1
    tally = soak.Tally()
    soak.check_tool_runs(ran, results, tools, tally)
    assert tally.unrecorded_tool_runs == 0
    ran[soak._argument_key("get_weather", {"city": "Beijing"})] += 1  # ran for an answer that was dropped
    soak.check_tool_runs(ran, results, tools, tally)
    assert _broken(tally) == {"unrecorded_tool_runs": 1}
