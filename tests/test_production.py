"""What production code relies on beyond the lessons: loops counted across turns, tool outputs of data
libraries, tool lists passed as lists."""

from __future__ import annotations

import sys
from typing import Annotated, TypedDict

import pytest
import typing_extensions
from pydantic import Field
from scripted import offline, scripted
from wire import APIS, results_by_id, tool_calls

import conductor as cd


@pytest.fixture
def dice():
    rolled: list[int] = []

    @cd.tool
    def roll_die(sides: int) -> dict:
        """Roll one die with the given number of sides."""
        rolled.append(sides)
        return {"sides": sides, "value": (len(rolled) * 7) % sides + 1}

    return roll_die, rolled


@pytest.mark.parametrize("api", APIS)
def test_identical_calls_in_one_turn_are_not_a_loop(api, dice):
    tool, rolled = dice
    four = [("roll_die", {"sides": 6})] * 4
    llm, model = offline(api, scripted(four, "Rolled 4 dice."))
    result = llm.run("Roll four dice", tools=[tool], max_rounds=2, max_repeats=3)
    assert rolled == [6, 6, 6, 6] and [c.blocked for c in result.tool_calls] == [None] * 4
    assert result.stopped_by is None and result.answer == "Rolled 4 dice."
    assert len(results_by_id(model.requests[-1].body)) == 4


@pytest.mark.parametrize("api", APIS)
def test_the_same_turn_again_in_later_turns_is_a_loop(api, dice):
    tool, rolled = dice
    llm, _ = offline(api, scripted([("roll_die", {"sides": 6})] * 2))
    result = llm.run("Roll two dice", tools=[tool], max_rounds=10, max_repeats=3)
    # Turns 1 and 2 run both calls; turn 3 repeats them a third time: not run; turn 4 ends the run.
    assert rolled == [6] * 4
    assert [c.blocked for c in result.tool_calls] == [None] * 4 + ["loop"] * 4
    assert result.stopped_by == "loop"


# -- tool outputs from numpy and pandas ---------------------------------------------------------


def test_numpy_scalars_and_arrays_reach_the_model_as_json():
    np = pytest.importorskip("numpy")
    from conductor.tools import render_output

    assert render_output(np.float64(21.5)) == "21.5" and render_output(np.int64(3)) == "3"
    assert render_output(np.bool_(True)) == "true"
    assert render_output(np.array([[1, 2], [3, np.nan]])) == '[[1.0,2.0],[3.0,"NaN"]]'
    assert render_output({"mean": np.float32(0.5), "counts": np.arange(3)}) == '{"mean":0.5,"counts":[0,1,2]}'


def test_pandas_series_and_dataframes_reach_the_model_as_json():
    pd = pytest.importorskip("pandas")
    from conductor.tools import render_output

    assert render_output(pd.Series([5, 18], index=["北京", "上海"])) == '{"北京":5,"上海":18}'
    frame = pd.DataFrame({"city": ["北京", "上海"], "temperature": [5, 18]})
    assert render_output(frame) == '[{"city":"北京","temperature":5},{"city":"上海","temperature":18}]'
    nested = {"table": frame, "warmest": frame.temperature.max(), "when": pd.Timestamp("2026-01-01")}
    assert render_output(nested) == (
        '{"table":[{"city":"北京","temperature":5},{"city":"上海","temperature":18}],"warmest":18,'
        '"when":"2026-01-01T00:00:00"}'
    )


@pytest.mark.parametrize("api", APIS)
def test_a_tool_returning_a_dataframe_is_answered_with_its_rows(api):
    pd = pytest.importorskip("pandas")

    @cd.tool
    def forecast(city: str):
        """Tomorrow's forecast for a city, hour by hour."""
        return pd.DataFrame({"hour": [9, 12], "temperature": [4.5, 7.0]})

    llm, model = offline(api, scripted([("forecast", {"city": "北京"})], "Done."))
    result = llm.run("Forecast for 北京?", tools=[forecast])
    assert not result.tool_calls[0].is_error
    assert list(results_by_id(model.requests[-1].body).values()) == [
        '[{"hour":9,"temperature":4.5},{"hour":12,"temperature":7.0}]']


def test_a_value_no_converter_knows_is_still_an_error_result():
    from conductor.tools import ToolOutputError, render_output

    class Opaque:
        pass

    with pytest.raises(ToolOutputError, match="cannot be sent"):
        render_output({"x": Opaque()})


def test_a_single_tool_instead_of_a_list_says_to_pass_a_list(dice):
    tool, rolled = dice
    llm, model = offline("responses", scripted("Hi."))
    with pytest.raises(ValueError, match=r"tools= takes a list of tools: pass tools=\[roll_die\], not tools=roll_die"):
        llm.run("Roll", tools=tool)
    assert not model.requests and not rolled


@pytest.mark.parametrize("library", ["requests", "httpx", "httpx2"])
def test_retry_retries_the_http_libraries_transport_errors_by_default(library):
    module = pytest.importorskip(library)
    if library == "requests":
        error = module.exceptions.ConnectionError("Connection refused")
    else:
        error = module.ConnectError("Connection refused")
    assert not isinstance(error, (ConnectionError, TimeoutError))  # what made them slip through
    attempts = []

    @cd.tool(retry=cd.Retry(attempts=3, base=0.001, cap=0.001))
    def fetch_rate(currency: str) -> dict:
        """The exchange rate of a currency to EUR."""
        attempts.append(currency)
        if len(attempts) < 3:
            raise error
        return {"currency": currency, "rate": 1.08}

    llm, _ = offline("responses", scripted([("fetch_rate", {"currency": "USD"})], "1.08."))
    record = llm.run("USD rate?", tools=[fetch_rate]).tool_calls[0]
    assert len(attempts) == 3 and not record.is_error and len(record.attempts) == 3


def test_an_http_error_status_is_not_retried():
    httpx2 = pytest.importorskip("httpx2")
    request = httpx2.Request("GET", "http://rates.invalid/usd")
    error = httpx2.HTTPStatusError("404 Not Found", request=request, response=httpx2.Response(404, request=request))
    assert not cd.Retry().retries(error)


# -- requests the real APIs accept ------------------------------------------------------------------


def test_max_tokens_zero_gets_each_apis_real_400():
    import anthropic
    import openai

    texts = {
        "chat": "Invalid 'max_completion_tokens': integer below minimum value. Expected a value >= 1, but got 0",
        "responses": "Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got 0",
        "messages": "max_tokens: Input should be greater than or equal to 1",
    }
    for api, text in texts.items():
        llm, model = offline(api, scripted("Hi."))
        with pytest.raises((openai.BadRequestError, anthropic.BadRequestError), match=text):
            llm.run("Hi", max_tokens=0)
        assert model.requests[-1].body.get("max_tokens", 0) == 0 or api != "messages"


def test_whitespace_only_text_never_reaches_anthropic():
    history = [
        {"role": "user", "content": "Weather in 北京?"},
        {"role": "assistant", "content": "  ", "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "roll_die", "arguments": '{"sides": 6}'}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": " \n"},
        {"role": "user", "content": "   "},
        {"role": "assistant", "content": "\n"},
    ]

    @cd.tool
    def roll_die(sides: int) -> dict:
        """Roll one die."""
        return {"value": 3}

    llm, model = offline("messages", scripted("Done."))
    assert llm.run("Again?", tools=[roll_die], history=history).answer == "Done."
    assert model.requests[-1].status == 200


def test_call_ids_outside_anthropics_pattern_are_mapped_the_same_way_for_call_and_result():
    history = [
        {"role": "user", "content": "Roll"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "functions.roll_die:0", "type": "function", "function": {"name": "roll_die", "arguments": '{"sides": 6}'}},
            {"id": "functions.roll_die:1", "type": "function", "function": {"name": "roll_die", "arguments": '{"sides": 8}'}},
        ]},
        {"role": "tool", "tool_call_id": "functions.roll_die:0", "content": "3"},
        {"role": "tool", "tool_call_id": "functions.roll_die:1", "content": "5"},
    ]

    @cd.tool
    def roll_die(sides: int) -> dict:
        """Roll one die."""
        return {"value": 3}

    llm, model = offline("messages", scripted("3 and 5."))
    result = llm.run("Again?", tools=[roll_die], history=history)
    body = model.requests[-1].body
    assert model.requests[-1].status == 200 and result.answer == "3 and 5."
    uses = [b["id"] for m in body["messages"] if isinstance(m["content"], list) for b in m["content"] if b["type"] == "tool_use"]
    answers = list(results_by_id(body))
    assert uses == answers and len(set(uses)) == 2 and all(":" not in i and "." not in i for i in uses)
    # The run itself keeps the ids as the other server wrote them: history in, history out.
    assert [c.id for m in result.conversation if isinstance(m, cd.types.Turn) for c in m.tool_calls][:2] == [
        "functions.roll_die:0", "functions.roll_die:1"]


# -- tool definitions keep what the learner wrote ----------------------------------------------------


def test_a_field_description_in_annotated_is_kept_beside_docstring_lines():
    @cd.tool
    def forecast(city: Annotated[str, Field(description="The city, in English")], days: int = 1) -> dict:
        """Forecast for a city.

        Args:
            days: how many days ahead
        """
        return {}

    assert forecast.parameters["properties"]["city"]["description"] == "The city, in English"
    assert forecast.parameters["properties"]["days"]["description"] == "how many days ahead"
    assert forecast.parameters["required"] == ["city"]


def test_a_field_as_default_keeps_its_description_and_a_required_parameter_stays_required():
    @cd.tool
    def forecast(city: str = Field(description="The city"), days: int = Field(default=2, description="Days")) -> dict:
        """Forecast for a city."""
        return {"city": city, "days": days}

    props = forecast.parameters["properties"]
    assert forecast.parameters["required"] == ["city"]
    assert (props["city"]["description"], props["days"]["description"], props["days"]["default"]) == (
        "The city", "Days", 2)
    assert forecast.validate({"city": "Oslo"}) == {"city": "Oslo", "days": 2}
    with pytest.raises(cd.tools.ToolArgumentsError, match="city"):
        forecast.validate({})


def test_the_description_is_the_whole_summary():
    @cd.tool
    def search(query: str) -> list:
        """Search the course catalogue.

        Returns at most five lessons, best first. Use the exact lesson title when the
        user names one.

        Args:
            query: what to look for
        """
        return []

    assert search.description == (
        "Search the course catalogue.\n\nReturns at most five lessons, best first. Use the exact lesson title "
        "when the user names one."
    )


def test_a_method_decorated_in_its_class_gets_advice_that_works():
    with pytest.raises(cd.tools.ToolDefinitionError, match=r"cd.tool\(bank.transfer\)"):
        class Bank:
            @cd.tool
            def transfer(self, to: str, amount: float) -> dict:
                """Send money."""
                return {}

    class Bank:
        def __init__(self) -> None:
            self.sent: list[float] = []

        def transfer(self, to: str, amount: float) -> dict:
            """Send money."""
            self.sent.append(amount)
            return {"to": to, "amount": amount}

    bank = Bank()
    transfer = cd.tool(bank.transfer)  # what the advice says
    assert list(transfer.parameters["properties"]) == ["to", "amount"]
    llm, _ = offline("responses", scripted([("transfer", {"to": "DE89", "amount": 20})], "Sent."))
    assert llm.run("Send 20 to DE89", tools=[transfer]).answer == "Sent." and bank.sent == [20]


class Person(typing_extensions.TypedDict):
    name: str
    age: int


class Plain(TypedDict):  # typing's own: pydantic reads it only from Python 3.12
    name: str


def test_a_typeddict_parameter_works_from_typing_extensions_and_is_a_clear_error_from_typing():
    @cd.tool
    def register(person: Person) -> dict:
        """Register a person."""
        return dict(person)

    assert register.parameters["properties"]["person"]["required"] == ["name", "age"]
    assert register.validate({"person": {"name": "Li", "age": 30}}) == {"person": {"name": "Li", "age": 30}}

    if sys.version_info >= (3, 12):  # pydantic reads typing.TypedDict from 3.12 on
        assert cd.tool(enrol_plain).parameters["properties"]["person"]["required"] == ["name"]
    else:
        with pytest.raises(cd.tools.ToolDefinitionError, match="typing_extensions.TypedDict"):
            cd.tool(enrol_plain)


def enrol_plain(person: Plain) -> dict:
    """Enrol a person."""
    return {}


# -- budgets -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("api", ["responses", "chat"])
def test_a_budgets_output_cap_leaves_room_for_a_reasoning_models_reasoning(api):
    from conductor.budget import DEFAULT_OUTPUT_CEILING, REASONING_OUTPUT_CEILING
    from conductor.offline import LatencyModel, OfflineModel

    plain = cd.connect("offline", api=api, offline_model=OfflineModel(latency=LatencyModel.instant()))
    plain.run("Hi", budget=cd.Budget(tokens=100_000))
    reasoner = cd.connect("offline", api=api, offline_model=OfflineModel(latency=LatencyModel.instant(), reasoning=True))
    reasoner.run("Hi", budget=cd.Budget(tokens=100_000))
    key = "max_output_tokens" if api == "responses" else "max_completion_tokens"
    assert plain.offline.requests[0].body[key] == DEFAULT_OUTPUT_CEILING
    assert reasoner.offline.requests[0].body[key] == REASONING_OUTPUT_CEILING
    # A cap the learner set is never changed.
    reasoner.run("Hi", budget=cd.Budget(tokens=100_000), max_tokens=500)
    assert reasoner.offline.requests[-1].body[key] == 500


@pytest.mark.parametrize("api", APIS)
def test_a_tool_call_cut_off_by_max_tokens_is_not_run(api, dice):
    from scripted import RawServer, raw_response

    tool, rolled = dice
    body = raw_response(api, "Rolling", [("call_1", "roll_die", {"sides": 6})])
    if api == "responses":
        body.update(status="incomplete", incomplete_details={"reason": "max_output_tokens"})
    elif api == "chat":
        body["choices"][0]["finish_reason"] = "length"
    else:
        body["stop_reason"] = "max_tokens"
    server = RawServer(api, [body])
    llm = cd.connect(server.client(), model="m", api=api)
    result = llm.run("Roll a die", tools=[tool], max_tokens=20)
    assert rolled == [] and result.truncated and result.tool_calls == [] and len(server.bodies) == 1


# -- a call the model was told did not run never runs later ----------------------------------------


def test_a_call_timed_out_while_waiting_for_the_rate_limit_never_runs():
    import threading
    import time

    from conductor import scenarios as sc
    from conductor.ratelimit import FakeClock, RateLimit

    class SlowWaits(FakeClock):
        """Fake minutes, but each wait takes a real 0.3 s: longer than the tool's timeout."""

        def sleep(self, seconds: float) -> None:
            time.sleep(0.3)
            super().sleep(seconds)

    charged: list[float] = []
    done = threading.Event()

    @cd.tool(timeout=0.1)
    def charge_card(amount: float) -> dict:
        """Charge the customer's card."""
        charged.append(amount)
        done.set()
        return {"charged": amount}

    llm, _ = offline("responses", scripted([("charge_card", {"amount": 5})], "Charged."))
    orch = cd.Orchestrator(llm, tools=[charge_card], clock=SlowWaits(), deadline=None,
                           rate_limit=RateLimit(tool_calls_per_minute=1, max_wait=120))
    first = orch.run("Charge 5", user="alice")
    assert charged == [5] and not first.tool_calls[0].is_error
    done.clear()
    second = orch.run("Charge 5 again", user="alice")
    record = second.tool_calls[0]
    assert record.is_error and "timed out" in record.output
    time.sleep(0.6)  # the abandoned thread has long finished its wait
    assert charged == [5], "a call reported as timed out ran afterwards"


# -- system= as the API's own blocks ------------------------------------------------------------------

CACHED_SYSTEM = [
    {"type": "text", "text": "You are a weather assistant."},
    {"type": "text", "text": "Answer in one sentence.", "cache_control": {"type": "ephemeral"}},
]


def test_system_blocks_reach_anthropic_as_blocks_with_their_cache_control(dice):
    tool, _ = dice
    llm, model = offline("messages", scripted([("roll_die", {"sides": 6})], "Done."))
    llm.run("Roll", tools=[tool], system=CACHED_SYSTEM)
    assert all(r.body["system"] == CACHED_SYSTEM and r.status == 200 for r in model.requests)


@pytest.mark.parametrize("api", ["responses", "chat"])
def test_system_blocks_are_sent_as_their_text_where_the_api_takes_text(api):
    llm, model = offline(api, scripted("Done."))
    llm.run("Hi", system=CACHED_SYSTEM)
    body = model.requests[0].body
    expected = "You are a weather assistant.\n\nAnswer in one sentence."
    if api == "responses":
        assert body["instructions"] == expected
    else:
        assert body["messages"][0] == {"role": "system", "content": expected}


def test_system_in_another_shape_is_a_clear_error():
    llm, model = offline("messages", scripted("Done."))
    with pytest.raises(ValueError, match="system= takes text, or a list of text blocks"):
        llm.run("Hi", system=[{"type": "image"}])
    assert not model.requests


# -- the stand-in and the SDKs' own helpers ---------------------------------------------------------


def test_anthropics_tool_runner_works_on_the_stand_in_after_it_declines_threads():
    from anthropic import beta_tool

    llm, model = offline("messages")

    @beta_tool
    def get_weather(city: str) -> str:
        """Get today's weather for a city."""
        return '{"city": "%s", "temperature": 5}' % city

    runner = llm.client.beta.messages.tool_runner(
        model=llm.model, max_tokens=1024, messages=[{"role": "user", "content": "北京今天天气怎么样?"}],
        tools=[get_weather], max_iterations=3)
    reply = runner.until_done()
    assert reply.stop_reason == "end_turn" and "5" in "".join(b.text for b in reply.content if b.type == "text")
    first = model.requests[0]
    assert first.status == 400 and "thread" in first.body  # declined with thread_unsupported_request
    assert all(r.status == 200 and "thread" not in r.body for r in model.requests[1:])


def test_a_tool_result_holding_bare_strings_gets_a_400_not_a_500():
    import anthropic

    llm, model = offline("messages", scripted([("roll_die", {"sides": 6})], "Done."))
    tools = [{"name": "roll_die", "description": "Roll.", "input_schema": {"type": "object", "properties": {}}}]
    first = llm.client.messages.create(model=llm.model, max_tokens=100, tools=tools,
                                       messages=[{"role": "user", "content": "Roll"}])
    call = next(b for b in first.content if b.type == "tool_use")
    messages = [
        {"role": "user", "content": "Roll"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": call.id, "name": call.name, "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call.id, "content": ["value", "sides"]}]},
    ]
    with pytest.raises(anthropic.BadRequestError, match="Input should be a valid dictionary"):
        llm.client.messages.create(model=llm.model, max_tokens=100, tools=tools, messages=messages)
    assert model.requests[-1].status == 400


def test_measuring_sdk_retries_names_the_sdk_and_refuses_an_api_name():
    from conductor.course.flaky import measure_sdk_retries

    with pytest.raises(ValueError, match="names the SDK whose retries are measured"):
        measure_sdk_retries("server_error", api="chat")


@pytest.mark.parametrize("api", APIS)
def test_a_run_stopped_after_a_tool_round_reports_the_tools_not_the_preamble(api):
    from conductor import scenarios as sc

    question = "北京今天天气怎么样?应该穿什么衣服?"
    llm, _ = offline(api)
    worst = cd.budget.first_request_worst_case(llm, question, tools=sc.weather_tools(), max_tokens=300)
    result = llm.run(question, tools=sc.weather_tools(), max_tokens=300, budget=cd.Budget(usd=worst.usd * 1.05))
    assert result.stopped_by == "budget" and result.tool_calls
    assert result.answer.startswith("没有写出回答") and "get_weather" in result.answer


# -- nothing that ran is lost ---------------------------------------------------------------------


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("driver", ["run", "stream"])
def test_a_run_that_fails_after_tools_ran_raises_with_the_run_so_far(api, driver, dice):
    import anthropic
    import openai

    tool, rolled = dice
    _, model = offline(api, scripted([("roll_die", {"sides": 6})], "Done."))
    llm = cd.connect("offline", api=api, offline_model=model, max_retries=0)
    original = tool.func

    def rolling(**kwargs):
        result = original(**kwargs)
        model.inject("server_error", times=5)  # the model's API fails once the tool has run
        return result

    tool.func = rolling
    with pytest.raises((openai.APIError, anthropic.APIError, cd.StreamInterrupted)) as caught:
        if driver == "run":
            llm.run("Roll a die", tools=[tool])
        else:
            list(llm.stream("Roll a die", tools=[tool]))
    partial = caught.value.result
    assert rolled == [6] and [c.name for c in partial.tool_calls] == ["roll_die"]
    assert partial.stopped_by == "error" and "roll_die" in partial.answer
    body = {"input": partial.messages} if api == "responses" else {"messages": partial.messages}
    assert [c[1] for c in tool_calls(body)] == ["roll_die"] and len(results_by_id(body)) == 1


def test_an_orchestrator_conversation_that_failed_keeps_its_calls(dice):
    tool, rolled = dice
    llm, model = offline("responses", scripted([("roll_die", {"sides": 6})], "Done."))
    llm = cd.connect("offline", offline_model=model, max_retries=0)
    original = tool.func

    def rolling(**kwargs):
        model.inject("server_error", times=5)
        return original(**kwargs)

    tool.func = rolling
    orch = cd.Orchestrator(llm, tools=[tool], rate_limit=None)
    result = orch.run("Roll a die")
    assert result.stopped_by == "error" and "failed" in result.answer
    assert [c.name for c in result.tool_calls] == ["roll_die"] and rolled == [6] and result.messages


def test_a_cancelled_run_many_leaves_what_finished():
    import asyncio

    from conductor.offline import LatencyModel, OfflineModel

    slow = OfflineModel(latency=LatencyModel(scale=1.0))
    llm = cd.connect("offline", offline_model=slow, asynchronous=True)
    orch = cd.Orchestrator(llm, tools=[], rate_limit=None)
    questions = ["Hi"] * 6

    async def main():
        task = asyncio.create_task(orch.run_many(questions, concurrency=1, progress=False))
        while sum(r is not None for r in orch.results) < 2:
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    finished = [r for r in orch.results if r is not None]
    assert len(orch.results) == 6 and 2 <= len(finished) < 6 and all(r.answer for r in finished)


@pytest.mark.parametrize(("text", "language"), [
    ("ValueError(\"unknown city '火星'; known cities: 北京 (Beijing)\")", "zh"),
    ("ValueError('division by zero')", "en"),
])
def test_an_error_written_as_its_repr_is_said_without_its_class(text, language):
    from conductor.offline.evidence import plain_error

    reason = plain_error(text, language).reason
    assert "ValueError" not in reason and '")' not in reason and "')" not in reason


def test_an_unknown_city_error_written_as_its_repr_still_lists_the_known_cities():
    from anthropic import beta_tool

    from conductor import scenarios as sc

    llm, _ = offline("messages")

    @beta_tool
    def get_weather(city: str) -> str:
        """Get today's weather for a city."""
        return str(sc.get_weather(city))

    runner = llm.client.beta.messages.tool_runner(
        model=llm.model, max_tokens=1024, messages=[{"role": "user", "content": "火星今天天气怎么样?"}],
        tools=[get_weather], max_iterations=3)
    answer = "".join(b.text for b in runner.until_done().content if b.type == "text")
    assert "它能查的城市有:北京、上海、广州、深圳、成都、哈尔滨" in answer and '")' not in answer


def test_an_unknown_city_after_retries_lists_the_known_cities_whole():
    from conductor.offline.scenario_policies import _weather_failure

    error = "ValueError: unknown city '火星'; known cities: 北京 (Beijing), 哈尔滨 (Harbin) (2 attempts)"
    assert _weather_failure(error, "zh").endswith("它能查的城市有:北京、哈尔滨")
    assert _weather_failure(error, "en").endswith("it has weather for Beijing and Harbin")
