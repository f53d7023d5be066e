"""Running one turn's tool calls: validation, then the call, sequentially or in parallel.

Whatever goes wrong here is the model's to hear about, not the learner's: an
unknown tool, arguments that do not validate, or an exception inside the tool
all become error results (``is_error=True``) with a message that says what
was wrong, and the other calls of the turn still run. Results always come back
in the order of the calls, one record per call: nothing here is keyed by call id,
since models do repeat ids or leave them empty.

A call's ``started`` is when it starts running, not when it was queued behind
the ``max_workers`` cap: each call measures its own start in the thread or task
that runs it.

A tool with a retry, timeout or fallbacks runs under :mod:`conductor.retry`,
which records every attempt; a tool without one takes the plain path. A run's
``deadline`` (an absolute ``time.perf_counter()``) bounds every call: a call
still running at it becomes an error result (a sync tool's thread cannot be
stopped; it finishes on its own and its result is discarded), and a call not
started by then is not started.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import logging
import threading
import time
from collections.abc import Sequence
from typing import Any

from . import tracing, workers
from .apis.base import is_hosted_approval
from .tools import Tool, ToolArgumentsError, ToolOutputError, ToolRegistry, render_output
from .trace import Attempt, ToolCallRecord
from .types import ToolCall, ToolResult

logger = logging.getLogger(__name__)

DEFAULT_MAX_WORKERS = 8


def _approved_hosted_call() -> str:
    return "approved"  # the provider runs the call itself once it reads the approval (see apis.base)


@functools.cache
def _hosted_approval() -> Tool:
    """What "runs" for an approved hosted MCP call: nothing here; the answer sent back is the approval.
    Made on first use: a tool with its own schema loads jsonschema (most of a second), which every other
    run would otherwise pay at import."""
    return Tool(_approved_hosted_call, name="hosted_mcp_approval", parameters={"type": "object"},
                description="Approve a call the provider runs on a hosted MCP server.")


def _prepare(call: ToolCall, registry: ToolRegistry) -> tuple[Tool, dict[str, Any]]:
    """Look the tool up and validate its arguments; raises ToolArgumentsError for the model."""
    if is_hosted_approval(call.name):
        return _hosted_approval(), {}
    tool = registry.get(call.name)
    return tool, tool.validate(call.arguments)


def _arguments_for_record(call: ToolCall) -> Any:
    try:
        return call.parsed_arguments()
    except ValueError:
        return call.arguments


def _error_text(exc: BaseException) -> str:
    if isinstance(exc, (ToolArgumentsError, ToolOutputError)):
        return str(exc)
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _record(
    call: ToolCall,
    output: str,
    is_error: bool,
    started: float,
    ended: float,
    origin: float,
    attempts: tuple[Attempt, ...] = (),
    fallback: str | None = None,
) -> ToolCallRecord:
    if is_error:
        logger.info("tool call %s(%s) failed: %s", call.name, call.arguments, output)
    return ToolCallRecord(
        id=call.id,
        name=call.name,
        arguments=_arguments_for_record(call),
        output=output,
        is_error=is_error,
        started=started - origin,
        ended=ended - origin,
        attempts=attempts,
        fallback=fallback,
    )


def _not_started(call: ToolCall, origin: float) -> ToolCallRecord:
    """The record of a call the run's deadline came before."""
    now = time.perf_counter()
    return _record(
        call,
        f"{call.name} was not run: the run's deadline had passed before it could start",
        True, now, now, origin,
    )


def _from_outcome(call: ToolCall, tool: Tool, outcome: Any, started: float, origin: float) -> ToolCallRecord:
    """The record of a call run under :mod:`conductor.retry`, with its attempts."""
    if outcome.error is not None:
        output, is_error = outcome.error, True
    else:
        try:
            output, is_error = render_output(outcome.value, tool=tool.name), False
        except ToolOutputError as exc:
            output, is_error = str(exc), True
    return _record(call, output, is_error, started, time.perf_counter(), origin, outcome.attempts, outcome.fallback)


def _under_policy(tool: Tool, deadline: float | None) -> bool:
    """Does the call run under :mod:`conductor.retry` (its attempts recorded, cut at the deadline)?

    A tool with a policy does, and so does any tool under a run deadline, except one run in-line
    (``sync_to_thread=False``): it never blocks, so it is not cut, and it was checked against the
    deadline before it started.
    """
    return tool.guarded or (deadline is not None and tool.sync_to_thread)


@tracing.traced_tool
def run_call(call: ToolCall, registry: ToolRegistry, origin: float, deadline: float | None = None) -> ToolCallRecord:
    """Run one call in this thread (an async tool gets an event loop of its own)."""
    started = time.perf_counter()
    if deadline is not None and started >= deadline:
        return _not_started(call, origin)
    try:
        tool, arguments = _prepare(call, registry)
        if _under_policy(tool, deadline):
            from . import retry  # tenacity loads with the first call that needs it

            outcome = retry.run_policy(tool, arguments, origin=origin, deadline=deadline)
            return _from_outcome(call, tool, outcome, started, origin)
        output, is_error = render_output(tool.invoke(arguments), tool=tool.name), False
    except Exception as exc:  # noqa: BLE001 - any tool failure is reported to the model
        output, is_error = _error_text(exc), True
    return _record(call, output, is_error, started, time.perf_counter(), origin)


@tracing.traced_tool
async def arun_call(
    call: ToolCall, registry: ToolRegistry, origin: float, deadline: float | None = None
) -> ToolCallRecord:
    """Run one call on the event loop (a sync tool runs in a worker thread)."""
    started = time.perf_counter()
    if deadline is not None and started >= deadline:
        return _not_started(call, origin)
    try:
        tool, arguments = _prepare(call, registry)
        if _under_policy(tool, deadline):
            from . import retry

            outcome = await retry.arun_policy(tool, arguments, origin=origin, deadline=deadline)
            return _from_outcome(call, tool, outcome, started, origin)
        output, is_error = render_output(await tool.ainvoke(arguments), tool=tool.name), False
    except Exception as exc:  # noqa: BLE001 - any tool failure is reported to the model
        output, is_error = _error_text(exc), True
    return _record(call, output, is_error, started, time.perf_counter(), origin)


def _batches(calls: Sequence[ToolCall], registry: ToolRegistry) -> list[list[ToolCall]]:
    """Split calls into runs that may overlap; an exclusive tool gets a batch of its own.

    Order is kept: calls before an exclusive tool finish before it starts, and
    calls after it start after it ends.
    """
    batches: list[list[ToolCall]] = [[]]
    for call in calls:
        exclusive = call.name in registry and registry.get(call.name).exclusive
        if exclusive:
            batches += [[call], []]
        else:
            batches[-1].append(call)
    return [b for b in batches if b]


def execute(
    calls: Sequence[ToolCall],
    registry: ToolRegistry,
    *,
    parallel: bool = False,
    max_workers: int = DEFAULT_MAX_WORKERS,
    origin: float = 0.0,
    deadline: float | None = None,
) -> list[ToolCallRecord]:
    """Run a turn's calls and return their records in call order.

    ``parallel=True`` runs independent calls in threads, at most ``max_workers`` at once.
    ``deadline`` (an absolute ``time.perf_counter()``): no call runs past it.
    """
    if not parallel or len(calls) < 2:
        return [run_call(c, registry, origin, deadline) for c in calls]
    width = max(1, min(max_workers, len(calls)))
    records: list[ToolCallRecord] = []
    for batch in _batches(calls, registry):
        records += _in_threads(batch, registry, origin, deadline, width)
    return records


def _in_threads(
    batch: Sequence[ToolCall], registry: ToolRegistry, origin: float, deadline: float | None, width: int
) -> list[ToolCallRecord]:
    """Run ``batch`` on worker threads, at most ``width`` at once; their records in call order.

    The threads are :mod:`conductor.workers`', reused across turns and runs. Each call
    runs in a copy of this thread's context (logging, tracing), as asyncio.to_thread does.
    Under a deadline each call's attempts are cut at it, so every call has returned by then.
    """
    slots = threading.BoundedSemaphore(width)
    jobs: list[workers.Job] = []
    for call in batch:
        slots.acquire()  # a slot frees when any running call ends, as in a pool of `width` threads
        context = contextvars.copy_context()
        jobs.append(workers.submit(run_call, call, registry, origin, deadline, context=context, on_done=slots.release))
    for job in jobs:
        job.wait()
    return [job.result() for job in jobs]


def _on_the_loop(call: ToolCall, registry: ToolRegistry, deadline: float | None) -> bool:
    """Whether a call runs as a task on the loop rather than whole on a worker thread.

    Async tools do, and sync tools declared ``sync_to_thread=False`` (run in-line). So does a
    sync tool under a policy or a deadline: its attempts go to a worker thread each, timed and
    waited for (backoff included) on the loop, so no thread is held through the waits, and the
    hand-over happens once.
    """
    if call.name not in registry:
        return False
    tool = registry.get(call.name)
    return tool.is_async or not tool.sync_to_thread or tool.guarded or deadline is not None


async def aexecute(
    calls: Sequence[ToolCall],
    registry: ToolRegistry,
    *,
    parallel: bool = False,
    max_workers: int = DEFAULT_MAX_WORKERS,
    origin: float = 0.0,
    deadline: float | None = None,
) -> list[ToolCallRecord]:
    """The async twin of :func:`execute`: at most ``max_workers`` calls at once.

    Async tools run as tasks on the event loop. Sync tools (and calls that only
    fail validation) run on :mod:`conductor.workers`' threads, made once and reused
    across turns and runs, not in the loop's default pool: that one is capped at the
    CPU count + 4 and shared with everything else on the loop, so it would quietly
    lower the cap (and a thread started per turn would cost more than the call).
    """
    if not parallel or len(calls) < 2:
        return [await _aone(c, registry, origin, deadline) for c in calls]
    limit = asyncio.Semaphore(max(1, min(max_workers, len(calls))))

    async def one(call: ToolCall) -> ToolCallRecord:
        async with limit:
            return await _aone(call, registry, origin, deadline)

    # If the run is cancelled, the calls still waiting for a slot are dropped, and the loop
    # does not wait for a running sync tool (a thread cannot be interrupted).
    records: list[ToolCallRecord] = []
    for batch in _batches(calls, registry):
        records += await asyncio.gather(*(one(c) for c in batch))
    return records


async def _aone(call: ToolCall, registry: ToolRegistry, origin: float, deadline: float | None) -> ToolCallRecord:
    """One call of :func:`aexecute`: as a task on the loop, or whole on a worker thread."""
    if _on_the_loop(call, registry, deadline):
        return await arun_call(call, registry, origin, deadline)
    # The context goes along, as asyncio.to_thread would take it (logging, tracing).
    job = await workers.hand_over(run_call, call, registry, origin, deadline, context=contextvars.copy_context())
    return job.result()


def results_of(records: Sequence[ToolCallRecord]) -> list[ToolResult]:
    """The tool results to send back to the model, in call order."""
    return [ToolResult(r.id, r.name, r.output, r.is_error) for r in records]
