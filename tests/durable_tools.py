"""Tools for the durable-run tests, importable by a worker process: a call that blocks until the test lets it
go (so the worker can be killed in the middle of it), and every execution written to the soak's ledger."""

from __future__ import annotations

import conductor as cd
from conductor.course.durable_soak import RELEASE_ENV, _ledger, _pause, email_receipt

__all__ = ["RELEASE_ENV", "TOOLS", "OTHER_TOOLS", "enqueue"]


def _hold() -> None:
    _pause()


@cd.tool
def send_email(to: str, subject: str, body: str) -> str:
    """Send an e-mail.

    Args:
        to: the recipient's e-mail address
        subject: the subject line
        body: the message text
    """
    _ledger("send_email", {"to": to, "subject": subject, "body": body})
    _hold()
    return email_receipt(to, body)


@cd.tool(idempotent=True)
def get_weather(city: str) -> dict:
    """Get today's weather for a city.

    Args:
        city: the city name
    """
    _ledger("get_weather", {"city": city})
    _hold()
    return {"city": city, "temp_c": 8 + 2 * len(city)}


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
