"""Decision policies of the offline model, and the request constraints applied to their decisions.

``decide`` asks, in order: the policies given to the model, the policies
learners registered (so an exercise can override a built-in), the scenario
policies (weather, courses, arithmetic, see ``scenario_policies``) and last the
generic policy. It then enforces the request's constraints on the decision the
way a real API constrains a real model: ``tool_choice`` none means text, ``required`` and a forced tool mean a call,
``parallel_tool_calls`` false means at most one call per turn.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from ..types import ToolSpec
from .conversation import CallTools, Conversation, Decision, PlannedCall, Policy, Reply
from .evidence import summarize
from .language import (
    STOPWORDS,
    Language,
    cjk_bigrams,
    language_of,
    mentions,
    numbers_in,
    quoted,
    say,
    stem,
    words,
)
from .scenario_policies import SCENARIO_POLICIES

__all__ = [
    "decide",
    "register_policy",
    "unregister_policy",
    "using_policy",
    "generic_policy",
    "BUILTIN_POLICIES",
    "POLICIES",
]

_REGISTERED: list[Policy] = []


def register_policy(policy: Policy) -> Policy:
    """Add a policy every offline model consults before the built-in ones; usable as a decorator."""
    _REGISTERED.append(policy)
    return policy


def unregister_policy(policy: Policy) -> None:
    """Remove a registered policy; a ``ValueError`` if it was not registered."""
    try:
        _REGISTERED.remove(policy)
    except ValueError:
        name = getattr(policy, "__name__", policy)
        raise ValueError(f"{name!r} is not registered; register_policy() adds it") from None


@contextmanager
def using_policy(policy: Policy) -> Iterator[Policy]:
    """Register a policy for the duration of a ``with`` block (an exercise, a test)."""
    register_policy(policy)
    try:
        yield policy
    finally:
        unregister_policy(policy)


# -- the generic policy -------------------------------------------------------------
# How it matches a tool, written down because learners read it: the question's
# words (stopwords dropped, plurals folded) are compared with the tool's name
# split at "_" / "-" / camelCase (3 points per shared word), its enum values
# (3 points per value the question contains) and its description words (1 point
# each; for Chinese, shared pairs of adjacent characters). A tool scoring 2 or
# more is called, the best first. Required parameters are filled from the
# question: enums from a value it names, numbers from its first number, strings
# from quoted text, else from the words left once the tool's own words are
# removed, else from the whole question. A tool whose required parameters cannot
# be filled is not called.

_MATCH_THRESHOLD = 2
_NAME_POINTS = 3
_ENUM_POINTS = 3
_GENERIC_NAME_WORDS = frozenset({"get", "set", "fetch", "run", "call", "tool", "make", "use", "do"})


def _schema_of(schema: dict[str, Any]) -> dict[str, Any]:
    """The non-null branch of an ``anyOf`` (how pydantic writes ``X | None``)."""
    for option in schema.get("anyOf", ()):
        if option.get("type") != "null":
            return {**schema, **option}
    return schema


def _tool_terms(spec: ToolSpec) -> tuple[set[str], set[str]]:
    """(name words, description words) of a tool, stemmed."""
    name_words = {
        stem(part.lower())
        for part in re.split(r"[_\-\s]+|(?<=[a-z])(?=[A-Z])", spec.name)
        if len(part) >= 3 and part.lower() not in _GENERIC_NAME_WORDS and part.lower() not in STOPWORDS
    }
    description_words = {stem(w) for w in words(spec.description) if len(w) >= 3} - name_words - _GENERIC_NAME_WORDS
    return name_words, description_words


def _enum_values(spec: ToolSpec) -> list[Any]:
    values = []
    for schema in spec.parameters.get("properties", {}).values():
        values.extend(_schema_of(schema).get("enum", ()))
    return values


def match_score(spec: ToolSpec, question: str) -> int:
    """How plainly the question asks for this tool (see the comment above ``_MATCH_THRESHOLD``)."""
    question_words = {stem(w) for w in words(question) if len(w) >= 3}
    name_words, description_words = _tool_terms(spec)
    enum_hits = sum(1 for v in _enum_values(spec) if len(str(v)) >= 2 and mentions(question, [str(v)]))
    shared_pairs = cjk_bigrams(question) & cjk_bigrams(f"{spec.name} {spec.description}")
    return (
        _NAME_POINTS * len(question_words & name_words)
        + _ENUM_POINTS * enum_hits
        + len(question_words & description_words)
        + len(shared_pairs)
    )


def _leftover_words(spec: ToolSpec, question: str) -> str:
    """The question's words that are not stopwords nor the tool's own words or enum values, as written."""
    name_words, description_words = _tool_terms(spec)
    own = name_words | description_words | {stem(str(v).casefold()) for v in _enum_values(spec)}
    kept = [
        w for w in re.findall(r"[A-Za-z0-9][A-Za-z0-9'.\-]*[A-Za-z0-9]|[A-Za-z0-9]", question)
        if w.casefold().replace("'", "") not in STOPWORDS and stem(w.casefold()) not in own
    ]
    return " ".join(kept)


def _fill(schema: dict[str, Any], spec: ToolSpec, question: str) -> Any:
    """A value for one parameter taken from the question, or ``None`` when it gives none."""
    schema = _schema_of(schema)
    if "enum" in schema:
        return next((v for v in schema["enum"] if mentions(question, [str(v)])), None)
    kind = schema.get("type")
    if kind in ("integer", "number"):
        numbers = numbers_in(question)
        if not numbers:
            return None
        return int(numbers[0]) if kind == "integer" else numbers[0]
    if kind == "string":
        quotes = quoted(question)
        stripped = question.strip().rstrip("?？!！。.")
        return quotes[0] if quotes else (_leftover_words(spec, question) or stripped or None)
    return None


_PLACEHOLDERS: dict[str, Any] = {"integer": 0, "number": 0, "boolean": False, "array": [], "object": {}}


def fill_arguments(spec: ToolSpec, question: str, *, guess: bool = False) -> dict[str, Any] | None:
    """Arguments for ``spec`` read from the question; ``None`` when a required one cannot be read.

    With ``guess=True`` (a forced call must be made anyway) unreadable required
    arguments get a placeholder: the question for strings, the first enum value,
    0, false, [] or {}; the tool's validation may then reject them, as it would a model's guess.
    """
    required = set(spec.parameters.get("required", ()))
    arguments: dict[str, Any] = {}
    for name, schema in spec.parameters.get("properties", {}).items():
        optional_enum = name not in required and "enum" in _schema_of(schema)
        if name not in required and not optional_enum:
            continue
        value = _fill(schema, spec, question)
        if value is None and name in required:
            if not guess:
                return None
            schema = _schema_of(schema)
            value = schema["enum"][0] if schema.get("enum") else _PLACEHOLDERS.get(schema.get("type", ""), question)
        if value is not None:
            arguments[name] = value
    return arguments


def _best_call(conversation: Conversation, *, guess: bool) -> PlannedCall | None:
    """The call to the offered tool the question matches best (guessing: the best tool even with no match)."""
    question = conversation.question
    # sorted() is stable, so the offer order breaks ties.
    ranked = sorted(conversation.tools, key=lambda spec: -match_score(spec, question))
    for spec in ranked:
        if not guess and match_score(spec, question) < _MATCH_THRESHOLD:
            break
        arguments = fill_arguments(spec, question, guess=guess)
        if arguments is not None:
            return PlannedCall(spec.name, arguments)
    return None


def _stand_in_text(conversation: Conversation, language: Language) -> str:
    """What the offline model says when no policy fits: what it is, what it can do, how to get a real model."""
    names = ", ".join(conversation.tool_names)
    if conversation.tools_allowed:
        tools = say(
            language, f"提供的工具({names})都和这个问题对不上。", f"None of the offered tools ({names}) matches this question."
        )
    elif conversation.tools:
        tools = say(language, "这次请求提供了工具,但不允许调用。", "Tools were offered but not allowed in this request.")
    else:
        tools = say(language, "这次请求没有提供工具。", "No tools were offered with this request.")
    return say(
        language,
        "我是离线替身模型,不是真正的大模型,只按简单可见的规则行事:查询我认识的城市的天气和穿衣建议、"
        "做算术、查课程大纲和课程内容,以及在问题明显提到某个工具的名称或描述时调用它。"
        f"{tools}要得到真正的回答,请连接真实模型:设置 OPENAI_API_KEY 后用 cd.connect(\"openai\"),"
        "或设置 ANTHROPIC_API_KEY 后用 cd.connect(\"anthropic\")。",
        "I am the offline stand-in model, not a real LLM: I follow simple, visible rules. I look up the weather "
        "(and what to wear) for cities I know, do arithmetic, read course outlines and lessons, and call an offered "
        f"tool when the question plainly names it or its description. {tools} For real answers, connect a real "
        'model: cd.connect("openai") with OPENAI_API_KEY set, or cd.connect("anthropic") with ANTHROPIC_API_KEY set.',
    )


def generic_policy(conversation: Conversation) -> Decision:
    """Any other question: call the tool it plainly asks for, then answer by quoting the results.

    With results gathered since the question it answers by quoting them. With
    none, it calls the best-matching offered tool (name, enum values and
    description words; see the comment above) with arguments read from the
    question. Otherwise it says it is the offline stand-in model, what it can
    do, and how to connect a real one.
    """
    language = language_of(conversation.question)
    if conversation.exchanges():
        return Reply(summarize(conversation, language))
    call = _best_call(conversation, guess=False) if conversation.tools_allowed else None
    if call is not None:
        return CallTools((call,))
    return Reply(_stand_in_text(conversation, language))


BUILTIN_POLICIES: tuple[Policy, ...] = (*SCENARIO_POLICIES, generic_policy)
"""The built-in policies, in the order ``decide`` consults them after the model's and the registered ones."""

POLICIES: tuple[tuple[str, str], ...] = tuple(
    (policy.__name__, (policy.__doc__ or "").strip().splitlines()[0]) for policy in BUILTIN_POLICIES
)
"""(name, one-line description) of each built-in policy, for display."""


# -- deciding --------------------------------------------------------------------------


def decide(conversation: Conversation, policies: Iterable[Policy] = ()) -> Decision:
    """The offline model's decision for one request, within the request's constraints."""
    chain = [*policies, *_REGISTERED, *SCENARIO_POLICIES]
    decision = next((d for d in (policy(conversation) for policy in chain) if d is not None), None)
    return _constrain(conversation, decision if decision is not None else generic_policy(conversation))


def _answer_now(conversation: Conversation, missing: Iterable[PlannedCall] = ()) -> Reply:
    """A text answer from what was gathered (or the stand-in text when nothing was)."""
    language = language_of(conversation.question)
    missing = tuple(missing)
    if conversation.exchanges() or missing:
        return Reply(summarize(conversation, language, missing))
    return Reply(_stand_in_text(conversation, language))


def _constrain(conversation: Conversation, decision: Decision) -> Decision:
    """Hold a decision to the request's rules, as a real API holds a real model.

    What an API enforces is enforced here: ``tool_choice`` (none, required, a
    forced tool) and ``parallel_tool_calls``. Tool names are not filtered, as no
    API guarantees them either: the built-in policies only name offered tools,
    and a learner's policy may name any, which is how a lesson shows a made-up
    tool name meeting the executor's allowlist.
    """
    if not conversation.tools_allowed:
        return _answer_now(conversation, decision.calls) if isinstance(decision, CallTools) else decision
    if isinstance(decision, CallTools) and not decision.calls:
        decision = _answer_now(conversation)
    forced = conversation.tool(conversation.forced_tool or "") if conversation.tool_choice == "tool" else None
    if forced is not None:
        calls = tuple(c for c in decision.calls if c.name == forced.name) if isinstance(decision, CallTools) else ()
        arguments = fill_arguments(forced, conversation.question, guess=True) or {}
        decision = CallTools(calls or (PlannedCall(forced.name, arguments),))
    elif conversation.tool_choice == "required" and isinstance(decision, Reply):
        call = _best_call(conversation, guess=True)
        decision = CallTools((call,)) if call is not None else decision
    if isinstance(decision, CallTools) and not conversation.parallel_tool_calls:
        return CallTools(decision.calls[:1], decision.text)
    return decision
