"""What a recorded step costs (issue: durable steps under 2 ms on SQLite): a parallel batch's calls look
their steps up in turn and still run side by side, DBOS's pool for a SQLite file, and the durable bench
counting the steps DBOS recorded."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import pytest

import conductor as cd
from conductor import durability
from conductor.course import durable_bench, durable_soak

sys.path.insert(0, str(Path(__file__).parent))
import durable_tools  # noqa: E402 - a module a worker process imports by name

from durable_tools import WEATHER, database as _database, ledger  # noqa: E402,F401


def test_a_parallel_batch_looks_its_steps_up_in_turn_and_still_runs_its_calls_side_by_side(tmp_path, monkeypatch):
    from dbos import DBOS, StepReservation

    events: list[tuple[str, int]] = []
    lock = threading.Lock()
    reserved: list[int] = []
    together = threading.Barrier(3, timeout=30)  # WEATHER asks for three cities: three calls in one batch
    gated = {"on": True}

    original_reserve, original_run = DBOS.__dict__["reserve_step"], StepReservation.run

    def reserve(cls):  # type: ignore[no-untyped-def]
        reservation = original_reserve.__func__(cls)
        reserved.append(reservation.step_id)
        return reservation

    def run(reservation, options, func, *args):  # type: ignore[no-untyped-def]
        step = reservation.step_id
        with lock:
            events.append(("lookup", step))
        if gated["on"] and step == reserved[0]:
            time.sleep(0.2)  # the first call's look-up is slow: the others must not start theirs meanwhile

        def work(*inner):  # type: ignore[no-untyped-def]
            with lock:
                events.append(("work", step))
            return func(*inner)

        return original_run(reservation, options, work, *args)

    original_call = durability.run_call

    def call(*args, **kwargs):  # type: ignore[no-untyped-def]
        if gated["on"]:
            together.wait()  # passes only when all three calls run at the same time
        return original_call(*args, **kwargs)

    monkeypatch.setattr(DBOS, "reserve_step", classmethod(reserve))
    monkeypatch.setattr(StepReservation, "run", run)
    monkeypatch.setattr(durability, "run_call", call)
    llm = durable_soak.offline_llm()
    plain = llm.run(WEATHER, tools=[durable_soak.get_weather], parallel=True)
    with cd.durable(llm, tools=[durable_soak.get_weather], database=_database(tmp_path, "sqlite")) as app:
        result = app.run(WEATHER, parallel=True)
        gated["on"] = False
        one_at_a_time = app.run(WEATHER, parallel=True, max_workers=1)  # one slot: the turns never wait on it
    assert len(reserved) >= 3 and not together.broken
    first = reserved[:3]
    for before, after in zip(first, first[1:]):
        assert events.index(("work", before)) < events.index(("lookup", after)), events
    for done in (result, one_at_a_time):
        assert [(c.name, c.arguments, c.output) for c in done.tool_calls] == [
            (c.name, c.arguments, c.output) for c in plain.tool_calls]


def test_dbos_pool_for_a_sqlite_file_hands_out_the_last_connection_and_never_pings_it(tmp_path):
    from dbos._dbos import _get_dbos_instance  # DBOS 3.4.0 (pinned) keeps its engine there

    with cd.durable(durable_soak.offline_llm(), tools=[durable_soak.get_weather],
                    database=_database(tmp_path, "sqlite")) as app:
        app.run("Check the weather in Oslo.")
        pool = _get_dbos_instance()._sys_db.engine.pool
        assert pool._pre_ping is False
        assert pool._pool.use_lifo is True


def test_the_durable_bench_counts_the_steps_dbos_recorded(tmp_path):
    cost = durable_bench.measure(f"sqlite:///{tmp_path / 'bench.sqlite'}", conversations=2)
    assert (cost.steps, cost.requests, cost.tool_calls) == (4, 2, 2)
    assert cost.step_ms > 0 and cost.step_cpu_ms > 0


def test_the_durable_bench_refuses_a_per_step_figure_when_a_recorded_step_was_not_timed(tmp_path, monkeypatch):
    from dbos import DBOS

    drive = durability.drive

    def drive_with_an_event(run):  # type: ignore[no-untyped-def]
        DBOS.set_event("bench.extra", "a step DBOS records without DBOS.run_step")
        return drive(run)

    monkeypatch.setattr(durability, "drive", drive_with_an_event)
    with pytest.raises(RuntimeError, match="steps timed, but DBOS recorded"):
        durable_bench.measure(f"sqlite:///{tmp_path / 'bench.sqlite'}", conversations=2)
