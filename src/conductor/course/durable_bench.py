"""What durability costs: durable runs against the in-memory run, per step and per conversation.

``python -m conductor bench durable`` runs the same conversation (two weather look-ups in
parallel, then the answer: 2 model requests and 2 tool calls, 4 recorded steps) with ``llm.run``
and with ``cd.durable(...).run`` on SQLite (and on PostgreSQL when ``CONDUCTOR_TEST_POSTGRES_URL``
names a server), on the stand-in answering at once, so the difference is the engine's. The k-th
conversation draws the same tool latencies in both (the tool's random pause, seeded with k). Per
conversation: the difference of the medians (the workflow's start, input, output and steps). Per
step: each DBOS step's call timed minus the work inside it (what writing its record costs),
median, and the same in CPU time of the step's thread (which waiting for the processor does not
stretch); the steps counted are the ones DBOS recorded (``DBOS.list_workflow_steps``), and every
one of them was timed. Then set against a model request at the stand-in's default latency.
"""

from __future__ import annotations

import os
import random
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import durability
from . import durable_soak

QUESTION = "Check the weather in Oslo and Paris."


@dataclass(frozen=True)
class DurableCost:
    """One database's measurement, in ms: medians per conversation, and what recording adds to one step."""

    database: str
    conversations: int
    steps: int  # steps DBOS recorded for one conversation (requests + tool calls)
    memory_ms: float  # median per conversation, llm.run
    durable_ms: float  # median per conversation, durable
    step_ms: float  # median time a step took beyond its own work (the record written, read back on replay)
    requests: int = 0  # of the steps: model requests
    tool_calls: int = 0  # of the steps: tool calls
    step_cpu_ms: float = 0.0  # median CPU time of the step's thread beyond its own work: the part other
    # processes on a loaded machine (and the step's parallel siblings) do not stretch

    @property
    def per_conversation_ms(self) -> float:
        return self.durable_ms - self.memory_ms


class _StepTimer:
    """Times every DBOS step: its whole call minus the work inside it, i.e. what recording it costs (wall
    time, and the CPU time of the thread that runs the step)."""

    def __init__(self) -> None:
        self.overheads: list[float] = []
        self.cpu: list[float] = []

    def __enter__(self) -> _StepTimer:
        from dbos import DBOS
        from dbos import StepReservation

        self._saved = (DBOS.__dict__["run_step"], StepReservation.run)
        timer = self

        def timed(run: Any, options: Any, func: Any, *args: Any) -> Any:
            inner: list[float] = []
            inner_cpu: list[float] = []

            def work() -> Any:
                began, began_cpu = time.perf_counter(), time.thread_time()
                try:
                    return func(*args)
                finally:
                    inner.append(time.perf_counter() - began)
                    inner_cpu.append(time.thread_time() - began_cpu)

            began, began_cpu = time.perf_counter(), time.thread_time()
            result = run(options, work)
            timer.cpu.append(time.thread_time() - began_cpu - sum(inner_cpu))
            timer.overheads.append(time.perf_counter() - began - sum(inner))
            return result

        original_step, original_run = self._saved
        DBOS.run_step = classmethod(lambda cls, options, func, *args: timed(  # type: ignore[method-assign]
            lambda o, w: original_step.__func__(cls, o, w), options, func, *args))
        StepReservation.run = lambda reservation, options, func, *args: timed(  # type: ignore[method-assign]
            lambda o, w: original_run(reservation, o, w), options, func, *args)
        return self

    def __exit__(self, *exc: Any) -> None:
        from dbos import DBOS
        from dbos import StepReservation

        DBOS.run_step, StepReservation.run = self._saved  # type: ignore[method-assign]


def _median_ms(run: Any, conversations: int) -> float:
    times = []
    for k in range(conversations):
        random.seed(k)  # the k-th conversation's tool latencies, the same in memory and durable
        began = time.perf_counter()
        run()
        times.append((time.perf_counter() - began) * 1000)
    random.seed()
    return statistics.median(times)


def measure(database: str, conversations: int = 50) -> DurableCost:
    """Median ms per conversation in memory and durable on ``database``, and per recorded step."""
    llm = durable_soak.offline_llm()
    tools = [durable_soak.get_weather]
    options = {"max_rounds": 2, "parallel": True}
    memory = _median_ms(lambda: llm.run(QUESTION, tools=tools, **options), conversations)
    with durability.durable(llm, tools=tools, database=database) as app:
        app.run(QUESTION, **options)  # warm: the first run loads what every later one reuses
        run_ids: list[str] = []

        def durable_run() -> None:  # app.run, keeping the run's id to read its recorded steps
            run_ids.append(app.start(QUESTION, **options))
            app.result(run_ids[-1])

        with _StepTimer() as timer:
            durable = _median_ms(durable_run, conversations)
        recorded = [[name for _, name in app.steps(run_id)] for run_id in run_ids]
    if len(timer.overheads) != sum(map(len, recorded)) or len({tuple(r) for r in recorded}) != 1:
        raise RuntimeError(f"{len(timer.overheads)} steps timed, but DBOS recorded {sum(map(len, recorded))} "
                           f"in {conversations} conversations ({sorted({len(r) for r in recorded})} a conversation): "
                           "the per-step figure would not be per recorded step")
    names = recorded[0]
    kind = "PostgreSQL" if database.startswith("postgres") else "SQLite"
    return DurableCost(kind, conversations, len(names), memory, durable, statistics.median(timer.overheads) * 1000,
                       requests=sum(n == "conductor.model" for n in names),
                       tool_calls=sum(n.startswith("conductor.tool:") for n in names),
                       step_cpu_ms=statistics.median(timer.cpu) * 1000)


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
    print(f"median of {first.conversations} conversations of {first.steps} recorded steps ({first.requests} requests, "
          f"{first.tool_calls} tool calls), the stand-in answering at once")
    print(f"{'database':<11} {'in memory':>10} {'durable':>9} {'per conversation':>17} {'per step':>9} "
          f"{'(its CPU)':>9}")
    for row in rows:
        print(f"{row.database:<11} {row.memory_ms:>8.1f}ms {row.durable_ms:>7.1f}ms {row.per_conversation_ms:>15.1f}ms "
              f"{row.step_ms:>7.2f}ms {row.step_cpu_ms:>7.2f}ms")
    if latency_ms:
        print(f"a model request takes ~{latency_ms:.0f} ms at the stand-in's default latency (real models: "
              f"seconds); one recorded step on SQLite is {100 * first.step_ms / latency_ms:.1f}% of that")
