"""Lesson 07's tasks and measurements: the same four-call task as tool rounds and as the model's own program.

Two tasks, each four calls whose answer is one short comparison: which of four cities is warmest.

* ``small``: the temperature right now (:func:`get_temperature`), a result of a few dozen characters;
* ``large``: today's forecast every 15 minutes (:func:`get_detailed_forecast`, 96 readings of eight
  values each), a result hundreds of times larger.

In the loop every result goes into the model's context; with ``programmatic=True`` the model writes a
program that makes the four calls at once and hands back a summary. On Messages each request that offers
the code execution tool also bills that tool's own prompt (:mod:`conductor.tokens`), so a program pays
only when the results it keeps out of the context outweigh that prompt: the large task, not the small.
:func:`compare` runs both ways on one llm and measures requests, input tokens, seconds and dollars;
``python -m conductor bench programmatic`` prints the ratios for Responses and Messages, on Messages with a
model that offers programmatic calling (:data:`MESSAGES_MODEL`), priced as that model.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..programs import ContainerTime, container_time
from ..tools import tool

QUESTION = "Which city is warmest today: Oslo, Bergen, Paris or Rome?"
SMALL_QUESTION = "Which city is warmest right now: Oslo, Bergen, Paris or Rome?"
CITIES = ("Oslo", "Bergen", "Paris", "Rome")
_BASE_C = {"Oslo": 6.0, "Bergen": 8.0, "Paris": 14.0, "Rome": 17.0}
READINGS = 96  # a reading every 15 minutes
# Claude Haiku 4.5, the course's default on Messages, has no programmatic tool calling (the API refuses it): the
# lesson and the bench connect to a model that has it, and the stand-in bills and is priced as that model.
MESSAGES_MODEL = "claude-sonnet-4-6"
LARGE_TARGET = 0.50  # the bench's goal on the large task: the program's input tokens at most half the loop's


def _reading(city: str, step: int, salt: str) -> float:
    """A deterministic small variation for one reading (no clock, no randomness)."""
    digest = hashlib.sha256(f"{city}/{step}/{salt}".encode()).digest()
    return digest[0] / 255


def readings(city: str) -> list[dict[str, Any]]:
    """Today's forecast for ``city`` every 15 minutes: a day's curve around its base temperature."""
    base = _BASE_C.get(city, 12.0)
    rows = []
    for step in range(READINGS):
        hour = step / 4
        warmth = 4.0 * (1 - abs(hour - 14) / 10) if 4 <= hour <= 24 else -2.0
        temperature = round(base + warmth + _reading(city, step, "t"), 1)
        rows.append({
            "time": f"{step // 4:02d}:{15 * (step % 4):02d}",
            "temperature_c": temperature,
            "feels_like_c": round(temperature - 2 * _reading(city, step, "f"), 1),
            "dew_point_c": round(temperature - 4 - 2 * _reading(city, step, "d"), 1),
            "humidity_pct": 55 + int(30 * _reading(city, step, "h")),
            "wind_kmh": round(5 + 20 * _reading(city, step, "w"), 1),
            "gust_kmh": round(12 + 30 * _reading(city, step, "g"), 1),
            "rain_mm": round(_reading(city, step, "r") / 2, 2),
            "cloud_pct": int(100 * _reading(city, step, "c")),
        })
    return rows


@tool
def get_detailed_forecast(city: str) -> dict:
    """Get today's detailed weather forecast for a city (a reading every 15 minutes) and its high."""
    rows = readings(city)
    return {"city": city, "high_c": max(r["temperature_c"] for r in rows), "readings": rows}


def hourly(city: str) -> list[dict[str, Any]]:
    """Today's forecast for ``city`` hour by hour: every fourth reading of :func:`readings`."""
    return [{"hour": step // 4, **{k: v for k, v in row.items() if k != "time"}}
            for step, row in enumerate(readings(city)) if step % 4 == 0]


@tool
def get_hourly_forecast(city: str) -> dict:
    """Get today's hour-by-hour weather forecast for a city (24 hours of readings) and its high."""
    rows = hourly(city)
    return {"city": city, "high_c": max(r["temperature_c"] for r in rows), "hours": rows}


@tool
def get_temperature(city: str) -> dict:
    """Get the temperature in a city right now."""
    now = readings(city)[14 * 4]  # 14:00, the warmest hour of the day's curve
    return {"city": city, "temperature_c": now["temperature_c"]}


@dataclass(frozen=True)
class Task:
    """One of the lesson's tasks: a question and the tool it takes four calls of."""

    name: str  # "small" or "large"
    question: str
    tool: Any

    def result_characters(self) -> int:
        """The characters of one result (a city's), as the loop puts it into the context."""
        return len(json.dumps(self.tool.func(CITIES[0])))


TASKS = {
    "small": Task("small", SMALL_QUESTION, get_temperature),
    "large": Task("large", QUESTION, get_detailed_forecast),
}


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
    output_tokens: int = 0  # what the model wrote, the program's code included
    containers: ContainerTime | None = None  # code execution containers (Messages), billed by time apart from tokens


def conclusion(answer: str) -> str:
    """The answer's last sentence (the comparison), which both ways must agree on."""
    sentences = [s for s in re.split(r"(?<=[.!?])\s+|\n+", answer.strip()) if s.strip()]
    return sentences[-1] if sentences else ""


def measure(llm: Any, *, programmatic: bool, task: Task | None = None, max_rounds: int = 6) -> Way:
    """Run ``task`` (by default the large one) once, as tool rounds or as a program, and measure it."""
    task = task or TASKS["large"]
    started = time.perf_counter()
    result = llm.run(task.question, tools=[task.tool], max_rounds=max_rounds, programmatic=programmatic)
    seconds = time.perf_counter() - started
    return Way("program" if programmatic else "loop", result.api_calls, result.usage.input_tokens, seconds,
               result.cost, conclusion(result.answer), result.answer,
               tuple(call.usage.input_tokens for call in result.trace.model_calls), result.usage.output_tokens,
               containers=container_time(result))


@dataclass(frozen=True)
class Comparison:
    api: str
    loop: Way
    program: Way
    task: str = "large"
    model: str = ""  # the model the llm was connected as (priced as)

    @property
    def token_ratio(self) -> float:
        return self.program.input_tokens / self.loop.input_tokens

    @property
    def dollar_ratio(self) -> float:
        return self.program.usd / self.loop.usd if self.loop.usd else float("nan")

    @property
    def same_answer(self) -> bool:
        return bool(self.loop.conclusion) and self.loop.conclusion == self.program.conclusion


def compare(llm: Any, task: Task | str = "large") -> Comparison:
    """``task`` on ``llm`` both ways."""
    chosen = TASKS[task] if isinstance(task, str) else task
    return Comparison(llm.api, measure(llm, programmatic=False, task=chosen),
                      measure(llm, programmatic=True, task=chosen), chosen.name, llm.prices.model)


def table(comparisons: Sequence[Comparison]) -> str:
    """Requests, input and output tokens, seconds and dollars of each way, per API and task."""
    lines = [f"{'api':<10} {'task':<6} {'way':<8} {'requests':>8} {'input tokens':>12} {'output tokens':>13} "
             f"{'seconds':>8} {'dollars':>9}  same answer"]
    for c in comparisons:
        for way in (c.loop, c.program):
            same = "yes" if c.same_answer else "no"
            lines.append(f"{c.api:<10} {c.task:<6} {way.name:<8} {way.requests:>8} {way.input_tokens:>12,} "
                         f"{way.output_tokens:>13,} {way.seconds:>7.3f}s {way.usd:>9.5f}  {same}")
    return "\n".join(lines)


def per_request(comparisons: Sequence[Comparison]) -> str:
    """Each request's input tokens, both ways: where the savings (or the extra cost) come from."""
    lines = []
    for c in comparisons:
        for way in (c.loop, c.program):
            counts = " + ".join(f"{n:,}" for n in way.per_request)
            lines.append(f"{c.api:<10} {c.task:<6} {way.name:<8} {counts} = {way.input_tokens:,}")
    return "\n".join(lines)


def bench_llm(api: str) -> Any:
    """The stand-in on ``api`` without latency (the counts are what matter), on Messages as :data:`MESSAGES_MODEL`."""
    from ..providers import connect

    return connect("offline", api=api, latency_scale=0, model=MESSAGES_MODEL if api == "messages" else None)


def bench_programmatic(
    apis: Sequence[str] = ("responses", "messages"), tasks: Sequence[str] = ("small", "large")
) -> list[Comparison]:
    """Each task both ways on the offline stand-in, for each API."""
    return [compare(bench_llm(api), task) for api in apis for task in tasks]


def bench_line(c: Comparison) -> str:
    """One measured line of ``python -m conductor bench programmatic``."""
    return (f"programmatic [{c.api}] {c.task}: {c.program.requests} requests vs {c.loop.requests} in the loop, "
            f"{c.token_ratio:.2f}x input tokens, {c.dollar_ratio:.2f}x dollars, "
            f"same answer: {'yes' if c.same_answer else 'no'}")


def misses(c: Comparison) -> str | None:
    """Why ``c`` misses the bench's goal (the large task: at most :data:`LARGE_TARGET` of the loop's input tokens,
    the same answer), or None; the small task is reported as it is."""
    if not c.same_answer:
        return f"programmatic [{c.api}] {c.task}: MISSED, the program's answer differs from the loop's"
    if c.task == "large" and c.token_ratio > LARGE_TARGET:
        return (f"programmatic [{c.api}] {c.task}: MISSED, {c.token_ratio:.2f}x input tokens is over the goal of "
                f"{LARGE_TARGET:.2f}x")
    return None


def print_programmatic(comparisons: Sequence[Comparison]) -> int:
    """Print each comparison's line, then a line for each goal missed; 1 when one was missed, else 0."""
    missed = [m for m in map(misses, comparisons) if m]
    for c in comparisons:
        print(bench_line(c))
    for c in comparisons:
        if c.program.containers is not None and c.program.containers.containers:
            print(f"container time [{c.api}] {c.task}: {c.program.containers}")
    for line in missed:
        print(line)
    return 1 if missed else 0
