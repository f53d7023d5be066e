"""OpenAI Chat Completions on the wire: request JSON -> Conversation, Completion -> JSON or SSE.

Shapes follow the API reference of ``POST /v1/chat/completions``: a
``chat.completion`` object, or with ``stream: true`` a series of
``data: {chat.completion.chunk}`` events ended by ``data: [DONE]``, where tool
calls arrive as deltas (first the id and name, then fragments of the arguments).
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any, Literal

from ...types import ToolCall, ToolResult, Turn, UserMessage
from .. import offers
from ..contract import InvalidRequest, offered_tool, openai_strict_problem
from ..conversation import Conversation, ToolChoice
from ..faults import FaultContext, retry_headers
from ..ids import base62, hexadecimal
from ..tokens import split_pieces, token_weight

if TYPE_CHECKING:
    from ..completion import Completion
    from ..state import ServerState

__all__ = ["API", "PATH", "parse", "render", "stream_events", "check", "wants_stream", "reasons", "remember"]

API: Literal["chat"] = "chat"
PATH = "/v1/chat/completions"
REQUEST_ID_HEADER = "x-request-id"
PREFACES_TOOL_USE = False  # gpt models mostly send content null beside tool calls
SAME_IDS_STREAMED = False  # a streamed request's ids follow its whole body, stream flag included

_FINISH = {"end_turn": "stop", "tool_use": "tool_calls", "max_tokens": "length", "refusal": "stop"}

# A small account's limits, for the rate-limit fault: 3 requests per minute is the
# figure in the API's own 429 example; both can be changed with the fault's options.
DEFAULT_REQUESTS_LIMIT = 3
DEFAULT_TOKENS_LIMIT = 40_000
_RATE_LIMIT_MESSAGE = (
    "Rate limit reached for {model} in organization {organization} on requests per min (RPM): "
    "Limit {limit}, Used {limit}, Requested 1. Please try again in {wait}. "
    "Visit https://platform.openai.com/account/rate-limits to learn more."
)
_QUOTA_MESSAGE = (
    "You exceeded your current quota, please check your plan and billing details. For more information on "
    "this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors."
)

# (status, error type, code, message) per server fault, as the real API words them (Responses too).
FAULT_ERRORS = {
    "server_error": (
        500,
        "server_error",
        None,
        "The server had an error while processing your request. Sorry about that!",
    ),
    "unavailable": (503, "server_error", None, "The server is overloaded or not ready yet."),
    "overloaded": (529, "server_error", None, "The engine is currently overloaded, please try again later."),
}


def message_id(digest: bytes) -> str:
    """``chatcmpl-`` and 29 base62 characters, the shape of a real completion id."""
    return "chatcmpl-" + base62(digest, "message", 29)


def call_id(digest: bytes, index: int) -> str:
    """``call_`` and 24 base62 characters, the shape of a real tool call id."""
    return "call_" + base62(digest, f"call{index}", 24)


def request_id(digest: bytes) -> str:
    """``req_`` and 32 hex digits, the shape of a real ``x-request-id``."""
    return "req_" + hexadecimal(digest, "request", 32)


def system_fingerprint(model: str) -> str:
    """``fp_`` and 10 hex digits; one per model, as a real fingerprint names one backend configuration."""
    return "fp_" + hashlib.sha256(model.encode()).hexdigest()[:10]


def wants_stream(body: dict[str, Any]) -> bool:
    return body.get("stream") is True


def reasons(body: dict[str, Any]) -> bool:
    """Does a reasoning model reason before answering? Yes, unless ``reasoning_effort`` is "none"."""
    return body.get("reasoning_effort") != "none"


def _text(content: Any) -> str:
    """Text of a message's content: a string, or the text parts of a list of parts."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") for part in content if part.get("type") == "text")


def _tool_choice(value: Any) -> tuple[ToolChoice, str | None]:
    if isinstance(value, dict) and value.get("type") == "allowed_tools":
        return ("required" if (value.get("allowed_tools") or {}).get("mode") == "required" else "auto"), None
    if isinstance(value, dict):
        return "tool", value.get("function", {}).get("name")
    if value in ("none", "required"):
        return value, None
    return "auto", None


def parse(body: dict[str, Any], seed: int, server: ServerState) -> Conversation:
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
        offered_tool(
            t["function"]["name"],
            t["function"].get("description", ""),
            t["function"].get("parameters", {"type": "object", "properties": {}}),
            t["function"].get("strict"),
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
        "prompt_tokens_details": {"cached_tokens": completion.cache.read, "audio_tokens": 0},
        "completion_tokens_details": {
            "reasoning_tokens": completion.reasoning_tokens,
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
        "system_fingerprint": system_fingerprint(completion.model),
    }


def render(completion: Completion, body: dict[str, Any], server: ServerState) -> dict[str, Any]:
    """The ``chat.completion`` object (its reasoning stays hidden: only its tokens are counted)."""
    # The real API sends null, not "", when a reply holds only tool calls (or a refusal).
    silent = completion.refusal is not None or (completion.calls and not completion.text)
    message: dict[str, Any] = {
        "role": "assistant",
        "content": None if silent else completion.text,
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


def remember(body: dict[str, Any], completion: Completion, server: ServerState) -> None:
    """Chat Completions keeps nothing between requests: every request carries its whole conversation."""


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


def stream_events(completion: Completion, body: dict[str, Any], server: ServerState) -> list[tuple[float, bytes]]:
    """The SSE events of a streamed answer, each with the output tokens generated before it."""
    usage = bool((body.get("stream_options") or {}).get("include_usage"))
    # Like the message, the first delta's content is null when no text will follow.
    silent = completion.refusal is not None or (completion.calls and not completion.text)
    first = {"role": "assistant", "content": None if silent else "", "refusal": None}
    # Hidden reasoning delays the first delta by the time its tokens take.
    events = [(float(completion.reasoning_tokens), _chunk(completion, first, None, usage))]
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


def duration(seconds: float) -> str:
    """A wait as OpenAI writes it in headers and messages: ``6ms``, ``20s``, ``1.5s``, ``1m30s``."""
    if seconds < 1:
        return f"{max(1, round(seconds * 1000))}ms"
    minutes, rest = divmod(round(seconds, 3), 60)
    text = f"{rest:.3f}".rstrip("0").rstrip(".") + "s"
    return f"{int(minutes)}m{text}" if minutes else text


def organization(account: bytes) -> str:
    """``org-`` and 24 base62 characters: the account's organization id, the same for every request."""
    return "org-" + base62(account, "organization", 24)


def _rate_limit(context: FaultContext) -> tuple[int, dict[str, str], dict[str, Any]]:
    limit = int(context.fault.option("limit", DEFAULT_REQUESTS_LIMIT))
    tokens_limit = int(context.fault.option("tokens_limit", DEFAULT_TOKENS_LIMIT))
    used = min(tokens_limit, context.requested_tokens)
    wait = context.retry_after
    headers = {
        "x-ratelimit-limit-requests": str(limit),
        "x-ratelimit-remaining-requests": "0",
        "x-ratelimit-reset-requests": duration(wait),
        "x-ratelimit-limit-tokens": str(tokens_limit),
        "x-ratelimit-remaining-tokens": str(tokens_limit - used),
        # Tokens refill continuously: what this request used is back after its share of a minute.
        "x-ratelimit-reset-tokens": duration(60 * used / tokens_limit),
        **retry_headers(wait),
    }
    message = _RATE_LIMIT_MESSAGE.format(
        model=context.model, organization=organization(context.account), limit=limit, wait=duration(wait)
    )
    return 429, headers, error_body(message, type_="requests", code="rate_limit_exceeded")


def fault_response(kind: str, context: FaultContext) -> tuple[int, dict[str, str], dict[str, Any]]:
    """Status, headers and body of an HTTP-level fault."""
    if kind == "rate_limit":
        return _rate_limit(context)
    if kind == "quota":
        return 429, {}, error_body(_QUOTA_MESSAGE, type_="insufficient_quota", code="insufficient_quota")
    status, type_, code, message = FAULT_ERRORS[kind]
    return status, {}, error_body(message, type_=type_, code=code)


def stream_error_event(
    request_id: str, completion: Completion, body: dict[str, Any], server: ServerState, sent: int
) -> bytes:
    """An error delivered inside an open stream after ``sent`` events (the connection then ends without [DONE])."""
    _, type_, code, message = FAULT_ERRORS["server_error"]
    return _sse(error_body(message, type_=type_, code=code))


def not_found(method: str, path: str, request_id: str) -> tuple[int, dict[str, Any]]:
    return 404, error_body(f"Invalid URL ({method} {path})")


def bad_json(request_id: str) -> dict[str, Any]:
    return error_body(
        "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your "
        "HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)"
    )


# --- the request contract: what the real API rejects, with its 400 text ---------------------


def check(body: dict[str, Any], server: ServerState) -> None:
    """Raise :class:`InvalidRequest` when OpenAI Chat Completions would reject ``body``."""
    if not body.get("model"):
        raise InvalidRequest("you must provide a model parameter")
    _check_messages_present(body)
    _check_tools(body)
    _check_output_limit(body)
    offers.check_retention(body)
    if server.reasoning and body.get("tools") and reasons(body):
        # gpt-5.x reasons by default, so leaving reasoning_effort out does not help: only "none" does.
        raise InvalidRequest(
            f"Function tools with reasoning_effort are not supported for {body['model']} in /v1/chat/completions. "
            "To use function tools, use /v1/responses or set reasoning_effort to 'none'.",
            param="reasoning_effort",
        )
    _check_tool_messages(body["messages"])


def _check_output_limit(body: dict[str, Any]) -> None:
    for param in ("max_completion_tokens", "max_tokens"):
        limit = body.get(param)
        if isinstance(limit, int) and limit < 1:
            raise InvalidRequest(
                f"Invalid '{param}': integer below minimum value. Expected a value >= 1, but got {limit} instead.",
                param=param,
                code="integer_below_min_value",
            )


def _check_messages_present(body: dict[str, Any]) -> None:
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


def _check_tools(body: dict[str, Any]) -> None:
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
        _check_tool(index, tool)


def _missing(param: str) -> InvalidRequest:
    return InvalidRequest(f"Missing required parameter: '{param}'.", param=param, code="missing_required_parameter")


def _check_tool(index: int, tool: dict[str, Any]) -> None:
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
    if function.get("strict") is True and (problem := openai_strict_problem(parameters)):
        raise InvalidRequest(
            f"Invalid schema for function '{name}': {problem}", param=param, code="invalid_function_parameters"
        )


def _check_tool_messages(messages: list[dict[str, Any]]) -> None:
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
            _check_calls(index, message["tool_calls"])
            pending = [call["id"] for call in message["tool_calls"]]
            answerable = set(pending)
            pending_index = index
    if pending:
        raise _unanswered(pending, pending_index)


def _check_calls(index: int, calls: list[dict[str, Any]]) -> None:
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
