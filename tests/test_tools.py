"""@cd.tool: schemas from hints and docstrings, rendering for both APIs, validation, clear errors."""

from __future__ import annotations

import asyncio
import enum
from dataclasses import dataclass
from typing import Literal

import pydantic
import pytest

import conductor as cd


class Unit(enum.Enum):
    CELSIUS = "celsius"
    FAHRENHEIT = "fahrenheit"


class Address(pydantic.BaseModel):
    city: str
    country: str = "CN"


@dataclass
class Window:
    start: int
    end: int


@cd.tool
def forecast(
    city: str,
    days: int = 1,
    unit: Unit = Unit.CELSIUS,
    detail: Literal["short", "long"] = "short",
    hours: list[int] | None = None,
    address: Address | None = None,
    window: Window | None = None,
) -> dict:
    """Get the weather forecast for a city.

    A second paragraph, which the model reads too.

    Args:
        city: City name, e.g. 北京.
        days: How many days
            to forecast.
        unit: Temperature unit.
    """
    return {"city": city, "days": days, "unit": unit.value}


def test_schema_from_hints_and_docstring():
    schema = forecast.parameters
    assert forecast.description == "Get the weather forecast for a city.\n\nA second paragraph, which the model reads too."
    assert schema["type"] == "object"
    assert schema["required"] == ["city"], "parameters with defaults are optional"
    props = schema["properties"]
    assert props["city"] == {"type": "string", "description": "City name, e.g. 北京."}
    assert props["days"]["description"] == "How many days to forecast."
    assert props["unit"]["enum"] == ["celsius", "fahrenheit"]
    assert props["detail"]["enum"] == ["short", "long"]
    assert {"type": "array", "items": {"type": "integer"}} in props["hours"]["anyOf"]
    nested = next(s for s in props["address"]["anyOf"] if s.get("type") == "object")
    assert nested["required"] == ["city"] and set(nested["properties"]) == {"city", "country"}
    assert "$ref" not in str(schema) and "$defs" not in schema
    assert "title" not in schema


def test_rendering_for_the_three_apis():
    assert forecast.strict, "every parameter of forecast has a shape a strict schema can state"
    strict = forecast.strict_parameters
    assert forecast.openai_schema() == {
        "type": "function",
        "function": {"name": "forecast", "description": forecast.description, "parameters": strict, "strict": True},
    }
    assert forecast.responses_schema() == {
        "type": "function", "name": "forecast", "description": forecast.description, "parameters": strict,
        "strict": True,
    }
    anthropic = forecast.anthropic_schema()
    assert anthropic["strict"] is True and anthropic["input_schema"]["required"] == strict["required"]


def test_a_tool_that_is_not_strict_is_sent_as_built():
    loose = cd.tool(forecast.func, strict=False)
    assert loose.openai_schema() == {
        "type": "function",
        "function": {"name": "forecast", "description": forecast.description, "parameters": forecast.parameters},
    }
    assert loose.anthropic_schema() == {
        "name": "forecast", "description": forecast.description, "input_schema": forecast.parameters,
    }
    # Responses takes an absent strict as true: a tool that is not strict says so
    assert loose.responses_schema()["strict"] is False and loose.responses_schema()["parameters"] == forecast.parameters


def test_validation_converts_and_keeps_models():
    args = forecast.validate('{"city": "北京", "unit": "fahrenheit", "address": {"city": "x"}, "window": {"start": 1, "end": 2}}')
    assert args["unit"] is Unit.FAHRENHEIT
    assert args["address"] == Address(city="x")
    assert args["window"] == Window(1, 2)
    assert forecast.invoke(args) == {"city": "北京", "days": 1, "unit": "fahrenheit"}


@pytest.mark.parametrize(
    "arguments, message",
    [
        ('{"city": ', "not valid JSON"),
        ("[1, 2]", "must be a JSON object"),
        ("{}", "city: Field required"),
        ('{"city": "x", "days": "many"}', "days: Input should be a valid integer"),
        ('{"city": "x", "unit": "kelvin"}', "unit: Input should be 'celsius' or 'fahrenheit'"),
        ('{"city": "x", "colour": "red"}', "colour: Extra inputs are not permitted"),
    ],
)
def test_invalid_arguments_say_what_is_wrong(arguments, message):
    with pytest.raises(cd.ToolArgumentsError) as info:
        forecast.validate(arguments)
    assert message in str(info.value)


def test_the_tool_is_still_the_function():
    assert forecast("上海") == {"city": "上海", "days": 1, "unit": "celsius"}
    assert forecast.__name__ == "forecast" and forecast.__doc__.startswith("Get the weather")


def test_async_tools():
    @cd.tool
    async def ping(host: str) -> str:
        """Ping a host."""
        await asyncio.sleep(0)
        return f"pong from {host}"

    assert ping.is_async
    assert ping.invoke({"host": "a"}) == "pong from a"
    assert asyncio.run(ping.ainvoke({"host": "b"})) == "pong from b"


def test_sync_tool_on_the_event_loop_runs_in_a_thread():
    import threading

    @cd.tool
    def where() -> str:
        """Name the thread."""
        return threading.current_thread().name

    assert asyncio.run(where.ainvoke({})) != threading.main_thread().name


def test_decorator_options():
    @cd.tool(name="lookup-v2", description="Look something up.", exclusive=True)
    def lookup(key: str) -> str:
        return key

    assert lookup.name == "lookup-v2" and lookup.description == "Look something up." and lookup.exclusive


@pytest.mark.parametrize(
    "source, fix",
    [
        ("def f(x):\n    'Doc.'\n", "has no type hint; add one"),
        ("def f(*args: int):\n    'Doc.'\n", "list each parameter"),
        ("def f(**kwargs: int):\n    'Doc.'\n", "list each parameter"),
        ("def f(x: int, /):\n    'Doc.'\n", "positional-only.*remove the '/'"),
        ("def f(_x: int):\n    'Doc.'\n", "starts with '_'.*rename it"),
        ("def f(x: int):\n    'Doc.'\n    yield x\n", "generator function.*return a list"),
        ("class Foo: pass\ndef f(x: Foo):\n    'Doc.'\n", "Use str, int, float, bool"),
    ],
)
def test_definition_errors_name_the_fix(source, fix):
    namespace: dict = {}
    exec(source, namespace)
    with pytest.raises(cd.ToolDefinitionError, match=fix):
        cd.tool(namespace["f"])


def test_bad_tool_name_is_rejected():
    def ok(x: int) -> int:
        """Doc."""
        return x

    with pytest.raises(cd.ToolDefinitionError, match="1-64 letters"):
        cd.tool(ok, name="has spaces")


def test_registry_is_an_allowlist():
    registry = cd.ToolRegistry([forecast])
    assert registry.names == ["forecast"]
    with pytest.raises(cd.ToolArgumentsError, match="unknown tool 'rm_rf'; the available tools are: forecast"):
        registry.get("rm_rf")
    with pytest.raises(cd.ToolDefinitionError, match="unique"):
        cd.ToolRegistry([forecast, forecast])


def test_plain_functions_are_wrapped():
    def add(a: int, b: int) -> int:
        """Add two numbers."""
        return a + b

    registry = cd.ToolRegistry([add])
    assert registry.get("add").invoke({"a": 1, "b": 2}) == 3


@pytest.mark.parametrize(
    "value, text",
    [(None, ""), ("plain", "plain"), ({"温度": 5}, '{"温度":5}'), (Address(city="x"), '{"city":"x","country":"CN"}'), (Window(1, 2), '{"start":1,"end":2}')],
)
def test_outputs_become_text(value, text):
    assert cd.tools.render_output(value) == text
