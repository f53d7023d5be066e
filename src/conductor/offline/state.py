"""What the offline model keeps between requests, as a real API server does.

The Responses API stores a response unless the request says ``store: false``,
so a later request can continue it with ``previous_response_id`` (its input and
output become the new request's context) or name its items by id alone. Both
reasoning APIs also know which reasoning each call of a reasoning model followed
(a ``reasoning`` item, a ``thinking`` block), and refuse a replay that drops it,
whether or not the response was stored.

Memory is bounded: the oldest responses are forgotten first, as a real server's
retention would eventually do, so a long soak test cannot grow without limit.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ResponseStore", "ServerState"]

DEFAULT_CAPACITY = 2048  # responses kept, and eight times as many calls paired with their reasoning
PAIRS_PER_RESPONSE = 8


class ResponseStore:
    """Stored responses, the ids of their items, and which reasoning each call followed. Thread-safe."""

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        self._capacity = capacity
        self._lock = threading.Lock()
        self._responses: OrderedDict[str, tuple[dict[str, Any], ...]] = OrderedDict()
        self._items: dict[str, str] = {}  # item id -> id of the stored response holding it
        self._reasoning: OrderedDict[str, str] = OrderedDict()  # call's item id -> the reasoning it followed

    def keep(self, response_id: str, context: Sequence[dict[str, Any]], output: Sequence[dict[str, Any]]) -> None:
        """Store a response: the whole context it answered, then its output items."""
        with self._lock:
            items = (*context, *output)
            self._responses[response_id] = items
            self._responses.move_to_end(response_id)
            # A stored response persists its input items too: they can be named by id later.
            self._items.update((item["id"], response_id) for item in items if item.get("id"))
            while len(self._responses) > self._capacity:
                forgotten, old = self._responses.popitem(last=False)
                for item in old:
                    if self._items.get(item.get("id", "")) == forgotten:
                        del self._items[item["id"]]

    def context(self, response_id: str) -> tuple[dict[str, Any], ...] | None:
        """The items a request continuing ``response_id`` starts from, or None if it was not stored."""
        with self._lock:
            return self._responses.get(response_id)

    def holds_item(self, item_id: str) -> bool:
        """Is an item with this id part of a stored response?"""
        with self._lock:
            return item_id in self._items

    def pair(self, call_item_id: str, reasoning_id: str) -> None:
        """Remember that a call (a function_call item, a tool_use block) followed some reasoning (kept even
        when the response is not stored)."""
        with self._lock:
            self._reasoning[call_item_id] = reasoning_id
            while len(self._reasoning) > PAIRS_PER_RESPONSE * self._capacity:
                self._reasoning.popitem(last=False)

    def reasoning_for(self, call_item_id: str) -> str | None:
        """The reasoning a call needs before it when sent back, if the model made any."""
        with self._lock:
            return self._reasoning.get(call_item_id)


@dataclass(frozen=True)
class ServerState:
    """What the wire modules may consult besides the request: the model's kind, its key, its memory.

    ``key`` signs what the model hands out and must get back unchanged
    (Anthropic thinking signatures, OpenAI encrypted reasoning): one key per
    seed, as one account's organization.
    """

    reasoning: bool
    key: bytes
    store: ResponseStore = field(default_factory=ResponseStore)
