"""Lesson 01's exercises: a new tool the model uses, the round loop by hand, reading a run's trace.

Exercises 1 and 3 are judged on each wire API in turn (Responses, Chat Completions, Messages):
the learner's tool and report must not depend on the one the lesson runs on. Exercise 2 writes the
loop on the Anthropic SDK.

In the notebook::

    from conductor.course.exercises import ____, lesson01 as ex
    ex.q1.check()
"""

from __future__ import annotations

import json
import traceback
from typing import Any

import conductor as cd
from conductor.course.scenarios import get_weather, suggest_clothing

from .core import Exercise, Wrong, WrongAnswer, _where, as_tool, learner_call, offline_llm

__all__ = ["SETUP", "EXERCISES", "APIS", "q1", "q2", "q3"]

SETUP = "from conductor.course.exercises import ____, lesson01 as ex"
"""The notebook cell that comes before the exercises."""

APIS = ("responses", "chat", "messages")
"""The wire APIs exercises 1 and 3 are checked on, the lesson's default first."""
API_NAMES = {"responses": "Responses", "chat": "Chat Completions", "messages": "Messages"}


def results_sent(body: dict[str, Any]) -> list[Any]:
    """The tool results a request body carried back, in order, on any of the three APIs."""
    if "input" in body:  # Responses: function_call_output items
        items = body["input"] if isinstance(body["input"], list) else []
        return [item.get("output") for item in items if item.get("type") == "function_call_output"]
    results: list[Any] = []
    for message in body.get("messages", []):
        if message.get("role") == "tool":  # Chat Completions: one tool message per call
            results.append(message.get("content"))
        elif message.get("role") == "user" and isinstance(message.get("content"), list):  # Messages: tool_result blocks
            results += [block.get("content") for block in message["content"] if block.get("type") == "tool_result"]
    return results

# -- exercise 1: a new tool the model uses ---------------------------------------------------------


@cd.tool
def convert_temperature(celsius: float) -> dict:
    """Convert a temperature from degrees Celsius to degrees Fahrenheit.

    Args:
        celsius: The temperature in °C.
    """
    return {"celsius": celsius, "fahrenheit": round(celsius * 9 / 5 + 32, 1)}


convert_question = "Convert 5 °C to Fahrenheit."


def _fahrenheit_of(doing: str, tool: Any, celsius: float) -> float:
    """What the learner's tool says ``celsius`` is in °F; :class:`Wrong` when it does not say."""
    output = learner_call(doing, tool, celsius)
    if not isinstance(output, dict) or not isinstance(output.get("fahrenheit"), int | float):
        raise Wrong(f'{doing} returned {output!r}; return a dict with the result under "fahrenheit".')
    return output["fahrenheit"]


def _judge_convert(convert_temperature: Any, convert_question: Any) -> str:
    tool = as_tool(convert_temperature, "convert_temperature")
    if not tool.description:
        raise Wrong("the tool has no description: write a docstring saying what it converts.")
    if tool.parameters["properties"].get("celsius", {}).get("type") != "number":
        raise Wrong('the parameter should be `celsius: float`, so its schema type is "number".')
    for celsius, expected in ((100, 212), (5, 41)):
        got = _fahrenheit_of(f"convert_temperature({celsius})", tool, celsius)
        if abs(got - expected) > 0.05:
            raise Wrong(f"convert_temperature({celsius}) gives {got} °F; it should be {expected} (°C × 9/5 + 32).")
    if not isinstance(convert_question, str) or not convert_question.strip():
        raise Wrong("`convert_question` should be the question (a string) to ask the model.")
    for api in APIS:
        llm = offline_llm(api)
        run = llm.run(convert_question, tools=[tool], max_rounds=2)
        names = [c.name for c in run.tool_calls]
        if names != [tool.name]:
            raise Wrong(
                f"for {convert_question!r} the model called {names or 'no tool'} (on the {API_NAMES[api]} API), "
                "where it should call convert_temperature once: ask plainly for a conversion and give the number "
                "in °C, e.g. 'Convert 30 °C to Fahrenheit.'"
            )
        call = run.tool_calls[0]
        if call.is_error:
            raise Wrong(f"the model's call failed (on the {API_NAMES[api]} API): {call.output}")
        if results_sent(llm.offline.requests[-1].body) != [call.output]:
            raise Wrong(f"the tool's result did not go back to the model (on the {API_NAMES[api]} API).")
    return (
        f"the model called {call.name}({json.dumps(call.arguments)}) -> {call.output} on each API "
        f"({', '.join(API_NAMES[api] for api in APIS)}), and answered in {run.api_calls} requests."
    )


def _no_plus_32() -> tuple[Any, ...]:
    def convert_temperature(celsius: float) -> dict:
        """Convert a temperature from degrees Celsius to degrees Fahrenheit."""
        return {"celsius": celsius, "fahrenheit": celsius * 9 / 5}

    return (convert_temperature, convert_question)


def _question_without_the_tool() -> tuple[Any, ...]:
    return (convert_temperature, "Who wrote Hamlet?")


def _celsius_as_text() -> tuple[Any, ...]:
    def convert_temperature(celsius: str) -> dict:
        """Convert a temperature from degrees Celsius to degrees Fahrenheit."""
        return {"celsius": celsius, "fahrenheit": float(celsius) * 9 / 5 + 32}

    return (convert_temperature, convert_question)


q1 = Exercise(
    number=1,
    title="A new tool the model uses",
    task="""\
Write `convert_temperature(celsius: float) -> dict`, returning the temperature in °F under
`"fahrenheit"`, and `convert_question`, a question that makes the model call it. The offline
model calls an offered tool when the question plainly names it (words of the tool's name or
description) and takes the number from the question; a real model needs no such hint, but a clear
name and docstring help it too. The check offers your tool to a fresh offline model on each of the
three APIs and reads the run: one call, no error, its result sent back.""",
    stub='''\
@cd.tool
def convert_temperature(celsius: float) -> dict:
    """____

    Args:
        celsius: The temperature in °C.
    """
    return {"celsius": celsius, "fahrenheit": ____}


convert_question = "____"

ex.q1.check()''',
    hint_text="°F = °C × 9/5 + 32. The docstring's first line is the tool's description, e.g. "
    '"Convert a temperature from degrees Celsius to degrees Fahrenheit." A question like '
    '"Convert 5 °C to Fahrenheit." names the conversion and the number.',
    names=("convert_temperature", "convert_question"),
    judge=_judge_convert,
    reference=lambda: (convert_temperature, convert_question),
    solution_parts=(convert_temperature, 'convert_question = "Convert 5 °C to Fahrenheit."'),
    wrong_answers=(
        WrongAnswer("forgets + 32", _no_plus_32, fix="°C × 9/5 + 32"),
        WrongAnswer(
            "a question that does not ask for it", _question_without_the_tool, fix="ask plainly for a conversion"
        ),
        WrongAnswer("celsius: str", _celsius_as_text, fix="`celsius: float`"),
    ),
)

# -- exercise 2: the round loop by hand, on Anthropic ----------------------------------------------

# "What's the weather in Beijing and Shanghai today, and what should I wear?"
ROUNDS_QUESTION = "北京和上海今天天气怎么样?应该穿什么衣服?"
LIMITS = (0, 1, 2, 3)


def run_rounds(client, model_name, user_query, tools, max_rounds):
    """At most max_rounds tool rounds on the Messages API, then a final request without tool use."""
    by_name = {t.name: t for t in tools}
    schemas = [t.anthropic_schema() for t in tools]
    messages = [{"role": "user", "content": user_query}]
    rounds = 0
    while True:
        choice = {"type": "auto"} if rounds < max_rounds else {"type": "none"}
        response = client.messages.create(
            model=model_name, max_tokens=1024, messages=messages, tools=schemas, tool_choice=choice
        )
        calls = [block for block in response.content if block.type == "tool_use"]
        if not calls or rounds == max_rounds:
            return "".join(block.text for block in response.content if block.type == "text")
        # Rebuild the turn from request fields: a dumped response block carries response-only
        # fields (tool_use's `caller`) that a request should not echo.
        content = [
            {"type": "text", "text": block.text} if block.type == "text"
            else {"type": "tool_use", "id": block.id, "name": block.name, "input": block.input}
            for block in response.content
            if block.type in ("text", "tool_use")
        ]
        messages.append({"role": "assistant", "content": content})
        results = []
        for call in calls:
            block = {"type": "tool_result", "tool_use_id": call.id}
            try:
                block["content"] = json.dumps(by_name[call.name](**call.input), ensure_ascii=False)
            except Exception as error:  # the model hears about any failure, as in llm.run
                block.update(content=f"{type(error).__name__}: {error}", is_error=True)
            results.append(block)
        messages.append({"role": "user", "content": results})
        rounds += 1


def _blocks(messages: list[dict[str, Any]], role: str, block_type: str) -> list[dict[str, Any]]:
    """The content blocks of ``block_type`` in the ``role`` messages, in order."""
    return [
        block
        for m in messages
        if m["role"] == role and isinstance(m["content"], list)
        for block in m["content"]
        if isinstance(block, dict) and block.get("type") == block_type
    ]


def _ids(messages: list[dict[str, Any]], role: str, block_type: str, key: str) -> list[str]:
    return [block[key] for block in _blocks(messages, role, block_type)]


# A city the weather tool does not know: get_weather raises ValueError for it, as a real tool fails.
FAILING_QUESTION = "What's the weather in Atlantis and Beijing today, and what should I wear?"
FAILING_ROUNDS = 2


def _raising_tool(exc: BaseException | None, tools: list[Any]) -> str | None:
    """The name of the tool whose own code raised ``exc``, when it is one of ``tools``; else None."""
    if exc is None:
        return None
    names = {t.name for t in tools}
    return next((f.name for f in reversed(traceback.extract_tb(exc.__traceback__)) if f.name in names), None)


def _tool_error(tool: Any, arguments: Any) -> BaseException | None:
    """What calling ``tool`` with ``arguments`` raises, or None when it returns."""
    try:
        tool(**arguments)
    except Exception as exc:  # noqa: BLE001 - the exception is the answer
        return exc
    return None


def _call_text(use: dict[str, Any]) -> str:
    """``get_weather(city="Atlantis")``: a tool_use block as a call."""
    arguments = use.get("input") if isinstance(use.get("input"), dict) else {}
    return f"{use.get('name')}({', '.join(f'{k}={json.dumps(v, ensure_ascii=False)}' for k, v in arguments.items())})"


def _failed_calls(doing: str, messages: list[dict[str, Any]], tools: list[Any]) -> list[str]:
    """The calls whose tool raised, each answered with ``"is_error": true`` and the error; else :class:`Wrong`."""
    by_name = {t.name: t for t in tools}
    uses = {block.get("id"): block for block in _blocks(messages, "assistant", "tool_use")}
    failed = []
    for result in _blocks(messages, "user", "tool_result"):
        use = uses.get(result.get("tool_use_id"))
        if use is None or use.get("name") not in by_name:
            continue  # an unanswered or unknown id: the id check says so
        call = _call_text(use)
        error = _tool_error(by_name[use["name"]], use.get("input") or {})
        if error is None:
            if result.get("is_error"):
                raise Wrong(f'{doing}: {call} returned normally, but its tool_result says "is_error": true; set '
                            "it only when the tool raised, or the model takes a good result for a failure.")
            continue
        if result.get("is_error") is not True:
            raise Wrong(f"{doing}: {call} raised {type(error).__name__}, but its tool_result went back without "
                        '"is_error": true, so the model reads the error text as the tool\'s output and does not '
                        'know the call failed. Mark the tool_result of a call whose tool raised with "is_error": '
                        "true, its content the error text.")
        content = result.get("content")
        if not content or (isinstance(content, str) and not content.strip()):
            raise Wrong(f'{doing}: the tool_result of {call} has "is_error": true but no content; put the '
                        f"error text in it ({type(error).__name__}: ...) so the model can say what went wrong.")
        failed.append(call)
    return failed


def _judge_one_limit(run_rounds: Any, limit: int, question: str = ROUNDS_QUESTION) -> tuple[int, list[str]]:
    """Run the learner's loop with ``max_rounds=limit``; return the number of requests and the calls that failed."""
    tools = [get_weather, suggest_clothing]
    expected = offline_llm("messages").run(question, tools=tools, max_rounds=limit).api_calls
    llm = offline_llm("messages")
    doing = f"run_rounds(..., max_rounds={limit})"
    if question != ROUNDS_QUESTION:
        doing += f" for {question!r}"
    try:
        text = learner_call(doing, run_rounds, llm.client, llm.model, question, tools, limit)
    except Wrong as wrong:
        exc = wrong.__cause__
        failed = _raising_tool(exc, tools)
        if exc is None or failed is None:
            raise
        raise Wrong(f"{doing}: {failed} raised {type(exc).__name__}: {exc}{_where(exc)}, and the exception "
                    "escaped run_rounds. Catch a tool's exception and answer its tool_use with a "
                    'tool_result whose content is the error text, with "is_error": true, so the model '
                    "knows the call failed.") from exc
    sent = llm.offline.requests
    if not sent:
        raise Wrong(f"{doing} sent no request: even max_rounds=0 makes one, with tool use forbidden, "
                    "so the model can answer.")
    rejected = [i for i, r in enumerate(sent, 1) if r.status != 200]
    if rejected:
        raise Wrong(f"{doing}: request {rejected[0]} was rejected with HTTP {sent[rejected[0] - 1].status}.")
    if len(sent) > limit + 1:
        raise Wrong(f"{doing} made {len(sent)} requests; at most {limit + 1} are allowed: {limit} tool "
                    "round(s), then one final request with tool use forbidden.")
    without_tools = [i for i, r in enumerate(sent, 1) if "tools" not in r.body]
    if without_tools:
        raise Wrong(f"{doing}: request {without_tools[0]} has no tools; keep tools on every request "
                    '(the final one forbids their use with tool_choice={"type": "none"}).')
    choices = [r.body.get("tool_choice") for r in sent]
    if len(sent) == limit + 1 and choices[-1] != {"type": "none"}:
        raise Wrong(f"{doing}: request {limit + 1} is the final one, but its tool_choice is "
                    f'{json.dumps(choices[-1])}: send tool_choice={{"type": "none"}} on it.')
    if {"type": "none"} in choices[:-1]:
        raise Wrong(f"{doing} forbade tool use before the last request: allow it while rounds remain.")
    last = sent[-1].body["messages"]
    failed_calls = _failed_calls(doing, last, tools)  # before the count: a wrong flag changes what the model asks
    if len(sent) != expected:
        raise Wrong(f"{doing} made {len(sent)} request(s); the model needed {expected} here: keep going "
                    "while it asks for tools and rounds remain, then make the final request.")
    asked = _ids(last, "assistant", "tool_use", "id")
    answered = _ids(last, "user", "tool_result", "tool_use_id")
    if asked != answered:
        raise Wrong(f"{doing}: the tool_use ids {asked} were answered as {answered}; answer each one "
                    "once, in order, in the next user message.")
    if not isinstance(text, str) or not text.strip():
        raise Wrong(f"{doing} returned {text!r}: return the text of the final reply (every text block).")
    return len(sent), failed_calls


def _judge_run_rounds(run_rounds: Any) -> str:
    made = [_judge_one_limit(run_rounds, limit)[0] for limit in LIMITS]
    _, failed = _judge_one_limit(run_rounds, FAILING_ROUNDS, FAILING_QUESTION)
    if not failed:  # the offline model always asks for Atlantis; a loop that never answered it fails above
        raise Wrong(f"for {FAILING_QUESTION!r} no tool_result answered the call that failed: answer every "
                    'tool_use, a failed one with "is_error": true.')
    counts = ", ".join(f"max_rounds={limit}: {n}" for limit, n in zip(LIMITS, made))
    return (
        f"requests made ({counts}); tools kept on every request, the forced final one with "
        'tool_choice {"type": "none"}, every tool_use id answered once; when '
        f'{" and ".join(failed)} raised, its result went back with "is_error": true.'
    )


def _final_without_tools() -> tuple[Any, ...]:
    def run_rounds(client, model_name, user_query, tools, max_rounds):
        """Drop the tools on the final request instead of forbidding them."""
        by_name = {t.name: t for t in tools}
        messages = [{"role": "user", "content": user_query}]
        rounds = 0
        while True:
            offer = {"tools": [t.anthropic_schema() for t in tools]} if rounds < max_rounds else {}
            response = client.messages.create(model=model_name, max_tokens=1024, messages=messages, **offer)
            calls = [b for b in response.content if b.type == "tool_use"]
            if not calls or rounds == max_rounds:
                return "".join(b.text for b in response.content if b.type == "text")
            messages.append({"role": "assistant", "content": response.content})
            messages.append({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": c.id, "content": json.dumps(by_name[c.name](**c.input))}
                for c in calls
            ]})
            rounds += 1

    return (run_rounds,)


def _counts_requests() -> tuple[Any, ...]:
    def run_rounds(client, model_name, user_query, tools, max_rounds):
        """The classic max_iterations loop: gives up without a final answer."""
        by_name = {t.name: t for t in tools}
        schemas = [t.anthropic_schema() for t in tools]
        messages = [{"role": "user", "content": user_query}]
        for _ in range(max_rounds):
            response = client.messages.create(model=model_name, max_tokens=1024, messages=messages, tools=schemas)
            calls = [b for b in response.content if b.type == "tool_use"]
            if not calls:
                return "".join(b.text for b in response.content if b.type == "text")
            messages.append({"role": "assistant", "content": response.content})
            messages.append({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": c.id, "content": json.dumps(by_name[c.name](**c.input))}
                for c in calls
            ]})
        return ""

    return (run_rounds,)


def _first_call_only() -> tuple[Any, ...]:
    def run_rounds(client, model_name, user_query, tools, max_rounds):
        """Answer only the first tool_use block of each turn."""
        by_name = {t.name: t for t in tools}
        schemas = [t.anthropic_schema() for t in tools]
        messages = [{"role": "user", "content": user_query}]
        rounds = 0
        while True:
            choice = {"type": "auto"} if rounds < max_rounds else {"type": "none"}
            response = client.messages.create(
                model=model_name, max_tokens=1024, messages=messages, tools=schemas, tool_choice=choice
            )
            calls = [b for b in response.content if b.type == "tool_use"]
            if not calls or rounds == max_rounds:
                return "".join(b.text for b in response.content if b.type == "text")
            messages.append({"role": "assistant", "content": response.content})
            call = calls[0]
            output = json.dumps(by_name[call.name](**call.input))
            result = {"type": "tool_result", "tool_use_id": call.id, "content": output}
            messages.append({"role": "user", "content": [result]})
            rounds += 1

    return (run_rounds,)


def _never_forbids() -> tuple[Any, ...]:
    def run_rounds(client, model_name, user_query, tools, max_rounds):
        """Stop after max_rounds, but let the final request offer tools as usual."""
        by_name = {t.name: t for t in tools}
        schemas = [t.anthropic_schema() for t in tools]
        messages = [{"role": "user", "content": user_query}]
        rounds = 0
        while True:
            response = client.messages.create(model=model_name, max_tokens=1024, messages=messages, tools=schemas)
            calls = [b for b in response.content if b.type == "tool_use"]
            if not calls or rounds == max_rounds:
                return "".join(b.text for b in response.content if b.type == "text")
            messages.append({"role": "assistant", "content": response.content})
            messages.append({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": c.id, "content": json.dumps(by_name[c.name](**c.input))}
                for c in calls
            ]})
            rounds += 1

    return (run_rounds,)


def _error_not_flagged() -> tuple[Any, ...]:
    def run_rounds(client, model_name, user_query, tools, max_rounds):
        """Catch a tool's exception and send its text back, but without "is_error": true."""
        by_name = {t.name: t for t in tools}
        schemas = [t.anthropic_schema() for t in tools]
        messages = [{"role": "user", "content": user_query}]
        rounds = 0
        while True:
            choice = {"type": "auto"} if rounds < max_rounds else {"type": "none"}
            response = client.messages.create(
                model=model_name, max_tokens=1024, messages=messages, tools=schemas, tool_choice=choice
            )
            calls = [block for block in response.content if block.type == "tool_use"]
            if not calls or rounds == max_rounds:
                return "".join(block.text for block in response.content if block.type == "text")
            content = [
                {"type": "text", "text": block.text} if block.type == "text"
                else {"type": "tool_use", "id": block.id, "name": block.name, "input": block.input}
                for block in response.content
                if block.type in ("text", "tool_use")
            ]
            messages.append({"role": "assistant", "content": content})
            results = []
            for call in calls:
                try:
                    output = json.dumps(by_name[call.name](**call.input), ensure_ascii=False)
                except Exception as error:
                    output = f"Error: {error}"  # the model cannot tell this from a result
                results.append({"type": "tool_result", "tool_use_id": call.id, "content": output})
            messages.append({"role": "user", "content": results})
            rounds += 1

    return (run_rounds,)


def _exception_escapes() -> tuple[Any, ...]:
    def run_rounds(client, model_name, user_query, tools, max_rounds):
        """Run each tool without catching what it raises."""
        by_name = {t.name: t for t in tools}
        schemas = [t.anthropic_schema() for t in tools]
        messages = [{"role": "user", "content": user_query}]
        rounds = 0
        while True:
            choice = {"type": "auto"} if rounds < max_rounds else {"type": "none"}
            response = client.messages.create(
                model=model_name, max_tokens=1024, messages=messages, tools=schemas, tool_choice=choice
            )
            calls = [block for block in response.content if block.type == "tool_use"]
            if not calls or rounds == max_rounds:
                return "".join(block.text for block in response.content if block.type == "text")
            content = [
                {"type": "text", "text": block.text} if block.type == "text"
                else {"type": "tool_use", "id": block.id, "name": block.name, "input": block.input}
                for block in response.content
                if block.type in ("text", "tool_use")
            ]
            messages.append({"role": "assistant", "content": content})
            messages.append({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": c.id, "content": json.dumps(by_name[c.name](**c.input))}
                for c in calls
            ]})
            rounds += 1

    return (run_rounds,)


q2 = Exercise(
    number=2,
    title="The round loop by hand, on Anthropic",
    task=f"""\
Complete `run_rounds(client, model_name, user_query, tools, max_rounds)` on the Anthropic SDK: at
most `max_rounds` tool rounds, then a final request that keeps `tools` and sends
`tool_choice={{"type": "none"}}`. Return the answer's text (every text block). Answer every
`tool_use` block with one `tool_result` (with `is_error: true` when the tool raised). The check runs
it with max_rounds 0 to 3 on a fresh offline Anthropic model, for the question
"{ROUNDS_QUESTION}"
("What's the weather in Beijing and Shanghai today, and what should I wear?": two calls per turn,
two rounds), then once for a city the weather tool does not know, so that `get_weather` raises, and
reads the requests the model received.""",
    stub='''\
import json


def run_rounds(client, model_name, user_query, tools, max_rounds):
    """At most max_rounds tool rounds on the Messages API, then a final request without tool use."""
    by_name = {t.name: t for t in tools}
    schemas = [t.anthropic_schema() for t in tools]
    messages = [{"role": "user", "content": user_query}]
    rounds = 0
    while True:
        choice = ____  # {"type": "auto"} while rounds remain, else {"type": "none"}
        response = client.messages.create(
            model=model_name, max_tokens=1024, messages=messages, tools=schemas, tool_choice=choice
        )
        calls = [block for block in response.content if block.type == "tool_use"]
        if ____:  # no calls, or this was the final request
            return "".join(block.text for block in response.content if block.type == "text")
        ____  # append the assistant turn, then one user message with a tool_result per call
        rounds += 1


ex.q2.check()''',
    hint_text="The loop ends when the model asks for nothing or when rounds == max_rounds (that request "
    "forbade tools). Send the turn back as {\"role\": \"assistant\", \"content\": [...]} with each text "
    'block as {"type": "text", "text": ...} and each tool_use block as {"type": "tool_use", "id": ..., '
    '"name": ..., "input": ...}, then one user message whose '
    'content is a list of {"type": "tool_result", "tool_use_id": call.id, "content": ...}, one per call. Run '
    'each tool in try/except: when it raises, the content is the error text and the block adds "is_error": True.',
    names=("run_rounds",),
    judge=_judge_run_rounds,
    reference=lambda: (run_rounds,),
    solution_parts=("import json", run_rounds),
    wrong_answers=(
        WrongAnswer("drops tools on the final request", _final_without_tools, fix="keep tools on every request"),
        WrongAnswer("max_iterations: no final answer", _counts_requests, fix="even max_rounds=0 makes one"),
        WrongAnswer("answers only the first tool_use", _first_call_only, fix="tool_result"),
        WrongAnswer("never forbids tool use", _never_forbids, fix='send tool_choice={"type": "none"}'),
        WrongAnswer(
            "a raising tool's error sent back without is_error",
            _error_not_flagged,
            fix='Mark the tool_result of a call whose tool raised with "is_error": true',
        ),
        WrongAnswer("a raising tool's exception escapes the loop", _exception_escapes, fix="Catch a tool's exception"),
    ),
)

# -- exercise 3: reading a run's trace -------------------------------------------------------------

TRACE_QUESTION = ROUNDS_QUESTION


def round_report(result):
    """One (round number, tool names called, input tokens of the request that asked) per round."""
    return [
        (r.index, [call.name for call in r.tool_calls], r.model.usage.input_tokens)
        for r in result.rounds
    ]


def _expected_report(result: Any) -> list[tuple[int, list[str], int]]:
    return [(r.index, [c.name for c in r.tool_calls], r.model.usage.input_tokens) for r in result.rounds]


def _judge_report_on(round_report: Any, api: str) -> list[tuple[int, list[str], int]]:
    """Compare the learner's report with the trace of a two-round run on ``api``; return the expected rows."""
    result = offline_llm(api).run(TRACE_QUESTION, tools=[get_weather, suggest_clothing], max_rounds=2)
    expected = _expected_report(result)
    got = learner_call("round_report(result)", round_report, result)
    if not isinstance(got, list | tuple) or len(got) != len(expected):
        size = len(got) if isinstance(got, list | tuple) else type(got).__name__
        raise Wrong(f"round_report gave {size} row(s); the run had {len(expected)} rounds: one row per "
                    "round in result.rounds.")
    for row, (index, names, tokens) in zip(got, expected):
        if not isinstance(row, list | tuple) or len(row) != 3:
            raise Wrong(f"each row should be (round number, tool names, input tokens); got {row!r}.")
        got_index, got_names, got_tokens = row
        if got_index != index:
            raise Wrong(f"round {index} is numbered {got_index!r}: rounds count from 1, as r.index does.")
        if list(got_names) != names:
            raise Wrong(f"round {index} called {names}, but your row says {got_names!r}: list the names "
                        "of that round's calls, r.tool_calls.")
        if got_tokens != tokens:
            usage = result.rounds[index - 1].model.usage
            what = " (that is the output tokens)" if got_tokens == usage.output_tokens else ""
            raise Wrong(f"round {index}'s request read {tokens} input tokens (on the {API_NAMES[api]} API); your "
                        f"row says {got_tokens!r}{what}: use r.model.usage.input_tokens.")
    return expected


def _judge_round_report(round_report: Any) -> str:
    reports = {api: _judge_report_on(round_report, api) for api in APIS}
    empty = learner_call("round_report on a run without tools", round_report, offline_llm(APIS[0]).run("Hello"))
    if list(empty) != []:
        raise Wrong(f"a run without tool rounds should give an empty report, not {empty!r}.")
    rows = "; ".join(f"round {i}: {', '.join(n)}, {t} input tokens" for i, n, t in reports[APIS[0]])
    return (
        f"on the {API_NAMES[APIS[0]]} API, {rows}; your report matched the trace on "
        f"{' and '.join(API_NAMES[a] for a in APIS[1:])} too. Each request resends the conversation, so input "
        "tokens grow round by round."
    )


def _counts_from_zero() -> tuple[Any, ...]:
    def round_report(result):
        """Numbers rounds from 0."""
        return [(i, [c.name for c in r.tool_calls], r.model.usage.input_tokens) for i, r in enumerate(result.rounds)]

    return (round_report,)


def _output_tokens() -> tuple[Any, ...]:
    def round_report(result):
        """Reads the output tokens."""
        return [(r.index, [c.name for c in r.tool_calls], r.model.usage.output_tokens) for r in result.rounds]

    return (round_report,)


def _every_call_in_every_row() -> tuple[Any, ...]:
    def round_report(result):
        """Lists every call of the run in each row."""
        names = [c.name for c in result.tool_calls]
        return [(r.index, names, r.model.usage.input_tokens) for r in result.rounds]

    return (round_report,)


q3 = Exercise(
    number=3,
    title="Read a run's trace",
    task="""\
`llm.run` returns what happened, round by round: `result.rounds` holds one record per tool round,
with `r.index` (from 1), `r.tool_calls` (each with `.name`, `.arguments`, `.output`) and `r.model`,
the model request that asked for those calls (`r.model.usage.input_tokens`, `.output_tokens`).
Write `round_report(result)`: one `(round number, [tool names], input tokens)` per round. The check
compares it with the trace of a two-round run on a fresh offline model, on each of the three APIs.""",
    stub='''\
def round_report(result):
    """One (round number, tool names called, input tokens of the request that asked) per round."""
    return [____ for r in result.rounds]


ex.q3.check()''',
    hint_text="For each r in result.rounds: (r.index, [call.name for call in r.tool_calls], "
    "r.model.usage.input_tokens).",
    names=("round_report",),
    judge=_judge_round_report,
    reference=lambda: (round_report,),
    solution_parts=(round_report,),
    wrong_answers=(
        WrongAnswer("rounds numbered from 0", _counts_from_zero, fix="rounds count from 1"),
        WrongAnswer("output tokens", _output_tokens, fix="r.model.usage.input_tokens"),
        WrongAnswer("every call in every row", _every_call_in_every_row, fix="r.tool_calls"),
    ),
)

EXERCISES: tuple[Exercise, ...] = (q1, q2, q3)
