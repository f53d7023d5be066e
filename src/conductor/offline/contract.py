"""The request rules of the real APIs, enforced by the offline model.

Code that works offline must work online, so the offline model rejects what
OpenAI and Anthropic reject, with HTTP 400 and the error text the real API
sends (collected from real error reports). Only rules that tool-orchestration
code can break are checked; everything else is accepted as the APIs accept it.

Each wire module (:mod:`.wire.chat`, :mod:`.wire.messages`, :mod:`.wire.responses`)
holds its API's rules beside its parsing; this module holds what they share.
"""

from __future__ import annotations

from typing import Any

from ..strict import loosen
from ..types import ToolSpec


__all__ = ["InvalidRequest", "anthropic_strict_problem", "hosted_tool_refused", "offered_tool", "openai_strict_problem"]

# How to reach the real API that runs a hosted tool, worded as the stand-in's other declines
# (offline.wording.REAL_MODEL_HINT) name a real model.
_REAL_API = {
    "responses": ('OpenAI', 'cd.connect("openai") with OPENAI_API_KEY set'),
    "messages": ('Anthropic', 'cd.connect("anthropic") with ANTHROPIC_API_KEY set'),
}


def openai_strict_problem(schema: dict[str, Any], context: tuple[str, ...] = ()) -> str | None:
    """What OpenAI's strict mode refuses in a function's schema (the text after "Invalid schema for function"), or None.

    Its rules for every object of the schema: closed, and every property required.
    """
    if schema.get("type") == "object" or "properties" in schema:
        if schema.get("additionalProperties") is not False:
            return f"In context={context}, 'additionalProperties' is required to be supplied and to be false."
        properties = schema.get("properties") or {}
        missing = [key for key in properties if key not in (schema.get("required") or [])]
        if missing:
            return (
                f"In context={context}, 'required' is required to be supplied and to be an array including every "
                f"key in properties. Missing '{missing[0]}'."
            )
        children = [((*context, "properties", key), value) for key, value in properties.items()]
    else:
        children = []
    if isinstance(schema.get("items"), dict):
        children.append(((*context, "items"), schema["items"]))
    children += [((*context, "anyOf", str(i)), branch) for i, branch in enumerate(schema.get("anyOf") or ())]
    for where, child in children:
        if isinstance(child, dict) and (problem := openai_strict_problem(child, where)):
            return problem
    return None


# What Anthropic's strict tool use accepts beside "type", "description", "title", "enum", "const"
# and "anyOf", by type (its SDK's strict-schema transform moves every other keyword into the description).
_ANTHROPIC_STRICT_KEYWORDS = {
    "object": {"properties", "additionalProperties", "required"},
    "array": {"items", "minItems"},
    "string": {"format"},
}
_ANTHROPIC_ANY = {"type", "description", "title", "enum", "const", "anyOf"}


def anthropic_strict_problem(schema: dict[str, Any]) -> str | None:
    """What Anthropic's strict tool use refuses in an input schema (the text after "tools.N.custom: "), or None."""
    kind = schema.get("type")
    kind = kind if isinstance(kind, str) else None
    if kind == "object" and schema.get("additionalProperties") is not False:
        return "For 'object' type, 'additionalProperties' must be explicitly set to false"
    allowed = _ANTHROPIC_ANY | _ANTHROPIC_STRICT_KEYWORDS.get(kind or "", set())
    extra = [key for key in schema if key not in allowed]
    if kind == "array" and schema.get("minItems") not in (None, 0, 1):
        extra.insert(0, "minItems")
    if extra:
        return f"For '{kind or 'any'}' type, property '{extra[0]}' is not supported"
    children = [*(schema.get("properties") or {}).values(), *(schema.get("anyOf") or ())]
    if isinstance(schema.get("items"), dict):
        children.append(schema["items"])
    for child in children:
        if isinstance(child, dict) and (problem := anthropic_strict_problem(child)):
            return problem
    return None


def offered_tool(name: str, description: str, parameters: dict[str, Any], strict: Any) -> ToolSpec:
    """A function tool of a request as the model reads it: a strict schema read back as a plain one."""
    if strict is True:
        return ToolSpec(name, description, loosen(parameters), strict=True)
    return ToolSpec(name, description, parameters)


def hosted_tool_refused(api: str, index: int, tool: dict[str, Any]) -> InvalidRequest:
    """The stand-in's 400 for a hosted tool (web search, ...): such tools run only on the real API."""
    provider, connect = _REAL_API[api]
    kind = tool.get("type")
    return InvalidRequest(
        f"tools[{index}]: hosted tools run only on the real API: {kind!r} is run by {provider}'s servers inside "
        f"the response, and the offline stand-in has no web or servers to run it on. To use it, connect a real "
        f"model: {connect}. Offline, pass a @cd.tool function that does the job instead.",
        param=f"tools[{index}]",
        code="hosted_tool_offline",
    )


class InvalidRequest(Exception):
    """A request the real API would reject: HTTP 400, or the status it uses (404 for an unknown item)."""

    def __init__(
        self,
        message: str,
        *,
        param: str | None = None,
        code: str | None = None,
        status: int = 400,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.param = param
        self.code = code
        self.status = status
        self.details = details  # the error's machine-readable details, where the API sends some
