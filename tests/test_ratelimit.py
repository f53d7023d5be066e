"""Rate limits on a fake clock: never more than the limit in any window, waits recorded, refusals explained."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conductor.ratelimit import FakeClock, Limiters, RateLimit, RateLimited, Window


def most_in_any_window(times: list[float], period: float) -> int:
    # A fake clock that adds up waits lands a float's rounding before the slot: allow for it.
    return max((sum(1 for t in times if start <= t < start + period - 1e-6) for start in times), default=0)


@settings(max_examples=100, deadline=None)
@given(limit=st.integers(1, 6), gaps=st.lists(st.floats(0, 40), max_size=40))
def test_a_window_never_lets_more_than_its_limit_start_in_any_minute(limit: int, gaps: list[float]) -> None:
    clock = FakeClock()
    window = Window(limit, 60, clock)
    starts = []
    for gap in gaps:
        clock.advance(gap)
        window.acquire()  # sleeps on the fake clock until its slot
        starts.append(clock.now())
    assert most_in_any_window(starts, 60) <= limit


def test_the_eleventh_call_in_a_minute_waits_for_the_first_to_leave() -> None:
    clock = FakeClock()
    window = Window(10, 60, clock)
    assert [window.reserve() for _ in range(10)] == [0.0] * 10
    clock.advance(15)
    assert window.reserve() == pytest.approx(45)


def test_concurrent_callers_queue_in_order() -> None:
    window = Window(2, 60, FakeClock())
    assert [window.reserve() for _ in range(6)] == [0, 0, 60, 60, 120, 120]


def test_a_wait_past_max_wait_is_refused_and_takes_no_slot() -> None:
    window = Window(1, 60, FakeClock())
    window.reserve()
    with pytest.raises(RateLimited) as refused:
        window.reserve(max_wait=10)
    assert refused.value.retry_after == pytest.approx(60)
    assert window.reserve(max_wait=60) == pytest.approx(60)


def test_each_user_has_a_limit_of_their_own_and_refusals_name_it() -> None:
    limiters = Limiters(RateLimit(tool_calls_per_minute=3), FakeClock())
    for _ in range(3):
        limiters.tool_call("alice")
    limiters.tool_call("bob")
    with pytest.raises(RateLimited, match="alice may make 3 tool calls a minute") as refused:
        limiters.tool_call("alice")
    assert "Try again in 60 s" in str(refused.value)
    assert [(w.limit, w.refused) for w in limiters.log.waits] == [("tool calls of alice", True)]


def test_requests_and_tokens_wait_and_are_recorded() -> None:
    clock = FakeClock()
    limiters = Limiters(RateLimit(tool_calls_per_minute=None, requests_per_minute=2, tokens_per_minute=1000), clock)
    limiters.request(400)
    limiters.request(400)
    limiters.request(400)  # the third request in a minute, and 1,200 tokens: waits a minute
    assert clock.now() == pytest.approx(60)
    waits = limiters.log.waits
    assert [(w.limit, w.refused) for w in waits] == [("requests and tokens", False)]


def test_async_callers_wait_on_the_clock() -> None:
    clock = FakeClock()
    limiters = Limiters(RateLimit(tool_calls_per_minute=1, max_wait=120), clock)

    async def calls() -> None:
        await asyncio.gather(*(limiters.atool_call("carol") for _ in range(3)))

    asyncio.run(calls())
    assert clock.now() == pytest.approx(120)  # the third call's slot: two minutes after the first
    assert sum(not w.refused for w in limiters.log.waits) == 2


@pytest.mark.parametrize("bad", [{"tool_calls_per_minute": 0}, {"requests_per_minute": 2.5}, {"max_wait": -1}])
def test_bad_limits_are_refused(bad: dict) -> None:
    with pytest.raises(ValueError, match="RateLimit"):
        RateLimit(**bad)


def test_a_request_refused_by_the_token_limit_frees_its_request_slot() -> None:
    limiters = Limiters(RateLimit(tool_calls_per_minute=None, requests_per_minute=2, tokens_per_minute=1000),
                        FakeClock())
    limiters.request(900)
    with pytest.raises(RateLimited):
        limiters.request(900, max_wait=1)  # the tokens would wait a minute: refused
    limiters.request(50, max_wait=0)  # the second request slot is still free


def test_users_whose_calls_left_the_minute_are_forgotten_and_the_rest_kept() -> None:
    from conductor.ratelimit import USERS_BEFORE_SWEEP

    clock = FakeClock()
    limiters = Limiters(RateLimit(tool_calls_per_minute=1), clock)
    for i in range(USERS_BEFORE_SWEEP):
        limiters.tool_call(f"u{i}")
    clock.advance(61)
    limiters.tool_call("u0")  # u0 called again: its new call is in the window
    limiters.tool_call("newcomer")  # the count reached the mark: the idle windows go
    assert set(limiters._users) == {"u0", "newcomer"}
    with pytest.raises(RateLimited, match="u0 may make 1 tool calls a minute"):
        limiters.tool_call("u0")  # a kept window still limits
    limiters.tool_call("u5")  # a forgotten user starts afresh, as they would have a minute on
