"""Replies a careful model writes when it does not call a tool: asking for what is missing, small talk, other languages.

A person reads these, not a developer, so they never name a function or a parameter identifier and
never describe the stand-in (how to get a real model is the one ``conductor:`` log line):

* :func:`ask_for` asks for what a request lacks in the question's language, each missing value said
  as words (its parameter's name as words, its description when that says more: "the end date (the
  last day off)", "who receives the money"), the choices of a ``Literal`` or ``Enum`` listed;
* :func:`small_talk` answers a greeting or a thank-you briefly;
* :func:`unread_language` is the one English sentence for a question in a language the stand-in does
  not read (it reads English and Chinese), told apart with ``py3langid``, a trained language
  identifier that runs offline.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from .arguments import Parameter, name_words
from .language import Language, say

__all__ = ["ask_for", "missing_words", "small_talk", "unread_language", "cannot_help"]

# -- what is missing, said as words ---------------------------------------------------------------------

# Chinese words for the parameter words declines name most ("flight_number" -> 航班号); the rest stay English.
_CHINESE = {
    "flight": "航班", "number": "号", "train": "车次", "date": "日期", "time": "时间", "start": "开始时间",
    "end": "结束", "pharmacy": "药房", "prescription": "处方", "id": "编号", "dose": "剂量", "medicine": "药名",
    "room": "会议室", "clinic": "科室", "title": "标题", "task": "任务", "amount": "金额", "recipient": "收款人",
    "currency": "货币", "message": "内容", "channel": "频道", "project": "项目", "contact": "联系人",
    "minutes": "时长(分钟)", "hours": "时长(小时)", "days": "天数", "weekday": "星期几", "steps": "步数",
    "terminal": "航站楼", "garage": "停车场", "weight": "重量", "size": "车型", "invoice": "发票",
    "city": "城市", "location": "地点", "country": "国家", "name": "名字", "email": "邮箱", "phone": "电话",
    "address": "地址", "quantity": "数量", "count": "数量", "price": "价格", "from": "原", "to": "目标",
    "unit": "单位", "value": "数值", "query": "搜索内容", "text": "文字", "ticker": "股票代码", "symbol": "代码",
    "pickup": "接送", "kind": "类型", "type": "类型", "category": "类别", "when": "时间", "seat": "座位",
    "class": "等级", "passengers": "人数", "people": "人数", "guests": "人数", "party": "", "size_": "",
    "due": "截止日期", "item": "物品", "product": "商品", "song": "歌曲", "artist": "歌手", "movie": "电影",
    "priority": "优先级", "quality": "质量", "level": "级别", "mode": "方式",
}
_UNIT_WORDS = {"ml": "ml", "mg": "mg", "kg": "kg", "g": "g", "km": "km", "m": "m", "cm": "cm", "l": "L",
               "min": "minutes", "minutes": "minutes", "hours": "hours", "usd": "USD", "eur": "EUR", "pct": "%",
               "percent": "%", "c": "°C", "f": "°F"}
_FORMAT_NOISE = re.compile(
    r",?\s*(?:formatted\s+|as\s+|in\s+)?(?:ISO\s*8601\s*)?(?:date and time\s*)?\(?(?:YYYY-MM-DD(?:THH:MM)?|HH:MM)\)?"
    r"|,?\s*(?:on\s+the\s+)?24-hour(?:\s+clock)?|,?\s*e\.g\..*$|,?\s*ISO\s*8601.*$|;.*$",
    re.IGNORECASE)
_PERSON = (r"\bI\b", "you"), (r"\bmy\b", "your"), (r"\bme\b", "you"), (r"\bam\b", "are")


def _clause(description: str) -> str:
    """A parameter's description as a clause for a sentence: no format codes, no example, "I" said as "you"."""
    first = re.split(r"(?<=\.)\s|\s\(", description.strip(), maxsplit=1)[0]  # its first sentence, no aside
    text = _FORMAT_NOISE.sub("", first).strip().rstrip(".,;: ")
    for pattern, said in _PERSON:
        text = re.sub(pattern, said, text)
    return text[:1].lower() + text[1:] if text[:2] != text[:2].upper() else text


def _english(parameter: Parameter) -> str:
    """One missing value in English words: "the date (the day of the meeting)", "who receives the money"."""
    words = name_words(parameter.name)
    unit = _UNIT_WORDS.get(words[-1].lower(), "") if len(words) > 1 else ""
    named = " ".join(words[:-1] if unit else words)
    clause = _clause(parameter.description)
    options = _options(parameter)
    if unit:  # the unit is said once, after the name: "the amount in ml (how much water)"
        clause = re.sub(r",?\s*in\s+[a-z]+$", "", clause, flags=re.IGNORECASE)
    # A description that only says the name again ("the amount of money to convert") adds nothing to it.
    own = {w.lower() for w in words if w.lower() not in ("from", "to", "of", "the")} - {unit.lower()}
    asks = clause.split(" ", 1)[0].lower() in ("who", "what", "how", "which", "when", "where")
    if clause and (asks or not own <= set(re.findall(r"[a-z]+", clause.lower()))):
        said = f"the {named} ({clause})"
    else:
        said = f"the {named}"
    if unit and unit.lower() not in said.lower():
        said += f" in {unit}"
    if options:
        choices = _choices([str(o) for o in options], "en")
        said = f"{said[:-1]}: {choices})" if said.endswith(")") else f"{said} ({choices})"
    return said


def _chinese(parameter: Parameter) -> str:
    """One missing value in Chinese words where the list has them: flight_number -> 航班号."""
    words = [w.lower() for w in name_words(parameter.name)]
    unit = _UNIT_WORDS.get(words[-1], "") if len(words) > 1 else ""
    core = words[:-1] if unit else words
    said = "".join(_CHINESE.get(w, f" {w} ") for w in core).strip() or " ".join(core)
    said = re.sub(r"\s+", " ", said)
    options = _options(parameter)
    if unit:
        said += f"({unit})"
    if options:
        said += "(" + _choices([str(o) for o in options], "zh") + ")"
    return said


def _options(parameter: Parameter) -> list[str]:
    """The choices of a Literal or Enum parameter (None, the "not given" of an optional one, left out)."""
    options = parameter.schema.get("enum") or parameter.schema.get("items", {}).get("enum") or []
    return [str(o) for o in options if o is not None]


def _choices(options: Sequence[str], language: Language) -> str:
    """The options a value must be one of: "one of Kyoto, Oslo or Lima" / 可选:Kyoto、Oslo、Lima."""
    if language == "zh":
        return "可选:" + "、".join(options)
    listed = options[0] if len(options) == 1 else ", ".join(options[:-1]) + " or " + options[-1]
    return f"one of {listed}"


def missing_words(missing: Sequence[Parameter], language: Language) -> str:
    """The missing values as one phrase: "the date and the start time" / 日期和时间."""
    said = [_chinese(p) if language == "zh" else _english(p) for p in missing]
    if language == "zh":
        return "和".join(said) if len(said) < 3 else "、".join(said[:-1]) + "和" + said[-1]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]


def _action(description: str) -> str:
    """What a tool does, from its description's first sentence, as a phrase after "to": "book a meeting room"."""
    first = re.split(r"(?<=[.!?])\s|\n", description.strip(), maxsplit=1)[0].rstrip(".!? ")
    verb = first.split(" ", 1)[0].lower() if first else ""
    if verb not in _VERBS or len(first.split()) > 12:
        return ""  # "Today's buses between two stops" says what, not what to do
    for pattern, said in _PERSON:
        first = re.sub(pattern, said, first)
    return first[:1].lower() + first[1:]


_VERBS = frozenset("""book add send log schedule remind refill rent hire reserve check look find post convert create set
    pay email call buy order request cancel get show tell text play start stop turn put record track update delete
    remove move share invite notify ask compute calculate search translate list fetch read write save open close
    lock unlock switch make plan estimate quote count measure compare split shorten generate roll register sign
    subscribe transfer withdraw deposit ship deliver return rate review""".split())


def ask_for(missing: Sequence[Parameter], language: Language, description: str = "") -> str:
    """One sentence asking for the values a request lacks, in the question's language."""
    things = missing_words(missing, language)
    if language == "zh":
        return f"可以办,不过我还需要知道{things},请告诉我。"
    action = _action(description)
    lead = f"To {action}, I need to know" if action else "I can do that, but I need to know"
    return f"{lead} {things}."


def cannot_help(language: Language, *, tools_allowed: bool = True, any_tools: bool = True) -> str:
    """The reply to a question none of the tools at hand can answer, as a person would say it."""
    if any_tools and tools_allowed:
        return say(language, "抱歉,这个我帮不上忙:我手头的工具都做不了这件事。",
                   "Sorry, I can't help with that: none of the tools I have here does it.")
    if any_tools:
        return say(language, "抱歉,这次我不能使用工具,所以回答不了这个问题。",
                   "Sorry, I can't use my tools for this request, so I can't answer that.")
    return say(language, "抱歉,没有合适的工具,我回答不了这个问题:请给我一个能做这件事的工具,或者换一个问题。",
               "Sorry, I can't answer that without a tool for it: offer me a tool that does it, or ask me something "
               "else.")


# -- small talk ---------------------------------------------------------------------------------------------

_THANKS = re.compile(r"^\W*(?:(?:great|perfect|ok(?:ay)?|cool|awesome|nice|brilliant|wonderful)\W+)*"
                     r"(?:thanks?(?:\s+you)?|thank\s+you|thx|cheers|ta)\b[\w\s,'!.]*$", re.IGNORECASE)
_CHINESE_THANKS = re.compile(r"^\W*(?:好的?|太好了)?[,,]?(?:谢谢|多谢|感谢|谢了)[\u4e00-\u9fff]{0,8}\W*$")
_GREETING = re.compile(r"^\W*(?:hi|hello|hey|hiya|good\s+(?:morning|afternoon|evening)|greetings)\b"
                       r"(?:\s+there)?(?:[\s,!.]+(?:how\s+are\s+you(?:\s+doing)?|how's\s+it\s+going))?\W*$",
                       re.IGNORECASE)
_CHINESE_GREETING = re.compile(r"^\W*(?:你好|您好|嗨|哈喽|早上好|下午好|晚上好|早安)[啊呀吗]?\W*$")


def small_talk(question: str, language: Language) -> str | None:
    """A short fitting reply to a greeting or a thank-you alone; None for anything else."""
    text = question.strip()
    if _THANKS.match(text) or _CHINESE_THANKS.match(text):
        return say(language, "不客气!还有需要随时告诉我。", "You're welcome! Let me know if you need anything else.")
    if _GREETING.match(text) or _CHINESE_GREETING.match(text):
        return say(language, "你好!有什么可以帮你的?", "Hello! What can I do for you?")
    return None


# -- languages the stand-in does not read ---------------------------------------------------------------------

UNREAD_LANGUAGE = "Sorry, I can only read English and Chinese: please ask again in one of them."
# Words English questions are made of: a question holding one is read as English, and the identifier is not asked.
_ENGLISH_WORDS = frozenset("""the to of is are my for and what how in on at me i please with from by it this that
    can you your could would will do does did be was has have an or not all any much many when where which who why
    whats what's it's i'm i'd let's""".split())
_SURE = 0.9  # the identifier's own confidence that a question is in another language
_ACCENTED = re.compile(r"[áéíóúàèìòùâêîôûäëïöüñçß¿¡œ]", re.IGNORECASE)


@lru_cache(maxsize=1)
def _identifier():  # noqa: ANN202 - py3langid's own class
    from py3langid.langid import _load_identifier  # its model loads in about two seconds: only when needed

    identifier = _load_identifier(None, norm_probs=True)
    identifier.set_languages(["en", "zh", "es", "fr", "de", "it", "pt", "nl"])
    return identifier


def unread_language(question: str) -> bool:
    """Is the question in a language other than English or Chinese (Spanish, French, German...)?

    A question with a Chinese character, or with a common English word, is one the stand-in reads; for the
    rest the offline identifier decides: sure of another language, or fairly sure with an accented letter.
    """
    if re.search(r"[\u4e00-\u9fff]", question):
        return False
    tokens = re.findall(r"[^\W\d_]+(?:'[^\W\d_]+)?", question.lower())
    if len(tokens) < 2 or _ENGLISH_WORDS & set(tokens):
        return False
    language, confidence = _identifier().classify(question)
    if language in ("en", "zh"):
        return False
    return confidence >= _SURE or (confidence >= 0.5 and _ACCENTED.search(question) is not None)
