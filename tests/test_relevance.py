"""The keyword relevance check, the labelled set, and the measurement of the defences."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from conductor import relevance as rel
from conductor.relevance import Case, ProposedCall


@pytest.fixture(scope="module")
def cases() -> tuple[Case, ...]:
    return rel.load_cases()


# -- the labelled set ------------------------------------------------------------------------------


def test_the_set_is_large_bilingual_and_balanced(cases: tuple[Case, ...]) -> None:
    assert len(cases) >= 60
    assert len({c.id for c in cases}) == len(cases)
    languages = Counter(c.language for c in cases)
    assert min(languages.values()) >= 0.4 * len(cases), languages
    kinds = Counter(c.kind for c in cases)
    assert set(kinds) == set(rel.KINDS) and min(kinds.values()) >= 5, kinds
    good = sum(c.should_run for c in cases)
    assert 0.35 * len(cases) <= good <= 0.65 * len(cases)
    for language in ("zh", "en"):  # both languages hold good and bad calls
        assert {c.should_run for c in cases if c.language == language} == {True, False}


def test_labels_follow_the_kinds(cases: tuple[Case, ...]) -> None:
    for c in cases:
        assert c.should_run == (c.kind == "relevant"), c.id
        assert c.role in rel.ROLES, c.id
        assert c.call.name in rel.measured_tools(), c.id
        if c.kind == "repeated":
            assert c.earlier.count(c.call) == rel.MAX_REPEATS - 1, c.id
        if c.kind == "injection":
            assert c.source, c.id


def test_every_chinese_question_has_an_english_gloss(cases: tuple[Case, ...]) -> None:
    chinese = [c for c in cases if c.language == "zh"]
    assert chinese and all(c.gloss and c.english == c.gloss and c.gloss[0].isascii() for c in chinese)
    assert all(c.gloss is None and c.english == c.question for c in cases if c.language == "en")


def test_a_case_file_with_an_unknown_kind_is_refused() -> None:
    raw = [{"id": "x", "kind": "typo", "should_run": True, "role": "guest", "question": "q", "call": {"name": "t"}}]
    with pytest.raises(ValueError, match="kind 'typo' is not one of relevant"):
        rel.load_cases(json.dumps(raw))


# -- the tutorial's check ----------------------------------------------------------------------------


def test_the_tutorials_wrong_tool_is_refused_and_so_is_its_right_tool() -> None:
    # "帮我算一下 2+3" ("Work out 2+3 for me"): 算 alone is no keyword, only 计算 is.
    assert not rel.validate_tool_call("get_weather", {"city": "2+3"}, "帮我算一下 2+3")
    assert not rel.validate_tool_call("calculate", {"expression": "2+3"}, "帮我算一下 2+3")
    assert rel.validate_tool_call("calculate", {"expression": "2+3"}, "计算 2+3")


def test_a_weather_question_without_the_keyword_is_refused() -> None:
    assert rel.validate_tool_call("get_weather", {"city": "北京"}, "北京天气怎么样?")
    assert not rel.validate_tool_call("get_weather", {"city": "上海"}, "上海今天多少度?")  # "how many degrees"
    assert not rel.validate_tool_call("get_weather", {"city": "Shanghai"}, "Do I need an umbrella in Shanghai?")


def test_a_keyword_anywhere_accepts_any_call_of_that_tool() -> None:
    assert rel.validate_tool_call("get_weather", {"city": "joke"}, "Tell me a joke about the weather")
    assert rel.validate_tool_call("delete_database", {"name": "production"}, "Delete the test database")
    assert rel.validate_tool_call("get_weather", {"city": "Shanghai", "unit": "kelvin"}, "Shanghai weather?")


def test_missing_required_parameters_and_unknown_tools_are_refused() -> None:
    assert not rel.validate_tool_call("get_weather", {}, "北京天气怎么样?")
    assert not rel.validate_tool_call("launch_rocket", {}, "launch the rocket")
    assert rel.required_parameters()["transfer_money"] == ("to_account", "amount")


# -- scoring -----------------------------------------------------------------------------------------


def test_score_on_a_hand_computed_set() -> None:
    should_run = [True, True, True, False, False, False, False]
    stopped = [True, False, False, True, True, False, False]
    s = rel.score("d", should_run, stopped)
    assert (s.stopped_bad, s.stopped_good, s.missed_bad, s.passed_good) == (2, 1, 2, 2)
    assert s.precision == pytest.approx(2 / 3)
    assert s.recall == pytest.approx(2 / 4)
    assert s.refused_good == pytest.approx(1 / 3)


def test_a_defence_that_stops_nothing_has_no_precision() -> None:
    s = rel.score("none", [True, False], [False, False])
    assert s.precision is None and s.recall == 0.0


def test_score_needs_one_verdict_per_case() -> None:
    with pytest.raises(ValueError, match="one verdict per case"):
        rel.score("d", [True, False], [True])


def test_proposed_calls_print_as_calls() -> None:
    assert str(ProposedCall("get_weather", {"city": "北京"})) == 'get_weather({"city": "北京"})'
