"""conductor: the helper package of the LLM tool-orchestration course.

``import conductor as cd`` stays light: the OpenAI and Anthropic SDKs, matplotlib
and the offline model load the first time something needs them.
"""

from __future__ import annotations

import importlib
from typing import Any

from .tools import Tool, ToolArgumentsError, ToolDefinitionError, ToolRegistry, tool
from .types import CostSplit, StopReason, SystemMessage, ToolCall, ToolResult, ToolSpec, Turn, Usage, UserMessage

from .version import __version__

# name -> module that defines it, imported on first access (PEP 562).
_LAZY = {
    "connect": "providers",
    "LLM": "providers",
    "ProviderError": "providers",
    "PROVIDERS": "providers",
    "RunResult": "rounds",
    "Round": "rounds",
    "Budget": "budget",
    "UnpricedModelError": "budget",
    "Orchestrator": "orchestrator",
    # many conversations through the providers' Batch APIs (orch.run_many(..., via="batch"), submit, collect)
    "BatchHandle": "batch",
    "BatchLineError": "batch",
    "RateLimit": "ratelimit",
    "budget": None,
    "metrics": None,
    "ratelimit": None,
    "orchestrator": None,
    "ToolCallRecord": "rounds",
    "MalformedResponseError": "rounds",
    "OfflineModel": "offline",
    "Fault": "offline",
    "register_policy": "offline",
    # failover.py, not fallback.py: importing a submodule named like the function would shadow cd.fallback
    "fallback": "failover",
    "FallbackLLM": "failover",
    "CircuitBreaker": "failover",
    "ModelError": "failover",
    "FatalModelError": "failover",
    "QuotaExceededError": "failover",
    "AllModelsFailedError": "failover",
    "failover": None,
    "scenarios": "course",
    "charts": None,
    "pricing": None,
    "offline": None,
    "exercises": "course",
    "relevance": "course",
    "catalogue": "course",
    "assistant": "course",
    "backoff": None,
    "simulation": "course",
    "widgets": None,
    "guards": None,
    "PendingCall": "guards",
    # streaming a tool run (llm.stream / llm.astream)
    "StreamInterrupted": "streaming",
    "streaming": None,
    # lesson 03: tool-level retries, timeouts and fallbacks
    "Retry": "retry",
    "TransientError": "retry",
    "ToolTimeout": "retry",
    "SimulatedClock": "retry",
    "cancelled": "retry",
    "run_killable": "retry",
    "retry": None,
    # lessons 06-07: tool search, namespaces, the model's own programs
    "search": None,
    "programs": None,
    # what only the lessons use (conductor.course)
    "flaky": "course",
    "colab": "course",
    "runner": "course",
    "bench": "course",
    "soak": "course",
    "offline_suite": "course",
    # MCP servers as tools (conductor/mcp.py; inside it ``import mcp`` is the SDK)
    "mcp_server": "mcp",
    "MCPServerError": "mcp",
    # tool search over many tools (llm.run(..., tool_search=True)) and lesson 06's 60-tool catalogue
    "search": None,
    "ToolIndex": "search",
    "toolbox": "course",
    # lesson 08: OpenTelemetry traces, and evaluating tool use
    "tracing": None,
    "evals": None,
    # durable runs on DBOS: every request and tool call recorded, resumed after a crash (conductor/durability.py;
    # not durable.py, which would shadow cd.durable)
    "durable": "durability",
    "DurableClient": "durability",
    "DurableLLM": "durability",
    "durability": None,
}

__all__ = [
    "Tool",
    "ToolArgumentsError",
    "ToolDefinitionError",
    "ToolRegistry",
    "tool",
    "CostSplit",
    "StopReason",
    "SystemMessage",
    "ToolCall",
    "ToolResult",
    "ToolSpec",
    "Turn",
    "Usage",
    "UserMessage",
    *_LAZY,
]


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'conductor' has no attribute {name!r}")
    module_name = _LAZY[name]
    if module_name is None:
        return importlib.import_module(f".{name}", __name__)
    if module_name == "course":
        return importlib.import_module(f".course.{name}", __name__)
    return getattr(importlib.import_module(f".{module_name}", __name__), name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


# In a Jupyter kernel the library's warnings print as plain output lines, not red stderr boxes
# (conductor.display.notebook_logging; nothing is attached in scripts or tests).
from . import display as _display

_display._attach_in_notebook()
