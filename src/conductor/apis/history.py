"""Earlier turns in any API's format, read into the neutral conversation and checked.

``history=`` takes ``result.messages`` of an earlier run (of any API), dicts in any
API's format, the SDKs' own message objects, or neutral messages, mixed. Each API's
module reads its own entries (:meth:`~.base.WireApi.read_history`); this module checks
what they make: every tool call answered once, right after its turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..types import Message, SystemMessage, ToolResult, Turn, UserMessage
from .chat import ChatApi
from .messages import MessagesApi
from .responses import SERVER_ITEMS, ResponsesApi

# The more specific formats first: Chat Completions reads every role-based message left.
_READERS = (ResponsesApi(), MessagesApi(), ChatApi())

NEUTRAL_TYPES = (SystemMessage, UserMessage, Turn, ToolResult)
_HISTORY_HELP = (
    "history= takes the messages of an earlier result (result.messages or result.conversation), "
    "Responses input items (messages, function_call, function_call_output, and the server's items such as "
    "tool_search_output or compaction, as received), Chat Completions dicts (roles system, user, assistant "
    "with tool_calls, tool) or Anthropic Messages dicts (content blocks text, tool_use, tool_result, thinking, "
    "and the server's blocks such as server_tool_use or compaction, as received)"
)


class _History:
    """Reads history entries one by one, keeping the call ids still to be answered."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.open: dict[str, tuple[str, int]] = {}  # unanswered call id -> (tool name, index of its turn)
        self.answered: set[str] = set()

    def error(self, index: int, problem: str, fix: str) -> ValueError:
        return ValueError(f"history[{index}] {problem}; {fix}")

    def add(self, index: int, message: Message, *, joins: bool = False) -> None:
        """Add one message; ``joins``: a Turn that continues the last one (Responses sends a turn as several items)."""
        if isinstance(message, ToolResult):
            self._answer(index, message)
            return
        if joins and isinstance(message, Turn) and self.messages and isinstance(self.messages[-1], Turn):
            self._open(index, message)
            last = self.messages[-1]
            # The items keep the turn's order (a search, then the call of what it loaded) to go back as they came.
            self.messages[-1] = replace(
                last, text_blocks=last.text_blocks + message.text_blocks, tool_calls=last.tool_calls + message.tool_calls,
                items=last.items + message.items, origin=last.origin or message.origin,
            )
            return
        self._check_all_answered(index)
        self._open(index, message)
        self.messages.append(message)

    def _open(self, index: int, message: Message) -> None:
        if isinstance(message, Turn):
            for call in message.tool_calls:
                if not call.id or call.id in self.answered or call.id in self.open:
                    raise self.error(
                        index,
                        f"has a tool call with {'an empty' if not call.id else 'a repeated'} id {call.id!r}",
                        "give every call of the history its own id, used again by its result",
                    )
                self.open[call.id] = (call.name, index)

    def _answer(self, index: int, result: ToolResult) -> None:
        if result.call_id not in self.open:
            why = "was already answered" if result.call_id in self.answered else "no earlier assistant message made"
            raise self.error(
                index,
                f"answers tool call {result.call_id!r}, which {why}",
                "drop the result, or keep the assistant message that made the call before it",
            )
        name, _ = self.open.pop(result.call_id)
        self.answered.add(result.call_id)
        self.messages.append(result if result.name else ToolResult(result.call_id, name, result.content, result.is_error))

    def _check_all_answered(self, index: int | None) -> None:
        if not self.open:
            return
        call_id, (name, turn_index) = next(iter(self.open.items()))
        where = f"before history[{index}]" if index is not None else "by the end of the history"
        raise self.error(
            turn_index,
            f"has tool call {call_id!r} ({name}) with no result {where}",
            "add its tool result right after that assistant message, or drop the message",
        )

    def finish(self) -> list[Message]:
        self._check_all_answered(None)
        return self.messages


def history_to_neutral(history: Sequence[Any] | None) -> list[Message]:
    """Earlier turns in neutral form, checked: every tool call answered once, right after its turn.

    Entries may be neutral messages, dicts in any API's format, or the SDK's objects
    (``response.choices[0].message``, the items of ``response.output``), mixed. Raises
    ``ValueError`` naming the entry's index and the fix.
    """
    if history is None:
        return []
    if isinstance(history, (str, dict)) or not isinstance(history, Sequence):
        raise ValueError(f"history must be a list of messages, got {type(history).__name__}; {_HISTORY_HELP}")
    reader = _History()
    after_output = False  # the entry before was a Responses output item: a turn may go on
    for index, entry in enumerate(history):
        messages, output_item = _entry_messages(index, entry)
        for message in messages:
            reader.add(index, message, joins=after_output and output_item)
        after_output = output_item
    return reader.finish()


def _as_dict(block: Any) -> Any:
    return block.model_dump(mode="json", exclude_none=True) if hasattr(block, "model_dump") else block


def _entry_messages(index: int, entry: Any) -> tuple[list[Message], bool]:
    """The entry's neutral messages, and whether it is a Responses output item (a part of a turn)."""
    if isinstance(entry, NEUTRAL_TYPES):
        return [entry], False
    if hasattr(entry, "model_dump"):  # an SDK object, e.g. response.choices[0].message appended as is
        entry = entry.model_dump(mode="json", exclude_none=True)
    if isinstance(entry, dict) and isinstance(entry.get("content"), list):
        # Anthropic's guide appends {"role": "assistant", "content": response.content}: SDK blocks in a dict.
        entry = {**entry, "content": [_as_dict(block) for block in entry["content"]]}
    if isinstance(entry, dict) and entry.get("type") is not None:
        messages = _READERS[0].read_history(index, entry)
        if messages is not None:
            output_item = (
                entry["type"] in ("function_call", "reasoning", *SERVER_ITEMS) or entry.get("role") == "assistant"
            )
            return messages, output_item
    role = entry.get("role") if isinstance(entry, dict) else None
    if role not in ("system", "developer", "user", "assistant", "tool"):
        raise ValueError(
            f"history[{index}] must be a message with role 'system', 'user', 'assistant' or 'tool' "
            f"(e.g. {{'role': 'user', 'content': 'Hi'}}), got {entry!r}; {_HISTORY_HELP}"
        )
    if "content" not in entry and not (role == "assistant" and entry.get("tool_calls")):
        raise ValueError(f"history[{index}] ({role}) has no 'content'; add the message's text as 'content'")
    for reader in _READERS:
        messages = reader.read_history(index, entry)
        if messages is not None:
            return messages, False
    raise ValueError(f"history[{index}] is in no format history= reads; {_HISTORY_HELP}")
