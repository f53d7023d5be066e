"""Decision policies of the offline model, and the request constraints applied to their decisions.

``decide`` asks, in order: the policies given to the model, the policies
learners registered (so an exercise can override a built-in), the scenario
policies (weather, courses, arithmetic, see ``scenario_policies``) and last the
generic policy. ``POLICIES`` lists the built-in ones with a line each.

The generic policy is the one a learner's own tool meets. It calls an offered
tool only with arguments the question states (see ``arguments`` for how each
parameter is read from its name, type and description); when a required one is
missing it makes no call and says which tool it would use and which parameter
the question did not give, in one sentence (how to connect a real model is said
once, as a ``conductor:`` log line). With results in hand it answers in the question's
language, one sentence per entity with the values quoted, and says which is
highest or lowest when the question compares (see ``answers``); a result field
that fills another matching tool's required parameter leads to one more round.
A question that asks for steps in order ("..., then ...") gets one round per
step, a later step's "it" being the earlier step's result; a step it cannot do
is named in the answer.
Replies of the built-in policies go out tidied (``evidence.finished``): no
doubled stops, and an English answer glosses the Chinese names it quotes.

``decide`` then holds the decision to the request's constraints the way a real
API holds a real model: ``tool_choice`` none means text; ``required`` or a
forced tool means a call, made with the arguments the question states and no
others (the tool's validation then says what is missing); ``parallel_tool_calls``
false means at most one call per turn.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from os.path import commonprefix
from typing import Any

from ..types import ToolSpec
from .answers import compose_answer
from .arguments import (
    Filled,
    Parameter,
    CHINESE_CONCEPTS,
    category_values,
    chinese_concepts_in,
    concepts_of,
    fill,
    measure_of,
    name_words,
    option_named,
    parameters_of,
    plan_arguments,
    read_question,
    role_of,
    side_of,
    typed_values,
    with_digits,
)
from .conversation import CallTools, Conversation, Decision, PlannedCall, Policy, Reply
from .course_policy import catalogue_policy
from .evidence import arguments_of, data_of, error_of, finished
from .language import STOPWORDS, Language, cjk_bigrams, format_number, language_of, say, stem, words
from .choices import outside_choices
from .formats import prepare
from .parts import REQUEST_VERBS, segment_calls, value_from_results
from .replies import UNREAD_LANGUAGE, missing_words, small_talk, unread_language
from .scenario_policies import SCENARIO_POLICIES
from .wording import call_words, decline, hint_real_model, label, not_mine

__all__ = [
    "decide",
    "register_policy",
    "unregister_policy",
    "using_policy",
    "generic_policy",
    "fill_arguments",
    "stated_arguments",
    "match_score",
    "value_fit",
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
# words (stopwords dropped, plurals folded, a few synonyms folded together such
# as plus/add/sum or lamp/light) are compared with the tool's name split at "_" /
# "-" / camelCase (3 points per shared word), its enum values (3 points per
# value the question contains), its description words and its parameters' names
# and descriptions (1 point each; for Chinese, shared pairs of adjacent
# characters). A word also matches another form of itself sharing its first 5
# letters or more ("weighed" and weight), and a verb its -ing noun ("ship" and
# shipping). A tool scoring 2 or more is a match, the best first. Its arguments are read from the question parameter by
# parameter (see ``arguments``); a match whose required parameters the question
# does not give is not called: the model names the missing parameter instead.
# When only a few tools are offered, the question's values also count, as they
# would for a person choosing among few: 1 point per required parameter that a
# value of its own kind fits (a time for a `time`, a place for a `city`, 15% for a `percent`, two
# quoted texts for two text parameters), and 1 more when the question gives
# every required parameter, so "Get me up at 06:45" finds set_alarm(time)
# although it never says "alarm"; 2 more when two or more of its values fill
# the tool, every required parameter included, so "find running shoes under
# $80" finds search_products(query, max_price).

_MATCH_THRESHOLD = 2
_FEW_TOOLS = 3
_NAME_POINTS = 3
_ENUM_POINTS = 3
_GENERIC_NAME_WORDS = frozenset({"get", "set", "fetch", "run", "call", "tool", "make", "use", "do"})
# Words too common in questions and descriptions alike to say what a question is about.
_WEAK_WORDS = frozenset("""only now right one ones got many much more less new first last next other some each every per
    any all not just want would could also how what which when where who why whether given omitted default optional
    e.g eg etc used use using name number value text type kind""".split())
# An amount of money or a currency code asks for a currency tool.
_CURRENCY = re.compile(
    r"[$€£¥]\s?\d|\b(?:USD|EUR|GBP|JPY|CNY|RMB|CHF|CAD|AUD|INR|KRW|HKD|SGD|dollars?|euros?|yen|yuan|rupees?)\b"
)
_SIGNS = {"°C": "celsius", "℃": "celsius", "°F": "fahrenheit", "℉": "fahrenheit", "%": "percent"}
# Arithmetic written with signs or "by" asks for the tool of that operation.
_OPERATION_SIGNS = (
    (r"\bhow\s+many\s+[a-z]+\s+(?:is|are|in|make|equals?)\s+\d", "convert"),
    (r"\d\s*\+\s*\d", "add"), (r"\d\s*-\s*\d", "subtract"),
    (r"\d\s*(?:\*|×|x|by)\s*\d", "multiply"), (r"\d\s*(?:/|÷)\s*\d", "divide"),
)


def _folded(word: str) -> set[str]:
    """A word's synonym groups, or the word stemmed (see ``arguments.concepts_of``)."""
    return concepts_of(word)


def _tool_terms(spec: ToolSpec) -> tuple[set[str], set[str]]:
    """(name words, description words) of a tool, stemmed and folded."""
    name_words = {
        concept
        for part in re.split(r"[_\-\s]+|(?<=[a-z])(?=[A-Z])", spec.name)
        if len(part) >= 3 and part.lower() not in _GENERIC_NAME_WORDS and part.lower() not in STOPWORDS
        for concept in _folded(part)
    }
    description_words = {concept for w in words(spec.description) if len(w) >= 3 for concept in _folded(w)}
    return name_words, description_words - name_words - _GENERIC_NAME_WORDS


def _enum_values(spec: ToolSpec) -> list[Any]:
    return [v for p in parameters_of(spec.parameters) for v in p.schema.get("enum", ())]


def _question_terms(question: str) -> set[str]:
    signs = {word for sign, word in _SIGNS.items() if sign in question.replace("° ", "°")}
    spoken = with_digits(question)
    currencies = {"currency"} if _CURRENCY.search(question) else set()
    operations = {operation for pattern, operation in _OPERATION_SIGNS if re.search(pattern, spoken)}
    terms = {concept for w in [*words(question), *signs] if len(w) >= 3 for concept in _folded(w)}
    chinese = {concept for phrase, concepts in CHINESE_CONCEPTS.items() if phrase in question for concept in concepts}
    # "How much is a PS5?" asks a price.
    priced = {"price"} if re.search(r"\bhow\s+much\s+(?:is|are|does|do|would|will|for)\b", question, re.I) else set()
    # "look up who won...", "google it" ask a search; a SQL statement asks a database.
    searched = {"search"} if re.search(r"\blook\s+up\b|\bgoogle\b", question, re.I) else set()
    sql = {"sql", "query", "database"} if re.search(r"\bSELECT\b.+\bFROM\b", question) else set()
    return terms | operations | currencies | chinese | priced | searched | sql


def _parameter_terms(spec: ToolSpec) -> set[str]:
    """The words of the tool's parameter names and descriptions, stemmed and folded (weak words dropped)."""
    found = set()
    for parameter in parameters_of(spec.parameters):
        for w in [*name_words(parameter.name), *words(parameter.description)]:
            if len(w) >= 3 and w not in _WEAK_WORDS:
                found |= _folded(w)
    return found - _GENERIC_NAME_WORDS


def _shared(question_words: set[str], tool_words: set[str]) -> set[str]:
    """The tool's words the question uses, a word written in another form too ("weighed" for weight,
    "catalog" for catalogue): a shared start of 5 letters or more covering most of the shorter word."""
    shared = question_words & tool_words
    # A verb and its -ing noun are one word: "ship" and shipping, "book" and booking.
    shared |= {t for t in tool_words for q in question_words if len(q) >= 3 and t in (q + "ing", q + q[-1] + "ing")}
    for q in question_words - tool_words:
        for t in tool_words - shared:
            prefix = len(commonprefix([q, t]))
            if prefix >= 5 and prefix >= 0.75 * min(len(q), len(t)):
                shared.add(t)
                break
    return shared


def match_score(spec: ToolSpec, question: str) -> int:
    """How plainly the question asks for this tool (see the comment above ``_MATCH_THRESHOLD``)."""
    question_words = _question_terms(question)
    name_words_, description_words = _tool_terms(spec)
    said = chinese_concepts_in(question)  # enum values named in Chinese: 骑车 for "cycling"
    enum_hits = sum(1 for v in _enum_values(spec)
                    if len(str(v)) >= 2 and (option_named(question, v) or concepts_of(str(v)) & said))
    shared_pairs = cjk_bigrams(question) & cjk_bigrams(f"{spec.name} {spec.description}")
    by_name = _shared(question_words, name_words_)
    # A verb any request starts with ("book", "add") says less than the thing booked: 1 point, as a description word.
    verbs = {w for w in by_name if w in _VERB_CONCEPTS}
    # A unit of time in a name (log_hours) says nothing when the question holds a duration ("an hour-long call").
    by_name -= verbs | (_TIME_UNIT_CONCEPTS if re.search(r"\b(?:\d+|an?)[\s-]+(?:hour|minute|day|week)", question)
                        else set())
    by_description = _shared(question_words, description_words - by_name)
    by_parameters = _shared(question_words, _parameter_terms(spec) - by_name - by_description - name_words_)
    return (
        _NAME_POINTS * len(by_name)
        + len(verbs)
        + _ENUM_POINTS * enum_hits
        + len(by_description)
        + len(by_parameters)
        + len(shared_pairs)
        + _evidence(spec, question)
    )


_TIME_UNIT_CONCEPTS = frozenset(c for unit in ("hour", "hours", "minute", "minutes", "day", "days", "week", "weeks")
                                for c in concepts_of(unit))
_VERB_CONCEPTS = frozenset(c for verb in ("book", "add", "get", "set", "create", "make", "check", "find", "send")
                           for c in concepts_of(verb))


def _evidence(spec: ToolSpec, question: str) -> int:
    """1 point per required parameter of a distinctive kind (e-mail, URL, ticker...) the question holds a value of."""
    read = read_question(prepare(spec, question)[0])  # "UA 919" read whole, "March 9, 2026" as a date
    required = [p for p in parameters_of(spec.parameters) if p.required]
    typed = sum(1 for p in required if typed_values(read, role_of(p)))
    # "from A to B" and a tool with an origin and a destination: a route, a conversion, a transfer.
    sides = {side_of(p) for p in required} - {None}
    return typed + (len(sides) if read.pairs and sides == {0, 1} else 0)


def _own_nouns(parameter: Parameter) -> set[str]:
    """A parameter name's distinctive words, stemmed: front_psi -> {"front", "psi"}; never "name" or "value"."""
    generic = _GENERIC_NAME_WORDS | STOPWORDS | {"name", "names", "number", "value", "text", "type"}
    return {stem(w) for w in name_words(parameter.name) if len(w) >= 3 and w not in generic}


def value_fit(spec: ToolSpec, question: str) -> int:
    """1 point per required parameter a value of the question fits by kind (time, place, measured number, quote)."""
    read = read_question(question)
    required = [p for p in parameters_of(spec.parameters) if p.required]
    measured = {concept for number in read.numbers for concept in number.concepts}
    stated = {"time": read.times, "place": read.places}
    points = sum(1 for p in required if stated.get(role_of(p)))
    points += sum(1 for p in required if p.kind in ("integer", "number") and measure_of(p) & measured)
    # A required parameter named in the question's own words: "front 32 psi" for front_psi.
    said = {stem(w.casefold()) for w in words(question)}
    points += sum(1 for p in required if _own_nouns(p) & said)
    texts = [p for p in required if p.kind == "string" and "enum" not in p.schema
             and role_of(p) in ("", "title", "query", "letter")]
    # Quotes mark exactly what to send: as many quotes as text parameters is a fit.
    points += len(texts) if texts and len(read.quotes) == len(texts) else 0
    # A word of the very category a parameter names: "fridge" for appliance, "knee" for body_part.
    points += sum(1 for p in required if category_values(p, question))
    planned = plan_arguments(spec, question)
    if isinstance(planned, Filled):
        return points
    # Two or more values of the question fill the tool, every required one included: the question is about
    # what the tool does though it shares no word with it ("find running shoes under $80"). Every call of a
    # plan holds the same arguments, so the first one counts them.
    if len(planned) > 1 or len(planned[0]) >= 2:
        return points + 2
    # Every required parameter filled from what the question states is one point more ("Make it 21 degrees"),
    # also for a tool the question's words already touch ("define serendipity" for a dictionary tool).
    touched = points or match_score(spec, question) > 0
    return points + (1 if touched else 0)


def fill_arguments(spec: ToolSpec, question: str) -> dict[str, Any] | None:
    """Arguments for one call of ``spec`` read from the question; ``None`` when a required one is not given."""
    filled = fill(spec, question)
    return None if filled.missing else filled.arguments


def stated_arguments(spec: ToolSpec, question: str) -> dict[str, Any]:
    """Only the arguments the question states, even when required ones are missing (for forced calls)."""
    return fill(spec, question).arguments


@dataclass(frozen=True)
class _Plan:
    """The generic policy's first move: calls to make, or the tool it would use and what the question lacks."""

    calls: tuple[PlannedCall, ...] = ()
    declined: tuple[str, tuple[Parameter, ...]] | None = None


def _calls_for(spec: ToolSpec, question: str, preset: dict[str, Any] | None = None) -> list[PlannedCall] | Filled:
    planned = plan_arguments(spec, question, preset)
    if isinstance(planned, Filled):
        return planned
    return [PlannedCall(spec.name, arguments) for arguments in planned]


def _subject_words(name: str) -> set[str]:
    """A parameter name's words that say whose value it is: ``user_id`` -> {"user"}."""
    return {stem(w) for w in name_words(name)} - {"id", "ids", "name", "code", "key", "number", "value"}


def _supplier(conversation: Conversation, spec: ToolSpec, missing: Sequence[str],
              question: str | None = None) -> list[PlannedCall]:
    """Calls of another offered tool that can be made now and whose result should give a missing parameter.

    ``get_orders(user_id)`` is missing ``user_id``; ``find_user(email)`` can be
    called with the question's e-mail and is about users: call it first.
    """
    wanted = set().union(*(_subject_words(name) for name in missing))
    for other in conversation.tools:
        if other.name == spec.name or not wanted:
            continue
        name_words_, description_words = _tool_terms(other)
        about = {stem(w) for w in name_words(other.name)} | name_words_ | description_words
        if not wanted & about:
            continue
        calls = _calls_for(other, conversation.question if question is None else question)
        if not isinstance(calls, Filled):
            return calls
    return []


def _plan(conversation: Conversation, question: str | None = None, *, best_only: bool = False) -> _Plan:
    """Call the best-matching tool whose required arguments the question gives; else say what is missing.

    ``question``: one step of a question that asks for several ("..., then ..."); by default all of it.
    ``best_only``: only the best-matching tool may do it (a step names what it wants done).
    """
    question = conversation.question if question is None else question
    few = len(conversation.tools) <= _FEW_TOOLS
    scored = [(match_score(spec, question) + (value_fit(spec, question) if few else 0), spec)
              for spec in conversation.tools]
    # sorted() is stable, so the offer order breaks ties.
    ranked = [spec for score, spec in sorted(scored, key=lambda pair: -pair[0]) if score >= _MATCH_THRESHOLD]
    ranked = ranked[:1] if best_only else ranked
    declined: tuple[str, tuple[Parameter, ...]] | None = None
    for spec in ranked:
        parted = segment_calls(spec, question, plan_arguments)
        if parted:  # "20 euros to Bob and 30 euros to Alice": each part its own call, with its own values
            return _Plan(tuple(PlannedCall(spec.name, arguments) for arguments in parted))
        calls = _calls_for(spec, question)
        if not isinstance(calls, Filled):
            # "a business class seat" where the classes are first and second: ask, naming the choices.
            outside = outside_choices(spec, question, calls[0].arguments)
            if outside:
                return _Plan(declined=(spec.name, tuple(outside)))
            return _Plan(tuple(calls))
        supplied = _supplier(conversation, spec, calls.missing, question)
        if supplied:
            return _Plan(tuple(supplied))
        if declined is None:
            parameters = {p.name: p for p in parameters_of(spec.parameters)}
            declined = (spec.name, tuple(parameters[name] for name in calls.missing))
    return _Plan(declined=declined)


def _result_fields(conversation: Conversation) -> dict[str, Any]:
    """Scalar fields of the successful results since the question, under their own names and ``<tool subject>_<key>``."""
    fields: dict[str, Any] = {}
    for call, result in conversation.exchanges():
        data = data_of(result)
        if error_of(result) is not None:
            continue
        if isinstance(data, list) and len(data) == 1:
            data = data[0]
        if not isinstance(data, dict):
            continue
        subjects = [w for w in name_words(call.name) if w not in _GENERIC_NAME_WORDS and w not in STOPWORDS]
        for key, value in data.items():
            if isinstance(value, (str, int, float)) and not isinstance(value, bool):
                fields.setdefault(key, value)
                for subject in subjects:
                    fields.setdefault(f"{subject}_{key}", value)
    return fields


def _follow_up(conversation: Conversation, question: str | None = None) -> list[PlannedCall]:
    """The next link of a chain: a tool the question (or one step of it) asks for whose missing parameter a
    result now gives: by the parameter's name, or by kind (``parts.value_from_results``)."""
    fields = _result_fields(conversation)
    if not fields:
        return []
    made = [(call.name, arguments_of(call)) for call, _ in conversation.exchanges()]
    results = [data_of(result) for _, result in conversation.exchanges() if error_of(result) is None]
    question = conversation.question if question is None else question
    for spec in sorted(conversation.tools, key=lambda s: -match_score(s, question)):
        if any(name == spec.name for name, _ in made) or match_score(spec, question) < _MATCH_THRESHOLD:
            continue
        # Only a value the question lacks comes from a result: a tool the question already fills needs none.
        lacking = fill(spec, question).missing
        parameters = {p.name: p for p in parameters_of(spec.parameters)}
        preset = {name: fields[name] for name in lacking if name in fields}
        preset |= {name: value for name in lacking if name not in preset
                   for value in [value_from_results(parameters[name], results, question)] if value is not None}
        if not preset:
            continue
        calls = _calls_for(spec, question, preset)
        if not isinstance(calls, Filled):
            return [c for c in calls if (c.name, c.arguments) not in made]
    return []


def _decline_text(conversation: Conversation, tool_name: str, missing: Sequence[Parameter], language: Language) -> str:
    """What the question did not give, asked for in one sentence (what the tool does said in its own words)."""
    hint_real_model()
    spec = conversation.tool(tool_name)
    return decline(tool_name, missing, language, spec.description if spec is not None else "")


def _stand_in_text(conversation: Conversation, language: Language) -> str:
    """What the offline model says when no policy fits: one honest sentence."""
    hint_real_model()
    return not_mine(conversation.tool_names, conversation.tools_allowed, language)


# -- questions that ask for several steps ---------------------------------------------------------
# "Add milk to my list, then show me the list": each step is planned on its own words, in order, one round
# each, and a step's "it" / "that" / 它 is the result of the step before ("get the EUR rate, then multiply
# 250 by it"). A step no offered tool can do, or whose arguments the question does not give, is not
# guessed at: the answer says which step was not done.

_STEP = re.compile(
    r"\s*(?:[,;]\s*|\.\s+|\s+and\s+)then\b\s*,?\s*|\s*[,;]\s*after\s+that\b\s*,?\s*"
    # "book the room ... and add a task ...": "and" before a verb of its own starts another request.
    rf"|\s*,?\s+and\s+(?:also\s+)?(?=(?:{'|'.join(REQUEST_VERBS)})\b)"
    r"|\s*[,,;;]?\s*(?:然后|接着|随后|之后再)\s*|\s*[,,;;]\s*再(?=[\u4e00-\u9fff])",
    re.IGNORECASE,
)
_PREVIOUS = (re.compile(r"\b(?:the result|that result|that number|this number|the answer|it|that|this)\b", re.I),
             re.compile(r"这个结果|这个数|结果|它"))


def steps_of(question: str) -> list[str]:
    """The steps a question asks for in order ("A, then B" -> [A, B]); the whole question when it asks one."""
    parts = [part.strip(" ,.;,。;") for part in _STEP.split(question)]
    parts = [part for part in parts if part]
    return parts if len(parts) > 1 else [question]


def _result_value(conversation: Conversation, call: PlannedCall) -> Any:
    """The one value the exchange of ``call`` returned (a number or a short text), or None."""
    for made, result in conversation.exchanges():
        if made.name == call.name and arguments_of(made) == call.arguments and error_of(result) is None:
            data = data_of(result)
            if isinstance(data, dict):
                numbers = [v for v in data.values() if isinstance(v, (int, float)) and not isinstance(v, bool)]
                data = numbers[0] if len(numbers) == 1 else None
            if isinstance(data, (int, float)) and not isinstance(data, bool):
                return data
            if isinstance(data, str) and 0 < len(data) <= 40 and "\n" not in data:
                return data
    return None


def _with_previous(step: str, value: Any) -> str:
    """The step with its reference to the previous step's result replaced by that result."""
    if value is None:
        return step
    shown = format_number(value) if isinstance(value, (int, float)) else str(value)
    pattern = _PREVIOUS[1] if language_of(step) == "zh" else _PREVIOUS[0]
    return pattern.sub(shown, step, count=1)


def _step_note(step: str, plan: _Plan, language: Language) -> str:
    """Which step was not done and why, said plainly."""
    if plan.declined is not None:
        names = missing_words(plan.declined[1], language)
        why = say(language, f"我还需要知道{names}", f"I need to know {names}")
    else:
        why = say(language, "我手头的工具做不了这件事", "none of the tools I have does it")
    return say(language, f"“{step}”这一步我没有做:{why}。", f'I did not do "{step}": {why}.')


def _one_request(conversation: Conversation, steps: Sequence[str]) -> bool:
    """Are "steps" cut at "and" plus a verb one request after all? "Add 'Dentist' to my calendar ... and remind me
    20 minutes before": the later part, read alone, wants the very tool the earlier part calls, and lacks values."""
    if re.search(r"\bthen\b|然后|接着|随后|之后再|after that", conversation.question, re.IGNORECASE):
        return False  # steps said in order are steps
    earlier = {c.name for step in steps[:1] for c in _plan(conversation, step, best_only=True).calls}
    for step in steps[1:]:
        plan = _plan(conversation, step, best_only=True)
        if not plan.calls and plan.declined is not None and plan.declined[0] in earlier:
            return True
        earlier |= {c.name for c in plan.calls}
    return False


def _several_steps(conversation: Conversation) -> Decision | None:
    """The next step's calls, or the answer once every step that can be done is done; None for one step."""
    steps = steps_of(conversation.question)
    if len(steps) < 2 or not conversation.tools or not (conversation.tools_allowed or conversation.exchanges()):
        return None
    language = language_of(conversation.question)
    if _one_request(conversation, steps):
        return None
    made = [(call.name, arguments_of(call)) for call, _ in conversation.exchanges()]
    undone: list[tuple[str, _Plan]] = []
    attributed: list[tuple[str, Any]] = []
    value: Any = None
    for index, step in enumerate(steps):
        plan = _plan(conversation, _with_previous(step, value) if index else step, best_only=True)
        if not plan.calls and index and conversation.exchanges():
            # "... and book the room when it lands": the step's missing value comes from an earlier result.
            followed = _follow_up(conversation, step)
            plan = _Plan(tuple(followed)) if followed else plan
        if not plan.calls:
            undone.append((step, plan))
            value = None
            continue
        pending = [c for c in plan.calls if (c.name, c.arguments) not in made]
        if pending and conversation.tools_allowed:
            return CallTools(tuple(pending))
        if pending:
            listed = say(language, ";", "; ").join(
                f"{c.name}{say(language, ':', ': ')}{call_words(c.name, c.arguments, language)}" if c.arguments
                else c.name for c in pending)
            late = say(language, f"“{step}”这一步({listed})我没有做:这次请求不允许再调用工具。",
                       f'I did not do the step "{step}" ({listed}): no more tool calls were allowed in this request.')
            notes = _notes(undone, made, attributed, language)
            return Reply(_steps_answer(conversation, language, [*notes, late], declined=bool(notes)))
        attributed += [(c.name, c.arguments) for c in plan.calls]
        value = _result_value(conversation, plan.calls[-1])
    if not conversation.exchanges() and len(undone) == len(steps):
        return None  # no step can be done on its own: the question is read as one, by the rules for one
    notes = _notes(undone, made, attributed, language)
    return Reply(_steps_answer(conversation, language, notes, declined=bool(notes)))


def _notes(undone: Sequence[tuple[str, _Plan]], made: Sequence[tuple[str, Any]], attributed: Sequence[tuple[str, Any]],
           language: Language) -> list[str]:
    """A note for each step not done. A step whose tool lacked an argument is done if that tool ran anyway (the
    question read as a whole gave it); a step no tool matched, if a call no other step accounts for was made."""
    others = [call for call in made if call not in attributed]
    notes = []
    for step, plan in undone:
        if plan.declined is not None and any(name == plan.declined[0] for name, _ in made):
            continue
        if plan.declined is None and others:
            continue
        notes.append(_step_note(step, plan, language))
    return notes


def _steps_answer(conversation: Conversation, language: Language, notes: Sequence[str], *, declined: bool) -> str:
    """The answer from every result, then which steps were not done (and, for a step no tool could do, how to
    get a model that could)."""
    answer = compose_answer(conversation, language) if conversation.exchanges() else ""
    if declined:
        hint_real_model()
    return say(language, "", " ").join(part for part in (answer, *notes) if part)


def small_talk_policy(conversation: Conversation) -> Decision | None:
    """A greeting or a thank-you gets a short reply; a question in a language other than English and Chinese, one
    English sentence naming the two it reads (and no call)."""
    if conversation.exchanges():
        return None
    question = conversation.question
    said = small_talk(question, language_of(question))
    if said is not None:
        return Reply(said)
    if unread_language(question):
        hint_real_model()
        return Reply(UNREAD_LANGUAGE)
    return None


def generic_policy(conversation: Conversation) -> Decision:
    """Any other question: call the tool it asks for with the arguments it states, then answer from the results.

    Matching: the tool's name, enum values and description words against the
    question's (see the comment above ``_MATCH_THRESHOLD``). Arguments: each
    parameter by its name, type and description (see ``arguments``); several
    entities for a one-entity parameter make several calls in one turn. A
    required parameter the question does not give means no call: the reply
    names the tool and the missing parameter (or, when another offered tool can
    supply it, that tool is called first). With results in hand: a result
    field that fills another matching tool's required parameter leads to one
    more round; otherwise the answer quotes the values, one sentence per entity,
    and says which is highest or lowest when the question compares.
    """
    language = language_of(conversation.question)
    # A question of several steps chains step by step (``_several_steps``), never across its steps at once.
    if conversation.exchanges() and conversation.tools_allowed and len(steps_of(conversation.question)) < 2:
        follow = _follow_up(conversation)
        if follow:
            return CallTools(tuple(follow))
    stepped = _several_steps(conversation)
    if stepped is not None:
        return stepped
    if conversation.exchanges():
        return Reply(compose_answer(conversation, language))
    if not conversation.tools_allowed:
        return Reply(_stand_in_text(conversation, language))
    plan = _plan(conversation)
    if plan.calls:
        return CallTools(plan.calls)
    if plan.declined is not None:
        return Reply(_decline_text(conversation, *plan.declined, language))
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
    chain = [*policies, *_REGISTERED]
    decision = next((d for d in (policy(conversation) for policy in chain) if d is not None), None)
    if decision is None:
        built_in = (small_talk_policy, catalogue_policy, *SCENARIO_POLICIES)
        decision = next((d for d in (policy(conversation) for policy in built_in) if d is not None), None)
        decision = _finished(conversation, decision if decision is not None else generic_policy(conversation))
    return _constrain(conversation, decision)


def _finished(conversation: Conversation, decision: Decision) -> Decision:
    """A built-in policy's text made ready to send (see ``evidence.finished``); a learner's is sent as written."""
    if isinstance(decision, Reply):
        return Reply(finished(decision.text, language_of(conversation.question)))
    return decision


def _answer_now(conversation: Conversation, missing: Iterable[PlannedCall] = ()) -> Reply:
    """A text answer from what was gathered (or the stand-in text when nothing was)."""
    language = language_of(conversation.question)
    missing = tuple(missing)
    if conversation.exchanges() or missing:
        return Reply(finished(compose_answer(conversation, language, missing), language))
    return Reply(finished(_stand_in_text(conversation, language), language))


def _best_match(conversation: Conversation) -> ToolSpec:
    """The offered tool the question matches best (the first offered on a tie, or when none matches)."""
    return max(conversation.tools, key=lambda spec: match_score(spec, conversation.question))


def _stated_calls(spec: ToolSpec, question: str) -> tuple[PlannedCall, ...]:
    """A call that must be made: with the arguments the question states, and no others.

    The tool's validation then tells the model which required argument is
    missing, as it would tell a real model; a made-up value would teach the
    wrong thing.
    """
    planned = _calls_for(spec, question)
    if isinstance(planned, Filled):
        return (PlannedCall(spec.name, planned.arguments),)
    return tuple(planned)


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
        decision = CallTools(calls or _stated_calls(forced, conversation.question))
    elif conversation.tool_choice == "required" and isinstance(decision, Reply):
        decision = CallTools(_stated_calls(_best_match(conversation), conversation.question))
    if isinstance(decision, CallTools) and not conversation.parallel_tool_calls:
        return CallTools(decision.calls[:1], decision.text)
    return decision
