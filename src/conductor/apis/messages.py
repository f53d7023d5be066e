"""Anthropic Messages <-> the neutral conversation.

Content blocks: ``text``, ``tool_use`` on assistant turns, ``tool_result`` at the
start of the next user turn, ``thinking`` blocks (with their signatures) kept and
sent back beside the tool calls they led to. System text goes to the request's
``system`` parameter. Assistant turns are rebuilt from request fields, never by
dumping the response (``caller`` on tool_use blocks is a response-only field),
with one exception: a turn holding a server tool's blocks (``server_tool_use``,
``web_search_tool_result``, ...; the tool given as its own dict, e.g.
``{"type": "web_search_20250305", "name": "web_search"}``) or paused
(``stop_reason: "pause_turn"``) goes back to the model that wrote it with its
blocks as received (:attr:`~conductor.types.Turn.items`), which the API needs to
continue it. Server tools' searches are in ``usage.server_tool_use``.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
import json
import re
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Any

from ..types import Message, Reasoning, StopReason, SystemMessage, ToolCall, ToolResult, Turn, Usage, UserMessage, loads_json
from .. import programs
from ..caching import anthropic_cache_control
from ..tokens import anthropic_tool_use_prompt, hidden_prompt_tokens
from ..context import COMPACT_BETA, compaction_edits
from .parts import Draft, Part, add_parts
from .tool_schemas import messages_tool
from .base import (
    HISTORY_MODEL,
    OPENED,
    ApiName,
    Finished,
    HiddenPrompt,
    Opened,
    RequestSettings,
    StreamIncomplete,
    ToolChoice,
    deferred_for,
    hosted_tools_for,
    map_stop,
    plain_text,
)


ANTHROPIC_MAX_TOKENS = 4096  # required by the Messages API; 1024 cuts real answers short
ANTHROPIC_STOP = {
    "end_turn": StopReason.END_TURN,
    "stop_sequence": StopReason.END_TURN,
    "tool_use": StopReason.TOOL_USE,
    "max_tokens": StopReason.MAX_TOKENS,
    "model_context_window_exceeded": StopReason.MAX_TOKENS,
    "refusal": StopReason.REFUSAL,
    "pause_turn": StopReason.PAUSE_TURN,
}
_ASSISTANT_BLOCKS = ("tool_use", "thinking", "redacted_thinking")  # blocks only this API's history has
_OWN_BLOCKS = ("text", *_ASSISTANT_BLOCKS)  # the blocks a turn is rebuilt from; any other is a server tool's
# Server tools: Anthropic runs them inside the turn (``anthropic/types/tool_union_param.py``). Given to
# ``tools=`` as the API's own dict they go into the request unchanged; their blocks (``server_tool_use``,
# ``web_search_tool_result``, ...) are kept in the turn as received and never run here. Types are dated
# (``web_search_20250305``); these prefixes name the families.
SERVER_TOOL_PREFIXES = ("web_search_", "web_fetch_", "code_execution_", "tool_search_tool_")
# Anthropic-defined tools whose tool_use blocks come back for the caller's code to carry out.
CLIENT_RUN_PREFIXES = ("bash_", "text_editor_", "memory_", "computer_", "browser_toolset_")
_DATED = re.compile(r"_\d{8}$")  # how Anthropic names a tool version: web_search_20250305
_TOOL_USE_ID = re.compile(r"^[a-zA-Z0-9_-]+$")  # what the API accepts as a tool_use id
_UNSAFE = re.compile(r"[^a-zA-Z0-9_-]")


def safe_id(call_id: str) -> str:
    """A call id as the Messages API accepts it (``^[a-zA-Z0-9_-]+$``).

    Some OpenAI-compatible servers write ids such as ``functions.get_weather:0``; a run
    that carries one into a Messages request (``history=``, a fallback mid-run) sends
    this form instead, the same for the call and its result. The hash of the original
    keeps two ids apart that differ only in their unsafe characters.
    """
    if _TOOL_USE_ID.match(call_id):
        return call_id
    digest = hashlib.sha256(call_id.encode()).hexdigest()[:8]
    return f"{_UNSAFE.sub('_', call_id)}_{digest}"


def hosted_kind(tool: dict[str, Any]) -> str | None:
    """``"hosted"`` for a server tool Anthropic runs, ``"client"`` for an Anthropic-defined tool your code
    must carry out, or ``None`` when the dict is not one of this API's typed tools.

    A dated type outside the known families (a server tool newer than this table) counts as hosted: the
    API says whether it knows it.
    """
    kind = tool.get("type")
    if not isinstance(kind, str) or kind == "custom":
        return None
    if kind.startswith(CLIENT_RUN_PREFIXES):
        return "client"
    if kind.startswith(SERVER_TOOL_PREFIXES) or _DATED.search(kind):
        return "hosted"
    return None


def is_server_block(kind: Any) -> bool:
    """A content block a server tool wrote (``server_tool_use``, ``web_search_tool_result``, ...)."""
    return isinstance(kind, str) and kind not in _OWN_BLOCKS


def tool_prompt_tokens(model: str, tool_choice: dict[str, Any] | None) -> int:
    """The tokens of the tool-use system prompt Anthropic adds to a request to ``model`` with tools
    (:data:`conductor.tokens.HIDDEN_PROMPTS` holds the numbers)."""
    return anthropic_tool_use_prompt(model, tool_choice)


def _tool_input(call: ToolCall) -> dict[str, Any]:
    """A call's arguments as the object Anthropic requires; ``{}`` when they are not one.

    Only a call another API's model wrote can hold broken JSON here; its error
    result, sent beside it, already tells the model what was wrong.
    """
    try:
        value = loads_json(call.arguments or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


class MessagesApi:
    """Anthropic Messages <-> neutral conversation."""

    api: ApiName = "messages"

    # -- requests ------------------------------------------------------------------------

    def render(self, messages: Sequence[Message], into: list[dict[str, Any]], *, model: str) -> None:
        """Append the wire messages of ``messages`` to ``into``.

        System messages go to the request's ``system`` parameter instead. Tool
        results and user text that follow one another make one user message
        (results first, as the API requires): the API wants user and assistant
        turns to alternate.
        """
        for message in messages:
            if isinstance(message, SystemMessage):
                continue
            if isinstance(message, Turn):
                if _replays(message, model):  # server-tool blocks: sent back as received, a list as received
                    into.append({"role": "assistant", "content": _replayed(message)})
                    continue
                if message.items and message.origin is not None and message.origin[0] == "messages":
                    # Another model of this API: the server's blocks as received, the thinking left out (it goes
                    # back only to the model that wrote it).
                    into.append({"role": "assistant", "content": _replayed(message, thinking=False)})
                    continue
                blocks = self._assistant_blocks(message, model)
                if len(blocks) == 1 and blocks[0]["type"] == "text":
                    into.append({"role": "assistant", "content": blocks[0]["text"]})  # plain text, as people write it
                elif blocks:
                    into.append({"role": "assistant", "content": blocks})
                continue
            if isinstance(message, ToolResult):
                block: dict[str, Any] = {"type": "tool_result", "tool_use_id": safe_id(message.call_id)}
                if message.content.strip():  # the API rejects a whitespace-only text
                    block["content"] = message.content
                if message.is_error:
                    block["is_error"] = True
                content: str | list[dict[str, Any]] = [block]
            elif message.text.strip():
                content = message.text
            else:  # a whitespace-only message (from history=): the API rejects it, and it says nothing
                continue
            if into and into[-1]["role"] == "user":
                # Replaced, not changed in place: earlier requests may still hold the old dict.
                into[-1] = {"role": "user", "content": [*self._blocks(into[-1]["content"]), *self._blocks(content)]}
            else:
                into.append({"role": "user", "content": content})

    @staticmethod
    def _blocks(content: str | list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{"type": "text", "text": content}] if isinstance(content, str) else content

    @staticmethod
    def _assistant_blocks(turn: Turn, model: str) -> list[dict[str, Any]]:
        # Thinking goes back only to the model that wrote it (a history's blocks name no model: kept).
        own = turn.origin is None or turn.origin == ("messages", model)
        blocks: list[dict[str, Any]] = [
            {"type": "redacted_thinking", "data": r.data}
            if r.redacted
            else {"type": "thinking", "thinking": r.thinking, "signature": r.signature}
            for r in (turn.reasoning if own else ())
        ]
        # The API rejects empty and whitespace-only text blocks.
        blocks += [{"type": "text", "text": text} for text in turn.text_blocks if text.strip()]
        blocks += [
            {"type": "tool_use", "id": safe_id(c.id), "name": c.name, "input": _tool_input(c)} for c in turn.tool_calls
        ]
        return blocks

    def request(
        self,
        settings: RequestSettings,
        messages: list[dict[str, Any]],
        *,
        tools_allowed: bool,
        continued: tuple[str, int] | None = None,
        conversation: Sequence[Message] = (),
    ) -> dict[str, Any]:
        draft = Draft(settings, tools_allowed, conversation)
        kwargs: dict[str, Any] = {
            "model": settings.model,
            "messages": list(messages),
            "max_tokens": ANTHROPIC_MAX_TOKENS if settings.max_tokens is None else settings.max_tokens,
            **settings.options,
        }
        if settings.system:
            kwargs["system"] = settings.system
        hosted = hosted_tools_for(settings, self.api)
        if len(settings.tools) or hosted:
            # Tools stay defined on the final request: the API rejects tool_use/tool_result
            # blocks in a request without tools. tool_choice none forbids their use instead.
            # Server tools (web_search_20250305, ...) go beside the function tools unchanged.
            kwargs["tools"] = [messages_tool(t) for t in settings.tools] + hosted
            add_parts(kwargs, PARTS, draft, "tools")
            kwargs["tool_choice"] = self._tool_choice(
                settings.tool_choice if tools_allowed else ToolChoice("none"), settings.parallel_tool_calls
            )
        add_parts(kwargs, PARTS, draft, "request")
        return kwargs

    @staticmethod
    def _tool_choice(choice: ToolChoice, parallel: bool | None) -> dict[str, Any]:
        wire: dict[str, Any] = {"type": {"required": "any"}.get(choice.mode, choice.mode)}
        if choice.mode == "tool":
            wire["name"] = choice.name
        if parallel is False and choice.mode != "none":
            wire["disable_parallel_tool_use"] = True
        return wire

    def prompt_extras(self, request: dict[str, Any]) -> dict[str, Any]:
        extras: dict[str, Any] = {key: request[key] for key in ("system", "tools") if key in request}
        if request.get("tools"):  # the tool-use system prompt and the server tools' own (conductor.tokens)
            extras["tool_use_system_prompt"] = HiddenPrompt(hidden_prompt_tokens("messages", request))
        return extras

    def output_limit(self, request: dict[str, Any], default: int) -> int:
        return int(request["max_tokens"])  # required by the API: request() always sets it

    def create(self, client: Any, kwargs: dict[str, Any]) -> Any:
        resource, kwargs = _endpoint(client, kwargs)
        return resource.create(**kwargs)

    async def acreate(self, client: Any, kwargs: dict[str, Any]) -> Any:
        resource, kwargs = _endpoint(client, kwargs)
        return await resource.create(**kwargs)

    # -- streaming: messages.stream joins tool inputs from their input_json_delta events ---

    def stream(self, client: Any, kwargs: dict[str, Any]) -> Iterator[Opened | str | Finished]:
        resource, kwargs = _endpoint(client, kwargs)
        with resource.stream(**kwargs) as stream:
            yield OPENED
            for event in stream:
                if event.type == "text" and event.text:
                    yield event.text
            yield Finished(_final(stream.get_final_message()))

    async def astream(self, client: Any, kwargs: dict[str, Any]) -> AsyncIterator[Opened | str | Finished]:
        resource, kwargs = _endpoint(client, kwargs)
        async with resource.stream(**kwargs) as stream:
            yield OPENED
            async for event in stream:
                if event.type == "text" and event.text:
                    yield event.text
            yield Finished(_final(await stream.get_final_message()))

    # -- responses -----------------------------------------------------------------------

    def parse(self, response: Any) -> Turn:
        texts: list[str] = []
        calls: list[ToolCall] = []
        reasoning: list[Reasoning] = []
        server = False
        for block in response.content:
            # A call a program made (its caller a code execution version) goes back with its caller, as received.
            server = server or is_server_block(block.type) or _program_caller(block)
            if block.type == "text":
                texts.append(block.text)
            elif block.type == "tool_use":
                # No real API puts NaN/Infinity in a body; a server that does gets MalformedResponseError,
                # not a ValueError from the SDK when the turn is sent back.
                arguments = json.dumps(block.input, ensure_ascii=False, allow_nan=False)
                calls.append(ToolCall(block.id or "", block.name, arguments))
            elif block.type == "thinking":
                reasoning.append(Reasoning(thinking=block.thinking, signature=block.signature))
            elif block.type == "redacted_thinking":
                reasoning.append(Reasoning(redacted=True, data=block.data))
        stop = map_stop(response.stop_reason, ANTHROPIC_STOP)
        # A turn with server-tool blocks (or paused: it is continued by sending it back unchanged) keeps its
        # content as received, to go back as it came to the model that wrote it.
        keep = server or stop is StopReason.PAUSE_TURN
        return Turn(
            text_blocks=tuple(texts),
            tool_calls=tuple(calls),
            stop_reason=stop,
            native_stop_reason=response.stop_reason,
            usage=self._usage(response.usage),
            refusal="".join(texts) if stop is StopReason.REFUSAL else None,
            model=response.model,
            reasoning=tuple(reasoning),
            items=tuple(_as_received(block) for block in response.content) if keep else (),
            container=getattr(getattr(response, "container", None), "id", None),
            raw=response,
        )

    @staticmethod
    def _usage(usage: Any) -> Usage:
        if usage is None:  # real responses always carry usage; a compatible server may not
            return Usage()
        # Part of output_tokens spent thinking (anthropic 2.12's usage.output_tokens_details.thinking_tokens).
        details = getattr(usage, "output_tokens_details", None)
        thinking = (getattr(details, "thinking_tokens", None) or 0) if details else 0
        iterations = getattr(usage, "iterations", None)
        if iterations:  # compaction ran first: the top-level counts are the answer's alone, every pass is billed
            total = sum((MessagesApi._usage(i) for i in iterations), Usage())
            server = getattr(usage, "server_tool_use", None)
            # The passes carry no thinking count of their own: the top-level one is the answer's.
            searches = (getattr(server, "web_search_requests", None) or 0) if server else 0
            return replace(total, web_search_requests=searches, reasoning_tokens=thinking)
        # Anthropic's input_tokens leaves the cached tokens out; the neutral count holds them.
        written = getattr(usage, "cache_creation_input_tokens", None) or 0
        read = getattr(usage, "cache_read_input_tokens", None) or 0
        server = getattr(usage, "server_tool_use", None)
        creation = getattr(usage, "cache_creation", None)
        return Usage(
            input_tokens=(usage.input_tokens or 0) + written + read,
            output_tokens=usage.output_tokens or 0,
            cache_read_tokens=read,
            cache_write_tokens=written,
            reasoning_tokens=thinking,
            web_search_requests=(getattr(server, "web_search_requests", None) or 0) if server else 0,
            web_fetch_requests=(getattr(server, "web_fetch_requests", None) or 0) if server else 0,
            cache_write_1h_tokens=(getattr(creation, "ephemeral_1h_input_tokens", None) or 0) if creation else 0,
        )

    # -- history -------------------------------------------------------------------------

    def read_history(self, index: int, entry: dict[str, Any]) -> list[Message] | None:
        """A message with Anthropic content blocks (tool_use, tool_result, thinking, a server's), or ``None``.

        An assistant message holding a server's blocks (``server_tool_use``, ``tool_search_tool_result``,
        ``compaction``, ...) keeps its content as given, to go back unchanged to this API.
        """
        role, content = entry.get("role"), entry.get("content")
        if not isinstance(content, list):
            return None
        kinds = {block.get("type") for block in content if isinstance(block, dict)}
        if role == "user" and "tool_result" in kinds:
            return _user_messages(index, content)
        if role == "assistant" and (kinds & set(_ASSISTANT_BLOCKS) or any(_server_history_block(k) for k in kinds)):
            return [_assistant_turn(index, content)]
        return None


def _endpoint(client: Any, kwargs: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """Where to send a request: ``client.messages``, or, for compaction (``context_management``, or a compaction
    block sent back, from history= of a run that compacted), the SDK's beta client with the compaction header
    (the non-beta Message model cannot read a compaction block)."""
    if "context_management" not in kwargs and not _carries_compaction(kwargs.get("messages") or ()):
        return client.messages, kwargs
    betas = list(kwargs.get("betas") or ())
    return client.beta.messages, {**kwargs, "betas": betas if COMPACT_BETA in betas else [*betas, COMPACT_BETA]}


def _carries_compaction(messages: Sequence[dict[str, Any]]) -> bool:
    return any(
        isinstance(block, dict) and block.get("type") == "compaction"
        for message in messages if message.get("role") == "assistant" and isinstance(message.get("content"), list)
        for block in message["content"]
    )


# -- the request features' parts (conductor.apis.parts) ---------------------------------------


def _deferred_part(request: dict[str, Any], draft: Draft) -> None:
    """Tool search: the tools it loads when the model asks go out deferred, beside the hosted search tool."""
    deferred = deferred_for(draft.settings, "messages")
    for wire in request.get("tools", ()) if deferred else ():
        if "type" not in wire and wire["name"] in deferred:  # a function tool (server tools have a type)
            wire["defer_loading"] = True


def _program_tool_part(request: dict[str, Any], draft: Draft) -> None:
    """Programmatic tool calling: ``allowed_callers`` on each tool a program may call, and the code execution
    tool the programs run in (unless the caller sent one)."""
    settings = draft.settings
    if not settings.programmatic or "tools" not in request:
        return
    eligible = {t.name for t in settings.tools if getattr(t, "programmatic", True)}
    marked = [{**t, "allowed_callers": programs.messages_callers()} if t.get("name") in eligible and "type" not in t
              else t for t in request["tools"]]
    if not any(str(t.get("type", "")).startswith("code_execution_") for t in marked):
        marked.append(programs.messages_tool())
    request["tools"] = marked


def _cache_part(request: dict[str, Any], draft: Draft) -> None:
    """The prompt cache: automatic caching, whose breakpoint moves with the conversation."""
    if (control := anthropic_cache_control(draft.settings.cache)) is not None:
        request.setdefault("cache_control", control)


def _compaction_part(request: dict[str, Any], draft: Draft) -> None:
    """context="server": the API compacts the conversation itself from ``context_limit`` input tokens."""
    settings = draft.settings
    if settings.context == "server" and settings.context_limit:
        request.setdefault("context_management", compaction_edits(settings.context_limit))


def _container_part(request: dict[str, Any], draft: Draft) -> None:
    """A program of the run goes on in the container it started in."""
    if draft.settings.programmatic:
        programs.with_container(request, draft.conversation)


PARTS: dict[str, Part] = {
    "deferred": _deferred_part, "program_tool": _program_tool_part, "cache": _cache_part,
    "compaction": _compaction_part, "container": _container_part,
}


def _program_caller(block: Any) -> bool:
    caller = getattr(block, "caller", None)
    kind = caller.get("type") if isinstance(caller, dict) else getattr(caller, "type", None)
    return block.type == "tool_use" and kind not in (None, "direct")


def _server_history_block(kind: Any) -> bool:
    """A block the server wrote, in history=: a server tool's call or result, a compaction, ... (any typed block
    that is not text, thinking or a tool_use; a ``refusal`` part is Chat Completions')."""
    return is_server_block(kind) and kind != "refusal"


def _user_messages(index: int, content: list[Any]) -> list[Message]:
    messages: list[Message] = []
    texts = []
    for block in content:
        if isinstance(block, dict) and block.get("type") == "tool_result":
            if not block.get("tool_use_id"):
                raise ValueError(f"history[{index}] has a tool_result block without 'tool_use_id'; add the id it answers")
            text = plain_text(index, block.get("content"))
            messages.append(ToolResult(block["tool_use_id"], "", text, bool(block.get("is_error"))))
        else:
            texts.append(block)
    if texts:
        messages.append(UserMessage(plain_text(index, texts)))
    return messages


def _assistant_turn(index: int, content: list[Any]) -> Turn:
    texts: list[str] = []
    calls: list[ToolCall] = []
    reasoning: list[Reasoning] = []
    server = False
    for block in content:
        kind = block.get("type") if isinstance(block, dict) else None
        if kind == "text":
            texts.append(block.get("text") or "")
        elif kind == "tool_use":
            arguments = json.dumps(block.get("input") or {}, ensure_ascii=False)
            calls.append(ToolCall(block.get("id") or "", block.get("name") or "", arguments))
        elif kind == "thinking":
            reasoning.append(Reasoning(thinking=block.get("thinking", ""), signature=block.get("signature", "")))
        elif kind == "redacted_thinking":
            reasoning.append(Reasoning(redacted=True, data=block.get("data", "")))
        elif _server_history_block(kind):
            server = True  # the API needs it back as it came: the whole content goes back as given
        else:
            raise ValueError(
                f"history[{index}] has an assistant block {block!r:.80}; history carries content blocks as the "
                "Messages API returns them (dicts with a 'type'): write the block as a dict, or leave it out"
            )
    return Turn(
        text_blocks=tuple(t for t in texts if t), tool_calls=tuple(calls), reasoning=tuple(reasoning),
        items=tuple(content) if server else (), origin=("messages", HISTORY_MODEL) if server else None,
    )


def _as_received(block: Any) -> dict[str, Any]:
    """A response's content block as the dict the API sent (its null fields, which a request may not
    carry, left out)."""
    # warnings off: a compatible server's odd field (tool input that is no object) is kept as it came
    return block.model_dump(mode="json", exclude_none=True, warnings=False)


def _replays(turn: Turn, model: str) -> bool:
    """Does ``turn`` go back as its blocks were received? To the model (and API) that wrote them, and from
    history= (which model wrote it is not known there: its thinking is kept, as the caller kept it)."""
    return bool(turn.items) and turn.origin in (("messages", model), ("messages", HISTORY_MODEL))


def _replayed(turn: Turn, thinking: bool = True) -> list[dict[str, Any]]:
    """The turn's content blocks as received, with its tool calls as the run knows them.

    The loop may have renamed a call id (a repeated one) or left calls out (tools no longer
    allowed): their tool_use blocks follow, everything else (server tool blocks, text with its
    citations, thinking with its signature unless ``thinking`` is False) goes back unchanged.
    """
    calls = iter(turn.tool_calls)
    blocks = []
    for block in turn.items:
        if not thinking and block.get("type") in ("thinking", "redacted_thinking"):
            continue
        if block.get("type") == "tool_use":
            call = next(calls, None)
            if call is None:  # a call the run did not make: nothing answers it
                continue
            block = {**block, "id": safe_id(call.id), "name": call.name, "input": _tool_input(call)}
        blocks.append(block)
    return blocks


def _final(message: Any) -> Any:
    if message.stop_reason is None:
        raise StreamIncomplete("the stream ended before the model finished (no stop_reason)")
    return message
