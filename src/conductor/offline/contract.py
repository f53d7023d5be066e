"""The request rules of the real APIs, enforced by the offline model.

Code that works offline must work online, so the offline model rejects what
OpenAI and Anthropic reject, with HTTP 400 and the error text the real API
sends (collected from real error reports). Only rules that tool-orchestration
code can break are checked; everything else is accepted as the APIs accept it.

Anthropic combines consecutive messages of the same role into one turn (its
documented behaviour since 2024; the older "roles must alternate" error is
gone), so the Anthropic checks run on the combined turns: see :func:`anthropic_turns`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

__all__ = ["InvalidRequest", "AnthropicTurn", "anthropic_turns", "check_openai", "check_anthropic"]


class InvalidRequest(Exception):
    """A request the real API would reject with HTTP 400."""

    def __init__(self, message: str, *, param: str | None = None, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.param = param
        self.code = code


# ----------------------------------------------------------------------------- OpenAI


def check_openai(body: dict[str, Any]) -> None:
    """Raise :class:`InvalidRequest` when OpenAI Chat Completions would reject ``body``."""
    if not body.get("model"):
        raise InvalidRequest("you must provide a model parameter")
    _check_openai_messages_present(body)
    _check_openai_tools(body)
    _check_openai_tool_messages(body["messages"])


def _check_openai_messages_present(body: dict[str, Any]) -> None:
    if "messages" not in body:
        raise InvalidRequest(
            "Missing required parameter: 'messages'.", param="messages", code="missing_required_parameter"
        )
    if not body["messages"]:
        raise InvalidRequest(
            "Invalid 'messages': empty array. Expected an array with minimum length 1, "
            "but got an empty array instead.",
            param="messages",
            code="empty_array",
        )


def _check_openai_tools(body: dict[str, Any]) -> None:
    tools = body.get("tools")
    if tools is not None and not tools:
        raise InvalidRequest(
            "Invalid 'tools': empty array. Expected an array with minimum length 1, "
            "but got an empty array instead.",
            param="tools",
            code="empty_array",
        )
    if body.get("tool_choice") is not None and not tools:
        raise InvalidRequest(
            "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
            param="tool_choice",
        )
    for index, tool in enumerate(tools or []):
        _check_openai_tool(index, tool)


def _missing(param: str) -> InvalidRequest:
    return InvalidRequest(f"Missing required parameter: '{param}'.", param=param, code="missing_required_parameter")


def _check_openai_tool(index: int, tool: dict[str, Any]) -> None:
    function = tool.get("function")
    if not isinstance(function, dict):
        raise _missing(f"tools[{index}].function")
    name = function.get("name")
    if not name:
        raise _missing(f"tools[{index}].function.name")
    if "parameters" not in function:
        return  # a function without parameters is allowed
    parameters = function["parameters"]
    param = f"tools[{index}].function.parameters"
    if not isinstance(parameters, dict):
        raise InvalidRequest(
            f"Invalid schema for function '{name}': {json.dumps(parameters)} is not of type 'object', 'boolean'.",
            param=param,
            code="invalid_function_parameters",
        )
    if parameters.get("type") != "object":
        raise InvalidRequest(
            f"Invalid schema for function '{name}': schema must be a JSON Schema of 'type: \"object\"', "
            f"got 'type: \"{parameters.get('type')}\"'.",
            param=param,
            code="invalid_function_parameters",
        )


def _check_openai_tool_messages(messages: list[dict[str, Any]]) -> None:
    """Every tool_call_id is answered by the tool messages right after its assistant message."""
    pending: list[str] = []  # ids of the last assistant message not answered yet
    answerable: set[str] = set()
    pending_index = 0
    for index, message in enumerate(messages):
        if message.get("role") == "tool":
            call_id = message.get("tool_call_id")
            if not call_id:
                raise InvalidRequest(
                    "Missing parameter 'tool_call_id': messages with role 'tool' must have a 'tool_call_id'.",
                    param=f"messages.[{index}].tool_call_id",
                )
            if call_id not in answerable:
                # "preceeding" is the real API's spelling.
                raise InvalidRequest(
                    "Invalid parameter: messages with role 'tool' must be a response to a preceeding "
                    "message with 'tool_calls'.",
                    param=f"messages.[{index}].role",
                )
            pending = [p for p in pending if p != call_id]
            continue
        if pending:
            raise _unanswered(pending, index)
        answerable = set()
        if message.get("role") == "assistant" and message.get("tool_calls"):
            _check_openai_calls(index, message["tool_calls"])
            pending = [call["id"] for call in message["tool_calls"]]
            answerable = set(pending)
            pending_index = index
    if pending:
        raise _unanswered(pending, pending_index)


def _check_openai_calls(index: int, calls: list[dict[str, Any]]) -> None:
    for position, call in enumerate(calls):
        prefix = f"messages[{index}].tool_calls[{position}]"
        if not call.get("id"):
            raise _missing(f"{prefix}.id")
        if not isinstance(call.get("function"), dict) or not call["function"].get("name"):
            raise _missing(f"{prefix}.function.name")


def _unanswered(ids: list[str], index: int) -> InvalidRequest:
    return InvalidRequest(
        "An assistant message with 'tool_calls' must be followed by tool messages responding to each "
        f"'tool_call_id'. The following tool_call_ids did not have response messages: {', '.join(ids)}",
        param=f"messages.[{index}].role",
    )


# -------------------------------------------------------------------------- Anthropic


@dataclass
class AnthropicTurn:
    """Consecutive same-role messages combined, as the Messages API reads them."""

    index: int  # index of the first original message of the turn (used in error texts)
    role: str
    blocks: list[dict[str, Any]] = field(default_factory=list)


def anthropic_blocks(content: Any) -> list[dict[str, Any]]:
    """A message's content as a list of blocks (a string is one text block)."""
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return list(content or [])


def anthropic_turns(messages: list[dict[str, Any]]) -> list[AnthropicTurn]:
    """Combine consecutive messages of the same role into one turn."""
    turns: list[AnthropicTurn] = []
    for index, message in enumerate(messages):
        blocks = anthropic_blocks(message.get("content"))
        if turns and turns[-1].role == message.get("role"):
            turns[-1].blocks.extend(blocks)
        else:
            turns.append(AnthropicTurn(index, message.get("role", ""), blocks))
    return turns


def check_anthropic(body: dict[str, Any]) -> None:
    """Raise :class:`InvalidRequest` when the Anthropic Messages API would reject ``body``."""
    for required in ("max_tokens", "messages", "model"):
        if required not in body:
            raise InvalidRequest(f"{required}: Field required")
    messages = body["messages"]
    if not messages:
        raise InvalidRequest("messages: at least one message is required")
    _check_anthropic_tools(body.get("tools") or [])
    _check_anthropic_roles(messages)
    _check_anthropic_blocks(messages)
    turns = anthropic_turns(messages)
    uses_tool_blocks = any(b.get("type") in ("tool_use", "tool_result") for t in turns for b in t.blocks)
    if uses_tool_blocks and not body.get("tools"):
        raise InvalidRequest("Requests which include `tool_use` or `tool_result` blocks must define tools.")
    _check_anthropic_tool_pairs(turns)


def _check_anthropic_tools(tools: list[dict[str, Any]]) -> None:
    for index, tool in enumerate(tools):
        if tool.get("type", "custom") != "custom":
            continue  # server tools (web search, ...) have their own shapes
        prefix = f"tools.{index}.custom"
        for required in ("name", "input_schema"):
            if required not in tool:
                raise InvalidRequest(f"{prefix}.{required}: Field required")
        schema = tool["input_schema"]
        if not isinstance(schema, dict):
            raise InvalidRequest(f"{prefix}.input_schema: Input should be a valid dictionary")
        if "type" not in schema:
            raise InvalidRequest(f"{prefix}.input_schema.type: Field required")
        if schema["type"] != "object":
            raise InvalidRequest(f"{prefix}.input_schema.type: Input should be 'object'")


def _check_anthropic_roles(messages: list[dict[str, Any]]) -> None:
    for index, message in enumerate(messages):
        if message.get("role") not in ("user", "assistant"):
            raise InvalidRequest(f"messages.{index}.role: Input should be 'user' or 'assistant'")
    if messages[0]["role"] != "user":
        raise InvalidRequest('messages: first message must use the "user" role')
    last = len(messages) - 1
    for index, message in enumerate(messages):
        final_assistant = index == last and message["role"] == "assistant"
        if not anthropic_blocks(message.get("content")) or message.get("content") == "":
            if not final_assistant:
                raise InvalidRequest(
                    f"messages.{index}: all messages must have non-empty content except for the optional "
                    "final assistant message"
                )


def _leading_result_ids(turn: AnthropicTurn) -> set[str]:
    """Ids of the tool_result blocks at the start of a user turn."""
    ids: set[str] = set()
    for block in turn.blocks:
        if block.get("type") != "tool_result":
            break
        ids.add(block.get("tool_use_id", ""))
    return ids


def _check_anthropic_blocks(messages: list[dict[str, Any]]) -> None:
    """The fields the tool blocks cannot do without."""
    required = {"tool_use": ("id", "name"), "tool_result": ("tool_use_id",)}
    for index, message in enumerate(messages):
        for position, block in enumerate(anthropic_blocks(message.get("content"))):
            for name in required.get(block.get("type"), ()):
                if name not in block:
                    raise InvalidRequest(f"messages.{index}.content.{position}.{block['type']}.{name}: Field required")


def _check_anthropic_tool_pairs(turns: list[AnthropicTurn]) -> None:
    previous_uses: set[str] = set()
    for position, turn in enumerate(turns):
        if turn.role == "user":
            for block_index, block in enumerate(turn.blocks):
                if block.get("type") == "tool_result" and block.get("tool_use_id") not in previous_uses:
                    raise InvalidRequest(
                        f"messages.{turn.index}.content.{block_index}: unexpected `tool_use_id` found in "
                        f"`tool_result` blocks: {block.get('tool_use_id')}. Each `tool_result` block must have "
                        "a corresponding `tool_use` block in the previous message."
                    )
            previous_uses = set()
            continue
        uses = [b["id"] for b in turn.blocks if b.get("type") == "tool_use"]
        following = turns[position + 1] if position + 1 < len(turns) else None
        answered = _leading_result_ids(following) if following else set()
        missing = [u for u in uses if u not in answered]
        if missing:
            raise InvalidRequest(
                f"messages.{turn.index}: `tool_use` ids were found without `tool_result` blocks immediately "
                f"after: {', '.join(missing)}. Each `tool_use` block must have a corresponding `tool_result` "
                "block in the next message."
            )
        previous_uses = set(uses)
