"""Anthropic Messages on the wire: request JSON -> Conversation, Completion -> JSON or SSE.

Shapes follow the API reference of ``POST /v1/messages``: a ``message`` object,
or with ``stream: true`` the named events ``message_start``, then per content
block ``content_block_start`` / ``content_block_delta`` (``text_delta``,
``input_json_delta``, or ``thinking_delta`` then ``signature_delta``) /
``content_block_stop``, then ``message_delta`` (stop reason and output tokens)
and ``message_stop``.

A thinking model (``OfflineModel(reasoning=True)``) opens every answer with a
signed ``thinking`` block, unless the request disables ``thinking``; a forced
tool use leaves no room for it, as with Claude.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Literal

from ...types import ToolCall, ToolResult, Turn, UserMessage
from .. import offers, programs
from ..compaction import check_trigger
from ..contract import InvalidRequest, anthropic_strict_problem, hosted_tool_refused, offered_tool
from ..conversation import Conversation, ToolChoice
from ..faults import FaultContext, retry_headers
from ..ids import base62
from ..reasoning import sign, signed
from ..tokens import split_pieces, token_weight
from ..tool_search import check_messages, is_messages_search

if TYPE_CHECKING:
    from ..completion import Completion, RenderedCall
    from ..state import ServerState

__all__ = ["API", "PATH", "parse", "render", "stream_events", "check", "wants_stream", "reasons", "remember"]

API: Literal["messages"] = "messages"
PATH = "/v1/messages"
REQUEST_ID_HEADER = "request-id"
PREFACES_TOOL_USE = True  # Claude usually says what it is about to do before a tool_use block
SAME_IDS_STREAMED = False  # a streamed request's ids follow its whole body, stream flag included

# A tier-1 account's limits for a Haiku model, for the rate-limit fault; the
# fault's options ``limit`` and ``tokens_limit`` change them.
DEFAULT_REQUESTS_LIMIT = 50
DEFAULT_INPUT_TOKENS_LIMIT = 50_000
DEFAULT_OUTPUT_TOKENS_LIMIT = 10_000
_RATE_LIMIT_MESSAGE = "This request would exceed your account's rate limit. Please try again later."
_SPEND_LIMIT_MESSAGE = "This request would exceed your account's monthly spend limit. Please try again later."

# (status, error type, message) per server fault, as the real API words them.
_FAULT_ERRORS = {
    "server_error": (500, "api_error", "Internal server error"),
    "unavailable": (503, "api_error", "Service unavailable"),
    "overloaded": (529, "overloaded_error", "Overloaded"),
}
_TOOL_CHOICE: dict[str, ToolChoice] = {"auto": "auto", "any": "required", "tool": "tool", "none": "none"}


def message_id(digest: bytes) -> str:
    """``msg_01`` and 22 base62 characters, the shape of a real message id."""
    return "msg_01" + base62(digest, "message", 22)


def call_id(digest: bytes, index: int) -> str:
    """``toolu_01`` and 22 base62 characters, the shape of a real tool_use id."""
    return "toolu_01" + base62(digest, f"call{index}", 22)


def request_id(digest: bytes) -> str:
    """``req_011C`` and 20 base62 characters, the shape of a real ``request-id``."""
    return "req_011C" + base62(digest, "request", 20)


def wants_stream(body: dict[str, Any]) -> bool:
    return body.get("stream") is True


def _thinking(body: dict[str, Any]) -> str | None:
    """The request's ``thinking.type`` ("enabled", "adaptive", "disabled"), or None when it says nothing."""
    return (body.get("thinking") or {}).get("type")


def _forces_tool(body: dict[str, Any]) -> bool:
    return (body.get("tool_choice") or {}).get("type") in ("any", "tool")


def reasons(body: dict[str, Any]) -> bool:
    """Does a thinking model think before answering? Unless ``thinking`` is disabled or a tool use is forced."""
    return _thinking(body) != "disabled" and not _forces_tool(body)


def _text(blocks: Any) -> str:
    """Text of a string, or of the text blocks of a list of blocks."""
    if isinstance(blocks, str):
        return blocks
    return "".join(b.get("text", "") for b in blocks or [] if b.get("type") == "text")


def _system(value: Any) -> str | None:
    return _text(value) or None if value else None


def _user_turn(blocks: list[dict[str, Any]], call_names: dict[str, str]) -> list[UserMessage | ToolResult]:
    """Tool results first (the API requires them first), then the text as one user message."""
    out: list[UserMessage | ToolResult] = []
    for block in blocks:
        if block.get("type") == "tool_result":
            call_id = block["tool_use_id"]
            content = _text(block.get("content", ""))
            out.append(ToolResult(call_id, call_names.get(call_id, ""), content, bool(block.get("is_error"))))
    text = _text(blocks)
    if text:
        out.append(UserMessage(text))
    return out


def _assistant_turn(blocks: list[dict[str, Any]]) -> Turn:
    texts = tuple(b["text"] for b in blocks if b.get("type") == "text" and b.get("text"))
    calls = tuple(
        ToolCall(b["id"], b["name"], json.dumps(b.get("input", {}), ensure_ascii=False))
        for b in blocks
        if b.get("type") == "tool_use"
    )
    return Turn(text_blocks=texts, tool_calls=calls)


def parse(body: dict[str, Any], seed: int, server: ServerState) -> Conversation:
    """The neutral conversation of a (valid) Messages request."""
    messages: list[UserMessage | Turn | ToolResult] = []
    call_names: dict[str, str] = {}
    system = [_system(body.get("system"))]
    for turn in combined_turns(body["messages"]):
        if turn.role == "system":  # a mid-conversation system message (Claude 4.8+): instructions, not a question
            system.append(_text(turn.blocks))
        elif turn.role == "assistant":
            assistant = _assistant_turn(turn.blocks)
            call_names.update((c.id, c.name) for c in assistant.tool_calls)
            messages.append(assistant)
        else:
            messages.extend(_user_turn(turn.blocks, call_names))
    tools = tuple(
        offered_tool(t["name"], t.get("description", ""), t["input_schema"], t.get("strict"))
        for t in body.get("tools") or []
        if t.get("type", "custom") == "custom"
    )
    choice = body.get("tool_choice") or {}
    return Conversation(
        api=API,
        model=body["model"],
        messages=tuple(messages),
        tools=tools,
        system="\n\n".join(s for s in system if s) or None,
        tool_choice=_TOOL_CHOICE.get(choice.get("type", "auto"), "auto"),
        forced_tool=choice.get("name"),
        parallel_tool_calls=not choice.get("disable_parallel_tool_use", False),
        max_tokens=body["max_tokens"],
        seed=seed,
    )


def _input(call: RenderedCall) -> dict[str, Any]:
    """A tool call's input object (Anthropic has no way to send anything but an object)."""
    try:
        value = json.loads(call.arguments)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _blocks(completion: Completion, server: ServerState) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = []
    if completion.compaction is not None:  # compaction ran first: its block leads the content
        compaction = completion.compaction
        blocks.append({"type": "compaction", "content": compaction.summary, "encrypted_content": compaction.sealed})
    if completion.reasoning:
        thinking = completion.reasoning
        blocks.append({"type": "thinking", "thinking": thinking, "signature": sign(server.key, thinking)})
    blocks += _search_blocks(completion)
    step = completion.program
    if step is not None and step.output is not None:  # the program ended: its result block comes first
        blocks.append(programs.result_block(step))
    # Anthropic has no refusal field: a refusing answer is text with stop_reason "refusal".
    text = completion.refusal if completion.refusal is not None else completion.text
    if text:
        blocks.append({"type": "text", "text": text})
    if step is not None and step.new:
        blocks.append({"type": "server_tool_use", "id": step.program.id, "name": "code_execution",
                       "input": {"code": step.program.code}})
    caller = programs.messages_caller(step)
    blocks.extend({"type": "tool_use", "id": c.id, "name": c.name, "input": _input(c), **caller}
                  for c in completion.calls)
    return blocks


def _search_blocks(completion: Completion) -> list[dict[str, Any]]:
    """A tool search made inside the turn: its server_tool_use block, then the result naming the tools loaded."""
    step = completion.search
    if step is None:
        return []
    use_id = "srvtoolu_01" + base62(completion.id.encode(), "tool search", 22)
    references = [{"type": "tool_reference", "tool_name": name} for name in step.found]
    return [
        {"type": "server_tool_use", "id": use_id, "name": "tool_search_tool_bm25",
         "input": {"query": step.query, "limit": step.limit}},
        {"type": "tool_search_tool_result", "tool_use_id": use_id,
         "content": {"type": "tool_search_tool_search_result", "tool_references": references}},
    ]


# Usage fields a pass of usage.iterations has no place for (BetaMessageIterationUsage): the top-level ones hold them.
_NOT_PER_PASS = ("service_tier", "output_tokens_details")


def _usage(completion: Completion, output_tokens: int) -> dict[str, Any]:
    usage = _pass_usage(completion, output_tokens)
    compaction = completion.compaction
    if compaction is not None:  # the top-level counts are the answer's pass; iterations hold both
        usage["iterations"] = [
            {"type": "compaction", "input_tokens": compaction.input_tokens, "output_tokens": compaction.output_tokens,
             "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
             "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0}},
            {"type": "message", **{k: v for k, v in usage.items() if k not in _NOT_PER_PASS}},
        ]
    return usage


def _pass_usage(completion: Completion, output_tokens: int) -> dict[str, Any]:
    return {
        **(_thinking_tokens(completion) if output_tokens else {}),  # message_start's usage: nothing generated yet
        # Anthropic's input_tokens are the ones after the last cache breakpoint: neither read nor written.
        "input_tokens": completion.input_tokens - completion.cache.read - completion.cache.written,
        "output_tokens": output_tokens,
        "cache_creation_input_tokens": completion.cache.written,
        "cache_read_input_tokens": completion.cache.read,
        "cache_creation": {
            "ephemeral_5m_input_tokens": completion.cache.written - completion.cache.written_1h,
            "ephemeral_1h_input_tokens": completion.cache.written_1h,
        },
        "service_tier": "standard",
    }


def _thinking_tokens(completion: Completion) -> dict[str, Any]:
    """A thinking answer's ``output_tokens_details`` (the part of output_tokens spent thinking), as anthropic 2.12's
    ``Usage`` and ``MessageDeltaUsage`` carry it; nothing for an answer without thinking."""
    if not completion.reasoning:
        return {}
    return {"output_tokens_details": {"thinking_tokens": completion.reasoning_tokens}}


def _message(
    completion: Completion, content: list[dict[str, Any]], stop: str | None, output_tokens: int
) -> dict[str, Any]:
    return {
        "id": completion.id,
        "type": "message",
        "role": "assistant",
        "model": completion.model,
        "content": content,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": _usage(completion, output_tokens),
        **programs.container_field(completion),
    }


def render(completion: Completion, body: dict[str, Any], server: ServerState) -> dict[str, Any]:
    """The ``message`` object."""
    return _message(completion, _blocks(completion, server), completion.finish, completion.output_tokens)


def remember(body: dict[str, Any], completion: Completion, server: ServerState) -> None:
    """Note which tool_use blocks followed a thinking block: a later request must send that thinking back."""
    if completion.reasoning:
        for call in completion.calls:
            server.store.pair(call.id, "thinking")


def _sse(event: dict[str, Any]) -> bytes:
    data = json.dumps(event, ensure_ascii=False, separators=(",", ":"))
    return f"event: {event['type']}\ndata: {data}\n\n".encode()


def _block_events(index: int, block: dict[str, Any]) -> list[tuple[float, bytes]]:
    if block["type"] == "text":
        start = {"type": "text", "text": ""}
        deltas = [{"type": "text_delta", "text": piece} for piece in split_pieces(block["text"])]
        weights = [token_weight(d["text"]) for d in deltas]
        start_weight = 0.0
    elif block["type"] == "thinking":
        # The signature arrives in one delta of its own, just before the block stops.
        start = {"type": "thinking", "thinking": "", "signature": ""}
        deltas = [{"type": "thinking_delta", "thinking": piece} for piece in split_pieces(block["thinking"])]
        weights = [token_weight(d["thinking"]) for d in deltas]
        deltas.append({"type": "signature_delta", "signature": block["signature"]})
        weights.append(0.0)
        start_weight = 0.0
    elif block["type"] not in ("tool_use", "server_tool_use"):  # a result block arrives whole
        start, deltas, weights, start_weight = block, [], [], 0.0
    else:  # tool_use, and a server tool's server_tool_use (a search, a program)
        start = {**block, "input": {}}
        arguments = json.dumps(block["input"], ensure_ascii=False)
        deltas = [{"type": "input_json_delta", "partial_json": p} for p in split_pieces(arguments, tokens=4)]
        weights = [token_weight(d["partial_json"]) for d in deltas]
        start_weight = token_weight(block["name"])
    events = [(start_weight, _sse({"type": "content_block_start", "index": index, "content_block": start}))]
    events.extend(
        (weight, _sse({"type": "content_block_delta", "index": index, "delta": delta}))
        for weight, delta in zip(weights, deltas)
    )
    events.append((0.0, _sse({"type": "content_block_stop", "index": index})))
    return events


def stream_events(completion: Completion, body: dict[str, Any], server: ServerState) -> list[tuple[float, bytes]]:
    """The SSE events of a streamed answer, each with the output tokens generated before it."""
    events = [
        (0.0, _sse({"type": "message_start", "message": _message(completion, [], None, 0)})),
        (0.0, _sse({"type": "ping"})),
    ]
    for index, block in enumerate(_blocks(completion, server)):
        events.extend(_block_events(index, block))
    delta = {
        "type": "message_delta",
        "delta": {"stop_reason": completion.finish, "stop_sequence": None},
        "usage": {"output_tokens": completion.output_tokens, **_thinking_tokens(completion)},
    }
    events.append((0.0, _sse(delta)))
    events.append((0.0, _sse({"type": "message_stop"})))
    return events


def error_body(message: str, request_id: str, *, type_: str = "invalid_request_error") -> dict[str, Any]:
    """The body of an error response."""
    return {"type": "error", "error": {"type": type_, "message": message}, "request_id": request_id}


def invalid_request(error: InvalidRequest, request_id: str) -> dict[str, Any]:
    """The 400 body for a request the contract rejects."""
    body = error_body(error.message, request_id)
    if error.details is not None:
        body["error"]["details"] = error.details
    return body


def internal_error(message: str, request_id: str) -> dict[str, Any]:
    """The body of a 500 with a given message."""
    return error_body(message, request_id, type_="api_error")


def timestamp(epoch: float) -> str:
    """An RFC 3339 time in UTC, whole seconds rounded up, as in ``anthropic-ratelimit-*-reset``."""
    return datetime.fromtimestamp(math.ceil(epoch), timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _thousands(tokens: int) -> str:
    """Remaining tokens as the API reports them: rounded to the nearest thousand."""
    return str(round(tokens, -3))


def _rate_limit(context: FaultContext) -> tuple[int, dict[str, str], dict[str, Any]]:
    limit = int(context.fault.option("limit", DEFAULT_REQUESTS_LIMIT))
    input_limit = int(context.fault.option("tokens_limit", DEFAULT_INPUT_TOKENS_LIMIT))
    used = min(input_limit, context.requested_tokens)
    # Tokens refill continuously: what this request used is back after its share of a minute.
    input_reset = timestamp(context.now + 60 * used / input_limit)
    windows = {
        "requests": (limit, "0", timestamp(context.now + context.retry_after)),
        "input-tokens": (input_limit, _thousands(input_limit - used), input_reset),
        "output-tokens": (DEFAULT_OUTPUT_TOKENS_LIMIT, _thousands(DEFAULT_OUTPUT_TOKENS_LIMIT), timestamp(context.now)),
        # The tokens-* headers report the most restrictive token limit in effect: here the input one.
        "tokens": (input_limit, _thousands(input_limit - used), input_reset),
    }
    headers = {
        f"anthropic-ratelimit-{name}-{field}": value
        for name, values in windows.items()
        for field, value in zip(("limit", "remaining", "reset"), map(str, values))
    }
    headers.update(retry_headers(context.retry_after))
    return 429, headers, error_body(_RATE_LIMIT_MESSAGE, context.request_id, type_="rate_limit_error")


def fault_response(kind: str, context: FaultContext) -> tuple[int, dict[str, str], dict[str, Any]]:
    """Status, headers and body of an HTTP-level fault."""
    if kind == "rate_limit":
        return _rate_limit(context)
    if kind == "quota":
        # The monthly spend limit is worded as a rate_limit_error: only the message tells it apart.
        return 429, {}, error_body(_SPEND_LIMIT_MESSAGE, context.request_id, type_="rate_limit_error")
    status, type_, message = _FAULT_ERRORS[kind]
    return status, {}, error_body(message, context.request_id, type_=type_)


def stream_error_event(
    request_id: str, completion: Completion, body: dict[str, Any], server: ServerState, sent: int
) -> bytes:
    """An error delivered inside an open stream: the classic mid-stream ``overloaded_error``."""
    _, type_, message = _FAULT_ERRORS["overloaded"]
    return _sse(error_body(message, request_id, type_=type_))


def not_found(method: str, path: str, request_id: str) -> tuple[int, dict[str, Any]]:
    return 404, error_body("Not Found", request_id, type_="not_found_error")


def bad_json(request_id: str) -> dict[str, Any]:
    return error_body("There was an error parsing the body of your request as JSON.", request_id)


# --- the request contract: what the real API rejects, with its 400 text ---------------------


@dataclass
class CombinedTurn:
    """Consecutive same-role messages combined, as the Messages API reads them."""

    index: int  # index of the first original message of the turn (used in error texts)
    role: str
    blocks: list[dict[str, Any]] = field(default_factory=list)


def as_blocks(content: Any) -> list[dict[str, Any]]:
    """A message's content as a list of blocks (a string is one text block)."""
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return list(content or [])


def combined_turns(messages: list[dict[str, Any]]) -> list[CombinedTurn]:
    """Combine consecutive messages of the same role into one turn."""
    turns: list[CombinedTurn] = []
    for index, message in enumerate(messages):
        blocks = as_blocks(message.get("content"))
        if turns and turns[-1].role == message.get("role"):
            turns[-1].blocks.extend(blocks)
        else:
            turns.append(CombinedTurn(index, message.get("role", ""), blocks))
    return turns


def check(body: dict[str, Any], server: ServerState) -> None:
    """Raise :class:`InvalidRequest` when the Anthropic Messages API would reject ``body``."""
    for required in ("max_tokens", "messages", "model"):
        if required not in body:
            raise InvalidRequest(f"{required}: Field required")
    if body.get("thread") is not None:
        # Threads keep a conversation on Anthropic's side; the stand-in keeps none. The SDK's tool
        # runner reads this error code and sends the whole conversation without `thread` instead.
        raise InvalidRequest(
            "The offline stand-in does not keep threads: send the full conversation without `thread`.",
            details={"error_code": "thread_unsupported_request", "unsupported": []},
        )
    if isinstance(body["max_tokens"], int) and body["max_tokens"] < 1:
        raise InvalidRequest("max_tokens: Input should be greater than or equal to 1")
    messages = body["messages"]
    if not messages:
        raise InvalidRequest("messages: at least one message is required")
    _check_tools(body.get("tools") or [])
    offers.check_search(API, body)
    check_messages(body)
    _check_roles(messages, str(body["model"]))
    _check_blocks(messages)
    turns = combined_turns(messages)
    uses_tool_blocks = any(b.get("type") in ("tool_use", "tool_result") for t in turns for b in t.blocks)
    if uses_tool_blocks and not body.get("tools"):
        raise InvalidRequest("Requests which include `tool_use` or `tool_result` blocks must define tools.")
    _check_tool_pairs(turns)
    programs.check_messages(body)
    check_trigger(body)
    if server.reasoning:
        _check_thinking(body, turns, server)


def _check_tools(tools: list[dict[str, Any]]) -> None:
    for index, tool in enumerate(tools):
        if is_messages_search(tool):
            continue  # the BM25 tool search: the stand-in runs it itself (see ..tool_search)
        if tool.get("type") in programs.CODE_EXECUTION_VERSIONS:
            continue  # the code execution tool: the stand-in runs the programs it writes itself
        if tool.get("type", "custom") != "custom":
            # Server tools (web search, ...) run on Anthropic's servers: the stand-in has none.
            raise hosted_tool_refused(API, index, tool)
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
        if tool.get("strict") is True and (problem := anthropic_strict_problem(schema)):
            raise InvalidRequest(f"{prefix}: {problem}")


_CLAUDE_VERSION = re.compile(r"claude-(?:opus|sonnet|haiku)-(\d+)(?:-(\d{1,2}))?(?!\d)")


def accepts_mid_conversation_system(model: str) -> bool:
    """Claude 4.8 and later take a ``role: "system"`` message inside ``messages`` (not first); 4.7 and older
    answer 400 (docs/offline_model.md cites the recorded and reported traffic)."""
    found = _CLAUDE_VERSION.search(model)
    if found is None:
        return False
    return (int(found.group(1)), int(found.group(2) or 0)) >= (4, 8)


def _check_roles(messages: list[dict[str, Any]], model: str) -> None:
    for index, message in enumerate(messages):
        if message.get("role") == "system":
            if index == 0:
                raise InvalidRequest("messages.0: use the top-level 'system' parameter")
            if not accepts_mid_conversation_system(model):
                raise InvalidRequest("role 'system' is not supported on this model")
            continue
        if message.get("role") not in ("user", "assistant"):
            raise InvalidRequest(f"messages.{index}.role: Input should be 'user' or 'assistant'")
    if messages[0]["role"] != "user":
        raise InvalidRequest('messages: first message must use the "user" role')
    last = len(messages) - 1
    for index, message in enumerate(messages):
        final_assistant = index == last and message["role"] == "assistant"
        if not as_blocks(message.get("content")) or message.get("content") == "":
            if not final_assistant:
                raise InvalidRequest(
                    f"messages.{index}: all messages must have non-empty content except for the optional "
                    "final assistant message"
                )


def _leading_result_ids(turn: CombinedTurn) -> set[str]:
    """Ids of the tool_result blocks at the start of a user turn."""
    ids: set[str] = set()
    for block in turn.blocks:
        if block.get("type") != "tool_result":
            break
        ids.add(block.get("tool_use_id", ""))
    return ids


def _check_blocks(messages: list[dict[str, Any]]) -> None:
    """The fields the tool blocks cannot do without."""
    required = {
        "tool_use": ("id", "name"),
        "tool_result": ("tool_use_id",),
        "thinking": ("thinking", "signature"),
        "redacted_thinking": ("data",),
    }
    for index, message in enumerate(messages):
        for position, block in enumerate(as_blocks(message.get("content"))):
            for name in required.get(block.get("type"), ()):
                if name not in block:
                    raise InvalidRequest(f"messages.{index}.content.{position}.{block['type']}.{name}: Field required")
            _check_block_values(index, position, block)


_TOOL_USE_ID = re.compile(r"^[a-zA-Z0-9_-]+$")


def _check_block_values(index: int, position: int, block: dict[str, Any]) -> None:
    """Whitespace-only text, and tool-use ids outside the API's pattern (some compatible servers write them)."""
    kind = block.get("type")
    texts = [block.get("text")] if kind == "text" else []
    if kind == "tool_result" and isinstance(block.get("content"), str):
        texts.append(block["content"])
    if kind == "tool_result" and isinstance(block.get("content"), list):
        for part, item in enumerate(block["content"]):
            if not isinstance(item, dict):
                raise InvalidRequest(
                    f"messages.{index}.content.{position}.tool_result.content.{part}: Input should be a valid "
                    "dictionary or object to extract fields from"
                )
    if any(isinstance(t, str) and not t.strip() for t in texts):
        raise InvalidRequest(f"messages.{index}: text content blocks must contain non-whitespace text")
    field = {"tool_use": "id", "tool_result": "tool_use_id"}.get(kind or "")
    if field and isinstance(block.get(field), str) and not _TOOL_USE_ID.match(block[field]):
        raise InvalidRequest(
            f"messages.{index}.content.{position}.{kind}.{field}: String should match pattern '^[a-zA-Z0-9_-]+$'"
        )


def _check_tool_pairs(turns: list[CombinedTurn]) -> None:
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


# "preceeding" is the real API's spelling.
_THINKING_FIRST = (
    "When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the "
    "lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous "
    "turns. To avoid this requirement, disable `thinking`. Please consult our documentation at "
    "https://docs.claude.com/en/docs/build-with-claude/extended-thinking"
)


def _check_thinking(body: dict[str, Any], turns: list[CombinedTurn], server: ServerState) -> None:
    """A thinking model's rules: no forced tool use, signatures intact, the tool loop's turn opens with thinking."""
    enabled = _thinking(body) not in (None, "disabled")
    if enabled and _forces_tool(body):
        raise InvalidRequest("Thinking may not be enabled when tool_choice forces tool use.")
    for index, message in enumerate(body["messages"]):
        for position, block in enumerate(as_blocks(message.get("content"))):
            if block.get("type") == "thinking" and not signed(server.key, block["thinking"], block["signature"]):
                raise InvalidRequest(f"messages.{index}.content.{position}: Invalid `signature` in `thinking` block")
    if not reasons(body) or len(turns) < 2 or turns[-1].role != "user" or not _leading_result_ids(turns[-1]):
        return
    # The request continues a tool loop: the assistant turn that made the calls must open with its thinking.
    # Thinking enabled by the request demands it always; the model's own default only where it did think.
    assistant = turns[-2]
    first = assistant.blocks[0].get("type") if assistant.blocks else None
    uses = [block.get("id", "") for block in assistant.blocks if block.get("type") == "tool_use"]
    thought_first = any(server.store.reasoning_for(use) for use in uses)
    if first not in ("thinking", "redacted_thinking") and (enabled or thought_first):
        raise InvalidRequest(
            f"messages.{assistant.index}.content.0.type: Expected `thinking` or `redacted_thinking`, "
            f"but found `{first}`. {_THINKING_FIRST}"
        )
