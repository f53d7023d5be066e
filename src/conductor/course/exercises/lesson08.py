"""Lesson 08's exercises: pass^k from a case's trials, a trajectory scored by its tool calls, a run's
input tokens read from its spans.

In the notebook::

    from conductor.course.exercises import ____, lesson08 as ex
    ex.q1.check()

Every check is deterministic: the trials and trajectories are the check's own, and the traced runs
go to a fresh zero-latency offline model.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from ... import tracing
from .. import scenarios as sc
from .core import Exercise, Wrong, WrongAnswer, learner_call, offline_llm

__all__ = ["SETUP", "EXERCISES", "q1", "q2", "q3"]

SETUP = "from conductor.course.exercises import ____, lesson08 as ex"
"""The notebook cell that comes before the exercises."""

# -- exercise 1: pass^k --------------------------------------------------------------------------------------


def pass_hat_k(trials, passes, k) -> float:
    """The chance that k trials drawn from `trials` runs, `passes` of which passed, all pass."""
    return math.comb(passes, k) / math.comb(trials, k)


# (trials, passes, k) and pass^k
PASS_CASES = (((5, 5, 5), 1.0), ((5, 4, 5), 0.0), ((5, 4, 1), 0.8), ((5, 4, 2), 0.6), ((8, 6, 3), 20 / 56))


def _judge_pass_hat_k(pass_hat_k: Any) -> str:
    for args, expected in PASS_CASES:
        got = learner_call(f"pass_hat_k{args}", pass_hat_k, *args)
        if not isinstance(got, int | float) or not math.isclose(got, expected, rel_tol=1e-9, abs_tol=1e-12):
            trials, passes, k = args
            naive = (passes / trials) ** k
            hint = (" (passes / trials) ** k treats the trials as drawn with replacement: count the ways to pick k "
                    "of the passes, C(passes, k), over the ways to pick k of the trials, C(trials, k)."
                    if isinstance(got, int | float) and math.isclose(got, naive, rel_tol=1e-9) else "")
            raise Wrong(f"pass_hat_k{args} gives {got!r}; it should be {expected:.4g}: the chance that k trials "
                        f"drawn from the {trials} all passed.{hint}")
    return ("a case that passed 4 of 5 trials has pass^1 0.8 but pass^5 0: a user who asks five times meets "
            "the failure.")


def _naive() -> tuple[Any, ...]:
    def pass_hat_k(trials, passes, k) -> float:
        """Draws with replacement."""
        return (passes / trials) ** k

    return (pass_hat_k,)


def _pass_at_1() -> tuple[Any, ...]:
    def pass_hat_k(trials, passes, k) -> float:
        """Ignores k."""
        return passes / trials

    return (pass_hat_k,)


q1 = Exercise(
    number=1,
    title="pass^k from a case's trials",
    task="""\
Write `pass_hat_k(trials, passes, k)`: the chance that `k` trials drawn (without putting back) from
`trials` runs of a case, `passes` of which passed, all pass: the report's `pass` column gives a
case's `passes/trials`, and the pass^k of its summary line (`report.pass_k`) is this chance averaged
over the cases. The check tries a few counts, among them a case that passed 4 of 5 trials.""",
    stub='''\
def pass_hat_k(trials, passes, k) -> float:
    """The chance that k trials drawn from `trials` runs, `passes` of which passed, all pass."""
    return ____


ex.q1.check()''',
    hint_text="Count the ways to pick k runs among the passes, math.comb(passes, k), and divide by the ways to "
    "pick k runs among all the trials, math.comb(trials, k). (passes / trials) ** k is close, but it draws the "
    "same run twice.",
    names=("pass_hat_k",),
    judge=_judge_pass_hat_k,
    reference=lambda: (pass_hat_k,),
    solution_parts=("import math", pass_hat_k),
    wrong_answers=(
        WrongAnswer("draws with replacement", _naive, fix="C(passes, k)"),
        WrongAnswer("ignores k", _pass_at_1, fix="the chance that k trials"),
    ),
)

# -- exercise 2: precision and recall of the tool calls ------------------------------------------------------


def tool_precision_recall(expected, made) -> tuple[float, float]:
    """Precision and recall of the calls made, by tool name, repeats counted."""
    matched = sum((Counter(expected) & Counter(made)).values())
    precision = matched / len(made) if made else 1.0
    recall = matched / len(expected) if expected else (1.0 if not made else 0.0)
    return precision, recall


# (expected names, names of the calls made) and (precision, recall)
TRAJECTORIES = (
    ((["get_weather", "suggest_clothing"], ["get_weather", "suggest_clothing"]), (1.0, 1.0)),
    ((["get_weather"], ["get_weather", "calculate"]), (0.5, 1.0)),
    ((["get_weather", "get_weather"], ["get_weather"]), (1.0, 0.5)),
    ((["get_weather"], ["get_weather", "get_weather", "get_weather"]), (1 / 3, 1.0)),
    # A parallel-call case done right: matching sets instead of counts would score it (0.5, 0.5).
    ((["get_weather", "get_weather"], ["get_weather", "get_weather"]), (1.0, 1.0)),
    ((["get_weather", "get_weather", "suggest_clothing"], ["get_weather", "get_weather"]), (1.0, 2 / 3)),
    (([], []), (1.0, 1.0)),
    (([], ["get_weather"]), (0.0, 0.0)),
)


def _judge_precision_recall(tool_precision_recall: Any) -> str:
    for (expected, made), want in TRAJECTORIES:
        got = learner_call(f"tool_precision_recall({expected}, {made})", tool_precision_recall, list(expected),
                           list(made))
        ok = isinstance(got, tuple | list) and len(got) == 2 and all(
            isinstance(v, int | float) and math.isclose(v, w, abs_tol=1e-9) for v, w in zip(got, want))
        if not ok:
            why = ("repeats count: two calls to get_weather are two calls (a Counter, not a set)"
                   if len(set(made)) < len(made) or len(set(expected)) < len(expected) else
                   "precision divides the matched calls by the calls made, recall by the calls expected")
            raise Wrong(f"tool_precision_recall({expected}, {made}) gives {got!r}; it should be "
                        f"({want[0]:.3g}, {want[1]:.3g}): {why}.")
    return ("an extra call lowers precision, a missing one lowers recall, and three calls where one was "
            "expected score 0.33, however right the answer's text is.")


def _as_sets() -> tuple[Any, ...]:
    def tool_precision_recall(expected, made) -> tuple[float, float]:
        """Compares sets of names."""
        matched = len(set(expected) & set(made))
        return (matched / len(set(made)) if made else 1.0,
                matched / len(set(expected)) if expected else (1.0 if not made else 0.0))

    return (tool_precision_recall,)


def _set_matches() -> tuple[Any, ...]:
    def tool_precision_recall(expected, made) -> tuple[float, float]:
        """Counts the names both have once, but divides by every call."""
        matched = len(set(expected) & set(made))
        return (matched / len(made) if made else 1.0,
                matched / len(expected) if expected else (1.0 if not made else 0.0))

    return (tool_precision_recall,)


def _swapped() -> tuple[Any, ...]:
    def tool_precision_recall(expected, made) -> tuple[float, float]:
        """Divides by the wrong totals."""
        matched = sum((Counter(expected) & Counter(made)).values())
        return (matched / len(expected) if expected else 1.0, matched / len(made) if made else 1.0)

    return (tool_precision_recall,)


q2 = Exercise(
    number=2,
    title="Precision and recall of a trajectory's tool calls",
    task="""\
Write `tool_precision_recall(expected, made)`: given the names of the tool calls a right run makes
and of those a run made, return `(precision, recall)`: the share of the calls made that were
expected, and the share of the expected calls that were made. Repeats count (two weather lookups
are two calls). With no call made, precision is 1.0 (nothing made was wrong); with none expected,
recall is 1.0 when none was made and 0.0 otherwise.""",
    stub='''\
def tool_precision_recall(expected, made) -> tuple[float, float]:
    """Precision and recall of the calls made, by tool name, repeats counted."""
    matched = ____
    return ____


ex.q2.check()''',
    hint_text="collections.Counter(expected) & Counter(made) keeps each name as often as both have it; the sum "
    "of its values is the matched calls. Precision divides them by len(made), recall by len(expected).",
    names=("tool_precision_recall",),
    judge=_judge_precision_recall,
    reference=lambda: (tool_precision_recall,),
    solution_parts=("from collections import Counter", tool_precision_recall),
    wrong_answers=(
        WrongAnswer("compares sets of names", _as_sets, fix="a Counter, not a set"),
        WrongAnswer("matches a set, divides by every call", _set_matches, fix="a Counter, not a set"),
        WrongAnswer("divides by the wrong totals", _swapped, fix="divides the matched calls by the calls made"),
    ),
)

# -- exercise 3: a run's input tokens, from its spans ---------------------------------------------------------


def input_tokens_of(spans) -> int:
    """The input tokens of every model request of a run, read from the run's finished spans."""
    return sum(s.attributes["gen_ai.usage.input_tokens"] for s in spans
               if s.attributes.get("gen_ai.operation.name") == "chat")


TRACED_QUESTIONS = ("上海今天天气怎么样?应该穿什么衣服?", "北京和上海今天天气怎么样?")


def _judge_input_tokens(input_tokens_of: Any) -> str:
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    llm = offline_llm("chat")
    for question in TRACED_QUESTIONS:
        exporter = InMemorySpanExporter()
        with tracing.enabled_for(exporter):
            result = llm.run(question, tools=sc.weather_tools())
        spans = [s for s in exporter.get_finished_spans() if s.instrumentation_scope.name == "conductor"]
        got = learner_call("input_tokens_of(spans)", input_tokens_of, spans)
        want = result.usage.input_tokens
        if got != want:
            why = ("the invoke_agent span carries the run's total too: sum over the chat spans only "
                   "(gen_ai.operation.name == 'chat')" if got == 2 * want else
                   "every request has its own chat span: add them all")
            raise Wrong(f"for {question!r} ({result.api_calls} requests) input_tokens_of gives {got!r}; the run "
                        f"used {want} input tokens: {why}.")
    return ("the chat spans' input tokens add up to result.usage.input_tokens; the invoke_agent span "
            "holds the same total once more.")


def _every_span() -> tuple[Any, ...]:
    def input_tokens_of(spans) -> int:
        """Sums every span that has the attribute."""
        return sum(s.attributes.get("gen_ai.usage.input_tokens", 0) for s in spans)

    return (input_tokens_of,)


def _first_request() -> tuple[Any, ...]:
    def input_tokens_of(spans) -> int:
        """Reads the first chat span only."""
        chats = [s for s in spans if s.attributes.get("gen_ai.operation.name") == "chat"]
        return chats[0].attributes["gen_ai.usage.input_tokens"]

    return (input_tokens_of,)


q3 = Exercise(
    number=3,
    title="A run's input tokens, from its spans",
    task="""A backend shows you spans, not `RunResult`s. Write `input_tokens_of(spans)`: the input tokens of
every model request of one run, given the run's finished spans (OpenTelemetry `ReadableSpan`s, each
with `.name` and `.attributes`). The check traces two runs on a fresh offline model and compares
your total with each run's `result.usage.input_tokens`.""",
    stub='''\
def input_tokens_of(spans) -> int:
    """The input tokens of every model request of a run, read from the run's finished spans."""
    return ____


ex.q3.check()''',
    hint_text="Each model request is a span whose gen_ai.operation.name is 'chat', with its own "
    "gen_ai.usage.input_tokens. The invoke_agent span carries the run's total as well, so summing every "
    "span that has the attribute counts each token twice.",
    names=("input_tokens_of",),
    judge=_judge_input_tokens,
    reference=lambda: (input_tokens_of,),
    solution_parts=(input_tokens_of,),
    wrong_answers=(
        WrongAnswer("sums every span", _every_span, fix="sum over the chat spans only"),
        WrongAnswer("reads one request", _first_request, fix="add them all"),
    ),
)

EXERCISES: tuple[Exercise, ...] = (q1, q2, q3)
