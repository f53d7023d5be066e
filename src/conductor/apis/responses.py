"""OpenAI's Responses API <-> the neutral conversation.

OpenAI's primary API. A request carries ``input`` items: messages, the model's own
output items (``message``, ``function_call``, ``reasoning``) sent back, and
``function_call_output`` items answering calls by ``call_id``. Function tools are flat
(``{"type": "function", "name", "description", "parameters", "strict"}``).

Stateless by default: every request carries the whole conversation with
``store=False``, so a run works under zero data retention and can move to another API
mid-run. A reasoning model's ``reasoning`` items must go back with the calls they led to;
without server state that needs their ``encrypted_content``, asked for with
``include=["reasoning.encrypted_content"]``, which only reasoning models accept (known by
name: :data:`REASONING_MODELS`). A turn's output items are sent back as received, with
their ids, only to the model that made them; another model gets the neutral turn
(text and calls, no reasoning). ``server_state=True`` chains requests with
``previous_response_id`` instead (``store=True``), sending only the new items.

Hosted tools (``{"type": "web_search"}``, file search, ...) go into ``tools`` as the caller
wrote them; OpenAI runs them inside the response, whose ``web_search_call`` (and other) items
are kept with the turn's items and counted as web searches for the price.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Any

from ..types import Message, StopReason, SystemMessage, ToolCall, ToolResult, Turn, Usage, UserMessage
from ..programs import RESPONSES_CALLERS, RESPONSES_TOOL, output_schema
from ..tokens import hidden_prompt_tokens
from .base import HiddenPrompt
from .parts import Draft, Part, add_parts
from .tool_schemas import responses_tool
from .base import (
    HISTORY_MODEL,
    OPENED,
    ApiName,
    Finished,
    Opened,
    RequestSettings,
    StreamFailed,
    StreamIncomplete,
    ToolChoice,
    deferred_for,
    hosted_approval_name,
    hosted_tools_for,
    is_hosted_approval,
    only_allowed,
    plain_text,
    system_text,
    takes_openai_fields,
)

logger = logging.getLogger(__name__)

ERROR_PREFIX = "Error: "  # the API has no error flag on function_call_output: the text says so
ENCRYPTED_REASONING = "reasoning.encrypted_content"
NOT_REASONING_ERROR = "Encrypted content is not supported with this model."

# Models known to reason, by name prefix; extend it for a model of your own:
# cd.apis.responses.REASONING_MODELS.append("my-reasoner"). Names in NOT_REASONING win.
REASONING_MODELS: list[str] = ["o1", "o3", "o4", "gpt-5", "codex", "conductor-offline-reasoning"]
NOT_REASONING: set[str] = {"gpt-5-chat-latest"}
_not_reasoning_lock = threading.Lock()

RESPONSES_STOP = {"max_output_tokens": StopReason.MAX_TOKENS, "content_filter": StopReason.REFUSAL}
_ASSISTANT_ITEMS = ("message", "function_call", "reasoning")

# Hosted tools: OpenAI runs them inside the response (``openai/types/responses/tool_param.py``). Given to
# ``tools=`` as the API's own dict they go into the request unchanged; their calls come back as output items
# (``web_search_call``, ...) that are kept as received and never run here.
HOSTED_TOOLS = frozenset({
    "web_search", "web_search_2025_08_26", "web_search_preview", "web_search_preview_2025_03_11",
    "file_search", "code_interpreter", "image_generation", "mcp", "tool_search", "shell",
})
# Typed tools whose calls come back for the caller's code to carry out (computer_call, local_shell_call, ...).
CLIENT_RUN_TOOLS = frozenset({"computer", "computer_use_preview", "local_shell", "apply_patch", "custom", "namespace"})
# The output items of hosted tools (and the approvals of hosted MCP calls).
HOSTED_ITEMS = frozenset({
    "web_search_call", "file_search_call", "code_interpreter_call", "image_generation_call", "mcp_call",
    "mcp_list_tools", "tool_search_call", "tool_search_output", "shell_call", "shell_call_output",
    "mcp_approval_request", "mcp_approval_response",
})
WEB_SEARCH_ITEM = "web_search_call"  # one per search, billed per call
# The hosted tools conductor adds by itself: the hosted tool search (tool_search=True, conductor.search) and
# programmatic tool calling (programmatic=True, conductor.programs).
OWN_HOSTED_TOOLS = ("tool_search", "programmatic_tool_calling")
# Items the server adds to a turn: hosted tools' calls and results, a compaction (context_management), a program
# and its output (programmatic tool calling). Kept as received and sent back unchanged, within a run and from
# history=, to any model of this API: the API needs them back (a tool a search loaded is gone without its
# tool_search_output; a compaction stands for everything before it).
SERVER_ITEMS = HOSTED_ITEMS | {"compaction", "program", "program_output"}
_HISTORY_ITEMS = (*_ASSISTANT_ITEMS, "function_call_output", *sorted(SERVER_ITEMS))
HISTORY_ORIGIN = ("responses", HISTORY_MODEL)  # a turn read from history=: this API's items, the model unknown


def in_namespaces(tools: Sequence[Any], wires: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The function tools ``wires`` (one per tool of ``tools``), those of a tool with a ``namespace`` grouped in
    ``{"type": "namespace", "name", "description", "tools": [...]}``, placed where its first tool was: the
    functions keep their own ``defer_loading`` (the API takes it on the functions, never on the namespace)."""
    grouped: list[dict[str, Any]] = []
    spaces: dict[str, dict[str, Any]] = {}
    for tool, wire in zip(tools, wires):
        space = getattr(tool, "namespace", None)
        if space is None:
            grouped.append(wire)
            continue
        if space.name not in spaces:
            spaces[space.name] = {"type": "namespace", "name": space.name, "description": space.description,
                                  "tools": []}
            grouped.append(spaces[space.name])
        spaces[space.name]["tools"].append(wire)
    return grouped


def hosted_kind(tool: dict[str, Any]) -> str | None:
    """``"hosted"`` for a tool OpenAI runs, ``"client"`` for a typed tool your code must carry out, or
    ``None`` when the dict is not one of this API's typed tools."""
    kind = tool.get("type")
    if kind == "shell" and (tool.get("environment") or {}).get("type") == "local":
        return "client"  # a shell on your own machine: its shell_call items are yours to run
    if kind in HOSTED_TOOLS:
        return "hosted"
    if kind in CLIENT_RUN_TOOLS:
        return "client"
    return None


def is_reasoning_model(model: str) -> bool:
    """Is ``model`` known to reason (so its reasoning items come back encrypted when asked)?"""
    if model in NOT_REASONING:
        return False
    return any(model == prefix or model.startswith(prefix) for prefix in REASONING_MODELS)


def remember_reasoning(model: str) -> None:
    """Treat ``model`` as a reasoning model from now on: a fine-tuned model (``ft:o4-mini-...``) or a
    deployment name (Azure) that the name table cannot recognise. ``cd.connect(..., reasoning=True)`` calls it."""
    with _not_reasoning_lock:
        NOT_REASONING.discard(model)
        if model not in REASONING_MODELS:
            REASONING_MODELS.append(model)


def _remember_not_reasoning(model: str) -> None:
    with _not_reasoning_lock:
        NOT_REASONING.add(model)
    logger.info("%s does not return encrypted reasoning; it is treated as a model that does not reason", model)


def _unsealed_reasoning(items: Sequence[dict[str, Any]]) -> bool:
    return any(item.get("type") == "reasoning" and not item.get("encrypted_content") for item in items)


def _without_unsealed_reasoning(items: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The input with each reasoning item that has no encrypted content left out, and the output items
    after it (until the next input item) sent as plain text and calls, without the ids that pair them
    with it: with ``store=False`` the API keeps nothing, so such an item is a 404 and a paired call a 400."""
    kept: list[dict[str, Any]] = []
    unpaired = False
    for item in items:
        kind = item.get("type")
        if kind == "reasoning":
            unpaired = not item.get("encrypted_content")
            if not unpaired:
                kept.append(item)
            continue
        if unpaired and kind == "function_call":
            kept.append({key: value for key, value in item.items() if key not in ("id", "status")})
        elif unpaired and kind == "message" and item.get("role") == "assistant":
            text = "".join(p.get("text", "") for p in item.get("content") or () if p.get("type") == "output_text")
            kept.append({"role": "assistant", "content": text})
        else:
            unpaired = unpaired and kind in SERVER_ITEMS
            kept.append(item)
    return kept


class ResponsesApi:
    """OpenAI Responses <-> neutral conversation."""

    api: ApiName = "responses"

    def __init__(self, base_url: Any = None) -> None:
        """``base_url``: the server the requests go to (None: OpenAI's own); see :func:`.base.takes_openai_fields`."""
        self.openai_fields = takes_openai_fields(base_url)

    # -- requests ------------------------------------------------------------------------

    def render(self, messages: Sequence[Message], into: list[dict[str, Any]], *, model: str) -> None:
        """Append the ``input`` items of ``messages`` to ``into``; system text goes to ``instructions``."""
        for message in messages:
            if isinstance(message, SystemMessage):
                continue
            if isinstance(message, ToolResult) and is_hosted_approval(message.name):
                into.append(_approval_response(message))
            elif isinstance(message, ToolResult):
                output = ERROR_PREFIX + message.content if message.is_error else message.content
                into.append({"type": "function_call_output", "call_id": message.call_id, "output": output})
                caller = _program_caller(message.call_id, into)
                if caller is not None:  # a program's call: its output goes back to that program
                    into[-1]["caller"] = caller
            elif isinstance(message, Turn):
                into.extend(self._assistant_items(message, model))
            else:
                into.append({"role": "user", "content": message.text})

    @staticmethod
    def _assistant_items(turn: Turn, model: str) -> list[dict[str, Any]]:
        if turn.items and turn.origin == ("responses", model):
            return _replayed(turn)
        if turn.items and turn.origin is not None and turn.origin[0] == "responses":
            # Another model of this API, or history=: the server's items still go back as received.
            return _replayed(turn, own=False)
        items: list[dict[str, Any]] = []
        if turn.text:
            items.append({"role": "assistant", "content": turn.text})
        items += [
            {"type": "function_call", "call_id": c.id, "name": c.name, "arguments": c.arguments}
            for c in turn.tool_calls if not is_hosted_approval(c.name)  # the provider's own: never another model's
        ]
        return items

    def request(
        self,
        settings: RequestSettings,
        messages: list[dict[str, Any]],
        *,
        tools_allowed: bool,
        continued: tuple[str, int] | None = None,
        conversation: Sequence[Message] = (),
    ) -> dict[str, Any]:
        draft = Draft(settings, tools_allowed, conversation, self.openai_fields)
        kwargs: dict[str, Any] = {"model": settings.model, "input": list(messages), **settings.options}
        if settings.server_state:
            kwargs["store"] = True
            if continued is not None:
                response_id, held = continued
                kwargs["previous_response_id"] = response_id
                kwargs["input"] = list(messages[held:])
        else:
            kwargs["store"] = False
            if _unsealed_reasoning(kwargs["input"]):
                # Reasoning came back without encrypted content: a model the name table does not know reasons.
                if not is_reasoning_model(settings.model):
                    logger.warning(
                        "%s returned reasoning without encrypted content, so it reasons: conductor asks for the "
                        "encrypted content from now on (say so up front with cd.connect(..., reasoning=True)); "
                        "the turns before are sent back without their reasoning", settings.model,
                    )
                    remember_reasoning(settings.model)
                kwargs["input"] = _without_unsealed_reasoning(kwargs["input"])
            if is_reasoning_model(settings.model):
                # Added to the caller's include=, never replaced by it: without the encrypted content a
                # stateless request 2 replays reasoning items the API no longer has (a 404).
                asked = list(settings.options.get("include") or ())
                kwargs["include"] = asked if ENCRYPTED_REASONING in asked else [*asked, ENCRYPTED_REASONING]
        if settings.system:
            kwargs["instructions"] = system_text(settings.system)
        if settings.max_tokens is not None:
            kwargs["max_output_tokens"] = settings.max_tokens
        hosted = hosted_tools_for(settings, self.api)
        # A compatible server may reject tool_choice allowed_tools: it gets only the allowed tools instead.
        restricted = settings.allowed_tools is not None and not self.openai_fields
        tools = only_allowed(settings) if restricted else settings.tools
        if len(tools) or hosted:
            # Hosted tools (web_search, ...) go beside the function tools unchanged, as the caller wrote them.
            kwargs["tools"] = [*in_namespaces(tools, [responses_tool(t) for t in tools]), *hosted]
            add_parts(kwargs, PARTS, draft, "tools")
            choice = settings.tool_choice if tools_allowed else ToolChoice("none")
            if settings.allowed_tools is not None and not restricted and choice.mode in ("auto", "required"):
                # Every tool stays in the request (the cached prefix holds); tool_choice restricts the calls.
                allowed = set(settings.allowed_tools)  # those sent now: a search may have loaded more since the start
                names = [{"type": "function", "name": t.name} for t in settings.tools if t.name in allowed]
                # The hosted tools conductor adds stay callable, listed by type as the SDK's ToolChoiceAllowedParam
                # lists hosted tools: left out, the search could not run and an allowed deferred tool never loads.
                names += [{"type": t["type"]} for t in kwargs["tools"] if t.get("type") in OWN_HOSTED_TOOLS]
                kwargs["tool_choice"] = {"type": "allowed_tools", "mode": choice.mode, "tools": names}
            elif choice.mode != "auto":  # auto is the API's default beside tools (and costs the SDK ~18 us to send)
                kwargs["tool_choice"] = self._tool_choice(choice)
            if settings.parallel_tool_calls is not None:
                kwargs["parallel_tool_calls"] = settings.parallel_tool_calls
        add_parts(kwargs, PARTS, draft, "request")
        return kwargs

    @staticmethod
    def tool(tool: Any, deferred: bool = False, *, programmatic: bool = False) -> dict[str, Any]:
        """One function tool as a request lists it, with the parts tool search (``deferred``) and programs
        (``programmatic``) add to it in :meth:`request`."""
        wire = responses_tool(tool)
        if deferred:
            _defer(wire)
        if programmatic:
            _for_programs(wire, tool)
        return wire

    @staticmethod
    def _tool_choice(choice: ToolChoice) -> Any:
        if choice.mode == "tool":
            return {"type": "function", "name": choice.name}
        return choice.mode

    def prompt_extras(self, request: dict[str, Any]) -> dict[str, Any]:
        extras: dict[str, Any] = {key: request[key] for key in ("instructions", "tools") if key in request}
        if hidden := hidden_prompt_tokens("responses", request):  # tool_search's instructions (conductor.tokens)
            extras["hidden_prompts"] = HiddenPrompt(hidden)
        return extras

    def output_limit(self, request: dict[str, Any], default: int) -> int:
        if request.get("max_output_tokens") is not None:
            return int(request["max_output_tokens"])
        request["max_output_tokens"] = default
        return default

    # -- sending: a model that refuses encrypted reasoning is asked once more without it ----

    @staticmethod
    def _refuses_reasoning(error: Exception, kwargs: dict[str, Any]) -> bool:
        return ENCRYPTED_REASONING in (kwargs.get("include") or ()) and NOT_REASONING_ERROR in str(error)

    @staticmethod
    def _without_reasoning(kwargs: dict[str, Any]) -> dict[str, Any]:
        _remember_not_reasoning(kwargs["model"])
        include = [i for i in kwargs["include"] if i != ENCRYPTED_REASONING]
        rest = {k: v for k, v in kwargs.items() if k != "include"}
        return {**rest, "include": include} if include else rest

    def create(self, client: Any, kwargs: dict[str, Any]) -> Any:
        import openai

        try:
            return client.responses.create(**kwargs)
        except openai.BadRequestError as error:
            if not self._refuses_reasoning(error, kwargs):
                raise
        return client.responses.create(**self._without_reasoning(kwargs))

    async def acreate(self, client: Any, kwargs: dict[str, Any]) -> Any:
        import openai

        try:
            return await client.responses.create(**kwargs)
        except openai.BadRequestError as error:
            if not self._refuses_reasoning(error, kwargs):
                raise
        return await client.responses.create(**self._without_reasoning(kwargs))

    # -- streaming: responses.stream assembles the events into the Response -------------

    def stream(self, client: Any, kwargs: dict[str, Any]) -> Iterator[Opened | str | Finished]:
        import openai

        # The stream is opened inside the stack (not a `with` around the try) so it can be opened again.
        with contextlib.ExitStack() as opened:
            try:
                stream = opened.enter_context(client.responses.stream(**kwargs))
            except openai.BadRequestError as error:
                if not self._refuses_reasoning(error, kwargs):
                    raise
                stream = opened.enter_context(client.responses.stream(**self._without_reasoning(kwargs)))
            yield OPENED
            final = None
            for event in stream:
                text, final = _event(event, final)
                if text:
                    yield text
            yield Finished(_final(final))

    async def astream(self, client: Any, kwargs: dict[str, Any]) -> AsyncIterator[Opened | str | Finished]:
        import openai

        async with contextlib.AsyncExitStack() as opened:
            try:
                stream = await opened.enter_async_context(client.responses.stream(**kwargs))
            except openai.BadRequestError as error:
                if not self._refuses_reasoning(error, kwargs):
                    raise
                stream = await opened.enter_async_context(client.responses.stream(**self._without_reasoning(kwargs)))
            yield OPENED
            final = None
            async for event in stream:
                text, final = _event(event, final)
                if text:
                    yield text
            yield Finished(_final(final))

    # -- responses -----------------------------------------------------------------------

    def parse(self, response: Any) -> Turn:
        texts: list[str] = []
        calls: list[ToolCall] = []
        refusal: str | None = None
        items: list[dict[str, Any]] = []
        for item in response.output or ():
            kept = item.model_dump(mode="json", exclude_none=True)
            # The SDK's stream adds parsed_arguments to a strict tool's call; the API refuses it as input.
            kept.pop("parsed_arguments", None)
            items.append(kept)
            if item.type == "function_call":
                calls.append(ToolCall(item.call_id or "", item.name, item.arguments or ""))
            elif item.type == "mcp_approval_request":  # a hosted MCP call held for a person's decision
                calls.append(ToolCall(item.id, hosted_approval_name(item.server_label, item.name), item.arguments or "{}"))
            elif item.type == "message":
                for part in item.content or ():
                    if part.type == "output_text":
                        texts.append(part.text)
                    elif part.type == "refusal":
                        refusal = (refusal or "") + part.refusal
        native = _native_stop(response)
        if refusal is not None or native == "content_filter":
            stop = StopReason.REFUSAL
        elif native in RESPONSES_STOP:
            stop = RESPONSES_STOP[native]
        elif response.status == "completed":
            stop = StopReason.TOOL_USE if calls else StopReason.END_TURN
        else:
            stop = StopReason.OTHER
        return Turn(
            text_blocks=tuple(texts) if texts else ((refusal,) if refusal else ()),
            tool_calls=tuple(calls),
            stop_reason=stop,
            native_stop_reason=native,
            usage=self._usage(response.usage, sum(item.get("type") == WEB_SEARCH_ITEM for item in items)),
            refusal=refusal,
            model=response.model,
            items=tuple(items),
            response_id=response.id,
            raw=response,
        )

    @staticmethod
    def _usage(usage: Any, searches: int = 0) -> Usage:
        """The response's token counts, and its web searches: the API reports none in ``usage``, it bills
        each ``web_search_call`` item of the output."""
        if usage is None:
            return Usage(web_search_requests=searches)
        inputs = getattr(usage, "input_tokens_details", None)
        outputs = getattr(usage, "output_tokens_details", None)
        return Usage(
            input_tokens=usage.input_tokens or 0,
            output_tokens=usage.output_tokens or 0,
            cache_read_tokens=(getattr(inputs, "cached_tokens", None) or 0) if inputs else 0,
            cache_write_tokens=(getattr(inputs, "cache_write_tokens", None) or 0) if inputs else 0,
            reasoning_tokens=(getattr(outputs, "reasoning_tokens", None) or 0) if outputs else 0,
            web_search_requests=searches,
        )

    # -- history -------------------------------------------------------------------------

    def read_history(self, index: int, entry: dict[str, Any]) -> list[Message] | None:
        """One ``input`` item (or a message with input_text/output_text parts), or ``None``.

        Reasoning items are dropped with a log line: which model made one cannot be told from
        the item, and reasoning is never sent to another model (the API also ignores reasoning
        from before the latest user message). The server's items (:data:`SERVER_ITEMS`: a tool
        search, a compaction, ...) are kept as given, to go back unchanged to this API; an
        assistant turn's messages and calls keep their place among them (a Turn's ``items``).
        """
        kind = entry.get("type")
        if kind not in _HISTORY_ITEMS and not (kind is None and _has_response_parts(entry)):
            return None
        if kind == "reasoning":
            logger.info("history[%d] is a reasoning item; it is left out (reasoning is kept within a run)", index)
            return []
        if kind in SERVER_ITEMS:
            return [Turn(items=(entry,), origin=HISTORY_ORIGIN)]
        if kind == "function_call_output":
            if not entry.get("call_id"):
                raise ValueError(f"history[{index}] is a function_call_output without 'call_id'; add the call's id")
            output = entry.get("output")
            text = output if isinstance(output, str) else plain_text(index, _as_text_parts(output))
            is_error = text.startswith(ERROR_PREFIX)
            return [ToolResult(entry["call_id"], "", text.removeprefix(ERROR_PREFIX) if is_error else text, is_error)]
        if kind == "function_call":
            if not entry.get("name") or not entry.get("call_id"):
                raise ValueError(
                    f"history[{index}] is a function_call without 'name' or 'call_id'; write it as "
                    "{'type': 'function_call', 'call_id': ..., 'name': ..., 'arguments': '{...}'}"
                )
            call = ToolCall(entry["call_id"], entry["name"], entry.get("arguments") or "{}")
            return [Turn(tool_calls=(call,), items=(entry,), origin=HISTORY_ORIGIN)]
        role = entry.get("role")
        text = plain_text(index, _as_text_parts(entry.get("content")))
        if role in ("system", "developer"):
            return [SystemMessage(text)]
        if role == "assistant":
            return [Turn(text_blocks=(text,) if text else (), items=(entry,), origin=HISTORY_ORIGIN)]
        if role == "user":
            return [UserMessage(text)]
        raise ValueError(f"history[{index}] is a message with role {role!r}; use 'user', 'assistant' or 'system'")


def _program_caller(call_id: str, into: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The ``caller`` of the function_call item ``call_id`` answers, when a program issued it."""
    for item in reversed(into):
        if item.get("type") == "function_call" and item.get("call_id") == call_id:
            caller = item.get("caller")
            return dict(caller) if isinstance(caller, dict) and caller.get("type") == "program" else None
    return None


def _has_response_parts(entry: dict[str, Any]) -> bool:
    content = entry.get("content")
    return isinstance(content, list) and any(
        isinstance(p, dict) and p.get("type") in ("input_text", "output_text") for p in content
    )


def _as_text_parts(content: Any) -> Any:
    """input_text/output_text parts read as text parts (the other formats' name for them)."""
    if not isinstance(content, list):
        return content
    return [
        {"type": "text", "text": p.get("text", "")} if isinstance(p, dict) and p.get("type") in ("input_text", "output_text") else p
        for p in content
    ]


def _replayed(turn: Turn, own: bool = True) -> list[dict[str, Any]]:
    """The turn's output items as received, with its calls as the run knows them.

    The loop may have renamed a call id (a repeated one), or left calls out; the items keep
    their own ids and everything else, so the API can pair each call with the reasoning item
    before it. Not ``own`` (another model's turn, or one from history=): reasoning is left out,
    and the messages and calls go without the ids that pair them with it (a call paired with a
    reasoning item that is not sent is a 400); the server's items still go as received.
    """
    calls = iter(c for c in turn.tool_calls if not is_hosted_approval(c.name))  # approvals keep their own items
    items = []
    for item in turn.items:
        kind = item.get("type")
        if kind == "function_call":
            call = next(calls, None)
            if call is None:  # a call the run did not make (tools were no longer allowed): nothing answers it
                continue
            item = {**item, "call_id": call.id, "name": call.name, "arguments": call.arguments}
            if not own:
                item = {key: value for key, value in item.items() if key not in ("id", "status")}
        elif not own and kind == "reasoning":
            continue
        elif not own and item.get("role") == "assistant" and kind in (None, "message"):
            text = _message_text(item)
            if not text:
                continue
            item = {"role": "assistant", "content": text}
        items.append(_request_item(item))
    return items


def _message_text(item: dict[str, Any]) -> str:
    """The text of an assistant message item: its content string, or its text and refusal parts."""
    content = item.get("content")
    if isinstance(content, str):
        return content
    kinds = ("output_text", "input_text", "text", "refusal")
    return "".join(
        part.get("text") or part.get("refusal") or ""
        for part in content or () if isinstance(part, dict) and part.get("type") in kinds
    )


def _approval_response(result: ToolResult) -> dict[str, Any]:
    """A person's decision on a hosted MCP call: approved when it "ran" (nothing runs here), else rejected."""
    response: dict[str, Any] = {
        "type": "mcp_approval_response", "approval_request_id": result.call_id, "approve": not result.is_error,
    }
    if result.is_error:
        response["reason"] = result.content
    return response


def _request_item(item: dict[str, Any]) -> dict[str, Any]:
    """An output item as an input item: output-only fields left out."""
    if item.get("type") == "reasoning":
        return {k: v for k, v in item.items() if k in ("type", "id", "summary", "encrypted_content", "content")}
    return item


def _native_stop(response: Any) -> str | None:
    details = getattr(response, "incomplete_details", None)
    if response.status == "incomplete" and details is not None and details.reason:
        return details.reason
    return response.status


def _event(event: Any, final: Any) -> tuple[str | None, Any]:
    """The text an event adds, and the response once a terminal event arrives."""
    kind = event.type
    if kind in ("response.output_text.delta", "response.refusal.delta"):
        return event.delta, final
    if kind in ("response.completed", "response.incomplete"):
        return None, event.response
    if kind == "response.failed":
        error = getattr(event.response, "error", None)
        raise StreamFailed(
            f"the response failed: {getattr(error, 'message', None) or 'no reason given'}", getattr(error, "code", None)
        )
    if kind == "error":
        raise StreamFailed(f"the stream sent an error: {getattr(event, 'message', event)}", getattr(event, "code", None))
    return None, final


def _final(response: Any) -> Any:
    if response is None:
        raise StreamIncomplete("the stream ended before the model finished (no response.completed event)")
    return response


# -- the request features' parts (conductor.apis.parts) ---------------------------------------


def _function_tools(request: dict[str, Any]) -> list[dict[str, Any]]:
    """The request's function tools, those inside a namespace too (the same dicts: a part marks them there)."""
    found = []
    for wire in request.get("tools", ()):
        if wire.get("type") == "function":
            found.append(wire)
        elif wire.get("type") == "namespace":
            found += [t for t in wire.get("tools", ()) if t.get("type") == "function"]
    return found


def _deferred_part(request: dict[str, Any], draft: Draft) -> None:
    """Tool search: the tools it loads when the model asks go out deferred, beside the hosted tool_search."""
    deferred = deferred_for(draft.settings, "responses")
    for wire in _function_tools(request) if deferred else ():
        if wire["name"] in deferred:
            _defer(wire)


def _program_tool_part(request: dict[str, Any], draft: Draft) -> None:
    """Programmatic tool calling: ``allowed_callers`` and ``output_schema`` on each tool a program may call, and
    the program tool after the others."""
    settings = draft.settings
    if not settings.programmatic or "tools" not in request:
        return
    for wire in _function_tools(request):
        _for_programs(wire, settings.tools.get(wire["name"]))
    request["tools"].append(dict(RESPONSES_TOOL))


def _defer(wire: dict[str, Any]) -> None:
    wire["defer_loading"] = True  # loaded by the hosted tool_search when the model asks for it


def _for_programs(wire: dict[str, Any], tool: Any) -> None:
    if getattr(tool, "programmatic", True):
        wire["allowed_callers"] = list(RESPONSES_CALLERS)
        schema = output_schema(tool)
        if schema is not None:
            wire["output_schema"] = schema


def _cache_part(request: dict[str, Any], draft: Draft) -> None:
    """The prompt cache: the key that routes a run's requests to one cache (OpenAI's own servers only)."""
    settings = draft.settings
    if settings.cache is not False and settings.cache_key and draft.openai_fields:
        request.setdefault("prompt_cache_key", settings.cache_key)


def _compaction_part(request: dict[str, Any], draft: Draft) -> None:
    """context="server": the API compacts the conversation itself from ``context_limit`` input tokens."""
    settings = draft.settings
    if settings.context == "server" and settings.context_limit:
        request.setdefault("context_management", [{"type": "compaction", "compact_threshold": settings.context_limit}])


PARTS: dict[str, Part] = {
    "deferred": _deferred_part, "program_tool": _program_tool_part, "cache": _cache_part,
    "compaction": _compaction_part,
}


__all__ = ["ResponsesApi", "REASONING_MODELS", "NOT_REASONING", "is_reasoning_model", "remember_reasoning"]
