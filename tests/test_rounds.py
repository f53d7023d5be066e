"""The round loop through the offline transports, for each of the three wire APIs."""

from __future__ import annotations

import json

import pytest

import conductor as cd
from conductor.types import StopReason
from scripted import Recorder, offline, scripted
from wire import APIS, dialog, system_texts, tool_results, tools_forbidden

# How each API forbids tool use on the forced final request (tools stay defined).
FORBIDDEN = {"responses": "none", "chat": "none", "messages": {"type": "none"}}


def tools_offered(body: dict) -> bool:
    return bool(body.get("tools"))


@pytest.fixture
def rec() -> Recorder:
    return Recorder()


@pytest.fixture
def weather(rec: Recorder):
    @rec.tool
    def get_weather(city: str) -> dict:
        """Get today's weather for a city."""
        return {"city": city, "temperature": {"北京": 5, "上海": 18}.get(city, 20)}

    return get_weather


@pytest.fixture
def clothing(rec: Recorder):
    @rec.tool
    def suggest_clothing(temperature: float) -> dict:
        """Suggest clothing for a temperature in °C."""
        return {"suggestion": "down jacket" if temperature < 10 else "t-shirt"}

    return suggest_clothing


@pytest.mark.parametrize("api", APIS)
def test_zero_rounds_one_request_with_tools_offered(api, weather, rec):
    llm, model = offline(api, scripted("Nothing to look up."))
    result = llm.run("Hello", tools=[weather], max_rounds=2)
    assert result.answer == "Nothing to look up."
    assert result.api_calls == 1 == len(model.requests)
    assert result.rounds == ()
    assert tools_offered(model.requests[0].body)
    assert not tools_forbidden(model.requests[0].body)
    assert rec.calls == []
    assert not result.hit_round_limit


@pytest.mark.parametrize("api", APIS)
def test_one_round_two_requests_tools_still_offered(api, weather, rec):
    llm, model = offline(api, scripted([("get_weather", {"city": "北京"})], "It is 5°C."))
    result = llm.run("Weather in 北京?", tools=[weather], max_rounds=2)
    assert result.api_calls == 2 == len(model.requests)
    assert len(result.rounds) == 1
    second = model.requests[1].body
    assert tools_offered(second) and not tools_forbidden(second)
    assert rec.calls == [("get_weather", {"city": "北京"})]
    assert json.loads(result.rounds[0].tool_calls[0].output) == {"city": "北京", "temperature": 5}


@pytest.mark.parametrize("api", APIS)
def test_two_rounds_third_request_forbids_tools(api, weather, clothing, rec):
    llm, model = offline(
        api,
        scripted([("get_weather", {"city": "北京"})], [("suggest_clothing", {"temperature": 5})], "Wear a down jacket."),
    )
    result = llm.run("北京 weather and clothes?", tools=[weather, clothing], max_rounds=2)
    assert result.api_calls == 3 == len(model.requests)
    third = model.requests[2].body
    assert tools_offered(third), "tools must stay defined on the final request"
    assert tools_forbidden(third) and third["tool_choice"] == FORBIDDEN[api]
    assert len(dialog(third)) == 5
    assert [name for name, _ in rec.calls] == ["get_weather", "suggest_clothing"]
    assert result.forced_final and result.hit_round_limit and result.ignored_tool_calls == ()
    assert result.answer == "Wear a down jacket."
    # A chain that used every round and then answered reads as a success.
    assert result.transcript().splitlines()[-2] == (
        "answer after 2 rounds, 3 requests (tools were off for the final answer: max_rounds=2 used):"
    )


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("max_rounds", [0, 1, 3])
def test_round_limit_enforced(api, max_rounds, weather, rec):
    llm, model = offline(api, scripted([("get_weather", {"city": "上海"})]))
    # The same call every round: loop detection (max_repeats, lesson 04) is off to test the round limit alone.
    result = llm.run("Keep checking 上海", tools=[weather], max_rounds=max_rounds, max_repeats=None)
    assert len(model.requests) == max_rounds + 1
    assert len(result.rounds) == max_rounds == len(rec.calls)
    assert tools_forbidden(model.requests[-1].body)
    assert all(not tools_forbidden(r.body) for r in model.requests[:-1])


@pytest.mark.parametrize("api", APIS)
def test_model_that_ignores_the_ban_is_not_obeyed(api, weather, rec):
    llm, model = offline(api, scripted([("get_weather", {"city": "上海"})], ("Here is what I have.", [("get_weather", {"city": "北京"})])))
    model.inject("ignore_tool_choice", times=5)
    result = llm.run("Weather?", tools=[weather], max_rounds=1)
    assert len(model.requests) == 2
    assert rec.calls == [("get_weather", {"city": "上海"})], "calls made when tools were forbidden must not run"
    assert [c.name for c in result.ignored_tool_calls] == ["get_weather"]
    assert result.answer == "Here is what I have."
    assert result.forced_final
    lines = result.transcript().splitlines()
    assert lines[-3] == 'not run, max_rounds=1 used: get_weather({"city": "北京"})'
    assert lines[-2] == "answer after 1 round, 2 requests (the model still wanted 1 more call; max_rounds=1 used):"


@pytest.mark.parametrize("api", APIS)
def test_transcript_lines_fit_100_columns_with_chinese(api, weather):
    from conductor import display

    cities = ["乌鲁木齐" * 20, "呼和浩特", "石家庄", "哈尔滨", "齐齐哈尔", "北京"]
    llm, model = offline(api, scripted([("get_weather", {"city": c}) for c in cities], [("get_weather", {"city": c}) for c in cities]))
    model.inject("ignore_tool_choice", times=5)
    result = llm.run("天气", tools=[weather], max_rounds=1)
    assert len(result.ignored_tool_calls) == 6
    lines = result.transcript().splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("answer after 1 round, 2 requests ("))
    assert all(display.width(line) <= 100 for line in lines[: head + 1])
    assert "the model still wanted 6 more calls" in lines[head]
    assert sum(line.startswith("not run, max_rounds=1 used: get_weather(") for line in lines[:head]) == 6


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("failing_round", [1, 2])
def test_tool_error_becomes_error_result_and_loop_continues(api, failing_round, rec):
    @rec.tool
    def lookup(key: str) -> str:
        """Look a key up."""
        if key == "bad":
            raise KeyError("no such key: bad")
        return f"value of {key}"

    keys = ["bad", "good"] if failing_round == 1 else ["good", "bad"]
    llm, model = offline(api, scripted([("lookup", {"key": keys[0]})], [("lookup", {"key": keys[1]})], "Done."))
    result = llm.run("Look up both", tools=[lookup], max_rounds=3)
    assert result.answer == "Done."
    failed = result.rounds[failing_round - 1].tool_calls[0]
    assert failed.is_error and "KeyError" in failed.output and "no such key" in failed.output
    ok = result.rounds[2 - failing_round].tool_calls[0]
    assert not ok.is_error and ok.output.startswith("value of")
    # The error reached the model in the API's own way: Anthropic's is_error flag, text starting "Error:" on
    # the two OpenAI APIs (which have no flag).
    request = model.requests[failing_round].body
    call_id, text, is_error = tool_results(request)[-1]
    assert call_id == failed.id and is_error and "no such key" in text
    assert text.startswith("Error:") != (api == "messages")


@pytest.mark.parametrize("api", APIS)
def test_history_and_system_reach_every_request(api, weather):
    history = [{"role": "user", "content": "I live in 上海."}, {"role": "assistant", "content": "Noted."}]
    llm, model = offline(api, scripted([("get_weather", {"city": "上海"})], "18°C."))
    llm.run("Weather at home?", tools=[weather], history=history, system="Be brief.")
    for recorded in model.requests:
        body = recorded.body
        messages = dialog(body)
        assert messages[:2] == history
        assert messages[2] == {"role": "user", "content": "Weather at home?"}
        assert system_texts(body) == ["Be brief."]


@pytest.mark.parametrize("api", APIS)
def test_bad_history_is_a_clear_error(api):
    llm, _ = offline(api, scripted("x"))
    with pytest.raises(ValueError, match=r"history\[0\] must be a message with role 'system', 'user'"):
        llm.run("q", history=[{"role": "robot", "content": "?"}])


@pytest.mark.parametrize("api", APIS)
def test_mixed_text_and_tool_calls_are_both_kept(api, weather):
    llm, model = offline(api, scripted(("Let me check.", [("get_weather", {"city": "北京"})]), "5°C."))
    result = llm.run("Weather?", tools=[weather])
    assert result.rounds[0].text == "Let me check."
    sent = dialog(model.requests[1].body)
    assistant = sent[1]
    if api == "messages":
        kinds = [b["type"] for b in assistant["content"]]
        assert kinds == ["text", "tool_use"]
        assert assistant["content"][0]["text"] == "Let me check."
    elif api == "chat":
        assert assistant["content"] == "Let me check." and len(assistant["tool_calls"]) == 1
    else:  # Responses: the output items as received, the message before the function_call
        assert [item["type"] for item in sent[1:4]] == ["message", "function_call", "function_call_output"]
        assert [part["text"] for part in assistant["content"]] == ["Let me check."]


@pytest.mark.parametrize("api", APIS)
def test_several_calls_in_one_turn_answered_once_in_order(api, weather, rec):
    cities = ["北京", "上海", "广州"]
    llm, model = offline(api, scripted([("get_weather", {"city": c}) for c in cities], "Compared."))
    result = llm.run("Compare", tools=[weather], parallel=True)
    calls = result.rounds[0].tool_calls
    assert [c.arguments["city"] for c in calls] == cities
    body = model.requests[1].body
    answered = [call_id for call_id, _, _ in tool_results(body)]
    assert answered == [c.id for c in calls]
    assert len(set(answered)) == 3


@pytest.mark.parametrize("api", APIS)
def test_empty_tool_result_is_answered(api):
    @cd.tool
    def clear_cache() -> None:
        """Clear the cache."""

    llm, model = offline(api, scripted([("clear_cache", {})], "Cleared."))
    result = llm.run("Clear it", tools=[clear_cache])
    assert result.answer == "Cleared."
    assert result.rounds[0].tool_calls[0].output == ""
    assert not result.rounds[0].tool_calls[0].is_error


@pytest.mark.parametrize("api", APIS)
def test_unknown_tool_gets_error_listing_valid_tools(api, weather, rec):
    llm, model = offline(api, scripted([("get_wether", {"city": "北京"})], "Sorry."))
    result = llm.run("Weather?", tools=[weather])
    call = result.rounds[0].tool_calls[0]
    assert call.is_error and "unknown tool 'get_wether'" in call.output and "get_weather" in call.output
    assert rec.calls == []


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize(
    "arguments, message",
    [({}, "city: Field required"), ({"city": 3}, "city: Input should be a valid string")],
)
def test_invalid_arguments_get_validation_message_and_tool_not_run(api, arguments, message, weather, rec):
    llm, _ = offline(api, scripted([("get_weather", arguments)], "Sorry."))
    result = llm.run("Weather?", tools=[weather])
    call = result.rounds[0].tool_calls[0]
    assert call.is_error and message in call.output
    assert rec.calls == []


@pytest.mark.parametrize("api", ["responses", "chat"])  # Anthropic sends arguments as an object, never as text
def test_malformed_json_arguments_get_validation_message(api, weather, rec):
    llm, model = offline(api, scripted([("get_weather", {"city": "北京"})], "Sorry."))
    model.inject("malformed_arguments")
    result = llm.run("Weather?", tools=[weather])
    call = result.rounds[0].tool_calls[0]
    assert call.is_error and "not valid JSON" in call.output
    assert isinstance(call.arguments, str)
    assert rec.calls == []


@pytest.mark.parametrize("api", APIS)
def test_max_tokens_returns_partial_text_marked_cut(api):
    full = "A long answer that goes on and on and on about the weather."
    llm, model = offline(api, scripted(full))
    model.inject("truncated")
    result = llm.run("Tell me everything")
    assert result.truncated and result.stop_reason is StopReason.MAX_TOKENS
    assert result.answer and full.startswith(result.answer) and len(result.answer) < len(full)


@pytest.mark.parametrize("api", APIS)
def test_refusal_is_returned_as_the_answer(api):
    llm, model = offline(api, scripted("Sure."))
    model.inject("refusal")
    result = llm.run("Something bad")
    assert result.refused and result.stop_reason is StopReason.REFUSAL
    assert result.answer


@pytest.mark.parametrize("api", APIS)
def test_empty_answer_is_reported(api, caplog):
    llm, model = offline(api, scripted("Something."))
    model.inject("empty")
    result = llm.run("Say nothing")
    assert result.empty and result.answer == ""
    assert "empty" in caplog.text


def test_several_text_blocks_all_make_the_answer():
    import anthropic.types

    message = anthropic.types.Message.model_validate(
        {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "m",
            "content": [
                {"type": "text", "text": "First part. "},
                {"type": "tool_use", "id": "toolu_1", "name": "t", "input": {}},
                {"type": "text", "text": "Second part."},
            ],
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
        }
    )
    from conductor.apis import MessagesApi

    turn = MessagesApi().parse(message)
    assert turn.text == "First part. Second part."
    assert [c.name for c in turn.tool_calls] == ["t"]


@pytest.mark.parametrize("api", APIS)
def test_different_tools_in_sequence_use_previous_results(api, weather, clothing, rec):
    def chain(conversation):
        from conductor.offline import CallTools, PlannedCall, Reply

        done = {call.name: json.loads(result.content) for call, result in conversation.exchanges()}
        if "get_weather" not in done:
            return CallTools((PlannedCall("get_weather", {"city": "北京"}),))
        if "suggest_clothing" not in done:
            return CallTools((PlannedCall("suggest_clothing", {"temperature": done["get_weather"]["temperature"]}),))
        return Reply(f"{done['get_weather']['temperature']}°C: {done['suggest_clothing']['suggestion']}")

    llm, _ = offline(api, chain)
    result = llm.run("What to wear in 北京?", tools=[weather, clothing], max_rounds=3)
    assert rec.calls == [("get_weather", {"city": "北京"}), ("suggest_clothing", {"temperature": 5})]
    assert result.answer == "5°C: down jacket"
    assert result.api_calls == 3 and not result.hit_round_limit


@pytest.mark.parametrize("api", APIS)
def test_result_records_usage_cost_and_timings(api, weather):
    llm, _ = offline(api, scripted([("get_weather", {"city": "北京"})], "5°C."))
    result = llm.run("Weather?", tools=[weather])
    assert result.usage.input_tokens > 0 and result.usage.output_tokens > 0
    assert result.cost > 0
    call = result.rounds[0].tool_calls[0]
    assert 0 <= result.rounds[0].model.started <= result.rounds[0].model.ended <= call.started <= call.ended
    assert "round 1" in result.table() and "answer" in result.table()
    assert "round 1: get_weather" in result.transcript()
