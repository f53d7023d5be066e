"""Tools for the durable-run tests, importable by a worker process: a call that blocks until the test lets it
go (so the worker can be killed in the middle of it), and every execution written to the soak's ledger."""

from __future__ import annotations

import os
import sqlite3
import uuid
from pathlib import Path

import pytest

import conductor as cd
from conductor.course.durable_soak import RELEASE_ENV, _ledger, _pause, email_receipt, get_weather

__all__ = ["EMAIL", "RELEASE_ENV", "TOOLS", "OTHER_TOOLS", "WEATHER", "database", "enqueue", "ledger", "ran"]

POSTGRES = os.environ.get("CONDUCTOR_TEST_POSTGRES_URL")
EMAIL = "Send an e-mail to ops@example.com with the subject 'Server down' and the body 'The server is down.'"
WEATHER = "Check the weather in Oslo, Paris and Rome."


@cd.tool
def send_email(to: str, subject: str, body: str) -> str:
    """Send an e-mail.

    Args:
        to: the recipient's e-mail address
        subject: the subject line
        body: the message text
    """
    _ledger("send_email", {"to": to, "subject": subject, "body": body})
    _pause()
    return email_receipt(to, body)


@cd.tool(requires_approval=True)
def transfer_money(to: str, amount: float) -> dict:
    """Transfer money to a person.

    Args:
        to: who receives the money
        amount: how many dollars to send
    """
    _ledger("transfer_money", {"to": to, "amount": amount})
    return {"to": to, "amount": amount, "status": "sent"}


TOOLS = [send_email, get_weather, transfer_money]
OTHER_TOOLS = [get_weather]


def enqueue(database: str, question: str, run_id: str, tools: list = TOOLS) -> None:
    """Put a run on the default queue from this process, which serves nothing (enqueue never launches)."""
    from conductor.course.durable_soak import offline_llm

    cd.durable(offline_llm(), tools=tools, database=database, launch=False).enqueue(question, run_id=run_id,
                                                                                   parallel=True)


# -- what both test modules use ------------------------------------------------------------------


@pytest.fixture
def ledger(tmp_path, monkeypatch):
    """A fresh ledger of tool executions, named to the tools (and the workers started) through the environment."""
    path = tmp_path / "ledger.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE effects (run TEXT, tool TEXT, arguments TEXT)")
    from conductor.course import durable_soak

    monkeypatch.setenv(durable_soak.LEDGER_ENV, str(path))
    return path


def ran(ledger: Path, tool: str) -> int:
    """How many times durable runs executed ``tool``."""
    with sqlite3.connect(ledger) as db:
        # Only durable runs' executions: an ordinary run computed for comparison has no run id.
        return db.execute("SELECT COUNT(*) FROM effects WHERE tool = ? AND run != ''", (tool,)).fetchone()[0]


def database(tmp_path: Path, kind: str) -> str:
    """A fresh system database of ``kind``: a SQLite file, or a new database on the PostgreSQL server."""
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'runs.sqlite'}"
    if not POSTGRES:
        pytest.skip("CONDUCTOR_TEST_POSTGRES_URL is not set (.ci/run starts a PostgreSQL server and sets it)")
    # One database per test: a fresh queue and no runs left by another test.
    import psycopg

    name = f"conductor_test_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(POSTGRES, autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}")
    return POSTGRES.rsplit("/", 1)[0] + "/" + name
