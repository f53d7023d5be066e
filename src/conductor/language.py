"""Which language a question is in, and Chinese names in English: what the library says to a person follows it.

A stopped run's answer is written in the question's language (``budget.stopped_answer``), a chart labels a call
``get_weather(city=Beijing)`` for ``北京`` (``charts``). The offline stand-in reads questions with the same rules
(``conductor.offline.language`` builds its reading of places, numbers and words on these): one source for both.
Plain regular expressions and word lists, on purpose: rules a learner can read.
"""

from __future__ import annotations

import re
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


# Single quotes only where they cannot be an apostrophe; Chinese text may touch them ("把'你好'翻译成英文").
_QUOTES = re.compile(
    r'"([^"]+)"|“([^”]+)”|《([^》]+)》|「([^」]+)」|(?<![A-Za-z0-9_])\'([^\']+)\'(?![A-Za-z0-9_])'
)

_ENGLISH_NAMES: dict[str, str] = {chinese: english[0] for chinese, english in GAZETTEER}


def english_name(chinese: str) -> str | None:
    """The English name of a Chinese place name (北京 -> Beijing, 北京市 -> Beijing), or of a word of the
    glossary (its likeliest English word); ``None`` when neither knows it."""
    from .glossary import CHINESE_GLOSSARY  # a word list: loaded with the first Chinese word to name

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


def format_number(value: float) -> str:
    """5.0 -> "5", 5.5 -> "5.5": how a person writes a reading."""
    return str(int(value)) if float(value).is_integer() else str(value)


__all__ = ["GAZETTEER", "Language", "english_name", "format_number", "in_english", "language_of", "say"]
