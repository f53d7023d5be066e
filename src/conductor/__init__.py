"""conductor: the helper package of the LLM tool-orchestration course.

``import conductor as cd`` stays light: the OpenAI and Anthropic SDKs, matplotlib
and the offline model load the first time something needs them.
"""

from __future__ import annotations

import importlib
from typing import Any

from .tools import Tool, ToolArgumentsError, ToolDefinitionError, ToolRegistry, tool
from .types import CostSplit, StopReason, SystemMessage, ToolCall, ToolResult, ToolSpec, Turn, Usage, UserMessage

__version__ = "0.1.0"

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
    "RateLimit": "ratelimit",
    "budget": None,
    "metrics": None,
    "ratelimit": None,
    "orchestrator": None,
    "ToolCallRecord": "rounds",
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
    "scenarios": None,
    "charts": None,
    "pricing": None,
    "offline": None,
    "exercises": None,
    "relevance": None,
    "catalogue": None,
    "assistant": None,
    "backoff": None,
    "simulation": None,
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
    return getattr(importlib.import_module(f".{module_name}", __name__), name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
