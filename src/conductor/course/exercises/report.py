"""Every exercise through its own check: the stub, the reference solution and the typical wrong answers.

``python -m conductor exercises`` prints :func:`print_report`'s tables and exits 1
unless every row is :attr:`Row.ok`; ``tests/test_exercises.py`` asserts the same rows.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import time
from dataclasses import dataclass
from types import ModuleType

from ...display import clip, ljust, wrap
from .core import Exercise, Outcome, WrongAnswer

__all__ = ["LESSONS", "Row", "run_stub", "verify", "verify_all", "print_report"]

LESSONS: tuple[str, ...] = (
    "lesson00", "lesson01", "lesson02", "lesson03", "lesson04", "lesson05", "lesson06", "lesson07", "lesson08",
    "lesson09",
)

STUB_VERDICT = "Not attempted yet"


@dataclass(frozen=True)
class Row:
    """What one exercise's check said about its stub, its reference and each wrong answer."""

    lesson: str
    exercise: Exercise
    stub: str  # what running the stub cell printed (or the exception it raised)
    reference: Outcome
    wrong: tuple[tuple[WrongAnswer, Outcome], ...]  # each typical mistake and its verdict
    seconds: float

    @property
    def stub_ok(self) -> bool:
        """The committed stub ran without error and its check said "not attempted"."""
        return self.stub.startswith(STUB_VERDICT)

    @property
    def reference_ok(self) -> bool:
        return self.reference.status == "correct"

    @property
    def escaped(self) -> list[str]:
        """Labels of the wrong answers the check did not reject with a message naming the fix."""
        return [w.label for w, o in self.wrong if o.status != "incorrect" or w.fix not in o.message]

    @property
    def ok(self) -> bool:
        return self.stub_ok and self.reference_ok and bool(self.wrong) and not self.escaped


def run_stub(lesson: ModuleType, exercise: Exercise) -> str:
    """Execute the lesson's set-up cell and the exercise's stub as a notebook would; return what it printed."""
    import conductor as cd

    namespace = {"__name__": "__main__", "cd": cd}
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(lesson.SETUP + "\n" + exercise.stub, f"<{exercise.label} stub>", "exec"), namespace)
    except Exception as exc:  # noqa: BLE001 - a failing stub is a row to report, not a crash
        return f"the stub raised {type(exc).__name__}: {exc}"
    return out.getvalue().strip()


def verify(lesson_name: str) -> list[Row]:
    """Run every exercise of one lesson module (``"lesson00"``): stub, reference, wrong answers."""
    lesson = importlib.import_module(f"{__package__}.{lesson_name}")
    rows = []
    for exercise in lesson.EXERCISES:
        started = time.perf_counter()
        stub = run_stub(lesson, exercise)
        reference = exercise.evaluate(exercise.reference())
        wrong = tuple((w, exercise.evaluate(w.values())) for w in exercise.wrong_answers)
        rows.append(Row(lesson_name, exercise, stub, reference, wrong, time.perf_counter() - started))
    return rows


def verify_all(lessons: tuple[str, ...] = LESSONS) -> list[Row]:
    """:func:`verify` for each lesson, in order."""
    return [row for lesson in lessons for row in verify(lesson)]


def print_report(rows: list[Row], *, verbose: bool = False) -> None:
    """One table per lesson, then what failed (and with ``verbose``, every wrong answer's message)."""
    lessons = list(dict.fromkeys(row.lesson for row in rows))
    for lesson in lessons:
        print(f"{lesson}")
        print(f"  {ljust('exercise', 42)} {'stub':<15} {'reference':<10} {'wrong answers caught':<21} seconds")
        for row in (r for r in rows if r.lesson == lesson):
            title = clip(f"{row.exercise.label} {row.exercise.title}", 42)
            stub = "not attempted" if row.stub_ok else "FAIL"
            reference = "pass" if row.reference_ok else "FAIL"
            caught = f"{len(row.wrong) - len(row.escaped)}/{len(row.wrong)}"
            print(f"  {ljust(title, 42)} {stub:<15} {reference:<10} {caught:<21} {row.seconds:7.2f}")
        print()
    for row in rows:
        name = f"{row.lesson}.{row.exercise.label}"
        if not row.stub_ok:
            print(wrap(f"FAIL {name} stub: {row.stub}"))
        if not row.reference_ok:
            print(wrap(f"FAIL {name} reference: {row.reference.text()}"))
        for label in row.escaped:
            print(wrap(f"FAIL {name} wrong answer {label!r} was not caught with a message naming the fix"))
        if not row.wrong:
            print(f"FAIL {name}: no wrong answers to try")
        if verbose:
            for wrong, outcome in row.wrong:
                print(wrap(f"{name} [{wrong.label}] {outcome.status}: {outcome.message}"))
    failed = sum(not row.ok for row in rows)
    print(f"{len(rows)} exercises, {failed} failing" if failed else f"{len(rows)} exercises, all as expected")
