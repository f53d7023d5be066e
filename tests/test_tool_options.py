"""``cd.tool(existing_tool, ...)``: options given for a tool that already exists apply to a copy.

Keeping the original would run a tool its caller marked for approval without asking, and an MCP
tool could never be renamed (two servers offering the same name in one run)."""

from __future__ import annotations

from typing import Any

import pytest
from mcp.server.mcpserver import MCPServer

import conductor as cd
from scripted import offline, scripted
from wire import APIS


@cd.tool
def send_payment(to: str, amount: float) -> dict:
    """Send money to a person. Irreversible."""
    SENT.append((to, amount))
    return {"sent": amount, "to": to}


SENT: list[tuple[str, float]] = []


@pytest.mark.parametrize("api", APIS)
def test_requires_approval_on_an_existing_tool_pauses_the_run(api):
    SENT.clear()
    guarded = cd.tool(send_payment, requires_approval=True)
    assert guarded is not send_payment and not send_payment.needs_approval({"to": "Bo", "amount": 5.0})
    llm, _ = offline(api, scripted([("send_payment", {"to": "Bo", "amount": 5.0})], "Sent."))
    result = llm.run("Pay Bo 5.", tools=[guarded])
    assert result.stopped_by == "approval" and [p.name for p in result.pending] == ["send_payment"]
    assert SENT == []  # nothing unapproved ran
    result.reject(result.pending[0].id, reason="not today")
    assert llm.resume(result).answer == "Sent." and SENT == []


def test_every_option_applies_to_the_copy_and_leaves_the_original():
    changed = cd.tool(send_payment, name="pay", description="Pay someone.", exclusive=True, max_invalid=1,
                      strict=False, progress="Paying {to}…", timeout=2.0, sync_to_thread=True)
    assert (changed.name, changed.description, changed.exclusive, changed.max_invalid) == (
        "pay", "Pay someone.", True, 1)
    assert not changed.strict and changed.timeout == 2.0 and changed.describe({"to": "Bo", "amount": 1}) == "Paying Bo…"
    assert changed.openai_schema()["function"]["name"] == "pay"
    assert (send_payment.name, send_payment.exclusive, send_payment.strict, send_payment.timeout) == (
        "send_payment", False, True, None)
    assert cd.tool(send_payment) is send_payment  # nothing asked, nothing copied
    schema = {"type": "object", "properties": {"to": {"type": "string"}, "amount": {"type": "number", "maximum": 10}},
              "required": ["to", "amount"]}
    capped = cd.tool(send_payment, parameters=schema)
    with pytest.raises(cd.ToolArgumentsError, match="amount"):
        capped.validate({"to": "Bo", "amount": 50})


def test_bad_options_for_an_existing_tool_name_the_fix():
    with pytest.raises(cd.ToolDefinitionError, match="is not allowed"):
        cd.tool(send_payment, name="pay money")
    with pytest.raises(TypeError, match="requires_approval"):
        cd.tool(send_payment, requires_approval="yes")
    with pytest.raises(ValueError, match="drop timeout= or sync_to_thread=False"):
        cd.tool(send_payment, timeout=1.0, sync_to_thread=False)


def weather_server(label: str, temperature: int) -> MCPServer:
    server = cd.mcp.new_server(label)

    def get_weather(city: str) -> dict[str, Any]:
        """The current weather in a city."""
        return {"city": city, "temperature_c": temperature, "source": label}

    server.add_tool(get_weather, structured_output=True)
    return server


def test_two_servers_with_the_same_tool_name_work_in_one_run_once_renamed():
    with cd.mcp_server(weather_server("met", 4)) as met, cd.mcp_server(weather_server("noaa", 7)) as noaa:
        tools = [cd.tool(met.tools()[0], name="met_weather"), cd.tool(noaa.tools()[0], name="noaa_weather")]
        llm, _ = offline("responses", scripted(
            [("met_weather", {"city": "Oslo"}), ("noaa_weather", {"city": "Oslo"})], "Done."))
        result = llm.run("Oslo weather from both.", tools=tools)
    outputs = {c.name: c.output for c in result.tool_calls}
    assert '"source":"met"' in outputs["met_weather"].replace(" ", "")
    assert '"source":"noaa"' in outputs["noaa_weather"].replace(" ", "")


def test_a_copy_renders_its_own_schema_on_every_api():
    narrowed = {"type": "object", "properties": {"to": {"type": "string"}}, "required": ["to"],
                "additionalProperties": False}
    assert send_payment.anthropic_schema()["input_schema"]["properties"].keys() == {"to", "amount"}  # made once
    copy_ = cd.tool(send_payment, parameters=narrowed, strict=True)
    assert copy_.anthropic_schema()["input_schema"]["properties"].keys() == {"to"}
    assert copy_.openai_schema()["function"]["parameters"]["properties"].keys() == {"to"}
    assert send_payment.anthropic_schema()["input_schema"]["properties"].keys() == {"to", "amount"}
