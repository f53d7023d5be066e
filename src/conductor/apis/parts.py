"""The one path by which a run's request features add their part to a request.

An API module builds the plain request: the model, the conversation, the system text, the function tools, the
hosted tools and the tool choice. Each feature the run asked for then adds its part, in that API's own form,
through :func:`add_parts`, in the order of :data:`TOOL_PARTS` and :data:`REQUEST_PARTS`:

- ``deferred`` (tool search, :mod:`conductor.search`): the tools a search loads go out with ``defer_loading``;
- ``program_tool`` (:mod:`conductor.programs`): the program tool, and ``allowed_callers`` on each tool a program
  may call (with its ``output_schema`` on Responses);
- ``cache`` (:mod:`conductor.caching`): the prompt cache's mark (Messages ``cache_control``) or key (OpenAI's
  ``prompt_cache_key``);
- ``compaction`` (:mod:`conductor.context`): the API's own compaction (``context_management``);
- ``container`` (:mod:`conductor.programs`): on Messages, the container a program of the run goes on in.

Each API module lists the parts it carries in its ``PARTS`` table (part -> function); an API that does not carry
one has no entry for it. The tool parts come before the tool choice, which may name what they add (Responses
``allowed_tools`` lists the program tool). The loop (:mod:`conductor.rounds`) asks an API for a request and gets
one with every part in it: a new feature adds its part here and in the API modules that carry it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from ..types import Message
from .base import RequestSettings

TOOL_PARTS: tuple[str, ...] = ("deferred", "program_tool")
REQUEST_PARTS: tuple[str, ...] = ("cache", "compaction", "container")


class Draft(NamedTuple):
    """What a part reads besides the request it adds to (a tuple: made for every request, it costs little)."""

    settings: RequestSettings
    tools_allowed: bool
    conversation: Sequence[Message] = ()  # the run's neutral conversation (a program's container is in it)
    openai_fields: bool = True  # the server takes OpenAI's own fields (see conductor.apis.base.takes_openai_fields)


Part = Callable[[dict[str, Any], Draft], None]


def add_parts(request: dict[str, Any], parts: Mapping[str, Part], draft: Draft, order: Sequence[str]) -> None:
    """Let each part of ``order`` that the API carries (``parts``) add to ``request``, in that order."""
    for name in order:
        part = parts.get(name)
        if part is not None:
            part(request, draft)


__all__ = ["Draft", "Part", "REQUEST_PARTS", "TOOL_PARTS", "add_parts"]
