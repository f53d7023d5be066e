"""Exercises in the pattern learners know from Kaggle Learn: ``q1.check()``, ``q1.hint()``, ``q1.solution()``.

::

    from conductor.exercises import ____, lesson00 as ex
    ex.q1.prompt, ex.q1.stub       # the task and the code cell the learner completes
    ex.q1.check()                  # judges the notebook's names; prints one verdict
    ex.q1.hint(); ex.q1.solution()

``python -m conductor exercises`` (and ``tests/test_exercises.py``) run every
exercise's stub, reference solution and typical wrong answers through its check.
"""

from __future__ import annotations

from .core import ____, Exercise, Outcome, Placeholder, Wrong, WrongAnswer
from .report import LESSONS, Row, print_report, verify, verify_all

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
