"""Programmatic tool calling: request shapes, the stand-in's programs, callers, and every guard on program calls."""

from __future__ import annotations

import json
import re

import anthropic
import openai
import pytest
from anthropic.types import Message
from openai.types.responses import Response

import conductor as cd
from conductor.course.programmatic import QUESTION, TASKS, bench_programmatic, get_hourly_forecast, print_programmatic
from conductor.offline import LatencyModel, OfflineModel
from conductor.programs import code_execution_version
from conductor.tokens import estimate_tokens

PROGRAM_APIS = ("responses", "messages")
runs: list[str] = []
ORDER = ["Paris", "Rome", "Oslo", "Bergen"]  # the order the stand-in plans the calls in


@cd.tool
def forecast(city: str) -> dict:
    """Get today's hour-by-hour weather forecast for a city (24 hours of readings) and its high."""
    runs.append(city)
    return get_hourly_forecast.func(city)


def _llm(api: str, model: OfflineModel | None = None) -> cd.LLM:
    """The stand-in without its simulated latency: what is tested here is what it says, not how long it takes."""
    return cd.connect("offline", api=api, offline_model=model or OfflineModel(latency=LatencyModel.instant()))


def test_chat_completions_has_no_programs() -> None:
    with pytest.raises(ValueError, match="Responses API .* Messages API"):
        cd.connect("offline", api="chat").run(QUESTION, tools=[forecast], programmatic=True)


@pytest.mark.parametrize(("api", "model"), [("messages", "claude-haiku-4-5"), ("responses", "gpt-4.1-mini")])
def test_a_model_without_programs_is_refused_before_any_request_naming_those_that_have_them(api, model) -> None:
    stand_in = OfflineModel(latency=LatencyModel.instant())
    llm = cd.connect("offline", api=api, model=model, offline_model=stand_in)
    with pytest.raises(ValueError, match=rf"{model} does not offer programmatic tool calling .* Models that do: "):
        llm.run(QUESTION, tools=[forecast], programmatic=True)
    assert not stand_in.requests


def test_newest_code_execution_version_comes_from_the_sdk() -> None:
    assert code_execution_version() == "code_execution_20260521"


@pytest.mark.parametrize("api", PROGRAM_APIS)
def test_request_shapes(api: str) -> None:
    model = OfflineModel(latency=LatencyModel.instant())
    left_out = cd.tool(forecast, name="forecast_direct", programmatic=False)
    _llm(api, model).run(QUESTION, tools=[forecast, left_out], max_rounds=6, programmatic=True)
    tools = model.requests[0].body["tools"]
    by_name = {t.get("name"): t for t in tools}
    if api == "messages":
        assert {"type": "code_execution_20260521", "name": "code_execution"} in tools
        assert by_name["forecast"]["allowed_callers"] == ["direct", "code_execution_20260521"]
        containers = {r.body.get("container") for r in model.requests[1:]}
        assert len(containers) == 1 and None not in containers  # the program's container is reused
    else:
        assert {"type": "programmatic_tool_calling"} in tools
        assert by_name["forecast"]["allowed_callers"] == ["direct", "programmatic"]
        assert by_name["forecast"]["output_schema"] == {"additionalProperties": True, "type": "object"}
        outputs = [i for i in model.requests[1].body["input"] if i.get("type") == "function_call_output"]
        assert outputs[0]["caller"]["type"] == "program"
    assert "allowed_callers" not in by_name["forecast_direct"]


@pytest.mark.parametrize("api", PROGRAM_APIS)
def test_a_program_runs_the_fan_out_and_the_answer_agrees(api: str) -> None:
    runs.clear()
    result = _llm(api).run(QUESTION, tools=[forecast], max_rounds=6, programmatic=True)
    assert runs == ORDER
    assert [c.caller for c in result.tool_calls] == ["program"] * 4
    (program,) = result.programs
    assert program.language == ("python" if api == "messages" else "javascript")
    assert program.status == "completed" and program.call_ids == tuple(c.id for c in result.tool_calls)
    summary = json.loads(program.output)
    assert [s["arguments"]["city"] for s in summary] == ORDER
    assert summary[0]["result"]["hours"]["count"] == 24  # the program summed the hours up
    assert "Rome is the warmest" in result.answer


@pytest.mark.parametrize("api", PROGRAM_APIS)
def test_responses_validate_against_the_sdk_models(api: str) -> None:
    model = OfflineModel(latency=LatencyModel.instant())
    llm = _llm(api, model)
    result = llm.run(QUESTION, tools=[forecast], max_rounds=6, programmatic=True)
    for call in result.trace.model_calls:
        assert call.usage.input_tokens > 0
    for turn in result.conversation:
        if isinstance(turn, cd.types.Turn) and turn.raw is not None:
            kind = Message if api == "messages" else Response
            kind.model_validate(turn.raw.model_dump(mode="json", exclude_none=True))


@pytest.mark.parametrize("api", PROGRAM_APIS)
def test_a_program_pays_on_large_results_and_costs_more_on_small_ones(api: str) -> None:
    small, large = bench_programmatic((api,))
    assert (small.task, large.task) == ("small", "large")
    for comparison in (small, large):  # the four calls come back together both ways: two requests each
        assert comparison.program.requests == comparison.loop.requests == 2
        assert comparison.same_answer
    assert TASKS["large"].result_characters() >= 8 * TASKS["small"].result_characters()
    assert large.token_ratio <= 0.50 and large.dollar_ratio < 1  # the results stay out of the model's context
    assert small.token_ratio > 1  # the program's code (and on Messages the code execution prompt) outweighs them
    if api == "messages":
        assert large.model == "claude-sonnet-4-6"  # a model that has programmatic calling, priced as itself
        # the code execution tool's own prompt, billed on each of the program's two requests
        assert small.program.input_tokens - small.loop.input_tokens >= 2 * 1750


def test_the_bench_prints_its_lines_and_says_a_missed_goal(capsys) -> None:
    from dataclasses import replace

    comparisons = bench_programmatic(("responses",), ("large",))
    assert print_programmatic(comparisons) == 0
    out = capsys.readouterr().out
    assert re.match(r"programmatic \[responses\] large: 2 requests vs 2 in the loop, 0\.\d\dx input tokens, "
                    r"0\.\d\dx dollars, same answer: yes", out)
    (measured,) = comparisons
    worse = replace(measured, program=replace(measured.program, input_tokens=measured.loop.input_tokens))
    assert print_programmatic([worse]) == 1
    assert "MISSED, 1.00x input tokens is over the goal of 0.50x" in capsys.readouterr().out


@pytest.mark.parametrize("api", PROGRAM_APIS)
def test_program_calls_made_together_come_back_in_one_response(api: str) -> None:
    model = OfflineModel(latency=LatencyModel.instant())
    result = _llm(api, model).run(QUESTION, tools=[forecast], max_rounds=6, programmatic=True)
    assert result.api_calls == 2 and len(result.rounds[0].tool_calls) == 4
    code = result.programs[0].code
    assert ("asyncio.gather" if api == "messages" else "Promise.all") in code


@pytest.mark.parametrize("api", PROGRAM_APIS)
def test_results_of_program_calls_never_count_as_input(api: str) -> None:
    def run(forecast_tool):
        return _llm(api).run(QUESTION, tools=[forecast_tool], max_rounds=6, programmatic=True)

    @cd.tool
    def padded_forecast(city: str) -> dict:
        """Get today's hour-by-hour weather forecast for a city (24 hours of readings) and its high."""
        day = get_hourly_forecast.func(city)
        return {**day, "hours": day["hours"] * 40}  # forty times the readings

    plain, padded = run(forecast), run(padded_forecast)
    assert len(padded.tool_calls[0].output) > 30 * len(plain.tool_calls[0].output)
    # the same input tokens but for the tool's name in the request and the program's code
    assert abs(padded.usage.input_tokens - plain.usage.input_tokens) < 40


@pytest.mark.parametrize("api", PROGRAM_APIS)
def test_a_response_where_only_the_program_resumed_bills_nothing(api: str) -> None:
    question = "What are the orders of the user with email ada@example.com?"
    result = _llm(api).run(question, tools=[find_user, get_orders], max_rounds=4, programmatic=True)
    usage = [(c.usage.input_tokens, c.usage.output_tokens) for c in result.trace.model_calls]
    assert len(usage) == 3 and usage[1] == (0, 0)  # the program made its next call by itself
    assert usage[0][0] > 0 and usage[2][0] > 0 and usage[2][1] > 0
    assert result.cost == pytest.approx(sum(c.cost for c in result.trace.model_calls[::2]))


def test_a_program_writes_nothing_for_its_calls() -> None:
    """The model's output is the program, not the calls the program makes: four calls or forty, one program."""
    few = _llm("messages").run(QUESTION, tools=[forecast], max_rounds=6, programmatic=True)
    many_cities = ", ".join(["Oslo", "Bergen", "Paris", "Rome", "Madrid", "Lisbon", "Berlin", "Vienna"])
    many = _llm("messages").run(f"Which city is warmest today: {many_cities}?", tools=[forecast], max_rounds=6,
                                programmatic=True)
    first_few, first_many = few.trace.model_calls[0].usage, many.trace.model_calls[0].usage
    code_growth = estimate_tokens(many.programs[0].code) - estimate_tokens(few.programs[0].code)
    assert first_many.output_tokens - first_few.output_tokens <= code_growth + 10


def test_container_time_is_priced_apart_with_its_minimum() -> None:
    result = cd.connect("offline", api="messages", model="claude-sonnet-4-6", latency_scale=0).run(
        QUESTION, tools=[forecast], max_rounds=6, programmatic=True)
    used = cd.programs.container_time(result)
    assert len(used.containers) == 1 and used.hours == pytest.approx(5 / 60)  # a run of seconds: the minimum
    assert used.usd == pytest.approx(0.05 * 5 / 60)
    assert cd.programs.container_time(result, free_hours_left=1550).usd == 0.0
    assert "$0 within the 1,550 free hours a month, $0.0042 past them" in str(used)
    assert cd.programs.container_time(_llm("responses").run(QUESTION, tools=[forecast], programmatic=True,
                                                            max_rounds=6)).containers == ()


@pytest.mark.parametrize("api", PROGRAM_APIS)
def test_a_tool_left_out_of_programs_is_called_by_the_model(api: str) -> None:
    direct = cd.tool(forecast, programmatic=False)
    result = _llm(api).run(QUESTION, tools=[direct], max_rounds=6, programmatic=True)
    assert result.programs == ()
    assert {c.caller for c in result.tool_calls} == {"model"}


def test_a_program_call_to_a_tool_without_allowed_callers_is_refused() -> None:
    model = OfflineModel(latency=LatencyModel.instant())
    client = model.anthropic_client()
    tool = {"name": "forecast", "description": forecast.description, "input_schema": forecast.parameters,
            "allowed_callers": ["direct", code_execution_version()]}
    code_tool = {"type": code_execution_version(), "name": "code_execution"}
    first = client.messages.create(model="conductor-offline", max_tokens=1024, tools=[tool, code_tool],
                                   messages=[{"role": "user", "content": QUESTION}])
    calls = [b for b in first.content if b.type == "tool_use"]
    assert len(calls) == 4 and all(c.caller.type.startswith("code_execution_") for c in calls)
    bare = {k: v for k, v in tool.items() if k != "allowed_callers"}
    answers = [{"type": "tool_result", "tool_use_id": call.id, "content": "{}"} for call in calls]
    with pytest.raises(anthropic.BadRequestError, match="allowed_callers"):
        client.messages.create(
            model="conductor-offline", max_tokens=1024, tools=[bare, code_tool], container=first.container.id,
            messages=[{"role": "user", "content": QUESTION},
                      {"role": "assistant", "content": [b.model_dump(exclude_none=True) for b in first.content]},
                      {"role": "user", "content": answers}],
        )


@pytest.mark.parametrize("api", PROGRAM_APIS)
def test_the_stand_in_refuses_a_model_without_programmatic_calling_as_the_api_does(api: str) -> None:
    llm = _llm(api)  # the request by hand: conductor itself refuses it before sending
    function = {"name": "forecast", "description": "A forecast.", "allowed_callers": ["direct"],
                "input_schema" if api == "messages" else "parameters": {"type": "object", "properties": {}}}
    if api == "messages":
        with pytest.raises(anthropic.BadRequestError, match="is not supported on model 'claude-haiku-4-5'"):
            llm.client.messages.create(
                model="claude-haiku-4-5", max_tokens=200, messages=[{"role": "user", "content": QUESTION}],
                tools=[{"type": code_execution_version(), "name": "code_execution"}, function],
            )
    else:
        with pytest.raises(openai.BadRequestError, match="not supported"):
            llm.client.responses.create(model="gpt-4.1-mini", input=QUESTION,
                                        tools=[{"type": "programmatic_tool_calling"}, {"type": "function", **function}])


@pytest.mark.parametrize("api", PROGRAM_APIS)
def test_approval_inside_a_program_pauses_and_resumes_with_the_program_waiting(api: str) -> None:
    runs.clear()
    guarded = cd.tool(forecast, requires_approval=lambda args: args["city"] == "Oslo")
    llm = _llm(api)
    result = llm.run(QUESTION, tools=[guarded], max_rounds=6, programmatic=True)
    assert result.stopped_by == "approval"
    (pending,) = result.pending
    assert pending.caller == "program" and pending.arguments["city"] == "Oslo"
    assert runs == ["Paris", "Rome", "Bergen"]  # the program's other calls, which came with it, ran
    result.approve(pending.id)
    done = llm.resume(result)
    assert sorted(runs) == sorted(ORDER)  # each ran once: resume runs only the approved call
    assert done.programs[0].status == "completed" and "Rome is the warmest" in done.answer


@pytest.mark.parametrize("api", PROGRAM_APIS)
def test_a_tool_error_inside_a_program_is_a_value_it_reports(api: str) -> None:
    @cd.tool
    def flaky_forecast(city: str) -> dict:
        """Get today's hour-by-hour weather forecast for a city (24 hours of readings) and its high."""
        if city == "Bergen":
            raise RuntimeError("the Bergen station is offline")
        return get_hourly_forecast.func(city)

    result = _llm(api).run(QUESTION, tools=[flaky_forecast], max_rounds=6, programmatic=True)
    assert [c.is_error for c in result.tool_calls] == [False, False, False, True]
    summary = json.loads(result.programs[0].output)
    assert "Bergen station is offline" in summary[3]["result"]["error"]
    assert "Rome is the warmest" in result.answer


@pytest.mark.parametrize("api", PROGRAM_APIS)
def test_max_rounds_stops_a_program_between_its_responses(api: str) -> None:
    question = "What are the orders of the user with email ada@example.com?"
    result = _llm(api).run(question, tools=[find_user, get_orders], max_rounds=1, programmatic=True)
    assert [c.name for c in result.tool_calls] == ["find_user"]  # one round, then tools are forbidden
    assert result.forced_final and result.programs[0].status == "incomplete"  # on both APIs


@pytest.mark.parametrize("api", PROGRAM_APIS)
def test_the_allowlist_applies_to_program_calls(api: str) -> None:
    runs.clear()
    result = _llm(api).run(QUESTION, tools=[forecast], max_rounds=6, programmatic=True, allowed_tools=[])
    assert runs == []
    if api == "responses":  # the API itself keeps the model to the allowed tools (tool_choice allowed_tools)
        assert not result.tool_calls
    else:  # conductor's allowlist answers the program's call without running it
        assert {c.blocked for c in result.tool_calls} == {"allowlist"}


@pytest.mark.parametrize("api", PROGRAM_APIS)
def test_a_retried_request_never_runs_a_program_call_twice(api: str) -> None:
    runs.clear()
    model = OfflineModel(latency=LatencyModel.instant())
    llm = _llm(api, model)
    model.inject("server_error", times=1)
    result = llm.run(QUESTION, tools=[forecast], max_rounds=6, programmatic=True)
    assert runs == ORDER
    assert "Rome is the warmest" in result.answer


@pytest.mark.parametrize("api", PROGRAM_APIS)
def test_a_budget_stops_a_program_between_its_responses(api: str) -> None:
    question = "What are the orders of the user with email ada@example.com?"
    tools = [find_user, get_orders]
    first = _llm(api).run(question, tools=tools, max_rounds=4, programmatic=True, max_tokens=2000)
    # room for the first request's worst case (its input and up to 2,000 output tokens), not for the next one's
    limit = first.trace.model_calls[0].usage.total_tokens + 2000
    result = _llm(api).run(question, tools=tools, max_rounds=4, programmatic=True, max_tokens=2000,
                           budget=cd.Budget(tokens=limit))
    assert result.stopped_by == "budget"
    assert [c.name for c in result.tool_calls] == ["find_user"] and result.usage.total_tokens <= limit
    assert result.programs[0].status == "running"  # the run ended with the program waiting


def test_programmatic_option_on_an_existing_tool() -> None:
    assert forecast.programmatic is True
    assert cd.tool(forecast, programmatic=False).programmatic is False
    with pytest.raises(cd.tools.ToolDefinitionError):
        cd.tool(forecast, programmatic="no")


def _polling(conversation):
    """Plans the same call five times (a program polling a tool), then lets the built-in policies answer."""
    from conductor.offline.conversation import CallTools, PlannedCall

    if conversation.exchanges() or not conversation.tools:
        return None
    return CallTools((PlannedCall("forecast", {"city": "Oslo"}),) * 5)


@pytest.mark.parametrize("api", PROGRAM_APIS)
def test_loop_detection_stops_a_program_repeating_a_call(api: str) -> None:
    runs.clear()
    result = _llm(api, OfflineModel(latency=LatencyModel.instant(), policies=[_polling])).run(
        QUESTION, tools=[forecast], max_rounds=8, programmatic=True, max_repeats=3
    )
    assert len(result.programs) == 1 and {c.caller for c in result.tool_calls} == {"program"}
    assert runs == ["Oslo", "Oslo"]  # the third identical call is not run, and the one after ends the run
    assert result.stopped_by == "loop"


@pytest.mark.parametrize("api", PROGRAM_APIS)
def test_a_rate_limit_refuses_program_calls_over_it(api: str) -> None:
    runs.clear()
    orch = cd.Orchestrator(_llm(api), tools=[forecast], max_rounds=6, deadline=None,
                           rate_limit=cd.RateLimit(tool_calls_per_minute=2, max_wait=0), programmatic=True)
    result = orch.run(QUESTION, user="ada")
    assert runs == ORDER[:2]
    assert [c.is_error for c in result.tool_calls] == [False, False, True, True]
    assert {c.caller for c in result.tool_calls} == {"program"}


@pytest.mark.parametrize("api", PROGRAM_APIS)
def test_a_deadline_ends_a_program_run_in_time(api: str) -> None:
    import time

    @cd.tool
    def slow_forecast(city: str) -> dict:
        """Get today's hour-by-hour weather forecast for a city (24 hours of readings) and its high."""
        time.sleep(0.3)
        return get_hourly_forecast.func(city)

    llm = cd.connect("offline", api=api, latency_scale=0)
    result = llm.run(QUESTION, tools=[slow_forecast], max_rounds=6, programmatic=True, deadline=0.8)
    # the four calls came together and ran one after another past the deadline: no request after them
    assert result.stopped_by == "deadline" and result.api_calls == 1
    assert result.programs[0].status == "running"


@pytest.mark.parametrize("api", PROGRAM_APIS)
def test_a_paused_program_run_survives_json_and_resumes(api: str) -> None:
    runs.clear()
    guarded = cd.tool(forecast, requires_approval=lambda args: args["city"] == "Oslo")
    llm = _llm(api)
    paused = cd.RunResult.from_json(
        llm.run(QUESTION, tools=[guarded], max_rounds=6, programmatic=True).to_json()
    )
    assert paused.pending[0].caller == "program"
    paused.approve(paused.pending[0].id)
    done = llm.resume(paused, tools=[guarded])
    assert sorted(runs) == sorted(ORDER) and done.programs[0].status == "completed"


@pytest.mark.parametrize("api", PROGRAM_APIS)
def test_streamed_and_async_runs_read_programs_too(api: str) -> None:
    import asyncio

    events = list(_llm(api).stream(QUESTION, tools=[forecast], max_rounds=6, programmatic=True))
    streamed = events[-1].result
    ran = asyncio.run(cd.connect("offline", api=api, asynchronous=True, latency_scale=0).arun(
        QUESTION, tools=[forecast], max_rounds=6, programmatic=True))
    for result in (streamed, ran):
        assert [c.caller for c in result.tool_calls] == ["program"] * 4
        assert result.programs[0].status == "completed"


@pytest.mark.parametrize("api", PROGRAM_APIS)
def test_taking_a_tool_out_of_programs_mid_program_is_refused_by_the_api(api: str) -> None:
    guarded = cd.tool(forecast, requires_approval=lambda args: args["city"] == "Oslo")
    llm = _llm(api)
    paused = llm.run(QUESTION, tools=[guarded], max_rounds=6, programmatic=True)
    paused.approve(paused.pending[0].id)
    error = anthropic.BadRequestError if api == "messages" else openai.BadRequestError
    with pytest.raises(error, match="allowed_callers"):
        llm.resume(paused, tools=[cd.tool(guarded, programmatic=False)])


@cd.tool
def find_user(email: str) -> dict:
    """Find a user account by email address."""
    return {"user_id": "u_42", "name": "Ada", "email": email}


@cd.tool
def get_orders(user_id: str) -> dict:
    """Get the orders of a user by user id."""
    return {"user_id": user_id, "orders": [{"id": "o1", "total": 12.5}, {"id": "o2", "total": 30.0}]}


@pytest.mark.parametrize("api", PROGRAM_APIS)
def test_a_program_runs_a_chain_it_can_plan(api: str) -> None:
    question = "What are the orders of the user with email ada@example.com?"
    result = _llm(api).run(question, tools=[find_user, get_orders], max_rounds=4, programmatic=True)
    assert [(c.name, c.arguments, c.caller) for c in result.tool_calls] == [
        ("find_user", {"email": "ada@example.com"}, "program"), ("get_orders", {"user_id": "u_42"}, "program"),
    ]
    (program,) = result.programs
    assert "THEN" in program.code and program.status == "completed"
    assert json.loads(program.output)[1]["result"]["orders"] == {
        "count": 2, "total": {"min": 12.5, "max": 30.0, "mean": 21.2}}
    assert "u_42" in result.answer


@pytest.mark.parametrize("api", PROGRAM_APIS)
def test_a_continued_run_lists_only_its_own_programs(api: str) -> None:
    llm = _llm(api)
    first = llm.run(QUESTION, tools=[forecast], max_rounds=6, programmatic=True)
    assert len(first.programs) == 1
    second = llm.run("Thanks. Which city is coolest?", tools=[forecast], max_rounds=6, programmatic=True,
                     history=first.messages)
    assert all(p not in second.programs for p in first.programs)


@pytest.mark.parametrize("api", PROGRAM_APIS)
@pytest.mark.parametrize("programmatic", [True, False])
def test_large_results_are_said_in_words(api: str, programmatic: bool) -> None:
    task = TASKS["large"]
    result = _llm(api).run(task.question, tools=[task.tool], max_rounds=6, programmatic=programmatic)
    answer = result.answer
    assert "96 entries, temperature" in answer and "Rome is the warmest" in answer
    assert "\n- " not in answer and "count" not in answer and "{" not in answer  # no readings, no dict dump
    assert len(answer) < 600
