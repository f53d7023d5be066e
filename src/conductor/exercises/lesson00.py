"""Lesson 00's exercises: a tool schema, a request the API rejects, a tool call by hand.

In the notebook::

    from conductor.exercises import ____, lesson00 as ex
    ex.q1.check()
"""

from __future__ import annotations

import json
from typing import Any, Literal

import anthropic

from conductor.scenarios import get_weather

from .core import Exercise, Wrong, WrongAnswer, as_tool, learner_call, offline_llm

__all__ = ["SETUP", "EXERCISES", "q1", "q2", "q3"]

SETUP = "from conductor.exercises import ____, lesson00 as ex"
"""The notebook cell that comes before the exercises."""

# -- exercise 1: a tool schema both APIs accept ----------------------------------------------------

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


def _judge_convert_temperature(convert_temperature: Any) -> str:
    tool = as_tool(convert_temperature, "convert_temperature")
    if not tool.description:
        raise Wrong(
            "the tool has no description: write a docstring. Its first line tells the model what "
            "the tool does and when to call it."
        )
    schema = tool.openai_schema()["function"]["parameters"]
    properties = schema["properties"]
    if properties.get("celsius", {}).get("type") != "number":
        raise Wrong("the first parameter should be `celsius: float`, so its schema type is \"number\".")
    unit = properties.get("unit")
    if unit is None:
        raise Wrong("add a parameter `unit` for the unit to convert to.")
    if set(unit.get("enum", ())) != UNITS:
        raise Wrong(
            f"the schema of `unit` is {json.dumps(unit)}, with no enum of the two units: annotate it "
            f'`unit: Literal["fahrenheit", "kelvin"]` so the model can send only those two values.'
        )
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
        "both APIs get a schema that requires only celsius and lists the two units; "
        f"the model called {calls[0].name}({json.dumps(calls[0].arguments)}) -> {calls[0].output}."
    )


def _unit_as_str() -> tuple[Any, ...]:
    def convert_temperature(celsius: float, unit: str = "fahrenheit") -> float:
        """Convert a temperature in °C to Fahrenheit or Kelvin."""
        return celsius * 9 / 5 + 32 if unit == "fahrenheit" else celsius + 273.15

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
function into a tool with `cd.tool`, reads the schema both APIs get, tries two conversions, and
offers the tool to a fresh offline model.""",
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

# -- exercise 3: a tool call by hand ---------------------------------------------------------------

HAND_QUESTION = "Is it warmer in Beijing or Shanghai?"


def answer_by_hand(llm, question):
    """Run every get_weather call the model asks for, send the results back; return the answer."""
    tools = [get_weather.openai_schema()]
    messages = [{"role": "user", "content": question}]
    response = llm.client.chat.completions.create(model=llm.model, messages=messages, tools=tools)
    message = response.choices[0].message
    turn = message.model_dump(include={"role", "content", "tool_calls"}, exclude_none=True)
    messages.append(turn)
    for call in message.tool_calls or []:
        result = get_weather(**json.loads(call.function.arguments))
        output = json.dumps(result, ensure_ascii=False)
        messages.append({"role": "tool", "tool_call_id": call.id, "content": output})
    final = llm.client.chat.completions.create(model=llm.model, messages=messages, tools=tools)
    return final.choices[0].message.content


def _issued_ids(first_request: dict[str, Any]) -> list[str]:
    """The call ids the model gave in answer to ``first_request``: the offline model is deterministic,
    so the same body, sent as is to a fresh one, gets the same ids back."""
    from openai.types.chat import ChatCompletion

    response = offline_llm().client.post("/chat/completions", body=first_request, cast_to=ChatCompletion)
    return [call.id for call in response.choices[0].message.tool_calls or []]


def _judge_answer_by_hand(answer_by_hand: Any) -> str:
    llm = offline_llm()
    answer = learner_call("answer_by_hand(llm, question)", answer_by_hand, llm, HAND_QUESTION)
    requests = llm.offline.requests
    if len(requests) < 2:
        raise Wrong(
            f"the model received {len(requests)} request(s): after running the calls, send the "
            "conversation with the tool results back in a second request."
        )
    if len(requests) > 2:
        raise Wrong(f"the model received {len(requests)} requests; two are enough: ask, then send the results.")
    if not requests[0].body.get("tools"):
        raise Wrong("the first request offers no tools: pass tools=[get_weather.openai_schema()].")
    issued = _issued_ids(requests[0].body)
    messages = requests[1].body["messages"]
    turn = next((i for i, m in enumerate(messages) if m.get("role") == "assistant" and m.get("tool_calls")), None)
    if turn is None:
        raise Wrong(
            "the second request holds no assistant message with tool_calls: append the model's turn "
            "(message.model_dump(include={\"role\", \"content\", \"tool_calls\"}, exclude_none=True)) "
            "before the tool messages."
        )
    sent_back = [c["id"] for c in messages[turn]["tool_calls"]]
    if sent_back != issued:
        raise Wrong(f"the assistant turn you sent back has call ids {sent_back}, but the model issued {issued}.")
    answers = [m for m in messages[turn + 1 :] if m.get("role") == "tool"]
    answered = [m.get("tool_call_id") for m in answers]
    if answered != issued:
        raise Wrong(
            f"the tool messages answer ids {answered}, but the model issued {issued}: answer every "
            "call, each once, in call order (loop over message.tool_calls)."
        )
    arguments = {c["id"]: json.loads(c["function"]["arguments"]) for c in messages[turn]["tool_calls"]}
    for m in answers:
        expected = get_weather(**arguments[m["tool_call_id"]])
        if _parsed(m.get("content")) != expected:
            raise Wrong(
                f"the tool message for {m['tool_call_id']} holds {m.get('content')!r}; send get_weather's "
                "result as JSON: json.dumps(get_weather(**arguments), ensure_ascii=False)."
            )
    if not isinstance(answer, str) or not answer.strip():
        raise Wrong(
            f"your function returned {answer!r}; return the text of the second response: "
            "final.choices[0].message.content."
        )
    return (
        f"2 requests; the second sent back the model's turn and answered its {len(issued)} call ids in "
        f"call order with get_weather's results. Answer: {answer}"
    )


def _parsed(content: Any) -> Any:
    try:
        return json.loads(content)
    except (TypeError, ValueError):
        return content


def _first_call_only() -> tuple[Any, ...]:
    def answer_by_hand(llm, question):
        """Answer only the first call of the turn."""
        tools = [get_weather.openai_schema()]
        messages = [{"role": "user", "content": question}]
        message = llm.client.chat.completions.create(model=llm.model, messages=messages, tools=tools)
        message = message.choices[0].message
        messages.append(message.model_dump(include={"role", "content", "tool_calls"}, exclude_none=True))
        call = message.tool_calls[0]
        result = get_weather(**json.loads(call.function.arguments))
        messages.append({"role": "tool", "tool_call_id": call.id, "content": json.dumps(result)})
        final = llm.client.chat.completions.create(model=llm.model, messages=messages, tools=tools)
        return final.choices[0].message.content

    return (answer_by_hand,)


def _turn_not_sent_back() -> tuple[Any, ...]:
    def answer_by_hand(llm, question):
        """Send the tool messages without the assistant turn that asked for them."""
        tools = [get_weather.openai_schema()]
        messages = [{"role": "user", "content": question}]
        message = llm.client.chat.completions.create(model=llm.model, messages=messages, tools=tools)
        for call in message.choices[0].message.tool_calls:
            result = get_weather(**json.loads(call.function.arguments))
            messages.append({"role": "tool", "tool_call_id": call.id, "content": json.dumps(result)})
        final = llm.client.chat.completions.create(model=llm.model, messages=messages, tools=tools)
        return final.choices[0].message.content

    return (answer_by_hand,)


def _made_up_results() -> tuple[Any, ...]:
    def answer_by_hand(llm, question):
        """Answer every call id, but with text the tool never returned."""
        tools = [get_weather.openai_schema()]
        messages = [{"role": "user", "content": question}]
        message = llm.client.chat.completions.create(model=llm.model, messages=messages, tools=tools)
        message = message.choices[0].message
        messages.append(message.model_dump(include={"role", "content", "tool_calls"}, exclude_none=True))
        for call in message.tool_calls:
            messages.append({"role": "tool", "tool_call_id": call.id, "content": "sunny"})
        final = llm.client.chat.completions.create(model=llm.model, messages=messages, tools=tools)
        return final.choices[0].message.content

    return (answer_by_hand,)


def _returns_first_response() -> tuple[Any, ...]:
    def answer_by_hand(llm, question):
        """Do the round trip, then return the first response's content (None beside tool calls)."""
        tools = [get_weather.openai_schema()]
        messages = [{"role": "user", "content": question}]
        first = llm.client.chat.completions.create(model=llm.model, messages=messages, tools=tools)
        message = first.choices[0].message
        messages.append(message.model_dump(include={"role", "content", "tool_calls"}, exclude_none=True))
        for call in message.tool_calls:
            result = get_weather(**json.loads(call.function.arguments))
            messages.append({"role": "tool", "tool_call_id": call.id, "content": json.dumps(result)})
        llm.client.chat.completions.create(model=llm.model, messages=messages, tools=tools)
        return first.choices[0].message.content

    return (answer_by_hand,)


q3 = Exercise(
    number=3,
    title="A tool call by hand",
    task=f"""\
Complete `answer_by_hand(llm, question)` on the OpenAI SDK (`llm.client`): after the first
request, append the model's turn, run `get_weather` for **every** call it asked for and append one
`tool` message per call id, then send the conversation again and return the answer's text. The
check calls it with a fresh offline model and the question
"{HAND_QUESTION}",
which makes the model ask for two calls in one turn, then reads the requests the model received.""",
    stub='''\
import json

from conductor.scenarios import get_weather


def answer_by_hand(llm, question):
    """Run every get_weather call the model asks for, send the results back; return the answer."""
    tools = [get_weather.openai_schema()]
    messages = [{"role": "user", "content": question}]
    response = llm.client.chat.completions.create(model=llm.model, messages=messages, tools=tools)
    message = response.choices[0].message
    ____  # 1. append the model's turn (with its tool_calls) to messages
    ____  # 2. for every call: run get_weather, append a tool message answering call.id
    ____  # 3. send messages again; return the answer's text


ex.q3.check()''',
    hint_text="The model's turn goes back as message.model_dump(include={\"role\", \"content\", "
    '"tool_calls"}, exclude_none=True). Loop over message.tool_calls; the arguments are JSON text: '
    "json.loads(call.function.arguments). A tool message is {\"role\": \"tool\", \"tool_call_id\": "
    'call.id, "content": json.dumps(result, ensure_ascii=False)}.',
    names=("answer_by_hand",),
    judge=_judge_answer_by_hand,
    reference=lambda: (answer_by_hand,),
    solution_parts=("import json\n\nfrom conductor.scenarios import get_weather", answer_by_hand),
    wrong_answers=(
        WrongAnswer("answers only tool_calls[0]", _first_call_only, fix="tool_call_id"),
        WrongAnswer("the model's turn is not sent back", _turn_not_sent_back, fix="tool_calls"),
        WrongAnswer("made-up tool results", _made_up_results, fix="json.dumps(get_weather(**arguments)"),
        WrongAnswer(
            "returns the first response's content", _returns_first_response, fix="final.choices[0].message.content"
        ),
    ),
)

EXERCISES: tuple[Exercise, ...] = (q1, q2, q3)
