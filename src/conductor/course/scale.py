"""Lesson 06 and ``python -m conductor bench scale``: one task, measured naive and with each tool-at-scale strategy.

Every run answers the same question over the same catalogue, each on a fresh offline model (a cold prompt cache),
so the rows differ only by what the requests carry. The strategies (:data:`STRATEGIES`):

* ``naive``: what a user pays with the SDK's defaults: every tool on every request, no ``cache_control`` on
  Messages, no ``prompt_cache_key`` on OpenAI's APIs (whose automatic caching of 1,024+ token prompts still
  applies: it cannot be turned off);
* ``caching``: the same tools with ``cache=True`` (Anthropic's automatic caching; OpenAI's routing key);
* ``hosted search``: the provider's tool search, every tool deferred (Responses, Messages), with the cache;
* ``client search``: conductor's own ``search_tools`` (every API), with the cache;
* ``namespaces``: the hosted search over tools grouped by server in Responses namespaces (the model reads a
  line per server, not per tool), with the cache;
* ``allowed tools``: every tool sent, the calls restricted to the one the task needs (``allowed_tools=``);
* ``floor``: only the one tool the task needs, with the cache: what no search beats (a search adds its own
  tool, its call and what it loads).

``allowed tools`` and the floor are told which tool the task needs; the others are not, so the best strategy
(:attr:`ApiScale.best`) is the cheapest of those with the naive run's answer. ``bench scale`` runs them over
catalogues of 10, 62 and 300 tools (:func:`catalogue`) and prints, per API and size, the cost of the best
strategy as a share R of the naive loop's, the floor's share F, and S = (1 - R) / (1 - F), the share of the
saving the floor shows possible that the best strategy gets. Its targets: S >= 75% at 62 tools, R <= 0.30 at
300 tools (:data:`TARGETS`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..display import LINE_WIDTH, clip
from ..tools import Namespace, tool

__all__ = [
    "Config", "ScaleRow", "ApiScale", "Target", "NAIVE", "STRATEGIES", "FLOOR_TOOL", "SIZES", "TARGETS", "TASK",
    "RUN", "LONG_TASK", "catalogue", "namespaced", "strategies_for", "measure", "cost_ratio", "print_table",
    "scale_line", "task", "bench", "print_bench", "missed", "print_by_size", "plot_by_size", "get_hourly_readings",
    "without_search", "without_search_tool", "resend",
]


@dataclass(frozen=True)
class Config:
    """One way of running the task: the connection's ``cache``, ``llm.run``'s options, which tools it gets
    (``"all"``, ``"namespaces"``: all, grouped by server; ``"floor"``: only :data:`FLOOR_TOOL`), the APIs that
    offer it, and whether it is told which tool the task needs."""

    name: str
    cache: bool | str = False
    options: Mapping[str, Any] = field(default_factory=dict)
    tools: str = "all"
    apis: tuple[str, ...] = ("responses", "chat", "messages")
    knows_tool: bool = False


@dataclass(frozen=True)
class ScaleRow:
    """What one configuration's run measured: tokens, dollars (input and output apart), requests, the answer."""

    name: str
    input_tokens: int
    cached_tokens: int
    written_tokens: int
    cost: float
    requests: int
    seconds: float
    answer: str
    same: bool  # the same answer as the first (naive) row
    tools_called: tuple[str, ...] = ()
    output_tokens: int = 0
    output_cost: float = 0.0  # the part of ``cost`` the output tokens make

    @property
    def input_cost(self) -> float:
        """The part of ``cost`` the prompt makes (uncached, cached and cache writes)."""
        return self.cost - self.output_cost


FLOOR_TOOL = "get_weather"  # the one tool TASK needs

NAIVE = Config("naive")
STRATEGIES: tuple[Config, ...] = (
    NAIVE,
    Config("caching", cache=True),
    Config("hosted search", cache=True, options={"tool_search": True}, apis=("responses", "messages")),
    Config("client search", cache=True, options={"tool_search": "client"}),
    Config("namespaces", cache=True, options={"tool_search": True}, tools="namespaces", apis=("responses",)),
    Config("allowed tools", cache=True, options={"allowed_tools": [FLOOR_TOOL]}, knows_tool=True),
    Config("floor", cache=True, tools="floor", knows_tool=True),
)
"""Every strategy, the naive loop first and the floor last."""

TASK = "How hot is it in Sydney, Lisbon, Tokyo and Paris right now?"
"""Lesson 06's task: one city a round, four rounds and an answer, over whichever catalogue."""
RUN: dict[str, Any] = {"parallel_tool_calls": False, "max_rounds": 6}
"""How the task runs: one call per turn (so four rounds), room for a search round."""
LONG_TASK = "Get the hourly readings for Sydney, then Lisbon, then Tokyo, then Paris."
"""Section 6's task: four long tool results."""


@dataclass(frozen=True)
class Target:
    """What ``bench scale`` holds a catalogue size to: a share of the possible saving, or a cost ratio."""

    size: int
    least_share: float | None = None  # S >= this
    most_ratio: float | None = None  # R <= this

    def met(self, ratio: float, share: float) -> bool:
        return ((self.least_share is None or share >= self.least_share)
                and (self.most_ratio is None or ratio <= self.most_ratio))

    def __str__(self) -> str:
        if self.least_share is not None:
            return f">= {self.least_share:.0%} of the possible saving"
        return f"<= {self.most_ratio:.2f}x the naive loop" if self.most_ratio is not None else "none"


def _sizes() -> tuple[int, int, int]:
    from . import toolbox, workplace

    weather = len(toolbox.DOMAINS["weather"])
    return weather, len(toolbox.TOOLS), len(toolbox.TOOLS) + len(workplace.SERVICES) * workplace.TOOLS_PER_SERVICE


SIZES: tuple[int, int, int] = _sizes()
"""The catalogue sizes ``bench scale`` measures: the weather server (10), lesson 06's catalogue (62), and that
catalogue with a workplace's 34 other servers (300)."""
TARGETS: dict[int, Target] = {SIZES[1]: Target(SIZES[1], least_share=0.75), SIZES[2]: Target(SIZES[2], most_ratio=0.30)}


def catalogue(size: int) -> list[Any]:
    """The catalogue of ``size`` tools (one of :data:`SIZES`), server by server."""
    from . import toolbox, workplace

    if size == SIZES[0]:
        return list(toolbox.DOMAINS["weather"])
    if size == SIZES[1]:
        return list(toolbox.TOOLS)
    if size == SIZES[2]:
        return [*toolbox.TOOLS, *workplace.all_tools()]
    raise ValueError(f"no catalogue of {size} tools; the sizes are {', '.join(map(str, SIZES))}")


def _servers() -> dict[str, Namespace]:
    from . import toolbox, workplace

    found = {t.name: Namespace(domain, toolbox._INSTRUCTIONS[domain])
             for domain, tools in toolbox.DOMAINS.items() for t in tools}
    for service in workplace.SERVICES:
        space = Namespace(service.server, workplace.instructions(service))
        found.update((t.name, space) for t in workplace.service_tools(service.server))
    return found


def namespaced(tools: Iterable[Any]) -> list[Any]:
    """``tools`` each in its server's namespace (as ``server.tools(namespace=True)`` gives an MCP server's)."""
    servers = _servers()
    return [t.with_options(namespace=servers[t.name]) if t.name in servers else t for t in tools]


def task() -> tuple[list[Any], str, dict[str, Any]]:
    """Lesson 06's catalogue, the question and the run options."""
    return catalogue(SIZES[1]), TASK, dict(RUN)


def strategies_for(api: str) -> tuple[Config, ...]:
    """The strategies ``api`` offers, the naive loop first and the floor last."""
    return tuple(c for c in STRATEGIES if api in c.apis)


@tool
def get_hourly_readings(city: str) -> dict:
    """Today's hourly weather station readings in a city: temperature, wind and humidity for each hour.

    Args:
        city: the city, e.g. "Lisbon"
    """
    from .toolbox import CITIES

    data = next((v for k, v in CITIES.items() if k.casefold() == city.strip().casefold()), None)
    if data is None:
        raise ValueError(f"no station in {city!r}; the cities are: {', '.join(CITIES)}")
    shape = (-3, -3, -4, -4, -4, -3, -2, -1, 0, 1, 2, 3, 3, 4, 4, 3, 2, 1, 0, -1, -1, -2, -2, -3)
    return {"city": city, "readings": [
        {"hour": f"{hour:02d}:00", "temp_c": data["temp"] + shape[hour], "wind_kmh": data["wind_kmh"] + hour % 5,
         "humidity_percent": data["humidity"] - shape[hour]} for hour in range(24)]}


def without_search(api: str, body: dict[str, Any]) -> dict[str, Any]:
    """``body`` trimmed the way a hand-made history trimmer might: every tool search item or block dropped,
    the calls and results kept."""
    search = ("tool_search_call", "tool_search_output", "server_tool_use", "tool_search_tool_result")
    if api == "responses":
        return {**body, "input": [i for i in body["input"] if i.get("type") not in search]}
    messages = [{**m, "content": [b for b in m["content"] if b.get("type") not in search]}
                if m["role"] == "assistant" and isinstance(m["content"], list) else m for m in body["messages"]]
    return {**body, "messages": messages}


def without_search_tool(api: str, body: dict[str, Any]) -> dict[str, Any]:
    """``body`` with the hosted search tool left out of ``tools`` (a hand-built tool list that kept only the
    functions) and, so the history stays consistent, its search items too; the deferred tools stay deferred."""
    from ..search import is_hosted_search

    return {**without_search(api, body), "tools": [t for t in body["tools"] if not is_hosted_search(api, t)]}


def resend(llm: Any, body: dict[str, Any]) -> Any:
    """Send a request body as it is with ``llm``'s SDK client (no retries): the SDK's response, or its error."""
    client = llm.client.with_options(max_retries=0)
    return client.responses.create(**body) if llm.api == "responses" else client.messages.create(**body)


def _tools_for(config: Config, tools: Sequence[Any]) -> list[Any]:
    if config.tools == "floor":
        return [t for t in tools if t.name == FLOOR_TOOL]
    return namespaced(tools) if config.tools == "namespaces" else list(tools)


def _output_cost(llm: Any, result: Any) -> float:
    return sum(llm.cost_split(c.usage).output for c in result.trace.model_calls)


def measure(
    connect: Callable[[Config], Any],
    question: str,
    tools: Sequence[Any],
    configurations: Iterable[Config] = STRATEGIES,
    **run_options: Any,
) -> list[ScaleRow]:
    """Run ``question`` once per configuration, on the connection ``connect(config)`` makes for it; a
    configuration the connection's API does not offer is left out."""
    rows: list[ScaleRow] = []
    for config in configurations:
        llm = connect(config)
        if llm.api not in config.apis:
            continue
        result = llm.run(question, tools=_tools_for(config, tools), **run_options, **dict(config.options))
        usage = result.usage
        rows.append(ScaleRow(
            name=config.name,
            input_tokens=usage.input_tokens,
            cached_tokens=usage.cache_read_tokens,
            written_tokens=usage.cache_write_tokens,
            cost=result.cost,
            requests=result.api_calls,
            seconds=result.seconds,
            answer=result.answer,
            same=not rows or result.answer == rows[0].answer,
            tools_called=tuple(c.name for c in result.tool_calls),
            output_tokens=usage.output_tokens,
            output_cost=_output_cost(llm, result),
        ))
    return rows


def cost_ratio(row: ScaleRow, naive: ScaleRow) -> float:
    """What ``row`` cost as a share of the naive run."""
    return row.cost / naive.cost if naive.cost else float("inf")


def print_table(rows: Sequence[ScaleRow]) -> None:
    """The measured table: tokens, dollars (input and output apart), requests and whether the answer held."""
    print(f"{'strategy':<14} {'input tok':>9} {'cached':>7} {'written':>7} {'output':>6} {'$ input':>8} "
          f"{'$ output':>8} {'requests':>8} {'ratio':>6}  same")
    naive = rows[0]
    for row in rows:
        same = "-" if row is naive else ("yes" if row.same else "no")
        print(f"{row.name:<14} {row.input_tokens:>9,} {row.cached_tokens:>7,} {row.written_tokens:>7,} "
              f"{row.output_tokens:>6,} {row.input_cost:>8.5f} {row.output_cost:>8.5f} {row.requests:>8} "
              f"{cost_ratio(row, naive):>5.2f}x  {same}")


@dataclass(frozen=True)
class ApiScale:
    """``bench scale`` on one API and catalogue size: a row per strategy the API offers."""

    api: str
    size: int
    rows: tuple[ScaleRow, ...]

    def row(self, name: str) -> ScaleRow:
        return next(r for r in self.rows if r.name == name)

    @property
    def naive(self) -> ScaleRow:
        return self.rows[0]

    @property
    def floor(self) -> ScaleRow:
        return self.row("floor")

    @property
    def best(self) -> ScaleRow:
        """The cheapest strategy not told which tool the task needs, among those with the naive run's answer
        (the naive loop itself when none saves)."""
        blind = {c.name for c in STRATEGIES if not c.knows_tool}
        return min((r for r in self.rows if r.name in blind and r.same), key=lambda r: r.cost)

    @property
    def ratio(self) -> float:
        """R: the best strategy's cost over the naive loop's."""
        return cost_ratio(self.best, self.naive)

    @property
    def floor_ratio(self) -> float:
        """F: the floor's cost over the naive loop's."""
        return cost_ratio(self.floor, self.naive)

    @property
    def share(self) -> float:
        """S = (1 - R) / (1 - F): the share of the saving the floor shows possible that the best strategy gets."""
        return (1 - self.ratio) / (1 - self.floor_ratio) if self.floor_ratio < 1 else 0.0

    @property
    def target(self) -> Target | None:
        return TARGETS.get(self.size)

    @property
    def ok(self) -> bool:
        """The target of this size met (a size with none always is), with the naive run's answer."""
        return self.best.same and (self.target is None or self.target.met(self.ratio, self.share))


def scale_line(result: ApiScale) -> str:
    """``scale cost [api] N tools: Rx the naive loop (best), floor Fx, S% of the possible saving, same answer``."""
    return (f"scale cost [{result.api}] {result.size} tools: {result.ratio:.2f}x the naive loop ({result.best.name}), "
            f"floor {result.floor_ratio:.2f}x, {result.share:.0%} of the possible saving, "
            f"same answer: {'yes' if result.best.same and result.floor.same else 'no'}")


def missed(result: ApiScale) -> str | None:
    """Why ``result`` misses its target, in one line from the measured rows, or None when it meets it."""
    if result.ok:
        return None
    best, floor = result.best, result.floor
    extra_in, extra_out = best.input_cost - floor.input_cost, best.output_cost - floor.output_cost
    return (f"  missed [{result.api}] {result.size} tools: target {result.target}; {best.name} costs "
            f"${best.cost - floor.cost:.5f} more than the floor: ${extra_in:.5f} input "
            f"({best.input_tokens - floor.input_tokens:+,} tokens, {best.cached_tokens:,} cached), "
            f"${extra_out:.5f} output ({best.output_tokens - floor.output_tokens:+,} tokens), "
            f"{best.requests - floor.requests:+} requests")


def bench(apis: Sequence[str] = ("responses", "chat", "messages"), sizes: Sequence[int] = SIZES,
          seed: int = 0) -> list[ApiScale]:
    """The task over each catalogue size on each API, every strategy the API offers, on zero-latency offline
    models (cost needs no clock)."""
    import conductor as cd

    measured = []
    for size in sizes:
        tools = catalogue(size)
        for api in apis:
            def connect(config: Config, api: str = api) -> Any:
                return cd.connect("offline", api=api, seed=seed, latency_scale=0, cache=config.cache)

            rows = measure(connect, TASK, tools, strategies_for(api), **RUN)
            measured.append(ApiScale(api, size, tuple(rows)))
    return measured


def print_bench(results: Sequence[ApiScale]) -> bool:
    """A line per API and size (and a line saying why, under one that misses its target), then the rows behind
    them; True when every target is met."""
    print(f"task: {clip(TASK, LINE_WIDTH - 6)}")
    for result in results:
        print(scale_line(result))
        reason = missed(result)
        if reason is not None:
            print(reason)
    print()
    print(f"{'api':<9} {'tools':>5} {'strategy':<14} {'input tok':>9} {'cached':>7} {'written':>7} {'output':>6} "
          f"{'$ input':>8} {'$ output':>8} {'ratio':>6}")
    for result in results:
        for row in result.rows:
            print(f"{result.api:<9} {result.size:>5} {row.name:<14} {row.input_tokens:>9,} {row.cached_tokens:>7,} "
                  f"{row.written_tokens:>7,} {row.output_tokens:>6,} {row.input_cost:>8.5f} {row.output_cost:>8.5f} "
                  f"{cost_ratio(row, result.naive):>5.2f}x")
    met = all(r.ok for r in results)
    goals = "; ".join(f"{size} tools {target}" for size, target in TARGETS.items())
    print(f"targets ({goals}), the naive run's answer, on every API: {'met' if met else 'NOT met'}")
    return met


def print_by_size(results: Sequence[ApiScale]) -> None:
    """Each strategy's cost over the naive loop's, per API, at each catalogue size (under 1.00x it pays)."""
    sizes = sorted({r.size for r in results})
    print(f"{'api':<9} {'strategy':<14} " + " ".join(f"{f'{size} tools':>9}" for size in sizes))
    for api in dict.fromkeys(r.api for r in results):
        by_size = {r.size: r for r in results if r.api == api}
        for config in strategies_for(api)[1:]:
            ratios = [cost_ratio(by_size[size].row(config.name), by_size[size].naive) for size in sizes]
            print(f"{api:<9} {config.name:<14} " + " ".join(f"{ratio:>8.2f}x" for ratio in ratios))


def plot_by_size(results: Sequence[ApiScale], *, figsize: tuple[float, float] = (11, 3.6)) -> Any:
    """Dollars per conversation against catalogue size, a line per strategy, a panel per API (log scales; the
    naive loop dark and thick, the floor dashed). A plain matplotlib ``Figure`` (see :mod:`conductor.charts`)."""
    from matplotlib.figure import Figure

    apis = list(dict.fromkeys(r.api for r in results))
    sizes = sorted({r.size for r in results})
    fig = Figure(figsize=figsize, layout="constrained")
    axes = fig.subplots(1, len(apis), sharey=True, squeeze=False)[0]
    colors = dict(zip([c.name for c in STRATEGIES], ("#222222", "#4C72B0", "#DD8452", "#55A868", "#C44E52",
                                                       "#8172B3", "#7F7F7F")))
    for ax, api in zip(axes, apis):
        by_size = {r.size: r for r in results if r.api == api}
        for config in strategies_for(api):
            costs = [by_size[size].row(config.name).cost for size in sizes]
            naive = config is NAIVE  # drawn thick and on top
            ax.plot(sizes, costs, marker="o", label=config.name, color=colors[config.name], zorder=3 if naive else 2,
                    linewidth=2.6 if naive else 1.4, linestyle="--" if config.name == "floor" else "-")
        ax.set(xscale="log", yscale="log", title=api, xlabel="tools in the catalogue")
        ax.set_xticks(sizes, [str(size) for size in sizes])
        ax.minorticks_off()
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("$ per conversation")
    handles, labels = axes[0].get_legend_handles_labels()
    for ax in axes[1:]:  # the strategies only some APIs offer
        for handle, label in zip(*ax.get_legend_handles_labels()):
            if label not in labels:
                handles.append(handle)
                labels.append(label)
    fig.legend(handles, labels, loc="outside right center", fontsize=8)
    return fig
