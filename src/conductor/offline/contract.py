"""The request rules of the real APIs, enforced by the offline model.

Code that works offline must work online, so the offline model rejects what
OpenAI and Anthropic reject, with HTTP 400 and the error text the real API
sends (collected from real error reports). Only rules that tool-orchestration
code can break are checked; everything else is accepted as the APIs accept it.

Each wire module (:mod:`.wire.chat`, :mod:`.wire.messages`, :mod:`.wire.responses`)
holds its API's rules beside its parsing; this module holds what they share.
"""

from __future__ import annotations

from typing import Any


__all__ = ["InvalidRequest"]


class InvalidRequest(Exception):
    """A request the real API would reject: HTTP 400, or the status it uses (404 for an unknown item)."""

    def __init__(
        self,
        message: str,
        *,
        param: str | None = None,
        code: str | None = None,
        status: int = 400,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.param = param
        self.code = code
        self.status = status
        self.details = details  # the error's machine-readable details, where the API sends some
