"""The offline model's answer from results of learners' own tools: sentences that quote the values.

Each result becomes one sentence per entity it describes: one call's dict
("AAPL: price 189.5."), each item of a list a batch tool returned, or each
entry of a dict keyed by entity. Fields that only repeat the call's arguments
are left out. When the question compares or asks for a superlative ("which is
warmest", "compare", "cheaper"), the answer also says which entity has the
highest or lowest value of the numeric field the question is about (among one
tool's results, each place once).

A failed call is said plainly for the user (``evidence.plain_error``): what
conductor wrote for the model (a guard's refusal, a timeout) is restated, never
copied, and an exception's class name is left out. The same result of the same
call, made again (a loop), is said once with the number of calls.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..context import cleared
from ..types import ToolCall
from .arguments import name_words
from .conversation import Conversation, PlannedCall
from .evidence import (
    arguments_of, data_of, describe_call, ended, error_of, missing_note, plain_error, reviewer_note,
)
from .language import Language, canonical_place, format_number, mentions, say, stem, words

__all__ = ["Record", "records", "compose_answer"]

_LOW = ("cold", "colder", "coldest", "cool", "cooler", "coolest", "cheap", "cheaper", "cheapest", "low", "lower",
        "lowest", "small", "smaller", "smallest", "least", "fewest", "less", "fewer", "minimum",
        "冷", "低", "便宜", "少", "小")
_HIGH = ("warm", "warmer", "warmest", "hot", "hotter", "hottest", "expensive", "high", "higher", "highest", "big",
         "bigger", "biggest", "large", "larger", "largest", "most", "more", "maximum", "暖", "热", "高", "贵", "多", "大")
_COMPARE = ("compare", "comparison", "which", "versus", "vs", "than", "best", "worst", "rank",
            "比较", "对比", "哪个", "哪里", "最", "更")
# Superlatives said as the question says them, and the fields they are about.
_SUPERLATIVES: tuple[tuple[tuple[str, ...], str, str, tuple[str, ...]], ...] = (
    (("warm", "warmer", "warmest", "暖"), "the warmest", "最暖和", ("temperature", "temp")),
    (("hot", "hotter", "hottest", "热"), "the hottest", "最热", ("temperature", "temp")),
    (("cold", "colder", "coldest", "cool", "cooler", "coolest", "冷"), "the coldest", "最冷", ("temperature", "temp")),
    (("cheap", "cheaper", "cheapest", "便宜"), "the cheapest", "最便宜", ("price", "cost", "fare", "amount")),
    (("expensive", "贵"), "the most expensive", "最贵", ("price", "cost", "fare", "amount")),
)
# Chinese names for common result keys, so a Chinese answer shows no raw English key; a key not listed
# is left out and its value shown alone.
_CHINESE_KEYS = {
    "temperature": "气温", "temp": "气温", "weather": "天气", "conditions": "天气", "condition": "天气",
    "humidity": "湿度", "wind": "风", "wind_speed": "风速", "price": "价格", "cost": "费用", "total": "合计", "amount": "金额",
    "currency": "货币", "rate": "汇率", "population": "人口", "distance": "距离", "duration": "时长",
    "time": "时间", "date": "日期", "status": "状态", "rating": "评分", "count": "数量", "area": "面积",
    "result": "结果", "name": "名称", "title": "标题", "city": "城市", "country": "国家", "score": "分数",
}
_LABEL_KEYS = ("name", "city", "location", "symbol", "ticker", "country", "title", "id")


@dataclass(frozen=True)
class Record:
    """What one result says about one entity: its label and its fields (or the error)."""

    label: str
    fields: dict[str, Any]
    stated: frozenset[str] = frozenset()  # the call's argument values, not worth repeating
    error: str | None = None  # the error result as the model read it (the answer says it plainly)
    text: str | None = None  # a result that is plain text, quoted as it is
    tool: str = ""  # the tool whose result it is: only one tool's entities are compared
    note: str = ""  # what a reviewer changed before the call ran, said for the user
    calls: int = 1  # identical results of identical calls, said once


def _label(call: ToolCall, calls: Sequence[ToolCall]) -> str:
    """What the result is about: the argument that tells this call apart from the tool's other calls,
    the only argument of a one-argument call, else the call as written."""
    arguments = arguments_of(call)
    siblings = [arguments_of(c) for c in calls if c.name == call.name and c is not call]
    differing = [v for k, v in arguments.items() if any(s.get(k) != v for s in siblings)]
    if not differing and len(arguments) == 1:
        differing = list(arguments.values())
    if len(differing) == 1 and isinstance(differing[0], (str, int, float)) and not isinstance(differing[0], bool):
        return _value(differing[0])
    return describe_call(call.name, arguments or call.arguments)


def _item_label(item: dict[str, Any], index: int, wanted: set[str]) -> str:
    for value in item.values():
        if isinstance(value, str) and value in wanted:
            return value
    for key in _LABEL_KEYS:
        if isinstance(item.get(key), (str, int)):
            return str(item[key])
    texts = [v for v in item.values() if isinstance(v, str)]
    return texts[0] if texts else f"#{index + 1}"


def _record(label: str, fields: dict[str, Any], stated: frozenset[str] = frozenset(), tool: str = "") -> Record:
    """A record, or an error record when a batch entry says ``{"error": ...}``."""
    if fields.get("error"):
        return Record(label, {}, error=str(fields["error"]), tool=tool)
    return Record(label, fields, stated=stated, tool=tool)


def _localized(fields: dict[str, Any], language: Language) -> dict[str, Any]:
    """Fields in the question's language: ``weather``/``weather_en`` pairs give one ``weather``."""
    shown = {}
    for key, value in fields.items():
        if key.endswith("_en") and key[:-3] in fields:
            continue
        shown[key] = fields.get(f"{key}_en", value) if language == "en" else value
    return shown


def _with_unit(fields: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """(fields without ``unit``, the unit) when a ``unit`` field goes with the only number; else no unit."""
    numbers = [k for k, v in fields.items() if isinstance(v, (int, float)) and not isinstance(v, bool)]
    unit = fields.get("unit")
    if isinstance(unit, str) and len(numbers) == 1:
        return {k: v for k, v in fields.items() if k != "unit"}, unit
    return fields, ""


def _amount(value: Any, unit: str) -> str:
    """5 and "°C" -> "5°C"; 8.045 and "km" -> "8.045 km"."""
    if not unit:
        return _value(value)
    return f"{_value(value)}{'' if unit[0] in '°%' else ' '}{unit}"


def records(conversation: Conversation, language: Language = "en") -> list[Record]:
    """One record per entity the results since the question describe, in order (identical ones merged)."""
    exchanges = conversation.exchanges()
    calls = [call for call, _ in exchanges]
    found: list[Record] = []
    for call, result in exchanges:
        if cleared(result.content):
            continue  # a result cleared to fit the context (conductor.context): nothing left to quote
        label = _label(call, calls)
        error = error_of(result)
        data = data_of(result)
        arguments = arguments_of(call)
        wanted = {str(v) for value in arguments.values() for v in (value if isinstance(value, list) else [value])}
        tool = call.name
        before = len(found)
        if error is not None:
            found.append(Record(describe_call(call.name, arguments or call.arguments), {}, error=error, tool=tool))
        elif isinstance(data, list) and data and all(isinstance(item, dict) for item in data):
            found.extend(_record(_item_label(item, i, wanted), item, tool=tool) for i, item in enumerate(data))
        elif isinstance(data, dict) and len(data) > 1 and all(isinstance(v, dict) for v in data.values()):
            found.extend(_record(str(key), value, tool=tool) for key, value in data.items())
        elif isinstance(data, dict):
            found.append(_record(label, data, frozenset(wanted), tool=tool))
        elif isinstance(data, str):
            found.append(Record(label, {}, text=data, tool=tool))
        else:
            found.append(Record(describe_call(call.name, arguments or call.arguments), {"result": data}, tool=tool))
        note = reviewer_note(result, language)
        if note and len(found) > before:
            found[before] = replace(found[before], note=note)
    return _merged(found)


def _merged(found: Sequence[Record]) -> list[Record]:
    """Identical results (the same call made again, a loop) said once, counting the calls."""
    merged: list[Record] = []
    for record in found:
        same = next((i for i, r in enumerate(merged) if replace(r, calls=1) == record), None)
        if same is None:
            merged.append(record)
        else:
            merged[same] = replace(merged[same], calls=merged[same].calls + 1)
    return merged


def _key(key: str, language: Language) -> str:
    """A result key as the answer shows it: as written in English; in Chinese its glossary name, else ""."""
    if language == "en":
        return key
    parts = name_words(key)
    return _CHINESE_KEYS.get(key.lower()) or next((_CHINESE_KEYS[w] for w in parts if w in _CHINESE_KEYS), "")


def _shown(value: Any, unit: str, language: Language) -> str:
    """A field's value with its unit when it is a number; yes/no (是/否) in the question's language."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return _amount(value, unit)
    return _value(value, language)


def _value(value: Any, language: Language = "en") -> str:
    if isinstance(value, bool):
        return say(language, "是" if value else "否", "yes" if value else "no")
    if isinstance(value, (int, float)):
        return format_number(value)
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def _sentence(record: Record, language: Language) -> str:
    return ended(_said(record, language) + _counted(record, language) + record.note, language)


def _counted(record: Record, language: Language) -> str:
    if record.calls < 2:
        return ""
    return say(language, f"({record.calls} 次调用,结果相同)", f" (the same from {record.calls} calls)")


def _said(record: Record, language: Language) -> str:
    if record.error is not None:
        failure = plain_error(record.error, language)
        if not failure.ran:
            return say(language, f"{record.label} 没有执行:{failure.reason}", f"{record.label} was not run: {failure.reason}")
        return say(language, f"{record.label} 失败:{failure.reason}", f"{record.label} failed: {failure.reason}")
    if record.text is not None:
        text = record.text.strip()
        # "Asia/Shanghai: 14:05." says what the bare "14:05" is about; a sentence naming it needs no label.
        return text if record.label in text or "(" in record.label else say(
            language, f"{record.label}:{text}", f"{record.label}: {text}")
    fields, unit = _with_unit(_localized(record.fields, language))
    shown = {k: v for k, v in fields.items() if _value(v) != record.label and _value(v) not in record.stated}
    shown = shown or fields
    if list(shown) == ["result"]:
        result = _amount(shown["result"], unit)
        return say(language, f"{record.label} 的结果是 {result}", f"{record.label} returned {result}")
    listed = say(language, ",", ", ").join(f"{_key(k, language)} {_shown(v, unit, language)}".strip().rstrip(".。")
                                           for k, v in shown.items())
    return say(language, f"{record.label}:{listed}", f"{record.label}: {listed}")


def _numeric_fields(group: Sequence[Record]) -> list[str]:
    first = group[0].fields
    return [
        key for key, value in first.items()
        if isinstance(value, (int, float)) and not isinstance(value, bool)
        and all(isinstance(r.fields.get(key), (int, float)) and not isinstance(r.fields.get(key), bool) for r in group)
    ]


def _comparable(found: Sequence[Record]) -> list[Record]:
    """The entities a comparison is about: one tool's results (a city's weather is not compared with a
    clothing suggestion), each place or name once (Beijing and Peking are one city)."""
    candidates = [r for r in found if r.error is None and r.text is None and r.fields]
    groups: dict[str, list[Record]] = {}
    for record in candidates:
        group = groups.setdefault(record.tool, [])
        if all(canonical_place(record.label) != canonical_place(other.label) for other in group):
            group.append(record)
    return max(groups.values(), key=len, default=[])


def _comparison(found: Sequence[Record], question: str, language: Language) -> str:
    """Which entity has the highest (or lowest) value of the field the question is about; empty if none."""
    group = _comparable(found)
    if len(group) < 2 or not mentions(question, (*_COMPARE, *_LOW, *_HIGH)):
        return ""
    fields = _numeric_fields(group)
    if not fields:
        return ""
    superlative = next((s for s in _SUPERLATIVES if mentions(question, s[0])), None)
    asked = {stem(w) for w in words(question)} | set(superlative[3] if superlative else ())
    field = max(fields, key=lambda f: (len(asked & {stem(w) for w in name_words(f)}), -fields.index(f)))
    if superlative:
        lowest = mentions(superlative[0][0], _LOW)
    else:
        lowest = mentions(question, _LOW) and not mentions(question, _HIGH)
    unit = _with_unit(group[0].fields)[1]
    ordered = sorted(group, key=lambda r: r.fields[field], reverse=not lowest)
    best = ordered[0]
    field_name = _key(field, language) or say(language, "数值", field)
    ties = [r.label for r in ordered if r.fields[field] == best.fields[field]]
    if len(ties) == len(ordered):
        shared = _amount(best.fields[field], unit)
        return say(language, f"{'、'.join(ties)}的{field_name}相同,都是{shared}。",
                   f"{' and '.join(ties)} have the same {field}, {shared}.")
    others = say(language, ";", "; ").join(f"{r.label} {_amount(r.fields[field], unit)}" for r in ordered[len(ties):])
    names = say(language, "、", " and ").join(ties)
    value = _amount(best.fields[field], unit)
    if superlative:
        return say(language, f"{names}{superlative[2]}({field_name} {value};{others})。",
                   f"{names} {'are' if len(ties) > 1 else 'is'} {superlative[1]} ({field} {value}; {others}).")
    return say(language, f"{field_name}{'最低' if lowest else '最高'}的是{names}({value};{others})。",
               f"{names} {'have' if len(ties) > 1 else 'has'} the {'lowest' if lowest else 'highest'} {field} "
               f"({value}; {others}).")


def compose_answer(conversation: Conversation, language: Language, missing: Sequence[PlannedCall] = ()) -> str:
    """The answer to the question from every result since it was asked, naming what is missing."""
    found = records(conversation, language)
    if not found:
        text = say(language, "这次请求里我没能调用任何工具,所以还无法回答。",
                   "I could not call any tool in this request, so I cannot answer yet.")
    else:
        sentences = [_sentence(r, language) for r in found]
        sentences.append(_comparison(found, conversation.question, language))
        text = say(language, "", " ").join(dict.fromkeys(s for s in sentences if s))
    note = missing_note(missing, language)
    return say(language, "", " ").join(s for s in (text, note) if s)
