"""Numbers written as words, read as digits: "six by seven" -> "6 by 7", "三加四" -> "3加4", "3kg" -> "3 kg".

Below ``arguments`` and ``formats``, which both read a question's numbers with it.
"""

from __future__ import annotations

import re

_UNITS = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen " \
         "sixteen seventeen eighteen nineteen".split()
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
         "ninety": 90}
_WORD_NUMBER = re.compile(
    rf"\b(?:({'|'.join(_TENS)})(?:[\s-]({'|'.join(_UNITS[1:10])}))?|({'|'.join(_UNITS)}))\b", re.IGNORECASE
)
_OPERATOR_WORDS = r"plus|minus|times|by|over|and|divided|multiplied"


def _digits(match: re.Match[str], text: str) -> str:
    tens, unit, single = match.group(1), match.group(2), match.group(3)
    # A capitalised number word after a capitalised word is part of a name: "Dune Part Two", "Ocean's Eleven".
    before = re.search(r"(^|[.!?]\s+|\s)([A-Z][\w']*)\s+$", text[: match.start()])
    if match.group(0)[0].isupper() and before and not (before.group(1) == "" or before.group(1).strip()):
        return match.group(0)
    if tens:
        return str(_TENS[tens.lower()] + (_UNITS.index(unit.lower()) if unit else 0))
    # "one" is too often a pronoun ("which one"): a number only beside arithmetic words or digits.
    if single.lower() == "one":
        before, after = text[: match.start()].split()[-1:], text[match.end():].split()[:1]
        beside = " ".join(before + after).lower()
        if not re.search(rf"\b(?:{_OPERATOR_WORDS}|hundred|thousand|million)\b|\d", beside):
            return single
    return str(_UNITS.index(single.lower()))


_CHINESE_DIGITS = {"〇": 0, "零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
# Chinese measure words and units, longest first: "4人份" is four servings.
_CHINESE_UNITS = "人民币|美元|欧元|英镑|日元|分钟|小时|星期|公里|千米|公斤|人份|秒|天|周|个|位|人|份|度|次|年|岁|元|块|米|克|升" \
                 "|张|本|杯|件|台|辆|间|晚|瓶|双|条|只|盒|包|袋|碗|页|首|家|场|颗|片|部|局|盘|轮|名|节"
# Chinese numerals next to an operator, a measure word or a unit ("三加四", "十分钟"): a bare "一" is too common.
_CHINESE_NUMBER = re.compile(
    rf"[〇零一二两三四五六七八九十百千万]+(?=\s*(?:加|减|乘|除|{_CHINESE_UNITS}))"
    r"|(?<=加|减|乘|以)\s*[〇零一二两三四五六七八九十百千万]+"
)


_CHINESE_POWERS = {"十": 10, "百": 100, "千": 1000}
# What a Chinese measure word after a number counts, in the words a parameter would use.
_CHINESE_MEASURES: dict[str, tuple[str, ...]] = {
    "张": ("tickets", "seats"), "晚": ("nights",), "间": ("rooms",), "份": ("portions", "servings", "quantity"),
    "杯": ("cups", "quantity"), "本": ("books", "copies"), "件": ("items", "pieces", "quantity"),
    "位": ("people", "guests"), "人": ("people", "guests", "persons"), "瓶": ("bottles", "quantity"),
    "台": ("devices", "units"), "辆": ("cars", "vehicles"), "页": ("pages",), "首": ("songs", "tracks"),
    "双": ("pairs",), "盒": ("boxes",), "袋": ("bags",), "碗": ("bowls",),
    "局": ("games", "rounds"), "盘": ("games", "plates"), "轮": ("rounds",), "场": ("games", "matches", "sessions"),
    "名": ("people", "places", "top"), "节": ("lessons", "classes", "sessions"),
}


def _chinese_value(numeral: str) -> int:
    """一 -> 1, 十 -> 10, 十五 -> 15, 二十 -> 20, 三百二十 -> 320, 三千 -> 3000, 两万五千 -> 25000."""
    total, section, current = 0, 0, 0
    for char in numeral.strip():
        if char in _CHINESE_DIGITS:
            current = _CHINESE_DIGITS[char]
        elif char in _CHINESE_POWERS:
            section += (current or 1) * _CHINESE_POWERS[char]
            current = 0
        elif char == "万":
            total += ((section + current) or 1) * 10_000
            section, current = 0, 0
    return total + section + current


def with_digits(text: str) -> str:
    """The text with number words written as digits: "six by seven" -> "6 by 7", "三加四" -> "3加4"."""
    text = _CHINESE_NUMBER.sub(
        # "一个" is the article "a", not the number one.
        lambda m: m.group(0) if text[m.start(): m.end() + 1] == "一个" else str(_chinese_value(m.group(0))), text
    )
    text = _WORD_NUMBER.sub(lambda m: _digits(m, text), text)
    # A unit glued to its number is written apart: "3kg" -> "3 kg".
    text = _GLUED_UNIT.sub(r"\1 \2", text)
    text = _GLUED_SHORT_UNIT.sub(r"\1 \2", text)
    # An ordinal before a noun counts: "4th floor" -> "4 floor" (a date's "3rd" is read with its month).
    text = re.sub(r"(?<![\w.])(\d{1,3})(?:st|nd|rd|th)(?=\s+(?!of\b)[a-z])", r"\1", text)
    # "two hundred" -> 200, "a thousand" -> 1000, "a dozen" -> 12.
    text = re.sub(r"\b(\d+|an?)\s+(hundred|thousand|million)\b",
                  lambda m: _scaled(1 if m.group(1).isalpha() else int(m.group(1)), _SCALES[m.group(2).lower()]),
                  text, flags=re.IGNORECASE)
    return re.sub(r"\ba\s+dozen\b", "12", text, flags=re.IGNORECASE)


_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
_GLUED_UNIT = re.compile(
    r"(?<![A-Za-z0-9.])(\d+(?:\.\d+)?)"
    r"(kg|kgs|km|kms|cm|mm|mi|ml|lb|lbs|oz|ft|min|mins|hr|hrs|mph|kph|kmh|gb|mb|tb|px)\b",
    re.IGNORECASE,
)


# Short units whose case matters: "250g" and "400W" are units, "5G" a network.
_GLUED_SHORT_UNIT = re.compile(r"(?<![A-Za-z0-9.])(\d+(?:\.\d+)?)(g|mg|l|m|W|kW|kWh|kwh|mAh|ppm)\b")


def _scaled(count: int, scale: int) -> str:
    return str(count * scale)
