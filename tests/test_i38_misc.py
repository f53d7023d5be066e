"""Issue 38, round 5: a fallback's members keep their own cache settings, the client tool search reads
Chinese, and a program cut short by max_rounds ends "incomplete" on both APIs that run programs."""

from __future__ import annotations

from typing import Any

import pytest

import conductor as cd
from conductor.offline import LatencyModel, OfflineModel

QUESTION = "What should I wear in Beijing today?"
CACHE_FIELDS = {"cache_control", "prompt_cache_key"}


# -- 6. cd.fallback(...) keeps each member's cache= -----------------------------------------------


def member(api: str, *, cache: bool | str = True) -> cd.LLM:
    """An offline model of its own (its requests are its own), answering at once."""
    return cd.connect("offline", api=api, cache=cache,  # type: ignore[arg-type]
                      offline_model=OfflineModel(latency=LatencyModel.instant()))


def weather_tools(outage: cd.LLM | None = None) -> list[Any]:
    """Two chained tools; the first takes ``outage``'s model down (one overload) while it runs."""

    @cd.tool
    def get_weather(city: str) -> dict:
        """Get today's weather for a city."""
        if outage is not None:
            assert outage.offline is not None
            outage.offline.inject("overloaded", retry_after=0.001)
        return {"city": city, "temperature": 5, "weather": "sunny"}

    @cd.tool
    def suggest_clothing(temperature: float) -> dict:
        """Suggest clothing for a temperature in Celsius."""
        return {"temperature": temperature, "suggestion": "a down jacket" if temperature < 10 else "a t-shirt"}

    return [get_weather, suggest_clothing]


def bodies(llm: cd.LLM, *, answered: bool = True) -> list[dict[str, Any]]:
    """The request bodies ``llm``'s offline model received (those it answered, or every one)."""
    assert llm.offline is not None
    return [r.body for r in llm.offline.requests if r.status == 200 or not answered]


def expect_cache(body: dict[str, Any], api: str, cache: bool | str) -> None:
    """``body`` carries exactly the caching field ``cache`` asks of ``api`` (see conductor.caching)."""
    if cache is False:
        assert not CACHE_FIELDS & set(body)
    elif api == "messages":
        assert body["cache_control"] == ({"type": "ephemeral", "ttl": "1h"} if cache == "1h" else {"type": "ephemeral"})
        assert "prompt_cache_key" not in body
    else:
        assert str(body["prompt_cache_key"]).startswith("conductor-") and "cache_control" not in body


@pytest.mark.parametrize(("api", "cache"), [("messages", False), ("messages", "1h"), ("responses", False),
                                            ("chat", False)])
def test_a_fallback_sends_its_primarys_own_cache_setting(api: str, cache: bool | str) -> None:
    primary = member(api, cache=cache)
    cd.fallback(primary, member("messages")).run(QUESTION, tools=weather_tools())
    sent = bodies(primary)
    assert len(sent) >= 2
    for body in sent:
        expect_cache(body, api, cache)


@pytest.mark.parametrize(("first", "second"), [
    (("responses", True), ("messages", False)),
    (("messages", False), ("responses", True)),  # the backup needs the run's key though the primary sent none
    (("messages", False), ("messages", "1h")),  # same API, model and provider: only the cache differs
    (("messages", "1h"), ("chat", False)),
])
def test_mid_run_each_member_sends_its_own_cache_setting(first: tuple[str, Any], second: tuple[str, Any]) -> None:
    primary, backup = member(first[0], cache=first[1]), member(second[0], cache=second[1])
    result = cd.fallback(primary, backup).run(QUESTION, tools=weather_tools(outage=primary))
    assert {c.provider for c in result.trace.model_calls} == {"offline"}
    by_primary, by_backup = bodies(primary, answered=False), bodies(backup)
    assert by_backup, "the backup answered no request: the outage did not happen"
    for body in by_primary:  # back on the primary after the outage, too
        expect_cache(body, *first)
    for body in by_backup:
        expect_cache(body, *second)


def test_the_fallback_itself_reports_its_primarys_cache() -> None:
    assert cd.fallback(member("messages", cache="1h"), member("chat")).cache == "1h"
