"""Documented formats and units: a question's values said the way the tool asks for them.

A learner's tool documents what it takes: a date as ``YYYY-MM-DD``, a start time on the 24-hour
clock (``HH:MM``), an ISO 8601 date and time, a duration in the unit its name ends with
(``duration_minutes``), an amount of water in ``ml``, an id written with a space (``e.g. "UA 919"``).
People say those values their own way: "March 9, 2026", "2026年3月14日", "3pm", "下午3点半",
"for 2 hours", "1.5 litres", "UA 919". Before the arguments are read (see ``arguments.fill``),
:func:`prepare` rewrites such a phrase of the question into the form the tool documents, for that
tool only:

* dates and times are parsed with ``dateparser`` (English and Chinese, no network: its language data
  ships with it); a Chinese time of day (下午3点半) is first said with am/pm for it;
* durations and quantities are converted to the unit the parameter names, when the tool has no
  parameter of the question's own unit ("2 hours" -> "120 minutes" for ``duration_minutes``);
* an id of letters, a space and digits stays whole ("UA 919" is read as one value, then sent as written).

After reading, :func:`conforms` tells whether a value meets its parameter's documented format: a
value that does not (a date the library could not read) is never sent; the parameter is asked for.
"""

from __future__ import annotations

import logging
import re
from datetime import datetime
from functools import lru_cache
from typing import Any

from ..wording import name_words
from .numbers import with_digits
from .parameters import Parameter, parameters_of
from .language import language_of
from ..types import ToolSpec

__all__ = ["documented_format", "prepare", "conforms", "restored", "spaced_ids", "normal_date", "normal_time"]

logger = logging.getLogger(__name__)

# -- which format a parameter documents ---------------------------------------------------------------


def documented_format(parameter: Parameter) -> str | None:
    """``"datetime"``, ``"date"`` or ``"time"`` when the schema or description documents one, else None."""
    declared = str(parameter.schema.get("format", ""))
    described = parameter.description.upper()
    if declared == "date-time" or "YYYY-MM-DDTHH" in described or (
            "ISO 8601" in described and re.search(r"\bTIME\b", described) and "YYYY-MM-DD" in described):
        return "datetime"
    if declared == "date" or "YYYY-MM-DD" in described:
        return "date"
    if declared == "time" or "HH:MM" in described or "24-HOUR" in described or "24 HOUR" in described:
        return "time"
    return None


_SHAPES = {"date": re.compile(r"\d{4}-\d{2}-\d{2}"), "time": re.compile(r"\d{2}:\d{2}"),
           "datetime": re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")}


def conforms(parameter: Parameter, value: Any) -> bool:
    """Does ``value`` meet the parameter's documented format (and pattern)? True when none is documented."""
    if not isinstance(value, str):
        return True
    kind = documented_format(parameter)
    if kind is not None and not _SHAPES[kind].fullmatch(value):
        return False
    pattern = parameter.schema.get("pattern")
    return not isinstance(pattern, str) or re.search(pattern, value) is not None


# -- dates and times, read with dateparser ----------------------------------------------------------------

_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_DATE_PHRASES = re.compile(
    rf"\b{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?\b(?![:.]\d)"
    rf"|\b\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH}(?:,?\s+\d{{4}})?\b"
    r"|(?:\d{4}年)?\d{1,2}月\d{1,2}[日号]"
    r"|\b\d{1,2}/\d{1,2}/\d{4}\b",
    re.IGNORECASE,
)
_ISO_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
_CLOCK = re.compile(r"\b\d{1,2}(?::\d{2})?\s?(?:[ap]\.?m\b\.?)|\bnoon\b|\bmidnight\b|\b\d{1,2}:\d{2}\b(?!:)",
                    re.IGNORECASE)
_CHINESE_CLOCK = re.compile(r"(早上|上午|中午|下午|晚上|傍晚|凌晨)?(\d{1,2})点(?:(半)|(\d{1,2})分|整)?")
_AFTERNOON = ("下午", "晚上", "傍晚", "中午")


@lru_cache(maxsize=512)
def normal_date(phrase: str) -> str | None:
    """``YYYY-MM-DD`` for a date as people write it (English or Chinese), or None when it is not one."""
    import dateparser  # loaded on first use: it takes a moment, and most questions hold no date

    settings = {"PREFER_DATES_FROM": "future", "REQUIRE_PARTS": ["day", "month"], "DATE_ORDER": "MDY"}
    chinese = language_of(phrase) == "zh" or "年" in phrase or "月" in phrase
    parsed = dateparser.parse(phrase, languages=["zh", "en"] if chinese else ["en"], settings=settings)
    return parsed.strftime("%Y-%m-%d") if parsed else None


@lru_cache(maxsize=512)
def normal_time(phrase: str) -> str | None:
    """``HH:MM`` on the 24-hour clock for a time of day ("3pm", "7:45 p.m.", "下午3点半"), or None."""
    import dateparser

    match = _CHINESE_CLOCK.fullmatch(phrase)
    if match:  # said with am/pm for the parser: 下午3点半 -> "3:30 pm"
        part, hour, half, minute = match.groups()
        minutes = 30 if half else int(minute or 0)
        hour_ = int(hour)
        if part in _AFTERNOON and hour_ < 12 and not (part == "中午" and hour_ >= 11):
            phrase = f"{hour_}:{minutes:02d} pm"
        elif part is not None or hour_ > 12:
            phrase = f"{hour_}:{minutes:02d}" + ("" if hour_ > 12 else " am")
        else:
            phrase = f"{hour_}:{minutes:02d}"
    parsed = dateparser.parse(phrase.replace(".", ""), languages=["en"])
    return parsed.strftime("%H:%M") if parsed else None


# -- durations and quantities in the parameter's unit ---------------------------------------------------------

# Each unit as (dimension, size in the dimension's base unit), by the words people write and parameters end with.
_UNITS: dict[str, tuple[str, float]] = {
    **dict.fromkeys(("minute", "minutes", "min", "mins", "分钟"), ("time", 60.0)),
    **dict.fromkeys(("hour", "hours", "hr", "hrs", "h", "小时", "个小时", "钟头", "个钟头"), ("time", 3600.0)),
    **dict.fromkeys(("day", "days", "天"), ("time", 86400.0)),
    **dict.fromkeys(("week", "weeks", "周", "个星期", "星期"), ("time", 604800.0)),
    **dict.fromkeys(("second", "seconds", "sec", "secs", "s", "秒"), ("time", 1.0)),
    **dict.fromkeys(("ml", "millilitre", "millilitres", "milliliter", "milliliters", "毫升"), ("volume", 1.0)),
    **dict.fromkeys(("l", "litre", "litres", "liter", "liters", "升", "公升"), ("volume", 1000.0)),
    **dict.fromkeys(("mg", "milligram", "milligrams", "毫克"), ("mass", 0.001)),
    **dict.fromkeys(("g", "gram", "grams", "克"), ("mass", 1.0)),
    **dict.fromkeys(("kg", "kilogram", "kilograms", "kilo", "kilos", "公斤", "千克"), ("mass", 1000.0)),
    **dict.fromkeys(("lb", "lbs", "pound", "pounds", "磅"), ("mass", 453.59237)),
}
_ENGLISH_UNITS = sorted((u for u in _UNITS if u.isascii()), key=len, reverse=True)
_CHINESE_UNITS = sorted((u for u in _UNITS if not u.isascii()), key=len, reverse=True)
_AMOUNT = r"(\d+(?:\.\d+)?|an?|one|half\s+an?)"
_ENGLISH_MEASURE = re.compile(
    rf"(?<![\w.]){_AMOUNT}(\s+and\s+a\s+half)?[\s-]?({'|'.join(_ENGLISH_UNITS)})\b(?:-long)?"
    rf"(?:\s+(?:and\s+)?(\d+)\s*(minutes?|mins?)\b)?",
    re.IGNORECASE,
)
_CHINESE_MEASURE = re.compile(rf"(\d+(?:\.\d+)?)?(个)?(半)?({'|'.join(_CHINESE_UNITS)})(?:(\d+)分钟?)?")


def _unit_of_parameter(parameter: Parameter) -> str | None:
    """The unit a numeric parameter's name ends with or its description names ("in minutes"), or None."""
    if parameter.kind not in ("integer", "number"):
        return None
    words = name_words(parameter.name)
    if words and words[-1].lower() in _UNITS and words[-1].lower() not in ("h", "s", "l", "g"):
        return words[-1].lower()
    if len(words) == 1 and words[0].lower() in _UNITS:
        return words[0].lower()
    described = re.search(r"\bin\s+([a-z]+)", parameter.description, re.IGNORECASE)
    if described and described.group(1).lower() in _UNITS:
        return described.group(1).lower()
    return None


def _amount(text: str | None, and_half: bool) -> float | None:
    if text is None:
        return None
    word = text.lower().split()[0]
    value = {"a": 1.0, "an": 1.0, "one": 1.0, "half": 0.5}.get(word)
    if value is None:
        value = float(text)
    return value + (0.5 if and_half else 0.0)


def _said(value: float) -> str:
    rounded = round(value, 2)
    return str(int(rounded)) if rounded == int(rounded) else f"{rounded:g}"


def _converted(question: str, parameters: list[Parameter]) -> str:
    """The question with each duration or quantity the tool takes in another unit said in the tool's unit."""
    targets = {}
    for parameter in parameters:
        unit = _unit_of_parameter(parameter)
        if unit is not None:
            targets.setdefault(_UNITS[unit][0], set()).add(unit)
    if not targets:
        return question

    def target(unit: str) -> str | None:
        dimension, _ = _UNITS[unit]
        owned = targets.get(dimension, set())
        # A tool with a parameter of the question's own unit takes it as said ("90 minutes" for minutes).
        if not owned or any(_UNITS[u][1] == _UNITS[unit][1] for u in owned) or len(owned) > 1:
            return None
        return next(iter(owned))

    def english(match: re.Match[str]) -> str:
        amount = _amount(match.group(1), bool(match.group(2)))
        unit = match.group(3).lower()
        goal = target(unit)
        if goal is None or amount is None:
            return match.group(0)
        size = amount * _UNITS[unit][1] + (int(match.group(4)) * 60 if match.group(4) else 0)
        return f"{_said(size / _UNITS[goal][1])} {goal}"

    def chinese(match: re.Match[str]) -> str:
        number, _, half, unit, extra = match.groups()
        goal = target(unit)
        if goal is None or (number is None and not half):
            return match.group(0)
        amount = float(number or 0) + (0.5 if half else 0.0)
        size = amount * _UNITS[unit][1] + (int(extra) * 60 if extra else 0)
        return f" {_said(size / _UNITS[goal][1])} {goal} "

    text = _ENGLISH_MEASURE.sub(english, with_digits(question) if language_of(question) == "en" else question)
    # 一个半小时: "one and a half hours"; with_digits leaves "一个" as an article, so it is read here.
    text = re.sub(r"一个半(?=小时|钟头)", "1个半", text)
    return _CHINESE_MEASURE.sub(chinese, with_digits(text) if language_of(text) == "zh" else text)


# -- ids written with a space -----------------------------------------------------------------------------

_SPACED_ID = re.compile(r"(?<![A-Za-z0-9-])([A-Z]{1,4})\s(\d{1,6})(?![\w.,-]\d|[A-Za-z0-9-])")
_NOT_ID_WORDS = frozenset("USD EUR GBP JPY CNY CHF CAD AUD AM PM UTC GMT MB GB KB TB KG".split())


def _takes_spaced_ids(parameter: Parameter) -> bool:
    """A text id whose description shows one written with a space ("e.g. "UA 919"") or whose name says
    it is a number or id (flight_number, prescription_id)."""
    if parameter.kind != "string" or "enum" in parameter.schema:
        return False
    if _SPACED_ID.search(parameter.description):
        return True
    words = {w.lower() for w in name_words(parameter.name)}
    return len(words) > 1 and bool(words & {"number", "id", "no", "code", "ref", "reference"})


# -- putting it together -------------------------------------------------------------------------------------


def prepare(spec: ToolSpec, question: str) -> tuple[str, dict[str, str]]:
    """The question said as ``spec`` documents its values, and the map from a glued id back to its writing."""
    parameters = parameters_of(spec.parameters)
    kinds = {documented_format(p) for p in parameters} - {None}
    text = question
    restore: dict[str, str] = {}
    # An id written with a space is one value for every tool: "UA 919" is never the number 919 of a duration;
    # but letters that are one of the tool's options say which, before a number of its own ("EU 42" shoe size).
    options = {str(o).upper() for p in parameters for o in p.schema.get("enum", ()) if o is not None}
    if True:
        def glue(match: re.Match[str]) -> str:
            if match.group(1) in _NOT_ID_WORDS or match.group(1) in options:
                return match.group(0)
            glued = f"{match.group(1)}{match.group(2)}"
            restore[glued] = match.group(0)
            return glued

        text = _SPACED_ID.sub(glue, text)
    text = _converted(text, parameters)
    text = _options_said(text, parameters)
    if language_of(question) == "zh":  # a Latin name or code inside Chinese is set apart: 从T3出发 -> 从 T3 出发
        text = re.sub(r"(?<=[\u4e00-\u9fff])(?=[A-Za-z])", " ", text)
        text = re.sub(r"\b([A-Za-z][A-Za-z0-9]*)(?=[\u4e00-\u9fff])", r"\1 ", text, flags=re.ASCII)
    if kinds & {"date", "datetime"}:
        text = _DATE_PHRASES.sub(lambda m: f" {normal_date(m.group(0))} " if normal_date(m.group(0)) else m.group(0),
                                 text)
    if kinds & {"time", "datetime"}:
        text = _CHINESE_CLOCK.sub(lambda m: f" {normal_time(m.group(0)) or m.group(0)} ", text)
        text = _CLOCK.sub(lambda m: normal_time(m.group(0)) or m.group(0), text)
    if "datetime" in kinds:
        text = _joined_datetime(text)
    if text != question:
        logger.debug("read %r as %r for %s", question, text, spec.name)
    return text, restore


_SIGN_CODES = {"$": "USD", "€": "EUR", "£": "GBP"}
_CURRENCY_WORDS = {"euro": "EUR", "euros": "EUR", "dollar": "USD", "dollars": "USD", "欧元": "EUR", "美元": "USD",
                   "英镑": "GBP", "人民币": "CNY", "日元": "JPY", "yen": "JPY"}


def _options_said(text: str, parameters: list[Parameter]) -> str:
    """Options said as people say them, for a parameter whose choices are codes: "$45" -> "45 USD" when USD is a
    choice, "terminal 1" -> "T1" when T1 is (the code is the noun's initial and the number)."""
    options = {str(o) for p in parameters for o in p.schema.get("enum", ()) if o is not None}
    for sign, code in _SIGN_CODES.items():
        if code in options:
            text = re.sub(rf"{re.escape(sign)}\s?(\d+(?:\.\d+)?)", rf"\1 {code}", text)
    for word, code in _CURRENCY_WORDS.items():
        if code in options:
            text = re.sub(rf"(\d)\s*{word}\b" if word.isascii() else rf"(\d)\s*{word}", rf"\1 {code}", text,
                          flags=re.IGNORECASE)
    for parameter in parameters:
        for noun in name_words(parameter.name):
            coded = {o for o in map(str, parameter.schema.get("enum", ())) if re.fullmatch(rf"{noun[0]}\d+", o, re.I)}
            if len(noun) >= 3 and coded:
                text = re.sub(rf"\b{noun}\s+(\d+)\b",
                              lambda m: next((o for o in coded if o[1:] == m.group(1)), m.group(0)), text,
                              flags=re.IGNORECASE)
    return text


def _joined_datetime(text: str) -> str:
    """One ISO date and one time said apart ("2026-03-21 at 08:00", "2026-03-21 08:00") joined as one value."""
    dates = _ISO_DATE.findall(text)
    times = re.findall(r"(?<![\d:T])\d{2}:\d{2}(?![\d:])", text)
    if len(set(dates)) != 1 or len(set(times)) != 1 or f"{dates[0]}T" in text:
        return text
    text = re.sub(r"(?<![\d:T])\d{2}:\d{2}(?![\d:])", "", text, count=1)
    return re.sub(r"\b\d{4}-\d{2}-\d{2}\b", f"{dates[0]}T{times[0]}", text, count=1)


def spaced_ids(parameters: list[Parameter], missing: list[str], restore: dict[str, str],
               arguments: dict[str, Any]) -> dict[str, str]:
    """The one id written with a space for each missing text parameter whose description's example is written so
    ("e.g. "FX 204"" for ``service``), as read from the prepared question (glued; see :func:`restored`)."""
    used = {v for v in arguments.values() if isinstance(v, str)}
    free = [glued for glued in restore if glued not in used]
    found = {}
    for parameter in parameters:
        if parameter.name in missing and parameter.kind == "string" and _SPACED_ID.search(parameter.description) \
                and len(free) == 1:
            found[parameter.name] = free[0]
    return found


def restored(value: Any, restore: dict[str, str]) -> Any:
    """A value read from the prepared question, with a glued id written back as the question wrote it."""
    if isinstance(value, str):
        return restore.get(value, value)
    if isinstance(value, list):
        return [restored(v, restore) for v in value]
    if isinstance(value, dict):
        return {k: restored(v, restore) for k, v in value.items()}
    return value
