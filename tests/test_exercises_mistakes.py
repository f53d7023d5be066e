"""The exercises catch the mistakes their lessons teach, with a message that names the fix.

Lesson 01 exercise 2: a hand-written loop must mark a raising tool's result with ``"is_error": true``.
Lesson 05 exercise 2: the off-by-one ``len(recent) <= limit`` lets limit + 1 calls into a window.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from conductor.course.exercises import lesson01, lesson05, verify
from conductor.course.exercises.core import offline_llm

# -- lesson 01, exercise 2: a raising tool's result is marked as an error ---------------------------------


def test_round_loop_reference_passes_and_says_the_failed_call_went_back_as_an_error() -> None:
    outcome = lesson01.q2.evaluate(lesson01.q2.reference())
    assert outcome.status == "correct", outcome.message
    assert 'when get_weather(city="Atlantis") raised, its result went back with "is_error": true' in outcome.message


def test_the_check_runs_a_tool_that_raises() -> None:
    """The failing question really makes get_weather raise, and the reference marks that result."""
    llm = offline_llm("messages")
    tools = [lesson01.get_weather, lesson01.suggest_clothing]
    lesson01.run_rounds(llm.client, llm.model, lesson01.FAILING_QUESTION, tools, lesson01.FAILING_ROUNDS)
    results = [
        block
        for message in llm.offline.requests[-1].body["messages"]
        if message["role"] == "user" and isinstance(message["content"], list)
        for block in message["content"]
    ]
    errors = [block for block in results if block.get("is_error")]
    assert len(errors) == 1 and errors[0]["content"].startswith("ValueError: unknown city 'Atlantis'")
    with pytest.raises(ValueError, match="unknown city"):
        lesson01.get_weather(city="Atlantis")


def test_round_loop_without_is_error_fails_with_the_fix() -> None:
    outcome = lesson01.q2.evaluate(lesson01._error_not_flagged())
    assert outcome.status == "incorrect"
    assert 'get_weather(city="Atlantis") raised ValueError, but its tool_result went back without "is_error": true' in (
        outcome.message
    )
    assert 'Mark the tool_result of a call whose tool raised with "is_error": true' in outcome.message
    assert "does not know the call failed" in outcome.message


def test_round_loop_whose_tool_exception_escapes_fails_with_the_fix() -> None:
    outcome = lesson01.q2.evaluate(lesson01._exception_escapes())
    assert outcome.status == "incorrect"
    assert "get_weather raised ValueError: unknown city 'Atlantis'" in outcome.message
    assert "(in <listcomp>, line" in outcome.message or "(in run_rounds, line" in outcome.message
    assert "Catch a tool's exception" in outcome.message and '"is_error": true' in outcome.message


def _flag_every_result() -> Any:
    """The reference loop, except that every tool_result says "is_error": true."""

    def run_rounds(client, model_name, user_query, tools, max_rounds):  # type: ignore[no-untyped-def]
        by_name = {t.name: t for t in tools}
        schemas = [t.anthropic_schema() for t in tools]
        messages: list[dict[str, Any]] = [{"role": "user", "content": user_query}]
        rounds = 0
        while True:
            choice = {"type": "auto"} if rounds < max_rounds else {"type": "none"}
            response = client.messages.create(
                model=model_name, max_tokens=1024, messages=messages, tools=schemas, tool_choice=choice
            )
            calls = [b for b in response.content if b.type == "tool_use"]
            if not calls or rounds == max_rounds:
                return "".join(b.text for b in response.content if b.type == "text")
            messages.append({"role": "assistant", "content": [
                {"type": "tool_use", "id": b.id, "name": b.name, "input": b.input} for b in calls
            ]})
            results = []
            for call in calls:
                try:
                    content = json.dumps(by_name[call.name](**call.input), ensure_ascii=False)
                except Exception as error:
                    content = str(error)
                results.append({"type": "tool_result", "tool_use_id": call.id, "content": content, "is_error": True})
            messages.append({"role": "user", "content": results})
            rounds += 1

    return run_rounds


def test_round_loop_that_flags_every_result_is_told_to_flag_only_failures() -> None:
    outcome = lesson01.q2.evaluate((_flag_every_result(),))
    assert outcome.status == "incorrect"
    assert 'returned normally, but its tool_result says "is_error": true; set it only when the tool raised' in (
        outcome.message
    )


# -- lesson 05, exercise 2: the off-by-one at exactly the limit -------------------------------------------


def test_sliding_window_reference_passes() -> None:
    outcome = lesson05.q2.evaluate(lesson05.q2.reference())
    assert outcome.status == "correct", outcome.message


def test_off_by_one_window_is_named_as_such() -> None:
    outcome = lesson05.q2.evaluate(lesson05._off_by_one())
    assert outcome.status == "incorrect"
    assert outcome.message.startswith("allow([0, 1, 2], 3, limit=3) is True, with 3 calls already in the last 60")
    assert "an off-by-one that allows limit + 1 calls in a window (4 here)" in outcome.message
    assert "use `len(recent) < limit`, not `<=`" in outcome.message


@pytest.mark.parametrize("mistake", ["_fixed_window", "_never_forgets", "_keeps_the_boundary"])
def test_other_window_mistakes_are_not_called_an_off_by_one(mistake: str) -> None:
    outcome = lesson05.q2.evaluate(getattr(lesson05, mistake)())
    assert outcome.status == "incorrect" and "off-by-one" not in outcome.message


def test_a_window_that_ignores_the_limit_is_not_called_an_off_by_one() -> None:
    def allow(starts, now, limit=10, period=60.0):  # type: ignore[no-untyped-def]
        return True

    outcome = lesson05.q2.evaluate((allow,))
    assert outcome.status == "incorrect" and "off-by-one" not in outcome.message
    assert "more than 3 in one 60-second span" in outcome.message


# -- both, as `python -m conductor exercises` runs them ----------------------------------------------------


@pytest.mark.parametrize(
    ("lesson", "label", "mistakes"),
    [
        (
            "lesson01",
            "q2",
            {"a raising tool's error sent back without is_error", "a raising tool's exception escapes the loop"},
        ),
        ("lesson05", "q2", {"off by one: len(recent) <= limit"}),
    ],
)
def test_the_command_line_tries_and_catches_these_mistakes(lesson: str, label: str, mistakes: set[str]) -> None:
    row = next(r for r in verify(lesson) if r.exercise.label == label)
    tried = {wrong.label: outcome for wrong, outcome in row.wrong}
    assert mistakes <= set(tried), sorted(tried)
    assert all(tried[m].status == "incorrect" for m in mistakes)
    assert not row.escaped and row.ok, row.escaped
