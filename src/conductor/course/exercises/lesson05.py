"""Lesson 05's exercises: a budget checked before the request, a sliding-window rate limit, an orchestrator,
a batched run collected after a restart.

In the notebook::

    from conductor.course.exercises import ____, lesson05 as ex
    ex.q1.check()

Every check is deterministic: prices, token counts and call times are the
check's own, and the orchestrators run on a fresh zero-latency offline model.
"""

from __future__ import annotations

import asyncio
import inspect
import math
import tempfile
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import conductor as cd
from conductor import scenarios as sc

from ...batch import BatchHandle
from ...display import clip
from .core import Exercise, Wrong, WrongAnswer, explain, learner_call, offline_llm, run_coroutine

__all__ = ["SETUP", "EXERCISES", "q1", "q2", "q3", "q4"]

SETUP = "from conductor.course.exercises import ____, lesson05 as ex"
"""The notebook cell that comes before the exercises."""

# -- exercise 1: the worst case, before the request --------------------------------------------------


def worst_case_usd(input_tokens, max_tokens, input_per_mtok, output_per_mtok) -> float:
    """The most one request can cost: all of its input, and every output token max_tokens allows."""
    return (input_tokens * input_per_mtok + max_tokens * output_per_mtok) / 1_000_000


def may_send(spent, worst, budget) -> bool:
    """Send the request only if it cannot cross the budget, whatever the model answers."""
    return spent + worst <= budget


PRICES = (0.4, 1.6)  # US dollars per million input / output tokens (gpt-4.1-mini's)
WORST_CASES = (
    ((1000, 500, 0.4, 1.6), 0.0012),
    ((0, 4096, 0.4, 1.6), 0.0065536),
    ((2500, 0, 3.0, 15.0), 0.0075),
)
# (input tokens, max_tokens, output tokens the model really writes) of a conversation's requests
REQUESTS = ((800, 1000, 40), (1100, 1000, 60), (1400, 1000, 300), (1800, 1000, 900), (2300, 1000, 120))
BUDGET = 0.005


def _simulate(worst_case_usd: Any, may_send: Any) -> tuple[float, int, bool]:
    """Run the scripted requests through the learner's check: (spent, requests sent, stopped by the budget)."""
    spent = 0.0
    for sent, (input_tokens, max_tokens, output_tokens) in enumerate(REQUESTS):
        worst = learner_call("worst_case_usd(...)", worst_case_usd, input_tokens, max_tokens, *PRICES)
        if not learner_call("may_send(...)", may_send, spent, worst, BUDGET):
            return spent, sent, True
        spent += (input_tokens * PRICES[0] + output_tokens * PRICES[1]) / 1_000_000
    return spent, len(REQUESTS), False


def _judge_budget(worst_case_usd: Any, may_send: Any) -> str:
    for args, expected in WORST_CASES:
        got = learner_call(f"worst_case_usd{args}", worst_case_usd, *args)
        if not isinstance(got, int | float) or not math.isclose(got, expected, rel_tol=1e-9):
            hint = " Prices are per million tokens: divide by 1,000,000." if isinstance(got, int | float) and \
                math.isclose(got, expected * 1e6, rel_tol=1e-9) else ""
            raise Wrong(f"worst_case_usd{args} gives {got!r}; it should be {expected:g}: every input token at the "
                        f"input price plus max_tokens output tokens at the output price.{hint}")
    for spent, worst, budget, expected in ((0.001, 0.002, 0.003, True), (0.002, 0.002, 0.003, False),
                                           (0.0, 0.004, 0.003, False)):
        got = learner_call(f"may_send({spent}, {worst}, {budget})", may_send, spent, worst, budget)
        if got is not expected and got != expected:
            why = ("a request whose worst case fits exactly may go" if expected else
                   "spent + worst is above the budget: compare what could be spent after the request, not before")
            raise Wrong(f"may_send({spent}, {worst}, {budget}) gives {got!r}; it should be {expected}: {why}.")
    spent, sent, stopped = _simulate(worst_case_usd, may_send)
    if spent > BUDGET:
        raise Wrong(f"the scripted conversation spent ${spent:.6f} of a ${BUDGET} budget: check spent + worst "
                    "against the budget before each request.")
    return (f"the scripted conversation sent {sent} of {len(REQUESTS)} requests and spent ${spent:.6f} of "
            f"${BUDGET}; the next one could have cost more than was left, so it was never sent.")


def _checks_after() -> tuple[Any, ...]:
    def may_send(spent, worst, budget) -> bool:
        """Checks what was spent so far, as frameworks do after each response."""
        return spent <= budget

    return (worst_case_usd, may_send)


def _input_only() -> tuple[Any, ...]:
    def worst_case_usd(input_tokens, max_tokens, input_per_mtok, output_per_mtok) -> float:
        """Forgets the output."""
        return input_tokens * input_per_mtok / 1_000_000

    return (worst_case_usd, may_send)


def _strict() -> tuple[Any, ...]:
    def may_send(spent, worst, budget) -> bool:
        """Refuses a request that fits exactly."""
        return spent + worst < budget

    return (worst_case_usd, may_send)


q1 = Exercise(
    number=1,
    title="The worst case, before the request",
    task="""\
Write `worst_case_usd(input_tokens, max_tokens, input_per_mtok, output_per_mtok)`, the most one
request can cost (prices are US dollars per million tokens), and `may_send(spent, worst, budget)`,
which says whether a request may go out without any chance of crossing the budget. The check
tries a few numbers, then drives a scripted conversation of five requests through your two
functions with a $0.005 budget and output lengths the model only reveals after each request.""",
    stub='''\
def worst_case_usd(input_tokens, max_tokens, input_per_mtok, output_per_mtok) -> float:
    """The most one request can cost: all of its input, and every output token max_tokens allows."""
    return ____


def may_send(spent, worst, budget) -> bool:
    """Send the request only if it cannot cross the budget, whatever the model answers."""
    return ____


ex.q1.check()''',
    hint_text="The worst case is input_tokens * input_per_mtok + max_tokens * output_per_mtok, divided by "
    "1,000,000. A request may go when spent + worst <= budget: checking spent alone is checking after the "
    "fact, and the request that crosses the budget has already been billed.",
    names=("worst_case_usd", "may_send"),
    judge=_judge_budget,
    reference=lambda: (worst_case_usd, may_send),
    solution_parts=(worst_case_usd, may_send),
    wrong_answers=(
        WrongAnswer("checks only what was spent", _checks_after, fix="compare what could be spent after"),
        WrongAnswer("forgets the output tokens", _input_only, fix="max_tokens output tokens"),
        WrongAnswer("refuses an exact fit", _strict, fix="fits exactly may go"),
    ),
)

# -- exercise 2: a sliding window ---------------------------------------------------------------------


def allow(starts, now, limit=10, period=60.0) -> bool:
    """May a user's tool call start at `now`? At most `limit` calls in any `period` seconds.

    `starts` holds the start times (seconds) of the user's earlier calls that were allowed.
    """
    recent = [t for t in starts if t > now - period]
    return len(recent) < limit


_RULE = allow  # the reference rule the check compares decisions with

# times (seconds) at which a user asks for a call, replayed with a limit of 3 a minute
ARRIVALS = (0, 1, 2, 30, 59.5, 60, 60.5, 61, 62, 125)


def _decisions(allow: Any, arrivals: tuple[float, ...], limit: int) -> list[bool]:
    starts: list[float] = []
    decisions = []
    for now in arrivals:
        ok = learner_call(f"allow({starts}, {now}, limit={limit})", allow, list(starts), now, limit, 60.0)
        decisions.append(bool(ok))
        if ok:
            starts.append(now)
    return decisions


def _most_in_a_minute(times: list[float]) -> int:
    return max((sum(1 for t in times if s <= t < s + 60) for s in times), default=0)


def _judge_at_the_limit(allow: Any, limit: int) -> None:
    """Exactly ``limit`` calls in the last minute must refuse the next one: the off-by-one ``<=`` allows it."""
    full = list(range(limit))  # limit calls, all within the last 60 seconds
    now = limit
    if not learner_call(f"allow({full}, {now}, limit={limit})", allow, list(full), now, limit, 60.0):
        return
    over = [*full, now]
    if learner_call(f"allow({over}, {now + 1}, limit={limit})", allow, list(over), now + 1, limit, 60.0):
        return  # it allows even more: not this mistake; the replay below says what is wrong
    raise Wrong(f"allow({full}, {now}, limit={limit}) is True, with {limit} calls already in the last 60 seconds: "
                f"an off-by-one that allows limit + 1 calls in a window ({limit + 1} here). A call may start "
                "only while fewer than `limit` are recent: use `len(recent) < limit`, not `<=`.")


def _judge_window(allow: Any) -> str:
    for limit in (3, 10):
        _judge_at_the_limit(allow, limit)
    for arrivals, limit in ((ARRIVALS, 3), ((58.0, 58.5, 59.0, 60.5, 61.0, 61.5), 3), (tuple(range(0, 200, 7)), 10)):
        got = _decisions(allow, arrivals, limit)
        expected = _decisions(_RULE, arrivals, limit)
        allowed = [t for t, ok in zip(arrivals, got) if ok]
        if _most_in_a_minute(allowed) > limit:
            raise Wrong(f"with a limit of {limit}, calls at {allowed} were allowed: that is more than {limit} in one "
                        "60-second span. Count the calls of the last 60 seconds before `now`, not of the clock's "
                        "current minute.")
        if got != expected:
            when, should = next((t, e) for t, g, e in zip(arrivals, got, expected) if g != e)
            raise Wrong(f"with a limit of {limit}, the call at {when} s should be {'allowed' if should else 'refused'}: "
                        "a call that started 60 s or more before `now` no longer counts; the ones after it do.")
    return (f"calls asked for at {list(ARRIVALS)} s with a limit of 3 a minute: allowed "
            f"{[t for t, ok in zip(ARRIVALS, _decisions(allow, ARRIVALS, 3)) if ok]}, never more than 3 in any minute.")


def _fixed_window() -> tuple[Any, ...]:
    def allow(starts, now, limit=10, period=60.0) -> bool:
        """Counts the calls of the clock's current minute (a fixed window)."""
        return sum(1 for t in starts if t // period == now // period) < limit

    return (allow,)


def _never_forgets() -> tuple[Any, ...]:
    def allow(starts, now, limit=10, period=60.0) -> bool:
        """Counts every call ever made."""
        return len(starts) < limit

    return (allow,)


def _off_by_one() -> tuple[Any, ...]:
    def allow(starts, now, limit=10, period=60.0) -> bool:
        """Still allows a call when `limit` calls are already recent."""
        recent = [t for t in starts if t > now - period]
        return len(recent) <= limit

    return (allow,)


def _keeps_the_boundary() -> tuple[Any, ...]:
    def allow(starts, now, limit=10, period=60.0) -> bool:
        """Still counts a call started exactly `period` seconds ago."""
        return len([t for t in starts if t >= now - period]) < limit

    return (allow,)


q2 = Exercise(
    number=2,
    title="Ten tool calls a minute: a sliding window",
    task="""\
Write `allow(starts, now, limit=10, period=60.0)`: may a user's tool call start at `now`, given the
start times of their earlier allowed calls, if at most `limit` calls may start in **any** 60
seconds? A call that started exactly 60 seconds ago no longer counts. The check replays scripted
call times (no real clock: seconds are plain numbers) and compares your decisions with the rule.""",
    stub='''\
def allow(starts, now, limit=10, period=60.0) -> bool:
    """May a user's tool call start at `now`? At most `limit` calls in any `period` seconds.

    `starts` holds the start times (seconds) of the user's earlier calls that were allowed.
    """
    recent = ____
    return ____


ex.q2.check()''',
    hint_text="Keep the calls of the last `period` seconds: [t for t in starts if t > now - period]. The call "
    "may start when fewer than `limit` remain. A fixed window (the clock's current minute) lets 2 x limit calls "
    "through around the turn of a minute.",
    names=("allow",),
    judge=_judge_window,
    reference=lambda: (allow,),
    solution_parts=(allow,),
    wrong_answers=(
        WrongAnswer("a fixed window", _fixed_window, fix="not of the clock's current minute"),
        WrongAnswer("never forgets a call", _never_forgets, fix="no longer counts"),
        WrongAnswer("counts the call of exactly 60 s ago", _keeps_the_boundary, fix="no longer counts"),
        WrongAnswer("off by one: len(recent) <= limit", _off_by_one, fix="an off-by-one that allows limit + 1 calls"),
    ),
)

# -- exercise 3: an orchestrator for a batch ----------------------------------------------------------

BATCH_USD = 0.003
PER_USER = 3
# "Beijing's weather today? What should I wear?": two tool calls each
BATCH = ("北京今天天气怎么样?应该穿什么衣服?", "Shanghai weather today, and what should I wear?") * 8
USERS = ("ann", "ben") * 8


def make_orchestrator(llm, tools):
    """$0.003 for a whole batch, 3 tool calls a minute per user, answers of 300 tokens at most."""
    return cd.Orchestrator(
        llm,
        tools=tools,
        batch_budget=cd.Budget(usd=0.003),
        rate_limit=cd.RateLimit(tool_calls_per_minute=3),
        max_tokens=300,
    )


def _judge_orchestrator(make_orchestrator: Any) -> str:
    llm = offline_llm(asynchronous=True)
    orch = learner_call("make_orchestrator(llm, tools)", make_orchestrator, llm, sc.weather_tools())
    if not isinstance(orch, cd.Orchestrator):
        raise Wrong(f"make_orchestrator returned {type(orch).__name__}; return the cd.Orchestrator you built.")
    results = run_coroutine(lambda: orch.run_many(list(BATCH), concurrency=4, users=list(USERS), progress=False))
    total = sum(r.cost for r in results)
    answered = [r for r in results if r.stopped_by is None]
    if not answered:
        raise Wrong("no conversation was answered: every request's worst case was too big for the budget. The "
                    "worst case counts max_tokens output tokens (4096 when none is set): pass max_tokens=300.")
    if total > BATCH_USD:
        raise Wrong(f"the batch spent ${total:.6f}, more than ${BATCH_USD}: budget= limits each conversation; "
                    "a limit shared by the whole batch is batch_budget=cd.Budget(usd=...).")
    for user in set(USERS):
        ran = sum(1 for r, u in zip(results, USERS) if u == user
                  for c in r.tool_calls if not c.output.startswith("RateLimited"))
        if ran > PER_USER:
            raise Wrong(f"{user} made {ran} tool calls within a minute; allow {PER_USER}: "
                        f"rate_limit=cd.RateLimit(tool_calls_per_minute={PER_USER}).")
    if not any(r.stopped_by == "budget" for r in results):
        raise Wrong(f"the whole batch fit: set batch_budget=cd.Budget(usd={BATCH_USD}), not a larger one.")
    m = orch.metrics()
    return (f"{len(answered)} of {len(results)} conversations answered for ${total:.6f} (batch budget "
            f"${BATCH_USD}); {m.refused_calls} tool calls refused by the per-user limit; "
            f"{m.stopped.get('budget', 0)} conversations stopped before the budget could be crossed.")


def _per_run_budget() -> tuple[Any, ...]:
    def make_orchestrator(llm, tools):
        """A budget per conversation instead of one for the batch."""
        return cd.Orchestrator(llm, tools=tools, budget=cd.Budget(usd=0.003),
                               rate_limit=cd.RateLimit(tool_calls_per_minute=3), max_tokens=300)

    return (make_orchestrator,)


def _no_max_tokens() -> tuple[Any, ...]:
    def make_orchestrator(llm, tools):
        """No output ceiling: the worst case assumes 4096 output tokens."""
        return cd.Orchestrator(llm, tools=tools, batch_budget=cd.Budget(usd=0.003),
                               rate_limit=cd.RateLimit(tool_calls_per_minute=3))

    return (make_orchestrator,)


def _default_rate() -> tuple[Any, ...]:
    def make_orchestrator(llm, tools):
        """Keeps the default of 10 tool calls a minute."""
        return cd.Orchestrator(llm, tools=tools, batch_budget=cd.Budget(usd=0.003), max_tokens=300)

    return (make_orchestrator,)


q3 = Exercise(
    number=3,
    title="An orchestrator for a batch",
    task="""\
Write `make_orchestrator(llm, tools)`, returning a `cd.Orchestrator` that spends at most **$0.003 on
a whole batch**, lets each user make at most **3 tool calls a minute**, and caps each answer at
**300 output tokens**. The check runs 16 weather-and-clothing questions from two users, 4 at a
time, on a fresh offline model, then reads the costs, the tool calls and why conversations stopped.""",
    stub='''\
def make_orchestrator(llm, tools):
    """$0.003 for a whole batch, 3 tool calls a minute per user, answers of 300 tokens at most."""
    return cd.Orchestrator(
        llm,
        tools=tools,
        ____=cd.Budget(usd=0.003),
        rate_limit=cd.RateLimit(tool_calls_per_minute=____),
        max_tokens=____,
    )


ex.q3.check()''',
    hint_text="batch_budget= is shared by every conversation of one run_many (budget= is per conversation). "
    "cd.RateLimit(tool_calls_per_minute=3) limits each user. max_tokens=300 goes through to each request, "
    "and it is what makes the worst case small enough to fit the budget.",
    names=("make_orchestrator",),
    judge=_judge_orchestrator,
    reference=lambda: (make_orchestrator,),
    solution_parts=(make_orchestrator,),
    wrong_answers=(
        WrongAnswer("a budget per conversation", _per_run_budget, fix="batch_budget=cd.Budget"),
        WrongAnswer("no max_tokens", _no_max_tokens, fix="pass max_tokens=300"),
        WrongAnswer("the default rate limit", _default_rate, fix="tool_calls_per_minute=3"),
    ),
)

# -- exercise 4: a batch collected after a restart --------------------------------------------------

# The weather and clothes (three requests: three batch rounds), a sum, one city's weather, a greeting.
RESUME_QUESTIONS = (
    "北京今天天气怎么样?应该穿什么衣服?",
    "What is (12 + 30) * 2?",
    "What's the weather in Shanghai today?",
    "Hello!",
)
_BATCH_CREATES = ("/v1/batches", "/v1/messages/batches")
_FIX = "orch.collect(handle_id, state_dir=state_dir)"


def resume(handle_id, state_dir, llm, tools, questions):
    """After a restart: finish the batched run `handle_id` kept in `state_dir`.

    `llm` and `tools` are those it was submitted with; `questions` are still in your input file.
    Return the results in the order of the questions.
    """
    orch = cd.Orchestrator(llm, tools=tools)  # a new Orchestrator: the one that submitted is gone
    return orch.collect(handle_id, state_dir=state_dir, progress=False)


def _resume_tools() -> list[Any]:
    return [*sc.weather_tools(), sc.calculate]


def _batches_created(offline: Any) -> int:
    """The batches the offline provider was asked to create (a POST with a body: a listing is a GET)."""
    return sum(1 for r in offline.requests
               if r.path in _BATCH_CREATES and ("input_file_id" in r.body or "requests" in r.body))


def _direct_requests(offline: Any) -> int:
    return sum(1 for r in offline.requests if r.path in ("/v1/responses", "/v1/chat/completions", "/v1/messages"))


def _off_the_loop(doing: str, func: Any, *args: Any) -> Any:
    """Call the learner's function on a thread with no event loop (as in a script), awaiting a coroutine."""

    def call() -> Any:
        value = learner_call(doing, func, *args)
        if inspect.iscoroutine(value):
            try:
                return asyncio.run(value)
            except Exception as exc:  # noqa: BLE001 - explained, never raised
                raise Wrong(explain(exc, doing)) from exc
        return value

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(call).result()


def _judge_resume(resume: Any) -> str:
    from ...offline import LatencyModel, OfflineModel

    offline = OfflineModel(seed=0, latency=LatencyModel.instant())
    questions = list(RESUME_QUESTIONS)
    reference = [cd.Orchestrator(offline_llm("responses"), tools=_resume_tools()).run(q) for q in questions]
    rounds = max(r.api_calls for r in reference)
    doing = "resume(handle.id, state_dir, llm, tools, questions)"
    with tempfile.TemporaryDirectory(prefix="conductor-q4-") as state_dir:
        before = cd.Orchestrator(cd.connect("offline", api="responses", offline_model=offline), tools=_resume_tools())
        handle = before.submit(questions, state_dir=state_dir)
        del before  # the restart: only handle.id and the files in state_dir are left
        llm = cd.connect("offline", api="responses", offline_model=offline)  # a new connection after the restart
        direct_before = _direct_requests(offline)
        try:
            results = _off_the_loop(doing, resume, handle.id, state_dir, llm, _resume_tools(), list(questions))
        except Wrong as wrong:
            if isinstance(wrong.__cause__, FileNotFoundError):
                raise Wrong("collect found no run: without state_dir= it looks in .conductor/batches, and this run "
                            f"is kept in the directory submit was given. Pass it on: {_FIX}.") from wrong
            raise
        created = _batches_created(offline)
        direct = _direct_requests(offline) - direct_before
    if isinstance(results, BatchHandle):
        raise Wrong(f"resume returned a BatchHandle: that is what submit gives, and submitting sent round 1 of every "
                    f"question again as a new batch. Finish the run that is already there: return {_FIX}.")
    if not isinstance(results, list | tuple) or not all(isinstance(r, cd.RunResult) for r in results):
        raise Wrong(f"resume returned {type(results).__name__}; return the list of results {_FIX} gives.")
    if direct:
        raise Wrong(f"your function sent {direct} direct requests at the full price: it answered the questions "
                    "again instead of collecting the batch the provider already holds. On the new Orchestrator, "
                    f"return {_FIX}.")
    if created > rounds or any(r.trace.model_calls and r.trace.model_calls[0].batch_id != handle.batch_ids[0]
                               for r in results):
        raise Wrong(f"the provider was asked for {created} batches where {rounds} carry the run: round 1, sent "
                    "before the restart, was sent again (run_many and submit start a new run, paid again). "
                    f"Collect the run that is there: {_FIX}.")
    if len(results) != len(questions):
        raise Wrong(f"resume returned {len(results)} results for {len(questions)} questions; return them all.")
    for index, (got, expected) in enumerate(zip(results, reference)):
        if got.answer != expected.answer:
            raise Wrong(f"result {index} answers {clip(got.answer, 60)!r}, not question {index} "
                        f"({questions[index]!r}): return the results in the order of the questions, as collect does.")
    cost = sum(r.cost for r in results)
    return (f"the run was collected, not sent again: {created} batches in all (round 1 before the restart, "
            f"the other {rounds - 1} after it), {len(results)} answers in the order of the questions, "
            f"${cost:.6f} at the batch rate.")


def _submits_again() -> tuple[Any, ...]:
    def resume(handle_id, state_dir, llm, tools, questions):
        """Submits the questions again, then collects the new run."""
        orch = cd.Orchestrator(llm, tools=tools)
        handle = orch.submit(questions, state_dir=state_dir)
        return orch.collect(handle, progress=False)

    return (resume,)


def _runs_many_again() -> tuple[Any, ...]:
    def resume(handle_id, state_dir, llm, tools, questions):
        """Runs the questions again, one request at a time, with run_many."""
        orch = cd.Orchestrator(llm, tools=tools)
        return asyncio.run(orch.run_many(questions, progress=False))

    return (resume,)


def _batches_again() -> tuple[Any, ...]:
    def resume(handle_id, state_dir, llm, tools, questions):
        """Runs the questions again as a new batched run."""
        orch = cd.Orchestrator(llm, tools=tools)
        return asyncio.run(orch.run_many(questions, via="batch", state_dir=state_dir, progress=False))

    return (resume,)


def _returns_the_new_handle() -> tuple[Any, ...]:
    def resume(handle_id, state_dir, llm, tools, questions):
        """Submits again and returns the handle."""
        return cd.Orchestrator(llm, tools=tools).submit(questions, state_dir=state_dir)

    return (resume,)


def _forgets_state_dir() -> tuple[Any, ...]:
    def resume(handle_id, state_dir, llm, tools, questions):
        """Collects without saying where the run is kept."""
        return cd.Orchestrator(llm, tools=tools).collect(handle_id, progress=False)

    return (resume,)


q4 = Exercise(
    number=4,
    title="Collect a batch after a restart",
    task="""\
A batched run was submitted (`handle = orch.submit(questions, state_dir=...)`), then the process
stopped: that Orchestrator is gone, and what is left is the run's id and its directory. Write
`resume(handle_id, state_dir, llm, tools, questions)`, which finishes the run on a new Orchestrator
and returns the results in the order of the questions. `llm` and `tools` are the ones the run was
submitted with, and the questions are still in your input file, but the provider already holds
the first round. The check submits four questions on a fresh offline model, calls your function,
and counts the batches the provider was asked to create.""",
    stub='''\
def resume(handle_id, state_dir, llm, tools, questions):
    """After a restart: finish the batched run `handle_id` kept in `state_dir`.

    `llm` and `tools` are those it was submitted with; `questions` are still in your input file.
    Return the results in the order of the questions.
    """
    orch = ____  # a new Orchestrator: the one that submitted is gone
    return ____


ex.q4.check()''',
    hint_text="Everything the run needs is in state_dir: its questions, each round's batch id and each "
    "conversation so far. Build cd.Orchestrator(llm, tools=tools), then return orch.collect(handle_id, "
    "state_dir=state_dir, progress=False): it polls the batch already sent. submit or run_many would start a "
    "new run and send (and pay for) round 1 again.",
    names=("resume",),
    judge=_judge_resume,
    reference=lambda: (resume,),
    solution_parts=(resume,),
    wrong_answers=(
        WrongAnswer("submits the questions again", _submits_again, fix=_FIX),
        WrongAnswer("runs the questions again with run_many", _runs_many_again, fix=_FIX),
        WrongAnswer("a new batched run with run_many(via='batch')", _batches_again, fix=_FIX),
        WrongAnswer("returns the handle of a new submit", _returns_the_new_handle, fix=_FIX),
        WrongAnswer("collects without state_dir", _forgets_state_dir, fix=_FIX),
    ),
)

EXERCISES: tuple[Exercise, ...] = (q1, q2, q3, q4)

