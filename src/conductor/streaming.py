"""Streaming a whole tool run: ``llm.stream(...)`` and ``llm.astream(...)``.

The same round loop as ``llm.run`` (the one :class:`~conductor.rounds.Conversation`
decides every step: round limit, forced final answer, call ids, stop rules),
driven with streamed requests. Each request is read as server-sent events
through the official SDK: the text is handed on delta by delta while the SDK
assembles the whole message (OpenAI: ``ChatCompletionStreamState`` over
``chat.completions.create(stream=True)``, tool-call arguments joined from their
``tool_calls`` deltas; Anthropic: ``messages.stream``, tool inputs joined from
``input_json_delta`` events). Only the assembled message, a real
``ChatCompletion`` or ``Message``, goes to the conversation, so a streamed run
and a plain run record the same turns.

Events, in order, for each model request::

    RoundStart           a request is sent (request 1, 2, ...)
    TextDelta ...        the model's text as it arrives
    ToolStart ...        for each call the model asked for, just before the turn's calls run
    ToolEnd ...          for each call, after the turn's calls ran (in call order)

and one :class:`Done` at the end, holding the same :class:`~conductor.rounds.RunResult`
``llm.run`` returns.

An error in the middle of a stream (an ``error`` event, a dropped connection,
a stream that ends before the model finished) raises :class:`StreamInterrupted`,
chained to the SDK's error. The half-received turn is never added to the
conversation: nothing the model did not finish saying is sent back to it.
The SDKs retry errors that come before a stream opens (429, 5xx), but not an
error inside a stream, which this module does not retry either: the learner
has already seen part of the answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import sys
import time
from collections.abc import AsyncIterable, AsyncIterator, Generator, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

from . import display
from .apis.base import Finished, Opened, StreamIncomplete, WireApi
from .budget import DeadlineReached
from .trace import ToolCallRecord
from .types import ToolCall

if TYPE_CHECKING:
    from .pricing import ModelPrice
    from .rounds import Conversation, RunResult


class LLM(Protocol):
    """What a streamed run calls on the :class:`conductor.providers.LLM` driving it (``llm.stream`` passes itself;
    this module sits below ``providers`` and names only these)."""

    prices: ModelPrice

    def _stream_request(self, conversation: Conversation, request: dict[str, Any], index: int) -> Iterator[Any]: ...

    def _astream_request(
        self, conversation: Conversation, request: dict[str, Any], index: int
    ) -> AsyncIterator[Any]: ...

    def _execute(
        self, conversation: Conversation, calls: list[ToolCall], *, parallel: bool, max_workers: int
    ) -> list[ToolCallRecord]: ...

    async def _aexecute(
        self, conversation: Conversation, calls: list[ToolCall], *, parallel: bool, max_workers: int
    ) -> list[ToolCallRecord]: ...

    def _keep_partial(self, conversation: Conversation, exc: Exception) -> None: ...

    def _result(self, conversation: Conversation) -> RunResult: ...


__all__ = [
    "Done",
    "Finished",
    "RoundStart",
    "StreamEvent",
    "StreamInterrupted",
    "TextDelta",
    "ToolEnd",
    "ToolStart",
    "aprint_stream",
    "astream_run",
    "astream_request",
    "print_stream",
    "stream_request",
    "stream_run",
]


# --- events -------------------------------------------------------------------------------
# ``at`` is seconds since the run started (the clock of the run's trace), so a
# notebook can measure time to first token without timing anything itself.


@dataclass(frozen=True)
class RoundStart:
    """A model request is about to be sent."""

    request: int  # 1-based, in the order sent
    tools_allowed: bool  # False on the forced final request (every tool round used)
    at: float
    type: Literal["round_start"] = field(default="round_start", init=False)


@dataclass(frozen=True)
class TextDelta:
    """A piece of the model's text (a refusal's text included), as it arrived."""

    text: str
    request: int
    at: float
    type: Literal["text"] = field(default="text", init=False)


@dataclass(frozen=True)
class ToolStart:
    """A call the model asked for is about to run (with its final call id and whole arguments)."""

    call: ToolCall
    round: int  # the tool round this call belongs to, 1-based
    at: float
    type: Literal["tool_start"] = field(default="tool_start", init=False)
    # What the call is doing, as a person reads it: the tool's progress= label ("Checking the weather in
    # 北京…"), else "Calling <name>…" (see Tool.describe).
    label: str = ""

    @property
    def name(self) -> str:
        return self.call.name

    @property
    def arguments(self) -> str:
        return self.call.arguments


@dataclass(frozen=True)
class ToolEnd:
    """A call has run: its record holds the output, error flag, timings and attempts."""

    record: ToolCallRecord
    round: int
    at: float
    type: Literal["tool_end"] = field(default="tool_end", init=False)

    @property
    def name(self) -> str:
        return self.record.name

    @property
    def output(self) -> str:
        return self.record.output

    @property
    def is_error(self) -> bool:
        return self.record.is_error


@dataclass(frozen=True)
class Done:
    """The run is over: ``result`` is what ``llm.run`` would have returned."""

    result: RunResult
    type: Literal["done"] = field(default="done", init=False)


StreamEvent = RoundStart | TextDelta | ToolStart | ToolEnd | Done


class StreamInterrupted(RuntimeError):
    """A model response broke off mid-stream.

    ``partial_text`` is what arrived before the break, ``request`` the 1-based
    request it belonged to. Nothing of that turn was added to the conversation.
    """

    def __init__(self, request: int, partial_text: str, cause: BaseException | str) -> None:
        self.request = request
        self.partial_text = partial_text
        reason = cause if isinstance(cause, str) else _describe(cause)
        super().__init__(
            f"the model's response to request {request} broke off mid-stream after "
            f"{len(partial_text)} characters of text ({reason}). The half-received turn was not added to "
            "the conversation, and an error inside a stream is not retried (by the SDK or here). The run so "
            "far, with any tool calls that already ran, is in this error's .result: continue from it with "
            "history=error.result.messages (asking from scratch would run those tools again)."
        )


def _describe(error: BaseException) -> str:
    """``Type: message``, and what caused it (an SDK's "Connection error." says little by itself)."""
    text = f"{type(error).__name__}: {error}"
    inner = error.__cause__
    return text if inner is None else f"{text}, caused by {type(inner).__name__}: {inner}"


# --- one streamed request -------------------------------------------------------------------


class _Received:
    """The text of one response so far, for the error message when it breaks off."""

    def __init__(self, request: int) -> None:
        self.request = request
        self.parts: list[str] = []

    def add(self, text: str) -> str:
        self.parts.append(text)
        return text

    def interrupted(self, cause: BaseException) -> StreamInterrupted:
        reason: BaseException | str = str(cause) if isinstance(cause, StreamIncomplete) else cause
        return StreamInterrupted(self.request, "".join(self.parts), reason)


@contextlib.contextmanager
def _breaks_off(received: _Received) -> Iterator[None]:
    """Turn any failure while reading an open stream into :class:`StreamInterrupted`."""
    try:
        yield
    except Exception as error:
        raise received.interrupted(error) from error


def _opened(api: WireApi, client: Any, request: dict[str, Any]) -> Iterator[Opened | str | Finished]:
    """``api``'s stream of ``request``, open: errors before it opens are the SDK's own (after its retries)."""
    items = api.stream(client, request)
    next(items)  # OPENED
    return items


async def _aopened(api: WireApi, client: Any, request: dict[str, Any]) -> AsyncIterator[Opened | str | Finished]:
    """:func:`_opened` with an async client."""
    items = api.astream(client, request)
    await anext(items)  # OPENED
    return items


def stream_request(
    client: Any, api: WireApi, request: dict[str, Any], index: int, *, conversation: Conversation | None = None
) -> Iterator[str | Finished]:
    """Send ``request`` streamed: its text deltas, then :class:`Finished` with the whole response.

    Errors before the stream opens are the SDK's own (after its retries);
    anything that goes wrong after is :class:`StreamInterrupted`. With
    ``conversation``, the stream is opened through the run's limits
    (:meth:`~conductor.budget.RunLimits.send`: under a deadline no retry ends past it).
    """
    received = _Received(index)
    opened = functools.partial(_opened, api)
    if conversation is None:
        items = opened(client, request)
    else:
        items = conversation.limits.send(conversation, client, opened, request)
    with contextlib.closing(items), _breaks_off(received):
        for item in items:
            yield item if isinstance(item, Finished) else received.add(item)  # type: ignore[arg-type]


async def astream_request(
    client: Any, api: WireApi, request: dict[str, Any], index: int, *, conversation: Conversation | None = None
) -> AsyncIterator[str | Finished]:
    """:func:`stream_request` for an async client."""
    received = _Received(index)
    opened = functools.partial(_aopened, api)
    if conversation is None:
        items = await opened(client, request)
    else:
        items = await conversation.limits.asend(conversation, client, opened, request)
    async with contextlib.aclosing(items):
        with _breaks_off(received):
            async for item in items:
                yield item if isinstance(item, Finished) else received.add(item)  # type: ignore[arg-type]


async def in_thread(items: Iterator[Any]) -> AsyncIterator[Any]:
    """Iterate a blocking iterator (a sync client's stream) without blocking the event loop."""
    done = object()
    while (item := await asyncio.to_thread(next, items, done)) is not done:
        yield item


# --- the round loop, streamed ---------------------------------------------------------------


def _since(conversation: Conversation) -> float:
    return time.perf_counter() - conversation.origin


def _tool_starts(conversation: Conversation, calls: list[ToolCall]) -> list[ToolStart]:
    round_index = len(conversation.rounds) + 1
    return [ToolStart(call, round_index, _since(conversation), label=_label(conversation, call)) for call in calls]


def _label(conversation: Conversation, call: ToolCall) -> str:
    tools = conversation.tools
    if call.name not in tools:
        return f"Calling {call.name}…"
    try:
        arguments = call.parsed_arguments()
    except ValueError:
        arguments = {}
    earlier = sum(c.name == call.name for r in conversation.rounds for c in r.tool_calls)
    return tools.get(call.name).describe(arguments if isinstance(arguments, dict) else {}, earlier)


def _tool_ends(conversation: Conversation) -> list[ToolEnd]:
    last = conversation.rounds[-1]
    return [ToolEnd(record, last.index, _since(conversation)) for record in last.tool_calls]


def _streamed(
    llm: LLM, conversation: Conversation, request: dict[str, Any], index: int
) -> Generator[TextDelta, None, Any]:
    """Yield one streamed request's text deltas; return the whole message the SDK assembled.

    The stream is closed however this ends (the reader may leave between deltas), and
    left at the deadline: a blocking read cannot be cut short, so it is checked between them.
    """
    response = None
    limits = conversation.limits
    with contextlib.closing(llm._stream_request(conversation, request, index)) as items:
        for item in items:
            if isinstance(item, Finished):
                response = item.response
                continue
            if limits.time_left(conversation) <= 0:
                raise DeadlineReached(f"the response was still streaming at the deadline ({limits.deadline:g} s)")
            yield TextDelta(item, index, _since(conversation))
    return response


def stream_run(llm: LLM, conversation: Conversation, *, parallel: bool, max_workers: int) -> Iterator[StreamEvent]:
    """Drive ``conversation`` with streamed requests, yielding events (see the module docstring).

    The steps are ``LLM._drive``'s, with the run's limits (budget, deadline, pacing) around each request.
    """
    limits = conversation.limits
    limits.require_prices([llm.prices])
    try:
        while (request := conversation.next_request()) is not None:
            if not limits.pace(conversation, request):  # a rate limit's wait would pass the deadline
                continue
            index = len(conversation.model_calls) + 1
            yield RoundStart(index, conversation.tools_allowed, _since(conversation))
            started = time.perf_counter()
            try:
                response = yield from _streamed(llm, conversation, request, index)
            except Exception as exc:
                if not limits.overran(conversation, exc):
                    raise
                continue
            if response is None and conversation.final is not None:  # stopped by a model fallback's switch
                continue
            calls = conversation.receive(response, started, time.perf_counter())
            if calls:
                yield from _tool_starts(conversation, calls)
                conversation.add_results(llm._execute(conversation, calls, parallel=parallel, max_workers=max_workers))
                yield from _tool_ends(conversation)
    except Exception as exc:
        llm._keep_partial(conversation, exc)  # StreamInterrupted and the rest carry the run so far
        raise
    finally:
        limits.abandon()  # a request that broke off: its reservation back, or spent if it may be billed
    yield Done(llm._result(conversation))


async def astream_run(
    llm: LLM, conversation: Conversation, *, parallel: bool, max_workers: int
) -> AsyncIterator[StreamEvent]:
    """:func:`stream_run` on the event loop: async tools run as tasks, sync ones in threads."""
    limits = conversation.limits
    limits.require_prices([llm.prices])
    try:
        while (request := conversation.next_request()) is not None:
            if not await limits.apace(conversation, request):
                continue
            index = len(conversation.model_calls) + 1
            yield RoundStart(index, conversation.tools_allowed, _since(conversation))
            started = time.perf_counter()
            response = None
            try:
                # Closed however this ends (the reader may leave between deltas); each read is cut at the deadline.
                async with contextlib.aclosing(llm._astream_request(conversation, request, index)) as items:
                    while (item := await limits.within_deadline(conversation, anext(items, None))) is not None:
                        if isinstance(item, Finished):
                            response = item.response
                        else:
                            yield TextDelta(item, index, _since(conversation))
            except Exception as exc:
                if not limits.overran(conversation, exc):
                    raise
                continue
            if response is None and conversation.final is not None:  # stopped by a model fallback's switch
                continue
            calls = conversation.receive(response, started, time.perf_counter())
            if calls:
                for event in _tool_starts(conversation, calls):
                    yield event
                records = await llm._aexecute(conversation, calls, parallel=parallel, max_workers=max_workers)
                conversation.add_results(records)
                for end in _tool_ends(conversation):
                    yield end
    except Exception as exc:
        llm._keep_partial(conversation, exc)
        raise
    finally:
        limits.abandon()
    yield Done(llm._result(conversation))


# --- showing a stream as a chat app would ---------------------------------------------------



def call_label(name: str, arguments: str) -> str:
    """``get_weather(city='北京')``: a call as a person reads it (the raw text when it is not a JSON object)."""
    try:
        values = json.loads(arguments or "{}")
    except ValueError:
        return f"{name}({arguments})"
    if not isinstance(values, dict):
        return f"{name}({arguments})"
    return f"{name}({', '.join(f'{key}={value!r}' for key, value in values.items())})"


class _Wrapper:
    """Writes streamed text wrapped at ``columns`` display columns, as it arrives.

    ``textwrap`` needs the whole text; a stream comes in pieces that may split a
    word, so each word is held until the space after it shows where it ends.
    Chinese text, which has no spaces, may break between any two characters.
    """

    def __init__(self, out: Any, columns: int) -> None:
        self.out = out
        self.columns = columns
        self.column = 0
        self.word = ""
        self.space = False  # a space is owed before the next word on this line

    def _emit(self, text: str) -> None:
        self.out.write(text)
        self.out.flush()

    def _place(self, word: str) -> None:
        needed = display.width(word) + (1 if self.space and self.column else 0)
        if self.column and self.column + needed > self.columns:
            self._emit("\n")
            self.column, self.space = 0, False
        if self.space and self.column:
            self._emit(" ")
            self.column += 1
        self._emit(word)
        self.column += display.width(word)
        self.space = False

    def _flush_word(self) -> None:
        if self.word:
            self._place(self.word)
            self.word = ""

    def write(self, text: str) -> None:
        for char in text:
            if char == "\n":
                self._flush_word()
                self._emit("\n")
                self.column, self.space = 0, False
            elif char.isspace():
                self._flush_word()
                self.space = True
            elif display.width(char) == 2:  # a wide (CJK) character is a word of its own
                self._flush_word()
                self._place(char)
            else:
                self.word += char

    def line(self, text: str, indent: str = "") -> None:
        """``text`` on a line of its own after ``indent``, clipped to the width."""
        self.end()
        self._emit(indent + display.clip(text, self.columns - display.width(indent)) + "\n")

    def end(self) -> None:
        """Finish the current line, if one is open."""
        self._flush_word()
        if self.column:
            self._emit("\n")
        self.column, self.space = 0, False


def _show(writer: _Wrapper, event: StreamEvent, progress: str | None) -> RunResult | None:
    if isinstance(event, TextDelta):
        writer.write(event.text)
    elif isinstance(event, ToolStart):
        writer.line(event.label if progress is None else f"{progress} {call_label(event.name, event.arguments)}")
    elif isinstance(event, ToolEnd):
        writer.line(f"{'error from' if event.is_error else 'got'} {event.name}: {event.output}", indent="  ")
    elif isinstance(event, Done):
        writer.end()
        return event.result
    return None


@contextlib.contextmanager
def _shows_all(writer: _Wrapper) -> Iterator[None]:
    """When the stream breaks off, still show the last word that arrived, and end its line."""
    try:
        yield
    except BaseException:
        writer.end()
        raise


def _no_done() -> RuntimeError:
    return RuntimeError("the events ended without a 'done' event: pass the whole llm.stream(...) to print_stream")


def print_stream(
    events: Iterable[StreamEvent], *, file: Any = None, columns: int = display.LINE_WIDTH, progress: str | None = None
) -> RunResult:
    """Show ``llm.stream(...)`` as a chat app would, and return its result.

    The text is printed as it arrives (wrapped at ``columns``), each tool call
    gets a progress line, the tool's own label (``Checking the weather in 北京…``, from
    ``@cd.tool(progress=...)``) or ``progress`` and the call (``Working… get_weather(city='北京')``),
    and a line with what it returned.
    """
    writer = _Wrapper(file or sys.stdout, columns)
    with _shows_all(writer):
        for event in events:
            if (result := _show(writer, event, progress)) is not None:
                return result
    raise _no_done()


async def aprint_stream(
    events: AsyncIterable[StreamEvent],
    *,
    file: Any = None,
    columns: int = display.LINE_WIDTH,
    progress: str | None = None,
) -> RunResult:
    """:func:`print_stream` for ``llm.astream(...)``."""
    writer = _Wrapper(file or sys.stdout, columns)
    with _shows_all(writer):
        async for event in events:
            if (result := _show(writer, event, progress)) is not None:
                return result
    raise _no_done()
