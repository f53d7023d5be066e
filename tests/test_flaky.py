"""Lesson 03's failing services: a seeded flaky weather API, its cache, the SDKs' measured retries."""

from __future__ import annotations

import pytest

from conductor.flaky import WeatherAPI, format_sdk_retries, get_weather_cached, measure_sdk_retries


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


@pytest.mark.parametrize("api", ["openai", "anthropic"])
def test_the_sdk_retries_a_rate_limit_twice_honouring_retry_after(api: str) -> None:
    run = measure_sdk_retries("rate_limit", api=api, retry_after=0.001)  # type: ignore[arg-type]
    assert run.statuses == (429, 429, 429) and run.outcome == "RateLimitError" and len(run.waits) == 2
    assert all(w < 0.3 for w in run.waits)  # retry-after-ms 1, not the SDK's 0.5 s backoff


def test_a_fault_that_clears_is_answered_and_max_retries_0_sends_once() -> None:
    cleared = measure_sdk_retries("rate_limit", api="anthropic", times=1, retry_after=0.001)
    assert cleared.statuses == (429, 200) and cleared.outcome == "answered"
    once = measure_sdk_retries("server_error", max_retries=0)
    assert once.statuses == (500,) and once.waits == () and once.outcome == "InternalServerError"
    table = format_sdk_retries([cleared, once])
    assert "429 200" in table and "InternalServerError" in table
