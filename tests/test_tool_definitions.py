"""Defining tools: partials and callable objects, recursive models, docstring styles, explicit schemas.

What ``@cd.tool`` could never call is refused when the tool is defined, with a
``ToolDefinitionError`` naming the fix; what it accepts must also work in a run on each of the three APIs.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging

import pydantic
import pytest

import conductor as cd
from scripted import offline, scripted
from wire import APIS, tool_definitions


def lookup(city: str, api_key: str, days: int = 1) -> str:
    """Look up the forecast for a city.

    Args:
        city: City name, e.g. 北京 (Beijing).
        api_key: Credential for the weather service.
        days: How many days.
    """
    return f"{city} for {days} day(s) with key {api_key[:2]}…"


class Converter:
    """Convert an amount between currencies."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.name = "not the tool's name"  # an attribute must not leak onto the tool

    def __call__(self, amount: float) -> float:
        return round(amount * self.rate, 2)


# -- what can never be called ------------------------------------------------------------


@pytest.mark.parametrize(
    "thing, fix",
    [
        (None, "got None instead of a function: pass the function itself"),
        (42, "needs a function, got a int"),
        ("get_weather", "needs a function, got a str"),
        (functools.partial(lookup, api_key="k"), "has no name.*name=.*partial"),
        (Converter(7.0), "has no name.*name="),
    ],
)
def test_what_cannot_be_a_tool_is_refused_with_the_fix(thing, fix):
    with pytest.raises(cd.ToolDefinitionError, match=fix):
        cd.tool(thing)


def test_decorator_form_still_works_with_parentheses():
    @cd.tool()
    def ping() -> str:
        """Ping."""
        return "pong"

    assert ping.name == "ping" and ping.invoke({}) == "pong"


def test_builtins_with_positional_only_parameters_are_refused():
    with pytest.raises(cd.ToolDefinitionError, match="positional-only"):
        cd.tool(len, name="length")


# -- partials and callable objects --------------------------------------------------------


def test_partial_with_a_name_hides_what_it_binds():
    weather = cd.tool(functools.partial(lookup, api_key="secret"), name="lookup_weather")
    assert set(weather.parameters["properties"]) == {"city", "days"}
    assert weather.parameters["required"] == ["city"]
    assert weather.description == "Look up the forecast for a city."
    assert weather.parameters["properties"]["city"]["description"] == "City name, e.g. 北京 (Beijing)."
    with pytest.raises(cd.ToolArgumentsError, match="api_key: Extra inputs are not permitted"):
        weather.validate({"city": "x", "api_key": "stolen"})
    assert weather.invoke(weather.validate({"city": "上海"})) == "上海 for 1 day(s) with key se…"


def test_callable_instance_with_a_name():
    convert = cd.tool(Converter(7.0), name="usd_to_cny")
    assert convert.name == "usd_to_cny" and convert.description == "Convert an amount between currencies."
    assert convert.parameters["properties"] == {"amount": {"type": "number"}}
    assert convert.invoke(convert.validate('{"amount": 2}')) == 14.0


def test_async_callable_instance_is_async():
    class Fetcher:
        """Fetch a page."""

        async def __call__(self, url: str) -> str:
            await asyncio.sleep(0)
            return url.upper()

    fetch = cd.tool(Fetcher(), name="fetch")
    assert fetch.is_async
    assert asyncio.run(fetch.ainvoke({"url": "a"})) == "A"


@pytest.mark.parametrize("api", APIS)
def test_partial_and_callable_instance_in_a_run(api):
    weather = cd.tool(functools.partial(lookup, api_key="secret"), name="lookup_weather")
    convert = cd.tool(Converter(7.0), name="usd_to_cny")
    steps = scripted([("lookup_weather", {"city": "广州", "days": 2}), ("usd_to_cny", {"amount": 3})], "done")
    llm, model = offline(api, steps)
    result = llm.run("weather and money", tools=[weather, convert])
    assert [(c.name, c.output, c.is_error) for c in result.rounds[0].tool_calls] == [
        ("lookup_weather", "广州 for 2 day(s) with key se…", False),
        ("usd_to_cny", "21.0", False),
    ]
    offered = json.dumps(model.requests[0].body["tools"])
    assert "api_key" not in offered, "a bound argument is never shown to the model"


# -- schemas ------------------------------------------------------------------------------


class Node(pydantic.BaseModel):
    name: str
    children: list[Node] = []


class Leaf(pydantic.BaseModel):
    label: str


class Forest(pydantic.BaseModel):
    tag: Leaf
    root: Node


@cd.tool
def count_nodes(tree: Node, forest: Forest | None = None) -> int:
    """Count the nodes of a tree."""

    def size(node: Node) -> int:
        return 1 + sum(size(child) for child in node.children)

    return size(tree) + (size(forest.root) if forest else 0)


def test_recursive_models_keep_refs_and_the_rest_is_inlined():
    schema = count_nodes.parameters
    assert schema["properties"]["tree"] == {"$ref": "#/$defs/Node"}
    assert set(schema["$defs"]) == {"Node"}, "only the recursive model stays a definition"
    assert schema["$defs"]["Node"]["properties"]["children"]["items"] == {"$ref": "#/$defs/Node"}
    forest = next(s for s in schema["properties"]["forest"]["anyOf"] if s.get("type") == "object")
    assert forest["properties"]["tag"]["properties"] == {"label": {"type": "string"}}, "Leaf is inlined"
    assert forest["properties"]["root"] == {"$ref": "#/$defs/Node"}


@pytest.mark.parametrize("api", APIS)
def test_recursive_model_in_a_run(api):
    tree = {"name": "root", "children": [{"name": "a", "children": [{"name": "b"}]}, {"name": "c"}]}
    llm, model = offline(api, scripted([("count_nodes", {"tree": tree})], "done"))
    result = llm.run("count", tools=[count_nodes])
    assert result.rounds[0].tool_calls[0].output == "4"
    schema = tool_definitions(model.requests[0].body)[0]["parameters"]
    assert "$defs" in schema


def google(city: str, days: int = 1) -> str:
    """Get the forecast.

    Args:
        city: The city.
        days: How many
            days ahead.
    """
    return city


def numpy_style(city: str, days: int = 1) -> str:
    """Get the forecast.

    Parameters
    ----------
    city : str
        The city.
    days : int
        How many
        days ahead.
    """
    return city


def sphinx(city: str, days: int = 1) -> str:
    """Get the forecast.

    :param city: The city.
    :param days: How many
        days ahead.
    :returns: the forecast text.
    """
    return city


@pytest.mark.parametrize("func", [google, numpy_style, sphinx], ids=["google", "numpy", "sphinx"])
def test_docstring_styles(func):
    made = cd.tool(func)
    assert made.description == "Get the forecast.", "parameter lines never leak into the description"
    props = made.parameters["properties"]
    assert props["city"]["description"] == "The city."
    assert props["days"]["description"] == "How many days ahead."


def test_no_docstring_is_allowed_with_a_warning(caplog):
    def bare(x: int) -> int:
        return x

    with caplog.at_level(logging.WARNING, logger="conductor.tools"):
        made = cd.tool(bare)
    assert made.description == ""
    assert "reads it to decide when to call the tool" in caplog.text


@pytest.mark.parametrize("api", APIS)
def test_a_tool_with_an_empty_description_runs(api):
    def shout(text: str) -> str:
        return text.upper()

    llm, model = offline(api, scripted([("shout", {"text": "hi"})], "done"))
    result = llm.run("shout", tools=[cd.tool(shout)])
    assert result.rounds[0].tool_calls[0].output == "HI"
    assert tool_definitions(model.requests[0].body)[0]["description"] == ""


# -- explicit JSON schemas ---------------------------------------------------------------

REMOTE_SCHEMA = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "description": "City name."},
        "days": {"type": "integer", "minimum": 1, "maximum": 7},
    },
    "required": ["city"],
    "additionalProperties": False,
}


def call_remote(**arguments):
    """Stands in for a client that forwards arguments to a server (an MCP tool, an HTTP API)."""
    return {"forwarded": arguments}


def remote_tool(strict: bool | None = False) -> cd.Tool:
    return cd.tool(call_remote, name="remote_forecast", description="Forecast from the weather server.",
                   parameters=REMOTE_SCHEMA, strict=strict)


def test_explicit_schema_is_sent_as_given():
    remote = remote_tool()
    assert remote.parameters == REMOTE_SCHEMA and remote.parameters is not REMOTE_SCHEMA
    assert remote.openai_schema()["function"]["parameters"] == REMOTE_SCHEMA
    assert remote.anthropic_schema()["input_schema"] == REMOTE_SCHEMA
    assert remote.validate('{"city": "北京", "days": 3}') == {"city": "北京", "days": 3}


def test_an_explicit_schema_is_made_strict_where_it_can_be():
    remote = remote_tool(strict=None)
    days = remote.openai_schema()["function"]["parameters"]["properties"]["days"]
    assert remote.strict and remote.parameters == REMOTE_SCHEMA  # validation keeps the schema as given
    assert days == {"anyOf": [{"type": "integer", "minimum": 1, "maximum": 7}, {"type": "null"}]}
    # null is "not given" for an optional key, and the server's own limits still hold
    assert remote.validate('{"city": "北京", "days": null}') == {"city": "北京"}
    with pytest.raises(cd.ToolArgumentsError, match="days: 30 is greater than the maximum of 7"):
        remote.validate('{"city": "北京", "days": 30}')


@pytest.mark.parametrize(
    "arguments, message",
    [
        ("{}", "arguments: 'city' is a required property"),
        ('{"city": "x", "days": "many"}', "days: 'many' is not of type 'integer'"),
        ('{"city": "x", "days": 30}', "days: 30 is greater than the maximum of 7"),
        ('{"city": "x", "colour": "red"}', "('colour' was unexpected)"),
        ('{"city": ', "not valid JSON"),
    ],
)
def test_explicit_schema_validation_speaks_to_the_model(arguments, message):
    with pytest.raises(cd.ToolArgumentsError) as info:
        remote_tool().validate(arguments)
    assert str(info.value).startswith("invalid arguments for remote_forecast") or "JSON" in str(info.value)
    assert message in str(info.value)


@pytest.mark.parametrize(
    "parameters, fix",
    [
        ({"type": "array"}, "type 'object'"),
        ({"type": "object", "properties": {"city": {"type": "text"}}}, "schema is invalid at properties/city/type"),
    ],
)
def test_a_bad_explicit_schema_is_refused(parameters, fix):
    with pytest.raises(cd.ToolDefinitionError, match=fix):
        cd.tool(call_remote, name="remote", parameters=parameters)


def test_an_explicit_schema_the_function_cannot_take_is_refused():
    def only_city(city: str) -> str:
        """Forecast."""
        return city

    with pytest.raises(cd.ToolDefinitionError, match="cannot take the schema's properties"):
        cd.tool(only_city, parameters=REMOTE_SCHEMA)


@pytest.mark.parametrize("api", APIS)
def test_explicit_schema_in_a_run(api):
    steps = scripted([("remote_forecast", {"city": "上海", "days": 9}), ("remote_forecast", {"city": "上海"})], "done")
    llm, model = offline(api, steps)
    result = llm.run("forecast", tools=[remote_tool()])
    bad, good = result.rounds[0].tool_calls
    assert bad.is_error and "days: 9 is greater than the maximum of 7" in bad.output
    assert not good.is_error and json.loads(good.output) == {"forwarded": {"city": "上海"}}
    assert tool_definitions(model.requests[0].body)[0]["parameters"] == REMOTE_SCHEMA
