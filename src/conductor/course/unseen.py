"""Held-out sets of whole conversations, to measure the offline model on tools it has never seen.

:mod:`conductor.course.offline_suite` judges a first turn with one tool offered. A learner offers
all the tools of a notebook at once and reads the final answer, so a set here offers its six tools
with every question, lets the run go on for a few rounds (a chain's second call is made from the
first result), and judges the whole run:

* the calls made across every round, against the expected ones (any order);
* for a question that should be declined (or partly declined), that the reply says what is left in
  words a person would write (``says``: words the reply must hold);
* whether the final answer *reads like code*: a function or parameter identifier, "the question does
  not say", Python exception text, the stand-in describing itself, a bare number where a unit
  belongs, ``True``/``False``/``None``, a field said as "created yes", or a dict or list dump.

Run it on a set file (one defining ``TOOLS`` and ``CASES``, made with :func:`expect`)::

    python -m conductor.course.unseen tests/heldout/unseen_k.py [more files...]

It prints per set and API: correct, wrong calls, missed calls, replies that read like code, and
calls carrying a value the question did not state (see :func:`offline_suite.unstated_values`).
"""

from __future__ import annotations

import argparse
import logging
import re
import runpy
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..tools import Tool, tool
from .offline_suite import _comparable, _leaves, _same, describe_call, unstated_values

__all__ = ["Expect", "expect", "Outcome", "judge_run", "code_marks", "score_set", "main"]

logger = logging.getLogger(__name__)

APIS = ("responses", "chat", "messages")
MAX_ROUNDS = 4  # a chain of two calls and its answer fit; more rounds would hide a loop


@dataclass(frozen=True)
class Expect:
    """One question and what a careful model does with it across the whole run.

    ``calls``: (tool, arguments) of every call expected (any order, each once). ``says``: words the
    final answer must hold (what is left undone or asked for, the choices of a Literal, "English" and
    "Chinese" for a language the model does not read); empty means the answer is not checked for words.
    ``vouched``: extra (path, value) pairs the writer read in the question (``True`` for "urgent").
    """

    question: str
    calls: tuple[tuple[str, Mapping[str, Any]], ...] = ()
    says: tuple[str, ...] = ()
    note: str = ""

    @property
    def declines(self) -> bool:
        return not self.calls


def expect(question: str, *calls: tuple[Any, Mapping[str, Any]], says: Sequence[str] = (), note: str = "") -> Expect:
    """A case: ``calls`` as (tool or its name, arguments); none means the right answer makes no call."""
    named = tuple((c if isinstance(c, str) else tool(c).name, dict(a)) for c, a in calls)
    return Expect(question, named, tuple(says), note)


@dataclass(frozen=True)
class Outcome:
    """How one run compares with its case."""

    case: Expect
    calls: tuple[tuple[str, Any], ...]
    answer: str
    verdict: str  # correct | wrong | missed
    code: tuple[str, ...]  # why the answer reads like code (empty: it does not)
    unstated: tuple[str, ...]
    why: str = ""


# -- what reads like code ------------------------------------------------------------------------------

_IDENTIFIER = re.compile(r"\b[A-Za-z][a-z0-9]*(?:_[A-Za-z0-9]+)+\b|\b[a-z]+[A-Z][a-z]+[A-Za-z]*\b")
_EXCEPTION = re.compile(
    r"Traceback|\b[A-Z][a-z]+(?:Error|Exception)\b|validation error|Input should be|Field required|"
    r"pydantic|errors\.pydantic|\bargs?\b\s*[=:]|raised|\bkwargs\b", re.IGNORECASE)
_SELF = re.compile(r"\bstand-?in\b|离线替身|offline model|I am an? (?:offline|rule)", re.IGNORECASE)
_DEVELOPER = re.compile(r"the question does not say|问题里没有给出|问题中没有给出|the question (?:doesn't|did not) (?:say|state)",
                        re.IGNORECASE)
_LITERALS = re.compile(r"\b(?:True|False|None|null)\b")
_FIELD_BOOL = re.compile(r"\b[A-Za-z][a-z]+ (?:yes|no)(?=[,.;)]|\s\(|$)"
                         r"|[\u4e00-\u9fff](?:是|否)(?=[,,。;)]|$)", re.MULTILINE)
_DUMP = re.compile(r"[{\[]\s*['\"]|['\"]\w+['\"]\s*:")
_BARE = re.compile(r"(?:\b(?:is|are|was|equals|comes to)|(?<!\d)[:=]|是|为|等于)\s*-?(?<![\d:])"
                   r"\d[\d,]*(?:\.\d+)?(?!\.?\d|,\d)\s*(?=[(.。,,;)(]|$)", re.MULTILINE)


def code_marks(answer: str, tools: Sequence[Tool]) -> list[str]:
    """Why ``answer`` reads like code or a note to a developer (empty: it reads like a person's)."""
    marks = []
    names = {t.name for t in tools} | {p for t in tools for p in t.arguments_model.model_fields if "_" in p}
    for found in _IDENTIFIER.findall(answer):
        if found in names or "_" in found:
            marks.append(f"identifier {found!r}")
            break
    for pattern, why in ((_EXCEPTION, "exception text"), (_SELF, "describes the stand-in"),
                         (_DEVELOPER, "'the question does not say'"), (_LITERALS, "True/False/None"),
                         (_FIELD_BOOL, "a field said as yes/no"), (_DUMP, "a dict or list dump"),
                         (_BARE, "a bare number")):
        hit = pattern.search(answer)
        if hit:
            marks.append(f"{why} ({hit.group(0).strip()!r})")
    return marks


# -- judging one run -------------------------------------------------------------------------------------


def _matches(tools: Mapping[str, Tool], expected: Sequence[tuple[str, Mapping[str, Any]]],
             made: Sequence[tuple[str, Any]]) -> tuple[int, int]:
    """(made calls matching no expected one, expected calls not made)."""
    remaining = [(name, _comparable(tools[name], args)) for name, args in expected]
    wrong = 0
    for name, arguments in made:
        actual = _comparable(tools[name], arguments) if name in tools else None
        hit = next((i for i, (n, e) in enumerate(remaining) if n == name and actual is not None and _same(e, actual)),
                   None)
        if hit is None:
            wrong += 1
        else:
            remaining.pop(hit)
    return wrong, len(remaining)


def judge_run(case: Expect, tools: Sequence[Tool], made: Sequence[tuple[str, Any]], answer: str,
              results: Sequence[Any] = ()) -> Outcome:
    """The outcome of one run that made ``made`` calls and ended with ``answer``.

    ``results``: the tools' results in the run; a later call may carry a value read from them (a chain).
    """
    by_name = {t.name: t for t in tools}
    wrong, missing = _matches(by_name, case.calls, made)
    said = all(word.casefold() in answer.casefold() for word in case.says)
    if wrong:
        verdict, why = "wrong", "a call the question did not ask for"
    elif missing:
        verdict, why = "missed", f"{missing} expected call(s) not made"
    elif not said:
        verdict, why = "missed", f"the answer does not say {', '.join(repr(w) for w in case.says)}"
    elif not answer.strip():
        verdict, why = "missed", "no answer"
    else:
        verdict, why = "correct", ""
    vouched = [leaf for _, args in case.calls for leaf in _leaves(args, "")]
    context = case.question + " " + " ".join(str(r) for r in results)
    unstated = tuple(value for name, args in made if name in by_name
                     for value in unstated_values(by_name[name], args, context, vouched=vouched))
    return Outcome(case, tuple(made), answer, verdict, tuple(code_marks(answer, tools)), unstated, why)


def run_case(llm: Any, case: Expect, tools: Sequence[Tool]) -> Outcome:
    """Ask ``case.question`` offering every tool of the set; judge every call of the run and its answer."""
    result = llm.run(case.question, tools=list(tools), max_rounds=MAX_ROUNDS)
    made = [(c.name, c.arguments) for r in result.rounds for c in r.tool_calls]
    results = [c.output for r in result.rounds for c in r.tool_calls]
    return judge_run(case, tools, made, result.answer or "", results)


@dataclass(frozen=True)
class SetScore:
    """One set's outcomes on one API."""

    name: str
    api: str
    outcomes: tuple[Outcome, ...] = field(repr=False)

    def count(self, verdict: str) -> int:
        return sum(1 for o in self.outcomes if o.verdict == verdict)

    @property
    def code(self) -> int:
        return sum(1 for o in self.outcomes if o.code)

    @property
    def unstated(self) -> int:
        return sum(1 for o in self.outcomes if o.unstated)

    @property
    def share(self) -> float:
        return self.count("correct") / len(self.outcomes)


def score_set(name: str, tools: Sequence[Tool], cases: Sequence[Expect], api: str) -> SetScore:
    """Every case of one set through ``api`` on a fresh zero-latency offline model (seed 0)."""
    from ..offline import LatencyModel, OfflineModel
    from ..providers import connect

    llm = connect("offline", api=api, offline_model=OfflineModel(seed=0, latency=LatencyModel.instant()))
    return SetScore(name, api, tuple(run_case(llm, case, tools) for case in cases))


def _load(path: str) -> tuple[str, list[Tool], list[Expect]]:
    namespace = runpy.run_path(path)
    tools, cases = namespace.get("TOOLS"), namespace.get("CASES")
    if not tools or not cases:
        raise ValueError(f"{path} must define TOOLS (its tools) and CASES (made with conductor.course.unseen.expect)")
    return path.rsplit("/", 1)[-1].removesuffix(".py"), [tool(t) for t in tools], list(cases)


def _show(outcome: Outcome) -> list[str]:
    got = "; ".join(describe_call(n, a) for n, a in outcome.calls) or "no call"
    lines = [f"  Q: {outcome.case.question}",
             f"     expected: {'; '.join(describe_call(n, a) for n, a in outcome.case.calls) or 'no call'}"
             + (f", saying {', '.join(outcome.case.says)}" if outcome.case.says else ""),
             f"     {outcome.verdict}: {got}" + (f" ({outcome.why})" if outcome.why else "")]
    if outcome.code:
        lines.append(f"     reads like code: {'; '.join(outcome.code)}")
    if outcome.unstated:
        lines.append(f"     unstated: {', '.join(outcome.unstated)}")
    lines.append(f"     answer: {' '.join(outcome.answer.split())[:300]}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """Print each set's figures per API; ``--failures`` lists every case that is not clean."""
    parser = argparse.ArgumentParser(prog="python -m conductor.course.unseen", description=__doc__.split("\n")[0])
    parser.add_argument("sets", nargs="+", help="set files defining TOOLS and CASES")
    parser.add_argument("--api", action="append", choices=APIS, help="one API (repeat for more); default: all three")
    parser.add_argument("--failures", action="store_true",
                        help="list the cases that are wrong, missed or read like code")
    args = parser.parse_args(argv)
    logging.getLogger("conductor").setLevel(logging.ERROR)  # the one-time hint about real models is not a figure
    print(f"{'set':<12} {'api':<10} {'cases':>5} {'correct':>8} {'wrong':>6} {'missed':>7} {'code-like':>10} "
          f"{'unstated':>9} {'share':>6}")
    failures: list[str] = []
    for path in args.sets:
        name, tools, cases = _load(path)
        for api in args.api or APIS:
            s = score_set(name, tools, cases, api)
            print(f"{name:<12} {api:<10} {len(cases):>5} {s.count('correct'):>8} {s.count('wrong'):>6} "
                  f"{s.count('missed'):>7} {s.code:>10} {s.unstated:>9} {s.share:>6.0%}")
            if args.failures:
                bad = [o for o in s.outcomes if o.verdict != "correct" or o.code or o.unstated]
                failures += [f"{name} / {api}"] + [line for o in bad for line in _show(o)]
    if failures:
        print("\n".join(failures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
