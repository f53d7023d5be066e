"""Test helpers: an offline model driven by a script of decisions, tools that record their calls, and the
offline model's argument plan for one tool and question."""

from __future__ import annotations

import functools
from typing import Any

import conductor as cd
from conductor.offline import CallTools, Conversation, LatencyModel, OfflineModel, PlannedCall, Reply
from conductor.offline.arguments import Filled, plan_arguments
from conductor.tools import Tool
from conductor.types import Turn, UserMessage
from wire import OPENAI_APIS

Step = str | list[tuple[str, dict[str, Any] | str]] | tuple[str, list[tuple[str, dict[str, Any] | str]]]


def turns_since_question(conversation: Conversation) -> int:
    """How many assistant turns the model has already taken for the current question."""
    count = 0
    for message in reversed(conversation.messages):
        if isinstance(message, UserMessage):
            break
        count += isinstance(message, Turn)
    return count


def scripted(*steps: Step):
    """A policy that plays ``steps`` in order, one per model request (the last one repeats).

    A step is answer text, a list of ``(tool name, arguments)`` calls, or
    ``(text, calls)`` for a turn with text beside its calls.
    """

    def policy(conversation: Conversation):
        step = steps[min(turns_since_question(conversation), len(steps) - 1)]
        if isinstance(step, str):
            return Reply(step)
        text, calls = step if isinstance(step, tuple) else (None, step)
        return CallTools(tuple(PlannedCall(name, args) for name, args in calls), text)

    return policy


def offline(api: str, *policies, **options) -> tuple[cd.LLM, OfflineModel]:
    """A zero-latency offline connection plus the model behind it, for inspecting requests."""
    model = OfflineModel(seed=0, latency=LatencyModel.instant(), policies=list(policies), **options)
    return cd.connect("offline", api=api, offline_model=model), model


class Recorder:
    """Collects the arguments each recorded tool was called with."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def tool(self, func):
        @functools.wraps(func)
        def wrapper(**kwargs):
            self.calls.append((func.__name__, kwargs))
            return func(**kwargs)

        return cd.tool(wrapper)


class Bank:
    """A transfer tool that needs approval above 100 and counts its side effects.

    Its tools are made inside ``__init__``, so they have no module-level name to import them
    by: a paused run that holds them must be given them again to resume in another process.
    """

    def __init__(self) -> None:
        self.transfers: list[tuple[str, float]] = []

        @cd.tool(requires_approval=lambda args: args["amount"] > 100)
        def transfer(to: str, amount: float) -> dict:
            """Transfer money to an account."""
            self.transfers.append((to, amount))
            return {"sent": amount, "to": to}

        @cd.tool
        def balance() -> dict:
            """The account balance."""
            return {"balance": 1000}

        self.transfer = transfer
        self.balance = balance


# The weather tool as raw wire schemas, for tests that talk to the offline model through the SDKs.
OPENAI_TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Get today's weather for a city.",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        },
    }
]
ANTHROPIC_TOOLS = [
    {
        "name": "get_weather",
        "description": "Get today's weather for a city.",
        "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    }
]


class RawServer:
    """A stand-in API server that answers each request with the next of the given response JSONs.

    For responses the offline model never sends (repeated or empty call ids,
    cache and reasoning usage): ``llm.run`` gets them through the real SDK client
    and its HTTP layer, and ``bodies`` keeps every request body it sent.
    """

    def __init__(self, api: str, responses: list[dict[str, Any]]) -> None:
        self.api = api
        self.responses = responses
        self.bodies: list[dict[str, Any]] = []

    def _handle(self, request):
        import json

        import httpx2

        self.bodies.append(json.loads(request.content))
        response = self.responses[min(len(self.bodies), len(self.responses)) - 1]
        return httpx2.Response(200, json=response)

    def client(self, cls: type | None = None, **options: Any):
        """An SDK client (``cls``, by default the API's own) that talks to this server."""
        import httpx2

        http = httpx2.Client(transport=httpx2.MockTransport(self._handle))
        if cls is None:
            import anthropic
            import openai

            cls = openai.OpenAI if self.api in OPENAI_APIS else anthropic.Anthropic
        if "azure_endpoint" not in options:
            options["base_url"] = "http://raw.invalid/v1" if self.api in OPENAI_APIS else "http://raw.invalid"
        return cls(api_key="test", http_client=http, max_retries=0, **options)


def openai_response(content: str | None = None, calls=(), usage: dict[str, Any] | None = None) -> dict[str, Any]:
    """A Chat Completions response as the API sends it; ``calls`` are ``(id, name, arguments dict)``."""
    import json

    message: dict[str, Any] = {"role": "assistant", "content": content, "refusal": None, "annotations": []}
    if calls:
        message["tool_calls"] = [
            {"id": i, "type": "function", "function": {"name": n, "arguments": json.dumps(a)}} for i, n, a in calls
        ]
    return {
        "id": "chatcmpl-AbCdEfGhIjKlMnOpQrStUvWxYz012",
        "object": "chat.completion",
        "created": 1763700000,
        "model": "gpt-4.1-mini-2025-04-14",
        "choices": [
            {"index": 0, "message": message, "logprobs": None, "finish_reason": "tool_calls" if calls else "stop"}
        ],
        "usage": usage or {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
        "service_tier": "default",
        "system_fingerprint": "fp_0123456789",
    }


def anthropic_response(text: str | None = None, calls=(), usage: dict[str, Any] | None = None) -> dict[str, Any]:
    """A Messages response as the API sends it; ``calls`` are ``(id, name, input dict)``."""
    content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
    content += [{"type": "tool_use", "id": i, "name": n, "input": a} for i, n, a in calls]
    return {
        "id": "msg_01AbCdEfGhIjKlMnOpQrStUv",
        "type": "message",
        "role": "assistant",
        "model": "claude-haiku-4-5-20251001",
        "content": content,
        "stop_reason": "tool_use" if calls else "end_turn",
        "stop_sequence": None,
        "usage": usage or {"input_tokens": 100, "output_tokens": 20},
    }


def responses_response(text: str | None = None, calls=(), usage: dict[str, Any] | None = None) -> dict[str, Any]:
    """A Responses API response as the API sends it; ``calls`` are ``(call id, name, arguments dict)``.

    ``usage`` in Chat Completions' names (prompt_tokens, ...) is translated, so one test's figures
    serve every API.
    """
    import json

    output: list[dict[str, Any]] = []
    if text:
        output.append({
            "id": "msg_0123456789abcdef0123456789abcdef0123456789abcdef", "type": "message", "role": "assistant",
            "status": "completed", "content": [{"type": "output_text", "text": text, "annotations": []}],
        })
    output += [
        {"id": f"fc_{index:048x}", "type": "function_call", "call_id": i, "name": n, "arguments": json.dumps(a),
         "status": "completed"}
        for index, (i, n, a) in enumerate(calls)
    ]
    usage = usage or {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}
    if "prompt_tokens" in usage:
        usage = {
            "input_tokens": usage["prompt_tokens"],
            "input_tokens_details": {"cached_tokens": (usage.get("prompt_tokens_details") or {}).get("cached_tokens", 0)},
            "output_tokens": usage["completion_tokens"],
            "output_tokens_details": {
                "reasoning_tokens": (usage.get("completion_tokens_details") or {}).get("reasoning_tokens", 0)
            },
            "total_tokens": usage["prompt_tokens"] + usage["completion_tokens"],
        }
    return {
        "id": "resp_0123456789abcdef0123456789abcdef0123456789abcdef",
        "object": "response",
        "created_at": 1763700000,
        "status": "completed",
        "model": "gpt-5.4-mini-2026-03-17",
        "output": output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "usage": usage,
    }


def raw_response(api: str, text: str | None = None, calls=(), usage: dict[str, Any] | None = None) -> dict[str, Any]:
    """The response JSON of ``api``: see :func:`responses_response`, :func:`openai_response`
    (Chat Completions) and :func:`anthropic_response`."""
    if api == "responses":
        return responses_response(text, calls, usage)
    return (openai_response if api in ("chat", "openai") else anthropic_response)(text, calls, usage)


def calls(tool_: Tool, question: str) -> list[dict[str, Any]]:
    """The argument sets the offline model would call ``tool_`` with; fails when it would decline."""
    planned = plan_arguments(tool_.spec, question)
    assert not isinstance(planned, Filled), f"declined: missing {planned.missing}"
    return planned


def missing(tool_: Tool, question: str) -> list[str]:
    """The required parameters the model says the question did not give (empty when it would call)."""
    planned = plan_arguments(tool_.spec, question)
    return planned.missing if isinstance(planned, Filled) else []
