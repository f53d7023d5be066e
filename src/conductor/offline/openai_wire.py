"""OpenAI Chat Completions on the wire: request JSON -> Conversation, Completion -> JSON or SSE.

Shapes follow the API reference of ``POST /v1/chat/completions``: a
``chat.completion`` object, or with ``stream: true`` a series of
``data: {chat.completion.chunk}`` events ended by ``data: [DONE]``, where tool
calls arrive as deltas (first the id and name, then fragments of the arguments).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Literal

from ..types import ToolCall, ToolResult, ToolSpec, Turn, UserMessage
from .contract import InvalidRequest, check_openai
from .conversation import Conversation, ToolChoice
from .tokens import split_pieces, token_weight

if TYPE_CHECKING:
    from .model import Completion

__all__ = ["API", "PATH", "parse", "render", "stream_events", "check", "wants_stream"]

API: Literal["openai"] = "openai"
PATH = "/v1/chat/completions"
MESSAGE_PREFIX = "chatcmpl-"
CALL_PREFIX = "call_"
ID_LENGTH = 24  # characters after the prefix, as in real ids
REQUEST_ID_HEADER = "x-request-id"
SYSTEM_FINGERPRINT = "fp_offline"

check = check_openai

_FINISH = {"end_turn": "stop", "tool_use": "tool_calls", "max_tokens": "length", "refusal": "stop"}

# (status, error type, code, message) per transport fault, as the real API words them.
_FAULT_ERRORS = {
    "rate_limit": (
        429,
        "requests",
        "rate_limit_exceeded",
        "Rate limit reached for {model} on requests per min (RPM). Please try again in {retry_after}s.",
    ),
    "server_error": (
        500,
        "server_error",
        None,
        "The server had an error while processing your request. Sorry about that!",
    ),
    "unavailable": (503, "server_error", None, "The server is overloaded or not ready yet."),
    "overloaded": (529, "server_error", None, "The engine is currently overloaded, please try again later."),
}


def wants_stream(body: dict[str, Any]) -> bool:
    return body.get("stream") is True


def _text(content: Any) -> str:
    """Text of a message's content: a string, or the text parts of a list of parts."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") for part in content if part.get("type") == "text")


def _tool_choice(value: Any) -> tuple[ToolChoice, str | None]:
    if isinstance(value, dict):
        return "tool", value.get("function", {}).get("name")
    if value in ("none", "required"):
        return value, None
    return "auto", None


def parse(body: dict[str, Any], seed: int) -> Conversation:
    """The neutral conversation of a (valid) Chat Completions request."""
    system: list[str] = []
    messages: list[UserMessage | Turn | ToolResult] = []
    call_names: dict[str, str] = {}
    for message in body["messages"]:
        role = message.get("role")
        if role in ("system", "developer"):
            system.append(_text(message.get("content")))
        elif role == "user":
            messages.append(UserMessage(_text(message.get("content"))))
        elif role == "assistant":
            calls = tuple(
                ToolCall(c["id"], c["function"]["name"], c["function"].get("arguments") or "{}")
                for c in message.get("tool_calls") or []
            )
            call_names.update((c.id, c.name) for c in calls)
            text = _text(message.get("content"))
            messages.append(Turn(text_blocks=(text,) if text else (), tool_calls=calls))
        elif role == "tool":
            call_id = message["tool_call_id"]
            content = _text(message.get("content"))
            # Chat Completions has no error flag; like a real model, read an "Error:" prefix as one.
            is_error = content.startswith("Error:")
            if is_error:
                content = content.removeprefix("Error:").strip()
            messages.append(ToolResult(call_id, call_names.get(call_id, ""), content, is_error))
    tools = tuple(
        ToolSpec(
            t["function"]["name"],
            t["function"].get("description", ""),
            t["function"].get("parameters", {"type": "object", "properties": {}}),
        )
        for t in body.get("tools") or []
    )
    choice, forced = _tool_choice(body.get("tool_choice"))
    return Conversation(
        api=API,
        model=body["model"],
        messages=tuple(messages),
        tools=tools,
        system="\n\n".join(system) or None,
        tool_choice=choice,
        forced_tool=forced,
        parallel_tool_calls=body.get("parallel_tool_calls") is not False,
        max_tokens=body.get("max_completion_tokens", body.get("max_tokens")),
        seed=seed,
    )


def _usage(completion: Completion) -> dict[str, Any]:
    return {
        "prompt_tokens": completion.input_tokens,
        "completion_tokens": completion.output_tokens,
        "total_tokens": completion.input_tokens + completion.output_tokens,
        "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
        "completion_tokens_details": {
            "reasoning_tokens": 0,
            "audio_tokens": 0,
            "accepted_prediction_tokens": 0,
            "rejected_prediction_tokens": 0,
        },
    }


def _envelope(completion: Completion, obj: str) -> dict[str, Any]:
    return {
        "id": completion.id,
        "object": obj,
        "created": completion.created,
        "model": completion.model,
        "service_tier": "default",
        "system_fingerprint": SYSTEM_FINGERPRINT,
    }


def render(completion: Completion) -> dict[str, Any]:
    """The ``chat.completion`` object."""
    message: dict[str, Any] = {
        "role": "assistant",
        # The real API sends null, not "", when a reply holds only tool calls.
        "content": None if completion.refusal is not None or (completion.calls and not completion.text) else completion.text,
        "refusal": completion.refusal,
        "annotations": [],
    }
    if completion.calls:
        message["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c in completion.calls
        ]
    choice = {"index": 0, "message": message, "logprobs": None, "finish_reason": _FINISH[completion.finish]}
    return {**_envelope(completion, "chat.completion"), "choices": [choice], "usage": _usage(completion)}


def _sse(data: dict[str, Any] | str) -> bytes:
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"data: {text}\n\n".encode()


def _chunk(completion: Completion, delta: dict[str, Any], finish: str | None, usage: bool) -> bytes:
    chunk = {
        **_envelope(completion, "chat.completion.chunk"),
        "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
    }
    if usage:
        chunk["usage"] = None  # with include_usage, every chunk but the last says so
    return _sse(chunk)


def _call_events(completion: Completion, usage: bool) -> list[tuple[float, bytes]]:
    events: list[tuple[float, bytes]] = []
    for index, call in enumerate(completion.calls):
        head = {"index": index, "id": call.id, "type": "function", "function": {"name": call.name, "arguments": ""}}
        events.append((token_weight(call.name), _chunk(completion, {"tool_calls": [head]}, None, usage)))
        for fragment in split_pieces(call.arguments, tokens=4):
            delta = {"tool_calls": [{"index": index, "function": {"arguments": fragment}}]}
            events.append((token_weight(fragment), _chunk(completion, delta, None, usage)))
    return events


def stream_events(completion: Completion, body: dict[str, Any]) -> list[tuple[float, bytes]]:
    """The SSE events of a streamed answer, each with the output tokens generated before it."""
    usage = bool((body.get("stream_options") or {}).get("include_usage"))
    first = {"role": "assistant", "content": None if completion.refusal is not None else "", "refusal": None}
    events = [(0.0, _chunk(completion, first, None, usage))]
    for piece in split_pieces(completion.refusal or ""):
        events.append((token_weight(piece), _chunk(completion, {"refusal": piece}, None, usage)))
    for piece in split_pieces(completion.text):
        events.append((token_weight(piece), _chunk(completion, {"content": piece}, None, usage)))
    events.extend(_call_events(completion, usage))
    events.append((0.0, _chunk(completion, {}, _FINISH[completion.finish], usage)))
    if usage:
        final = {**_envelope(completion, "chat.completion.chunk"), "choices": [], "usage": _usage(completion)}
        events.append((0.0, _sse(final)))
    events.append((0.0, _sse("[DONE]")))
    return events


def error_body(
    message: str, *, type_: str = "invalid_request_error", param: str | None = None, code: str | None = None
) -> dict[str, Any]:
    """The body of an error response."""
    return {"error": {"message": message, "type": type_, "param": param, "code": code}}


def invalid_request(error: InvalidRequest, request_id: str) -> dict[str, Any]:
    """The 400 body for a request the contract rejects."""
    return error_body(error.message, param=error.param, code=error.code)


def internal_error(message: str, request_id: str) -> dict[str, Any]:
    """The body of a 500 with a given message."""
    return error_body(message, type_="server_error")


def fault_error(kind: str, *, model: str, request_id: str, retry_after: float) -> tuple[int, dict[str, Any]]:
    """Status and body of an HTTP-level fault."""
    status, type_, code, message = _FAULT_ERRORS[kind]
    return status, error_body(message.format(model=model, retry_after=f"{retry_after:g}"), type_=type_, code=code)


def stream_error_event(request_id: str) -> bytes:
    """An error delivered inside an open stream (the connection then ends without [DONE])."""
    _, body = fault_error("server_error", model="", request_id=request_id, retry_after=0)
    return _sse(body)


def not_found(method: str, path: str, request_id: str) -> tuple[int, dict[str, Any]]:
    return 404, error_body(f"Invalid URL ({method} {path})")


def bad_json(request_id: str) -> dict[str, Any]:
    return error_body(
        "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your "
        "HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)"
    )
