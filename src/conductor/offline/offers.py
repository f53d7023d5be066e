"""What a model does not offer, refused as the real API refuses it: 24-hour prompt cache retention on a model
without it (or ``in_memory`` on gpt-5.5 and later), and the hosted tool search on a model that has none.

The tables are the library's (:mod:`conductor.caching`, :mod:`conductor.search`): one source for both sides.
OpenAI's refusal of ``in_memory`` on gpt-5.5 is quoted as reported by users of the API; the other texts are the
stand-in's own, in the style of the APIs' refusals of a tool a model lacks (docs/offline_model.md says so).
"""

from __future__ import annotations

from typing import Any

from ..caching import offers_24h, only_24h
from ..search import is_hosted_search, lacks_hosted_search
from .contract import InvalidRequest


def check_retention(body: dict[str, Any]) -> None:
    """``prompt_cache_retention`` the body's model does not take (Responses and Chat Completions)."""
    model, retention = str(body.get("model", "")), body.get("prompt_cache_retention")
    if retention == "24h" and offers_24h(model) is False:
        raise InvalidRequest(
            f"prompt_cache_retention '24h' is not supported with model '{model}'.", param="prompt_cache_retention",
        )
    if retention == "in_memory" and only_24h(model):
        raise InvalidRequest(
            "This model is compatible only with 24h extended prompt caching.", param="prompt_cache_retention",
        )


def check_search(api: str, body: dict[str, Any]) -> None:
    """The hosted tool search on a model of the provider's that does not have it (Responses and Messages)."""
    model = str(body.get("model", ""))
    tool = next((t for t in body.get("tools") or [] if is_hosted_search(api, t)), None)
    if tool is None or not lacks_hosted_search(api, model):
        return
    if api == "messages":
        raise InvalidRequest(f"'{tool.get('type')}' is not supported on model '{model}'.")
    raise InvalidRequest(f"Tool 'tool_search' is not supported with model '{model}'.", param="tools")
