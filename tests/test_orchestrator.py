"""cd.Orchestrator: many conversations, limited, logged and measured; nothing lost, no secret logged."""

from __future__ import annotations

import asyncio
import json
import logging

import openai
import pytest

import conductor as cd
from conductor import scenarios as sc
from conductor.budget import Budget
from conductor.offline import LatencyModel, OfflineModel
from conductor.offline.model import OPENAI_BASE_URL
from conductor.course import catalogue
from conductor.orchestrator import Progress, scrub
from conductor.ratelimit import FakeClock, RateLimit
from wire import APIS, results_by_id, tool_calls

CHAIN = "北京今天天气怎么样?应该穿什么衣服?"  # "Beijing's weather today? What should I wear?"
MIXED = (
    CHAIN,
    "What is (12 + 30) * 2?",
    "What's the weather in Mars and Shanghai today?",
    "What does lesson 1 of the tool orchestration course cover?",
    "Is it warmer in Guangzhou or Harbin?",
)


def offline(asynchronous: bool = False, api: str = "responses", **options) -> cd.LLM:
    model = OfflineModel(latency=LatencyModel.instant(), **options)
    return cd.connect("offline", api=api, offline_model=model, asynchronous=asynchronous)


def test_one_conversation_reports_progress_in_order() -> None:
    events: list[Progress] = []
    orch = cd.Orchestrator(offline(), tools=sc.weather_tools(), on_progress=events.append)
    result = orch.run(CHAIN, user="alice")
    assert "羽绒服" in result.answer and result.stopped_by is None
    assert [e.text for e in events] == [
        "Thinking…", "Checking the weather in 北京…", "Reading the results…", "Choosing clothes for 5 °C…",
        "Writing the answer…", "Done.",  # the third request is the forced final one (max_rounds=2): surely the answer
    ]
    assert {e.run_id for e in events} == {"run-0001"} and {e.user for e in events} == {"alice"}


def test_progress_texts_come_from_each_tools_label() -> None:
    search = catalogue.search_course_content
    assert search.describe({"query": "x", "lesson_number": 1}) == "Searching lesson 1…"
    assert search.describe({"query": "x", "lesson_number": 0}) == "Searching lesson 0…"  # a lesson, not "no lesson"
    assert search.describe({"query": "x", "lesson_number": 5}, 1) == "Comparing with lesson 5…"
    # no lesson_number: the lesson whose title the query is (the tool orchestration course numbers like ours)
    assert search.describe({"query": "Parallel Tool Calls"}) == "Searching lesson 2…"
    assert search.describe({"query": "Orchestrating in Production"}, 1) == "Comparing with lesson 5…"
    assert search.describe({"query": "jitter"}) == "Searching the course materials…"
    assert catalogue.get_course_outline.describe({"course_name": "MCP"}) == "Reading the outline of MCP…"
    assert sc.get_weather.describe({"city": "Oslo"}) == "Checking the weather in Oslo…"
    # arguments that do not fit the label, and a tool without one, get the plain text
    assert sc.suggest_clothing.describe({"temperature": "warm"}) == "Calling suggest_clothing…"

    @cd.tool
    def anything() -> str:
        """Do anything."""
        return "done"

    assert anything.describe({}) == "Calling anything…"


def test_a_progress_label_must_name_the_tools_parameters() -> None:
    with pytest.raises(cd.ToolDefinitionError, match="names town, which is not a parameter; its parameters are: city"):

        @cd.tool(progress="Checking {town}…")
        def weather(city: str) -> str:
            """The weather in a city."""
            return city


def test_an_async_progress_callback_is_awaited() -> None:
    seen: list[str] = []

    async def show(event: Progress) -> None:
        seen.append(event.text)

    orch = cd.Orchestrator(offline(asynchronous=True), tools=sc.weather_tools(), on_progress=show)

    async def go() -> None:
        await orch.arun(CHAIN, user="bob")
        await asyncio.sleep(0.05)  # scheduled callbacks run on the loop

    asyncio.run(go())
    assert seen[0] == "Thinking…" and seen[-1] == "Done."


@pytest.mark.parametrize("api", APIS)
def test_a_faulty_batch_keeps_order_and_loses_no_conversation_and_no_call_id(api: str) -> None:
    llm = offline(asynchronous=True, api=api, faults={"server_error": 0.15, "malformed_arguments": 0.1}, seed=3)
    llm.client = llm.client.with_options(max_retries=0)  # let some conversations fail outright
    orch = cd.Orchestrator(llm, tools=sc.ALL_TOOLS, rate_limit=None)
    questions = [MIXED[i % len(MIXED)] for i in range(30)]
    results = asyncio.run(orch.run_many(questions, concurrency=8, progress=False))
    assert len(results) == len(questions) == len(orch.records)
    failed = [r for r in results if r.stopped_by == "error"]
    assert failed and len(failed) == len(orch.failures) == orch.metrics().errors
    assert all("failed" in r.answer and "run-" in r.answer for r in failed)
    for question, result in zip(questions, results):
        if result.stopped_by == "error":
            continue
        asked = [call_id for call_id, _, _ in tool_calls({"messages": result.messages})]
        assert asked == list(results_by_id({"messages": result.messages}))  # each answered once, in order
        assert asked == [c.id for c in result.tool_calls]
    # Results are in input order: each answer belongs to its question.
    for question, result in zip(questions, results):
        if question == CHAIN and result.stopped_by is None and result.rounds:
            first = result.tool_calls[0]
            # A malformed_arguments fault (drawn in whatever order the concurrent requests arrive) breaks the
            # JSON on the OpenAI APIs, where 北京 is still in it, and empties Anthropic's input object.
            assert "北京" in str(first.arguments) or (api == "messages" and first.blocked == "invalid")


def test_the_per_user_limit_refuses_the_eleventh_tool_call_and_tells_the_model() -> None:
    orch = cd.Orchestrator(offline(), tools=sc.weather_tools(), rate_limit=RateLimit(tool_calls_per_minute=10),
                           clock=FakeClock())
    runs = [orch.run(CHAIN, user="alice") for _ in range(6)]  # two calls each until the 11th is refused
    other = orch.run(CHAIN, user="bob")
    refused = runs[-1].tool_calls[0]
    assert refused.is_error and "alice may make 10 tool calls a minute" in refused.output
    assert [r.refused_calls for r in orch.records] == [0, 0, 0, 0, 0, 1, 0] and not other.tool_calls[0].is_error
    m = orch.metrics()
    assert m.refused_calls == 1 and m.tool_failure_rate == 0  # a refusal is not a tool failure


def test_waiting_for_a_rate_limit_is_recorded_on_the_fake_clock() -> None:
    clock = FakeClock()
    orch = cd.Orchestrator(offline(), tools=sc.weather_tools(), clock=clock, deadline=None,
                           rate_limit=RateLimit(tool_calls_per_minute=1, requests_per_minute=2, max_wait=120))
    result = orch.run(CHAIN, user="carol")
    assert result.stopped_by is None and not any(c.is_error for c in result.tool_calls)
    m = orch.metrics()
    assert m.rate_limit_waits >= 1 and m.rate_limit_wait_seconds >= 60 and clock.now() >= 60
    orch.reset()  # metrics start again: the old waits are not this period's
    after = orch.metrics()
    assert (after.queries, after.rate_limit_waits, after.rate_limit_wait_seconds) == (0, 0, 0)


def test_a_request_wait_past_the_deadline_ends_the_run_in_time() -> None:
    orch = cd.Orchestrator(offline(), tools=sc.weather_tools(), clock=FakeClock(), deadline=5.0,
                           rate_limit=RateLimit(tool_calls_per_minute=None, requests_per_minute=1))
    result = orch.run(CHAIN, user="dave")
    assert result.stopped_by == "deadline" and result.api_calls == 1
    assert "rate limit" in result.answer or result.rounds


def test_the_batch_budget_stops_work_before_it_is_crossed() -> None:
    orch = cd.Orchestrator(offline(asynchronous=True), tools=sc.ALL_TOOLS, rate_limit=None, max_tokens=200,
                           batch_budget=Budget(usd=0.01))
    results = asyncio.run(orch.run_many(list(MIXED) * 8, concurrency=4, progress=False))
    assert sum(r.cost for r in results) <= 0.01
    assert orch.batch_ledger is not None and orch.batch_ledger.spent.usd <= 0.01
    stopped = [r for r in results if r.stopped_by == "budget"]
    assert stopped and all(r.answer for r in stopped)
    assert orch.metrics().stopped["budget"] == len(stopped)


@pytest.mark.parametrize("concurrency", [1, 8])
def test_the_batch_budget_ends_no_conversation_for_others_reservations_when_the_money_suffices(concurrency) -> None:
    # Eight chains cost about $0.006; each request reserves its worst case, and eight at once hold more than the
    # $0.05 for a moment: a request that would fit once they settle waits for them instead of ending its run.
    orch = cd.Orchestrator(offline(asynchronous=True), tools=sc.weather_tools(), rate_limit=None,
                           batch_budget=Budget(usd=0.05))
    results = asyncio.run(orch.run_many([CHAIN] * 8, concurrency=concurrency, progress=False))
    assert [r.stopped_by for r in results] == [None] * 8
    assert orch.batch_ledger is not None and orch.batch_ledger.spent.usd <= 0.05
    assert orch.batch_ledger.reserved.usd == pytest.approx(0.0, abs=1e-12)


def test_waiting_for_room_in_a_shared_budget_ends_at_the_deadline() -> None:
    from conductor.budget import Ledger, RunLimits, Spend

    ledger = Ledger(Budget(usd=1.0))
    assert ledger.reserve(Spend(0.99999, 0)) is True  # another request holds all but $0.00001, never settling
    assert ledger.reserve(Spend(0.5, 0)) is None  # would fit once it settles: wait
    assert ledger.reserve(Spend(1.5, 0)) is False  # never fits
    llm = offline()
    result = llm.run(CHAIN, tools=sc.weather_tools(), limits=RunLimits([ledger], deadline=0.3))
    assert result.stopped_by == "deadline" and result.api_calls == 0


def test_alerts_go_to_logging_and_the_callback_once(caplog: pytest.LogCaptureFixture) -> None:
    alerts: list[str] = []
    orch = cd.Orchestrator(offline(), tools=[sc.get_weather], on_alert=alerts.append, rate_limit=None)
    with caplog.at_level(logging.WARNING, logger="conductor.orchestrator"):
        for _ in range(12):
            orch.run("What's the weather in Mars today?", user="erin")
        orch.metrics()
    assert alerts == ["tool failure rate 100.0% is above 5%"]
    assert sum("ALERT tool failure rate" in r.getMessage() for r in caplog.records) == 1


def test_json_logs_carry_run_user_timings_tokens_cost_and_outcome(caplog: pytest.LogCaptureFixture) -> None:
    orch = cd.Orchestrator(offline(), tools=sc.weather_tools(), json_logs=True)
    with caplog.at_level(logging.INFO, logger="conductor.orchestrator"):
        orch.run(CHAIN, user="frank")
    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "conductor.orchestrator"]
    kinds = [line["event"] for line in lines]
    assert kinds == ["request"] * 3 + ["tool_call"] * 2 + ["conversation"]
    assert all(line["run"] == "run-0001" and line["user"] == "frank" for line in lines)
    assert {"seconds", "input_tokens", "output_tokens", "usd", "outcome"} <= set(lines[0])
    assert lines[3]["tool"] == "get_weather" and lines[3]["outcome"] == "ok"


def test_no_key_reaches_any_log(monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    key = "sk-proj-FAKEKEY0123456789abcdefSECRET"
    monkeypatch.setenv("OPENAI_API_KEY", key)
    model = OfflineModel(latency=LatencyModel.instant())
    model.inject("server_error")  # an error path too
    import httpx2

    client = openai.OpenAI(api_key=key, base_url=OPENAI_BASE_URL, max_retries=0,
                           http_client=httpx2.Client(transport=model.transport()))
    llm = cd.connect(client, model="gpt-4.1-mini")
    orch = cd.Orchestrator(llm, tools=sc.weather_tools(), json_logs=True)
    with caplog.at_level(logging.DEBUG):
        failed = orch.run(CHAIN, user="gina")
        ok = orch.run(CHAIN, user="gina")
        orch.metrics()
    assert failed.stopped_by == "error" and ok.stopped_by is None
    assert caplog.records and key not in caplog.text and key[:20] not in caplog.text
    assert key not in failed.answer and key not in repr(orch)


def test_scrub() -> None:
    assert scrub("Authorization: Bearer abc.def") == "Authorization: [redacted]"
    assert scrub("key sk-ant-api03-xyz123456") == "key [redacted]"
    assert scrub("my secret here", ["secret"]) == "my secret here"  # too short to be a key
    assert scrub("x 0123456789abcdef y", ["0123456789abcdef"]) == "x [redacted] y"


def test_learner_mistakes_raise_with_the_fix() -> None:
    with pytest.raises(TypeError, match="cd.Budget"):
        cd.Orchestrator(offline(), budget=0.01)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="set by the Orchestrator"):
        cd.Orchestrator(offline(), deadline=3, limits=None)
    orch = cd.Orchestrator(offline())
    with pytest.raises(ValueError, match="one per question"):
        asyncio.run(orch.run_many(["a", "b"], users=["x"], progress=False))
    with pytest.raises(ValueError, match="concurrency"):
        asyncio.run(orch.run_many(["a"], concurrency=0, progress=False))


def test_without_users_each_conversation_of_a_batch_is_its_own_user() -> None:
    orch = cd.Orchestrator(offline(asynchronous=True), tools=sc.weather_tools(),
                           rate_limit=RateLimit(tool_calls_per_minute=2))
    results = asyncio.run(orch.run_many([CHAIN] * 8, concurrency=4, progress=False))
    assert orch.metrics().refused_calls == 0 and all(r.stopped_by is None for r in results)
    assert sorted(r.user for r in orch.records) == [f"q{i:04d}" for i in range(1, 9)]


def test_run_works_on_an_async_connection_inside_a_running_loop() -> None:
    orch = cd.Orchestrator(offline(asynchronous=True), tools=sc.weather_tools())

    async def inside() -> cd.RunResult:
        return orch.run(CHAIN, user="ivy")  # as in a notebook cell: a loop is running

    assert "羽绒服" in asyncio.run(inside()).answer


def test_a_request_bigger_than_the_token_limit_stops_the_run_with_a_reason() -> None:
    orch = cd.Orchestrator(offline(), tools=sc.weather_tools(), deadline=None, clock=FakeClock(),
                           rate_limit=RateLimit(tool_calls_per_minute=None, tokens_per_minute=100))
    result = orch.run(CHAIN, user="judy")
    assert result.stopped_by == "rate_limit" and result.api_calls == 0
    assert "tokens_per_minute" in result.answer or "can never fit" in result.answer
