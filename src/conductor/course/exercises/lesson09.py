"""Lesson 09's exercises: a checkpointed step by hand, what a restarted worker does with each call, step ids for
a parallel turn.

In the notebook::

    from conductor.course.exercises import ____, lesson09 as ex
    ex.q1.check()

Every check is deterministic and quick: an in-memory SQLite database, plain data, no worker process.
"""

from __future__ import annotations

import random
import sqlite3
from typing import Any

from .core import Exercise, Wrong, WrongAnswer, learner_call

__all__ = ["SETUP", "EXERCISES", "q1", "q2", "q3"]

SETUP = "from conductor.course.exercises import ____, lesson09 as ex"
"""The notebook cell that comes before the exercises."""

SCHEMA = "CREATE TABLE steps (run TEXT, step INTEGER, output TEXT, PRIMARY KEY (run, step))"

# -- exercise 1: a checkpointed step -------------------------------------------------------------------------


def checkpointed(db, run, step, action) -> str:
    """Step `step` of run `run`: its recorded output, else `action()`'s, recorded first."""
    row = db.execute("SELECT output FROM steps WHERE run = ? AND step = ?", (run, step)).fetchone()
    if row is not None:
        return row[0]
    output = action()
    db.execute("INSERT INTO steps VALUES (?, ?, ?)", (run, step, output))
    db.commit()
    return output


def _judge_checkpointed(checkpointed: Any) -> str:
    db = sqlite3.connect(":memory:")
    db.execute(SCHEMA)
    sent: list[str] = []

    def send(to: str) -> Any:
        def action() -> str:
            sent.append(to)
            return f"sent to {to}"
        return action

    first = learner_call("checkpointed(db, 'run-1', 1, send)", checkpointed, db, "run-1", 1, send("anna"))
    again = learner_call("checkpointed(db, 'run-1', 1, send) again", checkpointed, db, "run-1", 1, send("anna"))
    if sent.count("anna") != 1:
        raise Wrong(f"running run-1's step 1 twice sent the e-mail {sent.count('anna')} times: look the step up in "
                    "the table first, and return the recorded output when it is there")
    if first != "sent to anna" or again != first:
        raise Wrong(f"the two calls returned {first!r} and {again!r}; both should return the action's output, "
                    "'sent to anna' (the second one read from the table)")
    other = learner_call("checkpointed(db, 'run-2', 1, send)", checkpointed, db, "run-2", 1, send("bob"))
    if other != "sent to bob" or sent.count("bob") != 1:
        raise Wrong(f"step 1 of another run returned {other!r}: key the record by the run and the step, so two "
                    "runs never share a result")
    return "the action ran once per (run, step); a second call read the table, so a retried run sends nothing twice."


def _no_lookup() -> tuple[Any, ...]:
    def checkpointed(db, run, step, action) -> str:
        """Records, never reads: a retry runs the action again."""
        output = action()
        db.execute("INSERT OR REPLACE INTO steps VALUES (?, ?, ?)", (run, step, output))
        return output

    return (checkpointed,)


def _step_only() -> tuple[Any, ...]:
    def checkpointed(db, run, step, action) -> str:
        """Keyed by the step alone."""
        row = db.execute("SELECT output FROM steps WHERE step = ?", (step,)).fetchone()
        if row is not None:
            return row[0]
        output = action()
        db.execute("INSERT INTO steps VALUES (?, ?, ?)", (run, step, output))
        return output

    return (checkpointed,)


q1 = Exercise(
    number=1,
    title="A checkpointed step",
    task="""\
Write `checkpointed(db, run, step, action)`: return the output recorded for step `step` of run `run`
in the table `steps (run, step, output)`; when there is none, call `action()` (it takes no
arguments and returns text), record its output, and return it. The check sends an e-mail through it
twice for one run, then once for another run.""",
    stub='''\
def checkpointed(db, run, step, action) -> str:
    """Step `step` of run `run`: its recorded output, else `action()`'s, recorded first."""
    row = ____
    if row is not None:
        return row[0]
    output = action()
    ____
    return output


ex.q1.check()''',
    hint_text="Look the step up first: db.execute(\"SELECT output FROM steps WHERE run = ? AND step = ?\", (run, "
    "step)).fetchone(). After the action ran, INSERT (run, step, output) and db.commit().",
    names=("checkpointed",),
    judge=_judge_checkpointed,
    reference=lambda: (checkpointed,),
    solution_parts=(checkpointed,),
    wrong_answers=(
        WrongAnswer("never reads the table", _no_lookup, fix="look the step up"),
        WrongAnswer("keyed by the step only", _step_only, fix="key the record by the run and the step"),
    ),
)

# -- exercise 2: what a restarted worker does with a call ----------------------------------------------------


def on_restart(started, finished, idempotent) -> str:
    """What a restarted worker does with one tool call of the run it resumes."""
    if finished:
        return "replay"
    if started and not idempotent:
        return "ask"
    return "run"


# (started, finished, idempotent) and the answer
RESTART_CASES = (
    ((False, False, False), "run"), ((False, False, True), "run"), ((True, True, False), "replay"),
    ((True, True, True), "replay"), ((True, False, True), "run"), ((True, False, False), "ask"),
)


def _judge_on_restart(on_restart: Any) -> str:
    for args, expected in RESTART_CASES:
        got = learner_call(f"on_restart{args}", on_restart, *args)
        if got != expected:
            started, finished, idempotent = args
            why = {
                "replay": "its result is recorded: hand the recorded result back, never run it again",
                "ask": "it may have taken effect before the worker died and running it twice does harm: a person "
                       "decides",
                "run": "it never started, or running it twice does no harm (idempotent)",
            }[expected]
            raise Wrong(f"on_restart(started={started}, finished={finished}, idempotent={idempotent}) gives {got!r}; "
                        f"it should be {expected!r}: {why}")
    return "recorded calls replay, cut-off idempotent calls run again, cut-off others wait for a person."


def _always_rerun() -> tuple[Any, ...]:
    def on_restart(started, finished, idempotent) -> str:
        """Runs every unfinished call again."""
        return "replay" if finished else "run"

    return (on_restart,)


def _asks_too_often() -> tuple[Any, ...]:
    def on_restart(started, finished, idempotent) -> str:
        """Asks for every call that started, idempotent or not."""
        if finished:
            return "replay"
        return "ask" if started else "run"

    return (on_restart,)


q2 = Exercise(
    number=2,
    title="What a restarted worker does with a call",
    task="""\
A worker died and another one resumes the run. For one tool call, it knows whether a "started"
step was recorded, whether the call's result was recorded (`finished`), and whether the tool is
marked idempotent. Write `on_restart(started, finished, idempotent)` returning `"replay"` (hand
back the recorded result), `"run"` (run it now) or `"ask"` (park the run for a person).""",
    stub='''\
def on_restart(started, finished, idempotent) -> str:
    """What a restarted worker does with one tool call of the run it resumes."""
    if finished:
        return ____
    ____
    return "run"


ex.q2.check()''',
    hint_text="A recorded result is always replayed. A call that started but never finished may have taken "
    "effect: run it again only when the tool is idempotent, otherwise \"ask\".",
    names=("on_restart",),
    judge=_judge_on_restart,
    reference=lambda: (on_restart,),
    solution_parts=(on_restart,),
    wrong_answers=(
        WrongAnswer("runs a cut-off e-mail again", _always_rerun, fix="a person decides"),
        WrongAnswer("asks about idempotent calls too", _asks_too_often, fix="idempotent"),
    ),
)

# -- exercise 3: step ids for a parallel turn ----------------------------------------------------------------


def reserve_steps(calls, finished, next_step) -> dict[str, int]:
    """Each call's step id, so a replay hands each call its own recorded result."""
    return {call: next_step + i for i, call in enumerate(calls)}


def _judge_reserve_steps(reserve_steps: Any) -> str:
    calls = ["call_a", "call_b", "call_c", "call_d"]
    rng = random.Random(9)
    seen = []
    for _ in range(3):
        finished = rng.sample(calls, len(calls))
        got = learner_call(f"reserve_steps(calls, {finished}, 7)", reserve_steps, list(calls), finished, 7)
        if not isinstance(got, dict) or sorted(got) != sorted(calls):
            raise Wrong(f"reserve_steps(...) returned {got!r}: a dict from each call id to its step id")
        seen.append(got)
    if any(run != seen[0] for run in seen[1:]):
        raise Wrong(f"the same turn got step ids {seen[0]} and then {seen[1]}: numbered in the order the calls "
                    "finished, a replay (whose calls finish in another order) would hand a call another call's "
                    "result; number them in the order the model asked for them")
    if seen[0] != {c: 7 + i for i, c in enumerate(calls)}:
        raise Wrong(f"got {seen[0]}: the calls should take the step ids next_step, next_step + 1, ... in call order")
    return "step ids follow the calls' order, never the order they finished: every replay pairs them the same way."


def _by_finish() -> tuple[Any, ...]:
    def reserve_steps(calls, finished, next_step) -> dict[str, int]:
        """Numbered as they finished."""
        return {call: next_step + i for i, call in enumerate(finished)}

    return (reserve_steps,)


q3 = Exercise(
    number=3,
    title="Step ids for a parallel turn",
    task="""\
Three or four calls of one turn run at the same time, and each is recorded as a step with an id.
Write `reserve_steps(calls, finished, next_step)`: given the call ids in the order the model asked
for them, the order in which they happened to finish this time, and the next free step id, return
each call's step id such that a replay, whose calls finish in another order, pairs every call with
its own recorded result.""",
    stub='''\
def reserve_steps(calls, finished, next_step) -> dict[str, int]:
    """Each call's step id, so a replay hands each call its own recorded result."""
    return ____


ex.q3.check()''',
    hint_text="The order the calls finish changes from run to run; the order the model asked for them does not. "
    "{call: next_step + i for i, call in enumerate(calls)}.",
    names=("reserve_steps",),
    judge=_judge_reserve_steps,
    reference=lambda: (reserve_steps,),
    solution_parts=(reserve_steps,),
    wrong_answers=(WrongAnswer("numbered as they finished", _by_finish, fix="in the order the model asked"),),
)

EXERCISES = (q1, q2, q3)
