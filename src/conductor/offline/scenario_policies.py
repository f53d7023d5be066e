"""The offline model's policies for the course's scenarios: weather and clothing, courses, arithmetic.

Each policy reads the question and the tool results gathered since it was
asked, and either asks for the next calls or answers from those results. A
policy answers ``None`` when the question or the offered tools are not its
scenario, leaving the decision to the next policy.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..types import ToolSpec
from .arguments import Parameter, fill, name_words, parameters_of, read_question, role_of, spoken_arithmetic
from .conversation import Conversation, Decision, PlannedCall, Reply
from .evidence import (
    RETRY_NOTE, arguments_of, data_of, ended, error_of, localized, missing_note, plain_error, proceed, quote_for,
    unwrapped,
)
from .language import (
    Language,
    canonical_place,
    english_name,
    format_number,
    language_of,
    lesson_numbers,
    mentions,
    quoted,
    say,
    without_lesson_references,
    words,
)

# -- which parameter means what ----------------------------------------------------
# The rules below never assume a parameter's name: they read it from the offered
# schema, by role (see ``arguments.role_of``: name first, then description) and type.


def parameter_for(spec: ToolSpec | None, role: str, kinds: tuple[str, ...] = ("string",),
                  words_: tuple[str, ...] = ()) -> str | None:
    """The parameter of ``spec`` that has ``role`` (or, with ``words_``, one of those words in its name).

    Among parameters of the given types; when none has the role, the only
    required parameter of those types. ``None`` when the tool has no such parameter.
    """
    if spec is None:
        return None
    typed = [p for p in parameters_of(spec.parameters) if p.kind in kinds and "enum" not in p.schema]
    by_role = [
        p for p in typed
        if (role and role_of(p) == role) or (words_ and set(words_) & set(name_words(p.name)) | _described(p, words_))
    ]
    if by_role:
        return by_role[0].name
    required = [p for p in typed if p.required]
    return required[0].name if len(required) == 1 and not words_ else None


def _described(parameter: Parameter, words_: tuple[str, ...]) -> set[str]:
    return set(words_) & set(re.findall(r"[a-z]+", parameter.description.lower()))


def _with_others(spec: ToolSpec, question: str, known: dict[str, Any]) -> dict[str, Any] | None:
    """``known`` plus the tool's other required arguments read from the question; ``None`` if one is missing."""
    filled = fill(spec, question, preset=known)
    return None if filled.missing else {**filled.arguments, **known}


# -- weather and clothing ----------------------------------------------------------

_WEAR = ("穿", "衣服", "衣着", "wear", "clothing", "clothes", "dress", "outfit")
_WARM = ("暖和", "热", "warm", "warmer", "warmest", "hot", "hotter", "hottest")
_COLD = ("冷", "凉", "cold", "colder", "coldest", "cool", "cooler", "coolest")
_WEATHER_WORDS = (
    "天气", "气温", "温度", "下雨", "晴", "weather", "temperature", "rain", "sunny", "forecast", "degrees",
    *_WEAR, *_WARM, *_COLD,
)


@dataclass(frozen=True)
class _Reading:
    """What get_weather said about one city."""

    city: str
    temperature: float | None
    sky: str | None
    unit: str
    error: str | None
    raw: str
    source: str | None = None  # where a fallback's answer came from: the model says it may be stale


def _readings(conversation: Conversation, language: Language) -> list[_Reading]:
    readings = []
    place = parameter_for(conversation.tool("get_weather"), "place") or "city"
    for call, result in conversation.results_of("get_weather"):
        data, source = _unwrapped(data_of(result))
        key, temperature = next(((k, v) for k, v in data.items() if k in _TEMPERATURE_KEYS
                                 and isinstance(v, (int, float)) and not isinstance(v, bool)), ("", None))
        sky = next((localized(data, k, language) for k in _SKY_KEYS if localized(data, k, language) is not None), None)
        readings.append(
            _Reading(
                city=str(arguments_of(call).get(place, "?")),
                temperature=temperature,
                sky=sky if isinstance(sky, str) else None,
                unit=str(data.get("unit", "°F" if key.endswith("_f") else "°C")),
                error=error_of(result),
                raw=result.content,
                source=source,
            )
        )
    return _latest(readings)


# Where a weather tool puts the temperature and the sky ("temperature_c", "conditions" are common too).
_TEMPERATURE_KEYS = ("temperature", "temp", "temperature_c", "temp_c", "temperature_f", "temp_f")
_SKY_KEYS = ("weather", "conditions", "condition", "sky", "summary", "description")


_STALE_WORDS = ("cache", "cached", "yesterday", "stale", "fallback", "backup", "缓存", "昨天")


def _unwrapped(data: Any) -> tuple[dict[str, Any], str | None]:
    """A weather result's fields, and its source when it says the data came from a fallback.

    A tool fallback's output arrives marked: ``{"source": name, "result": value}``, or
    ``"source"`` added to a dict; a source naming a cache is what a careful model
    passes on, so the reader knows the figures may be old.
    """
    if not isinstance(data, dict):
        return {}, None
    source = data.get("source")
    inner = data.get("result")
    if set(data) == {"source", "result"} and isinstance(inner, dict):
        source = inner.get("source", source)
        data = inner
    if isinstance(source, str) and any(word in source.lower() for word in _STALE_WORDS):
        return data, source
    return data, None


def _latest(readings: list[_Reading]) -> list[_Reading]:
    """The readings worth reporting: a failed call the model corrected later is left out, each place once.

    A call that failed for a city later read successfully, or one whose arguments did
    not even name a city ("?", invalid arguments) when some city was read, was a
    mistake the model fixed; a careful answer does not repeat its error. A place read
    twice (the same call again, or Beijing and Peking) is reported once.
    """
    read = {canonical_place(r.city) for r in readings if r.error is None}
    named = {canonical_place(r.city) for r in readings if r.city.strip() not in ("?", "")}
    kept = [r for r in readings
            if r.error is None or not (canonical_place(r.city) in read or (r.city.strip() in ("?", "") and named))]
    seen: set[str] = set()
    once = []
    for reading in kept:
        if canonical_place(reading.city) not in seen:
            seen.add(canonical_place(reading.city))
            once.append(reading)
    return once


def _temperature_parameter(conversation: Conversation) -> str | None:
    """The number parameter of ``suggest_clothing`` that takes the temperature."""
    return parameter_for(conversation.tool("suggest_clothing"), "", ("number", "integer"),
                         ("temperature", "temp", "degrees", "celsius"))


def _suggestions(conversation: Conversation, language: Language) -> dict[float, str]:
    """Clothing suggestion (or the error, marked) per temperature asked about."""
    suggestions = {}
    degrees = _temperature_parameter(conversation) or "temperature"
    for call, result in conversation.results_of("suggest_clothing"):
        temperature = arguments_of(call).get(degrees)
        if not isinstance(temperature, (int, float)):
            continue
        error = error_of(result)
        data = data_of(result)
        if error is not None:
            reason = plain_error(error, language).reason
            suggestions[float(temperature)] = say(language, f"(没有得到穿衣建议:{reason})", f"(no suggestion: {reason})")
        elif isinstance(data, dict):
            suggestions[float(temperature)] = str(localized(data, "suggestion", language))
        else:
            suggestions[float(temperature)] = result.content
    return suggestions


_UNKNOWN_CITY = re.compile(r"unknown city (?P<city>'[^']*'|\"[^\"]*\"|\S+); known cities: (?P<known>.+)$", re.S)


def _weather_failure(error: str, language: Language) -> str:
    """Why the weather tool gave no reading, for the user: the weather service does not know the city, ..."""
    # A trailing "(2 attempts)" is how often it was tried, not a city; one before a fallback's
    # error stays, for plain_error to say.
    error = re.sub(RETRY_NOTE.pattern + r"\s*$", "", unwrapped(error))
    failure = plain_error(error, language, say(language, "天气服务", "the weather service"))
    unknown = _UNKNOWN_CITY.search(error)
    if unknown is None:
        return failure.reason
    # "北京 (Beijing), 上海 (Shanghai)": the Chinese name for a Chinese answer, the English one for English.
    known = [m.groups() for m in re.finditer(r"([^,(]+?)\s*(?:\(([^)]*)\))?\s*(?:,|$)", unknown["known"].strip())]
    names = [(zh.strip(), (en or english_name(zh.strip()) or zh).strip()) for zh, en in known if zh.strip()]
    if language == "zh":
        return f"天气服务里没有这个城市,它能查的城市有:{'、'.join(zh for zh, _ in names)}"
    listed = [en for _, en in names]
    joined = ", ".join(listed[:-1]) + f" and {listed[-1]}" if len(listed) > 1 else "".join(listed)
    return f"the weather service does not know that city; it has weather for {joined}"


def _source_words(source: str, language: Language) -> str:
    """A fallback's source as a person says it: a function's name ("cached_weather") is not for the user."""
    cache = "cache" in source.lower()
    if language == "zh":
        return "缓存" if cache else "备用来源"
    if re.fullmatch(r"[A-Za-z_][\w.]*", source):
        return "the cache" if cache else "a backup source"
    return source


def _city_sentence(reading: _Reading, suggestion: str | None, language: Language) -> str:
    if reading.error is not None:
        reason = _weather_failure(reading.error, language)
        if reading.city.strip() in ("?", ""):  # a call that named no city
            return ended(say(language, f"没有查到天气:{reason}", f"I could not get the weather: {reason}"), language)
        return ended(say(language, f"没有查到{reading.city}的天气:{reason}",
                         f"I could not get the weather for {reading.city}: {reason}"), language)
    if reading.temperature is None:
        raw = quote_for(language, reading.raw)
        if reading.city and reading.raw.strip().startswith(reading.city):  # "Beijing: sunny, 5°C" names its city
            return ended(raw, language)
        return ended(say(language, f"{reading.city}的天气:{raw}", f"Weather for {reading.city}: {raw}"), language)
    degrees = f"{format_number(reading.temperature)}{reading.unit}"
    if language == "zh":
        sentence = f"{reading.city}今天{reading.sky},气温{degrees}" if reading.sky else f"{reading.city}今天气温{degrees}"
        if reading.source:
            sentence += f"(数据来自{_source_words(reading.source, language)},可能不是最新的)"
        return sentence + (f"。建议穿{suggestion}。" if suggestion else "。")
    sentence = f"{reading.city} today: {reading.sky}, {degrees}" if reading.sky else f"{reading.city} today: {degrees}"
    if reading.source:
        sentence += f" (from {_source_words(reading.source, language)}, so it may be out of date)"
    return sentence + (f"; wear {suggestion}." if suggestion else ".")


def _comparison(readings: Sequence[_Reading], question: str, language: Language) -> str:
    known = [r for r in readings if r.error is None and r.temperature is not None]
    if len(known) < 2:
        return ""
    high = max(r.temperature for r in known)
    low = min(r.temperature for r in known)
    unit = known[0].unit
    def joiner_join(names: Sequence[str]) -> str:
        if language == "zh" or len(names) < 3:
            return say(language, "、", " and ").join(names)
        return ", ".join(names[:-1]) + " and " + names[-1]

    if high == low:
        names, degrees = joiner_join([r.city for r in known]), f"{format_number(high)}{unit}"
        return say(language, f"{names}气温相同,都是{degrees}。", f"{names} have the same temperature, {degrees}.")
    cold_first = mentions(question, _COLD) and not mentions(question, _WARM)
    if len(known) == 2:
        warm, cold = sorted(known, key=lambda r: -r.temperature)
        versus = say(language, " 对 ", " vs ")
        if cold_first:
            both = f"{format_number(cold.temperature)}{unit}{versus}{format_number(warm.temperature)}{unit}"
            return say(
                language, f"{cold.city}比{warm.city}冷({both})。", f"{cold.city} is colder than {warm.city} ({both})."
            )
        both = f"{format_number(warm.temperature)}{unit}{versus}{format_number(cold.temperature)}{unit}"
        return say(language, f"{warm.city}比{cold.city}暖和({both})。", f"{warm.city} is warmer than {cold.city} ({both}).")
    warmest = joiner_join([r.city for r in known if r.temperature == high])
    coldest = joiner_join([r.city for r in known if r.temperature == low])
    high_text, low_text = f"{format_number(high)}{unit}", f"{format_number(low)}{unit}"
    warm_text = say(language, f"{warmest}最暖和({high_text})", f"warmest: {warmest} ({high_text})")
    cold_text = say(language, f"{coldest}最冷({low_text})", f"coldest: {coldest} ({low_text})")
    parts = [cold_text, warm_text] if cold_first else [warm_text, cold_text]
    text = say(language, ",".join(parts) + "。", "; ".join(parts) + ".")
    return text[0].upper() + text[1:]


def _weather_answer(conversation: Conversation, language: Language, missing: Sequence[PlannedCall]) -> str:
    readings = _readings(conversation, language)
    wants_clothing = mentions(conversation.question, _WEAR)
    suggestions = _suggestions(conversation, language)
    sentences = []
    said_for: dict[str, list[_Reading]] = {}  # cities that failed for one reason are named in one sentence
    for reading in readings:
        if reading.error is not None and reading.city.strip() not in ("?", ""):
            reason = _weather_failure(reading.error, language)
            if reason in said_for:
                said_for[reason].append(reading)
                continue
            said_for[reason] = [reading]
            sentences.append(reason)
        else:
            suggestion = suggestions.get(float(reading.temperature)) if reading.temperature is not None else None
            sentences.append(_city_sentence(reading, suggestion, language))
    for reason, failed in said_for.items():
        cities = [r.city for r in failed]
        named = "、".join(cities) if language == "zh" else (
            ", ".join(cities[:-1]) + " and " + cities[-1] if len(cities) > 1 else cities[0])
        sentences[sentences.index(reason)] = ended(say(language, f"没有查到{named}的天气:{reason}",
                                                       f"I could not get the weather for {named}: {reason}"), language)
    sentences.append(_comparison(readings, conversation.question, language))
    if wants_clothing and _temperature_parameter(conversation) is None and readings:
        sentences.append(say(language, "(没有提供穿衣建议工具,所以我给不出穿衣建议。)",
                             "(No clothing tool was offered, so I cannot suggest what to wear.)"))
    sentences.append(missing_note(missing, language, alone=not any(sentences)))
    return say(language, "", " ").join(s for s in sentences if s)


def weather_policy(conversation: Conversation) -> Decision | None:
    """Weather for the cities the question names, then what to wear; compares several cities.

    Applies when ``get_weather`` is offered and the question names known places
    (Chinese or English names, see ``language.GAZETTEER``) and speaks of weather,
    temperature, warmth or clothing. Round 1 looks up every city not yet looked
    up (one turn); if the question asks what to wear and ``suggest_clothing`` is
    offered, round 2 asks for clothing at each temperature get_weather returned;
    then it answers from the results, naming failures in plain words (cities that failed
    for one reason in one sentence) and the warmest/coldest city; each place is looked
    up and reported once, whatever name it goes by (Beijing, Peking, 北京).
    """
    weather = conversation.tool("get_weather")
    place = parameter_for(weather, "place")
    question = conversation.question
    places = read_question(question).places
    if weather is None or place is None or not places or not mentions(question, _WEATHER_WORDS):
        return None
    language = language_of(question)

    def answer(missing: Sequence[PlannedCall]) -> str:
        return _weather_answer(conversation, language, missing)

    looked_up = {canonical_place(str(arguments_of(call).get(place))) for call, _ in conversation.results_of("get_weather")}
    # Each place once, whatever names it goes by ("Beijing or Peking?" is one city).
    distinct = [p for i, p in enumerate(places) if canonical_place(p) not in map(canonical_place, places[:i])]
    planned = [_with_others(weather, question, {place: p}) for p in distinct if canonical_place(p) not in looked_up]
    if any(arguments is None for arguments in planned):
        return None  # a required parameter the question does not give: the generic rule says which
    pending = [PlannedCall("get_weather", arguments) for arguments in planned if arguments is not None]
    if pending:
        return proceed(conversation, pending, answer)
    degrees = _temperature_parameter(conversation)
    if mentions(question, _WEAR) and degrees is not None:
        asked = set(_suggestions(conversation, language))
        temperatures = [
            r.temperature for r in _readings(conversation, language) if r.temperature is not None and r.error is None
        ]
        pending = [
            PlannedCall("suggest_clothing", {degrees: t})
            for t in dict.fromkeys(temperatures)
            if float(t) not in asked
        ]
        if pending:
            return proceed(conversation, pending, answer)
    return Reply(answer(()))


# -- arithmetic ---------------------------------------------------------------------


def _expression_parameter(conversation: Conversation) -> str | None:
    """The text parameter of ``calculate`` that takes the expression."""
    return parameter_for(conversation.tool("calculate"), "expression")


def _spaced_out(expression: Any) -> str:
    """An expression without its spaces: "12 * 7" and "12*7" are one calculation."""
    return "".join(str(expression).split())


def _calculation_answer(conversation: Conversation, language: Language, missing: Sequence[PlannedCall]) -> str:
    lines: dict[str, str] = {}  # one line per calculation, however often (or however spaced) it was asked
    parameter = _expression_parameter(conversation) or "expression"
    for call, result in conversation.results_of("calculate"):
        expression = arguments_of(call).get(parameter, call.arguments)
        error = error_of(result)
        data = data_of(result)
        key = _spaced_out(expression)
        if error is not None:
            if key in lines:
                continue  # a repeat (the loop guard refused it): what the first call gave is already said
            failure = plain_error(error, language)
            if isinstance(expression, str) and expression.strip():
                lines[key] = say(language, f"无法计算 {expression}:{failure.reason}",
                                 f"I could not calculate {expression}: {failure.reason}")
            else:  # arguments that held no expression: a mistake, left out once a calculation succeeded
                lines[key] = say(language, f"无法完成计算:{failure.reason}", f"I could not do the calculation: {failure.reason}")
        elif isinstance(data, dict) and "result" in data:
            lines[key] = f"{expression} = {data['result']}"
        else:
            lines[key] = f"{expression} = {result.content}"
    if any(" = " in line for line in lines.values()):
        lines = {k: v for k, v in lines.items() if not v.startswith(("无法完成计算", "I could not do the calculation"))}
    note = missing_note(missing, language, alone=not lines)
    return "\n".join([*lines.values(), note] if note else lines.values())


def calculator_policy(conversation: Conversation) -> Decision | None:
    """Arithmetic in the question ("what is 2+3", "three plus four", "帮我算一下 2×3") goes to calculate.

    One call per expression, in the tool's expression parameter (found by its
    name and description, see ``parameter_for``). The answer quotes each expression with the result (or the error) the tool returned.
    """
    calculator = conversation.tool("calculate")
    parameter = _expression_parameter(conversation)
    expressions = spoken_arithmetic(conversation.question)
    if calculator is None or parameter is None or not expressions:
        return None
    language = language_of(conversation.question)
    done = {_spaced_out(arguments_of(call).get(parameter)) for call, _ in conversation.results_of("calculate")}
    planned = [_with_others(calculator, conversation.question, {parameter: e})
               for e in expressions if _spaced_out(e) not in done]
    if any(arguments is None for arguments in planned):
        return None
    pending = [PlannedCall("calculate", arguments) for arguments in planned if arguments is not None]
    return proceed(conversation, pending, lambda missing: _calculation_answer(conversation, language, missing))


# -- course catalogue ------------------------------------------------------------------

_OUTLINE_WORDS = ("outline", "syllabus", "lessons", "大纲", "目录", "哪些课")
_COURSE_QUESTION_WORDS = frozenset(
    "lesson lessons course courses compare comparison contrast explain cover covers covered outline syllabus "
    "teach teaches taught contain contains content learn difference differences".split()
)


def course_hint(question: str) -> str:
    """The words naming a course: quoted text if any, else the question's content words."""
    quotes = quoted(question)
    if quotes:
        return quotes[0]
    remaining = words(without_lesson_references(question))
    return " ".join(w for w in remaining if w not in _COURSE_QUESTION_WORDS and not w.isdigit())


@dataclass(frozen=True)
class _Outline:
    title: str
    link: str
    lessons: dict[int, str]


def _outline(data: Any) -> _Outline | None:
    if not isinstance(data, dict) or not isinstance(data.get("lessons"), list):
        return None
    lessons = {
        int(lesson["lesson_number"]): str(lesson.get("lesson_title", ""))
        for lesson in data["lessons"]
        if isinstance(lesson, dict) and isinstance(lesson.get("lesson_number"), int)
    }
    return _Outline(str(data.get("course_title", "")), str(data.get("link", "")), lessons)


@dataclass(frozen=True)
class _SearchParameters:
    """The names ``search_course_content`` gives its query, course and lesson-number parameters."""

    query: str
    course: str | None
    lesson: str


def _search_parameters(conversation: Conversation) -> _SearchParameters | None:
    spec = conversation.tool("search_course_content")
    query = parameter_for(spec, "query")
    lesson = parameter_for(spec, "", ("integer", "number"), ("lesson",))
    if spec is None or query is None or lesson is None:
        return None
    course = parameter_for(spec, "", ("string",), ("course",))
    return _SearchParameters(query, course if course != query else None, lesson)


def _searches(conversation: Conversation) -> dict[int, tuple[str | None, list[dict[str, Any]]]]:
    """Per lesson number searched: (error, result passages)."""
    found: dict[int, tuple[str | None, list[dict[str, Any]]]] = {}
    names = _search_parameters(conversation)
    for call, result in conversation.results_of("search_course_content"):
        number = arguments_of(call).get(names.lesson if names else "lesson_number")
        if not isinstance(number, int):
            continue
        data = data_of(result)
        passages = data.get("results", []) if isinstance(data, dict) else []
        found[number] = (error_of(result), [p for p in passages if isinstance(p, dict)])
    return found


def _lesson_block(outline: _Outline, number: int, search: tuple[str | None, list[dict[str, Any]]] | None,
                  can_search: bool, language: Language) -> str:
    if number not in outline.lessons:
        # Numbered as the outline numbers them: a course may start at lesson 0.
        first, last = min(outline.lessons, default=0), max(outline.lessons, default=0)
        return say(language, f"《{outline.title}》没有第{number}课(共{len(outline.lessons)}课,第{first}至{last}课)。",
                   f'"{outline.title}" has no lesson {number}; its lessons are numbered {first}-{last}.')
    title = outline.lessons[number]
    head = say(
        language, f"《{outline.title}》第{number}课是“{title}”。", f'Lesson {number} of "{outline.title}" is "{title}".'
    )
    source = say(language, f"(来源:{outline.title},第{number}课,{outline.link})",
                 f"(Source: {outline.title}, lesson {number}, {outline.link})")
    if search is None:
        if can_search:
            return head
        outline_only = say(
            language, "(没有提供搜索工具,我只有课程大纲。)", " (No search tool was offered, so I only have the outline.)"
        )
        return head + outline_only + source
    error, passages = search
    if error is not None:
        reason = plain_error(error, language).reason
        return head + ended(say(language, f"搜索这一课失败:{reason}", f" The search failed: {reason}"), language)
    if not passages:
        return head + say(language, "搜索没有找到这一课的内容。", " The search found no passage for it.") + source
    snippets = " ".join(str(p.get("snippet", "")).strip() for p in passages)
    # The passages are the course's own words: quoted as they are (in a Chinese answer, marked as a quote).
    return head + say(language, f"课程原文:{quote_for(language, snippets)}", f" {snippets} ") + source


def _course_answer(conversation: Conversation, outline: _Outline, numbers: Sequence[int],
                   missing: Sequence[PlannedCall], language: Language) -> str:
    if not numbers:
        listed = say(language, ";", "; ").join(f"{n}. {t}" for n, t in sorted(outline.lessons.items()))
        return say(language, f"《{outline.title}》共{len(outline.lessons)}课:{listed}。(链接:{outline.link})",
                   f'"{outline.title}" has {len(outline.lessons)} lessons: {listed}. ({outline.link})')
    searches = _searches(conversation)
    can_search = _search_parameters(conversation) is not None
    blocks = [_lesson_block(outline, n, searches.get(n), can_search, language) for n in numbers]
    # Lessons compared are set side by side, each with its title and passage: a list of words two passages
    # happen to share ("tool, call, back") would say nothing about them.
    blocks.append(missing_note(missing, language))
    return say(language, "", " ").join(b for b in blocks if b)


def course_policy(conversation: Conversation) -> Decision | None:
    """Course questions: the outline first, then a search of each lesson asked about, then an answer with sources.

    Applies when ``get_course_outline`` is offered and the question asks about
    numbered lessons ("lesson 4", "lessons 1 and 5", "第4课") or an outline, and
    names a course (quoted, or by its content words). Round 1 asks for the
    outline; round 2 searches each requested lesson by its title from the outline,
    with the exact course title and the lesson number (all in one turn); the answer
    quotes lesson titles and passages and names the sources, each lesson in turn
    when several were asked (in a Chinese answer the English passages are quoted).
    """
    title = parameter_for(conversation.tool("get_course_outline"), "title")
    question = conversation.question
    numbers = lesson_numbers(question)
    hint = course_hint(question)
    if title is None or not hint or not (numbers or mentions(question, _OUTLINE_WORDS)):
        return None
    language = language_of(question)
    outlines = conversation.results_of("get_course_outline")
    if not outlines:
        wanted = PlannedCall("get_course_outline", {title: hint})
        return proceed(
            conversation,
            [wanted],
            lambda missing: say(language, "我还没有查到课程大纲。", "I have not looked up the course outline yet. ")
            + missing_note(missing, language),
        )
    _, result = outlines[-1]
    error = error_of(result)
    outline = _outline(data_of(result))
    if error is not None or outline is None:
        reason = plain_error(error, language).reason if error is not None else quote_for(language, result.content)
        return Reply(ended(say(language, f"没有找到“{hint}”这门课:{reason}", f'I could not find the course "{hint}": {reason}'),
                           language))
    pending = []
    names = _search_parameters(conversation)
    if names is not None:
        searched = _searches(conversation)
        pending = [
            PlannedCall("search_course_content",
                        {names.query: outline.lessons[n], **({names.course: outline.title} if names.course else {}),
                         names.lesson: n})
            for n in numbers
            if n in outline.lessons and n not in searched
        ]
    return proceed(conversation, pending,
                   lambda missing: _course_answer(conversation, outline, numbers, missing, language))


SCENARIO_POLICIES = (weather_policy, course_policy, calculator_policy)
"""The scenario policies in the order ``decide`` consults them."""
