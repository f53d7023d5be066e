"""Durable runs with worker processes: SIGKILLed mid-call and started again, an approval parked across a restart
and sent from the CLI, three workers on one queue, the crash soak.

Every case runs on SQLite; the ones marked ``postgres`` run again on the PostgreSQL server that
``CONDUCTOR_TEST_POSTGRES_URL`` names (``.ci/run`` starts one) and are skipped only when it is unset.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import conductor as cd
from conductor import durability
from conductor.course import durable_soak

sys.path.insert(0, str(Path(__file__).parent))
import durable_tools  # noqa: E402 - a module a worker process imports by name

from durable_tools import EMAIL, WEATHER, database as _database, ledger, ran as _ran  # noqa: E402,F401


def _worker(database: str, ledger: Path, executor_id: str = "local") -> subprocess.Popen:
    return durable_soak.start_worker(database, str(ledger), tools="durable_tools:TOOLS", executor_id=executor_id)


def _wait_for(predicate, seconds: float = 60.0) -> None:
    import time

    end = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.02)


def test_a_worker_killed_mid_call_resumes_and_a_non_idempotent_call_waits_for_a_person(tmp_path, ledger,
                                                                                        monkeypatch):
    release = tmp_path / "release"
    monkeypatch.setenv(durable_tools.RELEASE_ENV, str(release))
    database = _database(tmp_path, "sqlite")
    worker = _worker(database, ledger)  # creates the database
    durable_tools.enqueue(database, EMAIL, "run-email")
    _wait_for(lambda: _ran(ledger, "send_email") == 1)  # the e-mail went; its result is not yet recorded
    durable_soak.kill(worker)
    release.touch()
    worker = _worker(database, ledger)
    try:
        with durability.DurableClient(database) as client:
            pending = client.wait_pending("run-email")
            assert pending.kind == "interrupted" and [c.name for c in pending.calls] == ["send_email"]
            assert _ran(ledger, "send_email") == 1  # not run again unasked
            call = pending.calls[0]
            client.complete("run-email", call.id, durable_soak.email_receipt("ops@example.com", "The server is down."))
            result = client.result("run-email", timeout=60)
    finally:
        durable_soak.kill(worker)
    plain = durable_soak.offline_llm().run(EMAIL, tools=durable_tools.TOOLS)
    assert result.answer == plain.answer
    assert _ran(ledger, "send_email") == 1


@pytest.mark.slow  # make test sees it in lesson 09's section 3 (nbval)
def test_an_idempotent_call_cut_off_runs_again_and_completed_calls_do_not(tmp_path, ledger, monkeypatch):
    release = tmp_path / "release"
    monkeypatch.setenv(durable_tools.RELEASE_ENV, str(release))
    database = _database(tmp_path, "sqlite")
    worker = _worker(database, ledger)
    durable_tools.enqueue(database, WEATHER, "run-weather")
    _wait_for(lambda: _ran(ledger, "get_weather") == 3)  # three parallel calls, all in flight
    durable_soak.kill(worker)
    release.touch()
    worker = _worker(database, ledger)
    try:
        with durability.DurableClient(database) as client:
            result = client.result("run-weather", timeout=60)
    finally:
        durable_soak.kill(worker)
    assert [c.name for c in result.tool_calls] == ["get_weather"] * 3
    assert _ran(ledger, "get_weather") == 6  # each cut-off call once more, as idempotent= allows
    assert result.answer == durable_soak.offline_llm().run(WEATHER, tools=durable_tools.TOOLS, parallel=True).answer


def test_a_parked_approval_survives_a_restart_and_the_cli_approves_it_from_another_process(tmp_path, ledger):
    database = _database(tmp_path, "sqlite")
    worker = _worker(database, ledger)
    question = "Send 500 dollars to Anna."
    durable_tools.enqueue(database, question, "run-transfer")
    with durability.DurableClient(database) as client:
        call = client.wait_pending("run-transfer").calls[0]
    durable_soak.kill(worker)  # the run is parked: no process holds it now
    worker = _worker(database, ledger)
    try:
        with durability.DurableClient(database) as client:
            assert client.wait_pending("run-transfer").calls == (call,)  # still parked after the restart
            cli = [sys.executable, "-m", "conductor", "approve", "run-transfer", call.id, "--database", database]
            env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
            said = subprocess.run(cli, capture_output=True, text=True, env=env, check=True).stdout
            assert said.strip() == f"approved {call.id} of run-transfer"
            result = client.result("run-transfer", timeout=60)
    finally:
        durable_soak.kill(worker)
    assert [(c.name, c.is_error) for c in result.tool_calls] == [("transfer_money", False)]
    assert _ran(ledger, "transfer_money") == 1


def test_the_worker_command_serves_the_queue_and_the_cli_denies_a_call(tmp_path, ledger):
    database = _database(tmp_path, "sqlite")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    bad = subprocess.run([sys.executable, "-m", "conductor", "worker", "--tools", "no_such_module:TOOLS",
                          "--database", database], capture_output=True, text=True, env=env)
    assert bad.returncode == 2 and "--tools 'no_such_module:TOOLS'" in bad.stderr and "PYTHONPATH" in bad.stderr
    worker = subprocess.Popen([sys.executable, "-m", "conductor", "worker", "--tools", "durable_tools:TOOLS",
                               "--database", database, "--executor-id", "w1"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        assert worker.stdout is not None and worker.stdout.readline().startswith("serving durable runs on sqlite:")
        durable_tools.enqueue(database, WEATHER, "run-served")
        durable_tools.enqueue(database, "Send 500 dollars to Anna.", "run-denied")
        with durability.DurableClient(database) as client:
            served = client.result("run-served", timeout=60)
            pending = client.wait_pending("run-denied")
            assert [c.name for c in pending] == ["transfer_money"] and pending[0] is pending.calls[0]
            cli = [sys.executable, "-m", "conductor", "approve", "run-denied", pending[0].id, "--deny",
                   "--database", database]
            assert subprocess.run(cli, capture_output=True, text=True, env=env, check=True).stdout.startswith(
                "rejected")
            denied = client.result("run-denied", timeout=60)
        worker.terminate()  # SIGTERM: the worker shuts DBOS down and exits cleanly
        assert worker.wait(timeout=30) == 0
    finally:
        if worker.poll() is None:
            durable_soak.kill(worker)
    assert len(served.tool_calls) == 3 and denied.tool_calls[0].blocked == "denied"
    assert _ran(ledger, "transfer_money") == 0


# -- many workers ----------------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("kind", ["postgres"])  # on SQLite: lesson 09's section 5, which nbval runs
def test_three_workers_share_one_queue(tmp_path, ledger, kind):
    database = _database(tmp_path, kind)
    first = _worker(database, ledger, "worker-0")  # creates the database; the other two start together
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(2) as pool:
        workers = [first, *pool.map(lambda i: _worker(database, ledger, f"worker-{i}"), (1, 2))]
    try:
        ids = [f"run-many-{i}" for i in range(9)]
        for run_id in ids:
            durable_tools.enqueue(database, WEATHER, run_id)
        with durability.DurableClient(database) as client:
            results = [client.result(run_id, timeout=120) for run_id in ids]
            executors = {client.executor(run_id) for run_id in ids}
    finally:
        for worker in workers:
            durable_soak.kill(worker)
    assert len({r.answer for r in results}) == 1
    assert _ran(ledger, "get_weather") == 27  # every call once
    assert executors <= {"worker-0", "worker-1", "worker-2"}


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["postgres"])
def test_a_dollar_budget_for_the_queue_holds_across_three_workers(tmp_path, ledger, kind):
    database = _database(tmp_path, kind)
    one = durable_soak.offline_llm().run(WEATHER, tools=durable_tools.TOOLS, parallel=True, max_tokens=100).cost
    durability.QueueBudget(database, durability.DEFAULT_QUEUE, one * 4.5).close()  # set once; no worker is told it
    workers = [_worker(database, ledger, f"worker-{i}") for i in range(3)]
    try:
        ids = [f"run-budget-{i}" for i in range(9)]
        planner = cd.durable(durable_soak.offline_llm(), tools=durable_tools.TOOLS, database=database, launch=False)
        for run_id in ids:
            planner.enqueue(WEATHER, run_id=run_id, parallel=True, max_tokens=100)
        with durability.DurableClient(database) as client:
            results = [client.result(run_id, timeout=120) for run_id in ids]
            executors = {client.executor(run_id) for run_id in ids}
        budget = durability.QueueBudget(database, durability.DEFAULT_QUEUE)
        usd, spent, reserved = budget.state()
        budget.close()
    finally:
        for worker in workers:
            durable_soak.kill(worker)
    stopped = [r.stopped_by for r in results]
    assert "budget" in stopped and None in stopped and len(executors) >= 2
    assert spent <= usd and reserved == pytest.approx(0.0, abs=1e-12)
    assert spent == pytest.approx(sum(r.cost for r in results))


@pytest.mark.slow
def test_a_small_crash_soak_loses_nothing_and_runs_no_call_twice(tmp_path):
    report = durable_soak.crash_soak(8, kill_after=(0.4, 0.9), folder=str(tmp_path), limit=240)
    assert (report.finished, report.twice, report.lost, report.same) == (8, 0, 0, 8), report.line()
    assert report.kills >= 1
