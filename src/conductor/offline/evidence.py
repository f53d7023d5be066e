"""Reading what the tools returned, for the offline model's answers.

Every answer the offline model writes is built from these readings of the
actual tool results in the conversation, so changing a tool's data changes
the answer.
"""

from __future__ import annotations

import builtins
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..types import ToolCall, ToolResult
from .conversation import CallTools, Conversation, Decision, PlannedCall, Reply
from .language import Language, glossed, say


def arguments_of(call: ToolCall) -> dict[str, Any]:
    """The call's arguments, or ``{}`` when they are not a JSON object (the tool will have said so)."""
    try:
        return call.parsed_arguments()
    except ValueError:
        return {}


def data_of(result: ToolResult) -> Any:
    """The result's JSON value, or its text when it is not JSON (a note for the model before it set aside)."""
    content = reviewed(result.content)[1]
    try:
        return json.loads(content)
    except ValueError:
        return content


def error_of(result: ToolResult) -> str | None:
    """Why the call failed, as the tool result says it to the model: the error result's text, or the
    ``"error"`` of a returned dict; else ``None``. An answer says it with :func:`plain_error`."""
    if result.is_error:
        return result.content.strip() or "the tool failed without a message"
    data = data_of(result)
    if isinstance(data, dict) and data.get("error"):
        return str(data["error"])
    return None


def localized(data: dict[str, Any], key: str, language: Language) -> Any:
    """``data[key]``, or ``data[key + "_en"]`` for English when the tool offers both languages."""
    if language == "en" and f"{key}_en" in data:
        return data[f"{key}_en"]
    return data.get(key, data.get(f"{key}_en"))


def describe_call(name: str, arguments: dict[str, Any] | str) -> str:
    """``get_weather(city="上海")``: a call as a learner would write it."""
    if isinstance(arguments, str):
        return f"{name}({arguments})"
    listed = ", ".join(f"{key}={json.dumps(value, ensure_ascii=False)}" for key, value in arguments.items())
    return f"{name}({listed})"


def missing_note(missing: Sequence[PlannedCall], language: Language, *, alone: bool = False) -> str:
    """A note naming the calls the model wanted but could not make; empty when there are none.

    ``alone``: nothing was gathered, so the note is the whole answer: a sentence, not a parenthesis.
    """
    if not missing:
        return ""
    listed = ", ".join(describe_call(call.name, call.arguments) for call in missing)
    if alone:
        return say(language, f"我还无法回答:本次请求不允许再调用工具,而我还需要调用 {listed}。",
                   f"I cannot answer yet: no more tool calls were allowed in this request, and I still needed {listed}.")
    return say(
        language,
        f"(还缺少这些工具调用的结果,本次请求不允许再调用工具:{listed}。)",
        f"(Still missing, because no more tool calls were allowed: {listed}.)",
    )


def proceed(
    conversation: Conversation, calls: Sequence[PlannedCall], answer: Callable[[Sequence[PlannedCall]], str]
) -> Decision:
    """Make the next calls when tools are allowed; otherwise answer now from what was gathered.

    ``answer`` receives the calls that could not be made, so the reply can say what is missing.
    """
    if calls and conversation.tools_allowed:
        return CallTools(tuple(calls))
    return Reply(answer(calls))


# -- what a result says to the model, said for the user -------------------------------------------------
# Tool results are written for the model: conductor's guards tell it what not to do ("Do not try it again;
# tell the user it was not done"), a timeout names the tool, an exception comes as "ValueError: ...". The
# answer is for a person: it says what happened in plain words, in the question's language, and never
# copies an instruction meant for the model or a Python class name.


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
        "the approval policy did not approve it": ("审批规则没有批准", "the approval policy did not approve it"),
        "no one approved it": ("没有人批准", "no one approved it"),
    }
    if not reason:
        return say(language, "没有获得批准", "it was not approved")
    if reason in known:
        return say(language, *known[reason])
    return say(language, f"没有获得批准,理由是:{quote_for(language, reason)}", f"it was not approved ({reason})")


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
        kinds = {"number": ("数字", "a number"), "integer": ("整数", "a whole number"), "string": ("文本", "text"),
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
            said.append(say(language, f"{field_} 必须是{zh}" if zh else f"{field_} 的值不符合要求", f"{field_} must be {en}"))
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
    matched = re.match(rf"invalid arguments for {_TOOL}: (?P<problems>.*?)(?:\. (?:This was invalid call|Fix the arguments).*)?$",
                       text, re.S)
    if matched:
        tool, problems = matched["tool"], matched["problems"].strip()
        withdrawn = "withdrawn" in text[matched.end("problems"):]
        said = _problems_plainly(problems, language)
        zh = f"我给的参数不符合要求({said})" if said else "我给的参数不符合要求"
        en = f"the arguments I sent did not fit the tool ({said})" if said else "the arguments I sent did not fit the tool"
        if withdrawn:
            zh, en = zh + f",{tool} 已经停用", en + f", so I stopped using {tool}"
        return Failure(say(language, zh, en), False)
    matched = re.match(rf"arguments for {_TOOL} (?:are not valid JSON|must be a JSON object)", text)
    if matched:
        return Failure(say(language, "我给的参数不是有效的 JSON 对象", "the arguments I sent were not a valid JSON object"), False)
    matched = re.match(rf"unknown tool {_TOOL}", text)
    if matched:
        tool = matched["tool"]
        return Failure(say(language, f"没有叫 {tool} 的工具", f"there is no tool called {tool}"), False)
    matched = re.match(rf"you already called {_TOOL} with exactly these arguments (?P<n>\d+) times?", text)
    if matched:
        n = matched["n"]
        return Failure(say(language, f"同样的调用之前已经做过 {n} 次,所以没有再做",
                           f"I had already made exactly this call {n} {'time' if n == '1' else 'times'}"), False)
    matched = re.match(rf"the user did not approve this call to {_TOOL}(?: \((?P<reason>.*)\))?, so it was not run", text, re.S)
    if matched:
        return Failure(_denial_reason((matched["reason"] or "").strip(), language), False)
    matched = re.match(rf"{_TOOL} was not run: its arguments are not the ones that were approved", text)
    if matched:
        return Failure(say(language, "它的参数在批准之后被改动过", "its arguments were changed after they were approved"), False)
    matched = re.match(rf"{_TOOL} was not run: the run's deadline had passed", text)
    if matched:
        return Failure(say(language, "这次请求的时限已到,来不及执行", "the time allowed for this request ran out before it could start"), False)
    matched = re.match(r"the MCP server (?P<server>.+?)'s tools changed since they were read and approved "
                       r"\((?P<change>.*)\), so the call to .+? was not made", text, re.S)
    if matched:  # conductor.mcp's refusal; what the program must do next is for its author, not the user
        server, change = matched["server"], matched["change"]
        return Failure(say(language, f"MCP 服务器 {server} 的工具在批准之后变了({quote_for(language, change)}),所以没有调用",
                           f"the tools of the MCP server {server} changed after they were approved ({change}), "
                           "so it was not called"), False)
    matched = re.match(rf"{_TOOL} was abandoned at the run's deadline \(still running after (?P<s>[\d.]+) s\)", text)
    if matched:
        s = _seconds(matched["s"])
        return Failure(say(language, f"时限到时{it}还在运行,结果不再等待",
                           f"{it} was still running at the run's deadline (after {s} s) and was given up"))
    matched = re.match(rf"{_TOOL} was given up while it waited for the rate limit", text)
    if matched:
        return Failure(say(language, "等待调用额度的时间太长,已经放弃", "it waited too long for the rate limit and was given up"), False)
    matched = re.match(r"rate limit: (?P<user>.+?) may make (?P<n>\d+) tool calls a minute(?:.*?Try again in (?P<s>\d+) s)?", text, re.S)
    if matched:
        user, n, s = matched["user"], matched["n"], matched["s"]
        later = say(language, f",{s} 秒后可以再试", f"; it can be tried again in {s} s") if s else ""
        return Failure(say(language, f"{user} 每分钟最多调用 {n} 次工具,额度已经用完{later}",
                           f"{user} has used the {n} tool {'call' if n == '1' else 'calls'} allowed per minute{later}"), False)
    matched = re.match(rf"(?:ToolTimeout: )?{_TOOL} timed out after (?P<s>[\d.]+) s", text)
    if matched:
        s = _seconds(matched["s"])
        return Failure(say(language, f"{it}在 {s} 秒内没有返回结果", f"{it} did not answer within {s} s"))
    matched = re.match(rf"(?:ToolTimeout: )?{_TOOL} was not tried: its retry deadline had passed", text)
    if matched:
        return Failure(say(language, "重试的时限已过,没有再试", "its time for retries had run out before it could be tried"), False)
    matched = re.match(rf"(?:ToolOutputError: )?(?:tool {_TOOL}|the tool) ran \(its side effects", text)
    if matched:
        return Failure(say(language, f"{it}执行了,但返回的结果无法读取", f"{it} ran, but what it returned could not be read"))
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
        known = {"TimeoutError": ("超时了", "it timed out"), "ConnectionError": ("连接失败", "the connection failed")}
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
    r"^no cached \w+(?: \w+)? for (?P<key>'[^']*'|\"[^\"]*\"|\S+)(?:; the cache holds (?P<held>.+))?$", re.IGNORECASE | re.S
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


# A note conductor writes at the head of a result for the model: a person changed the call before it ran.
_REVIEWED = re.compile(r"^\[(?P<note>[^\]]*)\]\n")


def reviewed(content: str) -> tuple[str | None, str]:
    """(what a reviewer changed, said for the user; the result without the note) for a result that starts
    with conductor's note to the model about an edited call; ``(None, content)`` for any other."""
    matched = _REVIEWED.match(content)
    if not matched or "changed its arguments" not in matched["note"]:
        return None, content
    changes = re.search(r"approving it: (?P<changes>.*?)\.(?: It ran with|$)", matched["note"])
    return (changes["changes"].strip() if changes else ""), content[matched.end():]


def reviewer_note(result: ToolResult, language: Language) -> str:
    """ "(a reviewer changed its arguments before it ran: amount from 5000 to 500)", or "" for an unedited call."""
    changes, _ = reviewed(result.content)
    if changes is None:
        return ""
    if not changes:
        return say(language, "(审核人在批准前改过它的参数)", "(a reviewer changed its arguments before it ran)")
    return say(language, f"(审核人在批准前改过它的参数:{changes})",
               f"(a reviewer changed its arguments before it ran: {changes})")


# -- sentences ------------------------------------------------------------------------------------------

_END = re.compile(r"[.!?。!?…]$")


def ended(text: str, language: Language) -> str:
    """The text as a sentence: its own final stop kept, else one added; never two."""
    text = text.rstrip()
    if not text or _END.search(text):
        return text
    if text[-1] in ",;:,;:、":
        text = text[:-1]
    return text + say(language, "。", ".")


_DOUBLED = (
    (re.compile(r"(?<![.])\.\.(?![.\w])"), "."), (re.compile(r"\.。|。\."), "。"), (re.compile(r"。。+"), "。"),
    (re.compile(r",,+"), ","), (re.compile(r"，，+"), "，"), (re.compile(r"([!?!?])[.。]"), r"\1"),
)


def tidy(text: str) -> str:
    """No doubled punctuation where sentences were joined ("..", ".。", ",,"); an ellipsis stays."""
    for pattern, single in _DOUBLED:
        text = pattern.sub(single, text)
    return text


def finished(text: str, language: Language) -> str:
    """A built-in policy's reply as it goes out: no doubled stops; in English, Chinese names glossed."""
    text = tidy(text)
    return glossed(text) if language == "en" else text
