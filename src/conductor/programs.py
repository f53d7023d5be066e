"""The model's own program: programmatic tool calling on Messages and Responses.

``llm.run(question, tools=tools, programmatic=True)`` lets the model write a short program that
calls your tools itself. The program runs on the provider's side; each call it makes still comes
back to your code as an ordinary tool call, marked with its ``caller``, and goes through every guard
of the run (validation, allowlist, approval, loop detection, budgets, deadlines, rate limits). What
changes is where the results go: to the program, not into the model's context. The model reads only
the program's output.

What a request adds (the wire fields live in each API's module):

* Messages: the code execution tool, in the newest version the pinned SDK lists among the
  ``allowed_callers`` values (:func:`code_execution_version`), and ``"allowed_callers": ["direct",
  <that version>]`` on every tool not made with ``@cd.tool(programmatic=False)``; a tool_use block
  whose ``caller`` is a code execution version was issued by a program; the container the program
  runs in is reused on the next request (``container=``).
* Responses: ``{"type": "programmatic_tool_calling"}``, and ``"allowed_callers": ["direct",
  "programmatic"]`` plus an ``output_schema`` from the return annotation on every eligible tool;
  a ``function_call`` item whose ``caller`` is ``{"type": "program", "caller_id": ...}`` was issued
  by the ``program`` item with that ``call_id``, and its output goes back with the same caller.
* Chat Completions has no programmatic tool calling: a ValueError says which APIs do.

Reading a run back: ``result.tool_calls[i].caller`` is ``"model"`` or ``"program"`` (so is
``result.pending[i].caller``), and ``result.programs`` lists each :class:`Program` as the API
returned it.

What it costs, as the APIs bill it (recorded on Messages): the calls a program makes at the same time
(``asyncio.gather``, ``Promise.all``) come back together in one response; a response where only the
program resumed (it made its next calls, the model wrote nothing) bills 0 input and 0 output tokens; the
results of a program's calls never count as input, its code and output do. Each request that offers the
code execution tool bills that tool's own prompt (:mod:`conductor.tokens`, ``HIDDEN_PROMPTS``), so on a
task with small results a program costs more input than the loop, and pays on a task with large ones.
On Messages the program's container is billed by time, apart from the tokens (:func:`container_time`).
"""

from __future__ import annotations

import json
import logging
import typing
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from .types import Message, ToolResult, Turn, is_provider_model

logger = logging.getLogger(__name__)

MODEL = "model"
PROGRAM = "program"
PROGRAMMATIC_APIS = ("responses", "messages")
# Models that have programmatic tool calling, by name prefix: Anthropic lists them in its programmatic tool
# calling guide ("requires code_execution_20260120 or later"; not Claude Haiku 4.5), OpenAI in its guide for
# the tool. The offline stand-in's own name has it. A learner may add a newer model here.
PROGRAMMATIC_MODELS: dict[str, tuple[str, ...]] = {
    "messages": ("claude-opus-4-5", "claude-sonnet-4-5", "claude-opus-4-6", "claude-sonnet-4-6", "claude-opus-4-7",
                 "claude-opus-4-8", "claude-fable-5", "claude-mythos-5", "conductor-offline"),
    "responses": ("gpt-5.4", "gpt-5.5", "gpt-5.6", "conductor-offline"),
}


def offers_programmatic(api: str, model: str) -> bool | None:
    """True when ``model`` has programmatic tool calling on ``api``, False when it is known not to, None when
    its name is of no family conductor knows."""
    if model.startswith(PROGRAMMATIC_MODELS.get(api, ())):
        return True
    return False if is_provider_model(api, model) else None
RESPONSES_TOOL = {"type": "programmatic_tool_calling"}
RESPONSES_CALLERS = ["direct", "programmatic"]


@cache
def code_execution_version() -> str:
    """The newest code execution tool version the pinned anthropic SDK accepts in ``allowed_callers``.

    Read from the SDK's own ``ToolParam`` type, so a newer SDK brings a newer version.
    """
    from anthropic.types.tool_param import ToolParam

    hints = typing.get_type_hints(ToolParam)
    values: list[str] = []
    _literals(hints["allowed_callers"], values)
    versions = sorted(v for v in values if v.startswith("code_execution_"))
    return versions[-1]


def _literals(annotation: Any, into: list[str]) -> None:
    """Every string of the ``Literal`` types inside ``annotation`` (through Optional, List, ...)."""
    if typing.get_origin(annotation) is typing.Literal:
        into.extend(a for a in typing.get_args(annotation) if isinstance(a, str))
        return
    for argument in typing.get_args(annotation):
        _literals(argument, into)


def messages_tool() -> dict[str, Any]:
    """The code execution tool as a Messages request lists it."""
    return {"type": code_execution_version(), "name": "code_execution"}


def messages_callers() -> list[str]:
    """``allowed_callers`` for a tool a program may call on Messages."""
    return ["direct", code_execution_version()]


def check_programmatic(programmatic: Any, api: str, model: str = "") -> bool:
    """``programmatic=`` as a bool, or a ValueError when the API, or ``model`` on it, has no programmatic tool
    calling (checked before any request, so nothing is billed for a 400)."""
    if not isinstance(programmatic, bool):
        raise TypeError(f"programmatic= takes True or False, got {programmatic!r}")
    if programmatic and api not in PROGRAMMATIC_APIS:
        raise ValueError(
            f"programmatic=True needs an API where the model can write a program that calls your tools: the "
            f"Responses API (cd.connect('openai')) or the Messages API (cd.connect('anthropic')); this llm speaks "
            f"{api!r}, which has none. Connect with api='responses' or api='messages', or leave programmatic out"
        )
    if programmatic and offers_programmatic(api, model) is False:
        offered = ", ".join(m for m in PROGRAMMATIC_MODELS[api] if m != "conductor-offline")
        raise ValueError(
            f"programmatic=True: {model} does not offer programmatic tool calling on the {api} API (the API would "
            f"refuse the request with a 400). Models that do: {offered}. Connect to one of them "
            f"(cd.connect(..., model=...)), or leave programmatic out; for a newer model, add its name to "
            f"conductor.programs.PROGRAMMATIC_MODELS[{api!r}]"
        )
    return programmatic


def output_schema(tool: Any) -> dict[str, Any] | None:
    """A JSON schema of what ``tool`` returns, from its return annotation; None when it has none or it says
    nothing (``Any``, ``None``)."""
    hints = _return_hint(tool.func)
    if hints is None or hints is Any or hints is type(None):
        return None
    import pydantic

    try:
        return pydantic.TypeAdapter(hints).json_schema()
    except (pydantic.PydanticSchemaGenerationError, pydantic.PydanticUserError, TypeError) as exc:
        logger.info("tool %s: no output_schema from its return annotation (%s)", tool.name, exc)
        return None


def _return_hint(func: Any) -> Any:
    try:
        return typing.get_type_hints(func).get("return")
    except (NameError, TypeError):  # a hint naming something not importable here
        return None


# -- reading a run back -----------------------------------------------------------------------


def _call_items(turn: Turn) -> list[dict[str, Any]]:
    return [item for item in turn.items if item.get("type") in ("tool_use", "function_call")]


def _program_of(item: dict[str, Any]) -> str | None:
    """The id of the program that issued a call item, or None for the model's own call."""
    caller = item.get("caller")
    if not isinstance(caller, dict) or caller.get("type") in (None, "direct"):
        return None
    return str(caller.get("caller_id") or caller.get("tool_id") or "")


def callers(turn: Turn) -> tuple[str, ...]:
    """``"model"`` or ``"program"`` for each of the turn's calls, in order."""
    items = _call_items(turn)
    if len(items) != len(turn.tool_calls):  # a turn rebuilt without its items: the model's own calls
        return (MODEL,) * len(turn.tool_calls)
    return tuple(PROGRAM if _program_of(item) is not None else MODEL for item in items)


def caller_ids(turn: Turn) -> dict[str, str]:
    """The program id of each program-issued call of ``turn``, by call id."""
    items = _call_items(turn)
    if len(items) != len(turn.tool_calls):
        return {}
    return {
        call.id: program for call, item in zip(turn.tool_calls, items) if (program := _program_of(item)) is not None
    }


@dataclass(frozen=True)
class Program:
    """One program the model wrote, as the API returned it."""

    id: str  # Messages: the code execution server_tool_use id; Responses: the program item's call_id
    language: str  # "python" (Messages) or "javascript" (Responses)
    code: str
    output: str | None  # stdout (Messages) or the program_output result (Responses); None while it runs
    call_ids: tuple[str, ...]  # the tool calls it made, in order
    # "completed"; "incomplete": stopped before it finished (the run's last request forbade the calls it still
    # had to make, or the sandbox ended it); "error": it failed by itself (Messages: a non-zero return code);
    # "running": no end came back yet
    status: str = "running"


def programs_of(conversation: Sequence[Message]) -> tuple[Program, ...]:
    """Every program of a run's neutral conversation, in the order written (a history's are an earlier run's)."""
    found: dict[str, dict[str, Any]] = {}
    for message in conversation:
        if not isinstance(message, Turn) or (message.origin is not None and not message.origin[1]):
            continue
        for item in message.items:
            _read_item(item, found)
        for call_id, program in caller_ids(message).items():
            if program in found:
                found[program]["call_ids"].append(call_id)
    return tuple(
        Program(key, p["language"], p["code"], p.get("output"), tuple(p["call_ids"]), p.get("status", "running"))
        for key, p in found.items()
    )


def _read_item(item: dict[str, Any], found: dict[str, dict[str, Any]]) -> None:
    kind = item.get("type")
    if kind == "server_tool_use" and item.get("name") == "code_execution":
        code = (item.get("input") or {}).get("code", "")
        found[item["id"]] = {"language": "python", "code": code, "call_ids": []}
    elif kind == "program":
        found[item["call_id"]] = {"language": "javascript", "code": item.get("code", ""), "call_ids": []}
    elif kind == "code_execution_tool_result" and item.get("tool_use_id") in found:
        content = item.get("content") or {}
        entry = found[item["tool_use_id"]]
        entry["output"] = content.get("stdout", content.get("encrypted_stdout"))
        entry["status"] = _messages_status(content)
    elif kind == "program_output" and item.get("call_id") in found:
        entry = found[item["call_id"]]
        entry["output"] = item.get("result")
        entry["status"] = item.get("status", "completed")


def _messages_status(content: dict[str, Any]) -> str:
    """How a Messages program ended, in the words Responses uses for its ``program_output`` (plus "error").

    Messages reports a return code only. A program stopped from outside (cut short when the run forbade
    its next calls, ended by the sandbox) did not fail: its return code says a signal ended it, 128 + N as
    a shell reports it or -N as Python's subprocess does; 1 and the like are the program's own failure.
    """
    if content.get("error_code") == "execution_time_exceeded":
        return "incomplete"
    code = content.get("return_code")
    if code == 0:
        return "completed"
    if isinstance(code, int) and (code > 128 or code < 0):
        return "incomplete"
    return "error"


def container(conversation: Iterable[Message]) -> str | None:
    """The code execution container of the latest turn that had one (Messages), to reuse on the next request."""
    latest = None
    for message in conversation:
        if isinstance(message, Turn) and message.container:
            latest = message.container
    return latest


def containers(conversation: Iterable[Message]) -> tuple[str, ...]:
    """Every code execution container the conversation's turns ran programs in (Messages), in order."""
    return tuple(dict.fromkeys(m.container for m in conversation if isinstance(m, Turn) and m.container))


@dataclass(frozen=True)
class ContainerTime:
    """The code execution containers a run used (Messages) and their time's price, billed monthly apart from the
    tokens (``result.cost`` has none of it).

    The responses carry no container clock, so each container is counted as living for the run's seconds: a
    lower bound the 5-minute minimum covers for any run shorter than that (a container idles out about 4.5
    minutes after its last use).
    """

    containers: tuple[str, ...]
    hours: float  # billed: each container at least the minimum
    usd: float  # once the month's free hours are used up; $0 within them

    def __str__(self) -> str:
        from .pricing import CODE_EXECUTION

        if not self.containers:
            return "no code execution container"
        return (f"{len(self.containers)} code execution container(s), {self.hours * 60:.0f} minutes billed: $0 "
                f"within the {CODE_EXECUTION.free_hours_per_month:,.0f} free hours a month, ${self.usd:.4f} past them")


def container_time(result: Any, *, free_hours_left: float = 0.0) -> ContainerTime:
    """The containers ``result``'s run used and what their time costs past ``free_hours_left`` free hours."""
    from .pricing import container_cost, container_hours

    used = containers(result.conversation)
    lifetimes = [max(0.0, float(result.seconds))] * len(used)
    return ContainerTime(used, sum(container_hours(s) for s in lifetimes),
                         container_cost(lifetimes, free_hours_left=free_hours_left))


def with_container(request: dict[str, Any], conversation: Sequence[Message]) -> dict[str, Any]:
    """A Messages request that continues a program's container, when the run has one."""
    held = container(conversation)
    if held and "container" not in request:
        request["container"] = held
    return request


def response_callers(messages: Sequence[Message]) -> dict[str, str]:
    """Program id by call id for every program-issued call of ``messages`` (Responses outputs carry it back)."""
    out: dict[str, str] = {}
    for message in messages:
        if isinstance(message, Turn):
            out.update(caller_ids(message))
    return out


def result_caller(result: ToolResult, issued: dict[str, str]) -> dict[str, Any] | None:
    """The ``caller`` a Responses ``function_call_output`` carries: the program's, for a program-issued call."""
    program = issued.get(result.call_id)
    return None if program is None else {"type": "program", "caller_id": program}


def mark_pending(screened: Any, who: Sequence[str]) -> None:
    """Say on each call awaiting approval whether a program made it (``result.pending[i].caller``)."""
    from dataclasses import replace

    for position, pending in list(screened.pending.items()):
        if position < len(who) and who[position] != pending.caller:
            screened.pending[position] = replace(pending, caller=who[position])


def describe(programs: Iterable[Program], *, width: int = 100) -> str:
    """The programs of a run, one short block each (code first lines, calls, output)."""
    from . import display

    lines: list[str] = []
    for number, program in enumerate(programs, 1):
        head = f"program {number} ({program.language}, {program.status}): {len(program.call_ids)} call(s)"
        lines.append(display.clip(head, width))
        output = program.output if program.output is not None else "(still running)"
        lines.append(display.clip(f"    output: {output}", width))
    return "\n".join(lines)
