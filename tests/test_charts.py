"""conductor.charts: the figures hold the trace's figures, in the right places, with labels."""

from __future__ import annotations

import base64
from itertools import accumulate

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)
import pytest  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.colors import to_rgba  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from conductor import charts  # noqa: E402
from conductor.trace import ModelCall, Round, ToolCallRecord, Trace  # noqa: E402
from conductor.types import StopReason, Usage  # noqa: E402

INPUT_PRICE, OUTPUT_PRICE = 0.4, 1.6  # $ per million tokens, made up for these tests
CITIES = ("Beijing", "Shanghai", "Guangzhou")


def _cost(usage: Usage) -> float:
    return (usage.input_tokens * INPUT_PRICE + usage.output_tokens * OUTPUT_PRICE) / 1e6


def make_trace(*, rounds: int = 2, calls: int = 2, parallel: bool = False, failing: int | None = None) -> Trace:
    """A run of ``rounds`` tool rounds of ``calls`` calls each, then an answer; made-up timings."""
    clock = 0.0
    model_calls: list[ModelCall] = []
    records: list[Round] = []
    for index in range(1, rounds + 2):
        usage = Usage(input_tokens=500 + 700 * index, output_tokens=30 + 20 * index)
        asked_tools = index <= rounds
        call = ModelCall(
            index=index,
            started=clock,
            ended=clock + 0.5 + 0.1 * index,
            usage=usage,
            cost=_cost(usage),
            stop_reason=StopReason.TOOL_USE if asked_tools else StopReason.END_TURN,
            tools_allowed=asked_tools,
        )
        model_calls.append(call)
        clock = call.ended
        if not asked_tools:
            break
        tool_calls = []
        for j in range(calls):
            start = call.ended if parallel else clock
            end = start + 0.2 + 0.1 * j
            tool_calls.append(
                ToolCallRecord(
                    id=f"call_{index}_{j}",
                    name="get_weather",
                    arguments={"city": CITIES[j % len(CITIES)]},
                    output="{}",
                    is_error=j == failing,
                    started=start,
                    ended=end,
                )
            )
            clock = max(clock, end)
        records.append(Round(index=index, model=call, tool_calls=tuple(tool_calls)))
    return Trace(
        model_calls=tuple(model_calls),
        rounds=tuple(records),
        seconds=clock + 0.01,
        model_name="offline",
        priced_as="gpt-4.1-mini",
        input_price=INPUT_PRICE,
        output_price=OUTPUT_PRICE,
    )


@pytest.fixture(autouse=True)
def no_figures_left():
    """Charts must not register pyplot figures (Jupyter would then show each one twice)."""
    yield
    leftover = plt.get_fignums()
    plt.close("all")
    assert leftover == []


def heights(container) -> list[float]:
    return [bar.get_height() for bar in container]


def tick_texts(ax) -> list[str]:
    return [t.get_text() for t in ax.get_xticklabels()]


def legend_texts(legend) -> list[str]:
    return [t.get_text() for t in legend.get_texts()]


def render(fig: Figure):
    """Draw ``fig`` for real and return the renderer.

    A pyplot-free Figure's own canvas is the do-nothing base canvas: its
    ``draw()`` lays nothing out, so an Agg canvas is attached first.
    """
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return canvas.get_renderer()


# plot_trace


def test_plot_trace_latency_bars_are_the_trace_rows():
    trace = make_trace()
    fig = charts.plot_trace(trace)
    time_ax = fig.axes[0]
    rows = trace.rows()
    model, tools = time_ax.containers
    assert heights(model) == pytest.approx([r["model_s"] for r in rows])
    assert heights(tools) == pytest.approx([r["tools_s"] for r in rows])
    assert [bar.get_y() for bar in tools] == pytest.approx([r["model_s"] for r in rows])  # stacked
    assert tick_texts(time_ax) == ["round 1", "round 2", "answer"]
    assert time_ax.get_ylabel() == "seconds"


def test_plot_trace_cost_bars_split_each_request_and_add_up():
    trace = make_trace()
    fig = charts.plot_trace(trace)
    cost_ax = fig.axes[1]
    inputs, cached, outputs = cost_ax.containers
    for call, i_bar, c_bar, o_bar in zip(trace.model_calls, inputs, cached, outputs):
        assert i_bar.get_height() == pytest.approx(call.usage.input_tokens * INPUT_PRICE / 1e6)
        assert c_bar.get_height() == 0  # nothing read from the prompt cache: drawn, at $0
        assert o_bar.get_height() == pytest.approx(call.usage.output_tokens * OUTPUT_PRICE / 1e6)
        assert o_bar.get_y() == pytest.approx(i_bar.get_height())
    (line,) = cost_ax.get_lines()
    assert list(line.get_ydata()) == pytest.approx(list(accumulate(c.cost for c in trace.model_calls)))
    assert cost_ax.get_ylabel() == "cost"
    assert cost_ax.yaxis.get_major_formatter()(0.0015, 0).startswith("$")


def test_plot_trace_draws_equal_costs_at_equal_heights():
    """Bars and running total share one dollar axis: the first request's bar top is the line's first point."""
    trace = make_trace()
    fig = charts.plot_trace(trace)
    render(fig)
    cost_ax = fig.axes[1]
    assert len(fig.axes) == 2, "no second y axis for the running total"
    (line,) = cost_ax.get_lines()
    first_bar_top = cost_ax.containers[-1][0]
    top = first_bar_top.get_y() + first_bar_top.get_height()
    assert top == pytest.approx(line.get_ydata()[0])
    bar_pixels = cost_ax.transData.transform((0, top))[1]
    line_pixels = cost_ax.transData.transform((0, line.get_ydata()[0]))[1]
    assert bar_pixels == pytest.approx(line_pixels)
    low, high = cost_ax.get_ylim()
    assert low == 0 and high >= trace.cost, "the running total stays inside the axes"


def test_plot_trace_has_one_legend_and_a_title_naming_the_run():
    trace = make_trace()
    fig = charts.plot_trace(trace)
    (legend,) = fig.legends
    assert legend_texts(legend) == ["model", "tools", "input (not cached)", "cached input", "output", "cumulative"]
    title = fig.get_suptitle()
    assert "offline" in title and "priced as gpt-4.1-mini" in title and "3 requests" in title


def test_plot_trace_keeps_the_recorded_cost_when_rates_are_tiered():
    """Bars add up to what was billed even when it differs from base rate x tokens."""
    trace = make_trace(rounds=1)
    billed = tuple(
        ModelCall(c.index, c.started, c.ended, c.usage, c.cost * 2, c.stop_reason) for c in trace.model_calls
    )
    tiered = Trace(model_calls=billed, seconds=1.0, input_price=INPUT_PRICE, output_price=OUTPUT_PRICE)
    inputs, cached, outputs = charts.plot_trace(tiered).axes[1].containers
    totals = [i.get_height() + c.get_height() + o.get_height() for i, c, o in zip(inputs, cached, outputs)]
    assert totals == pytest.approx([c.cost for c in billed])


def test_trace_plot_is_plot_trace_with_an_explicit_size():
    fig = make_trace().plot()
    assert isinstance(fig, Figure)
    assert repr(fig) == "<Figure size 1000x360 with 2 Axes>"  # what nbval compares
    assert tuple(charts.plot_trace(make_trace(), figsize=(6, 3)).get_size_inches()) == (6, 3)


def test_many_rounds_turn_the_labels():
    fig = charts.plot_trace(make_trace(rounds=12, calls=1))
    labels = fig.axes[0].get_xticklabels()
    assert len(labels) == 13 and labels[-1].get_text() == "answer"
    assert all(label.get_rotation() == 45 for label in labels)
    few = charts.plot_trace(make_trace()).axes[0].get_xticklabels()
    assert all(label.get_rotation() == 0 for label in few)


# plot_gantt


def _bar_rows(ax) -> dict[int, list[float]]:
    """Start and end of each horizontal bar, flat, by lane number."""
    lanes: dict[int, list[float]] = {}
    for bar in ax.patches:
        lane = round(bar.get_y() + bar.get_height() / 2)
        lanes.setdefault(lane, []).extend([bar.get_x(), bar.get_x() + bar.get_width()])
    return lanes


def test_gantt_draws_every_request_and_call_where_it_happened():
    trace = make_trace()
    fig = charts.plot_gantt(trace)
    (ax,) = fig.axes
    lanes = _bar_rows(ax)
    assert lanes[0] == pytest.approx([t for c in trace.model_calls for t in (c.started, c.ended)])
    calls = [c for r in trace.rounds for c in r.tool_calls]
    for lane, call in enumerate(calls, start=1):
        assert lanes[lane] == pytest.approx([call.started, call.ended])
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == ["model"] + ["get_weather(Beijing)", "get_weather(Shanghai)"] * 2
    assert ax.get_xlabel() == "seconds since the run started"
    assert legend_texts(ax.get_legend()) == ["round 1", "round 2", "answer"]


def test_gantt_colors_a_rounds_calls_like_its_request():
    trace = make_trace()
    ax = charts.plot_gantt(trace).axes[0]
    by_lane = {round(b.get_y() + b.get_height() / 2): b for b in ax.patches if b.get_y() > 0}
    requests = [b for b in ax.patches if round(b.get_y() + b.get_height() / 2) == 0]
    assert by_lane[1].get_facecolor() == requests[0].get_facecolor()  # round 1
    assert by_lane[3].get_facecolor() == requests[1].get_facecolor()  # round 2
    assert requests[0].get_facecolor() != requests[1].get_facecolor()
    assert requests[2].get_facecolor() == to_rgba(charts.ANSWER_COLOR)


def _overlap(lanes, first: int, second: int) -> bool:
    (a_start, a_end), (b_start, b_end) = lanes[first], lanes[second]
    return a_start < b_end and b_start < a_end


def test_gantt_shows_parallel_calls_overlapping_and_sequential_ones_not():
    sequential = _bar_rows(charts.plot_gantt(make_trace(calls=3)).axes[0])
    parallel = _bar_rows(charts.plot_gantt(make_trace(calls=3, parallel=True)).axes[0])
    assert not any(_overlap(sequential, a, b) for a, b in [(1, 2), (2, 3), (1, 3)])
    assert all(_overlap(parallel, a, b) for a, b in [(1, 2), (2, 3), (1, 3)])


def test_gantt_keeps_instant_calls_visible_as_bars_without_a_start_mark():
    """A local tool finishing in microseconds still shows where it ran, as a thin bar of its color."""
    call = ModelCall(1, 0.0, 0.5, Usage(100, 10), 0.0, StopReason.TOOL_USE)
    instant = ToolCallRecord("c1", "add", {"a": 1, "b": 2}, "3", False, 0.5, 0.5000001)
    answer = ModelCall(2, 0.5000001, 1.0, Usage(120, 10), 0.0, StopReason.END_TURN)
    trace = Trace(model_calls=(call, answer), rounds=(Round(1, call, (instant,)),), seconds=1.0)
    fig = charts.plot_gantt(trace)
    ax = fig.axes[0]
    assert not ax.lines and not ax.collections, "no marker or tick beside the bars"
    (bar,) = [b for b in ax.patches if round(b.get_y() + b.get_height() / 2) == 1]
    render(fig)
    left, right = bar.get_window_extent().x0, bar.get_window_extent().x1
    assert bar.get_edgecolor() == bar.get_facecolor() and bar.get_linewidth() >= 1
    assert right - left < 0.01, "the bar itself keeps the call's true length"
    assert [t.get_text() for t in ax.get_yticklabels()] == ["model", "add(1, 2)"]
    assert "2 requests, 1 tool round ·" in charts.plot_trace(trace).get_suptitle()


def test_gantt_marks_failed_calls():
    ax = charts.plot_gantt(make_trace(failing=1)).axes[0]
    hatched = [b for b in ax.patches if b.get_hatch()]
    assert len(hatched) == 2  # the second call of each of the two rounds
    assert "tool error" in legend_texts(ax.get_legend())


def test_gantt_with_many_calls_shrinks_lane_labels():
    ax = charts.plot_gantt(make_trace(rounds=5, calls=4)).axes[0]
    labels = ax.get_yticklabels()
    assert len(labels) == 21
    assert labels[0].get_fontsize() < 10


# plot_comparison


def test_comparison_puts_runs_side_by_side():
    seq, par = make_trace(calls=3), make_trace(calls=3, parallel=True)
    fig = charts.plot_comparison(["sequential", "parallel"], [seq, par])
    time_ax, cost_ax = fig.axes
    model, tools = time_ax.containers
    assert heights(model) == pytest.approx([sum(c.seconds for c in t.model_calls) for t in (seq, par)])
    assert heights(tools) == pytest.approx([sum(r.tool_seconds for r in t.rounds) for t in (seq, par)])
    assert heights(tools)[1] < heights(tools)[0]
    inputs, cached, outputs = cost_ax.containers
    totals = [i.get_height() + c.get_height() + o.get_height() for i, c, o in zip(inputs, cached, outputs)]
    assert totals == pytest.approx([seq.cost, par.cost])
    assert tick_texts(time_ax) == ["sequential\n3 requests", "parallel\n3 requests"]
    assert legend_texts(fig.legends[0]) == ["model", "tools", "input (not cached)", "cached input", "output"]


def test_comparison_needs_one_label_per_trace():
    with pytest.raises(ValueError, match="one label per trace"):
        charts.plot_comparison(["only one"], [make_trace(), make_trace()])
    with pytest.raises(ValueError, match="one label per trace"):
        charts.plot_comparison([], [])


# plot_growth


def test_growth_shows_input_tokens_and_message_counts():
    trace = make_trace()
    fig = charts.plot_growth(trace, [1, 3, 5])
    tokens_ax, count_ax = fig.axes
    fresh, cached = tokens_ax.containers
    assert heights(fresh) == [c.usage.input_tokens - c.usage.cache_read_tokens for c in trace.model_calls]
    assert [b.get_y() + b.get_height() for b in cached] == [c.usage.input_tokens for c in trace.model_calls]
    assert list(count_ax.get_lines()[0].get_ydata()) == [1, 3, 5]
    assert tick_texts(tokens_ax) == ["round 1", "round 2", "answer"]
    (legend,) = fig.legends
    assert legend_texts(legend) == ["input tokens (not cached)", "read from the cache", "messages"]


def test_growth_without_message_counts_has_one_axes():
    fig = charts.plot_growth(make_trace())
    assert len(fig.axes) == 1
    (legend,) = fig.legends
    assert legend_texts(legend) == ["input tokens (not cached)", "read from the cache"]


def test_growth_line_stays_clear_of_the_token_labels():
    """Tokens and messages grow together; each message marker sits inside its bar, below the bar's label."""
    calls = tuple(
        ModelCall(i, i - 1.0, float(i), Usage(tokens, 20), 0.0001, StopReason.TOOL_USE if i == 1 else StopReason.END_TURN)
        for i, tokens in [(1, 96), (2, 236)]
    )
    trace = Trace(model_calls=calls, rounds=(Round(1, calls[0], ()),), seconds=2.0)
    fig = charts.plot_growth(trace, [2, 4])
    render(fig)
    tokens_ax, count_ax = fig.axes
    (line,) = count_ax.get_lines()
    radius = line.get_markersize() / 72 * fig.dpi / 2
    for x, (bar, messages) in enumerate(zip(tokens_ax.containers[0], [2, 4])):
        marker_top = count_ax.transData.transform((x, messages))[1] + radius
        assert marker_top < tokens_ax.transData.transform((x, bar.get_height()))[1]


def test_growth_legend_hides_no_bars_value():
    """The legend sits outside the axes: no request's token count (the first's included) is under it."""
    calls = tuple(
        ModelCall(i, i - 1.0, float(i), Usage(tokens, 20, cached), 0.0001,
                  StopReason.TOOL_USE if i < 3 else StopReason.END_TURN)
        for i, tokens, cached in [(1, 1792, 0), (2, 1700, 1536), (3, 1750, 1536)]
    )
    trace = Trace(model_calls=calls, rounds=(Round(1, calls[0], ()), Round(2, calls[1], ())), seconds=3.0)
    fig = charts.plot_growth(trace, [2, 4, 6], figsize=(8, 3.2))
    renderer = render(fig)
    legend = fig.legends[0] if fig.legends else fig.axes[0].get_legend()  # wherever it is, it hides nothing
    box = legend.get_window_extent(renderer)
    values = [t for t in fig.axes[0].texts if t.get_text()]
    assert len(values) == 3
    assert not any(box.overlaps(t.get_window_extent(renderer)) for t in values)
    assert box.y1 <= fig.axes[0].get_window_extent(renderer).y0


def test_growth_needs_one_message_count_per_request():
    with pytest.raises(ValueError, match="3 expected, got 2"):
        charts.plot_growth(make_trace(), [1, 3])


# every chart


def every_chart() -> list[Figure]:
    trace = make_trace()
    return [
        charts.plot_trace(trace),
        charts.plot_gantt(trace),
        charts.plot_comparison(["sequential", "parallel"], [trace, make_trace(parallel=True)]),
        charts.plot_growth(trace, [1, 3, 5]),
    ]


def test_axis_labels_name_the_quantity_and_leave_the_unit_to_the_ticks():
    """No "seconds (s)": a label says seconds or cost once, and dollar axes carry the $ on their ticks."""
    trace_fig, gantt_fig, comparison_fig, growth_fig = every_chart()
    labels = [[(ax.get_xlabel(), ax.get_ylabel()) for ax in fig.axes] for fig in every_chart()]
    assert labels == [
        [("", "seconds"), ("", "cost")],
        [("seconds since the run started", "")],
        [("", "seconds"), ("", "cost")],
        [("", "input tokens"), ("", "messages")],
    ]
    for fig in (trace_fig, comparison_fig):
        render(fig)
        for ax in fig.axes[1:]:
            ticks = [t.get_text() for t in ax.get_yticklabels()]
            assert ticks[0] == "$0" and all(t.startswith("$") for t in ticks), ticks


def shown_ticks(axis) -> list:
    """The tick labels matplotlib draws: those inside the axis's view (it keeps one more each side)."""
    low, high = sorted(axis.get_view_interval())
    return [label for label, tick in zip(axis.get_ticklabels(), axis.get_ticklocs()) if low <= tick <= high]


def test_titles_and_labels_fit_inside_the_figure():
    """Nothing is clipped at the figure's edge and no two tick labels overlap, even with 21 Gantt lanes."""
    for fig in [*every_chart(), charts.plot_gantt(make_trace(rounds=5, calls=4))]:
        renderer = render(fig)
        frame = fig.bbox
        texts = [fig._suptitle] if fig._suptitle else []
        for ax in fig.axes:
            texts += [ax.title, ax.xaxis.label, ax.yaxis.label, *shown_ticks(ax.xaxis), *shown_ticks(ax.yaxis)]
        for text in (t for t in texts if t.get_text() and t.get_visible()):
            box = text.get_window_extent(renderer)
            assert frame.x0 - 1 <= box.x0 and box.x1 <= frame.x1 + 1, f"{text.get_text()!r} is clipped"
            assert frame.y0 - 1 <= box.y0 and box.y1 <= frame.y1 + 1, f"{text.get_text()!r} is clipped"
        for axis in (axis for ax in fig.axes for axis in (ax.xaxis, ax.yaxis)):
            boxes = [t.get_window_extent(renderer) for t in shown_ticks(axis) if t.get_text()]
            assert not any(a.overlaps(b) for a, b in zip(boxes, boxes[1:])), [t.get_text() for t in shown_ticks(axis)]


def test_a_run_without_tools_or_requests_still_draws():
    answer_only = make_trace(rounds=0)
    empty = Trace()
    for trace in (answer_only, empty):
        render(charts.plot_trace(trace))
        render(charts.plot_gantt(trace))
        render(charts.plot_growth(trace))
    render(charts.plot_comparison(["answer only", "nothing"], [answer_only, empty]))


def test_totals_are_labelled_in_seconds_and_dollars_with_two_significant_digits():
    def run(cost: float, seconds: float) -> Trace:
        call = ModelCall(1, 0.0, seconds, Usage(1000, 100), cost, StopReason.END_TURN)
        return Trace(model_calls=(call,), seconds=seconds, input_price=INPUT_PRICE, output_price=OUTPUT_PRICE)

    fig = charts.plot_comparison(["a", "b", "c"], [run(0.0022, 1.5), run(0.00008, 0.25), run(1.8225, 12.0)])
    time_ax, cost_ax = fig.axes
    assert [t.get_text() for t in time_ax.texts] == ["1.50 s", "0.25 s", "12.00 s"]
    assert [t.get_text() for t in cost_ax.texts] == ["$0.0022", "$0.000080", "$1.82"]


@pytest.mark.parametrize("font, cities, expected", [
    (None, ["北京", "上海"], ["get_weather(Beijing)", "get_weather(Shanghai)"]),  # no CJK font: in English
    (None, ["北京", "某某村"], ["get_weather(Beijing)", "get_weather(#2)"]),  # a name nobody knows: its position
    ("Noto Sans CJK SC", ["北京", "上海"], ["get_weather(北京)", "get_weather(上海)"]),
])
def test_gantt_labels_chinese_values_only_where_a_font_draws_them(monkeypatch, font, cities, expected):
    monkeypatch.setattr(charts, "_cjk_font", lambda: font)
    call = ModelCall(1, 0.0, 0.5, Usage(100, 10), 0.0, StopReason.TOOL_USE)
    records = tuple(
        ToolCallRecord(f"c{i}", "get_weather", {"city": city}, "{}", False, 0.5, 0.6) for i, city in enumerate(cities)
    )
    answer = ModelCall(2, 0.6, 1.0, Usage(120, 10), 0.0, StopReason.END_TURN)
    trace = Trace(model_calls=(call, answer), rounds=(Round(1, call, records),), seconds=1.0)
    labels = [t.get_text() for t in charts.plot_gantt(trace).axes[0].get_yticklabels()]
    assert labels == ["model", *expected]


def test_figures_display_as_png_in_ipython():
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    charts._prepare_display.cache_clear()
    try:
        fig = charts.plot_trace(make_trace())
        data, _ = shell.display_formatter.format(fig)
        png = data["image/png"]
        png = base64.b64decode(png) if isinstance(png, str) else png
        assert png[:4] == b"\x89PNG" and data["text/plain"] == "<Figure size 1000x360 with 2 Axes>"
    finally:
        charts._prepare_display.cache_clear()
        InteractiveShell.clear_instance()


def test_gantt_shows_each_attempt_the_waits_and_the_fallback():
    from conductor.trace import Attempt

    call = ModelCall(1, 0.0, 0.5, Usage(100, 10), 0.0, StopReason.TOOL_USE)
    attempts = (
        Attempt("get_weather", "TransientError: down", 0.0, 0.5, 0.6),
        Attempt("get_weather", "TransientError: down", 0.4, 1.0, 1.1),
        Attempt("get_weather_cached", None, 0.0, 1.1, 1.15),
    )
    record = ToolCallRecord("c1", "get_weather", {"city": "Beijing"}, "{}", False, 0.5, 1.15, attempts, "get_weather_cached")
    answer = ModelCall(2, 1.15, 3.0, Usage(120, 10), 0.0, StopReason.END_TURN)
    trace = Trace(model_calls=(call, answer), rounds=(Round(1, call, (record,)),), seconds=3.0)
    ax = charts.plot_gantt(trace).axes[0]
    lane = [b for b in ax.patches if round(b.get_y() + b.get_height() / 2) == 1]
    assert [t for b in lane for t in (b.get_x(), b.get_x() + b.get_width())] == pytest.approx(
        [0.5, 0.6, 0.6, 1.0, 1.0, 1.1, 1.1, 1.15]
    )
    assert [b.get_hatch() for b in lane] == ["//", None, "//", ".."]  # failed, the wait, failed, the fallback
    wait = [b for b in lane if b.get_height() < 0.5]
    assert len(wait) == 1 and wait[0].get_facecolor() == to_rgba(charts.WAIT_COLOR)
    assert [t.get_text() for t in ax.texts] == ["3 attempts, waits 0.40 s -> get_weather_cached"]
    assert {"tool error", "backoff wait", "fallback"} <= set(legend_texts(ax.get_legend()))


def test_growth_puts_the_cached_part_of_each_request_on_top():
    """A run that read from the prompt cache: each bar splits into what was read afresh and what came from the cache."""
    import conductor as cd

    llm = cd.connect("offline", api="chat", latency_scale=0)
    padding = "A long, unchanging instruction the cache keeps. " * 120  # past OpenAI's 1,024-token minimum

    @cd.tool
    def get_weather(city: str) -> str:
        """Weather of a city."""
        return "sunny"

    result = llm.run("What is the weather in Paris, then in Rome?", tools=[get_weather], system=padding,
                     parallel_tool_calls=False, max_rounds=3)
    fresh, cached = charts.plot_growth(result.trace).axes[0].containers
    reads = [c.usage.cache_read_tokens for c in result.trace.model_calls]
    assert reads[0] == 0 and all(r > 0 for r in reads[1:])
    assert heights(cached) == reads
    assert heights(fresh) == [c.usage.input_tokens - r for c, r in zip(result.trace.model_calls, reads)]
