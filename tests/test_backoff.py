"""Backoff delays: AWS's four definitions, seeded, bounded by the cap, arguments checked."""

from __future__ import annotations

import random
import statistics

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conductor.backoff import JITTERS, backoff_delay, schedule


def delay(jitter: str, retry: int, *, base: float = 1.0, cap: float = 100.0, previous: float | None = None,
          seed: int = 0) -> float:
    return backoff_delay(jitter, retry, base=base, cap=cap, previous=previous, rng=random.Random(seed))  # type: ignore[arg-type]


def test_no_jitter_doubles_from_base_up_to_the_cap() -> None:
    assert schedule("none", 6, base=0.5, cap=8.0) == [0.5, 1.0, 2.0, 4.0, 8.0, 8.0]


def test_the_same_seed_gives_the_same_schedule_and_another_seed_another() -> None:
    for jitter in ("full", "equal", "decorrelated"):
        assert schedule(jitter, 8, base=1, cap=60, seed=7) == schedule(jitter, 8, base=1, cap=60, seed=7)
        assert schedule(jitter, 8, base=1, cap=60, seed=7) != schedule(jitter, 8, base=1, cap=60, seed=8)


@settings(max_examples=100, deadline=None)
@given(
    jitter=st.sampled_from(JITTERS),
    retry=st.integers(1, 2000),
    base=st.floats(0, 10),
    extra=st.floats(0, 100),
    previous=st.none() | st.floats(0, 200),
    seed=st.integers(0, 2**32),
)
def test_every_delay_lies_between_0_and_the_cap(
    jitter: str, retry: int, base: float, extra: float, previous: float | None, seed: int
) -> None:
    cap = base + extra
    d = delay(jitter, retry, base=base, cap=cap, previous=previous, seed=seed)
    assert 0 <= d <= cap
    exponential = min(cap, base * 2.0 ** min(retry - 1, 1000))
    if jitter == "full":
        assert d <= exponential
    elif jitter == "equal":
        assert exponential / 2 <= d <= exponential
    elif jitter == "decorrelated":
        assert d >= min(base, cap)


def test_full_jitter_averages_half_the_exponential_delay() -> None:
    draws = [delay("full", 4, seed=s) for s in range(2000)]  # e = 8
    assert 0 <= min(draws) < 0.5 and 7.5 < max(draws) <= 8
    assert statistics.mean(draws) == pytest.approx(4, abs=0.3)


def test_equal_jitter_keeps_at_least_half() -> None:
    draws = [delay("equal", 4, seed=s) for s in range(2000)]
    assert min(draws) >= 4 and max(draws) <= 8
    assert statistics.mean(draws) == pytest.approx(6, abs=0.2)


def test_decorrelated_grows_from_the_previous_delay_not_the_retry_number() -> None:
    # The retry number does not matter; the previous delay sets the window [base, 3 * previous].
    assert delay("decorrelated", 1, previous=5.0, seed=3) == delay("decorrelated", 9, previous=5.0, seed=3)
    draws = [delay("decorrelated", 2, previous=5.0, seed=s) for s in range(2000)]
    assert 1 <= min(draws) < 1.2 and 14.8 < max(draws) <= 15
    first = [delay("decorrelated", 1, seed=s) for s in range(200)]  # no previous: window [base, 3 * base]
    assert all(1 <= d <= 3 for d in first)


def test_decorrelated_is_capped() -> None:
    assert all(d <= 4 for d in schedule("decorrelated", 50, base=1, cap=4, seed=1))
    assert max(schedule("decorrelated", 50, base=1, cap=4, seed=1)) == 4


def test_a_huge_retry_number_stays_at_the_cap() -> None:
    assert delay("none", 5000, cap=30) == 30.0


def test_delays_are_floats() -> None:
    assert all(type(d) is float for j in JITTERS for d in schedule(j, 6, base=1, cap=4))


@pytest.mark.parametrize(
    ("kwargs", "fix"),
    [
        ({"jitter": "fulll"}, "choose one of"),
        ({"retry": 0}, "from 1"),
        ({"retry": 1.5}, "whole number"),
        ({"base": -1}, "base must be"),
        ({"cap": float("inf")}, "cap must be"),
        ({"base": 5, "cap": 1}, "cap of at least the base"),
        ({"previous": -2.0}, "previous must be"),
    ],
)
def test_bad_arguments_name_the_fix(kwargs: dict, fix: str) -> None:
    args = {"jitter": "full", "retry": 1, "base": 1.0, "cap": 10.0, "previous": None} | kwargs
    with pytest.raises(ValueError, match=fix):
        backoff_delay(args.pop("jitter"), args.pop("retry"), rng=random.Random(0), **args)


def test_schedule_rejects_a_negative_count() -> None:
    with pytest.raises(ValueError, match="retries must be"):
        schedule("full", -1, base=1, cap=2)
    assert schedule("full", 0, base=1, cap=2) == []
