"""Adapters between the neutral turn and the two wire APIs.

One adapter per API builds request arguments for the official SDK and turns the
SDK's response object into a :class:`~conductor.types.Turn`. The round loop
talks only to this interface, so it never branches on the provider.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from collections.abc import Sequence
from typing import Any, Literal

from .tools import ToolRegistry
from .types import StopReason, ToolCall, ToolResult, Turn, Usage

logger = logging.getLogger(__name__)

ApiName = Literal["openai", "anthropic"]

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


@dataclass(frozen=True)
class RequestSettings:
    """What stays the same across the requests of one run."""

    model: str
    tools: ToolRegistry
    system: str | None = None
    max_tokens: int | None = None
    parallel_tool_calls: bool | None = None  # None: the API's default (parallel calls allowed)
    options: dict[str, Any] = field(default_factory=dict)  # passed to the SDK's create call as is


def _map_stop(native: str | None, table: dict[str, StopReason]) -> StopReason:
    if native is None:
        return StopReason.OTHER
    return table.get(native, StopReason.OTHER)


def _history_messages(history: Sequence[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """Check earlier turns given by the learner; raise with the fix when one is malformed."""
    messages = []
    for index, message in enumerate(history or ()):
        if not isinstance(message, dict) or message.get("role") not in ("user", "assistant"):
            raise ValueError(
                f"history[{index}] must be a dict with role 'user' or 'assistant' and 'content', "
                f"e.g. {{'role': 'user', 'content': 'Hi'}}; got {message!r}"
            )
        if "content" not in message:
            raise ValueError(f"history[{index}] has no 'content'")
        messages.append(dict(message))
    return messages


class OpenAIAdapter:
    """OpenAI Chat Completions <-> neutral turn."""

    api: ApiName = "openai"

    def initial_messages(self, question: str, system: str | None, history: Sequence[dict] | None) -> list[dict]:
        messages: list[dict[str, Any]] = [{"role": "system", "content": system}] if system else []
        return [*messages, *_history_messages(history), {"role": "user", "content": question}]

    def request(self, settings: RequestSettings, messages: list[dict[str, Any]], *, tools_allowed: bool) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"model": settings.model, "messages": list(messages), **settings.options}
        if settings.max_tokens is not None:
            kwargs["max_completion_tokens"] = settings.max_tokens
        if len(settings.tools):
            # OpenAI allows tool_choice and parallel_tool_calls only beside tools.
            kwargs["tools"] = [t.openai_schema() for t in settings.tools]
            kwargs["tool_choice"] = "auto" if tools_allowed else "none"
            if settings.parallel_tool_calls is not None:
                kwargs["parallel_tool_calls"] = settings.parallel_tool_calls
        return kwargs

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
            ToolCall(c.id, c.function.name, c.function.arguments or "")
            for c in (message.tool_calls or ())
            if getattr(c, "type", "function") == "function"
        )
        stop = _map_stop(choice.finish_reason, OPENAI_STOP)
        refusal = getattr(message, "refusal", None)
        if refusal:
            stop = StopReason.REFUSAL
        usage = response.usage
        return Turn(
            text_blocks=(message.content,) if message.content else (),
            tool_calls=calls,
            stop_reason=stop,
            native_stop_reason=choice.finish_reason,
            usage=Usage(usage.prompt_tokens or 0, usage.completion_tokens or 0) if usage else Usage(),
            refusal=refusal,
            model=response.model,
            raw=response,
        )

    def assistant_message(self, turn: Turn, *, with_tool_calls: bool = True) -> dict[str, Any] | None:
        # Content is optional beside tool calls; leaving it out rather than sending null
        # also spares the SDK a costly union check per message (see `bench loop`).
        message: dict[str, Any] = {"role": "assistant"}
        if turn.text:
            message["content"] = turn.text
        if with_tool_calls and turn.tool_calls:
            message["tool_calls"] = [
                {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
                for c in turn.tool_calls
            ]
        elif not turn.text:
            return None
        return message

    def tool_result_messages(self, results: Sequence[ToolResult]) -> list[dict[str, Any]]:
        # Chat Completions has no error flag: the error is stated in the content.
        return [
            {"role": "tool", "tool_call_id": r.call_id, "content": f"Error: {r.content}" if r.is_error else r.content}
            for r in results
        ]


class AnthropicAdapter:
    """Anthropic Messages <-> neutral turn."""

    api: ApiName = "anthropic"

    def initial_messages(self, question: str, system: str | None, history: Sequence[dict] | None) -> list[dict]:
        return [*_history_messages(history), {"role": "user", "content": question}]

    def request(self, settings: RequestSettings, messages: list[dict[str, Any]], *, tools_allowed: bool) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "model": settings.model,
            "messages": list(messages),
            "max_tokens": settings.max_tokens or 1024,  # required by the Messages API
            **settings.options,
        }
        if settings.system:
            kwargs["system"] = settings.system
        if len(settings.tools):
            # Tools stay defined on the final request: the API rejects tool_use/tool_result
            # blocks in a request without tools. tool_choice none forbids their use instead.
            kwargs["tools"] = [t.anthropic_schema() for t in settings.tools]
            if not tools_allowed:
                kwargs["tool_choice"] = {"type": "none"}
            elif settings.parallel_tool_calls is False:
                kwargs["tool_choice"] = {"type": "auto", "disable_parallel_tool_use": True}
            else:
                kwargs["tool_choice"] = {"type": "auto"}
        return kwargs

    def create(self, client: Any, kwargs: dict[str, Any]) -> Any:
        return client.messages.create(**kwargs)

    async def acreate(self, client: Any, kwargs: dict[str, Any]) -> Any:
        return await client.messages.create(**kwargs)

    def parse(self, response: Any) -> Turn:
        texts: list[str] = []
        calls: list[ToolCall] = []
        for block in response.content:
            if block.type == "text":
                texts.append(block.text)
            elif block.type == "tool_use":
                calls.append(ToolCall(block.id, block.name, json.dumps(block.input, ensure_ascii=False)))
        stop = _map_stop(response.stop_reason, ANTHROPIC_STOP)
        usage = response.usage
        return Turn(
            text_blocks=tuple(texts),
            tool_calls=tuple(calls),
            stop_reason=stop,
            native_stop_reason=response.stop_reason,
            usage=Usage(usage.input_tokens or 0, usage.output_tokens or 0),
            refusal="".join(texts) if stop is StopReason.REFUSAL else None,
            model=response.model,
            raw=response,
        )

    def assistant_message(self, turn: Turn, *, with_tool_calls: bool = True) -> dict[str, Any] | None:
        blocks: list[dict[str, Any]]
        if turn.raw is not None and with_tool_calls:
            # Keep every block the model sent, in its order (text, tool_use, thinking, ...).
            blocks = [b.model_dump(mode="json", exclude_none=True) for b in turn.raw.content]
        else:
            blocks = [{"type": "text", "text": t} for t in turn.text_blocks]
            if with_tool_calls:
                blocks += [
                    {"type": "tool_use", "id": c.id, "name": c.name, "input": json.loads(c.arguments or "{}")}
                    for c in turn.tool_calls
                ]
        # The API rejects empty text blocks in the history.
        blocks = [b for b in blocks if not (b.get("type") == "text" and not b.get("text"))]
        return {"role": "assistant", "content": blocks} if blocks else None

    def tool_result_messages(self, results: Sequence[ToolResult]) -> list[dict[str, Any]]:
        blocks = []
        for r in results:
            block: dict[str, Any] = {"type": "tool_result", "tool_use_id": r.call_id}
            if r.content:
                block["content"] = r.content
            if r.is_error:
                block["is_error"] = True
            blocks.append(block)
        return [{"role": "user", "content": blocks}] if blocks else []


def adapter_for(api: ApiName) -> OpenAIAdapter | AnthropicAdapter:
    return OpenAIAdapter() if api == "openai" else AnthropicAdapter()
