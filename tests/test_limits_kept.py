"""Limits kept by every driver (run, arun, stream, astream) on the three APIs.

A deadline no SDK retry or ``retry-after`` wait crosses; a circuit breaker that always leaves
half-open, however its trial request ends; a budget never exceeded: refused up front when the
model has no price, Anthropic's hidden tool-use prompt in the worst case, and a request given
up at the deadline counted as spent.

Timings are bounded generously (a busy 2-core machine must not make them flaky): each bound
is far under what the fixed bug took, and the run's own stop reason and requests say the rest.
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from typing import Any

import pytest

import conductor as cd
from conductor.apis.base import HiddenPrompt
from conductor.budget import INPUT_MARGIN, Budget, Ledger, UnpricedModelError, estimate_input_tokens
from conductor.offline import LatencyModel, OfflineModel
from conductor.tokens import estimate_tokens
from conductor.course.scenarios import weather_tools
from scripted import scripted
from wire import APIS

DRIVERS = ("run", "arun", "stream", "astream")
ASYNC_DRIVERS = ("arun", "astream")
QUESTION = "What is 2 + 2?"
DEADLINE = 0.5
BOUND = 2.5  # seconds: well under what the SDK's own waits took (10-20 s for a 429, 5.6 s+ of backoff)
LONG_ANSWER = " ".join(["word"] * 300)  # about 3 s to stream at 10 ms a token


def stand_in(*policies: Any, latency: LatencyModel | None = None) -> OfflineModel:
    return OfflineModel(seed=0, latency=latency or LatencyModel.instant(), policies=list(policies))


def connect(api: str, driver: str, model: OfflineModel, **options: Any) -> cd.LLM:
    """An offline connection whose client suits ``driver`` (async for arun / astream)."""
    return cd.connect("offline", api=api, offline_model=model, asynchronous=driver in ASYNC_DRIVERS, **options)


def drive(llm: cd.LLM, driver: str, question: str = QUESTION, **options: Any) -> cd.RunResult:
    """``llm``'s run of ``question`` through ``driver``; the streamed drivers' result from their done event."""
    if driver == "run":
        return llm.run(question, **options)
    if driver == "stream":
        return [e for e in llm.stream(question, **options) if e.type == "done"][0].result

    async def on_the_loop() -> cd.RunResult:
        if driver == "arun":
            return await llm.arun(question, **options)
        return [e async for e in llm.astream(question, **options) if e.type == "done"][0].result

    return asyncio.run(on_the_loop())


def timed(llm: cd.LLM, driver: str, **options: Any) -> tuple[cd.RunResult, float]:
    started = time.perf_counter()
    result = drive(llm, driver, **options)
    return result, time.perf_counter() - started


@pytest.fixture(scope="module", autouse=True)
def warm() -> None:
    """Every driver once on each API, so the SDKs' lazy imports do not eat into the first deadline timed."""
    for api in APIS:
        for driver in DRIVERS:
            drive(connect(api, driver, stand_in(scripted("4"))), driver)


# -- 1. a deadline no SDK retry or wait crosses -----------------------------------------------------

FAULTS = {
    "rate_limit": {"retry_after": 5},  # the SDKs would sleep 5 s before each retry
    "overloaded": {},  # 529: the SDKs back off 0.5, 1, 2, 4 s (x 0.75-1)
    "timeout": {},  # the read times out: the same backoff
}


@pytest.mark.parametrize("kind", FAULTS)
@pytest.mark.parametrize("driver", DRIVERS)
@pytest.mark.parametrize("api", APIS)
def test_no_sdk_retry_or_wait_crosses_the_deadline(api: str, driver: str, kind: str) -> None:
    model = stand_in(scripted("4"))
    model.inject(kind, times=10, **FAULTS[kind])
    llm = connect(api, driver, model, max_retries=4)  # the SDK alone would wait 20 s (429) or 5.6 s+ (backoff)
    result, seconds = timed(llm, driver, deadline=DEADLINE)
    assert result.stopped_by == "deadline" and result.api_calls == 0
    assert result.answer.startswith("No answer: the deadline (0.5 s)")
    # The first retry's wait (0.375-0.5 s) fits before the deadline or not at all; never a later one.
    assert 1 <= len(model.requests) <= 2
    assert seconds < BOUND


@pytest.mark.parametrize("driver", DRIVERS)
@pytest.mark.parametrize("api", APIS)
def test_retries_that_end_before_the_deadline_are_still_made(api: str, driver: str) -> None:
    model = stand_in(scripted("4"))
    model.inject("rate_limit", times=2, retry_after=0.05)
    result = drive(connect(api, driver, model), driver, deadline=30.0)
    assert result.stopped_by is None and result.answer == "4"
    assert [r.status for r in model.requests] == [429, 429, 200]


@pytest.mark.parametrize("driver", ("stream", "astream"))
@pytest.mark.parametrize("api", APIS)
def test_a_stream_still_running_at_the_deadline_is_left(api: str, driver: str) -> None:
    model = stand_in(scripted(LONG_ANSWER), latency=LatencyModel(ttft=0.05, per_token=0.01, jitter=0))
    result, seconds = timed(connect(api, driver, model), driver, deadline=DEADLINE)
    assert result.stopped_by == "deadline" and result.api_calls == 0  # the cut-off turn is not kept
    assert seconds < BOUND  # the whole answer takes about 3 s


def test_a_sync_client_streamed_on_the_event_loop_keeps_the_deadline_too() -> None:
    model = stand_in(scripted("4"))
    model.inject("rate_limit", times=10, retry_after=5)
    llm = cd.connect("offline", api="chat", offline_model=model)  # a sync client: astream reads it in threads
    result, seconds = timed(llm, "astream", deadline=DEADLINE)
    assert result.stopped_by == "deadline" and len(model.requests) == 1 and seconds < BOUND


# -- 2. a circuit breaker always leaves half-open --------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


COOLDOWN = 30.0


def half_open_pair(asynchronous: bool = False) -> tuple[cd.LLM, cd.CircuitBreaker, Clock, OfflineModel]:
    """A fallback whose primary failed once and has cooled down: the next request to it is the trial."""
    clock = Clock()
    breaker = cd.CircuitBreaker(failures=1, cooldown=COOLDOWN, clock=clock)
    primary_model = stand_in(scripted("primary says 4"))
    primary = cd.connect("offline", api="chat", model="primary", offline_model=primary_model,
                         asynchronous=asynchronous)
    backup = cd.connect("offline", api="messages", model="backup", offline_model=stand_in(scripted("backup says 4")),
                        asynchronous=asynchronous)
    llm = cd.fallback(primary, backup, breaker=breaker)
    primary_model.inject("overloaded")
    assert drive(llm, "arun" if asynchronous else "run").answer == "backup says 4"
    clock.now += COOLDOWN
    assert breaker.state("primary") == "half_open"
    return llm, breaker, clock, primary_model


def answered_by(llm: cd.LLM, driver: str = "run") -> str:
    return drive(llm, driver).trace.model_calls[0].model


def test_a_trial_cut_at_the_deadline_opens_the_circuit_again() -> None:
    llm, breaker, clock, primary = half_open_pair(asynchronous=True)
    primary.latency = LatencyModel(ttft=30.0, jitter=0)  # the trial hangs
    result = drive(llm, "arun", deadline=0.3)
    assert result.stopped_by == "deadline"
    assert breaker.status("primary") == cd.failover.CircuitStatus("primary", "open", 1, COOLDOWN)
    primary.latency = LatencyModel.instant()
    clock.now += COOLDOWN
    assert answered_by(llm, "arun") == "primary"  # probed again, not sent to the backup for good
    assert breaker.state("primary") == "closed"


def test_a_cancelled_trial_opens_the_circuit_again() -> None:
    llm, breaker, clock, primary = half_open_pair(asynchronous=True)
    primary.latency = LatencyModel(ttft=30.0, jitter=0)

    async def cancel_the_run() -> None:
        run = asyncio.ensure_future(llm.arun(QUESTION))
        await asyncio.sleep(0.2)
        run.cancel()
        with pytest.raises(asyncio.CancelledError):
            await run

    asyncio.run(cancel_the_run())
    assert breaker.state("primary") == "open"
    primary.latency = LatencyModel.instant()
    clock.now += COOLDOWN
    assert answered_by(llm, "arun") == "primary"


def test_a_reader_leaving_the_trials_stream_closes_the_circuit() -> None:
    llm, breaker, _, _ = half_open_pair()
    for event in llm.stream(QUESTION):
        if event.type == "text":
            break  # the primary has begun answering: it is up
    assert breaker.state("primary") == "closed"
    assert answered_by(llm) == "primary"


def test_a_stream_closed_during_the_trial_leaves_half_open() -> None:
    llm, breaker, _, _ = half_open_pair()
    events = llm.stream(QUESTION)
    assert next(events).type == "round_start"
    assert next(events).type == "text"
    events.close()
    assert breaker.state("primary") == "closed"


def test_an_astream_closed_during_the_trial_leaves_half_open() -> None:
    llm, breaker, _, _ = half_open_pair(asynchronous=True)

    async def read_one_delta() -> None:
        events = llm.astream(QUESTION)
        async for event in events:
            if event.type == "text":
                break
        await events.aclose()

    asyncio.run(read_one_delta())
    assert breaker.state("primary") == "closed"
    assert answered_by(llm, "arun") == "primary"


def test_a_trial_ended_without_a_verdict_opens_for_a_fresh_cooldown() -> None:
    clock = Clock()
    breaker = cd.CircuitBreaker(failures=1, cooldown=10.0, clock=clock)
    breaker.record_failure("m")
    clock.now = 12.0
    assert breaker.allow("m") and breaker.state("m") == "half_open"
    breaker.release("m")
    assert breaker.status("m") == cd.failover.CircuitStatus("m", "open", 1, 10.0)
    clock.now = 22.0
    assert breaker.allow("m")


# -- 3. a budget never exceeded, and refused when it cannot be known --------------------------------

UNPRICED = "llama3.2"  # a local model behind an OpenAI-compatible server: genai-prices has no price for it


def unpriced(driver: str, model: OfflineModel) -> cd.LLM:
    client = model.openai_client(async_=driver in ASYNC_DRIVERS)
    return cd.connect(client, model=UNPRICED, api="chat")


@pytest.mark.parametrize("driver", DRIVERS)
def test_a_dollar_budget_for_a_model_with_no_price_is_refused_up_front(driver: str) -> None:
    model = stand_in(scripted("4"))
    llm = unpriced(driver, model)
    assert not llm.prices.known
    with pytest.raises(UnpricedModelError, match=r"cd\.Budget\(tokens=") as refused:
        drive(llm, driver, budget=Budget(usd=0.01))
    assert isinstance(refused.value, ValueError) and UNPRICED in str(refused.value)
    assert model.requests == []  # refused before anything was sent
    assert drive(llm, driver, budget=Budget(tokens=20_000)).answer == "4"  # a token budget needs no price


def test_a_fallback_with_an_unpriced_member_refuses_a_dollar_budget() -> None:
    backup_model = stand_in(scripted("4"))
    primary = cd.connect("offline", offline_model=stand_in(scripted("4")))
    llm = cd.fallback(primary, unpriced("run", backup_model))
    with pytest.raises(UnpricedModelError, match=UNPRICED):
        llm.run(QUESTION, budget=Budget(usd=0.01))
    assert llm.run(QUESTION, budget=Budget(tokens=20_000)).answer == "4"


def text_estimate(conversation: Any, request: dict[str, Any]) -> int:
    """The estimate of what a request carries as text (the conversation, system text and tools)."""
    visible = {k: v for k, v in conversation.adapter.prompt_extras(request).items() if not isinstance(v, HiddenPrompt)}
    text = json.dumps({"conversation": conversation.messages, **visible}, ensure_ascii=False, default=str)
    return math.ceil(estimate_tokens(text) * INPUT_MARGIN)


def first_request(llm: cd.LLM, tools: list[Any], tool_choice: Any = None) -> tuple[Any, dict[str, Any]]:
    conversation = llm._conversation(QUESTION, tools, 1, None, None, None, None, tool_choice, {})
    return conversation, conversation.next_request()


@pytest.mark.parametrize(
    ("model", "tool_choice", "hidden"),
    [
        (None, None, 496),  # auto, on a current model (priced as Claude Haiku 4.5: Anthropic's 2026 tool use page)
        (None, "required", 588),  # any
        (None, {"type": "tool", "name": "get_weather"}, 588),
        ("claude-3-haiku-20240307", None, 264),  # the pricing page lists the Claude 3 models apart
        ("claude-3-opus-20240229", "required", 281),
    ],
)
def test_anthropics_hidden_tool_prompt_is_in_the_worst_case(model: str | None, tool_choice: Any, hidden: int) -> None:
    llm = cd.connect("offline", api="messages", model=model, offline_model=stand_in())
    conversation, request = first_request(llm, weather_tools(), tool_choice)
    assert estimate_input_tokens(conversation, request) == text_estimate(conversation, request) + hidden
    # A token budget that covers the request's text and output but not the hidden prompt is not enough.
    tight = Budget(tokens=text_estimate(conversation, request) + request["max_tokens"])
    result = llm.run(QUESTION, tools=weather_tools(), tool_choice=tool_choice, budget=tight)
    assert result.stopped_by == "budget" and result.api_calls == 0


@pytest.mark.parametrize("api", APIS)
def test_no_hidden_prompt_without_tools_or_outside_the_messages_api(api: str) -> None:
    llm = cd.connect("offline", api=api, offline_model=stand_in())
    for tools in ([], weather_tools()):
        conversation, request = first_request(llm, tools)
        hidden = 496 if api == "messages" and tools else 0
        assert estimate_input_tokens(conversation, request) == text_estimate(conversation, request) + hidden


def worst_case_usd(llm: cd.LLM, **options: Any) -> float:
    return cd.budget.first_request_worst_case(llm, QUESTION, **options).usd


def test_an_async_request_abandoned_at_the_deadline_is_counted_as_spent() -> None:
    model = stand_in(scripted("4"), latency=LatencyModel(ttft=30.0, jitter=0))
    llm = connect("chat", "arun", model)
    ledger = Ledger(Budget(usd=1.0))
    result = drive(llm, "arun", deadline=0.3, budget=ledger)
    assert result.stopped_by == "deadline" and result.cost == 0
    # The request went out and may still complete: the provider would bill it.
    assert ledger.spent.usd == pytest.approx(worst_case_usd(llm)) and ledger.spent.usd > 0
    assert ledger.reserved.usd == pytest.approx(0, abs=1e-12)


@pytest.mark.parametrize("driver", ("stream", "astream"))
@pytest.mark.parametrize("api", APIS)
def test_a_stream_left_at_the_deadline_is_counted_as_spent(api: str, driver: str) -> None:
    model = stand_in(scripted(LONG_ANSWER), latency=LatencyModel(ttft=0.05, per_token=0.01, jitter=0))
    llm = connect(api, driver, model)
    ledger = Ledger(Budget(usd=1.0))
    result = drive(llm, driver, deadline=DEADLINE, budget=ledger)
    assert result.stopped_by == "deadline" and result.cost == 0
    assert ledger.spent.usd == pytest.approx(worst_case_usd(llm)) and ledger.reserved.usd == pytest.approx(0)


@pytest.mark.parametrize("driver", DRIVERS)
def test_a_request_refused_with_a_429_at_the_deadline_is_not_counted(driver: str) -> None:
    model = stand_in(scripted("4"))
    model.inject("rate_limit", times=10, retry_after=5)
    ledger = Ledger(Budget(usd=1.0))
    result = drive(connect("messages", driver, model), driver, deadline=DEADLINE, budget=ledger)
    assert result.stopped_by == "deadline"
    assert ledger.spent == cd.budget.Spend() and ledger.reserved.usd == pytest.approx(0)  # a 429 is not billed
