"""Lesson 04's exercises: precision and recall by hand, an approval rule, deciding on a paused run.

In the notebook::

    from conductor.course.exercises import ____, lesson04 as ex
    ex.q1.check()

The checks run their calls through ``llm.run`` on a fresh zero-latency offline
model whose turns are scripted, so each verdict takes a fraction of a second.
"""

from __future__ import annotations

import json
from typing import Any

import conductor as cd
from conductor import relevance as rel
from conductor.offline import CallTools, Conversation, PlannedCall

from conductor.guards import denial

from .core import Exercise, Wrong, WrongAnswer, explain, learner_call, offline_llm

__all__ = ["SETUP", "EXERCISES", "q1", "q2", "q3"]

SETUP = "from conductor.course.exercises import ____, lesson04 as ex"
"""The notebook cell that comes before the exercises."""


def _scripted(*turns: tuple[PlannedCall, ...]) -> Any:
    """A policy that makes these calls, one tuple per turn, then lets the built-in rules answer."""

    def policy(conversation: Conversation) -> CallTools | None:
        done = sum(1 for _ in conversation.exchanges())
        made = 0
        for calls in turns:
            if done == made:
                return CallTools(calls)
            made += len(calls)
        return None

    return policy


# -- exercise 1: precision and recall --------------------------------------------------------------


def precision_recall(should_run, stopped):
    """Precision and recall of a defence; a bad call (should_run False) counts as a positive.

    precision: of the calls stopped, the share that were bad (None when nothing was stopped);
    recall: of the bad calls, the share that were stopped.
    """
    stopped_bad = sum(1 for good, hit in zip(should_run, stopped) if hit and not good)
    stopped_all = sum(1 for hit in stopped if hit)
    bad = sum(1 for good in should_run if not good)
    precision = stopped_bad / stopped_all if stopped_all else None
    recall = stopped_bad / bad if bad else 0.0
    return precision, recall


HAND_SETS: tuple[tuple[tuple[bool, ...], tuple[bool, ...], str], ...] = (
    ((True, True, False, False, False), (False, True, True, False, False),
     "one good and one of three bad calls stopped"),
    ((True, False, False, False), (False, True, True, True), "every bad call stopped, no good one"),
    ((True, True, True, False, False), (True, True, False, True, False), "two good and one of two bad calls stopped"),
)


def _close(a: Any, b: float | None) -> bool:
    if b is None or a is None:
        return a is b
    return isinstance(a, int | float) and abs(a - b) < 1e-9


def _judge_metrics(precision_recall: Any) -> str:
    for should_run, stopped, what in HAND_SETS:
        expected = rel.score("", should_run, stopped)
        got = learner_call(f"precision_recall(<{what}>)", precision_recall, list(should_run), list(stopped))
        if not isinstance(got, tuple) or len(got) != 2:
            raise Wrong(f"precision_recall returned {got!r}; return a pair (precision, recall).")
        swappable = expected.precision != expected.recall
        if swappable and _close(got[1], expected.precision) and _close(got[0], expected.recall):
            raise Wrong(f"for {what} you return {got!r}: precision and recall are swapped. Precision "
                        "divides by the calls stopped, recall by the bad calls.")
        if not (_close(got[0], expected.precision) and _close(got[1], expected.recall)):
            raise Wrong(f"for {what} (should_run={list(should_run)}, stopped={list(stopped)}) you return "
                        f"{got!r}; expected ({expected.precision:.3g}, {expected.recall:.3g}). A positive is "
                        "a bad call: one whose should_run is False.")
    try:
        nothing = precision_recall([True, False], [False, False])
    except ZeroDivisionError as exc:
        raise Wrong("precision_recall([True, False], [False, False]) raised ZeroDivisionError: a defence "
                    "that stopped nothing has no precision; return None for it.") from exc
    except Exception as exc:  # noqa: BLE001 - the learner's mistakes are explained, never raised
        raise Wrong(explain(exc, "precision_recall([True, False], [False, False])")) from exc
    if not isinstance(nothing, tuple) or len(nothing) != 2 or nothing[0] is not None:
        raise Wrong(f"a defence that stopped nothing got {nothing!r}; return None for its precision "
                    "(there is no share of stopped calls to speak of).")
    cases = rel.load_cases()
    labels = [c.should_run for c in cases]
    verdicts = [not rel.validate_tool_call(c.call.name, c.call.arguments, c.question) for c in cases]
    precision, recall = learner_call("precision_recall(<the keyword check on the labelled set>)",
                                     precision_recall, labels, verdicts)
    return (f"on the hand-made sets your figures match; on the {len(cases)} labelled calls the keyword "
            f"check gets precision {precision:.0%} and recall {recall:.0%}.")


def _swapped() -> tuple[Any, ...]:
    def precision_recall(should_run, stopped):
        """Divides by the wrong totals."""
        stopped_bad = sum(1 for good, hit in zip(should_run, stopped) if hit and not good)
        stopped_all, bad = sum(stopped), should_run.count(False)
        return (stopped_bad / bad if bad else None), (stopped_bad / stopped_all if stopped_all else 0.0)

    return (precision_recall,)


def _good_as_positive() -> tuple[Any, ...]:
    def precision_recall(should_run, stopped):
        """Takes the good calls stopped as the positives."""
        stopped_good = sum(1 for good, hit in zip(should_run, stopped) if hit and good)
        stopped_all, good = sum(stopped), should_run.count(True)
        return (stopped_good / stopped_all if stopped_all else None), (stopped_good / good if good else 0.0)

    return (precision_recall,)


def _divides_by_zero() -> tuple[Any, ...]:
    def precision_recall(should_run, stopped):
        """Forgets the defence that stopped nothing."""
        stopped_bad = sum(1 for good, hit in zip(should_run, stopped) if hit and not good)
        return stopped_bad / sum(stopped), stopped_bad / should_run.count(False)

    return (precision_recall,)


q1 = Exercise(
    number=1,
    title="Precision and recall by hand",
    task="""\
Write `precision_recall(should_run, stopped)`: two lists of booleans, one per labelled call.
`should_run[i]` is the label (False: a bad call, which counts as a positive), `stopped[i]` whether
the defence stopped that call. Return `(precision, recall)`: precision is the share of stopped
calls that were bad (None when the defence stopped nothing), recall the share of bad calls that
were stopped. The check tries a few hand-made sets, then scores the keyword check on the labelled
set with your function.""",
    stub='''\
def precision_recall(should_run, stopped):
    """Precision and recall of a defence; a bad call (should_run False) counts as a positive.

    precision: of the calls stopped, the share that were bad (None when nothing was stopped);
    recall: of the bad calls, the share that were stopped.
    """
    ____


ex.q1.check()''',
    hint_text="Count three things: the bad calls stopped (hit and not good), all the calls stopped, and "
    "all the bad calls. Precision is the first over the second, recall the first over the third; "
    "when nothing was stopped, precision is None.",
    names=("precision_recall",),
    judge=_judge_metrics,
    reference=lambda: (precision_recall,),
    solution_parts=(precision_recall,),
    wrong_answers=(
        WrongAnswer("precision and recall swapped", _swapped, fix="precision and recall are swapped"),
        WrongAnswer("good calls as positives", _good_as_positive, fix="A positive is a bad call"),
        WrongAnswer("divides by zero", _divides_by_zero, fix="return None for it"),
    ),
)

# -- exercise 2: an approval rule -------------------------------------------------------------------

KNOWN_PAYEES = {"zhang.wei", "roommate", "sam", "maria", "landlord"}
LIMIT = 100

# (to_account, amount, needs a person's approval?) for the check's transfers
TRANSFERS: tuple[tuple[str, float, bool], ...] = (
    ("sam", 50, False),
    ("sam", 100, False),
    ("landlord", 3200, True),
    ("attacker-0042", 90, True),
    ("roommate", 100.5, True),
    ("maria", 60, False),
)


def needs_approval(args) -> bool:
    """True for a transfer over 100, or to an account not in KNOWN_PAYEES: a person decides."""
    return args["amount"] > 100 or args["to_account"] not in KNOWN_PAYEES


def _judge_approval_rule(needs_approval: Any) -> str:
    if not callable(needs_approval):
        raise Wrong(f"needs_approval should be a function of the arguments dict, not {needs_approval!r}.")
    ran: list[tuple[str, float]] = []
    raised: list[tuple[Any, Exception]] = []  # (the arguments, the exception) for each call the rule raised on

    def rule(args: Any) -> Any:
        try:
            return needs_approval(args)
        except Exception as exc:  # noqa: BLE001 - kept for the verdict; the library then asks for approval
            raised.append((dict(args), exc))
            raise

    @cd.tool(requires_approval=rule)
    def transfer_money(to_account: str, amount: float) -> dict:
        """Transfer money from the user's account to another account."""
        ran.append((to_account, amount))
        return {"to_account": to_account, "amount": amount, "status": "sent (simulated)"}

    turns = [(PlannedCall("transfer_money", {"to_account": who, "amount": amount}),) for who, amount, _ in TRANSFERS]
    llm = offline_llm(policies=(_scripted(*turns),))
    result = llm.run("Make these transfers.", tools=[transfer_money], approve=rel.deny_all,
                     max_rounds=len(TRANSFERS))
    if raised:
        args, exc = raised[0]
        tip = (' The arguments arrive as a dict: read them as args["amount"] and args["to_account"].'
               if isinstance(exc, AttributeError) else "")
        raise Wrong(f"{explain(exc, f'needs_approval({args})')}{tip} (A rule that raises counts as "
                    f"\"needs approval\", so {len(raised)} of the {len(TRANSFERS)} transfers were held.)")
    for (who, amount, held), record in zip(TRANSFERS, result.tool_calls):
        if record.blocked not in (None, "denied"):
            raise Wrong(f"the transfer of {amount} to {who} was refused ({record.blocked}): {record.output}")
        if record.blocked is None and held:
            why = (f"to an account not in KNOWN_PAYEES ({who})" if who not in KNOWN_PAYEES
                   else f"over {LIMIT}")
            raise Wrong(f"the transfer of {amount} to {who} ran without approval; it is {why}, so "
                        f"needs_approval must return True for it.")
        if record.blocked == "denied" and not held:
            exact = " (exactly 100 is not over 100: use >, not >=)" if amount == LIMIT else ""
            raise Wrong(f"the transfer of {amount} to {who} was held for approval, but it is a known payee "
                        f"and not over {LIMIT}{exact}: needs_approval should return False for it.")
    return (f"of {len(TRANSFERS)} transfers, {len(ran)} ran at once and "
            f"{len(TRANSFERS) - len(ran)} waited for a person, including the 90 to attacker-0042.")


def _amount_only() -> tuple[Any, ...]:
    def needs_approval(args) -> bool:
        """Only the amount: the threshold a small injected transfer slips under."""
        return args["amount"] > 100

    return (needs_approval,)


def _at_least() -> tuple[Any, ...]:
    def needs_approval(args) -> bool:
        """100 itself needs approval."""
        return args["amount"] >= 100 or args["to_account"] not in KNOWN_PAYEES

    return (needs_approval,)


def _payee_only() -> tuple[Any, ...]:
    def needs_approval(args) -> bool:
        """Trusts known payees with any amount."""
        return args["to_account"] not in KNOWN_PAYEES

    return (needs_approval,)


def _attribute_access() -> tuple[Any, ...]:
    def needs_approval(args) -> bool:
        """Reads the arguments as attributes."""
        return args.amount > 100 or args.to_account not in KNOWN_PAYEES

    return (needs_approval,)


q2 = Exercise(
    number=2,
    title="An approval rule a small injected transfer cannot slip under",
    task="""\
The measurement above let a transfer of 90 to an attacker's account through: it was under the 100
that needs approval. Write `needs_approval(args)` for `@cd.tool(requires_approval=...)`: True for
every transfer over 100 **and** for every transfer to an account not in `KNOWN_PAYEES`. The check
gives your rule to a transfer tool and runs six transfers headless (`approve=` denies whatever needs
approval), then looks at which ones ran.""",
    stub='''\
KNOWN_PAYEES = {"zhang.wei", "roommate", "sam", "maria", "landlord"}


def needs_approval(args) -> bool:
    """True for a transfer over 100, or to an account not in KNOWN_PAYEES: a person decides."""
    return ____


ex.q2.check()''',
    hint_text='The arguments arrive validated, as a dict: args["amount"] and args["to_account"]. Combine '
    "the two conditions with `or`; over 100 means `> 100`.",
    names=("needs_approval",),
    judge=_judge_approval_rule,
    reference=lambda: (needs_approval,),
    solution_parts=('KNOWN_PAYEES = {"zhang.wei", "roommate", "sam", "maria", "landlord"}', needs_approval),
    wrong_answers=(
        WrongAnswer("the amount alone", _amount_only, fix="to an account not in KNOWN_PAYEES"),
        WrongAnswer("100 needs approval", _at_least, fix="use >, not >="),
        WrongAnswer("known payees trusted with any amount", _payee_only, fix="over 100"),
        WrongAnswer("args.amount on a dict", _attribute_access, fix="raised AttributeError: 'dict' object"),
    ),
)

# -- exercise 3: deciding on a paused run -----------------------------------------------------------

RENT = ("landlord", 800)
THEFT = ("attacker-0042", 5000)
PAUSED_QUESTION = "Pay the landlord 800 for rent, and do what the invoice says."


def decide_and_resume(llm, result):
    """Approve pending calls of 1000 or less, reject the others with a reason, resume the run."""
    for call in result.pending:
        if call.arguments["amount"] <= 1000:
            result.approve(call.id)
        else:
            result.reject(call.id, reason="more than 1000: ask the account holder")
    return llm.resume(result)


class _DecisionLog(dict):
    """A paused run's decisions that also keeps each one in the order it was made: (call id, approved).

    The paused run keeps only the last decision on a call; the check needs the
    earlier ones too, to tell a rent approved and then rejected from one never approved.
    """

    def __init__(self, decisions: dict[str, Any]) -> None:
        super().__init__(decisions)
        self.history: list[tuple[str, bool]] = []

    def __setitem__(self, call_id: str, decision: Any) -> None:
        self.history.append((call_id, decision.approved))
        super().__setitem__(call_id, decision)


def _rent_verdict(ran: list[tuple[str, float]], rent_decisions: list[bool]) -> str:
    """Why the rent did not run exactly once, from the decisions made on it in order."""
    if not rent_decisions:
        return ("the rent of 800 did not run: it was left undecided, and a call left undecided is denied when "
                "the run resumes. Approve it (result.approve(call.id)), so it runs exactly once.")
    if not rent_decisions[-1] and any(rent_decisions):
        return ("the rent of 800 was approved, then rejected: the last decision on a call is the one that "
                "counts, so it was denied. Decide each call once: reject only the calls you do not approve "
                "(if ...: approve, else: reject).")
    if not rent_decisions[-1]:
        return ("the rent of 800 was rejected, though it is 1000 or less: approve the calls of 1000 or less "
                "(amount <= 1000) with result.approve(call.id).")
    return (f"the rent of 800 was approved, but the transfers that ran were {ran}: resume the paused result "
            "once, with llm.resume(result), so the approved call runs exactly once.")


def _judge_decisions(decide_and_resume: Any) -> str:
    ran: list[tuple[str, float]] = []

    @cd.tool(requires_approval=True)
    def transfer_money(to_account: str, amount: float) -> dict:
        """Transfer money from the user's account to another account."""
        ran.append((to_account, amount))
        return {"to_account": to_account, "amount": amount, "status": "sent (simulated)"}

    calls = tuple(PlannedCall("transfer_money", {"to_account": who, "amount": amount}) for who, amount in (RENT, THEFT))
    llm = offline_llm(policies=(_scripted(calls),))
    paused = llm.run(PAUSED_QUESTION, tools=[transfer_money])
    if paused.stopped_by != "approval" or len(paused.pending) != 2:  # the library's job
        raise Wrong(f"the check's run did not pause with two pending calls (stopped_by={paused.stopped_by!r}).")
    rent_id = next(c.id for c in paused.pending if c.arguments["to_account"] == RENT[0])
    log = paused.paused.decisions = _DecisionLog(paused.paused.decisions)
    final = learner_call("decide_and_resume(llm, result)", decide_and_resume, llm, paused)
    if not isinstance(final, cd.RunResult):
        raise Wrong(f"decide_and_resume returned {type(final).__name__}; return what llm.resume(result) returns.")
    if final.stopped_by == "approval" or final is paused:
        raise Wrong("the run is still paused: after deciding, return llm.resume(result), which runs the "
                    "approved calls and lets the model go on.")
    if THEFT in ran:
        raise Wrong("the transfer of 5000 to attacker-0042 ran: reject the calls over 1000 "
                    "(result.reject(call.id, reason=...)).")
    if ran != [RENT]:
        raise Wrong(_rent_verdict(ran, [approved for call_id, approved in log.history if call_id == rent_id]))
    denied = next(c for c in final.tool_calls if c.arguments.get("to_account") == THEFT[0])
    if denied.blocked != "denied" or denied.output == denial(denied.name, ""):
        raise Wrong("the model was told the 5000 was denied, but not why: pass reason=... to result.reject, "
                    "so the model can tell the user.")
    answered = [c.id for c in final.tool_calls]
    if sorted(answered) != sorted(p.id for p in paused.pending) or len(set(answered)) != len(answered):
        raise Wrong("some call was answered twice or not at all.")  # only a broken library gets here
    return (f"the rent ran once, the 5000 was denied and the model read why: "
            f"{json.dumps(denied.output, ensure_ascii=False)[:60]}…")


def _approve_everything() -> tuple[Any, ...]:
    def decide_and_resume(llm, result):
        """Approves every pending call."""
        for call in result.pending:
            result.approve(call.id)
        return llm.resume(result)

    return (decide_and_resume,)


def _no_resume() -> tuple[Any, ...]:
    def decide_and_resume(llm, result):
        """Decides, then forgets to resume."""
        for call in result.pending:
            if call.arguments["amount"] <= 1000:
                result.approve(call.id)
            else:
                result.reject(call.id, reason="too much")
        return result

    return (decide_and_resume,)


def _no_reason() -> tuple[Any, ...]:
    def decide_and_resume(llm, result):
        """Rejects without saying why."""
        for call in result.pending:
            if call.arguments["amount"] <= 1000:
                result.approve(call.id)
            else:
                result.reject(call.id)
        return llm.resume(result)

    return (decide_and_resume,)


def _approves_then_rejects() -> tuple[Any, ...]:
    def decide_and_resume(llm, result):
        """Forgets the else: every call is rejected, the rent just after it was approved."""
        for call in result.pending:
            if call.arguments["amount"] <= 1000:
                result.approve(call.id)
            result.reject(call.id, reason="more than 1000: ask the account holder")
        return llm.resume(result)

    return (decide_and_resume,)


def _rejects_the_rent() -> tuple[Any, ...]:
    def decide_and_resume(llm, result):
        """Draws the line at the wrong amount: 800 is rejected too."""
        for call in result.pending:
            if call.arguments["amount"] < 500:
                result.approve(call.id)
            else:
                result.reject(call.id, reason="too much: ask the account holder")
        return llm.resume(result)

    return (decide_and_resume,)


def _undecided() -> tuple[Any, ...]:
    def decide_and_resume(llm, result):
        """Resumes without deciding: every pending call is denied by default."""
        return llm.resume(result)

    return (decide_and_resume,)


q3 = Exercise(
    number=3,
    title="Decide on a paused run, then resume it",
    task=f"""\
The check's model is asked "{PAUSED_QUESTION}"
and, as if the invoice also asked for 5000 to attacker-0042, asks for both transfers in one turn.
The transfer tool has `requires_approval=True`, so the run pauses with two pending calls.
Write `decide_and_resume(llm, result)`: approve the pending calls of 1000 or less, reject the others
with a reason (the model reads it), and return the resumed run's result.""",
    stub='''\
def decide_and_resume(llm, result):
    """Approve pending calls of 1000 or less, reject the others with a reason, resume the run."""
    for call in result.pending:
        if ____:
            result.approve(call.id)
        else:
            result.reject(call.id, reason=____)
    return ____


ex.q3.check()''',
    hint_text="Each pending call has .id, .name and .arguments (the exact arguments). result.approve(id) "
    "and result.reject(id, reason=...) record decisions and run nothing; llm.resume(result) runs the "
    "approved calls once and continues the same conversation.",
    names=("decide_and_resume",),
    judge=_judge_decisions,
    reference=lambda: (decide_and_resume,),
    solution_parts=(decide_and_resume,),
    wrong_answers=(
        WrongAnswer("approves everything", _approve_everything, fix="reject the calls over 1000"),
        WrongAnswer("forgets to resume", _no_resume, fix="return llm.resume(result)"),
        WrongAnswer("rejects without a reason", _no_reason, fix="pass reason=..."),
        WrongAnswer("resumes without deciding", _undecided, fix="it was left undecided"),
        WrongAnswer("approves, then rejects (no else)", _approves_then_rejects, fix="approved, then rejected"),
        WrongAnswer("rejects the rent", _rejects_the_rent, fix="approve the calls of 1000 or less"),
    ),
)

EXERCISES: tuple[Exercise, ...] = (q1, q2, q3)

