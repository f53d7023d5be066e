"""How the offline model words a learner's own tools, their results and what a question lacks.

A result's keys and a tool's parameters are written for code (``local_time``, ``weight_kg``,
``from_currency``); an answer says them as words ("local time", "weight", "from currency"; in
Chinese 当地时间, 重量, 原货币), with a unit the key carries put after its value ("1250 g").
A nested dict or a list in a result is said as a list, one item a line. A decline says in one
sentence what the question lacks; a question no offered tool fits gets one honest sentence.
How to connect a real model is said to the learner once per process, as a ``conductor:`` log
line, never inside the model's answer.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any

from ..wording import field, label, listed, result_words, unit_of  # the library's words; named here too
from .arguments import Parameter
from .language import Language, say

__all__ = ["call_words", "result_words", "field", "label", "unit_of", "listed", "decline", "not_mine", "hint_real_model", "REAL_MODEL_HINT"]

logger = logging.getLogger("conductor.offline")

# Two lines, each within a notebook's 100 columns once "conductor: " is put before the first.
REAL_MODEL_HINT = (
    "the offline stand-in follows simple rules; for real answers, use a real model:\n"
    '  cd.connect("openai") (OPENAI_API_KEY) or cd.connect("anthropic") (ANTHROPIC_API_KEY)'
)
_hinted = False

def call_words(name: str, arguments: dict[str, Any], language: Language, raw: str = "") -> str:
    """A call's arguments as words ("amount 250, from currency USD, to currency EUR"); the text it was sent
    with when it is not a JSON object."""
    if not arguments:
        return raw.strip() if raw.strip() not in ("", "{}") else ""
    return say(language, ",", ", ").join(field(key, _short(value), language).replace("\n", " ")
                                         for key, value in arguments.items())


def _short(value: Any) -> Any:
    """An argument as a sentence can hold it: a long text cut to its first words, no final full stop."""
    if not isinstance(value, str):
        return value
    value = value.strip().rstrip(".。!?!?")
    return value if len(value) <= 40 else value[:37].rstrip() + "…"


def decline(tool_name: str, missing: Sequence[Parameter], language: Language, description: str = "") -> str:
    """One sentence asking for what the question lacks, as a person would ask (see ``replies.ask_for``): the
    missing values said as words, never the tool's or the parameters' identifiers."""
    from .replies import ask_for

    return ask_for(missing, language, description)


def _with_unit(name: str, language: Language) -> str:
    """A parameter as words with the unit its name ends with: "weight_kg" -> "weight in kg" / 重量(kg)."""
    bare, unit = unit_of(name)
    if not unit:
        return label(name, language)
    return say(language, f"{label(bare, language)}({unit})", f"{label(bare, language)} in {unit}")


def _chinese_list(names: Sequence[str]) -> str:
    """Names in a Chinese sentence: "城市和日期"; an English name set off by spaces ("知道 symbol,")."""
    text = "和".join(names) if len(names) < 3 else "、".join(names[:-1]) + "和" + names[-1]
    text = re.sub(r"(?<=[\u4e00-\u9fff])(?=[A-Za-z])|(?<=[A-Za-z])(?=[\u4e00-\u9fff])", " ", text)
    return (" " + text) if text[:1].isascii() else text


def not_mine(tool_names: Sequence[str], tools_allowed: bool, language: Language) -> str:
    """The one honest sentence for a question no offered tool fits (or when no tool may be called)."""
    from .replies import cannot_help

    return cannot_help(language, tools_allowed=tools_allowed, any_tools=bool(tool_names))


def hint_real_model() -> None:
    """Tell the learner, once per process, how to get a real model (a ``conductor:`` line in a notebook)."""
    global _hinted
    if not _hinted:
        _hinted = True
        logger.warning(REAL_MODEL_HINT)
