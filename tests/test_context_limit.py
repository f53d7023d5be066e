"""Long loops that fit: context_limit= clears the oldest tool results; context="server" asks for the API's compaction."""

from __future__ import annotations

import json

import anthropic
import pytest

import conductor as cd
from conductor.context import CLEARED_PREFIX, request_tokens
from conductor.offline import LatencyModel, OfflineModel
from wire import APIS, results_by_id, tool_calls

CITIES = ["Paris", "Rome", "Oslo", "Lima", "Cairo"]


@cd.tool
def get_report(city: str) -> str:
    """A long weather report for a city."""
    return f"{city}: 18 C. " + "Station readings, hour by hour, unchanged since the morning. " * 30


def _llm(api: str) -> tuple[cd.LLM, OfflineModel]:
    model = OfflineModel(latency=LatencyModel.instant())
    return cd.connect("offline", api=api, offline_model=model), model


QUESTION = "What is the weather in " + ", then in ".join(CITIES) + "?"


@pytest.mark.parametrize("api", APIS)
def test_old_results_are_cleared_before_a_request_would_pass_the_limit(api):
    llm, model = _llm(api)
    plain = llm.run(QUESTION, tools=[get_report], parallel_tool_calls=False, max_rounds=6)
    limit = 2000  # above what cannot be cleared: hidden prompts (Messages: 496), tools, question, the unread result
    fitted = llm.run(QUESTION, tools=[get_report], parallel_tool_calls=False, max_rounds=6, context_limit=limit)
    assert [c.name for c in fitted.tool_calls] == [c.name for c in plain.tool_calls]  # the same work was done
    assert max(c.usage.input_tokens for c in plain.trace.model_calls) > limit
    assert max(c.usage.input_tokens for c in fitted.trace.model_calls) <= limit
    last = model.requests[-1]
    assert last.status == 200
    results = results_by_id(last.body)
    calls = [c[0] for c in tool_calls(last.body)]
    assert sorted(results) == sorted(calls)  # every call still answered by its own id
    cleared = [cid for cid, text in results.items() if text.startswith(CLEARED_PREFIX)]
    assert cleared and calls[0] in cleared and calls[-1] not in cleared  # the oldest went first


@pytest.mark.parametrize("api", APIS)
def test_a_run_under_the_limit_is_left_as_it_is(api):
    llm, model = _llm(api)
    llm.run(QUESTION, tools=[get_report], parallel_tool_calls=False, max_rounds=6, context_limit=100_000)
    assert not any(CLEARED_PREFIX in str(r.body) for r in model.requests)


@pytest.mark.parametrize("api", APIS)
def test_a_limit_below_one_request_says_how_large_the_request_is(api):
    llm, model = _llm(api)
    with pytest.raises(ValueError, match=r"context_limit=50 is below the size of one request: the first request is "
                                         r"about \d+ input tokens"):
        llm.run(QUESTION, tools=[get_report], context_limit=50)
    assert not model.requests


def test_the_estimate_is_near_what_the_stand_in_bills():
    llm, _ = _llm("chat")
    result = llm.run(QUESTION, tools=[get_report], parallel_tool_calls=False, max_rounds=6)
    conversation = llm._conversation(QUESTION, [get_report], 2, None, None, None, None, None, {})
    estimate = request_tokens(conversation, conversation.next_request())
    billed = result.trace.model_calls[0].usage.input_tokens
    assert billed <= estimate <= billed * 1.6


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"context": "server", "context_limit": 5000}, "the responses and messages APIs have"),
    ({"context": "client"}, "pass context_limit=N too"),
    ({"context": "auto", "context_limit": 5000}, "choose None"),
    ({"context_limit": "big"}, "whole number of input tokens"),
])
def test_bad_context_settings_are_refused_with_the_fix(kwargs, match):
    llm, _ = _llm("chat")
    with pytest.raises(ValueError, match=match):
        llm.run(QUESTION, tools=[get_report], **kwargs)


@pytest.mark.parametrize("api", ["responses", "messages"])
def test_server_compaction_without_a_threshold_says_what_to_pass(api):
    llm, model = _llm(api)
    with pytest.raises(ValueError, match=r"context='server' .* pass context_limit=N too"):
        llm.run(QUESTION, tools=[get_report], context="server")
    assert not model.requests


def test_server_state_and_client_clearing_do_not_mix():
    llm, _ = _llm("responses")
    with pytest.raises(ValueError, match="context='server'"):
        llm.run(QUESTION, tools=[get_report], server_state=True, context_limit=5000)


def test_responses_server_compaction_sends_context_management():
    llm, model = _llm("responses")
    llm.run(QUESTION, tools=[get_report], context="server", context_limit=5000)
    assert model.requests[0].body["context_management"] == [{"type": "compaction", "compact_threshold": 5000}]


def test_messages_server_compaction_goes_through_the_beta_client_with_its_header():
    llm, model = _llm("messages")
    seen = []
    original = llm.client.beta.messages.create

    def spy(**kwargs):
        seen.append(kwargs)
        return original(**kwargs)

    llm.client.beta.messages.create = spy
    llm.run(QUESTION, tools=[get_report], context="server", context_limit=50_000)
    assert seen and all(k["betas"] == ["compact-2026-01-12"] for k in seen)
    assert model.requests[0].body["context_management"] == {
        "edits": [{"type": "compact_20260112", "trigger": {"type": "input_tokens", "value": 50_000}}]
    }


def test_a_messages_compaction_threshold_under_the_apis_minimum_is_refused_before_sending():
    llm, model = _llm("messages")
    with pytest.raises(ValueError, match=r"context_limit=1,200 is below the lowest compaction threshold the "
                                         r"messages API accepts \(50,000 input tokens"):
        llm.run(QUESTION, tools=[get_report], context="server", context_limit=1200)
    assert not model.requests


def test_the_stand_in_refuses_a_messages_trigger_under_the_minimum_as_the_api_does():
    llm, _ = _llm("messages")
    with pytest.raises(anthropic.BadRequestError, match="greater than or equal to 50000"):
        llm.client.beta.messages.create(
            model="claude-sonnet-4-6", max_tokens=100, messages=[{"role": "user", "content": "Hi"}],
            betas=["compact-2026-01-12"],
            context_management={"edits": [{"type": "compact_20260112",
                                           "trigger": {"type": "input_tokens", "value": 1200}}]},
        )


@cd.tool
def get_station_log(city: str) -> str:
    """A weather station's whole log for a city: long enough that a few of them pass Messages' 50,000-token
    minimum compaction threshold."""
    return f"{city}: 18 C. " + "Station readings, hour by hour, unchanged since the morning. " * 1000


@pytest.mark.parametrize(("api", "tool", "limit"), [("responses", get_report, 1200),
                                                     ("messages", get_station_log, 50_000)])
def test_the_stand_in_compacts_past_the_threshold_and_reads_on_from_the_summary(api, tool, limit):
    llm, model = _llm(api)
    plain = llm.run(QUESTION, tools=[tool], parallel_tool_calls=False, max_rounds=6)
    compacted = llm.run(QUESTION, tools=[tool], parallel_tool_calls=False, max_rounds=6, context="server",
                        context_limit=limit)
    assert [c.arguments for c in compacted.tool_calls] == [c.arguments for c in plain.tool_calls]
    assert all(r.status == 200 for r in model.requests)
    kinds = [b.get("type") for m in compacted.messages for b in (m.get("content") if isinstance(m.get("content"), list)
                                                                  else [m])]
    assert kinds.count("compaction") >= 1
    sizes = [c.usage.input_tokens for c in compacted.trace.model_calls]
    plain_sizes = [c.usage.input_tokens for c in plain.trace.model_calls]
    first = next(i for i, m in enumerate(compacted.trace.model_calls) if i and sizes[i] < sizes[i - 1])
    assert sizes[first] < plain_sizes[first]  # after compaction a request reads the summary, not the results
    assert sizes[first - 1] > plain_sizes[first - 1]  # the compacting request bills both passes
    # the compaction goes back as it came: the next request carries it unchanged
    later = model.requests[plain.api_calls + first].body
    carried = json.dumps(later)
    assert '"compaction"' in carried and "encrypted_content" in carried


@pytest.mark.parametrize("api", ["responses", "messages"])
def test_no_compaction_under_the_threshold(api):
    llm, model = _llm(api)
    result = llm.run(QUESTION, tools=[get_report], parallel_tool_calls=False, max_rounds=6, context="server",
                     context_limit=100_000)
    assert '"compaction"' not in json.dumps(result.messages)


@pytest.mark.parametrize("api", APIS)
def test_a_result_no_request_has_carried_is_never_cleared(api):
    # One turn asks for all five reports at once: together they pass the limit before the model has read any.
    llm, model = _llm(api)
    at_once = "What is the weather in " + ", ".join(CITIES[:-1]) + " and " + CITIES[-1] + "?"
    result = llm.run(at_once, tools=[get_report], max_rounds=6, context_limit=1500)
    assert len(result.rounds[0].tool_calls) == len(CITIES)
    second = results_by_id(model.requests[1].body)
    assert len(second) == len(CITIES) and not any(text.startswith(CLEARED_PREFIX) for text in second.values())


@pytest.mark.parametrize("api", ["responses", "messages"])
def test_a_programs_results_are_neither_cleared_nor_counted_as_input(api):
    # The program reads each forecast; what the API bills stays under the limit (results go to the program), where
    # the tool loop that reads them itself passes it (Messages bills the code execution tool's prompt, 1,750).
    from conductor.course.programmatic import QUESTION as TASK
    from conductor.course.programmatic import get_hourly_forecast

    llm, model = _llm(api)
    limit = 4000
    plain = llm.run(TASK, tools=[get_hourly_forecast], programmatic=True, max_rounds=6)
    loop = llm.run(TASK, tools=[get_hourly_forecast], max_rounds=6)
    assert max(c.usage.input_tokens for c in loop.trace.model_calls) > limit
    fitted = llm.run(TASK, tools=[get_hourly_forecast], programmatic=True, max_rounds=6, context_limit=limit)
    assert max(c.usage.input_tokens for c in fitted.trace.model_calls) < limit
    assert not any(CLEARED_PREFIX in json.dumps(r.body) for r in model.requests)
    assert fitted.answer == plain.answer
