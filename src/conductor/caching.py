"""Prompt caching, the client's side: what ``cd.connect(..., cache=...)`` asks each API for.

Every request of a tool loop resends the tool definitions, the system prompt and the whole
conversation so far; both providers keep recently seen prompt prefixes and bill them again at
a fraction of the input price. What a request sends for it, by API:

* **Messages** (Anthropic): the top-level ``"cache_control": {"type": "ephemeral"}`` (automatic
  caching: the breakpoint goes on the last cacheable block and moves forward as the conversation
  grows); ``cache="1h"`` adds ``"ttl": "1h"`` (a dearer write, kept an hour instead of 5 minutes).
* **Responses** and **Chat Completions** (OpenAI): caching is automatic for prefixes of 1,024 tokens
  or more; ``"prompt_cache_key"`` routes requests sharing a prefix to the same cache. The key sent
  is a stable one for the run's (system, tools), unless the caller passes ``prompt_cache_key=``.
* ``cache=False`` sends neither.

What each request read from and wrote to the cache comes back in its usage, read per API into
:attr:`Usage.cache_read_tokens <conductor.types.Usage.cache_read_tokens>` and
:attr:`~conductor.types.Usage.cache_write_tokens`, and priced at the model's cache rates
(:mod:`conductor.pricing`).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from typing import Any

from .types import is_provider_model

CACHE_CHOICES: tuple[Any, ...] = (True, False, "5m", "1h")
CacheSetting = bool | str


def check_cache(value: Any) -> CacheSetting:
    """``cache=`` itself, or an error naming the choices."""
    if isinstance(value, bool) or value in ("5m", "1h"):
        return value
    raise ValueError(
        f"cache={value!r} is not a cache setting; choose one of True (the default: cache for 5 minutes), "
        "False (send no caching fields), '5m' or '1h' (Anthropic keeps the cache an hour, at a dearer write)"
    )


def cache_key(system: str | None, tool_names: Iterable[str]) -> str:
    """A stable ``prompt_cache_key`` for a run's (system, tools): the same instructions and tools, the same key."""
    text = (system or "") + "\x00" + "\x00".join(tool_names)
    return "conductor-" + hashlib.sha256(text.encode()).hexdigest()[:16]


def anthropic_cache_control(cache: CacheSetting) -> dict[str, str] | None:
    """The top-level ``cache_control`` of a Messages request, or ``None`` when caching is off."""
    if cache is False:
        return None
    return {"type": "ephemeral", "ttl": "1h"} if cache == "1h" else {"type": "ephemeral"}


def cache_write_ttl(request: dict[str, Any]) -> str | None:
    """The longest cache a request may write at a premium: ``"1h"``, ``"5m"``, or None when it marks nothing.

    Only Anthropic bills a write above the input price, and only where a request carries a
    ``cache_control`` mark (top level, or on a system block, a tool or a message block); OpenAI's
    automatic caching writes at no extra charge.
    """
    ttls = {mark.get("ttl", "5m") for mark in _cache_marks(request)}
    return "1h" if "1h" in ttls else ("5m" if ttls else None)


def _cache_marks(value: Any) -> Iterable[dict[str, Any]]:
    if isinstance(value, dict):
        mark = value.get("cache_control")
        if isinstance(mark, dict):
            yield mark
        for key, item in value.items():
            if key != "cache_control" and isinstance(item, (dict, list)):
                yield from _cache_marks(item)
    elif isinstance(value, list):
        for item in value:
            yield from _cache_marks(item)


# Extended (24-hour) prompt cache retention, ``prompt_cache_retention="24h"`` (OpenAI's prompt caching guide, "Prompt
# cache retention", as mirrored on Azure's prompt caching page, 2026): offered on these models (by exact name, a
# dated snapshot included), and on gpt-5.5 and every later model, which take nothing else (their docstring in
# openai 3.54: "For gpt-5.5, gpt-5.5-pro, and future models, only 24h is supported").
RETENTION_24H_MODELS: tuple[str, ...] = (
    "gpt-4.1", "gpt-5", "gpt-5-codex", "gpt-5.1", "gpt-5.1-chat-latest", "gpt-5.1-codex", "gpt-5.1-codex-mini",
    "gpt-5.1-codex-max", "gpt-5.2", "gpt-5.3-codex", "gpt-5.4",
)
_SNAPSHOT = re.compile(r"-\d{4}-\d{2}-\d{2}$")
_VERSION = re.compile(r"^gpt-(\d+)(?:\.(\d+))?")


def only_24h(model: str) -> bool:
    """Does ``model`` take only 24-hour retention (gpt-5.5 and later)?"""
    match = _VERSION.match(model)
    return bool(match) and (int(match[1]), int(match[2] or 0)) >= (5, 5)


def offers_24h(model: str) -> bool | None:
    """True when ``model`` offers 24-hour prompt cache retention, False when an OpenAI model is known not to, None
    when the name is of no OpenAI family (a compatible server's model: the server decides)."""
    if only_24h(model) or _SNAPSHOT.sub("", model) in RETENTION_24H_MODELS:
        return True
    return False if is_provider_model("responses", model) else None


def check_retention(options: dict[str, Any], model: str) -> None:
    """Refuse, before any request, a ``prompt_cache_retention`` the model does not take (the API answers a 400)."""
    retention = options.get("prompt_cache_retention")
    if retention == "24h" and offers_24h(model) is False:
        offered = ", ".join(RETENTION_24H_MODELS)
        raise ValueError(
            f"prompt_cache_retention='24h': {model} does not offer 24-hour prompt cache retention (the API would "
            f"refuse the request with a 400). Models that do: {offered}, and gpt-5.5 and later. Leave the option out "
            f"(the cache then lasts minutes, as on every model from gpt-4o on), or connect to one of those models"
        )
    if retention == "in_memory" and only_24h(model):
        raise ValueError(
            f"prompt_cache_retention='in_memory': {model} takes only 24-hour retention (gpt-5.5 and later models "
            f"keep cached prefixes up to 24 hours and refuse 'in_memory' with a 400). Leave the option out, or pass "
            f"'24h'; for in-memory caching only, connect to an older model such as gpt-5.4"
        )

