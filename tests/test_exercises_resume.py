"""Lesson 05 exercise 4: a batched run collected after a restart, without sending a round again.

The check submits four questions on its own offline model, calls the learner's
``resume(handle_id, state_dir, llm, tools, questions)`` as a new process would, and
counts the batches the provider was asked to create.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import conductor as cd
from conductor.course.exercises import lesson05, verify
from conductor.course.exercises.report import run_stub

FIX = "orch.collect(handle_id, state_dir=state_dir)"


def test_the_reference_collects_the_run_that_is_there() -> None:
    outcome = lesson05.q4.evaluate(lesson05.q4.reference())
    assert outcome.status == "correct", outcome.message
    assert "3 batches in all (round 1 before the restart, the other 2 after it)" in outcome.message
    assert "4 answers in the order of the questions" in outcome.message and "at the batch rate" in outcome.message


def test_the_stub_runs_and_is_not_attempted() -> None:
    printed = run_stub(lesson05, lesson05.q4)
    assert printed.startswith("Not attempted yet: replace each ____ in `resume`"), printed


@pytest.mark.parametrize(
    ("mistake", "says"),
    [
        ("_submits_again", "asked for 4 batches where 3 carry the run: round 1, sent before the restart, was sent"),
        ("_batches_again", "asked for 4 batches where 3 carry the run"),
        ("_runs_many_again", "sent 8 direct requests at the full price"),
        ("_returns_the_new_handle", "resume returned a BatchHandle: that is what submit gives"),
        ("_forgets_state_dir", "without state_dir= it looks in .conductor/batches"),
    ],
)
def test_sending_again_instead_of_collecting_is_caught_with_the_fix(mistake: str, says: str) -> None:
    outcome = lesson05.q4.evaluate(getattr(lesson05, mistake)())
    assert outcome.status == "incorrect"
    assert says in outcome.message
    assert FIX in outcome.message


def test_results_out_of_order_are_caught() -> None:
    def resume(handle_id, state_dir, llm, tools, questions):  # type: ignore[no-untyped-def]
        results = cd.Orchestrator(llm, tools=tools).collect(handle_id, state_dir=state_dir, progress=False)
        return list(reversed(results))

    outcome = lesson05.q4.evaluate((resume,))
    assert outcome.status == "incorrect"
    assert outcome.message.startswith("result 0 answers") and "in the order of the questions" in outcome.message


def test_an_async_resume_is_awaited() -> None:
    async def resume(handle_id, state_dir, llm, tools, questions):  # type: ignore[no-untyped-def]
        return await cd.Orchestrator(llm, tools=tools).acollect(handle_id, state_dir=state_dir, progress=False)

    outcome = lesson05.q4.evaluate((resume,))
    assert outcome.status == "correct", outcome.message


def test_the_check_works_inside_a_running_event_loop() -> None:
    """In Jupyter the check runs while the kernel's loop runs: the learner's sync collect still works."""

    async def in_the_notebook() -> Any:
        return lesson05.q4.evaluate(lesson05.q4.reference())

    outcome = asyncio.run(in_the_notebook())
    assert outcome.status == "correct", outcome.message


def test_an_exception_in_resume_is_explained_not_raised() -> None:
    def resume(handle_id, state_dir, llm, tools, questions):  # type: ignore[no-untyped-def]
        return cd.Orchestrator(llm, tools=tools[:1]).collect(handle_id, state_dir=state_dir, progress=False)

    outcome = lesson05.q4.evaluate((resume,))
    assert outcome.status == "incorrect" and "same tools" in outcome.message


def test_the_command_line_tries_and_catches_every_mistake() -> None:
    row = next(r for r in verify("lesson05") if r.exercise.label == "q4")
    assert {wrong.label for wrong, _ in row.wrong} >= {
        "submits the questions again",
        "runs the questions again with run_many",
        "a new batched run with run_many(via='batch')",
    }
    assert row.stub_ok and row.reference_ok and not row.escaped and row.ok, row.escaped
