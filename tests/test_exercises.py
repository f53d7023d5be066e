"""The exercise pattern: stubs say "not attempted", references pass, typical mistakes get a fix.

``python -m conductor exercises`` prints the same rows :func:`verify_all` returns here.
"""

from __future__ import annotations

import contextlib
import importlib
import io
from typing import Any

import pytest

import conductor as cd
from conductor.display import width
from conductor.course.exercises import LESSONS, ____, Row, lesson00, verify, verify_all
from conductor.course.exercises.core import Exercise, Wrong, WrongAnswer, has_placeholder
from conductor.course.exercises.report import run_stub

EXERCISES = [(name, q) for name in LESSONS for q in importlib.import_module(f"conductor.course.exercises.{name}").EXERCISES]


@pytest.fixture(scope="module")
def rows() -> list[Row]:
    return verify_all()


def printed(action) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        action()
    return out.getvalue()


# -- every exercise, as `python -m conductor exercises` runs them ---------------------------------------


@pytest.mark.parametrize("index", range(len(EXERCISES)), ids=[f"{n}.{q.label}" for n, q in EXERCISES])
def test_stub_reference_and_wrong_answers(rows: list[Row], index: int) -> None:
    row = rows[index]
    assert row.stub_ok, row.stub
    assert row.reference_ok, row.reference.message
    assert row.wrong and not row.escaped, [(w.label, o.message) for w, o in row.wrong]
    assert row.ok


@pytest.mark.parametrize("lesson", ["lesson04"])
def test_lesson_modules_pass_their_own_checks(lesson: str) -> None:
    """Each exercise of the lesson: stub not attempted, reference correct, every typical mistake caught."""
    rows = verify(lesson)
    assert len(rows) >= 3
    assert all(row.ok for row in rows), [(r.exercise.label, r.stub, r.reference.message, r.escaped) for r in rows]


def test_lessons_have_enough_exercises() -> None:
    counts = {name: len(importlib.import_module(f"conductor.course.exercises.{name}").EXERCISES) for name in LESSONS}
    minimum = {"lesson00": 2, "lesson01": 3, "lesson02": 3, "lesson03": 3, "lesson05": 3}
    assert all(counts[name] >= minimum.get(name, 1) for name in counts), counts


def test_every_exercise_has_a_wrong_answer_and_text(rows: list[Row]) -> None:
    for row in rows:
        q = row.exercise
        assert row.wrong and q.title and q.prompt.strip() and q.hint_text.strip()
        assert q.stub.rstrip().endswith(f"ex.{q.label}.check()")
        assert "____" in q.stub or "..." in q.stub


def test_printed_lines_fit_100_columns(rows: list[Row]) -> None:
    texts = [r.stub for r in rows] + [o.text() for r in rows for o in (r.reference, *(w for _, w in r.wrong))]
    for _, q in EXERCISES:
        texts += [printed(q.hint), printed(q.solution), q.stub, q.prompt]
    too_long = [line for text in texts for line in text.splitlines() if width(line) > 100]
    assert not too_long, too_long


def test_command_line_prints_the_table_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    from conductor.__main__ import main

    assert main(["exercises", "--lesson", "lesson00"]) == 0
    out = capsys.readouterr().out
    assert "lesson00" in out and "q1 Render your own tool" in out and "all as expected" in out


def vague_exercise() -> tuple[Exercise, WrongAnswer]:
    """An exercise whose check rejects everything but 1, without naming a fix."""

    def judge(x: Any) -> str:
        if x != 1:
            raise Wrong("something is off")
        return "ok"

    mistake = WrongAnswer("two", lambda: (2,), fix="use 1")
    return Exercise(1, "t", "task", "s", "h", ("x",), judge, lambda: (1,), (), (mistake,)), mistake


def vague_row(exercise: Exercise, mistake: WrongAnswer) -> Row:
    wrong = ((mistake, exercise.evaluate(mistake.values())),)
    return Row("lesson00", exercise, "Not attempted yet: x", exercise.evaluate(exercise.reference()), wrong, 0.0)


def test_a_wrong_answer_whose_message_misses_the_fix_is_not_caught() -> None:
    exercise, mistake = vague_exercise()
    row = vague_row(exercise, mistake)
    assert row.reference_ok and row.escaped == ["two"] and not row.ok


def test_command_line_exits_1_when_a_row_fails(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from conductor import exercises
    from conductor.__main__ import main

    exercise, mistake = vague_exercise()
    monkeypatch.setattr(exercises, "verify_all", lambda lessons: [vague_row(exercise, mistake)])
    assert main(["exercises"]) == 1
    assert "FAIL lesson00.q1 wrong answer 'two'" in capsys.readouterr().out


# -- the pattern, on lesson 00's first exercise -------------------------------------------------------------


def test_stub_prints_not_attempted_and_raises_nothing() -> None:
    assert run_stub(lesson00, lesson00.q1).startswith("Not attempted yet: replace each ____ in `convert_temperature`")


def test_check_reads_the_callers_globals() -> None:
    convert_temperature = lesson00.convert_temperature  # noqa: F841 - not a global: check() must not see it
    globals()["convert_temperature"] = lesson00.convert_temperature
    try:
        assert printed(lesson00.q1.check).startswith("Correct: ")
    finally:
        del globals()["convert_temperature"]
    assert printed(lesson00.q1.check).startswith("Not attempted yet: `convert_temperature` is not defined")


def test_wrong_answer_names_the_fix() -> None:
    def convert_temperature(celsius: float, unit: str = "fahrenheit") -> float:
        """Convert a temperature in °C."""
        return celsius

    out = printed(lambda: lesson00.q1.check(convert_temperature))
    assert out.startswith("Incorrect: ") and 'Literal["fahrenheit", "kelvin"]' in out


def test_exceptions_in_learner_code_are_explained_not_raised() -> None:
    def convert_temperature(celsius: float, unit: cd_literal() = "fahrenheit") -> float:  # type: ignore[valid-type]
        """Convert a temperature in °C."""
        return {"kelvin": celsius + 273.15}[unit]

    out = printed(lambda: lesson00.q1.check(convert_temperature))
    assert out.startswith("Incorrect: convert_temperature(100) raised KeyError: 'fahrenheit'")
    assert "(in convert_temperature, line" in out and "Fix that line" in out


def cd_literal() -> Any:
    from typing import Literal

    return Literal["fahrenheit", "kelvin"]


def test_a_broken_judge_is_reported_not_raised() -> None:
    def judge(value: Any) -> str:
        raise ZeroDivisionError("division by zero")

    broken = Exercise(1, "t", "p", "s", "h", ("x",), judge, lambda: (1,), (), ())
    outcome = broken.evaluate((1,))
    assert outcome.status == "incorrect" and "ZeroDivisionError" in outcome.message


def test_sdk_errors_show_the_apis_message() -> None:
    def answer_by_hand(llm: Any, question: str) -> str:
        """Send a tool message that answers nothing."""
        messages = [{"role": "user", "content": question}, {"role": "tool", "tool_call_id": "x", "content": "1"}]
        return llm.client.chat.completions.create(model=llm.model, messages=messages).choices[0].message.content

    outcome = lesson00.q3.evaluate((answer_by_hand,))
    assert outcome.status == "incorrect" and "HTTP 400" in outcome.message and "role 'tool'" in outcome.message


def test_hint_and_solution_print_on_demand() -> None:
    assert printed(lesson00.q1.hint).startswith("Hint: ")
    solution = printed(lesson00.q1.solution)
    assert 'unit: Literal["fahrenheit", "kelvin"] = "fahrenheit"' in solution and "return celsius" in solution


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (____, True),
        (..., True),
        ("____", True),
        ([1, {"a": ____}], True),
        ("done", False),
        (len, False),
        (lesson00.convert_temperature, False),
    ],
)
def test_has_placeholder(value: Any, expected: bool) -> None:
    assert has_placeholder(value) is expected


def test_has_placeholder_looks_inside_functions_and_tools() -> None:
    def body() -> Any:
        return [x for x in (1, ____)]

    def annotation(x: ____) -> None:  # type: ignore[valid-type]
        """Doc."""

    assert has_placeholder(body) and has_placeholder(annotation)
    assert has_placeholder(cd.tool(exclusive=____)(lesson00.convert_temperature))  # type: ignore[arg-type]


@pytest.mark.parametrize(("lesson", "exercise"), EXERCISES, ids=[f"{n}.{q.label}" for n, q in EXERCISES])
@pytest.mark.parametrize("garbage", [42, None])
def test_any_value_gets_a_verdict_never_an_exception(lesson: str, exercise: Exercise, garbage: Any) -> None:
    out = printed(lambda: exercise.check(*[garbage] * len(exercise.names)))
    assert out.startswith("Incorrect: ") and "Traceback" not in out


def test_lessons_load_lazily_from_the_package() -> None:
    assert cd.exercises.lesson01.q2.title == "The round loop by hand, on Anthropic"
