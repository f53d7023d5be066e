"""The offline model on the course assistant's questions, through ``llm.run`` on each API with the real tools."""

from __future__ import annotations

from typing import Any

import pytest

import conductor as cd
from conductor import catalogue, scenarios
from conductor.course.assistant import Session
from conductor.offline import LatencyModel, OfflineModel
from conductor.offline.course_policy import course_phrase, topic_of, wants_related
from wire import APIS

TOOLS = catalogue.tools()
RELATED = "What does lesson 4 of the prompt engineering course cover, and which other course talks about the same topic?"


@pytest.fixture(params=APIS)
def llm(request) -> cd.LLM:
    return cd.connect("offline", api=request.param, offline_model=OfflineModel(seed=0, latency=LatencyModel.instant()))


def calls(result) -> list[list[tuple[str, Any]]]:
    # A strict tool's call carries every key, null for "not given": only the stated ones are compared.
    return [[(c.name, {k: v for k, v in c.arguments.items() if v is not None}) for c in r.tool_calls]
            for r in result.rounds]


# -- reading the question -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "course"),
    [
        (RELATED, "prompt engineering"),
        ('What does lesson 2 of "Evaluating LLM Applications" cover?', "Evaluating LLM Applications"),
        ("Is lesson 4 in the same course about agents?", None),
        ("What does the RAG course say about chunking?", "RAG"),
        ("Which other course talks about it?", None),
    ],
)
def test_the_course_a_question_names(question: str, course: str | None):
    assert course_phrase(question) == course


def test_the_topic_leaves_out_the_course_and_the_question_words():
    assert topic_of("What does the RAG course say about chunking?", "RAG") == "chunking"
    assert topic_of('Which lessons mention "reciprocal rank fusion"?', None) == "reciprocal rank fusion"
    assert wants_related(RELATED) and not wants_related("What is in lesson 4 of the MCP course?")


# -- two rounds: the outline, then searches built from it -----------------------------------------


def test_lesson_and_related_courses_take_the_outline_then_two_searches_in_one_turn(llm):
    result = llm.run(RELATED, tools=TOOLS, max_rounds=2)
    title = "Prompt Injection and Other Attacks"  # lesson 4's title: only the outline says so
    assert calls(result) == [
        [("get_course_outline", {"course_name": "prompt engineering"})],
        [("search_course_content", {"query": title, "course_name": "Prompt Engineering Fundamentals",
                                    "lesson_number": 4}),
         ("search_course_content", {"query": title})],
    ]
    assert result.answer.startswith(f'Lesson 4 of "Prompt Engineering Fundamentals" is "{title}". Prompt injection is')
    related = result.answer.split("Other courses on the same topic:")[1]
    assert '"Function Calling and Tool Orchestration with LLMs", lesson 4' in related
    assert '"Building Agents with the Model Context Protocol", lesson 6' in related
    # A lesson sharing one common word ("prompt") is not the same topic.
    assert "Evaluating LLM Applications" not in related
    assert result.api_calls == 3  # two rounds and the answer: max_rounds + 1


def test_the_searches_follow_what_the_outline_returned(llm, monkeypatch):
    """Rename lesson 4 in the catalogue: the round-2 query changes with it, so it came from the tool result."""
    shipped = catalogue.default_catalogue()
    course = shipped.find_course("prompt engineering")
    lessons = list(course.lessons)
    lessons[3] = catalogue.Lesson(4, "Jailbreaks and Injections", lessons[3].link, lessons[3].transcript)
    renamed = catalogue.Course(course.title, course.link, course.instructor, tuple(lessons))
    other = [c if c is not course else renamed for c in shipped.courses]
    monkeypatch.setattr(catalogue, "_default", catalogue.Catalogue(other))
    result = llm.run(RELATED, tools=TOOLS, max_rounds=2)
    assert [args["query"] for _, args in calls(result)[1]] == ["Jailbreaks and Injections"] * 2


def test_one_round_allowed_cuts_the_chain_and_the_answer_says_what_is_missing(llm):
    result = llm.run(RELATED, tools=TOOLS, max_rounds=1)
    assert calls(result) == [[("get_course_outline", {"course_name": "prompt engineering"})]]
    assert result.forced_final
    assert result.answer.startswith('Lesson 4 of "Prompt Engineering Fundamentals" is "Prompt Injection and Other Attacks".')
    assert "(Still to do, as no more tool calls were allowed: search course content for " in result.answer
    assert "search_course_content" not in result.answer  # words, not the tool's identifier


def test_an_unknown_course_is_answered_with_the_list_of_courses(llm):
    result = llm.run(RELATED.replace("prompt engineering", "cooking"), tools=TOOLS, max_rounds=2)
    assert len(result.rounds) == 1 and result.rounds[0].tool_calls[0].is_error
    assert result.answer.startswith('I could not find the course "cooking": no course matches')
    assert all(title in result.answer for title in catalogue.default_catalogue().titles)


def test_a_lesson_of_no_named_course_is_a_question_back_not_a_guess(llm):
    result = llm.run("What does lesson 4 cover, and which other course talks about the same topic?",
                     tools=TOOLS, max_rounds=2)
    assert result.rounds == () and "Which course do you mean?" in result.answer


# -- a session remembers -------------------------------------------------------------------------


def test_a_follow_up_uses_the_course_of_the_earlier_turn_in_one_round(llm):
    session = Session(llm)
    session.ask(RELATED)
    follow = session.ask("And lesson 2?")
    assert calls(follow.result) == [[("search_course_content", {
        "query": "Few-Shot Examples", "course_name": "Prompt Engineering Fundamentals", "lesson_number": 2})]]
    assert follow.answer.startswith('Lesson 2 of "Prompt Engineering Fundamentals" is "Few-Shot Examples".')
    assert [s.lesson_number for s in follow.sources] == [2]
    assert "Sources:\n  1. Prompt Engineering Fundamentals, lesson 2: Few-Shot Examples" in str(follow)


def test_without_the_earlier_turn_the_follow_up_names_no_course(llm):
    alone = llm.run("And lesson 2?", tools=TOOLS, max_rounds=2)
    assert alone.rounds == () and alone.answer.startswith("Which course do you mean? Please name the course of lesson 2")


def test_a_lesson_beyond_the_course_is_answered_from_the_earlier_outline(llm):
    session = Session(llm)
    session.ask(RELATED)
    follow = session.ask("And lesson 9?")
    assert follow.result.rounds == ()
    assert follow.answer == '"Prompt Engineering Fundamentals" has no lesson 9; its lessons are 1, 2, 3, 4, 5.'


# -- one round: a topic ---------------------------------------------------------------------------


def test_a_topic_question_is_one_search_of_the_whole_catalogue(llm):
    result = llm.run("Which courses talk about BM25?", tools=TOOLS, max_rounds=2)
    assert calls(result) == [[("search_course_content", {"query": "bm25"})]]
    assert result.answer.startswith('"bm25" comes up in 2 lessons. "Retrieval-Augmented Generation in Practice", lesson 3')
    assert '"Evaluating LLM Applications", lesson 5' in result.answer


def test_a_topic_in_a_named_course_filters_by_the_words_the_question_used(llm):
    result = llm.run("What does the RAG course say about chunking?", tools=TOOLS, max_rounds=2)
    assert calls(result) == [[("search_course_content", {"query": "chunking", "course_name": "RAG"})]]
    assert '"Retrieval-Augmented Generation in Practice", lesson 2 "Chunking Documents"' in result.answer


def test_plain_lesson_and_outline_questions_go_to_the_outline_first(llm):
    lesson = llm.run("What's in lesson 3 of the MCP course?", tools=TOOLS, max_rounds=2)
    assert calls(lesson)[0] == [("get_course_outline", {"course_name": "mcp"})]
    assert calls(lesson)[1][0][1]["query"] == "Tools, Resources and Prompts"
    outline = llm.run("What lessons does the evaluation course have?", tools=TOOLS, max_rounds=2)
    assert calls(outline) == [[("get_course_outline", {"course_name": "evaluation"})]]
    assert '"Evaluating LLM Applications" has 6 lessons: 1. Why Evaluation Comes First' in outline.answer


def test_other_scenarios_are_left_alone(llm):
    mixed = [*TOOLS, *scenarios.weather_tools()]
    result = llm.run("What's the weather in Beijing today?", tools=mixed, max_rounds=2)
    assert calls(result) == [[("get_weather", {"city": "Beijing"})]]


def test_a_session_lists_each_source_once_across_rounds_and_runs_the_turn_in_parallel(llm):
    reply = Session(llm, parallel=True).ask(RELATED)
    assert len(reply.result.rounds[1].tool_calls) == 2
    keys = [(s.course_title, s.lesson_number) for s in reply.sources]
    assert keys[0] == ("Prompt Engineering Fundamentals", 4)  # found by both searches, listed once
    assert len(keys) == len(set(keys))
    assert ("Prompt Engineering Fundamentals", None) not in keys  # its outline adds nothing a lesson does not
    steps = reply.steps().splitlines()
    assert steps[0] == 'round 1: get_course_outline(course_name="prompt engineering")'
    assert steps[1] == "  -> outline of Prompt Engineering Fundamentals, 5 lessons"
    assert steps[-1] == "answered after 2 rounds, 3 model requests"
