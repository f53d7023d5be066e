"""OpenTelemetry traces of conductor's runs, in the GenAI semantic conventions.

``cd.tracing.enable()`` turns them on; until then nothing is emitted and the loop pays one
flag check per hook (:data:`enabled`). The spans follow the OpenTelemetry semantic
conventions for generative AI as released in **semantic conventions 1.44.0**
(:data:`SEMCONV_VERSION`; the attribute names as the pinned opentelemetry-semantic-conventions
0.66b2 package ships them in ``opentelemetry.semconv._incubating.attributes.gen_ai_attributes``).
Their status is still "Development": the names may change in a later release, which is why
the version followed is pinned here and written into every span's instrumentation scope
(``schema_url``).

* ``invoke_agent conductor`` (INTERNAL): one per run (``llm.run``, ``arun``, ``stream``, a
  resumed run, each conversation of ``orch.run_many`` or of a batched run); the parent of
  every ``chat`` and ``execute_tool`` span of the run. ``gen_ai.conversation.id`` names the
  run; at its end, the run's usage, finish reason, cost and, when a guard or a limit ended it,
  ``conductor.stopped_by``. A run paused for approval ends its span with the pause's
  ``conductor.pause.token``; the resumed run is a new ``invoke_agent`` span whose
  ``conductor.resumed_from`` names it (its usage totals count the requests before the pause too).
* ``chat {model}`` (CLIENT): one per model request: ``gen_ai.operation.name``,
  ``gen_ai.provider.name``, ``gen_ai.request.model``, ``gen_ai.response.model``,
  ``gen_ai.response.finish_reasons``, ``gen_ai.usage.input_tokens`` (every prompt token,
  cached ones included, as the conventions ask), ``gen_ai.usage.output_tokens``,
  ``gen_ai.usage.cache_read.input_tokens`` (and, when the API reported some,
  ``gen_ai.usage.cache_creation.input_tokens`` and ``gen_ai.usage.reasoning.output_tokens``),
  ``gen_ai.conversation.id``, the request's price as ``conductor.cost.usd`` and conductor's
  stop reason (``conductor.stop_reason``; the API's own is in the finish reasons). The span is
  current while the request is sent (spans made while sending it, an HTTP client's, nest under
  it; each try of a model fallback has its own), and a request that raises ends it with
  ``error.type``. A streamed request or a provider batch's line gets its span when its response
  is read. It is the request's only ``chat`` span: see :func:`client_for` for the SDK's own.
* ``execute_tool {name}`` (INTERNAL): one per tool call that runs: ``gen_ai.tool.name``,
  ``gen_ai.tool.call.id``, ``gen_ai.tool.type``, and ``error.type`` with an error status when
  the call failed. The arguments (``gen_ai.tool.call.arguments``) and the result
  (``gen_ai.tool.call.result``) are opt-in, as the conventions say: only with
  ``capture_content=True``, since they hold whatever the user and the tools said.
* MCP calls: the MCP SDK emits its own ``tools/call {tool}`` and ``tools/list`` CLIENT spans
  (``mcp.method.name``, ``jsonrpc.request.id``); they nest under the ``execute_tool`` span of the
  call that made them, since the call's context goes with it to the connection's loop.
* The Anthropic SDK emits a span of its own for each request (``anthropic.messages.create``, a
  ``chat`` operation with the request's usage), which would count every Messages request twice
  beside conductor's ``chat`` span: while tracing is on, conductor sends its requests through a
  copy of the client with the SDK's spans off (:func:`client_for`). A request sent by hand with
  ``llm.client`` keeps the SDK's span, its only one.
* ``batch {id}``: a batched run (``orch.run_many(..., via="batch")``), the parent of its
  conversations' ``invoke_agent`` spans and of one ``batch_round {n}`` span per provider batch;
  ``orch.run_many`` directly: one ``run_many`` span over its conversations' runs.

The spans go to the global tracer provider: a learner's own (``trace.set_tracer_provider``,
Logfire, Phoenix) is used as it is; with none set, ``enable`` sets an SDK provider of its
own, and ``exporter=None`` then exports with OTLP over HTTP when the standard environment variables
name an endpoint (``OTEL_EXPORTER_OTLP_ENDPOINT`` or ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``,
with ``OTEL_EXPORTER_OTLP_HEADERS`` and the rest read by the exporter itself); any
``SpanExporter`` (or ``SpanProcessor``) may be passed instead. Either way the last
:data:`KEPT` spans are also kept in memory, for :func:`spans`, :func:`tree` and
:func:`trace_of` in a notebook.
"""

from __future__ import annotations

import functools
import inspect
import json
import logging
import os
import threading
import time
import uuid
import weakref
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from . import display

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import ReadableSpan
    from opentelemetry.trace import Span

    from .records import ModelCall
    from .state import RunOutcome as RunResult  # the loop's objects, as the hooks read them
    from .state import RunState as Conversation
    from .trace import Trace
    from .types import ToolCall, Turn

logger = logging.getLogger(__name__)

SEMCONV_VERSION = "1.44.0"  # the GenAI semantic conventions followed (status "Development")
SCHEMA_URL = f"https://opentelemetry.io/schemas/{SEMCONV_VERSION}"
AGENT_NAME = "conductor"
KEPT = 10_000  # finished spans kept in memory for spans() / tree(): the newest, once more are made

# The hook points check this first: tracing off costs one attribute read per hook.
enabled = False
capture_content = False

F = TypeVar("F", bound=Callable[..., Any])

_lock = threading.Lock()
_tracer: Any = None
_switch: Any = None  # our SpanProcessor on the provider: forwards to the exporter in use and keeps the recent spans
_OFFSET_NS = time.time_ns() - time.perf_counter_ns()  # perf_counter -> epoch nanoseconds
_api: Any = None  # the OpenTelemetry API's pieces the hooks use, imported once by enable()
_own_provider = False  # enable() set the global tracer provider (no one had): OTLP from the environment is ours to add
_untraced: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()  # client -> its copy without SDK spans
_untraced_lock = threading.Lock()


def _load_api() -> Any:
    from types import SimpleNamespace

    from opentelemetry import context, trace
    from opentelemetry.trace import SpanKind, Status, StatusCode

    return SimpleNamespace(attach=context.attach, detach=context.detach, in_context=trace.set_span_in_context,
                           CLIENT=SpanKind.CLIENT, INTERNAL=SpanKind.INTERNAL,
                           error=lambda kind: Status(StatusCode.ERROR, kind))


# -- turning it on and off ---------------------------------------------------------------------------------


def enable(exporter: Any = None, *, capture_content: bool = False) -> None:
    """Emit OpenTelemetry spans for every run from now on (see the module's docstring for which).

    ``exporter``: a ``SpanExporter`` (sent span by span, e.g. ``InMemorySpanExporter()``,
    ``ConsoleSpanExporter()``), a ``SpanProcessor`` (used as given, e.g. a
    ``BatchSpanProcessor``), or None: OTLP over HTTP when ``OTEL_EXPORTER_OTLP_ENDPOINT`` or
    ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`` is set, else only the spans kept in memory. A
    tracer provider set before the first ``enable`` (your own, Logfire's) is used as it is,
    and exports where it was set up to (``exporter=None`` adds no OTLP export to it, whatever the
    environment says: it would send every span twice); with none, ``enable`` sets an SDK provider of its
    own as the process's (after that, another cannot be set: set yours first).
    ``capture_content=True`` adds each tool call's arguments and result to its span: they
    then reach whoever reads the traces. Calling ``enable`` again replaces the exporter (the one
    before is flushed and shut down, unless it is the same exporter again).
    """
    global enabled, _tracer, _switch, _api, _own_provider
    globals()["capture_content"] = bool(capture_content)
    _api = _api or _load_api()
    with _lock:
        if _switch is None:
            provider, _own_provider = _provider()
            _switch = _make_switch()
            provider.add_span_processor(_switch)
            from opentelemetry import trace

            _tracer = trace.get_tracer("conductor", _version(), schema_url=SCHEMA_URL)
        _switch.use(_processor_for(exporter, from_environment=_own_provider))
        enabled = True
    logger.info("tracing on (GenAI semantic conventions %s), capture_content=%s", SEMCONV_VERSION, capture_content)


def disable() -> None:
    """Stop emitting spans (the ones already made stay in :func:`spans`). The exporter is flushed and parked:
    ``enable`` with the same exporter goes on with it, ``enable`` with another shuts it down."""
    global enabled
    with _lock:
        enabled = False
        if _switch is not None:
            _switch.park()


@contextmanager
def enabled_for(exporter: Any = None, *, capture_content: bool = False) -> Iterator[None]:
    """``with cd.tracing.enabled_for(...):`` tracing on inside the block; after it, tracing is as it was before.

    On or off, the same ``capture_content``, and the exporter in use (or parked) before the block
    sends the spans again, untouched: the block only borrows its place, whatever the block enables
    or disables inside. The block's own exporter is flushed at its end and shut down, unless tracing
    was off with nothing parked: then it stays parked, as after :func:`disable`.
    """
    global enabled
    with _lock:
        was, captured = enabled, globals()["capture_content"]
        aside = _switch.set_aside() if _switch is not None else (None, None)
    try:
        enable(exporter, capture_content=capture_content)
        yield
    finally:
        with _lock:
            enabled = was
            globals()["capture_content"] = captured
            if _switch is not None:
                _switch.restore(aside, park=not was)


def _version() -> str:
    from .version import __version__

    return __version__


def _provider() -> tuple[Any, bool]:
    """The global tracer provider when it takes processors (a learner's own, or one set earlier); else an SDK
    provider of our own, made global. With whether it is ours."""
    from opentelemetry import trace

    current = trace.get_tracer_provider()
    inner = getattr(current, "provider", current)  # Logfire wraps the SDK provider in a proxy of its own
    if hasattr(inner, "add_span_processor"):
        return inner, False
    if type(current).__name__ != "ProxyTracerProvider":
        raise RuntimeError(
            f"the global tracer provider ({type(current).__qualname__}) takes no span processors; "
            "set an opentelemetry.sdk.trace.TracerProvider before cd.tracing.enable()"
        )
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider

    provider = TracerProvider(resource=Resource.create({"service.name": os.environ.get("OTEL_SERVICE_NAME",
                                                                                         "conductor")}))
    trace.set_tracer_provider(provider)
    return provider, True


def _processor_for(exporter: Any, *, from_environment: bool) -> Any:
    """The processor for ``exporter``; for None, OTLP when the environment names an endpoint and the provider is
    ours (a learner's own provider exports where its owner set it up: adding OTLP would send every span twice)."""
    from opentelemetry.sdk.trace import SpanProcessor
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExporter

    if exporter is None:
        named = os.environ.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") or os.environ.get("OTEL_EXPORTER_OTLP_ENDPOINT")
        if from_environment and named:
            # Loaded only here: the OTLP exporter (protobuf, requests) is not needed by anyone else.
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
            from opentelemetry.sdk.trace.export import BatchSpanProcessor

            return BatchSpanProcessor(OTLPSpanExporter())
        return None
    if isinstance(exporter, SpanProcessor):
        return exporter
    if isinstance(exporter, SpanExporter):
        return SimpleSpanProcessor(exporter)
    raise TypeError(
        f"exporter= takes an OpenTelemetry SpanExporter or SpanProcessor (or None for OTLP from the environment), "
        f"got {type(exporter).__name__}"
    )


def _make_switch() -> Any:
    from opentelemetry.sdk.trace import SpanProcessor

    class Switch(SpanProcessor):
        """Keeps the newest finished spans and hands every span to the processor in use (none when off).

        A processor it stops using is flushed and shut down (its exporter with it: a BatchSpanProcessor's
        thread, an OTLP session), except while another one it keeps sends to the same exporter, since
        shutting it down would stop that one too (a test's in-memory exporter, enabled again).
        """

        def __init__(self) -> None:
            self.inner: Any = None
            self.parked: Any = None  # the processor in use when tracing was disabled, until an enable decides
            self.kept: deque[ReadableSpan] = deque(maxlen=KEPT)

        def use(self, processor: Any) -> None:
            """Send spans to ``processor`` (None: nowhere but :func:`spans`); the ones in use or parked before go."""
            self._let_go((self.inner, self.parked), keeping=(processor,))
            self.inner, self.parked = processor, None

        def park(self) -> None:
            """Tracing off: the processor in use is flushed and parked for :meth:`use` to take back or let go."""
            if self.inner is None:
                return
            self.inner.force_flush()
            self._let_go((self.parked,), keeping=(self.inner,))
            self.inner, self.parked = None, self.inner

        def set_aside(self) -> tuple[Any, Any]:
            """Take the processors in use and parked out, untouched, for :meth:`restore` to put back."""
            aside, self.inner, self.parked = (self.inner, self.parked), None, None
            return aside

        def restore(self, aside: tuple[Any, Any], *, park: bool) -> None:
            """Put back what :meth:`set_aside` took. The processors used since go, unless ``park`` (tracing
            was off) and nothing was parked: then the last one is parked, as :func:`disable` would."""
            inner, parked = aside
            since = [p for p in (self.inner, self.parked) if p is not None and p is not inner and p is not parked]
            if park and since and inner is None and parked is None:
                since[0].force_flush()
                parked = since.pop(0)  # the one in use (or, after a disable in the block, the parked one)
            self._let_go(since, keeping=(inner, parked))
            self.inner, self.parked = inner, parked

        @staticmethod
        def _let_go(processors: Sequence[Any], *, keeping: Sequence[Any]) -> None:
            kept = [p for p in keeping if p is not None]
            shared = {id(getattr(p, "span_exporter", None)) for p in kept} - {id(None)}
            gone: list[Any] = []
            for old in processors:
                if old is None or any(old is p for p in kept) or any(old is p for p in gone):
                    continue
                gone.append(old)
                if id(getattr(old, "span_exporter", None)) in shared:
                    old.force_flush()  # its exporter goes on under a processor kept
                else:
                    old.shutdown()  # flushes what it still holds first

        def on_start(self, span: Any, parent_context: Any = None) -> None:
            inner = self.inner
            if inner is not None:
                inner.on_start(span, parent_context=parent_context)

        def on_end(self, span: ReadableSpan) -> None:
            if span.instrumentation_scope is not None and span.instrumentation_scope.name == "conductor":
                self.kept.append(span)
            inner = self.inner
            if inner is not None:
                inner.on_end(span)

        def shutdown(self) -> None:
            self._let_go((self.inner, self.parked), keeping=())

        def force_flush(self, timeout_millis: int = 30000) -> bool:
            return self.inner.force_flush(timeout_millis) if self.inner is not None else True

    return Switch()


def spans() -> list[ReadableSpan]:
    """conductor's finished spans, oldest first (the last :data:`KEPT` since tracing was first enabled)."""
    return list(_switch.kept) if _switch is not None else []


def clear() -> None:
    """Forget the spans kept in memory (the exporter has its own)."""
    if _switch is not None:
        _switch.kept.clear()


def flush() -> None:
    """Send the spans an exporter still holds (a BatchSpanProcessor sends every few seconds by itself)."""
    if _switch is not None:
        _switch.force_flush()


# -- the spans of a run ------------------------------------------------------------------------------------


@dataclass
class _RunSpan:
    """The ``invoke_agent`` span of one conversation, kept on it."""

    span: Any
    conversation_id: str
    owned: bool  # a driver (run, arun) made it and ends it; otherwise the run's result() ends it
    ended: bool = False


def _ns(perf: float) -> int:
    return int(perf * 1e9) + _OFFSET_NS


def _agent(conversation: Conversation, *, owned: bool = False) -> _RunSpan:
    """The run's ``invoke_agent`` span, started (from the run's own start) if it has none yet."""
    run: _RunSpan | None = conversation.__dict__.get("_otel")
    if run is not None and not run.ended:
        return run
    conversation_id = uuid.uuid4().hex
    attributes = {
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.agent.name": AGENT_NAME,
        "gen_ai.conversation.id": conversation_id,
        "gen_ai.provider.name": conversation.provider or "unknown",
        "gen_ai.request.model": conversation.settings.model,
        "conductor.api": conversation.adapter.api,
    }
    resumed = getattr(conversation, "_pause_token", "")
    if resumed:  # a paused run resumed: the pause its first part ended with (conductor.pause.token)
        attributes["conductor.resumed_from"] = resumed
    span = _tracer.start_span(f"invoke_agent {AGENT_NAME}", kind=_api.INTERNAL, attributes=attributes,
                              start_time=_ns(conversation.origin))
    run = _RunSpan(span, conversation_id, owned)
    conversation.__dict__["_otel"] = run
    return run


def traced_run(of: Callable[..., Conversation | None] | None = None, *, owns: bool = True) -> Callable[[F], F]:
    """A step of a run (``LLM._drive``, a turn's tool calls): the run's ``invoke_agent`` span is current inside it.

    ``of(*args)`` gives the conversation (default: the second positional argument, after ``self``).
    A driver (``owns=True``) that started the span ends it, with ``error.type`` if the run raised;
    a step that started it (the calls a resumed run makes before its driver) leaves it to the
    run's ``result()`` or to the driver that follows.
    """
    def conversation_of(args: tuple[Any, ...]) -> Conversation | None:
        return of(*args) if of is not None else args[1]

    def decorate(function: F) -> F:
        if inspect.iscoroutinefunction(function):

            @functools.wraps(function)
            async def arun(*args: Any, **kwargs: Any) -> Any:
                if not enabled:
                    return await function(*args, **kwargs)
                with _current_run(conversation_of(args), owns):
                    return await function(*args, **kwargs)

            return arun  # type: ignore[return-value]

        @functools.wraps(function)
        def run(*args: Any, **kwargs: Any) -> Any:
            if not enabled:
                return function(*args, **kwargs)
            with _current_run(conversation_of(args), owns):
                return function(*args, **kwargs)

        return run  # type: ignore[return-value]

    return decorate


@contextmanager
def _current_run(conversation: Conversation | None, owns: bool) -> Iterator[None]:
    if conversation is None:
        yield
        return
    live = conversation.__dict__.get("_otel")
    if live is not None and not live.ended and not live.owned and owns:
        live.owned = True  # a step started it (a resumed run's calls): the driver now ends it
        made, run = True, live
    else:
        made = (live is None or live.ended) and owns
        run = _agent(conversation, owned=owns) if live is None or live.ended else live
    token = _api.attach(_api.in_context(run.span))
    try:
        yield
    except BaseException as exc:
        if made and not run.ended:
            _failed(run.span, exc)
        raise
    finally:
        _api.detach(token)
        if made and not run.ended:
            run.ended = True
            run.span.end()


def _failed(span: Span, exc: BaseException) -> None:
    span.set_attribute("error.type", type(exc).__qualname__)
    span.set_status(_api.error(type(exc).__qualname__))


def chat(conversation: Conversation, call: ModelCall, turn: Turn) -> None:
    """The ``chat`` span of one model request, completed when its response is read (``Conversation.receive``).

    A request sent through :func:`traced_request` already has its span, live while it was sent (the
    spans made while sending it nest under it); any other (a stream, a provider batch's line) gets one
    now, from the request's measured start to its end.
    """
    run = _agent(conversation)
    usage = turn.usage
    attributes: dict[str, Any] = {
        **_request_attributes(conversation, run, call.model, call.provider),
        "gen_ai.response.model": turn.model or call.model,
        "gen_ai.response.finish_reasons": (turn.native_stop_reason or call.stop_reason.value,),
        "gen_ai.usage.input_tokens": usage.input_tokens,
        "gen_ai.usage.output_tokens": usage.output_tokens,
        "gen_ai.usage.cache_read.input_tokens": usage.cache_read_tokens,
        "conductor.cost.usd": call.cost,
        "conductor.stop_reason": call.stop_reason.value,
    }
    if usage.cache_write_tokens:
        attributes["gen_ai.usage.cache_creation.input_tokens"] = usage.cache_write_tokens
    if usage.reasoning_tokens:
        attributes["gen_ai.usage.reasoning.output_tokens"] = usage.reasoning_tokens
    if not call.tools_allowed:
        attributes["conductor.tools_allowed"] = False
    if turn.response_id:
        attributes["gen_ai.response.id"] = turn.response_id
    if call.batch_id:
        attributes["conductor.batch.id"] = call.batch_id
    span = conversation.__dict__.pop("_otel_chat", None)
    if span is None:
        span = _tracer.start_span(
            f"chat {call.model}", context=_api.in_context(run.span), kind=_api.CLIENT,
            attributes=attributes, start_time=_ns(conversation.origin + call.started),
        )
    else:
        span.set_attributes(attributes)
    span.end(end_time=_ns(conversation.origin + call.ended))


def _request_attributes(conversation: Conversation, run: _RunSpan, model: str, provider: str) -> dict[str, Any]:
    return {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": provider or conversation.provider or "unknown",
        "gen_ai.request.model": model,
        "gen_ai.conversation.id": run.conversation_id,
    }


def client_for(client: Any) -> Any:
    """The client conductor sends a request with: while tracing is on, a copy of ``client`` without the SDK's
    own span per request, if its SDK emits one; else ``client`` itself.

    The Anthropic SDK (2.12 and later) emits an ``anthropic.messages.create`` span for each request, a
    ``chat`` operation with the request's usage. Under conductor's ``chat`` span of the same request, a
    backend that sums ``gen_ai.usage.*`` over the ``chat`` spans would count the request's tokens twice.
    The SDK reads neither a per-request option nor OpenTelemetry's ``suppress_instrumentation`` context
    key, only its client's ``open_telemetry`` option, set when the client is built or copied: so the
    copy (one per client, sharing its connection pool) has the SDK's spans off, and the client as
    built is left alone (a request sent with it by hand keeps the SDK's span, the only one it has).
    The OpenAI SDK emits no spans of its own.
    """
    if not enabled:
        return client
    quiet = _untraced.get(client)
    if quiet is not None:
        return quiet
    options = getattr(client, "open_telemetry", None)
    if not isinstance(options, dict) or not options.get("traces", {}).get("enabled"):
        return client  # an OpenAI client, or an Anthropic one built with open_telemetry=False
    with _untraced_lock:
        quiet = _untraced.get(client)
        if quiet is None:
            # Only the span is switched off: the learner's other choices (propagation, content mode) stay.
            quiet = _untraced[client] = client.with_options(
                open_telemetry={**options, "traces": {**options["traces"], "enabled": False}})
    return quiet


def traced_request(function: F) -> F:
    """``LLM._create`` / ``_acreate``: the request's ``chat`` span, current while it is sent (a model fallback's
    every try gets one); a request that raises ends it with ``error.type``, else ``receive`` completes it."""
    def start(llm: Any, conversation: Conversation) -> Any:
        run = _agent(conversation)
        model = conversation.settings.model
        return _tracer.start_span(f"chat {model}", context=_api.in_context(run.span), kind=_api.CLIENT,
                                  attributes=_request_attributes(conversation, run, model, llm.provider))

    def settle(conversation: Conversation, span: Any, response: Any) -> Any:
        if response is None:  # nothing was sent (a fallback found the run stopped)
            span.end()
        else:
            conversation.__dict__["_otel_chat"] = span
        return response

    if inspect.iscoroutinefunction(function):

        @functools.wraps(function)
        async def asend(llm: Any, conversation: Conversation, request: Any) -> Any:
            if not enabled:
                return await function(llm, conversation, request)
            span = start(llm, conversation)
            token = _api.attach(_api.in_context(span))
            try:
                response = await function(llm, conversation, request)
            except BaseException as exc:
                _failed(span, exc)
                span.end()
                raise
            finally:
                _api.detach(token)
            return settle(conversation, span, response)

        return asend  # type: ignore[return-value]

    @functools.wraps(function)
    def send(llm: Any, conversation: Conversation, request: Any) -> Any:
        if not enabled:
            return function(llm, conversation, request)
        span = start(llm, conversation)
        token = _api.attach(_api.in_context(span))
        try:
            response = function(llm, conversation, request)
        except BaseException as exc:
            _failed(span, exc)
            span.end()
            raise
        finally:
            _api.detach(token)
        return settle(conversation, span, response)

    return send  # type: ignore[return-value]


def run_ended(conversation: Conversation, result: RunResult) -> None:
    """What the run came to, on its ``invoke_agent`` span; the span ends unless its driver ends it."""
    run: _RunSpan | None = conversation.__dict__.get("_otel")
    if run is None or run.ended:
        return
    usage = result.usage
    attributes = {
        "gen_ai.usage.input_tokens": usage.input_tokens,
        "gen_ai.usage.output_tokens": usage.output_tokens,
        "gen_ai.usage.cache_read.input_tokens": usage.cache_read_tokens,
        "gen_ai.response.finish_reasons": (result.native_stop_reason or result.stop_reason.value,),
        "conductor.cost.usd": result.cost,
    }
    if result.stopped_by:
        attributes["conductor.stopped_by"] = result.stopped_by
    if result.paused is not None:  # the span of the resumed run names it in conductor.resumed_from
        attributes["conductor.pause.token"] = result.paused.token
    run.span.set_attributes(attributes)
    if result.stopped_by == "error":
        run.span.set_attribute("error.type", "run_failed")
        run.span.set_status(_api.error("run_failed"))
    if not run.owned:
        run.ended = True
        run.span.end()


# -- tool calls ----------------------------------------------------------------------------------------------


def traced_result(function: F) -> F:
    """``Conversation.result``: the run's outcome on its ``invoke_agent`` span (see :func:`run_ended`)."""
    @functools.wraps(function)
    def result(conversation: Conversation, *args: Any, **kwargs: Any) -> Any:
        made = function(conversation, *args, **kwargs)
        if enabled:
            run_ended(conversation, made)
        return made

    return result  # type: ignore[return-value]


def traced_tool(function: F) -> F:
    """``execution.run_call`` / ``arun_call``: an ``execute_tool`` span around the call, current while it runs."""
    if inspect.iscoroutinefunction(function):

        @functools.wraps(function)
        async def arun(call: ToolCall, *args: Any, **kwargs: Any) -> Any:
            if not enabled:
                return await function(call, *args, **kwargs)
            with _tool_span(call) as span:
                return _tool_done(span, await function(call, *args, **kwargs))

        return arun  # type: ignore[return-value]

    @functools.wraps(function)
    def run(call: ToolCall, *args: Any, **kwargs: Any) -> Any:
        if not enabled:
            return function(call, *args, **kwargs)
        with _tool_span(call) as span:
            return _tool_done(span, function(call, *args, **kwargs))

    return run  # type: ignore[return-value]


@contextmanager
def _tool_span(call: ToolCall) -> Iterator[Any]:
    attributes = {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": call.name,
        "gen_ai.tool.call.id": call.id,
        "gen_ai.tool.type": "function",
    }
    if capture_content:
        attributes["gen_ai.tool.call.arguments"] = call.arguments
    span = _tracer.start_span(f"execute_tool {call.name}", kind=_api.INTERNAL, attributes=attributes)
    token = _api.attach(_api.in_context(span))
    try:
        yield span
    except BaseException as exc:
        _failed(span, exc)
        raise
    finally:
        _api.detach(token)
        span.end()


def _tool_done(span: Any, record: Any) -> Any:
    """The call's outcome on its span: ``error.type`` when it failed; its result only with capture_content."""
    if capture_content:
        span.set_attribute("gen_ai.tool.call.result", record.output)
    if record.is_error:
        kind = error_type(record.output)
        span.set_attribute("error.type", kind)
        # The status text is the error's class alone: the message may quote the arguments.
        span.set_status(_api.error(kind))
    if record.attempts:
        span.set_attribute("conductor.attempts", len(record.attempts))
    if record.fallback:
        span.set_attribute("conductor.fallback", record.fallback)
    return record


def error_type(output: str) -> str:
    """A low-cardinality ``error.type`` for a failed call's error text: the exception's class where the text
    starts with one (``ValueError: ...``), else ``tool_error``."""
    head, colon, _ = output.partition(":")
    if colon and head.isidentifier() and head[:1].isupper():
        return head
    if output.startswith("Invalid arguments") or "arguments" in output.split(":", 1)[0]:
        return "invalid_arguments"
    return "tool_error"


# -- MCP, batches, many runs ---------------------------------------------------------------------------------


def _traced_span(name: Callable[..., str], attributes: Callable[..., dict[str, Any]]) -> Callable[[F], F]:
    """An async method whose call is one span (``run_many``, a batched run), current while it runs."""
    def decorate(function: F) -> F:
        @functools.wraps(function)
        async def run(*args: Any, **kwargs: Any) -> Any:
            if not enabled:
                return await function(*args, **kwargs)
            with _tracer.start_as_current_span(name(*args, **kwargs), attributes=attributes(*args, **kwargs),
                                               record_exception=False) as span:
                try:
                    return await function(*args, **kwargs)
                except Exception as exc:
                    _failed(span, exc)
                    raise

        return run  # type: ignore[return-value]

    return decorate


traced_many = _traced_span(  # Orchestrator.run_many: one span over its conversations' runs
    lambda orch, questions, **options: "run_many",
    lambda orch, questions, **options: {"conductor.conversations": len(questions),
                                        "conductor.via": options.get("via", "direct")},
)
traced_batch = _traced_span(  # BatchRun.drive: one span over a batched run's conversations and rounds
    lambda run, **options: f"batch {run.state.id}",
    lambda run, **options: {"gen_ai.provider.name": run.llm.provider, "gen_ai.request.model": run.llm.model,
                            "conductor.batch.run_id": run.state.id, "conductor.conversations": len(run.items)},
)


def traced_batch_round(function: F) -> F:
    """``BatchRun._collect_round``: a ``batch_round {n}`` span from the round's submission to its answers fed."""
    @functools.wraps(function)
    async def run(self: Any, current: dict[str, Any]) -> Any:
        if not enabled:
            return await function(self, current)
        outcome = await function(self, current)
        sent = current.get("submitted", current.get("submitting", time.time()))
        span = _tracer.start_span(
            f"batch_round {current['round']}", start_time=int(sent * 1e9),
            attributes={"conductor.batch.id": current.get("batch_id") or "", "conductor.batch.round": current["round"],
                        "conductor.batch.requests": len(current.get("custom_ids", ())),
                        "gen_ai.provider.name": self.llm.provider, "gen_ai.request.model": self.llm.model},
        )
        span.end()
        return outcome

    return run  # type: ignore[return-value]


# -- reading spans back ---------------------------------------------------------------------------------------


def tree(found: Sequence[ReadableSpan] | None = None, *, attributes: Sequence[str] = (), width: int = 100,
         times: bool = False) -> str:
    """The spans as an indented tree, one line each, children in start order (default: every kept span).

    ``attributes``: these attributes' values after each name, where a span has them;
    ``times=True`` adds each span's duration.
    """
    found = list(spans() if found is None else found)
    ids = {s.context.span_id for s in found}
    children: dict[int | None, list[ReadableSpan]] = {}
    for s in found:
        parent = s.parent.span_id if s.parent is not None and s.parent.span_id in ids else None
        children.setdefault(parent, []).append(s)
    lines: list[str] = []

    def walk(parent: int | None, depth: int) -> None:
        for s in sorted(children.get(parent, ()), key=lambda s: (s.start_time or 0, s.context.span_id)):
            shown = [f"{key}={_shown(s.attributes[key])}" for key in attributes if s.attributes and key in s.attributes]
            status = "  [error]" if s.status.status_code.name == "ERROR" else ""
            took = f" {((s.end_time or 0) - (s.start_time or 0)) / 1e9:.3f}s" if times else ""
            text = s.name + took + ("  " + " ".join(shown) if shown else "") + status
            lines.append("  " * depth + display.clip(text, max(width - 2 * depth, 10)))
            walk(s.context.span_id, depth + 1)

    walk(None, 0)
    return "\n".join(lines)


def _shown(value: Any) -> str:
    if isinstance(value, (tuple, list)):
        return ",".join(str(v) for v in value)
    return str(value)


def runs(found: Sequence[ReadableSpan] | None = None) -> list[ReadableSpan]:
    """The ``invoke_agent`` spans among ``found`` (default: every kept span), oldest first."""
    found = spans() if found is None else found
    return sorted((s for s in found if s.name.startswith("invoke_agent")), key=lambda s: s.start_time or 0)


def trace_of(run: ReadableSpan, found: Sequence[ReadableSpan] | None = None) -> Trace:
    """A :class:`~conductor.trace.Trace` rebuilt from one run's spans alone: ``trace_of(span).plot()`` and
    ``charts.plot_gantt(trace_of(span))`` draw it as a run's own trace would be drawn.

    Times are seconds from the ``invoke_agent`` span's start; a request's cost is its
    ``conductor.cost.usd``; each tool call belongs to the request that preceded it. A call's arguments
    are there only when the spans captured content (``enable(capture_content=True)``); otherwise they
    are None (not recorded), which charts draw as ``name(…)``, never as a call without arguments.
    """
    from .trace import ModelCall, Round, ToolCallRecord
    from .trace import Trace as TraceRecord
    from .types import StopReason, Usage

    found = spans() if found is None else found
    origin = run.start_time or 0
    below = _descendants(run, found)

    def at(ns: int | None) -> float:
        return ((ns or origin) - origin) / 1e9

    chats = sorted((s for s in below if s.attributes.get("gen_ai.operation.name") == "chat"),
                   key=lambda s: s.start_time or 0)
    tools = sorted((s for s in below if s.name.startswith("execute_tool")), key=lambda s: s.start_time or 0)
    calls = []
    for index, s in enumerate(chats, 1):
        a = s.attributes
        reasons = a.get("gen_ai.response.finish_reasons") or ("",)
        calls.append(ModelCall(
            index=index, started=at(s.start_time), ended=at(s.end_time),
            usage=Usage(int(a.get("gen_ai.usage.input_tokens", 0)), int(a.get("gen_ai.usage.output_tokens", 0)),
                        int(a.get("gen_ai.usage.cache_read.input_tokens", 0)),
                        int(a.get("gen_ai.usage.cache_creation.input_tokens", 0)),
                        int(a.get("gen_ai.usage.reasoning.output_tokens", 0))),
            cost=float(a.get("conductor.cost.usd", 0.0)),
            stop_reason=StopReason(a.get("conductor.stop_reason", StopReason.OTHER.value)),
            native_stop_reason=str(reasons[0]), tools_allowed=bool(a.get("conductor.tools_allowed", True)),
            model=str(a.get("gen_ai.response.model", "")), provider=str(a.get("gen_ai.provider.name", "")),
        ))
    rounds = []
    for number, (call, span) in enumerate(zip(calls, chats)):
        end = chats[number + 1].start_time if number + 1 < len(chats) else None
        mine = [t for t in tools if (t.start_time or 0) >= (span.end_time or 0) and (end is None or
                                                                                       (t.start_time or 0) < end)]
        if not mine:
            continue
        records = tuple(ToolCallRecord(
            id=str(t.attributes.get("gen_ai.tool.call.id", "")), name=str(t.attributes.get("gen_ai.tool.name", "")),
            arguments=_arguments(t.attributes.get("gen_ai.tool.call.arguments")),
            output=str(t.attributes.get("gen_ai.tool.call.result", "")),
            is_error=t.status.status_code.name == "ERROR", started=at(t.start_time), ended=at(t.end_time),
        ) for t in mine)
        rounds.append(Round(index=len(rounds) + 1, model=call, tool_calls=records))
    return TraceRecord(model_calls=tuple(calls), rounds=tuple(rounds), seconds=at(run.end_time),
                       model_name=str(run.attributes.get("gen_ai.request.model", "")))


def _arguments(text: Any) -> Any:
    """A span's ``gen_ai.tool.call.arguments`` parsed; None when the span holds none (content not captured)."""
    if text is None:
        return None
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return text


def _descendants(root: ReadableSpan, found: Sequence[ReadableSpan]) -> list[ReadableSpan]:
    """Every span under ``root`` (children, their children, ...)."""
    ids = {root.context.span_id}
    below: list[ReadableSpan] = []
    pending = sorted((s for s in found if s.context.trace_id == root.context.trace_id),
                     key=lambda s: s.start_time or 0)
    changed = True
    while changed:
        changed = False
        for s in pending:
            if s.parent is not None and s.parent.span_id in ids and s.context.span_id not in ids:
                ids.add(s.context.span_id)
                below.append(s)
                changed = True
    return below
