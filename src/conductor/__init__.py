"""conductor: the helper package of the LLM tool-orchestration course.

``import conductor as cd`` stays light: the OpenAI and Anthropic SDKs, matplotlib
and the offline model load the first time something needs them.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from types import ModuleType
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
    # many conversations through the providers' Batch APIs (orch.run_many(..., via="batch"), submit, collect)
    "BatchHandle": "batch",
    "BatchLineError": "batch",
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


# What only the lessons use lives in conductor.course (the library core imports nothing from it); the
# modules' old paths (``from conductor.scenarios import get_weather``, ``conductor.exercises.lesson01``)
# stay importable as the same module objects, so code written for the lessons keeps working.
COURSE_MODULES = frozenset({
    "assistant", "bench", "catalogue", "colab", "exercises", "flaky", "offline_suite", "relevance",
    "runner", "scenarios", "simulation", "soak",
})


class _CourseAlias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports ``conductor.<name>...`` as ``conductor.course.<name>...`` for the course's modules.

    Hand-written because the import system has no alias declaration: the finder hands back the
    module already imported under its real name, and restores that module's own spec.
    """

    def __init__(self) -> None:
        self._specs: dict[str, importlib.machinery.ModuleSpec] = {}

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        parts = fullname.split(".")
        if len(parts) < 2 or parts[0] != __name__ or parts[1] not in COURSE_MODULES:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module(spec.name.replace(f"{__name__}.", f"{__name__}.course.", 1))
        self._specs[spec.name] = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        # The import system set the alias's spec on the shared module: give it back its own.
        module.__spec__ = self._specs.pop(module.__spec__.name)


if not any(isinstance(finder, _CourseAlias) for finder in sys.meta_path):
    sys.meta_path.insert(0, _CourseAlias())


# In a Jupyter kernel the library's warnings print as plain output lines, not red stderr boxes
# (conductor.display.notebook_logging; nothing is attached in scripts or tests).
from . import display as _display  # noqa: E402

_display._attach_in_notebook()
