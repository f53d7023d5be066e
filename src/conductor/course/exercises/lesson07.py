"""Lesson 07's exercises: reading who made each call, and keeping a tool out of programs.

In the notebook::

    from conductor.course.exercises import ____, lesson07 as ex
    ex.q1.check()

Every check is deterministic: the content blocks are the check's own, and the runs go to a fresh
zero-latency offline model.
"""

from __future__ import annotations

from typing import Any

import conductor as cd

from ..programmatic import QUESTION, get_hourly_forecast
from .core import Exercise, Wrong, WrongAnswer, learner_call, offline_llm

__all__ = ["SETUP", "EXERCISES", "q1", "q2"]

SETUP = "from conductor.course.exercises import ____, lesson07 as ex"
"""The notebook cell that comes before the exercises."""

# -- exercise 1: who made each call ----------------------------------------------------------------


def calls_by_caller(content) -> dict:
    """Tool names of a Messages reply by caller: {"model": [...], "program": [...]}."""
    found = {"model": [], "program": []}
    for block in content:
        if block["type"] == "tool_use":
            caller = block.get("caller") or {"type": "direct"}
            found["model" if caller["type"] == "direct" else "program"].append(block["name"])
    return found


_PROGRAM = {"type": "code_execution_20260120", "tool_id": "srvtoolu_01"}
CONTENT = (
    {"type": "text", "text": "I'll write a program for the four cities."},
    {"type": "server_tool_use", "id": "srvtoolu_01", "name": "code_execution", "input": {"code": "..."}},
    {"type": "tool_use", "id": "toolu_01", "name": "get_hourly_forecast", "input": {"city": "Oslo"},
     "caller": _PROGRAM},
    {"type": "tool_use", "id": "toolu_02", "name": "send_alert", "input": {"text": "frost"},
     "caller": {"type": "direct"}},
    {"type": "tool_use", "id": "toolu_03", "name": "get_time", "input": {}},
    {"type": "tool_use", "id": "toolu_04", "name": "get_hourly_forecast", "input": {"city": "Rome"},
     "caller": _PROGRAM},
)
EXPECTED = {"model": ["send_alert", "get_time"], "program": ["get_hourly_forecast", "get_hourly_forecast"]}


def _judge_callers(calls_by_caller: Any) -> str:
    got = learner_call("calls_by_caller(CONTENT)", calls_by_caller, [dict(b) for b in CONTENT])
    if not isinstance(got, dict) or set(got) != {"model", "program"}:
        raise Wrong(f"calls_by_caller(...) gives {got!r}; return a dict with the keys 'model' and 'program'.")
    if got["program"] != EXPECTED["program"]:
        raise Wrong(f"the program's calls came out as {got['program']}; they should be {EXPECTED['program']}: a "
                    "tool_use block whose caller type is a code execution version was made by the program.")
    if got["model"] != EXPECTED["model"]:
        raise Wrong(f"the model's calls came out as {got['model']}; they should be {EXPECTED['model']}: a caller "
                    "of type 'direct', or no caller at all, means the model asked for the call itself, and a "
                    "server_tool_use block is the program, not a call of yours.")
    return "the model made send_alert and get_time itself; the program made both forecasts."


def _ignores_caller() -> tuple[Any, ...]:
    def calls_by_caller(content) -> dict:
        """Every tool_use block counted as the model's."""
        return {"model": [b["name"] for b in content if b["type"] == "tool_use"], "program": []}

    return (calls_by_caller,)


def _missing_caller_is_program() -> tuple[Any, ...]:
    def calls_by_caller(content) -> dict:
        """A block without a caller counted as a program's."""
        found = {"model": [], "program": []}
        for block in content:
            if block["type"] == "tool_use":
                direct = (block.get("caller") or {}).get("type") == "direct"
                found["model" if direct else "program"].append(block["name"])
        return found

    return (calls_by_caller,)


q1 = Exercise(
    number=1,
    title="Who made each call?",
    task="""\
Write `calls_by_caller(content)`: given the content blocks of a Messages response (dicts), return
the names of the tools called, split by who called them: `{"model": [...], "program": [...]}`,
each in the order of the blocks. The check gives it a response holding a program, two calls the
program made, and two the model made itself (one with `"caller": {"type": "direct"}`, one with
no caller field at all, as older responses send).""",
    stub='''\
def calls_by_caller(content) -> dict:
    """Tool names of a Messages reply by caller: {"model": [...], "program": [...]}."""
    found = {"model": [], "program": []}
    for block in content:
        if block["type"] == "tool_use":
            caller = ____
            found[____].append(block["name"])
    return found


ex.q1.check()''',
    hint_text="Read block.get('caller'); when it is missing, the model made the call (treat it as "
    "{'type': 'direct'}). Any caller type other than 'direct' names the code execution tool that ran the "
    "program.",
    names=("calls_by_caller",),
    judge=_judge_callers,
    reference=lambda: (calls_by_caller,),
    solution_parts=(calls_by_caller,),
    wrong_answers=(
        WrongAnswer("ignores the caller", _ignores_caller, fix="made by the program"),
        WrongAnswer("takes a missing caller for a program", _missing_caller_is_program, fix="code execution version"),
    ),
)

# -- exercise 2: keep a tool out of programs --------------------------------------------------------


def keep_out_of_programs(tool):
    """A copy of `tool` that a program the model writes may not call (the model still may)."""
    return cd.tool(tool, programmatic=False)


def _judge_keep_out(keep_out_of_programs: Any) -> str:
    kept = learner_call("keep_out_of_programs(get_hourly_forecast)", keep_out_of_programs, get_hourly_forecast)
    if not isinstance(kept, cd.Tool):
        raise Wrong(f"keep_out_of_programs(...) returned {type(kept).__name__}; return a tool: cd.tool(tool, ...).")
    if get_hourly_forecast.programmatic is not True:
        get_hourly_forecast.programmatic = True  # the course's tool, restored for the next check
        raise Wrong("the course's own get_hourly_forecast was changed: cd.tool(tool, option=...) makes a copy "
                    "with the option; setting an attribute on the tool changes it for every run.")
    llm = offline_llm("messages")  # zero latency: the check answers at once
    result = learner_call("running the four-city question with programmatic=True on your tool", llm.run, QUESTION,
                          tools=[kept], max_rounds=6, programmatic=True)
    sent = [t for t in llm.offline.requests[0].body["tools"] if t.get("name") == kept.name]
    if not sent:
        raise Wrong(f"the request carried no tool named {kept.name!r}: return a copy of the tool you were given.")
    if "allowed_callers" in sent[0] or result.programs:
        raise Wrong("a program still called the tool: its request carried allowed_callers. Pass "
                    "programmatic=False to cd.tool.")
    ran = [c for c in result.tool_calls if c.blocked is None]
    if not ran:
        stopped = sorted({c.blocked for c in result.tool_calls if c.blocked}) or ["the model made none"]
        raise Wrong(f"no call of your tool ran ({', '.join(stopped)}): change only what programs may call, "
                    "with programmatic=False, and keep the tool's other options as they were.")
    return f"no program was written; the model made its {len(ran)} calls itself, one round at a time."


def _mutates() -> tuple[Any, ...]:
    def keep_out_of_programs(tool):
        """Changes the tool itself."""
        tool.programmatic = False
        return tool

    return (keep_out_of_programs,)


def _unchanged() -> tuple[Any, ...]:
    def keep_out_of_programs(tool):
        """Returns the tool as it is."""
        return cd.tool(tool)

    return (keep_out_of_programs,)


q2 = Exercise(
    number=2,
    title="Keep a tool out of programs",
    task="""\
Write `keep_out_of_programs(tool)`, returning a copy of `tool` that a program may not call (the
model may still call it itself, one round at a time), without changing `tool`. The check runs the
four-city question with `programmatic=True` on the copy and reads the request and the calls.""",
    stub='''\
def keep_out_of_programs(tool):
    """A copy of `tool` that a program the model writes may not call (the model still may)."""
    return ____


ex.q2.check()''',
    hint_text="cd.tool(existing_tool, option=value) returns a copy with the option changed; the option "
    "is programmatic=False.",
    names=("keep_out_of_programs",),
    judge=_judge_keep_out,
    reference=lambda: (keep_out_of_programs,),
    solution_parts=(keep_out_of_programs,),
    wrong_answers=(
        WrongAnswer("changes the tool itself", _mutates, fix="makes a copy"),
        WrongAnswer("leaves it callable by programs", _unchanged, fix="programmatic=False"),
    ),
)

EXERCISES = (q1, q2)
