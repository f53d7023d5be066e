"""The crash soak of durable runs: many conversations on one database, the worker killed at random points.

``python -m conductor soak --crash`` enqueues conversations (weather look-ups in parallel,
e-mails sent one at a time, some of them needing approval), starts a worker process,
SIGKILLs it at random moments (before a request, mid-call, between two parallel calls,
while a run waits for approval) and starts it again, until every run has ended. The
tools write every execution to a ledger (its own SQLite file), so the report counts what
really ran: a completed call that ran again, a run that never finished, and whether each
answer is the one an uninterrupted run gives.

The driver plays the person: it approves the calls that wait for approval, and for a call
cut off by a dead worker (an e-mail that may or may not have gone) it looks in the ledger,
as a person would look in the outbox: sent, it gives the result; not sent, it lets it run again.
"""

from __future__ import annotations

import json
import logging
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import durability
from ..tools import tool

logger = logging.getLogger(__name__)

LEDGER_ENV = "CONDUCTOR_SOAK_LEDGER"
RELEASE_ENV = "CONDUCTOR_SOAK_RELEASE"  # a file: when set, each call holds until it exists (to kill mid-call)
CITIES = ("Beijing", "Shanghai", "Paris", "Oslo", "Rome", "Madrid", "Lisbon", "Tokyo")


def _ledger(tool_name: str, arguments: dict[str, Any]) -> None:
    """Write one execution to the ledger (the side effect the soak counts), keyed by run and arguments."""
    path = os.environ.get(LEDGER_ENV)
    if not path:
        return
    from ..durability import current_run_id

    with sqlite3.connect(path, timeout=30) as db:
        db.execute("INSERT INTO effects VALUES (?, ?, ?)",
                   (current_run_id() or "", tool_name, json.dumps(arguments, sort_keys=True)))


def _pause(hold: bool = True) -> None:
    """A tool's own latency: long enough for a kill to land inside a call; with ``hold``, held until the
    release file exists when one is named (a lesson or a test kills the worker in the middle of the call)."""
    time.sleep(random.uniform(0.002, 0.03))
    release = os.environ.get(RELEASE_ENV) if hold else None
    end = time.monotonic() + 60
    while release and not os.path.exists(release) and time.monotonic() < end:
        time.sleep(0.01)


@tool(idempotent=True)
def get_weather(city: str) -> dict:
    """Get today's weather for a city.

    Args:
        city: the city name
    """
    _ledger("get_weather", {"city": city})
    _pause()
    return {"city": city, "temp_c": 8 + 2 * len(city)}


def email_receipt(to: str, body: str) -> str:
    """What send_email returns: a person who finds the e-mail in the outbox can say it again."""
    return f"sent to {to} ({len(body)} characters)"


@tool(requires_approval=lambda args: args["to"].endswith("@partner.example"))
def send_email(to: str, subject: str, body: str) -> str:
    """Send an e-mail.

    Args:
        to: the recipient's e-mail address
        subject: the subject line
        body: the message text
    """
    _pause(hold=False)  # a kill here: the e-mail has not gone
    _ledger("send_email", {"to": to, "subject": subject, "body": body})
    _pause()  # a kill here: it has, but its result is not recorded
    return email_receipt(to, body)


TOOLS = [get_weather, send_email]


def questions(count: int, seed: int = 0) -> list[str]:
    """``count`` questions: weather in two or three cities (parallel calls), or one e-mail (a quarter of
    them to a partner, which needs approval)."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        if i % 2 == 0:
            cities = rng.sample(CITIES, rng.choice((2, 3)))
            out.append(f"Check the weather in {', '.join(cities[:-1])} and {cities[-1]}.")
        else:
            domain = "partner.example" if i % 4 == 1 else "example.com"
            out.append(f"Send an e-mail to user{i}@{domain} with the subject 'Report {i}' and the body "
                       f"'Report {i} is ready.'")
    return out


def offline_llm() -> Any:
    """The stand-in, answering at once (the soak measures the engine, not the model's latency)."""
    from .. import connect

    return connect("offline", latency_scale=0.0)


def run_options() -> dict[str, Any]:
    return {"max_rounds": 2, "parallel": True}


# -- the worker ----------------------------------------------------------------------------------

def worker(database: str, concurrency: int = 4, tools: str = "", executor_id: str = "local") -> None:
    """Serve durable runs until killed (what the soak starts and kills). ``tools``: ``module:attribute``
    naming a list of tools (default: this module's)."""
    import importlib

    served = TOOLS
    if tools:
        module, _, attribute = tools.partition(":")
        served = getattr(importlib.import_module(module), attribute)
    app = durability.durable(offline_llm(), tools=served, database=database, worker_concurrency=concurrency,
                             executor_id=executor_id)
    print("ready", flush=True)
    try:
        while True:
            time.sleep(3600)
    finally:
        app.shutdown()


def start_worker(database: str, ledger: str, concurrency: int = 4, tools: str = "",
                 executor_id: str = "local") -> subprocess.Popen[str]:
    """A worker process; returns once it serves the database."""
    env = {**os.environ, LEDGER_ENV: ledger, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    errors = tempfile.TemporaryFile(mode="w+")  # not a pipe: a worker that logs much would block on a full one
    process = subprocess.Popen(
        [sys.executable, "-m", "conductor.course.durable_soak", database, str(concurrency), tools, executor_id],
        stdout=subprocess.PIPE, stderr=errors, text=True, env=env,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    if line.strip() != "ready":
        process.kill()
        process.wait()
        errors.seek(0)
        raise RuntimeError(f"the durable worker did not start: {errors.read()[-2000:]}")
    return process


def kill(process: subprocess.Popen[str]) -> None:
    """SIGKILL: no clean-up of any kind, as when a machine is lost."""
    process.send_signal(signal.SIGKILL)
    process.wait()


# -- the driver ----------------------------------------------------------------------------------

@dataclass
class CrashSoak:
    """What a crash soak measured."""

    conversations: int
    finished: int
    twice: int  # completed calls of tools not marked idempotent that ran again
    lost: int  # runs that never finished
    same: int  # answers equal to an uninterrupted run's
    kills: int
    idempotent_again: int  # calls of idempotent tools run again after a crash (allowed)
    interrupted: int  # calls a person had to decide on
    approvals: int
    seconds: float
    runs: list[str] = field(default_factory=list, repr=False)

    def line(self) -> str:
        n = self.conversations
        return (f"crash soak: {self.finished}/{n} finished, {self.twice} tool calls run twice, {self.lost} lost, "
                f"same answer {self.same}/{n}")

    def details(self) -> str:
        return (f"{self.kills} kills in {self.seconds:.0f} s; {self.interrupted} calls cut off mid-call were decided "
                f"by the ledger, {self.approvals} approvals sent; {self.idempotent_again} idempotent calls ran again")


def _decide(client: durability.DurableClient, run_id: str, ledger: str, counts: dict[str, int],
            decided: set[tuple[str, int, str]]) -> None:
    """Play the person for one parked run (once per call and pause: the run may not have read it yet)."""
    pending = client.pending(run_id)
    for call in pending.calls:
        if (run_id, pending.pause, call.id) in decided:
            continue
        decided.add((run_id, pending.pause, call.id))
        try:
            if pending.kind == "approval":
                client.approve(run_id, call.id)
                counts["approvals"] += 1
                continue
            counts["interrupted"] += 1
            arguments = dict(call.arguments)
            with sqlite3.connect(ledger, timeout=30) as db:
                sent = db.execute("SELECT 1 FROM effects WHERE run = ? AND tool = ? AND arguments = ?",
                                  (run_id, call.name, json.dumps(arguments, sort_keys=True))).fetchone()
            if sent and call.name == "send_email":
                client.complete(run_id, call.id, email_receipt(arguments["to"], arguments["body"]))
            else:
                client.approve(run_id, call.id)
        except KeyError:
            pass  # decided already (the worker has not yet read it)


def crash_soak(conversations: int = 200, *, seed: int = 0, kill_after: tuple[float, float] = (0.5, 2.0),
               concurrency: int = 8, folder: str | None = None, limit: float = 900.0) -> CrashSoak:
    """Run ``conversations`` durable runs on a fresh SQLite database, killing the worker at random."""
    rng = random.Random(seed)
    began = time.perf_counter()
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        database = f"sqlite:///{Path(tmp) / 'runs.sqlite'}"
        ledger = str(Path(tmp) / "ledger.sqlite")
        with sqlite3.connect(ledger) as db:
            db.execute("CREATE TABLE effects (run TEXT, tool TEXT, arguments TEXT)")
        asked = questions(conversations, seed)
        llm = offline_llm()
        reference = {q: llm.run(q, tools=TOOLS, approve=lambda call: True, **run_options()).answer
                     for q in set(asked)}
        process = start_worker(database, ledger, concurrency)
        planner = durability.durable(llm, tools=TOOLS, database=database, launch=False)  # enqueues, serves nothing
        client = durability.DurableClient(database)
        ids = [planner.enqueue(question, run_id=f"soak-{i:04d}", **run_options()) for i, question in enumerate(asked)]
        counts = {"kills": 0, "approvals": 0, "interrupted": 0}
        decided: set[tuple[str, int, str]] = set()
        try:
            while time.perf_counter() - began < limit:
                next_kill = time.perf_counter() + rng.uniform(*kill_after)
                while time.perf_counter() < next_kill:
                    for run_id in client.runs(status="PARKED"):
                        _decide(client, run_id, ledger, counts, decided)
                    time.sleep(0.05)
                open_runs = client.runs(status=["PENDING", "ENQUEUED", "PARKED"])
                if not open_runs:
                    break
                kill(process)
                counts["kills"] += 1
                process = start_worker(database, ledger, concurrency)
        finally:
            kill(process)
        finished, same = 0, 0
        for run_id, question in zip(ids, asked):
            if client.status(run_id) != "SUCCESS":
                continue
            finished += 1
            same += client.result(run_id).answer == reference[question]
        with sqlite3.connect(ledger) as db:
            rows = db.execute("SELECT tool, COUNT(*) FROM effects GROUP BY run, tool, arguments "
                              "HAVING COUNT(*) > 1").fetchall()
        client.close()
        planner.shutdown()
    twice = sum(n - 1 for name, n in rows if name == "send_email")
    again = sum(n - 1 for name, n in rows if name == "get_weather")
    return CrashSoak(conversations, finished, twice, conversations - finished, same, counts["kills"], again,
                     counts["interrupted"], counts["approvals"], time.perf_counter() - began, ids)


if __name__ == "__main__":
    logging.basicConfig(level=logging.WARNING)
    arguments = sys.argv[1:] + ["4", "", "local"][len(sys.argv) - 2:]
    worker(arguments[0], int(arguments[1]), arguments[2], arguments[3])
