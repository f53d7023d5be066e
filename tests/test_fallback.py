"""cd.fallback: which errors fall over, mid-run switches across APIs, one layer of retries."""

from __future__ import annotations

import asyncio
import inspect
import json
from typing import Any

import httpx2
import openai
import pytest

import conductor as cd
from conductor import failover
from conductor.offline import LatencyModel, OfflineModel
from conductor.providers import ProviderError
from wire import APIS, entries, results_by_id, tool_calls

QUESTION = "What should I wear in Beijing today?"
TRANSIENT = ["rate_limit", "overloaded", "server_error", "unavailable", "timeout", "connection"]


def offline(api: str = "responses", model: str | None = None, *, asynchronous: bool = False) -> cd.LLM:
    """An offline model that answers at once (no simulated latency)."""
    return cd.connect(
        "offline",
        api=api,  # type: ignore[arg-type]
        model=model,
        asynchronous=asynchronous,
        offline_model=OfflineModel(latency=LatencyModel.instant()),
    )


def weather_tools(outage: cd.LLM | None = None, kind: str = "overloaded") -> list[Any]:
    """Two chained tools; the first one takes ``outage``'s model down (one ``kind`` fault) while it runs."""

    @cd.tool
    def get_weather(city: str) -> dict:
        """Get today's weather for a city."""
        if outage is not None:
            assert outage.offline is not None
            outage.offline.inject(kind, retry_after=0.001)
        return {"city": city, "temperature": 5, "weather": "sunny"}

    @cd.tool
    def suggest_clothing(temperature: float) -> dict:
        """Suggest clothing for a temperature in Celsius."""
        return {"temperature": temperature, "suggestion": "a down jacket" if temperature < 10 else "a t-shirt"}

    return [get_weather, suggest_clothing]


def sent_call_ids(request_body: dict[str, Any]) -> tuple[list[str], list[str]]:
    """(tool call ids asked for, tool call ids answered) in one request body of any API; fails on a call
    answered twice."""
    return [call_id for call_id, _, _ in tool_calls(request_body)], list(results_by_id(request_body))


# -- classify ----------------------------------------------------------------------------


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("kind", TRANSIENT + ["quota"])
def test_classify_offline_faults_as_the_sdks_raise_them(api: str, kind: str) -> None:
    model = OfflineModel(latency=LatencyModel.instant())
    llm = cd.connect("offline", api=api, max_retries=0, offline_model=model)  # type: ignore[arg-type]
    model.inject(kind, retry_after=0.001)
    with pytest.raises(Exception) as caught:
        llm.run("What is 2 + 2?")
    verdict = failover.classify(caught.value)
    expected_kind = {"unavailable": "server_error"}.get(kind, kind)
    assert (verdict.action, verdict.kind) == ("fatal" if kind == "quota" else "fallback", expected_kind)
    if kind == "quota":
        assert "spend limit" in verdict.fix and verdict.message


def status_error(status: int, body: dict[str, Any]) -> openai.APIStatusError:
    request = httpx2.Request("POST", "https://api.openai.com/v1/chat/completions")
    return openai.APIStatusError("error", response=httpx2.Response(status, request=request), body=body)


@pytest.mark.parametrize(
    ("status", "action", "kind"),
    [
        (400, "fatal", "bad_request"),
        (401, "fatal", "authentication"),
        (403, "fatal", "permission"),
        (404, "fatal", "not_found"),
        (409, "fatal", "client_error"),
        (413, "fatal", "too_large"),
        (422, "fatal", "client_error"),
        (408, "fallback", "timeout"),
        (502, "fallback", "server_error"),
        (529, "fallback", "overloaded"),
    ],
)
def test_classify_by_status(status: int, action: str, kind: str) -> None:
    verdict = failover.classify(status_error(status, {"message": "the provider's words", "type": "x", "code": None}))
    assert (verdict.action, verdict.kind, verdict.status) == (action, kind, status)
    assert verdict.message == "the provider's words"
    assert bool(verdict.fix) == (action == "fatal")


def test_a_404_for_a_replayed_item_does_not_blame_the_model_name() -> None:
    message = ("Item with id 'rs_1' not found. Items are not persisted when `store` is set to false. "
               "Try again with `store` set to true, or remove this item from your input.")
    verdict = failover.classify(status_error(404, {"message": message, "type": "invalid_request_error"}))
    assert verdict.action == "fatal" and "reasoning=True" in verdict.fix and "model name" not in verdict.fix
    unknown = failover.classify(status_error(404, {"message": "The model `gpt-9` does not exist", "type": "x"}))
    assert "check the model name" in unknown.fix


def test_classify_anthropic_spend_limit_code_and_not_api_errors() -> None:
    body = {"type": "error", "error": {"type": "rate_limit_error", "message": "enforced_spend_limit_reached"}}
    assert failover.classify(status_error(429, body)).kind == "quota"
    assert failover.classify(ValueError("boom")) == failover.Verdict(
        "fatal", "not_api", "ValueError is not a model API error", message="boom"
    )
    assert failover.classify(TimeoutError()).action == "fallback"


# -- falling over ------------------------------------------------------------------------


@pytest.mark.parametrize("kind", TRANSIENT)
def test_transient_error_goes_to_the_backup_after_one_request(kind: str) -> None:
    primary, backup = offline("responses", "gpt-4.1-mini"), offline("messages", "claude-haiku-4-5")
    assert primary.offline is not None and backup.offline is not None
    primary.offline.inject(kind, times=3, retry_after=0.001)
    llm = cd.fallback(primary, backup)
    result = llm.run("What is 2 + 2?")
    assert [c.model for c in result.trace.model_calls] == ["claude-haiku-4-5"]
    # One layer owns retries: the primary's SDK did not retry under the fallback.
    assert len(primary.offline.requests) == 1
    assert [(f.model, f.action, f.request) for f in llm.failures] == [("gpt-4.1-mini", "fallback", 1)]
    assert primary.client.max_retries == 2  # the caller's own LLM is untouched


def test_sdk_retries_none_keeps_the_clients_own_retries() -> None:
    primary, backup = offline(), offline("messages")
    assert primary.offline is not None
    primary.offline.inject("rate_limit", times=2, retry_after=0.001)
    result = cd.fallback(primary, backup, sdk_retries=None).run("What is 2 + 2?")
    assert [c.model for c in result.trace.model_calls] == ["conductor-offline"]
    assert result.trace.model_calls[0].provider == "offline"
    assert [r.status for r in primary.offline.requests] == [429, 429, 200]


@pytest.mark.parametrize(("kind", "error"), [("quota", cd.QuotaExceededError)])
def test_quota_raises_at_once_with_the_providers_message(kind: str, error: type[Exception]) -> None:
    for api, words in (("responses", "exceeded your current quota"), ("chat", "exceeded your current quota"),
                       ("messages", "monthly spend limit")):
        primary, backup = offline(api), offline("chat", "backup")
        assert primary.offline is not None and backup.offline is not None
        primary.offline.inject(kind)
        with pytest.raises(error) as caught:
            cd.fallback(primary, backup).run("What is 2 + 2?")
        assert words in str(caught.value) and "spend limit" in str(caught.value)
        assert backup.offline.requests == [] and len(primary.offline.requests) == 1


def test_bad_request_raises_at_once_and_names_the_fix() -> None:
    primary, backup = offline("chat"), offline("messages")
    assert backup.offline is not None
    llm = cd.fallback(primary, backup)
    with pytest.raises(cd.FatalModelError) as caught:
        # tool_choice without tools: the API's 400 (run would refuse it; extra_body slips it past)
        llm.run("What is 2 + 2?", extra_body={"tool_choice": "auto"})
    assert caught.value.status == 400 and "fix the request" in str(caught.value)
    assert "'tool_choice' is only allowed when 'tools' are specified" in str(caught.value)
    assert not isinstance(caught.value, cd.QuotaExceededError)
    assert backup.offline.requests == []


def test_every_model_failing_lists_each_models_error() -> None:
    first, second = offline("chat", "first"), offline("messages", "second")
    assert first.offline is not None and second.offline is not None
    first.offline.inject("server_error")
    second.offline.inject("overloaded")
    with pytest.raises(cd.AllModelsFailedError) as caught:
        cd.fallback(first, second).run("What is 2 + 2?")
    assert [(f.model, f.kind, f.status) for f in caught.value.failures] == [
        ("first", "server_error", 500),
        ("second", "overloaded", 529),
    ]
    assert "first: server_error 500" in str(caught.value) and "second: overloaded 529: Overloaded" in str(caught.value)


# -- mid-run, across APIs ----------------------------------------------------------------


@pytest.mark.parametrize(("first_api", "second_api"), [(a, b) for a in APIS for b in APIS if a != b])
def test_mid_run_fallback_across_apis_answers_every_call_id(first_api: str, second_api: str) -> None:
    primary, backup = offline(first_api, "primary-model"), offline(second_api, "backup-model")
    assert primary.offline is not None and backup.offline is not None
    llm = cd.fallback(primary, backup)
    result = llm.run(QUESTION, tools=weather_tools(outage=primary), max_rounds=2)

    # Round 1 on the primary; the outage starts while its tool runs; round 2 on the backup.
    assert [c.model for c in result.trace.model_calls] == ["primary-model", "backup-model", "primary-model"]
    assert [r.tool_calls[0].name for r in result.rounds] == ["get_weather", "suggest_clothing"]
    assert "down jacket" in result.answer
    # The backup got the whole conversation in its own API, every call answered.
    backup_request = backup.offline.requests[-1]
    assert backup_request.api == second_api and backup_request.status == 200
    asked, answered = sent_call_ids(backup_request.body)
    assert asked and asked == answered
    final_asked, final_answered = sent_call_ids(primary.offline.requests[-1].body)
    assert len(final_asked) == 2 and final_asked == final_answered == [c.id for c in result.tool_calls]


@pytest.mark.parametrize(("first_api", "second_api"), [("responses", "chat"), ("responses", "messages"),
                                                     ("messages", "responses"), ("messages", "chat")])
def test_reasoning_stays_with_the_model_that_made_it_across_a_fallback(first_api: str, second_api: str) -> None:
    """A reasoning primary's reasoning items (thinking blocks) go back to it, never to the backup."""
    primary = cd.connect("offline", api=first_api,
                         offline_model=OfflineModel(latency=LatencyModel.instant(), reasoning=True))
    backup = offline(second_api, "backup-model")
    assert primary.offline is not None and backup.offline is not None
    result = cd.fallback(primary, backup).run(QUESTION, tools=weather_tools(outage=primary), max_rounds=2)
    assert [c.model for c in result.trace.model_calls] == [primary.model, "backup-model", primary.model]
    assert "down jacket" in result.answer
    # The real API rejects a replayed call without its reasoning: every answered request was accepted.
    assert [r.status for r in primary.offline.requests] == [200, 529, 200]
    marker = "reasoning" if first_api == "responses" else "thinking"
    kinds = lambda body: [b.get("type") for e in entries(body)
                          for b in ([e] + (e["content"] if isinstance(e.get("content"), list) else []))]
    assert marker in kinds(primary.offline.requests[-1].body)
    backup_body = backup.offline.requests[-1].body
    assert marker not in kinds(backup_body) and "encrypted_content" not in json.dumps(backup_body)
    asked, answered = sent_call_ids(backup_body)
    assert asked == answered == [result.tool_calls[0].id]


def test_each_request_is_priced_at_its_own_models_prices() -> None:
    primary, backup = offline("chat", "gpt-4.1-mini"), offline("messages", "claude-haiku-4-5")
    result = cd.fallback(primary, backup).run(QUESTION, tools=weather_tools(outage=primary), max_rounds=2)
    calls = result.trace.model_calls
    assert [c.cost for c in calls] == [
        pytest.approx(member.cost(c.usage)) for member, c in zip((primary, backup, primary), calls)
    ]
    assert backup.prices.input_per_mtok != primary.prices.input_per_mtok
    assert result.trace.model_name == "gpt-4.1-mini + claude-haiku-4-5"
    table = result.table().splitlines()
    assert table[0].endswith("answered by")
    assert table[2].endswith("gpt-4.1-mini") and table[3].endswith("claude-haiku-4-5")


def test_single_model_run_table_has_no_model_column() -> None:
    result = cd.fallback(offline(), offline("messages")).run(QUESTION, tools=weather_tools(), max_rounds=2)
    assert "answered by" not in result.table()
    assert result.trace.model_name == "conductor-offline"


def test_async_mid_run_fallback() -> None:
    primary = offline("messages", "primary-model", asynchronous=True)
    backup = offline("chat", "backup-model", asynchronous=True)
    llm = cd.fallback(primary, backup)
    assert llm.is_async

    async def go() -> cd.RunResult:
        return await llm.arun(QUESTION, tools=weather_tools(outage=primary, kind="timeout"), max_rounds=2)

    result = asyncio.run(go())
    assert [c.model for c in result.trace.model_calls] == ["primary-model", "backup-model", "primary-model"]
    assert [f.kind for f in llm.failures] == ["timeout"]
    with pytest.raises(ProviderError, match="arun"):
        llm.run(QUESTION)


def test_sync_members_work_with_arun_too() -> None:
    primary, backup = offline(), offline("messages", "backup-model")
    assert primary.offline is not None
    primary.offline.inject("connection")
    result = asyncio.run(cd.fallback(primary, backup).arun("What is 2 + 2?"))
    assert [c.model for c in result.trace.model_calls] == ["backup-model"]


# -- learner mistakes ----------------------------------------------------------------------


def test_construction_errors_say_what_to_do() -> None:
    with pytest.raises(ValueError, match="at least one model"):
        cd.fallback()
    with pytest.raises(ProviderError, match="asynchronous=True"):
        cd.fallback(offline(), offline(asynchronous=True))
    with pytest.raises(ValueError, match="list the models themselves"):
        cd.fallback(cd.fallback(offline()), offline())
    with pytest.raises(TypeError, match="cd.connect"):
        cd.fallback("gpt-4.1-mini")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="sdk_retries"):
        cd.fallback(offline(), sdk_retries=-1)
    with pytest.raises(ValueError, match="distinct name"):
        cd.fallback(offline(), offline(), names=["a", "a"])


@pytest.mark.parametrize(("first_api", "second_api", "option"), [
    ("chat", "messages", {"seed": 1}),
    ("messages", "chat", {"stop_sequences": ["END"]}),
    ("chat", "responses", {"store": False}),  # both OpenAI APIs have store=, Anthropic's not: still one API's option
    ("responses", "messages", {"truncation": "auto"}),
])
def test_options_of_one_api_are_refused_across_apis(first_api: str, second_api: str, option: dict[str, Any]) -> None:
    llm = cd.fallback(offline(first_api), offline(second_api))
    with pytest.raises(ValueError, match=next(iter(option))):
        llm.run("What is 2 + 2?", **option)
    assert llm.run("What is 2 + 2?", timeout=30.0).answer
    same = cd.fallback(offline(first_api), offline(first_api))
    assert same.run("What is 2 + 2?", **option).answer  # one API: any option it has


def test_server_state_cannot_fall_over_and_says_so() -> None:
    llm = cd.fallback(offline("responses"), offline("responses", "backup-model"))
    with pytest.raises(ValueError, match="cannot fall over"):
        llm.run("What is 2 + 2?", server_state=True)


def test_duplicate_models_get_distinct_names() -> None:
    llm = cd.fallback(offline(), offline(), offline("messages"))
    assert llm.names == [
        "offline:responses:conductor-offline",
        "offline:responses:conductor-offline#2",
        "offline:messages:conductor-offline",
    ]


# -- the breaker inside a fallback --------------------------------------------------------


def test_breaker_skips_a_failing_primary_then_probes_it() -> None:
    now = [0.0]
    breaker = cd.CircuitBreaker(failures=2, cooldown=30.0, clock=lambda: now[0])
    primary, backup = offline("chat", "primary-model"), offline("messages", "backup-model")
    assert primary.offline is not None
    primary.offline.inject("overloaded", times=2)
    llm = cd.fallback(primary, backup, breaker=breaker)
    for _ in range(3):
        assert llm.run("What is 2 + 2?").trace.model_calls[0].model == "backup-model"
    assert len(primary.offline.requests) == 2  # the third run skipped it
    assert breaker.states() == {"primary-model": "open", "backup-model": "closed"}
    assert llm.failures[-1].action == "skipped" and llm.failures[-1].kind == "circuit_open"
    now[0] = 30.0
    assert breaker.state("primary-model") == "half_open"
    assert llm.run("What is 2 + 2?").trace.model_calls[0].model == "primary-model"
    assert breaker.state("primary-model") == "closed"


def test_all_circuits_open_says_when_to_retry() -> None:
    breaker = cd.CircuitBreaker(failures=1, cooldown=30.0, clock=lambda: 0.0)
    only = offline()
    assert only.offline is not None
    only.offline.inject("server_error")
    llm = cd.fallback(only, breaker=breaker)
    with pytest.raises(cd.AllModelsFailedError):
        llm.run("What is 2 + 2?")
    with pytest.raises(cd.AllModelsFailedError, match="circuit open, retry in 30.0 s"):
        llm.run("What is 2 + 2?")
    assert len(only.offline.requests) == 1


# -- the stacked-retries trap ----------------------------------------------------------------


def test_stacked_retries_multiply_and_one_layer_does_not() -> None:
    measured = failover.stacked_retries(sdk_retries=1, attempts=2, models=2, retry_after=0.001, wait=0.001)
    assert measured.before.requests == measured.before.expected_requests == 2 * 2 * 2
    assert measured.after.requests == 2
    assert measured.before.error == measured.after.error == "AllModelsFailedError"
    assert "before" in measured.table() and "after" in measured.table()


# -- streaming -------------------------------------------------------------------------------

needs_stream = pytest.mark.skipif(not hasattr(cd.LLM, "stream"), reason="llm.stream is not built yet")


@needs_stream
def test_stream_falls_over_before_any_text_and_never_after() -> None:
    primary, backup = offline("chat", "primary-model"), offline("messages", "backup-model")
    assert primary.offline is not None and backup.offline is not None
    llm = cd.fallback(primary, backup)
    events = list(llm.stream(QUESTION, tools=weather_tools(outage=primary, kind="rate_limit"), max_rounds=2))
    result = events[-1].result
    assert [c.model for c in result.trace.model_calls] == ["primary-model", "backup-model", "primary-model"]
    assert result.answer == "".join(e.text for e in events if e.type == "text" and e.request == 3)

    primary.offline.inject("stream_error")  # breaks off after part of the answer was shown
    with pytest.raises(Exception, match="broke off mid-stream") as caught:
        list(llm.stream("What is 2 + 2?"))
    assert caught.value.partial_text  # type: ignore[attr-defined]
    assert llm.failures[-1].kind == "stream_broke" and len(backup.offline.requests) == 1


@pytest.mark.parametrize("api", ["responses", "chat"])  # (on Messages the stand-in's first turn opens with text)
def test_a_stream_that_fails_before_any_text_falls_over(api: str) -> None:
    primary, backup = offline(api, "primary-model"), offline("messages", "backup")
    assert primary.offline is not None
    primary.offline.inject("stream_error")  # the first turn is calls only: it breaks before any text
    events = list(cd.fallback(primary, backup).stream(QUESTION, tools=weather_tools(), max_rounds=2))
    result = events[-1].result
    assert [c.model for c in result.trace.model_calls][:2] == ["backup", "primary-model"]
    assert result.answer and not any(c.is_error for c in result.tool_calls)


def test_a_failed_responses_stream_is_classified_by_its_code() -> None:
    from conductor.apis.base import StreamFailed

    assert failover.classify(StreamFailed("the response failed: boom", "server_error")).action == "fallback"
    assert failover.classify(StreamFailed("the response failed: no", "invalid_prompt")).action == "fatal"
    quota = failover.classify(StreamFailed("You exceeded your current quota", "insufficient_quota"))
    assert (quota.action, quota.kind) == ("fatal", "quota")


@needs_stream
def test_astream_falls_over() -> None:
    primary = offline("chat", "primary-model", asynchronous=True)
    backup = offline("messages", "backup-model", asynchronous=True)
    assert primary.offline is not None
    primary.offline.inject("overloaded")

    async def go() -> list[Any]:
        return [event async for event in cd.fallback(primary, backup).astream("What is 2 + 2?")]

    events = asyncio.run(go())
    assert [c.model for c in events[-1].result.trace.model_calls] == ["backup-model"]


# -- budgets and deadlines see the fallback ----------------------------------------------------


def test_worst_price_is_the_dearest_members() -> None:
    primary, backup = offline("chat", "gpt-4.1-mini"), offline("messages", "claude-haiku-4-5")
    llm = cd.fallback(primary, backup)
    usage = cd.Usage(input_tokens=1000, output_tokens=500)
    assert llm.worst_price(usage).total == max(primary.cost(usage), backup.cost(usage)) > 0


def test_a_rebuilt_request_keeps_the_drivers_timeout() -> None:
    sent = {"model": "a", "messages": [], "timeout": 4.5, "extra_headers": {"x": "1"}}
    rebuilt = failover._carry_transport_options(sent, {"model": "b", "messages": [{"role": "user"}]})
    assert rebuilt == {"model": "b", "messages": [{"role": "user"}], "timeout": 4.5, "extra_headers": {"x": "1"}}


def test_a_breaker_spares_the_dead_primary() -> None:
    savings = failover.breaker_savings(runs=4, failures=1)
    assert (savings.without.primary_requests, savings.with_breaker.primary_requests) == (4, 1)
    assert savings.without.backup_requests == savings.with_breaker.backup_requests == 4
    assert "failures=1, cooldown=30" in savings.table()


def test_a_driver_set_timeout_shrinks_by_the_time_spent_on_earlier_models() -> None:
    llm = cd.fallback(offline("chat", "primary-model"), offline("messages", "backup-model"))
    conversation = llm._conversation("What is 2 + 2?", [], 2, None, None, None, None, None, {})
    sent: list[dict[str, Any]] = []

    def times_out(conversation: Any, request: dict[str, Any]) -> Any:
        raise openai.APITimeoutError(request=httpx2.Request("POST", "https://api.openai.com/v1/chat/completions"))

    def answers(conversation: Any, request: dict[str, Any]) -> str:
        sent.append(request)
        return "response"

    llm.members[0]._create, llm.members[1]._create = times_out, answers  # type: ignore[method-assign]
    request = {**conversation.next_request(), "timeout": 60.0}  # what a run's deadline adds
    assert llm._create(conversation, request) == "response"
    assert sent[0]["model"] == "backup-model" and 0 < sent[0]["timeout"] < 60.0
    with pytest.raises(cd.AllModelsFailedError, match="deadline has passed"):
        llm._create(conversation, {**conversation.next_request(), "timeout": 0.0})


needs_limits = pytest.mark.skipif(
    "deadline" not in inspect.signature(cd.LLM.run).parameters, reason="run(deadline=) is not built yet"
)


@needs_limits
def test_a_run_deadline_is_kept_across_models() -> None:
    primary, backup = offline("chat", "primary-model"), offline("messages", "backup-model")
    assert primary.offline is not None and backup.offline is not None
    primary.offline.inject("server_error")
    result = cd.fallback(primary, backup).run("What is 2 + 2?", deadline=30.0)
    assert [c.model for c in result.trace.model_calls] == ["backup-model"] and result.stopped_by is None


@pytest.mark.parametrize("asynchronous", [False, True])
def test_a_run_stopped_while_switching_models_sends_nothing_more(asynchronous, monkeypatch):
    """The budget or deadline can stop a run as the request is re-rendered for the next model."""
    from conductor.rounds import Conversation

    primary = cd.connect("offline", api="responses", latency_scale=0, asynchronous=asynchronous)
    backup = cd.connect("offline", api="messages", latency_scale=0, asynchronous=asynchronous)
    llm = cd.fallback(primary, backup)
    primary.offline.inject("server_error")
    switch = Conversation.switch

    def switch_and_run_out_of_time(self, **kwargs):
        switch(self, **kwargs)
        self.stop("deadline", "out of time")

    monkeypatch.setattr(Conversation, "switch", switch_and_run_out_of_time)
    question, tools = "北京今天天气怎么样?", cd.scenarios.weather_tools()
    result = asyncio.run(llm.arun(question, tools=tools)) if asynchronous else llm.run(question, tools=tools)
    assert result.stopped_by == "deadline"
    assert result.answer == "out of time"
    assert backup.offline.requests == []  # not the old request, rendered for the other API
