"""Evaluating tool use: a dataset of cases, each run k times, scored on the trajectory, reported with pass^k.

A :class:`Case` is a question, the tools offered, and what a right run does: the tool
calls it makes (:class:`Expect`: a name and the arguments that matter, in order where
``ordered``), the facts its answer must hold, and how it must end (``stopped_by``). An
empty ``calls`` means no tool should be called (an irrelevant question, or one missing
an argument that the model must ask for).

:func:`score` grades one run (a :class:`~conductor.rounds.RunResult`) against its case:

* tool-call **precision** (calls made that were expected) and **recall** (expected calls
  made), counting the calls that ran and succeeded; a failed call the model then repeated
  is not held against it (the retry is how it recovers). Conductor's own tool search
  (``search_tools``, offered where the search runs client-side, as on Chat Completions) is
  how the run found its tools, not a call the case is about: it is left out of the counts,
  as the provider's hosted search on Responses and Messages is, and still listed in
  :attr:`Score.calls` (:func:`conductor.search.searches` reads a run's searches on any API);
* **order**, where the case says it matters: the expected names appear in that order;
* **argument accuracy**: the share of expected calls whose arguments the calls made hold
  (numbers compared as numbers, text without surrounding spaces). Expected and made calls
  are paired one to one as an assignment, the most pairs and then the most with right
  arguments, so the order of the ``Expect`` entries never changes the score;
* **facts**: each must appear in the answer (``"4|four"``: any one of the alternatives);
* the **stop**, the **cost** and the **latency** of the run. A run that raised is costed at
  what it spent before it raised (``exc.result``, which ``llm.run`` attaches); where that is
  not known its cost is None and the report's cost figures leave it out, and say so.

A trial passes when precision, recall, order, arguments and facts are all perfect and the
run ended as expected. :func:`evaluate` runs every case ``k`` times (the offline stand-in
gets a different seed per trial, so its injected faults and latencies differ, as a real
model's behaviour does) and :class:`Report` gives per-case rows, pass^1 and pass^k (the
chance that k trials of a case all pass, estimated as τ-bench does from n trials with c
passes: C(c, k) / C(n, k), averaged over the cases), p50/p95 latency and cost, and the
stop reasons.

Written here rather than with pydantic-evals (2.62): its ``Dataset`` runs a case ``repeat``
times but reports no pass^k, and it hands the task only the case's inputs, not the trial
number the stand-in's seed needs (which is what makes pass^k mean something offline); and it
brings pydantic-ai-slim (about 20 MB installed, half a second to import). Its trajectory
evaluators (``ToolCorrectness``, ``TrajectoryMatch``, ``ArgumentCorrectness``) read
``execute_tool`` spans by ``gen_ai.tool.name`` and ``gen_ai.tool.call.arguments``, the names
:mod:`conductor.tracing` emits (arguments with ``capture_content=True``), so a team that uses
it can point them at conductor's runs.
"""

from __future__ import annotations

import json
import logging
import math
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import display
from .search import SEARCH_TOOL

if TYPE_CHECKING:
    from .providers import LLM
    from .rounds import RunResult

logger = logging.getLogger(__name__)

DEFAULT_K = 5


@dataclass(frozen=True)
class Expect:
    """One tool call a right run makes: its tool, and the arguments that matter (others may be anything)."""

    name: str
    arguments: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.arguments.items())
        return f"{self.name}({shown})"


@dataclass(frozen=True)
class Case:
    """A question, the tools offered, and what a right run does.

    ``tools``: the tools, or a function of the trial number returning them (a flaky
    tool seeded per trial). ``faults``: the offline stand-in's fault rates for this case
    (``{"rate_limit": 0.3}``: the first requests of a trial meet the fault while seeded draws
    fall under the rate, and the SDK's retries meet them; a real model meets only its own
    faults). ``retries``: the SDK's retries of a failed request (``max_retries``) for this
    case, on the offline stand-in.
    """

    name: str
    question: str
    tools: Sequence[Any] | Callable[[int], Sequence[Any]]
    calls: tuple[Expect, ...] = ()
    ordered: bool = False
    facts: tuple[str, ...] = ()
    stopped_by: str | None = None
    kind: str = "single"  # single, chain, parallel, irrelevance, missing_argument, fault
    max_rounds: int = 3
    faults: Mapping[str, float] = field(default_factory=dict)
    retries: int = 2

    def tools_for(self, trial: int) -> list[Any]:
        return list(self.tools(trial) if callable(self.tools) else self.tools)


@dataclass(frozen=True)
class Score:
    """One run graded against its case."""

    case: str
    trial: int
    precision: float
    recall: float
    in_order: bool
    arguments: float  # share of the expected calls made whose arguments were right (1.0 when none are expected)
    facts: float  # share of the facts the answer holds (1.0 when none are asked)
    stop_ok: bool
    seconds: float
    cost: float | None  # US dollars; None: the run raised before its spend was known (left out of cost figures)
    stopped: str  # how the run ended: the stop reason, or what stopped it
    calls: tuple[str, ...] = ()  # the calls that ran, as name(arguments), conductor's tool search included
    problems: tuple[str, ...] = ()

    @property
    def passed(self) -> bool:
        return not self.problems


def _same(expected: Any, actual: Any) -> bool:
    """Equal as the tool would take them: numbers as numbers, text without surrounding spaces or case."""
    if isinstance(expected, (int, float)) and not isinstance(expected, bool):
        try:
            return math.isclose(float(actual), float(expected), rel_tol=1e-9, abs_tol=1e-9)
        except (TypeError, ValueError):
            return False
    if isinstance(expected, str) and isinstance(actual, str):
        return expected.strip().casefold() == actual.strip().casefold()
    return bool(expected == actual)


def _arguments_hold(expect: Expect, arguments: Any) -> bool:
    if not isinstance(arguments, Mapping):
        return not expect.arguments
    return all(key in arguments and _same(value, arguments[key]) for key, value in expect.arguments.items())


def _match(expected: Sequence[Expect], made: Sequence[tuple[str, Any]]) -> list[tuple[int, int, bool]]:
    """Pair expected calls with calls made (``(name, arguments)``), one to one: as many pairs as there can be,
    and among those as many with the expected arguments as there can be.

    Returns ``(expected index, made index, arguments right)`` per pair, by expected index.

    A pair needs the same name, and every same-name pair is allowed, so the calls of one name form a
    complete bipartite graph: a maximum matching over the right-argument pairs, then the calls still
    free paired by name, has both the most pairs and the most right arguments (no assignment does
    better on either). The maximum matching uses Kuhn's augmenting paths, O(V·E): a trajectory has
    a handful of calls, and scipy's ``linear_sum_assignment``, which would do it, is not a dependency.
    """
    holds = [[j for j, (name, arguments) in enumerate(made) if name == e.name and _arguments_hold(e, arguments)]
             for e in expected]
    owner: dict[int, int] = {}  # made index -> the expected index it is paired with

    def augment(i: int, seen: set[int]) -> bool:
        for j in holds[i]:
            if j in seen:
                continue
            seen.add(j)
            if j not in owner or augment(owner[j], seen):
                owner[j] = i
                return True
        return False

    for i in range(len(expected)):
        augment(i, set())
    pairs = {i: (j, True) for j, i in owner.items()}
    free = [j for j in range(len(made)) if j not in owner]
    for i, e in enumerate(expected):
        if i in pairs:
            continue
        j = next((j for j in free if made[j][0] == e.name), None)
        if j is not None:
            free.remove(j)
            pairs[i] = (j, False)
    return [(i, j, right) for i, (j, right) in sorted(pairs.items())]


def _tool_name(item: Any) -> str | None:
    """The name ``llm.run`` gives an item of ``tools=``: a tool's name, a function's, a hosted tool's."""
    if isinstance(item, Mapping):
        return item.get("name")
    return getattr(item, "name", None) or getattr(item, "__name__", None)


def _searches_client_side(case: Case, trial: int, tools: Sequence[Any] | None, ran: Sequence[Any]) -> bool:
    """Are the calls named ``search_tools`` conductor's own tool search, not a tool of the case?

    Conductor refuses to offer its search beside a tool of that name (conductor.search.prepare), so the
    name is conductor's unless the case's own tools hold it.
    """
    if not any(c.name == SEARCH_TOOL for c in ran):
        return False
    offered = case.tools_for(trial) if tools is None else tools
    return all(_tool_name(t) != SEARCH_TOOL for t in offered)


def _in_order(expected: Sequence[str], actual: Sequence[str]) -> bool:
    """Do the expected names appear in ``actual`` in this order (others may come between)?"""
    position = iter(actual)
    return all(any(name == made for made in position) for name in expected)


def _fact_held(fact: str, answer: str) -> bool:
    text = answer.casefold()
    return any(option.strip().casefold() in text for option in fact.split("|"))


def score(case: Case, result: RunResult, *, trial: int = 0, tools: Sequence[Any] | None = None) -> Score:
    """Grade one run of ``case``: what it called, with which arguments, what its answer holds, how it ended.

    ``tools``: the tools the run was offered (default: ``case.tools_for(trial)``), read only to tell
    conductor's tool search from a tool of the case that has its name.
    """
    ran = [c for c in result.tool_calls if not c.is_error and c.blocked is None]
    searching = _searches_client_side(case, trial, tools, ran)
    made = [c for c in ran if not (searching and c.name == SEARCH_TOOL)]
    names = [c.name for c in made]
    pairs = _match(case.calls, [(c.name, c.arguments) for c in made])
    matched = len(pairs)
    precision = matched / len(names) if names else 1.0  # no call made: none was wrong
    recall = matched / len(case.calls) if case.calls else (1.0 if not names else 0.0)
    in_order = _in_order([e.name for e in case.calls], names) if case.ordered else True
    right = sum(ok for _, _, ok in pairs)
    arguments = right / len(case.calls) if case.calls else 1.0
    paired_expected, paired_made = {i for i, _, _ in pairs}, {j for _, j, _ in pairs}
    held = [f for f in case.facts if _fact_held(f, result.answer)]
    facts = len(held) / len(case.facts) if case.facts else 1.0
    stop_ok = result.stopped_by == case.stopped_by
    problems = []
    if recall < 1:
        missing = sorted(e.name for i, e in enumerate(case.calls) if i not in paired_expected)
        problems.append(f"missing calls: {', '.join(missing) or '-'}")
        # A call the model did make, whose tool failed, is the reason its name is missing: say what the tool said.
        failed = [c for c in result.tool_calls if c.is_error and c.blocked is None and c.name in missing]
        problems += [f"{c.name} failed: {_first_clause(c.output)}" for c in failed[:1]]
    if precision < 1:
        problems.append(f"unexpected calls: {', '.join(sorted(n for j, n in enumerate(names) if j not in paired_made))}")
    if not in_order:
        problems.append(f"calls out of order: {' -> '.join(names)}")
    if arguments < 1 and recall == 1:
        problems.append("wrong arguments")
    if facts < 1:
        problems.append(f"answer lacks: {', '.join(f for f in case.facts if f not in held)}")
    if not stop_ok:
        problems.append(f"ended by {result.stopped_by or 'the model'}, expected {case.stopped_by or 'the model'}")
    stopped = result.stopped_by or result.stop_reason.value
    return Score(case.name, trial, precision, recall, in_order, arguments, facts, stop_ok, result.seconds,
                 result.cost, stopped, _shown(ran), tuple(problems))


def _first_clause(output: str) -> str:
    """A failed tool's output cut to its first clause (problems are joined with '; ') and 60 columns."""
    text = (output or "no output").splitlines()[0].split("; ")[0]
    return display.clip(text, 60)


def _shown(calls: Sequence[Any]) -> tuple[str, ...]:
    return tuple(f"{c.name}({_compact(c.arguments)})" for c in calls)


def _compact(arguments: Any) -> str:
    if isinstance(arguments, Mapping):
        return ", ".join(f"{k}={v!r}" for k, v in arguments.items())
    return str(arguments)


# -- running a dataset ---------------------------------------------------------------------------------------


def offline_llm(case: Case, trial: int, *, api: str = "responses", latency_scale: float = 0.02) -> LLM:
    """The offline stand-in for one trial of ``case``: seeded by the trial (its ids, latencies and the case's fault
    draws differ from one trial to the next), latencies scaled by ``latency_scale``."""
    from .providers import connect
    from .standin import offline_model

    model = offline_model(seed=trial, latency_scale=latency_scale)
    draw = random.Random(f"{case.name}/{trial}")
    for kind, rate in case.faults.items():
        # The run's first requests meet the fault while the draws fall under its rate (at most one more than
        # the SDK retries, so a trial can fail); its retry-after is scaled like the latencies.
        times = 0
        while times <= case.retries and draw.random() < rate:
            times += 1
        if times:
            model.inject(kind, times=times, retry_after=0.5 * latency_scale)
    return connect("offline", api=api, offline_model=model, max_retries=case.retries)


def evaluate(
    cases: Sequence[Case],
    *,
    k: int = DEFAULT_K,
    llm: LLM | Callable[[Case, int], LLM] | None = None,
    api: str = "responses",
    latency_scale: float = 0.02,
    on_trial: Callable[[Score], None] | None = None,
) -> Report:
    """Run every case ``k`` times and grade each run.

    ``llm``: a connected model used for every trial (a real one: its own variance is what
    is measured), a function ``(case, trial) -> LLM``, or None: the offline stand-in on
    ``api``, seeded by the trial (:func:`offline_llm`). A run that raises counts as a failed
    trial with the exception as its problem.
    """
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"k must be a whole number of trials, 1 or more, got {k!r}")
    if not cases:
        raise ValueError("no cases to evaluate")
    names = [c.name for c in cases]
    if len(set(names)) != len(names):
        raise ValueError(f"case names must be unique: {sorted(n for n, m in Counter(names).items() if m > 1)}")
    scores: list[Score] = []
    for case in cases:
        for trial in range(k):
            model = _model_for(llm, case, trial, api, latency_scale)
            graded = run_trial(model, case, trial)
            scores.append(graded)
            if on_trial is not None:
                on_trial(graded)
    return Report(tuple(cases), tuple(scores), k)


def _model_for(llm: Any, case: Case, trial: int, api: str, latency_scale: float) -> LLM:
    if llm is None:
        return offline_llm(case, trial, api=api, latency_scale=latency_scale)
    if callable(llm) and not hasattr(llm, "run"):
        return llm(case, trial)
    return llm


def run_trial(llm: LLM, case: Case, trial: int = 0) -> Score:
    """One run of ``case`` on ``llm``, graded.

    A run that raised fails the trial. Its cost is what it spent before it raised, read from the
    partial result ``llm.run`` attaches to the exception (``exc.result``); without one the spend is
    unknown, so the cost is None and the report's cost figures leave the trial out rather than count $0.
    """
    tools = case.tools_for(trial)
    started = time.perf_counter()
    try:
        result = llm.run(case.question, tools=tools, max_rounds=case.max_rounds)
    except Exception as exc:  # noqa: BLE001 - a failed run is a failed trial, reported with its cause
        partial = _partial(exc)
        if partial is None:
            logger.info("case %s trial %d raised %s; its cost is unknown and left out of the cost figures",
                        case.name, trial, exc)
        else:
            logger.info("case %s trial %d raised %s after spending $%.6f", case.name, trial, exc, partial.cost)
        ran = [] if partial is None else [c for c in partial.tool_calls if not c.is_error and c.blocked is None]
        return Score(case.name, trial, 0.0, 0.0, False, 0.0, 0.0, False, time.perf_counter() - started,
                     None if partial is None else partial.cost, "error", _shown(ran),
                     (f"the run raised {type(exc).__name__}",))
    return score(case, result, trial=trial, tools=tools)


def _partial(exc: Exception) -> RunResult | None:
    """The run so far that ``llm.run`` attached to ``exc`` (its calls and its cost), or None."""
    from .rounds import RunResult  # imported here: only a run that raised needs it at run time

    partial = getattr(exc, "result", None)
    return partial if isinstance(partial, RunResult) else None


def pass_hat_k(trials: int, passes: int, k: int) -> float:
    """The chance that ``k`` trials drawn from ``trials`` (of which ``passes`` passed) all pass: C(c, k) / C(n, k)."""
    if k > trials:
        raise ValueError(f"pass^{k} needs at least {k} trials, got {trials}")
    return math.comb(passes, k) / math.comb(trials, k)


def _quantile(values: Sequence[float], q: float) -> float | None:
    """The ``q`` quantile of ``values`` (None when there are none)."""
    ordered = sorted(values)
    if not ordered:
        return None
    if len(ordered) == 1:
        return ordered[0]
    return statistics.quantiles(ordered, n=100, method="inclusive")[round(q * 100) - 1]


@dataclass(frozen=True)
class Report:
    """Every trial's score, by case and overall."""

    cases: tuple[Case, ...]
    scores: tuple[Score, ...]
    k: int

    def of(self, case: str) -> list[Score]:
        return [s for s in self.scores if s.case == case]

    def passes(self, case: str) -> int:
        return sum(s.passed for s in self.of(case))

    def pass_at(self, k: int) -> float:
        """pass^k over the cases (k=1: the share of trials that passed)."""
        return statistics.fmean(pass_hat_k(len(self.of(c.name)), self.passes(c.name), k) for c in self.cases)

    @property
    def pass_1(self) -> float:
        return self.pass_at(1)

    @property
    def pass_k(self) -> float:
        return self.pass_at(self.k)

    def latency(self, q: float) -> float:
        seconds = _quantile([s.seconds for s in self.scores], q)
        assert seconds is not None  # a report holds at least one trial (evaluate refuses k < 1 and no cases)
        return seconds

    def cost(self, q: float) -> float | None:
        """The ``q`` quantile of the cost per run, over the trials whose cost is known (None if none is)."""
        return _quantile([s.cost for s in self.scores if s.cost is not None], q)

    def cost_unknown(self) -> list[Score]:
        """The trials whose run raised before its cost was known: the cost figures leave them out."""
        return [s for s in self.scores if s.cost is None]

    def mean(self, what: str) -> float:
        """The mean of a :class:`Score` field over the trials where it is known."""
        return statistics.fmean(v for s in self.scores if (v := getattr(s, what)) is not None)

    def stops(self) -> Counter[str]:
        return Counter(s.stopped for s in self.scores)

    def failures(self) -> list[Score]:
        return [s for s in self.scores if not s.passed]

    def why(self, case: str) -> str:
        """Why ``case`` failed, in one line: its first failed trial's problems and the calls it made ('' if none)."""
        failed = next((s for s in self.scores if s.case == case and not s.passed), None)
        if failed is None:
            return ""
        made = ", ".join(failed.calls) if failed.calls else "none"
        return f"trial {failed.trial}: {'; '.join(failed.problems)}; calls that succeeded: {made}"

    def rows(self) -> list[dict[str, Any]]:
        """One row per case: its passes, pass^k, mean precision, recall and argument accuracy, p50 latency and cost."""
        rows = []
        for case in self.cases:
            mine = self.of(case.name)
            costs = [s.cost for s in mine if s.cost is not None]
            rows.append({
                "case": case.name, "kind": case.kind, "passes": self.passes(case.name), "trials": len(mine),
                "pass_k": pass_hat_k(len(mine), self.passes(case.name), self.k),
                "precision": statistics.fmean(s.precision for s in mine),
                "recall": statistics.fmean(s.recall for s in mine),
                "arguments": statistics.fmean(s.arguments for s in mine),
                "facts": statistics.fmean(s.facts for s in mine),
                "p50_s": statistics.median(s.seconds for s in mine),
                "cost_usd": statistics.fmean(costs) if costs else None,  # mean over the trials whose cost is known
            })
        return rows

    def table(self, *, timings: bool = True) -> str:
        """The per-case rows and the totals as plain text (``timings=False`` leaves the latencies out)."""
        head = f"{'case':<24} {'kind':<16} {'pass':>5} {'prec':>5} {'rec':>5} {'args':>5} {'facts':>5}"
        if timings:
            head += f" {'p50':>8}"
        lines = [head, "-" * display.width(head)]
        for row in self.rows():
            line = (f"{display.ljust(display.clip(row['case'], 24), 24)} {row['kind']:<16} "
                    f"{str(row['passes']) + '/' + str(row['trials']):>5} {row['precision']:>5.2f} "
                    f"{row['recall']:>5.2f} {row['arguments']:>5.2f} {row['facts']:>5.2f}")
            if timings:
                line += f" {row['p50_s']:>7.3f}s"
            lines.append(line)
        lines.append("-" * display.width(head))
        lines.append(self.summary(timings=timings))
        return "\n".join(lines)

    def summary(self, *, timings: bool = True) -> str:
        """pass^1 and pass^k, the mean scores, the cost per run, the stops (and the latency with ``timings``)."""
        stops = ", ".join(f"{reason} {count}" for reason, count in sorted(self.stops().items()))
        p50, p95 = self.cost(0.5), self.cost(0.95)
        cost = "unknown (every run raised before its cost was known)" if p50 is None or p95 is None else \
            f"p50 ${p50:.6f}, p95 ${p95:.6f}"
        text = (f"{len(self.cases)} cases x {self.k} trials: pass^1 {self.pass_1:.2f}, pass^{self.k} {self.pass_k:.2f}; "
                f"precision {self.mean('precision'):.2f}, recall {self.mean('recall'):.2f}, "
                f"arguments {self.mean('arguments'):.2f}\n"
                f"cost per run {cost}; stops: {stops}")
        unknown = len(self.cost_unknown())
        if unknown and p50 is not None:
            text += ("\n1 run that raised before its cost was known is left out of the cost figures" if unknown == 1
                     else f"\n{unknown} runs that raised before their cost was known are left out of the cost figures")
        if timings:
            text += f"\nlatency per run p50 {self.latency(0.5):.3f}s, p95 {self.latency(0.95):.3f}s"
        return text

    def to_json(self) -> str:
        """The report as JSON: the per-case rows, the totals and every failed trial's problems (for CI)."""
        return json.dumps({
            "k": self.k, "pass_1": self.pass_1, f"pass_{self.k}": self.pass_k,
            "latency_p50_s": self.latency(0.5), "latency_p95_s": self.latency(0.95),
            "cost_p50_usd": self.cost(0.5), "cost_p95_usd": self.cost(0.95),
            "cost_unknown_trials": len(self.cost_unknown()),  # runs that raised before their cost was known
            "stops": dict(self.stops()), "cases": self.rows(),
            "failures": [{"case": s.case, "trial": s.trial, "problems": list(s.problems)} for s in self.failures()],
        }, ensure_ascii=False, indent=1)


def gate(report: Report, min_pass_k: float) -> bool:
    """Does ``report`` clear the bar (pass^k at least ``min_pass_k``)? Logs the cases that hold it back."""
    ok = report.pass_k >= min_pass_k
    if not ok:
        for row in report.rows():
            if row["pass_k"] < 1:
                logger.warning("case %s passed %d of %d trials; %s", row["case"], row["passes"], row["trials"],
                               report.why(row["case"]))
    return ok
