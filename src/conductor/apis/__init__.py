"""The wire APIs conductor speaks, one module each: :mod:`.chat`, :mod:`.messages`.

Everything an API owns lives in its module: rendering the neutral conversation
into a request, sending it whole or streamed through the official SDK, reading
the response (and a stream) back into a neutral turn, its stop reasons and usage,
and reading earlier turns in its format. The round loop and the drivers use the
one interface of :class:`~.base.WireApi`, the same for every API.
"""

from __future__ import annotations

from .base import ApiName, Finished, RequestSettings, ToolChoice, WireApi, tool_choice_from
from .chat import ChatApi
from .history import history_to_neutral
from .messages import MessagesApi

__all__ = [
    "ApiName",
    "ChatApi",
    "Finished",
    "MessagesApi",
    "RequestSettings",
    "ToolChoice",
    "WireApi",
    "api_for",
    "history_to_neutral",
    "tool_choice_from",
]


def api_for(api: ApiName) -> WireApi:
    """The module's interface for ``api``."""
    return ChatApi() if api == "openai" else MessagesApi()
