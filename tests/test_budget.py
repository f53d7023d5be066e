"""Budgets and deadlines: checked before each request, never crossed, and the run still answers."""

from __future__ import annotations

import asyncio
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import conductor as cd
from conductor import scenarios as sc
from conductor.apis import RequestSettings, api_for
from conductor.budget import Budget, Ledger, RunLimits, Spend, estimate_input_tokens
from conductor.offline import LatencyModel, OfflineModel
from conductor.tools import ToolRegistry
from conductor.types import CostSplit, UserMessage
from scripted import offline as offline_scripted
from scripted import scripted
from wire import APIS

CHAIN = "北京今天天气怎么样?应该穿什么衣服?"  # "Beijing's weather today? What should I wear?"
QUESTIONS = (CHAIN, "What is (2 + 3) * 4?", "Weather in Shanghai and Guangzhou? Which is warmer?",
             "What does lesson 1 of the tool orchestration course cover?")


def offline(api: str = "responses", **options) -> cd.LLM:
    return cd.connect("offline", api=api, offline_model=OfflineModel(latency=LatencyModel.instant(), **options))


def priced(llm: cd.LLM, input_per_m: float, output_per_m: float) -> cd.LLM:
    """The same connection with made-up prices (US dollars per million tokens)."""
    llm.cost_split = lambda u: CostSplit(input=u.input_tokens * input_per_m / 1e6,  # type: ignore[method-assign]
                                         output=u.output_tokens * output_per_m / 1e6)
    return llm


def test_budget_needs_a_limit_and_sane_numbers() -> None:
    with pytest.raises(ValueError, match="needs a limit"):
        Budget()
    with pytest.raises(ValueError, match="usd"):
        Budget(usd=-1)
    with pytest.raises(ValueError, match="tokens"):
        Budget(tokens=1.5)  # type: ignore[arg-type]
    assert str(Budget(usd=0.01, tokens=20_000)) == "$0.01 and 20,000 tokens"


@settings(max_examples=100, deadline=None)
@given(
    limit=st.floats(0, 1),
    steps=st.lists(st.tuples(st.floats(0, 0.5), st.floats(0, 1)), max_size=30),
)
def test_a_ledger_never_spends_past_its_budget(limit: float, steps: list[tuple[float, float]]) -> None:
    ledger = Ledger(Budget(usd=limit))
    for worst, share in steps:
        if ledger.reserve(Spend(worst, 0)):
            ledger.settle(Spend(worst, 0), Spend(worst * share, 0))  # a response never costs more than its worst case
        assert ledger.spent.usd <= limit + 1e-12
    assert ledger.reserved.usd == pytest.approx(0, abs=1e-9)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    api=st.sampled_from(APIS),
    question=st.sampled_from(QUESTIONS),
    usd=st.floats(0, 0.004),
    tokens=st.integers(0, 9000),
    max_tokens=st.integers(16, 1500),
    input_price=st.floats(0.05, 5),
    output_price=st.floats(0.1, 20),
)
def test_a_run_never_crosses_its_budget(
    api: str, question: str, usd: float, tokens: int, max_tokens: int, input_price: float, output_price: float
) -> None:
    llm = priced(offline(api), input_price, output_price)
    result = llm.run(question, tools=sc.ALL_TOOLS, max_tokens=max_tokens, budget=Budget(usd=usd, tokens=tokens))
    assert result.cost <= usd + 1e-12
    assert result.usage.input_tokens + result.usage.output_tokens <= tokens
    if result.stopped_by == "budget":  # the run still ends with an answer: the model's text, or why it stopped
        assert "budget" in result.answer or "预算" in result.answer or result.answer in [r.text for r in result.rounds]


def estimates_before_each_request() -> tuple[RunLimits, list[int]]:
    """Limits that record the input estimate the budget check makes just before each request goes out."""
    estimates: list[int] = []
    limits = RunLimits(before_send=lambda conversation, request: estimates.append(
        estimate_input_tokens(conversation, request)))
    return limits, estimates


@pytest.mark.parametrize("question", QUESTIONS)
@pytest.mark.parametrize("api", APIS)
def test_the_input_estimate_is_never_below_what_the_model_counts(question: str, api: str) -> None:
    model = OfflineModel(latency=LatencyModel.instant())
    llm = cd.connect("offline", api=api, offline_model=model)
    limits, estimates = estimates_before_each_request()
    result = llm.run(question, tools=sc.ALL_TOOLS, system="You are a helpful course assistant.", limits=limits)
    calls = result.trace.model_calls
    assert len(estimates) == len(calls) == len(model.requests) >= 1
    for estimate, call in zip(estimates, calls):
        assert estimate >= call.usage.input_tokens


@cd.tool
def chapter(number: int) -> str:
    """The text of one chapter of the course notes."""
    return f"Chapter {number}. " + "Tools are functions the model may ask to call. " * 60


def test_with_server_state_the_estimate_covers_what_the_server_already_holds() -> None:
    """A chained request carries only the new items, yet the model bills the whole conversation."""
    llm, model = offline_scripted("responses", scripted([("chapter", {"number": 1})], [("chapter", {"number": 2})],
                                                        "Both chapters read."))
    limits, estimates = estimates_before_each_request()
    result = llm.run("Read chapters 1 and 2.", tools=[chapter], max_rounds=2, limits=limits, server_state=True)
    assert result.answer == "Both chapters read." and len(model.requests) == 3
    last = model.requests[-1].body
    assert [i["type"] for i in last["input"]] == ["function_call_output"]  # only the second chapter was sent
    assert "Chapter 1." not in json.dumps(last)
    for estimate, call in zip(estimates, result.trace.model_calls, strict=True):
        assert estimate >= call.usage.input_tokens


def test_a_budget_too_small_for_one_request_sends_nothing() -> None:
    model = OfflineModel(latency=LatencyModel.instant())
    llm = cd.connect("offline", offline_model=model)
    result = llm.run(CHAIN, tools=sc.weather_tools(), budget=Budget(usd=0.0001))
    assert result.stopped_by == "budget" and result.api_calls == 0 and not model.requests
    assert result.answer.startswith("没有回答:预算($0.0001)")  # said in the question's language
    assert "stopped by the budget" in result.transcript()


def test_stopping_after_a_round_reports_what_the_tools_returned() -> None:
    llm = offline()
    full = llm.run(CHAIN, tools=sc.weather_tools(), max_tokens=300)
    first = full.trace.model_calls[0].cost
    # Room for the first request's worst case, not for the second's.
    budget = Budget(usd=llm.cost_split(cd.Usage(input_tokens=600, output_tokens=300)).total + first / 2)
    result = llm.run(CHAIN, tools=sc.weather_tools(), max_tokens=300, budget=budget)
    assert result.stopped_by == "budget" and len(result.rounds) >= 1
    assert "工具返回了:get_weather:" in result.answer and "天气 晴" in result.answer and "{" not in result.answer
    assert result.cost <= budget.usd


@pytest.mark.parametrize(("api", "field"), [("responses", "max_output_tokens"), ("chat", "max_completion_tokens"),
                                            ("messages", "max_tokens")])
def test_a_request_without_max_tokens_gets_a_ceiling_when_budgeted(api: str, field: str) -> None:
    model = OfflineModel(latency=LatencyModel.instant())
    llm = cd.connect("offline", api=api, offline_model=model)
    llm.run("What is 2+2?", tools=[sc.calculate], budget=Budget(tokens=50_000))
    assert model.requests and all(r.body[field] == 4096 for r in model.requests)


def test_runs_sharing_a_ledger_never_cross_it_together() -> None:
    llm = cd.connect("offline", offline_model=OfflineModel(latency=LatencyModel(ttft=0.01, per_token=0, jitter=0)),
                     asynchronous=True)
    shared = Ledger(Budget(usd=0.02))

    async def batch() -> list[cd.RunResult]:
        return await asyncio.gather(*(llm.arun(q, tools=sc.ALL_TOOLS, max_tokens=200, budget=shared)
                                      for q in QUESTIONS * 10))

    results = asyncio.run(batch())
    assert sum(r.cost for r in results) <= 0.02
    assert shared.spent.usd == pytest.approx(sum(r.cost for r in results))
    assert shared.reserved.usd == pytest.approx(0, abs=1e-12)
    assert any(r.stopped_by == "budget" for r in results) and any(r.stopped_by is None for r in results)


def test_a_slow_tool_is_abandoned_at_the_deadline() -> None:
    slow = sc.with_delay(sc.get_weather, 2.0)
    result = offline().run(CHAIN, tools=[slow, sc.suggest_clothing], deadline=0.3)
    assert result.stopped_by == "deadline"
    assert result.tool_calls[0].is_error and "deadline" in result.tool_calls[0].output
    assert "时限(0.3秒)" in result.answer


def test_an_async_request_still_running_at_the_deadline_is_cancelled() -> None:
    llm = cd.connect("offline", offline_model=OfflineModel(latency=LatencyModel(ttft=30, jitter=0)), asynchronous=True)
    result = asyncio.run(llm.arun(CHAIN, tools=sc.weather_tools(), deadline=0.2))
    assert result.stopped_by == "deadline" and result.api_calls == 0
    assert result.answer.startswith("没有回答:时限(0.2秒)")


def test_budget_and_limits_together_are_refused() -> None:
    with pytest.raises(ValueError, match="not both"):
        offline().run(CHAIN, budget=Budget(usd=1), limits=RunLimits())
    with pytest.raises(ValueError, match="deadline"):
        offline().run(CHAIN, deadline=0)
    with pytest.raises(TypeError, match="cd.Budget"):
        offline().run(CHAIN, budget=0.01)  # type: ignore[arg-type]


def test_the_first_requests_worst_case_is_what_the_check_uses() -> None:
    llm = offline()
    worst = cd.budget.first_request_worst_case(llm, CHAIN, tools=sc.weather_tools(), max_tokens=300)
    assert llm.run(CHAIN, tools=sc.weather_tools(), max_tokens=300, budget=Budget(usd=worst.usd)).api_calls >= 1
    refused = llm.run(CHAIN, tools=sc.weather_tools(), max_tokens=300, budget=Budget(usd=worst.usd * 0.999))
    assert refused.api_calls == 0 and refused.stopped_by == "budget"
    assert llm.run(CHAIN, tools=sc.weather_tools(), max_tokens=300, budget=Budget(tokens=worst.tokens - 1)).api_calls == 0


class _Run:
    """What RunLimits.check reads of a conversation: a one-question conversation on ``api``."""

    def __init__(self, price, api: str, text: str) -> None:
        self.origin = 0.0
        self.model_calls: list = []
        self.price = price
        self.adapter = api_for(api)
        self.settings = RequestSettings("m", ToolRegistry([]))
        self.messages: list[dict] = []
        self.adapter.render([UserMessage(text)], self.messages, model="m")


@settings(max_examples=100, deadline=None)
@given(
    api=st.sampled_from(APIS),
    usd=st.floats(0, 0.05),
    tokens=st.integers(0, 60_000),
    prices=st.tuples(st.floats(0, 20), st.floats(0, 80)),
    requests=st.lists(
        st.tuples(st.text(min_size=1, max_size=3000), st.integers(1, 4096), st.floats(0, 1), st.floats(0, 1)),
        max_size=12,
    ),
)
def test_random_usage_and_prices_never_cross_the_budget(
    api: str, usd: float, tokens: int, prices: tuple[float, float], requests: list[tuple[str, int, float, float]]
) -> None:
    """Any request the check lets through, answered with any usage a real API can bill, stays within budget."""
    price = lambda u: CostSplit(input=u.input_tokens * prices[0] / 1e6, output=u.output_tokens * prices[1] / 1e6)
    ledger = Ledger(Budget(usd=usd, tokens=tokens))
    limits = RunLimits([ledger])
    for text, max_tokens, input_share, output_share in requests:
        run = _Run(price, api, text)
        settings_ = RequestSettings("m", ToolRegistry([]), max_tokens=max_tokens)
        request = run.adapter.request(settings_, run.messages, tools_allowed=True)
        if limits.check(run, request) is not None:
            continue
        # The API bills at most the real input (never above the estimate) and at most max_tokens of output.
        usage = cd.Usage(input_tokens=int(estimate_input_tokens(run, request) * input_share),
                         output_tokens=int(max_tokens * output_share))
        limits.settle(usage, price(usage).total)
        assert ledger.spent.usd <= usd + 1e-12 and ledger.spent.tokens <= tokens
    assert ledger.reserved == Spend()


@pytest.mark.parametrize(("first_api", "second_api"), [("responses", "messages"), ("chat", "responses"),
                                                     ("messages", "chat")])
def test_a_request_rebuilt_for_a_fallback_model_holds_one_reservation(first_api: str, second_api: str) -> None:
    primary_model = OfflineModel(latency=LatencyModel.instant())
    primary_model.inject("overloaded", times=10)
    primary = cd.connect("offline", api=first_api, offline_model=primary_model, max_retries=0)
    backup = cd.connect("offline", api=second_api, offline_model=OfflineModel(latency=LatencyModel.instant()))
    ledger = Ledger(Budget(usd=0.05))
    result = cd.fallback(primary, backup).run(CHAIN, tools=sc.weather_tools(), budget=ledger)
    assert result.stopped_by is None and "羽绒服" in result.answer
    assert ledger.reserved.usd == pytest.approx(0, abs=1e-12) and ledger.spent.usd == pytest.approx(result.cost)


@pytest.mark.parametrize("cache", ["1h", True])
def test_the_worst_case_prices_what_a_request_may_write_to_the_cache(cache) -> None:
    """A Messages request marked for caching may write its whole prompt at 1.25x (5 minutes) or 2x (an hour)
    the input price: a budget that covers the plain price but not the write must not let it through."""
    system = "You are a weather assistant. " + "Answer with the city's temperature and sky, in one sentence. " * 700
    question = "北京今天天气怎么样?"  # "What's the weather in Beijing today?"

    def run(budget: Budget | None) -> cd.RunResult:
        llm = cd.connect("offline", api="messages", cache=cache,
                         offline_model=OfflineModel(latency=LatencyModel.instant()))
        return llm.run(question, tools=sc.weather_tools(), system=system, max_tokens=16, max_rounds=1, budget=budget)

    first = run(None).trace.model_calls[0]
    assert first.usage.cache_write_tokens > 0.9 * first.usage.input_tokens  # the request did write its prompt
    budget = Budget(usd=0.9 * first.cost)
    result = run(budget)
    assert result.cost <= budget.usd
    assert result.stopped_by == "budget" and result.api_calls == 0
