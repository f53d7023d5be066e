"""The course's example tools: weather, clothing, the safe calculator, the course catalogue, delays."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

from conductor import catalogue, scenarios
from conductor.course.scenarios import (
    ALL_TOOLS,
    calculate,
    get_course_outline,
    get_weather,
    search_course_content,
    suggest_clothing,
    with_delay,
)
from conductor.tools import Tool, ToolDefinitionError, tool

# -- weather and clothing ------------------------------------------------------------


def test_weather_in_chinese_and_english_gives_the_same_reading_under_the_name_asked():
    chinese, english = get_weather("北京"), get_weather("Beijing")
    assert chinese["temperature"] == english["temperature"] == 5
    assert chinese["weather"] == "晴"
    assert (chinese["city"], english["city"]) == ("北京", "Beijing")
    assert get_weather("  shanghai ")["temperature"] == 18
    assert get_weather("北京市")["temperature"] == 5


def test_weather_reads_the_module_data(monkeypatch):
    monkeypatch.setitem(scenarios.WEATHER, "北京", {"temperature": -3, "weather": "雪", "weather_en": "snow"})
    assert get_weather("Beijing")["temperature"] == -3


def test_unknown_city_raises_an_error_that_lists_the_known_cities():
    with pytest.raises(ValueError, match="unknown city '火星'") as error:
        get_weather("火星")
    assert "北京 (Beijing)" in str(error.value)


@pytest.mark.parametrize(
    ("temperature", "expected"),
    [(-5, "羽绒服、厚外套"), (9.9, "羽绒服、厚外套"), (10, "毛衣、外套"), (19.5, "毛衣、外套"), (20, "T恤、短袖")],
)
def test_clothing_thresholds(temperature, expected):
    suggestion = suggest_clothing(temperature)
    assert suggestion["suggestion"] == expected
    assert suggestion["suggestion_en"]


def test_clothing_rejects_a_temperature_that_is_not_a_number():
    with pytest.raises(ValueError, match="finite number"):
        suggest_clothing(float("nan"))


# -- calculator -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expression", "result"),
    [("2+3", 5), ("(2 + 3) * 4", 20), ("2 ** 10", 1024), ("7 / 2", 3.5), ("7 // 2", 3), ("-7 % 3", 2), ("-(-2)", 2)],
)
def test_calculator_evaluates_arithmetic(expression, result):
    assert calculate(expression) == {"expression": expression, "result": result}


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("__import__('os').system('echo hi')", "Call is not allowed"),
        ("(1).real", "Attribute is not allowed"),
        ("x + 1", "Name is not allowed"),
        ("'a' * 3", "Constant is not allowed"),
        ("True + 1", "Constant is not allowed"),
        ("[1, 2]", "List is not allowed"),
        ("lambda: 1", "Lambda is not allowed"),
        ("9 ** 9 ** 9", "exponent"),
        ("2 ** 100000", "exponent"),
        ("(10 ** 400) ** 100", "bits"),
        ("10.0 ** 400", "too large"),
        ("1 / 0", "division by zero"),
        ("5 % 0", "division by zero"),
        ("0 ** -1", "division by zero"),
        ("(-8) ** 0.5", "no real result"),
        ("1 +", "not an arithmetic expression"),
        ("1" + "+1" * 200, "longer than"),
    ],
)
def test_calculator_refuses_what_is_not_plain_arithmetic(expression, message):
    with pytest.raises(ValueError, match=message):
        calculate(expression)


# -- course catalogue: the catalogue's own tools (tests/test_catalogue.py tests the search) ------------


def test_the_course_tools_are_the_catalogues():
    assert scenarios.course_tools() == catalogue.tools()
    assert get_course_outline is catalogue.get_course_outline
    assert search_course_content is catalogue.search_course_content


def test_search_is_safe_from_parallel_threads():
    queries = ["backoff", "chunking", "injection", "embeddings", "schemas", "approval"] * 4
    sequential = [search_course_content(q) for q in queries]
    with ThreadPoolExecutor(max_workers=8) as pool:
        assert list(pool.map(search_course_content, queries)) == sequential


# -- delays and groups --------------------------------------------------------------------------


def test_with_delay_keeps_name_and_schema_and_sleeps(monkeypatch):
    slept = []
    monkeypatch.setattr(scenarios.time, "sleep", slept.append)
    slow = with_delay(get_weather, 0.25)
    assert isinstance(slow, Tool) and slow.spec == get_weather.spec and not slow.is_async
    assert slow.invoke(slow.validate('{"city": "上海"}')) == get_weather("上海")
    assert slow("广州")["temperature"] == 25
    assert slept == [0.25, 0.25]


def test_with_delay_asynchronous_waits_on_the_event_loop(monkeypatch):
    waited = []

    async def fake_sleep(seconds):
        waited.append(seconds)

    monkeypatch.setattr(scenarios.asyncio, "sleep", fake_sleep)
    slow = with_delay(get_weather, 0.5, asynchronous=True)
    assert slow.is_async and slow.spec == get_weather.spec
    assert asyncio.run(slow.ainvoke({"city": "北京"})) == get_weather("北京")
    assert waited == [0.5]


def test_with_delay_refuses_what_it_cannot_copy():
    @tool
    async def ping() -> str:
        """Answer pong."""
        return "pong"

    with pytest.raises(ToolDefinitionError, match="asynchronous=True"):
        with_delay(ping, 1)
    with pytest.raises(ValueError, match="0 or more"):
        with_delay(get_weather, -1)


def test_tool_groups():
    assert [t.name for t in scenarios.weather_tools()] == ["get_weather", "suggest_clothing"]
    assert [t.name for t in scenarios.course_tools()] == ["get_course_outline", "search_course_content"]
    names = [t.name for t in ALL_TOOLS]
    assert len(names) == len(set(names)) == 5
    assert all(t.description for t in ALL_TOOLS)
