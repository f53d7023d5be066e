"""The wire APIs conductor speaks, one module each: :mod:`.responses`, :mod:`.chat`, :mod:`.messages`.

Everything an API owns lives in its module: rendering the neutral conversation
into a request, sending it whole or streamed through the official SDK, reading
the response (and a stream) back into a neutral turn, its stop reasons and usage,
and reading earlier turns in its format. The round loop and the drivers use the
one interface of :class:`~.base.WireApi`, the same for every API.
"""

from __future__ import annotations

from typing import Any

from .base import API_ALIASES, API_NAMES, ApiName, Finished, RequestSettings, ToolChoice, WireApi, tool_choice_from
from .chat import ChatApi
from .history import history_to_neutral
from .messages import MessagesApi
from .responses import ResponsesApi

__all__ = [
    "API_ALIASES",
    "API_NAMES",
    "ApiName",
    "ChatApi",
    "Finished",
    "MessagesApi",
    "RequestSettings",
    "ResponsesApi",
    "ToolChoice",
    "WireApi",
    "api_for",
    "history_to_neutral",
    "tool_choice_from",
]


_APIS: dict[str, type] = {"responses": ResponsesApi, "chat": ChatApi, "messages": MessagesApi}


def api_name(api: str) -> ApiName:
    """``api`` as one of :data:`API_NAMES` (the older names "openai" and "anthropic" accepted)."""
    name = API_ALIASES.get(api, api)
    if name not in _APIS:
        raise ValueError(f"unknown api {api!r}; choose one of: {', '.join(API_NAMES)}")
    return name  # type: ignore[return-value]


def api_for(api: str, base_url: Any = None) -> WireApi:
    """The interface of the API named ``api``, for requests to ``base_url`` (None: the provider's own server).

    Only the OpenAI APIs look at it: OpenAI-compatible servers take fewer fields than OpenAI's own.
    """
    name = api_name(api)
    return _APIS[name]() if name == "messages" else _APIS[name](base_url)
