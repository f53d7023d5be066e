"""Checked against real traffic: the request shapes of prompt caching and compaction, and real responses' usage.

Where they come from: pydantic/pydantic-ai's recorded cassettes (read November 2026):
``tests/models/cassettes/test_anthropic/test_anthropic_automatic_caching_real_api.yaml`` (top-level
``cache_control``; usage with ``cache_creation`` by lifetime), ``..._cache_real_api.yaml``,
``..._compaction_end_to_end.yaml`` (``context_management`` edits on ``/v1/messages?beta=true``; a
``compaction`` block before the answer; usage ``iterations``), and
``tests/models/cassettes/test_openai_prompt_cache/test_openai_chat_prompt_cache_e2e.yaml`` (a top-level
``prompt_cache_key``; ``prompt_tokens_details.cache_write_tokens`` and ``cached_tokens``). The usage dicts
below are small extracts written from those recordings: the field names and nesting as recorded, the counts
as recorded.
"""

from __future__ import annotations

import anthropic
import openai
import pytest

import conductor as cd
from conductor.apis.chat import ChatApi
from conductor.apis.messages import MessagesApi
from conductor.apis.responses import ResponsesApi
from conductor.offline import LatencyModel, OfflineModel

ANTHROPIC_WRITE = {  # the first of two identical requests (automatic caching, claude-sonnet-4-5)
    "cache_creation": {"ephemeral_1h_input_tokens": 0, "ephemeral_5m_input_tokens": 1111},
    "cache_creation_input_tokens": 1111, "cache_read_input_tokens": 0, "inference_geo": "not_available",
    "input_tokens": 3, "output_tokens": 397, "service_tier": "standard",
}
ANTHROPIC_COMPACTION = {  # a request past its trigger: compaction ran, then the answer (claude-sonnet-4-6)
    "cache_creation": {"ephemeral_1h_input_tokens": 0, "ephemeral_5m_input_tokens": 0},
    "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "inference_geo": "global", "input_tokens": 220,
    "iterations": [
        {"cache_creation": {"ephemeral_1h_input_tokens": 0, "ephemeral_5m_input_tokens": 0},
         "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "input_tokens": 55196, "output_tokens": 125,
         "type": "compaction"},
        {"cache_creation": {"ephemeral_1h_input_tokens": 0, "ephemeral_5m_input_tokens": 0},
         "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "input_tokens": 220, "output_tokens": 8,
         "type": "message"},
    ],
    "output_tokens": 8, "server_tool_use": {"web_fetch_requests": 0, "web_search_requests": 0},
    "service_tier": "standard",
}
OPENAI_CHAT_WRITE = {  # gpt-5.6 on Chat Completions with prompt_cache_key: the prefix written
    "completion_tokens": 4,
    "completion_tokens_details": {"accepted_prediction_tokens": 0, "audio_tokens": 0, "reasoning_tokens": 0,
                                  "rejected_prediction_tokens": 0},
    "prompt_tokens": 4020, "prompt_tokens_details": {"audio_tokens": 0, "cache_write_tokens": 4012, "cached_tokens": 0},
    "total_tokens": 4024,
}


def test_anthropic_cache_write_is_read_from_the_real_usage():
    usage = MessagesApi._usage(anthropic.types.Usage.model_validate(ANTHROPIC_WRITE))
    assert usage.input_tokens == 1114 and usage.cache_write_tokens == 1111 and usage.cache_read_tokens == 0
    assert usage.uncached_input_tokens == 3 and usage.cache_write_1h_tokens == 0


def test_anthropic_compaction_bills_every_iteration():
    usage = MessagesApi._usage(anthropic.types.beta.BetaUsage.model_validate(ANTHROPIC_COMPACTION))
    assert usage.input_tokens == 55196 + 220 and usage.output_tokens == 125 + 8


def test_anthropic_compaction_block_is_kept_and_sent_back_as_received():
    message = anthropic.types.beta.BetaMessage.model_validate({
        "id": "msg_01F14qCbQK62eHkEDj6yvZsi", "type": "message", "role": "assistant", "model": "claude-sonnet-4-6",
        "content": [{"type": "compaction", "content": "The user asked to say hello after a long filler text."},
                    {"type": "text", "text": "Hello!"}],
        "context_management": {"applied_edits": []}, "stop_reason": "end_turn", "stop_sequence": None,
        "usage": ANTHROPIC_COMPACTION,
    })
    api = MessagesApi()
    turn = api.parse(message)
    assert turn.text == "Hello!" and turn.items[0]["type"] == "compaction"
    rendered: list = []
    api.render([cd.types.UserMessage("Now say hello."), replace_origin(turn)], rendered, model="claude-sonnet-4-6")
    assert rendered[-1]["content"][0] == {"type": "compaction", "content": turn.items[0]["content"]}


def replace_origin(turn):
    from dataclasses import replace

    return replace(turn, origin=("messages", "claude-sonnet-4-6"))


def test_openai_chat_cache_write_is_read_from_the_real_usage():
    usage = ChatApi._usage(openai.types.CompletionUsage.model_validate(OPENAI_CHAT_WRITE))
    assert usage.input_tokens == 4020 and usage.cache_write_tokens == 4012 and usage.cache_read_tokens == 0


def test_openai_responses_usage_without_cache_write_tokens_reads_as_none_written():
    """Responses recorded in 2025 carry only cached_tokens (the SDK declares cache_write_tokens required)."""
    usage = openai.types.responses.ResponseUsage.model_construct(
        input_tokens=2310, output_tokens=12, total_tokens=2322,
        input_tokens_details=openai.types.responses.response_usage.InputTokensDetails.model_construct(cached_tokens=2304),
        output_tokens_details=openai.types.responses.response_usage.OutputTokensDetails(reasoning_tokens=0),
    )
    read = ResponsesApi._usage(usage)
    assert read.cache_read_tokens == 2304 and read.cache_write_tokens == 0


@pytest.mark.parametrize("api", ["responses", "chat", "messages"])
def test_requests_carry_the_recorded_shapes(api):
    model = OfflineModel(latency=LatencyModel.instant())
    llm = cd.connect("offline", api=api, offline_model=model)

    @cd.tool
    def get_weather(city: str) -> str:
        """Weather of a city."""
        return "sunny"

    llm.run("Weather in Paris?", tools=[get_weather])
    body = model.requests[0].body
    if api == "messages":  # recorded: {"type": "ephemeral", "ttl": "5m"}; the ttl is optional and 5m by default
        assert body["cache_control"] == {"type": "ephemeral"}
    else:  # recorded: a top-level string beside the model and messages / input
        assert isinstance(body["prompt_cache_key"], str) and body["prompt_cache_key"]
