"""A converter's bare number said as a person says it: "72 °F is 22.22 °C", "37 °C 等于 98.6 °F".

A learner's converter returns a bare number; its call holds the amount and the two units (``value``,
``from_unit``, ``to_unit``, or any pair of parameters named from/to, source/target). The answer says the
amount with its unit, then the result with its own, never the parameters' names.
"""

from __future__ import annotations

from typing import Any

from .arguments import name_words
from .language import Language, format_number, say

__all__ = ["conversion", "unit_words"]

_SIGNS = {"celsius": "°C", "fahrenheit": "°F", "kelvin": "K"}
_CHINESE = {"kilometers": "公里", "kilometres": "公里", "miles": "英里", "kilograms": "公斤", "pounds": "磅",
            "meters": "米", "metres": "米", "feet": "英尺", "inches": "英寸", "grams": "克", "ounces": "盎司",
            "liters": "升", "litres": "升", "gallons": "加仑"}
_FROM = frozenset({"from", "source", "src", "input", "original"})
_TO = frozenset({"to", "target", "dest", "destination", "output", "into"})


def unit_words(unit: str, language: Language) -> str:
    """A unit as written after a number: celsius -> "°C", kilometers -> "kilometers" / 公里."""
    key = unit.casefold()
    if key in _SIGNS:
        return _SIGNS[key]
    return _CHINESE.get(key, unit) if language == "zh" else unit


def _joined(number: str, unit: str) -> str:
    return f"{number}{'' if unit.startswith('%') else ' '}{unit}"


def conversion(arguments: dict[str, Any], result: Any, language: Language) -> str:
    """The sentence for a conversion's result, or "" when the call is not a conversion."""
    if not isinstance(result, (int, float)) or isinstance(result, bool):
        return ""
    sides: dict[str, str] = {}
    amounts = []
    for name, value in arguments.items():
        words = {w.lower() for w in name_words(name)}
        if isinstance(value, str) and words & _FROM:
            sides["from"] = value
        elif isinstance(value, str) and words & _TO:
            sides["to"] = value
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            amounts.append(value)
    if set(sides) != {"from", "to"} or len(amounts) != 1:
        return ""
    before = _joined(format_number(amounts[0]), unit_words(sides["from"], language))
    after = _joined(format_number(result), unit_words(sides["to"], language))
    return say(language, f"{before} 等于 {after}", f"{before} is {after}")
