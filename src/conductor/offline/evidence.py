"""Reading what the tools returned, for the offline model's answers.

Every answer the offline model writes is built from these readings of the
actual tool results in the conversation, so changing a tool's data changes
the answer.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from ..types import ToolCall, ToolResult
from .conversation import CallTools, Conversation, Decision, PlannedCall, Reply
from .language import Language, say


def arguments_of(call: ToolCall) -> dict[str, Any]:
    """The call's arguments, or ``{}`` when they are not a JSON object (the tool will have said so)."""
    try:
        return call.parsed_arguments()
    except ValueError:
        return {}


def data_of(result: ToolResult) -> Any:
    """The result's JSON value, or its text when it is not JSON."""
    try:
        return json.loads(result.content)
    except ValueError:
        return result.content


def error_of(result: ToolResult) -> str | None:
    """Why the call failed: the error result's text, or the ``"error"`` of a returned dict; else ``None``."""
    if result.is_error:
        return result.content.strip() or "the tool failed without a message"
    data = data_of(result)
    if isinstance(data, dict) and data.get("error"):
        return str(data["error"])
    return None


def localized(data: dict[str, Any], key: str, language: Language) -> Any:
    """``data[key]``, or ``data[key + "_en"]`` for English when the tool offers both languages."""
    if language == "en" and f"{key}_en" in data:
        return data[f"{key}_en"]
    return data.get(key, data.get(f"{key}_en"))


def describe_call(name: str, arguments: dict[str, Any] | str) -> str:
    """``get_weather(city="上海")``: a call as a learner would write it."""
    if isinstance(arguments, str):
        return f"{name}({arguments})"
    listed = ", ".join(f"{key}={json.dumps(value, ensure_ascii=False)}" for key, value in arguments.items())
    return f"{name}({listed})"


def missing_note(missing: Sequence[PlannedCall], language: Language) -> str:
    """A sentence naming the calls the model wanted but could not make; empty when there are none."""
    if not missing:
        return ""
    listed = ", ".join(describe_call(call.name, call.arguments) for call in missing)
    return say(
        language,
        f"(还缺少这些工具调用的结果,本次请求不允许再调用工具:{listed}。)",
        f"(Still missing, because no more tool calls were allowed: {listed}.)",
    )


def proceed(
    conversation: Conversation, calls: Sequence[PlannedCall], answer: Callable[[Sequence[PlannedCall]], str]
) -> Decision:
    """Make the next calls when tools are allowed; otherwise answer now from what was gathered.

    ``answer`` receives the calls that could not be made, so the reply can say what is missing.
    """
    if calls and conversation.tools_allowed:
        return CallTools(tuple(calls))
    return Reply(answer(calls))
