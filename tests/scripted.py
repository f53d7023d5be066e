"""Test helpers: an offline model driven by a script of decisions, and tools that record their calls."""

from __future__ import annotations

import functools
from typing import Any

import conductor as cd
from conductor.offline import CallTools, Conversation, LatencyModel, OfflineModel, PlannedCall, Reply
from conductor.types import Turn, UserMessage

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
