"""Fuzzing the loop with what a model may send: junk arguments and junk responses.

Two promises are checked on hypothesis-generated input, on each of the three APIs:

* a tool runs only with arguments that validate against its schema; anything
  else (malformed JSON, wrong types, huge strings, odd unicode, nested junk)
  becomes an error result for the model and the run goes on;
* a response body the SDK accepts but that no real API would send (missing
  fields, wrong types, junk finish reasons) ends in a RunResult or a clear
  exception, never an AttributeError/KeyError/TypeError from inside the loop.
"""

from __future__ import annotations

import json
import math
from typing import Any

import httpx2
import pydantic
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import conductor as cd
from conductor.rounds import DEFAULT_MAX_PAUSES, MalformedResponseError
from conductor.tools import ToolArgumentsError
from scripted import offline, scripted
from wire import APIS

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


class Point(pydantic.BaseModel):
    x: float
    y: float


executed: list[tuple[str, dict[str, Any]]] = []


@cd.tool
def move(steps: int, direction: str, path: list[Point], label: str | None = None) -> dict:
    """Move a robot.

    Args:
        steps: how many steps
        direction: north, south, east or west
        path: the points to pass through
        label: an optional note
    """
    # The function sees only validated input: the types its hints promise.
    assert isinstance(steps, int) and not isinstance(steps, bool)
    assert isinstance(direction, str)
    assert all(isinstance(p, Point) for p in path)
    executed.append(("move", {"steps": steps, "direction": direction}))
    return {"moved": steps}


junk = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
# What a server can put in a JSON body: no NaN or infinity (not JSON), so finite floats only.
wire_junk = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
raw_text = st.one_of(
    st.text(max_size=60),  # mostly invalid JSON
    st.just("{" * 200),
    st.just('{"steps": 1, "direction": "north", "path": []'),  # cut short
    st.text(alphabet="\u0000\u200b\u202e\ud7ff\U0001f600{}[]\":,", max_size=40),
    st.builds(lambda n: json.dumps({"steps": 1, "direction": "x" * n, "path": []}), st.integers(10_000, 50_000)),
)
arguments = st.one_of(st.dictionaries(st.sampled_from(["steps", "direction", "path", "label", "extra"]), junk), raw_text)


def _valid(args: Any) -> bool:
    """Whether the arguments validate as the wire carries them (a dict travels as JSON text)."""
    try:
        move.validate(json.dumps(args) if isinstance(args, dict) else args)
    except ToolArgumentsError:
        return False
    return True


def _finite(value: Any) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        return all(_finite(v) for v in value.values())
    if isinstance(value, list):
        return all(_finite(v) for v in value)
    return True


@pytest.mark.parametrize("api", APIS)
@FUZZ
@given(calls=st.lists(arguments, min_size=1, max_size=3), parallel=st.booleans())
def test_junk_arguments_never_reach_the_tool(api, calls, parallel):
    if api == "messages" and any(isinstance(a, str) for a in calls):
        calls = [a if isinstance(a, dict) else {"raw": a} for a in calls]  # Anthropic sends objects only
    executed.clear()
    llm, model = offline(api, scripted([("move", a) for a in calls], "done"))
    if api == "messages" and not all(_finite(a) for a in calls):
        # Anthropic's server parses the input itself, so NaN/Infinity there is a broken server, not a model;
        # unless the turn is cut at max_tokens first (a huge call beside it), which carries no call at all.
        try:
            cut = llm.run("Move", tools=[move], max_rounds=1, parallel=parallel)
        except MalformedResponseError as exc:
            assert "could not be read" in str(exc)
        else:
            assert cut.truncated and not cut.tool_calls
        assert executed == []
        return
    result = llm.run("Move", tools=[move], max_rounds=1, parallel=parallel, max_repeats=10)  # repeats are lesson 04's
    records = result.tool_calls
    if not records:  # a huge call does not fit in max_tokens: the model's turn is cut, as a real one is
        assert result.truncated and executed == []
        return
    assert len(records) == len(calls)
    for args, record in zip(calls, records):
        assert record.is_error != _valid(args), record.output
        if record.is_error:
            assert "move" in record.output  # the message names the tool, for the model to correct itself
    assert len(executed) == sum(_valid(a) for a in calls)
    assert all(r.status == 200 for r in model.requests)


@pytest.mark.parametrize("api", ["responses", "chat"])
def test_infinity_in_openai_arguments_is_invalid_json_for_the_model(api):
    # Python's json reads "Infinity"; JSON does not, and neither SDK can send the float back.
    executed.clear()
    llm, _ = offline(api, scripted([("move", '{"steps": 1, "direction": "north", "path": [{"x": Infinity, "y": 0}]}')], "done"))
    record = llm.run("Move", tools=[move], max_rounds=1).tool_calls[0]
    assert record.is_error and "Infinity is not JSON" in record.output and executed == []


def test_infinity_in_an_anthropic_body_is_a_malformed_response():
    llm, _ = offline("messages", scripted([("move", {"steps": 1, "direction": "north", "path": [{"x": math.inf, "y": 0}]})], "done"))
    with pytest.raises(MalformedResponseError, match="messages response from .* could not be read"):
        llm.run("Move", tools=[move], max_rounds=1)
    assert executed == []


# -- junk responses through the real SDK clients -------------------------------------------

finish = st.sampled_from(["stop", "tool_calls", "length", "content_filter", "function_call", "weird", None])
tool_call = st.fixed_dictionaries(
    {
        "id": st.one_of(st.just(""), st.text(max_size=30)),
        "type": st.sampled_from(["function", "custom", "junk"]),
        "function": st.fixed_dictionaries(
            {"name": st.one_of(st.just("move"), st.text(max_size=20)), "arguments": raw_text}
        ),
    }
)
openai_message = st.fixed_dictionaries(
    {"role": st.just("assistant")},
    optional={
        "content": st.one_of(st.none(), st.text(max_size=200)),
        "tool_calls": st.one_of(st.none(), st.lists(tool_call, max_size=3)),
        "refusal": st.one_of(st.none(), st.text(max_size=20)),
    },
)
openai_body = st.fixed_dictionaries(
    {
        "id": st.text(max_size=10),
        "object": st.just("chat.completion"),
        "created": st.integers(0, 2**31),
        "model": st.text(max_size=10),
        "choices": st.lists(
            st.fixed_dictionaries({"index": st.just(0), "message": openai_message, "finish_reason": finish}),
            min_size=0,
            max_size=2,
        ),
    },
    optional={"usage": st.one_of(st.none(), st.fixed_dictionaries({"prompt_tokens": st.integers(0, 10**6)}))},
)
anthropic_block = st.one_of(
    st.fixed_dictionaries({"type": st.just("text"), "text": st.text(max_size=100)}),
    st.fixed_dictionaries(
        {
            "type": st.just("tool_use"),
            "id": st.text(max_size=20),
            "name": st.one_of(st.just("move"), st.text(max_size=10)),
            "input": st.one_of(st.dictionaries(st.text(max_size=8), wire_junk, max_size=3), wire_junk),
        }
    ),
    st.fixed_dictionaries({"type": st.sampled_from(["thinking", "mystery", "server_tool_use"])}),
)
anthropic_body = st.fixed_dictionaries(
    {
        "id": st.text(max_size=10),
        "type": st.just("message"),
        "role": st.just("assistant"),
        "model": st.text(max_size=10),
        "content": st.lists(anthropic_block, max_size=3),
        "stop_reason": st.sampled_from(["end_turn", "tool_use", "max_tokens", "refusal", "pause_turn", "odd", None]),
    },
    optional={"usage": st.fixed_dictionaries({"input_tokens": st.integers(0, 10**6), "output_tokens": st.integers(0, 10**6)})},
)

output_part = st.one_of(
    st.fixed_dictionaries({"type": st.just("output_text"), "text": st.text(max_size=100)},
                          optional={"annotations": st.just([])}),
    st.fixed_dictionaries({"type": st.just("refusal"), "refusal": st.text(max_size=40)}),
    st.fixed_dictionaries({"type": st.sampled_from(["mystery", "output_audio"])}),
)
responses_item = st.one_of(
    st.fixed_dictionaries(
        {"type": st.just("message"), "id": st.text(max_size=10), "role": st.just("assistant")},
        optional={"status": st.sampled_from(["completed", "incomplete"]),
                  "content": st.one_of(st.none(), st.lists(output_part, max_size=3))},
    ),
    st.fixed_dictionaries(
        {"type": st.just("function_call"), "name": st.one_of(st.just("move"), st.text(max_size=20))},
        optional={"id": st.text(max_size=10), "call_id": st.one_of(st.just(""), st.text(max_size=30)),
                  "arguments": st.one_of(st.none(), raw_text), "status": st.just("completed")},
    ),
    st.fixed_dictionaries({"type": st.just("reasoning"), "id": st.text(max_size=10)},
                          optional={"summary": st.just([]), "encrypted_content": st.text(max_size=20)}),
    st.fixed_dictionaries({"type": st.sampled_from(["web_search_call", "mystery"])}, optional={"id": st.text(max_size=5)}),
)
responses_body = st.fixed_dictionaries(
    {
        "id": st.text(max_size=10),
        "object": st.just("response"),
        "created_at": st.integers(0, 2**31),
        "model": st.text(max_size=10),
        "status": st.sampled_from(["completed", "incomplete", "failed", "in_progress", "odd", None]),
        "output": st.one_of(st.none(), st.lists(responses_item, max_size=3)),
    },
    optional={
        "incomplete_details": st.one_of(
            st.none(), st.fixed_dictionaries({}, optional={"reason": st.sampled_from(
                ["max_output_tokens", "content_filter", "odd", None])})),
        "usage": st.one_of(st.none(), st.fixed_dictionaries(
            {"input_tokens": st.integers(0, 10**6), "output_tokens": st.integers(0, 10**6)},
            optional={"input_tokens_details": st.one_of(st.none(), st.fixed_dictionaries(
                {}, optional={"cached_tokens": st.one_of(st.none(), st.integers(0, 10**6))}))})),
    },
)

CLEAR_ERRORS = (ValueError, RuntimeError, cd.ProviderError)


def _client(api: str, bodies: list[dict[str, Any]]):
    """An official SDK client whose every request gets the next fuzzed body (the last one repeats)."""
    import anthropic
    import openai

    served = iter(bodies)
    last: list[dict[str, Any]] = []

    def handler(request: httpx2.Request) -> httpx2.Response:
        body = next(served, None)
        if body is None:
            body = last[0]
        last[:] = [body]
        return httpx2.Response(200, json=body)

    http = httpx2.Client(transport=httpx2.MockTransport(handler))
    if api in ("responses", "chat"):
        return openai.OpenAI(api_key="sk-test", base_url="http://fuzz.invalid/v1", http_client=http, max_retries=0)
    return anthropic.Anthropic(api_key="sk-ant-test", base_url="http://fuzz.invalid", http_client=http, max_retries=0)


def _run_fuzzed(api: str, bodies: list[dict[str, Any]]) -> None:
    import anthropic
    import openai

    llm = cd.connect(_client(api, bodies), model="fuzz-model", api=api)
    executed.clear()
    try:
        result = llm.run("Move", tools=[move], max_rounds=2)
    except CLEAR_ERRORS as exc:
        assert str(exc), "an exception for the learner must say what went wrong"
        return
    except (openai.APIResponseValidationError, anthropic.APIResponseValidationError):
        return  # the SDK itself refused the body, with its own message
    assert result.api_calls <= 3 + DEFAULT_MAX_PAUSES  # max_rounds + 1, and the continuations of paused turns
    assert isinstance(result.answer, str)
    assert len(executed) == sum(1 for r in result.tool_calls if not r.is_error)


@FUZZ
@given(bodies=st.lists(responses_body, min_size=1, max_size=3))
def test_junk_responses_api_bodies_end_cleanly(bodies):
    _run_fuzzed("responses", bodies)


@FUZZ
@given(bodies=st.lists(openai_body, min_size=1, max_size=3))
def test_junk_openai_responses_end_cleanly(bodies):
    _run_fuzzed("chat", bodies)


@FUZZ
@given(bodies=st.lists(anthropic_body, min_size=1, max_size=3))
def test_junk_anthropic_responses_end_cleanly(bodies):
    _run_fuzzed("messages", bodies)
