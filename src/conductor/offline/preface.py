"""The short sentence a Claude tool-use reply usually opens with.

Real Anthropic replies that call tools mostly start with a text block ("I'll
look up the weather for Beijing and Shanghai.") before the ``tool_use`` blocks:
12 of 14 recorded Claude tool-use responses did. The offline model imitates
that in the Anthropic format, so code that reads ``content[0]`` as the call (or
as the answer) meets the same surprise it would meet against the real API.

The sentence is built from the planned calls (tool names and argument values)
in the question's language; whether there is one, and its wording, are picked
by a number derived from the request and the seed, so the same request always
gets the same bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .language import Language, format_number

__all__ = ["PREFACE_SHARE", "preface", "plan"]

PREFACE_SHARE = (12, 14)  # tool-use replies that open with text, of those recorded
_LOOKUP_VERBS = frozenset({"get", "fetch", "lookup", "read", "load", "retrieve", "check"})
_SEARCH_VERBS = frozenset({"search", "find", "query"})
_MAX_VALUES = 3  # values named per tool before "and 2 more"
_MAX_VALUE_CHARS = 40
_OPENERS = {"en": ("I'll", "Let me", "First, I'll"), "zh": ("我来", "我先", "好的,我来")}


def _value_text(value: Any) -> str | None:
    """A readable argument value: strings as written, numbers as a person writes them; else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return format_number(value)
    if isinstance(value, str) and value.strip():
        text = " ".join(value.split())
        return text if len(text) <= _MAX_VALUE_CHARS else text[: _MAX_VALUE_CHARS - 1] + "…"
    return None


def _main_value(arguments: dict[str, Any] | str) -> str | None:
    """What a call is about: its first string argument, else its first number."""
    if not isinstance(arguments, dict):
        return None
    texts = [_value_text(v) for v in arguments.values() if isinstance(v, str)]
    numbers = [_value_text(v) for v in arguments.values() if not isinstance(v, str)]
    return next((t for t in (*texts, *numbers) if t), None)


def _joined(items: Sequence[str], language: Language) -> str:
    """``A``, ``A and B``, ``A, B and C`` (Chinese: ``A、B和C``)."""
    comma, and_ = ("、", "和") if language == "zh" else (", ", " and ")
    return comma.join(items[:-1]) + and_ + items[-1] if len(items) > 1 else items[0]


def _listed(values: Sequence[str], language: Language) -> str:
    """The values joined, at most three of them named: ``A, B, C and 2 more`` (Chinese: ``A、B、C等5项``)."""
    if len(values) <= _MAX_VALUES:
        return _joined(values, language)
    shown = values[:_MAX_VALUES]
    if language == "zh":
        return f"{'、'.join(shown)}等{len(values)}项"
    return f"{', '.join(shown)} and {len(values) - _MAX_VALUES} more"


def _grouped(calls: Sequence[tuple[str, dict[str, Any] | str]]) -> dict[str, list[str]]:
    """Tool name -> the distinct values its calls are about, in the order the calls come."""
    groups: dict[str, list[str]] = {}
    for name, arguments in calls:
        values = groups.setdefault(name, [])
        value = _main_value(arguments)
        if value is not None and value not in values:
            values.append(value)
    return groups


def _kind(name: str) -> tuple[str, str]:
    """How a tool reads in a sentence: ("lookup", "weather") for get_weather, ("search", ...), or ("call", "")."""
    verb, _, topic = name.partition("_")
    if topic and verb in _LOOKUP_VERBS:
        return "lookup", topic.replace("_", " ")
    if topic and verb in _SEARCH_VERBS:
        return "search", topic.replace("_", " ")
    return "call", ""


def _clause(name: str, values: list[str], language: Language, by_name: bool) -> str:
    """One tool's part of the sentence: "look up the weather for Beijing" or "call get_weather for Beijing"."""
    kind, topic = ("call", "") if by_name else _kind(name)
    if language == "zh":
        about = _listed([f"“{v}”" if kind == "search" else v for v in values], "zh") if values else ""
        if kind == "lookup":
            return f"用 {name} 查一下{about}"
        if kind == "search":
            return f"用 {name} 搜索{about}" if about else f"用 {name} 搜索一下"
        return f"调用 {name},参数是{about}" if about else f"调用 {name}"
    about = _listed([f'"{v}"' if kind == "search" else v for v in values], "en") if values else ""
    tail = f" for {about}" if about else ""
    if kind == "lookup":
        return f"look up the {topic}{tail}"
    if kind == "search":
        return f"search the {topic}{tail}"
    return f"call {name}{tail}"


def _plan(calls: Sequence[tuple[str, dict[str, Any] | str]], language: Language, by_name: bool) -> str:
    clauses = [_clause(name, values, language, by_name) for name, values in _grouped(calls).items()]
    return ",再".join(clauses) if language == "zh" else _joined(clauses, "en")


def plan(calls: Sequence[tuple[str, dict[str, Any] | str]], language: Language) -> str:
    """What a turn making ``calls`` is about to do, as a clause: "look up the weather for Beijing and Shanghai"."""
    return _plan(calls, language, by_name=False) if calls else ""


def preface(calls: Sequence[tuple[str, dict[str, Any] | str]], language: Language, choice: int) -> str:
    """The opening sentence for a turn making ``calls`` (name, arguments), or ``""`` for none.

    ``choice`` is any non-negative number derived from the request and seed: it
    decides whether there is a sentence (12 times in 14), its opener, and
    whether tools are named by what they do or by their name.
    """
    shown, out_of = PREFACE_SHARE
    if not calls or choice % out_of >= shown:
        return ""
    choice //= out_of
    openers = _OPENERS[language]
    opener = openers[choice % len(openers)]
    by_name = (choice // len(openers)) % 2 == 1
    doing = _plan(calls, language, by_name)
    return f"{opener}{doing}。" if language == "zh" else f"{opener} {doing}."

