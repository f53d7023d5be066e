"""The offline model's reading of a question: language, places, arithmetic, lesson numbers, words.

Plain regular expressions and word lists, on purpose: the offline model is a
stand-in that follows visible rules a learner can read, not a language model.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Literal


Language = Literal["zh", "en"]

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")

# Places the stand-in model "knows", as (Chinese name, English names). It knows more
# places than the weather tool has data for (and Mars), as a real model would: the
# tool, not the model, decides which cities have weather.
GAZETTEER: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("北京", ("Beijing", "Peking")),
    ("上海", ("Shanghai",)),
    ("广州", ("Guangzhou", "Canton")),
    ("深圳", ("Shenzhen",)),
    ("成都", ("Chengdu",)),
    ("哈尔滨", ("Harbin",)),
    ("杭州", ("Hangzhou",)),
    ("南京", ("Nanjing",)),
    ("武汉", ("Wuhan",)),
    ("西安", ("Xi'an", "Xian")),
    ("重庆", ("Chongqing",)),
    ("香港", ("Hong Kong",)),
    ("东京", ("Tokyo",)),
    ("首尔", ("Seoul",)),
    ("新加坡", ("Singapore",)),
    ("伦敦", ("London",)),
    ("巴黎", ("Paris",)),
    ("柏林", ("Berlin",)),
    ("纽约", ("New York",)),
    ("悉尼", ("Sydney",)),
    ("火星", ("Mars",)),
    # More cities and the provinces, so that a Chinese question's place is read as one ("北京到天津").
    ("天津", ("Tianjin",)),
    ("苏州", ("Suzhou",)),
    ("青岛", ("Qingdao",)),
    ("厦门", ("Xiamen",)),
    ("大连", ("Dalian",)),
    ("沈阳", ("Shenyang",)),
    ("长沙", ("Changsha",)),
    ("郑州", ("Zhengzhou",)),
    ("济南", ("Jinan",)),
    ("昆明", ("Kunming",)),
    ("福州", ("Fuzhou",)),
    ("合肥", ("Hefei",)),
    ("南昌", ("Nanchang",)),
    ("贵阳", ("Guiyang",)),
    ("南宁", ("Nanning",)),
    ("兰州", ("Lanzhou",)),
    ("太原", ("Taiyuan",)),
    ("石家庄", ("Shijiazhuang",)),
    ("长春", ("Changchun",)),
    ("乌鲁木齐", ("Urumqi",)),
    ("拉萨", ("Lhasa",)),
    ("海口", ("Haikou",)),
    ("三亚", ("Sanya",)),
    ("桂林", ("Guilin",)),
    ("宁波", ("Ningbo",)),
    ("无锡", ("Wuxi",)),
    ("珠海", ("Zhuhai",)),
    ("东莞", ("Dongguan",)),
    ("佛山", ("Foshan",)),
    ("澳门", ("Macau",)),
    ("台北", ("Taipei",)),
    ("大阪", ("Osaka",)),
    ("京都", ("Kyoto",)),
    ("曼谷", ("Bangkok",)),
    ("河内", ("Hanoi",)),
    ("吉隆坡", ("Kuala Lumpur",)),
    ("雅加达", ("Jakarta",)),
    ("孟买", ("Mumbai",)),
    ("迪拜", ("Dubai",)),
    ("莫斯科", ("Moscow",)),
    ("罗马", ("Rome",)),
    ("马德里", ("Madrid",)),
    ("巴塞罗那", ("Barcelona",)),
    ("阿姆斯特丹", ("Amsterdam",)),
    ("维也纳", ("Vienna",)),
    ("苏黎世", ("Zurich",)),
    ("洛杉矶", ("Los Angeles",)),
    ("旧金山", ("San Francisco",)),
    ("芝加哥", ("Chicago",)),
    ("西雅图", ("Seattle",)),
    ("波士顿", ("Boston",)),
    ("多伦多", ("Toronto",)),
    ("温哥华", ("Vancouver",)),
    ("墨尔本", ("Melbourne",)),
    ("奥克兰", ("Auckland",)),
    ("山东", ("Shandong",)),
    ("广东", ("Guangdong",)),
    ("江苏", ("Jiangsu",)),
    ("浙江", ("Zhejiang",)),
    ("四川", ("Sichuan",)),
    ("云南", ("Yunnan",)),
    ("河南", ("Henan",)),
    ("河北", ("Hebei",)),
    ("湖南", ("Hunan",)),
    ("湖北", ("Hubei",)),
    ("福建", ("Fujian",)),
    ("安徽", ("Anhui",)),
    ("陕西", ("Shaanxi",)),
    ("山西", ("Shanxi",)),
    ("江西", ("Jiangxi",)),
    ("广西", ("Guangxi",)),
    ("贵州", ("Guizhou",)),
    ("海南", ("Hainan",)),
    ("新疆", ("Xinjiang",)),
    ("西藏", ("Tibet",)),
    ("内蒙古", ("Inner Mongolia",)),
    ("黑龙江", ("Heilongjiang",)),
    ("吉林", ("Jilin",)),
    ("辽宁", ("Liaoning",)),
    ("甘肃", ("Gansu",)),
    ("青海", ("Qinghai",)),
    ("宁夏", ("Ningxia",)),
    ("台湾", ("Taiwan",)),
    ("月球", ("the Moon",)),
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


# English words that hold a sentence together: an English question has them around any Chinese name it quotes.
_ENGLISH_FRAME = frozenset(
    """a an the is are was were be what whats how which who where when why in on at of to for from with and or
    do does did can could would should will me my i you your it its this that please there than into about much
    many tell show give get""".split()
)
_LATIN_WORD = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)?")
_ADDRESS = re.compile(r"https?://\S+|[\w.+-]+@[\w-]+\.[\w.]+")


def language_of(text: str) -> Language:
    """The language to answer in: ``"en"`` for an English question, also one that names a Chinese place
    ("What's the weather in 北京?") or quotes a few Chinese words; else ``"zh"`` when it holds Chinese.

    Quotes, addresses and known place names are set aside; the question is English when no Chinese is left
    around them, or when more English words than Chinese characters are left and two or more of them are
    the small words an English sentence is built with.
    """
    if not _CJK.search(text):
        return "en"
    frame = _QUOTES.sub(" ", _ADDRESS.sub(" ", text))
    latin = [w.casefold().replace("’", "'") for w in _LATIN_WORD.findall(frame)]
    for chinese, _ in sorted(GAZETTEER, key=lambda entry: -len(entry[0])):
        frame = frame.replace(chinese, " ")
    chinese_left = len(_CJK.findall(frame))
    if not latin:
        return "zh"
    if chinese_left == 0:
        return "en"
    framing = sum(1 for w in latin if w.replace("'", "") in _ENGLISH_FRAME or w in _ENGLISH_FRAME)
    return "en" if len(latin) > chinese_left and framing >= 2 else "zh"


def say(language: Language, zh: str, en: str) -> str:
    """Pick the phrasing for the question's language."""
    return zh if language == "zh" else en


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


# Single quotes only where they cannot be an apostrophe; Chinese text may touch them ("把'你好'翻译成英文").
_QUOTES = re.compile(r'"([^"]+)"|“([^”]+)”|《([^》]+)》|「([^」]+)」|(?<![A-Za-z0-9_])\'([^\']+)\'(?![A-Za-z0-9_])')


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
_ENGLISH_NAMES: dict[str, str] = {chinese: english[0] for chinese, english in GAZETTEER}


def canonical_place(name: str) -> str:
    """One key per place, whatever name it is written with: Beijing, Peking, 北京 and 北京市 -> 北京."""
    key = " ".join(str(name).split()).casefold()
    if key not in _PLACE_KEYS and len(key) > 2 and key[-1] in "市省":
        key = key[:-1]
    return _PLACE_KEYS.get(key, key)


def english_name(chinese: str) -> str | None:
    """The English name of a Chinese place name (北京 -> Beijing, 北京市 -> Beijing), or of a word of the
    glossary (its likeliest English word); ``None`` when neither knows it."""
    from .glossary import CHINESE_GLOSSARY  # a word list; imported here so this module stays first to load

    name = chinese.strip()
    if name in _ENGLISH_NAMES:
        return _ENGLISH_NAMES[name]
    if len(name) > 2 and name[-1] in "市省" and name[:-1] in _ENGLISH_NAMES:
        return _ENGLISH_NAMES[name[:-1]]
    glosses = CHINESE_GLOSSARY.get(name)
    return glosses[0] if glosses else None


_CJK_RUN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")


def in_english(text: str) -> str | None:
    """``text`` with each run of Chinese characters in English (北京 -> Beijing), or None when one is not known."""
    names = {run: english_name(run) for run in _CJK_RUN.findall(text)}
    if None in names.values():
        return None
    return _CJK_RUN.sub(lambda match: names[match.group(0)] or "", text)


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


def format_number(value: float) -> str:
    """5.0 -> "5", 5.5 -> "5.5": how a person writes a reading."""
    return str(int(value)) if float(value).is_integer() else str(value)
