"""The course assistant: a session that asks questions with the catalogue tools and shows sources.

::

    session = cd.assistant.Session(llm)            # llm = cd.connect(...)
    reply = session.ask("What does lesson 4 of the prompt engineering course cover?")
    print(reply)          # the answer, then its sources with their links
    session.ask("And lesson 2?")   # the earlier turns go along as history

Sources are collected from every round's tool results (each search hit names
its course, lesson and link; an outline names its course), in the order the
tools returned them, without duplicates: a lesson found by two searches is
listed once.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import catalogue
from ..display import LINE_WIDTH, clip, wrap
from ..offline.evidence import describe_call
from ..tools import Tool

if TYPE_CHECKING:
    from ..providers import LLM
    from ..rounds import RunResult
    from ..trace import ToolCallRecord

__all__ = ["SYSTEM_PROMPT", "Source", "Reply", "Session", "sources_of"]

SYSTEM_PROMPT = """\
You are the assistant of an online school's course catalogue. Answer questions about the courses and \
their lessons from the tools' results only.

Tools:
- get_course_outline(course_name): a course's exact title, link and numbered lessons. Use it when the \
question names a lesson by number, or asks what a course contains. Lesson numbers are the outline's: a \
course may start at lesson 0.
- search_course_content(query, course_name, lesson_number): passages of the lessons, with their sources. \
Search with the exact course title and lesson number once you know them.

You may use tools in up to two rounds. "What does lesson 4 of course X cover?" needs the outline first \
(to learn lesson 4's title), then a search of that lesson. Prefer one round when it is enough.

Answer in a few sentences, name the courses and lessons you used, and say plainly when the materials \
do not answer the question. Do not list the links: they are shown under your answer."""
"""The system prompt the session sends: what the tools are for and the two-round pattern."""


@dataclass(frozen=True)
class Source:
    """A course or lesson a tool result came from."""

    course_title: str
    link: str
    lesson_number: int | None = None  # None: the course as a whole (from its outline)
    lesson_title: str | None = None

    def __str__(self) -> str:
        where = self.course_title
        if self.lesson_number is not None:
            where += f", lesson {self.lesson_number}: {self.lesson_title}"
        return f"{where} <{self.link}>"


def _sources_in(output: str) -> list[Source]:
    """The sources one successful tool output names (search hits, or an outline's course)."""
    try:
        data: Any = json.loads(output)
    except ValueError:
        return []
    if not isinstance(data, dict):
        return []
    if isinstance(data.get("results"), list):
        return [
            Source(str(hit["course_title"]), str(hit.get("link", "")), hit.get("lesson_number"),
                   hit.get("lesson_title"))
            for hit in data["results"]
            if isinstance(hit, dict) and "course_title" in hit
        ]
    if "course_title" in data and isinstance(data.get("lessons"), list):
        return [Source(str(data["course_title"]), str(data.get("link", "")))]
    return []


def sources_of(records: Iterable[ToolCallRecord]) -> list[Source]:
    """Sources of every successful call, in order, each once; a course's outline only when none of its lessons is."""
    lessons: list[Source] = []
    courses: list[Source] = []
    for record in records:
        if record.is_error:
            continue
        for source in _sources_in(record.output):
            (lessons if source.lesson_number is not None else courses).append(source)
    unique_lessons = list(dict.fromkeys(lessons))
    covered = {s.course_title for s in unique_lessons}
    return unique_lessons + [s for s in dict.fromkeys(courses) if s.course_title not in covered]


def _outcome(record: ToolCallRecord) -> str:
    """What one call returned, in a few words: its hits, the outline's size, or the error."""
    if record.is_error:
        return f"error: {record.output}"
    try:
        data: Any = json.loads(record.output)
    except ValueError:
        return record.output
    if isinstance(data, dict) and isinstance(data.get("results"), list):
        hits = [f"{hit.get('course_title')} L{hit.get('lesson_number')}" for hit in data["results"]]
        return f"{len(hits)} result{'s' if len(hits) != 1 else ''}" + (f": {', '.join(hits)}" if hits else "")
    if isinstance(data, dict) and isinstance(data.get("lessons"), list):
        return f"outline of {data.get('course_title')}, {len(data['lessons'])} lessons"
    return record.output


@dataclass(frozen=True)
class Reply:
    """One answer of the assistant: the question, the run that answered it, and its sources."""

    question: str
    result: RunResult = field(repr=False)
    sources: tuple[Source, ...]

    @property
    def answer(self) -> str:
        return self.result.answer

    def steps(self, width: int = LINE_WIDTH) -> str:
        """One line per tool call, round by round (the call as written, then what it returned), then the count."""
        lines = []
        for r in self.result.rounds:
            for c in r.tool_calls:
                lines.append(wrap(f"round {r.index}: {describe_call(c.name, c.arguments)}", width))
                lines.append("  " + clip(f"-> {_outcome(c)}", width - 2))
        rounds = len(self.result.rounds)
        lines.append(f"answered after {rounds} round{'s' if rounds != 1 else ''}, "
                     f"{self.result.api_calls} model request{'s' if self.result.api_calls != 1 else ''}")
        return "\n".join(lines)

    def __str__(self) -> str:
        lines = [wrap(self.answer, LINE_WIDTH)]
        if self.sources:
            lines.append("Sources:")
            lines += [wrap(f"{i}. {source}", LINE_WIDTH, indent="  ") for i, source in enumerate(self.sources, 1)]
        return "\n".join(lines)


class Session:
    """A conversation with the course assistant: each question goes with the earlier turns as history.

    ``tools`` default to the package catalogue's two tools; ``max_rounds`` to 2,
    the limit the course assistant was built with. ``run_options`` go to every
    ``llm.run`` (``parallel=``, ``budget=``, ...).
    """

    def __init__(self, llm: LLM, *, tools: Sequence[Tool] | None = None, max_rounds: int = 2,
                 system: str | None = SYSTEM_PROMPT, **run_options: Any) -> None:
        self.llm = llm
        self.tools = list(tools) if tools is not None else catalogue.tools()
        self.max_rounds = max_rounds
        self.system = system
        self.run_options = run_options
        self.history: list[dict[str, Any]] = []
        self.replies: list[Reply] = []

    def ask(self, question: str, **run_options: Any) -> Reply:
        """Answer ``question`` with the tools, remembering the conversation for the next question."""
        if not question.strip():
            raise ValueError("ask() needs a question; pass the text to answer, e.g. session.ask('What is MCP?')")
        result = self.llm.run(
            question, tools=self.tools, max_rounds=self.max_rounds, system=self.system,
            history=self.history or None, **{**self.run_options, **run_options},
        )
        self.history = list(result.messages)
        reply = Reply(question, result, tuple(sources_of(result.tool_calls)))
        self.replies.append(reply)
        return reply

    def reset(self) -> None:
        """Forget the conversation: the next question starts afresh."""
        self.history = []
        self.replies = []
