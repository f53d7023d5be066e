"""The Responses API on the client side: connect's choice of API, the requests llm.run sends, and what it reads back."""

from __future__ import annotations

import json
import logging

import pytest

import conductor as cd
from conductor.apis import responses as responses_api
from conductor.providers import ProviderError
from scripted import RawServer, offline, responses_response, scripted
from wire import APIS, results_by_id, tool_calls, tools_forbidden


@cd.tool
def get_weather(city: str) -> dict:
    """Get today's weather for a city."""
    return {"city": city, "temperature": {"北京": 5, "上海": 18}.get(city, 20)}


def two_rounds():
    return scripted([("get_weather", {"city": "北京"})], [("get_weather", {"city": "上海"})], "北京 5°C, 上海 18°C.")


# -- which API a connection speaks ------------------------------------------------------------


def test_openai_speaks_the_responses_api_by_default(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    llm = cd.connect("openai")
    assert (llm.api, llm.model) == ("responses", "gpt-5.4-mini")
    chat = cd.connect("openai", api="chat")
    assert (chat.api, chat.model) == ("chat", "gpt-4.1-mini")


def test_a_compatible_server_gets_chat_completions_unless_api_says_otherwise():
    assert cd.connect("openai", base_url="http://localhost:11434/v1", model="llama3.2").api == "chat"
    assert cd.connect("openai", base_url="http://localhost:8000/v1", model="m", api="responses").api == "responses"


def test_a_client_you_built_follows_its_base_url():
    import anthropic
    import openai

    assert cd.connect(openai.OpenAI(api_key="k"), model="m").api == "responses"
    assert cd.connect(openai.OpenAI(api_key="k", base_url="http://localhost:1234/v1"), model="m").api == "chat"
    assert cd.connect(openai.OpenAI(api_key="k"), model="m", api="chat").api == "chat"
    assert cd.connect(anthropic.Anthropic(api_key="k"), model="m").api == "messages"


def test_offline_speaks_every_api_and_accepts_the_old_names():
    assert cd.connect("offline").api == "responses"
    assert [cd.connect("offline", api=a).api for a in ("chat", "messages", "openai", "anthropic")] == [
        "chat", "messages", "chat", "messages"]


def test_an_api_a_provider_does_not_speak_is_refused(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
    with pytest.raises(ProviderError, match="anthropic does not speak api='responses'; choose one of: messages"):
        cd.connect("anthropic", api="responses")
    with pytest.raises(ProviderError, match="unknown api 'soap'"):
        cd.connect("offline", api="soap")


# -- the requests ------------------------------------------------------------------------------


def test_requests_are_stateless_with_flat_tools_and_a_forced_final_answer():
    llm, model = offline("responses", two_rounds())
    result = llm.run("Weather?", tools=[get_weather], max_rounds=2, system="Be brief.", max_tokens=500)
    assert result.answer == "北京 5°C, 上海 18°C." and result.api_calls == 3
    bodies = [r.body for r in model.requests]
    assert all(r.status == 200 and r.path == "/v1/responses" for r in model.requests)
    first, last = bodies[0], bodies[-1]
    assert first["store"] is False and "previous_response_id" not in first
    assert first["instructions"] == "Be brief." and first["max_output_tokens"] == 500
    assert first["tools"] == [{"type": "function", "name": "get_weather", "description": "Get today's weather for a city.",
                               "parameters": get_weather.strict_parameters, "strict": True}]
    assert "tool_choice" not in first and tools_forbidden(last)  # auto is the API's default beside tools
    # The whole conversation each time: every call of the run, each answered once.
    assert [c[0] for c in tool_calls(last)] == list(results_by_id(last)) == [c.id for c in result.tool_calls]
    # Output items go back as received, ids included.
    assert [i["id"][:3] for i in last["input"] if i.get("type") == "function_call"] == ["fc_", "fc_"]


def test_a_tool_error_goes_back_as_output_text_starting_with_error():
    @cd.tool
    def broken(city: str) -> dict:
        """Always fails."""
        raise ValueError("the weather service is down")

    llm, model = offline("responses", scripted([("broken", {"city": "北京"})], "Sorry."))
    llm.run("Weather?", tools=[broken])
    outputs = [i["output"] for i in model.requests[-1].body["input"] if i.get("type") == "function_call_output"]
    assert len(outputs) == 1 and outputs[0].startswith("Error: ") and "the weather service is down" in outputs[0]


def test_server_state_chains_requests_and_sends_only_the_new_items():
    stateless, stateless_model = offline("responses", two_rounds())
    chained, chained_model = offline("responses", two_rounds())
    plain = stateless.run("Weather?", tools=[get_weather], max_rounds=2)
    result = chained.run("Weather?", tools=[get_weather], max_rounds=2, server_state=True)
    assert result.answer == plain.answer and result.api_calls == 3
    bodies = [r.body for r in chained_model.requests]
    assert all(b["store"] is True for b in bodies) and "previous_response_id" not in bodies[0]
    assert [b.get("previous_response_id") for b in bodies[1:]] == [m.raw.id for m in _turns(result)[:2]]
    assert [[i["type"] for i in b["input"]] for b in bodies[1:]] == [["function_call_output"]] * 2
    sent = [len(json.dumps(r.body)) for r in chained_model.requests]
    full = [len(json.dumps(r.body)) for r in stateless_model.requests]
    assert sent[-1] < full[-1]
    # The server holds the context: the input tokens billed are the same either way.
    assert [c.usage.input_tokens for c in result.trace.model_calls] == [
        c.usage.input_tokens for c in plain.trace.model_calls]


def _turns(result):
    return [m for m in result.conversation if isinstance(m, cd.types.Turn)]


def test_server_state_is_refused_where_it_cannot_work():
    llm, _ = offline("chat", two_rounds())
    with pytest.raises(ValueError, match="only the Responses API has"):
        llm.run("Weather?", tools=[get_weather], server_state=True)
    primary, _ = offline("responses", two_rounds())
    backup, _ = offline("messages", two_rounds())
    with pytest.raises(ValueError, match="cannot fall over"):
        cd.fallback(primary, backup).run("Weather?", tools=[get_weather], server_state=True)


@pytest.mark.parametrize(("option", "value", "owner"), [
    ("reasoning_effort", "low", "chat"), ("reasoning", {"effort": "low"}, "responses"),
    ("thinking", {"type": "enabled", "budget_tokens": 1024}, "messages"), ("include", [], "responses"),
])
def test_an_option_of_another_api_names_the_api_that_has_it(option, value, owner):
    for api in APIS:
        if api == owner:
            continue
        llm, _ = offline(api, two_rounds())
        with pytest.raises(ValueError, match=f"{option}= is an option of the {owner} API"):
            llm.run("Weather?", tools=[get_weather], **{option: value})


# -- what comes back -----------------------------------------------------------------------------


def test_usage_is_read_with_cached_and_reasoning_tokens_and_priced():
    usage = {"prompt_tokens": 1000, "completion_tokens": 300, "total_tokens": 1300,
             "prompt_tokens_details": {"cached_tokens": 400}, "completion_tokens_details": {"reasoning_tokens": 200}}
    server = RawServer("responses", [responses_response("Fine.", usage=usage)])
    llm = cd.connect(server.client(), model="gpt-5.4-mini", api="responses")
    result = llm.run("Hi")
    call = result.trace.model_calls[0]
    assert (call.usage.input_tokens, call.usage.cache_read_tokens) == (1000, 400)
    assert (call.usage.output_tokens, call.usage.reasoning_tokens) == (300, 200)
    assert call.cost_split.cached > 0 and call.cost == pytest.approx(llm.cost(call.usage))


@pytest.mark.parametrize(("reason", "flag"), [("max_output_tokens", "truncated"), ("content_filter", "refused")])
def test_an_incomplete_response_is_truncated_or_refused(reason, flag):
    body = responses_response("Half an ans")
    body.update(status="incomplete", incomplete_details={"reason": reason})
    llm = cd.connect(RawServer("responses", [body]).client(), model="gpt-5.4-mini", api="responses")
    result = llm.run("Hi")
    assert getattr(result, flag) and result.native_stop_reason == reason


def test_a_refusal_part_is_a_refusal():
    body = responses_response()
    body["output"] = [{"id": "msg_1", "type": "message", "role": "assistant", "status": "completed",
                       "content": [{"type": "refusal", "refusal": "I can't help with that."}]}]
    result = cd.connect(RawServer("responses", [body]).client(), model="gpt-5.4-mini", api="responses").run("Hi")
    assert result.refused and result.answer == "I can't help with that."


def test_a_model_that_refuses_encrypted_reasoning_is_asked_again_without_it(monkeypatch, caplog):
    monkeypatch.setattr(responses_api, "REASONING_MODELS", [*responses_api.REASONING_MODELS, "gpt-4.1"])
    monkeypatch.setattr(responses_api, "NOT_REASONING", set())
    import httpx2

    bodies = []

    def handle(request):
        body = json.loads(request.content)
        bodies.append(body)
        if "reasoning.encrypted_content" in body.get("include", []):
            error = {"message": "Encrypted content is not supported with this model.", "type": "invalid_request_error",
                     "param": "include", "code": None}
            return httpx2.Response(400, json={"error": error})
        return httpx2.Response(200, json=responses_response("Fine."))

    import openai

    client = openai.OpenAI(api_key="k", base_url="http://raw.invalid/v1", max_retries=0,
                           http_client=httpx2.Client(transport=httpx2.MockTransport(handle)))
    llm = cd.connect(client, model="gpt-4.1", api="responses")
    with caplog.at_level(logging.INFO):
        assert llm.run("Hi").answer == "Fine."
        assert llm.run("Hi again").answer == "Fine."
    assert ["include" in b for b in bodies] == [True, False, False]  # remembered: asked once
    assert "gpt-4.1" in responses_api.NOT_REASONING


# -- history ----------------------------------------------------------------------------------


def test_result_messages_are_input_items_and_continue_a_conversation():
    llm, model = offline("responses", two_rounds())
    first = llm.run("Weather?", tools=[get_weather], max_rounds=2)
    assert {i.get("type", "message") for i in first.messages} >= {"function_call", "function_call_output"}
    second = llm.run("And again?", tools=[get_weather], max_rounds=2, history=first.messages)
    assert second.answer == "北京 5°C, 上海 18°C."
    last = model.requests[-1].body
    assert len(tool_calls(last)) == 4 and [c[0] for c in tool_calls(last)] == list(results_by_id(last))


@pytest.mark.parametrize("first", APIS)
@pytest.mark.parametrize("second", APIS)
def test_history_from_any_api_continues_on_any_api(first, second):
    earlier_llm, _ = offline(first, two_rounds())
    earlier = earlier_llm.run("Weather?", tools=[get_weather], max_rounds=2, system="Be brief.")
    llm, model = offline(second, scripted("Still 5°C."))
    result = llm.run("Still?", tools=[get_weather], history=earlier.messages, system="Be brief.")
    assert result.answer == "Still 5°C." and model.requests[0].status == 200
    body = model.requests[0].body
    assert [c[0] for c in tool_calls(body)] == list(results_by_id(body)) == [c.id for c in earlier.tool_calls]


def test_responses_items_as_a_learner_writes_them_are_read():
    history = [
        {"role": "user", "content": [{"type": "input_text", "text": "Weather in 北京?"}]},
        {"type": "function_call", "call_id": "call_1", "name": "get_weather", "arguments": '{"city": "北京"}'},
        {"type": "function_call", "call_id": "call_2", "name": "get_weather", "arguments": '{"city": "上海"}'},
        {"type": "function_call_output", "call_id": "call_1", "output": '{"temperature": 5}'},
        {"type": "function_call_output", "call_id": "call_2", "output": "Error: unknown city"},
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "5°C.", "annotations": []}]},
    ]
    for api in APIS:
        llm, model = offline(api, scripted("Still 5°C."))
        llm.run("Still?", tools=[get_weather], history=history)
        body = model.requests[0].body
        assert [c[0] for c in tool_calls(body)] == ["call_1", "call_2"]
        assert [r[2] for r in __import__("wire").tool_results(body)] == [False, True]


def test_an_output_without_its_call_in_history_names_the_entry():
    history = [{"role": "user", "content": "Hi"}, {"type": "function_call_output", "call_id": "call_9", "output": "x"}]
    llm, _ = offline("responses", two_rounds())
    with pytest.raises(ValueError, match=r"history\[1\] answers tool call 'call_9'"):
        llm.run("Again?", history=history)


# -- reasoning models -----------------------------------------------------------------------------


def reasoning_offline(api: str, *policies):
    from conductor.offline import LatencyModel, OfflineModel

    model = OfflineModel(seed=0, latency=LatencyModel.instant(), policies=list(policies), reasoning=True)
    return cd.connect("offline", api=api, offline_model=model), model


@pytest.mark.parametrize("driver", ["run", "stream"])
def test_a_reasoning_model_gets_its_reasoning_back_with_its_calls(driver):
    llm, model = reasoning_offline("responses", two_rounds())
    assert llm.model == "conductor-offline-reasoning"
    if driver == "run":
        result = llm.run("Weather?", tools=[get_weather], max_rounds=2)
    else:
        result = [e for e in llm.stream("Weather?", tools=[get_weather], max_rounds=2) if e.type == "done"][0].result
    assert result.answer == "北京 5°C, 上海 18°C." and all(r.status == 200 for r in model.requests)
    assert all(r.body["include"] == ["reasoning.encrypted_content"] for r in model.requests)
    last = model.requests[-1].body["input"]
    kinds = [i.get("type") for i in last if i.get("type") in ("reasoning", "function_call")]
    assert kinds == ["reasoning", "function_call", "reasoning", "function_call"]
    assert all(i.get("encrypted_content") for i in last if i.get("type") == "reasoning")
    assert sum(c.usage.reasoning_tokens for c in result.trace.model_calls) > 0


def test_a_callers_include_is_added_to_not_replacing_the_encrypted_reasoning():
    llm, model = reasoning_offline("responses", two_rounds())
    result = llm.run("Weather?", tools=[get_weather], max_rounds=2, include=["message.output_text.logprobs"])
    assert result.answer == "北京 5°C, 上海 18°C." and all(r.status == 200 for r in model.requests)
    assert all(r.body["include"] == ["message.output_text.logprobs", "reasoning.encrypted_content"]
               for r in model.requests)


FINE_TUNED = "ft:o4-mini-2025-04-16:acme::b7x2k"  # a reasoning model the name table cannot recognise


@pytest.fixture
def name_table(monkeypatch):
    """The reasoning-model table as shipped, restored after the test (it learns names as runs go)."""
    monkeypatch.setattr(responses_api, "REASONING_MODELS", list(responses_api.REASONING_MODELS))
    monkeypatch.setattr(responses_api, "NOT_REASONING", set(responses_api.NOT_REASONING))


def test_a_reasoning_model_the_name_table_does_not_know_is_found_out_and_the_run_goes_on(name_table, caplog):
    from conductor.offline import LatencyModel, OfflineModel

    model = OfflineModel(seed=0, latency=LatencyModel.instant(), policies=[two_rounds()], reasoning=True)
    primary = cd.connect("offline", model=FINE_TUNED, offline_model=model)
    backup, _ = offline("messages", scripted("unused"))
    with caplog.at_level(logging.WARNING, logger="conductor"):
        result = cd.fallback(primary, backup).run("Weather?", tools=[get_weather], max_rounds=2)
    assert result.answer == "北京 5°C, 上海 18°C." and [r.status for r in model.requests] == [200, 200, 200]
    sealed = ["reasoning.encrypted_content"]
    assert [r.body.get("include") for r in model.requests] == [None, sealed, sealed]
    second = model.requests[1].body["input"]
    assert not any(i.get("type") == "reasoning" for i in second)  # the unencrypted one is left out ...
    assert [i.get("type") for i in second if i.get("type") == "function_call"] == ["function_call"]
    assert "id" not in next(i for i in second if i.get("type") == "function_call")  # ... and its call unpaired
    third = model.requests[2].body["input"]
    assert [i.get("type") for i in third if i.get("type") in ("reasoning", "function_call")] == [
        "function_call", "reasoning", "function_call"]  # from request 2 on, reasoning comes back sealed
    assert responses_api.is_reasoning_model(FINE_TUNED)
    assert "returned reasoning without encrypted content" in caplog.text


def test_reasoning_true_says_a_model_reasons_up_front(name_table, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    cd.connect("openai", model="my-azure-deployment", reasoning=True)
    assert responses_api.is_reasoning_model("my-azure-deployment")
    from conductor.offline import LatencyModel, OfflineModel

    model = OfflineModel(seed=0, latency=LatencyModel.instant(), policies=[two_rounds()], reasoning=True)
    llm = cd.connect(model.openai_client(), model=FINE_TUNED, api="responses", reasoning=True)
    assert llm.run("Weather?", tools=[get_weather], max_rounds=2).answer == "北京 5°C, 上海 18°C."
    assert all(r.body["include"] == ["reasoning.encrypted_content"] for r in model.requests)


def test_a_reasoning_model_on_chat_completions_answers_tools_with_the_real_400():
    import openai

    llm, _ = reasoning_offline("chat", two_rounds())
    with pytest.raises(openai.BadRequestError, match="Function tools with reasoning_effort are not supported"):
        llm.run("Weather?", tools=[get_weather])
    assert llm.run("Weather?", tools=[get_weather], reasoning_effort="none").answer == "北京 5°C, 上海 18°C."


def test_reasoning_from_history_is_left_out_and_the_run_goes_on():
    first_llm, _ = reasoning_offline("responses", two_rounds())
    first = first_llm.run("Weather?", tools=[get_weather], max_rounds=2)
    assert any(i.get("type") == "reasoning" for i in first.messages)
    for api in APIS:
        llm, model = offline(api, scripted("Still 5°C."))
        assert llm.run("Still?", tools=[get_weather], history=first.messages).answer == "Still 5°C."
        body = json.dumps(model.requests[-1].body)
        assert "encrypted_content" not in body and model.requests[-1].status == 200


# -- what the real API accepted ---------------------------------------------------------------------
# The fields of each input item, tool and request parameter that real /v1/responses tool conversations
# were sent with and accepted (publicly recorded traffic: a function call answered by call_id; a
# reasoning model's items sent back with their ids and encrypted content). What llm.run sends must
# use nothing else, on every driver.

ACCEPTED_ITEM_FIELDS = {
    "message": {"type", "id", "role", "status", "content"},
    "function_call": {"type", "id", "call_id", "name", "arguments", "status"},
    "function_call_output": {"type", "call_id", "output"},
    "reasoning": {"type", "id", "summary", "encrypted_content"},
}
ACCEPTED_TEXT_PART_FIELDS = {"type", "text", "annotations", "logprobs"}
ACCEPTED_TOOL_FIELDS = {"type", "name", "description", "parameters", "strict"}
ACCEPTED_REQUEST_FIELDS = {
    "model", "input", "instructions", "tools", "tool_choice", "parallel_tool_calls", "store", "include",
    "max_output_tokens", "previous_response_id", "stream", "reasoning",
    "prompt_cache_key",  # recorded with /v1/responses and /v1/chat/completions (pydantic-ai's prompt cache tests)
}


def _check_accepted_shapes(body: dict) -> None:
    assert set(body) <= ACCEPTED_REQUEST_FIELDS, set(body) - ACCEPTED_REQUEST_FIELDS
    for tool in body.get("tools", ()):
        assert set(tool) <= ACCEPTED_TOOL_FIELDS and tool["type"] == "function"
    for item in body["input"]:
        if "type" not in item:  # a plain message as people write it
            assert set(item) == {"role", "content"} and isinstance(item["content"], str)
            continue
        assert set(item) <= ACCEPTED_ITEM_FIELDS[item["type"]], (item["type"], set(item))
        for part in item.get("content") or ():
            assert set(part) <= ACCEPTED_TEXT_PART_FIELDS and part["type"] == "output_text"


@pytest.mark.parametrize("driver", ["run", "stream", "server_state"])
@pytest.mark.parametrize("reasoning", [False, True])
def test_requests_use_only_shapes_the_real_api_accepted(driver, reasoning):
    if reasoning:
        llm, model = reasoning_offline("responses", scripted(("Checking.", [("get_weather", {"city": "北京"})]), "5°C."))
    else:
        llm, model = offline("responses", scripted(("Checking.", [("get_weather", {"city": "北京"})]), "5°C."))
    if driver == "stream":
        list(llm.stream("Weather?", tools=[get_weather]))
    else:
        llm.run("Weather?", tools=[get_weather], server_state=driver == "server_state")
    assert len(model.requests) == 2 and all(r.status == 200 for r in model.requests)
    for request in model.requests:
        _check_accepted_shapes(request.body)
    kinds = [i.get("type", "message") for i in model.requests[-1].body["input"]]
    if driver == "server_state":
        assert kinds == ["function_call_output"]
    else:
        assert kinds == ["message", *(["reasoning"] if reasoning else []), "message", "function_call",
                         "function_call_output"]
