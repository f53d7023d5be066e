"""Adapters between the neutral conversation and the two wire APIs.

One adapter per API builds request arguments for the official SDK, renders
neutral messages (:mod:`conductor.types`) as that API's message dicts, and
turns the SDK's response object into a :class:`~conductor.types.Turn`. The
round loop talks only to this interface, so it never branches on the provider.

Assistant turns are rebuilt from the fields a request may carry, never by
dumping the response object back: responses hold fields requests must not
(``caller`` on Anthropic tool_use blocks, ``annotations`` and ``refusal`` on
OpenAI messages).

:func:`history_to_neutral` reads earlier turns in either API's format (or
neutral messages) so a conversation can continue on any API.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .tools import ToolRegistry
from .types import (
    Message,
    Reasoning,
    StopReason,
    SystemMessage,
    ToolCall,
    ToolResult,
    Turn,
    Usage,
    UserMessage,
    loads_json,
)

logger = logging.getLogger(__name__)

ApiName = Literal["openai", "anthropic"]
ANTHROPIC_MAX_TOKENS = 4096  # required by the Messages API; 1024 cuts real answers short

OPENAI_STOP = {
    "stop": StopReason.END_TURN,
    "tool_calls": StopReason.TOOL_USE,
    "function_call": StopReason.TOOL_USE,
    "length": StopReason.MAX_TOKENS,
    "content_filter": StopReason.REFUSAL,
}
ANTHROPIC_STOP = {
    "end_turn": StopReason.END_TURN,
    "stop_sequence": StopReason.END_TURN,
    "tool_use": StopReason.TOOL_USE,
    "max_tokens": StopReason.MAX_TOKENS,
    "model_context_window_exceeded": StopReason.MAX_TOKENS,
    "refusal": StopReason.REFUSAL,
    "pause_turn": StopReason.PAUSE_TURN,
}
ERROR_PREFIX = "Error: "  # how an error result reads in Chat Completions, which has no error flag


@dataclass(frozen=True)
class ToolChoice:
    """Which tool use the model is asked for while rounds remain, in neutral terms.

    ``auto``: the model decides; ``required``: at least one call (OpenAI
    ``"required"``, Anthropic ``{"type": "any"}``); ``tool``: a call of ``name``;
    ``none``: no calls.
    """

    mode: Literal["auto", "required", "tool", "none"] = "auto"
    name: str | None = None


@dataclass(frozen=True)
class RequestSettings:
    """What stays the same across the requests of one run."""

    model: str
    tools: ToolRegistry
    system: str | None = None
    max_tokens: int | None = None
    parallel_tool_calls: bool | None = None  # None: the API's default (parallel calls allowed)
    options: dict[str, Any] = field(default_factory=dict)  # passed to the SDK's create call as is
    tool_choice: ToolChoice = ToolChoice()


def tool_choice_from(value: Any, tools: ToolRegistry) -> tuple[ToolChoice, bool | None]:
    """A caller's ``tool_choice`` in either API's form, as a :class:`ToolChoice`.

    Also returns ``False`` when an Anthropic form asks for one call per turn
    (``disable_parallel_tool_use``), else ``None``. Raises ``ValueError`` naming
    the accepted forms, or the tools offered when a named tool is not one of them.
    """
    if value is None:
        return ToolChoice(), None
    parallel: bool | None = None
    if isinstance(value, str) and value in ("auto", "required", "none", "any"):
        choice = ToolChoice("required" if value == "any" else value)  # type: ignore[arg-type]
    elif isinstance(value, dict) and value.get("type") == "function" and isinstance(value.get("function"), dict):
        choice = ToolChoice("tool", value["function"].get("name"))
    elif isinstance(value, dict) and value.get("type") in ("auto", "any", "tool", "none"):
        mode = {"any": "required"}.get(value["type"], value["type"])
        choice = ToolChoice(mode, value.get("name"))  # type: ignore[arg-type]
        parallel = False if value.get("disable_parallel_tool_use") else None
    else:
        raise ValueError(
            f"unsupported tool_choice {value!r}: pass 'auto', 'required', 'none', "
            "{'type': 'function', 'function': {'name': ...}} (OpenAI) or "
            "{'type': 'auto' | 'any' | 'tool' | 'none', 'name': ...} (Anthropic)"
        )
    if choice.mode != "auto" and not len(tools):
        raise ValueError(f"tool_choice={value!r} needs tools: pass tools=[...] as well")
    if choice.mode == "tool" and choice.name not in tools:
        raise ValueError(
            f"tool_choice names {choice.name!r}, which is not among the tools offered: {', '.join(tools.names)}"
        )
    return choice, parallel


def _map_stop(native: str | None, table: dict[str, StopReason]) -> StopReason:
    if native is None:
        return StopReason.OTHER
    return table.get(native, StopReason.OTHER)


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


class OpenAIAdapter:
    """OpenAI Chat Completions <-> neutral conversation."""

    api: ApiName = "openai"

    def render(self, messages: Sequence[Message], into: list[dict[str, Any]]) -> None:
        """Append the wire messages of ``messages`` to ``into`` (one dict per neutral message)."""
        for message in messages:
            if isinstance(message, ToolResult):
                content = ERROR_PREFIX + message.content if message.is_error else message.content
                into.append({"role": "tool", "tool_call_id": message.call_id, "content": content})
            elif isinstance(message, Turn):
                rendered = self._assistant(message)
                if rendered is not None:
                    into.append(rendered)
            else:
                into.append({"role": message.role, "content": message.text})

    @staticmethod
    def _assistant(turn: Turn) -> dict[str, Any] | None:
        # Content is optional beside tool calls; leaving it out rather than sending null
        # also spares the SDK a costly union check per message (see `bench loop`).
        message: dict[str, Any] = {"role": "assistant"}
        if turn.text:
            message["content"] = turn.text
        if turn.tool_calls:
            message["tool_calls"] = [
                {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
                for c in turn.tool_calls
            ]
        elif not turn.text:
            return None
        return message

    def request(self, settings: RequestSettings, messages: list[dict[str, Any]], *, tools_allowed: bool) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"model": settings.model, "messages": list(messages), **settings.options}
        if settings.max_tokens is not None:
            kwargs["max_completion_tokens"] = settings.max_tokens
        if len(settings.tools):
            # OpenAI allows tool_choice and parallel_tool_calls only beside tools.
            kwargs["tools"] = [t.openai_schema() for t in settings.tools]
            kwargs["tool_choice"] = self._tool_choice(settings.tool_choice if tools_allowed else ToolChoice("none"))
            if settings.parallel_tool_calls is not None:
                kwargs["parallel_tool_calls"] = settings.parallel_tool_calls
        return kwargs

    @staticmethod
    def _tool_choice(choice: ToolChoice) -> Any:
        if choice.mode == "tool":
            return {"type": "function", "function": {"name": choice.name}}
        return choice.mode

    def create(self, client: Any, kwargs: dict[str, Any]) -> Any:
        return client.chat.completions.create(**kwargs)

    async def acreate(self, client: Any, kwargs: dict[str, Any]) -> Any:
        return await client.chat.completions.create(**kwargs)

    def parse(self, response: Any) -> Turn:
        if not response.choices:
            raise ValueError("the OpenAI response has no choices; the server returned an empty completion")
        choice = response.choices[0]
        message = choice.message
        calls = tuple(
            ToolCall(c.id or "", c.function.name, c.function.arguments or "")
            for c in (message.tool_calls or ())
            if getattr(c, "type", "function") == "function"
        )
        stop = _map_stop(choice.finish_reason, OPENAI_STOP)
        refusal = getattr(message, "refusal", None)
        if refusal:
            stop = StopReason.REFUSAL
        return Turn(
            text_blocks=(message.content,) if message.content else (),
            tool_calls=calls,
            stop_reason=stop,
            native_stop_reason=choice.finish_reason,
            usage=self._usage(response.usage),
            refusal=refusal,
            model=response.model,
            raw=response,
        )

    @staticmethod
    def _usage(usage: Any) -> Usage:
        if usage is None:
            return Usage()
        prompt = getattr(usage, "prompt_tokens_details", None)
        completion = getattr(usage, "completion_tokens_details", None)
        return Usage(
            input_tokens=usage.prompt_tokens or 0,
            output_tokens=usage.completion_tokens or 0,
            cache_read_tokens=(getattr(prompt, "cached_tokens", None) or 0) if prompt else 0,
            reasoning_tokens=(getattr(completion, "reasoning_tokens", None) or 0) if completion else 0,
        )


class AnthropicAdapter:
    """Anthropic Messages <-> neutral conversation."""

    api: ApiName = "anthropic"

    def render(self, messages: Sequence[Message], into: list[dict[str, Any]]) -> None:
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
                blocks = self._assistant_blocks(message)
                if len(blocks) == 1 and blocks[0]["type"] == "text":
                    into.append({"role": "assistant", "content": blocks[0]["text"]})  # plain text, as people write it
                elif blocks:
                    into.append({"role": "assistant", "content": blocks})
                continue
            if isinstance(message, ToolResult):
                block: dict[str, Any] = {"type": "tool_result", "tool_use_id": message.call_id}
                if message.content:
                    block["content"] = message.content
                if message.is_error:
                    block["is_error"] = True
                content: str | list[dict[str, Any]] = [block]
            else:
                content = message.text
            if into and into[-1]["role"] == "user":
                # Replaced, not changed in place: earlier requests may still hold the old dict.
                into[-1] = {"role": "user", "content": [*self._blocks(into[-1]["content"]), *self._blocks(content)]}
            else:
                into.append({"role": "user", "content": content})

    @staticmethod
    def _blocks(content: str | list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{"type": "text", "text": content}] if isinstance(content, str) else content

    @staticmethod
    def _assistant_blocks(turn: Turn) -> list[dict[str, Any]]:
        blocks: list[dict[str, Any]] = [
            {"type": "redacted_thinking", "data": r.data}
            if r.redacted
            else {"type": "thinking", "thinking": r.thinking, "signature": r.signature}
            for r in turn.reasoning
        ]
        # The API rejects empty text blocks.
        blocks += [{"type": "text", "text": text} for text in turn.text_blocks if text]
        blocks += [{"type": "tool_use", "id": c.id, "name": c.name, "input": _tool_input(c)} for c in turn.tool_calls]
        return blocks

    def request(self, settings: RequestSettings, messages: list[dict[str, Any]], *, tools_allowed: bool) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "model": settings.model,
            "messages": list(messages),
            "max_tokens": settings.max_tokens or ANTHROPIC_MAX_TOKENS,
            **settings.options,
        }
        if settings.system:
            kwargs["system"] = settings.system
        if len(settings.tools):
            # Tools stay defined on the final request: the API rejects tool_use/tool_result
            # blocks in a request without tools. tool_choice none forbids their use instead.
            kwargs["tools"] = [t.anthropic_schema() for t in settings.tools]
            kwargs["tool_choice"] = self._tool_choice(
                settings.tool_choice if tools_allowed else ToolChoice("none"), settings.parallel_tool_calls
            )
        return kwargs

    @staticmethod
    def _tool_choice(choice: ToolChoice, parallel: bool | None) -> dict[str, Any]:
        wire: dict[str, Any] = {"type": {"required": "any"}.get(choice.mode, choice.mode)}
        if choice.mode == "tool":
            wire["name"] = choice.name
        if parallel is False and choice.mode != "none":
            wire["disable_parallel_tool_use"] = True
        return wire

    def create(self, client: Any, kwargs: dict[str, Any]) -> Any:
        return client.messages.create(**kwargs)

    async def acreate(self, client: Any, kwargs: dict[str, Any]) -> Any:
        return await client.messages.create(**kwargs)

    def parse(self, response: Any) -> Turn:
        texts: list[str] = []
        calls: list[ToolCall] = []
        reasoning: list[Reasoning] = []
        for block in response.content:
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
        stop = _map_stop(response.stop_reason, ANTHROPIC_STOP)
        return Turn(
            text_blocks=tuple(texts),
            tool_calls=tuple(calls),
            stop_reason=stop,
            native_stop_reason=response.stop_reason,
            usage=self._usage(response.usage),
            refusal="".join(texts) if stop is StopReason.REFUSAL else None,
            model=response.model,
            reasoning=tuple(reasoning),
            raw=response,
        )

    @staticmethod
    def _usage(usage: Any) -> Usage:
        if usage is None:  # real responses always carry usage; a compatible server may not
            return Usage()
        # Anthropic's input_tokens leaves the cached tokens out; the neutral count holds them.
        written = getattr(usage, "cache_creation_input_tokens", None) or 0
        read = getattr(usage, "cache_read_input_tokens", None) or 0
        server = getattr(usage, "server_tool_use", None)
        return Usage(
            input_tokens=(usage.input_tokens or 0) + written + read,
            output_tokens=usage.output_tokens or 0,
            cache_read_tokens=read,
            cache_write_tokens=written,
            web_search_requests=(getattr(server, "web_search_requests", None) or 0) if server else 0,
        )


def adapter_for(api: ApiName) -> OpenAIAdapter | AnthropicAdapter:
    return OpenAIAdapter() if api == "openai" else AnthropicAdapter()


# --- history in any format -> neutral messages -------------------------------------------

NEUTRAL_TYPES = (SystemMessage, UserMessage, Turn, ToolResult)
_HISTORY_HELP = (
    "history= takes the messages of an earlier result (result.messages or result.conversation), "
    "OpenAI-format dicts (roles system, user, assistant with tool_calls, tool) or Anthropic-format "
    "dicts (content blocks text, tool_use, tool_result)"
)


class _History:
    """Reads history entries one by one, keeping the call ids still to be answered."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.open: dict[str, tuple[str, int]] = {}  # unanswered call id -> (tool name, index of its turn)
        self.answered: set[str] = set()

    def error(self, index: int, problem: str, fix: str) -> ValueError:
        return ValueError(f"history[{index}] {problem}; {fix}")

    def add(self, index: int, message: Message) -> None:
        if isinstance(message, ToolResult):
            self._answer(index, message)
            return
        self._check_all_answered(index)
        if isinstance(message, Turn):
            for call in message.tool_calls:
                if not call.id or call.id in self.answered or call.id in self.open:
                    raise self.error(
                        index,
                        f"has a tool call with {'an empty' if not call.id else 'a repeated'} id {call.id!r}",
                        "give every call of the history its own id, used again by its result",
                    )
                self.open[call.id] = (call.name, index)
        self.messages.append(message)

    def _answer(self, index: int, result: ToolResult) -> None:
        if result.call_id not in self.open:
            why = "was already answered" if result.call_id in self.answered else "no earlier assistant message made"
            raise self.error(
                index,
                f"answers tool call {result.call_id!r}, which {why}",
                "drop the result, or keep the assistant message that made the call before it",
            )
        name, _ = self.open.pop(result.call_id)
        self.answered.add(result.call_id)
        self.messages.append(result if result.name else ToolResult(result.call_id, name, result.content, result.is_error))

    def _check_all_answered(self, index: int | None) -> None:
        if not self.open:
            return
        call_id, (name, turn_index) = next(iter(self.open.items()))
        where = f"before history[{index}]" if index is not None else "by the end of the history"
        raise self.error(
            turn_index,
            f"has tool call {call_id!r} ({name}) with no result {where}",
            "add its tool result right after that assistant message, or drop the message",
        )

    def finish(self) -> list[Message]:
        self._check_all_answered(None)
        return self.messages


def history_to_neutral(history: Sequence[Any] | None) -> list[Message]:
    """Earlier turns in neutral form, checked: every tool call answered once, right after its turn.

    Entries may be neutral messages, dicts in either API's format, or the SDK's
    message objects (``response.choices[0].message``), mixed. Raises ``ValueError`` naming the entry's index and the fix.
    """
    if history is None:
        return []
    if isinstance(history, (str, dict)) or not isinstance(history, Sequence):
        raise ValueError(f"history must be a list of messages, got {type(history).__name__}; {_HISTORY_HELP}")
    reader = _History()
    for index, entry in enumerate(history):
        for message in _entry_messages(index, entry):
            reader.add(index, message)
    return reader.finish()


def _entry_messages(index: int, entry: Any) -> list[Message]:
    if isinstance(entry, NEUTRAL_TYPES):
        return [entry]
    if hasattr(entry, "model_dump"):  # an SDK object, e.g. response.choices[0].message appended as is
        entry = entry.model_dump(mode="json", exclude_none=True)
    role = entry.get("role") if isinstance(entry, dict) else None
    if role not in ("system", "developer", "user", "assistant", "tool"):
        raise ValueError(
            f"history[{index}] must be a message with role 'system', 'user', 'assistant' or 'tool' "
            f"(e.g. {{'role': 'user', 'content': 'Hi'}}), got {entry!r}; {_HISTORY_HELP}"
        )
    if "content" not in entry and not (role == "assistant" and entry.get("tool_calls")):
        raise ValueError(f"history[{index}] ({role}) has no 'content'; add the message's text as 'content'")
    content = entry.get("content")
    if role in ("system", "developer"):
        return [SystemMessage(_plain_text(index, content))]
    if role == "tool":
        if not entry.get("tool_call_id"):
            raise ValueError(
                f"history[{index}] is a tool message without 'tool_call_id'; add the id of the call it answers"
            )
        text = _plain_text(index, content)
        is_error = text.startswith(ERROR_PREFIX)  # how OpenAIAdapter wrote an error result
        return [ToolResult(entry["tool_call_id"], "", text.removeprefix(ERROR_PREFIX) if is_error else text, is_error)]
    if role == "user":
        return _user_messages(index, content)
    return [_assistant_turn(index, entry)]


def _plain_text(index: int, content: Any) -> str:
    """Text of a string or a list of text parts; other parts are refused."""
    if content is None or isinstance(content, str):
        return content or ""
    if not isinstance(content, list):
        raise ValueError(f"history[{index}] has content of type {type(content).__name__}; use a string or a list of parts")
    texts = []
    for part in content:
        kind = part.get("type") if isinstance(part, dict) else None
        if kind != "text":
            raise ValueError(
                f"history[{index}] holds a {kind or type(part).__name__!r} part; history carries text, "
                "tool calls and tool results only: leave the part out or describe it in text"
            )
        texts.append(part.get("text", ""))
    return "".join(texts)


def _user_messages(index: int, content: Any) -> list[Message]:
    if not isinstance(content, list):
        return [UserMessage(_plain_text(index, content))]
    messages: list[Message] = []
    texts = []
    for block in content:
        if isinstance(block, dict) and block.get("type") == "tool_result":
            if not block.get("tool_use_id"):
                raise ValueError(f"history[{index}] has a tool_result block without 'tool_use_id'; add the id it answers")
            text = _plain_text(index, block.get("content"))
            messages.append(ToolResult(block["tool_use_id"], "", text, bool(block.get("is_error"))))
        else:
            texts.append(block)
    if texts:
        messages.append(UserMessage(_plain_text(index, texts)))
    return messages


def _assistant_turn(index: int, entry: dict[str, Any]) -> Turn:
    content = entry.get("content")
    texts: list[str] = []
    calls: list[ToolCall] = []
    reasoning: list[Reasoning] = []
    for block in [{"type": "text", "text": content}] if isinstance(content, str) else content or []:
        kind = block.get("type") if isinstance(block, dict) else None
        if kind == "text":
            texts.append(block.get("text") or "")
        elif kind == "refusal":  # an OpenAI refusal part: the model's words to the user
            texts.append(block.get("refusal") or "")
        elif kind == "tool_use":
            arguments = json.dumps(block.get("input") or {}, ensure_ascii=False)
            calls.append(ToolCall(block.get("id") or "", block.get("name") or "", arguments))
        elif kind == "thinking":
            reasoning.append(Reasoning(thinking=block.get("thinking", ""), signature=block.get("signature", "")))
        elif kind == "redacted_thinking":
            reasoning.append(Reasoning(redacted=True, data=block.get("data", "")))
        else:
            raise ValueError(
                f"history[{index}] has an assistant block of type {kind!r}; history carries text, "
                "thinking and tool_use blocks: leave the block out"
            )
    for call in entry.get("tool_calls") or ():
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(function, dict) or not function.get("name"):
            raise ValueError(
                f"history[{index}] has a malformed tool call {call!r}; write it as "
                "{'id': ..., 'type': 'function', 'function': {'name': ..., 'arguments': '{...}'}}"
            )
        calls.append(ToolCall(call.get("id") or "", function["name"], function.get("arguments") or "{}"))
    return Turn(text_blocks=tuple(t for t in texts if t), tool_calls=tuple(calls), reasoning=tuple(reasoning))
