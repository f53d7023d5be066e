"""Lesson 04's defences inside the loop: what may run, and what a person must approve first.

Every tool call the model asks for is screened here before anything runs, in this order:

1. **allowlist**: ``allowed_tools=`` names the tools that may run in this run (a
   user's role, say); any other call gets an error result naming the allowed tools.
2. **withdrawn**: a tool with ``max_invalid=N`` that got N invalid calls in a row is
   withdrawn for the rest of the run; later calls get an error result saying so.
3. **validation**: the arguments are checked against the tool's schema (pydantic);
   the model gets the validation message and may correct itself. A valid call
   resets the tool's count of invalid calls.
4. **repeats**: the ``max_repeats``-th call of one tool with the same arguments is
   not run, and the model is told it is repeating itself; one more and the run ends
   (``stopped_by="loop"``). Repeats count across turns: identical calls in one turn
   ("roll four dice") are the model asking for several results at once, not a loop.
5. **approval**: a tool with ``requires_approval`` (``True``, or a predicate on the
   arguments) runs only once a person said yes: ``approve=`` decides at once
   (headless), or the run pauses (``stopped_by="approval"``) until
   ``result.approve(id)`` / ``result.reject(id)`` and ``llm.resume(result)``.

A person may approve a call with edited arguments (``result.approve(id, arguments={...})``):
the edit is checked against the tool's schema before it is recorded, the call runs with
it, its record keeps the model's own arguments in ``edited_from``, and the model reads
what the person changed at the head of the result (:func:`edited`).

A call that is not run is answered by a record with ``blocked`` set (``"allowlist"``,
``"withdrawn"``, ``"invalid"``, ``"loop"``, ``"denied"``, ``"changed"``), so every call
id the model issued is still answered exactly once. Withdrawn tools stay in the
requests: changing the tool list would throw away the provider's prompt cache, and
Anthropic requires the tools of a history's ``tool_use`` blocks to stay defined.

An approval is bound to the exact arguments: the decision stores a digest of the
call's argument text, and the call runs only if the text to run has the same digest
(an edit is bound to that digest too: it replaces those arguments and no others).
A call that ran is never run again, however often a paused result is resumed.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import logging
import re
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from .apis.base import is_hosted_approval
from .search import SEARCH_TOOL
from .tools import Tool, ToolArgumentsError, ToolRegistry
from .trace import ToolCallRecord
from .types import Message, ToolCall, ToolResult, UserMessage

logger = logging.getLogger(__name__)

DEFAULT_MAX_REPEATS = 3


@dataclass(frozen=True)
class PendingCall:
    """A call waiting for a person's decision: exactly what would run."""

    id: str  # the model's call id
    name: str
    # The exact arguments, read-only. What runs is the model's argument text itself, checked
    # against ``digest``: changing a nested value here changes nothing that runs.
    arguments: Mapping[str, Any]
    digest: str = field(repr=False)  # SHA-256 of the exact argument text the model sent
    caller: str = "model"  # "program" when a program the model wrote made the call (conductor.programs)

    def __post_init__(self) -> None:
        # Read-only however it was built (from a call, or loaded from a pickle or JSON).
        if not isinstance(self.arguments, MappingProxyType):
            object.__setattr__(self, "arguments", MappingProxyType(dict(self.arguments)))

    def __reduce__(self) -> tuple[Any, ...]:
        # A read-only mapping does not pickle; the copy made at load is read-only again.
        return (PendingCall, (self.id, self.name, dict(self.arguments), self.digest, self.caller))

    def __str__(self) -> str:
        return f"{self.name}({json.dumps(dict(self.arguments), ensure_ascii=False, sort_keys=True)})"


@dataclass(frozen=True)
class Decision:
    """A person's answer for one pending call, bound to the arguments it was given for."""

    approved: bool
    digest: str
    reason: str = ""
    # A person's edit: the argument text to run instead of the model's (checked against the schema), or None.
    arguments: str | None = None


Approver = Callable[[PendingCall], bool]


def digest(arguments: str) -> str:
    """The SHA-256 of a call's exact argument text."""
    return hashlib.sha256(arguments.encode("utf-8")).hexdigest()


def pending_call(call: ToolCall) -> PendingCall:
    """The read-only view of ``call`` a person decides on."""
    try:
        arguments: Any = call.parsed_arguments()
    except ValueError:
        arguments = {"(raw)": call.arguments}
    return PendingCall(call.id, call.name, arguments, digest(call.arguments))


def _same_call_key(call: ToolCall) -> tuple[str, str]:
    """The tool and its arguments, spelled the same way whatever key order or spacing the model used."""
    try:
        return call.name, json.dumps(call.parsed_arguments(), sort_keys=True, ensure_ascii=False)
    except ValueError:
        return call.name, call.arguments


def check_max_repeats(max_repeats: Any) -> int | None:
    """``max_repeats`` itself, or an error saying what it must be."""
    if max_repeats is None:
        return None
    if isinstance(max_repeats, bool) or not isinstance(max_repeats, int) or max_repeats < 2:
        raise ValueError(
            f"max_repeats must be a whole number of identical calls, 2 or more (the call with that number "
            f"is not run), or None to turn loop detection off; got {max_repeats!r}"
        )
    return max_repeats


def check_allowed_tools(allowed: Iterable[str | Tool] | None, registry: ToolRegistry) -> frozenset[str] | None:
    """The allowed tool names, or an error when one is not among the offered tools."""
    if allowed is None:
        return None
    if isinstance(allowed, (str, Tool)):
        allowed = [allowed]
    names = frozenset(a.name if isinstance(a, Tool) else a for a in allowed)
    unknown = sorted((n for n in names if not isinstance(n, str) or n not in registry), key=repr)
    if unknown:
        offered = ", ".join(registry.names) or "(none)"
        raise ValueError(
            f"allowed_tools names {unknown}, which are not among the tools= of this run ({offered}); "
            f"list tool names (or @cd.tool functions) that you also pass in tools="
        )
    return names


def check_approve(approve: Any) -> Approver | None:
    """``approve`` itself, or an error saying what it must be (an async function would answer a
    coroutine, which is not a yes)."""
    if approve is None:  # the default, checked first: every run of a batch passes here
        return None
    if inspect.iscoroutinefunction(approve) or inspect.iscoroutinefunction(getattr(approve, "__call__", None)):
        raise TypeError(
            "approve= must be a plain (not async) function returning True or False; "
            "decide with data you already have, or pause with approve=None and decide in the next cell"
        )
    if callable(approve):
        return approve
    raise TypeError(
        f"approve= must be None (pause the run for a person's decision) or a function taking the pending "
        f"call and returning True to run it, e.g. approve=lambda call: call.arguments['amount'] <= 500; "
        f"got {approve!r:.60}"
    )


@dataclass(frozen=True)
class _Verdict:
    """One call's fate: ``why`` is None to run it, "approval" / "pending" while approval is open,
    else why it is answered without running (``message`` is what the model reads)."""

    why: str | None = None
    message: str = ""
    stop: bool = False  # end the run once the turn is answered


@dataclass
class Screened:
    """What the guards made of one turn's calls."""

    run: list[int] = field(default_factory=list)  # positions of calls to run now
    answered: dict[int, ToolCallRecord] = field(default_factory=dict)  # position -> record of a call not run
    pending: dict[int, PendingCall] = field(default_factory=dict)  # position -> call awaiting a decision
    stop: str | None = None  # "loop": end the run once this turn is answered
    edits: dict[int, ToolCall] = field(default_factory=dict)  # position -> the call as a person edited it, run instead


class Guards:
    """The policy and the counters of one run (see the module docstring for the order of checks)."""

    def __init__(
        self,
        *,
        allowed_tools: frozenset[str] | None = None,
        max_repeats: int | None = DEFAULT_MAX_REPEATS,
        approve: Approver | None = None,
    ) -> None:
        self.allowed_tools = allowed_tools
        self.max_repeats = check_max_repeats(max_repeats)
        self.approve = check_approve(approve)
        self.invalid: Counter[str] = Counter()  # invalid calls in a row, per tool
        self.withdrawn: dict[str, int] = {}  # tool -> invalid calls that withdrew it
        self.repeats: Counter[tuple[str, str]] = Counter()
        self.ran: set[str] = set()  # call ids that ran: never run again

    # -- one turn ------------------------------------------------------------------

    def screen(self, calls: Sequence[ToolCall], registry: ToolRegistry, origin: float) -> Screened:
        """Decide, call by call, what runs now, what is answered without running, and what waits."""
        screened = Screened()
        this_turn: dict[tuple[str, str], _Verdict] = {}  # repeats count across turns, not within one
        for position, call in enumerate(calls):
            verdict = self._verdict(call, registry, this_turn)
            if verdict.why == "approval":
                verdict = self._approval(call)
            if verdict.why == "pending":
                screened.pending[position] = pending_call(call)
            elif verdict.why is not None:
                screened.answered[position] = blocked_record(call, verdict.why, verdict.message, origin)
                if verdict.stop:
                    screened.stop = verdict.why
            else:
                screened.run.append(position)
        return screened

    def _verdict(self, call: ToolCall, registry: ToolRegistry, this_turn: dict[tuple[str, str], _Verdict]) -> _Verdict:
        """Checks 1-4 of the module docstring, and whether check 5 (approval) applies."""
        if is_hosted_approval(call.name):
            # The provider's own call (a hosted MCP tool given in tools=), held for a decision: always a person's
            # or the approve= policy's, and repeats count like any call's. Nothing here validates or runs it.
            repeated = self._repeat(call, this_turn)
            return repeated if repeated.why is not None else _Verdict("approval")
        if self.allowed_tools is not None and call.name not in self.allowed_tools:
            allowed = ", ".join(sorted(self.allowed_tools)) or "(none)"
            return _Verdict(
                "allowlist",
                f"tool {call.name!r} is not allowed in this conversation, so it was not run. "
                f"The allowed tools are: {allowed}. Do not try it again; if the user's request needs it, "
                f"say that you are not permitted to do it.",
            )
        if call.name in self.withdrawn:
            return _Verdict(
                "withdrawn",
                f"tool {call.name!r} was withdrawn for the rest of this conversation after "
                f"{self.withdrawn[call.name]} invalid calls in a row, so it was not run. "
                f"Do not call it again; answer with what you have.",
            )
        if call.name not in registry:
            return _Verdict()  # execution answers with the list of tools that exist
        tool = registry.get(call.name)
        try:
            arguments = tool.validate(call.arguments)
        except ToolArgumentsError as exc:
            return _Verdict("invalid", self._invalid(tool, str(exc)))
        self.invalid[tool.name] = 0  # a valid call resets the budget
        repeated = self._repeat(call, this_turn)
        if repeated.why is not None:
            return repeated
        return _Verdict("approval") if tool.needs_approval(arguments) else _Verdict()

    def _invalid(self, tool: Tool, message: str) -> str:
        self.invalid[tool.name] += 1
        count, budget = self.invalid[tool.name], tool.max_invalid
        if budget is None:
            return message
        if count >= budget:
            self.withdrawn[tool.name] = count
            logger.warning("tool %s withdrawn for the rest of the run after %d invalid calls", tool.name, count)
            return (
                f"{message}. This was invalid call {count} of {budget} allowed in a row, so {tool.name!r} "
                f"is now withdrawn for the rest of this conversation: do not call it again."
            )
        return f"{message}. Fix the arguments and call again ({count} of {budget} invalid calls allowed in a row)."

    def _repeat(self, call: ToolCall, this_turn: dict[tuple[str, str], _Verdict]) -> _Verdict:
        """A loop is the same call again in a later turn: identical calls of one turn ("roll four dice")
        count once, and share the first one's verdict."""
        if self.max_repeats is None:
            return _Verdict()
        key = _same_call_key(call)
        if key in this_turn:
            return this_turn[key]
        this_turn[key] = self._count_repeat(call, key)
        return this_turn[key]

    def _count_repeat(self, call: ToolCall, key: tuple[str, str]) -> _Verdict:
        self.repeats[key] += 1
        count = self.repeats[key]
        if count < self.max_repeats:
            return _Verdict()
        logger.warning("call %d of %s with the same arguments: not run", count, call.name)
        text = (
            f"you already called {call.name} with exactly these arguments {count - 1} times in this "
            f"conversation, so it was not run again: the result would be the same. Use the results you "
            f"have, change the arguments, or answer the user."
        )
        return _Verdict("loop", text, stop=count > self.max_repeats)  # told once; persisting ends the run

    def _approval(self, call: ToolCall) -> _Verdict:
        """Pending when a person decides; else the ``approve=`` policy's answer, a failure counting as no."""
        if self.approve is None:
            return _Verdict("pending")
        pending = pending_call(call)
        try:
            answer = self.approve(pending)
        except Exception:  # noqa: BLE001 - a policy that fails denies: when in doubt, do not run
            logger.exception("approve= raised for %s; the call is denied", pending)
            answer = False
        approved = answer is True  # only a real yes: "no", None or a coroutine are truthy or unclear
        if not isinstance(answer, bool):
            logger.warning("approve= returned %r for %s, not True or False; the call is denied", answer, pending)
        if approved:
            logger.info("approved by policy: %s", pending)
            return _Verdict()
        return _Verdict("denied", denial(call.name, "the approval policy did not approve it"))

    # -- resuming --------------------------------------------------------------------

    def decide(
        self, call: ToolCall, pending: PendingCall, decision: Decision | None, origin: float
    ) -> ToolCallRecord | ToolCall:
        """The record answering a paused call without running it, or the call to run now (a person's edit
        of it when the approval carries one)."""
        if decision is None:
            # Short enough for one notebook line; the call's id and arguments are in the trace.
            logger.warning("nobody decided on %s before the run resumed: denied by default", pending.name)
            return blocked_record(call, "denied", denial(call.name, "no one approved it"), origin)
        if not decision.approved:
            return blocked_record(call, "denied", denial(call.name, decision.reason), origin)
        if call.id in self.ran:
            raise RuntimeError(f"call {call.id} ({call.name}) already ran; a call never runs twice")
        if not (decision.digest == pending.digest == digest(call.arguments)):
            logger.error("the arguments of %s changed after approval; not run", call.id)
            return blocked_record(
                call,
                "changed",
                f"{call.name} was not run: its arguments are not the ones that were approved. "
                f"Tell the user the action was not performed.",
                origin,
            )
        if decision.arguments is not None:
            logger.info("%s runs with arguments a person edited: %s", call.id, decision.arguments)
            return replace(call, arguments=decision.arguments)
        return call


def check_edit(tool: Tool, call_id: str, arguments: str) -> None:
    """Raise a ValueError for the person when ``arguments``, their edit of call ``call_id``, do not fit ``tool``."""
    try:
        tool.validate(arguments)
    except ToolArgumentsError as exc:
        raise ValueError(
            f"the edited arguments for call {call_id} do not fit the tool's schema, so nothing was approved: "
            f"{exc}. Fix them and call approve again"
        ) from exc


def edited(record: ToolCallRecord, call: ToolCall) -> ToolCallRecord:
    """``record`` of a call that ran with a person's edit of ``call``'s arguments: the model's arguments kept in
    ``edited_from``, and what changed told to the model at the head of the output (its own call, in the history,
    still shows what it asked for)."""
    original = call.parsed_arguments()  # valid JSON: the call passed validation before it awaited approval
    ran = record.arguments if isinstance(record.arguments, dict) else {}
    changes = []
    for key in {**original, **ran}:
        if key not in ran:
            changes.append(f"{key} removed (was {_json(original[key])})")
        elif key not in original:
            changes.append(f"{key} added ({_json(ran[key])})")
        elif original[key] != ran[key]:
            changes.append(f"{key} from {_json(original[key])} to {_json(ran[key])}")
    note = (
        f"[A person reviewing this call changed its arguments before approving it: {'; '.join(changes)}. "
        f"It ran with {_json(ran)}, not with the arguments you sent.]\n"
    )
    return replace(record, edited_from=original, output=note + record.output)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def denial(name: str, reason: str) -> str:
    """The message the model gets for a call a person (or the policy) did not approve."""
    why = f" ({reason})" if reason else ""
    return (
        f"the user did not approve this call to {name}{why}, so it was not run. "
        f"Do not try it again; tell the user it was not done."
    )


def blocked_record(
    call: ToolCall, why: str, output: str, origin: float
) -> ToolCallRecord:
    """A record answering ``call`` without running it."""
    now = time.perf_counter() - origin
    logger.info("tool call %s(%s) not run (%s)", call.name, call.arguments, why)
    try:
        arguments: Any = call.parsed_arguments()
    except ValueError:
        arguments = call.arguments
    return ToolCallRecord(
        id=call.id,
        name=call.name,
        arguments=arguments,
        output=output,
        is_error=True,
        started=now,
        ended=now,
        blocked=why,
    )


def provenance(call: ToolCall, neutral: Sequence[Message]) -> str | None:
    """Which earlier tool result named the tool this call asks for, when the user never did.

    A model that calls a tool right after a web page or an e-mail told it to is
    following instructions in data: this points the trace at that result (the most
    recent one naming the tool): ``"read_inbox's result named delete_database (call_1)"``. ``None`` when the user's own messages name the tool
    or no tool result does.
    """
    word = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(call.name)}(?![A-Za-z0-9_])")
    if any(isinstance(m, UserMessage) and word.search(m.text) for m in neutral):
        return None
    names = {c.id: c.name for m in neutral for c in getattr(m, "tool_calls", ())}
    for message in reversed(neutral):
        # An error result names tools to correct the model ("unknown tool ...; the available tools are"),
        # and a result of the same tool names itself: neither is data telling the model what to call.
        if not isinstance(message, ToolResult) or message.is_error:
            continue
        if names.get(message.call_id, message.name) in (call.name, SEARCH_TOOL):
            continue  # conductor's tool search names the tools it loads: that is its job, not data's
        if word.search(message.content):
            return f"{names.get(message.call_id, message.name)}'s result named {call.name} ({message.call_id})"
    return None
