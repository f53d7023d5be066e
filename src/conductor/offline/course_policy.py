"""The offline model's handling of the course assistant's questions (``conductor.course.catalogue`` tools).

Three kinds of question, each read from the question and the conversation only
(never from the catalogue itself: the model knows what the tools returned, as a
real model would):

- **related**: "What does lesson 4 of the prompt engineering course cover, and
  which other course talks about the same topic?" Round 1 asks for the named
  course's outline; round 2 searches that lesson (exact course title, lesson
  number, the lesson's title as the query) and, in the same turn, the whole
  catalogue for the lesson's title. The answer quotes the lesson and names the
  other courses whose passages share the lesson title's words.
- **follow-up**: "And lesson 2?" names no course; the course is the one whose
  outline an earlier turn of the conversation returned, so one search round
  suffices.
- **topic**: "Which courses talk about BM25?" or "What does the RAG course say
  about chunking?": one search for the question's topic words (in the named
  course, if one is named), then an answer listing the lessons found.

A lesson question that names its course and asks nothing more ("What's in
lesson 4 of the MCP course?") is left to ``scenario_policies.course_policy``,
which makes the same outline-then-search chain. The policy never invents an
argument: course names, topics and lesson numbers come from the question or from
earlier tool results.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..types import ToolResult, UserMessage
from .conversation import Conversation, Decision, PlannedCall, Reply
from .wording import hint_real_model
from .evidence import arguments_of, data_of, ended, error_of, missing_note, plain_error, proceed
from .language import STOPWORDS, language_of, lesson_numbers, mentions, quoted, stem, without_lesson_references, words
from .scenario_policies import course_hint, parameter_for

__all__ = ["catalogue_policy", "course_phrase", "topic_of", "wants_related"]

_RELATED = ("other course", "other courses", "another course", "same topic", "same subject", "elsewhere",
            "other lessons", "any other")
# Words that say what kind of question it is, not what it is about.
_QUESTION_WORDS = frozenset(
    "course courses class lesson lessons talk talks talking about explain explains explained cover covers covered "
    "teach teaches taught mention mentions mentioned discuss discusses discussed say says said learn learned "
    "other another same topic topics subject outline syllabus where anything something tell list go goes "
    "part parts".split()
)
# Words that ask where a topic comes up; an outline question ("What lessons does X have?") has none.
_TOPIC_VERBS = frozenset(
    "about talk talks explain explains explained cover covers covered teach teaches taught mention mentions "
    "mentioned discuss discusses discussed say says".split()
)
_OUTLINE_WORDS = ("outline", "syllabus", "lessons")
# "the same course", "that course": a reference to the conversation, not a course name.
_REFERENCES = frozenset("other same that this which what any another its".split())
_COURSE_BEFORE = re.compile(r"\b(?:the|a)\s+((?:[\w'-]+\s+){0,5}?[\w'-]+)\s+course\b", re.IGNORECASE)
_QUOTED_COURSE = re.compile(
    r"""(?:\b(?:of|in|from|course)\s+)["“'《]([^"”'》]+)["”'》]|["“'《]([^"”'》]+)["”'》]\s+course\b""", re.IGNORECASE
)
_MAX_LISTED = 3  # lessons a topic answer lists


# -- reading the question ------------------------------------------------------------------


def wants_related(question: str) -> bool:
    """Does the question ask which other course covers the same topic?"""
    return mentions(question, _RELATED)


def course_phrase(question: str) -> str | None:
    """The course the question names: a quote next to "course"/"of"/"in", or "the <words> course"; else None."""
    match = _QUOTED_COURSE.search(question)
    if match:
        return (match.group(1) or match.group(2)).strip()
    for match in _COURSE_BEFORE.finditer(question):
        named = match.group(1).split()
        while named and named[0].casefold() in _REFERENCES | STOPWORDS:
            named = named[1:]
        if named:
            return " ".join(named)
    return None


def topic_of(question: str, course: str | None) -> str:
    """What the question asks about: a quote that is not the course, else its content words."""
    topics = [q for q in quoted(question) if course is None or q.casefold() != course.casefold()]
    if topics:
        return topics[0]
    named = set(words(course or ""))
    text = without_lesson_references(question)
    return " ".join(w for w in words(text) if w not in _QUESTION_WORDS and w not in named and not w.isdigit())


# -- reading the tools and their results ---------------------------------------------------------


@dataclass(frozen=True)
class _Tools:
    """The parameter names of the offered course tools (read from their schemas, by role)."""

    search: str  # the search tool's query parameter
    course: str | None  # its course filter
    lesson: str | None  # its lesson-number filter
    outline: str | None  # get_course_outline's course parameter, when that tool is offered


def _tools(conversation: Conversation) -> _Tools | None:
    spec = conversation.tool("search_course_content")
    query = parameter_for(spec, "query")
    if spec is None or query is None:
        return None
    course = parameter_for(spec, "", ("string",), ("course",))
    lesson = parameter_for(spec, "", ("integer", "number"), ("lesson",))
    outline = parameter_for(conversation.tool("get_course_outline"), "title")
    return _Tools(query, course if course != query else None, lesson, outline)


@dataclass(frozen=True)
class _Outline:
    title: str
    lessons: dict[int, str]


def _as_outline(data: Any) -> _Outline | None:
    if not isinstance(data, dict) or not isinstance(data.get("lessons"), list) or not data.get("course_title"):
        return None
    lessons = {
        lesson["lesson_number"]: str(lesson.get("lesson_title", ""))
        for lesson in data["lessons"]
        if isinstance(lesson, dict) and isinstance(lesson.get("lesson_number"), int)
    }
    return _Outline(str(data["course_title"]), lessons)


def _earlier_outline(conversation: Conversation) -> _Outline | None:
    """The last course outline a tool returned before the current question (the course being discussed)."""
    last_question = max((i for i, m in enumerate(conversation.messages) if isinstance(m, UserMessage)), default=0)
    found = None
    for message in conversation.messages[:last_question]:
        if isinstance(message, ToolResult) and not message.is_error:
            found = _as_outline(data_of(message)) or found
    return found


@dataclass(frozen=True)
class _Hit:
    course: str
    lesson: int
    title: str
    snippet: str


def _hits(result: ToolResult) -> list[_Hit]:
    data = data_of(result)
    rows = data.get("results", []) if isinstance(data, dict) else []
    return [
        _Hit(str(r.get("course_title", "")), r["lesson_number"], str(r.get("lesson_title", "")),
             str(r.get("snippet", "")))
        for r in rows
        if isinstance(r, dict) and isinstance(r.get("lesson_number"), int)
    ]


@dataclass(frozen=True)
class _Search:
    arguments: dict[str, Any]
    error: str | None
    hits: list[_Hit]


def _searches(conversation: Conversation) -> list[_Search]:
    return [
        _Search(arguments_of(call), error_of(result), _hits(result))
        for call, result in conversation.results_of("search_course_content")
    ]


def _lesson_search(tools: _Tools, title: str, course: str, number: int) -> PlannedCall:
    arguments: dict[str, Any] = {tools.search: title}
    if tools.course:
        arguments[tools.course] = course
    if tools.lesson:
        arguments[tools.lesson] = number
    return PlannedCall("search_course_content", arguments)


def _pending(conversation: Conversation, planned: Sequence[PlannedCall]) -> list[PlannedCall]:
    made = [arguments_of(call) for call, _ in conversation.results_of("search_course_content")]
    return [call for call in planned if call.arguments not in made]


# -- writing answers ------------------------------------------------------------------------------


def _plainly(error: str) -> str:
    """A failed search or outline, said for the user (see ``evidence.plain_error``)."""
    return plain_error(error, "en").reason


def _terms(text: str) -> set[str]:
    return {stem(w) for w in words(text) if len(w) >= 3 and w not in _QUESTION_WORDS}


def _lesson_sentence(outline: _Outline, number: int, search: _Search | None) -> str:
    if number not in outline.lessons:
        numbers = ", ".join(str(n) for n in sorted(outline.lessons))
        return f'"{outline.title}" has no lesson {number}; its lessons are {numbers}.'
    head = f'Lesson {number} of "{outline.title}" is "{outline.lessons[number]}".'
    if search is None:
        return head
    if search.error is not None:
        return ended(f"{head} Searching it failed: {_plainly(search.error)}", "en")
    own = [h for h in search.hits if h.course == outline.title and h.lesson == number]
    return f"{head} {own[0].snippet}" if own else f"{head} The search found no passage of it."


def _related_sentence(outline: _Outline, number: int, search: _Search | None) -> str:
    """Which other courses share the lesson title's words, from the catalogue-wide search."""
    if search is None:
        return ""
    if search.error is not None:
        return ended(f"Searching the other courses failed: {_plainly(search.error)}", "en")
    topic = _terms(outline.lessons[number])
    others: dict[str, tuple[_Hit, set[str]]] = {}
    for hit in search.hits:
        if hit.course != outline.title and hit.course not in others:
            others[hit.course] = (hit, topic & _terms(f"{hit.title} {hit.snippet}"))
    # On the same topic: sharing two of the title's words (or its only one), not just a common word.
    needed = min(2, len(topic))
    related = [(hit, shared) for hit, shared in others.values() if needed and len(shared) >= needed]
    if related:
        listed = "; ".join(
            f'"{hit.course}", lesson {hit.lesson} "{hit.title}" ({", ".join(sorted(shared))}): {hit.snippet}'
            for hit, shared in related
        )
        return f"Other courses on the same topic: {listed}"
    if others:
        hit, shared = next(iter(others.values()))
        common = ", ".join(sorted(shared)) or "no words of the lesson title"
        return (f'I found no other course on the same topic; the closest passage, "{hit.course}" lesson '
                f'{hit.lesson} "{hit.title}", shares only {common}.')
    return "No other course mentions it."


def _related_answer(conversation: Conversation, outline: _Outline, numbers: Sequence[int], tools: _Tools,
                    missing: Sequence[PlannedCall]) -> str:
    searches = _searches(conversation)
    parts = []
    for number in numbers:
        title = outline.lessons.get(number)
        own = next((s for s in searches if title and s.arguments.get(tools.search) == title
                    and (not tools.lesson or s.arguments.get(tools.lesson) == number)), None)
        wide = next((s for s in searches if title and s.arguments == {tools.search: title}), None)
        parts += [_lesson_sentence(outline, number, own), _related_sentence(outline, number, wide)]
    parts.append(missing_note(missing, "en"))
    return " ".join(p for p in parts if p)


def _topic_answer(conversation: Conversation, topic: str, missing: Sequence[PlannedCall]) -> str:
    searches = _searches(conversation)
    if not searches:
        return missing_note(missing, "en") or "I have not searched the course materials yet."
    search = searches[-1]
    if search.error is not None:
        return ended(f'Searching the course materials for "{topic}" failed: {_plainly(search.error)}', "en")
    if not search.hits:
        return f'The course materials say nothing about "{topic}".'
    listed = " ".join(
        f'"{hit.course}", lesson {hit.lesson} "{hit.title}": {hit.snippet}' for hit in search.hits[:_MAX_LISTED]
    )
    more = len(search.hits) - _MAX_LISTED
    tail = f" ({more} more lesson{'s' if more > 1 else ''} mention it less.)" if more > 0 else ""
    return f'"{topic}" comes up in {len(search.hits)} lesson{"s" if len(search.hits) > 1 else ""}. {listed}{tail}'


# -- the policy -----------------------------------------------------------------------------------


def _which_course(numbers: Sequence[int]) -> Reply:
    """The answer to a lesson question that names no course, with no course discussed before."""
    hint_real_model()
    return Reply(f"Which course do you mean? Please name the course of lesson {numbers[0]}: "
                 "I do not guess course names.")


def _outline_for(conversation: Conversation, tools: _Tools, numbers: list[int]) -> _Outline | Decision | None:
    """The outline of the course the question names (or, naming none, the one discussed before); else what to do."""
    question = conversation.question
    first_clause = re.split(r",?\s*\b(?:and|;)\s+(?:which|what|is|are|does|do)\b", question, maxsplit=1)[0]
    course = course_phrase(question) or course_hint(first_clause)
    if not course:
        # "that course": the one an earlier turn looked up; with none, ask rather than guess.
        return _earlier_outline(conversation) or _which_course(numbers)
    if tools.outline is None:
        return None
    outlines = conversation.results_of("get_course_outline")
    if not outlines:
        wanted = [PlannedCall("get_course_outline", {tools.outline: course})]
        return proceed(conversation, wanted, lambda missing: missing_note(missing, "en"))
    _, result = outlines[-1]
    outline = _as_outline(data_of(result))
    error = error_of(result)
    if error is not None or outline is None:
        return Reply(ended(f'I could not find the course "{course}": {_plainly(error) if error else result.content}', "en"))
    return outline


def _related(conversation: Conversation, tools: _Tools, numbers: list[int]) -> Decision | None:
    outline = _outline_for(conversation, tools, numbers)
    if not isinstance(outline, _Outline):
        return outline
    planned: list[PlannedCall] = []
    for number in numbers:
        if number in outline.lessons:
            title = outline.lessons[number]
            planned += [_lesson_search(tools, title, outline.title, number),
                        PlannedCall("search_course_content", {tools.search: title})]
    return proceed(conversation, _pending(conversation, planned),
                   lambda missing: _related_answer(conversation, outline, numbers, tools, missing))


def _follow_up(conversation: Conversation, tools: _Tools, numbers: list[int]) -> Decision | None:
    outline = _earlier_outline(conversation)
    if outline is None:
        return _which_course(numbers)
    planned = [_lesson_search(tools, outline.lessons[n], outline.title, n) for n in numbers if n in outline.lessons]

    def answer(missing: Sequence[PlannedCall]) -> str:
        searches = _searches(conversation)
        sentences = []
        for number in numbers:
            title = outline.lessons.get(number)
            search = next((s for s in searches if title and s.arguments.get(tools.search) == title), None)
            sentences.append(_lesson_sentence(outline, number, search))
        return " ".join([*sentences, missing_note(missing, "en")]).strip()

    return proceed(conversation, _pending(conversation, planned), answer)


def _topic(conversation: Conversation, tools: _Tools) -> Decision | None:
    question = conversation.question
    asks_where = mentions(question, sorted(_TOPIC_VERBS))
    if mentions(question, _OUTLINE_WORDS) and not asks_where:
        return None  # "What lessons does the MCP course have?" is an outline question: course_policy's
    course = course_phrase(question)
    topic = topic_of(question, course)
    only_course_tools = set(conversation.tool_names) <= {"search_course_content", "get_course_outline"}
    if not topic or not (asks_where or only_course_tools):
        return None
    arguments = {tools.search: topic, **({tools.course: course} if course and tools.course else {})}
    planned = _pending(conversation, [PlannedCall("search_course_content", arguments)])
    return proceed(conversation, planned, lambda missing: _topic_answer(conversation, topic, missing))


def catalogue_policy(conversation: Conversation) -> Decision | None:
    """Course assistant questions: a lesson and the other courses on its topic, follow-ups, topic searches.

    Applies when ``search_course_content`` is offered. "Lesson N of <course>
    ... which other course ...": the outline, then the lesson and a
    catalogue-wide search in one turn. "And lesson 2?": a search of the course
    an earlier turn's outline returned. A topic ("Which courses explain BM25?"):
    one search. Plain lesson questions are left to ``course_policy``.
    """
    tools = _tools(conversation)
    question = conversation.question
    if tools is None or not question.strip() or language_of(question) != "en":
        return None  # the catalogue is in English; Chinese course questions are course_policy's
    numbers = lesson_numbers(question)
    if numbers and wants_related(question):
        return _related(conversation, tools, numbers)
    if numbers:
        named = course_phrase(question) or course_hint(question)
        return None if named else _follow_up(conversation, tools, numbers)
    return _topic(conversation, tools)

