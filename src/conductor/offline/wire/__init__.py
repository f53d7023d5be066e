"""The offline model's side of each wire API: one module per API, each owning its path.

A module parses a request body into the neutral :class:`~..conversation.Conversation`,
checks it against the real API's rules (:func:`check`, with the real 400 texts), and
renders the model's :class:`~..model.Completion` as that API's JSON or SSE events, with
its id shapes, error bodies and fault responses. :class:`~..model.OfflineModel` routes by
path and calls the same functions on every module, so a new API is a new module here.
Each function that may need more than the request gets the model's
:class:`~..state.ServerState` (reasoning or not, its signing key, stored responses).
"""

from __future__ import annotations

from . import chat, messages, responses

WIRES = (chat, responses, messages)

__all__ = ["WIRES", "chat", "messages", "responses"]
