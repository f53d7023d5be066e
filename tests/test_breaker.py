"""cd.CircuitBreaker: closed -> open after consecutive failures -> half-open after the cooldown -> one trial."""

from __future__ import annotations

import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import conductor as cd


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def test_opens_after_consecutive_failures_only(clock: FakeClock) -> None:
    breaker = cd.CircuitBreaker(failures=3, cooldown=30.0, clock=clock)
    assert breaker.state("m") == "closed" and breaker.allow("m")
    breaker.record_failure("m")
    breaker.record_failure("m")
    breaker.record_success("m")  # a success in between: the count starts again
    breaker.record_failure("m")
    breaker.record_failure("m")
    assert breaker.status("m") == cd.failover.CircuitStatus("m", "closed", 2, 0.0)
    breaker.record_failure("m")
    assert breaker.status("m") == cd.failover.CircuitStatus("m", "open", 3, 30.0)
    assert not breaker.allow("m")
    assert breaker.state("other") == "closed" and breaker.allow("other")  # circuits are per model


def test_half_open_lets_exactly_one_trial_through(clock: FakeClock) -> None:
    breaker = cd.CircuitBreaker(failures=1, cooldown=10.0, clock=clock)
    breaker.record_failure("m")
    clock.now = 9.5
    assert breaker.state("m") == "open" and breaker.status("m").retry_in == pytest.approx(0.5)
    assert not breaker.allow("m")
    clock.now = 10.0
    assert breaker.state("m") == "half_open"
    assert breaker.allow("m")
    assert not breaker.allow("m")  # the trial is in flight: the others still skip it
    breaker.record_success("m")
    assert breaker.status("m") == cd.failover.CircuitStatus("m", "closed", 0, 0.0)
    assert breaker.allow("m") and breaker.allow("m")


def test_a_failed_trial_opens_for_a_fresh_cooldown(clock: FakeClock) -> None:
    breaker = cd.CircuitBreaker(failures=2, cooldown=10.0, clock=clock)
    breaker.record_failure("m")
    breaker.record_failure("m")
    clock.now = 15.0
    assert breaker.allow("m")
    breaker.record_failure("m")  # one failed trial is enough, whatever `failures` says
    assert breaker.state("m") == "open" and breaker.status("m").retry_in == 10.0
    clock.now = 24.9
    assert not breaker.allow("m")
    clock.now = 25.0
    assert breaker.allow("m")


def test_release_frees_the_trial_without_judging_the_model(clock: FakeClock) -> None:
    breaker = cd.CircuitBreaker(failures=1, cooldown=0.0, clock=clock)
    breaker.record_failure("m")
    assert breaker.allow("m") and not breaker.allow("m")
    breaker.release("m")
    assert breaker.state("m") == "half_open" and breaker.allow("m")


def test_states_repr_and_reset(clock: FakeClock) -> None:
    breaker = cd.CircuitBreaker(failures=1, cooldown=5.0, clock=clock)
    breaker.record_failure("a")
    breaker.record_success("b")
    assert breaker.states() == {"a": "open", "b": "closed"}
    assert repr(breaker) == "CircuitBreaker(failures=1, cooldown=5, {a=open, b=closed})"
    assert breaker.table().splitlines() == [
        "model  state      failures  trial in",
        "a      open              1      5.0s",
        "b      closed            0      0.0s",
    ]
    breaker.reset()
    assert breaker.states() == {}


@pytest.mark.parametrize(("failures", "cooldown"), [(0, 1.0), (1.5, 1.0), (True, 1.0), (1, -1.0), (1, float("nan"))])
def test_bad_settings_are_refused(failures: object, cooldown: float) -> None:
    with pytest.raises(ValueError, match="failures|cooldown"):
        cd.CircuitBreaker(failures=failures, cooldown=cooldown)  # type: ignore[arg-type]


def test_concurrent_requests_in_half_open_admit_one(clock: FakeClock) -> None:
    breaker = cd.CircuitBreaker(failures=1, cooldown=1.0, clock=clock)
    breaker.record_failure("m")
    clock.now = 1.0
    admitted: list[bool] = []
    barrier = threading.Barrier(16)

    def ask() -> None:
        barrier.wait()
        admitted.append(breaker.allow("m"))

    threads = [threading.Thread(target=ask) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert admitted.count(True) == 1


# A reference model of the breaker, step by step: ("fail" | "ok" | "ask" | "wait", seconds).
events = st.lists(
    st.one_of(
        st.tuples(st.sampled_from(["fail", "ok", "ask"]), st.just(0.0)),
        st.tuples(st.just("wait"), st.floats(0.0, 20.0)),
    ),
    max_size=40,
)


@settings(max_examples=100, deadline=None)
@given(events=events, failures=st.integers(1, 4), cooldown=st.floats(0.0, 15.0))
def test_breaker_matches_the_reference(events: list[tuple[str, float]], failures: int, cooldown: float) -> None:
    clock = FakeClock()
    breaker = cd.CircuitBreaker(failures=failures, cooldown=cooldown, clock=clock)
    state, streak, opened, probing = "closed", 0, 0.0, False
    for event, seconds in events:
        if event == "wait":
            clock.now += seconds
            continue
        if event == "ask":
            if state == "open" and clock.now - opened >= cooldown:
                state = "half_open"
            expected = state == "closed" or (state == "half_open" and not probing)
            if state == "half_open" and expected:
                probing = True
            assert breaker.allow("m") == expected
        elif event == "ok":
            breaker.record_success("m")
            state, streak, probing = "closed", 0, False
        else:
            breaker.record_failure("m")
            streak += 1
            if state == "half_open" or (state == "closed" and streak >= failures):
                state, opened, probing = "open", clock.now, False
        status = breaker.status("m")
        seen = "half_open" if state == "open" and clock.now - opened >= cooldown else state
        assert (status.state, status.failures) == (seen, streak)
