"""``connect()``: one object to talk to the offline model, OpenAI or Anthropic.

The object holds the official SDK client (``llm.client``), the adapter for its
wire API, and the round loop (``llm.run`` / ``await llm.arun``). The SDKs are
imported only here and only when a connection is made, so ``import conductor``
stays fast.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import os
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from . import search, tracing
from .apis import ApiName, RequestSettings, api_for, api_name, tool_choice_from
from .apis.base import check_system, system_text
from .caching import cache_key, check_cache, check_retention
from .context import check_context
from .apis.hosted import split_tools
from .apis.parts import read_features
from .apis.responses import remember_reasoning
from .budget import Budget, Ledger, RunLimits, stopped_answer
from .execution import DEFAULT_MAX_WORKERS, aexecute, execute
from .guards import DEFAULT_MAX_REPEATS, Approver, Guards, check_allowed_tools
from .programs import check_programmatic
from .rounds import DEFAULT_MAX_PAUSES, Conversation, RunResult, check_max_rounds, readable_responses
from .tools import Tool, ToolRegistry
from .trace import ToolCallRecord
from .types import CostSplit, ToolCall, Usage

if TYPE_CHECKING:
    from .standin import OfflineModel
    from .streaming import StreamEvent

logger = logging.getLogger(__name__)

PROVIDERS: tuple[str, ...] = ("offline", "openai", "anthropic")
# The default model of each API: Chat Completions keeps a model that takes function tools there
# (a reasoning gpt-5.x model answers them with a 400 on Chat Completions unless reasoning is off).
DEFAULT_MODELS: dict[ApiName, str] = {"responses": "gpt-5.4-mini", "chat": "gpt-4.1-mini", "messages": "claude-haiku-4-5"}
PROVIDER_APIS: dict[str, tuple[ApiName, ...]] = {"openai": ("responses", "chat"), "anthropic": ("messages",)}
OPENAI_HOST = "api.openai.com"  # an OpenAI client aimed elsewhere is a compatible server: Chat Completions
OFFLINE_MODEL_NAME = "conductor-offline"
OFFLINE_REASONING_MODEL_NAME = "conductor-offline-reasoning"
KEY_VARIABLES = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}

# SDK client classes by API: (sync, async), looked up by name on the SDK module.
CLIENT_CLASSES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "openai": (("OpenAI",), ("AsyncOpenAI",)),  # the Azure clients subclass these
    "anthropic": (
        ("Anthropic", "AnthropicBedrock", "AnthropicVertex"),
        ("AsyncAnthropic", "AsyncAnthropicBedrock", "AsyncAnthropicVertex"),
    ),
}

# Create-call arguments llm.run sets itself, and what to use instead.
REFUSED_OPTIONS = {
    "messages": "pass earlier turns with history=[...] and the new question as run's first argument",
    "model": "choose the model when connecting: cd.connect(..., model='...')",
    "system": "pass system='...' (it is a parameter of run, not an SDK option here)",
    "tools": "pass tools=[...] with @cd.tool functions",
    "functions": "pass tools=[...] with @cd.tool functions (functions= is the deprecated form)",
    "function_call": "pass tool_choice=... (function_call= is the deprecated form)",
    "max_completion_tokens": "pass max_tokens=..., which llm.run sends as each API names it",
    "max_output_tokens": "pass max_tokens=..., which llm.run sends as each API names it",
    "input": "pass earlier turns with history=[...] and the new question as run's first argument",
    "instructions": "pass system='...', which llm.run sends as each API names it",
    "previous_response_id": "pass server_state=True, which chains the run's requests with previous_response_id",
}

# Create-call options that only some APIs have: given to another API's llm, they would be a TypeError
# (or a 400) deep inside the loop, so they are refused up front, naming the API that has them.
API_ONLY_OPTIONS: dict[str, tuple[ApiName, ...]] = {
    "reasoning_effort": ("chat",),
    "response_format": ("chat",),
    "stream_options": ("chat",),
    "seed": ("chat",),
    "stop": ("chat",),
    "frequency_penalty": ("chat",),
    "presence_penalty": ("chat",),
    "logprobs": ("chat",),
    "top_logprobs": ("chat", "responses"),
    # Sampling settings: the pinned anthropic SDK's messages.create takes none of them.
    "temperature": ("responses", "chat"),
    "top_p": ("responses", "chat"),
    "reasoning": ("responses",),
    "include": ("responses",),
    "text": ("responses",),
    "truncation": ("responses",),
    "conversation": ("responses",),
    "store": ("responses", "chat"),
    "thinking": ("messages",),
    "stop_sequences": ("messages",),
    # Prompt caching and context management, as each API names them (cd.connect(cache=...) sends them itself).
    "prompt_cache_key": ("responses", "chat"),
    "prompt_cache_retention": ("responses", "chat"),
    "cache_control": ("messages",),
    "context_management": ("responses", "messages"),
}


class ProviderError(ValueError):
    """A connection cannot be made as asked; the message says what to do instead."""


class LLM:
    """A connected model: the SDK client in use plus the tool loop.

    Build one with :func:`connect`.
    """

    def __init__(
        self,
        *,
        provider: str,
        api: str,
        model: str,
        client: Any,
        offline: OfflineModel | None = None,
        cache: bool | str = True,
    ) -> None:
        self.provider = provider
        self.cache = check_cache(cache)
        self.model = model
        self.client = client
        self.offline = offline
        # The server the requests go to: OpenAI's own takes fields that compatible servers may not (apis.base).
        self.adapter = api_for(api, base_url=None if provider == "offline" else server_of(client))
        self.api: ApiName = self.adapter.api
        kind = client_kind(client)
        self.is_async = kind[1] if kind else type(client).__name__.startswith("Async")
        from . import pricing

        self.pricing_key = ("offline-" + self.api) if provider == "offline" else provider
        self.prices = pricing.price_per_million(model, self.pricing_key)

    def __repr__(self) -> str:  # never shows the key
        return f"LLM(provider={self.provider!r}, api={self.api!r}, model={self.model!r}, async={self.is_async})"

    def cost(self, usage: Usage) -> float:
        """US dollars for ``usage`` at this model's prices."""
        return self.cost_split(usage).total

    def cost_split(self, usage: Usage) -> CostSplit:
        """US dollars for ``usage`` at this model's prices, by part (input, cached, output, ...)."""
        from . import pricing

        return pricing.cost_split(usage, self.model, self.pricing_key)

    def _conversation(
        self,
        question: str,
        tools: Iterable[Tool | Callable[..., Any]],
        max_rounds: int,
        system: str | list[dict[str, Any]] | None,
        history: Sequence[Any] | None,
        max_tokens: int | None,
        parallel_tool_calls: bool | None,
        tool_choice: Any,
        options: dict[str, Any],
        guards: dict[str, Any] | None = None,
        *,
        parallel: bool = False,
        max_workers: int = DEFAULT_MAX_WORKERS,
        limits: RunLimits | None = None,
        max_pauses: int = DEFAULT_MAX_PAUSES,
        keep_raw: bool = True,
    ) -> Conversation:
        """A new run's conversation; how its calls execute and its limits are kept on it, for resume too."""
        if not isinstance(question, str) or not question.strip():
            raise ValueError("the question must be a non-empty string")
        check_max_rounds(max_rounds)
        server_state = bool(options.pop("server_state", False))
        context_limit, context = options.pop("context_limit", None), options.pop("context", None)
        check_context(context, context_limit, self.api)
        if server_state and context_limit and context != "server":
            raise ValueError("with server_state=True the server holds the conversation, so conductor cannot clear "
                             "old tool results: pass context='server' (the API's own compaction) or leave server_state out")
        tool_search = options.pop("tool_search", None)
        programmatic = check_programmatic(options.pop("programmatic", False), self.api, self.model)
        features = read_features(options, self.api, self.model)  # a request feature's own option (apis.parts)
        _check_options(options, self.api, server_state)
        functions, hosted = split_tools(_check_tools(tools), self.api)
        search.check_hosted_search(hosted, self.api, self.model)
        check_retention(options, self.model)
        registry = ToolRegistry(functions)
        guards = dict(guards or {})
        allowed = check_allowed_tools(guards.pop("allowed_tools", None), registry)
        choice, one_call = tool_choice_from(tool_choice, registry)
        # Tool search (conductor.search); a tool the run forces with tool_choice stays loaded.
        searched = search.prepare(tool_search, registry, self.api, self.model, history, keep=choice.name)
        registry, hosted = searched.tools, (*hosted, *searched.hosted)
        if allowed is not None and searched.search_tool:
            allowed = allowed | {searched.search_tool}
        scale = {  # prompt cache, allowed tools and context (conductor.caching, conductor.context)
            "cache": self.cache, "context": context, "context_limit": context_limit,
            "cache_key": cache_key(system_text(check_system(system)), registry.names) if self.cache is not False else None,
            "allowed_tools": tuple(sorted(allowed)) if allowed is not None else None,
        }
        policy = Guards(allowed_tools=allowed, **guards)
        if parallel_tool_calls is None:
            parallel_tool_calls = one_call
        settings = RequestSettings(
            self.model, registry, check_system(system), max_tokens, parallel_tool_calls, options, tool_choice=choice,
            server_state=server_state, hosted_tools=hosted, hosted_api=self.api if hosted else None,
            deferred=searched.deferred, programmatic=programmatic, features=features, **scale,
        )
        conversation = Conversation(
            adapter=self.adapter,
            settings=settings,
            question=question,
            history=history,
            max_rounds=max_rounds,
            price=self.cost_split,
            guards=policy,
            max_pauses=max_pauses,
        )
        conversation.provider = self.provider
        conversation.server = server_of(self.client)
        conversation.keep_raw = keep_raw
        conversation.run_options = {"parallel": parallel, "max_workers": max_workers}
        if limits is not None:
            conversation.limits = limits
        return conversation

    def _result(self, conversation: Conversation) -> RunResult:
        return conversation.result(
            model_name=self.model,
            priced_as=self.prices.model,
            prices=(self.prices.input_per_mtok, self.prices.output_per_mtok),
        )

    def run(
        self,
        question: str,
        *,
        tools: Iterable[Tool | Callable[..., Any]] = (),
        max_rounds: int = 2,
        system: str | list[dict[str, Any]] | None = None,
        history: Sequence[Any] | None = None,
        parallel: bool = False,
        max_workers: int = DEFAULT_MAX_WORKERS,
        parallel_tool_calls: bool | None = None,
        max_tokens: int | None = None,
        tool_choice: Any = None,
        allowed_tools: Iterable[str | Tool] | None = None,
        max_repeats: int | None = DEFAULT_MAX_REPEATS,
        approve: Approver | None = None,
        max_pauses: int = DEFAULT_MAX_PAUSES,
        budget: Budget | Ledger | Sequence[Budget | Ledger] | None = None,
        deadline: float | None = None,
        limits: RunLimits | None = None,
        keep_raw: bool = True,
        **options: Any,
    ) -> RunResult:
        """Answer ``question``, letting the model call ``tools`` for up to ``max_rounds`` rounds.

        ``parallel=True`` runs one turn's calls at the same time (threads, at most
        ``max_workers``); it is off by default because a sync tool may not be
        thread-safe (``arun`` runs calls concurrently by default: that is what it is for).
        ``parallel_tool_calls=False`` asks the model itself for at most one call per turn.

        ``tools`` holds ``@cd.tool`` functions and, beside them, hosted tools as the API's own
        dict (``{"type": "web_search"}`` on Responses, ``{"type": "web_search_20250305", "name":
        "web_search", "max_uses": 2}`` on Messages): sent unchanged, run by the provider inside its
        response, never here; their blocks and items stay in ``result.messages`` as received and
        their web searches are priced. Chat Completions has no hosted tools (a clear error says so).
        ``tool_search=True`` sends the tools deferred, for a search to load the ones the model needs (the
        API's hosted search, or conductor's own ``search_tools``; ``"client"`` asks for the latter, ``False``
        for none; see :mod:`conductor.search`).
        ``max_pauses`` (default 3): how many times in a run a turn the API paused (Anthropic's
        ``stop_reason: "pause_turn"``, a long server-tool turn) is continued, by sending it back
        unchanged. A continuation is a request but never a tool round; past the limit the run
        ends with the text so far (``result.stopped_by == "pause_limit"``).

        ``history`` continues a conversation: ``result.messages`` or ``result.conversation``
        of an earlier run (from either API), or OpenAI- or Anthropic-format dicts.
        ``tool_choice`` (``"auto"``, ``"required"``, a named tool, in either API's form)
        applies while rounds remain; the final forced request always forbids tools.
        Other keyword arguments (``temperature``, ``metadata``, ...) go to the SDK's
        create call; the ones ``run`` sets itself are refused with what to use instead.

        Guards (:mod:`conductor.guards`): only ``allowed_tools`` may run (default: all of
        ``tools``); the ``max_repeats``-th identical call is not run, and one more ends the
        run (``None`` turns this off); a tool with ``requires_approval`` runs when
        ``approve(call)`` returns True, or, with ``approve=None``, the run pauses
        (``result.stopped_by == "approval"``, ``result.pending``) until you decide
        (``result.approve(id)`` / ``result.reject(id, reason=...)``) and call
        ``llm.resume(result)``.

        Limits (:mod:`conductor.budget`): before each request its worst case (estimated
        input plus ``max_tokens`` output, at this model's prices) is checked against what
        is left of ``budget=cd.Budget(usd=..., tokens=...)``; a request that could cross it
        is not sent and the run ends with its best answer (``stopped_by="budget"``).
        ``deadline`` (seconds) ends the run in time the same way (``"deadline"``); tool
        calls still running then are abandoned. ``limits`` passes a prepared
        :class:`~conductor.budget.RunLimits` instead (what ``cd.Orchestrator`` does).
        ``keep_raw=False`` leaves the SDK's response objects out of the trace (``Turn.raw`` is None):
        they are about half of a kept result's memory, which counts when thousands are kept
        (``cd.Orchestrator`` leaves them out unless told otherwise).
        """
        if self.is_async:
            raise ProviderError("this LLM holds an async client: use `await llm.arun(...)`")
        conversation = self._conversation(
            question, tools, max_rounds, system, history, max_tokens, parallel_tool_calls, tool_choice, options,
            guards={"allowed_tools": allowed_tools, "max_repeats": max_repeats, "approve": approve},
            parallel=parallel, max_workers=max_workers, max_pauses=max_pauses, limits=_limits(budget, deadline, limits),
            keep_raw=keep_raw,
        )
        return self._drive(conversation, **conversation.run_options)

    async def arun(
        self,
        question: str,
        *,
        tools: Iterable[Tool | Callable[..., Any]] = (),
        max_rounds: int = 2,
        system: str | list[dict[str, Any]] | None = None,
        history: Sequence[Any] | None = None,
        parallel: bool = True,
        max_workers: int = DEFAULT_MAX_WORKERS,
        parallel_tool_calls: bool | None = None,
        max_tokens: int | None = None,
        tool_choice: Any = None,
        allowed_tools: Iterable[str | Tool] | None = None,
        max_repeats: int | None = DEFAULT_MAX_REPEATS,
        approve: Approver | None = None,
        max_pauses: int = DEFAULT_MAX_PAUSES,
        budget: Budget | Ledger | Sequence[Budget | Ledger] | None = None,
        deadline: float | None = None,
        limits: RunLimits | None = None,
        keep_raw: bool = True,
        **options: Any,
    ) -> RunResult:
        """:meth:`run` on the event loop: async tools run as tasks, sync ones in threads."""
        conversation = self._conversation(
            question, tools, max_rounds, system, history, max_tokens, parallel_tool_calls, tool_choice, options,
            guards={"allowed_tools": allowed_tools, "max_repeats": max_repeats, "approve": approve},
            parallel=parallel, max_workers=max_workers, max_pauses=max_pauses, limits=_limits(budget, deadline, limits),
            keep_raw=keep_raw,
        )
        return await self._adrive(conversation, **conversation.run_options)

    def resume(self, result: RunResult, *, tools: Iterable[Tool | Callable[..., Any]] | None = None) -> RunResult:
        """Continue a run paused for approval, with the decisions recorded on ``result``.

        Approved calls run (only with exactly the arguments approved, or with a person's
        edit of them), denied and undecided ones are answered as not run, and the same
        conversation goes on. ``result`` may come from another process (pickled, or saved
        with ``result.to_json()`` and read with ``RunResult.from_json``): connect to the same
        provider, API and model; the run's tools are imported from their modules, or pass
        them again with ``tools=[...]``. A paused
        result can be resumed once; a call that ran never runs again (across processes,
        see :class:`~conductor.rounds.PausedRun` for what a deployment must add).
        """
        if self.is_async:
            raise ProviderError("this LLM holds an async client: use `await llm.aresume(result)`")
        conversation, calls = _paused_conversation(self, result, tools)
        options = conversation.run_options
        if calls:
            conversation.add_results(self._execute(conversation, calls, **options))
        return self._drive(conversation, **options)

    async def aresume(
        self, result: RunResult, *, tools: Iterable[Tool | Callable[..., Any]] | None = None
    ) -> RunResult:
        """:meth:`resume` on the event loop."""
        conversation, calls = _paused_conversation(self, result, tools)
        options = conversation.run_options
        if calls:
            conversation.add_results(await self._aexecute(conversation, calls, **options))
        return await self._adrive(conversation, **options)

    def stream(
        self,
        question: str,
        *,
        tools: Iterable[Tool | Callable[..., Any]] = (),
        max_rounds: int = 2,
        system: str | list[dict[str, Any]] | None = None,
        history: Sequence[Any] | None = None,
        parallel: bool = False,
        max_workers: int = DEFAULT_MAX_WORKERS,
        parallel_tool_calls: bool | None = None,
        max_tokens: int | None = None,
        tool_choice: Any = None,
        allowed_tools: Iterable[str | Tool] | None = None,
        max_repeats: int | None = DEFAULT_MAX_REPEATS,
        approve: Approver | None = None,
        max_pauses: int = DEFAULT_MAX_PAUSES,
        budget: Budget | Ledger | Sequence[Budget | Ledger] | None = None,
        deadline: float | None = None,
        **options: Any,
    ) -> Iterator[StreamEvent]:
        """:meth:`run`, streamed: ``for event in llm.stream(...)``, each request read as it is generated.

        ``event.type`` is ``"round_start"``, ``"text"`` (``event.text``: a delta),
        ``"tool_start"``, ``"tool_end"`` and, last, ``"done"`` (``event.result``: the
        :class:`RunResult` ``run`` returns). An error mid-stream raises
        :class:`conductor.streaming.StreamInterrupted`; see :mod:`conductor.streaming`.
        The guards are ``run``'s; a run paused for approval ends with ``done`` and
        ``llm.resume(event.result)`` continues it (not streamed).
        """
        from .streaming import stream_run

        if self.is_async:
            raise ProviderError("this LLM holds an async client: use `async for event in llm.astream(...)`")
        conversation = self._conversation(
            question, tools, max_rounds, system, history, max_tokens, parallel_tool_calls, tool_choice, options,
            guards={"allowed_tools": allowed_tools, "max_repeats": max_repeats, "approve": approve},
            parallel=parallel, max_workers=max_workers, max_pauses=max_pauses, limits=_limits(budget, deadline, None),
        )
        return stream_run(self, conversation, **conversation.run_options)

    def astream(
        self,
        question: str,
        *,
        tools: Iterable[Tool | Callable[..., Any]] = (),
        max_rounds: int = 2,
        system: str | list[dict[str, Any]] | None = None,
        history: Sequence[Any] | None = None,
        parallel: bool = True,
        max_workers: int = DEFAULT_MAX_WORKERS,
        parallel_tool_calls: bool | None = None,
        max_tokens: int | None = None,
        tool_choice: Any = None,
        allowed_tools: Iterable[str | Tool] | None = None,
        max_repeats: int | None = DEFAULT_MAX_REPEATS,
        approve: Approver | None = None,
        max_pauses: int = DEFAULT_MAX_PAUSES,
        budget: Budget | Ledger | Sequence[Budget | Ledger] | None = None,
        deadline: float | None = None,
        **options: Any,
    ) -> AsyncIterator[StreamEvent]:
        """:meth:`stream` on the event loop: ``async for event in llm.astream(...)``."""
        from .streaming import astream_run

        conversation = self._conversation(
            question, tools, max_rounds, system, history, max_tokens, parallel_tool_calls, tool_choice, options,
            guards={"allowed_tools": allowed_tools, "max_repeats": max_repeats, "approve": approve},
            parallel=parallel, max_workers=max_workers, max_pauses=max_pauses, limits=_limits(budget, deadline, None),
        )
        return astream_run(self, conversation, **conversation.run_options)

    # -- the loop ------------------------------------------------------------------
    # run/arun (and resume) build or restore a Conversation, then drive it here:
    # one request per step, the calls it asks for, their results, until it says stop.

    @tracing.traced_request
    def _create(self, conversation: Conversation, request: dict[str, Any]) -> Any:
        """Send one request (the run's limits make the SDK's retries); a model fallback overrides this."""
        client = tracing.client_for(self.client)  # with tracing on: a copy without the SDK's own span per request
        with readable_responses(self.adapter.api, server_of(self.client)):
            return conversation.limits.send(conversation, client, self.adapter.create, request)

    @tracing.traced_request
    async def _acreate(self, conversation: Conversation, request: dict[str, Any]) -> Any:
        limits = conversation.limits
        client = tracing.client_for(self.client)
        with readable_responses(self.adapter.api, server_of(self.client)):
            if self.is_async:
                return await limits.asend(conversation, client, self.adapter.acreate, request)
            return await asyncio.to_thread(limits.send, conversation, client, self.adapter.create, request)

    def _stream_request(self, conversation: Conversation, request: dict[str, Any], index: int) -> Iterator[Any]:
        """Send one request streamed (text deltas, then the whole message); a model fallback may override it."""
        from .streaming import stream_request

        client = tracing.client_for(self.client)
        return stream_request(client, conversation.adapter, request, index, conversation=conversation)

    def _astream_request(self, conversation: Conversation, request: dict[str, Any], index: int) -> AsyncIterator[Any]:
        from .streaming import astream_request, in_thread, stream_request

        client = tracing.client_for(self.client)
        if self.is_async:
            return astream_request(client, conversation.adapter, request, index, conversation=conversation)
        return in_thread(stream_request(client, conversation.adapter, request, index, conversation=conversation))

    @tracing.traced_run(owns=False)
    def _execute(
        self, conversation: Conversation, calls: list[ToolCall], *, parallel: bool, max_workers: int
    ) -> list[ToolCallRecord]:
        """Run one turn's calls; every driver (run, stream) goes through here."""
        return execute(
            calls, conversation.tools, parallel=parallel, max_workers=max_workers, origin=conversation.origin,
            deadline=conversation.limits.deadline_at(conversation),
        )

    @tracing.traced_run(owns=False)
    async def _aexecute(
        self, conversation: Conversation, calls: list[ToolCall], *, parallel: bool, max_workers: int
    ) -> list[ToolCallRecord]:
        return await aexecute(
            calls, conversation.tools, parallel=parallel, max_workers=max_workers, origin=conversation.origin,
            deadline=conversation.limits.deadline_at(conversation),
        )

    @tracing.traced_run()
    def _drive(self, conversation: Conversation, *, parallel: bool, max_workers: int) -> RunResult:
        limits = conversation.limits
        limits.require_prices([self.prices])
        try:
            while (request := conversation.next_request()) is not None:
                if not limits.pace(conversation, request):  # a rate limit's wait would pass the deadline
                    continue
                started = time.perf_counter()
                try:
                    response = self._create(conversation, request)
                except Exception as exc:
                    if not limits.overran(conversation, exc):
                        raise
                    continue
                if response is None:  # a model fallback found the run stopped (budget, deadline)
                    continue
                calls = conversation.receive(response, started, time.perf_counter())
                if calls:
                    records = self._execute(conversation, calls, parallel=parallel, max_workers=max_workers)
                    conversation.add_results(records)
        except Exception as exc:
            self._keep_partial(conversation, exc)
            raise
        finally:
            limits.abandon()  # a request that raised: its reservation back, or spent if it may be billed
        return self._result(conversation)

    def _keep_partial(self, conversation: Conversation, exc: Exception) -> None:
        """Attach what the run did before ``exc`` as ``exc.result``: the calls that ran, the messages so far.

        Tools may have had side effects; the caller must be able to see them rather than ask
        again and run them twice. A failure while building it never hides ``exc`` itself.
        """
        if getattr(exc, "result", None) is not None:
            return
        try:
            if conversation.final is None and not conversation.paused:
                conversation.stop("error", stopped_answer(conversation, "error", f"{type(exc).__name__}: {exc}"))
            exc.result = self._result(conversation)  # type: ignore[attr-defined]
        except Exception:  # noqa: BLE001 - the original error is the one to raise
            logger.debug("could not keep the partial run of a failed run", exc_info=True)

    @tracing.traced_run()
    async def _adrive(self, conversation: Conversation, *, parallel: bool, max_workers: int) -> RunResult:
        limits = conversation.limits
        limits.require_prices([self.prices])
        try:
            while (request := conversation.next_request()) is not None:
                if not await limits.apace(conversation, request):
                    continue
                started = time.perf_counter()
                try:
                    response = await limits.within_deadline(conversation, self._acreate(conversation, request))
                except Exception as exc:
                    if not limits.overran(conversation, exc):
                        raise
                    continue
                if response is None:  # a model fallback found the run stopped (budget, deadline)
                    continue
                calls = conversation.receive(response, started, time.perf_counter())
                if calls:
                    records = await self._aexecute(conversation, calls, parallel=parallel, max_workers=max_workers)
                    conversation.add_results(records)
        except Exception as exc:
            self._keep_partial(conversation, exc)
            raise
        finally:
            limits.abandon()
        return self._result(conversation)


def _limits(budget: Any, deadline: float | None, limits: RunLimits | None) -> RunLimits:
    """The run's limits from ``budget=`` / ``deadline=``, or the prepared ``limits=``."""
    if limits is None:
        return RunLimits.of(budget, deadline)
    if budget is not None or deadline is not None:
        raise ValueError("pass budget=/deadline= or limits=, not both: limits= already holds a budget and deadline")
    return limits


def _paused_conversation(
    llm: LLM, result: Any, tools: Iterable[Tool | Callable[..., Any]] | None
) -> tuple[Conversation, list[ToolCall]]:
    """The paused run of ``result`` rebuilt on ``llm`` and claimed, with the calls to run now; an error saying
    what to pass otherwise."""
    if not isinstance(result, RunResult):
        raise TypeError(f"resume() takes the RunResult of a paused run, got {type(result).__name__}")
    paused = result.paused
    if result.stopped_by != "approval" or paused is None:
        raise ValueError(
            f"this run is not paused for approval (stopped_by={result.stopped_by!r}); only a result with "
            f"stopped_by == 'approval' can be resumed: run with approve=None and a tool that requires approval"
        )
    return paused.restore(
        adapter=llm.adapter,
        model=llm.model,
        price=llm.cost_split,
        provider=llm.provider,
        # A hosted tool's dict travels with the paused run's settings: only the functions are taken here.
        tools=None if tools is None else split_tools(_check_tools(tools), llm.api)[0],
    )


def _check_options(options: dict[str, Any], api: ApiName, server_state: bool) -> None:
    """Refuse create-call arguments ``run`` cannot honour on ``api``, saying what to use instead."""
    for name, fix in REFUSED_OPTIONS.items():
        if name in options:
            raise ValueError(f"run() sets {name}= itself: {fix}")
    if server_state and api != "responses":
        raise ValueError(
            f"server_state=True chains requests with previous_response_id, which only the Responses API has; "
            f"this llm speaks {api!r}: connect with cd.connect('openai') (api='responses'), or leave server_state out"
        )
    for name in options:
        owners = API_ONLY_OPTIONS.get(name)
        if owners is not None and api not in owners:
            raise ValueError(
                f"{name}= is an option of the {' and '.join(owners)} API{'s' if len(owners) > 1 else ''}, and this "
                f"llm speaks {api!r}; "
                f"connect with api={owners[0]!r} to use it, or leave it out"
            )
    if options.get("stream"):
        raise ValueError(
            "run() reads whole responses, so stream=True is not supported: to stream a tool run, use "
            "`for event in llm.stream(question, tools=...)` (or `async for event in llm.astream(...)`); "
            "to stream one request by hand, call the SDK on llm.client"
        )
    if options.get("n", 1) != 1:
        raise ValueError(
            f"run() reads one choice per response, so n={options['n']!r} would be paid for and lost; leave n out"
        )


def _check_tools(tools: Iterable[Tool | Callable[..., Any] | dict[str, Any]]) -> list[Any]:
    """The tools as a list (a single tool where a list belongs is refused, naming the fix).

    Dicts are sorted out by :func:`~conductor.apis.hosted.split_tools`: a hosted tool passes, a
    function's schema dict is refused (it has no code to run).
    """
    if isinstance(tools, (Tool, dict, str)) or callable(tools):
        name = getattr(tools, "name", None) or getattr(tools, "__name__", None) or type(tools).__name__
        raise ValueError(f"tools= takes a list of tools: pass tools=[{name}], not tools={name}")
    return list(tools)


def _import_sdk(name: str) -> Any:
    """The official SDK module, or an error naming the install command."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        raise ProviderError(
            f"the {name} SDK is not installed: run `pip install -r requirements.txt` (or `pip install {name}`)"
        ) from exc


def _key(provider: str, api_key: str | None, base_url: str | None) -> str:
    variable = KEY_VARIABLES[provider]
    key = api_key or os.environ.get(variable)
    if key:
        return key
    if base_url and default_api(provider, base_url) == "chat":
        return "not-needed"  # local OpenAI-compatible servers (Ollama, vLLM, llama.cpp) take any key
    raise ProviderError(
        f"{variable} is not set. Set it in your environment (or pass api_key=...) to use {provider}, "
        f"or run offline with cd.connect('offline'), which needs no key."
    )


def client_kind(client: Any) -> tuple[str, bool] | None:
    """The SDK of a client ("openai" or "anthropic") and whether it is async, or ``None`` for anything else.

    Subclasses count (``AzureOpenAI``, a client wrapped in a subclass). The SDK
    modules are looked up in ``sys.modules`` rather than imported: a client
    object exists only once its SDK is loaded, and ``import conductor`` must not
    load the SDKs.
    """
    for api, (sync_names, async_names) in CLIENT_CLASSES.items():
        sdk = sys.modules.get(api)
        if sdk is None:
            continue
        for is_async, names in ((False, sync_names), (True, async_names)):
            classes = tuple(c for c in (getattr(sdk, n, None) for n in names) if isinstance(c, type))
            if classes and isinstance(client, classes):
                return api, is_async
    return None


def default_api(provider: str, base_url: Any = None) -> ApiName:
    """The API a provider's client speaks unless ``api=`` says otherwise.

    Anthropic: Messages. OpenAI: the Responses API on OpenAI's own servers; Chat
    Completions on any other base URL (Ollama, vLLM, llama.cpp and most compatible
    servers speak only that).
    """
    if provider == "anthropic":
        return "messages"
    if base_url is None:
        return "responses"
    from urllib.parse import urlsplit

    # A string, or the SDK client's own URL object: its text is the same URL.
    return "responses" if urlsplit(str(base_url)).hostname == OPENAI_HOST else "chat"


def _chosen_api(provider: str, api: str | None, base_url: Any) -> ApiName:
    """``api=`` checked against what the provider speaks, or the provider's default."""
    if api is None:
        return default_api(provider, base_url)
    try:
        name = api_name(api)
    except ValueError as exc:
        raise ProviderError(str(exc)) from None
    if name not in PROVIDER_APIS[provider]:
        raise ProviderError(
            f"{provider} does not speak api={api!r}; choose one of: {', '.join(PROVIDER_APIS[provider])}"
        )
    return name


def _from_client(client: Any, model: str | None, api: str | None = None) -> LLM:
    kind = client_kind(client)
    if kind is None:
        raise ProviderError(
            f"unsupported client type {type(client).__module__}.{type(client).__name__}; pass an openai.OpenAI "
            f"or openai.AsyncOpenAI (Azure included), anthropic.Anthropic or anthropic.AsyncAnthropic client "
            f"(or a subclass), or a provider name ({', '.join(PROVIDERS)})"
        )
    if not model:
        raise ProviderError("pass the model name with the client: cd.connect(client, model='...')")
    return LLM(provider=kind[0], api=_chosen_api(kind[0], api, getattr(client, "base_url", None)), model=model, client=client)


def connect(
    provider: str | Any | None = None,
    *,
    model: str | None = None,
    api: str | None = None,
    base_url: str | None = None,
    api_key: str | None = None,
    asynchronous: bool = False,
    max_retries: int = 2,
    seed: int = 0,
    latency_scale: float | None = None,
    offline_model: OfflineModel | None = None,
    gullible: bool = False,
    reasoning: bool = False,
    cache: bool | str = True,
) -> LLM:
    """Connect to a model.

    ``provider`` is ``"offline"`` (no key, no network, deterministic), ``"openai"``,
    ``"anthropic"``, or an official SDK client you built. ``None`` reads
    ``CONDUCTOR_PROVIDER`` and falls back to ``"offline"``; ``model`` falls back
    to ``CONDUCTOR_MODEL``, then to the API's default (:data:`DEFAULT_MODELS`).

    ``api`` names the wire API: ``"responses"`` (OpenAI's primary API, the default for
    OpenAI and for the offline model), ``"chat"`` (Chat Completions: the default for an
    OpenAI client on any other ``base_url``, since compatible servers speak it) or
    ``"messages"`` (Anthropic). The older names ``"openai"`` and ``"anthropic"`` mean
    ``"chat"`` and ``"messages"``. ``asynchronous=True`` builds the SDK's async client,
    for ``await llm.arun(...)``.

    ``reasoning=True`` says the model reasons when its name does not (a fine-tuned
    ``ft:o4-mini-...``, an Azure deployment name): on Responses its reasoning is then asked for
    encrypted and sent back with its calls. conductor also finds out by itself, from reasoning
    that comes back unencrypted, at the cost of that turn's reasoning. Offline it also makes the
    stand-in a reasoning model (reasoning items on Responses, signed thinking blocks on Messages,
    and the real 400 for function tools on Chat Completions unless ``reasoning_effort="none"``).
    ``cache`` (default True) asks each API for prompt caching (:mod:`conductor.caching`): Messages gets the
    top-level ``cache_control`` (``"1h"`` adds its one-hour ttl), Responses and Chat Completions a stable
    ``prompt_cache_key`` for each run's system text and tools; ``False`` sends neither.

    Offline only: ``gullible=True`` makes the model obey instructions it reads inside
    tool results (prompt injection, lesson 04).
    """
    cache = check_cache(cache)
    if provider is not None and not isinstance(provider, str):
        _offline_only(provider="a client you built", gullible=gullible)
        llm = _from_client(provider, model or os.environ.get("CONDUCTOR_MODEL"), api)
        llm.cache = cache
        return _reasons(llm) if reasoning else llm
    provider = (provider or os.environ.get("CONDUCTOR_PROVIDER") or "offline").strip().lower()
    if provider not in PROVIDERS:
        raise ProviderError(f"unknown provider {provider!r}; choose one of: {', '.join(PROVIDERS)}")
    model = model or os.environ.get("CONDUCTOR_MODEL") or None
    if provider == "offline":
        llm = _connect_offline(
            model, api, asynchronous, max_retries, seed, latency_scale, offline_model, gullible, reasoning
        )
        llm.cache = cache
        return _reasons(llm) if reasoning else llm
    _offline_only(provider=provider, gullible=gullible)
    # The SDK reads OPENAI_BASE_URL itself; a local server set that way needs no key either.
    local_url = (base_url or os.environ.get("OPENAI_BASE_URL")) if provider == "openai" else None
    chosen = _chosen_api(provider, api, local_url)
    key = _key(provider, api_key, local_url)
    sdk = _import_sdk(provider)
    if provider == "openai":
        cls = sdk.AsyncOpenAI if asynchronous else sdk.OpenAI
    else:
        cls = sdk.AsyncAnthropic if asynchronous else sdk.Anthropic
    client = cls(api_key=key, base_url=base_url, max_retries=max_retries)
    llm = LLM(provider=provider, api=chosen, model=model or DEFAULT_MODELS[chosen], client=client, cache=cache)
    return _reasons(llm) if reasoning else llm


def server_of(client: Any) -> str:
    """The base URL a client sends to, for error messages (the offline stand-in's is ``offline.invalid``)."""
    return str(getattr(client, "base_url", "") or "")


def _reasons(llm: LLM) -> LLM:
    """The model is a reasoning model whatever its name says (a fine-tuned model, a deployment name):
    its reasoning is asked for encrypted and carried between requests (see conductor.apis.responses)."""
    remember_reasoning(llm.model)
    return llm


def _offline_only(*, provider: str, gullible: bool) -> None:
    if gullible:
        raise ProviderError("gullible= applies to the offline model only; a real model is as gullible as it is")


def _connect_offline(
    model: str | None,
    api: str | None,
    asynchronous: bool,
    max_retries: int,
    seed: int,
    latency_scale: float | None,
    offline_model: OfflineModel | None,
    gullible: bool = False,
    reasoning: bool = False,
) -> LLM:
    from .standin import offline_model as new_offline_model

    try:
        chosen = api_name(api or "responses")
    except ValueError as exc:
        raise ProviderError(f"{exc} (the offline model speaks all three)") from None
    if offline_model is None:
        offline_model = new_offline_model(
            seed=seed, latency_scale=latency_scale, gullible=gullible, reasoning=reasoning
        )
    elif latency_scale is not None or seed or gullible or reasoning:
        raise ProviderError(
            "seed=, latency_scale=, gullible= and reasoning= configure a new offline model; with offline_model= "
            "pass them to it instead: OfflineModel(seed=..., latency=LatencyModel(scale=...), gullible=..., "
            "reasoning=...)"
        )
    factory = offline_model.anthropic_client if chosen == "messages" else offline_model.openai_client
    client = factory(async_=asynchronous, max_retries=max_retries)
    default = OFFLINE_REASONING_MODEL_NAME if offline_model.reasoning else OFFLINE_MODEL_NAME
    return LLM(provider="offline", api=chosen, model=model or default, client=client, offline=offline_model)
