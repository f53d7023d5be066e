"""The short soak `make test` runs: 500 seeded random conversations with faults; every promise must hold."""

from __future__ import annotations

import pytest

from conductor import soak
from conductor.__main__ import main
from conductor.types import ToolResult, Turn, ToolCall


def test_a_short_soak_keeps_every_promise():
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
