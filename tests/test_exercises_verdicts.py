"""A check's verdict gives the real reason: it passes no wrong answer, blames nothing the learner did not do.

Lesson 02 exercise 1: a peak that counts only the calls overlapping the first call is caught.
Lesson 04 exercise 2: an exception raised in the learner's rule is reported as that exception.
Lesson 04 exercise 3: a rent approved, then rejected, is not met with "approve the rent".
Lessons 00, 02 and 03: a right fix for the right reason (an enum that lists other values, an
``asyncio.sleep`` never awaited, a wait that ignores its ``rng``).
"""

from __future__ import annotations

from typing import Any

import pytest

from conductor.course.exercises import lesson00, lesson02, lesson03, lesson04
from conductor.course.exercises.core import Exercise, Outcome, WrongAnswer


def verdict(exercise: Exercise, make: Any) -> Outcome:
    outcome = exercise.evaluate(make())
    assert outcome.status == "incorrect", outcome.message
    return outcome


def row(exercise: Exercise, label: str) -> WrongAnswer:
    return next(w for w in exercise.wrong_answers if w.label == label)


# -- lesson 02, exercise 1: the peak is the calls running at one moment -----------------------------------


@pytest.mark.parametrize("case", lesson02.PEAK_CASES, ids=[c[2] for c in lesson02.PEAK_CASES])
def test_each_hand_made_peak_is_what_the_records_give(case: tuple[Any, ...]) -> None:
    spans, expected, _, _ = case
    records = [lesson02._record(start, end) for start, end in spans]
    assert lesson02._peak(records) == expected == lesson02.peak_concurrency(records)


def test_the_hand_made_cases_hold_overlaps_that_leave_out_the_first_call() -> None:
    spans = {c[0]: c[1] for c in lesson02.PEAK_CASES}
    assert spans[((0, 1), (2, 4), (3, 5))] == 2 and spans[((0, 10), (1, 2), (3, 4))] == 2


@pytest.mark.parametrize("make", [lesson02._overlaps_with_the_first, lesson02._most_overlaps_of_one_call])
def test_a_peak_that_counts_the_overlaps_of_one_call_is_caught(make: Any) -> None:
    outcome = verdict(lesson02.q1, make)
    assert "it should be 2" in outcome.message and "not the calls that overlap one call" in outcome.message


# -- lesson 04, exercise 2: the learner's exception, not "wrong logic" ------------------------------------


def test_an_exception_in_the_approval_rule_is_reported_with_its_type_and_line() -> None:
    outcome = verdict(lesson04.q2, lesson04._attribute_access)
    assert outcome.message.startswith(
        "needs_approval({'to_account': 'sam', 'amount': 50.0}) raised AttributeError: "
        "'dict' object has no attribute 'amount' (in needs_approval, line "
    )
    assert 'args["amount"]' in outcome.message and "was held for approval" not in outcome.message


def test_a_rule_that_raises_only_on_some_transfers_is_still_reported() -> None:
    def needs_approval(args: dict[str, Any]) -> bool:
        return {"sam": False, "maria": False}[args["to_account"]] or args["amount"] > 100

    outcome = lesson04.q2.evaluate((needs_approval,))
    assert outcome.status == "incorrect"
    assert "raised KeyError: 'landlord' (in needs_approval, line" in outcome.message
    assert "3 of the 6 transfers were held" in outcome.message


# -- lesson 04, exercise 3: no verdict asks for what the learner did -------------------------------------


def test_a_rent_approved_then_rejected_is_told_the_last_decision_counts() -> None:
    outcome = verdict(lesson04.q3, lesson04._approves_then_rejects)
    assert outcome.message.startswith("the rent of 800 was approved, then rejected")
    assert "Approve it" not in outcome.message and "approve the calls" not in outcome.message


def test_a_rent_never_approved_is_asked_for_its_approval() -> None:
    assert "it was left undecided" in verdict(lesson04.q3, lesson04._undecided).message
    rejected = verdict(lesson04.q3, lesson04._rejects_the_rent).message
    assert rejected.startswith("the rent of 800 was rejected, though it is 1000 or less")


# -- the right reason for the right fix ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("label", "says"),
    [
        ('unit: Literal["F", "K"]', 'the enum of `unit` lists ["F", "K"]'),
        ("unit may be None", 'allows [{"type": "null"}] besides the enum of the two units'),
    ],
)
def test_an_enum_of_other_values_is_not_called_no_enum(label: str, says: str) -> None:
    outcome = verdict(lesson00.q1, row(lesson00.q1, label).values)
    assert says in outcome.message and "no enum" not in outcome.message


def test_a_unit_without_an_enum_is_still_told_so() -> None:
    assert "with no enum of the two units" in verdict(lesson00.q1, lesson00._unit_as_str).message


def test_an_asyncio_sleep_never_awaited_is_not_blamed_on_time_sleep() -> None:
    outcome = verdict(lesson02.q2, lesson02._sleep_not_awaited)
    assert outcome.message.startswith("the calls took no time") and "time.sleep" not in outcome.message
    assert "time.sleep blocks the event loop" in verdict(lesson02.q2, lesson02._blocking_sleep).message


@pytest.mark.parametrize("make", [lesson03._fixed_seed, lesson03._half_the_delay])
def test_a_wait_that_ignores_its_rng_is_not_called_no_jitter(make: Any) -> None:
    outcome = verdict(lesson03.q1, make)
    assert "the wait does not depend on rng" in outcome.message and "no jitter" not in outcome.message


def test_the_whole_delay_is_called_no_jitter() -> None:
    outcome = verdict(lesson03.q1, lesson03._no_jitter)
    assert outcome.message.startswith("before retry 1 every wait is the whole delay, 0.5 s (no jitter)")


def test_a_spread_narrower_than_the_delay_is_caught() -> None:
    def full_jitter(retry: int, base: float, cap: float, rng: Any) -> float:
        delay = min(cap, base * 2 ** (retry - 1))
        return rng.uniform(delay / 4, 3 * delay / 4)

    outcome = lesson03.q1.evaluate((full_jitter,))
    assert outcome.status == "incorrect" and "a narrower spread" in outcome.message
