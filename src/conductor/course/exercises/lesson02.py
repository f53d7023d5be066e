"""Lesson 02's exercises: the max_workers cap, an async tool with results in call order, an exclusive tool.

In the notebook::

    from conductor.course.exercises import ____, lesson02 as ex
    ex.q1.check()

Tools here sleep a tenth of a second or so: enough for calls to overlap
measurably on a busy machine, short enough that each check takes about a second.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import conductor as cd
from conductor import scenarios as sc
from conductor.offline import CallTools, PlannedCall
from conductor.trace import ToolCallRecord

from .core import Exercise, Wrong, WrongAnswer, as_tool, learner_call, offline_llm, run_coroutine

__all__ = ["SETUP", "EXERCISES", "q1", "q2", "q3"]

SETUP = "from conductor.course.exercises import ____, lesson02 as ex"
"""The notebook cell that comes before the exercises."""

TOOL_SECONDS = 0.1  # how long each of a check's slow tools sleeps: long enough to overlap under load


def _peak(calls: Any) -> int:
    """The check's own count of calls running at once (an end at the same moment as a start comes first)."""
    events = sorted([(c.started, 1) for c in calls] + [(c.ended, -1) for c in calls])
    running = peak = 0
    for _, change in events:
        running += change
        peak = max(peak, running)
    return peak


# -- exercise 1: the cap ---------------------------------------------------------------------------

SIZES = (2, 4, 8)
CAP = 2


def peak_concurrency(calls) -> int:
    """The largest number of calls running at the same moment.

    A call that ends exactly when another starts does not overlap it.
    """
    events = sorted([(call.started, 1) for call in calls] + [(call.ended, -1) for call in calls])
    running = peak = 0
    for _, change in events:  # at equal times, an end (-1) sorts before a start (+1)
        running += change
        peak = max(peak, running)
    return peak


def run_capped(llm, question, tools):
    """Run the question with one turn's calls in parallel threads, at most 2 at a time."""
    return llm.run(question, tools=tools, parallel=True, max_workers=2)


def _record(started: float, ended: float) -> ToolCallRecord:
    return ToolCallRecord(id="t", name="t", arguments={}, output="", is_error=False, started=started, ended=ended)


_EQUAL_TIMES = " At equal times, count the end before the start."
_EACH_MOMENT = (
    " Count the calls running at each moment (sort every start and end, keep a running count), not the "
    "calls that overlap one call: two calls can each overlap a third without overlapping each other."
)

# (spans, the peak, what the records are, a tip for a wrong count)
PEAK_CASES: tuple[tuple[tuple[tuple[float, float], ...], int, str, str], ...] = (
    ((), 0, "no calls", ""),
    (((0, 1),), 1, "one call", ""),
    (((0, 1), (2, 3)), 1, "two calls, one after the other", ""),
    (((0, 1), (1, 2)), 1, "a call that starts exactly when another ends (they do not overlap)", _EQUAL_TIMES),
    (((0, 2), (1, 3), (1.5, 1.6)), 3, "three calls, all running at 1.5", ""),
    (((0, 1), (2, 3), (0.5, 2.5)), 2, "two overlaps, never three at once", _EACH_MOMENT),
    (((0, 1), (2, 4), (3, 5)), 2, "three calls where only the second and third overlap", _EACH_MOMENT),
    (((0, 10), (1, 2), (3, 4)), 2, "a long call and two short ones inside it, one after the other", _EACH_MOMENT),
)


def _sums_question(n: int) -> str:
    return "What is " + ", ".join(f"{i}+{i}" for i in range(1, n + 1)) + "?"


def _judge_cap(peak_concurrency: Any, run_capped: Any) -> str:
    for spans, expected, what, tip in PEAK_CASES:
        calls = [_record(start, end) for start, end in spans]
        got = learner_call(f"peak_concurrency({what})", peak_concurrency, calls)
        if got != expected:
            raise Wrong(f"peak_concurrency gives {got!r} for {what}; it should be {expected}.{tip}")
    slow_calculate = sc.with_delay(sc.calculate, TOOL_SECONDS)
    for n in SIZES:
        doing = f"run_capped(llm, <{n} sums>, tools)"
        result = learner_call(doing, run_capped, offline_llm(), _sums_question(n), [slow_calculate])
        if not isinstance(result, cd.RunResult):
            raise Wrong(f"{doing} returned {type(result).__name__}; return the RunResult llm.run gives.")
        if len(result.rounds) != 1 or len(result.tool_calls) != n:
            raise Wrong(f"{doing}: expected {n} calls in one turn, got {len(result.tool_calls)}.")
        measured = _peak(result.tool_calls)
        if measured == 1:
            raise Wrong(f"with {n} calls, they ran one after another: pass parallel=True to llm.run.")
        if measured > CAP:
            raise Wrong(f"with {n} calls, {measured} ran at once: cap the threads with max_workers={CAP}.")
        mine = learner_call("peak_concurrency(result.tool_calls)", peak_concurrency, result.tool_calls)
        if mine != measured:
            raise Wrong(f"for the {n} calls, peak_concurrency says {mine!r}, but {measured} ran at once.")
    return (
        f"with {', '.join(map(str, SIZES))} calls in one turn, at most {CAP} ran at once, as "
        f"max_workers={CAP} allows, and peak_concurrency agrees with the records."
    )


def _touching_overlaps() -> tuple[Any, ...]:
    def peak_concurrency(calls) -> int:
        """Counts a start at the same moment as an end as an overlap."""
        events = sorted([(c.started, -1) for c in calls] + [(c.ended, 1) for c in calls])
        running = peak = 0
        for _, change in events:
            running -= change
            peak = max(peak, running)
        return peak

    return (peak_concurrency, run_capped)


def _overlaps_with_the_first() -> tuple[Any, ...]:
    def peak_concurrency(calls) -> int:
        """Counts the first call and the calls that overlap it."""
        if not calls:
            return 0
        first = calls[0]
        return 1 + sum(1 for c in calls[1:] if c.started < first.ended and first.started < c.ended)

    return (peak_concurrency, run_capped)


def _most_overlaps_of_one_call() -> tuple[Any, ...]:
    def peak_concurrency(calls) -> int:
        """For each call, counts it and the calls that overlap it; returns the largest count."""
        return max(
            (sum(1 for o in calls if o.started < c.ended and c.started < o.ended) for c in calls), default=0
        )

    return (peak_concurrency, run_capped)


def _sequential() -> tuple[Any, ...]:
    def run_capped(llm, question, tools):
        """Forgets parallel=True."""
        return llm.run(question, tools=tools, max_workers=2)

    return (peak_concurrency, run_capped)


def _no_cap() -> tuple[Any, ...]:
    def run_capped(llm, question, tools):
        """Forgets the cap: the default allows 8 threads."""
        return llm.run(question, tools=tools, parallel=True)

    return (peak_concurrency, run_capped)


def _counts_calls() -> tuple[Any, ...]:
    def peak_concurrency(calls) -> int:
        """Counts the calls instead of the overlap."""
        return len(calls)

    return (peak_concurrency, run_capped)


q1 = Exercise(
    number=1,
    title="The cap: max_workers",
    task="""\
Write `peak_concurrency(calls)`, the largest number of calls running at the same moment (from each
record's `started` and `ended`; a call that ends exactly when another starts does not overlap it),
and `run_capped(llm, question, tools)`, which runs a turn's calls in parallel threads, at most 2 at
a time. The check tries `peak_concurrency` on a few hand-made records, then runs turns of 2, 4 and
8 slow calculator calls through `run_capped` on a fresh offline model and reads the overlap from
the records: never a stopwatch, so the verdict does not depend on the machine.""",
    stub='''\
def peak_concurrency(calls) -> int:
    """The largest number of calls running at the same moment.

    A call that ends exactly when another starts does not overlap it.
    """
    ____


def run_capped(llm, question, tools):
    """Run the question with one turn's calls in parallel threads, at most 2 at a time."""
    return llm.run(question, tools=tools, parallel=____, max_workers=____)


ex.q1.check()''',
    hint_text="Turn each call into two events, (started, +1) and (ended, -1), sort them, and keep a "
    "running sum: its largest value is the peak. Sorting tuples puts (t, -1) before (t, +1), so an end "
    "at the same moment as a start is counted first. llm.run takes parallel=True and max_workers=2.",
    names=("peak_concurrency", "run_capped"),
    judge=_judge_cap,
    reference=lambda: (peak_concurrency, run_capped),
    solution_parts=(peak_concurrency, run_capped),
    wrong_answers=(
        WrongAnswer("touching calls counted as overlapping", _touching_overlaps, fix="count the end before the start"),
        WrongAnswer("counts the calls", _counts_calls, fix="one after the other; it should be 1"),
        WrongAnswer("only the calls overlapping the first", _overlaps_with_the_first,
                    fix="Count the calls running at each moment"),
        WrongAnswer("the most calls overlapping one call", _most_overlaps_of_one_call,
                    fix="Count the calls running at each moment"),
        WrongAnswer("parallel left off", _sequential, fix="parallel=True"),
        WrongAnswer("no max_workers", _no_cap, fix="max_workers=2"),
    ),
)

# -- exercise 2: an async tool, results in call order ----------------------------------------------

# "What's the weather in Beijing, Shanghai and Guangzhou today?"
CITIES_QUESTION = "北京、上海和广州今天天气怎么样?"
DELAYS = {"北京": 0.3, "上海": 0.2, "广州": 0.1}  # seconds: the first city asked waits longest


@cd.tool(name="get_weather")
async def get_weather_async(city: str) -> dict:
    """Get today's weather for a city: the sky and the temperature in °C.

    Args:
        city: The city name in Chinese or English, e.g. 北京 or Beijing.
    """
    await asyncio.sleep(DELAYS.get(city, 0.1))
    return sc.get_weather(city)


def _judge_async_tool(get_weather_async: Any) -> str:
    tool = as_tool(get_weather_async, "get_weather_async")
    if tool.name != "get_weather":
        raise Wrong(f'the tool is named {tool.name!r}: name it get_weather, @cd.tool(name="get_weather"), '
                    "so the model's weather rule calls it.")
    if not tool.is_async:
        raise Wrong("get_weather_async is a plain def: write `async def` so arun runs its calls as tasks.")
    llm = offline_llm(asynchronous=True)
    result = run_coroutine(lambda: llm.arun(CITIES_QUESTION, tools=[tool]))
    failed = [c for c in result.tool_calls if c.is_error]
    if failed:
        raise Wrong(f"a call failed: {failed[0].name}({json.dumps(failed[0].arguments, ensure_ascii=False)}) "
                    f"-> {failed[0].output}")
    asked = [c.arguments["city"] for c in result.tool_calls]
    finished = [c.arguments["city"] for c in sorted(result.tool_calls, key=lambda c: c.ended)]
    longest = max(c.ended - c.started for c in result.tool_calls)
    if longest < min(DELAYS.values()) / 2:
        raise Wrong(f"the calls took no time (the longest {longest * 1000:.0f} ms): none of them waited. Wait "
                    "with `await asyncio.sleep(DELAYS.get(city, 0.1))`; asyncio.sleep(...) without `await` "
                    "only makes a coroutine, and waits for nothing.")
    if _peak(result.tool_calls) < len(asked):
        raise Wrong("the calls ran one after another, each taking its full wait: something in the tool blocks "
                    "the event loop. Inside an async def, wait with `await asyncio.sleep(...)`; time.sleep "
                    "blocks the event loop, and every other call with it.")
    if finished != asked[::-1]:
        raise Wrong(f"the calls finished in the order {', '.join(finished)}; wait longer for the cities "
                    f"asked first ({', '.join(asked)}), so the last one asked finishes first.")
    turn = next(m for m in result.messages if m.get("tool_calls"))
    answered = [m["tool_call_id"] for m in result.messages if m.get("role") == "tool"]
    if answered != [c["id"] for c in turn["tool_calls"]]:
        raise Wrong("the tool messages are not in call order.")  # llm.arun's job: only a broken library gets here
    return (
        f"asked {', '.join(asked)}; finished {', '.join(finished)}; the records and the tool messages "
        f"sent back still follow the call order."
    )


def _blocking_sleep() -> tuple[Any, ...]:
    @cd.tool(name="get_weather")
    async def get_weather_async(city: str) -> dict:
        """Get today's weather for a city."""
        time.sleep(DELAYS.get(city, 0.1))
        return sc.get_weather(city)

    return (get_weather_async,)


def _sleep_not_awaited() -> tuple[Any, ...]:
    @cd.tool(name="get_weather")
    async def get_weather_async(city: str) -> dict:
        """Get today's weather for a city."""
        asyncio.sleep(DELAYS.get(city, 0.1)).close()  # not awaited (closed here, so Python does not warn)
        return sc.get_weather(city)

    return (get_weather_async,)


def _first_finishes_first() -> tuple[Any, ...]:
    @cd.tool(name="get_weather")
    async def get_weather_async(city: str) -> dict:
        """Get today's weather for a city."""
        await asyncio.sleep({"北京": 0.1, "上海": 0.2, "广州": 0.3}.get(city, 0.1))
        return sc.get_weather(city)

    return (get_weather_async,)


def _plain_def() -> tuple[Any, ...]:
    @cd.tool(name="get_weather")
    def get_weather_async(city: str) -> dict:
        """Get today's weather for a city."""
        time.sleep(DELAYS.get(city, 0.1))
        return sc.get_weather(city)

    return (get_weather_async,)


def _wrong_name() -> tuple[Any, ...]:
    @cd.tool
    async def get_weather_async(city: str) -> dict:
        """Get today's weather for a city."""
        await asyncio.sleep(DELAYS.get(city, 0.1))
        return sc.get_weather(city)

    return (get_weather_async,)


q2 = Exercise(
    number=2,
    title="An async tool, results in call order",
    task=f"""\
Write an **async** weather tool named `get_weather` (so the offline model's weather rule uses it)
that waits longer for the cities asked first, so the last call finishes first. The check runs it
with `await llm.arun(...)` on a fresh offline model for the question
"{CITIES_QUESTION}"
("What's the weather in Beijing, Shanghai and Guangzhou today?") and checks that the three calls
overlapped, finished last first, and still came back in call order: in the records, and in the
messages sent to the model.""",
    stub='''\
import asyncio

from conductor import scenarios as sc

DELAYS = {"北京": 0.3, "上海": 0.2, "广州": 0.1}  # seconds: the first city asked waits longest


@cd.tool(name="get_weather")
async def get_weather_async(city: str) -> dict:
    """Get today's weather for a city: the sky and the temperature in °C.

    Args:
        city: The city name in Chinese or English, e.g. 北京 or Beijing.
    """
    ____  # wait DELAYS[city] seconds, without blocking the event loop
    return sc.get_weather(city)


ex.q2.check()''',
    hint_text="`await asyncio.sleep(DELAYS.get(city, 0.1))` waits without blocking: while one call "
    "sleeps, the event loop runs the others. time.sleep would stop them all.",
    names=("get_weather_async",),
    judge=_judge_async_tool,
    reference=lambda: (get_weather_async,),
    solution_parts=(
        "import asyncio\n\nfrom conductor import scenarios as sc\n\n"
        'DELAYS = {"北京": 0.3, "上海": 0.2, "广州": 0.1}  # seconds: the first city asked waits longest',

        get_weather_async,
    ),
    wrong_answers=(
        WrongAnswer("time.sleep in an async def", _blocking_sleep, fix="time.sleep blocks the event loop"),
        WrongAnswer("asyncio.sleep without await", _sleep_not_awaited, fix="without `await` only makes a coroutine"),
        WrongAnswer(
            "the first city finishes first", _first_finishes_first, fix="wait longer for the cities asked first"
        ),
        WrongAnswer("a plain def", _plain_def, fix="write `async def`"),
        WrongAnswer("not named get_weather", _wrong_name, fix='@cd.tool(name="get_weather")'),
    ),
)

# -- exercise 3: an exclusive transfer -------------------------------------------------------------

ACCOUNTS = {"alice": 100, "bob": 20}
AMOUNT = 30
BANK_QUESTION = "Move 30 from alice to bob; show alice's balance before, and both balances after."


@cd.tool
def get_balance(account: str) -> dict:
    """Get the balance of an account."""
    return {"account": account, "balance": ACCOUNTS[account]}


@cd.tool(exclusive=True)
def transfer(source: str, target: str, amount: int) -> dict:
    """Move money from one account to another."""
    ACCOUNTS[source] -= amount
    ACCOUNTS[target] += amount
    return {"moved": amount, "from": source, "to": target}


def _bank_turn(conversation: Any) -> CallTools | None:
    """The model's one turn: a read, the transfer, two reads; then the built-in policies answer."""
    if conversation.exchanges():
        return None
    return CallTools((
        PlannedCall("get_balance", {"account": "alice"}),
        PlannedCall("transfer", {"source": "alice", "target": "bob", "amount": AMOUNT}),
        PlannedCall("get_balance", {"account": "alice"}),
        PlannedCall("get_balance", {"account": "bob"}),
    ))


def _balance(call: Any) -> Any:
    try:
        return json.loads(call.output)["balance"]
    except (ValueError, KeyError, TypeError):
        return None


def _judge_transfer(get_balance: Any, transfer: Any) -> str:
    reads_tool = as_tool(get_balance, "get_balance")
    move_tool = as_tool(transfer, "transfer")
    tools = [sc.with_delay(reads_tool, TOOL_SECONDS), sc.with_delay(move_tool, TOOL_SECONDS)]
    result = offline_llm(policies=(_bank_turn,)).run(BANK_QUESTION, tools=tools, parallel=True)
    failed = [c for c in result.tool_calls if c.is_error]
    if failed:
        raise Wrong(f"the call {failed[0].name}({json.dumps(failed[0].arguments)}) failed: {failed[0].output}")
    moved = next(c for c in result.tool_calls if c.name == "transfer")
    reads = [c for c in result.tool_calls if c is not moved]
    if any(c.started < moved.ended and moved.started < c.ended for c in reads):
        raise Wrong("transfer ran at the same time as a balance read: mark it @cd.tool(exclusive=True) "
                    "so it runs alone, after the calls before it and before the calls after it.")
    after = [c for c in reads if c.started >= moved.ended]
    if _peak(after) < len(after):
        raise Wrong("the two reads after the transfer ran one after another: only transfer needs "
                    "exclusive=True; reads may overlap each other.")
    before_alice, after_alice = _balance(reads[0]), _balance(reads[1])
    if not isinstance(before_alice, int | float) or after_alice != before_alice - AMOUNT:
        raise Wrong(f"alice's balance read {before_alice!r} before the transfer and {after_alice!r} after; "
                    f"the read after should see {AMOUNT} less.")
    return (
        f"transfer ran alone; the reads after it overlapped and saw the money moved "
        f"(alice {before_alice} -> {after_alice})."
    )


def _not_exclusive() -> tuple[Any, ...]:
    return (get_balance, cd.tool(transfer.func))


def _everything_exclusive() -> tuple[Any, ...]:
    return (cd.tool(get_balance.func, exclusive=True), transfer)


q3 = Exercise(
    number=3,
    title="An exclusive transfer",
    task="""\
A bank: `get_balance` reads, `transfer` moves money. The check's model asks, in one turn, for
Alice's balance, a transfer of 30 from Alice to Bob, then both balances, and runs the turn with
`parallel=True`. Make `transfer` exclusive: it must overlap no other call, the reads after it must
still overlap each other, and they must see the money moved. (Each check moves 30 from Alice to
Bob in your `ACCOUNTS`.)""",
    stub='''\
ACCOUNTS = {"alice": 100, "bob": 20}


@cd.tool
def get_balance(account: str) -> dict:
    """Get the balance of an account."""
    return {"account": account, "balance": ACCOUNTS[account]}


@cd.tool(exclusive=____)
def transfer(source: str, target: str, amount: int) -> dict:
    """Move money from one account to another."""
    ACCOUNTS[source] -= amount
    ACCOUNTS[target] += amount
    return {"moved": amount, "from": source, "to": target}


ex.q3.check()''',
    hint_text="@cd.tool(exclusive=True) puts a call in a batch of its own: the calls before it finish "
    "before it starts, the calls after it start after it ends, and those may overlap each other.",
    names=("get_balance", "transfer"),
    judge=_judge_transfer,
    reference=lambda: (get_balance, transfer),
    solution_parts=('ACCOUNTS = {"alice": 100, "bob": 20}', get_balance, transfer),
    wrong_answers=(
        WrongAnswer("transfer not exclusive", _not_exclusive, fix="@cd.tool(exclusive=True)"),
        WrongAnswer("every tool exclusive", _everything_exclusive, fix="only transfer needs exclusive=True"),
    ),
)

EXERCISES: tuple[Exercise, ...] = (q1, q2, q3)
