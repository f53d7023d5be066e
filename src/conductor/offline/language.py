"""The offline model's reading of a question: language, places, arithmetic, lesson numbers, words.

Plain regular expressions and word lists, on purpose: the offline model is a
stand-in that follows visible rules a learner can read, not a language model.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from ..language import (  # the library's reading of a question's language; the stand-in's names for it
    _ADDRESS, _CJK, _CJK_RUN, _ENGLISH_FRAME, _ENGLISH_NAMES, _LATIN_WORD, _QUOTES, GAZETTEER, Language, english_name,
    format_number, in_english, language_of, say,
)

# Rooms of a home, for a parameter that asks which room ("Set the bedroom to 19 degrees").
ROOMS: tuple[str, ...] = (
    "living room", "dining room", "bedroom", "kitchen", "bathroom", "office", "garage", "hallway", "basement",
    "attic", "nursery", "客厅", "卧室", "主卧", "次卧", "厨房", "浴室", "卫生间", "书房", "餐厅", "车库",
)

# Currency words and the ISO codes they stand for ("dollars" -> USD, "人民币" -> CNY).
CURRENCY_CODES: dict[str, str] = {
    **dict.fromkeys("dollar dollars 美元 美金".split(), "USD"),
    **dict.fromkeys("euro euros 欧元".split(), "EUR"),
    **dict.fromkeys("pound pounds sterling 英镑".split(), "GBP"),
    **dict.fromkeys("yen 日元".split(), "JPY"),
    **dict.fromkeys("yuan renminbi rmb 人民币".split(), "CNY"),
    **dict.fromkeys("rupee rupees 卢比".split(), "INR"),
    **dict.fromkeys("franc francs 瑞郎".split(), "CHF"),
    **dict.fromkeys("韩元".split(), "KRW"),
}

# Function words and the verbs of a request ("please check ..."): never the subject of a question.
STOPWORDS = frozenset(
    """a about after all also am an and any are as at be been before between both but by can check could
    did do does doing find for from give had has have how i if in instead into is it its know let like look me my
    need of on or our please rather say says show should so switch tell than that the their them then there these
    they this those to today tomorrow turn up us want was we were what whats when where which who why will
    with would you your""".split()
)

_CHINESE_NUMERALS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}

# Runs of characters an arithmetic expression is made of (full-width forms included).
_EXPRESSION_RUN = re.compile(r"[0-9.\s+\-*/×÷^%()（）＋－＊／]+")
_OPERATOR_BETWEEN = re.compile(r"[0-9)]\s*(?:[-+*/%^]|\*\*|//)\s*[-+]?[0-9(]")
_NORMALISE = str.maketrans({"×": "*", "÷": "/", "（": "(", "）": ")", "＋": "+", "－": "-", "＊": "*", "／": "/"})


def words(text: str) -> list[str]:
    """Lower-case words of the text (letters and digits), stopwords removed, in order."""
    found = re.findall(r"[a-z0-9]+(?:'[a-z]+)?", text.casefold().replace("’", "'"))
    # A possessive is its noun: "a lamp's brightness" is about a lamp.
    found = [w.removesuffix("'s") for w in found]
    return [w for w in found if w.replace("'", "") not in STOPWORDS]


def normalise(text: str) -> str:
    """Casefolded, with every run of characters that are not letters or digits made one space."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return " ".join("".join(ch if ch.isalnum() else " " for ch in text).split())


def holds_words(text: str, needle: str) -> bool:
    """Does normalised ``text`` hold normalised ``needle`` as whole words? Word edges only where the needle
    starts or ends with a Latin letter or digit: Chinese has no spaces to find them by."""
    if not needle:
        return False
    left = "(?<![a-z0-9])" if needle[0].isascii() else ""
    right = "(?![a-z0-9])" if needle[-1].isascii() else ""
    return re.search(left + re.escape(needle) + right, text) is not None


def negated_in_chinese(text: str, at: int) -> bool:
    """Is the Chinese word at ``at`` negated right before it: 不要辣, 别加糖, 没有空调?"""
    return re.search(r"(?:不|别|无|没有)(?:要|用|加)?$", text[max(0, at - 3): at]) is not None


def stem(word: str) -> str:
    """A crude plural stripper, enough to match "lessons" with "lesson" and "cities" with "city"."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def cjk_bigrams(text: str) -> set[str]:
    """Every pair of adjacent Chinese characters: the unit of word matching in Chinese text."""
    bigrams: set[str] = set()
    for run in re.findall(r"[\u3400-\u9fff\uf900-\ufaff]+", text):
        bigrams.update(run[i : i + 2] for i in range(len(run) - 1))
    return bigrams


def mentions(text: str, phrases: Iterable[str]) -> bool:
    """Does the text contain any of the phrases? English phrases match whole words, case-insensitively."""
    for phrase in phrases:
        if _CJK.search(phrase):
            if phrase in text:
                return True
        elif re.search(rf"(?<![a-z]){re.escape(phrase)}(?![a-z])", text, re.IGNORECASE):
            return True
    return False


def find_places(text: str) -> list[str]:
    """Known places named in the text, spelled as written, in the order they appear."""
    found: list[tuple[int, str]] = []
    for chinese, english in GAZETTEER:
        for name in (chinese, *english):
            pattern = re.escape(name) if _CJK.search(name) else rf"(?<![A-Za-z]){re.escape(name)}(?![A-Za-z])"
            for match in re.finditer(pattern, text, flags=0 if _CJK.search(name) else re.IGNORECASE):
                found.append((match.start(), match.group(0)))
    seen: set[str] = set()
    places = []
    for _, name in sorted(found):
        if name.casefold() not in seen:
            seen.add(name.casefold())
            places.append(name)
    return places


def find_phrases(text: str, phrases: Iterable[str]) -> list[tuple[str, int]]:
    """(phrase as listed, position) for each of the phrases in the text, in order; English ones as whole words."""
    found = []
    for phrase in phrases:
        pattern = re.escape(phrase) if _CJK.search(phrase) else rf"(?<![A-Za-z]){re.escape(phrase)}(?![A-Za-z])"
        found += [(phrase, m.start()) for m in re.finditer(pattern, text, flags=re.IGNORECASE)]
    # A longer phrase wins over one inside it ("living room" over "room", "美元" inside nothing longer).
    kept = [(p, i) for p, i in found if not any(j <= i and i + len(p) <= j + len(q) and q != p for q, j in found)]
    return sorted(kept, key=lambda pair: pair[1])


def find_expressions(text: str) -> list[str]:
    """Arithmetic expressions in the text (numbers joined by operators), in a form Python's parser reads.

    ``×`` ``÷`` and full-width signs become ``*`` ``/``; ``^`` becomes ``**``.
    """
    expressions = []
    for run in _EXPRESSION_RUN.findall(text):
        candidate = " ".join(run.translate(_NORMALISE).split()).strip(" +-*/^%")
        candidate = _balance(candidate)
        if _OPERATOR_BETWEEN.search(candidate):
            expressions.append(candidate.replace("^", "**"))
    return expressions


def _balance(expression: str) -> str:
    """Drop unmatched parentheses at the edges, e.g. the ``(`` of "(what is 2+3)"."""
    while expression.startswith("(") and expression.count("(") > expression.count(")"):
        expression = expression[1:].strip()
    while expression.endswith(")") and expression.count(")") > expression.count("("):
        expression = expression[:-1].strip()
    return expression


def _number(token: str) -> int | None:
    if token.isdigit():
        return int(token)
    if token == "十":
        return 10
    if len(token) == 2 and token[0] == "十":
        return 10 + _CHINESE_NUMERALS.get(token[1], 0)
    return _CHINESE_NUMERALS.get(token)


# "lesson 4", "lessons 1 and 5", "lesson 1 vs lesson 5"; and the Chinese "第4课", "第五节".
_LESSONS_EN = re.compile(r"\blessons?\s+(\d+(?:\s*(?:,|and|&|or|vs\.?|versus|和|与)\s*(?:lesson\s+)?\d+)*)", re.I)
_LESSON_ZH = re.compile(r"第\s*([0-9]+|[一二两三四五六七八九十]+)\s*[课节讲章]")


def lesson_numbers(text: str) -> list[int]:
    """Lesson numbers asked about: "lesson 4", "lessons 1 and 5", "lesson 1 and lesson 5", "第4课", "第一课和第五课"."""
    numbers: list[int] = []
    for match in _LESSONS_EN.finditer(text):
        numbers.extend(int(n) for n in re.findall(r"\d+", match.group(1)))
    for match in _LESSON_ZH.finditer(text):
        number = _number(match.group(1))
        if number is not None:  # 第0课 is a lesson too
            numbers.append(number)
    return list(dict.fromkeys(numbers))


def without_lesson_references(text: str) -> str:
    """The text with its lesson references ("lesson 4", "第4课") removed."""
    return _LESSON_ZH.sub(" ", _LESSONS_EN.sub(" ", text))


def quoted(text: str) -> list[str]:
    """Text inside quotes of any common kind: "...", '...', “...”, 《...》, 「...」."""
    return [
        next(group for group in match.groups() if group is not None).strip()
        for match in re.finditer(_QUOTES, text)
    ]


# -- places and names in an answer ------------------------------------------------------------------

_PLACE_KEYS: dict[str, str] = {
    name.casefold(): chinese for chinese, english in GAZETTEER for name in (chinese, *english)
}


def canonical_place(name: str) -> str:
    """One key per place, whatever name it is written with: Beijing, Peking, 北京 and 北京市 -> 北京."""
    key = " ".join(str(name).split()).casefold()
    if key not in _PLACE_KEYS and len(key) > 2 and key[-1] in "市省":
        key = key[:-1]
    return _PLACE_KEYS.get(key, key)


def glossed(text: str) -> str:
    """English text with the English name beside each Chinese name it quotes: "北京 (Beijing)".

    A name already followed by a parenthesis, or written inside quotes or a call (``city="北京"``),
    is left as it is; a Chinese run that is no known name is quoted as it is.
    """
    pieces = []
    last = 0
    for match in _CJK_RUN.finditer(text):
        name = match.group(0)
        before = text[: match.start()].rstrip(" ")[-1:]
        after = text[match.end():]
        english = english_name(name)
        quoted_ = (before and before in "\"'“‘=(（") or (after[:1] and after[:1] in "\"'”’")
        if english is None or quoted_ or re.match(rf"\s*[(（]\s*{re.escape(english)}", after, re.I):
            continue
        pieces += [text[last: match.end()], f" ({english})"]
        last = match.end()
    return "".join(pieces) + text[last:]


