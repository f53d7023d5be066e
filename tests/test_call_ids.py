"""Tool-call ids the model repeats or leaves empty: each call still gets its own result."""

from __future__ import annotations

import json

import pytest

import conductor as cd
from scripted import RawServer, raw_response
from wire import APIS, results_by_id, tool_calls

MODELS = {"responses": "gpt-5.4-mini", "chat": "gpt-4.1-mini", "messages": "claude-haiku-4-5"}
TEMPERATURES = {"北京": 5, "上海": 18}


@cd.tool
def get_weather(city: str) -> dict:
    """Get today's weather for a city."""
    return {"city": city, "temperature": TEMPERATURES[city]}


def sent_calls_and_results(body: dict) -> tuple[list[str], dict[str, str]]:
    """The call ids of the request's assistant turns, and each answered id's result content (fails on a call
    answered twice)."""
    return [call_id for call_id, _, _ in tool_calls(body)], results_by_id(body)


def run(api: str, responses: list[dict]) -> tuple[cd.RunResult, RawServer]:
    server = RawServer(api, responses)
    llm = cd.connect(server.client(), model=MODELS[api], api=api)
    return llm.run("Compare 北京 and 上海", tools=[get_weather], max_rounds=3), server


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("ids", [("call_x", "call_x"), ("", "")], ids=["same", "empty"])
def test_two_calls_sharing_an_id_get_a_result_each(api, ids):
    calls = [(ids[0], "get_weather", {"city": "北京"}), (ids[1], "get_weather", {"city": "上海"})]
    result, server = run(api, [raw_response(api, calls=calls), raw_response(api, "Compared.")])
    records = result.rounds[0].tool_calls
    assert [json.loads(r.output)["temperature"] for r in records] == [5, 18]
    sent, answered = sent_calls_and_results(server.bodies[1])
    assert sent == [r.id for r in records] and all(sent) and len(set(sent)) == 2
    assert [json.loads(answered[i])["city"] for i in sent] == ["北京", "上海"]
    assert result.conversation[-3].call_id == sent[0] and result.conversation[-2].call_id == sent[1]


@pytest.mark.parametrize("api", APIS)
def test_unique_ids_from_the_model_are_kept(api):
    calls = [("call_Ab1", "get_weather", {"city": "北京"}), ("call_Cd2", "get_weather", {"city": "上海"})]
    result, server = run(api, [raw_response(api, calls=calls), raw_response(api, "Compared.")])
    assert [r.id for r in result.rounds[0].tool_calls] == ["call_Ab1", "call_Cd2"]
    assert sent_calls_and_results(server.bodies[1])[0] == ["call_Ab1", "call_Cd2"]


@pytest.mark.parametrize("api", APIS)
def test_an_id_reused_in_a_later_turn_is_made_unique(api):
    """Some local servers number calls per turn ("call_0" every time)."""
    responses = [
        raw_response(api, calls=[("call_0", "get_weather", {"city": "北京"})]),
        raw_response(api, calls=[("call_0", "get_weather", {"city": "上海"})]),
        raw_response(api, "Compared."),
    ]
    result, server = run(api, responses)
    sent, answered = sent_calls_and_results(server.bodies[2])
    assert len(sent) == 2 and len(set(sent)) == 2 and sent[0] == "call_0"
    assert [json.loads(answered[i])["city"] for i in sent] == ["北京", "上海"]
    assert [r.id for r in result.tool_calls] == sent
