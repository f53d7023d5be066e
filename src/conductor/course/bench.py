"""Benchmarks: ratios measured in one run, printed as tables (``python -m conductor bench ...``).

Timings on shared machines drift, so each benchmark measures the things it
compares in the same process, interleaved, and reports their ratio.
"""

from __future__ import annotations

import asyncio
import gc
import heapq
import importlib
import json
import math
import random
import re
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
from . import programmatic as programs_bench
from . import scale as tools_at_scale
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
    """The same loop on Anthropic Messages: tool_use blocks answered by tool_result blocks in the next user turn.

    It asks for prompt caching as ``llm.run`` does by default (``cache_control``, lesson 06): the same
    request, so what the provider does with the cache is timed on both sides, not counted as the loop's.
    """
    schemas = [t.anthropic_schema() for t in tools]
    functions = {t.name: t.func for t in tools}
    messages: list[dict[str, Any]] = [{"role": "user", "content": question}]
    for _ in range(max_iterations):
        response = client.messages.create(model=model, max_tokens=1024, messages=messages, tools=schemas,
                                          cache_control={"type": "ephemeral"})
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
    """Tool-phase wall time of one turn with N calls, sequential vs parallel.

    Worker threads are made once and reused (:mod:`conductor.workers`): an untimed
    turn first starts them, so what is timed is every later turn, not a process's first.
    """
    slow_weather = with_delay(get_weather, latency)
    warm = connect("offline", offline_model=OfflineModel(latency=LatencyModel.instant(),
                                                         policies=[_fan_out([f"city-{i}" for i in range(max(counts))])]))
    warm.run("weather everywhere", tools=[with_delay(get_weather, 0.001)], parallel=True, max_workers=max_workers)
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
    ``conductor.course.offline_suite.ask`` and ``decline``; a ``ValueError`` says what is wrong.
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
            f"conductor.course.offline_suite.ask(tool, question, {{arguments}}) or decline(tool, question, missing)"
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
    print("declines saying what is missing in words: "
          + ", ".join(f"{s.api} {s.declines_naming_missing}/{declines}" for s in scores))
    failures = _failures(scores)
    if failures:
        print("\nfailing cases (wrong, missed, or a call with an unstated argument):")
        print("\n".join(failures))


# -- canned responses: the model's side of the batch and retry benchmarks, with no model in it --------

CANNED_MODEL = "gpt-4.1-mini"  # a model with a known price: the orchestrator prices requests as it would for real
CANNED_BASE_URL = "http://canned.invalid/v1"
CANNED_QUESTION = "北京今天天气怎么样? (#{index})"  # "Beijing's weather today?"; the number tells conversations apart
CANNED_ANSWER = "北京今天晴,5°C,出门穿厚外套。"  # "Sunny in Beijing, 5 °C: wear a warm coat."
_JSON = {"content-type": "application/json"}


def _completion(message: dict[str, Any], finish_reason: str, prompt_tokens: int, completion_tokens: int) -> bytes:
    return json.dumps({
        "id": "chatcmpl-canned", "object": "chat.completion", "created": 1_780_000_000, "model": CANNED_MODEL,
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
    }, ensure_ascii=False).encode()


# Round 1: the model asks for get_weather(city="北京"); round 2, once the request holds its result, it answers.
CANNED_TOOL_CALL = _completion({"role": "assistant", "content": None, "tool_calls": [{
    "id": "call_canned", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "北京"}'},
}]}, "tool_calls", 96, 16)
CANNED_REPLY = _completion({"role": "assistant", "content": CANNED_ANSWER}, "stop", 152, 18)
_CONVERSATION = re.compile(rb"\(#(\d+)\)")


class CannedModel:
    """Chat Completions answered with two pre-built bodies: an ``httpx2.MockTransport`` handler, no model behind it.

    A request that holds no tool result gets the tool call (round 1), one that does
    gets the answer (round 2): the same two bodies for every conversation, so what
    a benchmark on it measures is the client's side alone (the SDK, and the loop
    around it). With ``latencies``, conversation ``i`` (its question ends ``(#i)``,
    see :data:`CANNED_QUESTION`) waits ``latencies[i][0]`` seconds before its first
    answer and ``latencies[i][1]`` before its second (``asyncio.sleep``: async clients only).
    """

    def __init__(self, latencies: Sequence[tuple[float, float]] | None = None) -> None:
        self.latencies = latencies

    @staticmethod
    def _body(request: Any) -> tuple[bytes, int]:
        content = request.content
        second = b'"tool_call_id"' in content  # only a tool result carries one
        return (CANNED_REPLY if second else CANNED_TOOL_CALL), int(second)

    def __call__(self, request: Any) -> Any:
        import httpx2

        if self.latencies is not None:
            return self._after_latency(request)
        return httpx2.Response(200, content=self._body(request)[0], headers=_JSON)

    async def _after_latency(self, request: Any) -> Any:
        import httpx2

        body, round_index = self._body(request)
        found = _CONVERSATION.search(request.content)
        assert self.latencies is not None and found is not None, "the question must end (#index)"
        await asyncio.sleep(self.latencies[int(found.group(1))][round_index])
        return httpx2.Response(200, content=body, headers=_JSON)

    def client(self, asynchronous: bool = True) -> Any:
        """An official OpenAI client whose requests this handler answers."""
        import httpx2
        import openai

        transport = httpx2.MockTransport(self)
        if asynchronous:
            return openai.AsyncOpenAI(api_key="canned", base_url=CANNED_BASE_URL,
                                      http_client=httpx2.AsyncClient(transport=transport))
        return openai.OpenAI(api_key="canned", base_url=CANNED_BASE_URL, http_client=httpx2.Client(transport=transport))


def canned_questions(conversations: int) -> list[str]:
    return [CANNED_QUESTION.format(index=i) for i in range(conversations)]


async def hand_written_async_loop(
    client: Any, model: str, question: str, tools: Sequence[Any], max_iterations: int = 5, *, in_thread: bool = False
) -> str:
    """:func:`hand_written_loop` on an async client: the classic loop, each tool called in-line.

    ``in_thread``: each (sync) tool runs in ``asyncio.to_thread`` instead, as a loop must for a tool
    that may block (a network call in-line would stall every other conversation of the batch).
    """
    schemas = [t.openai_schema() for t in tools]
    functions = {t.name: t.func for t in tools}
    messages: list[dict[str, Any]] = [{"role": "user", "content": question}]
    for _ in range(max_iterations):
        response = await client.chat.completions.create(model=model, messages=messages, tools=schemas)
        message = response.choices[0].message
        messages.append(message.model_dump(exclude_none=True))
        if not message.tool_calls:
            return message.content or ""
        for call in message.tool_calls:
            function, arguments = functions[call.function.name], json.loads(call.function.arguments)
            output = await asyncio.to_thread(function, **arguments) if in_thread else function(**arguments)
            messages.append(
                {"role": "tool", "tool_call_id": call.id, "content": json.dumps(output, ensure_ascii=False)}
            )
    return ""


async def hand_written_batch(
    client: Any, questions: Sequence[str], tools: Sequence[Any], concurrency: int, *, in_thread: bool = False
) -> list[str]:
    """Every question through :func:`hand_written_async_loop`, at most ``concurrency`` at once."""
    gate = asyncio.Semaphore(concurrency)

    async def one(question: str) -> str:
        async with gate:
            return await hand_written_async_loop(client, CANNED_MODEL, question, tools, in_thread=in_thread)

    return await asyncio.gather(*(one(q) for q in questions))


# The benchmarks' tool: the course's get_weather (a dict lookup, no I/O) declared sync_to_thread=False, so
# the orchestrator runs it on the event loop as the hand-written loop does. The default (a worker thread per
# call, right for a tool that may block) is timed beside it against a loop that uses asyncio.to_thread.
IN_LINE_WEATHER = get_weather.in_line()


def batch_orchestrator(client: Any, weather: Any = IN_LINE_WEATHER, **options: Any) -> Any:
    """The orchestrator the batch benchmarks time: ``cd.Orchestrator`` with its defaults, on ``client``.

    Defaults: a per-user limit of 10 tool calls a minute, a 30 s deadline per
    conversation, metrics and alerts, results without the SDK's response objects
    (``keep_raw=False``); logging at INFO is off (the default WARNING level).
    The tool is :data:`IN_LINE_WEATHER`; ``weather`` and ``options`` (the
    Orchestrator's) change one of them, as :func:`ablate_batch` does.
    """
    from ..orchestrator import Orchestrator

    return Orchestrator(connect(client, model=CANNED_MODEL), tools=[weather], **options)


def _cpu_seconds(run: Callable[[], Any]) -> float:
    """Process CPU seconds (every thread's) of ``run()``, from a collected heap so each run starts alike."""
    gc.collect()
    started = time.process_time()
    run()
    return time.process_time() - started


def _alternate_cpu(
    client: Any, questions: Sequence[str], concurrency: int, repeats: int,
    orchestrators: dict[str, Callable[[], Any]], *, in_thread: bool = False, collect: bool = True,
) -> dict[str, float]:
    """Median CPU seconds of the in-line hand-written loop (``"hand"``), of the same loop with its tool in
    ``asyncio.to_thread`` (``"in_thread"``, when asked) and of each ``orchestrators[name]().run_many`` (under
    its name, with the garbage collector off unless ``collect``), run alternately ``repeats`` times."""
    samples: dict[str, list[float]] = {"hand": [], "in_thread": [], **{name: [] for name in orchestrators}}
    for _ in range(repeats):
        samples["hand"].append(_cpu_seconds(lambda: asyncio.run(
            hand_written_batch(client, questions, [get_weather], concurrency))))
        if in_thread:
            samples["in_thread"].append(_cpu_seconds(lambda: asyncio.run(
                hand_written_batch(client, questions, [get_weather], concurrency, in_thread=True))))
        for name, make in orchestrators.items():
            orch = make()
            if not collect:
                gc.disable()
            try:
                samples[name].append(_cpu_seconds(
                    lambda: asyncio.run(orch.run_many(questions, concurrency=concurrency, progress=False))))
            finally:
                gc.enable()
            _check_batch([r for r in orch.results if r is not None])
    return {name: statistics.median(values) for name, values in samples.items() if values}


def _check_batch(results: Sequence[Any], answers: Sequence[str] | None = None) -> None:
    """Both loops must have done the same work: two requests, one tool call, the canned answer."""
    wrong = [r for r in results if r.answer != CANNED_ANSWER or r.api_calls != 2 or len(r.tool_calls) != 1
             or r.tool_calls[0].is_error]
    if wrong or (answers is not None and any(a != CANNED_ANSWER for a in answers)):
        detail = wrong[0].answer if wrong else "the hand-written loop"
        raise RuntimeError(f"the batch did other work than the canned two rounds ({detail!r}); "
                           "the benchmark would compare different work")


# -- bench batch, CPU: the orchestrator's own cost, against a hand-written asyncio loop ----------------


@dataclass(frozen=True)
class BatchCpu:
    """CPU per conversation of the same batch through ``cd.Orchestrator`` and through a hand-written loop."""

    conversations: int
    concurrency: int
    repeats: int
    hand_ms: float
    orchestrator_ms: float  # the tool in-line (sync_to_thread=False), as the hand-written loop calls it
    hand_thread_ms: float | None = None  # the hand-written loop with its tool in asyncio.to_thread, when measured
    orchestrator_thread_ms: float | None = None  # the tool on a worker thread (a sync tool's default), when measured

    @property
    def ratio(self) -> float:
        return self.orchestrator_ms / self.hand_ms

    @property
    def thread_ratio(self) -> float | None:
        """The orchestrator with the tool on worker threads over a hand-written loop that uses to_thread."""
        if self.hand_thread_ms is None or self.orchestrator_thread_ms is None:
            return None
        return self.orchestrator_thread_ms / self.hand_thread_ms


BATCH_CPU_TARGET = 1.25  # the bar: the orchestrator's CPU per conversation over a hand-written loop
BATCH_WALL_TARGET = 1.10  # the bar: wall time over ideal with a lognormal model latency


def bench_batch_cpu(conversations: int = 1000, concurrency: int = 100, repeats: int = 5) -> BatchCpu:
    """``orch.run_many`` vs :func:`hand_written_batch` on the same canned responses; CPU per conversation.

    Two-round conversations (a get_weather call, then the answer) at ``concurrency``,
    both on one AsyncOpenAI client whose transport is a :class:`CannedModel`: no
    model, no latency, so what is timed is the client side, SDK included. Two pairs
    run alternately ``repeats`` times, and the medians of their ``time.process_time``
    (every thread's CPU) are compared: the tool in-line in both (the bar), and the
    tool off the event loop in both (the orchestrator's worker threads, the loop's
    ``asyncio.to_thread``).
    """
    client = CannedModel().client()
    questions = canned_questions(conversations)
    warm = questions[: min(conversations, 2 * concurrency)]  # imports, caches and prices before timing
    for weather in (IN_LINE_WEATHER, get_weather):
        _check_batch(asyncio.run(batch_orchestrator(client, weather).run_many(
            warm, concurrency=concurrency, progress=False)))
    _check_batch([], asyncio.run(hand_written_batch(client, warm, [get_weather], concurrency)))
    cpu = _alternate_cpu(client, questions, concurrency, repeats, {
        "orchestrator": lambda: batch_orchestrator(client),
        "orchestrator_thread": lambda: batch_orchestrator(client, get_weather),
    }, in_thread=True)
    per = 1000 / conversations
    return BatchCpu(conversations, concurrency, repeats, cpu["hand"] * per, cpu["orchestrator"] * per,
                    cpu["in_thread"] * per, cpu["orchestrator_thread"] * per)


@dataclass(frozen=True)
class AblationRow:
    """The batch cpu benchmark with one part of the orchestrator's work changed."""

    label: str
    ratio: float  # the orchestrator's CPU per conversation over the in-line hand-written loop's, same run


def ablate_batch(conversations: int = 1000, concurrency: int = 100, repeats: int = 5) -> list[AblationRow]:
    """``batch cpu`` with one part changed at a time: the tool on threads, the SDK objects kept, the garbage
    collector off, no deadline.

    Each variant alternates with the in-line hand-written loop ``repeats`` times on the
    same canned responses; the medians of their CPU are compared, as in :func:`bench_batch_cpu`.
    """
    variants: list[tuple[str, dict[str, Any], bool]] = [  # label, the Orchestrator's options, garbage collector on
        ("defaults (tool in-line, 30 s deadline, keep_raw=False)", {}, True),
        ("the tool on worker threads (a sync tool's default)", {"weather": get_weather}, True),
        ("the SDK's response objects kept (keep_raw=True)", {"keep_raw": True}, True),
        ("garbage collector off", {}, False),
        ("garbage collector off, no deadline", {"deadline": None}, False),
    ]
    client = CannedModel().client()
    questions = canned_questions(conversations)
    rows = []
    for label, options, collect in variants:
        def orchestrator(options: dict[str, Any] = options) -> Any:
            return batch_orchestrator(client, **options)

        asyncio.run(orchestrator().run_many(questions[:concurrency], concurrency=concurrency, progress=False))
        cpu = _alternate_cpu(client, questions, concurrency, repeats, {"orchestrator": orchestrator}, collect=collect)
        rows.append(AblationRow(label, cpu["orchestrator"] / cpu["hand"]))
    return rows


@dataclass(frozen=True)
class ResultMemory:
    """What the orchestrator keeps per finished conversation of a batch, with and without the SDK's objects."""

    conversations: int
    with_raw_kb: float  # keep_raw=True: each Turn keeps the SDK's response object
    without_raw_kb: float  # keep_raw=False, the Orchestrator's default


def bench_result_memory(conversations: int = 1000, concurrency: int = 100) -> ResultMemory:
    """KB per conversation still allocated after ``orch.run_many`` (its results, records, limiter windows),
    measured with ``tracemalloc``, with ``keep_raw`` on and off, on canned responses."""
    import tracemalloc

    client = CannedModel().client()
    questions = canned_questions(conversations)
    asyncio.run(batch_orchestrator(client).run_many(questions[:concurrency], concurrency=concurrency, progress=False))
    kept = []
    for keep_raw in (True, False):
        orch = batch_orchestrator(client, keep_raw=keep_raw)
        gc.collect()
        tracemalloc.start()
        try:
            asyncio.run(orch.run_many(questions, concurrency=concurrency, progress=False))
            gc.collect()
            kept.append(tracemalloc.get_traced_memory()[0] / 1024 / conversations)
        finally:
            tracemalloc.stop()
        _check_batch([r for r in orch.results if r is not None])
    return ResultMemory(conversations, kept[0], kept[1])


def print_ablation(rows: Sequence[AblationRow]) -> None:
    print("the same batch through cd.Orchestrator ...                  over the hand-written loop (in-line tool)")
    for row in rows:
        print(f"  {row.label:<56} {row.ratio:.2f}x")


def profile_batch(conversations: int = 1000, concurrency: int = 100, top: int = 15) -> str:
    """cProfile of one ``orch.run_many`` batch on canned responses: how much is the SDK's, and what else is heaviest.

    cProfile slows every Python call alike, so shares are rough (the SDK's many small
    calls are inflated most), and it sees only the event loop's thread: the worker
    threads that run sync tools, and the garbage collector, are not in it.
    """
    import cProfile
    import pstats

    client = CannedModel().client()
    questions = canned_questions(conversations)
    asyncio.run(batch_orchestrator(client).run_many(questions[:concurrency], concurrency=concurrency, progress=False))
    orch = batch_orchestrator(client)
    profiler = cProfile.Profile()
    profiler.enable()
    asyncio.run(orch.run_many(questions, concurrency=concurrency, progress=False))
    profiler.disable()
    entries = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    total = sum(own for _calls, _primitive, own, _cumulative, _callers in entries.values())
    # Every model request goes through the SDK's create (request building, the transport, parsing).
    sdk = sum(cumulative for (path, _line, name), (_c, _p, _own, cumulative, _callers) in entries.items()
              if name == "create" and "/openai/resources/" in path)
    lines = [
        f"cProfile of one orch.run_many batch ({conversations} conversations, concurrency {concurrency}, canned "
        f"responses), event loop thread only: {total:.2f} s",
        f"  in the SDK's create (request building, transport, parsing): {sdk / total:.0%}; "
        f"everything else (conductor's own code and what it calls, asyncio): {1 - sdk / total:.0%}",
        "conductor's heaviest functions outside the SDK's requests (cumulative s, calls):",
    ]
    outside = [
        (cumulative, calls, f"{path.split('/conductor/')[-1]}:{line} {name}")
        for (path, line, name), (calls, _p, _own, cumulative, _callers) in entries.items()
        if "/conductor/" in path and "/course/" not in path and cumulative < 0.5 * sdk
    ]
    for cumulative, calls, where in sorted(outside, reverse=True)[:top]:
        lines.append(f"  {cumulative:7.3f} s {calls:>7}  {where}")
    return "\n".join(lines)


# -- bench batch, wall: the orchestrator against the ideal at a real model's latency ------------------


@dataclass(frozen=True)
class BatchWall:
    """Wall time of a batch whose model requests take lognormal latencies, against the ideal for those latencies."""

    conversations: int
    concurrency: int
    median_latency: float
    sigma: float
    seed: int
    ideal_s: float  # the batch with the same latencies and no time anywhere else (see ideal_makespan)
    mean_load_s: float  # the sum of every latency spread evenly over the slots: a lower bound of the ideal
    wall_s: float
    hand_wall_s: float | None = None  # the hand-written loop on the same latencies, when measured

    @property
    def ratio(self) -> float:
        return self.wall_s / self.ideal_s

    @property
    def hand_ratio(self) -> float | None:
        return None if self.hand_wall_s is None else self.hand_wall_s / self.ideal_s


def lognormal_latencies(conversations: int, median: float, sigma: float, seed: int) -> list[tuple[float, float]]:
    """Two seeded lognormal latencies per conversation (one per request), median ``median`` seconds."""
    rng = random.Random(seed)
    mu = math.log(median)
    return [(rng.lognormvariate(mu, sigma), rng.lognormvariate(mu, sigma)) for _ in range(conversations)]


def ideal_makespan(durations: Sequence[float], slots: int) -> float:
    """How long ``durations`` take on ``slots`` lanes, each started in order on the first lane free.

    That is what ``run_many`` does (its semaphore lets conversations in, in input
    order, as slots free up), with no time spent anywhere but the model: the wall
    time of a batch with zero overhead, for exactly these latencies.
    """
    lanes = [0.0] * max(1, slots)
    end = 0.0
    for duration in durations:
        finish = heapq.heappop(lanes) + duration
        heapq.heappush(lanes, finish)
        end = max(end, finish)
    return end


def bench_batch_wall(
    conversations: int = 1000,
    concurrency: int = 100,
    median: float = 0.5,
    sigma: float = 0.5,
    seed: int = 0,
    hand_written: bool = False,
) -> BatchWall:
    """``orch.run_many`` with a lognormal model latency (median ``median`` s): wall time against the ideal.

    The canned transport waits each request's sampled latency (``asyncio.sleep``)
    and answers; the ideal is :func:`ideal_makespan` of each conversation's two
    latencies at ``concurrency``. ``hand_written=True`` also times the hand-written
    loop on the same latencies, for reference.
    """
    latencies = lognormal_latencies(conversations, median, sigma, seed)
    durations = [first + second for first, second in latencies]
    client = CannedModel(latencies).client()
    questions = canned_questions(conversations)
    warm = CannedModel().client()
    asyncio.run(batch_orchestrator(warm).run_many(questions[:concurrency], concurrency=concurrency, progress=False))
    orch = batch_orchestrator(client)
    gc.collect()
    started = time.perf_counter()
    results = asyncio.run(orch.run_many(questions, concurrency=concurrency, progress=False))
    wall = time.perf_counter() - started
    _check_batch(results)
    hand = None
    if hand_written:
        gc.collect()
        started = time.perf_counter()
        asyncio.run(hand_written_batch(client, questions, [get_weather], concurrency))
        hand = time.perf_counter() - started
    return BatchWall(conversations, concurrency, median, sigma, seed, ideal_makespan(durations, concurrency),
                     sum(durations) / concurrency, wall, hand)


def print_batch(cpu: BatchCpu, wall: BatchWall, profile: str | None = None,
                memory: ResultMemory | None = None) -> None:
    print(f"{cpu.conversations} two-round conversations (get_weather, then the answer) at concurrency "
          f"{cpu.concurrency}, canned Chat Completions responses on one AsyncOpenAI client")
    print(f"CPU per conversation, median of {cpu.repeats} runs each (time.process_time, every thread):")
    print(f"  hand-written asyncio loop (tool called in-line)            {cpu.hand_ms:6.3f} ms")
    print(f"  cd.Orchestrator(llm, tools=[get_weather.in_line()]).run_many {cpu.orchestrator_ms:6.3f} ms   "
          "(in-line too: sync_to_thread=False)")
    if cpu.hand_thread_ms is not None and cpu.orchestrator_thread_ms is not None:
        print(f"  hand-written asyncio loop (tool in to_thread)              {cpu.hand_thread_ms:6.3f} ms")
        print(f"  cd.Orchestrator(llm, tools=[get_weather]).run_many           {cpu.orchestrator_thread_ms:6.3f} ms   "
              "(worker threads: a sync tool's default)")
    verdict = "met" if cpu.ratio <= BATCH_CPU_TARGET else "NOT met"
    print(f"  batch cpu: {cpu.ratio:.2f}x (target <= {BATCH_CPU_TARGET:.2f}x: {verdict})")
    if cpu.thread_ratio is not None:
        print(f"  for reference, both with the tool off the event loop (worker threads / to_thread): "
              f"{cpu.thread_ratio:.2f}x")
    print()
    print(f"wall time, lognormal model latency (median {wall.median_latency:g} s, sigma {wall.sigma:g}, "
          f"seed {wall.seed}), {wall.conversations} conversations at concurrency {wall.concurrency}:")
    print(f"  ideal (the same latencies, {wall.concurrency} slots in input order, nothing else)  {wall.ideal_s:7.2f} s"
          f"   (all latency spread evenly: {wall.mean_load_s:.2f} s)")
    print(f"  cd.Orchestrator.run_many {wall.wall_s:59.2f} s")
    if wall.hand_wall_s is not None:
        print(f"  hand-written asyncio loop {wall.hand_wall_s:58.2f} s   ({wall.hand_ratio:.2f}x)")
    verdict = "met" if wall.ratio <= BATCH_WALL_TARGET else "NOT met"
    print(f"  batch wall: {wall.ratio:.2f}x (target <= {BATCH_WALL_TARGET:.2f}x: {verdict})")
    if memory is not None:
        print()
        print(f"memory the orchestrator keeps per finished conversation ({memory.conversations}, tracemalloc): "
              f"{memory.without_raw_kb:.1f} KB (keep_raw=False, the default), {memory.with_raw_kb:.1f} KB with the "
              f"SDK's response objects (keep_raw=True)")
    if profile is not None:
        print()
        print(profile)


# -- bench retry: what the retry/timeout machinery costs when nothing fails --------------------


@dataclass(frozen=True)
class RetryBench:
    """CPU per conversation of the same ``llm.run`` with plain tools, Retry tools and Retry + timeout tools."""

    conversations: int  # per variant
    plain_ms: float
    retry_ms: float
    timeout_ms: float
    plain_call_us: float  # one tool call through execute, back to back, plain
    retry_call_us: float
    timeout_call_us: float
    timeout: float = 2.0

    @property
    def retry_ratio(self) -> float:
        return self.retry_ms / self.plain_ms

    @property
    def timeout_ratio(self) -> float:
        return self.timeout_ms / self.plain_ms

    @property
    def ratio(self) -> float:
        """Retry + timeout over plain (the costlier of the two)."""
        return self.timeout_ratio

    @property
    def hand_over_us(self) -> float:
        """What the timeout adds to a call: handing it to a worker thread and back."""
        return self.timeout_call_us - self.retry_call_us


RETRY_TARGET = 1.05  # the bar: Retry tools over plain tools, nothing failing
RETRY_TIMEOUT_TARGET = 1.10  # the bar: Retry + timeout tools over plain tools, nothing failing


def _guarded(tool: Any, timeout: float | None) -> Any:
    """The same tool with a retry policy (and a timeout): what lesson 03 adds."""
    from ..retry import Retry
    from ..tools import Tool

    return Tool(tool.func, name=tool.name, description=tool.description, retry=Retry(seed=0), timeout=timeout)


def bench_retry(conversations: int = 1500, block: int = 25, timeout: float = 2.0) -> RetryBench:
    """``llm.run`` on canned two-round conversations with plain, Retry and Retry + ``timeout`` tools.

    Nothing fails, so the differences are the machinery alone: the policy and its
    attempt records, and for a sync tool with a timeout, the hand-over to a worker
    thread and back (tenacity only steps in after a failure). Short blocks of the
    three alternate (a shared machine's load drifts by more than the differences
    within seconds); the medians of their CPU per conversation are compared.
    """
    from ..execution import execute
    from ..tools import ToolRegistry
    from ..types import ToolCall

    llm = connect(CannedModel().client(asynchronous=False), model=CANNED_MODEL)
    variants = [[get_weather], [_guarded(get_weather, None)], [_guarded(get_weather, timeout)]]
    for tools in variants:
        result = llm.run(CANNED_QUESTION.format(index=0), tools=tools, max_rounds=2)
        if result.answer != CANNED_ANSWER or any(c.is_error or len(c.attempts) > 1 for c in result.tool_calls):
            raise RuntimeError("the guarded tools answered differently; the benchmark would compare different work")
    per_block: list[list[float]] = [[], [], []]
    question = CANNED_QUESTION.format(index=0)
    for _ in range(max(1, conversations // block)):
        for i, tools in enumerate(variants):
            started = time.process_time()
            for _ in range(block):
                llm.run(question, tools=tools, max_rounds=2)
            per_block[i].append((time.process_time() - started) / block)
    call = [ToolCall("c1", "get_weather", '{"city": "北京"}')]
    registries = [ToolRegistry(tools) for tools in variants]
    per_call: list[list[float]] = [[], [], []]
    for _ in range(20):
        for i, registry in enumerate(registries):
            started = time.process_time()
            for _ in range(50):
                execute(call, registry)
            per_call[i].append((time.process_time() - started) / 50)
    ms = [statistics.median(times) * 1000 for times in per_block]
    us = [statistics.median(times) * 1e6 for times in per_call]
    return RetryBench(len(per_block[0]) * block, *ms, *us, timeout=timeout)


def print_retry(result: RetryBench, simulation: str) -> None:
    """The overhead table, then the backoff simulation's figures."""
    print(f"llm.run, two-round conversations on canned responses (get_weather once), {result.conversations} "
          f"conversations each, nothing failing; CPU (time.process_time, every thread)")
    print(f"{'tools':<28} {'ms / conversation':>18} {'us / tool call':>15} {'ratio':>7}")
    print(f"{'plain':<28} {result.plain_ms:>18.3f} {result.plain_call_us:>15.1f}")
    print(f"{'Retry()':<28} {result.retry_ms:>18.3f} {result.retry_call_us:>15.1f} {result.retry_ratio:>6.2f}x")
    label = f"Retry() + timeout={result.timeout:g}"
    print(f"{label:<28} {result.timeout_ms:>18.3f} {result.timeout_call_us:>15.1f} {result.timeout_ratio:>6.2f}x")
    verdict = "met" if result.retry_ratio < RETRY_TARGET else "NOT met"
    print(f"retry alone: {result.retry_ratio:.2f}x (target < {RETRY_TARGET:.2f}x: {verdict})")
    verdict = "met" if result.timeout_ratio <= RETRY_TIMEOUT_TARGET else "NOT met"
    print(f"retry timeout: {result.timeout_ratio:.2f}x (target <= {RETRY_TIMEOUT_TARGET:.2f}x: {verdict})")
    print(f"ratio guarded / plain on the loop: {result.ratio:.3f}x (Retry + timeout)")
    print(f"the timeout's hand-over to a worker thread and back: {result.hand_over_us:.0f} us of CPU per call "
          "(a sync tool cannot be interrupted in the caller's thread, so a timed one runs on another)")
    print()
    print(simulation)


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


def bench_bars(scale: float = 1.0, *, latency: float = 0.5) -> list[SummaryRow]:
    """The batch and retry bars: ``batch cpu``, ``batch wall``, ``retry alone``, ``retry timeout``.

    ``scale`` shrinks every sample (a test runs them at 0.02); ``latency`` is the
    median model latency of ``batch wall``. The full run takes about a minute.
    """
    conversations = max(4, round(1000 * scale))
    concurrency = max(2, min(100, round(100 * scale)))
    cpu = bench_batch_cpu(conversations, concurrency, repeats=5 if scale >= 1 else 1)
    wall = bench_batch_wall(conversations, concurrency, median=latency)
    retry = bench_retry(max(6, round(1500 * scale)), block=25 if scale >= 1 else 2)
    size = f"{conversations} at concurrency {concurrency}"
    return [
        SummaryRow(f"batch cpu: cd.Orchestrator / hand-written asyncio loop, CPU ({size})",
                   cpu.ratio, f"{cpu.ratio:.2f}x", f"<= {BATCH_CPU_TARGET:.2f}x", cpu.ratio <= BATCH_CPU_TARGET),
        SummaryRow(f"batch wall: cd.Orchestrator / ideal, latency median {latency:g} s ({size})",
                   wall.ratio, f"{wall.ratio:.2f}x", f"<= {BATCH_WALL_TARGET:.2f}x", wall.ratio <= BATCH_WALL_TARGET),
        SummaryRow("retry alone: Retry tools / plain tools, llm.run CPU (nothing failing)", retry.retry_ratio,
                   f"{retry.retry_ratio:.2f}x", f"< {RETRY_TARGET:.2f}x", retry.retry_ratio < RETRY_TARGET),
        SummaryRow(f"retry timeout: Retry + timeout={retry.timeout:g} tools / plain tools, llm.run CPU",
                   retry.timeout_ratio, f"{retry.timeout_ratio:.2f}x", f"<= {RETRY_TIMEOUT_TARGET:.2f}x",
                   retry.timeout_ratio <= RETRY_TIMEOUT_TARGET),
    ]


def bench_summary(quick: bool = False) -> list[SummaryRow]:
    """Every benchmark once, reduced to the ratios (and bars) the course holds itself to.

    ``quick`` uses smaller samples (for a smoke test); the README's table comes from a full run.
    """
    scale = 4 if quick else 1
    loops = bench_loops(200 // scale)
    parallel = bench_parallel(counts=(8,), latency=0.1)[0]
    bars = bench_bars(1 / scale)
    scores = bench_offline()
    accuracy = min(s.accuracy for s in scores)
    unstated = sum(s.unstated_calls for s in scores)
    tracing = bench_tracing(200 // scale)
    at_scale = tools_at_scale.bench()
    programs = programs_bench.bench_programmatic(tasks=("large",))
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
        *bars,
        SummaryRow(f"tracing ({tracing.api}): llm.run with every span exported / tracing off", tracing.ratio,
                   f"{tracing.ratio:.2f}x", f"<= {TRACING_TARGET:.2f}x", tracing.ratio <= TRACING_TARGET),
        *(_scale_row(api, [r for r in at_scale if r.api == api]) for api in dict.fromkeys(r.api for r in at_scale)),
        *(_programs_row(c) for c in programs),
        SummaryRow("import conductor / import openai (SDKs load lazily)", conductor_s / openai_s,
                   f"{conductor_s / openai_s:.2f}x ({conductor_s:.2f} s)", "< 1x", conductor_s < openai_s),
        SummaryRow("offline model: exact first turns on the learner suite (worst API)", accuracy,
                   f"{accuracy:.2f}, {unstated} unstated", f">= {ACCURACY_BAR}, 0 unstated",
                   accuracy >= ACCURACY_BAR and unstated == 0),
    ]


def _scale_row(api: str, results: Sequence[tools_at_scale.ApiScale]) -> SummaryRow:
    """``bench scale``'s two targets on one API: the share of the possible saving at 62 tools, the cost
    ratio at 300 (the best strategy over the naive loop, the naive run's answer)."""
    mid, large = (next(r for r in results if r.size == size) for size in tools_at_scale.SIZES[1:])
    share, ratio = tools_at_scale.TARGETS[mid.size].least_share, tools_at_scale.TARGETS[large.size].most_ratio
    return SummaryRow(
        f"scale ({api}): best strategy's share of the saving at {mid.size} tools; $ / naive at {large.size}",
        mid.share, f"{mid.share:.0%}; {large.ratio:.2f}x", f">= {share:.0%}; <= {ratio:.2f}x", mid.ok and large.ok,
    )


def _programs_row(c: Any) -> SummaryRow:
    """``bench programmatic``'s goal on one API: the large task's input tokens as a program over the loop's."""
    target = programs_bench.LARGE_TARGET
    return SummaryRow(
        f"programmatic ({c.api}): large results, program / loop input tokens, same answer", c.token_ratio,
        f"{c.token_ratio:.2f}x", f"<= {target:.2f}x", programs_bench.misses(c) is None,
    )


def print_summary(rows: Sequence[SummaryRow]) -> None:
    width = max(len(r.measure) for r in rows)
    shown = max(len(r.shown) for r in rows)
    print(f"{'measure':<{width}}  {'measured':>{shown}}  {'target':<18} ok")
    for row in rows:
        print(f"{row.measure:<{width}}  {row.shown:>{shown}}  {row.target:<18} {'yes' if row.ok else 'NO'}")
    print("every figure measured in this run on this machine; details: python -m conductor bench loop|parallel|"
          "batch|retry|tracing|scale|programmatic|offline")


# -- bench tracing: the loop with OpenTelemetry spans on, against the same loop with them off -------------------

TRACING_TARGET = 1.10  # the bar: llm.run with every span exported (in memory) over llm.run without


@dataclass(frozen=True)
class TracingBench:
    conversations: int
    off_ms: float
    on_ms: float
    spans_per_run: int
    api: str = "chat"

    @property
    def ratio(self) -> float:
        return self.on_ms / self.off_ms


def bench_tracing(conversations: int = 200, rounds_per_block: int = 20, api: str = "chat") -> TracingBench:
    """Time per conversation of :func:`bench_loop`'s task (``llm.run``, a 2-round chain, zero-latency offline model)
    with ``cd.tracing`` on, every span exported to an in-memory exporter, against tracing off; blocks alternate.
    """
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    from .. import tracing

    llm = connect("offline", api=api, latency_scale=0)
    tools = [get_weather, suggest_clothing]
    exporter = InMemorySpanExporter()
    off: list[float] = []
    on: list[float] = []
    # Inside enabled_for, tracing is switched on and off at will; after it, the learner's tracing is back as it
    # was (on or off, capture_content, the exporter in use), which enable()/disable() alone would not restore.
    with tracing.enabled_for(exporter):
        llm.run(CHAIN_QUESTION, tools=tools, max_rounds=2)
        spans_per_run = len(exporter.get_finished_spans())
        if spans_per_run != 6:  # invoke_agent, 3 chat, 2 execute_tool: otherwise it measures other work
            raise RuntimeError(f"a traced run made {spans_per_run} spans, not 6; the benchmark would compare other "
                               "work")
        for _ in range(max(1, conversations // rounds_per_block)):
            tracing.disable()
            off += _time_per_call(lambda: llm.run(CHAIN_QUESTION, tools=tools, max_rounds=2), rounds_per_block)
            tracing.enable(exporter)
            on += _time_per_call(lambda: llm.run(CHAIN_QUESTION, tools=tools, max_rounds=2), rounds_per_block)
            exporter.clear()
            tracing.clear()
    return TracingBench(len(off), statistics.median(off) * 1000, statistics.median(on) * 1000, spans_per_run, llm.api)


def print_tracing(result: TracingBench) -> None:
    print(f"2-round weather -> clothing chain ({result.api}), zero-latency offline model, {result.conversations} "
          f"conversations each; {result.spans_per_run} spans a run, exported in memory")
    print(f"llm.run without tracing {result.off_ms:8.3f} ms")
    print(f"llm.run with tracing    {result.on_ms:8.3f} ms")
    verdict = "met" if result.ratio <= TRACING_TARGET else "NOT met"
    print(f"tracing: {result.ratio:.2f}x the loop without tracing (target <= {TRACING_TARGET:.2f}x: {verdict})")
