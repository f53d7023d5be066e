"""The round loop: ask the model, run the tools it asks for, feed the results back, repeat.

Round semantics (``max_rounds`` counts tool rounds):

* while rounds remain, every request offers the tools (with the caller's
  ``tool_choice``, ``auto`` by default);
* when the model asks for tools in the last allowed round, those calls run and
  one final request is made with tool use forbidden (``tool_choice`` none, tools
  still defined), so a run makes at most ``max_rounds + 1`` requests;
* if the model asks for tools in that final request anyway, they are not run
  and the run ends with whatever text the model wrote;
* every tool call id the model issued is answered exactly once, in call order;
* a turn the API paused (Anthropic's ``stop_reason: "pause_turn"``: a long
  server-tool turn, such as a web search) is continued by sending it back
  unchanged, at most ``max_pauses`` times in a run; a continuation is a request
  but never a tool round. Past the limit the run ends with the text so far
  (``stopped_by="pause_limit"``).

Before any call runs, the run's guards (:mod:`conductor.guards`: allowlist,
invalid-call budget, validation, loop detection, approval) screen it. A call
they stop is answered by a record with ``blocked`` set; a call that needs a
person's approval pauses the run (``stopped_by="approval"``, ``result.pending``)
with the conversation kept whole, so ``llm.resume(result)`` goes on from there,
in this process or, the result pickled (or saved with ``to_json``), in another
(:class:`PausedRun`).

:class:`Conversation` holds the state of one run in the neutral form
(:mod:`conductor.types`) and knows what to send next; each request's messages
are that neutral conversation rendered for the adapter in use, each message
rendered once. ``LLM.run`` / ``LLM.arun`` only drive it (sync and async share
every decision).
"""

from __future__ import annotations

import contextlib
import copy
import json
import logging
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import cache
from typing import TYPE_CHECKING, Any, NoReturn

from . import context, display, programs
from . import tracing as _tracing
from .apis import history_to_neutral
from .apis.base import is_hosted_approval, system_text
from .budget import Budget, Ledger, RunLimits, stopped_answer
from .guards import Decision, Guards, PendingCall, Screened, check_edit, edited, provenance
from .search import SEARCH_TOOL, client_search_registry, searchable
from .tools import Tool, ToolRegistry, resolve_tool
from .trace import ModelCall, Round, ToolCallRecord, Trace
from .types import CostSplit, Message, StopReason, SystemMessage, ToolCall, ToolResult, Turn, Usage, UserMessage

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from .apis import RequestSettings, WireApi

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class RunResult:
    """What one ``llm.run`` produced.

    How the run ended, flag by flag (none of them means the run failed):

    * ``forced_final``: every allowed tool round was used, so the final answer
      was requested with tool use forbidden. A chain that needs exactly
      ``max_rounds`` rounds ends this way.
    * ``ignored_tool_calls``: calls the model still asked for in that final
      request; they were not run. Non-empty means the limit cut the model short.
    * ``truncated`` / ``refused`` / ``empty``: the answer was cut by the token
      limit, is a refusal, or holds no text.
    * ``stopped_by``: a guard or a limit ended the run early (``"pause_limit"``: the
      model was still pausing its turn when ``max_pauses`` continuations were used,
      and ``answer`` holds its text so far); ``"approval"`` means
      paused, with the calls awaiting a decision in ``pending`` (decide with
      :meth:`approve` / :meth:`reject`, which record on this result and return
      nothing, then call ``llm.resume(result)``).

    A paused result pickles (or is saved with :meth:`to_json`): load it in another
    process and resume it there (see :class:`PausedRun` for what travels, and what
    cannot be guarded).
    """

    answer: str
    messages: list[dict[str, Any]] = field(repr=False)  # the wire messages of this run's API
    trace: Trace = field(repr=False)
    stop_reason: StopReason = StopReason.END_TURN
    native_stop_reason: str | None = None
    truncated: bool = False  # the answer was cut by max_tokens / length
    refused: bool = False  # the model refused; ``answer`` holds the refusal
    empty: bool = False  # the model returned no text at all
    forced_final: bool = False  # all max_rounds were used: the answer was written with tools off
    ignored_tool_calls: tuple[ToolCall, ...] = ()  # calls asked for when tools were forbidden; never run
    max_rounds: int | None = None
    conversation: tuple[Message, ...] = field(default=(), repr=False)  # the neutral form of ``messages``
    # Why the run ended before the model finished: "loop", "validation", "budget", "deadline",
    # "pause_limit" (still pausing after max_pauses continuations), "approval" (paused: see ``pending``),
    # or None when the model wrote its answer.
    stopped_by: str | None = None
    # Calls awaiting a person's decision when stopped_by == "approval" (see approve / reject / llm.resume).
    pending: tuple[PendingCall, ...] = ()
    paused: PausedRun | None = field(default=None, repr=False, compare=False)

    def approve(self, call_id: str, *, arguments: Mapping[str, Any] | None = None) -> None:
        """Approve the pending call ``call_id`` with exactly the arguments shown in :attr:`pending`,
        or with ``arguments``: a person's edit of them.

        This records the decision on this paused result and runs nothing (it returns
        nothing either); ``llm.resume(result)`` then runs the approved calls and goes on.
        An edit is checked against the tool's schema here (a ValueError names what is
        wrong, and nothing is recorded); the call then runs with it, its record keeps the
        model's arguments in ``edited_from``, and the model reads in the result what the
        person changed. An edit equal to the model's arguments is a plain approval.
        """
        pending = self._pending_call(call_id)
        edit = None if arguments is None else self._paused_run().edit(pending, arguments)
        self._decide(call_id, Decision(approved=True, digest=pending.digest, arguments=edit))

    def reject(self, call_id: str, reason: str = "") -> None:
        """Deny the pending call ``call_id``; the model is told, with ``reason``, when the run resumes.

        A pending call left undecided is denied by default when the run resumes.
        """
        self._decide(call_id, Decision(approved=False, digest=self._pending_call(call_id).digest, reason=reason))

    def _pending_call(self, call_id: str) -> PendingCall:
        for call in self.pending:
            if call.id == call_id:
                return call
        waiting = ", ".join(f"{c.id} ({c.name})" for c in self.pending) or "none: this run is not paused"
        raise KeyError(f"no pending call has id {call_id!r}; the calls awaiting a decision are: {waiting}")

    def _paused_run(self) -> PausedRun:
        assert self.paused is not None  # pending is non-empty only on a paused result
        return self.paused

    def _decide(self, call_id: str, decision: Decision) -> None:
        self._paused_run().record(call_id, decision)
        edit = f" with arguments edited to {decision.arguments}" if decision.arguments is not None else ""
        logger.info("%s %s%s", "approved" if decision.approved else "denied", self._pending_call(call_id), edit)

    @property
    def hit_round_limit(self) -> bool:
        """Every allowed tool round was used (the same as :attr:`forced_final`).

        Reaching the limit is how a chain of exactly ``max_rounds`` steps ends;
        whether the model wanted more is :attr:`ignored_tool_calls`.
        """
        return self.forced_final

    @property
    def rounds(self) -> tuple[Round, ...]:
        """One record per tool round."""
        return self.trace.rounds

    @property
    def api_calls(self) -> int:
        """Model requests made (at most ``max_rounds + 1``)."""
        return len(self.trace.model_calls)

    @property
    def usage(self) -> Usage:
        return self.trace.usage

    @property
    def cost(self) -> float:
        """US dollars for every request of the run."""
        return self.trace.cost

    @property
    def seconds(self) -> float:
        return self.trace.seconds

    @property
    def tool_calls(self) -> list[ToolCallRecord]:
        """Every tool call of every round, in order."""
        return [call for r in self.rounds for call in r.tool_calls]

    @property
    def programs(self) -> tuple[programs.Program, ...]:
        """The programs the model wrote (``programmatic=True``), as the API returned them."""
        return programs.programs_of(self.conversation)

    def table(self) -> str:
        """Round-by-round latency, tokens and cost as plain text."""
        return self.trace.table()

    def plot(self, *, figsize: tuple[float, float] = (10, 3.6)) -> Figure:
        """Round-by-round latency and cost charts."""
        return self.trace.plot(figsize=figsize)

    def transcript(self, *, width: int = display.LINE_WIDTH) -> str:
        """What happened, one line per tool call, then the answer (deterministic: no timings).

        Every line fits in ``width`` display columns (the answer is wrapped, the other lines clipped).
        """
        lines = []
        for r in self.rounds:
            for c in r.tool_calls:
                mark = "error" if c.is_error else "ok"
                if c.blocked and c.blocked != "invalid":  # an invalid call reads as the error it always was
                    mark = f"not run: {c.blocked}"
                lines.append(display.clip(f"round {r.index}: {c.name}({c.arguments}) -> [{mark}] {c.output}", width))
                if c.provenance:
                    lines.append(display.clip(f"    came from a tool result: {c.provenance}", width))
        for p in self.pending:
            lines.append(display.clip(f"waiting for approval: {p.id} {p}", width))
        notes = [
            note
            for note, on in (
                ("cut by max_tokens", self.truncated),
                ("refused", self.refused),
                ("empty answer", self.empty),
                (f"stopped by the {self.stopped_by}", self.stopped_by in ("budget", "deadline")),
                ("the model was still pausing its turn at max_pauses", self.stopped_by == "pause_limit"),
            )
            if on
        ]
        for c in self.ignored_tool_calls:
            lines.append(display.clip(f"not run, max_rounds={self.max_rounds} used: {c.name}({c.arguments})", width))
        if self.ignored_tool_calls:
            more = _count(len(self.ignored_tool_calls), "more call")
            notes.append(f"the model still wanted {more}; max_rounds={self.max_rounds} used")
        elif self.forced_final:
            notes.append(f"tools were off for the final answer: max_rounds={self.max_rounds} used")
        suffix = f" ({'; '.join(notes)})" if notes else ""
        done = "paused" if self.pending else "answer"
        head = f"{done} after {_count(len(self.rounds), 'round')}, {_count(self.api_calls, 'request')}{suffix}"
        lines.append(display.clip(head, width - 1) + ":")
        lines.append(display.wrap(self.answer, width))  # long answers wrap at spaces (or anywhere in Chinese)
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.answer

    def to_json(self) -> str:
        """This result as JSON text, for storage that keeps text (a database column, a file to read):
        :meth:`from_json` reads it back, a paused result included, ready to decide on and resume.

        The SDK's response objects (``Turn.raw``) are left out. Raises TypeError naming a
        value JSON cannot hold (an SDK option such as an ``httpx.Timeout``): pickle then.
        """
        return json.dumps({"format": _JSON_FORMAT, "result": _to_json(self)}, ensure_ascii=False, allow_nan=False)

    @classmethod
    def from_json(cls, text: str) -> RunResult:
        """The result :meth:`to_json` wrote. Only conductor's own record types are built from the text,
        never a class it names otherwise."""
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("format") != _JSON_FORMAT:
            raise ValueError(f"not a result written by RunResult.to_json (format {_JSON_FORMAT})")
        result = _from_json(data["result"])
        if not isinstance(result, cls):
            raise ValueError(f"the JSON holds a {type(result).__name__}, not a RunResult")
        return result


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


DEFAULT_MAX_PAUSES = 3  # continuations of paused turns (Anthropic pause_turn) in one run


def check_max_pauses(max_pauses: Any) -> int:
    """``max_pauses`` itself, or an error saying what it must be."""
    if isinstance(max_pauses, bool) or not isinstance(max_pauses, int) or max_pauses < 0:
        raise ValueError(
            f"max_pauses must be a whole number of continuations (0 or more), got {max_pauses!r}: it caps how "
            "often a turn the API paused (pause_turn) is sent back to be continued"
        )
    return max_pauses


def check_max_rounds(max_rounds: Any) -> int:
    """``max_rounds`` itself, or an error saying what it must be."""
    if isinstance(max_rounds, bool) or not isinstance(max_rounds, int):
        raise TypeError(f"max_rounds must be a whole number of tool rounds (0 or more), got {max_rounds!r}")
    if max_rounds < 0:
        raise ValueError(f"max_rounds must be 0 or more, got {max_rounds}")
    return max_rounds


def unique_call_ids(turn: Turn, taken: set[str], request: int) -> Turn:
    """``turn`` with an id no other call of the conversation has, on every call.

    Results are paired with calls by position, but on the wire they are matched
    by id, so two calls sharing an id (or with none, as some OpenAI-compatible
    local servers send) would get one answer between them. The model's id is
    kept when it is non-empty and unused; otherwise the call gets a synthetic
    one, built from the request and position so a rerun gives the same, and
    used both in the assistant turn sent back and in its result.
    """
    calls = []
    for position, call in enumerate(turn.tool_calls, 1):
        if not call.id or call.id in taken:
            synthetic = f"call_{request}_{position}"
            while synthetic in taken:
                synthetic += "_"
            logger.info("tool call %s had id %r, already used or empty; it is sent as %r", call.name, call.id, synthetic)
            call = replace(call, id=synthetic)
        taken.add(call.id)
        calls.append(call)
    return replace(turn, tool_calls=tuple(calls)) if calls != list(turn.tool_calls) else turn


class MalformedResponseError(ValueError):
    """A model response the loop cannot read: not JSON (cut off, an HTML page), or a field missing or of the
    wrong type."""


def _from(server: str) -> str:
    return f" from {server}" if server else ""


@contextlib.contextmanager
def readable_responses(api: str, server: str) -> Iterator[None]:
    """Turn a response body the SDK could not decode (a 200 cut off mid-JSON) into MalformedResponseError."""
    try:
        yield
    except json.JSONDecodeError as exc:
        raise MalformedResponseError(
            f"the {api} response{_from(server)} is not valid JSON ({exc.msg} at position {exc.pos} of "
            f"{len(exc.doc)} characters): the body was cut off or is not the API's; check base_url, and "
            "retry if the connection dropped"
        ) from exc


class _Rendering:
    """One API's wire messages for a prefix of the neutral conversation."""

    __slots__ = ("messages", "done")

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self.done = 0  # neutral messages rendered so far


# The paused runs resumed in this process, by token: one saved run loaded twice here (two copies of
# one file) is still resumed once. Other processes cannot see this set: see PausedRun.
_resumed: set[str] = set()
_claims = threading.Lock()


@dataclass(frozen=True)
class ToolRef:
    """One tool of a paused run as plain data: its name and schema, and where its code can be imported from."""

    name: str
    parameters: dict[str, Any]  # the schema the model was shown
    module: str | None = None  # with ``attribute``: the module-level name the tool is defined under, or None
    attribute: str | None = None

    @classmethod
    def of(cls, tool: Tool) -> ToolRef:
        module, attribute = tool.reference() or (None, None)
        return cls(tool.name, tool.parameters, module, attribute)

    def resolve(self) -> Tool | None:
        """The tool imported from its module, or None when it is not there (resume must then be given it)."""
        if self.module is None or self.attribute is None:
            return None
        try:
            found = resolve_tool(self.module, self.attribute)
        except (ImportError, AttributeError, TypeError) as exc:
            logger.info("tool %s not found as %s.%s: %s", self.name, self.module, self.attribute, exc)
            return None
        return found if found.name == self.name else None

    def schema_only(self) -> Tool:
        """A tool with this one's name and schema and no code, to check a person's edit when the code is not here."""
        return Tool(_no_code, name=self.name, description="(only its schema is loaded)", parameters=self.parameters)


def _no_code(**arguments: Any) -> NoReturn:
    raise RuntimeError("this tool has only its schema here: it checks arguments and never runs")


def _left(ledger: Ledger) -> Budget:
    """What is left of ``ledger``'s budget, as a budget of its own."""
    left = ledger.remaining()
    return Budget(
        usd=None if ledger.budget.usd is None else max(left.usd, 0.0),
        tokens=None if ledger.budget.tokens is None else max(int(left.tokens), 0),
    )


@dataclass
class PausedRun:
    """A run paused for approval, as the plain data ``llm.resume`` continues it from.

    It pickles, so a paused result can be saved and resumed in another process
    (``pickle.dump(result, file)``; later ``llm.resume(pickle.load(file))`` on an llm
    connected to the same provider, API and model). It holds the neutral conversation
    (the paused turn last), the calls awaiting a decision and those of that turn already
    answered, the decisions, the guards' counters, the request settings by value, and
    the tools by reference: the module-level name each is defined under. ``resume``
    rebuilds the rest: the SDK client, adapter and prices are the resuming llm's; the
    tools are imported again from their modules, or given with ``llm.resume(result,
    tools=[...])`` (a tool defined inside a function, or in a notebook cell not run
    again, has no name to import). In the process that paused, the run goes on with
    its own tools and limits; in another, each budget is what was left of it at the
    pause (a budget shared with other runs is no longer shared), the deadline counts
    the run's time before the pause (never the wait for a person), and an
    orchestrator's rate limits are not carried.

    A paused run resumes once: :meth:`claim` marks it, and in one process the mark
    holds for every copy of it (the same file loaded twice included), so an approved
    call runs once however often it is resumed. Two processes that load the same saved
    run cannot see each other's mark, and both would run the approved calls. A
    deployment keeps the mark where every process sees it: say, one database row per
    paused run, claimed with ``UPDATE paused SET resumed = true WHERE token = ? AND NOT
    resumed``, the process whose update changed a row being the one that resumes; and
    it passes each call's id (the same in every process) to the side effect as an
    idempotency key. Load saved runs only from storage you trust: unpickling runs code,
    and resuming imports the tools' modules.
    """

    token: str  # this pause's identity: the claim is keyed by it
    api: str  # the API, model and provider the run paused on
    model: str
    provider: str
    settings: RequestSettings  # by value, with ``tools`` empty: the tools travel in ``tools``
    tools: tuple[ToolRef, ...]
    max_rounds: int
    run_options: dict[str, Any]  # how calls execute (parallel, max_workers)
    neutral: tuple[Message, ...]  # the conversation, the paused turn last (without the SDK objects)
    continued: tuple[str, int] | None  # server state: (last response id, messages it holds)
    model_calls: tuple[ModelCall, ...]
    rounds: tuple[Round, ...]
    call: ModelCall  # the request whose turn is paused
    screened: Screened  # that turn's calls: those answered (run or not) and those awaiting a decision
    guards: Guards  # the policy and counters (approve= is None: a run with a policy never pauses)
    elapsed: float  # seconds the run had taken when it paused
    deadline: float | None
    budgets: tuple[Budget, ...]  # what was left of each budget when the run paused
    decisions: dict[str, Decision] = field(default_factory=dict)
    resumed: bool = False
    max_pauses: int = DEFAULT_MAX_PAUSES  # continuations of paused turns allowed in the run, and those made
    pauses: int = 0
    # The run's tools and limits in the process that paused it (left out when pickled): there a budget shared
    # with other runs stays shared, and an orchestrator's rate limits go on.
    live_tools: ToolRegistry | None = field(default=None, repr=False, compare=False)
    live_limits: RunLimits | None = field(default=None, repr=False, compare=False)

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "live_tools": None, "live_limits": None}

    @property
    def pending(self) -> tuple[PendingCall, ...]:
        """The calls awaiting a decision, in call order."""
        return tuple(self.screened.pending[i] for i in sorted(self.screened.pending))

    def record(self, call_id: str, decision: Decision) -> None:
        """Keep a decision, unless the run has resumed (then it would change nothing)."""
        with _claims:
            if self.resumed or self.token in _resumed:
                raise RuntimeError("this paused run was already resumed; decide on the result llm.resume returned")
            self.decisions[call_id] = decision

    def claim(self) -> dict[str, Decision]:
        """Mark the run resumed and return the decisions; only the first caller in this process gets them.

        Atomic, so two resumes of one result (two threads, a double click, two copies of
        one saved run) cannot both run its calls.
        """
        with _claims:
            if self.resumed or self.token in _resumed:
                raise RuntimeError(
                    "this paused result was already resumed (its approved calls have run); continue from the "
                    "result that resume returned"
                )
            self.resumed = True
            _resumed.add(self.token)
            return dict(self.decisions)

    def edit(self, pending: PendingCall, arguments: Any) -> str | None:
        """A person's edit of ``pending``'s arguments as the text to run, None when it changes nothing;
        a ValueError naming the problem when the tool's schema does not take it."""
        if is_hosted_approval(pending.name):
            raise ValueError(
                f"{pending.name} is a call the provider runs on its MCP server, as the model asked: it can be "
                "approved or rejected, not edited (reject it with a reason, and the model may ask again)"
            )
        if not isinstance(arguments, Mapping):
            raise TypeError(
                f"arguments= takes the edited arguments as a dict, e.g. arguments={dict(pending.arguments)!r}; "
                f"got {type(arguments).__name__}"
            )
        try:
            text = json.dumps(dict(arguments), ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise ValueError(
                f"the edited arguments for call {pending.id} cannot be sent as JSON ({exc}); use text, numbers, "
                f"True/False, None, lists and dicts"
            ) from exc
        check_edit(self._tool(pending.name), pending.id, text)
        return None if json.loads(text) == dict(pending.arguments) else text

    def _tool(self, name: str) -> Tool:
        """The tool to check an edit with: the run's own, else imported, else its schema alone (``resume``
        checks the edit again with the tool it is given)."""
        if self.live_tools is not None and name in self.live_tools:
            return self.live_tools.get(name)
        ref = next(r for r in self.tools if r.name == name)
        return ref.resolve() or ref.schema_only()

    def registry(self, given: Iterable[Tool | Callable[..., Any]] | None = None) -> ToolRegistry:
        """The run's tools, in their order: those ``given`` to resume, else the run's own in this process,
        else imported from their modules; a ValueError saying how to pass the ones not found."""
        named = {t.name: t for t in ToolRegistry(given or ())}
        offered = [ref.name for ref in self.tools]
        unknown = sorted(set(named) - set(offered))
        client_search = SEARCH_TOOL in offered  # conductor's tool search: given tools it had not loaded stay searchable
        if unknown and not client_search:
            raise ValueError(
                f"tools= names {', '.join(unknown)}, which this paused run did not offer; resume continues the "
                f"same run with the same tools: pass only these: {', '.join(offered)}"
            )
        found: list[Tool] = []
        missing: list[str] = []
        search_at: int | None = None  # where the client search tool goes again: it is always made anew
        for ref in self.tools:
            if ref.name == SEARCH_TOOL:
                # The search before the pause adds what it finds to the registry it was made with, never to
                # this one: a new search over the same tools adds to the resumed run's.
                search_at = len(found)
                continue
            tool = named.get(ref.name)
            if tool is None and self.live_tools is not None and ref.name in self.live_tools:
                tool = self.live_tools.get(ref.name)
            if tool is None:
                tool = ref.resolve()
            if tool is None:
                missing.append(ref.name)
            else:
                if tool.parameters != ref.parameters:
                    logger.warning(
                        "tool %s has another schema than the one the model was shown before the pause; "
                        "the run goes on with the tool as it is now", ref.name,
                    )
                found.append(tool)
        if missing:
            raise ValueError(
                f"this paused run's tools {', '.join(missing)} cannot be found in this process: only a tool "
                f"defined at the top level of a module can be imported again (not one made inside a function, "
                f"nor in a notebook cell not run again). Pass the tools again: "
                f"llm.resume(result, tools=[{', '.join(offered)}])"
            )
        if search_at is not None:
            live = self.live_tools
            before = searchable(live.get(SEARCH_TOOL)) if live is not None and SEARCH_TOOL in live else []
            offered_now = {t.name for t in found}
            deferred = {t.name: t for t in before if t.name not in offered_now}
            deferred.update((n, named[n]) for n in unknown)  # a tool given to resume wins over the run's own
            return client_search_registry(found[:search_at], list(deferred.values()), found[search_at:])
        return ToolRegistry(found)

    def limits(self) -> RunLimits:
        """The run's limits: its own in this process, else rebuilt from its deadline and what was left
        of its budgets."""
        if self.live_limits is not None:
            return self.live_limits
        return RunLimits.of(list(self.budgets), self.deadline)

    def restore(
        self,
        *,
        adapter: WireApi,
        model: str,
        price: Callable[[Usage], CostSplit],
        provider: str,
        tools: Iterable[Tool | Callable[..., Any]] | None = None,
    ) -> tuple[Conversation, list[ToolCall]]:
        """This run rebuilt on the llm resuming it, its decisions applied: the conversation and the calls to run now.

        Whatever can fail is checked before the run is claimed, so a resume that raises
        leaves the paused result as it was (decide again, or pass ``tools=``, and resume).
        """
        registry = self.registry(tools)
        names = {p.id: p.name for p in self.pending}
        for call_id, decision in self.decisions.items():
            if decision.arguments is not None and call_id in names:
                check_edit(registry.get(names[call_id]), call_id, decision.arguments)
        if (adapter.api, model) != (self.api, self.model):
            if self.settings.server_state:
                raise ValueError(
                    f"this run keeps its conversation on the server of {self.api} {self.model!r} "
                    f"(server_state=True), so only that model can continue it; resume it on an llm connected to "
                    f"the same provider, API and model"
                )
            logger.info("run paused on %s %s resumes on %s %s", self.api, self.model, adapter.api, model)
        decisions = self.claim()
        conversation = Conversation.restore(
            self, adapter=adapter, model=model, price=price, provider=provider, tools=registry, limits=self.limits()
        )
        return conversation, conversation.resume(decisions)


class Conversation:
    """The state of one run and the decision of what to do next.

    ``next_request`` gives the SDK arguments for the next model request, or
    ``None`` when the run is over; ``receive`` takes the model's response and
    returns the tool calls to run (empty when there is nothing to run);
    ``add_results`` takes the executed calls' records, in call order.

    ``adapter`` may be swapped between requests (a model fallback to another
    API): the neutral conversation is then rendered for the new API.
    """

    def __init__(
        self,
        *,
        adapter: WireApi,
        settings: RequestSettings,
        question: str,
        history: Sequence[Any] | None,
        max_rounds: int,
        price: Callable[[Usage], CostSplit],
        guards: Guards | None = None,
        max_pauses: int = DEFAULT_MAX_PAUSES,
    ) -> None:
        neutral = history_to_neutral(history)
        given = system_text(settings.system)
        if given and SystemMessage(given) not in neutral:
            neutral.insert(0, SystemMessage(given))
        # Anthropic takes instructions as one parameter: every system message of the history, in order.
        system = "\n\n".join(m.text for m in neutral if isinstance(m, SystemMessage))
        # Blocks given as system= stay blocks (their cache_control marks Anthropic's prompt cache)
        # unless the history brought more instructions, which then join them as text.
        blocks = isinstance(settings.system, list) and system == given
        neutral.append(UserMessage(question))
        system_sent = settings.system if blocks else system or None
        self._start(
            adapter=adapter,
            carried=len(neutral) - 1,  # the history was read in the runs that made it; the question not yet
            # dataclasses.replace only when something changes: it costs a batch several us per conversation
            settings=settings if system_sent == settings.system else replace(settings, system=system_sent),
            neutral=neutral,
            max_rounds=max_rounds,
            price=price,
            guards=guards or Guards(),
            max_pauses=max_pauses,
        )

    def _start(
        self,
        *,
        adapter: WireApi,
        settings: RequestSettings,
        neutral: list[Message],
        max_rounds: int,
        price: Callable[[Usage], CostSplit],
        guards: Guards,
        max_pauses: int = DEFAULT_MAX_PAUSES,
        carried: int = 0,
    ) -> None:
        """Every attribute of a run as it starts (a new run, or a paused one being restored).

        ``carried``: how many of ``neutral``'s messages a request has already carried to the model.
        """
        self.max_rounds = check_max_rounds(max_rounds)
        self.max_pauses = check_max_pauses(max_pauses)
        self.pauses = 0  # paused turns continued so far (never tool rounds)
        self._paused_texts: tuple[str, ...] = ()  # text of the paused turns the next turn continues
        self.guards = guards
        self.adapter = adapter
        self.price = price
        self.settings = settings
        self.neutral = neutral
        # Messages neutral[:carried] went out in a request: the model (or its program) has read them, so only
        # they may be cleared to fit context_limit.
        self.carried = carried
        self.call_ids = {c.id for m in neutral if isinstance(m, Turn) for c in m.tool_calls}
        self._renderings: dict[tuple[str, str], _Rendering] = {}
        self.continued: tuple[str, int] | None = None  # server state: (last response id, messages it holds)
        self.origin = time.perf_counter()
        self.model_calls: list[ModelCall] = []
        self.rounds: list[Round] = []
        self.final: Turn | None = None
        self.stopped_by: str | None = None
        self.provider = ""  # set by the LLM driving the run; recorded on each ModelCall
        self.server = ""  # the base URL requests go to, named when a response cannot be read
        self.keep_raw = True  # each Turn keeps the SDK's response object (Turn.raw), for inspection
        self._pending: tuple[Turn, ModelCall] | None = None
        self._screened: Screened | None = None  # the guards' verdicts on the pending turn's calls
        self.paused: tuple[PendingCall, ...] = ()  # calls awaiting a person's decision
        self._paused_at = 0.0  # when the run paused (perf_counter)
        self._pause_token = ""  # the pause's identity, shared by every result made of it (see PausedRun.claim)
        self.limits = RunLimits()  # budgets and deadline (llm.run's budget= / deadline=); none by default
        self.run_options: dict[str, Any] = {}  # how the driver executes calls (parallel, ...), kept for resume

    @classmethod
    def restore(
        cls,
        paused: PausedRun,
        *,
        adapter: WireApi,
        model: str,
        price: Callable[[Usage], CostSplit],
        provider: str,
        tools: ToolRegistry,
        limits: RunLimits,
    ) -> Conversation:
        """``paused`` as a live conversation again, on ``adapter`` and ``model``, still awaiting its decisions.

        ``paused`` itself is left as it was: the conversation works on copies.
        """
        turn = paused.neutral[-1]
        if not isinstance(turn, Turn):
            raise ValueError("this paused run is damaged: its conversation does not end with the paused turn")
        conversation = cls.__new__(cls)
        conversation._start(
            adapter=adapter,
            settings=replace(paused.settings, model=model, tools=tools),
            neutral=list(paused.neutral),
            max_rounds=paused.max_rounds,
            price=price,
            guards=copy.deepcopy(paused.guards),
            max_pauses=paused.max_pauses,
            carried=len(paused.neutral),  # the paused turn is a response: everything before it went out
        )
        conversation.pauses = paused.pauses
        # The clock goes on from where the run paused: the trace and the deadline leave out the wait for a person.
        conversation.origin = time.perf_counter() - paused.elapsed
        conversation.provider = provider
        conversation.continued = paused.continued
        conversation.model_calls = list(paused.model_calls)
        conversation.rounds = list(paused.rounds)
        conversation._pending = (turn, paused.call)
        conversation._screened = copy.deepcopy(paused.screened)
        conversation.paused = paused.pending
        conversation._pause_token = paused.token
        conversation.limits = limits
        conversation.run_options = dict(paused.run_options)
        return conversation

    @property
    def tools(self) -> ToolRegistry:
        return self.settings.tools

    @property
    def tools_allowed(self) -> bool:
        return len(self.rounds) < self.max_rounds

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The conversation so far as wire messages of the current API, for the current model.

        One rendering per (API, model): a turn's reasoning goes back only to the model that wrote it.
        """
        key = (self.adapter.api, self.settings.model)
        rendering = self._renderings.get(key)
        if rendering is None:
            rendering = self._renderings[key] = _Rendering()
        if rendering.done < len(self.neutral):
            self.adapter.render(self.neutral[rendering.done :], rendering.messages, model=self.settings.model)
            rendering.done = len(self.neutral)
        return rendering.messages

    def switch(
        self,
        *,
        adapter: WireApi,
        model: str,
        price: Callable[[Usage], CostSplit],
        provider: str,
        server: str = "",
    ) -> None:
        """Send the next requests to another model (a model fallback), maybe on another API.

        The neutral conversation is rendered for ``adapter``'s API by the next
        :meth:`next_request`, with ``model``; responses are priced with ``price``
        and recorded under ``model`` and ``provider``. Requests built before the
        switch are stale: build the next one again.
        """
        self.adapter = adapter
        self.settings = replace(self.settings, model=model)
        self.price = price
        self.provider = provider
        self.server = server

    def reset_rendering(self) -> None:
        """Render the conversation again for the next request (an earlier message was changed in place)."""
        self._renderings.clear()

    def next_request(self) -> dict[str, Any] | None:
        if self.final is not None or self.paused:
            return None
        if self.settings.context_limit and self.settings.context != "server":
            context.fit(self)  # clears the oldest tool results when the request would pass context_limit
        request = self.adapter.request(
            self.settings, self.messages, tools_allowed=self.tools_allowed, continued=self.continued,
            conversation=self.neutral,
        )
        # Budgets and the deadline are checked before the request goes out, never after it is billed.
        refused = self.limits.check(self, request) if self.limits.active else None
        if refused is not None:
            self.stop(refused[0], stopped_answer(self, *refused))
            return None
        return request

    def receive(self, response: Any, started: float, ended: float, *, batch_id: str | None = None) -> list[ToolCall]:
        """Record one model response; return the calls to run now.

        ``batch_id``: the provider batch that carried the request (:mod:`conductor.batch`), kept on its ModelCall.
        """
        self.carried = len(self.neutral)  # the request this answers carried the whole conversation so far
        try:
            turn = self.adapter.parse(response)
        except (AttributeError, TypeError, KeyError, ValueError) as exc:
            # The SDK accepted a body the real API never sends (a compatible server's, a proxy's):
            # say so, rather than let an AttributeError escape from deep inside the loop.
            raise MalformedResponseError(
                f"the {self.adapter.api} response{_from(self.server)} could not be read ({type(exc).__name__}: "
                f"{exc}); the server returned a shape the official API does not: check base_url and the server's "
                "API compatibility"
            ) from exc
        turn = replace(turn, origin=(self.adapter.api, self.settings.model), raw=turn.raw if self.keep_raw else None)
        split = self.price(turn.usage)
        self.limits.settle(turn.usage, split.total)
        call = ModelCall(
            index=len(self.model_calls) + 1,
            started=started - self.origin,
            ended=ended - self.origin,
            usage=turn.usage,
            cost=split.total,
            stop_reason=turn.stop_reason,
            native_stop_reason=turn.native_stop_reason,
            tools_allowed=self.tools_allowed,
            cost_split=split,
            model=self.settings.model,
            provider=self.provider,
            batch_id=batch_id,
        )
        self.model_calls.append(call)
        if _tracing.enabled: _tracing.chat(self, call, turn)  # noqa: E701 - one line: a flag read when tracing is off
        if turn.stop_reason is StopReason.PAUSE_TURN and not turn.tool_calls:
            self._paused(turn)
            return []
        # A turn cut off by max_tokens may hold a call whose arguments were cut too: never run it.
        cut = turn.stop_reason is StopReason.MAX_TOKENS and bool(turn.tool_calls)
        answerable = len(self.tools) or any(is_hosted_approval(c.name) for c in turn.tool_calls)
        if not turn.tool_calls or cut or not self.tools_allowed or not answerable:
            if cut:
                logger.warning(
                    "the answer was cut off by max_tokens with %d tool call(s) in it; they were not run (their "
                    "arguments may be incomplete): raise max_tokens",
                    len(turn.tool_calls),
                )
            elif turn.tool_calls:
                logger.warning(
                    "the model asked for %d tool call(s) when tool use was not allowed; they were not run",
                    len(turn.tool_calls),
                )
            # The answer: the text of the turns paused before it, which it continues, then its own.
            paused_texts = self._paused_texts
            self.final = replace(turn, text_blocks=paused_texts + turn.text_blocks) if paused_texts else turn
            self._paused_texts = ()
            # Unrun calls stay out of the conversation: nothing answers them.
            kept = replace(turn, tool_calls=()) if turn.tool_calls else turn
            if kept.text_blocks or kept.reasoning:
                self.neutral.append(kept)
                self._chain(kept)
            return []
        self._paused_texts = ()  # a tool turn: the answer will be a later turn's
        turn = unique_call_ids(turn, self.call_ids, call.index)
        self.neutral.append(turn)
        self._chain(turn)
        self._pending = (turn, call)
        self._screened = self.guards.screen(turn.tool_calls, self.tools, self.origin)
        if self.settings.programmatic:
            programs.mark_pending(self._screened, programs.callers(turn))
        return self._take_runnable()

    def _paused(self, turn: Turn) -> None:
        """A turn the API paused (``pause_turn``): kept as received, so the next request, ending with it,
        asks the model to go on; or, with every continuation of ``max_pauses`` used, the end of the run."""
        self.neutral.append(turn)
        self._chain(turn)
        self._paused_texts += turn.text_blocks
        if self.pauses < self.max_pauses:
            self.pauses += 1
            logger.info("the model paused its turn (%s); continuing it (%d of max_pauses=%d)",
                        turn.native_stop_reason, self.pauses, self.max_pauses)
            return
        logger.warning(
            "the model paused its turn again after %d continuation(s); max_pauses=%d is reached, so the run ends "
            "with the text so far: raise max_pauses to let it go on", self.pauses, self.max_pauses,
        )
        self.stopped_by = "pause_limit"
        texts = self._paused_texts if "".join(self._paused_texts).strip() else (
            f"Stopped: the model paused its turn (pause_turn) {self.pauses + 1} time(s) without finishing, and "
            f"max_pauses={self.max_pauses} continuations were used.",
        )
        self.final = replace(turn, text_blocks=texts, raw=None)
        self._paused_texts = ()

    def _chain(self, turn: Turn) -> None:
        """With server state, the next request continues from this response and sends only what follows it."""
        if self.settings.server_state and turn.response_id:
            self.continued = (turn.response_id, len(self.messages))

    def _take_runnable(self) -> list[ToolCall]:
        """The screened calls to run now; settles the turn at once when there are none."""
        assert self._pending is not None and self._screened is not None
        turn, screened = self._pending[0], self._screened
        calls = [screened.edits.get(i, turn.tool_calls[i]) for i in screened.run]
        if not calls:
            self._settle()
        return calls

    def resume(self, decisions: dict[str, Decision]) -> list[ToolCall]:
        """Apply a person's decisions to the paused calls; return the approved calls to run now.

        Denied calls (and undecided ones: denied by default) are answered without
        running; an approved call whose arguments differ from the approved ones is
        refused; an approval with an edit runs the call with the person's arguments.
        Called on the conversation :meth:`restore` rebuilt from the paused result.
        """
        if not self.paused or self._pending is None or self._screened is None:
            raise RuntimeError("resume() called on a run that is not paused for approval")
        turn, screened = self._pending[0], self._screened
        screened.run = []
        for position, pending in list(screened.pending.items()):
            call = turn.tool_calls[position]
            verdict = self.guards.decide(call, pending, decisions.get(pending.id), self.origin)
            if isinstance(verdict, ToolCallRecord):
                screened.answered[position] = verdict
                continue
            screened.run.append(position)
            if verdict is not call:
                screened.edits[position] = verdict
        screened.pending.clear()
        self.paused = ()
        return self._take_runnable()

    def stop(self, reason: str, answer: str) -> None:
        """End the run before the model finished: ``result.stopped_by`` is ``reason``.

        ``answer`` becomes the final text (the best answer the run has, or a
        sentence saying why it stopped); no further request is made.
        """
        self.stopped_by = reason
        self.final = Turn(text_blocks=(answer,) if answer else ())
        logger.info("run stopped by %s", reason)

    def add_results(self, records: Sequence[ToolCallRecord]) -> None:
        """Take the records of the calls :meth:`receive` (or :meth:`resume`) returned, in that order.

        Once no call awaits a decision, every call of the turn is answered (run or
        not, in call order) and the round closes; otherwise the run pauses.
        """
        if self._pending is None or self._screened is None:
            raise RuntimeError("add_results() called with no tool calls pending")
        screened = self._screened
        if len(records) != len(screened.run):
            raise RuntimeError(f"{len(records)} results for {len(screened.run)} tool calls; pass one per call, in order")
        turn = self._pending[0]
        for position, record in zip(screened.run, records):
            if position in screened.edits:
                record = edited(record, turn.tool_calls[position])
            screened.answered[position] = record
            self.guards.ran.add(record.id)
        screened.run = []
        screened.edits.clear()
        self._settle()

    def _settle(self) -> None:
        """Pause when calls await a decision; else answer the turn, close the round, maybe stop."""
        assert self._pending is not None and self._screened is not None
        turn, call = self._pending
        screened = self._screened
        if screened.pending:
            self.paused = tuple(screened.pending[i] for i in sorted(screened.pending))
            self._paused_at = time.perf_counter()
            self._pause_token = uuid.uuid4().hex
            logger.info("run paused: %d call(s) await approval", len(self.paused))
            return
        records = [self._traced(c, screened.answered[i]) for i, c in enumerate(turn.tool_calls)]
        if self.settings.programmatic:
            records = [replace(r, caller=who) for r, who in zip(records, programs.callers(turn))]
        self.neutral += [ToolResult(c.id, c.name, r.output, r.is_error) for c, r in zip(turn.tool_calls, records)]
        self.rounds.append(Round(index=len(self.rounds) + 1, model=call, tool_calls=tuple(records), text=turn.text))
        self._pending = self._screened = None
        logger.info("round %d: %s", len(self.rounds), ", ".join(c.name for c in turn.tool_calls))
        self._stop_if_guarded(screened, turn)

    def _traced(self, call: ToolCall, record: ToolCallRecord) -> ToolCallRecord:
        """``record`` with where the call came from, when an earlier tool result named its tool."""
        source = provenance(call, self.neutral)
        return replace(record, provenance=source) if source and record.provenance is None else record

    def _stop_if_guarded(self, screened: Screened, turn: Turn) -> None:
        if screened.stop == "loop":
            repeated = sorted({c.name for c in turn.tool_calls})
            self.stop(
                "loop",
                f"Stopped: the model kept calling {', '.join(repeated)} with the same arguments after being "
                f"told it was repeating itself.",
            )
            return
        usable = [n for n in self.tools.names if self.guards.allowed_tools is None or n in self.guards.allowed_tools]
        if self.guards.withdrawn and usable and all(n in self.guards.withdrawn for n in usable):
            self.stop(
                "validation",
                f"Stopped: every tool was withdrawn after repeated invalid calls "
                f"({', '.join(f'{n}: {k}' for n, k in self.guards.withdrawn.items())}).",
            )

    @_tracing.traced_result
    def result(self, *, model_name: str, priced_as: str, prices: tuple[float, float]) -> RunResult:
        if self.paused:
            waiting = "; ".join(str(p) for p in self.paused)
            final = Turn(text_blocks=(f"Paused: waiting for approval of {waiting}",))
        elif self.final is None:
            raise RuntimeError("result() called before the run ended")
        else:
            final = self.final
        text = final.refusal if final.stop_reason is StopReason.REFUSAL and final.refusal else final.text
        trace = Trace(
            model_calls=tuple(self.model_calls),
            rounds=tuple(self.rounds),
            seconds=time.perf_counter() - self.origin,
            model_name=model_name,
            priced_as=priced_as,
            input_price=prices[0],
            output_price=prices[1],
        )
        empty = not text.strip()
        if empty:
            logger.warning("the model's final answer is empty (stop reason %s)", final.native_stop_reason)
        return RunResult(
            answer=text,
            messages=self.messages,
            trace=trace,
            stop_reason=final.stop_reason,
            native_stop_reason=final.native_stop_reason,
            truncated=final.stop_reason is StopReason.MAX_TOKENS,
            refused=final.stop_reason is StopReason.REFUSAL,
            empty=empty,
            forced_final=bool(len(self.tools)) and bool(self.model_calls) and not self.model_calls[-1].tools_allowed,
            ignored_tool_calls=final.tool_calls,
            max_rounds=self.max_rounds,
            conversation=tuple(self.neutral),
            stopped_by="approval" if self.paused else self.stopped_by,
            pending=self.paused,
            paused=self._paused_run() if self.paused else None,
        )

    def _paused_run(self) -> PausedRun:
        """This paused run as plain data (see :class:`PausedRun`)."""
        assert self._pending is not None and self._screened is not None
        return PausedRun(
            token=self._pause_token,
            api=self.adapter.api,
            model=self.settings.model,
            provider=self.provider,
            settings=replace(self.settings, tools=ToolRegistry()),
            tools=tuple(ToolRef.of(t) for t in self.tools),
            max_rounds=self.max_rounds,
            run_options=dict(self.run_options),
            neutral=tuple(replace(m, raw=None) if isinstance(m, Turn) else m for m in self.neutral),
            continued=self.continued,
            model_calls=tuple(self.model_calls),
            rounds=tuple(self.rounds),
            call=self._pending[1],
            screened=copy.deepcopy(self._screened),
            guards=copy.deepcopy(self.guards),
            elapsed=self._paused_at - self.origin,
            deadline=self.limits.deadline,
            budgets=tuple(_left(ledger) for ledger in self.limits.ledgers),
            max_pauses=self.max_pauses,
            pauses=self.pauses,
            live_tools=self.tools,
            live_limits=self.limits,
        )


# -- results as JSON ------------------------------------------------------------------------------

_JSON_FORMAT = 1
_TAG = "$conductor"  # marks an encoded value; a dict holding this key itself is written as pairs
_LEFT_OUT = frozenset({"raw", "live_tools", "live_limits"})  # SDK objects and in-process state: their defaults


@cache
def _json_types() -> dict[str, type]:
    """The types :func:`_from_json` builds, by name: conductor's records, nothing else."""
    from .apis.base import RequestSettings, ToolChoice
    from .trace import Attempt
    from .types import Reasoning

    kinds: tuple[type, ...] = (
        RunResult, Trace, ModelCall, Round, ToolCallRecord, Attempt, Usage, CostSplit, StopReason, ToolCall, Turn,
        Reasoning, UserMessage, SystemMessage, ToolResult, PendingCall, PausedRun, ToolRef, RequestSettings,
        ToolChoice, Screened, Decision, Budget, Guards, ToolRegistry,
    )
    return {kind.__name__: kind for kind in kinds}


def _to_json(value: Any) -> Any:
    if value is None or type(value) in (bool, int, float, str):
        return value
    if isinstance(value, list):
        return [_to_json(v) for v in value]
    if isinstance(value, Counter):
        return {_TAG: "Counter", "items": [[_to_json(k), n] for k, n in value.items()]}
    if isinstance(value, Mapping):
        if all(type(k) is str for k in value) and _TAG not in value:
            return {k: _to_json(v) for k, v in value.items()}
        return {_TAG: "dict", "items": [[_to_json(k), _to_json(v)] for k, v in value.items()]}
    if isinstance(value, (tuple, set, frozenset)):
        return {_TAG: type(value).__name__, "items": [_to_json(v) for v in value]}
    name = type(value).__name__
    if _json_types().get(name) is not type(value):
        raise TypeError(f"a {type(value).__module__}.{name} cannot be written as JSON; pickle the result instead")
    if isinstance(value, StopReason):
        return {_TAG: name, "value": value.value}
    if isinstance(value, ToolRegistry):  # a paused run's settings hold an empty one: its tools travel by reference
        return {_TAG: name}
    if isinstance(value, Guards):
        return {_TAG: name, "state": _to_json(vars(value))}
    return {
        _TAG: name,
        "fields": {f.name: _to_json(getattr(value, f.name)) for f in fields(value) if f.name not in _LEFT_OUT},
    }


def _from_json(value: Any) -> Any:
    if isinstance(value, list):
        return [_from_json(v) for v in value]
    if not isinstance(value, dict):
        return value
    tag = value.get(_TAG)
    if tag is None:
        return {k: _from_json(v) for k, v in value.items()}
    items = [_from_json(v) for v in value.get("items", ())]
    containers: dict[str, Callable[[list[Any]], Any]] = {
        "tuple": tuple, "set": set, "frozenset": frozenset, "dict": dict, "Counter": lambda pairs: Counter(dict(pairs)),
    }
    if tag in containers:
        return containers[tag](items)
    kind = _json_types().get(tag)
    if kind is None:
        raise ValueError(f"the JSON names {tag!r}, which is not one of conductor's records")
    if kind is StopReason:
        return StopReason(value["value"])
    if kind is ToolRegistry:
        return ToolRegistry()
    if kind is Guards:
        guards = Guards.__new__(Guards)
        vars(guards).update(_from_json(value["state"]))
        return guards
    return kind(**{k: _from_json(v) for k, v in value["fields"].items()})

