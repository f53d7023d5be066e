"""Tool search against real traffic: conductor's requests have the shapes the real APIs were sent, and it reads
the real responses and sends their search items and blocks back as received.

The bodies below are transcribed from public recordings of the real APIs (pydantic/pydantic-ai,
``tests/cassettes/test_tool_search/``: ``test_anthropic_native_tool_search_round_trip.yaml``,
``test_openai_native_tool_search_round_trip.yaml`` and
``test_openai_hosted_tool_search_stateless_continuation.yaml``), trimmed to the fields that matter here.
"""

from __future__ import annotations

import copy
from typing import Any

import conductor as cd
from scripted import RawServer

calls: list[dict[str, str]] = []


@cd.tool
def get_exchange_rate(from_currency: str, to_currency: str) -> str:
    """Look up the current exchange rate between two currencies."""
    calls.append({"from_currency": from_currency, "to_currency": to_currency})
    return "1 USD = 0.92 EUR"


@cd.tool
def stock_lookup(symbol: str) -> str:
    """Look up stock price by ticker symbol."""
    return "AAPL 201.50"


QUESTION = "What is the current USD to EUR exchange rate?"

# -- Anthropic, claude-sonnet-4-5, tool_search_tool_bm25_20251119 ------------------------------------

ANTHROPIC_SEARCH_TOOL = {"name": "tool_search_tool_bm25", "type": "tool_search_tool_bm25_20251119"}
ANTHROPIC_DEFERRED_TOOL = {
    "defer_loading": True,
    "description": "Look up the current exchange rate between two currencies.",
    "input_schema": {"additionalProperties": False, "properties": {"from_currency": {"type": "string"},
                                                                  "to_currency": {"type": "string"}},
                     "required": ["from_currency", "to_currency"], "type": "object"},
    "name": "get_exchange_rate",
}
ANTHROPIC_CONTENT = [
    {"text": "I'll search for a tool that can provide currency exchange rates.", "type": "text"},
    {"id": "srvtoolu_01HYRS22QTaC1QoZzAv2QBFE", "input": {"limit": 5, "query": "USD EUR exchange rate currency conversion"},
     "name": "tool_search_tool_bm25", "type": "server_tool_use"},
    {"content": {"tool_references": [{"tool_name": "get_exchange_rate", "type": "tool_reference"}],
                 "type": "tool_search_tool_search_result"},
     "tool_use_id": "srvtoolu_01HYRS22QTaC1QoZzAv2QBFE", "type": "tool_search_tool_result"},
    {"text": "Perfect! I found a tool to get the exchange rate. Let me use it to find the current USD to EUR "
             "exchange rate.", "type": "text"},
    {"caller": {"type": "direct"}, "id": "toolu_016VSqyszw35EYg7XCuPZ8cg",
     "input": {"from_currency": "USD", "to_currency": "EUR"}, "name": "get_exchange_rate", "type": "tool_use"},
]


def anthropic_message(content: list[dict[str, Any]], stop_reason: str, message_id: str) -> dict[str, Any]:
    return {
        "content": content, "id": message_id, "model": "claude-sonnet-4-5-20250929", "role": "assistant",
        "stop_details": None, "stop_reason": stop_reason, "stop_sequence": None, "type": "message",
        "usage": {"cache_creation": {"ephemeral_1h_input_tokens": 0, "ephemeral_5m_input_tokens": 0},
                  "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "inference_geo": "not_available",
                  "input_tokens": 1605, "output_tokens": 198,
                  "server_tool_use": {"web_fetch_requests": 0, "web_search_requests": 0}, "service_tier": "standard"},
    }


def test_anthropic_requests_have_the_recorded_shape_and_the_real_blocks_go_back_as_received():
    calls.clear()
    server = RawServer("messages", [
        anthropic_message(copy.deepcopy(ANTHROPIC_CONTENT), "tool_use", "msg_01YGvApWAGz4J89sQLb5wWMb"),
        anthropic_message([{"text": "The current exchange rate is **1 USD = 0.92 EUR**.", "type": "text"}],
                          "end_turn", "msg_011pYcBs8BCTJuM5MTFaAX4r"),
    ])
    llm = cd.connect(server.client(), model="claude-haiku-4-5", api="messages")  # recorded on Sonnet 4.5
    result = llm.run(QUESTION, tools=[get_exchange_rate, stock_lookup], tool_search=True)
    first, second = server.bodies
    # the search tool exactly as recorded, last; each deferred tool with the recorded fields (and `strict`,
    # which conductor adds to a schema that can be strict)
    assert first["tools"][-1] == ANTHROPIC_SEARCH_TOOL
    sent = first["tools"][0]
    assert {k: v for k, v in sent.items() if k != "strict"} == ANTHROPIC_DEFERRED_TOOL
    assert second["tools"] == first["tools"]
    # the real response read: the call ran, the search blocks kept and sent back unchanged
    assert calls == [{"from_currency": "USD", "to_currency": "EUR"}]
    assert second["messages"][1] == {"role": "assistant", "content": ANTHROPIC_CONTENT}
    assert second["messages"][2]["content"][0]["tool_use_id"] == "toolu_016VSqyszw35EYg7XCuPZ8cg"
    assert result.answer == "The current exchange rate is **1 USD = 0.92 EUR**."
    assert result.usage.web_search_requests == 0  # a tool search is not billed as a web search


# -- OpenAI Responses, gpt-5.4, hosted tool_search -----------------------------------------------------

OPENAI_DEFERRED_TOOL = {
    "defer_loading": True, "description": "Look up the current exchange rate between two currencies.",
    "name": "get_exchange_rate",
    "parameters": {"additionalProperties": False, "properties": {"from_currency": {"type": "string"},
                                                                "to_currency": {"type": "string"}},
                   "required": ["from_currency", "to_currency"], "type": "object"},
    "strict": True, "type": "function",
}
OPENAI_OUTPUT = [
    {"arguments": {"paths": ["get_exchange_rate"]}, "call_id": None, "execution": "server",
     "id": "tsc_0ab095b1426acab50069f17095bdb481968dc6fe8187caa2e0", "status": "completed", "type": "tool_search_call"},
    {"call_id": None, "execution": "server", "id": "tso_0ab095b1426acab50069f17095e2b08196922f617e9b78df21",
     "status": "completed", "tools": [OPENAI_DEFERRED_TOOL], "type": "tool_search_output"},
    {"arguments": '{"from_currency":"USD","to_currency":"EUR"}', "call_id": "call_S3NEVtiFX40NHVwtLaoz5NRN",
     "id": "fc_0ab095b1426acab50069f170964d148196a5fba8b365a1bcbd", "name": "get_exchange_rate",
     "namespace": "get_exchange_rate", "status": "completed", "type": "function_call"},
]


def openai_response(output: list[dict[str, Any]], response_id: str) -> dict[str, Any]:
    return {
        "background": False, "created_at": 1777430676, "error": None, "id": response_id, "incomplete_details": None,
        "instructions": None, "metadata": {}, "model": "gpt-5.4-2026-03-05", "object": "response", "output": output,
        "parallel_tool_calls": True, "status": "completed", "store": True, "tool_choice": "auto",
        "tools": [OPENAI_DEFERRED_TOOL, {"description": None, "parameters": None, "type": "tool_search"}],
        "top_p": 0.98, "truncation": "disabled",
        "usage": {"input_tokens": 600, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 47,
                  "output_tokens_details": {"reasoning_tokens": 21}, "total_tokens": 647},
    }


def test_openai_requests_have_the_recorded_shape_and_the_real_items_go_back_as_received():
    calls.clear()
    server = RawServer("responses", [
        openai_response(copy.deepcopy(OPENAI_OUTPUT), "resp_0ab095b1426acab50069f17094fb68819692bd37a480ae58b6"),
        openai_response([{"content": [{"annotations": [], "logprobs": [], "text": "Current rate: **1 USD = 0.92 EUR**.",
                                       "type": "output_text"}],
                          "id": "msg_0ab095b1426acab50069f17097664c819695bbe5dc82284705", "phase": "final_answer",
                          "role": "assistant", "status": "completed", "type": "message"}],
                        "resp_0ab095b1426acab50069f1709703248196a36772ba2573e387"),
    ])
    llm = cd.connect(server.client(), model="gpt-5.4", api="responses")
    result = llm.run(QUESTION, tools=[get_exchange_rate, stock_lookup], tool_search=True)
    first, second = server.bodies
    assert {"type": "tool_search"} in first["tools"]
    assert first["tools"][0] == OPENAI_DEFERRED_TOOL  # every recorded field, the same values
    assert calls == [{"from_currency": "USD", "to_currency": "EUR"}]
    # sent back as received (the null call_id left out, as the stateless continuation recording shows accepted)
    replayed = [item for item in second["input"] if item.get("type") in ("tool_search_call", "tool_search_output")]
    assert replayed == [{k: v for k, v in item.items() if v is not None} for item in OPENAI_OUTPUT[:2]]
    function_call = next(item for item in second["input"] if item.get("type") == "function_call")
    assert function_call["namespace"] == "get_exchange_rate" and function_call["call_id"] == "call_S3NEVtiFX40NHVwtLaoz5NRN"
    assert second["input"][-1] == {"type": "function_call_output", "call_id": "call_S3NEVtiFX40NHVwtLaoz5NRN",
                                   "output": "1 USD = 0.92 EUR"}
    assert result.answer == "Current rate: **1 USD = 0.92 EUR**."


def test_the_stand_ins_search_items_have_the_real_items_keys():
    """The offline model's items carry the fields the real ones do (checked against the recording)."""
    llm = cd.connect("offline", api="responses", latency_scale=0)
    result = llm.run("Look up the USD to EUR exchange rate", tools=[get_exchange_rate, stock_lookup], tool_search=True)
    mine = [m for m in result.messages if m.get("type") in ("tool_search_call", "tool_search_output")]
    real = [{k: v for k, v in item.items() if v is not None} for item in OPENAI_OUTPUT[:2]]
    assert [sorted(m) for m in mine] == [sorted(r) for r in real]
    assert mine[0]["arguments"] == {"paths": ["get_exchange_rate"]}
    assert sorted(mine[1]["tools"][0]) == sorted(OPENAI_DEFERRED_TOOL)
    call = next(m for m in result.messages if m.get("type") == "function_call")
    assert sorted(call) == sorted(OPENAI_OUTPUT[2]) and call["namespace"] == call["name"]


def test_the_stand_ins_search_blocks_have_the_real_blocks_keys():
    llm = cd.connect("offline", api="messages", latency_scale=0)
    result = llm.run("Look up the USD to EUR exchange rate", tools=[get_exchange_rate, stock_lookup], tool_search=True)
    blocks = result.messages[1]["content"]
    mine = {b["type"]: b for b in blocks}
    real = {b["type"]: b for b in ANTHROPIC_CONTENT}
    for kind in ("server_tool_use", "tool_search_tool_result"):
        assert sorted(mine[kind]) == sorted(real[kind])
    assert sorted(mine["server_tool_use"]["input"]) == sorted(real["server_tool_use"]["input"])
    assert mine["tool_search_tool_result"]["content"]["tool_references"] == real["tool_search_tool_result"]["content"][
        "tool_references"]
