"""The course catalogue: the course-file parser, the FTS5 search, fuzzy course names, the tools and their sources."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conductor import catalogue
from conductor.course.assistant import Session, Source, sources_of
from conductor.course.catalogue import (
    Catalogue,
    CatalogueFormatError,
    CourseNotFoundError,
    load_courses,
    parse_course,
)
from conductor.trace import ToolCallRecord

FUNCTION_CALLING = "Function Calling and Tool Orchestration with LLMs"

COURSE_TEXT = """\
Course Title: Tiny Course
Course Link: https://example.invalid/tiny
Course Instructor: Ada Example

Lesson 1: First Steps
Lesson Link: https://example.invalid/tiny/1
The first paragraph talks about kettles.

The second paragraph
spans two lines about teapots.

Lesson 3: No Link Here
Only one paragraph, about saucers.
"""


# -- the parser -------------------------------------------------------------------------------


def test_a_course_file_parses_into_header_lessons_links_and_paragraphs():
    course = parse_course(COURSE_TEXT, "tiny.txt")
    assert (course.title, course.link, course.instructor) == (
        "Tiny Course", "https://example.invalid/tiny", "Ada Example")
    assert [(lesson.number, lesson.title, lesson.link) for lesson in course.lessons] == [
        (1, "First Steps", "https://example.invalid/tiny/1"),
        (3, "No Link Here", None),
    ]
    assert course.lessons[0].paragraphs == [
        "The first paragraph talks about kettles.",
        "The second paragraph spans two lines about teapots.",
    ]
    assert course.lesson(3).transcript == "Only one paragraph, about saucers."


def test_a_missing_lesson_names_the_lessons_there_are():
    with pytest.raises(LookupError, match=r"'Tiny Course' has no lesson 2; its lessons are 1, 3"):
        parse_course(COURSE_TEXT).lesson(2)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (COURSE_TEXT.replace("Course Link:", "Link:"), r"tiny.txt, line 2: expected 'Course Link: \.\.\.'"),
        (COURSE_TEXT.replace("Ada Example", ""), r"line 3: expected 'Course Instructor: \.\.\.'.*each with a value"),
        (COURSE_TEXT.split("Lesson 1")[0], r"no lessons found; .*'Lesson 1: Its Title'"),
        (COURSE_TEXT.replace("Lesson 3:", "Lesson 1:"), r"line 12: lesson 1 comes after lesson 1; number the lessons"),
        (COURSE_TEXT.replace("Only one paragraph, about saucers.\n", ""), r"lesson 3 \('No Link Here'\) has no transcript"),
        (COURSE_TEXT.replace("\nLesson 1:", "\nStray words.\nLesson 1:", 1), r"text before the first 'Lesson N:' line"),
    ],
    ids=["header", "empty-field", "no-lessons", "order", "no-transcript", "stray-text"],
)
def test_format_errors_name_the_file_the_line_and_the_fix(text, message):
    with pytest.raises(CatalogueFormatError, match=message):
        parse_course(text, "tiny.txt")


def test_the_package_ships_a_catalogue_of_real_courses():
    courses = load_courses()
    assert 4 <= len(courses) <= 6
    for course in courses:
        assert 5 <= len(course.lessons) <= 8, course.title
        first = course.lessons[0].number
        assert first in (0, 1), course.title  # numbered from 0 (like this course's notebooks) or from 1
        assert [lesson.number for lesson in course.lessons] == list(range(first, first + len(course.lessons)))
        assert all(lesson.link and lesson.link.startswith(course.link) for lesson in course.lessons)
        assert all(len(lesson.paragraphs) >= 2 for lesson in course.lessons), course.title


def test_a_folder_of_course_files_loads_sorted_and_rejects_duplicate_titles(tmp_path: Path):
    (tmp_path / "b.txt").write_text(COURSE_TEXT)
    (tmp_path / "a.txt").write_text(COURSE_TEXT.replace("Tiny Course", "Another Course"))
    assert [c.title for c in load_courses(tmp_path)] == ["Another Course", "Tiny Course"]
    (tmp_path / "c.txt").write_text(COURSE_TEXT.replace("Tiny Course", "tiny course"))
    with pytest.raises(CatalogueFormatError, match="share the title"):
        load_courses(tmp_path)
    with pytest.raises(FileNotFoundError, match="is not a folder"):
        load_courses(tmp_path / "missing")


def test_lesson_zero_is_a_lesson_like_any_other():
    own = Catalogue([parse_course(COURSE_TEXT.replace("Lesson 1: First Steps", "Lesson 0: First Steps"))])
    assert [lesson.number for lesson in own.courses[0].lessons] == [0, 3]
    assert [h.lesson_number for h in own.search("kettles", "tiny", 0)] == [0]
    assert own.outline("tiny")["lessons"][0]["lesson_number"] == 0


# -- fuzzy course names --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def shipped() -> Catalogue:
    return catalogue.default_catalogue()


@pytest.mark.parametrize(
    ("name", "title"),
    [
        ("Prompt Engineering Fundamentals", "Prompt Engineering Fundamentals"),
        ("prompt engineering", "Prompt Engineering Fundamentals"),
        ("the promt engeneering course", "Prompt Engineering Fundamentals"),  # typos
        ("MCP", "Building Agents with the Model Context Protocol"),  # an acronym of the title
        ("RAG", "Retrieval-Augmented Generation in Practice"),
        ("function calling", FUNCTION_CALLING),
        ("the tool orchestration course", FUNCTION_CALLING),
        ("evaluation", "Evaluating LLM Applications"),
    ],
)
def test_loose_course_names_find_their_course(shipped: Catalogue, name: str, title: str):
    assert shipped.find_course(name).title == title


def test_a_name_that_matches_nothing_lists_the_courses(shipped: Catalogue):
    with pytest.raises(CourseNotFoundError, match="no course matches 'cooking'; the courses are: ") as caught:
        shipped.find_course("cooking")
    assert all(title in str(caught.value) for title in shipped.titles)


def test_a_name_that_matches_two_courses_equally_asks_for_more(shipped: Catalogue):
    with pytest.raises(CourseNotFoundError, match="matches several courses equally: .*Name one of them more fully"):
        shipped.find_course("the LLM course")


# -- search --------------------------------------------------------------------------------------


def test_search_ranks_the_lesson_about_the_topic_first(shipped: Catalogue):
    hits = shipped.search("BM25")
    assert [(h.course_title, h.lesson_number) for h in hits] == [
        ("Retrieval-Augmented Generation in Practice", 3),
        ("Evaluating LLM Applications", 5),
    ]
    assert hits[0].score > hits[1].score > 0
    assert "BM25" in hits[0].snippet and hits[0].link.endswith("/rag-in-practice/lesson-3")


def test_a_lesson_title_word_outranks_a_passing_mention(shipped: Catalogue):
    hits = shipped.search("parallel tool calls")
    assert (hits[0].course_title, hits[0].lesson_title) == (FUNCTION_CALLING, "Parallel Tool Calls")


def test_each_lesson_appears_once_with_its_best_passage(shipped: Catalogue):
    hits = shipped.search("chunks", "RAG")
    keys = [(h.course_title, h.lesson_number) for h in hits]
    assert len(keys) == len(set(keys)) and len(hits) <= catalogue.MAX_RESULTS
    assert {h.course_title for h in hits} == {"Retrieval-Augmented Generation in Practice"}


def test_course_and_lesson_filters_restrict_the_search(shipped: Catalogue):
    hits = shipped.search("prompt injection", course_name="promt engineering", lesson_number=4)
    assert [(h.course_title, h.lesson_number) for h in hits] == [("Prompt Engineering Fundamentals", 4)]
    assert shipped.search("kettle", course_name="MCP") == []


def test_a_lesson_the_course_lacks_is_an_error_not_an_empty_result(shipped: Catalogue):
    with pytest.raises(LookupError, match="has no lesson 9; its lessons are 1, 2, 3, 4, 5"):
        shipped.search("anything", course_name="prompt engineering", lesson_number=9)


def test_the_tool_orchestration_course_numbers_its_lessons_like_this_course(shipped: Catalogue):
    """Its lesson N is the topic of this course's notebook 0N: no "lesson 5" that means retries here and the
    orchestrator there."""
    topics = {
        0: "Why Models Need Tools",  # notebooks/00_setup
        1: "Tool Call Loop",  # 01_tool_chain
        2: "Parallel Tool Calls",  # 02_parallel_calls
        3: "Retries, Timeouts and Fallbacks",  # 03_retry_fallback
        4: "Validating and Securing Tool Calls",  # 04_tool_validation
        5: "Orchestrating in Production",  # 05_orchestrator
    }
    course = shipped.find_course("tool orchestration")
    assert course.title == FUNCTION_CALLING
    assert [lesson.number for lesson in course.lessons] == list(topics)
    for number, words in topics.items():
        assert words in course.lesson(number).title, number
    assert shipped.search("exponential backoff jitter", "tool orchestration")[0].lesson_number == 3
    assert shipped.search("budgets rate limits metrics", "tool orchestration")[0].lesson_number == 5
    assert shipped.search("allowlist approval", "tool orchestration")[0].lesson_number == 4


def test_a_query_without_words_says_what_to_send(shipped: Catalogue):
    with pytest.raises(ValueError, match="has no searchable words; send a few content words"):
        shipped.search("what is the?")


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=40))
def test_any_query_text_is_data_never_fts5_syntax(query: str):
    """Quotes, NEAR, OR, * or brackets in a query never reach FTS5 as syntax."""
    try:
        hits = catalogue.default_catalogue().search(query)
    except ValueError as error:  # no searchable words
        assert not isinstance(error, sqlite3.Error) and "no searchable words" in str(error)
    else:
        assert len(hits) <= catalogue.MAX_RESULTS


def test_a_catalogue_of_ones_own_courses(tmp_path: Path):
    own = Catalogue([parse_course(COURSE_TEXT)])
    assert own.passage_count == 3
    assert [h.lesson_number for h in own.search("teapots")] == [1]
    assert own.outline("tiny")["lessons"][1] == {
        "lesson_number": 3, "lesson_title": "No Link Here", "link": "https://example.invalid/tiny"}


# -- the tools -----------------------------------------------------------------------------------


def test_the_tools_have_the_assistant_signatures():
    outline, search = catalogue.tools()
    assert (outline.name, search.name) == ("get_course_outline", "search_course_content")
    assert outline.spec.parameters["required"] == ["course_name"]
    assert search.spec.parameters["required"] == ["query"]
    assert set(search.spec.parameters["properties"]) == {"query", "course_name", "lesson_number"}


def test_the_outline_tool_returns_title_link_instructor_and_lessons():
    data = catalogue.get_course_outline("mcp")
    assert data["course_title"] == "Building Agents with the Model Context Protocol"
    assert data["instructor"] and data["link"].startswith("https://")
    assert data["lessons"][3]["lesson_title"] == "Transports: stdio and Streamable HTTP"


def test_search_results_carry_their_sources():
    data = catalogue.search_course_content("reciprocal rank fusion")
    first = data["results"][0]
    assert set(first) == {"course_title", "lesson_number", "lesson_title", "link", "snippet", "score"}
    assert (first["course_title"], first["lesson_number"]) == ("Retrieval-Augmented Generation in Practice", 5)
    json.dumps(data)  # plain JSON for the model


# -- sources across rounds -----------------------------------------------------------------------


def record(name: str, output: object, *, is_error: bool = False) -> ToolCallRecord:
    text = output if isinstance(output, str) else json.dumps(output)
    return ToolCallRecord(id=name, name=name, arguments={}, output=text, is_error=is_error, started=0.0, ended=0.0)


def test_sources_are_collected_across_rounds_once_each_and_errors_skipped():
    outline = catalogue.get_course_outline("prompt engineering")
    lesson = catalogue.search_course_content("injection", "prompt engineering", 4)
    wide = catalogue.search_course_content("prompt injection")
    mcp = catalogue.get_course_outline("mcp")
    records = [record("get_course_outline", outline), record("search_course_content", lesson),
               record("search_course_content", wide), record("get_course_outline", mcp),
               record("search_course_content", "ValueError: nope", is_error=True)]
    sources = sources_of(records)
    keys = [(s.course_title, s.lesson_number) for s in sources]
    assert keys[0] == ("Prompt Engineering Fundamentals", 4)
    assert len(keys) == len(set(keys))
    # An outline counts as a source only for a course no lesson of which is listed.
    assert ("Prompt Engineering Fundamentals", None) not in keys
    assert ("Building Agents with the Model Context Protocol", 6) in keys
    assert str(sources[0]) == ("Prompt Engineering Fundamentals, lesson 4: Prompt Injection and Other Attacks "
                               "<https://courses.conductor.invalid/prompt-engineering/lesson-4>")
    course_only = sources_of([record("get_course_outline", outline)])
    assert course_only == [Source("Prompt Engineering Fundamentals", "https://courses.conductor.invalid/prompt-engineering")]


def test_a_session_needs_a_question():
    with pytest.raises(ValueError, match="ask\\(\\) needs a question"):
        Session(llm=None).ask("  ")  # type: ignore[arg-type]



def test_a_snippet_quotes_whole_sentences():
    from conductor.course.catalogue import default_catalogue

    for hit in default_catalogue().search("parallel tool calls prompt injection"):
        body = hit.snippet.removeprefix("… ").removesuffix(" …")
        assert body[-1] in ".!?。!?" and "…" not in body, hit.snippet
