"""Durable runs: the same tool loop as a DBOS Transact workflow (``cd.durable(llm, tools=[...])``).

A durable run is ``llm.run`` driven inside a DBOS workflow. Every model request and
every tool call is a DBOS step whose result is written to the system database (SQLite
by default, one file, no server; PostgreSQL to scale out) before the run goes on. When
the worker process dies, a worker started again on the same database re-runs the
workflow body: each step already recorded returns its recorded result instead of
running, so the conversation is rebuilt exactly and the run goes on from the first step
that never finished. Guards, budgets, retries, model fallbacks, caching, tool search
and programs are the ordinary loop's (:mod:`conductor.rounds`), and the run returns the
same :class:`~conductor.rounds.RunResult`.

The rule for a tool call the worker died in (it started, its result was never
recorded): it runs again only when the tool is marked ``@cd.tool(idempotent=True)``
(running it twice does no harm). Otherwise the run waits, naming the call, for a person
to decide: ``approve`` runs it again, ``reject`` tells the model it was not run again.
Durable runs record a "started" step before every call of a tool not marked idempotent,
which is how a restarted worker knows the call was cut off.

A call that needs approval parks the run in the database and its workflow ends: no thread and
no process is held while it waits. A decision sent from any process (:class:`DurableClient`,
``python -m conductor approve``) is recorded; the one that completes a pause starts the run's
continuation, a DBOS fork of the parked workflow at the step that reads the decisions, which any
worker with the run's tools replays and carries on (:class:`Pauses`). The run keeps its id.

What is recorded is JSON: each response's body (read back into the SDK's type), each tool
call's record, never a pickled SDK object, so a parked run survives an SDK upgrade.

Rules this module keeps from DBOS's documentation and from measuring it (see
docs/durable.md): one DBOS instance per process; the workflow registered before
launch; ``application_version`` pinned to the tool set (a worker with other tools does
not pick up these runs, and is refused while runs of another tool set wait); parallel
calls get their step ids reserved in call order (``DBOS.reserve_step``), so a replay
hands every call its own result; other processes use ``DBOSClient``, which never
launches (a second launched process would recover, and so re-run, live runs).

Temporal would fit the same shape (a workflow per run, an activity per request and per
call); its server binary cannot be installed from the package registries on the course
machines, so DBOS is the engine here.
"""

from __future__ import annotations

import contextvars
import hashlib
import json
import logging
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .execution import DEFAULT_MAX_WORKERS, _batches, run_call
from .guards import DEFAULT_MAX_REPEATS, Decision, PendingCall
from .rounds import DEFAULT_MAX_PAUSES, Conversation, RunResult, ToolCallRecord, _from_json, _to_json
from .tools import Tool, ToolRegistry
from .types import ToolCall

logger = logging.getLogger(__name__)

FORMAT = 1  # of what a durable run records; part of the application version
WORKFLOW = "conductor.run"
DEFAULT_DATABASE = "sqlite:///conductor_runs.sqlite"
DEFAULT_QUEUE = "conductor"
PARKED_STATUS = "PARKED"  # a run waiting for a decision: its workflow has ended, nothing holds it
INTERNAL_QUEUE = "_dbos_internal_queue"  # DBOS's own queue: what a run started outside a queue goes on with
PARKED = "conductor_parked"  # the output of a workflow that ended because its run parked: the pause
POLL = 0.05  # seconds between two looks at a run's status from another process

# Run options a durable run takes (those of llm.run). approve= is a function: a durable run cannot record it.
_RUN_OPTIONS = frozenset({
    "max_rounds", "system", "history", "parallel", "max_workers", "parallel_tool_calls", "max_tokens",
    "tool_choice", "allowed_tools", "max_repeats", "max_pauses", "budget", "deadline",
})


class DurableError(RuntimeError):
    """A durable run cannot be started or served as asked; the message says what to change."""


class DatabaseUnreachable(DurableError):
    """The system database named cannot be reached."""


# -- what can be recorded ------------------------------------------------------------------------

def _tool_problem(tool: Tool) -> str | None:
    """Why ``tool`` cannot take part in a durable run, or None."""
    try:
        json.dumps(tool.parameters, allow_nan=False)
    except (TypeError, ValueError) as exc:
        return f"its parameter schema is not JSON ({exc})"
    return None


def check_tools(tools: Iterable[Tool | Callable[..., Any]]) -> ToolRegistry:
    """The tools as a registry, or a DurableError naming the first one a durable run cannot record."""
    given = list(tools)
    for item in given:
        if isinstance(item, Mapping):
            raise DurableError(
                f"the hosted tool {item.get('type', item)!r} is a dict, not a function: a durable worker serves "
                "@cd.tool functions; pass hosted tools in the run's own tools= instead"
            )
    registry = ToolRegistry(given)
    for tool in registry:
        problem = _tool_problem(tool)
        if problem:
            raise DurableError(f"tool {tool.name!r} cannot be recorded in a durable run: {problem}")
    return registry


def fingerprint(registry: ToolRegistry) -> str:
    """A short hash of the tools' names and schemas: what a worker must share with the run it resumes."""
    shape = [[t.name, t.parameters] for t in registry]
    return hashlib.sha256(json.dumps(shape, sort_keys=True).encode()).hexdigest()[:12]


def encode_options(question: str, options: Mapping[str, Any]) -> str:
    """The run's question and options as the workflow's JSON input; a DurableError naming an option
    that cannot be recorded (or is not one a durable run takes)."""
    if not isinstance(question, str) or not question.strip():
        raise DurableError("the question must be a non-empty string")
    if "approve" in options and options["approve"] is not None:
        raise DurableError(
            "approve= is a function, which a durable run cannot record: a durable run parks a call that needs "
            "approval and waits for a decision sent with approve(run_id, call_id) from any process"
        )
    encoded: dict[str, Any] = {}
    for name, value in options.items():
        if name == "approve":
            continue
        if name == "tools":
            value = [_tool_name(t) for t in value]
        elif name == "allowed_tools" and value is not None:
            value = [_tool_name(t) for t in value]
        try:
            encoded[name] = _to_json(value)
            json.dumps(encoded[name], allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise DurableError(
                f"{name}= holds a {type(value).__name__}, which a durable run cannot record as JSON ({exc}); "
                "pass text, numbers, lists, dicts, cd.Budget"
            ) from exc
    return json.dumps({"format": FORMAT, "question": question, "options": encoded}, ensure_ascii=False)


def _tool_name(tool: Any) -> Any:
    if isinstance(tool, Tool):
        return tool.name
    if isinstance(tool, str) or isinstance(tool, Mapping):
        return tool
    if callable(tool):
        return getattr(tool, "__name__", str(tool))
    raise DurableError(f"tools= holds {tool!r}: pass the worker's tools or their names")


# -- SDK responses as JSON -----------------------------------------------------------------------

_RESPONSE_MODULES = ("openai.", "anthropic.")


def dump_response(response: Any) -> dict[str, Any]:
    """A response object as JSON: its body and its SDK type (rebuilt by :func:`load_response`)."""
    kind = type(response)
    if not kind.__module__.startswith(_RESPONSE_MODULES) or not hasattr(response, "model_dump"):
        raise DurableError(f"a durable run records SDK responses; got a {kind.__module__}.{kind.__qualname__}")
    return {"type": f"{kind.__module__}:{kind.__qualname__}", "body": response.model_dump(mode="json")}


def load_response(data: Mapping[str, Any]) -> Any:
    """The SDK response :func:`dump_response` wrote (only the SDKs' own types are built)."""
    import importlib

    module, _, qualname = data["type"].partition(":")
    if not module.startswith(_RESPONSE_MODULES):
        raise DurableError(f"the recorded response names {module!r}, not an SDK type")
    kind: Any = importlib.import_module(module)
    for part in qualname.split("."):
        kind = getattr(kind, part)
    return kind.model_validate(data["body"])


# -- the workflow --------------------------------------------------------------------------------

_app: Durable | None = None  # the one durable app of this process (DBOS allows one instance)
_run_var: contextvars.ContextVar[str | None] = contextvars.ContextVar("conductor_durable_run", default=None)


def current_run_id() -> str | None:
    """The id of the durable run this code runs in (inside a tool: the run's own id, the same in each of
    its continuations after a pause, so a tool can key a side effect by it); None outside a durable run."""
    return _run_var.get()
_app_lock = threading.Lock()


def _current() -> Durable:
    if _app is None:
        raise DurableError("no durable app in this process: call cd.durable(llm, tools=[...]) before DBOS runs")
    return _app


def _workflow(payload: str) -> str:
    """The body of every durable run: the tool loop, each request and call a step. Deterministic given
    the steps' recorded results (its only other inputs are the payload and the worker's tools)."""
    return _current()._body(payload)


_registered: Callable[[str], str] | None = None


def _register() -> Callable[[str], str]:
    global _registered
    if _registered is None:
        from dbos import DBOS

        _registered = DBOS.workflow(name=WORKFLOW)(_workflow)
    return _registered


@dataclass(frozen=True)
class Pending:
    """What a parked durable run waits on: the calls, and why (``"approval"`` or ``"interrupted"``)."""

    run_id: str
    pause: int
    kind: str
    calls: tuple[PendingCall, ...]
    note: str = ""

    def __iter__(self) -> Iterator[PendingCall]:  # a list of the calls, as llm.run's paused result gives
        return iter(self.calls)

    def __len__(self) -> int:
        return len(self.calls)

    def __getitem__(self, index: int) -> PendingCall:
        return self.calls[index]

    def __str__(self) -> str:
        what = "cut off when its worker stopped" if self.kind == "interrupted" else "awaiting approval"
        return "; ".join(f"{c.id} {c} ({what})" for c in self.calls) or "nothing pending"


class Parked(Exception):  # noqa: N818 - not an error: how a run's workflow ends while it waits
    """Raised inside the workflow when the run parks: its workflow ends, holding nothing."""

    def __init__(self, pause: Pause) -> None:
        super().__init__(f"durable run {pause.run_id} parked at pause {pause.pause}")
        self.pause = pause


class _Run:
    """One durable run being driven inside the workflow: the conversation plus its steps."""

    def __init__(self, app: Durable, conversation: Conversation, run_id: str) -> None:
        self.app = app
        self.conversation = conversation
        self.run_id = run_id  # the run's own id, in every continuation too
        self.pauses = 0
        self.outputs: dict[str, str] = {}  # results a person gave for calls cut off by a dead worker

    # model requests ---------------------------------------------------------------------------

    def request(self, request: dict[str, Any]) -> Any:
        """One model request as a step; its response (rebuilt from JSON on a replay)."""
        from dbos import DBOS

        conversation = self.conversation
        live: list[Any] = []  # the response object or exception when the step runs now

        def send() -> str:
            try:
                response = self.app.llm._create(conversation, request)
            except Exception as exc:  # noqa: BLE001 - recorded as JSON, raised again below
                live.append(exc)
                return json.dumps({"error": f"{type(exc).__name__}: {exc}"})
            live.append(response)
            state = [conversation.adapter.api, conversation.settings.model, conversation.provider]
            if response is None:
                return json.dumps({"stopped": [conversation.stopped_by, conversation.final.text if
                                               conversation.final else ""], "state": state})
            return json.dumps({"response": dump_response(response), "state": state}, ensure_ascii=False)

        recorded = json.loads(DBOS.run_step({"name": "conductor.model"}, send))
        if live:  # the step ran here: the objects themselves (an exception keeps its type for the loop)
            if isinstance(live[0], Exception):
                raise live[0]
            return live[0]
        if "error" in recorded:
            raise DurableError(f"the model request failed before the worker stopped: {recorded['error']}")
        self._follow(recorded["state"])
        if "stopped" in recorded:
            if conversation.final is None:
                conversation.stop(*recorded["stopped"])
            return None
        return load_response(recorded["response"])

    def _follow(self, state: Sequence[str]) -> None:
        """On a replay, switch to the model that answered (a model fallback switched inside the step)."""
        conversation = self.conversation
        if [conversation.adapter.api, conversation.settings.model, conversation.provider] == list(state):
            return
        for member in getattr(self.app.llm, "members", ()):
            if [member.api, member.model, member.provider] == list(state):
                conversation.switch(adapter=member.adapter, model=member.model, price=member.cost_split,
                                    provider=member.provider)
                return
        raise DurableError(f"the recorded request was answered by {state}, which this worker's llm does not have")

    def reserve(self, request: dict[str, Any]) -> float | None:
        """Hold the request's worst case against the queue's budget (a step); None when it would cross it."""
        from dbos import DBOS

        from .budget import worst_case

        conversation = self.conversation
        price = getattr(conversation, "worst_price", conversation.price)
        worst = worst_case(conversation, request, price).usd
        budget = self.app.queue_budget
        assert budget is not None
        held = DBOS.run_step({"name": "conductor.queue_budget.reserve"}, lambda: budget.reserve(worst))
        return worst if held else None

    def settle(self, worst: float, actual: float) -> None:
        from dbos import DBOS

        budget = self.app.queue_budget
        assert budget is not None
        DBOS.run_step({"name": "conductor.queue_budget.settle"}, lambda: budget.settle(worst, actual))

    # tool calls -------------------------------------------------------------------------------

    def execute(self, calls: list[ToolCall]) -> list[ToolCallRecord]:
        """One turn's calls, each a step (reserved in call order when they run in parallel)."""
        options = self.conversation.run_options
        parallel = bool(options.get("parallel")) and len(calls) > 1
        if not parallel:
            records = [self._call(call, self._started(call)) for call in calls]
        else:
            records = []
            for batch in _batches(calls, self.conversation.tools):
                records += self._parallel(batch, int(options.get("max_workers", DEFAULT_MAX_WORKERS)))
        return [self._settle(call, record) for call, record in zip(calls, records)]

    def _idempotent(self, call: ToolCall) -> bool:
        tools = self.conversation.tools
        return call.name not in tools or tools.get(call.name).idempotent

    def _started(self, call: ToolCall) -> bool:
        """Record that ``call`` starts (tools not marked idempotent); True when it had started before this
        worker: the worker it started on died before its result was recorded."""
        if self._idempotent(call):
            return False
        from dbos import DBOS

        fresh: list[bool] = []
        DBOS.run_step({"name": f"conductor.started:{call.name}"}, lambda: fresh.append(True) or call.id)
        return not fresh

    def _step(self, call: ToolCall, restarted: bool) -> Callable[[], str]:
        conversation = self.conversation

        def run() -> str:
            if restarted:  # started by a worker that died, and its result never recorded
                return json.dumps({"interrupted": True})
            deadline = conversation.limits.deadline_at(conversation)
            record = run_call(call, conversation.tools, conversation.origin, deadline)
            return json.dumps({"record": _to_json(record)}, ensure_ascii=False)

        return run

    def _call(self, call: ToolCall, restarted: bool) -> dict[str, Any]:
        from dbos import DBOS

        return json.loads(DBOS.run_step({"name": f"conductor.tool:{call.name}"}, self._step(call, restarted)))

    def _parallel(self, batch: list[ToolCall], width: int) -> list[dict[str, Any]]:
        from dbos import DBOS

        restarted = [self._started(call) for call in batch]  # in call order, in the workflow's thread
        reserved = [DBOS.reserve_step() for _ in batch]
        slots = threading.BoundedSemaphore(max(1, min(width, len(batch))))
        out: list[Any] = [None] * len(batch)
        # DBOS looks a step up in the database before running it, which is Python work that holds the GIL.
        # Started together, the calls' look-ups share the interpreter and each one's tool starts only when
        # both are done; in turn, each call's look-up starts when the one before it has started its tool, so
        # the first tool starts sooner and none later. The calls still run side by side.
        turns = [threading.Event() for _ in batch]
        turns[0].set()

        def handing_on(i: int, step: Callable[[], str]) -> Callable[[], str]:
            def run() -> str:
                if i + 1 < len(batch):
                    turns[i + 1].set()  # DBOS has looked this step up: the next call's look-up may start
                return step()
            return run

        def one(i: int) -> None:
            turns[i].wait()  # before taking a slot: a call holding one never waits on a call without one
            with slots:
                try:
                    out[i] = json.loads(reserved[i].run({"name": f"conductor.tool:{batch[i].name}"},
                                                        handing_on(i, self._step(batch[i], restarted[i]))))
                except BaseException as exc:  # noqa: BLE001 - raised in the workflow's thread below
                    out[i] = exc
                finally:  # a replayed step never runs its function, and a failed one may not have
                    if i + 1 < len(batch):
                        turns[i + 1].set()

        threads = []
        for i in range(len(batch)):
            context = contextvars.copy_context()  # DBOS's workflow context goes with the call
            thread = threading.Thread(target=context.run, args=(one, i), name="durable-tool", daemon=True)
            thread.start()
            threads.append(thread)
        for thread in threads:
            thread.join()
        for item in out:
            if isinstance(item, BaseException):
                raise item
        return out

    def _settle(self, call: ToolCall, recorded: dict[str, Any]) -> ToolCallRecord:
        """The call's record; a call cut off by a dead worker waits for a person's decision first."""
        if "record" in recorded:
            return _from_json(recorded["record"])
        logger.warning("tool call %s (%s) was cut off when its worker stopped; waiting for a person to decide",
                       call.id, call.name)
        from .guards import pending_call

        while True:
            decisions = self.wait("interrupted", (pending_call(call),))
            decision = decisions.get(call.id)
            if call.id in self.outputs:  # a person found the call had taken effect, and gave its result
                now = time.perf_counter() - self.conversation.origin
                return ToolCallRecord(id=call.id, name=call.name, arguments=_arguments(call), is_error=False,
                                      started=now, ended=now, output=self.outputs[call.id])
            if decision is None or not decision.approved:
                break
            from dbos import DBOS

            # Run again as the person asked: recorded as started first, so a crash during it asks again.
            restarted = self._started(call)
            text = DBOS.run_step({"name": f"conductor.rerun:{call.name}"}, self._step(call, restarted))
            rerun = json.loads(text)
            if "record" in rerun:
                return _from_json(rerun["record"])
        reason = decision.reason if decision is not None else ""
        now = time.perf_counter() - self.conversation.origin
        return ToolCallRecord(
            id=call.id, name=call.name, arguments=_arguments(call), is_error=True, started=now, ended=now,
            output=f"{call.name} was cut off when the worker running it stopped; a person chose not to run it "
                   f"again{': ' + reason if reason else ''}. It may or may not have taken effect.",
            blocked="denied",
        )

    # waiting for people -----------------------------------------------------------------------

    def wait(self, kind: str, calls: Sequence[PendingCall]) -> dict[str, Decision]:
        """Every one of ``calls``' decisions, when they are in; otherwise park: the pause is recorded and
        :class:`Parked` ends the workflow. The decisions come later from any process, which then starts
        the run's continuation at the step that reads them (:class:`Pauses`)."""
        from dbos import DBOS

        self.pauses += 1
        tools = self.conversation.tools
        listed = tuple({"id": c.id, "name": c.name, "arguments": dict(c.arguments), "digest": c.digest,
                        "caller": c.caller, "schema": tools.get(c.name).parameters if c.name in tools else None}
                       for c in calls)
        reserved = DBOS.reserve_step()
        pause = Pause(self.run_id, self.pauses, kind, listed, str(DBOS.workflow_id), reserved.step_id,
                      self.app.version, None)
        store = self.app.pauses
        assert store is not None
        decided = json.loads(reserved.run({"name": "conductor.await"}, lambda: json.dumps(store.open(pause))))
        if decided is None:
            logger.info("durable run %s parked (%s): %s", self.run_id, kind, ", ".join(c.id for c in calls))
            raise Parked(pause)
        decisions: dict[str, Decision] = {}
        for call in calls:
            given = decided[call.id]
            problem = self._edit_problem(call, given.get("arguments"))
            if problem:  # the sender checked it against the schema; the tool itself is stricter: not run
                logger.warning("the edit for %s was refused: %s", call.id, problem)
                given = {"approved": False, "reason": f"a person's edit of the arguments was refused: {problem}"}
            if kind == "interrupted" and isinstance(given.get("output"), str):
                self.outputs[call.id] = given["output"]
            decisions[call.id] = Decision(
                approved=bool(given.get("approved")), digest=call.digest, reason=given.get("reason", ""),
                arguments=given.get("arguments"),
            )
        return decisions

    def _edit_problem(self, call: PendingCall, arguments: str | None) -> str | None:
        if arguments is None:
            return None
        from .guards import check_edit

        try:
            check_edit(self.conversation.tools.get(call.name), call.id, arguments)
        except (ValueError, KeyError) as exc:
            return str(exc)
        return None


def _arguments(call: ToolCall) -> Any:
    try:
        return call.parsed_arguments()
    except ValueError:
        return call.arguments


def drive(run: _Run) -> RunResult:
    """The ordinary loop (``LLM._drive``) with its requests and calls as steps, waiting instead of pausing."""
    llm, conversation = run.app.llm, run.conversation
    limits = conversation.limits
    limits.require_prices([llm.prices])
    try:
        while True:
            while (request := conversation.next_request()) is not None:
                if not limits.pace(conversation, request):
                    continue
                held = None
                if run.app.queue_budget is not None:
                    held = run.reserve(request)
                    if held is None:  # the queue's budget is spent: this run ends as a run budget would end it
                        from .budget import stopped_answer

                        limits.release()
                        conversation.stop("budget", stopped_answer(conversation, "budget", "the queue's budget"))
                        continue
                started = time.perf_counter()
                try:
                    response = run.request(request)
                except Exception as exc:
                    if held is not None:
                        run.settle(held, held)  # it may have been billed
                    if not limits.overran(conversation, exc):
                        raise
                    continue
                if response is None:
                    if held is not None:
                        run.settle(held, 0.0)
                    continue
                calls = conversation.receive(response, started, time.perf_counter())
                if held is not None:
                    run.settle(held, conversation.model_calls[-1].cost)
                if calls:
                    conversation.add_results(run.execute(calls))
            if not conversation.paused:
                break
            decisions = run.wait("approval", conversation.paused)
            calls = conversation.resume(decisions)
            if calls:
                conversation.add_results(run.execute(calls))
    finally:
        limits.abandon()
    return llm._result(conversation)


# -- the app -------------------------------------------------------------------------------------

def _off_loop(func: Callable[[], Any]) -> Any:
    """``func()``, on another thread when this one runs an event loop (Jupyter's): DBOS refuses its
    blocking calls there."""
    import asyncio

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return func()
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(contextvars.copy_context().run, func).result()


class Durable:
    """An llm and its tools served as durable runs on a DBOS system database (build with :func:`durable`)."""

    def __init__(
        self,
        llm: Any,
        *,
        tools: Iterable[Tool | Callable[..., Any]],
        database: str = DEFAULT_DATABASE,
        queue: str = DEFAULT_QUEUE,
        concurrency: int | None = None,
        worker_concurrency: int | None = None,
        requests_per_minute: int | None = None,
        name: str = "conductor",
        polling: float = 0.1,
        executor_id: str = "local",
        queue_budget: Any = None,
    ) -> None:
        self.llm = llm
        self.budget_usd = _budget_usd(queue_budget)
        self.queue_budget: QueueBudget | None = None
        self.tools = check_tools(tools)
        self.database = database
        self.queue_name = queue
        self.fingerprint = fingerprint(self.tools)
        self.version = f"conductor-{FORMAT}-{self.fingerprint}"
        self.name = name
        self.polling = polling
        self.executor_id = executor_id
        self.queue_limits = {"concurrency": concurrency, "worker_concurrency": worker_concurrency,
                             "requests_per_minute": requests_per_minute}
        self.launched = False
        self.pauses: Pauses | None = None  # where this worker's runs park (opened at launch)
        self._client: DurableClient | None = None
        self._handles: dict[str, Any] = {}  # runs started here: their result is waited for in-process

    def __repr__(self) -> str:
        return f"Durable({self.llm!r}, tools={self.tools.names}, database={self.database!r})"

    # lifecycle -------------------------------------------------------------------------------

    def launch(self) -> Durable:
        """Start DBOS in this process on the database: unfinished runs of this tool set resume now."""
        global _app
        from dbos import DBOS

        with _app_lock:
            if _app is not None and _app is not self:
                if _app.launched:
                    raise DurableError(
                        "this process already serves durable runs (one DBOS instance per process): call "
                        "shutdown() on the other app first"
                    )
            reach(self.database)
            prepare_database(self.database)
            self._refuse_other_tool_sets()
            _register()
            config: dict[str, Any] = {
                "name": self.name, "system_database_url": self.database, "application_version": self.version,
                "notification_listener_polling_interval_sec": self.polling, "log_level": "WARNING",
                "executor_id": self.executor_id,
            }
            if _sqlite_path(self.database) is not None:
                config["db_engine_kwargs"] = dict(SQLITE_POOL)
            _app = self
            self.pauses = Pauses(self.database)
            _off_loop(lambda: self._start_dbos(config))
            self.launched = True
            self.client.resume_claimed()  # a sender that died between a last decision and its continuation
            budget = QueueBudget(self.database, self.queue_name, self.budget_usd)
            self.queue_budget = budget if budget.active else None
            if self.queue_budget is None:
                budget.close()
        logger.info("durable runs on %s, tools %s (version %s)", self.database, self.tools.names, self.version)
        return self

    def _start_dbos(self, config: dict[str, Any]) -> None:
        from dbos import DBOS

        DBOS(config=config)  # type: ignore[arg-type]
        DBOS.launch()
        limits = self.queue_limits
        limiter = None
        if limits["requests_per_minute"]:
            limiter = {"limit": int(limits["requests_per_minute"]), "period": 60.0}
        # The queue's limits live in the database: the last worker launched sets them for all.
        DBOS.register_queue(
            self.queue_name, global_concurrency=limits["concurrency"],
            worker_concurrency=limits["worker_concurrency"], limiter=limiter,
            polling_interval_sec=self.polling, on_conflict="always_update",
        )

    def shutdown(self) -> None:
        """Stop DBOS in this process (unfinished runs stay in the database for the next worker)."""
        global _app
        from dbos import DBOS

        with _app_lock:
            if self._client is not None:
                self._client.close()
                self._client = None
            if self.queue_budget is not None:
                self.queue_budget.close()
                self.queue_budget = None
            if self.pauses is not None:
                self.pauses.close()
                self.pauses = None
            if self.launched:
                _off_loop(lambda: DBOS.destroy(destroy_registry=False))
                self.launched = False
            if _app is self:
                _app = None

    def __enter__(self) -> Durable:
        return self if self.launched else self.launch()

    def __exit__(self, *exc: Any) -> None:
        self.shutdown()

    def _refuse_other_tool_sets(self) -> None:
        """Refuse to serve a queue whose waiting runs were started with another tool set."""
        try:
            client = self.client  # kept: the launch reads the pauses through it next
        except DurableError:
            return  # a new database: nothing waits yet
        try:
            others = client.waiting(self.queue_name, exclude_version=self.version)
        except Exception:  # noqa: BLE001 - no DBOS tables yet (a new database): nothing waits
            logger.debug("no durable runs recorded yet in %s", _safe(self.database), exc_info=True)
            return
        if others:
            theirs = sorted({", ".join(tools) for tools in others.values()})
            raise DurableError(
                f"queue {self.queue_name!r} on {self.database} holds {sum(1 for _ in others)} unfinished run(s) "
                f"started with another tool set ({'; '.join(theirs)}); this worker has {', '.join(self.tools.names)}, "
                f"version {self.version} (the version changes with any tool's name or schema). A run resumes only "
                "on a worker with the tools it started with: start this worker with those tools, or give it "
                "another queue= (or database)"
            )

    # runs ------------------------------------------------------------------------------------

    def _payload(self, question: str, options: dict[str, Any], run_id: str) -> str:
        for name in options.get("tools", ()) or ():
            name = _tool_name(name)
            if isinstance(name, str) and name not in self.tools:
                raise DurableError(f"tool {name!r} is not one this durable app serves ({', '.join(self.tools.names)})")
        spec = {**json.loads(encode_options(question, options)), "tools": self.tools.names, "version": self.version,
                "run_id": run_id}
        try:  # what llm.run would refuse (an unknown option, a bad tool_choice) is refused before anything is recorded
            self._conversation_of(spec)
        except (TypeError, ValueError) as exc:
            raise DurableError(f"this durable run would be refused when it starts: {exc}") from exc
        return json.dumps(spec, ensure_ascii=False)

    def _ensure(self) -> None:
        if not self.launched:
            self.launch()

    def start(self, question: str, *, run_id: str | None = None, **options: Any) -> str:
        """Start a durable run in this process; its id (``result(run_id)`` waits for it)."""
        from dbos import DBOS, SetWorkflowID

        run_id = _run_id(run_id)
        payload = self._payload(question, options, run_id)  # refused before anything is recorded
        self._ensure()

        def start() -> Any:
            with SetWorkflowID(run_id):
                return DBOS.start_workflow(_register(), payload)

        self._handles[run_id] = _off_loop(start)
        return run_id

    def enqueue(self, question: str, *, run_id: str | None = None, **options: Any) -> str:
        """Put a durable run on the queue; its id. Any worker on the database with these tools takes it,
        within the queue's limits. This never launches DBOS here: a process that only hands runs to
        workers (a web handler, a notebook) builds the app with ``launch=False`` and enqueues."""
        run_id = _run_id(run_id)
        payload = self._payload(question, options, run_id)
        try:
            self.client.enqueue(self.queue_name, payload, run_id=run_id, version=self.version)
        except Exception as exc:  # noqa: BLE001 - one line that says what to do
            if "no such table" in str(exc) or "does not exist" in str(exc):
                raise DurableError(f"no worker has opened {_safe(self.database)} yet: start one first "
                                   "(cd.durable(llm, tools=[...], database=...))") from None
            raise
        return run_id

    def run(self, question: str, **options: Any) -> RunResult:
        """``llm.run`` as a durable run: recorded step by step, resumed by any worker if this one dies."""
        return self.result(self.start(question, **options))

    def run_many(self, questions: Sequence[str], **options: Any) -> list[RunResult]:
        """Every question as a durable run on the queue (its concurrency and rate limits apply across all
        workers); the results in the questions' order."""
        self._ensure()  # this process serves the queue too
        ids = [self.enqueue(q, **options) for q in questions]
        return [self.result(run_id) for run_id in ids]

    @property
    def client(self) -> DurableClient:
        if self._client is None:
            self._client = DurableClient(self.database)
        return self._client

    def result(self, run_id: str, timeout: float | None = None) -> RunResult:
        """Wait for the run to end (started here, or by any process on the database); its RunResult."""
        handle = self._handles.pop(run_id, None)
        if handle is not None and timeout is None:
            output = _off_loop(handle.get_result)
            if PARKED not in json.loads(output):
                return RunResult.from_json(output)
        return self.client.result(run_id, timeout=timeout)

    def pending(self, run_id: str) -> Pending:
        return self.client.pending(run_id)

    def steps(self, run_id: str) -> list[tuple[int, str]]:
        """The steps recorded for a run so far, continuations included: (step id, name), in order."""
        from dbos import DBOS

        latest = self.client.segment(run_id)
        return [(s["function_id"], s["function_name"]) for s in _off_loop(lambda: DBOS.list_workflow_steps(latest))]

    def approve(self, run_id: str, call_id: str, approved: bool = True, *,
                arguments: Mapping[str, Any] | None = None, reason: str = "") -> None:
        self.client.approve(run_id, call_id, approved, arguments=arguments, reason=reason)

    def reject(self, run_id: str, call_id: str, reason: str = "") -> None:
        self.client.reject(run_id, call_id, reason)

    def complete(self, run_id: str, call_id: str, output: str) -> None:
        self.client.complete(run_id, call_id, output)

    # inside the workflow -----------------------------------------------------------------------

    def _body(self, payload: str) -> str:
        from dbos import DBOS

        spec = json.loads(payload)
        if spec.get("version") != self.version:
            raise DurableError(
                f"this run was started with tools {spec.get('tools')}; this worker serves {self.tools.names}"
            )
        run_id = spec.get("run_id") or str(DBOS.workflow_id)
        token = _run_var.set(run_id)
        try:
            return drive(_Run(self, self._conversation_of(spec), run_id)).to_json()
        except Parked as parked:
            return json.dumps({PARKED: parked.pause.pause, "run_id": run_id})
        finally:
            _run_var.reset(token)

    def _conversation_of(self, spec: Mapping[str, Any]) -> Conversation:
        """The run's conversation, built from its recorded input exactly as ``llm.run`` builds it."""
        options = {k: _from_json(v) for k, v in spec["options"].items()}
        names = options.pop("tools", None)
        tools = [self.tools.get(n) if isinstance(n, str) else n for n in names] if names is not None \
            else list(self.tools)
        return self.llm._conversation(
            spec["question"], tools, options.pop("max_rounds", 2), options.pop("system", None),
            options.pop("history", None), options.pop("max_tokens", None), options.pop("parallel_tool_calls", None),
            options.pop("tool_choice", None), _sdk_only(options),
            guards={"allowed_tools": options.pop("allowed_tools", None),
                    "max_repeats": options.pop("max_repeats", DEFAULT_MAX_REPEATS), "approve": None},
            parallel=bool(options.pop("parallel", False)),
            max_workers=int(options.pop("max_workers", DEFAULT_MAX_WORKERS)),
            max_pauses=options.pop("max_pauses", DEFAULT_MAX_PAUSES),
            limits=_limits(options.pop("budget", None), options.pop("deadline", None)),
            keep_raw=False,
        )


def _run_id(given: str | None) -> str:
    """The id a new run gets (a fresh one when none is given)."""
    if given is None:
        return f"run-{uuid.uuid4().hex[:12]}"
    if not isinstance(given, str) or not given.strip() or len(given) > 160:
        raise DurableError(f"run_id= takes a non-empty string of at most 160 characters, got {given!r}")
    return given


DurableLLM = Durable  # the name the course's design gives what cd.durable returns


def _budget_usd(value: Any) -> float | None:
    """The dollars of ``queue_budget=`` (a cd.Budget with usd=, or a number)."""
    if value is None:
        return None
    usd = getattr(value, "usd", value)
    if isinstance(usd, bool) or not isinstance(usd, (int, float)) or usd < 0:
        raise DurableError(f"queue_budget= takes cd.Budget(usd=...) or dollars, got {value!r}")
    return float(usd)


def _sdk_only(options: dict[str, Any]) -> dict[str, Any]:
    return {k: options.pop(k) for k in list(options) if k not in _RUN_OPTIONS}


def _limits(budget: Any, deadline: float | None) -> Any:
    from .budget import RunLimits

    return RunLimits.of(budget, deadline)


def durable(
    llm: Any,
    *,
    tools: Iterable[Tool | Callable[..., Any]],
    database: str = DEFAULT_DATABASE,
    queue: str = DEFAULT_QUEUE,
    concurrency: int | None = None,
    worker_concurrency: int | None = None,
    requests_per_minute: int | None = None,
    executor_id: str = "local",
    queue_budget: Any = None,
    launch: bool = True,
) -> Durable:
    """``llm`` and ``tools`` served as durable runs on ``database`` (SQLite file by default; a
    ``postgresql://`` URL to share one queue among many worker processes).

    ``app.run(question, **llm.run options)`` is a durable ``llm.run``; ``app.enqueue`` /
    ``app.run_many`` go through the queue, whose ``concurrency`` (all workers),
    ``worker_concurrency`` (each) and ``requests_per_minute`` (run starts) hold across every
    worker on the database. Launching (the default) resumes every unfinished run this worker
    held (its ``executor_id``): several workers on one database each need their own, kept across
    restarts (``"worker-1"``, ...), or each one launched would take over the others' live runs.
    ``queue_budget=cd.Budget(usd=...)``: dollars every run of the queue may spend together, across
    all workers (kept in the database; a run whose next request would cross it ends with
    ``stopped_by="budget"``).
    """
    app = Durable(llm, tools=tools, database=database, queue=queue, concurrency=concurrency,
                  worker_concurrency=worker_concurrency, requests_per_minute=requests_per_minute,
                  executor_id=executor_id, queue_budget=queue_budget)
    return app.launch() if launch else app


# -- the database --------------------------------------------------------------------------------

def _sqlite_path(url: str) -> str | None:
    if not url.startswith("sqlite:///"):
        return None
    return url[len("sqlite:///"):].split("?", 1)[0]


def reach(url: str) -> None:
    """Connect once, or raise one clear DatabaseUnreachable line (not a stack of SQLAlchemy errors)."""
    path = _sqlite_path(url)
    if path is not None:
        import os

        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise DatabaseUnreachable(f"cannot open the durable runs' database {url}: the folder {folder} "
                                      "does not exist")
        return
    if not url.startswith(("postgresql://", "postgres://", "postgresql+psycopg://")):
        raise DatabaseUnreachable(f"the durable runs' database must be sqlite:///FILE or postgresql://..., got {url!r}")
    try:
        import psycopg

        plain = url.replace("postgresql+psycopg://", "postgresql://")
        with psycopg.connect(plain, connect_timeout=5):
            pass
    except Exception as exc:  # noqa: BLE001 - every way of failing becomes one line
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise DatabaseUnreachable(f"cannot reach the durable runs' database {_safe(url)}: {first}") from None


def _safe(url: str) -> str:
    """``url`` without its password."""
    import re

    return re.sub(r"://([^:/@]+):[^@]*@", r"://\1:***@", url)


# DBOS's pool for a SQLite file. No pre-ping: SQLAlchemy would run a query on every checkout to find a
# connection a server dropped, and a connection to a local file is never dropped (a step opens two
# transactions, so that was two more statements a step). LIFO: a step gets the connection used last,
# usually its own workflow's, whose page cache and prepared statements are still valid (FIFO handed
# out the one idle longest, whose cache another connection's commits had made stale).
SQLITE_POOL = {"pool_pre_ping": False, "pool_use_lifo": True}

_tuned: set[str] = set()  # SQLite files whose connections get synchronous=NORMAL


def prepare_database(url: str) -> None:
    """SQLite: write-ahead logging, set on the file before DBOS opens it (a step then costs about half), and
    ``synchronous=NORMAL`` on every connection to it: in WAL mode a commit then survives the process being
    killed (what durability here is about) and only an operating-system crash or power cut can lose the
    last commits; FULL (SQLite's default) syncs the disk on every step."""
    path = _sqlite_path(url)
    if path is None:
        return
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA journal_mode=WAL")
    import os

    if not _tuned:
        from sqlalchemy import event
        from sqlalchemy.engine import Engine

        event.listen(Engine, "connect", _synchronous_normal)
    _tuned.add(os.path.abspath(path))


def _synchronous_normal(dbapi_connection: Any, record: Any) -> None:
    if not isinstance(dbapi_connection, sqlite3.Connection):
        return
    import os

    files = [row[2] for row in dbapi_connection.execute("PRAGMA database_list")]
    if any(f and os.path.abspath(f) in _tuned for f in files):
        dbapi_connection.execute("PRAGMA synchronous=NORMAL")


def _engine(database: str) -> Any:
    """A SQLAlchemy engine on the runs' database, for conductor's own tables beside DBOS's."""
    import sqlalchemy as sa

    url = database.replace("postgresql://", "postgresql+psycopg://", 1) if database.startswith(
        "postgresql://") else database
    return sa.create_engine(url, connect_args={"timeout": 30} if url.startswith("sqlite") else {})


# -- a dollar budget for a whole queue -----------------------------------------------------------

class QueueBudget:
    """Dollars every run of one queue may spend together, kept in the runs' database so every worker
    shares it: a request reserves its worst case (an atomic UPDATE that fails when it would cross the
    budget), then settles at what it cost. Both are recorded steps, so a replay never counts twice."""

    TABLE = "conductor_queue_budget"

    def __init__(self, database: str, queue: str, usd: float | None = None) -> None:
        import sqlalchemy as sa

        self.queue = queue
        self.engine = _engine(database)
        with self.engine.begin() as c:
            c.execute(sa.text(f"CREATE TABLE IF NOT EXISTS {self.TABLE} (queue VARCHAR(200) PRIMARY KEY, "
                              "usd DOUBLE PRECISION NOT NULL, spent DOUBLE PRECISION NOT NULL DEFAULT 0, "
                              "reserved DOUBLE PRECISION NOT NULL DEFAULT 0)"))
            if usd is not None:
                found = c.execute(sa.text(f"UPDATE {self.TABLE} SET usd = :usd WHERE queue = :q"),
                                  {"usd": usd, "q": queue}).rowcount
                if not found:
                    c.execute(sa.text(f"INSERT INTO {self.TABLE} (queue, usd) VALUES (:q, :usd)"),
                              {"q": queue, "usd": usd})

    @property
    def active(self) -> bool:
        return self.state() is not None

    def state(self) -> tuple[float, float, float] | None:
        """(budget, spent, reserved) in dollars, or None when the queue has no budget."""
        import sqlalchemy as sa

        with self.engine.begin() as c:
            row = c.execute(sa.text(f"SELECT usd, spent, reserved FROM {self.TABLE} WHERE queue = :q"),
                            {"q": self.queue}).fetchone()
        return None if row is None else (float(row[0]), float(row[1]), float(row[2]))

    def reserve(self, worst: float) -> bool:
        import sqlalchemy as sa

        with self.engine.begin() as c:
            return c.execute(sa.text(
                f"UPDATE {self.TABLE} SET reserved = reserved + :w WHERE queue = :q AND spent + reserved + :w <= usd"
            ), {"w": worst, "q": self.queue}).rowcount == 1

    def settle(self, worst: float, actual: float) -> None:
        import sqlalchemy as sa

        with self.engine.begin() as c:
            c.execute(sa.text(f"UPDATE {self.TABLE} SET reserved = reserved - :w, spent = spent + :a WHERE queue = :q"),
                      {"w": worst, "a": actual, "q": self.queue})

    def close(self) -> None:
        self.engine.dispose()


# -- parked runs ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Pause:
    """One pause of a run as the database holds it."""

    run_id: str  # the run's own id (what people use), whichever segment parked
    pause: int
    kind: str  # "approval" or "interrupted"
    calls: tuple[dict[str, Any], ...]  # id, name, arguments, digest, caller, schema
    segment: str  # the workflow that parked (the run's id, or an earlier continuation's)
    step: int  # the step that reads the decisions: a continuation starts there
    version: str
    resumed: str | None  # the workflow that goes on from here (None while the run is parked)
    decided: frozenset[str] = frozenset()  # call ids with a decision recorded

    @property
    def continuation(self) -> str:
        return f"{self.run_id}:after-pause-{self.pause}"


class Pauses:
    """Where parked runs wait: conductor's two tables beside DBOS's in the runs' database.

    A run that reaches a call needing a person records the pause (its calls, and the step that reads
    the decisions) and its workflow ends: no thread, no process is held while it waits. Each decision
    is a row. Whoever completes the set (the last decision sent, or the run's own step when the
    decisions were in first) claims the pause in one atomic UPDATE; when a decision completed it, the
    sender starts the continuation: DBOS forks the parked workflow at the step that reads the
    decisions, so any worker with the run's tools replays the recorded steps and goes on. Hand-written
    on DBOS's primitives because DBOS's own messages (``send``/``recv``) need a workflow running to
    receive them, which is the thread this avoids.
    """

    PAUSES = "conductor_pauses"
    DECISIONS = "conductor_decisions"
    _LATEST = f"p.pause = (SELECT MAX(q.pause) FROM {PAUSES} q WHERE q.run_id = p.run_id)"  # a run's latest pause

    def __init__(self, database: str) -> None:
        import sqlalchemy as sa

        self.engine = _engine(database)
        with self.engine.begin() as c:
            c.execute(sa.text(
                f"CREATE TABLE IF NOT EXISTS {self.PAUSES} (run_id VARCHAR(200) NOT NULL, pause INTEGER NOT NULL, "
                "kind VARCHAR(20) NOT NULL, calls TEXT NOT NULL, segment VARCHAR(300) NOT NULL, "
                "step INTEGER NOT NULL, version VARCHAR(100) NOT NULL, resumed VARCHAR(300), "
                "parked_at DOUBLE PRECISION NOT NULL, PRIMARY KEY (run_id, pause))"))
            c.execute(sa.text(
                f"CREATE TABLE IF NOT EXISTS {self.DECISIONS} (run_id VARCHAR(200) NOT NULL, pause INTEGER NOT NULL, "
                "call_id VARCHAR(200) NOT NULL, decision TEXT NOT NULL, PRIMARY KEY (run_id, pause, call_id))"))

    def close(self) -> None:
        self.engine.dispose()

    # the run's side (inside a step) ---------------------------------------------------------

    def open(self, pause: Pause) -> dict[str, dict[str, Any]] | None:
        """Record ``pause`` (once) and claim it for ``pause.segment`` when every call is decided: the
        decisions, or None when the run must park."""
        import sqlalchemy as sa

        with self.engine.begin() as c:
            c.execute(sa.text(
                f"INSERT INTO {self.PAUSES} (run_id, pause, kind, calls, segment, step, version, parked_at) "
                "VALUES (:r, :p, :kind, :calls, :segment, :step, :version, :at) ON CONFLICT (run_id, pause) DO NOTHING"
            ), {"r": pause.run_id, "p": pause.pause, "kind": pause.kind, "calls": json.dumps(pause.calls),
                "segment": pause.segment, "step": pause.step, "version": pause.version, "at": time.time()})
        self._claim(pause, pause.segment)
        found = self.get(pause.run_id, pause.pause)
        if found is None or found.resumed != pause.segment:
            return None
        return self.decisions(pause.run_id, pause.pause)

    def _claim(self, pause: Pause, by: str) -> bool:
        """Set who goes on from ``pause``, once, and only when every call has its decision."""
        import sqlalchemy as sa

        with self.engine.begin() as c:
            return c.execute(sa.text(
                f"UPDATE {self.PAUSES} SET resumed = :by WHERE run_id = :r AND pause = :p AND resumed IS NULL "
                f"AND (SELECT COUNT(*) FROM {self.DECISIONS} d WHERE d.run_id = :r AND d.pause = :p) >= :n"
            ), {"by": by, "r": pause.run_id, "p": pause.pause, "n": len(pause.calls)}).rowcount == 1

    # anyone's side -----------------------------------------------------------------------------

    def _select(self, where: str, params: Mapping[str, Any]) -> list[Pause]:
        """The pauses ``where`` picks, each with the calls decided so far: two queries however many."""
        import sqlalchemy as sa

        with self.engine.begin() as c:
            rows = c.execute(sa.text(
                f"SELECT run_id, pause, kind, calls, segment, step, version, resumed FROM {self.PAUSES} p "
                f"WHERE {where} ORDER BY run_id, pause"), dict(params)).fetchall()
            if not rows:
                return []
            decided = c.execute(sa.text(
                f"SELECT d.run_id, d.pause, d.call_id FROM {self.DECISIONS} d JOIN {self.PAUSES} p "
                f"ON p.run_id = d.run_id AND p.pause = d.pause WHERE {where}"), dict(params)).fetchall()
        by_pause: dict[tuple[str, int], set[str]] = {}
        for run_id, pause, call_id in decided:
            by_pause.setdefault((run_id, pause), set()).add(call_id)
        return [Pause(r[0], r[1], r[2], tuple(json.loads(r[3])), r[4], r[5], r[6], r[7],
                      frozenset(by_pause.get((r[0], r[1]), ()))) for r in rows]

    def get(self, run_id: str, pause: int | None = None) -> Pause | None:
        """The run's pause ``pause`` (its latest when None), with the calls decided so far."""
        if pause is not None:
            found = self._select("p.run_id = :r AND p.pause = :n", {"r": run_id, "n": pause})
        else:
            found = self._select(self._LATEST + " AND p.run_id = :r", {"r": run_id})
        return found[0] if found else None

    def latest(self) -> dict[str, Pause]:
        """Every run's latest pause, by run id (runs that never paused are not in it)."""
        return {p.run_id: p for p in self._select(self._LATEST, {})}

    def decisions(self, run_id: str, pause: int) -> dict[str, dict[str, Any]]:
        import sqlalchemy as sa

        with self.engine.begin() as c:
            rows = c.execute(sa.text(f"SELECT call_id, decision FROM {self.DECISIONS} WHERE run_id = :r AND "
                                     "pause = :p"), {"r": run_id, "p": pause}).fetchall()
        return {call_id: json.loads(decision) for call_id, decision in rows}

    def decide(self, pause: Pause, call_id: str, decision: Mapping[str, Any]) -> bool:
        """Record a decision (the first one for a call stands); True when it completed the pause and
        claimed it for the continuation, which the caller then starts."""
        import sqlalchemy as sa

        with self.engine.begin() as c:
            added = c.execute(sa.text(
                f"INSERT INTO {self.DECISIONS} (run_id, pause, call_id, decision) VALUES (:r, :p, :call, :d) "
                "ON CONFLICT (run_id, pause, call_id) DO NOTHING"
            ), {"r": pause.run_id, "p": pause.pause, "call": call_id, "d": json.dumps(dict(decision))}).rowcount
        if not added:
            raise KeyError(f"call {call_id!r} of durable run {pause.run_id} was decided already")
        return self._claim(pause, pause.continuation)

    def parked(self) -> list[Pause]:
        """Every pause no run has gone on from yet."""
        return self._select("p.resumed IS NULL", {})

    def claimed(self) -> list[Pause]:
        """Pauses a decision completed: each one's continuation should exist."""
        return self._select("p.resumed IS NOT NULL AND p.resumed <> p.segment", {})


# -- other processes -----------------------------------------------------------------------------

class DurableClient:
    """Durable runs seen from any process (a notebook, a web handler, the CLI), without serving them:
    a DBOS client, which never launches, so it never recovers (and re-runs) another process's runs."""

    def __init__(self, database: str = DEFAULT_DATABASE) -> None:
        from dbos import DBOSClient

        reach(database)
        self.database = database
        try:
            self._dbos = DBOSClient(system_database_url=database, retry_connection_errors=False)
        except Exception as exc:  # noqa: BLE001 - one line
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise DurableError(f"no durable runs' database at {_safe(database)}: {first}") from None

        self.pauses = Pauses(database)

    def close(self) -> None:
        self.pauses.close()
        self._dbos.destroy()

    def __enter__(self) -> DurableClient:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def enqueue(self, queue: str, payload: str, *, run_id: str, version: str) -> None:
        self._dbos.enqueue({"workflow_name": WORKFLOW, "queue_name": queue, "workflow_id": run_id,
                            "app_version": version}, payload)

    def segment(self, run_id: str) -> str:
        """The workflow that carries the run now: its own id, or its latest continuation's."""
        return _carrier(run_id, self.pauses.get(run_id))

    def _status_of(self, run_id: str, pause: Pause | None) -> Any:
        """DBOS's status of the workflow that carries the run, given the run's latest pause."""
        workflow = _carrier(run_id, pause)
        found = self._dbos.list_workflows(workflow_ids=[workflow], load_input=False, load_output=False)
        if not found:
            if workflow == run_id:
                raise KeyError(f"no durable run has id {run_id!r} in {_safe(self.database)}")
            self.resume_claimed()  # its sender died before starting it
            found = self._dbos.list_workflows(workflow_ids=[workflow], load_input=False, load_output=False)
        return found[0]

    def executor(self, run_id: str) -> str | None:
        """The executor id of the worker that took the run (None while it waits on the queue)."""
        return self._status_of(run_id, self.pauses.get(run_id)).executor_id

    def status(self, run_id: str) -> str:
        """PARKED while the run waits for a decision; otherwise DBOS's workflow status of the run (its
        latest continuation's): ENQUEUED, PENDING (running, or its worker died), SUCCESS, ERROR, ..."""
        return self._status(run_id, self.pauses.get(run_id))

    def _status(self, run_id: str, pause: Pause | None) -> str:
        if pause is not None and pause.resumed is None:
            return PARKED_STATUS
        return str(self._status_of(run_id, pause).status)

    def runs(self, status: str | list[str] | None = None) -> list[str]:
        """The ids of the durable runs in the database (optionally only those whose :meth:`status` is
        ``status``); a continuation is not a run of its own."""
        found = self._dbos.list_workflows(name=WORKFLOW, load_input=False, load_output=False)
        by_id = {w.workflow_id: str(w.status) for w in found}
        wanted = None if status is None else {status} if isinstance(status, str) else set(status)
        latest = self.pauses.latest()
        out = []
        for w in found:
            if w.forked_from is not None:
                continue
            pause = latest.get(w.workflow_id)
            if pause is not None and pause.resumed is None:
                now = PARKED_STATUS
            else:  # a continuation not in the list yet is about to be started
                now = by_id.get(_carrier(w.workflow_id, pause), "ENQUEUED")
            if wanted is None or now in wanted:
                out.append(w.workflow_id)
        return out

    def waiting(self, queue: str, *, exclude_version: str) -> dict[str, list[str]]:
        """Unfinished runs on ``queue`` (parked ones included) started with another tool set: run id ->
        its tool names and tool-set version."""
        found = self._dbos.list_workflows(name=WORKFLOW, status=["PENDING", "ENQUEUED"], load_input=True,
                                          load_output=False)
        parked = [p for p in self.pauses.parked() if p.version != exclude_version]
        if parked:
            found += self._dbos.list_workflows(workflow_ids=[p.segment for p in parked], load_input=True,
                                               load_output=False)
        out: dict[str, list[str]] = {}
        for status in found:
            if status.app_version == exclude_version:
                continue
            if status.queue_name not in (None, queue, INTERNAL_QUEUE):
                continue
            try:
                payload = json.loads(status.input["args"][0])  # type: ignore[index]
                run_id = payload.get("run_id") or status.workflow_id
                out[run_id] = [*payload.get("tools", []), f"version {status.app_version}"]
            except (TypeError, KeyError, IndexError, ValueError):
                out[status.workflow_id] = ["?"]
        return out

    def result(self, run_id: str, timeout: float | None = None) -> RunResult:
        """Wait for the run to end (through any number of pauses) and return its RunResult."""
        end = None if timeout is None else time.monotonic() + timeout
        while True:
            pause = self.pauses.get(run_id)  # read once a look: the status and the workflow follow from it
            now = self._status(run_id, pause)
            if now in ("PENDING", "ENQUEUED", PARKED_STATUS):
                if end is not None and time.monotonic() > end:
                    raise TimeoutError(f"durable run {run_id} has not finished after {timeout} s ({now.lower()})")
                time.sleep(POLL)
                continue
            output = self._dbos.retrieve_workflow(_carrier(run_id, pause)).get_result(polling_interval_sec=POLL)
            if PARKED not in json.loads(output):
                return RunResult.from_json(output)
            # it parked again since the status was read: wait for its next continuation

    def pending(self, run_id: str) -> Pending:
        """What the parked run still waits on (no calls when it waits on nothing)."""
        pause = self.pauses.get(run_id)
        if pause is None or pause.resumed is not None:
            return Pending(run_id, 0, "", ())
        calls = tuple(PendingCall(c["id"], c["name"], c["arguments"], c["digest"], c.get("caller", "model"))
                      for c in pause.calls if c["id"] not in pause.decided)
        return Pending(run_id, pause.pause, pause.kind, calls)

    def wait_pending(self, run_id: str, timeout: float = 60.0) -> Pending:
        """Wait until the run waits on a decision; what it waits on."""
        end = time.monotonic() + timeout
        while True:
            pending = self.pending(run_id)
            if pending.calls:
                return pending
            if time.monotonic() > end:
                raise TimeoutError(f"durable run {run_id} is not waiting on a decision after {timeout} s")
            time.sleep(POLL)

    def _decide(self, run_id: str, call_id: str, decision: dict[str, Any], kind: str | None = None) -> None:
        pause = self.pauses.get(run_id)
        calls = {c["id"]: c for c in pause.calls if c["id"] not in pause.decided} \
            if pause is not None and pause.resumed is None else {}
        if call_id not in calls:
            waiting = ", ".join(f"{c['id']} ({c['name']})" for c in calls.values()) or "nothing"
            raise KeyError(f"durable run {run_id} is not waiting on call {call_id!r}; it waits on: {waiting}")
        assert pause is not None
        if kind is not None and pause.kind != kind:
            raise ValueError("complete() answers a call cut off by a dead worker; approve or reject an approval")
        if decision.get("arguments") is not None:
            _check_edit(calls[call_id], call_id, decision["arguments"])
        if self.pauses.decide(pause, call_id, decision):
            self._continue(pause)

    def _continue(self, pause: Pause) -> None:
        """Start the run's continuation from ``pause``: a fork of the parked workflow at the step that
        reads the decisions, on the queue the run came from, for workers with its tools."""
        from dbos import SetWorkflowID

        parked = self._dbos.list_workflows(workflow_ids=[pause.segment], load_input=False, load_output=False)
        queue = parked[0].queue_name if parked else None
        try:
            with SetWorkflowID(pause.continuation):
                self._dbos.fork_workflow(pause.segment, pause.step, application_version=pause.version,
                                         queue_name=queue or INTERNAL_QUEUE)
        except Exception as exc:  # noqa: BLE001 - started already (by another sender or a repair)
            if self._dbos.list_workflows(workflow_ids=[pause.continuation], load_input=False, load_output=False):
                return
            raise DurableError(f"could not start durable run {pause.run_id}'s continuation: {exc}") from exc
        logger.info("durable run %s goes on after pause %s", pause.run_id, pause.pause)

    def resume_claimed(self) -> int:
        """Start every continuation a last decision claimed but whose sender died before starting it;
        how many were started."""
        started = 0
        for pause in self.pauses.claimed():
            if not self._dbos.list_workflows(workflow_ids=[pause.continuation], load_input=False,
                                             load_output=False):
                self._continue(pause)
                started += 1
        return started

    def approve(self, run_id: str, call_id: str, approved: bool = True, *,
                arguments: Mapping[str, Any] | None = None, reason: str = "") -> None:
        """Approve ``call_id`` of a parked run (with a person's edit of its arguments), or with
        ``approved=False`` deny it telling the model ``reason``; the run goes on once every call it waits
        on is decided."""
        if not approved:
            self.reject(run_id, call_id, reason)
            return
        edit = None
        if arguments is not None:
            try:
                edit = json.dumps(dict(arguments), ensure_ascii=False, allow_nan=False)
            except (TypeError, ValueError) as exc:
                raise ValueError(f"the edited arguments cannot be sent as JSON ({exc})") from exc
        self._decide(run_id, call_id, {"approved": True, "arguments": edit})

    def reject(self, run_id: str, call_id: str, reason: str = "") -> None:
        """Deny ``call_id`` of a parked run; the model is told, with ``reason``."""
        self._decide(run_id, call_id, {"approved": False, "reason": reason})

    def complete(self, run_id: str, call_id: str, output: str) -> None:
        """A call cut off by a dead worker did take effect (a person checked): ``output`` is its result,
        and it does not run again."""
        self._decide(run_id, call_id, {"approved": False, "output": str(output)}, kind="interrupted")


def _carrier(run_id: str, pause: Pause | None) -> str:
    """The workflow that carries a run whose latest pause is ``pause``: the run's own, or a continuation's."""
    return run_id if pause is None else pause.resumed or pause.segment


def _check_edit(call: Mapping[str, Any], call_id: str, arguments: str) -> None:
    """A person's edit checked against the tool's JSON schema before it is recorded (the worker checks
    it against the tool itself again; a client has no tools)."""
    import jsonschema

    schema = call.get("schema")
    if not schema:
        return
    problem = next(iter(jsonschema.Draft202012Validator(schema).iter_errors(json.loads(arguments))), None)
    if problem is not None:
        raise ValueError(f"the edited arguments for call {call_id} do not fit the tool's schema, so nothing was "
                         f"approved: {problem.message}. Fix them and call approve again")
