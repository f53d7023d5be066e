"""Lesson 03's failing services: a seeded flaky weather API, its cache, the SDKs' measured retries."""

from __future__ import annotations

import time

import pytest

from conductor.course.flaky import WeatherAPI, format_sdk_retries, get_weather_cached, measure_sdk_retries


def outcomes(api: WeatherAPI, city: str, n: int) -> list[str]:
    seen = []
    for _ in range(n):
        try:
            api(city)
            seen.append("ok")
        except TimeoutError:
            seen.append("timeout")
        except ValueError:
            seen.append("unknown")
    return seen


def test_the_failure_rate_holds_and_the_seed_repeats_it() -> None:
    api = WeatherAPI(0.3, seed=1)
    first = outcomes(api, "北京", 1000)
    assert 0.26 < first.count("timeout") / 1000 < 0.34 and api.calls == 1000 and api.timeouts == first.count("timeout")
    api.reset()
    assert outcomes(api, "北京", 1000) == first and api.calls == 1000


def test_answers_come_from_todays_weather_and_say_their_source() -> None:
    assert WeatherAPI(0.0)("Beijing") == {"city": "Beijing", "temperature": 5, "weather": "晴", "weather_en": "sunny",
                                          "unit": "°C", "source": "api"}


def test_an_unknown_city_is_a_value_error_not_a_timeout() -> None:
    assert set(outcomes(WeatherAPI(0.0), "火星", 3)) == {"unknown"}


def test_the_cache_holds_two_cities_from_yesterday() -> None:
    assert get_weather_cached("上海")["source"] == "cache (yesterday)"
    assert get_weather_cached("beijing")["temperature"] == 4
    with pytest.raises(LookupError, match="the cache holds 北京, 上海"):
        get_weather_cached("广州")


def test_a_bad_failure_rate_names_the_fix() -> None:
    with pytest.raises(ValueError, match="probability from 0 to 1"):
        WeatherAPI(30)


@pytest.fixture
def sdk_sleeps(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The waits the SDKs choose, recorded instead of slept (both call time.sleep between retries)."""
    chosen: list[float] = []
    monkeypatch.setattr(time, "sleep", lambda seconds: chosen.append(seconds) if seconds > 0 else None)
    return chosen


@pytest.mark.parametrize("api", ["openai", "anthropic"])
def test_the_sdk_retries_a_rate_limit_twice_honouring_retry_after(api: str, sdk_sleeps: list[float]) -> None:
    run = measure_sdk_retries("rate_limit", api=api, retry_after=0.25)  # type: ignore[arg-type]
    assert run.statuses == (429, 429, 429) and run.outcome == "RateLimitError" and len(run.waits) == 2
    assert sdk_sleeps == [0.25, 0.25]  # the server's retry-after, not the SDK's own backoff


@pytest.mark.parametrize(("fault", "api", "error"), [("server_error", "openai", "InternalServerError"),
                                                     ("overloaded", "anthropic", "OverloadedError")])
def test_without_retry_after_the_sdk_backs_off_from_half_a_second(
    fault: str, api: str, error: str, sdk_sleeps: list[float]
) -> None:
    run = measure_sdk_retries(fault, api=api)  # type: ignore[arg-type]
    assert run.outcome == error and len(run.statuses) == 3
    first, second = sdk_sleeps
    assert 0.375 <= first <= 0.5 and 0.75 <= second <= 1.0  # min(0.5 * 2**n, 8) less up to 25 %


def test_a_fault_that_clears_is_answered_and_max_retries_0_sends_once(sdk_sleeps: list[float]) -> None:
    cleared = measure_sdk_retries("rate_limit", api="anthropic", times=1, retry_after=0.001)
    assert cleared.statuses == (429, 200) and cleared.outcome == "answered"
    once = measure_sdk_retries("server_error", max_retries=0)
    assert once.statuses == (500,) and once.waits == () and once.outcome == "InternalServerError"
    table = format_sdk_retries([cleared, once])
    assert "429 200" in table and "InternalServerError" in table
