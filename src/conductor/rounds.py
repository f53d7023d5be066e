"""The round loop: ask the model, run the tools it asks for, feed the results back, repeat.

Round semantics (``max_rounds`` counts tool rounds):

* while rounds remain, every request offers the tools (with the caller's
  ``tool_choice``, ``auto`` by default);
* when the model asks for tools in the last allowed round, those calls run and
  one final request is made with tool use forbidden (``tool_choice`` none, tools
  still defined), so a run makes at most ``max_rounds + 1`` requests;
* if the model asks for tools in that final request anyway, they are not run
  and the run ends with whatever text the model wrote;
* every tool call id the model issued is answered exactly once, in call order.

Before any call runs, the run's guards (:mod:`conductor.guards`: allowlist,
invalid-call budget, validation, loop detection, approval) screen it. A call
they stop is answered by a record with ``blocked`` set; a call that needs a
person's approval pauses the run (``stopped_by="approval"``, ``result.pending``)
with the conversation kept whole, so ``llm.resume(result)`` goes on from there.

:class:`Conversation` holds the state of one run in the neutral form
(:mod:`conductor.types`) and knows what to send next; each request's messages
are that neutral conversation rendered for the adapter in use, each message
rendered once. ``LLM.run`` / ``LLM.arun`` only drive it (sync and async share
every decision).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from . import display
from .apis import history_to_neutral
from .apis.base import system_text
from .budget import RunLimits, stopped_answer
from .guards import Decision, Guards, PendingCall, Screened, provenance
from .trace import ModelCall, Round, ToolCallRecord, Trace
from .types import CostSplit, Message, StopReason, SystemMessage, ToolCall, ToolResult, Turn, Usage, UserMessage

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from .apis import RequestSettings, WireApi
    from .tools import ToolRegistry

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
    * ``stopped_by``: a guard or a limit ended the run early; ``"approval"`` means
      paused, with the calls awaiting a decision in ``pending`` (decide with
      :meth:`approve` / :meth:`reject`, which record on this result and return
      nothing, then call ``llm.resume(result)``).
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
    # "approval" (paused: see ``pending``), or None when the model wrote its answer.
    stopped_by: str | None = None
    # Calls awaiting a person's decision when stopped_by == "approval" (see approve / reject / llm.resume).
    pending: tuple[PendingCall, ...] = ()
    paused: PausedRun | None = field(default=None, repr=False, compare=False)

    def approve(self, call_id: str) -> None:
        """Approve the pending call ``call_id`` with exactly the arguments shown in :attr:`pending`.

        This records the decision on this paused result and runs nothing (it returns
        nothing either); ``llm.resume(result)`` then runs the approved calls and goes on.
        """
        self._decide(call_id, Decision(approved=True, digest=self._pending_call(call_id).digest))

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

    def _decide(self, call_id: str, decision: Decision) -> None:
        assert self.paused is not None  # pending is non-empty only on a paused result
        self.paused.record(call_id, decision)
        logger.info("%s %s", "approved" if decision.approved else "denied", self._pending_call(call_id))

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


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


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
    """A model response the loop cannot read (a field missing or of the wrong type)."""


class _Rendering:
    """One API's wire messages for a prefix of the neutral conversation."""

    __slots__ = ("messages", "done")

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self.done = 0  # neutral messages rendered so far


@dataclass
class PausedRun:
    """What ``llm.resume`` needs to continue a run paused for approval: the live conversation.

    ``decisions`` fills as ``result.approve`` / ``result.reject`` are called; ``resumed``
    makes a paused result usable once, so a call can never run twice.
    """

    conversation: Conversation
    decisions: dict[str, Decision] = field(default_factory=dict)
    resumed: bool = False
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def record(self, call_id: str, decision: Decision) -> None:
        """Keep a decision, unless the run has resumed (then it would change nothing)."""
        with self._lock:
            if self.resumed:
                raise RuntimeError("this paused run was already resumed; decide on the result llm.resume returned")
            self.decisions[call_id] = decision

    def claim(self) -> dict[str, Decision]:
        """Mark the run resumed and return the decisions; only the first caller gets them.

        Atomic, so two resumes of one result (two threads, a double click) cannot both run its calls.
        """
        with self._lock:
            if self.resumed:
                raise RuntimeError(
                    "this paused result was already resumed (its approved calls have run); continue from the "
                    "result that resume returned"
                )
            self.resumed = True
            return dict(self.decisions)


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
    ) -> None:
        self.max_rounds = check_max_rounds(max_rounds)
        self.guards = guards or Guards()
        self.adapter = adapter
        self.price = price
        neutral = history_to_neutral(history)
        given = system_text(settings.system)
        if given and SystemMessage(given) not in neutral:
            neutral.insert(0, SystemMessage(given))
        # Anthropic takes instructions as one parameter: every system message of the history, in order.
        system = "\n\n".join(m.text for m in neutral if isinstance(m, SystemMessage))
        # Blocks given as system= stay blocks (their cache_control marks Anthropic's prompt cache)
        # unless the history brought more instructions, which then join them as text.
        blocks = isinstance(settings.system, list) and system == given
        self.settings = replace(settings, system=settings.system if blocks else system or None)
        neutral.append(UserMessage(question))
        self.neutral: list[Message] = neutral
        self.call_ids = {c.id for m in neutral if isinstance(m, Turn) for c in m.tool_calls}
        self._renderings: dict[tuple[str, str], _Rendering] = {}
        self.continued: tuple[str, int] | None = None  # server state: (last response id, messages it holds)
        self.origin = time.perf_counter()
        self.model_calls: list[ModelCall] = []
        self.rounds: list[Round] = []
        self.final: Turn | None = None
        self.stopped_by: str | None = None
        self.provider = ""  # set by the LLM driving the run; recorded on each ModelCall
        self._pending: tuple[Turn, ModelCall] | None = None
        self._screened: Screened | None = None  # the guards' verdicts on the pending turn's calls
        self.paused: tuple[PendingCall, ...] = ()  # calls awaiting a person's decision
        self._paused_at = 0.0  # when the run paused (perf_counter)
        self.limits = RunLimits()  # budgets and deadline (llm.run's budget= / deadline=); none by default
        self.run_options: dict[str, Any] = {}  # how the driver executes calls (parallel, ...), kept for resume

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

    def next_request(self) -> dict[str, Any] | None:
        if self.final is not None or self.paused:
            return None
        request = self.adapter.request(
            self.settings, self.messages, tools_allowed=self.tools_allowed, continued=self.continued
        )
        # Budgets and the deadline are checked before the request goes out, never after it is billed.
        refused = self.limits.check(self, request) if self.limits.active else None
        if refused is not None:
            self.stop(refused[0], stopped_answer(self, *refused))
            return None
        return request

    def receive(self, response: Any, started: float, ended: float) -> list[ToolCall]:
        """Record one model response; return the calls to run now."""
        try:
            turn = self.adapter.parse(response)
        except (AttributeError, TypeError, KeyError, ValueError) as exc:
            # The SDK accepted a body the real API never sends (a compatible server's, a proxy's):
            # say so, rather than let an AttributeError escape from deep inside the loop.
            raise MalformedResponseError(
                f"the {self.adapter.api} response could not be read ({type(exc).__name__}: {exc}); the server "
                "returned a shape the official API does not: check base_url and the server's API compatibility"
            ) from exc
        turn = replace(turn, origin=(self.adapter.api, self.settings.model))
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
        )
        self.model_calls.append(call)
        # A turn cut off by max_tokens may hold a call whose arguments were cut too: never run it.
        cut = turn.stop_reason is StopReason.MAX_TOKENS and bool(turn.tool_calls)
        if not turn.tool_calls or cut or not self.tools_allowed or not len(self.tools):
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
            self.final = turn
            # Unrun calls stay out of the conversation: nothing answers them.
            kept = replace(turn, tool_calls=()) if turn.tool_calls else turn
            if kept.text_blocks or kept.reasoning:
                self.neutral.append(kept)
                self._chain(kept)
            return []
        turn = unique_call_ids(turn, self.call_ids, call.index)
        self.neutral.append(turn)
        self._chain(turn)
        self._pending = (turn, call)
        self._screened = self.guards.screen(turn.tool_calls, self.tools, self.origin)
        return self._take_runnable()

    def _chain(self, turn: Turn) -> None:
        """With server state, the next request continues from this response and sends only what follows it."""
        if self.settings.server_state and turn.response_id:
            self.continued = (turn.response_id, len(self.messages))

    def _take_runnable(self) -> list[ToolCall]:
        """The screened calls to run now; settles the turn at once when there are none."""
        assert self._pending is not None and self._screened is not None
        calls = [self._pending[0].tool_calls[i] for i in self._screened.run]
        if not calls:
            self._settle()
        return calls

    def resume(self, decisions: dict[str, Decision]) -> list[ToolCall]:
        """Apply a person's decisions to the paused calls; return the approved calls to run now.

        Denied calls (and undecided ones: denied by default) are answered without
        running; an approved call whose arguments differ from the approved ones is refused.
        """
        if not self.paused or self._pending is None or self._screened is None:
            raise RuntimeError("resume() called on a run that is not paused for approval")
        turn, screened = self._pending[0], self._screened
        screened.run = []
        for position, pending in list(screened.pending.items()):
            call = turn.tool_calls[position]
            record = self.guards.decide(call, pending, decisions.get(pending.id), self.origin)
            if record is None:
                screened.run.append(position)
            else:
                screened.answered[position] = record
        screened.pending.clear()
        self.paused = ()
        # The trace (and any deadline) leaves out the time the run waited for a person.
        self.origin += time.perf_counter() - self._paused_at
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
        for position, record in zip(screened.run, records):
            screened.answered[position] = record
            self.guards.ran.add(record.id)
        screened.run = []
        self._settle()

    def _settle(self) -> None:
        """Pause when calls await a decision; else answer the turn, close the round, maybe stop."""
        assert self._pending is not None and self._screened is not None
        turn, call = self._pending
        screened = self._screened
        if screened.pending:
            self.paused = tuple(screened.pending[i] for i in sorted(screened.pending))
            self._paused_at = time.perf_counter()
            logger.info("run paused: %d call(s) await approval", len(self.paused))
            return
        records = [self._traced(c, screened.answered[i]) for i, c in enumerate(turn.tool_calls)]
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
            paused=PausedRun(self) if self.paused else None,
        )
