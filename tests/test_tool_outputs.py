"""What a tool returns, as the model reads it: valid JSON through pydantic, or an error result.

Every rendered value is checked with ``json.loads`` (the model gets JSON it can parse),
and through a run on each of the three APIs the text in the request body is the text recorded.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import enum
import json
import math
from decimal import Decimal

import pydantic
import pytest

import conductor as cd
from conductor.tools import ToolOutputError, render_output
from scripted import offline, scripted
from wire import APIS, tool_results


class Colour(enum.Enum):
    RED = "red"


class Reading(pydantic.BaseModel):
    city: str
    celsius: float


@dataclasses.dataclass
class Stamp:
    at: datetime.datetime
    colour: Colour


@pytest.mark.parametrize(
    "value, parsed",
    [
        ({"readings": [Reading(city="北京", celsius=5.0)]}, {"readings": [{"city": "北京", "celsius": 5.0}]}),
        (Stamp(datetime.datetime(2026, 11, 22, 8, 30), Colour.RED), {"at": "2026-11-22T08:30:00", "colour": "red"}),
        ({"tags": {"a"}}, {"tags": ["a"]}),
        (datetime.date(2026, 1, 2), "2026-01-02"),
        (Colour.RED, "red"),
        (b"raw text", "raw text"),
        ({"price": Decimal("1.50")}, {"price": "1.50"}),
        ((1, "two"), [1, "two"]),
    ],
)
def test_outputs_are_valid_json(value, parsed):
    assert json.loads(render_output(value)) == parsed


def test_nan_and_infinity_are_not_bare_constants():
    text = render_output({"mean": math.nan, "max": math.inf, "min": -math.inf})
    assert "NaN," not in text and ":Infinity" not in text
    assert json.loads(text) == {"mean": "NaN", "max": "Infinity", "min": "-Infinity"}


def test_bytes_that_are_not_text_still_go_as_json():
    assert json.loads(render_output({"blob": b"\xff\xfe"}))["blob"]


def test_non_ascii_stays_readable():
    assert render_output({"city": "北京 (Beijing)", "note": "naïve"}) == '{"city":"北京 (Beijing)","note":"naïve"}'


def test_strings_go_as_they_are_and_none_as_empty():
    class Level(str, enum.Enum):
        HIGH = "high"

    assert render_output('already "text"') == 'already "text"'
    assert render_output(Level.HIGH) == "high"
    assert render_output(None) == ""


async def _pending() -> int:
    return 1


@pytest.mark.parametrize(
    "make, kind",
    [
        (lambda: (n for n in range(3)), "generator"),
        (lambda: iter([1, 2]), "list_iterator"),
        (lambda: object(), "object"),
        (lambda: {"handle": object()}, "dict"),
        (lambda: _pending(), "coroutine"),
    ],
)
def test_unsendable_outputs_say_what_came_back_and_that_the_tool_ran(make, kind):
    with pytest.raises(ToolOutputError) as info:
        render_output(make(), tool="export")
    message = str(info.value)
    assert "tool export ran" in message and "side effects" in message
    assert f"of type {kind}," in message
    assert "do not repeat the call" in message


def _sent_results(body: dict) -> list[str]:
    """The text of each tool result in a request body, as the model receives it."""
    return [text for _, text, _ in tool_results(body)]


@pytest.mark.parametrize("api", APIS)
def test_a_generator_output_is_an_error_result_after_the_side_effect(api):
    sent: list[str] = []

    @cd.tool
    def send_emails(to: str) -> object:
        """Send an email to each address, return the delivery receipts."""
        sent.append(to)
        return (f"receipt for {a}" for a in to.split(","))

    llm, model = offline(api, scripted([("send_emails", {"to": "a@x.org,b@x.org"})], "done"))
    result = llm.run("email them", tools=[send_emails])
    (record,) = result.rounds[0].tool_calls
    assert sent == ["a@x.org,b@x.org"], "the tool ran once"
    assert record.is_error
    assert "send_emails ran" in record.output and "generator" in record.output
    contents = _sent_results(model.requests[1].body)
    assert len(contents) == 1 and "send_emails ran" in contents[0]


@pytest.mark.parametrize("api", APIS)
def test_awkward_values_reach_the_model_as_json(api):
    @cd.tool
    def stats(city: str) -> dict:
        """Temperature statistics for a city."""
        return {"city": city, "mean": math.nan, "days": {datetime.date(2026, 1, 1)}, "unit": Colour.RED}

    llm, model = offline(api, scripted([("stats", {"city": "上海"})], "done"))
    result = llm.run("stats for Shanghai", tools=[stats])
    (record,) = result.rounds[0].tool_calls
    assert not record.is_error
    assert json.loads(record.output) == {"city": "上海", "mean": "NaN", "days": ["2026-01-01"], "unit": "red"}
    assert _sent_results(model.requests[1].body) == [record.output]


@pytest.mark.parametrize("api", APIS)
def test_arun_reports_an_unsendable_output_too(api):
    @cd.tool
    async def handle(name: str) -> object:
        """Open a named resource."""
        return object()

    llm, _ = offline(api, scripted([("handle", {"name": "db"})], "done"))
    result = asyncio.run(llm.arun("open db", tools=[handle]))
    (record,) = result.rounds[0].tool_calls
    assert record.is_error and "handle ran" in record.output and "of type object" in record.output
