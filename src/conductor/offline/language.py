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


def language_of(text: str) -> Language:
    """``"zh"`` when the text holds any Chinese character, else ``"en"``."""
    return "zh" if _CJK.search(text) else "en"


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
        if number:
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


def format_number(value: float) -> str:
    """5.0 -> "5", 5.5 -> "5.5": how a person writes a reading."""
    return str(int(value)) if float(value).is_integer() else str(value)
