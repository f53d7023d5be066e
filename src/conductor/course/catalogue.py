"""The course assistant's catalogue: course files, their parser, a SQLite FTS5 index, the search tools.

A course is a plain text file in the format of the course-materials chatbot the
course grew from::

    Course Title: Function Calling and Tool Orchestration with LLMs
    Course Link: https://...
    Course Instructor: Mira Okafor

    Lesson 0: Why Models Need Tools and How to Describe Them
    Lesson Link: https://...
    The transcript, in paragraphs ...

Lessons are numbered as the course numbers them, from 0 or from 1. The
package ships a few such files (``conductor/data/courses/*.txt``); the first,
*Function Calling and Tool Orchestration with LLMs*, numbers its lessons like
this course's notebooks (lesson 3 is retries, lesson 5 the orchestrator).

:func:`parse_course` reads one; :class:`Catalogue` indexes the paragraphs of
every lesson in an in-memory SQLite FTS5 table ranked with ``bm25()``, a real
search engine embedded in Python's standard library (no model download, no
service). The two tools the model gets, :func:`get_course_outline` and
:func:`search_course_content`, search the package's catalogue;
:class:`Session` (in :mod:`conductor.course.assistant`) asks questions with them and
collects the sources.

Course names from a model or a user are loose ("the MCP course", "promt
engineering"): :meth:`Catalogue.find_course` matches them word by word with
``difflib`` and title acronyms. A name that matches nothing, or several courses
equally, is an error whose message lists the courses, so the model can retry
or tell the user what exists.
"""

from __future__ import annotations

import difflib
import logging
import re
import sqlite3
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from ..tools import Tool, tool

__all__ = [
    "Lesson",
    "Course",
    "SearchHit",
    "CatalogueFormatError",
    "CourseNotFoundError",
    "parse_course",
    "load_courses",
    "Catalogue",
    "default_catalogue",
    "get_course_outline",
    "search_course_content",
    "tools",
]

logger = logging.getLogger(__name__)

MAX_RESULTS = 5
"""Lessons a search returns at most (the best passage of each)."""

SNIPPET_TOKENS = 40
"""Words in a result's snippet (FTS5 ``snippet()`` picks the window with the most matches)."""


# -- courses and their files -----------------------------------------------------------


@dataclass(frozen=True)
class Lesson:
    """One numbered lesson of a course: its title, link and transcript."""

    number: int
    title: str
    link: str | None
    transcript: str

    @property
    def paragraphs(self) -> list[str]:
        """The transcript's paragraphs (separated by blank lines): the units the index searches."""
        return [" ".join(p.split()) for p in re.split(r"\n\s*\n", self.transcript) if p.strip()]


@dataclass(frozen=True)
class Course:
    """A course: title, link, instructor and its lessons in order."""

    title: str
    link: str
    instructor: str
    lessons: tuple[Lesson, ...]

    def lesson(self, number: int) -> Lesson:
        """The lesson numbered ``number``; a ``LookupError`` naming the lesson numbers there are."""
        for lesson in self.lessons:
            if lesson.number == number:
                return lesson
        numbers = ", ".join(str(lesson.number) for lesson in self.lessons)
        raise LookupError(f"{self.title!r} has no lesson {number}; its lessons are {numbers}")


class CatalogueFormatError(ValueError):
    """A course file that does not follow the format; the message names the file, the line and the fix."""


class CourseNotFoundError(ValueError):
    """A course name that matches no course, or several equally; the message lists the courses."""


_HEADER_FIELDS = ("Course Title", "Course Link", "Course Instructor")
_LESSON_LINE = re.compile(r"^Lesson\s+(\d+)\s*:\s*(.+?)\s*$")
_LESSON_LINK = re.compile(r"^Lesson Link\s*:\s*(\S+)\s*$")


def _header(lines: Sequence[str], source: str) -> tuple[dict[str, str], int]:
    """The three header fields, and the index of the first line after them."""
    fields: dict[str, str] = {}
    for index, name in enumerate(_HEADER_FIELDS):
        line = lines[index].strip() if index < len(lines) else ""
        prefix = f"{name}:"
        if not line.startswith(prefix) or not line[len(prefix):].strip():
            raise CatalogueFormatError(
                f"{source}, line {index + 1}: expected '{prefix} ...', found {line!r}; a course file starts with "
                f"the lines {', '.join(repr(f + ':') for f in _HEADER_FIELDS)}, each with a value"
            )
        fields[name] = line[len(prefix):].strip()
    return fields, len(_HEADER_FIELDS)


def _lesson(number: int, title: str, body: list[str], source: str, line_number: int) -> Lesson:
    """A lesson from the lines after its ``Lesson N: title`` line (an optional link, then the transcript)."""
    while body and not body[0].strip():
        body = body[1:]
    link = None
    if body and (match := _LESSON_LINK.match(body[0].strip())):
        link, body = match.group(1), body[1:]
    transcript = "\n".join(body).strip()
    if not transcript:
        raise CatalogueFormatError(
            f"{source}, line {line_number}: lesson {number} ({title!r}) has no transcript; "
            "write its text on the lines after 'Lesson Link:'"
        )
    return Lesson(number, title, link, transcript)


def parse_course(text: str, source: str = "<text>") -> Course:
    """Parse one course file's text: the header, then ``Lesson N: title`` sections.

    ``source`` names the text in error messages (a file name). Lesson numbers
    (from 0 or 1) must increase; each lesson needs a transcript; ``Lesson Link:``
    is optional.
    """
    lines = text.splitlines()
    fields, start = _header(lines, source)
    starts = [(i, m) for i, line in enumerate(lines) if i >= start and (m := _LESSON_LINE.match(line.strip()))]
    if not starts:
        raise CatalogueFormatError(
            f"{source}: no lessons found; after the header, start each lesson with a line 'Lesson 1: Its Title'"
        )
    stray = [line for line in lines[start:starts[0][0]] if line.strip()]
    if stray:
        raise CatalogueFormatError(
            f"{source}, line {start + 1}: text before the first 'Lesson N:' line ({stray[0][:40]!r}); "
            "move it into a lesson or remove it"
        )
    lessons: list[Lesson] = []
    for position, (index, match) in enumerate(starts):
        end = starts[position + 1][0] if position + 1 < len(starts) else len(lines)
        number = int(match.group(1))
        if lessons and number <= lessons[-1].number:
            raise CatalogueFormatError(
                f"{source}, line {index + 1}: lesson {number} comes after lesson {lessons[-1].number}; "
                "number the lessons in increasing order"
            )
        lessons.append(_lesson(number, match.group(2), lines[index + 1:end], source, index + 1))
    return Course(fields["Course Title"], fields["Course Link"], fields["Course Instructor"], tuple(lessons))


def load_courses(directory: str | Path | None = None) -> tuple[Course, ...]:
    """Every ``*.txt`` course file in ``directory`` (default: the package's catalogue), sorted by file name."""
    if directory is None:
        files = [f for f in resources.files("conductor").joinpath("data", "courses").iterdir()
                 if f.name.endswith(".txt")]
    else:
        folder = Path(directory)
        if not folder.is_dir():
            raise FileNotFoundError(f"{folder} is not a folder; pass the folder that holds the course .txt files")
        files = list(folder.glob("*.txt"))
    if not files:
        raise FileNotFoundError(f"no course files (*.txt) in {directory or 'conductor/data/courses'}")
    courses = tuple(parse_course(f.read_text(encoding="utf-8"), f.name) for f in sorted(files, key=lambda f: f.name))
    titles = [c.title.casefold() for c in courses]
    duplicates = sorted({c.title for c in courses if titles.count(c.title.casefold()) > 1})
    if duplicates:
        raise CatalogueFormatError(f"two course files share the title {duplicates[0]!r}; give each course its own")
    return courses


# -- fuzzy course names ------------------------------------------------------------------
# difflib (standard library) rather than rapidfuzz: a catalogue holds a handful of
# titles, so speed does not matter, and a word-by-word ratio with a threshold is all
# that "promt engeneering" needs. No dependency for it.

_NAME_FILLER = frozenset("a an the course courses class lesson lessons of on in about for to and with".split())
_WORD_MATCH = 0.8  # difflib ratio from which two words count as the same ("promt" ~ "prompt": 0.91)
_NAME_MATCH = 0.5  # share of the name's words that must match a course title


def _name_words(text: str) -> list[str]:
    """Lower-case words of a name without filler, plurals folded ("LLMs" -> "llm")."""
    found = re.findall(r"[a-z0-9]+", text.casefold())
    return [w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
            for w in found if w not in _NAME_FILLER]


def _acronyms(title: str) -> set[str]:
    """Acronyms of 3+ consecutive capitalised title words: "Model Context Protocol" -> "mcp"."""
    runs: list[list[str]] = [[]]
    for word in re.split(r"[\s\-:]+", title):
        if word[:1].isupper():
            runs[-1].append(word[0].lower())
        else:
            runs.append([])
    return {"".join(run[i:j]) for run in runs for i in range(len(run)) for j in range(i + 3, len(run) + 1)}


def _name_score(wanted: Sequence[str], title: str) -> float:
    """Share of ``wanted`` words that match a word or an acronym of ``title``."""
    candidates = [*_name_words(title), *_acronyms(title)]
    matched = sum(
        1 for w in wanted
        if max((difflib.SequenceMatcher(None, w, c).ratio() for c in candidates), default=0.0) >= _WORD_MATCH
    )
    return matched / len(wanted)


# -- the index -----------------------------------------------------------------------------


@dataclass(frozen=True)
class SearchHit:
    """The best passage of one lesson for a query, with its source."""

    course_title: str
    lesson_number: int
    lesson_title: str
    link: str
    snippet: str
    score: float  # -bm25: higher is better

    def as_dict(self) -> dict[str, Any]:
        return {
            "course_title": self.course_title,
            "lesson_number": self.lesson_number,
            "lesson_title": self.lesson_title,
            "link": self.link,
            "snippet": self.snippet,
            "score": self.score,
        }


_QUERY_STOPWORDS = frozenset(
    "a an and are as at be by can do does for from how i in is it me of on or that the this to what whats "
    "which who with".split()
)
# Weights of the indexed columns for bm25(): a word in the lesson title counts
# twice as much as one in the transcript (the unindexed columns get 0).
_BM25 = "bm25(passages, 0, 0, 2.0, 1.0, 0)"


class Catalogue:
    """Courses and their full-text index: an in-memory SQLite FTS5 table, one row per paragraph.

    Safe to share between threads (parallel tool calls): one connection, used under a lock.
    """

    def __init__(self, courses: Iterable[Course]) -> None:
        self.courses: tuple[Course, ...] = tuple(courses)
        if not self.courses:
            raise ValueError("a catalogue needs at least one course; load_courses() reads the package's")
        self._lock = threading.Lock()
        self.connection = sqlite3.connect(":memory:", check_same_thread=False)
        self.connection.execute(
            "CREATE VIRTUAL TABLE passages USING fts5("
            "course_title UNINDEXED, lesson_number UNINDEXED, lesson_title, text, link UNINDEXED, "
            "tokenize='porter unicode61')"
        )
        rows = [
            (course.title, lesson.number, lesson.title, paragraph, lesson.link or course.link)
            for course in self.courses
            for lesson in course.lessons
            for paragraph in lesson.paragraphs
        ]
        self.connection.executemany("INSERT INTO passages VALUES (?, ?, ?, ?, ?)", rows)
        self.passage_count = len(rows)
        logger.debug("indexed %d passages of %d courses", len(rows), len(self.courses))

    @classmethod
    def from_directory(cls, directory: str | Path | None = None) -> Catalogue:
        """A catalogue of the course files in ``directory`` (default: the package's)."""
        return cls(load_courses(directory))

    @property
    def titles(self) -> list[str]:
        return [course.title for course in self.courses]

    def find_course(self, name: str) -> Course:
        """The course a loosely written name means: exact or contained title first, then fuzzy words and acronyms.

        Raises :class:`CourseNotFoundError`, listing the courses, when no title
        matches or several match equally well.
        """
        wanted = " ".join(name.split()).casefold()
        for course in self.courses:
            if wanted == course.title.casefold():
                return course
        contained = [c for c in self.courses if len(wanted) >= 4 and wanted in c.title.casefold()]
        if len(contained) == 1:
            return contained[0]
        words = _name_words(name)
        if not words:
            raise CourseNotFoundError(f"the course name {name!r} has no words to match; {self._listing()}")
        scores = [(_name_score(words, course.title), course) for course in self.courses]
        best = max(score for score, _ in scores)
        leaders = [course for score, course in scores if score == best]
        if best < _NAME_MATCH:
            raise CourseNotFoundError(f"no course matches {name!r}; {self._listing()}")
        if len(leaders) > 1:
            both = "; ".join(c.title for c in leaders)
            raise CourseNotFoundError(f"{name!r} matches several courses equally: {both}. Name one of them more fully")
        return leaders[0]

    def _listing(self) -> str:
        return "the courses are: " + "; ".join(self.titles)

    def outline(self, course_name: str) -> dict[str, Any]:
        """A course's title, link, instructor and numbered lessons with their links."""
        course = self.find_course(course_name)
        return {
            "course_title": course.title,
            "link": course.link,
            "instructor": course.instructor,
            "lessons": [
                {"lesson_number": lesson.number, "lesson_title": lesson.title, "link": lesson.link or course.link}
                for lesson in course.lessons
            ],
        }

    def search(self, query: str, course_name: str | None = None, lesson_number: int | None = None,
               limit: int = MAX_RESULTS) -> list[SearchHit]:
        """The best passage of each matching lesson, best first (bm25), at most ``limit`` lessons.

        ``course_name`` (fuzzy, see :meth:`find_course`) and ``lesson_number``
        restrict the search. Any word of the query may match; the query is data,
        never FTS5 syntax, so quotes or ``OR`` in it cannot break the search.
        """
        terms = [w for w in re.findall(r"\w+", query.casefold()) if w not in _QUERY_STOPWORDS]
        if not terms:
            raise ValueError(f"the query {query!r} has no searchable words; send a few content words")
        sql = (f"SELECT course_title, lesson_number, lesson_title, link, "
               f"snippet(passages, 3, '', '', '…', {SNIPPET_TOKENS}), text, {_BM25} AS rank "
               "FROM passages WHERE passages MATCH ?")
        parameters: list[Any] = [" OR ".join(f'"{term}"' for term in dict.fromkeys(terms))]
        course = self.find_course(course_name) if course_name is not None else None
        if course is not None:
            sql += " AND course_title = ?"
            parameters.append(course.title)
        if lesson_number is not None:
            if course is not None:
                course.lesson(lesson_number)  # a lesson the course lacks is an error, not an empty result
            sql += " AND lesson_number = ?"
            parameters.append(lesson_number)
        sql += " ORDER BY rank, course_title, lesson_number"
        with self._lock:
            rows = self.connection.execute(sql, parameters).fetchall()
        hits: dict[tuple[str, int], SearchHit] = {}
        for course_title, number, title, link, snippet, text, rank in rows:
            # The first row of a lesson is its best passage; later ones would repeat the source.
            hits.setdefault((course_title, number),
                            SearchHit(course_title, number, title, link, _whole_sentences(snippet, text),
                                      round(-rank, 3)))
        return list(hits.values())[:limit]


_SENTENCE_END = re.compile(r"[.!?。!?](?=\s|$)")


def _whole_sentences(snippet: str, text: str) -> str:
    """FTS5's snippet (a window of words, cut with "…") widened to the sentences it starts and ends in,
    so a source is quoted as written, never mid-sentence; "…" marks text left out before or after."""
    core = snippet.strip("…")
    at = text.find(core)
    if at < 0:
        return snippet
    ends = [m.end() for m in _SENTENCE_END.finditer(text)]
    start = max((e for e in ends if e <= at), default=0)
    end = min((e for e in ends if e >= at + len(core)), default=len(text))
    quoted = text[start:end].strip()
    return ("… " if start > 0 else "") + quoted + (" …" if end < len(text.rstrip()) else "")


_default: Catalogue | None = None
_default_lock = threading.Lock()


def default_catalogue() -> Catalogue:
    """The package's catalogue, parsed and indexed on first use and shared afterwards."""
    global _default
    with _default_lock:
        if _default is None:
            _default = Catalogue.from_directory()
        return _default


# -- the tools ---------------------------------------------------------------------------------


def _search_label(arguments: dict[str, Any], earlier: int) -> str:
    """What a search is doing, in the user's terms: "Searching lesson 1…", "Comparing with lesson 5…"."""
    lesson = arguments.get("lesson_number")
    if lesson is None:  # lesson 0 is a lesson: only a missing number is looked up by the query
        lesson = _lesson_named(str(arguments.get("query", "")))
    if earlier:
        return f"Comparing with lesson {lesson}…" if lesson is not None else "Comparing with more course material…"
    return f"Searching lesson {lesson}…" if lesson is not None else "Searching the course materials…"


def _lesson_named(query: str) -> int | None:
    """The number of the lesson whose title the query contains, if exactly one course has it."""
    found = {
        lesson.number
        for course in default_catalogue().courses
        for lesson in course.lessons
        if lesson.title.casefold() in query.casefold()
    }
    return found.pop() if len(found) == 1 else None


@tool(progress="Reading the outline of {course_name}…")
def get_course_outline(course_name: str) -> dict:
    """Get a course's outline: its exact title, link, instructor and every lesson's number, title and link.

    Args:
        course_name: The course's title or a few words of it, e.g. "prompt engineering" or "MCP".
    """
    return default_catalogue().outline(course_name)


@tool(progress=_search_label)
def search_course_content(query: str, course_name: str | None = None, lesson_number: int | None = None) -> dict:
    """Search the course materials; returns the best-matching lesson passages with their course, lesson and link.

    Args:
        query: What to look for, in a few words, e.g. "prompt injection".
        course_name: Only search this course (its title or a few words of it).
        lesson_number: Only search this lesson, by its number in the outline; use with course_name.
    """
    hits = default_catalogue().search(query, course_name, lesson_number)
    return {"query": query, "results": [hit.as_dict() for hit in hits]}


def tools() -> list[Tool]:
    """The course assistant's tools: get_course_outline and search_course_content."""
    return [get_course_outline, search_course_content]
