"""What durability costs: durable runs against the in-memory run, per step and per conversation.

``python -m conductor bench durable`` runs the same conversations (two weather look-ups in
parallel, then the answer: 2 model requests and 2 tool calls, so 4 recorded steps) with
``llm.run`` and with ``cd.durable(...).run`` on SQLite (and on PostgreSQL when
``CONDUCTOR_TEST_POSTGRES_URL`` or ``--postgres`` names a server), on the stand-in answering
at once, so the difference is the engine's; then sets it against the model latency a real
request has (the stand-in's latency model, calibrated on recorded requests).
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from .. import durability
from . import durable_soak

QUESTION = "Check the weather in Oslo and Paris."
SHORT = "Check the weather in Oslo."  # one call fewer
LONG = "Check the weather in Oslo, Paris, Rome and Madrid."  # two calls more


@dataclass(frozen=True)
class DurableCost:
    """One database's measurement: medians in ms, in memory and durable, of a short and a long conversation."""

    database: str
    conversations: int
    steps: tuple[int, int]  # recorded steps (requests + tool calls) of the short and the long conversation
    memory_ms: tuple[float, float]
    durable_ms: tuple[float, float]

    @property
    def per_step_ms(self) -> float:
        """What one more recorded step adds: the slope between the short and the long conversation."""
        extra = [d - m for d, m in zip(self.durable_ms, self.memory_ms)]
        return (extra[1] - extra[0]) / (self.steps[1] - self.steps[0])

    @property
    def per_conversation_ms(self) -> float:
        """What durability adds to the short conversation (workflow start and end plus its steps)."""
        return self.durable_ms[0] - self.memory_ms[0]


def _median_ms(run: object, conversations: int) -> float:
    times = []
    for _ in range(conversations):
        began = time.perf_counter()
        run()  # type: ignore[operator]
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)


def measure(database: str, conversations: int = 50) -> DurableCost:
    """Median ms per conversation in memory and durable on ``database``, for a short and a long one."""
    llm = durable_soak.offline_llm()
    tools = [durable_soak.get_weather]
    options = {"max_rounds": 2, "parallel": True}
    steps, memory, durable = [], [], []
    with durability.durable(llm, tools=tools, database=database) as app:
        app.run(QUESTION, **options)  # warm: the first run loads what every later one reuses
        for question in (SHORT, LONG):
            result = llm.run(question, tools=tools, **options)
            steps.append(result.api_calls + len(result.tool_calls))
            memory.append(_median_ms(lambda: llm.run(question, tools=tools, **options), conversations))
            durable.append(_median_ms(lambda: app.run(question, **options), conversations))
    kind = "PostgreSQL" if database.startswith("postgres") else "SQLite"
    return DurableCost(kind, conversations, (steps[0], steps[1]), (memory[0], memory[1]), (durable[0], durable[1]))


def model_latency_ms(keys: int = 200) -> float:
    """The median ms of this benchmark's requests at the stand-in's default latency (0.25 s to the first
    token, 4 ms a token, ±20%), computed from the requests' own token counts, not slept."""
    from ..offline import LatencyModel

    result = durable_soak.offline_llm().run(QUESTION, tools=[durable_soak.get_weather], max_rounds=2, parallel=True)
    model = LatencyModel()
    samples = [model.timing(key, call.usage.input_tokens).total(call.usage.output_tokens)
               for key in range(keys) for call in result.trace.model_calls]
    return statistics.median(samples) * 1000


def bench(conversations: int = 50, postgres: str | None = None) -> list[DurableCost]:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        rows.append(measure(f"sqlite:///{Path(tmp) / 'bench.sqlite'}", conversations))
    postgres = postgres or os.environ.get("CONDUCTOR_TEST_POSTGRES_URL")
    if postgres:
        rows.append(measure(postgres, conversations))
    return rows


def print_bench(rows: list[DurableCost], latency_ms: float | None) -> None:
    first = rows[0]
    print(f"median ms of {first.conversations} conversations of {first.steps[0]} and {first.steps[1]} recorded steps "
          "(requests + tool calls), stand-in answering at once")
    print(f"{'database':<11} {'in memory':>15} {'durable':>15} {'per conversation':>17} {'per step':>9}")
    for row in rows:
        print(f"{row.database:<11} {row.memory_ms[0]:>7.1f} {row.memory_ms[1]:>7.1f} "
              f"{row.durable_ms[0]:>7.1f} {row.durable_ms[1]:>7.1f} {row.per_conversation_ms:>15.1f}ms "
              f"{row.per_step_ms:>7.2f}ms")
    if latency_ms:
        step = first.per_step_ms
        print(f"a model request takes ~{latency_ms:.0f} ms at the stand-in's default latency (real models: "
              f"seconds); one recorded step on SQLite is {100 * step / latency_ms:.1f}% of that")
