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

from .arguments import Parameter, name_words
from .language import Language, format_number, say

__all__ = ["call_words", "result_words", "field", "label", "unit_of", "listed", "decline", "not_mine", "hint_real_model", "REAL_MODEL_HINT"]

logger = logging.getLogger("conductor.offline")

# Two lines, each within a notebook's 100 columns once "conductor: " is put before the first.
REAL_MODEL_HINT = (
    "the offline stand-in follows simple rules; for real answers, use a real model:\n"
    '  cd.connect("openai") (OPENAI_API_KEY) or cd.connect("anthropic") (ANTHROPIC_API_KEY)'
)
_hinted = False

# Chinese for the words result keys and parameter names are commonly made of; a key is said word by word
# ("local_time" -> 当地 + 时间), a whole key first when it has a name of its own ("utc_offset" -> 时差).
_CHINESE_WORDS = {
    "temperature": "气温", "temp": "气温", "weather": "天气", "conditions": "天气", "condition": "天气",
    "humidity": "湿度", "wind": "风", "speed": "速度", "price": "价格", "cost": "费用", "total": "合计",
    "amount": "金额", "currency": "货币", "rate": "汇率", "population": "人口", "distance": "距离",
    "duration": "时长", "time": "时间", "date": "日期", "status": "状态", "rating": "评分", "count": "数量",
    "area": "面积", "result": "结果", "name": "名称", "title": "标题", "city": "城市", "country": "国家",
    "score": "分数", "account": "账户", "converted": "换算结果", "local": "当地", "timezone": "时区", "zone": "时区",
    "offset": "偏移", "delivery": "送达", "days": "天数", "day": "天数", "factor": "倍数",
    "ingredients": "配料", "servings": "份数", "serving": "份数", "weight": "重量", "original": "原",
    "new": "新", "from": "原", "to": "目标", "recipe": "食谱", "quantity": "数量", "message": "消息", "suggestion": "建议", "suggestions": "建议",
    "description": "说明", "total_cost": "总费用", "utc_offset": "时差", "wind_speed": "风速", "id": "编号",
}
# Units a key may end with ("weight_kg", "flour_g"): said after the value instead.
_UNITS = {"g": "g", "kg": "kg", "mg": "mg", "ml": "ml", "l": "L", "km": "km", "m": "m", "cm": "cm", "mm": "mm",
          "c": "°C", "f": "°F", "pct": "%", "percent": "%", "min": "min", "mins": "min", "minutes": "min",
          "s": "s", "sec": "s", "seconds": "s", "hours": "h", "usd": "USD", "eur": "EUR", "cny": "CNY"}


def unit_of(key: str) -> tuple[str, str]:
    """(the key without its unit, the unit) for a key that ends with one ("weight_kg" -> ("weight", "kg"))."""
    parts = key.split("_")
    if len(parts) > 1 and parts[-1].lower() in _UNITS:
        return "_".join(parts[:-1]), _UNITS[parts[-1].lower()]
    return key, ""


def label(key: str, language: Language) -> str:
    """A key or parameter name as words in the answer's language: "local_time" -> "local time" / 当地时间."""
    parts = name_words(key) or [key]
    if language == "en":
        return " ".join("UTC" if p == "utc" else p for p in parts)
    whole = _CHINESE_WORDS.get(key.lower())
    if whole:
        return whole
    said = [_CHINESE_WORDS.get(p) for p in parts]
    if all(said):
        return "".join(s for s in said if s)
    if key and not key.isascii():
        return "".join(p for p in parts if not p.isascii()) or key
    return " ".join(parts)


def _said(value: Any, unit: str, language: Language) -> str:
    if isinstance(value, bool):
        return say(language, "是" if value else "否", "yes" if value else "no")
    if isinstance(value, (int, float)):
        number = format_number(value)
        return f"{number}{'' if unit[:1] in ('°', '%', '') else ' '}{unit}"
    if isinstance(value, (dict, list)):
        return listed(value, language)
    return str(value)  # text, or an amount said with its currency


def field(key: str, value: Any, language: Language) -> str:
    """One field as words: "local time 13:00", "weight 3 kg", 当地时间 13:00; a list said as one."""
    bare, unit = unit_of(key)
    name = label(bare, language)
    if isinstance(value, bool) and name:  # a flag is said as words: "booked", "not paid" / 已预订:是
        return say(language, f"{name}:{'是' if value else '否'}", name if value else f"not {name}")
    shown = _said(value, unit, language)
    if isinstance(value, (dict, list)) and value:
        return f"{name}{say(language, ':', ': ' if not shown.startswith(chr(10)) else ':')}{shown}"
    if not name:
        return shown
    # A text of several words is set off by a colon in English: "suggestion: a down jacket", "local time 13:00".
    spaced = language == "en" and isinstance(value, str) and " " in value.strip()
    return f"{name}: {shown}" if spaced else f"{name} {shown}"


def listed(value: dict[str, Any] | list[Any], language: Language) -> str:
    """A nested dict or a list said as a list: one item a line ("- pasta sheets: 30"); a short list of
    words in one line ("a, b and c")."""
    if isinstance(value, list):
        items = [_said(v, "", language) for v in value]
        if all(isinstance(v, (str, int, float)) for v in value) and len(items) <= 3:
            if len(items) < 2:
                return "".join(items)
            return say(language, "、".join(items), ", ".join(items[:-1]) + " and " + items[-1])
        return "".join(f"\n- {item}" for item in items)
    lines = []
    for key, item in value.items():
        bare, unit = unit_of(str(key))
        lines.append(f"\n- {label(bare, language)}{say(language, ':', ': ')}{_said(item, unit, language)}")
    return "".join(lines)


def call_words(name: str, arguments: dict[str, Any], language: Language, raw: str = "") -> str:
    """A call's arguments as words ("amount 250, from currency USD, to currency EUR"); the text it was sent
    with when it is not a JSON object."""
    if not arguments:
        return raw.strip() if raw.strip() not in ("", "{}") else ""
    return say(language, ",", ", ").join(field(key, _short(value), language).replace("\n", " ")
                                         for key, value in arguments.items())


def result_words(name: str, content: str, is_error: bool, language: Language) -> str:
    """A tool result as words for a person: "get_weather: city 北京, temperature 5"; an error as its text."""
    import json

    try:
        data = json.loads(content)
    except ValueError:
        data = content
    if is_error:
        from .evidence import plain_error  # evidence reads results; it loads after this module

        reason = plain_error(content, language).reason
        said = say(language, f"出错:{reason}", f"error: {reason}")
    elif isinstance(data, dict) and data:
        said = say(language, ",", ", ").join(field(k, v, language) for k, v in _readable(data, language).items())
    elif isinstance(data, (list, dict)):
        said = listed(data, language) or say(language, "无", "nothing")
    else:
        said = content.strip() if isinstance(data, str) else _said(data, "", language)
    return f"{name}{say(language, ':', ': ')}{said}"


def _readable(data: dict[str, Any], language: Language) -> dict[str, Any]:
    """A result's fields as a person reads them: ``weather``/``weather_en`` as one in the answer's language,
    a ``unit`` field written after the only number ("temperature 5 °C")."""
    shown = {k: data.get(f"{k}_en", v) if language == "en" else v
             for k, v in data.items() if not (k.endswith("_en") and k[:-3] in data)}
    numbers = [k for k, v in shown.items() if isinstance(v, (int, float)) and not isinstance(v, bool)]
    unit = shown.get("unit")
    if isinstance(unit, str) and len(numbers) == 1:
        shown = {k: f"{format_number(v)}{'' if unit[:1] in '°%' else ' '}{unit}" if k == numbers[0] else v
                 for k, v in shown.items() if k != "unit"}
    return shown


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
