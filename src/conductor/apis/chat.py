"""OpenAI Chat Completions <-> the neutral conversation.

The format most tutorials and every OpenAI-compatible server (Ollama, vLLM,
llama.cpp) speak: ``messages`` with roles, ``tool_calls`` on assistant messages,
``tool`` messages answering them by ``tool_call_id``. Assistant turns are rebuilt
from the fields a request may carry, never by dumping the response back
(responses hold ``annotations`` and ``refusal``, which requests must not).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Any

from ..types import Message, StopReason, SystemMessage, ToolCall, ToolResult, Turn, Usage, UserMessage
from ..tokens import hidden_prompt_tokens
from .base import HiddenPrompt
from .parts import Draft, Part, add_parts
from .tool_schemas import chat_tool
from .base import (
    OPENED,
    ApiName,
    Finished,
    Opened,
    RequestSettings,
    StreamIncomplete,
    ToolChoice,
    hosted_tools_for,
    map_stop,
    only_allowed,
    plain_text,
    takes_openai_fields,
)

OPENAI_STOP = {
    "stop": StopReason.END_TURN,
    "tool_calls": StopReason.TOOL_USE,
    "function_call": StopReason.TOOL_USE,
    "length": StopReason.MAX_TOKENS,
    "content_filter": StopReason.REFUSAL,
}
ERROR_PREFIX = "Error: "  # how an error result reads in Chat Completions, which has no error flag


class ChatApi:
    """OpenAI Chat Completions <-> neutral conversation."""

    api: ApiName = "chat"

    def __init__(self, base_url: Any = None) -> None:
        """``base_url``: the server the requests go to (None: OpenAI's own); see :func:`.base.takes_openai_fields`."""
        self.openai_fields = takes_openai_fields(base_url)

    # -- requests ------------------------------------------------------------------------

    def render(self, messages: Sequence[Message], into: list[dict[str, Any]], *, model: str) -> None:
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

    def request(
        self,
        settings: RequestSettings,
        messages: list[dict[str, Any]],
        *,
        tools_allowed: bool,
        continued: tuple[str, int] | None = None,
        conversation: Sequence[Message] = (),
    ) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"model": settings.model, "messages": list(messages), **settings.options}
        if settings.max_tokens is not None:
            kwargs["max_completion_tokens"] = settings.max_tokens
        hosted_tools_for(settings, self.api)  # Chat Completions has no hosted tools: a fallback's run goes without
        # A compatible server may reject tool_choice allowed_tools: it gets only the allowed tools instead.
        restricted = settings.allowed_tools is not None and not self.openai_fields
        tools = only_allowed(settings) if restricted else settings.tools
        if len(tools):
            # OpenAI allows tool_choice and parallel_tool_calls only beside tools.
            kwargs["tools"] = [chat_tool(t) for t in tools]
            choice = settings.tool_choice if tools_allowed else ToolChoice("none")
            if settings.allowed_tools is not None and not restricted and choice.mode in ("auto", "required"):
                # Every tool stays in the request (the cached prefix holds); tool_choice restricts the calls.
                allowed = set(settings.allowed_tools)  # those sent now: a search may have loaded more since the start
                names = [{"type": "function", "function": {"name": t.name}} for t in settings.tools if t.name in allowed]
                kwargs["tool_choice"] = {"type": "allowed_tools", "allowed_tools": {"mode": choice.mode, "tools": names}}
            elif choice.mode != "auto":  # auto is the API's default beside tools (and costs the SDK ~18 us to send)
                kwargs["tool_choice"] = self._tool_choice(choice)
            if settings.parallel_tool_calls is not None:
                kwargs["parallel_tool_calls"] = settings.parallel_tool_calls
        # Chat Completions carries no tool parts (no tool search, no programs): only the request's.
        add_parts(kwargs, PARTS, Draft(settings, tools_allowed, conversation, self.openai_fields), "request")
        return kwargs

    @staticmethod
    def _tool_choice(choice: ToolChoice) -> Any:
        if choice.mode == "tool":
            return {"type": "function", "function": {"name": choice.name}}
        return choice.mode

    def prompt_extras(self, request: dict[str, Any]) -> dict[str, Any]:
        extras: dict[str, Any] = {"tools": request["tools"]} if "tools" in request else {}  # system text is a message
        if hidden := hidden_prompt_tokens("chat", request):  # a reasoning model's tool instructions (conductor.tokens)
            extras["hidden_prompts"] = HiddenPrompt(hidden)
        return extras

    def output_limit(self, request: dict[str, Any], default: int) -> int:
        for key in ("max_completion_tokens", "max_tokens"):  # max_tokens: the older name, still accepted
            if request.get(key) is not None:
                return int(request[key])
        request["max_completion_tokens"] = default
        return default

    def create(self, client: Any, kwargs: dict[str, Any]) -> Any:
        return client.chat.completions.create(**kwargs)

    async def acreate(self, client: Any, kwargs: dict[str, Any]) -> Any:
        return await client.chat.completions.create(**kwargs)

    # -- streaming -----------------------------------------------------------------------
    # The SDK's ChatCompletionStreamState assembles the chunks (tool-call arguments joined from
    # their deltas) into the ChatCompletion a plain request returns.

    @staticmethod
    def _stream_kwargs(kwargs: dict[str, Any]) -> dict[str, Any]:
        # include_usage adds a last chunk with the token counts, which the trace prices.
        return {**kwargs, "stream": True, "stream_options": kwargs.get("stream_options") or {"include_usage": True}}

    def stream(self, client: Any, kwargs: dict[str, Any]) -> Iterator[Opened | str | Finished]:
        from openai.lib.streaming.chat import ChatCompletionStreamState

        state = ChatCompletionStreamState()
        with client.chat.completions.create(**self._stream_kwargs(kwargs)) as stream:
            yield OPENED
            for chunk in stream:
                yield from _texts(state, chunk)
            yield Finished(_final(state))

    async def astream(self, client: Any, kwargs: dict[str, Any]) -> AsyncIterator[Opened | str | Finished]:
        from openai.lib.streaming.chat import ChatCompletionStreamState

        state = ChatCompletionStreamState()
        stream = await client.chat.completions.create(**self._stream_kwargs(kwargs))
        async with stream:
            yield OPENED
            async for chunk in stream:
                for text in _texts(state, chunk):
                    yield text
            yield Finished(_final(state))

    # -- responses -----------------------------------------------------------------------

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
        stop = map_stop(choice.finish_reason, OPENAI_STOP)
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
            cache_write_tokens=(getattr(prompt, "cache_write_tokens", None) or 0) if prompt else 0,
            reasoning_tokens=(getattr(completion, "reasoning_tokens", None) or 0) if completion else 0,
        )

    # -- history -------------------------------------------------------------------------

    def read_history(self, index: int, entry: dict[str, Any]) -> list[Message] | None:
        """A Chat Completions message (the most general role-based form) as neutral messages."""
        role, content = entry.get("role"), entry.get("content")
        if role in ("system", "developer"):
            return [SystemMessage(plain_text(index, content))]
        if role == "user":
            return [UserMessage(plain_text(index, content))]
        if role == "tool":
            if not entry.get("tool_call_id"):
                raise ValueError(
                    f"history[{index}] is a tool message without 'tool_call_id'; add the id of the call it answers"
                )
            text = plain_text(index, content)
            is_error = text.startswith(ERROR_PREFIX)  # how render() wrote an error result
            return [ToolResult(entry["tool_call_id"], "", text.removeprefix(ERROR_PREFIX) if is_error else text, is_error)]
        if role != "assistant":
            return None
        texts = [content] if isinstance(content, str) else []
        for part in content if isinstance(content, list) else ():
            kind = part.get("type") if isinstance(part, dict) else None
            if kind == "text":
                texts.append(part.get("text") or "")
            elif kind == "refusal":  # a refusal part: the model's words to the user
                texts.append(part.get("refusal") or "")
            else:
                raise ValueError(
                    f"history[{index}] has an assistant block of type {kind!r}; history carries text, "
                    "thinking and tool_use blocks: leave the block out"
                )
        calls = []
        for call in entry.get("tool_calls") or ():
            function = call.get("function") if isinstance(call, dict) else None
            if not isinstance(function, dict) or not function.get("name"):
                raise ValueError(
                    f"history[{index}] has a malformed tool call {call!r}; write it as "
                    "{'id': ..., 'type': 'function', 'function': {'name': ..., 'arguments': '{...}'}}"
                )
            calls.append(ToolCall(call.get("id") or "", function["name"], function.get("arguments") or "{}"))
        return [Turn(text_blocks=tuple(t for t in texts if t), tool_calls=tuple(calls))]


def _final(state: Any) -> Any:
    """The assembled ChatCompletion; a cut or filtered answer is still an answer to record."""
    from openai import ContentFilterFinishReasonError, LengthFinishReasonError

    try:
        completion = state.current_completion_snapshot
    except AssertionError:  # the SDK's way of saying no chunk arrived
        raise StreamIncomplete("the stream ended before any chunk arrived") from None
    if not completion.choices or completion.choices[0].finish_reason is None:
        raise StreamIncomplete("the stream ended before the model finished (no finish_reason)")
    try:
        return state.get_final_completion()
    except (LengthFinishReasonError, ContentFilterFinishReasonError) as cut:
        return cut.completion


def _texts(state: Any, chunk: Any) -> Iterator[str]:
    for event in state.handle_chunk(chunk):
        if event.type in ("content.delta", "refusal.delta") and event.delta:
            yield event.delta


# -- the request features' parts (conductor.apis.parts) ---------------------------------------


def _cache_part(request: dict[str, Any], draft: Draft) -> None:
    """The prompt cache: the key that routes a run's requests to one cache (OpenAI's own servers only)."""
    settings = draft.settings
    if settings.cache is not False and settings.cache_key and draft.openai_fields:
        request.setdefault("prompt_cache_key", settings.cache_key)


PARTS: dict[str, Part] = {"cache": _cache_part}
