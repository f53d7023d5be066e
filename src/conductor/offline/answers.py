"""The offline model's answer from results of learners' own tools: sentences that quote the values.

Each result becomes one sentence per entity it describes: one call's dict
("AAPL: price 189.5."), each item of a list a batch tool returned, or each
entry of a dict keyed by entity. Fields that only repeat the call's arguments
are left out. When the question compares or asks for a superlative ("which is
warmest", "compare", "cheaper"), the answer also says which entity has the
highest or lowest value of the numeric field the question is about (among one
tool's results, each place once).

A large result is said in words, never as its raw readings: a table (a field holding more than
:data:`TABLE_ROWS` objects) is said as its number of entries and the range of the field the question
is about ("hours: 24 entries, temperature 12.4 to 18.8°C"), and so is the summary a program made of
one (its count and each field's minimum, maximum and mean, see :mod:`.programs`); a long list of numbers
is said as its count and range.

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
    arguments_of, data_of, ended, error_of, missing_note, plain_error, reviewer_note,
)
from .language import Language, canonical_place, format_number, mentions, say, stem, words
from .units import conversion
from .wording import call_words, field, label as key_label, unit_of

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
_LABEL_KEYS = ("name", "city", "location", "symbol", "ticker", "country", "title", "id")
TABLE_ROWS = 12  # a list of more objects than this inside a result is a table: said as its size and ranges
_STATS = {"min", "max", "mean"}


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
    context: str = ""  # the call's arguments as words, when no one value names what the result is about
    values: tuple[str, ...] = ()  # the call's argument values as written, to tell whether a text says them
    arguments: tuple[tuple[str, Any], ...] = ()  # a bare number's call, to say it as a conversion ("72 °F is ...")


def _label(call: ToolCall, calls: Sequence[ToolCall]) -> str:
    """What the result is about: the argument that tells this call apart from the tool's other calls,
    the only argument of a one-argument call, else "" (the sentence then says the call's arguments)."""
    arguments = arguments_of(call)
    siblings = [arguments_of(c) for c in calls if c.name == call.name and c is not call]
    differing = [v for k, v in arguments.items() if any(s.get(k) != v for s in siblings)]
    if not differing and len(arguments) == 1:
        # A lone text names what the result is about ("Tokyo"); a lone number does not ("5: down jacket").
        differing = [v for v in arguments.values() if isinstance(v, str)]
    if len(differing) == 1 and isinstance(differing[0], (str, int, float)) and not isinstance(differing[0], bool):
        return _value(differing[0])
    return ""


def _item_label(item: dict[str, Any], index: int, wanted: set[str]) -> str:
    for value in item.values():
        if isinstance(value, str) and value in wanted:
            return value
    for key in _LABEL_KEYS:
        if isinstance(item.get(key), (str, int)):
            return str(item[key])
    texts = [v for v in item.values() if isinstance(v, str)]
    return texts[0] if texts else f"#{index + 1}"


def _record(label: str, fields: dict[str, Any], stated: frozenset[str] = frozenset(), tool: str = "",
            context: str = "") -> Record:
    """A record, or an error record when a batch entry says ``{"error": ...}``."""
    if fields.get("error"):
        return Record(label, {}, error=str(fields["error"]), tool=tool, context=context)
    return Record(label, fields, stated=stated, tool=tool, context=context)


def _localized(fields: dict[str, Any], language: Language) -> dict[str, Any]:
    """Fields in the question's language: ``weather``/``weather_en`` pairs give one ``weather``."""
    shown = {}
    for key, value in fields.items():
        if key.endswith("_en") and key[:-3] in fields:
            continue
        shown[key] = fields.get(f"{key}_en", value) if language == "en" else value
    return shown


_MONEY_WORDS = frozenset("price cost total amount fee fare charge converted".split())


def _with_unit(fields: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """(fields without ``unit``, the unit) when a ``unit`` field goes with the only number; else no unit.
    A ``currency`` field goes with the only amount of money: "cost 24.5 EUR"."""
    numbers = [k for k, v in fields.items() if isinstance(v, (int, float)) and not isinstance(v, bool)]
    unit = fields.get("unit")
    if isinstance(unit, str) and len(numbers) == 1:
        return {k: v for k, v in fields.items() if k != "unit"}, unit
    currency = fields.get("currency")
    money = [k for k in numbers if set(name_words(k)) & _MONEY_WORDS]
    if isinstance(currency, str) and len(money) == 1 and "unit" not in fields:
        return {k: (_Priced(v, currency) if k == money[0] else v) for k, v in fields.items() if k != "currency"}, ""
    return fields, ""


@dataclass(frozen=True)
class _Priced:
    """An amount of money and its currency, said together: 24.5 EUR."""

    value: float
    currency: str

    def __str__(self) -> str:
        return f"{format_number(self.value)} {self.currency}"


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
        data = in_words(data_of(result), conversation.question, language)
        arguments = arguments_of(call)
        wanted = {_value(v) for value in arguments.values() for v in (value if isinstance(value, list) else [value])}
        tool = call.name
        context = "" if label else call_words(call.name, arguments, language, raw=call.arguments)
        before = len(found)
        if error is not None:  # a call that failed is said with its tool and arguments: "delete_database (name test)"
            said = call_words(call.name, arguments, language, raw=call.arguments)
            found.append(Record("", {}, error=error, tool=tool, context=said))
        elif isinstance(data, list) and data and all(isinstance(item, dict) for item in data):
            found.extend(_record(_item_label(item, i, wanted), item, tool=tool) for i, item in enumerate(data))
        elif isinstance(data, dict) and len(data) > 1 and all(isinstance(v, dict) for v in data.values()):
            found.extend(_record(str(key), value, tool=tool) for key, value in data.items())
        elif isinstance(data, dict):
            found.append(_record(label, data, frozenset(wanted), tool=tool, context=context))
        elif isinstance(data, str):
            found.append(Record(label, {}, text=data, tool=tool, context=context, values=tuple(sorted(wanted))))
        else:
            found.append(Record(label, {"result": data}, tool=tool, context=context,
                                arguments=tuple(arguments.items()) if isinstance(arguments, dict) else ()))
        note = reviewer_note(result, language)
        if note and len(found) > before:
            found[before] = replace(found[before], note=note)
    return _merged(found)


def in_words(data: Any, question: str, language: Language = "en") -> Any:
    """A result dict with each table in it (or a program's summary of one) said in words."""
    if not isinstance(data, dict):
        return data
    said: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, list) and len(value) > TABLE_ROWS and all(isinstance(v, dict) for v in value):
            numeric = [k for k in value[0] if all(_is_number(v.get(k)) for v in value)]
            ranges = {k: (min(v[k] for v in value), max(v[k] for v in value)) for k in numeric}
            said[key] = _table_words(len(value), ranges, question, language)
        elif _is_summary(value):
            ranges = {k: (v["min"], v["max"]) for k, v in value.items() if k != "count"}
            said[key] = _table_words(value["count"], ranges, question, language)
        elif isinstance(value, list) and len(value) > TABLE_ROWS and all(_is_number(v) for v in value):
            said[key] = _values_words(len(value), min(value), max(value), language)
        elif isinstance(value, dict) and set(value) == {"count", *_STATS} and _is_number(value["count"]):
            said[key] = _values_words(value["count"], value["min"], value["max"], language)
        else:
            said[key] = value
    return said


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_summary(value: Any) -> bool:
    """A program's summary of a table: ``{"count": n, field: {"min", "max", "mean"}, ...}``."""
    return (isinstance(value, dict) and _is_number(value.get("count")) and len(value) > 1
            and all(isinstance(v, dict) and set(v) == _STATS for k, v in value.items() if k != "count"))


def _values_words(count: Any, low: Any, high: Any, language: Language) -> str:
    """"500 values, 0 to 96": a long list of numbers (or a program's summary of one) in words."""
    return say(language, f"{format_number(count)} 个值,{_value(low)} 至 {_value(high)}",
               f"{format_number(count)} values, {_value(low)} to {_value(high)}")


def _table_words(count: Any, ranges: dict[str, tuple[Any, Any]], question: str, language: Language) -> str:
    """"24 entries, temperature 12.4 to 18.8°C": the size, and the range of the fields the question is about."""
    superlative = next((s for s in _SUPERLATIVES if mentions(question, s[0])), None)
    asked = {stem(w) for w in words(question)} | set(superlative[3] if superlative else ())
    about = [k for k in ranges if asked & ({stem(w) for w in name_words(k)} | set(name_words(k)))][:2]
    parts = [say(language, f"{format_number(count)} 条", f"{format_number(count)} entries")]
    for key in about:
        bare, unit = unit_of(key)
        low, high = ranges[key]
        parts.append(say(language, f"{key_label(bare, language)} {_amount(low, unit)} 至 {_amount(high, unit)}",
                         f"{key_label(bare, language)} {_amount(low, unit)} to {_amount(high, unit)}"))
    return say(language, ",", ", ").join(parts)


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


def _value(value: Any, language: Language = "en") -> str:
    if isinstance(value, _Priced):
        return str(value)
    if isinstance(value, bool):
        return say(language, "是" if value else "否", "yes" if value else "no")
    if isinstance(value, (int, float)):
        return format_number(value)
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def _sentence(record: Record, language: Language) -> str:
    if record.calls > 1 and not record.label and record.context and record.error is None:
        # The count goes inside the parenthesis that names the call: "(temperature 5; the same from 2 calls)".
        counted = say(language, f";{record.calls} 次调用,结果相同", f"; the same from {record.calls} calls")
        record = replace(record, context=record.context + counted, calls=1)
    said = _said(record, language) + _counted(record, language) + record.note
    # A list's last line takes no full stop; the next sentence starts on a line of its own.
    return said + "\n" if said.rsplit("\n", 1)[-1].startswith("- ") else ended(said, language)


def _counted(record: Record, language: Language) -> str:
    if record.calls < 2:
        return ""
    return say(language, f"({record.calls} 次调用,结果相同)", f" (the same from {record.calls} calls)")


def _said(record: Record, language: Language) -> str:
    if record.error is not None:
        failure = plain_error(record.error, language)
        subject = record.label or _context_subject(record, language)
        gap = "" if subject.endswith(")") else " "  # 这次调用(...)没有执行: no space after a Chinese bracket
        if not failure.ran:
            return say(language, f"{subject}{gap}没有执行:{failure.reason}", f"{subject} was not run: {failure.reason}")
        return say(language, f"{subject}{gap}失败:{failure.reason}", f"{subject} failed: {failure.reason}")
    if record.text is not None:
        text = record.text.strip()
        # "Asia/Shanghai: 14:05." says what the bare "14:05" is about; a sentence naming it needs no label.
        if not record.label:
            return _about(text, record, language)
        return text if record.label in text else say(language, f"{record.label}:{text}", f"{record.label}: {text}")
    # A field the tool left empty (a due date of None) is not worth saying: a person would not say "due None".
    fields, unit = _with_unit({k: v for k, v in _localized(record.fields, language).items() if v is not None})
    shown = {k: v for k, v in fields.items() if _value(v) != record.label and _value(v) not in record.stated}
    shown = shown or fields
    if list(shown) == ["result"]:
        converted = conversion(dict(record.arguments), shown["result"], language)
        if converted:
            return converted
        result = _amount(shown["result"], unit)
        if not record.label:
            return _about(say(language, f"结果是 {result}", f"the result is {result}"), record, language)
        return say(language, f"{record.label} 的结果是 {result}", f"{record.label} returned {result}")
    said = [_field(k, v, unit, language) for k, v in shown.items()]
    # A list said as lines comes last, so what follows it is not lost after its last line.
    said = [s for s in said if "\n" not in s] + [s for s in said if "\n" in s]
    listed = say(language, ",", ", ").join(s.strip().rstrip(".。") for s in said)
    if not record.label:
        return _about(listed, record, language)
    return say(language, f"{record.label}:{listed}", f"{record.label}: {listed}")


def _field(key: str, value: Any, unit: str, language: Language) -> str:
    """A field as words ("local time 13:00"); the record's unit goes with its only number."""
    if unit and isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{key_label(unit_of(key)[0], language)} {_amount(value, unit)}"
    return field(key, value, language)


def _context_subject(record: Record, language: Language) -> str:
    """The subject of a sentence about a call no one value names: its tool and its arguments as words."""
    # The tool's name said as words ("send email"), never its identifier; in Chinese, "the call" (这次调用).
    action = say(language, "这次调用", " ".join(name_words(record.tool)).capitalize() or record.tool)
    if not record.context:
        return action
    return say(language, f"{action}({record.context})", f"{action} ({record.context})")


def _about(said: str, record: Record, language: Language) -> str:
    """What a result says, then what it is about (the call's arguments as words) when no label names it."""
    said = said[:1].upper() + said[1:] if language == "en" else said
    arguments = list(record.values)
    if not record.context or (arguments and all(v.casefold() in said.casefold() for v in arguments)):
        return said  # "The kitchen light is green" already says what it is about
    if "\n" in said or said.rstrip().endswith((")", ")")):
        # A list's lines end the sentence, and a parenthesis ends what it says: the call it is about goes first.
        action = " ".join(name_words(record.tool)).capitalize()  # "Scale recipe (recipe lasagna, ...): ..."
        return say(language, f"{record.context}:{said}", f"{action} ({record.context}): {said[:1].lower() + said[1:]}")
    return say(language, f"{said}({record.context})", f"{said} ({record.context})")


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
    # The field the superlative is about comes first ("cheaper": the cost, not the weight the question also names).
    about = set(superlative[3]) if superlative else set()
    field = max(fields, key=lambda f: (bool(about & set(name_words(f))), len(asked & {stem(w) for w in name_words(f)}),
                                       -fields.index(f)))
    if superlative:
        lowest = mentions(superlative[0][0], _LOW)
    else:
        lowest = mentions(question, _LOW) and not mentions(question, _HIGH)
    unit = _with_unit(group[0].fields)[1]
    ordered = sorted(group, key=lambda r: r.fields[field], reverse=not lowest)
    best = ordered[0]
    field_name = key_label(unit_of(field)[0], language) or say(language, "数值", field)
    ties = [r.label for r in ordered if r.fields[field] == best.fields[field]]
    if len(ties) == len(ordered):
        shared = _amount(best.fields[field], unit)
        return say(language, f"{'、'.join(ties)}的{field_name}相同,都是{shared}。",
                   f"{' and '.join(ties)} have the same {field_name}, {shared}.")
    others = say(language, ";", "; ").join(f"{r.label} {_amount(r.fields[field], unit)}" for r in ordered[len(ties):])
    names = say(language, "、", " and ").join(ties)
    value = _amount(best.fields[field], unit)
    if superlative:
        return say(language, f"{names}{superlative[2]}({field_name} {value};{others})。",
                   f"{names} {'are' if len(ties) > 1 else 'is'} {superlative[1]} ({field_name} {value}; {others}).")
    return say(language, f"{field_name}{'最低' if lowest else '最高'}的是{names}({value};{others})。",
               f"{names} {'have' if len(ties) > 1 else 'has'} the {'lowest' if lowest else 'highest'} {field_name} "
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
        text = say(language, "", " ").join(dict.fromkeys(s for s in sentences if s)).replace("\n ", "\n").rstrip()
    note = missing_note(missing, language, alone=not found)
    if not found and note:
        return note
    return say(language, "", " ").join(s for s in (text, note) if s).replace("\n ", "\n")
