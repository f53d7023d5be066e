"""Lesson 08's evaluation dataset: the course's tools, the questions a learner asks of them, and what a right run does.

Kinds, as the tool-calling benchmarks sort them: ``single`` calls, ``chain`` (one call's
result feeds the next, so order matters), ``parallel`` (several independent calls),
``irrelevance`` (no tool should be called), ``missing_argument`` (the question lacks a
required argument: the model should ask, not guess) and ``fault`` (the offline stand-in
injects API errors the SDK retries, or a tool fails on a seeded share of calls).

Every expected fact comes from :mod:`conductor.course.scenarios` (today's weather, the clothing
table) or from arithmetic, never from a model's answer.
"""

from __future__ import annotations

from typing import Any

from ..evals import Case, Expect
from ..retry import Retry
from ..tools import Tool, tool
from .flaky import WeatherAPI
from .scenarios import calculate, get_weather, suggest_clothing

WEATHER_TOOLS = (get_weather, suggest_clothing)
ALL_TOOLS = (get_weather, suggest_clothing, calculate)
FLAKY_RATE = 0.3  # the share of calls the flaky weather service times out on


def flaky_weather(trial: int, *, retry: bool = False) -> Tool:
    """``get_weather`` backed by lesson 03's :class:`~conductor.course.flaky.WeatherAPI`, timing out on 30% of calls
    (seeded by the trial); ``retry=True`` adds a retry policy (four attempts, no real waiting)."""
    api = WeatherAPI(FLAKY_RATE, seed=trial)

    def weather(city: str) -> dict[str, Any]:
        """Get today's weather for a city: the sky and the temperature in °C.

        Args:
            city: The city name in Chinese or English, e.g. 北京 or Beijing.
        """
        return api(city)

    policy = Retry(attempts=4, base=0.0, cap=0.0, seed=trial) if retry else None
    return tool(weather, name="get_weather", retry=policy)


def _flaky(trial: int) -> list[Tool]:
    return [flaky_weather(trial), suggest_clothing]


def _flaky_retried(trial: int) -> list[Tool]:
    return [flaky_weather(trial, retry=True), suggest_clothing]


CASES: tuple[Case, ...] = (
    # single calls
    Case("weather_beijing", "北京今天天气怎么样?", ALL_TOOLS, (Expect("get_weather", {"city": "北京"}),),
         facts=("5°C", "晴")),
    Case("weather_shanghai_en", "What's the weather in Shanghai?", ALL_TOOLS,
         (Expect("get_weather", {"city": "Shanghai"}),), facts=("18°C", "cloudy")),
    Case("calculate_product", "What is 17 * 23?", ALL_TOOLS, (Expect("calculate", {"expression": "17 * 23"}),),
         facts=("391",)),
    Case("calculate_chinese", "计算 (3+4)*5", ALL_TOOLS, (Expect("calculate", {"expression": "(3+4)*5"}),),
         facts=("35",)),
    Case("clothing_for_25", "What should I wear at 25 °C?", ALL_TOOLS,
         (Expect("suggest_clothing", {"temperature": 25}),), facts=("T-shirt",)),
    # chains: the temperature the first call returns is the second call's argument
    Case("chain_shanghai", "上海今天天气怎么样?应该穿什么衣服?", WEATHER_TOOLS,
         (Expect("get_weather", {"city": "上海"}), Expect("suggest_clothing", {"temperature": 18})),
         ordered=True, kind="chain", facts=("18°C", "毛衣")),
    Case("chain_harbin_en", "What's the weather in Harbin, and what should I wear?", WEATHER_TOOLS,
         (Expect("get_weather", {"city": "Harbin"}), Expect("suggest_clothing", {"temperature": -12})),
         ordered=True, kind="chain", facts=("-12°C", "down jacket")),
    Case("chain_harbin", "哈尔滨今天天气怎么样?要穿什么?", WEATHER_TOOLS,
         (Expect("get_weather", {"city": "哈尔滨"}), Expect("suggest_clothing", {"temperature": -12})),
         ordered=True, kind="chain", facts=("羽绒服",)),
    # parallel calls
    Case("parallel_two_cities", "北京和上海今天天气怎么样?", WEATHER_TOOLS,
         (Expect("get_weather", {"city": "北京"}), Expect("get_weather", {"city": "上海"})),
         kind="parallel", facts=("5°C", "18°C")),
    Case("parallel_three_cities", "Compare the weather in Guangzhou, Shenzhen and Chengdu.", WEATHER_TOOLS,
         (Expect("get_weather", {"city": "Guangzhou"}), Expect("get_weather", {"city": "Shenzhen"}),
          Expect("get_weather", {"city": "Chengdu"})), kind="parallel", facts=("25°C", "24°C", "13°C")),
    Case("parallel_mixed", "What is 2 ** 10 and the weather in Beijing?", ALL_TOOLS,
         (Expect("calculate", {"expression": "2 ** 10"}), Expect("get_weather", {"city": "Beijing"})),
         kind="parallel", facts=("1024", "5°C")),
    # irrelevance: no tool fits
    Case("no_tool_joke", "讲个笑话吧", ALL_TOOLS, kind="irrelevance"),
    Case("no_tool_hamlet", "Who wrote Hamlet?", ALL_TOOLS, kind="irrelevance"),
    Case("no_tool_thanks", "Thanks, that's all!", ALL_TOOLS, kind="irrelevance"),
    # a required argument missing: ask for it
    Case("missing_city", "What's the weather like?", ALL_TOOLS, kind="missing_argument", facts=("city",)),
    Case("missing_city_zh", "今天天气怎么样?", ALL_TOOLS, kind="missing_argument", facts=("city",)),
    Case("missing_expression", "Please calculate", ALL_TOOLS, kind="missing_argument", facts=("expression",)),
    # faults: the API fails and the SDK retries; a tool fails and the model must say so
    Case("api_errors_retried", "北京今天天气怎么样?", WEATHER_TOOLS, (Expect("get_weather", {"city": "北京"}),),
         kind="fault", facts=("5°C",), faults={"server_error": 0.3}),
    Case("rate_limited_chain", "上海今天天气怎么样?应该穿什么衣服?", WEATHER_TOOLS,
         (Expect("get_weather", {"city": "上海"}), Expect("suggest_clothing", {"temperature": 18})),
         ordered=True, kind="fault", facts=("18°C",), faults={"rate_limit": 0.5}),
    Case("unknown_city", "What's the weather on Mars (火星)?", WEATHER_TOOLS, kind="fault",
         facts=("could not|does not know",)),
    Case("flaky_weather", "What's the weather in Chengdu?", _flaky, (Expect("get_weather", {"city": "Chengdu"}),),
         kind="fault", facts=("13°C",)),
    Case("flaky_weather_retried", "What's the weather in Chengdu?", _flaky_retried,
         (Expect("get_weather", {"city": "Chengdu"}),), kind="fault", facts=("13°C",)),
)
"""The dataset :func:`conductor.evals.evaluate` runs for ``python -m conductor eval``."""
