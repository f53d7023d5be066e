"""Benchmarks: ratios measured in one run, printed as tables (``python -m conductor bench ...``).

Timings on shared machines drift, so each benchmark measures the things it
compares in the same process, interleaved, and reports their ratio.
"""

from __future__ import annotations

import importlib
import json
import runpy
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..display import LINE_WIDTH, clip
from ..offline import CallTools, Conversation, LatencyModel, OfflineModel, PlannedCall, Reply
from .offline_suite import CASES, Case, Verdict, describe_call, describe_expected, judge
from ..providers import connect
from .scenarios import get_weather, suggest_clothing, with_delay

CHAIN_QUESTION = "北京今天天气怎么样?应该穿什么衣服?"


def hand_written_loop(client: Any, model: str, question: str, tools: Sequence[Any], max_iterations: int = 5) -> str:
    """The classic ``max_iterations`` loop, written directly on Chat Completions."""
    schemas = [t.openai_schema() for t in tools]
    functions = {t.name: t.func for t in tools}
    messages: list[dict[str, Any]] = [{"role": "user", "content": question}]
    for _ in range(max_iterations):
        response = client.chat.completions.create(model=model, messages=messages, tools=schemas)
        message = response.choices[0].message
        messages.append(message.model_dump(exclude_none=True))
        if not message.tool_calls:
            return message.content or ""
        for call in message.tool_calls:
            output = functions[call.function.name](**json.loads(call.function.arguments))
            messages.append(
                {"role": "tool", "tool_call_id": call.id, "content": json.dumps(output, ensure_ascii=False)}
            )
    return ""


def hand_written_responses_loop(
    client: Any, model: str, question: str, tools: Sequence[Any], max_iterations: int = 5
) -> str:
    """The same loop on the Responses API: output items go back as input, each call answered by call_id."""
    schemas = [t.responses_schema() for t in tools]
    functions = {t.name: t.func for t in tools}
    items: list[dict[str, Any]] = [{"role": "user", "content": question}]
    for _ in range(max_iterations):
        response = client.responses.create(model=model, input=items, tools=schemas, store=False)
        items += [item.model_dump(exclude_none=True) for item in response.output]
        calls = [item for item in response.output if item.type == "function_call"]
        if not calls:
            return response.output_text
        for call in calls:
            output = functions[call.name](**json.loads(call.arguments))
            items.append(
                {"type": "function_call_output", "call_id": call.call_id, "output": json.dumps(output, ensure_ascii=False)}
            )
    return ""


def hand_written_messages_loop(
    client: Any, model: str, question: str, tools: Sequence[Any], max_iterations: int = 5
) -> str:
    """The same loop on Anthropic Messages: tool_use blocks answered by tool_result blocks in the next user turn."""
    schemas = [t.anthropic_schema() for t in tools]
    functions = {t.name: t.func for t in tools}
    messages: list[dict[str, Any]] = [{"role": "user", "content": question}]
    for _ in range(max_iterations):
        response = client.messages.create(model=model, max_tokens=1024, messages=messages, tools=schemas)
        # Request blocks from request fields: a response block holds fields a request must not.
        blocks = [
            {"type": "text", "text": b.text} if b.type == "text" else {"type": "tool_use", "id": b.id, "name": b.name, "input": b.input}
            for b in response.content
            if b.type in ("text", "tool_use")
        ]
        messages.append({"role": "assistant", "content": blocks})
        calls = [b for b in response.content if b.type == "tool_use"]
        if not calls:
            return "".join(b.text for b in response.content if b.type == "text")
        results = [
            {"type": "tool_result", "tool_use_id": c.id, "content": json.dumps(functions[c.name](**c.input), ensure_ascii=False)}
            for c in calls
        ]
        messages.append({"role": "user", "content": results})
    return ""


HAND_WRITTEN_LOOPS: dict[str, Callable[..., str]] = {
    "responses": hand_written_responses_loop,
    "chat": hand_written_loop,
    "messages": hand_written_messages_loop,
}


def _time_per_call(func: Callable[[], Any], repeats: int) -> list[float]:
    samples = []
    for _ in range(repeats):
        started = time.perf_counter()
        func()
        samples.append(time.perf_counter() - started)
    return samples


@dataclass(frozen=True)
class LoopBench:
    conversations: int
    hand_ms: float
    library_ms: float
    api: str = "chat"

    @property
    def ratio(self) -> float:
        return self.library_ms / self.hand_ms


LOOP_TARGET = 1.15


def bench_loop(conversations: int = 200, rounds_per_block: int = 20, api: str = "chat") -> LoopBench:
    """Time per conversation of ``llm.run`` vs the hand-written loop on ``api``, same zero-latency offline model.

    Blocks of each alternate so that drift on a shared machine hits both alike;
    the medians of the per-conversation times are compared.
    """
    llm = connect("offline", api=api, latency_scale=0)
    loop = HAND_WRITTEN_LOOPS[llm.api]
    tools = [get_weather, suggest_clothing]
    expected = loop(llm.client, llm.model, CHAIN_QUESTION, tools)
    library_answer = llm.run(CHAIN_QUESTION, tools=tools, max_rounds=2)
    if library_answer.answer != expected or len(library_answer.rounds) != 2:
        raise RuntimeError(f"the two loops disagree on {api}; the benchmark would compare different work")
    hand: list[float] = []
    library: list[float] = []
    for _ in range(max(1, conversations // rounds_per_block)):
        hand += _time_per_call(lambda: loop(llm.client, llm.model, CHAIN_QUESTION, tools), rounds_per_block)
        library += _time_per_call(lambda: llm.run(CHAIN_QUESTION, tools=tools, max_rounds=2), rounds_per_block)
    return LoopBench(len(hand), statistics.median(hand) * 1000, statistics.median(library) * 1000, llm.api)


def bench_loops(conversations: int = 200) -> list[LoopBench]:
    """:func:`bench_loop` on each of the three wire APIs."""
    return [bench_loop(conversations, api=api) for api in OFFLINE_APIS]


def _fan_out(names: Sequence[str]) -> Callable[[Conversation], Any]:
    """A policy that asks for every city at once, then answers."""

    def policy(conversation: Conversation):
        if conversation.exchanges():
            return Reply(f"checked {len(conversation.exchanges())} cities")
        return CallTools(tuple(PlannedCall("get_weather", {"city": name}) for name in names))

    return policy


@dataclass(frozen=True)
class ParallelRow:
    tools: int
    latency: float
    sequential_s: float
    parallel_s: float

    @property
    def speedup(self) -> float:
        return self.sequential_s / self.parallel_s

    @property
    def parallel_vs_ideal(self) -> float:
        return self.parallel_s / self.latency


def bench_parallel(counts: Sequence[int] = (1, 2, 4, 8, 16), latency: float = 0.1, max_workers: int = 8) -> list[ParallelRow]:
    """Tool-phase wall time of one turn with N calls, sequential vs parallel."""
    slow_weather = with_delay(get_weather, latency)
    rows = []
    for count in counts:
        cities = [f"city-{i}" for i in range(count)]
        model = OfflineModel(latency=LatencyModel.instant(), policies=[_fan_out(cities)])
        llm = connect("offline", offline_model=model)
        times = {}
        for parallel in (False, True):
            result = llm.run("weather everywhere", tools=[slow_weather], parallel=parallel, max_workers=max_workers)
            times[parallel] = result.rounds[0].tool_seconds
        rows.append(ParallelRow(count, latency, times[False], times[True]))
    return rows


def print_loop(results: Sequence[LoopBench]) -> None:
    print(f"2-round weather -> clothing chain, zero-latency offline model, {results[0].conversations} conversations each")
    print(f"{'api':<10} {'hand-written ms':>16} {'llm.run ms':>11} {'ratio':>7}  target <= {LOOP_TARGET:.2f}x")
    for r in results:
        verdict = "met" if r.ratio <= LOOP_TARGET else "NOT met"
        print(f"{r.api:<10} {r.hand_ms:>16.3f} {r.library_ms:>11.3f} {r.ratio:>6.2f}x  {verdict}")


def print_parallel(rows: Sequence[ParallelRow], max_workers: int) -> None:
    print(f"one turn of N tool calls, each sleeping {rows[0].latency:.3f} s; parallel cap {max_workers} threads")
    print(f"{'N':>3} {'sequential s':>13} {'parallel s':>11} {'speedup':>8} {'parallel / ideal':>17}")
    for row in rows:
        print(
            f"{row.tools:>3} {row.sequential_s:>13.3f} {row.parallel_s:>11.3f} "
            f"{row.speedup:>7.2f}x {row.parallel_vs_ideal:>16.2f}x"
        )



OFFLINE_APIS = ("responses", "chat", "messages")
ACCURACY_BAR = 0.8  # the bar: at least 4 in 5 plain questions answered exactly
INDENT = "   "  # under each failing question


@dataclass(frozen=True)
class OfflineScore:
    """The offline model's first turns on the learner-style suite, through one API."""

    api: str
    verdicts: tuple[Verdict, ...]

    def count(self, outcome: str) -> int:
        return sum(1 for v in self.verdicts if v.outcome == outcome)

    @property
    def accuracy(self) -> float:
        """Share of cases answered right: the exact calls, or no call where a parameter was missing."""
        return sum(1 for v in self.verdicts if v.ok) / len(self.verdicts)

    @property
    def unstated_calls(self) -> int:
        return sum(v.unstated_calls for v in self.verdicts)

    @property
    def declines_naming_missing(self) -> int:
        return sum(1 for v in self.verdicts if v.reply_names_missing)


def first_turn(llm: Any, case: Case) -> Verdict:
    """Ask ``case.question`` offering its one tool and judge the model's first turn."""
    result = llm.run(case.question, tools=[case.tool], max_rounds=1)
    # A first turn without tool calls leaves no round: the answer is that turn's text.
    calls = [(call.name, call.arguments) for call in result.rounds[0].tool_calls] if result.rounds else []
    return judge(case, calls, "" if calls else result.answer)


def load_cases(source: str) -> tuple[Case, ...]:
    """The ``CASES`` defined by a Python file (``my_cases.py``) or an importable module (``pkg.cases``).

    Such a file holds tools and questions of your own, built like the suite's with
    ``conductor.offline_suite.ask`` and ``decline``; a ``ValueError`` says what is wrong.
    """
    try:
        if source.endswith(".py"):
            namespace = runpy.run_path(source)
        else:
            namespace = vars(importlib.import_module(source))
    except (OSError, ImportError) as exc:
        raise ValueError(f"cannot load cases from {source!r}: {exc}") from exc
    cases = tuple(namespace.get("CASES", ()))
    if not cases or not all(isinstance(case, Case) for case in cases):
        raise ValueError(
            f"{source!r} must define CASES, a non-empty sequence of cases made with "
            f"conductor.offline_suite.ask(tool, question, {{arguments}}) or decline(tool, question, missing)"
        )
    return cases


def bench_offline(apis: Sequence[str] = OFFLINE_APIS, cases: Sequence[Case] = CASES) -> list[OfflineScore]:
    """Run every case's first turn on the offline model through each API (seed 0, no latency)."""
    scores = []
    for api in apis:
        model = OfflineModel(seed=0, latency=LatencyModel.instant())
        llm = connect("offline", api=api, offline_model=model)
        scores.append(OfflineScore(api, tuple(first_turn(llm, case) for case in cases)))
    return scores


def _failures(scores: Sequence[OfflineScore]) -> list[str]:
    """One block per failing case; a case that fails alike on every API is listed once."""
    lines = []
    for i, case in enumerate(v.case for v in scores[0].verdicts):
        failing = [(s.api, s.verdicts[i]) for s in scores if not s.verdicts[i].ok or s.verdicts[i].unstated_calls]
        if not failing:
            continue
        lines.append(clip(f"Q: {case.question}"))
        lines.append(INDENT + clip(f"expected {describe_expected(case)}", LINE_WIDTH - len(INDENT)))
        shown: dict[str, list[str]] = {}
        for api, verdict in failing:
            got = "; ".join(describe_call(n, a) for n, a in verdict.calls) or f"no call: {verdict.reply}"
            unstated = [value for values in verdict.unstated for value in values]
            if unstated:
                got += f"  [unstated: {', '.join(unstated)}]"
            shown.setdefault(f"{verdict.outcome}: {got}", []).append(api)
        for got, apis in shown.items():
            lines.append(INDENT + clip(f"{'/'.join(apis)} {got}", LINE_WIDTH - len(INDENT)))
    return lines


def print_offline(scores: Sequence[OfflineScore]) -> None:
    """A table per API (correct / wrong / missed / declined / unstated calls / accuracy), then the failures."""
    verdicts = scores[0].verdicts
    tools = len({v.case.tool.name for v in verdicts})
    declines = sum(1 for v in verdicts if v.case.declines)
    print(f"offline model, first turn only: {len(verdicts)} plain questions on {tools} learner-style tools, "
          f"{declines} to decline")
    print(f"{'api':<10} {'correct':>8} {'wrong':>6} {'missed':>7} {'declined ok':>12} "
          f"{'unstated-arg calls':>19} {'accuracy':>9}")
    for s in scores:
        print(f"{s.api:<10} {s.count('correct'):>8} {s.count('wrong'):>6} {s.count('missed'):>7} "
              f"{s.count('declined'):>12} {s.unstated_calls:>19} {s.accuracy:>9.2f}")
    print(f"bar: accuracy >= {ACCURACY_BAR:.2f} and 0 unstated-arg calls on every API: "
          + ", ".join(f"{s.api} {'met' if s.accuracy >= ACCURACY_BAR and not s.unstated_calls else 'NOT met'}"
                      for s in scores))
    print("declines naming the tool and the missing parameter: "
          + ", ".join(f"{s.api} {s.declines_naming_missing}/{declines}" for s in scores))
    failures = _failures(scores)
    if failures:
        print("\nfailing cases (wrong, missed, or a call with an unstated argument):")
        print("\n".join(failures))


# -- bench retry: what the retry/timeout machinery costs when nothing fails --------------------


@dataclass(frozen=True)
class RetryBench:
    """Per-conversation times of the same loop with plain tools and with Retry + timeout tools."""

    conversations: int
    plain_ms: float
    guarded_ms: float
    tool_calls: int  # per conversation
    plain_call_us: float  # one tool call through execute, plain
    guarded_call_us: float  # the same call with Retry + timeout

    @property
    def ratio(self) -> float:
        return self.guarded_ms / self.plain_ms

    @property
    def per_call_share(self) -> float:
        """The machinery's cost per conversation from the back-to-back per-call times, as a share of a plain one.

        Back to back, the timeout's worker thread is awake when the next call comes;
        inside the loop it has slept for a conversation's worth of model work, and on
        a busy machine waking it costs a scheduler slice. The two figures bound the cost.
        """
        return (self.guarded_call_us - self.plain_call_us) * self.tool_calls / (self.plain_ms * 1000)


def _guarded(tool: Any, timeout: float) -> Any:
    """The same tool with a retry policy and a timeout: what lesson 03 adds."""
    from ..retry import Retry
    from ..tools import Tool

    return Tool(tool.func, name=tool.name, description=tool.description, retry=Retry(seed=0), timeout=timeout)


def bench_retry(conversations: int = 400, rounds_per_block: int = 2, timeout: float = 2.0) -> RetryBench:
    """``llm.run`` on the 2-round chain with plain tools vs the same tools under Retry + ``timeout``.

    Nothing fails, so the difference is the machinery alone: the policy's records
    and, for a sync tool with a timeout, the hand-over to a worker thread and back
    (tenacity only steps in after a failure). Short blocks
    of each alternate (the difference is a few percent, and a shared machine's load
    drifts by more than that within seconds); medians are compared.
    """
    from ..execution import execute
    from ..tools import ToolRegistry
    from ..types import ToolCall

    llm = connect("offline", latency_scale=0)
    plain = [get_weather, suggest_clothing]
    guarded = [_guarded(t, timeout) for t in plain]
    expected = llm.run(CHAIN_QUESTION, tools=plain, max_rounds=2)
    checked = llm.run(CHAIN_QUESTION, tools=guarded, max_rounds=2)
    if checked.answer != expected.answer or any(c.is_error or len(c.attempts) != 1 for c in checked.tool_calls):
        raise RuntimeError("the guarded tools answered differently; the benchmark would compare different work")
    plain_s: list[float] = []
    guarded_s: list[float] = []
    blocks = max(1, conversations // rounds_per_block)
    for _ in range(blocks):
        plain_s += _time_per_call(lambda: llm.run(CHAIN_QUESTION, tools=plain, max_rounds=2), rounds_per_block)
        guarded_s += _time_per_call(lambda: llm.run(CHAIN_QUESTION, tools=guarded, max_rounds=2), rounds_per_block)
    call = [ToolCall("c1", "get_weather", '{"city": "北京"}')]
    registries = ToolRegistry(plain), ToolRegistry(guarded)
    per_call = [[], []]  # type: list[list[float]]
    for _ in range(blocks):
        for i, registry in enumerate(registries):
            per_call[i] += _time_per_call(lambda: execute(call, registry), 50)
    return RetryBench(
        conversations=len(plain_s),
        plain_ms=statistics.median(plain_s) * 1000,
        guarded_ms=statistics.median(guarded_s) * 1000,
        tool_calls=len(expected.tool_calls),
        plain_call_us=statistics.median(per_call[0]) * 1e6,
        guarded_call_us=statistics.median(per_call[1]) * 1e6,
    )


RETRY_TARGET = 1.05  # the bar for the machinery's cost when nothing fails


def print_retry(result: RetryBench, simulation: str) -> None:
    """The overhead table, then the backoff simulation's figures."""
    print(f"2-round weather -> clothing chain ({result.tool_calls} tool calls), zero-latency offline model, "
          f"{result.conversations} conversations each, nothing failing")
    print(f"{'tools':<26} {'ms / conversation':>18} {'us / tool call':>15}")
    print(f"{'plain':<26} {result.plain_ms:>18.3f} {result.plain_call_us:>15.1f}")
    print(f"{'Retry() + timeout=2.0':<26} {result.guarded_ms:>18.3f} {result.guarded_call_us:>15.1f}")
    verdict = "met" if result.ratio < RETRY_TARGET else "NOT met"
    print(f"ratio guarded / plain on the loop: {result.ratio:.3f}x (target < {RETRY_TARGET:.2f}x: {verdict})")
    print(f"back-to-back per-call cost x {result.tool_calls} calls / plain conversation: "
          f"+{result.per_call_share:.1%} (a worker thread kept awake)")
    print()
    print(simulation)


# -- bench batch: many conversations through cd.Orchestrator ------------------------------------------

BATCH_QUESTIONS = (
    "北京今天天气怎么样?应该穿什么衣服?",  # "Beijing's weather today? What should I wear?"
    "What is (12 + 30) * 2?",
    "Is it warmer in Guangzhou or Harbin today?",
    "What does lesson 1 of the tool orchestration course cover?",
    "What's the weather on Mars today?",
    "Shanghai weather today, and what should I wear?",
)
BATCH_TARGET = 1.3  # the bar: wall time at most 1.3x the ideal at concurrency 100


@dataclass(frozen=True)
class BatchRow:
    """One batch of conversations at one concurrency, every model request taking ``latency`` seconds."""

    concurrency: int
    conversations: int
    requests: int
    latency: float
    wall_s: float
    failed: int
    bare_s: float  # the same batch through bare llm.arun calls under a semaphore, no orchestrator

    @property
    def ideal_s(self) -> float:
        """Total model latency spread perfectly over ``concurrency`` lanes."""
        return self.requests * self.latency / self.concurrency

    @property
    def ratio(self) -> float:
        return self.wall_s / self.ideal_s

    @property
    def overhead_ms(self) -> float:
        """Time per request beyond the model's latency (at concurrency 1: the loop's own cost per round)."""
        return (self.wall_s * self.concurrency / self.requests - self.latency) * 1000

    @property
    def layer(self) -> float:
        """The orchestrator's wall time over bare ``llm.arun`` calls: what its limits, logs and metrics add."""
        return self.wall_s / self.bare_s


async def _bare_batch(llm: Any, questions: Sequence[str], tools: Sequence[Any], concurrency: int) -> None:
    import asyncio

    gate = asyncio.Semaphore(concurrency)

    async def one(question: str) -> None:
        async with gate:
            await llm.arun(question, tools=tools)

    await asyncio.gather(*(one(q) for q in questions))


def bench_batch(
    conversations: int = 1000, concurrencies: Sequence[int] = (1, 10, 100), latency: float = 0.05
) -> list[BatchRow]:
    """``orch.run_many`` of mixed questions on the async offline model, each request exactly ``latency`` s."""
    import asyncio

    from ..metrics import Thresholds
    from ..orchestrator import Orchestrator
    from .scenarios import ALL_TOOLS

    questions = [BATCH_QUESTIONS[i % len(BATCH_QUESTIONS)] for i in range(conversations)]
    rows = []
    for concurrency in concurrencies:
        model = OfflineModel(latency=LatencyModel(ttft=latency, per_token=0.0, jitter=0.0))
        llm = connect("offline", offline_model=model, asynchronous=True)
        started = time.perf_counter()
        asyncio.run(_bare_batch(llm, questions, ALL_TOOLS, concurrency))
        bare = time.perf_counter() - started
        # The thresholds' alerts (Mars is an unknown city) are expected here: not logged.
        orch = Orchestrator(llm, tools=ALL_TOOLS, rate_limit=None, deadline=None, thresholds=Thresholds(
            avg_rounds=None, tool_failure_rate=None, p95_latency=None))
        started = time.perf_counter()
        results = asyncio.run(orch.run_many(questions, concurrency=concurrency, progress=False))
        wall = time.perf_counter() - started
        failed = sum(r.stopped_by == "error" for r in results)
        requests = sum(r.api_calls for r in results)
        rows.append(BatchRow(concurrency, conversations, requests, latency, wall, failed, bare))
    return rows


_CANNED_COMPLETION = (
    b'{"id":"chatcmpl-floor","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,'
    b'"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}],'
    b'"usage":{"prompt_tokens":10,"completion_tokens":1,"total_tokens":11}}'
)


def sdk_floor_ms(requests: int = 1000, concurrency: int = 100) -> float:
    """CPU milliseconds per request of the official async SDK alone: a canned response, no model, no loop.

    One process cannot send requests faster than this, whatever the loop does: it
    bounds the best wall / ideal a batch can reach at a given latency and concurrency.
    """
    import asyncio

    import httpx2
    import openai

    async def answer(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, content=_CANNED_COMPLETION, headers={"content-type": "application/json"})

    async def run() -> float:
        http = httpx2.AsyncClient(transport=httpx2.MockTransport(answer))
        client = openai.AsyncOpenAI(api_key="floor", base_url="http://floor.invalid/v1", http_client=http, max_retries=0)
        messages = [{"role": "user", "content": CHAIN_QUESTION}]
        gate = asyncio.Semaphore(concurrency)

        async def one() -> None:
            async with gate:
                await client.chat.completions.create(model="m", messages=messages)

        await one()  # the first request pays for imports and connection set-up
        started = time.perf_counter()
        await asyncio.gather(*(one() for _ in range(requests)))
        return (time.perf_counter() - started) / requests * 1000

    return asyncio.run(run())


def print_batch(rows: Sequence[BatchRow], floor_ms: float | None = None) -> None:
    first = rows[0]
    print(f"{first.conversations} mixed conversations through cd.Orchestrator.run_many, async offline model, "
          f"{first.latency * 1000:g} ms per model request")
    print(f"{'concurrency':>11} {'requests':>9} {'wall s':>8} {'ideal s':>8} {'wall / ideal':>13} "
          f"{'overhead ms / request':>22} {'bare arun s':>12} {'orch / bare':>12} {'failed':>7}")
    for row in rows:
        print(f"{row.concurrency:>11} {row.requests:>9} {row.wall_s:>8.2f} {row.ideal_s:>8.2f} {row.ratio:>12.2f}x "
              f"{row.overhead_ms:>22.2f} {row.bare_s:>12.2f} {row.layer:>11.2f}x {row.failed:>7}")
    top = max(rows, key=lambda r: r.concurrency)
    verdict = "met" if top.ratio <= BATCH_TARGET else "NOT met"
    print(f"target: wall / ideal <= {BATCH_TARGET} at concurrency {top.concurrency}: {verdict} ({top.ratio:.2f}x)")
    print("overhead per request = wall x concurrency / requests - model latency: the CPU each round costs "
          "(SDK request building and parsing, the offline model, the loop), which concurrency cannot overlap")
    if floor_ms is not None:
        best = max(1.0, floor_ms / 1000 * top.concurrency / top.latency)
        print(f"the official SDK alone costs {floor_ms:.2f} ms of CPU per request (canned response, no model): "
              f"one process cannot do better than {best:.2f}x at concurrency {top.concurrency}")


# -- bench (no argument): every figure in one table, measured in one run --------------------------


@dataclass(frozen=True)
class SummaryRow:
    """One figure of the summary table and the bar it is held to."""

    measure: str
    value: float
    shown: str  # the value as printed, e.g. "1.05x" or "0.98"
    target: str
    ok: bool


def _import_seconds(statement: str, repeats: int = 3) -> float:
    """Median wall seconds of a fresh interpreter running ``statement``, minus an empty interpreter's."""
    import subprocess
    import sys

    def run(code: str) -> float:
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        return time.perf_counter() - started

    times = [run(statement) - run("pass") for _ in range(repeats)]
    return max(0.0, statistics.median(times))


def bench_summary(quick: bool = False) -> list[SummaryRow]:
    """Every benchmark once, reduced to the ratios (and bars) the course holds itself to.

    ``quick`` uses smaller samples (for a smoke test); the README's table comes from a full run.
    """
    scale = 4 if quick else 1
    loops = bench_loops(200 // scale)
    parallel = bench_parallel(counts=(8,), latency=0.1)[0]
    batch = bench_batch(1000 // scale, concurrencies=(100,), latency=0.05)[0]
    retry = bench_retry(400 // scale)
    # The best any single-process loop could do at this latency and concurrency (see sdk_floor_ms).
    floor = max(1.0, sdk_floor_ms() / 1000 * 100 / batch.latency)
    scores = bench_offline()
    accuracy = min(s.accuracy for s in scores)
    unstated = sum(s.unstated_calls for s in scores)
    conductor_s = _import_seconds("import conductor")
    openai_s = _import_seconds("import openai")
    return [
        *(
            SummaryRow(f"loop ({loop.api}): llm.run / hand-written SDK loop", loop.ratio, f"{loop.ratio:.2f}x",
                       f"<= {LOOP_TARGET:.2f}x", loop.ratio <= LOOP_TARGET)
            for loop in loops
        ),
        SummaryRow("parallel: 8 tool calls of 0.1 s / ideal 0.1 s", parallel.parallel_vs_ideal,
                   f"{parallel.parallel_vs_ideal:.2f}x", "<= 1.10x", parallel.parallel_vs_ideal <= 1.10),
        SummaryRow(f"batch: {batch.conversations} conversations at concurrency 100 / ideal", batch.ratio,
                   f"{batch.ratio:.2f}x (SDK alone: {floor:.2f}x)", f"<= {BATCH_TARGET}x", batch.ratio <= BATCH_TARGET),
        SummaryRow("retry: Retry + timeout tools / plain tools (nothing failing)", retry.ratio,
                   f"{retry.ratio:.3f}x", f"< {RETRY_TARGET}x", retry.ratio < RETRY_TARGET),
        SummaryRow("import conductor / import openai (SDKs load lazily)", conductor_s / openai_s,
                   f"{conductor_s / openai_s:.2f}x ({conductor_s:.2f} s)", "< 1x", conductor_s < openai_s),
        SummaryRow("offline model: exact first turns on the learner suite (worst API)", accuracy,
                   f"{accuracy:.2f}, {unstated} unstated", f">= {ACCURACY_BAR}, 0 unstated",
                   accuracy >= ACCURACY_BAR and unstated == 0),
    ]


def print_summary(rows: Sequence[SummaryRow]) -> None:
    width = max(len(r.measure) for r in rows)
    shown = max(len(r.shown) for r in rows)
    print(f"{'measure':<{width}}  {'measured':>{shown}}  {'target':<18} ok")
    for row in rows:
        print(f"{row.measure:<{width}}  {row.shown:>{shown}}  {row.target:<18} {'yes' if row.ok else 'NO'}")
    print("every figure measured in this run on this machine; details: python -m conductor bench loop|parallel|"
          "batch|retry|offline")
