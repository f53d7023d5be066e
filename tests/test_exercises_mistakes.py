"""The exercises catch the mistakes their lessons teach, with a message that names the fix.

Lesson 01 exercise 2: a hand-written loop must mark a raising tool's result with ``"is_error": true``.
Lesson 05 exercise 2: the off-by-one ``len(recent) <= limit`` lets limit + 1 calls into a window.
Lesson 06 exercise 2: the time at the end of the system prompt is told why it misses the cache.
Lesson 06 exercise 4: a search that keeps tools sharing no word, or reads the descriptions only.
Lesson 07 exercise 2: a failure inside the check's run names no line of the check.
Lesson 08 exercise 2: names matched as a set but divided by every call (halves a parallel-call case).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import conductor as cd
from conductor.course.exercises import lesson01, lesson05, lesson06, lesson07, lesson08, verify
from conductor.course.exercises.core import offline_llm

# -- lesson 01, exercise 2: a raising tool's result is marked as an error ---------------------------------


def test_round_loop_reference_passes_and_says_the_failed_call_went_back_as_an_error() -> None:
    outcome = lesson01.q2.evaluate(lesson01.q2.reference())
    assert outcome.status == "correct", outcome.message
    assert 'when get_weather(city="Atlantis") raised, its result went back with "is_error": true' in outcome.message


def test_the_check_runs_a_tool_that_raises() -> None:
    """The failing question really makes get_weather raise, and the reference marks that result."""
    llm = offline_llm("messages")
    tools = [lesson01.get_weather, lesson01.suggest_clothing]
    lesson01.run_rounds(llm.client, llm.model, lesson01.FAILING_QUESTION, tools, lesson01.FAILING_ROUNDS)
    results = [
        block
        for message in llm.offline.requests[-1].body["messages"]
        if message["role"] == "user" and isinstance(message["content"], list)
        for block in message["content"]
    ]
    errors = [block for block in results if block.get("is_error")]
    assert len(errors) == 1 and errors[0]["content"].startswith("ValueError: unknown city 'Atlantis'")
    with pytest.raises(ValueError, match="unknown city"):
        lesson01.get_weather(city="Atlantis")


def test_round_loop_without_is_error_fails_with_the_fix() -> None:
    outcome = lesson01.q2.evaluate(lesson01._error_not_flagged())
    assert outcome.status == "incorrect"
    assert 'get_weather(city="Atlantis") raised ValueError, but its tool_result went back without "is_error": true' in (
        outcome.message
    )
    assert 'Mark the tool_result of a call whose tool raised with "is_error": true' in outcome.message
    assert "does not know the call failed" in outcome.message


def test_round_loop_whose_tool_exception_escapes_fails_with_the_fix() -> None:
    outcome = lesson01.q2.evaluate(lesson01._exception_escapes())
    assert outcome.status == "incorrect"
    assert "get_weather raised ValueError: unknown city 'Atlantis'" in outcome.message
    assert "(in <listcomp>, line" in outcome.message or "(in run_rounds, line" in outcome.message
    assert "Catch a tool's exception" in outcome.message and '"is_error": true' in outcome.message


def _flag_every_result() -> Any:
    """The reference loop, except that every tool_result says "is_error": true."""

    def run_rounds(client, model_name, user_query, tools, max_rounds):  # type: ignore[no-untyped-def]
        by_name = {t.name: t for t in tools}
        schemas = [t.anthropic_schema() for t in tools]
        messages: list[dict[str, Any]] = [{"role": "user", "content": user_query}]
        rounds = 0
        while True:
            choice = {"type": "auto"} if rounds < max_rounds else {"type": "none"}
            response = client.messages.create(
                model=model_name, max_tokens=1024, messages=messages, tools=schemas, tool_choice=choice
            )
            calls = [b for b in response.content if b.type == "tool_use"]
            if not calls or rounds == max_rounds:
                return "".join(b.text for b in response.content if b.type == "text")
            messages.append({"role": "assistant", "content": [
                {"type": "tool_use", "id": b.id, "name": b.name, "input": b.input} for b in calls
            ]})
            results = []
            for call in calls:
                try:
                    content = json.dumps(by_name[call.name](**call.input), ensure_ascii=False)
                except Exception as error:
                    content = str(error)
                results.append({"type": "tool_result", "tool_use_id": call.id, "content": content, "is_error": True})
            messages.append({"role": "user", "content": results})
            rounds += 1

    return run_rounds


def test_round_loop_that_flags_every_result_is_told_to_flag_only_failures() -> None:
    outcome = lesson01.q2.evaluate((_flag_every_result(),))
    assert outcome.status == "incorrect"
    assert 'returned normally, but its tool_result says "is_error": true; set it only when the tool raised' in (
        outcome.message
    )


# -- lesson 05, exercise 2: the off-by-one at exactly the limit -------------------------------------------


def test_sliding_window_reference_passes() -> None:
    outcome = lesson05.q2.evaluate(lesson05.q2.reference())
    assert outcome.status == "correct", outcome.message


def test_off_by_one_window_is_named_as_such() -> None:
    outcome = lesson05.q2.evaluate(lesson05._off_by_one())
    assert outcome.status == "incorrect"
    assert outcome.message.startswith("allow([0, 1, 2], 3, limit=3) is True, with 3 calls already in the last 60")
    assert "an off-by-one that allows limit + 1 calls in a window (4 here)" in outcome.message
    assert "use `len(recent) < limit`, not `<=`" in outcome.message


@pytest.mark.parametrize("mistake", ["_fixed_window", "_never_forgets", "_keeps_the_boundary"])
def test_other_window_mistakes_are_not_called_an_off_by_one(mistake: str) -> None:
    outcome = lesson05.q2.evaluate(getattr(lesson05, mistake)())
    assert outcome.status == "incorrect" and "off-by-one" not in outcome.message


def test_a_window_that_ignores_the_limit_is_not_called_an_off_by_one() -> None:
    def allow(starts, now, limit=10, period=60.0):  # type: ignore[no-untyped-def]
        return True

    outcome = lesson05.q2.evaluate((allow,))
    assert outcome.status == "incorrect" and "off-by-one" not in outcome.message
    assert "more than 3 in one 60-second span" in outcome.message


# -- lesson 06, exercise 2: where the time goes ----------------------------------------------------------


def test_the_time_at_the_end_of_the_system_prompt_is_told_why_it_misses() -> None:
    """OpenAI would read the rules before the time from its cache; the message says why the check still fails it."""
    outcome = lesson06.q2.evaluate(lesson06._time_last())
    assert outcome.status == "incorrect"
    assert "the time sits after the rules, at the end of the system prompt" in outcome.message
    assert "OpenAI matches a prompt token by token" in outcome.message
    assert "prompt_cache_key made from the system prompt" in outcome.message
    assert "Anthropic matches whole blocks" in outcome.message
    assert "put the time in the user's message" in outcome.message


def test_a_time_to_the_minute_in_the_system_prompt_is_caught_too() -> None:
    """The two requests straddle a minute: a system prompt that shows the time to the minute still changes."""

    def build_prompt(question, now):  # type: ignore[no-untyped-def]
        return f"{lesson06.LONG_RULES}\nNow: {now:%Y-%m-%d %H:%M}.", question

    outcome = lesson06.q2.evaluate((build_prompt,))
    assert outcome.status == "incorrect" and "at the end of the system prompt" in outcome.message


def test_the_time_first_is_not_told_about_the_end_of_the_prompt() -> None:
    outcome = lesson06.q2.evaluate(lesson06._time_first())
    assert outcome.status == "incorrect" and "at the end of the system prompt" not in outcome.message
    assert "keep the system prompt the same on every request" in outcome.message


def test_the_task_says_why_only_the_users_message_may_change() -> None:
    assert "prompt_cache_key" in lesson06.q2.task and "whole blocks" in lesson06.q2.task


# -- lesson 06, exercise 4: a tool search that returns only related tools -------------------------------------


def test_search_reference_passes() -> None:
    outcome = lesson06.q4.evaluate(lesson06.q4.reference())
    assert outcome.status == "correct", outcome.message


def test_a_search_that_keeps_tools_sharing_no_word_is_caught() -> None:
    outcome = lesson06.q4.evaluate(lesson06._keeps_unrelated())
    assert outcome.status == "incorrect"
    assert "which share no word with the query: leave out the tools whose score is 0" in outcome.message


def test_a_search_of_the_descriptions_only_is_caught() -> None:
    outcome = lesson06.q4.evaluate(lesson06._description_only())
    assert outcome.status == "incorrect"
    assert "search('check my mail') returns no tool; 'search_mail' should lead" in outcome.message
    assert "name and description" in outcome.message


def test_a_search_with_its_own_tokenizer_still_passes() -> None:
    """Short words and punctuation kept: a right answer written another way is not failed."""

    def search(query, tools, k=3):  # type: ignore[no-untyped-def]
        asked = set(query.lower().replace(",", " ").split())
        scored = [(len(asked & set(f"{t.name.replace('_', ' ')} {t.description}".lower().split())), -i, t.name)
                  for i, t in enumerate(tools)]
        return [name for score, _, name in sorted(scored, reverse=True)[:k] if score > 0]

    outcome = lesson06.q4.evaluate((search,))
    assert outcome.status == "correct", outcome.message


# -- lesson 07, exercise 2: the check's own lines stay out of its messages --------------------------------------


def test_a_failure_inside_a_checks_judge_names_no_line_of_the_check() -> None:
    """An exception raised in a judge's own code (a ``_judge_...`` of a lesson module) is not "your line"."""
    from conductor.course.exercises.core import explain

    namespace: dict[str, Any] = {}
    code = "def _judge_keep_out(tool):\n    return next(iter([]))\n"
    exec(compile(code, lesson07.__file__, "exec"), namespace)  # noqa: S102 - a judge frame in the lesson's file
    try:
        namespace["_judge_keep_out"](None)
    except StopIteration as exc:
        message = explain(exc, "your code")
    assert "StopIteration" in message and "_judge_keep_out" not in message, message


def test_a_deferred_copy_kept_out_of_programs_passes_as_the_real_api_would_run_it() -> None:
    """A copy with defer_loading=True too: the run adds the tool search, the search loads it and the model calls it
    itself (the stand-in once refused the history after that search: the real APIs answer it)."""
    outcome = lesson07.q2.evaluate((lambda tool: cd.tool(tool, programmatic=False, defer_loading=True),))
    assert outcome.status == "correct", outcome.message
    assert outcome.message == "no program was written; the model made its 4 calls itself, one round at a time."


def test_a_copy_whose_calls_wait_for_approval_is_told_no_call_ran() -> None:
    """Before, the check's own bookkeeping raised KeyError on a run with no call, and named its own line."""
    outcome = lesson07.q2.evaluate((lambda tool: cd.tool(tool, programmatic=False, requires_approval=True),))
    assert outcome.status == "incorrect"
    assert outcome.message.startswith("no call of your tool ran")
    assert "KeyError" not in outcome.message and "_judge" not in outcome.message


def test_an_exception_with_no_line_of_the_learner_asks_to_fix_the_code_not_a_line() -> None:
    from conductor.course.exercises.core import explain

    try:
        {}.pop("x")
    except KeyError as exc:
        exc.__traceback__ = None  # no frame of the learner's code
        message = explain(exc, "your code")
    assert message == "your code raised KeyError: 'x'. Fix your code and run the cell again."


def test_the_lessons_wrong_answers_still_name_their_own_line() -> None:
    """Frames of a wrong answer defined in a lesson module are the learner's: their line is named."""
    outcome = lesson06.q3.evaluate(lesson06._needs_details())
    assert "(in input_tokens, line " in outcome.message, outcome.message


def test_the_keep_out_check_runs_on_a_zero_latency_model() -> None:
    """The right answer answers at once: the check's model has no simulated latency."""
    from conductor.course.exercises import core

    made = []
    real = core.offline_llm

    def spy(api: str = "openai", **kwargs: Any) -> Any:
        llm = real(api, **kwargs)
        made.append(llm)
        return llm

    lesson07.offline_llm = spy
    try:
        outcome = lesson07.q2.evaluate(lesson07.q2.reference())
    finally:
        lesson07.offline_llm = real
    assert outcome.status == "correct", outcome.message
    assert made and made[0].api == "messages"


# -- lesson 08, exercise 2: counts, not sets ---------------------------------------------------------------


def test_precision_recall_reference_passes() -> None:
    outcome = lesson08.q2.evaluate(lesson08.q2.reference())
    assert outcome.status == "correct", outcome.message


def test_a_set_match_divided_by_every_call_is_caught_on_a_parallel_call_case() -> None:
    """Two weather lookups expected and made: a set match counts 1 of 2 and scores (0.5, 0.5)."""
    outcome = lesson08.q2.evaluate(lesson08._set_matches())
    assert outcome.status == "incorrect"
    assert "gives (0.5, 0.5); it should be (1, 1)" in outcome.message
    assert "a Counter, not a set" in outcome.message


# -- as `python -m conductor exercises` runs them ----------------------------------------------------------


@pytest.mark.parametrize(
    ("lesson", "label", "mistakes"),
    [
        (
            "lesson01",
            "q2",
            {"a raising tool's error sent back without is_error", "a raising tool's exception escapes the loop"},
        ),
        ("lesson05", "q2", {"off by one: len(recent) <= limit"}),
        ("lesson06", "q2", {"puts the time last in the system prompt"}),
        ("lesson06", "q4", {"matches descriptions only", "keeps tools that share no word"}),
        ("lesson08", "q2", {"matches a set, divides by every call"}),
    ],
)
def test_the_command_line_tries_and_catches_these_mistakes(lesson: str, label: str, mistakes: set[str]) -> None:
    row = next(r for r in verify(lesson) if r.exercise.label == label)
    tried = {wrong.label: outcome for wrong, outcome in row.wrong}
    assert mistakes <= set(tried), sorted(tried)
    assert all(tried[m].status == "incorrect" for m in mistakes)
    assert not row.escaped and row.ok, row.escaped
