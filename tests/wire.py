"""Test helpers: read a request body of any of the three wire APIs the same way.

Tests that look at what ``llm.run`` sent (every call answered once, a tool's result,
the forced final request) check it on each API; these functions say where each API
keeps each thing, so the test itself does not branch on the API.
"""

from __future__ import annotations

import json
from typing import Any

APIS = ["responses", "chat", "messages"]
OPENAI_APIS = {"responses", "chat", "openai"}  # the APIs an OpenAI client speaks ("openai": the old name of chat)


def api_of(body: dict[str, Any]) -> str:
    """The API a request body belongs to."""
    if "input" in body:
        return "responses"
    if "max_tokens" in body and "messages" in body and "max_completion_tokens" not in body:
        return "messages"
    return "chat"


def entries(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The conversation a body carries: Responses ``input`` items, or ``messages``."""
    value = body.get("input", body.get("messages"))
    return [{"role": "user", "content": value}] if isinstance(value, str) else list(value or [])


def _text(content: Any) -> str:
    if content is None or isinstance(content, str):
        return content or ""
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return json.dumps(content)


def _arguments(text: str | None) -> Any:
    """A call's arguments as the dict they encode, or the text itself when it is not JSON (a model's broken call)."""
    try:
        return json.loads(text or "{}")
    except ValueError:
        return text


def tool_calls(body: dict[str, Any]) -> list[tuple[str, str, Any]]:
    """Every tool call the body's history holds: (call id, tool name, arguments), in order.

    The arguments are a dict, or the raw text when the model sent text that is not JSON.
    """
    found = []
    for entry in entries(body):
        if entry.get("type") == "function_call":
            found.append((entry["call_id"], entry["name"], _arguments(entry.get("arguments"))))
        for call in entry.get("tool_calls") or ():
            found.append((call["id"], call["function"]["name"], _arguments(call["function"]["arguments"])))
        if isinstance(entry.get("content"), list):
            for block in entry["content"]:
                if isinstance(block, dict) and block.get("type") == "tool_use":
                    found.append((block["id"], block["name"], block.get("input") or {}))
    return found


def tool_results(body: dict[str, Any]) -> list[tuple[str, str, bool]]:
    """Every tool result the body holds: (call id it answers, text, is_error), in order.

    The error flag is Anthropic's ``is_error``; on the two OpenAI APIs, which have none, a
    result whose text starts with "Error:".
    """
    found = []
    for entry in entries(body):
        if entry.get("type") == "function_call_output":
            text = _text(entry.get("output"))
            found.append((entry["call_id"], text, text.startswith("Error:")))
        elif entry.get("role") == "tool":
            text = _text(entry.get("content"))
            found.append((entry["tool_call_id"], text, text.startswith("Error:")))
        elif isinstance(entry.get("content"), list):
            for block in entry["content"]:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    found.append((block["tool_use_id"], _text(block.get("content")), bool(block.get("is_error"))))
    return found


def results_by_id(body: dict[str, Any]) -> dict[str, str]:
    """call id -> result text; fails when a call is answered twice."""
    found: dict[str, str] = {}
    for call_id, text, _ in tool_results(body):
        assert call_id not in found, f"call {call_id} answered twice"
        found[call_id] = text
    return found


def tools_forbidden(body: dict[str, Any]) -> bool:
    """Does the request keep its tools but forbid their use (the forced final request)?"""
    choice = body.get("tool_choice")
    return bool(body.get("tools")) and (choice == "none" or (isinstance(choice, dict) and choice.get("type") == "none"))


def tool_names(body: dict[str, Any]) -> list[str]:
    """The names of the function tools offered."""
    return [t.get("name") or t.get("function", {}).get("name") for t in body.get("tools") or ()]


def user_texts(body: dict[str, Any]) -> list[str]:
    """The text of each user message (tool results left out)."""
    texts = []
    for entry in entries(body):
        if entry.get("role") != "user":
            continue
        content = entry.get("content")
        if isinstance(content, list):
            content = [p for p in content if isinstance(p, dict) and p.get("type") in ("text", "input_text")]
            if not content:
                continue
        texts.append(_text(content))
    return texts


def system_texts(body: dict[str, Any]) -> list[str]:
    """Every system text a body carries: Anthropic's ``system``, Responses' ``instructions``, system messages."""
    texts = [_text(body[key]) for key in ("system", "instructions") if body.get(key)]
    return texts + [_text(e.get("content")) for e in entries(body) if e.get("role") in ("system", "developer")]


def dialog(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The body's conversation without system messages (the part every API carries in its entries)."""
    return [e for e in entries(body) if e.get("role") not in ("system", "developer")]


def tool_definitions(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The function tools offered, each as ``{"name", "description", "parameters"}`` whatever the API's layout
    (Chat Completions nests them under "function", Anthropic calls the schema "input_schema")."""
    found = []
    for tool in body.get("tools") or ():
        spec = tool.get("function", tool)
        found.append({"name": spec.get("name"), "description": spec.get("description"),
                      "parameters": spec.get("parameters", spec.get("input_schema"))})
    return found
