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
itself to (scaled / naive <= :data:`SCALE_TARGET` on each API).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..display import LINE_WIDTH, clip

__all__ = ["Config", "ScaleRow", "CONFIGS", "SCALE_TARGET", "measure", "print_table", "ratio_line"]

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


CONFIGS = configs(6000)


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


def ratio_line(api: str, naive: ScaleRow, scaled: ScaleRow) -> str:
    """``scale cost [api]: Rx the naive loop ($naive -> $scaled), same answer: yes|no``."""
    ratio = scaled.cost / naive.cost if naive.cost else float("inf")
    line = (f"scale cost [{api}]: {ratio:.2f}x the naive loop (${naive.cost:.5f} -> ${scaled.cost:.5f}), "
            f"same answer: {'yes' if scaled.answer == naive.answer else 'no'}")
    return clip(line, LINE_WIDTH)


@dataclass(frozen=True)
class ApiScale:
    """``bench scale`` on one API: the naive run, the scaled one (prompt caching and tool search) and the
    scaled one with ``context_limit``."""

    api: str
    naive: ScaleRow
    scaled: ScaleRow
    limited: ScaleRow

    @property
    def ratio(self) -> float:
        return self.scaled.cost / self.naive.cost if self.naive.cost else float("inf")

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

        naive, _, _, scaled, limited = measure(connect, question, tools, CONFIGS, **options)
        measured.append(ApiScale(api, naive, scaled, limited))
    return measured


def print_bench(results: Sequence[ApiScale]) -> None:
    """One ratio line per API, then the tokens behind it."""
    tools, question, _ = task()
    print(f"{len(tools)} tools, task: {clip(question, LINE_WIDTH - 12)}")
    for result in results:
        print(ratio_line(result.api, result.naive, result.scaled))
    print()
    print(f"{'api':<10} {'run':<21} {'input tok':>9} {'cached':>7} {'written':>7} {'requests':>8} {'cost $':>9}")
    for result in results:
        for row in (result.naive, result.scaled, result.limited):
            print(f"{result.api:<10} {row.name:<21} {row.input_tokens:>9,} {row.cached_tokens:>7,} "
                  f"{row.written_tokens:>7,} {row.requests:>8} {row.cost:>9.5f}")
    met = all(r.ok for r in results)
    print(f"target: <= {SCALE_TARGET:.2f}x the naive loop with the same answer on every API: {'met' if met else 'NOT met'}")
