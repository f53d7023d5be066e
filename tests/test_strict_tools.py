"""Strict tool schemas: built from the hints, sent on every API, honoured by the offline stand-in."""

from __future__ import annotations

import enum
import json
import logging
from typing import Literal

import anthropic
import openai
import pydantic
import pytest

import conductor as cd
from conductor.offline import LatencyModel, OfflineModel
from conductor.strict import NotStrict, make_strict
from scripted import offline, scripted
from wire import APIS


class Unit(enum.Enum):
    CELSIUS = "celsius"
    FAHRENHEIT = "fahrenheit"


class Stop(pydantic.BaseModel):
    city: str
    nights: int = 1


@cd.tool
def plan_trip(
    origin: str,
    stops: list[Stop],
    unit: Unit = Unit.CELSIUS,
    pace: Literal["slow", "fast"] = "slow",
    budget: float | None = None,
    tags: list[str] | None = None,
) -> dict:
    """Plan a trip through several cities.

    Args:
        origin: Where the trip starts.
        stops: The cities to stay in, in order.
        unit: The temperature unit of the forecasts.
        pace: How much to see each day.
        budget: The most to spend, in euros.
        tags: Interests, e.g. museums.
    """
    return {"origin": origin, "stops": [s.model_dump() for s in stops], "unit": unit.value, "pace": pace,
            "budget": budget, "tags": tags}


def objects(schema: dict) -> list[dict]:
    """Every object schema inside ``schema``, itself included."""
    found = [schema] if schema.get("type") == "object" else []
    children = [*schema.get("properties", {}).values(), *schema.get("anyOf", ())]
    if isinstance(schema.get("items"), dict):
        children.append(schema["items"])
    return found + [o for child in children for o in objects(child)]


def accepts_null(schema: dict) -> bool:
    return schema.get("type") == "null" or any(accepts_null(b) for b in schema.get("anyOf", ()))


def test_every_object_is_closed_and_lists_every_key():
    strict = plan_trip.strict_parameters
    assert plan_trip.strict and len(objects(strict)) == 2  # the arguments and a Stop
    for obj in objects(strict):
        assert obj["additionalProperties"] is False and obj["required"] == list(obj["properties"])


def test_a_parameter_with_a_default_is_required_and_nullable():
    props = plan_trip.strict_parameters["properties"]
    assert not accepts_null(props["origin"]) and not accepts_null(props["stops"])
    for name in ("unit", "pace", "budget", "tags"):
        assert accepts_null(props[name]), name
    # an enum keeps its values beside null, and the model reads what null means
    assert {"enum": ["celsius", "fahrenheit"], "type": "string"} in props["unit"]["anyOf"]
    assert props["pace"]["description"] == 'How much to see each day. (null for the default, "slow")'
    nights = props["stops"]["items"]["properties"]["nights"]
    assert accepts_null(nights) and '"default":' not in json.dumps(props["stops"])


def test_null_means_the_default_when_the_function_is_called():
    arguments = plan_trip.validate(json.dumps({
        "origin": "Lyon", "stops": [{"city": "Nice", "nights": None}], "unit": None, "pace": None,
        "budget": None, "tags": None,
    }))
    assert plan_trip.invoke(arguments) == {
        "origin": "Lyon", "stops": [{"city": "Nice", "nights": 1}], "unit": "celsius", "pace": "slow",
        "budget": None, "tags": None,
    }
    with pytest.raises(cd.ToolArgumentsError, match="origin"):
        plan_trip.validate({"origin": None, "stops": []})  # a required key has no default to fall back on


class Circle(pydantic.BaseModel):
    kind: Literal["circle"] = "circle"
    radius: float
    label: str | None = None


class Square(pydantic.BaseModel):
    kind: Literal["square"] = "square"
    side: float
    label: str | None  # required here, optional in Circle: the branch decides what a null means


@cd.tool
def area(shape: Circle | Square) -> float:
    """The area of a circle or a square."""
    return 3.14159 * shape.radius**2 if isinstance(shape, Circle) else shape.side**2


@pytest.mark.parametrize(("sent", "expected"), [
    ({"kind": "square", "side": 2, "label": None}, Square(side=2, label=None)),
    ({"kind": None, "side": 3, "label": "box"}, Square(side=3, label="box")),
    ({"kind": "circle", "radius": 1, "label": None}, Circle(radius=1)),
])
def test_a_union_of_models_reads_nulls_by_the_branch_the_call_follows(sent, expected):
    assert area.strict
    assert area.validate({"shape": sent}) == {"shape": expected}


@pytest.mark.parametrize("api", APIS)
def test_the_stand_in_calls_a_union_tool_the_way_its_strict_schema_says(api):
    llm, _ = offline(api, scripted([("area", {"shape": {"side": 2.0}})], "4."))
    result = llm.run("Area of a square of side 2?", tools=[area])
    assert [c.is_error for c in result.tool_calls] == [False] and result.tool_calls[0].output == "4.0"


@pytest.mark.parametrize("api", APIS)
def test_a_strict_tool_is_sent_strict_on_every_api(api):
    steps = scripted([("plan_trip", {"origin": "Lyon", "stops": [{"city": "Nice"}]})], "planned")
    llm, model = offline(api, steps)
    result = llm.run("plan it", tools=[plan_trip])
    tool = model.requests[0].body["tools"][0]
    spec = tool.get("function", tool)
    assert spec["strict"] is True
    schema = spec.get("parameters", spec.get("input_schema"))
    assert all(o["additionalProperties"] is False for o in objects(schema))
    # the stand-in sends every key, null for what the question left open, and the tool gets its defaults
    call = result.rounds[0].tool_calls[0]
    assert call.arguments == {"origin": "Lyon", "stops": [{"city": "Nice", "nights": None}], "unit": None,
                              "pace": None, "budget": None, "tags": None}
    assert json.loads(call.output)["pace"] == "slow" and not call.is_error


def test_strict_true_names_the_parameter_that_blocks_it():
    def store(key: str, value: dict) -> str:
        """Store a value."""
        return key

    with pytest.raises(cd.ToolDefinitionError, match=r"parameter 'value' takes keys of any name .* strict=False"):
        cd.tool(store, strict=True)


def test_a_tool_that_cannot_be_strict_is_sent_plain_and_logged_once(caplog):
    def remember(note: str, extra: dict) -> str:
        """Remember a note."""
        return note

    with caplog.at_level(logging.INFO, logger="conductor.tools"):
        first, second = cd.tool(remember), cd.tool(remember)
    assert not first.strict and not second.strict and first.openai_schema()["function"].get("strict") is None
    assert first.responses_schema()["strict"] is False
    assert [r.getMessage() for r in caplog.records].count(
        "tool 'remember' is sent without strict: parameter 'extra' takes keys of any name (a free-form dict); "
        "a strict schema lists every key: use a pydantic model or a TypedDict"
    ) == 1


@pytest.mark.parametrize("schema, blocked", [
    ({"type": "object", "properties": {"a": {"type": "array"}}}, "parameter 'a' is a list of anything"),
    ({"type": "object", "properties": {"a": {"type": "object"}}}, "parameter 'a' is an object with no listed keys"),
    ({"type": "object", "properties": {"a": {"oneOf": [{"type": "string"}]}}}, "parameter 'a' uses 'oneOf'"),
])
def test_what_blocks_a_strict_schema(schema, blocked):
    with pytest.raises(NotStrict) as info:
        make_strict(schema)
    assert str(info.value).startswith(blocked)


def test_the_stand_in_refuses_a_strict_flag_on_a_loose_schema_as_the_apis_do():
    loose = {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
             "required": ["city"]}
    model = OfflineModel(seed=0, latency=LatencyModel.instant())
    messages = [{"role": "user", "content": "weather in Oslo"}]
    chat = model.openai_client(max_retries=0)
    with pytest.raises(openai.BadRequestError) as info:
        chat.chat.completions.create(model="gpt-4.1-mini", messages=messages, tools=[
            {"type": "function", "function": {"name": "w", "parameters": loose, "strict": True}}])
    assert info.value.body["message"] == ("Invalid schema for function 'w': In context=(), 'additionalProperties' "
                                          "is required to be supplied and to be false.")
    closed = {**loose, "additionalProperties": False}
    with pytest.raises(openai.BadRequestError) as info:
        chat.responses.create(model="gpt-5.4-mini", input="weather in Oslo", tools=[
            {"type": "function", "name": "w", "parameters": closed, "strict": True}])
    assert info.value.body["message"] == (
        "Invalid schema for function 'w': In context=(), 'required' is required to be supplied and to be an "
        "array including every key in properties. Missing 'days'.")
    claude = model.anthropic_client(max_retries=0)
    bounded = {**closed, "properties": {"city": {"type": "string"}, "days": {"type": "integer", "maximum": 7}}}
    with pytest.raises(anthropic.BadRequestError) as info:
        claude.messages.create(model="claude-haiku-4-5", max_tokens=100, messages=messages, tools=[
            {"name": "w", "input_schema": bounded, "strict": True}])
    assert "tools.0.custom: For 'integer' type, property 'maximum' is not supported" in str(info.value)
