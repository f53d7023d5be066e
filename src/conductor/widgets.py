"""ipywidgets controls for the lessons; each function stands alone.

``retry_explorer()``: sliders for a tool's failure rate, the attempts allowed,
the base delay and the jitter, and what they buy: the share of calls that
succeed and the time a call takes on average.

``approval(result)``: Approve / Deny buttons for each call a paused run awaits,
showing the exact arguments (lesson 04). A click only records the decision, on
the paused run itself: the cell that shows the buttons has finished by then
(Jupyter delivers a click only to an idle kernel), so ``llm.resume(result)`` goes
in the next cell, and runs what was approved and nothing else (a call nobody
decided is denied). After that cell the buttons turn off and each call shows its
final decision.

A widget needs a live frontend to draw it. Run headless (papermill, nbval, the
course runner) or outside Jupyter, each function draws a static figure for its
default values instead, so the executed notebook still shows the result and
nbval compares its printed figures.
"""

from __future__ import annotations

import contextlib
import statistics
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from .backoff import JITTERS, Jitter, schedule
from .display import has_frontend, wrap  # has_frontend lives in display; its name stays here

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "RetryOutcome",
    "retry_outcome",
    "expected_waits",
    "retry_figure",
    "retry_explorer",
    "has_frontend",
    "approval",
    "ApprovalPanel",
    "approval_decisions",
    "approval_listing",
]

MAX_ATTEMPTS = 8  # the explorer's slider and figure span 1..MAX_ATTEMPTS
DECORRELATED_DRAWS = 4000  # seeded schedules averaged for decorrelated jitter's expected waits


@dataclass(frozen=True)
class RetryOutcome:
    """What a retry policy buys against independent failures (times in seconds)."""

    failure_rate: float
    attempts: int
    base: float
    cap: float
    jitter: Jitter
    call_seconds: float
    success_rate: float  # share of calls that succeed within the attempts
    expected_latency: float  # mean time of a call, successes and give-ups together
    give_up_latency: float  # mean time of a call whose every attempt failed

    def summary(self) -> str:
        """One line for the notebook: ``3 attempt(s) at 30% failure, full jitter, base 0.5 s: ...``."""
        return (
            f"{self.attempts} attempt(s) at {self.failure_rate:.0%} failure, {self.jitter} jitter, base "
            f"{self.base:g} s: {self.success_rate:.1%} succeed, {self.expected_latency:.2f} s per call, "
            f"{self.give_up_latency:.2f} s if all fail"
        )


def expected_waits(jitter: Jitter, retries: int, *, base: float, cap: float) -> list[float]:
    """The mean wait before each retry 1..``retries``.

    Exact for ``"none"`` (``e``), ``"full"`` (``e / 2``) and ``"equal"`` (``3e / 4``);
    decorrelated jitter depends on the delay before, so its mean is taken over
    :data:`DECORRELATED_DRAWS` seeded schedules (the same figures every run).
    """
    if jitter == "decorrelated":
        return list(_decorrelated_means(max(retries, MAX_ATTEMPTS - 1), base, cap)[:retries])
    share = {"none": 1.0, "full": 0.5, "equal": 0.75}[jitter]
    return [share * e for e in schedule("none", retries, base=base, cap=cap)]


@lru_cache(maxsize=256)  # the explorer redraws on every slider move: draw each (base, cap)'s schedules once
def _decorrelated_means(retries: int, base: float, cap: float) -> tuple[float, ...]:
    draws = [schedule("decorrelated", retries, base=base, cap=cap, seed=s) for s in range(DECORRELATED_DRAWS)]
    return tuple(statistics.fmean(column) for column in zip(*draws)) if retries else ()


def retry_outcome(
    failure_rate: float,
    attempts: int,
    base: float,
    jitter: Jitter = "full",
    *,
    cap: float = 8.0,
    call_seconds: float = 0.2,
) -> RetryOutcome:
    """Success rate and mean latency of ``attempts`` tries against failures of probability ``failure_rate``.

    Computed, not sampled: attempt ``k`` happens when the ``k - 1`` before it
    failed (probability ``failure_rate ** (k - 1)``) and costs ``call_seconds``
    plus the mean wait before it (:func:`expected_waits`). Failures are taken
    as independent, which is the case retries help with: an outage that fails
    every attempt is no better for retrying.
    """
    if not 0 <= failure_rate <= 1:
        raise ValueError(f"failure_rate is a probability from 0 to 1, got {failure_rate!r}")
    if isinstance(attempts, bool) or not isinstance(attempts, int) or attempts < 1:
        raise ValueError(f"attempts counts the first try too: a whole number >= 1, got {attempts!r}")
    if jitter not in JITTERS:
        raise ValueError(f"unknown jitter {jitter!r}; choose one of: {', '.join(map(repr, JITTERS))}")
    if call_seconds < 0:
        raise ValueError(f"call_seconds must be >= 0, got {call_seconds!r}")
    waits = [0.0, *expected_waits(jitter, attempts - 1, base=base, cap=cap)]
    expected = sum(failure_rate**k * (call_seconds + waits[k]) for k in range(attempts))
    return RetryOutcome(
        failure_rate=failure_rate,
        attempts=attempts,
        base=base,
        cap=cap,
        jitter=jitter,
        call_seconds=call_seconds,
        success_rate=1 - failure_rate**attempts,
        expected_latency=expected,
        give_up_latency=attempts * call_seconds + sum(waits),
    )


def retry_figure(failure_rate: float = 0.3, attempts: int = 3, base: float = 0.5, jitter: Jitter = "full",
                 *, cap: float = 8.0, call_seconds: float = 0.2) -> Figure:
    """Success rate and mean latency against the attempts allowed, the chosen policy marked."""
    from .charts import _figure  # the course's figure set-up: shown inline in Jupyter, CJK fonts

    counts = range(1, max(MAX_ATTEMPTS, attempts) + 1)
    figure = _figure((10, 3.6))
    rate_axes, time_axes = figure.subplots(1, 2)
    rates = [retry_outcome(failure_rate, n, base, jitter, cap=cap, call_seconds=call_seconds) for n in counts]
    rate_axes.plot(counts, [r.success_rate * 100 for r in rates], marker="o", color="#4C72B0")
    rate_axes.plot([attempts], [rates[attempts - 1].success_rate * 100], marker="o", markersize=12,
                   color="#C44E52", linestyle="none", label="chosen")
    rate_axes.set(xlabel="attempts allowed", ylabel="calls that succeed (%)", ylim=(0, 101),
                  title=f"{failure_rate:.0%} of attempts fail")
    rate_axes.legend(loc="lower right", fontsize=8)
    for name in JITTERS:
        times = [retry_outcome(failure_rate, n, base, name, cap=cap, call_seconds=call_seconds) for n in counts]
        chosen = name == jitter
        time_axes.plot(counts, [t.expected_latency for t in times], marker="o" if chosen else ".",
                       linewidth=2.5 if chosen else 1, label=f"{name} jitter" if name != "none" else "no jitter")
        if chosen:
            time_axes.plot([attempts], [times[attempts - 1].expected_latency], marker="o", markersize=12,
                           color="#C44E52", linestyle="none")
    time_axes.set(xlabel="attempts allowed", ylabel="mean seconds per call",
                  title=f"base {base:g} s, cap {cap:g} s, {call_seconds:g} s per attempt")
    time_axes.legend(fontsize=8)
    return figure


@cache
def _ipywidgets() -> Any:
    try:
        import ipywidgets
    except ImportError as exc:
        raise ImportError("the explorer needs ipywidgets: run `pip install -r requirements.txt`") from exc
    return ipywidgets


def retry_explorer(failure_rate: float = 0.3, attempts: int = 3, base: float = 0.5, jitter: Jitter = "full",
                   *, cap: float = 8.0, call_seconds: float = 0.2, interactive: bool | None = None) -> Any:
    """Sliders for a retry policy, and what it buys: success rate and mean latency per call.

    With a frontend (or ``interactive=True``) returns the widget; otherwise prints
    the default policy's figures and returns its static figure. The figures are
    computed exactly (see :func:`retry_outcome`), so they are the same each run.
    """
    retry_outcome(failure_rate, attempts, base, jitter, cap=cap, call_seconds=call_seconds)  # check the defaults
    if not (has_frontend() if interactive is None else interactive):
        print(wrap(retry_outcome(failure_rate, attempts, base, jitter, cap=cap, call_seconds=call_seconds).summary()))
        return retry_figure(failure_rate, attempts, base, jitter, cap=cap, call_seconds=call_seconds)
    w = _ipywidgets()
    controls = {
        "failure_rate": w.FloatSlider(value=failure_rate, min=0.0, max=0.95, step=0.05, description="failure rate",
                                      readout_format=".0%"),
        "attempts": w.IntSlider(value=attempts, min=1, max=MAX_ATTEMPTS, description="attempts"),
        "base": w.FloatSlider(value=base, min=0.1, max=4.0, step=0.1, description="base delay (s)"),
        "jitter": w.Dropdown(options=list(JITTERS), value=jitter, description="jitter"),
    }
    for control in controls.values():
        control.style.description_width = "110px"

    def draw(**values: Any) -> None:
        from IPython.display import display

        print(wrap(retry_outcome(cap=cap, call_seconds=call_seconds, **values).summary()))
        display(retry_figure(cap=cap, call_seconds=call_seconds, **values))

    output = w.interactive_output(draw, controls)
    return w.VBox([w.HBox([controls["failure_rate"], controls["attempts"]]),
                   w.HBox([controls["base"], controls["jitter"]]), output])


# -- approval (lesson 04) ----------------------------------------------------------------------

_DECIDE_HINT = (
    "Decide with result.approve(id) or result.reject(id, reason=...), then run llm.resume(result); "
    "a call left undecided is denied when the run resumes."
)
UNDECIDED = "undecided (denied if the run resumes now)"
UNDECIDED_AT_RESUME = "denied: undecided (nobody decided before the run resumed)"


def _resumed(result: Any) -> bool:
    """Has the paused run behind ``result`` resumed (this object, or a copy of it in this process)?"""
    from .rounds import _resumed as claimed

    run = result.paused
    return run is not None and (run.resumed or run.token in claimed)


def _label(result: Any, call_id: str) -> str:
    decision = result.paused.decisions.get(call_id) if result.paused is not None else None
    if decision is None:
        return UNDECIDED_AT_RESUME if _resumed(result) else UNDECIDED
    if decision.approved:
        return "approved" if decision.arguments is None else "approved with edited arguments"
    return f"denied: {decision.reason}" if decision.reason else "denied"


def approval_decisions(result: Any) -> dict[str, str]:
    """What was decided for each call ``result`` awaits, by call id, read from the paused run itself.

    ``"approved"`` (or ``"approved with edited arguments"``), ``"denied"`` or ``"denied: <reason>"``
    as recorded by ``result.approve`` / ``result.reject`` or the widget's buttons; a call nobody
    decided is ``"undecided (denied if the run resumes now)"`` and, once the run has resumed,
    ``"denied: undecided (nobody decided before the run resumed)"``. Empty when nothing awaits.
    """
    from .rounds import RunResult

    if not isinstance(result, RunResult):
        raise TypeError(f"approval_decisions() takes the RunResult of llm.run(...), got {type(result).__name__}")
    return {call.id: _label(result, call.id) for call in result.pending}


def decided(result: Any) -> bool:
    """Is ``result`` ready to resume: every pending call decided, or nobody there to click?

    With a live frontend (JupyterLab, Colab) a call still undecided means the person has not
    clicked yet (Run All reaches the resume cell at once): it says so and returns False, so the
    cell resumes nothing and can be run again after the click. Headless (papermill, nbval) there
    is nobody to click: True, and the run resumes as decided (an undecided call is denied).
    """
    waiting = [call_id for call_id, label in approval_decisions(result).items() if label == UNDECIDED]
    if not waiting or not has_frontend():
        return True
    print(f"{len(waiting)} call(s) still undecided ({', '.join(waiting)}): click Approve or Deny above, then run "
          "this cell again. Nothing was resumed, and nothing ran.")
    return False


def _exact_arguments(call: Any) -> str:
    """The call's arguments in full, as JSON: a person approves exactly what will run."""
    import json

    return json.dumps(dict(call.arguments), ensure_ascii=False, indent=2, sort_keys=True)


def _fit(text: str) -> str:
    """``text`` wrapped to the course's line width, each line keeping its indentation (JSON stays readable)."""
    from . import display

    lines = []
    for line in text.splitlines() or [""]:
        body = line.lstrip(" ")
        lines.append(display.wrap(body, display.LINE_WIDTH, indent=line[: len(line) - len(body)]) if body else line)
    return "\n".join(lines)


def approval_listing(result: Any) -> str:
    """The calls ``result`` awaits, one block each with the id, the exact arguments and what was decided
    so far, as plain text."""
    from .rounds import RunResult

    if not isinstance(result, RunResult):
        raise TypeError(f"approval() takes the RunResult of llm.run(...), got {type(result).__name__}")
    if not result.pending:
        return f"No call awaits approval (stopped_by={result.stopped_by!r})."
    blocks = [f"{len(result.pending)} call(s) await approval:"]
    decided = approval_decisions(result)
    for call in result.pending:
        blocks.append(f"{call.id}: {call.name}\n{_exact_arguments(call)}\ndecision: {decided[call.id]}")
    blocks.append(_DECIDE_HINT)
    return _fit("\n\n".join(blocks))


def approval(result: Any, *, interactive: bool | None = None) -> ApprovalPanel | None:
    """Approve / Deny buttons for each call a paused run awaits, with its exact arguments.

    A click records the decision on ``result`` itself (``result.approve(id)`` or
    ``result.reject(id, reason=...)``, with the reason typed beside the buttons), so
    ``llm.resume(result)`` in the next cell acts on exactly what the person clicked; a
    call nobody decided is denied. Once the run has resumed the panel shows each final
    decision and turns its buttons off (see :class:`ApprovalPanel`).

    Headless (papermill, nbval) or with ``interactive=False`` there is nobody to click:
    it prints the calls as plain text and returns None. Decide in code, or let an
    ``approve=`` policy decide.
    """
    listing = approval_listing(result)
    if not result.pending or not (has_frontend() if interactive is None else interactive):
        print(listing)
        return None
    return ApprovalPanel(result)


class ApprovalPanel:
    """The approval widget of one paused run (what :func:`approval` returns when a frontend draws it).

    Jupyter shows it like any widget (``widget`` is its ipywidgets ``VBox``). Every click
    is recorded on the paused run, the only place decisions are kept: what ``llm.resume``
    sees is what the buttons say, and a decision made in code shows here too after the
    cell that made it. After the cell that resumes the run, :meth:`refresh` (called then
    by IPython's ``post_run_cell`` event, or by you) shows each call's final decision,
    ``"denied: undecided ..."`` for one nobody decided, and disables the buttons.
    """

    def __init__(self, result: Any) -> None:
        import html

        w = _ipywidgets()
        self.result = result
        self._rows: dict[str, tuple[Any, ...]] = {}  # call id -> (approve, deny, reason, status)
        header = w.HTML(f"<b>{len(result.pending)} call(s) await approval.</b> {html.escape(_DECIDE_HINT)}")
        self.widget = w.VBox([header, *(self._row(w, call) for call in result.pending)])
        self._events: Any = None
        self.refresh()
        self._watch()

    @property
    def children(self) -> tuple[Any, ...]:
        """The widget's rows: a header, then one row per pending call (shown, buttons, status)."""
        return self.widget.children

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    def __repr__(self) -> str:
        decided = approval_decisions(self.result)
        return f"ApprovalPanel({', '.join(f'{i}: {d}' for i, d in decided.items())})"

    def _row(self, w: Any, call: Any) -> Any:
        """One pending call: its name, id and exact arguments (escaped: they come from the model), buttons, status."""
        import html

        shown = w.HTML(
            f"<b>{html.escape(call.name)}</b> <code>{html.escape(call.id)}</code>"
            f"<pre>{html.escape(_exact_arguments(call))}</pre>"
        )
        approve = w.Button(description="Approve", button_style="success", icon="check")
        deny = w.Button(description="Deny", button_style="danger", icon="times")
        reason = w.Text(placeholder="reason for a denial (sent to the model)", layout=w.Layout(width="320px"))
        status = w.Label(UNDECIDED)
        approve.on_click(lambda _button: self._decide(call.id, approved=True))
        deny.on_click(lambda _button: self._decide(call.id, approved=False))
        self._rows[call.id] = (approve, deny, reason, status)
        return w.VBox([shown, w.HBox([approve, deny, reason]), status])

    def _decide(self, call_id: str, *, approved: bool) -> None:
        status = self._rows[call_id][3]
        try:
            if approved:
                self.result.approve(call_id)
            else:
                self.result.reject(call_id, reason=self._rows[call_id][2].value.strip())
        except RuntimeError:  # the run already resumed: this click changes nothing
            self.refresh()
            return
        except (KeyError, ValueError) as exc:
            status.value = str(exc)
            return
        self.refresh()

    def refresh(self) -> None:
        """Show the decisions the paused run holds; once it has resumed, the final ones, with the buttons off."""
        done = _resumed(self.result)
        for call_id, (approve, deny, reason, status) in self._rows.items():
            label = _label(self.result, call_id)
            if done:
                status.value = f"{label}; the run already resumed, so these buttons are off"
            elif label == UNDECIDED:
                status.value = label
            else:
                status.value = f"{label}: run llm.resume(result) in the next cell (a click until then changes it)"
            for control in (approve, deny, reason):
                control.disabled = done
        if done:
            self._unwatch()

    def resume(self, llm: Any, **options: Any) -> Any:
        """``llm.resume(result, **options)``: run what was approved, deny the rest; then :meth:`refresh`."""
        try:
            return llm.resume(self.result, **options)
        finally:
            self.refresh()

    # IPython calls ``_after_cell`` after every cell, so the cell that resumes the run updates the panel.
    def _watch(self) -> None:
        try:
            from IPython import get_ipython
        except ImportError:
            return
        shell = get_ipython()
        events = getattr(shell, "events", None)
        if events is not None:
            events.register("post_run_cell", self._after_cell)
            self._events = events

    def _after_cell(self, _result: Any = None) -> None:
        self.refresh()

    def _unwatch(self) -> None:
        events, self._events = self._events, None
        if events is not None:
            with contextlib.suppress(ValueError):
                events.unregister("post_run_cell", self._after_cell)
