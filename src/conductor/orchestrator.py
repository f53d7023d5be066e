"""``cd.Orchestrator``: one object that runs many conversations safely.

It composes what the earlier lessons built, by passing options through:
tool retries, timeouts and fallbacks live on the tools (``@cd.tool(retry=...)``),
model fallback on the LLM (``cd.fallback(...)``), the guards (``allowed_tools``,
``max_repeats``, ``approve``) go to each run. Around each run it adds:

* budgets checked before every request, per run and per batch
  (:mod:`conductor.budget`), and a whole-run deadline;
* per-user tool-call limits and global request / token limits
  (:mod:`conductor.ratelimit`), every wait recorded;
* structured logs of every request and tool call (run id, user, timings,
  tokens, cost, outcome), as text or JSON, with keys scrubbed;
* progress events for a UI ("Searching lesson 1…", "Writing the answer…");
* metrics with production thresholds and alerts, and a dashboard
  (:mod:`conductor.metrics`).
"""

from __future__ import annotations

import asyncio
import inspect
import itertools
import json
import logging
import math
import os
import re
import sys
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from . import metrics as metrics_module
from . import display, tracing
from .budget import Budget, Ledger, RunLimits, estimate_input_tokens, output_ceiling, stopped_answer
from .metrics import Metrics, QueryRecord, Thresholds
from .ratelimit import Clock, Limiters, RateLimit, RateLimited, SystemClock
from .rounds import RunResult
from .tools import Tool, tool as make_tool
from .trace import Trace

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from .batch import BatchHandle
    from .providers import LLM
    from .rounds import Conversation

__all__ = ["Orchestrator", "Progress", "scrub"]

logger = logging.getLogger(__name__)

DEFAULT_USER = "anonymous"

# Strings that must never reach a log line: API keys and bearer tokens.
_SECRET_PATTERNS = re.compile(r"(sk-[A-Za-z0-9_\-]{6,}|Bearer\s+\S+|x-api-key:\s*\S+)", re.IGNORECASE)
MIN_SECRET_CHARS = 12  # real keys are far longer; the offline model's placeholder key ("offline") is no secret
_KEY_VARIABLES = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN")


def scrub(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` with API keys, bearer tokens and the given ``secrets`` replaced by ``[redacted]``."""
    for secret in secrets:
        if len(secret) >= MIN_SECRET_CHARS:
            text = text.replace(secret, "[redacted]")
    return _SECRET_PATTERNS.sub("[redacted]", text)


# -- progress ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Progress:
    """One step of a conversation, for a UI: ``text`` is what to show the user."""

    run_id: str
    user: str
    kind: str  # "thinking", "tool", "writing", "done"
    text: str
    tool: str | None = None
    arguments: dict[str, Any] | None = None


ProgressCallback = Callable[[Progress], Any]


class _Run:
    """What one conversation of the orchestrator shares between its hooks: who, which run, how far."""

    def __init__(self, orch: Orchestrator, run_id: str, user: str, on_progress: Sequence[ProgressCallback],
                 loop: asyncio.AbstractEventLoop | None) -> None:
        self.orch = orch
        self.run_id = run_id
        self.user = user
        self.requests = 0
        self.calls: Counter[str] = Counter()  # tool calls so far, by tool
        self.callbacks = on_progress
        self.loop = loop
        self.conversation: Conversation | None = None  # set once its first request is about to go out
        self._lock = threading.Lock()

    def emit(self, kind: str, text: str, tool: str | None = None, arguments: dict[str, Any] | None = None) -> None:
        if not self.callbacks:
            return  # nobody listens: no event is built
        event = Progress(self.run_id, self.user, kind, text, tool, arguments)
        for callback in self.callbacks:
            try:
                outcome = callback(event)
                if inspect.isawaitable(outcome):
                    self._schedule(outcome)
            except Exception:  # noqa: BLE001 - a broken progress display must not break the conversation
                logger.exception("progress callback failed on %s", event)

    def _schedule(self, awaitable: Awaitable[Any]) -> None:
        if self.loop is None:
            raise RuntimeError("an async progress callback needs an event loop: use await orch.arun / run_many")
        asyncio.run_coroutine_threadsafe(_await(awaitable), self.loop)

    # -- the hooks RunLimits calls before each request --------------------------------------

    def _announce(self, conversation: Conversation) -> None:
        # Before a request nobody knows whether the model will answer or call more tools; only
        # a request with tools forbidden (the forced final one) is surely the answer being written.
        self.requests += 1
        if self.requests == 1:
            self.conversation = conversation
            self.emit("thinking", "Thinking…")
        elif conversation.tools_allowed:
            self.emit("thinking", "Reading the results…")
        else:
            self.emit("writing", "Writing the answer…")

    def _budget_for(self, conversation: Conversation, request: dict[str, Any]) -> tuple[int, float]:
        """The request's tokens as the provider's limits count them, and the longest wait the deadline allows."""
        tokens = estimate_input_tokens(conversation, request) + output_ceiling(conversation, request)
        return tokens, conversation.limits.time_left(conversation)

    def time_left(self) -> float:
        """Seconds until the conversation's deadline (infinite without one)."""
        conversation = self.conversation
        return math.inf if conversation is None else conversation.limits.time_left(conversation)

    def _stop(self, conversation: Conversation, refused: RateLimited) -> None:
        deadline = conversation.limits.deadline
        if deadline is not None and math.isfinite(refused.retry_after):
            detail = f"{deadline:g} s; waiting for the request rate limit would pass it"
            conversation.stop("deadline", stopped_answer(conversation, "deadline", detail))
        else:  # the request can never fit: more tokens than tokens_per_minute allows at all
            conversation.stop("rate_limit", stopped_answer(conversation, "rate_limit", f"rate limit: {refused}"))

    def before_send(self, conversation: Conversation, request: dict[str, Any]) -> None:
        self._announce(conversation)
        if self.orch.limiters.paces_requests:
            tokens, left = self._budget_for(conversation, request)
            try:
                self.orch.limiters.request(tokens, max_wait=left)
            except RateLimited as refused:
                self._stop(conversation, refused)

    async def abefore_send(self, conversation: Conversation, request: dict[str, Any]) -> None:
        self._announce(conversation)
        if self.orch.limiters.paces_requests:
            tokens, left = self._budget_for(conversation, request)
            try:
                await self.orch.limiters.arequest(tokens, max_wait=left)
            except RateLimited as refused:
                self._stop(conversation, refused)

    # -- the tools, wrapped for this run ----------------------------------------------------

    def _started(self, tool: Tool, arguments: dict[str, Any]) -> None:
        if not self.callbacks:
            return  # the count and the text are for progress events only
        with self._lock:  # a turn's calls may start in several threads at once
            earlier = self.calls[tool.name]
            self.calls[tool.name] += 1
        self.emit("tool", tool.describe(arguments, earlier), tool.name, arguments)

    def wrap(self, original: Tool) -> Tool:
        """A copy of ``original`` that reports progress and takes the user's rate limit first.

        The copy keeps every option of the original (retry, timeout, fallbacks, approval):
        only the function it calls changes, so retries count against the limit too.
        """
        run, func, limiters = self, original.func, self.orch.limiters

        if original.is_async:

            async def limited(**arguments: Any) -> Any:
                run._started(original, arguments)
                await limiters.atool_call(run.user)
                return await func(**arguments)

        elif not original.sync_to_thread and run.loop is not None:
            # In-line on the event loop and never cut at the deadline (it does not block): a wait for the
            # rate limit is awaited, never slept on the loop, and refused if it would pass the deadline.
            async def limited(**arguments: Any) -> Any:
                run._started(original, arguments)
                await limiters.atool_call(run.user, max_wait=run.time_left())
                return func(**arguments)

        else:

            def limited(**arguments: Any) -> Any:  # type: ignore[misc]
                run._started(original, arguments)
                limiters.tool_call(run.user)
                if _given_up():
                    # The wait outlasted the call's timeout (or the run's deadline): the model has been
                    # told the call did not finish, so it must not start now, unseen.
                    raise CallGivenUp(f"{original.name} was given up while it waited for the rate limit; not run")
                return func(**arguments)

        wrapped = original.calling(limited)
        wrapped.is_async = original.is_async or (not original.sync_to_thread and run.loop is not None)
        return wrapped


class CallGivenUp(Exception):
    """A call whose time ran out while it waited for the user's rate limit: it never started."""


def _given_up() -> bool:
    """Has the call running in this thread been given up (its timeout or the run's deadline passed)?

    Only a call under a timeout can be given up, and timeouts live in conductor.retry: when that
    module is not loaded, nothing is timed, and it is not imported just to ask.
    """
    retry = sys.modules.get("conductor.retry")
    return retry is not None and retry.cancelled()


async def _await(awaitable: Awaitable[Any]) -> Any:
    return await awaitable


# -- the orchestrator ----------------------------------------------------------------------------------


class Orchestrator:
    """Runs conversations the way production needs: limited, logged, measured.

    Args:
        llm: a connection (``cd.connect``) or a model fallback (``cd.fallback``).
        tools: ``@cd.tool`` functions; their retry, timeout and fallback options apply.
        max_rounds: tool rounds per conversation.
        budget: per conversation (``cd.Budget(usd=..., tokens=...)``).
        batch_budget: shared by all conversations of one :meth:`run_many`.
        rate_limit: ``cd.RateLimit(...)``; the default allows 10 tool calls a minute per user.
        deadline: seconds per conversation (default 30, the production advice).
        thresholds: when :meth:`metrics` raises alerts.
        on_alert: called with each alert text when it first appears (alerts also go to logging).
        on_progress: called with each :class:`Progress` event; a coroutine function is awaited on the loop.
        json_logs: log each request and tool call as one JSON object instead of ``key=value`` text.
        keep_raw: keep the SDK's response objects in the results' traces (``Turn.raw``). Off by
            default: they are half of a kept result's memory (``python -m conductor bench batch``
            prints both figures), and a batch keeps every result.
        clock: the rate limiters' clock (tests pass a ``ratelimit.FakeClock``).
        run_options: anything else ``llm.run`` takes (``system``, ``allowed_tools``,
            ``max_repeats``, ``approve``, ``max_tokens``, ``parallel``, ...).

    Besides ``llm.run``'s reasons, a result's ``stopped_by`` may be ``"error"`` (the
    conversation raised: reported in the logs and ``orch.failures``, never lost) or
    ``"rate_limit"`` (a request larger than ``tokens_per_minute`` allows at all).
    """

    def __init__(
        self,
        llm: LLM,
        tools: Iterable[Tool | Callable[..., Any]] = (),
        *,
        max_rounds: int = 2,
        budget: Budget | None = None,
        batch_budget: Budget | None = None,
        rate_limit: RateLimit | None = RateLimit(),
        deadline: float | None = 30.0,
        thresholds: Thresholds | None = None,
        on_alert: Callable[[str], Any] | None = None,
        on_progress: ProgressCallback | None = None,
        json_logs: bool = False,
        keep_raw: bool = False,
        clock: Clock | None = None,
        **run_options: Any,
    ) -> None:
        for name, value in (("budget", budget), ("batch_budget", batch_budget)):
            if value is not None and not isinstance(value, Budget):
                raise TypeError(f"{name}= takes cd.Budget(usd=..., tokens=...), got {type(value).__name__}")
        if rate_limit is not None and not isinstance(rate_limit, RateLimit):
            raise TypeError(f"rate_limit= takes cd.RateLimit(...), got {type(rate_limit).__name__}")
        for name in ("budget", "deadline", "limits", "tools", "max_rounds"):
            if name in run_options:
                raise ValueError(f"{name}= is set by the Orchestrator itself")
        self.llm = llm
        # A dict is a hosted tool (it runs on the provider's side): sent as given, never wrapped.
        self.tools = [t if isinstance(t, Tool | dict) else make_tool(t) for t in tools]
        self.max_rounds = max_rounds
        self.budget = budget
        self.batch_budget = batch_budget
        self.rate_limit = rate_limit or RateLimit(tool_calls_per_minute=None)
        self.deadline = RunLimits(deadline=deadline).deadline  # validated there
        self.thresholds = thresholds or Thresholds()
        self.on_alert = on_alert
        self.on_progress = on_progress
        self.json_logs = json_logs
        self.keep_raw = keep_raw
        self.run_options = run_options
        self.limiters = Limiters(self.rate_limit, clock or SystemClock())
        self.results: list[RunResult | None] = []  # the last run_many's, filled as conversations finish
        self.batch_ledger: Ledger | None = None  # the latest run_many's shared budget
        self.batch_handle: BatchHandle | None = None  # the latest run_many(via="batch")'s run, kept on disk
        self.records: list[QueryRecord] = []
        self.failures: list[tuple[int | None, str, BaseException]] = []  # (batch index, run id, exception)
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._raised: set[str] = set()
        self._secrets = self._known_secrets()

    def __repr__(self) -> str:
        return (f"Orchestrator({self.llm!r}, tools={[t.name if isinstance(t, Tool) else t.get('type') for t in self.tools]}, max_rounds={self.max_rounds}, "
                f"conversations={len(self.records)})")

    def _known_secrets(self) -> list[str]:
        keys = [os.environ.get(name, "") for name in _KEY_VARIABLES]
        keys.append(str(getattr(getattr(self.llm, "client", None), "api_key", "") or ""))
        return [k for k in keys if k]

    # -- one conversation ---------------------------------------------------------------------

    def _start(self, user: str, on_progress: ProgressCallback | None, loop: asyncio.AbstractEventLoop | None) -> _Run:
        if not isinstance(user, str) or not user:
            raise ValueError(f"user must be a non-empty string naming who asks, got {user!r}")
        callbacks = [c for c in (self.on_progress, on_progress) if c is not None]
        return _Run(self, f"run-{next(self._ids):04d}", user, callbacks, loop)

    def _limits(self, run: _Run) -> RunLimits:
        ledgers = [Ledger(self.budget)] if self.budget else []
        if self.batch_ledger is not None:
            ledgers.append(self.batch_ledger)
        return RunLimits(ledgers, self.deadline, before_send=run.before_send, abefore_send=run.abefore_send)

    def _options(self, run: _Run) -> dict[str, Any]:
        return {**self.run_options, "tools": [run.wrap(t) if isinstance(t, Tool) else t for t in self.tools], "max_rounds": self.max_rounds,
                "limits": self._limits(run), "keep_raw": self.keep_raw}

    def run(self, question: str, *, user: str = DEFAULT_USER, on_progress: ProgressCallback | None = None) -> RunResult:
        """Answer one question for ``user``; never raises for what the model or the API does.

        A conversation that fails (the API is down, every fallback spent) comes back as
        a result with ``stopped_by="error"`` and is counted in the metrics.
        """
        if self.llm.is_async:
            return _run_sync(lambda: self.arun(question, user=user, on_progress=on_progress))
        run = self._start(user, on_progress, None)
        started = time.perf_counter()
        try:
            result, error = self.llm.run(question, **self._options(run)), None
        except Exception as exc:  # noqa: BLE001 - reported and counted, never lost
            result, error = self._failed(run, exc, None), exc
        return self._finish(run, question, result, time.perf_counter() - started, error)

    async def arun(
        self, question: str, *, user: str = DEFAULT_USER, on_progress: ProgressCallback | None = None,
        index: int | None = None,
    ) -> RunResult:
        """:meth:`run` on the event loop."""
        run = self._start(user, on_progress, asyncio.get_running_loop())
        started = time.perf_counter()
        try:
            result, error = await self.llm.arun(question, **self._options(run)), None
        except Exception as exc:  # noqa: BLE001 - reported and counted, never lost
            result, error = self._failed(run, exc, index), exc
        return self._finish(run, question, result, time.perf_counter() - started, error)

    def _failed(self, run: _Run, exc: Exception, index: int | None) -> RunResult:
        text = scrub(f"{type(exc).__name__}: {exc}", self._secrets)
        logger.error("%s", self._line("conversation_failed", run, error=text))
        with self._lock:
            self.failures.append((index, run.run_id, exc))
        answer = f"Sorry, this conversation failed ({text}). It is logged as {run.run_id}."
        partial = getattr(exc, "result", None)
        if isinstance(partial, RunResult):  # the calls that ran and the messages so far are kept
            return replace(partial, answer=answer, stopped_by="error")
        return RunResult(answer=answer, messages=[], trace=Trace(), stopped_by="error")

    def _finish(
        self, run: _Run, question: str, result: RunResult, seconds: float, error: Exception | None,
        batched: bool = False,
    ) -> RunResult:
        run.emit("done", "Done." if error is None else "Something went wrong.")
        record = metrics_module.record_of(
            result, run_id=run.run_id, user=run.user, seconds=seconds,
            error=None if error is None else type(error).__name__, batched=batched,
        )
        with self._lock:
            self.records.append(record)
        self._log_run(run, question, result, record)
        return result

    # -- many conversations ---------------------------------------------------------------------

    @tracing.traced_many
    async def run_many(
        self,
        questions: Sequence[str],
        *,
        concurrency: int = 10,
        users: Sequence[str] | str | None = None,
        progress: bool = True,
        via: str = "direct",
        poll_interval: float | None = None,
        deadline: float | None = None,
        state_dir: str | os.PathLike[str] | None = None,
        durable: Any = None,
    ) -> list[RunResult]:
        """Answer every question, at most ``concurrency`` at once; results in input order.

        ``via="durable", durable=cd.durable(llm, tools=[...])`` puts every conversation on that app's
        DBOS queue (lesson 09): any worker on its database runs it, recorded step by step, and the
        queue's own limits and ``queue_budget=`` hold across every worker in place of ``concurrency``,
        the per-user rate limits and ``batch_budget``; each conversation keeps this orchestrator's
        ``max_rounds``, ``budget``, ``deadline`` and run options, and is logged and counted here.

        ``via="batch"`` sends every round of every conversation as one batch through the
        provider's Batch API, at half price (:mod:`conductor.batch`): it polls the batch every
        ``poll_interval`` seconds (default: scaled to the offline model's delay, else 15 s) with
        a progress bar, runs the tools and sends the next round. ``deadline`` (seconds) then
        bounds the whole run; ``state_dir`` is where the run is kept on disk (default
        ``.conductor/batches``). ``concurrency`` caps the conversations running their tools at once.
        The run's handle is ``orch.batch_handle`` as soon as it starts: if the process stops (or the
        cell is interrupted), ``orch.collect(orch.batch_handle.id)`` finishes it, here or elsewhere.

        ``users`` names who asks each question (a list as long as ``questions``, or one
        name for all). Without it each conversation counts as a user of its own (``q0001``, ...):
        a batch is not one person, and one shared name would hit the per-user limit at once.
        ``progress=True`` shows a tqdm bar. The deadline counts from each conversation's
        start, not from the start of the batch.
        ``batch_budget`` is shared by this batch: once it cannot cover another request,
        the conversations left end at once with ``stopped_by="budget"``. If the batch is
        cancelled, ``orch.results`` holds the conversations that finished (None for the rest).
        """
        questions = list(questions)
        if isinstance(concurrency, bool) or not isinstance(concurrency, int) or concurrency < 1:
            raise ValueError(f"concurrency must be a whole number above 0, got {concurrency!r}")
        if via == "batch":
            from . import batch

            results = await batch.run(
                self, questions, self._users(users, len(questions)), state_dir=state_dir, deadline=deadline,
                progress=progress, poll_interval=poll_interval, concurrency=concurrency,
            )
            return results
        if via == "durable":
            return await self._run_durable(questions, durable, self._users(users, len(questions)), progress)
        if durable is not None:
            raise ValueError("durable= applies to via='durable' only")
        if via != "direct":
            raise ValueError(f"via must be 'direct' (one request at a time), 'batch' (the provider's Batch API) or "
                             f"'durable' (a DBOS queue, with durable=cd.durable(...)), got {via!r}")
        for name, value in (("poll_interval", poll_interval), ("deadline", deadline), ("state_dir", state_dir)):
            if value is not None:
                raise ValueError(f"{name}= applies to via='batch' only")
        who = self._users(users, len(questions))
        self.batch_ledger = Ledger(self.batch_budget) if self.batch_budget else None
        gate = asyncio.Semaphore(concurrency)

        async def one(index: int) -> RunResult:
            async with gate:
                return await self.arun(questions[index], user=who[index], index=index)

        return await self._gather(len(questions), one, progress)

    async def _gather(self, count: int, one: Callable[[int], Awaitable[RunResult]], progress: bool) -> list[RunResult]:
        """``one(i)`` for every conversation at once; ``self.results`` filled as they finish (a batch
        cancelled part-way leaves what finished, in input order, None where a conversation had not), a
        progress bar, then the batch's metrics (which raise its alerts). Results in input order."""
        self.results = [None] * count
        bar = _bar(count) if progress else None

        async def kept(index: int) -> RunResult:
            result = await one(index)
            self.results[index] = result
            if bar is not None:
                bar.update(1)
            return result

        try:
            results = await asyncio.gather(*(kept(i) for i in range(count)))
        finally:
            if bar is not None:
                bar.close()
        self.metrics()
        return list(results)

    def _durable_options(self, durable: Any) -> dict[str, Any]:
        """The run options each durable conversation is enqueued with, or a ValueError naming what a
        durable run cannot carry."""
        if durable is None or not callable(getattr(durable, "enqueue", None)):
            raise ValueError("via='durable' takes durable=cd.durable(llm, tools=[...]): the app whose queue runs "
                             f"the conversations; got {durable!r}")
        if self.batch_budget is not None:
            raise ValueError("batch_budget= is kept in this process; a durable queue's conversations run in its "
                             "workers: give the queue its budget, cd.durable(..., queue_budget=cd.Budget(usd=...))")
        if callable(self.run_options.get("approve")):
            raise ValueError("approve= is a function, which a durable run cannot record: a durable run parks a call "
                             "that needs approval; decide it with durable.approve(run_id, call_id) from any process")
        options = {**self.run_options, "max_rounds": self.max_rounds,
                   "tools": [t.name if isinstance(t, Tool) else t for t in self.tools]}
        if self.budget is not None:
            options["budget"] = self.budget
        if self.deadline is not None:
            options["deadline"] = self.deadline
        return options

    async def _run_durable(self, questions: list[str], durable: Any, who: list[str], progress: bool) -> list[RunResult]:
        options = self._durable_options(durable)
        ids = [durable.enqueue(question, **options) for question in questions]  # refused before any is enqueued
        loop = asyncio.get_running_loop()

        async def one(index: int) -> RunResult:
            run = self._start(who[index], None, loop)
            started = time.perf_counter()
            result = await asyncio.to_thread(durable.result, ids[index])
            return self._finish(run, questions[index], result, time.perf_counter() - started, None)

        return await self._gather(len(questions), one, progress)

    # -- many conversations through the providers' batch APIs, across restarts ---------------------

    def submit(
        self,
        questions: Sequence[str],
        *,
        users: Sequence[str] | str | None = None,
        deadline: float | None = None,
        state_dir: str | os.PathLike[str] | None = None,
    ) -> BatchHandle:
        """Send the first round of ``questions`` as a provider batch and return at once.

        The returned handle's ``id`` survives a restart: ``orch.collect(id)`` on a new
        Orchestrator (same llm and tools), in this process or another, finishes the work.
        The run is kept in ``state_dir`` (default ``.conductor/batches``), under its id.
        """
        return _run_sync(lambda: self.asubmit(questions, users=users, deadline=deadline, state_dir=state_dir))

    async def asubmit(
        self,
        questions: Sequence[str],
        *,
        users: Sequence[str] | str | None = None,
        deadline: float | None = None,
        state_dir: str | os.PathLike[str] | None = None,
    ) -> BatchHandle:
        """:meth:`submit` on the event loop."""
        from . import batch

        questions = list(questions)
        return await batch.submit(self, questions, self._users(users, len(questions)), state_dir=state_dir,
                                  deadline=deadline)

    def collect(
        self,
        handle_or_id: BatchHandle | str,
        *,
        poll_interval: float | None = None,
        progress: bool = True,
        concurrency: int = 10,
        state_dir: str | os.PathLike[str] | None = None,
    ) -> list[RunResult]:
        """Finish a batched run :meth:`submit` started: wait for its batch (progress bar), run the tools,
        send the next rounds; the results in input order.

        Works from the run's state on disk, so a new Orchestrator in a new process can
        collect it; a round already sent is never sent again (its batch is polled instead).
        One collector at a time: while a process drives the run (a lock in its state directory),
        another ``collect`` of it raises :class:`conductor.batch.BatchRunBusy` instead of running
        its tools and sending its rounds a second time.
        """
        return _run_sync(lambda: self.acollect(
            handle_or_id, poll_interval=poll_interval, progress=progress, concurrency=concurrency,
            state_dir=state_dir,
        ))

    async def acollect(
        self,
        handle_or_id: BatchHandle | str,
        *,
        poll_interval: float | None = None,
        progress: bool = True,
        concurrency: int = 10,
        state_dir: str | os.PathLike[str] | None = None,
    ) -> list[RunResult]:
        """:meth:`collect` on the event loop."""
        from . import batch

        return await batch.collect(self, handle_or_id, state_dir=state_dir, progress=progress,
                                   poll_interval=poll_interval, concurrency=concurrency)

    @staticmethod
    def _users(users: Sequence[str] | str | None, count: int) -> list[str]:
        if users is None:
            return [f"q{i + 1:04d}" for i in range(count)]
        if isinstance(users, str):
            return [users] * count
        users = list(users)
        if len(users) != count:
            raise ValueError(f"users has {len(users)} names for {count} questions; pass one per question, or one name")
        return users

    # -- metrics, alerts, dashboard -------------------------------------------------------------

    def metrics(self) -> Metrics:
        """The production figures of every conversation so far; new alerts go to logging and ``on_alert``."""
        with self._lock:
            records = list(self.records)
        result = metrics_module.compute(records, self.limiters.log.waits, self.thresholds)
        for alert in result.alerts:
            key = alert.split(" is ")[0].split(" of ")[0]  # one alert per metric, however its value moves
            if key in self._raised:
                continue
            self._raised.add(key)
            logger.warning("ALERT %s", alert)
            if self.on_alert is not None:
                self.on_alert(alert)
        return result

    def dashboard(self, *, figsize: tuple[float, float] = (12, 7)) -> Figure:
        """Rounds, latency, tool failures and cost of every conversation so far, thresholds dashed."""
        with self._lock:
            records = list(self.records)
        return metrics_module.plot_dashboard(records, self.metrics(), self.thresholds, figsize=figsize)

    def reset(self) -> None:
        """Forget the conversations measured so far (metrics start again, rate-limit waits included; limits
        keep their windows)."""
        with self._lock:
            self.records.clear()
            self.failures.clear()
            self._raised.clear()
            self.limiters.log.clear()

    # -- logging ------------------------------------------------------------------------------------

    def _line(self, event: str, run: _Run, **fields: Any) -> str:
        data = {"event": event, "run": run.run_id, "user": run.user, **fields}
        if self.json_logs:
            text = json.dumps(data, ensure_ascii=False, default=str)
        else:
            text = " ".join(f"{k}={_plain(v)}" for k, v in data.items())
        return scrub(text, self._secrets)

    def _log_run(self, run: _Run, question: str, result: RunResult, record: QueryRecord) -> None:
        """One line per model request, per tool call, and one for the conversation."""
        if not logger.isEnabledFor(logging.INFO):
            return
        rounds = {r.model.index: r for r in result.rounds}
        for call in result.trace.model_calls:
            logger.info("%s", self._line(
                "request", run, n=call.index, model=call.model or result.trace.model_name,
                seconds=round(call.seconds, 4), input_tokens=call.usage.input_tokens,
                output_tokens=call.usage.output_tokens, usd=round(call.cost, 8),
                outcome="tool_use" if call.index in rounds else call.stop_reason.value,
            ))
        for r in result.rounds:
            for c in r.tool_calls:
                outcome = "blocked:" + c.blocked if c.blocked else ("error" if c.is_error else "ok")
                logger.info("%s", self._line(
                    "tool_call", run, round=r.index, tool=c.name, id=c.id, seconds=round(c.seconds, 4),
                    attempts=len(c.attempts) or 1, fallback=c.fallback, outcome=outcome,
                ))
        logger.info("%s", self._line(
            "conversation", run, question=question[:200], seconds=round(record.seconds, 4), rounds=record.rounds,
            requests=record.requests, tokens=record.tokens, usd=round(record.cost, 8),
            stopped_by=record.stopped_by, error=record.error,
        ))


def _run_sync(make: Callable[[], Awaitable[Any]]) -> Any:
    """Run a coroutine to the end from sync code, on a thread of its own when a loop already runs here (Jupyter)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(_await(make()))
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(lambda: asyncio.run(_await(make()))).result()


def _plain(value: Any) -> str:
    text = str(value)
    return json.dumps(text, ensure_ascii=False) if (not text or any(c.isspace() for c in text) or "=" in text) else text


def _bar(total: int) -> Any:
    return display.progress_bar(total, "conversations", "conv")

