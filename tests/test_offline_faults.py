"""Injected faults surface through the SDKs as the SDKs' own exceptions and objects."""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta

import anthropic
import httpx2
import openai
import pytest

from conductor.offline import FAULT_KINDS, CallTools, Fault, LatencyModel, OfflineModel, PlannedCall, Reply, faults

OPENAI_TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Get today's weather for a city.",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
                "required": ["city"],
            },
        },
    }
]
ANTHROPIC_TOOLS = [
    {"name": f["name"], "description": f["description"], "input_schema": f["parameters"]}
    for f in (t["function"] for t in OPENAI_TOOLS)
]
USER = {"role": "user", "content": "What is the weather in Beijing today? Tell me in a few words."}


def weather(conversation):
    if conversation.tools_allowed and not conversation.exchanges():
        return CallTools((PlannedCall("get_weather", {"city": "Beijing", "days": 1}),))
    return Reply("Beijing is sunny today with a light breeze and a high of thirty-one degrees.")


@pytest.fixture
def model() -> OfflineModel:
    return OfflineModel(latency=LatencyModel.instant(), policies=[weather])


def ask_openai(model: OfflineModel, max_retries: int = 0, **extra):
    client = model.openai_client(max_retries=max_retries)
    return client.chat.completions.create(model="gpt-4.1-mini", messages=[USER], **extra)


def ask_anthropic(model: OfflineModel, max_retries: int = 0, **extra):
    client = model.anthropic_client(max_retries=max_retries)
    return client.messages.create(model="claude-haiku-4-5", max_tokens=1024, messages=[USER], **extra)


# ----------------------------------------------------------------------------- transport faults


@pytest.mark.parametrize(
    ("kind", "openai_error", "anthropic_error", "status"),
    [
        ("rate_limit", openai.RateLimitError, anthropic.RateLimitError, 429),
        ("server_error", openai.InternalServerError, anthropic.InternalServerError, 500),
        ("unavailable", openai.InternalServerError, anthropic.ServiceUnavailableError, 503),
        ("overloaded", openai.InternalServerError, anthropic.OverloadedError, 529),
    ],
)
def test_http_faults_raise_the_sdk_errors(model: OfflineModel, kind, openai_error, anthropic_error, status) -> None:
    model.inject(kind, times=2)
    with pytest.raises(openai_error) as from_openai:
        ask_openai(model)
    with pytest.raises(anthropic_error) as from_anthropic:
        ask_anthropic(model)
    assert from_openai.value.status_code == from_anthropic.value.status_code == status
    assert [r.status for r in model.requests] == [status, status]


def test_openai_rate_limit_has_the_real_text_and_headers(model: OfflineModel) -> None:
    model.inject("rate_limit", retry_after=20)
    with pytest.raises(openai.RateLimitError) as caught:
        ask_openai(model)
    error, headers = caught.value, caught.value.response.headers
    organization = re.search(r"in organization (org-[0-9A-Za-z]{24}) on", error.message).group(1)
    assert error.body == {
        "message": f"Rate limit reached for gpt-4.1-mini in organization {organization} on requests per min (RPM): "
        "Limit 3, Used 3, Requested 1. Please try again in 20s. "
        "Visit https://platform.openai.com/account/rate-limits to learn more.",
        "type": "requests",
        "param": None,
        "code": "rate_limit_exceeded",
    }
    assert (headers["retry-after"], headers["retry-after-ms"]) == ("20", "20000")
    assert [headers[f"x-ratelimit-{k}-requests"] for k in ("limit", "remaining", "reset")] == ["3", "0", "20s"]
    tokens_limit, tokens_left = int(headers["x-ratelimit-limit-tokens"]), int(headers["x-ratelimit-remaining-tokens"])
    assert 0 < tokens_left < tokens_limit  # this request's tokens were counted
    assert re.fullmatch(r"\d+(\.\d+)?m?s", headers["x-ratelimit-reset-tokens"])


def test_anthropic_rate_limit_has_the_real_text_and_headers(model: OfflineModel) -> None:
    model.inject("rate_limit", retry_after=20, limit=5)
    with pytest.raises(anthropic.RateLimitError) as caught:
        ask_anthropic(model)
    body, headers = caught.value.body, caught.value.response.headers
    assert body["error"] == {
        "type": "rate_limit_error",
        "message": "This request would exceed your account's rate limit. Please try again later.",
    }
    assert body["request_id"] == headers["request-id"]
    assert headers["retry-after"] == "20"
    assert (headers["anthropic-ratelimit-requests-limit"], headers["anthropic-ratelimit-requests-remaining"]) == (
        "5",
        "0",
    )
    resets = {}
    for window in ("requests", "tokens", "input-tokens", "output-tokens"):
        limit, remaining = (int(headers[f"anthropic-ratelimit-{window}-{k}"]) for k in ("limit", "remaining"))
        assert 0 <= remaining <= limit
        resets[window] = datetime.strptime(headers[f"anthropic-ratelimit-{window}-reset"], "%Y-%m-%dT%H:%M:%SZ")
    # The requests window reopens when the client is told to retry: retry-after after the others' "now".
    assert resets["requests"] - resets["output-tokens"] == timedelta(seconds=20)


def test_rate_limit_headers_are_reproducible_and_fast_tests_stay_fast(model: OfflineModel) -> None:
    def headers_of(offline: OfflineModel) -> dict[str, str]:
        offline.inject("rate_limit", retry_after=0.25)
        with pytest.raises(anthropic.RateLimitError) as caught:
            ask_anthropic(offline)
        return dict(caught.value.response.headers)

    first = headers_of(model)
    assert first == headers_of(OfflineModel(latency=LatencyModel.instant(), policies=[weather]))
    assert (first["retry-after-ms"], first["retry-after"]) == ("250", "1")  # the SDKs read the first one


@pytest.mark.parametrize(
    ("ask", "error", "expected"),
    [
        (
            ask_openai,
            openai.RateLimitError,
            {  # openai's error.body is the "error" object
                "message": "You exceeded your current quota, please check your plan and billing details. "
                "For more information on this error, read the docs: "
                "https://platform.openai.com/docs/guides/error-codes/api-errors.",
                "type": "insufficient_quota",
                "param": None,
                "code": "insufficient_quota",
            },
        ),
        (
            ask_anthropic,
            anthropic.RateLimitError,
            {  # anthropic's error.body is the whole response body
                "type": "error",
                "error": {
                    "type": "rate_limit_error",
                    "message": "This request would exceed your account's monthly spend limit. Please try again later.",
                },
            },
        ),
    ],
)
def test_quota_is_a_429_that_says_billing_and_the_sdk_still_retries_it(model: OfflineModel, ask, error, expected):
    model.inject("quota", times=2)
    with pytest.raises(error) as caught:
        ask(model, max_retries=1)
    body = {k: v for k, v in caught.value.body.items() if k != "request_id"}
    assert body == expected
    assert "retry-after" not in caught.value.response.headers
    assert [r.status for r in model.requests] == [429, 429]  # the whole prompt, sent again for nothing


def test_overloaded_has_anthropic_overloaded_error_body(model: OfflineModel) -> None:
    model.inject("overloaded")
    with pytest.raises(anthropic.OverloadedError) as caught:
        ask_anthropic(model)
    assert caught.value.body["error"] == {"type": "overloaded_error", "message": "Overloaded"}


def answer_of(reply) -> str:
    """The text of a Chat Completion or a Message."""
    if hasattr(reply, "choices"):
        return reply.choices[0].message.content
    return "".join(block.text for block in reply.content if block.type == "text")


@pytest.mark.parametrize("ask", [ask_openai, ask_anthropic])
def test_a_rate_limit_then_success_is_retried_by_the_sdk(model: OfflineModel, ask) -> None:
    model.inject("rate_limit", retry_after=0.001)
    reply = ask(model, max_retries=2)
    assert answer_of(reply).startswith("Beijing is sunny today")
    assert [r.status for r in model.requests] == [429, 200]


@pytest.mark.parametrize(
    ("kind", "openai_error", "anthropic_error"),
    [
        ("timeout", openai.APITimeoutError, anthropic.APITimeoutError),
        ("connection", openai.APIConnectionError, anthropic.APIConnectionError),
    ],
)
def test_network_faults_raise_the_sdk_errors(model: OfflineModel, kind, openai_error, anthropic_error) -> None:
    model.inject(kind, times=2)
    with pytest.raises(openai_error):
        ask_openai(model)
    with pytest.raises(anthropic_error):
        ask_anthropic(model)
    assert [r.status for r in model.requests] == [0, 0]  # no response was sent


def test_timeout_comes_from_the_transport(model: OfflineModel) -> None:
    model.inject("timeout")
    with httpx2.Client(transport=model.transport()) as client, pytest.raises(httpx2.ReadTimeout):
        client.post("http://offline.invalid/v1/chat/completions", json={"model": "m", "messages": [USER]})


# ----------------------------------------------------------------------------- content faults


def test_malformed_arguments_openai_sends_invalid_json(model: OfflineModel) -> None:
    model.inject("malformed_arguments")
    call = ask_openai(model, tools=OPENAI_TOOLS).choices[0].message.tool_calls[0]
    with pytest.raises(json.JSONDecodeError):
        json.loads(call.function.arguments)
    assert call.function.arguments.startswith('{"city": "Beijing"')


def test_malformed_arguments_anthropic_breaks_the_schema(model: OfflineModel) -> None:
    model.inject("malformed_arguments")
    block = [b for b in ask_anthropic(model, tools=ANTHROPIC_TOOLS).content if b.type == "tool_use"][0]
    assert block.input == {"days": 1}  # the required "city" is missing


def test_unknown_tool(model: OfflineModel) -> None:
    model.inject("unknown_tool", times=2)
    openai_call = ask_openai(model, tools=OPENAI_TOOLS).choices[0].message.tool_calls[0]
    anthropic_block = [b for b in ask_anthropic(model, tools=ANTHROPIC_TOOLS).content if b.type == "tool_use"][0]
    assert openai_call.function.name == anthropic_block.name == "get_weather_v2"
    model.inject("unknown_tool", name="send_email")
    assert ask_openai(model, tools=OPENAI_TOOLS).choices[0].message.tool_calls[0].function.name == "send_email"


def test_truncated(model: OfflineModel) -> None:
    full = ask_openai(model).choices[0].message.content
    model.inject("truncated", times=2)
    choice = ask_openai(model).choices[0]
    message = ask_anthropic(model)
    assert choice.finish_reason == "length"
    assert full.startswith(choice.message.content) and choice.message.content != full
    assert message.stop_reason == "max_tokens" and message.content[0].text == choice.message.content


def test_refusal(model: OfflineModel) -> None:
    model.inject("refusal", times=2)
    choice = ask_openai(model).choices[0]
    message = ask_anthropic(model)
    assert choice.message.refusal and choice.message.content is None and choice.finish_reason == "stop"
    assert message.stop_reason == "refusal" and message.content[0].text == choice.message.refusal


def test_refusal_streams_as_refusal_deltas(model: OfflineModel) -> None:
    model.inject("refusal", text="No.")
    chunks = list(ask_openai(model, stream=True))
    assert "".join(c.choices[0].delta.refusal or "" for c in chunks) == "No."


def test_empty(model: OfflineModel) -> None:
    model.inject("empty", times=2)
    choice = ask_openai(model, tools=OPENAI_TOOLS).choices[0]
    message = ask_anthropic(model, tools=ANTHROPIC_TOOLS)
    assert (choice.message.content, choice.message.tool_calls, choice.finish_reason) == ("", None, "stop")
    assert (message.content, message.stop_reason) == ([], "end_turn")


def test_stream_error_openai(model: OfflineModel) -> None:
    model.inject("stream_error")
    stream = ask_openai(model, stream=True)
    with pytest.raises(openai.APIError, match="The server had an error"):
        list(stream)


def test_stream_error_anthropic(model: OfflineModel) -> None:
    model.inject("stream_error")
    with pytest.raises(anthropic.APIStatusError) as caught:
        with model.anthropic_client(max_retries=0).messages.stream(
            model="m", max_tokens=100, messages=[USER]
        ) as stream:
            stream.get_final_message()
    assert caught.value.body["error"]["type"] == "overloaded_error"


def test_stream_error_on_a_json_request_is_a_server_error(model: OfflineModel) -> None:
    model.inject("stream_error")
    with pytest.raises(openai.InternalServerError):
        ask_openai(model)


def test_ignore_tool_choice(model: OfflineModel) -> None:
    model.inject("ignore_tool_choice", times=2)
    choice = ask_openai(model, tools=OPENAI_TOOLS, tool_choice="none").choices[0]
    message = ask_anthropic(model, tools=ANTHROPIC_TOOLS, tool_choice={"type": "none"})
    assert choice.finish_reason == "tool_calls" and choice.message.tool_calls[0].function.name == "get_weather"
    assert message.stop_reason == "tool_use"


# ----------------------------------------------------------------------------- scheduling


def test_unknown_fault_kind_lists_the_valid_ones(model: OfflineModel) -> None:
    with pytest.raises(ValueError, match="rate_limit, quota, server_error"):
        model.inject("gremlins")
    with pytest.raises(ValueError, match="unknown fault kind"):
        OfflineModel(faults={"gremlins": 0.5})
    with pytest.raises(ValueError, match="probability"):
        OfflineModel(faults={"rate_limit": 2})
    assert Fault("timeout").transport and Fault("quota").transport and not Fault("refusal").transport


@pytest.mark.parametrize("kind", FAULT_KINDS)
def test_every_fault_kind_is_documented(kind: str) -> None:
    assert f"* ``{kind}``:" in faults.__doc__


def test_injected_faults_are_served_in_order_then_stop(model: OfflineModel) -> None:
    model.inject("server_error")
    model.inject("rate_limit", retry_after=0.001)
    for error in (openai.InternalServerError, openai.RateLimitError):
        with pytest.raises(error):
            ask_openai(model)
    ask_openai(model)
    assert [r.status for r in model.requests] == [500, 429, 200]


def test_fault_rates_are_seeded(model: OfflineModel) -> None:
    def outcomes(seed: int) -> list[str]:
        offline = OfflineModel(
            seed=seed, latency=LatencyModel.instant(), policies=[weather], faults={"server_error": 0.5}
        )
        seen = []
        for _ in range(20):
            try:
                seen.append(answer_of(ask_openai(offline)))
            except openai.InternalServerError as error:
                seen.append(f"error {error.status_code}")
        return seen

    first = outcomes(3)
    assert first == outcomes(3)
    untroubled = answer_of(ask_openai(OfflineModel(latency=LatencyModel.instant(), policies=[weather])))
    assert set(first) == {"error 500", untroubled}
