"""Reading what the tools returned, for the offline model's answers.

Every answer the offline model writes is built from these readings of the
actual tool results in the conversation, so changing a tool's data changes
the answer.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any

from ..types import ToolCall, ToolResult
from ..wording import (  # conductor's messages said plainly: the library's; named here too
    RETRY_NOTE, Failure, plain_error, quote_for, unwrapped,
)
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


def wanted_words(call: PlannedCall, language: Language) -> str:
    """A call the model still wanted, said as words: "suggest clothing for temperature 5" / 建议穿衣(气温 5)."""
    from ..wording import label
    from .wording import call_words

    what = label(call.name, language)
    arguments = call_words(call.name, call.arguments, language) if isinstance(call.arguments, dict) else ""
    if language == "zh" and not re.search(r"[\u4e00-\u9fff]", what):
        return ""  # no Chinese words for this tool: the note counts it rather than mix in English
    if not arguments:
        return what
    return say(language, f"{what}({arguments})", f"{what} for {arguments}")


def missing_note(missing: Sequence[PlannedCall], language: Language, *, alone: bool = False) -> str:
    """A note saying, in words, what the model wanted to do but could not; empty when there is nothing.

    ``alone``: nothing was gathered, so the note is the whole answer: a sentence, not a parenthesis.
    """
    if not missing:
        return ""
    said = [wanted_words(call, language) for call in missing]
    english = said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]
    listed = say(language, "、".join(said), english)
    if language == "zh" and not all(said):
        listed = f"{len(said)}个工具调用" if len(said) > 1 else "一个工具调用"
    if alone:
        return say(language, f"我还无法回答:本次请求不允许再调用工具,还有这一步没做:{listed}。",
                   f"I can't answer yet: no more tool calls were allowed in this request, and this is still to "
                   f"do: {listed}.")
    return say(language, f"(本次请求不允许再调用工具,还有这一步没做:{listed}。)",
               f"(Still to do, as no more tool calls were allowed: {listed}.)")


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
