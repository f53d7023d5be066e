"""Exercises in the pattern learners know from Kaggle Learn: ``q1.check()``, ``q1.hint()``, ``q1.solution()``.

::

    from conductor.course.exercises import ____, lesson00 as ex
    ex.q1.prompt, ex.q1.stub       # the task and the code cell the learner completes
    ex.q1.check()                  # judges the notebook's names; prints one verdict
    ex.q1.hint(); ex.q1.solution()

``python -m conductor exercises`` (and ``tests/test_exercises.py``) run every
exercise's stub, reference solution and typical wrong answers through its check.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from .core import ____, Exercise, Outcome, Placeholder, Wrong, WrongAnswer
from .report import LESSONS, Row, print_report, verify, verify_all


def __getattr__(name: str) -> ModuleType:
    """``cd.exercises.lesson00`` and the like, imported on first use (they load the SDKs)."""
    if name in LESSONS:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "____",
    "Exercise",
    "Outcome",
    "Placeholder",
    "Wrong",
    "WrongAnswer",
    "LESSONS",
    "Row",
    "verify",
    "verify_all",
    "print_report",
]
