"""OpenAI's Responses API on the wire: request JSON -> Conversation, Completion -> JSON or SSE.

Shapes follow ``POST /v1/responses`` as the ``openai`` SDK types it and as
recorded traffic shows it: a ``response`` object whose ``output`` holds items
(``reasoning``, ``message``, ``function_call``), or with ``stream: true`` named
events, each with a ``sequence_number``: ``response.created``,
``response.in_progress``, then per output item ``response.output_item.added``,
its content events, ``response.output_item.done``, and last
``response.completed`` (or ``response.incomplete``).

Unlike Chat Completions the API keeps state: a response is stored unless the
request says ``store: false`` (see :mod:`..state`), ``previous_response_id``
continues one (its input and output are read before the new input, and billed
again as input tokens), and a reasoning model's items must come back as they
were made. Errors, rate limits and faults are OpenAI's, shared with
:mod:`.chat`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Literal

from ...types import ToolCall, ToolResult, Turn, UserMessage
from .. import offers, programs
from ..contract import InvalidRequest, hosted_tool_refused, offered_tool, openai_strict_problem
from ..conversation import Conversation, ToolChoice
from ..ids import hexadecimal
from ..reasoning import seal, unseal
from ..tool_search import check_responses, is_responses_search, namespace_of, responses_functions
from ..tokens import split_pieces, token_weight
from .chat import (
    FAULT_ERRORS,
    bad_json,
    call_id,
    error_body,
    fault_response,
    internal_error,
    invalid_request,
    not_found,
    request_id,
    wants_stream,
)

if TYPE_CHECKING:
    from ..completion import Completion
    from ..state import ServerState

# The errors, ids of calls and requests, and faults are OpenAI's, the same as on Chat Completions.
__all__ = [
    "API",
    "PATH",
    "parse",
    "render",
    "stream_events",
    "check",
    "wants_stream",
    "reasons",
    "remember",
    "bad_json",
    "call_id",
    "error_body",
    "fault_response",
    "internal_error",
    "invalid_request",
    "not_found",
    "request_id",
]

API: Literal["responses"] = "responses"
PATH = "/v1/responses"
REQUEST_ID_HEADER = "x-request-id"
PREFACES_TOOL_USE = False  # gpt models go straight to their function calls
# The SDK's stream helper rebuilds the response from the events: a streamed request and the
# same request unstreamed get the same ids, so the two can be compared.
SAME_IDS_STREAMED = True

ENCRYPTED_CONTENT = "reasoning.encrypted_content"  # the `include` value that asks for it
MIN_OUTPUT_TOKENS = 16
_SUMMARIES = ("auto", "concise", "detailed")  # reasoning.summary values that ask for a summary


# --- ids ----------------------------------------------------------------------------------------
# A real id is 50 hex digits: 16 shared by a response and its items, "00", 8 (a timestamp; here
# taken from the request, like the rest), 4 of the item's own, 4 shared again and 16 of its own,
# e.g. resp_0d4aefd06ee412a8006ac3ff02ac5887d1aaac6a86b29f2f97 and msg_0d4aefd06ee412a8006ac3ff037f...


def message_id(digest: bytes) -> str:
    """``resp_`` and 50 hex digits, laid out as a real response id."""
    shared, own = hexadecimal(digest, "response", 20), hexadecimal(digest, "response own", 28)
    return f"resp_{shared[:16]}00{own[:12]}{shared[16:]}{own[12:]}"


def _item_id(prefix: str, response_id: str, label: str) -> str:
    """An item's id: the response id's shared digits and its timestamp, the rest its own."""
    digits = response_id.removeprefix("resp_")
    own = hashlib.sha256(f"{response_id}\n{label}".encode()).hexdigest()
    return f"{prefix}{digits[:26]}{own[:4]}{digits[30:34]}{own[4:20]}"


def reasoning_id(completion: Completion) -> str:
    """The id of a reasoning model's ``reasoning`` item: ``rs_`` and 50 hex digits."""
    return _item_id("rs_", completion.id, "reasoning")


def _call_item_id(completion: Completion, index: int) -> str:
    return _item_id("fc_", completion.id, f"call {index}")


def _message_item_id(completion: Completion) -> str:
    return _item_id("msg_", completion.id, "message")


def reasons(body: dict[str, Any]) -> bool:
    """Does a reasoning model reason before answering? Yes, unless ``reasoning.effort`` is "none"."""
    return (body.get("reasoning") or {}).get("effort") != "none"


# --- parsing -------------------------------------------------------------------------------------


def _text(content: Any) -> str:
    """Text of an item's content: a string, or its text parts."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    return "".join(p.get("text", "") for p in content if p.get("type") in ("input_text", "output_text", "text"))


def _items(value: Any) -> list[dict[str, Any]]:
    """The ``input`` as a list of items: a string is one user message."""
    if isinstance(value, str):
        return [{"role": "user", "content": value}]
    return list(value or [])


def _context(body: dict[str, Any], server: ServerState) -> list[dict[str, Any]]:
    """Everything the model reads: a continued response's context and output, then this input."""
    previous = body.get("previous_response_id")
    stored = server.store.context(previous) if previous else None
    return [*(stored or ()), *_items(body.get("input"))]


def context_items(body: dict[str, Any], server: ServerState) -> list[dict[str, Any]]:
    """The items a request's model reads (a continued response's first): where its tool searches are."""
    return _context(body, server)


def _read(items: list[dict[str, Any]]) -> tuple[list[str], list[UserMessage | Turn | ToolResult]]:
    """System texts and neutral messages; an assistant message and the calls after it make one turn."""
    system: list[str] = []
    messages: list[UserMessage | Turn | ToolResult] = []
    call_names: dict[str, str] = {}
    texts: list[str] = []
    calls: list[ToolCall] = []

    def end_turn() -> None:
        if texts or calls:
            messages.append(Turn(text_blocks=tuple(texts), tool_calls=tuple(calls)))
            texts.clear()
            calls.clear()

    for item in items:
        kind = item.get("type", "message")
        if kind == "function_call":
            call = ToolCall(item.get("call_id", ""), item.get("name", ""), item.get("arguments") or "{}")
            call_names[call.id] = call.name
            calls.append(call)
        elif kind == "function_call_output":
            end_turn()
            output = _text(item.get("output"))
            # The API has no error flag; like a real model, read an "Error:" prefix as one.
            is_error = output.startswith("Error:")
            content = output.removeprefix("Error:").strip() if is_error else output
            messages.append(ToolResult(item["call_id"], call_names.get(item["call_id"], ""), content, is_error))
        elif kind == "message":
            text = _text(item.get("content"))
            if item.get("role") == "assistant":
                if calls:
                    end_turn()  # text after calls starts the next turn
                if text:
                    texts.append(text)
                continue
            end_turn()
            if item.get("role") in ("system", "developer"):
                system.append(text)
            else:
                messages.append(UserMessage(text))
        # reasoning items, and the other item types, hold nothing the decision policies read
    end_turn()
    return system, messages


def _tool_choice(value: Any) -> tuple[ToolChoice, str | None]:
    if isinstance(value, dict) and value.get("type") == "allowed_tools":
        return ("required" if value.get("mode") == "required" else "auto"), None
    if isinstance(value, dict):
        # {"type": "function", "name": ...} forces one; allowed_tools and hosted tools leave the choice open
        return ("tool", value.get("name")) if value.get("type") == "function" else ("auto", None)
    if value in ("none", "required"):
        return value, None
    return "auto", None


def parse(body: dict[str, Any], seed: int, server: ServerState) -> Conversation:
    """The neutral conversation of a (valid) Responses request, a continued response's context included."""
    system, messages = _read(_context(body, server))
    instructions = body.get("instructions")
    # A continued response's instructions are not carried over: only this request's count.
    if isinstance(instructions, str) and instructions:
        system.insert(0, instructions)
    tools = tuple(
        offered_tool(
            t["name"],
            t.get("description") or "",
            t.get("parameters") or {"type": "object", "properties": {}},
            t.get("strict", True),  # Responses takes an absent strict as true
        )
        for t, _ in responses_functions(body.get("tools") or [])
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
        max_tokens=body.get("max_output_tokens"),
        seed=seed,
    )


# --- rendering -----------------------------------------------------------------------------------


def _encrypted_content(completion: Completion, server: ServerState) -> str:
    """The reasoning sealed with the model's key: it names its item, so a replay can be checked."""
    payload = json.dumps({"id": reasoning_id(completion), "reasoning": completion.reasoning}, ensure_ascii=False)
    return seal(server.key, payload.encode(), completion.created)


def _reasoning_item(completion: Completion, body: dict[str, Any], server: ServerState) -> dict[str, Any]:
    wants_summary = (body.get("reasoning") or {}).get("summary") in _SUMMARIES
    item: dict[str, Any] = {
        "id": reasoning_id(completion),
        "type": "reasoning",
        "summary": [{"type": "summary_text", "text": completion.reasoning}] if wants_summary else [],
    }
    if ENCRYPTED_CONTENT in (body.get("include") or []):
        item["encrypted_content"] = _encrypted_content(completion, server)
    return item


def _message_item(completion: Completion) -> dict[str, Any] | None:
    if completion.refusal is not None:
        content = [{"type": "refusal", "refusal": completion.refusal}]
    elif completion.text:
        content = [{"type": "output_text", "annotations": [], "logprobs": [], "text": completion.text}]
    else:
        return None
    status = "incomplete" if completion.finish == "max_tokens" else "completed"
    return {
        "id": _message_item_id(completion),
        "type": "message",
        "status": status,
        "content": content,
        "role": "assistant",
    }


def _search_items(completion: Completion, body: dict[str, Any]) -> list[dict[str, Any]]:
    """A hosted tool search as the API returns it: the call naming the tools to load, then their definitions."""
    step = completion.search
    if step is None:
        return []
    shared = {"call_id": None, "execution": "server", "status": "completed"}
    tools = body.get("tools") or []
    # A function in a namespace is loaded inside its namespace, and its path names both (the stand-in's reading
    # of the guide: no public recording shows a namespaced search).
    paths, loaded, spaces = [], [], {}
    for name, tool in zip(step.found, step.definitions):
        space = namespace_of(tools, name)
        if space is None:
            paths.append(name)
            loaded.append(_tool_echo(tool))
            continue
        paths.append(f"{space['name']}.{name}")
        if space["name"] not in spaces:
            spaces[space["name"]] = {"type": "namespace", "name": space["name"],
                                     "description": space.get("description", ""), "tools": []}
            loaded.append(spaces[space["name"]])
        spaces[space["name"]]["tools"].append(_tool_echo(tool))
    return [
        {"id": _item_id("tsc_", completion.id, "tool search"), "type": "tool_search_call",
         "arguments": {"paths": paths}, **shared},
        {"id": _item_id("tso_", completion.id, "tool search output"), "type": "tool_search_output",
         "tools": loaded, **shared},
    ]


def _output(completion: Completion, body: dict[str, Any], server: ServerState) -> list[dict[str, Any]]:
    """The output items, in the order a reasoning model makes them: a compaction, reasoning, a tool search,
    a program's output, message, a new program, calls."""
    output = [_compaction_item(completion)] if completion.compaction is not None else []
    output += [_reasoning_item(completion, body, server)] if completion.reasoning else []
    output += _search_items(completion, body)
    step = completion.program
    if step is not None and step.output is not None:  # the program ended: its output item comes first
        output.append(programs.output_item(step, completion.id))
    message = _message_item(completion)
    if message is not None:
        output.append(message)
    if step is not None and step.new:
        output.append(programs.program_item(step))
    caller = programs.responses_caller(step)
    # A call names its function's namespace; a deferred function outside one is its own namespace (as recorded
    # traffic shows).
    namespaces = {t.get("name"): space["name"] if space else t.get("name")
                  for t, space in responses_functions(body.get("tools") or ()) if space or t.get("defer_loading")}
    output.extend(
        {
            "id": _call_item_id(completion, index),
            "type": "function_call",
            "status": "completed",
            "arguments": call.arguments,
            "call_id": call.id,
            "name": call.name,
            **({"namespace": namespaces[call.name]} if call.name in namespaces else {}),
            **caller,
        }
        for index, call in enumerate(completion.calls)
    )
    return output


def _compaction_item(completion: Completion) -> dict[str, Any]:
    """The compaction item that leads the output when the request was compacted first."""
    assert completion.compaction is not None
    return {"id": _item_id("cmp_", completion.id, "compaction"), "type": "compaction",
            "encrypted_content": completion.compaction.sealed}


def _usage(completion: Completion) -> dict[str, Any]:
    # A compacted request bills both passes: the summary's (the whole prompt read, the summary written), the answer's.
    extra_in, extra_out = (completion.compaction.input_tokens, completion.compaction.output_tokens) \
        if completion.compaction is not None else (0, 0)
    return {
        "input_tokens": completion.input_tokens + extra_in,
        "input_tokens_details": {"cached_tokens": completion.cache.read, "cache_write_tokens": 0},
        "output_tokens": completion.output_tokens + extra_out,
        "output_tokens_details": {"reasoning_tokens": completion.reasoning_tokens},
        "total_tokens": completion.input_tokens + completion.output_tokens + extra_in + extra_out,
    }


def _tool_echo(tool: dict[str, Any]) -> dict[str, Any]:
    """A tool as the response repeats it: a function tool with every field, strict unless it said otherwise."""
    if is_responses_search(tool):
        return {"type": "tool_search", "description": tool.get("description"), "parameters": tool.get("parameters")}
    if tool.get("type") != "function":
        return tool
    echo = {
        "type": "function",
        "name": tool["name"],
        "description": tool.get("description") or None,
        "parameters": tool.get("parameters"),
        "strict": tool.get("strict", True),
    }
    if tool.get("defer_loading"):
        echo["defer_loading"] = True
    return echo


def _reasoning_echo(body: dict[str, Any], server: ServerState) -> dict[str, Any]:
    asked = body.get("reasoning") or {}
    if not server.reasoning:
        return {"effort": None, "summary": None}
    return {"effort": asked.get("effort", "medium"), "summary": asked.get("summary")}


def _response(
    completion: Completion, body: dict[str, Any], server: ServerState, status: str, output: list[dict[str, Any]]
) -> dict[str, Any]:
    """The ``response`` object in a given state; ``usage`` is only known once it is over."""
    over = status in ("completed", "incomplete")
    return {
        "id": completion.id,
        "object": "response",
        "created_at": completion.created,
        "status": status,
        "background": False,
        "completed_at": completion.created if status == "completed" else None,
        "error": None,
        "incomplete_details": {"reason": "max_output_tokens"} if status == "incomplete" else None,
        "instructions": body.get("instructions"),
        "max_output_tokens": body.get("max_output_tokens"),
        "max_tool_calls": body.get("max_tool_calls"),
        "model": completion.model,
        "output": output,
        "parallel_tool_calls": body.get("parallel_tool_calls") is not False,
        "previous_response_id": body.get("previous_response_id"),
        "prompt_cache_key": body.get("prompt_cache_key"),
        "reasoning": _reasoning_echo(body, server),
        "safety_identifier": None,
        "service_tier": "default",
        "store": body.get("store") is not False,
        "temperature": body.get("temperature", 1.0),
        "text": {"format": {"type": "text"}, "verbosity": "medium", **(body.get("text") or {})},
        "tool_choice": body.get("tool_choice", "auto"),
        "tools": [_tool_echo(tool) for tool in body.get("tools") or []],
        "top_logprobs": 0,
        "top_p": body.get("top_p", 1.0),
        "truncation": "disabled",
        "usage": _usage(completion) if over else None,
        "user": None,
        "metadata": body.get("metadata") or {},
    }


def _status(completion: Completion) -> str:
    return "incomplete" if completion.finish == "max_tokens" else "completed"


def render(completion: Completion, body: dict[str, Any], server: ServerState) -> dict[str, Any]:
    """The ``response`` object."""
    return _response(completion, body, server, _status(completion), _output(completion, body, server))


def remember(body: dict[str, Any], completion: Completion, server: ServerState) -> None:
    """Keep what a later request may rely on: the response itself (unless ``store`` is false), and
    which reasoning item each of its calls followed (always: the API checks replays either way)."""
    output = _output(completion, body, server)
    if completion.reasoning:
        for item in output:
            if item["type"] == "function_call":
                server.store.pair(item["id"], reasoning_id(completion))
    if body.get("store") is not False:
        server.store.keep(completion.id, _context(body, server), output)


# --- streaming -----------------------------------------------------------------------------------


def _sse(event: dict[str, Any]) -> bytes:
    data = json.dumps(event, ensure_ascii=False, separators=(",", ":"))
    return f"event: {event['type']}\ndata: {data}\n\n".encode()


Event = tuple[float, dict[str, Any]]  # (output tokens generated before it, the event without its sequence number)


def _reasoning_events(index: int, item: dict[str, Any], tokens: int) -> Iterator[Event]:
    # The summary and the encrypted content only come with the finished item, not with output_item.added.
    added = {key: value for key, value in item.items() if key != "encrypted_content"}
    yield 0.0, {"type": "response.output_item.added", "output_index": index, "item": {**added, "summary": []}}
    where = {"item_id": item["id"], "output_index": index}
    for summary_index, part in enumerate(item["summary"]):
        at = {**where, "summary_index": summary_index}
        yield 0.0, {"type": "response.reasoning_summary_part.added", **at, "part": {**part, "text": ""}}
        for piece in split_pieces(part["text"]):
            yield token_weight(piece), {"type": "response.reasoning_summary_text.delta", **at, "delta": piece}
        yield 0.0, {"type": "response.reasoning_summary_text.done", **at, "text": part["text"]}
        yield 0.0, {"type": "response.reasoning_summary_part.done", **at, "part": part}
    # Without a summary, the time spent reasoning passes before the item is done.
    done = {"type": "response.output_item.done", "output_index": index, "item": item}
    yield (0.0 if item["summary"] else float(tokens)), done


def _message_events(index: int, item: dict[str, Any]) -> Iterator[Event]:
    added = {**item, "status": "in_progress", "content": []}
    yield 0.0, {"type": "response.output_item.added", "output_index": index, "item": added}
    where = {"item_id": item["id"], "output_index": index, "content_index": 0}
    part = item["content"][0]
    if part["type"] == "refusal":
        yield 0.0, {"type": "response.content_part.added", **where, "part": {**part, "refusal": ""}}
        for piece in split_pieces(part["refusal"]):
            yield token_weight(piece), {"type": "response.refusal.delta", **where, "delta": piece}
        yield 0.0, {"type": "response.refusal.done", **where, "refusal": part["refusal"]}
    else:
        yield 0.0, {"type": "response.content_part.added", **where, "part": {**part, "text": ""}}
        for piece in split_pieces(part["text"]):
            yield token_weight(piece), {"type": "response.output_text.delta", **where, "delta": piece, "logprobs": []}
        yield 0.0, {"type": "response.output_text.done", **where, "text": part["text"], "logprobs": []}
    yield 0.0, {"type": "response.content_part.done", **where, "part": part}
    yield 0.0, {"type": "response.output_item.done", "output_index": index, "item": item}


def _call_events(index: int, item: dict[str, Any]) -> Iterator[Event]:
    added = {**item, "status": "in_progress", "arguments": ""}
    yield token_weight(item["name"]), {"type": "response.output_item.added", "output_index": index, "item": added}
    where = {"item_id": item["id"], "output_index": index}
    for piece in split_pieces(item["arguments"], tokens=4):
        yield token_weight(piece), {"type": "response.function_call_arguments.delta", **where, "delta": piece}
    yield 0.0, {"type": "response.function_call_arguments.done", **where, "arguments": item["arguments"]}
    yield 0.0, {"type": "response.output_item.done", "output_index": index, "item": item}


def _search_events(index: int, item: dict[str, Any]) -> Iterator[Event]:
    """A tool search item: added in progress (a call's arguments not known yet), then done."""
    added = {**item, "status": "in_progress", **({"arguments": {}} if item["type"] == "tool_search_call" else {})}
    weight = token_weight(json.dumps(item.get("arguments", ""))) if item["type"] == "tool_search_call" else 0.0
    yield 0.0, {"type": "response.output_item.added", "output_index": index, "item": added}
    yield weight, {"type": "response.output_item.done", "output_index": index, "item": item}


def stream_events(completion: Completion, body: dict[str, Any], server: ServerState) -> list[tuple[float, bytes]]:
    """The SSE events of a streamed answer, each with the output tokens generated before it."""
    final = render(completion, body, server)
    started = _response(completion, body, server, "in_progress", [])
    events: list[Event] = [
        (0.0, {"type": "response.created", "response": started}),
        (0.0, {"type": "response.in_progress", "response": started}),
    ]
    for index, item in enumerate(final["output"]):
        if item["type"] == "reasoning":
            events.extend(_reasoning_events(index, item, completion.reasoning_tokens))
        elif item["type"] in ("tool_search_call", "tool_search_output"):
            events.extend(_search_events(index, item))
        elif item["type"] == "message":
            events.extend(_message_events(index, item))
        elif item["type"] in ("program", "program_output"):  # arrives whole
            events.append((0.0, {"type": "response.output_item.added", "output_index": index, "item": item}))
            events.append((0.0, {"type": "response.output_item.done", "output_index": index, "item": item}))
        else:
            events.extend(_call_events(index, item))
    events.append((0.0, {"type": f"response.{final['status']}", "response": final}))
    return [(weight, _sse({**event, "sequence_number": number})) for number, (weight, event) in enumerate(events)]


def stream_error_event(
    request_id: str, completion: Completion, body: dict[str, Any], server: ServerState, sent: int
) -> bytes:
    """A failure after ``sent`` events: an ``error`` event, then ``response.failed``; the stream then ends."""
    _, _, _, message = FAULT_ERRORS["server_error"]
    error = {"type": "error", "code": "server_error", "message": message, "param": None, "sequence_number": sent}
    failed = {
        **_response(completion, body, server, "failed", []),
        "error": {"code": "server_error", "message": message},
    }
    return _sse(error) + _sse({"type": "response.failed", "response": failed, "sequence_number": sent + 1})


# --- the request contract: what the real API rejects, with its text -------------------------------


def _missing(param: str) -> InvalidRequest:
    return InvalidRequest(f"Missing required parameter: '{param}'.", param=param, code="missing_required_parameter")


def check(body: dict[str, Any], server: ServerState) -> None:
    """Raise :class:`InvalidRequest` when the Responses API would reject ``body``."""
    if not body.get("model"):
        raise _missing("model")
    previous = body.get("previous_response_id")
    if previous and body.get("conversation"):
        raise InvalidRequest(
            "Mutually exclusive parameters: Ensure you are only providing one of: "
            "'previous_response_id' or 'conversation'."
        )
    if "input" not in body and not (previous or body.get("conversation") or body.get("prompt")):
        raise _missing("input")
    limit = body.get("max_output_tokens")
    if isinstance(limit, int) and limit < MIN_OUTPUT_TOKENS:
        raise InvalidRequest(
            "Invalid 'max_output_tokens': integer below minimum value. "
            f"Expected a value >= {MIN_OUTPUT_TOKENS}, but got {limit} instead.",
            param="max_output_tokens",
            code="integer_below_min_value",
        )
    if not server.reasoning and ENCRYPTED_CONTENT in (body.get("include") or []):
        raise InvalidRequest("Encrypted content is not supported with this model.", param="include")
    for index, tool in enumerate(body.get("tools") or []):
        _check_tool(index, tool)
    offers.check_search(API, body)
    offers.check_retention(body)
    stored = server.store.context(previous) if previous else ()
    if stored is None:
        raise InvalidRequest(
            f"Previous response with id '{previous}' not found.",
            param="previous_response_id",
            code="previous_response_not_found",
        )
    items = _items(body.get("input"))
    check_responses(body, [*stored, *items])
    _check_reasoning_items(items, server)
    _check_calls([*stored, *items], server)
    programs.check_responses(body, [*stored, *items])


def _invalid_schema(name: str, index: int, detail: str) -> InvalidRequest:
    return InvalidRequest(
        f"Invalid schema for function '{name}': {detail}",
        param=f"tools[{index}].parameters",
        code="invalid_function_parameters",
    )


def _check_tool(index: int, tool: dict[str, Any]) -> None:
    if tool.get("type") == programs.RESPONSES_TOOL_TYPE:
        return  # the stand-in runs the programs it writes itself
    if tool.get("type") == "custom":
        return  # a free-form tool of the caller's: offered to no policy, accepted as the API accepts it
    if is_responses_search(tool):
        return  # the hosted tool search: the stand-in runs it itself (see ..tool_search)
    if tool.get("type") == "namespace":
        _check_namespace(index, tool)
        return
    if tool.get("type") != "function":
        # Hosted tools (web_search, file_search, ...) run on OpenAI's servers: the stand-in has none.
        raise hosted_tool_refused(API, index, tool)
    name = tool.get("name")
    if not name:
        raise _missing(f"tools[{index}].name")  # what a Chat Completions-shaped tool gets
    if "parameters" not in tool:
        raise _missing(f"tools[{index}].parameters")
    parameters = tool["parameters"]
    if parameters is None:
        return  # a function without parameters
    if not isinstance(parameters, dict):
        raise _invalid_schema(name, index, f"{json.dumps(parameters)} is not of type 'object', 'boolean'.")
    if parameters.get("type") != "object":
        got = f"'type: \"{parameters.get('type')}\"'"
        raise _invalid_schema(name, index, f"schema must be a JSON Schema of 'type: \"object\"', got {got}.")
    if tool.get("strict") is True and (problem := openai_strict_problem(parameters)):
        raise _invalid_schema(name, index, problem)


def _check_namespace(index: int, tool: dict[str, Any]) -> None:
    """A namespace as the SDK's NamespaceToolParam has it: name, description and tools (functions or custom
    tools), with ``defer_loading`` on the functions inside, never on the namespace itself."""
    for key in ("name", "description", "tools"):
        if key not in tool:
            raise _missing(f"tools[{index}].{key}")
    for key in sorted(set(tool) - {"type", "name", "description", "tools"}):
        raise InvalidRequest(f"Unknown parameter: 'tools[{index}].{key}'.", param=f"tools[{index}].{key}",
                             code="unknown_parameter")
    for position, inner in enumerate(tool["tools"]):
        if inner.get("type") not in ("function", "custom"):
            param = f"tools[{index}].tools[{position}].type"
            raise InvalidRequest(f"Invalid value: '{inner.get('type')}'. Supported values are: 'function' and "
                                 f"'custom'.", param=param, code="invalid_value")
        if inner.get("type") == "function":  # parameters may be left out inside a namespace
            _check_tool(index, {"parameters": None, **inner})


def _abbreviated(token: str) -> str:
    """A long token as the API quotes it in an error: its first and last four characters."""
    return f"{token[:4]}...{token[-4:]}"


def _sealed_id(item: dict[str, Any], server: ServerState) -> str | None:
    """The id a reasoning item's encrypted content was sealed for, or None if it has none or was altered."""
    encrypted = item.get("encrypted_content")
    payload = unseal(server.key, encrypted) if isinstance(encrypted, str) else None
    return json.loads(payload)["id"] if payload is not None else None


def _check_reasoning_items(items: list[dict[str, Any]], server: ServerState) -> None:
    """Reasoning items must come back sealed by this model, or name an item of a stored response."""
    for item in items:
        if item.get("type") != "reasoning":
            continue
        encrypted = item.get("encrypted_content")
        if encrypted:
            if _sealed_id(item, server) is None:
                raise InvalidRequest(
                    f"The encrypted content {_abbreviated(str(encrypted))} could not be verified. "
                    "Reason: Encrypted content could not be decrypted or parsed.",
                    code="invalid_encrypted_content",
                )
        elif not server.store.holds_item(item.get("id", "")):
            raise InvalidRequest(
                f"Item with id '{item.get('id')}' not found. Items are not persisted when `store` is set to false. "
                "Try again with `store` set to true, or remove this item from your input.",
                param="input",
                status=404,
            )


def _check_calls(context: list[dict[str, Any]], server: ServerState) -> None:
    """Outputs answer earlier calls; calls are answered before the next user message or the end; a
    reasoning model's calls come back after their reasoning item."""
    called: set[str] = set()
    pending: list[str] = []
    reasoning: set[str] = set()  # ids of the reasoning items met so far
    for item in context:
        kind = item.get("type", "message")
        if kind == "function_call":
            # Only a call sent back with its item id can be paired with its reasoning item.
            needed = server.store.reasoning_for(item.get("id") or "")
            if needed is not None and needed not in reasoning:
                raise InvalidRequest(
                    f"Item '{item['id']}' of type 'function_call' was provided without its required "
                    f"'reasoning' item: '{needed}'.",
                    param="input",
                )
            called.add(item.get("call_id", ""))
            pending.append(item.get("call_id", ""))
        elif kind == "function_call_output":
            if item.get("call_id") not in called:
                raise InvalidRequest(
                    f"No tool call found for function call output with call_id {item.get('call_id')}.", param="input"
                )
            pending = [p for p in pending if p != item.get("call_id")]
        elif kind == "reasoning":
            # A sealed item counts under the id it was sealed for, whatever id is written beside it.
            reasoning.update(filter(None, (item.get("id"), _sealed_id(item, server))))
        elif kind == "message" and item.get("role") != "assistant" and pending:
            raise _no_output(pending[0])
    if pending:
        raise _no_output(pending[0])


def _no_output(call_id: str) -> InvalidRequest:
    return InvalidRequest(f"No tool output found for function call {call_id}.", param="input")
