"""How the library words things for a person: a tool's result, and conductor's own error messages, said plainly.

A run stopped by its budget or deadline answers with what the tools returned (``budget.stopped_answer``):
"get_weather: city 北京, temperature 5", an error as what it means for the user ("it did not answer within 2 s").
The offline stand-in writes its answers with the same words (``conductor.offline.wording`` and ``.evidence``
build on these): one source for both. Result keys and parameter names are written for code (``local_time``,
``weight_kg``); they are said as words ("local time", "weight 3 kg"; in Chinese 当地时间, 重量), in the question's
language (:mod:`conductor.language`).
"""

from __future__ import annotations

import builtins
import json
import re
from dataclasses import dataclass
from typing import Any

from .language import Language, format_number, say


def name_words(name: str) -> list[str]:
    """A name split at "_", "-", spaces and camelCase, lower-cased: ``fromUnit`` -> ["from", "unit"]."""
    return [p.lower() for p in re.split(r"[_\-\s]+|(?<=[a-z])(?=[A-Z])", name) if p]


# Chinese for the words result keys and parameter names are commonly made of; a key is said word by word
# ("local_time" -> 当地 + 时间), a whole key first when it has a name of its own ("utc_offset" -> 时差).
_CHINESE_WORDS = {
    "temperature": "气温", "temp": "气温", "weather": "天气", "conditions": "天气", "condition": "天气",
    "humidity": "湿度", "wind": "风", "speed": "速度", "price": "价格", "cost": "费用", "total": "合计",
    "amount": "金额", "currency": "货币", "rate": "汇率", "population": "人口", "distance": "距离",
    "duration": "时长", "time": "时间", "date": "日期", "status": "状态", "rating": "评分", "count": "数量",
    "area": "面积", "result": "结果", "name": "名称", "title": "标题", "city": "城市", "country": "国家",
    "score": "分数", "account": "账户", "converted": "换算结果", "local": "当地", "timezone": "时区",
    "zone": "时区",
    "offset": "偏移", "delivery": "送达", "days": "天数", "day": "天数", "factor": "倍数",
    "ingredients": "配料", "servings": "份数", "serving": "份数", "weight": "重量", "original": "原",
    "new": "新", "from": "原", "to": "目标", "recipe": "食谱", "quantity": "数量", "message": "消息",
    "suggestion": "建议", "suggestions": "建议",
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
        # A list of records (a forecast's days) is one line per record: "- date 2026-12-02, high 17°C, ...".
        items = [_record(v, language) if isinstance(v, dict) else _said(v, "", language) for v in value]
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


def result_words(name: str, content: str, is_error: bool, language: Language) -> str:
    """A tool result as words for a person: "get_weather: city 北京, temperature 5"; an error as its text."""
    try:
        data = json.loads(content)
    except ValueError:
        data = content
    if is_error:
        reason = plain_error(content, language).reason
        said = say(language, f"出错:{reason}", f"error: {reason}")
    elif isinstance(data, dict) and data:
        said = _record(data, language)
    elif isinstance(data, (list, dict)):
        said = listed(data, language) or say(language, "无", "nothing")
    else:
        said = content.strip() if isinstance(data, str) else _said(data, "", language)
    return f"{name}{say(language, ':', ': ')}{said}"


def _record(data: dict[str, Any], language: Language) -> str:
    """A record's fields as one line of words: "date 2026-12-02, high 17°C, conditions sunny"."""
    return say(language, ",", ", ").join(field(k, v, language) for k, v in _readable(data, language).items())


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


@dataclass(frozen=True)
class Failure:
    """Why a call came to nothing, said for the user: a clause without its final full stop."""

    reason: str
    ran: bool = True  # False: the call was never run (a guard, the deadline, a rate limit said no)


_TOOL = r"'?(?P<tool>[A-Za-z0-9_.:-]+)'?"
_EXCEPTION_SUFFIXES = ("Error", "Exception", "Timeout", "Exceeded", "Limited", "Interrupt", "GivenUp", "Exit",
                       "Warning", "Failure", "Refused", "Reached")
_BUILTIN_EXCEPTIONS = frozenset(
    name for name, value in vars(builtins).items() if isinstance(value, type) and issubclass(value, BaseException)
)
# A class name where conductor writes one: first, or after "name: " in a list of fallbacks' errors.
_CLASS_NAME = re.compile(r"(?:(?<=^)|(?<=: )|(?<=; ))(?:[A-Za-z_]\w*\.)*(?P<name>[A-Z]\w*)(?=: |;|\s*$|\s*\()")
# Words a clause addressed to the model (or the caller) starts with: "check the divisor", "use smaller numbers".
_IMPERATIVES = frozenset(
    """use send check simplify split fix try retry call pass give name do don't tell answer say ask make change
    provide choose pick specify add remove wait please shorten reduce rephrase correct""".split()
)
_CLASS_PREFIX = re.compile(r"(?:[A-Za-z_]\w*\.)*[A-Z]\w*: ")
RETRY_NOTE = re.compile(r"\s*\((?P<n>\d+) attempts\)")
# An exception as repr() writes it, as some tool runners send it: ValueError("unknown city 'x'").
_REPR = re.compile(r"^(?:[A-Za-z_]\w*\.)*(?P<name>[A-Z]\w*)\((?P<q>[\"'])(?P<message>.*)(?P=q),?\)$", re.S)


def _is_class_name(name: str) -> bool:
    return name in _BUILTIN_EXCEPTIONS or (name.endswith(_EXCEPTION_SUFFIXES) and len(name) > 6)


def _without_class_names(text: str) -> str:
    """ "ValueError: unknown city" -> "unknown city"; also inside a fallback's error ("cache: LookupError: ...")."""
    def cut(match: re.Match[str]) -> str:
        return "" if _is_class_name(match.group("name")) else match.group(0)

    text = _CLASS_NAME.sub(cut, text)
    return re.sub(r"(?:(?<=^)|(?<=: )|(?<=; )): ", "", text).strip()


def _for_the_user(message: str) -> str:
    """A tool's own message without the clauses that tell its caller what to do ("check the divisor")."""
    clauses = [c.strip() for c in re.split(r";\s+|\.\s+(?=[A-Z])", message.strip()) if c.strip()]
    kept = []
    for clause in clauses:
        first, _, rest = clause.partition(" ")
        imperative = first.casefold() in _IMPERATIVES and not re.match(r"(?:is|are|was|were|has|have)\b", rest)
        retried = re.search(r"\b(?:may|can|should|could) be retried\b", clause)
        if retried:
            clause = re.sub(r",?\s*(?:and\s+)?(?:the call|it)?\s*(?:may|can|should|could) be retried", "", clause)
            imperative = imperative or not clause.strip()
        if not imperative:
            kept.append(clause.strip())
    return "; ".join(kept or clauses[:1]).rstrip(" .;:")


def quote_for(language: Language, text: str) -> str:
    """A tool's own words inside an answer: as they are in English; in a Chinese answer, English in quotes."""
    text = text.strip()
    if language == "zh" and re.search(r"[A-Za-z]{2,}", text) and not re.fullmatch(r"[\w.@:/-]+", text):
        return f"“{text}”"
    return text


def _denial_reason(reason: str, language: Language) -> str:
    known = {
        "the approval policy did not approve it": (
            "审批规则没有批准", "the approval policy did not approve it"),
        "no one approved it": ("没有人批准", "no one approved it"),
    }
    if not reason:
        return say(language, "没有获得批准", "it was not approved")
    if reason in known:
        return say(language, *known[reason])
    return say(language, f"没有获得批准,理由是:{quote_for(language, reason)}",
               f"it was not approved ({reason})")


def _problems_plainly(problems: str, language: Language) -> str:
    """A validation message ("a: Field required; b: Input should be a valid number, ...") said plainly:
    "a was missing; b must be a number"."""
    said = []
    for problem in re.split(r";\s+(?=[\w.\[\]]+: )", problems):
        field_, _, message = problem.partition(": ")
        field_, message = field_.strip(), message.strip()
        extra = re.search(r"\('([^']+)' (?:was|were) unexpected\)", message)
        required = re.match(r"'([^']+)' is a required property", message)
        should = re.match(r"Input should be (?:a valid )?(.+?)(?:, (?:unable|got|input)\b.*)?$", message)
        typed = re.match(r".+ is not of type '(\w+)'", message)
        kinds = {"number": ("数字", "a number"), "integer": ("整数", "a whole number"),
                 "string": ("文本", "text"),
                 "boolean": ("true 或 false", "true or false"), "object": ("对象", "an object"),
                 "array": ("列表", "a list"), "list": ("列表", "a list"), "dictionary": ("对象", "an object")}
        if message == "Field required" or required:
            name = required.group(1) if required else field_
            said.append(say(language, f"缺少 {name}", f"{name} was missing"))
        elif message.startswith("Extra inputs are not permitted") or extra:
            name = extra.group(1) if extra else field_
            said.append(say(language, f"{name} 不是它的参数", f"{name} is not one of its parameters"))
        elif should or typed:
            wanted = (typed.group(1) if typed else should.group(1)).strip()
            zh, en = kinds.get(wanted, (None, wanted))
            said.append(say(language, f"{field_} 必须是{zh}" if zh else f"{field_} 的值不符合要求",
                            f"{field_} must be {en}"))
        elif field_:
            said.append(say(language, f"{field_} 的值不符合要求", f"{field_} was not valid"))
    return say(language, ";", "; ").join(said)


def _seconds(text: str) -> str:
    return text[:-2] if text.endswith(".0") else text


def unwrapped(text: str) -> str:
    """An error's text without the ``ValueError("...")`` around it that repr() writes (some tool runners send that)."""
    text = text.strip()
    written = _REPR.match(text)
    if written and _is_class_name(written["name"]):
        return written["message"].replace("\\'", "'").replace('\\"', '"')
    return text


def plain_error(text: str, language: Language, subject: str | None = None) -> Failure:
    """What an error result means, for the user, in the answer's language.

    conductor's own messages to the model (the guards' refusals, timeouts, the deadline, rate limits, an
    output it could not send) are restated; a tool's own message is kept, without its exception's class
    name and without the clauses that tell the model what to do, and quoted in a Chinese answer (a
    timeout or a cache miss, and a fallback's failure, are said in Chinese instead).
    ``subject`` names the tool in a sentence ("the weather service"); by default "it".
    """
    original = unwrapped(text)
    # conductor's own messages, also when they reach the model as an exception's text ("RateLimited: rate limit: ...").
    text = _without_class_names(original) if _CLASS_PREFIX.match(original) else original
    it = subject or say(language, "它", "it")
    matched = re.match(rf"tool {_TOOL} is not allowed in this conversation", text)
    if matched:
        tool = matched["tool"]
        # The tool's name said as words (a person reads the answer), never its identifier.
        return Failure(say(language, "我在这次对话中无权使用这个工具",
                           f"I am not permitted to use {tool.replace('_', ' ')} in this conversation"), False)
    matched = re.match(rf"tool {_TOOL} was withdrawn for the rest of this conversation after (?P<n>\d+)", text)
    if matched:
        tool, n = matched["tool"], matched["n"]
        return Failure(say(language, f"{tool} 连续 {n} 次收到无效参数,这次对话里已经停用",
                           f"I stopped using {tool} after {n} calls with invalid arguments"), False)
    matched = re.match(
        rf"invalid arguments for {_TOOL}: (?P<problems>.*?)(?:\. (?:This was invalid call|Fix the arguments).*)?$",
        text, re.S)
    if matched:
        tool, problems = matched["tool"], matched["problems"].strip()
        withdrawn = "withdrawn" in text[matched.end("problems"):]
        said = _problems_plainly(problems, language)
        zh = f"我给的参数不符合要求({said})" if said else "我给的参数不符合要求"
        en = "the arguments I sent did not fit the tool" + (f" ({said})" if said else "")
        if withdrawn:
            zh, en = zh + f",{tool} 已经停用", en + f", so I stopped using {tool}"
        return Failure(say(language, zh, en), False)
    matched = re.match(rf"arguments for {_TOOL} (?:are not valid JSON|must be a JSON object)", text)
    if matched:
        return Failure(say(language, "我给的参数不是有效的 JSON 对象",
                           "the arguments I sent were not a valid JSON object"), False)
    matched = re.match(rf"unknown tool {_TOOL}", text)
    if matched:
        tool = matched["tool"]
        return Failure(say(language, f"没有叫 {tool} 的工具", f"there is no tool called {tool}"), False)
    matched = re.match(rf"you already called {_TOOL} with exactly these arguments (?P<n>\d+) times?", text)
    if matched:
        n = matched["n"]
        return Failure(say(language, f"同样的调用之前已经做过 {n} 次,所以没有再做",
                           f"I had already made exactly this call {n} {'time' if n == '1' else 'times'}"), False)
    matched = re.match(rf"the user did not approve this call to {_TOOL}(?: \((?P<reason>.*)\))?, so it was not run",
                       text, re.S)
    if matched:
        return Failure(_denial_reason((matched["reason"] or "").strip(), language), False)
    matched = re.match(rf"{_TOOL} was not run: its arguments are not the ones that were approved", text)
    if matched:
        return Failure(say(language, "它的参数在批准之后被改动过",
                           "its arguments were changed after they were approved"), False)
    matched = re.match(rf"{_TOOL} was not run: the run's deadline had passed", text)
    if matched:
        return Failure(say(language, "这次请求的时限已到,来不及执行",
                           "the time allowed for this request ran out before it could start"), False)
    matched = re.match(r"the MCP server (?P<server>.+?)'s tools changed since they were read and approved "
                       r"\((?P<change>.*)\), so the call to .+? was not made", text, re.S)
    if matched:  # conductor.mcp's refusal; what the program must do next is for its author, not the user
        server, change = matched["server"], matched["change"]
        return Failure(say(language,
                           f"MCP 服务器 {server} 的工具在批准之后变了({quote_for(language, change)}),所以没有调用",
                           f"the tools of the MCP server {server} changed after they were approved ({change}), "
                           "so it was not called"), False)
    matched = re.match(rf"{_TOOL} was abandoned at the run's deadline \(still running after (?P<s>[\d.]+) s\)", text)
    if matched:
        s = _seconds(matched["s"])
        return Failure(say(language, f"时限到时{it}还在运行,结果不再等待",
                           f"{it} was still running at the run's deadline (after {s} s) and was given up"))
    matched = re.match(rf"{_TOOL} was given up while it waited for the rate limit", text)
    if matched:
        return Failure(say(language, "等待调用额度的时间太长,已经放弃",
                           "it waited too long for the rate limit and was given up"), False)
    matched = re.match(
        r"rate limit: (?P<user>.+?) may make (?P<n>\d+) tool calls a minute(?:.*?Try again in (?P<s>\d+) s)?",
        text, re.S)
    if matched:
        user, n, s = matched["user"], matched["n"], matched["s"]
        later = say(language, f",{s} 秒后可以再试", f"; it can be tried again in {s} s") if s else ""
        return Failure(say(language, f"{user} 每分钟最多调用 {n} 次工具,额度已经用完{later}",
                           f"{user} has used the {n} tool {'call' if n == '1' else 'calls'} allowed per minute"
                           f"{later}"), False)
    matched = re.match(rf"(?:ToolTimeout: )?{_TOOL} timed out after (?P<s>[\d.]+) s", text)
    if matched:
        s = _seconds(matched["s"])
        return Failure(say(language, f"{it}在 {s} 秒内没有返回结果", f"{it} did not answer within {s} s"))
    matched = re.match(rf"(?:ToolTimeout: )?{_TOOL} was not tried: its retry deadline had passed", text)
    if matched:
        return Failure(say(language, "重试的时限已过,没有再试",
                           "its time for retries had run out before it could be tried"), False)
    matched = re.match(rf"(?:ToolOutputError: )?(?:tool {_TOOL}|the tool) ran \(its side effects", text)
    if matched:
        return Failure(say(language, f"{it}执行了,但返回的结果无法读取",
                           f"{it} ran, but what it returned could not be read"))
    return Failure(_tool_message(original, language, it))


def _tool_message(text: str, language: Language, it: str) -> str:
    """A tool's own failure: its message without class names and instructions; tries and fallbacks said plainly."""
    primary, _, fallbacks = text.partition("; the fallbacks failed too: ")
    tries = RETRY_NOTE.search(primary)
    if tries:
        primary = primary[: tries.start()] + primary[tries.end():]
    bare = primary.strip()
    message = _for_the_user(_without_class_names(bare))
    if not message:
        name = bare.split(":")[0].strip()
        known = {"TimeoutError": ("超时了", "it timed out"),
                 "ConnectionError": ("连接失败", "the connection failed")}
        zh, en = known.get(name, (f"{it}失败了,没有说明原因", f"{it} failed without saying why"))
        return say(language, zh, en)
    if bare.startswith("KeyError: "):
        message = say(language, f"找不到 {message}", f"there is no entry {message}")
        said = message
    else:
        said = (_in_chinese(message, it) if language == "zh" else None) or quote_for(language, message)
    if tries:
        n = tries["n"]
        said += say(language, f"(试了 {n} 次)", f" (tried {n} times)")
    if fallbacks:
        failed = re.split(r";\s+(?=[\w.-]+: )", fallbacks)
        if language == "zh":  # each fallback's own words, without its function's name, restated when known
            said += ";备用来源也失败了:" + ";".join(_fallback_in_chinese(f) for f in failed)
        else:
            others = "; ".join(_for_the_user(_without_class_names(f)) for f in failed)
            said += f", and the fallbacks failed too: {others}"
    return said


# A tool's own words for two common failures, said in Chinese for a Chinese answer rather than quoted:
# a service that did not answer in time, and a cache that does not hold the key.
_NO_ANSWER = re.compile(
    r"\b(?:did not|didn't|could not|failed to) (?:answer|respond|reply)\b(?P<rest>.*)$|\btimed out\b(?P<after>.*)$",
    re.IGNORECASE | re.S,
)
_WITHIN = re.compile(r"\b(?:within|in|after) (?P<s>\d+(?:\.\d+)?) ?(?:s|secs?|seconds?)\b", re.IGNORECASE)
_CACHE_MISS = re.compile(
    r"^no cached \w+(?: \w+)? for (?P<key>'[^']*'|\"[^\"]*\"|\S+)(?:; the cache holds (?P<held>.+))?$",
    re.IGNORECASE | re.S,
)


def _in_chinese(message: str, it: str) -> str | None:
    """A tool's own message about a timeout or a cache miss, said in Chinese; ``None`` for any other."""
    no_answer = _NO_ANSWER.search(message)
    if no_answer:
        rest = no_answer["rest"] if no_answer["rest"] is not None else no_answer["after"]
        within = _WITHIN.search(rest)
        if within:
            return f"{it}在 {_seconds(within['s'])} 秒内没有返回结果"
        if no_answer["after"] is not None or re.search(r"\bin time\b", rest, re.IGNORECASE):
            return f"{it}没有及时返回结果"
    miss = _CACHE_MISS.match(message.strip())
    if miss:
        key = miss["key"].strip("'\"")
        held = "、".join(h.strip() for h in miss["held"].split(",")) if miss["held"] else ""
        return f"缓存里没有{key}的数据" + (f"(缓存里只有{held})" if held else "")
    return None


def _fallback_in_chinese(failure: str) -> str:
    """One fallback's error ("get_weather_cached: LookupError: no cached weather for '广州'") for a Chinese answer."""
    message = _for_the_user(_without_class_names(failure))
    named = re.match(r"[A-Za-z_][\w.-]*: (?=\S)", message)
    if named:  # the fallback's function name means nothing to the user: "备用来源" already says what it is
        message = message[named.end():]
    if re.match(r"[A-Za-z_][\w.-]*: KeyError: ", failure.strip()):
        return f"找不到 {message}"
    return _in_chinese(message, "备用来源") or quote_for("zh", message)


__all__ = ["Failure", "RETRY_NOTE", "field", "label", "listed", "name_words", "plain_error", "quote_for",
           "result_words", "unit_of", "unwrapped"]
