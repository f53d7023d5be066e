"""Hosted tools: a tool the provider runs itself, given to ``tools=`` as the API's own dict.

``tools=[get_weather, {"type": "web_search"}]`` on the Responses API, or
``tools=[get_weather, {"type": "web_search_20250305", "name": "web_search", "max_uses": 2}]``
on Messages: the dict goes into every request unchanged, beside the function tools. The
provider runs the tool inside its response (OpenAI: ``web_search_call`` output items;
Anthropic: ``server_tool_use`` and ``web_search_tool_result`` blocks); conductor keeps what
comes back as received and never runs anything for it. Each API's module says which of its
tool types are hosted (``hosted_kind``); this module sorts a ``tools=`` list with them and
explains, naming the API, a dict that cannot go to the API in use.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Iterable
from typing import Any

from . import messages, responses
from .base import ApiName

logger = logging.getLogger(__name__)

# Dicts that describe a function for conductor to run: they have no code, so they are refused.
_FUNCTION_TYPES = (None, "function", "custom")
_EXAMPLES: dict[ApiName, str] = {
    "responses": "{'type': 'web_search'}",
    "messages": "{'type': 'web_search_20250305', 'name': 'web_search', 'max_uses': 5}",
}
_API_TITLES: dict[ApiName, str] = {
    "responses": "OpenAI Responses API",
    "chat": "OpenAI Chat Completions API",
    "messages": "Anthropic Messages API",
}
_CONNECT: dict[ApiName, str] = {
    "responses": "cd.connect('openai') (the Responses API is its default)",
    "messages": "cd.connect('anthropic')",
}


def _kind(api: ApiName, tool: dict[str, Any]) -> str | None:
    if api == "responses":
        return responses.hosted_kind(tool)
    if api == "messages":
        return messages.hosted_kind(tool)
    return None  # Chat Completions has function and custom tools only


def _owner(tool: dict[str, Any]) -> ApiName | None:
    """The API whose typed tool ``tool`` is, by its type; None when neither knows it."""
    for api in ("responses", "messages"):
        if _kind(api, tool) is not None:  # type: ignore[arg-type]
            return api  # type: ignore[return-value]
    return None


def _shown(tool: dict[str, Any]) -> str:
    return f"{{'type': {tool.get('type')!r}, ...}}" if len(tool) > 1 else repr(tool)


def check_hosted(tool: dict[str, Any], api: ApiName) -> None:
    """Nothing when ``tool`` can go to ``api`` as a hosted tool; else a ValueError naming the API and the fix.

    A type this table does not know goes as it is (a hosted tool newer than the table: the API
    says whether it knows it), unless it has the other API's form (Anthropic dates its types:
    ``web_search_20250305``).
    """
    kind = _kind(api, tool)
    shown = _shown(tool)
    if kind == "hosted":
        return
    if kind == "client":
        raise ValueError(
            f"tools= got {shown}, a tool the {_API_TITLES[api]} hands back for your own code to carry out, "
            "which llm.run does not do (it runs @cd.tool functions, and hosted tools run by the provider): "
            "write the action as a Python function decorated with @cd.tool, or drive the API by hand with llm.client"
        )
    owner = _owner(tool)
    if api == "chat":
        if owner is not None:
            use = f"{shown} is a hosted tool of the {_API_TITLES[owner]}: connect with {_CONNECT[owner]} to use it"
        else:
            use = (
                f"hosted tools are the Responses API's (cd.connect('openai'), e.g. {_EXAMPLES['responses']}) "
                f"and the Messages API's (cd.connect('anthropic'), e.g. {_EXAMPLES['messages']})"
            )
        raise ValueError(
            f"tools= got {shown}, and this llm speaks the {_API_TITLES['chat']}, which has no hosted tools; "
            f"{use}; or pass a @cd.tool function that does the job"
        )
    if owner is not None and owner != api:
        raise ValueError(
            f"tools= got {shown}, a hosted tool of the {_API_TITLES[owner]}, and this llm speaks the "
            f"{_API_TITLES[api]}: write it in this API's form, e.g. {_EXAMPLES[api]}, or connect with "
            f"{_CONNECT[owner]} to use it as it is"
        )
    logger.info("hosted tool %s is not in conductor's table for the %s API; it is sent as it is", shown, api)


def split_tools(tools: Iterable[Any], api: ApiName) -> tuple[list[Any], tuple[dict[str, Any], ...]]:
    """``tools=`` sorted into the tools conductor runs and the hosted tools' dicts, in their order.

    A dict with a ``type`` other than ``"function"`` / ``"custom"`` is a hosted tool, checked against
    ``api``; a function's schema dict is refused (it has no code to run).
    """
    functions: list[Any] = []
    hosted: list[dict[str, Any]] = []
    for item in tools:
        if not isinstance(item, dict):
            functions.append(item)
            continue
        if item.get("type") in _FUNCTION_TYPES:
            name = item.get("name") or (item.get("function") or {}).get("name") or "?"
            raise ValueError(
                f"tools= got a schema dict for {name!r}, which has no code to run: pass the function itself, "
                "decorated with @cd.tool (its schema is built from the type hints and docstring)"
            )
        check_hosted(item, api)
        hosted.append(copy.deepcopy(item))  # the run's own copy: a later change to the dict does not reach it
    return functions, tuple(hosted)


# Built-in tool calls a Responses request under a budget may make when the caller set no ``max_tool_calls``:
# OpenAI's web search has no per-tool bound, so the request gets one, as an unbounded output gets max tokens.
DEFAULT_MAX_TOOL_CALLS = 5


def search_ceiling(request: dict[str, Any]) -> int:
    """The most web searches ``request`` allows: the ``max_uses`` of Anthropic's web search tool; on the Responses
    API its ``max_tool_calls`` (every built-in call may be a search), set to :data:`DEFAULT_MAX_TOOL_CALLS` when a
    web search is offered without one, so a budget holds the searches before they are billed."""
    tools = request.get("tools") or ()
    anthropic = sum(
        tool["max_uses"]
        for tool in tools
        if isinstance(tool, dict)
        and str(tool.get("type", "")).startswith("web_search_")
        and isinstance(tool.get("max_uses"), int)
        and messages.hosted_kind(tool) == "hosted"
    )
    openai = any(
        isinstance(tool, dict) and str(tool.get("type", "")).startswith("web_search")
        and responses.hosted_kind(tool) == "hosted"
        for tool in tools
    )
    if not openai:
        return anthropic
    if not isinstance(request.get("max_tool_calls"), int):
        logger.info("a web search under a budget: max_tool_calls=%d bounds the searches one response may make "
                    "(pass max_tool_calls= to choose another bound)", DEFAULT_MAX_TOOL_CALLS)
        request["max_tool_calls"] = DEFAULT_MAX_TOOL_CALLS
    return anthropic + request["max_tool_calls"]


__all__ = ["check_hosted", "search_ceiling", "split_tools"]
