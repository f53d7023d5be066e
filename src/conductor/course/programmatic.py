"""Lesson 07's task and measurements: the same four-call task as tool rounds and as the model's own program.

The task: which of four cities is warmest today, from an hour-by-hour forecast per city (a large
result: 24 hours of eight readings each) whose answer is one short comparison. In the loop every
result goes into the model's context; with ``programmatic=True`` the model writes a program that
makes the four calls and hands back a summary. :func:`compare` runs both on one llm and measures
requests, input tokens, seconds and dollars; ``python -m conductor bench programmatic`` prints the
ratio for Responses and Messages.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..tools import tool

QUESTION = "Which city is warmest today: Oslo, Bergen, Paris or Rome?"
CITIES = ("Oslo", "Bergen", "Paris", "Rome")
_BASE_C = {"Oslo": 6.0, "Bergen": 8.0, "Paris": 14.0, "Rome": 17.0}


def _reading(city: str, hour: int, salt: str) -> float:
    """A deterministic small variation for one reading (no clock, no randomness)."""
    digest = hashlib.sha256(f"{city}/{hour}/{salt}".encode()).digest()
    return digest[0] / 255


def hourly(city: str) -> list[dict[str, Any]]:
    """Twenty-four hours of readings for ``city``: a day's curve around its base temperature."""
    base = _BASE_C.get(city, 12.0)
    rows = []
    for hour in range(24):
        warmth = 4.0 * (1 - abs(hour - 14) / 10) if 4 <= hour <= 24 else -2.0
        temperature = round(base + warmth + _reading(city, hour, "t"), 1)
        rows.append({
            "hour": hour,
            "temperature_c": temperature,
            "feels_like_c": round(temperature - 2 * _reading(city, hour, "f"), 1),
            "dew_point_c": round(temperature - 4 - 2 * _reading(city, hour, "d"), 1),
            "humidity_pct": 55 + int(30 * _reading(city, hour, "h")),
            "wind_kmh": round(5 + 20 * _reading(city, hour, "w"), 1),
            "gust_kmh": round(12 + 30 * _reading(city, hour, "g"), 1),
            "rain_mm": round(_reading(city, hour, "r") / 2, 2),
            "cloud_pct": int(100 * _reading(city, hour, "c")),
        })
    return rows


@tool
def get_hourly_forecast(city: str) -> dict:
    """Get today's hour-by-hour weather forecast for a city (24 hours of readings) and its high."""
    rows = hourly(city)
    return {"city": city, "high_c": max(r["temperature_c"] for r in rows), "hours": rows}


@dataclass(frozen=True)
class Way:
    """One way of running the task, measured."""

    name: str  # "loop" or "program"
    requests: int
    input_tokens: int
    seconds: float
    usd: float
    conclusion: str  # the answer's last sentence: which city, and the highs it compared
    answer: str
    per_request: tuple[int, ...] = ()  # input tokens of each request, in order
    output_tokens: int = 0  # what the model wrote, the program's code included: most of the dollars


def conclusion(answer: str) -> str:
    """The answer's last sentence (the comparison), which both ways must agree on."""
    sentences = [s for s in re.split(r"(?<=[.!?])\s+|\n+", answer.strip()) if s.strip()]
    return sentences[-1] if sentences else ""


def measure(llm: Any, *, programmatic: bool, question: str = QUESTION, max_rounds: int = 6) -> Way:
    """Run the task once, as tool rounds or as a program, and measure it."""
    started = time.perf_counter()
    result = llm.run(question, tools=[get_hourly_forecast], max_rounds=max_rounds, programmatic=programmatic)
    seconds = time.perf_counter() - started
    return Way("program" if programmatic else "loop", result.api_calls, result.usage.input_tokens, seconds,
               result.cost, conclusion(result.answer), result.answer,
               tuple(call.usage.input_tokens for call in result.trace.model_calls), result.usage.output_tokens)


@dataclass(frozen=True)
class Comparison:
    api: str
    loop: Way
    program: Way

    @property
    def token_ratio(self) -> float:
        return self.program.input_tokens / self.loop.input_tokens

    @property
    def same_answer(self) -> bool:
        return bool(self.loop.conclusion) and self.loop.conclusion == self.program.conclusion


def compare(llm: Any, question: str = QUESTION) -> Comparison:
    """The task on ``llm`` both ways."""
    return Comparison(llm.api, measure(llm, programmatic=False, question=question),
                      measure(llm, programmatic=True, question=question))


def table(comparisons: Sequence[Comparison]) -> str:
    """Requests, input and output tokens, seconds and dollars of each way, per API (timings right-aligned)."""
    lines = [f"{'api':<10} {'way':<8} {'requests':>8} {'input tokens':>12} {'output tokens':>13} {'seconds':>8} "
             f"{'dollars':>9}  same answer"]
    for c in comparisons:
        for way in (c.loop, c.program):
            same = "yes" if c.same_answer else "no"
            lines.append(f"{c.api:<10} {way.name:<8} {way.requests:>8} {way.input_tokens:>12,} "
                         f"{way.output_tokens:>13,} {way.seconds:>7.3f}s {way.usd:>9.5f}  {same}")
    return "\n".join(lines)


def per_request(comparisons: Sequence[Comparison]) -> str:
    """Each request's input tokens, both ways: where the savings come from."""
    lines = []
    for c in comparisons:
        for way in (c.loop, c.program):
            counts = " + ".join(f"{n:,}" for n in way.per_request)
            lines.append(f"{c.api:<10} {way.name:<8} {counts} = {way.input_tokens:,}")
    return "\n".join(lines)


def bench_programmatic(apis: Sequence[str] = ("responses", "messages")) -> list[Comparison]:
    """The task both ways on the offline stand-in, for each API (no latency: the counts are what matter)."""
    from ..providers import connect

    return [compare(connect("offline", api=api, latency_scale=0)) for api in apis]


def print_programmatic(comparisons: Sequence[Comparison]) -> None:
    for c in comparisons:
        print(f"programmatic [{c.api}]: {c.program.requests} requests vs {c.loop.requests} in the loop, "
              f"{c.token_ratio:.2f}x input tokens, same answer: {'yes' if c.same_answer else 'no'}")
