"""A tool as each wire API defines it: the plain function tool, before any request feature adds to it.

Wire rendering belongs to ``apis/``; a :class:`~conductor.tools.Tool`'s ``openai_schema()``,
``responses_schema()`` and ``anthropic_schema()`` call these. This module reads a tool's ``name``,
``description``, ``parameters``, ``wire_parameters`` and ``strict`` and imports nothing of conductor's,
so ``tools`` can reach it without the wire layer reaching back.
"""

from __future__ import annotations

from typing import Any


def chat_tool(tool: Any) -> dict[str, Any]:
    """The tool as an OpenAI Chat Completions function tool (``"strict": true`` when strict; else no flag)."""
    function = {"name": tool.name, "description": tool.description, "parameters": tool.wire_parameters}
    return {"type": "function", "function": {**function, "strict": True} if tool.strict else function}


def responses_tool(tool: Any) -> dict[str, Any]:
    """The tool as an OpenAI Responses function tool (flat: no ``function`` wrapper)."""
    # strict is always sent: the API takes an absent strict as true, which a non-strict schema doesn't meet.
    return {
        "type": "function",
        "name": tool.name,
        "description": tool.description,
        "parameters": tool.wire_parameters,
        "strict": tool.strict,
    }


def messages_tool(tool: Any) -> dict[str, Any]:
    """The tool as an Anthropic Messages tool (``"strict": true`` when strict; else no flag)."""
    if not tool.strict:
        return {"name": tool.name, "description": tool.description, "input_schema": tool.parameters}
    # The SDK's own transform for strict schemas: keywords strict tool use does not support
    # (minimum, maxLength, pattern, ...) move into the description, where the model still reads them.
    # Made once per tool (every request sends it; with_options makes a copy without it).
    schema = tool.__dict__.get("_anthropic_strict")
    if schema is None:
        from anthropic.lib._parse._transform import transform_schema

        schema = tool._anthropic_strict = transform_schema(tool.wire_parameters)
    return {"name": tool.name, "description": tool.description, "input_schema": schema, "strict": True}


__all__ = ["chat_tool", "responses_tool", "messages_tool"]
