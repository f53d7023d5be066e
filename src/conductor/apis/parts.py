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
``allowed_tools`` lists the program tool); the others after. The loop (:mod:`conductor.rounds`) asks an API for a
request and gets one with every part in it.

A new feature touches its own module and the API modules that carry it: its ``llm.run`` option goes in
:data:`RUN_OPTIONS` (``providers`` reads every option listed there into ``RequestSettings.features``), its part's
name in :data:`REQUEST_PARTS` (or :data:`TOOL_PARTS`), and the part itself in each carrying API's ``PARTS``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, NamedTuple

from ..types import Message
from .base import ApiName, RequestSettings

TOOL_PARTS: tuple[str, ...] = ("deferred", "program_tool")
REQUEST_PARTS: tuple[str, ...] = ("cache", "compaction", "container")

RUN_OPTIONS: dict[str, Callable[[Any, ApiName, str], Any]] = {}
"""A feature's ``llm.run`` option -> the check that turns the value given into the setting its parts read
(``draft.settings.features[option]``), for the API and model of the run; it raises ``ValueError`` naming the fix.
(The features the course teaches have settings of their own on :class:`~.base.RequestSettings`.)"""


class Draft(NamedTuple):
    """What a part reads besides the request it adds to (a tuple: made for every request, it costs little)."""

    settings: RequestSettings
    tools_allowed: bool
    conversation: Sequence[Message] = ()  # the run's neutral conversation (a program's container is in it)
    openai_fields: bool = True  # the server takes OpenAI's own fields (see conductor.apis.base.takes_openai_fields)


Part = Callable[[dict[str, Any], Draft], None]


def add_parts(request: dict[str, Any], parts: Mapping[str, Part], draft: Draft, stage: Literal["tools", "request"]
              ) -> None:
    """Let each part of ``stage`` that the API carries (``parts``) add to ``request``, in order."""
    for name in TOOL_PARTS if stage == "tools" else REQUEST_PARTS:
        part = parts.get(name)
        if part is not None:
            part(request, draft)


def read_features(options: dict[str, Any], api: ApiName, model: str) -> dict[str, Any]:
    """Take each option of :data:`RUN_OPTIONS` out of ``options`` (an ``llm.run`` call's): its checked setting."""
    return {name: check(options.pop(name), api, model) for name, check in RUN_OPTIONS.items() if name in options}


__all__ = ["Draft", "Part", "REQUEST_PARTS", "RUN_OPTIONS", "TOOL_PARTS", "add_parts", "read_features"]
