"""Programmatic tool calling in the offline stand-in: the program it writes, runs and reports.

A request is programmatic when it offers the code execution tool (Messages: a ``code_execution_*``
version) or ``{"type": "programmatic_tool_calling"}`` (Responses). The stand-in then plans as it
always does (:mod:`.policies`); when the plan is a fan-out (two or more calls of tools a program may
call), it writes a program for it instead of asking for the calls itself: Python on Messages, as
Claude's code execution runs, JavaScript on Responses. The program holds the plan as data, makes its
calls at the same time (``asyncio.gather``, ``Promise.all``; a plan that makes one call again polls, each
call awaited in turn, :func:`polls`), catches a tool's error as a value, and
prints (returns) a short summary of each result (:func:`brief`). The stand-in runs that program
itself, statelessly: each request carries the program (the ``server_tool_use`` block, the ``program``
item) and the calls it made with their results, so the next step is read from the request.

As the APIs run it (recorded on Messages): the calls a program makes together come back together, in
one response, each marked with its ``caller``; a chain's next link (a call that needs the first calls'
results) comes in the next response, where only the program resumed; when every planned call is
answered the program ends with its output, and the model reads that output and answers (the policies
read each result as the program summed it up, and say it in words).

Billing (:func:`sampled`): a response where only the program resumed bills 0 input and 0 output tokens
(recorded on Messages; Responses documents no rule, and the stand-in bills it the same way). A response
where the model wrote something (the program, its answer) bills what the model's context holds: the
program's code and its output, not the results its calls returned (they went to the program), plus the
code execution tool's own prompt (:mod:`conductor.tokens`); its output is what the model wrote (the code,
any text), not the calls the program made. A program whose run is cut short (tools forbidden on the final
request) ends ``incomplete`` with what it has: a ``program_output`` with that status on Responses; on
Messages, which has only a return code, the code of a process stopped from outside
(:data:`STOPPED_RETURN_CODE`).
"""

from __future__ import annotations

import ast
import hashlib
import json
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from typing import Any

from ..programs import offers_programmatic
from ..types import Message, ToolCall, ToolResult, Turn, UserMessage
from .contract import InvalidRequest
from .conversation import CallTools, Conversation, Decision, PlannedCall, Reply

# The code execution versions whose tool_use blocks may carry a program's caller: the values the pinned
# anthropic SDK lists in allowed_callers (anthropic/types/tool_param.py).
CODE_EXECUTION_VERSIONS = ("code_execution_20250825", "code_execution_20260120", "code_execution_20260521")
# The caller type the stand-in writes on a program's tool_use blocks: the newest one the pinned SDK's
# response models know (anthropic/types/server_tool_caller_20260120.py); they have none for 20260521.
RESPONSE_CALLER = "code_execution_20260120"
RESPONSES_TOOL_TYPE = "programmatic_tool_calling"
CONTAINER_DAYS = 30  # the stand-in's own expiry for a container (conductor reads only its id)
MIN_CALLS = 2  # a plan of fewer calls gains nothing from a program: the model calls the tool itself
# The return code of a Messages program the stand-in stops before it finished: 128 + SIGTERM, as a shell
# reports a process ended from outside; 1 would say the program failed by itself (conductor.programs reads
# the one as "incomplete", the other as "error", as Responses says "incomplete" in its program_output).
STOPPED_RETURN_CODE = 128 + 15
_CLIP = 160  # characters of a text value a summary keeps


# -- the summary a program makes of each result ----------------------------------------------------


def brief(value: Any) -> Any:
    """What a program keeps of a tool's result for the model: scalars as they are, a list as its count
    and, for numbers, their minimum, maximum and mean (per numeric field for a list of objects)."""
    if isinstance(value, dict):
        return {key: brief(item) for key, item in value.items()}
    if isinstance(value, list):
        return _brief_list(value)
    if isinstance(value, str) and len(value) > _CLIP:
        return value[:_CLIP] + "…"
    return value


def _stats(numbers: list[float]) -> dict[str, Any]:
    return {"min": min(numbers), "max": max(numbers), "mean": round(statistics.fmean(numbers), 1)}


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _brief_list(values: list[Any]) -> Any:
    if values and all(_number(v) for v in values):
        return {"count": len(values), **_stats(values)}
    if values and all(isinstance(v, dict) for v in values):
        keys = [k for k in values[0] if all(_number(v.get(k)) for v in values)]
        return {"count": len(values), **{k: _stats([v[k] for v in values]) for k in keys}}
    if len(values) <= 3:
        return [brief(v) for v in values]
    return {"count": len(values)}


_PYTHON_BRIEF = '''def brief(value):
    """What the model needs of a result: scalars; a list as its count and min/max/mean."""
    if isinstance(value, dict):
        return {key: brief(item) for key, item in value.items()}
    if isinstance(value, list):
        numbers = lambda xs: {"min": min(xs), "max": max(xs), "mean": round(sum(xs) / len(xs), 1)}
        is_number = lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)
        if value and all(is_number(v) for v in value):
            return {"count": len(value), **numbers(value)}
        if value and all(isinstance(v, dict) for v in value):
            keys = [k for k in value[0] if all(is_number(v.get(k)) for v in value)]
            return {"count": len(value), **{k: numbers([v[k] for v in value]) for k in keys}}
        return [brief(v) for v in value] if len(value) <= 3 else {"count": len(value)}
    if isinstance(value, str) and len(value) > 160:
        return value[:160] + "…"
    return value'''

_JAVASCRIPT_BRIEF = '''function brief(value) {
  // What the model needs of a result: scalars; a list as its count and min/max/mean.
  const isNumber = (v) => typeof v === "number";
  const numbers = (xs) => ({min: Math.min(...xs), max: Math.max(...xs),
    mean: Math.round(10 * xs.reduce((a, b) => a + b, 0) / xs.length) / 10});
  if (Array.isArray(value)) {
    if (value.length && value.every(isNumber)) return {count: value.length, ...numbers(value)};
    if (value.length && value.every((v) => v && typeof v === "object" && !Array.isArray(v))) {
      const keys = Object.keys(value[0]).filter((k) => value.every((v) => isNumber(v[k])));
      return {count: value.length, ...Object.fromEntries(keys.map((k) => [k, numbers(value.map((v) => v[k]))]))};
    }
    return value.length <= 3 ? value.map(brief) : {count: value.length};
  }
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, brief(v)]));
  }
  if (typeof value === "string" && value.length > 160) return value.slice(0, 160) + "…";
  return value;
}'''


def polls(plan: tuple[PlannedCall, ...]) -> bool:
    """Does ``plan`` make one call again with the same arguments? Then it polls (waits for something to change):
    each call waits for the one before, so the program awaits them in turn, one call a response."""
    seen = [(c.name, json.dumps(c.arguments, sort_keys=True, default=str)) for c in plan]
    return len(set(seen)) < len(seen)


Then = tuple[str, dict[str, Any], list[str]]
"""A chain's next link: the tool, the arguments the question gives, and the parameters the results must give."""


def write_python(plan: tuple[PlannedCall, ...], then: Then | None = None) -> str:
    """The Python program (Claude's code execution) that runs ``plan`` (then ``then``) and prints its summary."""
    calls = [(c.name, c.arguments) for c in plan]
    tools = sorted({c.name for c in plan} | ({then[0]} if then else set()))
    return "\n".join([
        "import asyncio",
        "import json",
        "",
        f"PLAN = {calls!r}",
        *([f"THEN = {then!r}  # the next link: (tool, arguments, parameters the results give)"] if then else []),
        f"TOOLS = {{{', '.join(f'{n!r}: {n}' for n in tools)}}}",
        "",
        "",
        _PYTHON_BRIEF,
        "",
        "",
        "async def call(name, arguments):",
        "    try:",
        "        return await TOOLS[name](**arguments)",
        "    except Exception as error:  # a tool's error is a value the summary reports",
        '        return {"error": str(error)}',
        "",
        "",
        *([
            "# the same call again: each waits for the one before (polling)",
            "results = [(name, arguments, await call(name, arguments)) for name, arguments in PLAN]",
        ] if polls(plan) else [
            "# the calls at the same time: they come back to the caller together",
            "answers = await asyncio.gather(*(call(name, arguments) for name, arguments in PLAN))",
            "results = [(name, arguments, answer) for (name, arguments), answer in zip(PLAN, answers)]",
        ]),
        *([
            "name, arguments, needs = THEN",
            "fields = {k: v for _, _, result in results if isinstance(result, dict) for k, v in result.items()}",
            "arguments = {**arguments, **{n: fields[n] for n in needs if n in fields}}",
            "results.append((name, arguments, await call(name, arguments)))",
        ] if then else []),
        'outputs = [{"call": n, "arguments": a, "result": brief(r)} for n, a, r in results]',
        "print(json.dumps(outputs, ensure_ascii=False))",
    ])


def write_javascript(plan: tuple[PlannedCall, ...], then: Then | None = None) -> str:
    """The JavaScript program (OpenAI's programmatic tool calling) that runs ``plan`` (then ``then``)."""
    calls = json.dumps([[c.name, c.arguments] for c in plan], ensure_ascii=False)
    tools = ", ".join(sorted({c.name for c in plan} | ({then[0]} if then else set())))
    return "\n".join([
        f"const PLAN = {calls};",
        *([f"const THEN = {json.dumps(list(then), ensure_ascii=False)};"
           "  // the next link: [tool, arguments, parameters the results give]"] if then else []),
        f"const TOOLS = {{{tools}}};",
        "",
        _JAVASCRIPT_BRIEF,
        "",
        "async function call(name, args) {",
        "  try {",
        "    return await TOOLS[name](args);",
        "  } catch (error) {  // a tool's error is a value the summary reports",
        "    return {error: String(error)};",
        "  }",
        "}",
        "",
        *([
            "// the same call again: each waits for the one before (polling)",
            "const results = [];",
            "for (const [name, args] of PLAN) results.push([name, args, await call(name, args)]);",
        ] if polls(plan) else [
            "// the calls at the same time: they come back to the caller together",
            "const answers = await Promise.all(PLAN.map(([name, args]) => call(name, args)));",
            "const results = PLAN.map(([name, args], i) => [name, args, answers[i]]);",
        ]),
        *([
            "const [name, given, needs] = THEN;",
            "const fields = Object.assign({}, ...results.map(([, , r]) => (r && typeof r === \"object\" ? r : {})));",
            "const args = {...given, ...Object.fromEntries(needs.filter((n) => n in fields).map((n) => [n, fields[n]]))};",
            "results.push([name, args, await call(name, args)]);",
        ] if then else []),
        "return JSON.stringify(results.map(([name, args, r]) => ({call: name, arguments: args, result: brief(r)})));",
    ])


def _literal(line: str, prefix: str) -> Any:
    text = line.removeprefix(prefix).split("  //")[0].split("  #")[0].rstrip().rstrip(";")
    return ast.literal_eval(text) if prefix.startswith(("PLAN", "THEN")) else json.loads(text)


def read_plan(code: str) -> tuple[PlannedCall, ...]:
    """The plan a program of the stand-in's holds (its ``PLAN`` line), for the next step of its run."""
    for line in code.splitlines():
        for prefix in ("PLAN = ", "const PLAN = "):
            if line.startswith(prefix):
                return tuple(PlannedCall(name, dict(arguments)) for name, arguments in _literal(line, prefix))
    return ()


def read_then(code: str) -> Then | None:
    """The chain's next link a program holds (its ``THEN`` line), or None."""
    for line in code.splitlines():
        for prefix in ("THEN = ", "const THEN = "):
            if line.startswith(prefix):
                value = _literal(line, prefix)
                return None if value is None else (value[0], dict(value[1]), list(value[2]))
    return None


# -- a program's run, read from the request ---------------------------------------------------------


@dataclass
class Run:
    """One program in a request: its code, the calls it made so far and their results."""

    id: str  # Messages: the server_tool_use id; Responses: the program item's call_id
    code: str
    language: str
    item_id: str = ""  # Responses: the program item's id
    calls: list[str] = field(default_factory=list)  # ids of the calls it made, in order
    finished: bool = False

    @property
    def plan(self) -> tuple[PlannedCall, ...]:
        return read_plan(self.code)

    @property
    def then(self) -> Then | None:
        return read_then(self.code)


@dataclass(frozen=True)
class Step:
    """What the stand-in does in one programmatic response."""

    decision: Decision  # the calls it issues (the program's, or its own) or its answer
    program: Run | None = None  # the program running in this response
    new: bool = False  # the program is written in this response
    output: str | None = None  # the program ended in this response with this output
    status: str = "completed"  # the program_output status / return code 0 when completed
    by_program: bool = False  # the decision's calls are the program's

    @property
    def sampled(self) -> bool:
        """Did the model write anything in this response? Not when only the program resumed (it made its next
        calls by itself): such a response bills 0 input and 0 output tokens."""
        return not (self.program is not None and self.by_program and not self.new)


def programmatic(api: str, body: dict[str, Any]) -> bool:
    """Does ``body`` offer programmatic tool calling?"""
    return any(_is_program_tool(api, t) for t in body.get("tools") or [])


def _is_program_tool(api: str, tool: dict[str, Any]) -> bool:
    if api == "messages":
        return tool.get("type") in CODE_EXECUTION_VERSIONS
    return tool.get("type") == RESPONSES_TOOL_TYPE


def eligible(api: str, tool: dict[str, Any]) -> bool:
    """May a program call this tool (its allowed_callers say so)?"""
    callers = tool.get("allowed_callers") or ()
    if api == "messages":
        return any(c in CODE_EXECUTION_VERSIONS for c in callers)
    return "programmatic" in callers


def supports(api: str, model: str) -> bool:
    """Does ``model`` have programmatic tool calling? (The library's table: one source for both sides.)"""
    return offers_programmatic(api, model) is True


def _caller_program(block: dict[str, Any]) -> str | None:
    caller = block.get("caller")
    if not isinstance(caller, dict) or caller.get("type") in (None, "direct"):
        return None
    return str(caller.get("tool_id") or caller.get("caller_id") or "")


def _messages_runs(body: dict[str, Any]) -> list[Run]:
    runs: dict[str, Run] = {}
    for message in body.get("messages") or []:
        content = message.get("content")
        for block in content if isinstance(content, list) else ():
            kind = block.get("type")
            if kind == "server_tool_use" and block.get("name") == "code_execution":
                runs[block["id"]] = Run(block["id"], (block.get("input") or {}).get("code", ""), "python")
            elif kind == "tool_use" and (program := _caller_program(block)) in runs:
                runs[program].calls.append(block["id"])
            elif kind == "code_execution_tool_result" and block.get("tool_use_id") in runs:
                runs[block["tool_use_id"]].finished = True
    return list(runs.values())


def _responses_runs(items: list[dict[str, Any]]) -> list[Run]:
    runs: dict[str, Run] = {}
    for item in items:
        kind = item.get("type")
        if kind == "program":
            runs[item["call_id"]] = Run(item["call_id"], item.get("code", ""), "javascript", item_id=item.get("id", ""))
        elif kind == "function_call" and (program := _caller_program(item)) in runs:
            runs[program].calls.append(item.get("call_id", ""))
        elif kind == "program_output" and item.get("call_id") in runs:
            runs[item["call_id"]].finished = True
    return list(runs.values())


def runs_of(api: str, body: dict[str, Any], items: list[dict[str, Any]] | None = None) -> list[Run]:
    """The programs of a request, with their calls (``items``: a Responses request's whole context)."""
    return _messages_runs(body) if api == "messages" else _responses_runs(items or [])


def program_call_ids(runs: list[Run]) -> set[str]:
    return {call for run in runs for call in run.calls}


def _results(conversation: Conversation) -> dict[str, ToolResult]:
    return {m.call_id: m for m in conversation.messages if isinstance(m, ToolResult)}


def _as_value(result: ToolResult) -> Any:
    """A result as the program receives it: the JSON value, a text, or (an error) the error it raises."""
    if result.is_error:
        return {"error": result.content}
    try:
        return json.loads(result.content)
    except ValueError:
        return result.content


def output_of(run: Run, conversation: Conversation) -> str:
    """What the program prints (returns): each call with the summary of its result."""
    results = _results(conversation)
    calls = {c.id: c for m in conversation.messages if isinstance(m, Turn) for c in m.tool_calls}
    outputs = []
    for call_id in run.calls:
        call, result = calls.get(call_id), results.get(call_id)
        if call is None or result is None:
            continue
        outputs.append({"call": call.name, "arguments": call.parsed_arguments(), "result": brief(_as_value(result))})
    return json.dumps(outputs, ensure_ascii=False)


def _summed_up(conversation: Conversation, runs: list[Run]) -> Conversation:
    """The conversation as the model reads it: each program call's result as the program summed it up."""
    issued = program_call_ids(runs)
    messages: list[Message] = []
    for message in conversation.messages:
        if isinstance(message, ToolResult) and message.call_id in issued:
            value = brief(_as_value(message))
            message = replace(message, content=json.dumps(value, ensure_ascii=False), is_error=False) \
                if not message.is_error else message
        messages.append(message)
    return replace(conversation, messages=tuple(messages))


def context(conversation: Conversation, runs: list[Run], finished_now: dict[str, str]) -> Conversation:
    """What the model's context holds, for the input tokens: programs' code and outputs, not their calls'
    results (they went to the program)."""
    issued = program_call_ids(runs)
    messages: list[Message] = []
    for message in conversation.messages:
        if isinstance(message, ToolResult) and message.call_id in issued:
            continue
        if isinstance(message, Turn) and any(c.id in issued for c in message.tool_calls):
            kept = tuple(c for c in message.tool_calls if c.id not in issued)
            message = replace(message, tool_calls=kept)
            if not (kept or message.text_blocks):
                continue
        messages.append(message)
    for run in runs:
        messages.append(Turn(text_blocks=(run.code,)))
        output = finished_now.get(run.id)
        if output is not None or run.finished:
            messages.append(UserMessage(output if output is not None else ""))
    return replace(conversation, messages=tuple(messages))


def step(
    api: str,
    body: dict[str, Any],
    conversation: Conversation,
    runs: list[Run],
    decide: Callable[[Conversation], Decision],
) -> Step:
    """The stand-in's move on a programmatic request: go on with the open program, write one, or answer."""
    open_run = next((r for r in reversed(runs) if not r.finished), None)
    if open_run is not None:
        plan, then = open_run.plan, open_run.then
        made = len(open_run.calls)
        total = len(plan) + (then is not None)
        if made < len(plan) and conversation.tools_allowed:  # the calls it still has to make, together
            return Step(CallTools(plan[made:made + 1] if polls(plan) else plan[made:]), program=open_run,
                        by_program=True)
        if then is not None and made == len(plan) and conversation.tools_allowed:
            return Step(CallTools((_next_link(then, open_run, conversation),)), program=open_run, by_program=True)
        output = output_of(open_run, conversation)
        status = "completed" if made >= total else "incomplete"
        finished = replace(open_run, finished=True)
        others = [finished if r is open_run else r for r in runs]
        decision = decide(_summed_up(conversation, others))
        return Step(decision, program=finished, output=output, status=status)
    decision = decide(_summed_up(conversation, runs))
    offered = {t.get("name"): t for t in body.get("tools") or [] if isinstance(t, dict)}
    then = _planned_link(api, conversation, decision, offered) if isinstance(decision, CallTools) else None
    if (
        isinstance(decision, CallTools)
        and (len(decision.calls) >= MIN_CALLS or then is not None)
        and conversation.tools_allowed
        and all(isinstance(c.arguments, dict) and eligible(api, offered.get(c.name, {})) for c in decision.calls)
    ):
        write = write_python if api == "messages" else write_javascript
        code = write(decision.calls, then)
        run = Run("", code, "python" if api == "messages" else "javascript")
        first = decision.calls[:1] if polls(decision.calls) else decision.calls
        return Step(CallTools(first, decision.text), program=run, new=True, by_program=True)
    return Step(decision)


def _planned_link(
    api: str, conversation: Conversation, decision: CallTools, offered: dict[Any, dict[str, Any]]
) -> Then | None:
    """A chain the stand-in can plan: another tool the question asks for, a program may call, and whose
    missing required parameters the first calls' results should give (looked up by name)."""
    from .arguments import fill
    from .policies import _MATCH_THRESHOLD, match_score

    if conversation.exchanges():
        return None
    question = conversation.question
    called = {c.name for c in decision.calls}
    for spec in sorted(conversation.tools, key=lambda s: -match_score(s, question)):
        if spec.name in called or not eligible(api, offered.get(spec.name, {})):
            continue
        if match_score(spec, question) < _MATCH_THRESHOLD:
            continue
        filled = fill(spec, question)
        if filled.missing:
            return (spec.name, dict(filled.arguments), list(filled.missing))
    return None


def _next_link(then: Then, run: Run, conversation: Conversation) -> PlannedCall:
    """The chain's next call as the program makes it: its arguments, and the fields of the results by name."""
    name, arguments, needs = then
    results = _results(conversation)
    fields: dict[str, Any] = {}
    for call_id in run.calls:
        value = _as_value(results[call_id]) if call_id in results else None
        if isinstance(value, dict):
            fields.update(value)
    return PlannedCall(name, {**arguments, **{n: fields[n] for n in needs if n in fields}})


def ids(digest: bytes, api: str) -> tuple[str, str]:
    """A new program's (id, item id): a server_tool_use id on Messages, a call_id and item id on Responses."""
    token = hashlib.sha256(digest + b"program").hexdigest()
    if api == "messages":
        return f"srvtoolu_{token[:24]}", ""
    return f"call_{token[:24]}", f"prog_{token[24:56]}"


def fingerprint(code: str) -> str:
    """The opaque replay fingerprint of a Responses program item (the stand-in's: a hash of the code)."""
    return hashlib.sha256(code.encode()).hexdigest()


def container_id(body: dict[str, Any], digest: bytes) -> str:
    """The container a Messages program runs in: the one the request names, else a new one."""
    named = body.get("container")
    if isinstance(named, str) and named:
        return named
    if isinstance(named, dict) and named.get("id"):
        return str(named["id"])
    return "container_" + hashlib.sha256(digest + b"container").hexdigest()[:24]


# -- the blocks and items a programmatic response carries -------------------------------------------


def messages_caller(step: Step | None) -> dict[str, Any]:
    """The ``caller`` field of a tool_use block the program issued (none for the model's own calls)."""
    if step is None or step.program is None or not step.by_program:
        return {}
    return {"caller": {"type": RESPONSE_CALLER, "tool_id": step.program.id}}


def responses_caller(step: Step | None) -> dict[str, Any]:
    """The ``caller`` field of a function_call item the program issued."""
    if step is None or step.program is None or not step.by_program:
        return {}
    return {"caller": {"type": "program", "caller_id": step.program.id}}


def result_block(step: Step) -> dict[str, Any]:
    """Messages: the code_execution_tool_result block of a program that ended."""
    assert step.program is not None and step.output is not None
    return {
        "type": "code_execution_tool_result",
        "tool_use_id": step.program.id,
        "content": {"type": "code_execution_result", "stdout": step.output + "\n",
                    "stderr": "" if step.status == "completed" else "stopped: tool use is not allowed any more\n",
                    "return_code": 0 if step.status == "completed" else STOPPED_RETURN_CODE, "content": []},
    }


def program_item(step: Step) -> dict[str, Any]:
    """Responses: the ``program`` item of a program written in this response."""
    assert step.program is not None
    run = step.program
    return {"id": run.item_id, "type": "program", "call_id": run.id, "code": run.code, "fingerprint": fingerprint(run.code)}


def output_item(step: Step, response_id: str) -> dict[str, Any]:
    """Responses: the ``program_output`` item of a program that ended."""
    assert step.program is not None and step.output is not None
    token = hashlib.sha256(f"{response_id}{step.program.id}".encode()).hexdigest()[:32]
    return {"id": f"progout_{token}", "type": "program_output", "call_id": step.program.id,
            "result": step.output, "status": step.status}


def container_field(completion: Any) -> dict[str, Any]:
    """Messages: the response's ``container`` when a program ran in it."""
    if not completion.container:
        return {}
    expires = datetime.fromtimestamp(completion.created, timezone.utc) + timedelta(days=CONTAINER_DAYS)
    return {"container": {"id": completion.container, "expires_at": expires.isoformat().replace("+00:00", "Z")}}


# -- what the real APIs refuse ---------------------------------------------------------------------


def check_messages(body: dict[str, Any]) -> None:
    """Programmatic calling on a model without it; a program's call of a tool a program may not call."""
    if not programmatic("messages", body):
        return
    model = str(body.get("model", ""))
    if not supports("messages", model):
        version = next(t["type"] for t in body["tools"] if t.get("type") in CODE_EXECUTION_VERSIONS)
        raise InvalidRequest(f"'{version}' is not supported on model '{model}'.")
    offered = {t.get("name"): t for t in body.get("tools") or []}
    for index, message in enumerate(body.get("messages") or []):
        content = message.get("content")
        for position, block in enumerate(content if isinstance(content, list) else ()):
            if block.get("type") == "tool_use" and _caller_program(block) is not None:
                tool = offered.get(block.get("name"), {})
                if not eligible("messages", tool):
                    raise InvalidRequest(
                        f"messages.{index}.content.{position}: tool '{block.get('name')}' was called from code "
                        f"execution, but its `allowed_callers` does not include a code execution tool."
                    )


def check_responses(body: dict[str, Any], items: list[dict[str, Any]]) -> None:
    """The same two rules on Responses."""
    if not programmatic("responses", body):
        return
    model = str(body.get("model", ""))
    if not supports("responses", model):
        raise InvalidRequest(
            f"Tool '{RESPONSES_TOOL_TYPE}' is not supported with model '{model}'.", param="tools",
        )
    offered = {t.get("name"): t for t in body.get("tools") or [] if t.get("type") == "function"}
    for item in items:
        if item.get("type") == "function_call" and _caller_program(item) is not None:
            if not eligible("responses", offered.get(item.get("name"), {})):
                raise InvalidRequest(
                    f"Function '{item.get('name')}' was called by a program, but its allowed_callers does not "
                    f"include 'programmatic'.",
                    param="tools",
                )


__all__ = ["Run", "Step", "brief", "read_plan", "step", "write_javascript", "write_python"]
