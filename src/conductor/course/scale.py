"""Lesson 06 and ``python -m conductor bench scale``: one task, measured with and without each tool-at-scale technique.

Every configuration answers the same question over the same tools, each on a fresh offline model (a cold
prompt cache), so the rows differ only by what the request asks for:

* ``naive``: every tool sent on every request, ``cache=False``;
* ``cached``: the same with ``cache=True`` (Anthropic's automatic caching; OpenAI's ``prompt_cache_key``:
  OpenAI caches long prompts anyway, so on its APIs the naive loop reads from the cache too);
* ``tool search``: tools loaded on demand (``tool_search=True``), ``cache=False``;
* ``both``: cache and tool search;
* ``both + context_limit``: both, with the oldest tool results cleared past ``context_limit`` tokens.

A row holds the run's input tokens, the part read from the cache, dollars, requests, seconds, and whether the
answer is the naive run's. :func:`print_table` prints them; :func:`bench` prints the ratio the course holds
itself to (scaled / naive <= :data:`SCALE_TARGET` on each API), and two runs that say where a ratio comes
from: conductor's own client search with the cache, and the floor, a loop sent only the one tool the task
needs (what no search can beat: a search adds its own tool, its call and what it loads).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..display import LINE_WIDTH, clip
from ..tools import tool

__all__ = [
    "Config", "ScaleRow", "ApiScale", "CLIENT", "CONFIGS", "FLOOR", "FLOOR_TOOL", "SCALE_TARGET", "TASK", "RUN",
    "LONG_TASK", "configs", "measure", "cost_ratio", "print_table", "ratio_line", "task", "bench", "print_bench",
    "get_hourly_readings", "without_search", "resend",
]

SCALE_TARGET = 0.30  # the scaled loop costs at most this share of the naive one, on every API


@dataclass(frozen=True)
class Config:
    """One way of running the task: the connection's ``cache`` and ``llm.run``'s options."""

    name: str
    cache: bool | str = False
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ScaleRow:
    """What one configuration's run measured."""

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


def configs(context_limit: int) -> tuple[Config, ...]:
    """The five configurations of the lesson's table."""
    return (
        Config("naive"),
        Config("cached", cache=True),
        Config("tool search", options={"tool_search": True}),
        Config("both", cache=True, options={"tool_search": True}),
        Config("both + context_limit", cache=True, options={"tool_search": True, "context_limit": context_limit}),
    )


CONFIGS = configs(3000)

CLIENT = Config("client search", cache=True, options={"tool_search": "client"})
FLOOR = Config("floor: the one tool", cache=True)
FLOOR_TOOL = "get_weather"  # the one tool TASK needs

TASK = "How hot is it in Sydney, Lisbon, Tokyo and Paris right now?"
"""Lesson 06's task: one city a round over the 62-tool catalogue, four rounds and an answer."""
RUN: dict[str, Any] = {"parallel_tool_calls": False, "max_rounds": 6}
"""How the task runs: one call per turn (so four rounds), room for a search round."""
LONG_TASK = "Get the hourly readings for Sydney, then Lisbon, then Tokyo, then Paris."
"""Section 6's task: four long tool results."""


def task() -> tuple[list[Any], str, dict[str, Any]]:
    """The catalogue, the question and the run options ``bench scale`` measures."""
    from .toolbox import TOOLS

    return list(TOOLS), TASK, dict(RUN)


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


def resend(llm: Any, body: dict[str, Any]) -> Any:
    """Send a request body as it is with ``llm``'s SDK client (no retries): the SDK's response, or its error."""
    client = llm.client.with_options(max_retries=0)
    return client.responses.create(**body) if llm.api == "responses" else client.messages.create(**body)


def measure(
    connect: Callable[[Config], Any],
    question: str,
    tools: Sequence[Any],
    configurations: Iterable[Config] = CONFIGS,
    **run_options: Any,
) -> list[ScaleRow]:
    """Run ``question`` once per configuration, on the connection ``connect(config)`` makes for it."""
    rows: list[ScaleRow] = []
    for config in configurations:
        llm = connect(config)
        result = llm.run(question, tools=list(tools), **run_options, **dict(config.options))
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
        ))
    return rows


def print_table(rows: Sequence[ScaleRow]) -> None:
    """The measured table: tokens, dollars, requests, latency and whether the answer held, one row per config."""
    print(f"{'configuration':<21} {'input tok':>9} {'cached':>7} {'written':>7} {'$/conversation':>14} "
          f"{'requests':>8} {'latency':>8}  same answer")
    naive = rows[0]
    for row in rows:
        same = "(reference)" if row is naive else ("yes" if row.same else "no")
        print(f"{row.name:<21} {row.input_tokens:>9,} {row.cached_tokens:>7,} {row.written_tokens:>7,} "
              f"{'$' + format(row.cost, '.5f'):>14} {row.requests:>8} {row.seconds:>7.2f}s  {same}")


def cost_ratio(row: ScaleRow, naive: ScaleRow) -> float:
    """What ``row`` cost as a share of the naive run."""
    return row.cost / naive.cost if naive.cost else float("inf")


def ratio_line(api: str, naive: ScaleRow, scaled: ScaleRow) -> str:
    """``scale cost [api]: Rx the naive loop ($naive -> $scaled), same answer: yes|no``."""
    line = (f"scale cost [{api}]: {cost_ratio(scaled, naive):.2f}x the naive loop (${naive.cost:.5f} -> ${scaled.cost:.5f}), "
            f"same answer: {'yes' if scaled.answer == naive.answer else 'no'}")
    return clip(line, LINE_WIDTH)


@dataclass(frozen=True)
class ApiScale:
    """``bench scale`` on one API: the naive run, the scaled one (prompt caching and tool search), the
    scaled one with ``context_limit``, conductor's client search with the cache, and the floor."""

    api: str
    naive: ScaleRow
    scaled: ScaleRow
    limited: ScaleRow
    client: ScaleRow
    floor: ScaleRow

    @property
    def rows(self) -> tuple[ScaleRow, ...]:
        return (self.naive, self.scaled, self.limited, self.client, self.floor)

    @property
    def ratio(self) -> float:
        return cost_ratio(self.scaled, self.naive)

    @property
    def ok(self) -> bool:
        return self.ratio <= SCALE_TARGET and self.scaled.same


def bench(apis: Sequence[str] = ("responses", "chat", "messages"), seed: int = 0) -> list[ApiScale]:
    """The lesson's task over its catalogue on each API, on zero-latency offline models (cost needs no clock)."""
    import conductor as cd

    tools, question, options = task()
    measured = []
    for api in apis:
        def connect(config: Config, api: str = api) -> Any:
            return cd.connect("offline", api=api, seed=seed, latency_scale=0, cache=config.cache)

        naive, _, _, scaled, limited, client = measure(connect, question, tools, (*CONFIGS, CLIENT), **options)
        needed = [t for t in tools if t.name == FLOOR_TOOL]
        (floor,) = measure(connect, question, needed, (FLOOR,), **options)
        floor = replace(floor, same=floor.answer == naive.answer)
        measured.append(ApiScale(api, naive, scaled, limited, client, floor))
    return measured


def print_bench(results: Sequence[ApiScale]) -> None:
    """One ratio line per API, then the tokens behind it."""
    tools, question, _ = task()
    print(f"{len(tools)} tools, task: {clip(question, LINE_WIDTH - 12)}")
    for result in results:
        print(ratio_line(result.api, result.naive, result.scaled))
    print()
    print(f"{'api':<10} {'run':<21} {'input tok':>9} {'cached':>7} {'written':>7} {'requests':>8} {'cost $':>9} "
          f"{'ratio':>6}")
    for result in results:
        for row in result.rows:
            print(f"{result.api:<10} {row.name:<21} {row.input_tokens:>9,} {row.cached_tokens:>7,} "
                  f"{row.written_tokens:>7,} {row.requests:>8} {row.cost:>9.5f} {cost_ratio(row, result.naive):>5.2f}x")
    met = all(r.ok for r in results)
    print(f"target: <= {SCALE_TARGET:.2f}x the naive loop with the same answer on every API: {'met' if met else 'NOT met'}")
