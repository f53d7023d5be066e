"""Lesson 00's exercises: a tool schema, a request the API rejects, a tool call by hand.

In the notebook::

    from conductor.course.exercises import ____, lesson00 as ex
    ex.q1.check()
"""

from __future__ import annotations

import json
from typing import Any, Literal

import anthropic

from conductor.course.scenarios import get_weather

from .core import Exercise, Wrong, WrongAnswer, as_tool, learner_call, offline_llm

__all__ = ["SETUP", "EXERCISES", "q1", "q2", "q3"]

SETUP = "from conductor.course.exercises import ____, lesson00 as ex"
"""The notebook cell that comes before the exercises."""

# -- exercise 1: a tool schema all three APIs accept -----------------------------------------------

UNITS = {"fahrenheit", "kelvin"}


def convert_temperature(
    celsius: float, unit: Literal["fahrenheit", "kelvin"] = "fahrenheit"
) -> float:
    """Convert a temperature in °C to Fahrenheit or Kelvin.

    Args:
        celsius: The temperature in °C.
        unit: The unit to convert to.
    """
    return celsius * 9 / 5 + 32 if unit == "fahrenheit" else celsius + 273.15


def _expect_number(doing: str, got: Any, expected: float) -> None:
    if not isinstance(got, int | float) or abs(got - expected) > 1e-6:
        raise Wrong(f"{doing} returned {got!r}; it should return {expected}.")


def _enum_values(schema: dict[str, Any]) -> list[Any] | None:
    """The values an ``enum`` lists in ``schema`` or in one of its ``anyOf`` branches, or None when none does."""
    for part in (schema, *schema.get("anyOf", ())):
        if "enum" in part:
            return list(part["enum"])
    return None


def _check_unit_enum(unit: dict[str, Any]) -> None:
    """``unit``'s schema must be an enum of exactly the two units, with nothing else allowed."""
    annotate = 'annotate it `unit: Literal["fahrenheit", "kelvin"]` so the model can send only those two values.'
    listed = _enum_values(unit)
    if listed is None:
        raise Wrong(f"the schema of `unit` is {json.dumps(unit)}, with no enum of the two units: {annotate}")
    if set(listed) != UNITS:
        raise Wrong(
            f"the enum of `unit` lists {json.dumps(listed)}, but the two units are spelled \"fahrenheit\" "
            f"and \"kelvin\", the exact strings the model will send: {annotate}"
        )
    if "anyOf" in unit:
        others = [part for part in unit["anyOf"] if "enum" not in part]
        raise Wrong(
            f"the schema of `unit` allows {json.dumps(others)} besides the enum of the two units (the hint "
            f"says `| None` or Optional): {annotate}"
        )


def _judge_convert_temperature(convert_temperature: Any) -> str:
    tool = as_tool(convert_temperature, "convert_temperature")
    if not tool.description:
        raise Wrong(
            "the tool has no description: write a docstring. Its first line tells the model what "
            "the tool does and when to call it."
        )
    schema = tool.parameters  # the schema built from the hints (a strict tool is sent in a stricter form)
    properties = schema["properties"]
    if properties.get("celsius", {}).get("type") != "number":
        raise Wrong("the first parameter should be `celsius: float`, so its schema type is \"number\".")
    unit = properties.get("unit")
    if unit is None:
        raise Wrong("add a parameter `unit` for the unit to convert to.")
    _check_unit_enum(unit)
    if schema["required"] != ["celsius"]:
        raise Wrong(
            f"the schema requires {schema['required']}, but only celsius should be required: "
            f'give unit a default, `= "fahrenheit"`.'
        )
    _expect_number("convert_temperature(100)", learner_call("convert_temperature(100)", tool, 100), 212)
    kelvin = learner_call('convert_temperature(0, "kelvin")', tool, 0, "kelvin")
    _expect_number('convert_temperature(0, "kelvin")', kelvin, 273.15)
    run = offline_llm().run("Convert 20 celsius to kelvin", tools=[tool])
    calls = [c for c in run.tool_calls if c.name == tool.name]
    if not calls:
        raise Wrong(f"the model did not call the tool; its answer was: {run.answer}")
    if calls[0].is_error:
        raise Wrong(f"the model's call failed: {calls[0].output}")
    return (
        "all three APIs get a schema that requires only celsius and lists the two units; "
        f"the model called {calls[0].name}({json.dumps(calls[0].arguments)}) -> {calls[0].output}."
    )


def _unit_as_str() -> tuple[Any, ...]:
    def convert_temperature(celsius: float, unit: str = "fahrenheit") -> float:
        """Convert a temperature in °C to Fahrenheit or Kelvin."""
        return celsius * 9 / 5 + 32 if unit == "fahrenheit" else celsius + 273.15

    return (convert_temperature,)


def _unit_abbreviated() -> tuple[Any, ...]:
    def convert_temperature(celsius: float, unit: Literal["F", "K"] = "F") -> float:
        """Convert a temperature in °C to Fahrenheit or Kelvin."""
        return celsius * 9 / 5 + 32 if unit == "F" else celsius + 273.15

    return (convert_temperature,)


def _unit_optional() -> tuple[Any, ...]:
    def convert_temperature(celsius: float, unit: Literal["fahrenheit", "kelvin"] | None = "fahrenheit") -> float:
        """Convert a temperature in °C to Fahrenheit or Kelvin."""
        return celsius + 273.15 if unit == "kelvin" else celsius * 9 / 5 + 32

    return (convert_temperature,)


def _unit_without_default() -> tuple[Any, ...]:
    def convert_temperature(celsius: float, unit: Literal["fahrenheit", "kelvin"]) -> float:
        """Convert a temperature in °C to Fahrenheit or Kelvin."""
        return celsius * 9 / 5 + 32 if unit == "fahrenheit" else celsius + 273.15

    return (convert_temperature,)


def _kelvin_backwards() -> tuple[Any, ...]:
    def convert_temperature(celsius: float, unit: Literal["fahrenheit", "kelvin"] = "fahrenheit") -> float:
        """Convert a temperature in °C to Fahrenheit or Kelvin."""
        return celsius * 9 / 5 + 32 if unit == "fahrenheit" else celsius - 273.15

    return (convert_temperature,)


def _no_docstring() -> tuple[Any, ...]:
    def convert_temperature(celsius: float, unit: Literal["fahrenheit", "kelvin"] = "fahrenheit") -> float:
        return celsius * 9 / 5 + 32 if unit == "fahrenheit" else celsius + 273.15

    return (convert_temperature,)


q1 = Exercise(
    number=1,
    title="Render your own tool",
    task="""\
Write `convert_temperature`, which converts a temperature in °C to `"fahrenheit"` or
`"kelvin"`: a `celsius` number, and a `unit` that can only be one of the two (a `Literal`) with
`"fahrenheit"` as its default. Give it a docstring: the model reads it. The check turns the
function into a tool with `cd.tool`, reads the schema of its parameters (the same on all three
APIs), tries two conversions, and offers the tool to a fresh offline model.""",
    stub='''\
from typing import Literal


def convert_temperature(celsius: float, unit: ____ = "fahrenheit") -> float:
    """____"""
    return ____


ex.q1.check()''',
    hint_text='A `Literal["fahrenheit", "kelvin"]` hint becomes an `enum` in the schema, and a parameter '
    "with a default is left out of `required`. The first line of the docstring becomes the tool's "
    "description. °F = °C × 9/5 + 32; K = °C + 273.15.",
    names=("convert_temperature",),
    judge=_judge_convert_temperature,
    reference=lambda: (convert_temperature,),
    solution_parts=("from typing import Literal", convert_temperature),
    wrong_answers=(
        WrongAnswer("unit: str", _unit_as_str, fix='Literal["fahrenheit", "kelvin"]'),
        WrongAnswer('unit: Literal["F", "K"]', _unit_abbreviated, fix='the two units are spelled "fahrenheit"'),
        WrongAnswer("unit may be None", _unit_optional, fix='besides the enum of the two units'),
        WrongAnswer("unit without a default", _unit_without_default, fix="give unit a default"),
        WrongAnswer("Kelvin as celsius - 273.15", _kelvin_backwards, fix="should return 273.15"),
        WrongAnswer("no docstring", _no_docstring, fix="write a docstring"),
    ),
)

# -- exercise 2: a request the Messages API rejects ------------------------------------------------


def send_rejected_request(client, model):
    """Send the Messages API a conversation that breaks a tool-use rule; return the SDK's error."""
    call = {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "北京"}}
    result = {"type": "tool_result", "tool_use_id": "toolu_1", "content": "晴, 5°C"}
    question = "北京今天天气怎么样?"  # "What's the weather in Beijing today?"
    messages = [
        {"role": "user", "content": question},
        {"role": "assistant", "content": [call]},
        {"role": "user", "content": [result]},
    ]
    try:  # no tools=[...]: a request with tool blocks must define the tools
        client.messages.create(model=model, max_tokens=1024, messages=messages)
    except anthropic.BadRequestError as error:
        return error
    return None


def _judge_rejected_request(send_rejected_request: Any) -> str:
    llm = offline_llm("anthropic")
    try:
        returned = learner_call("send_rejected_request(client, model)", send_rejected_request, llm.client, llm.model)
    except Wrong as wrong:
        if isinstance(wrong.__cause__, anthropic.BadRequestError):
            raise Wrong(
                "the SDK's anthropic.BadRequestError escaped from your function: catch it "
                "(`except anthropic.BadRequestError as error:`) and return it."
            ) from wrong.__cause__
        raise
    requests = llm.offline.requests
    if not requests:
        raise Wrong("no request reached the API: call client.messages.create(...) in your function.")
    last = requests[-1]
    if last.status == 200:
        raise Wrong(
            "the API accepted your request (HTTP 200). Break one of its tool-use rules: for example, "
            "send a tool_result block without defining tools, or leave a tool_use block unanswered."
        )
    if not isinstance(returned, anthropic.APIStatusError):
        raise Wrong(f"return the exception you caught; your function returned {returned!r}.")
    message = returned.body["error"]["message"] if isinstance(returned.body, dict) else str(returned)
    if "tool" not in message.lower():
        raise Wrong(f"the API rejected the request, but not for a tool-use rule: {message}")
    return f"the offline Messages API answered HTTP {returned.status_code} ({last.path}): {message}"


def _valid_request() -> tuple[Any, ...]:
    def send_rejected_request(client, model):
        """Send a plain question: nothing wrong with it."""
        try:
            client.messages.create(model=model, max_tokens=1024, messages=[{"role": "user", "content": "Hi"}])
        except anthropic.BadRequestError as error:
            return error
        return None

    return (send_rejected_request,)


def _error_escapes() -> tuple[Any, ...]:
    def send_rejected_request(client, model):
        """Break the rule, but let the SDK's error escape."""
        return client.messages.create(
            model=model,
            max_tokens=1024,
            messages=[
                {"role": "user", "content": "北京今天天气怎么样?"},
                {"role": "assistant", "content": [
                    {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "北京"}},
                ]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "晴"}]},
            ],
        )

    return (send_rejected_request,)


def _rejected_for_another_rule() -> tuple[Any, ...]:
    def send_rejected_request(client, model):
        """Start with an assistant message: rejected, but not for a tool-use rule."""
        try:
            client.messages.create(
                model=model, max_tokens=1024, messages=[{"role": "assistant", "content": "Hello"}]
            )
        except anthropic.BadRequestError as error:
            return error
        return None

    return (send_rejected_request,)


q2 = Exercise(
    number=2,
    title="A request the Messages API rejects",
    task="""\
Complete `send_rejected_request(client, model)`: with `client.messages.create(...)` by hand,
send a conversation that breaks one of Anthropic's rules for tool use (a `tool_result` block in a
request that defines no `tools`, or a `tool_use` block that is never answered), catch the SDK's
exception and return it. The check calls your function with a fresh offline Anthropic client and
reads the requests the model received.""",
    stub='''\
import anthropic


def send_rejected_request(client, model):
    """Send the Messages API a conversation that breaks a tool-use rule; return the SDK's error."""
    try:
        client.messages.create(model=model, max_tokens=1024, messages=____)
    except anthropic.BadRequestError as error:
        return error
    return None


ex.q2.check()''',
    hint_text="A tool_use block is a dict like {\"type\": \"tool_use\", \"id\": \"toolu_1\", \"name\": "
    '"get_weather", "input": {"city": "北京"}} inside an assistant message; a tool_result answers it '
    'with {"type": "tool_result", "tool_use_id": "toolu_1", "content": "..."} in the next user message. '
    "Send both without tools=[...], or leave out the tool_result.",
    names=("send_rejected_request",),
    judge=_judge_rejected_request,
    reference=lambda: (send_rejected_request,),
    solution_parts=("import anthropic", send_rejected_request),
    wrong_answers=(
        WrongAnswer("a valid request", _valid_request, fix="Break one of its tool-use rules"),
        WrongAnswer("the error is not caught", _error_escapes, fix="catch it"),
        WrongAnswer("rejected for a rule about roles", _rejected_for_another_rule, fix="not for a tool-use rule"),
    ),
)

# -- exercise 3: a tool call by hand, on the Responses API -----------------------------------------

HAND_QUESTION = "Is it warmer in Beijing or Shanghai?"


def answer_by_hand(llm, question):
    """Run every get_weather call the model asks for, send the results back; return the answer."""
    tools = [get_weather.responses_schema()]
    items = [{"role": "user", "content": question}]
    response = llm.client.responses.create(model=llm.model, input=items, tools=tools)
    items += response.output  # the model's output items go back as they came
    calls = [item for item in response.output if item.type == "function_call"]
    for call in calls:
        output = json.dumps(get_weather(**json.loads(call.arguments)), ensure_ascii=False)
        items.append({"type": "function_call_output", "call_id": call.call_id, "output": output})
    final = llm.client.responses.create(model=llm.model, input=items, tools=tools)
    return final.output_text


def _issued_ids(first_request: dict[str, Any]) -> list[str]:
    """The call ids the model gave in answer to ``first_request``: the offline model is deterministic,
    so the same body, sent as is to a fresh one, gets the same ids back."""
    from openai.types.responses import Response

    response = offline_llm("responses").client.post("/responses", body=first_request, cast_to=Response)
    return [item.call_id for item in response.output if item.type == "function_call"]


# What the Responses API answers to the usual mistakes of a hand-written round trip, and the fix for each.
_API_FIXES = {
    "Missing required parameter: 'tools[0].name'": (
        "the tools are in the Chat Completions shape (wrapped in \"function\"); the Responses API takes "
        "them flat: tools=[get_weather.responses_schema()]."
    ),
    "No tool call found for function call output": (
        "the API found a function_call_output whose function_call is not in the request: add the "
        "model's output items to input (items += response.output) before the function_call_output items."
    ),
    "No tool output found for function call": (
        "a function_call was left without its function_call_output: answer every call_id, each once "
        "(loop over the function_call items of response.output)."
    ),
}


def _call_answer_by_hand(answer_by_hand: Any, llm: Any) -> Any:
    import openai

    try:
        return learner_call("answer_by_hand(llm, question)", answer_by_hand, llm, HAND_QUESTION)
    except Wrong as wrong:
        cause = wrong.__cause__
        if isinstance(cause, openai.BadRequestError):
            for text, fix in _API_FIXES.items():
                if text in str(cause):
                    raise Wrong(f"{wrong} In other words, {fix}") from cause
        raise


def _judge_answer_by_hand(answer_by_hand: Any) -> str:
    llm = offline_llm("responses")
    answer = _call_answer_by_hand(answer_by_hand, llm)
    requests = llm.offline.requests
    if len(requests) < 2:
        raise Wrong(
            f"the model received {len(requests)} request(s): after running the calls, send the "
            "conversation with the function_call_output items back in a second request."
        )
    if len(requests) > 2:
        raise Wrong(f"the model received {len(requests)} requests; two are enough: ask, then send the results.")
    if requests[0].path != "/v1/responses" or not requests[0].body.get("tools"):
        raise Wrong(
            "the first request should go to the Responses API with tools: "
            "llm.client.responses.create(..., tools=[get_weather.responses_schema()])."
        )
    issued = _issued_ids(requests[0].body)
    items = requests[1].body.get("input")
    if not isinstance(items, list):
        raise Wrong("the second request should send the conversation as a list of input items, like the first.")
    calls = [i for i in items if isinstance(i, dict) and i.get("type") == "function_call"]
    sent_back = [i.get("call_id") for i in calls]
    if sent_back != issued:
        raise Wrong(
            f"the second request sends back function_call items with call ids {sent_back}, but the model "
            f"issued {issued}: add the model's output items to input (items += response.output)."
        )
    answers = [i for i in items if isinstance(i, dict) and i.get("type") == "function_call_output"]
    answered = [i.get("call_id") for i in answers]
    if answered != issued:
        raise Wrong(
            f"the function_call_output items answer call ids {answered}, but the model issued {issued}: "
            "answer every call_id, each once, in call order (loop over the function_call items)."
        )
    arguments = {i["call_id"]: json.loads(i["arguments"]) for i in calls}
    for item in answers:
        expected = get_weather(**arguments[item["call_id"]])
        if _parsed(item.get("output")) != expected:
            raise Wrong(
                f"the function_call_output for {item['call_id']} holds {item.get('output')!r}; send "
                "get_weather's result as JSON: json.dumps(get_weather(**arguments), ensure_ascii=False)."
            )
    if not isinstance(answer, str) or not answer.strip():
        raise Wrong(
            f"your function returned {answer!r}; return the text of the second response: final.output_text."
        )
    return (
        f"2 requests; the second sent back the model's {len(issued)} function_call items and answered "
        f"each call_id in call order with get_weather's result. Answer: {answer}"
    )


def _parsed(content: Any) -> Any:
    try:
        return json.loads(content)
    except (TypeError, ValueError):
        return content


def _first_call_only() -> tuple[Any, ...]:
    def answer_by_hand(llm, question):
        """Answer only the first call of the turn."""
        tools = [get_weather.responses_schema()]
        items = [{"role": "user", "content": question}]
        response = llm.client.responses.create(model=llm.model, input=items, tools=tools)
        items += response.output
        call = next(item for item in response.output if item.type == "function_call")
        result = get_weather(**json.loads(call.arguments))
        items.append({"type": "function_call_output", "call_id": call.call_id, "output": json.dumps(result)})
        final = llm.client.responses.create(model=llm.model, input=items, tools=tools)
        return final.output_text

    return (answer_by_hand,)


def _calls_not_sent_back() -> tuple[Any, ...]:
    def answer_by_hand(llm, question):
        """Send the function_call_output items without the function_call items they answer."""
        tools = [get_weather.responses_schema()]
        items = [{"role": "user", "content": question}]
        response = llm.client.responses.create(model=llm.model, input=items, tools=tools)
        for item in response.output:
            if item.type == "function_call":
                result = get_weather(**json.loads(item.arguments))
                output = json.dumps(result)
                items.append({"type": "function_call_output", "call_id": item.call_id, "output": output})
        final = llm.client.responses.create(model=llm.model, input=items, tools=tools)
        return final.output_text

    return (answer_by_hand,)


def _made_up_results() -> tuple[Any, ...]:
    def answer_by_hand(llm, question):
        """Answer every call id, but with text the tool never returned."""
        tools = [get_weather.responses_schema()]
        items = [{"role": "user", "content": question}]
        response = llm.client.responses.create(model=llm.model, input=items, tools=tools)
        items += response.output
        for item in response.output:
            if item.type == "function_call":
                items.append({"type": "function_call_output", "call_id": item.call_id, "output": "sunny"})
        final = llm.client.responses.create(model=llm.model, input=items, tools=tools)
        return final.output_text

    return (answer_by_hand,)


def _returns_first_response() -> tuple[Any, ...]:
    def answer_by_hand(llm, question):
        """Do the round trip, then return the first response's text (empty beside function calls)."""
        tools = [get_weather.responses_schema()]
        items = [{"role": "user", "content": question}]
        first = llm.client.responses.create(model=llm.model, input=items, tools=tools)
        items += first.output
        for item in first.output:
            if item.type == "function_call":
                result = get_weather(**json.loads(item.arguments))
                output = json.dumps(result)
                items.append({"type": "function_call_output", "call_id": item.call_id, "output": output})
        llm.client.responses.create(model=llm.model, input=items, tools=tools)
        return first.output_text

    return (answer_by_hand,)


def _chat_completions_tools() -> tuple[Any, ...]:
    def answer_by_hand(llm, question):
        """Offer the tool in the Chat Completions shape, which the Responses API rejects."""
        tools = [get_weather.openai_schema()]
        items = [{"role": "user", "content": question}]
        response = llm.client.responses.create(model=llm.model, input=items, tools=tools)
        return response.output_text

    return (answer_by_hand,)


q3 = Exercise(
    number=3,
    title="A tool call by hand",
    task=f"""\
Complete `answer_by_hand(llm, question)` on the Responses API (`llm.client.responses`), as in
the lesson: after the first request, add the model's output items to `items`, run `get_weather`
for **every** `function_call` item and append one `function_call_output` per `call_id`, then send
`items` again and return the answer's text. The check calls it with a fresh offline model and the
question "{HAND_QUESTION}",
which makes the model ask for two calls in one turn, then reads the requests the model received.""",
    stub='''\
import json

from conductor.course.scenarios import get_weather


def answer_by_hand(llm, question):
    """Run every get_weather call the model asks for, send the results back; return the answer."""
    tools = [get_weather.responses_schema()]
    items = [{"role": "user", "content": question}]
    response = llm.client.responses.create(model=llm.model, input=items, tools=tools)
    ____  # 1. add the model's output items (its function_call items among them) to items
    ____  # 2. for every function_call item: run get_weather, append a function_call_output
    ____  # 3. send items again; return the answer's text


ex.q3.check()''',
    hint_text="The model's output items go back as they came: items += response.output. Loop over them and "
    'keep those with item.type == "function_call"; the arguments are JSON text: json.loads(item.arguments). '
    'A result is {"type": "function_call_output", "call_id": item.call_id, "output": json.dumps(result, '
    "ensure_ascii=False)}. The second response's text is final.output_text.",
    names=("answer_by_hand",),
    judge=_judge_answer_by_hand,
    reference=lambda: (answer_by_hand,),
    solution_parts=("import json\n\nfrom conductor.course.scenarios import get_weather", answer_by_hand),
    wrong_answers=(
        WrongAnswer("answers only the first function_call", _first_call_only, fix="answer every call_id"),
        WrongAnswer("the model's items are not sent back", _calls_not_sent_back, fix="items += response.output"),
        WrongAnswer("made-up tool results", _made_up_results, fix="json.dumps(get_weather(**arguments)"),
        WrongAnswer("returns the first response's text", _returns_first_response, fix="final.output_text"),
        WrongAnswer("Chat Completions tools on Responses", _chat_completions_tools, fix="responses_schema()"),
    ),
)

EXERCISES: tuple[Exercise, ...] = (q1, q2, q3)
