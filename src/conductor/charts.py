"""Matplotlib figures drawn from a run's :class:`~conductor.trace.Trace`.

Every function returns a :class:`matplotlib.figure.Figure` with an explicit
size and never calls ``plt.show()``. The figures are built without pyplot:
pyplot-managed figures are shown by Jupyter's inline backend at the end of the
cell *and* again as the cell's value, so a returned pyplot figure would appear
twice. A plain ``Figure`` is drawn once, when it is the cell's value (or on
``display(fig)`` / ``fig.savefig(...)``), and is freed like any object.

matplotlib is imported inside the functions (about 1 s), so ``import conductor``
stays light.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from itertools import accumulate
from typing import TYPE_CHECKING, Any, Protocol

from .records import ModelCall, Round, ToolCallRecord

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.container import BarContainer
    from matplotlib.figure import Figure

MODEL_COLOR = "#4C72B0"
TOOLS_COLOR = "#DD8452"
INPUT_COLOR = "#55A868"
CACHED_COLOR = "#A9D8B8"  # cached input: the input's green, lighter (it is billed at a lower rate)
OUTPUT_COLOR = "#C44E52"
CUMULATIVE_COLOR = "#333333"
MESSAGES_COLOR = "#8172B3"
ANSWER_COLOR = "#7F7F7F"  # the final request, which belongs to no tool round
WAIT_COLOR = "#BBBBBB"  # a backoff wait between two attempts of one call
ATTEMPT_HEIGHT = 0.55  # attempts are thinner than a call's bar, leaving room for the note above them

Color = tuple[float, float, float, float] | str  # RGBA or a hex string, as matplotlib takes them


class Trace(Protocol):
    """What the figures read from a run: a :class:`conductor.trace.Trace` (whose ``plot()`` calls this module,
    so this module names only the parts it draws, and imports the records below both)."""

    @property
    def model_calls(self) -> tuple[ModelCall, ...]: ...

    @property
    def rounds(self) -> tuple[Round, ...]: ...

    @property
    def seconds(self) -> float: ...

    @property
    def model_name(self) -> str: ...

    @property
    def priced_as(self) -> str: ...

    @property
    def input_price(self) -> float: ...

    @property
    def output_price(self) -> float: ...

    @property
    def cost(self) -> float: ...

    def rows(self) -> list[dict[str, Any]]: ...


CROWDED = 8  # more x labels than this and they are turned and shrunk to stay readable


def plot_trace(trace: Trace, *, figsize: tuple[float, float] = (10, 3.6)) -> Figure:
    """Latency (model vs tools, s) and cost (input vs output, $; cumulative line) per model request."""
    fig = _figure(figsize)
    time_ax, cost_ax = fig.subplots(1, 2)
    rows = trace.rows()
    steps = [row["step"] for row in rows]

    model_s = [row["model_s"] for row in rows]
    tools_s = [row["tools_s"] for row in rows]
    time_ax.bar(range(len(rows)), model_s, color=MODEL_COLOR, label="model")
    time_ax.bar(range(len(rows)), tools_s, bottom=model_s, color=TOOLS_COLOR, label="tools")
    _step_ticks(time_ax, steps)
    time_ax.set(title="latency per request", ylabel="seconds")

    _cost_bars(cost_ax, trace, steps)
    _figure_legend(fig)
    fig.suptitle(_run_title(trace))
    return fig


def plot_gantt(trace: Trace, *, figsize: tuple[float, float] = (10, 3)) -> Figure:
    """Every model request and tool call as a bar from its start to its end, colored by round.

    The top lane holds the model requests; below it each tool call gets its own
    lane, so calls run one after another form a staircase and calls run in
    parallel overlap. Failed tool calls are hatched.

    A call tried more than once (a retry policy, fallbacks) shows each attempt as
    its own segment in its lane: failed attempts hatched, a fallback's dotted, the
    backoff waits between them as thin gray bars. A note beside the call gives the
    attempts and the waits the policy chose (also when a simulated clock took them
    in no time, see :mod:`conductor.retry`) and the fallback that answered.
    """
    from matplotlib.patches import Patch

    fig = _figure(figsize)
    ax = fig.subplots()
    round_of = {r.model.index: r.index for r in trace.rounds}
    colors = _round_colors(len(trace.rounds))

    for call in trace.model_calls:
        ax.barh(0, call.seconds, left=call.started, color=_request_color(call, round_of, colors), edgecolor="white")
    lanes = ["model"]
    for rnd in trace.rounds:
        positions = {c.id: number for number, c in enumerate(rnd.tool_calls, start=1)}
        for record in sorted(rnd.tool_calls, key=lambda c: c.started):
            lanes.append(_call_label(record, positions[record.id]))
            color = colors[rnd.index - 1]
            if len(record.attempts) > 1:
                _draw_attempts(ax, len(lanes) - 1, record, color)
                continue
            # An outline in the bar's own color keeps a call that takes well under a pixel
            # (a fast local tool) visible as a thin bar; each call has its own lane, so no
            # white edge is needed to tell neighbours apart.
            ax.barh(
                len(lanes) - 1,
                record.seconds,
                left=record.started,
                color=color,
                edgecolor="black" if record.is_error else color,
                linewidth=1,
                hatch="//" if record.is_error else None,
            )

    ax.set_yticks(range(len(lanes)), lanes, fontsize=_label_size(len(lanes)))
    ax.set_ylim(len(lanes) - 0.5, -0.5)  # model lane on top, calls below in order
    ax.set_xlim(0, _run_end(trace))
    ax.set(xlabel="seconds since the run started", title="model requests and tool calls over time")
    handles = [Patch(color=colors[i], label=f"round {i + 1}") for i in range(len(trace.rounds))]
    handles.append(Patch(color=ANSWER_COLOR, label="answer"))
    records = [c for r in trace.rounds for c in r.tool_calls]
    if any(c.is_error or any(a.error for a in c.attempts) for c in records):
        handles.append(Patch(facecolor="white", edgecolor="black", hatch="//", label="tool error"))
    if any(a.waited > 0 for c in records for a in c.attempts):
        handles.append(Patch(color=WAIT_COLOR, label="backoff wait"))
    if any(c.fallback for c in records):
        handles.append(Patch(facecolor="white", edgecolor="black", hatch="..", label="fallback"))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small")
    fig.suptitle(_run_title(trace))
    return fig


def _draw_attempts(ax: Axes, lane: int, record: ToolCallRecord, color: Color) -> None:
    """One segment per attempt of ``record``, the real waits between them, and a note of the policy's waits."""
    previous_end = record.started
    for attempt in record.attempts:
        if attempt.started > previous_end:
            ax.barh(lane, attempt.started - previous_end, left=previous_end, height=0.25, color=WAIT_COLOR)
        failed = attempt.error is not None
        hatch = "//" if failed else (".." if attempt.tool != record.name else None)
        ax.barh(
            lane,
            attempt.ended - attempt.started,
            left=attempt.started,
            height=ATTEMPT_HEIGHT,
            color=color,
            edgecolor="black" if hatch else color,
            linewidth=1,
            hatch=hatch,
        )
        previous_end = attempt.ended
    # Above the lane's thinner bars, from the call's start: inside the axes wherever the call ran.
    ax.text(record.started, lane - 0.42, _attempts_note(record), fontsize="x-small", va="center")


def _attempts_note(record: ToolCallRecord) -> str:
    """``3 attempts, waits 0.41 + 1.20 s -> cache``: what the policy did for one call."""
    waits = [a.waited for a in record.attempts if a.waited > 0]
    note = _count(len(record.attempts), "attempt")
    if waits:
        note += ", waits " + " + ".join(f"{w:.2f}" for w in waits) + " s"
    if record.fallback:
        note += f" -> {record.fallback}"
    return note


def plot_comparison(
    labels: Sequence[str], traces: Sequence[Trace], *, figsize: tuple[float, float] = (10, 3.6)
) -> Figure:
    """Side by side, for several runs: total seconds (model vs tools) and total cost (input vs output).

    For instance ``plot_comparison(["sequential", "parallel"], [seq.trace, par.trace])``.
    """
    if len(labels) != len(traces) or not traces:
        raise ValueError(f"pass one label per trace (got {len(labels)} labels for {len(traces)} traces)")
    fig = _figure(figsize)
    time_ax, cost_ax = fig.subplots(1, 2)
    names = [f"{label}\n{_count(len(t.model_calls), 'request')}" for label, t in zip(labels, traces)]
    positions = range(len(traces))

    model_s = [sum(c.seconds for c in t.model_calls) for t in traces]
    tools_s = [sum(r.tool_seconds for r in t.rounds) for t in traces]
    time_ax.bar(positions, model_s, color=MODEL_COLOR, label="model")
    bars = time_ax.bar(positions, tools_s, bottom=model_s, color=TOOLS_COLOR, label="tools")
    time_ax.bar_label(bars, [f"{m + t:.2f} s" for m, t in zip(model_s, tools_s)], fontsize="small")
    _step_ticks(time_ax, names)
    time_ax.set(title="time per run", ylabel="seconds")

    bars = _stacked_cost(cost_ax, positions, [_trace_cost_split(t) for t in traces])
    cost_ax.bar_label(bars, [_usd(t.cost) for t in traces], fontsize="small")
    _step_ticks(cost_ax, names)
    _usd_axis(cost_ax, max((t.cost for t in traces), default=0.0))
    cost_ax.set(title="cost per run", ylabel="cost")  # the ticks carry the $
    for ax in (time_ax, cost_ax):
        ax.margins(y=0.15)  # room for the totals above the bars
    _figure_legend(fig)
    return fig


def plot_growth(
    trace: Trace, messages: Sequence[int] | None = None, *, figsize: tuple[float, float] = (8, 3.2)
) -> Figure:
    """Input tokens sent with each model request (bars: the part read from the prompt cache on top) and, if
    given, the messages sent (line).

    Every request resends the whole conversation, so both grow round by round.
    ``messages`` holds one message count per model request, in order.
    """
    rows = trace.rows()
    if messages is not None and len(messages) != len(rows):
        raise ValueError(f"pass one message count per model request: {len(rows)} expected, got {len(messages)}")
    fig = _figure(figsize)
    ax = fig.subplots()
    steps = [row["step"] for row in rows]
    tokens = [row["input_tokens"] for row in rows]
    cached = [row.get("cached_tokens", 0) for row in rows]
    # Each bar is the request's whole input: the part read from the prompt cache (cheaper, faster) on top.
    fresh = ax.bar(range(len(rows)), [t - c for t, c in zip(tokens, cached)], color=INPUT_COLOR,
                   label="input tokens (not cached)")
    bars = ax.bar(range(len(rows)), cached, bottom=[t - c for t, c in zip(tokens, cached)], color=CACHED_COLOR,
                  label="read from the cache")
    ax.bar_label(bars, [f"{n:,}" for n in tokens], fontsize="small")
    ax.margins(y=0.15)
    _step_ticks(ax, steps)
    ax.set(title="what each request sends", ylabel="input tokens")
    handles = [fresh, bars]
    if messages is not None:
        count_ax = ax.twinx()
        (line,) = count_ax.plot(range(len(rows)), messages, "o-", color=MESSAGES_COLOR, label="messages")
        count_ax.set_ylabel("messages")
        # Twice the peak keeps the line inside the bars: tokens and messages grow together,
        # so on matching scales each point would sit on its bar's token label.
        count_ax.set_ylim(0, max(messages, default=0) * 2 + 1)
        count_ax.yaxis.get_major_locator().set_params(integer=True)
        handles.append(line)
    # Under the axes, where it cannot cover a bar's label (inside, it hid the first request's token count).
    fig.legend(handles=handles, loc="outside lower center", ncols=len(handles), fontsize="small")
    fig.suptitle(_run_title(trace))
    return fig


def _figure(figsize: tuple[float, float]) -> Figure:
    from matplotlib.figure import Figure

    _prepare_display()
    return Figure(figsize=figsize, layout="constrained")


@functools.cache
def _prepare_display() -> None:
    """Once per process: show plain Figures in Jupyter, and draw Chinese labels where a font can.

    IPython registers its PNG formatter for figures only when pyplot's inline
    backend loads; figures built without pyplot would show as text alone.
    """
    try:
        from IPython import get_ipython
    except ImportError:
        get_ipython = None
    shell = get_ipython() if get_ipython else None
    if shell is not None:
        from IPython.core.pylabtools import select_figure_formats

        select_figure_formats(shell, {"png"})
    font = _cjk_font()
    if font:
        import matplotlib

        # A fallback font for the glyphs the default font lacks (matplotlib >= 3.6 falls back along the list).
        families = matplotlib.rcParams["font.sans-serif"]
        if font not in families:
            matplotlib.rcParams["font.sans-serif"] = [*families, font]


CJK_FONTS = ("Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "WenQuanYi Zen Hei", "Microsoft YaHei", "PingFang SC", "SimHei")


@functools.cache
def _cjk_font() -> str | None:
    """The first installed font that draws Chinese, or None (Colab and many Linux images have none)."""
    from matplotlib import font_manager

    installed = {entry.name for entry in font_manager.fontManager.ttflist}
    return next((name for name in CJK_FONTS if name in installed), None)


def _drawable(text: str) -> bool:
    """Can the chart fonts draw ``text``? Chinese needs one of :data:`CJK_FONTS`."""
    return _cjk_font() is not None or all(ord(ch) < 0x2E80 for ch in text)


def _figure_legend(fig: Figure) -> None:
    """One legend for all the figure's series, under the axes, where it cannot hide a bar."""
    from matplotlib.lines import Line2D

    handles, labels = [], []
    for ax in fig.axes:
        # matplotlib lists an axes' lines before its bars; bars first reads in drawing order
        # (the cost bars, then the running total drawn over them).
        pairs = sorted(zip(*ax.get_legend_handles_labels()), key=lambda pair: isinstance(pair[0], Line2D))
        for handle, label in pairs:
            if label not in labels:
                handles.append(handle)
                labels.append(label)
    fig.legend(handles, labels, loc="outside lower center", ncols=len(labels), fontsize="small")


def _cost_bars(ax: Axes, trace: Trace, steps: list[str]) -> None:
    """Stacked input/output cost per request, and the running total as a line, on one dollar axis."""
    splits = [_cost_split(trace, call) for call in trace.model_calls]
    positions = range(len(splits))
    _stacked_cost(ax, positions, splits)
    _step_ticks(ax, steps)
    # One y axis for both, not a second one for the running total: bars and line are both dollars,
    # and two axes scaled to their own peaks draw the same amount at two heights (the first
    # request's bar looked far smaller than the line's first point, which is the same cost). On one
    # axis the line starts at the top of the first bar and each step up is the next bar's height.
    running = list(accumulate(c.cost for c in trace.model_calls))
    ax.plot(positions, running, "o-", color=CUMULATIVE_COLOR, label="cumulative")
    ax.set_ylim(0, max(running, default=0.0) * 1.1 or 1.0)
    _usd_axis(ax, max(running, default=0.0))
    ax.set(title="cost per request and cumulative", ylabel="cost")  # the ticks carry the $


def _stacked_cost(ax: Axes, positions: range, splits: Sequence[tuple[float, float, float]]) -> BarContainer:
    """Input (not cached), cached input and output cost, stacked; the top bars.

    The cached part is always drawn and named, even at $0: a round that read nothing from the prompt cache
    shows it."""
    inputs = [s[0] for s in splits]
    ax.bar(positions, inputs, color=INPUT_COLOR, label="input (not cached)")
    ax.bar(positions, [s[1] for s in splits], bottom=inputs, color=CACHED_COLOR, label="cached input")
    bottom = [s[0] + s[1] for s in splits]
    return ax.bar(positions, [s[2] for s in splits], bottom=bottom, color=OUTPUT_COLOR, label="output")


def _cost_split(trace: Trace, call: ModelCall) -> tuple[float, float, float]:
    """The request's cost in dollars as billed: input, cached input, output (server tools included).

    The parts are the ones priced when the response came (``call.cost_split``).
    A hand-built record without them is split by the trace's per-million-token
    prices, scaled to the recorded ``call.cost``; without prices the whole cost
    counts as input.
    """
    if call.cost_split is not None:
        split = call.cost_split
        return split.input, split.cached, split.output + split.server_tools
    weight_in = call.usage.input_tokens * trace.input_price
    weight_out = call.usage.output_tokens * trace.output_price
    if weight_in + weight_out == 0:
        return call.cost, 0.0, 0.0
    share_in = weight_in / (weight_in + weight_out)
    return call.cost * share_in, 0.0, call.cost * (1 - share_in)


def _trace_cost_split(trace: Trace) -> tuple[float, float, float]:
    splits = [_cost_split(trace, call) for call in trace.model_calls]
    return sum(s[0] for s in splits), sum(s[1] for s in splits), sum(s[2] for s in splits)


def _step_ticks(ax: Axes, labels: Sequence[str]) -> None:
    """One x tick per bar; many labels are turned and shrunk so they do not overlap."""
    crowded = len(labels) > CROWDED
    ax.set_xticks(
        range(len(labels)),
        labels,
        rotation=45 if crowded else 0,
        ha="right" if crowded else "center",
        fontsize=_label_size(len(labels)),
    )


def _label_size(count: int) -> float:
    return 10 if count <= CROWDED else max(6.0, 10 * CROWDED / count)


def _usd_axis(ax: Axes, peak: float) -> None:
    from matplotlib.ticker import FuncFormatter

    decimals = _decimals(peak)

    def label(value: float, _pos: int) -> str:
        if abs(value) < 0.5 * 10 ** -(decimals + 1):  # the axis origin: "$0" rather than "$0.00000"
            return "$0"
        # one more decimal only where a tick needs it ($0.00025 between $0.0002 and $0.0003)
        text = f"{value:.{decimals + 1}f}"
        return "$" + (text[:-1] if text.endswith("0") else text)

    ax.yaxis.set_major_formatter(FuncFormatter(label))


def _usd(amount: float) -> str:
    """Dollars with two significant digits: $0.0022, $0.000080, $1.82."""
    return f"${amount:.{_decimals(amount)}f}"


def _decimals(amount: float) -> int:
    """Decimal places that show two significant digits of ``amount`` (at least cents)."""
    if amount <= 0:
        return 2
    return max(2, 1 - math.floor(math.log10(amount)))


def _round_colors(count: int) -> list[Color]:
    from matplotlib import colormaps

    palette = colormaps["tab10"]
    hues = [palette(i) for i in range(palette.N) if i != 7]  # tab10's 8th color is the answer's gray
    return [hues[i % len(hues)] for i in range(count)]


def _request_color(call: ModelCall, round_of: dict[int, int], colors: Sequence[Color]) -> Color:
    if call.index in round_of:
        return colors[round_of[call.index] - 1]
    return ANSWER_COLOR


def _call_label(record: ToolCallRecord, position: int, width: int = 32) -> str:
    """``name(arg, ...)`` with the argument values, cut to ``width`` characters.

    Where no installed font can draw the values (Chinese city names without a CJK font), a
    place or word the offline model's glossary knows is written in English (``get_weather(Beijing)``);
    failing that, the label names the call's position in its round: ``get_weather(#2)``. A call whose
    arguments were not recorded (a trace rebuilt from spans that did not capture content) is
    ``get_weather(…)``: it had arguments, the trace does not hold them.
    """
    if record.arguments is None:
        return f"{record.name}(…)"[:width]
    if isinstance(record.arguments, dict):
        args = ", ".join(str(v) for v in record.arguments.values())
    else:
        args = str(record.arguments)
    if not _drawable(args):
        from .language import in_english

        english = in_english(args)
        args = english if english is not None and _drawable(english) else f"#{position}"
    label = f"{record.name}({args})"
    return label if len(label) <= width else label[: width - 1] + "…"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _run_end(trace: Trace) -> float:
    ends = [c.ended for c in trace.model_calls] + [c.ended for r in trace.rounds for c in r.tool_calls]
    return max([trace.seconds, *ends]) or 1.0


def _run_title(trace: Trace) -> str:
    parts = [trace.model_name or "model"]
    if trace.priced_as and trace.priced_as != trace.model_name:
        parts.append(f"priced as {trace.priced_as}")
    parts.append(f"{_count(len(trace.model_calls), 'request')}, {_count(len(trace.rounds), 'tool round')}")
    parts.append(f"{trace.seconds:.2f} s, {_usd(trace.cost)}")
    return " · ".join(parts)
