"""The stand-in on tools it has never seen: documented formats, whole values, every part, replies a person writes.

Each test is a kind of question, not one of the held-out sets' questions (those are measured with
``python -m conductor.course.unseen tests/heldout/unseen_*.py``, never tuned against in a test).
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

import pytest

from conductor import connect
from conductor.course.unseen import code_marks, expect, judge_run
from conductor.offline import LatencyModel, OfflineModel
from conductor.offline.formats import normal_date, normal_time
from conductor.offline.replies import unread_language
from conductor.tools import tool


@tool
def train_departure(service: str, day: str) -> dict:
    """When a coach leaves.

    Args:
        service: The coach service as printed on the ticket, e.g. "FX 204".
        day: The day of travel, YYYY-MM-DD.
    """
    datetime.strptime(day, "%Y-%m-%d")
    return {"service": service, "day": day, "leaves_at": "07:35", "bay": 4}


@tool
def reserve_desk(desk: Literal["window", "quiet", "standing"], day: str, start: str, length_minutes: int = 60) -> dict:
    """Reserve a desk in the coworking space.

    Args:
        desk: Which kind of desk.
        day: The day, YYYY-MM-DD.
        start: Start time, 24-hour HH:MM.
        length_minutes: How long, in minutes.
    """
    datetime.strptime(day, "%Y-%m-%d")
    datetime.strptime(start, "%H:%M")
    return {"desk": desk, "day": day, "start": start, "minutes": length_minutes, "reserved": True}


@tool
def tip_jar(person: str, amount: float, currency: Literal["EUR", "USD"]) -> dict:
    """Give a tip to someone.

    Args:
        person: Who gets the tip.
        amount: How much.
        currency: The currency.
    """
    return {"person": person, "amount": amount, "currency": currency, "given": True}


@tool
def water_plants(volume_ml: int) -> dict:
    """Water the plants.

    Args:
        volume_ml: How much water, in millilitres.
    """
    return {"volume_ml": volume_ml, "watered": True}


@tool
def temperature(value: float, from_scale: Literal["celsius", "fahrenheit"], to_scale: Literal["celsius", "fahrenheit"]
                ) -> float:
    """Convert a temperature.

    Args:
        value: The temperature.
        from_scale: Its scale.
        to_scale: The scale wanted.
    """
    return round((value - 32) * 5 / 9, 2) if from_scale == "fahrenheit" else round(value * 9 / 5 + 32, 2)


TOOLS = [train_departure, reserve_desk, tip_jar, water_plants, temperature]


@pytest.fixture
def llm():
    return connect("offline", offline_model=OfflineModel(seed=0, latency=LatencyModel.instant()))


def _calls(result) -> list[tuple[str, dict]]:
    return [(c.name, {k: v for k, v in c.arguments.items() if v is not None}) for r in result.rounds
            for c in r.tool_calls]


def test_dates_and_times_are_sent_in_the_documented_format(llm):
    result = llm.run("Reserve a quiet desk on April 7, 2026 at 2:15pm for 3 hours", tools=TOOLS, max_rounds=2)
    assert _calls(result) == [("reserve_desk", {"desk": "quiet", "day": "2026-04-07", "start": "14:15",
                                                "length_minutes": 180})]


def test_chinese_dates_times_and_durations_are_read_with_the_library(llm):
    # "Reserve a window desk at 9:30 am on 8 April 2026, for one and a half hours"
    result = llm.run("预订2026年4月8日上午9点半的window工位,一个半小时", tools=TOOLS, max_rounds=2)
    assert _calls(result) == [("reserve_desk", {"desk": "window", "day": "2026-04-08", "start": "09:30",
                                                "length_minutes": 90})]


def test_the_library_normalises_phrases_and_refuses_what_is_not_a_date():
    assert normal_date("March 9, 2026") == "2026-03-09" and normal_date("2026年3月14日") == "2026-03-14"
    assert normal_time("3pm") == "15:00" and normal_time("下午3点半") == "15:30" and normal_time("晚上10点20分") == "22:20"
    assert normal_date("the blue one") is None


def test_an_id_written_with_a_space_stays_whole_and_several_fan_out(llm):
    one = llm.run("When does FX 204 leave on 2026-05-02?", tools=TOOLS, max_rounds=2)
    assert _calls(one) == [("train_departure", {"service": "FX 204", "day": "2026-05-02"})]
    two = llm.run("When do FX 204 and FX 311 leave on 2026-05-02?", tools=TOOLS, max_rounds=2)
    assert sorted(c[1]["service"] for c in _calls(two)) == ["FX 204", "FX 311"]


def test_a_quantity_is_converted_to_the_unit_the_parameter_names(llm):
    assert _calls(llm.run("Water the plants with 1.5 litres", tools=TOOLS, max_rounds=2)) == [
        ("water_plants", {"volume_ml": 1500})]


def test_each_part_of_a_request_gets_its_own_values(llm):
    result = llm.run("Tip Ana 5 euros and Ben 7 euros", tools=TOOLS, max_rounds=2)
    assert sorted(_calls(result), key=str) == [("tip_jar", {"person": "Ana", "amount": 5, "currency": "EUR"}),
                                               ("tip_jar", {"person": "Ben", "amount": 7, "currency": "EUR"})]
    converted = llm.run("Convert 50 °F to Celsius and 20 °C to Fahrenheit", tools=TOOLS, max_rounds=2)
    assert sorted(_calls(converted), key=str) == sorted([
        ("temperature", {"value": 50, "from_scale": "fahrenheit", "to_scale": "celsius"}),
        ("temperature", {"value": 20, "from_scale": "celsius", "to_scale": "fahrenheit"})], key=str)


def test_two_requests_make_two_calls_and_a_part_no_tool_does_is_said(llm):
    both = llm.run("Water the plants with 300 ml and tip Ana 5 euros", tools=TOOLS, max_rounds=3)
    assert {name for name, _ in _calls(both)} == {"water_plants", "tip_jar"}
    left = llm.run("Water the plants with 300 ml and book a taxi", tools=TOOLS, max_rounds=3)
    assert _calls(left) == [("water_plants", {"volume_ml": 300})] and "book a taxi" in left.answer


def test_a_chain_makes_its_second_call_from_the_first_result(llm):
    result = llm.run("Check when FX 204 leaves on 2026-05-02 and reserve a quiet desk that day from when it leaves",
                     tools=TOOLS, max_rounds=4)
    assert _calls(result) == [("train_departure", {"service": "FX 204", "day": "2026-05-02"}),
                              ("reserve_desk", {"desk": "quiet", "day": "2026-05-02", "start": "07:35"})]


def test_a_value_outside_the_choices_gets_a_reply_naming_them(llm):
    result = llm.run("Reserve a sofa desk on 2026-05-02 at 10:00", tools=TOOLS, max_rounds=2)
    assert _calls(result) == [] and all(o in result.answer for o in ("window", "quiet", "standing"))
    # "京都" style: an option said in Chinese through the glossary ("二等座" is second class).
    assert not code_marks(result.answer, TOOLS)


def test_replies_read_like_a_person_wrote_them(llm):
    declined = llm.run("Reserve a standing desk at 10:00", tools=TOOLS, max_rounds=2)
    assert "day" in declined.answer and not code_marks(declined.answer, TOOLS), declined.answer
    done = llm.run("Convert 72 °F to Celsius", tools=TOOLS, max_rounds=2)
    assert done.answer.startswith("72 °F is 22.22 °C") and not code_marks(done.answer, TOOLS), done.answer
    booked = llm.run("Reserve a window desk on 2026-05-02 at 09:00", tools=TOOLS, max_rounds=2)
    assert "reserved" in booked.answer and "yes" not in booked.answer and not code_marks(booked.answer, TOOLS)


@pytest.mark.parametrize("question", ["Thanks, that's all!", "Hi there!", "谢谢!", "你好"])
def test_thanks_and_greetings_get_a_short_reply(llm, question):
    result = llm.run(question, tools=TOOLS, max_rounds=2)
    assert _calls(result) == [] and len(result.answer) < 60 and not code_marks(result.answer, TOOLS)


@pytest.mark.parametrize("question", ["¿Cuánto es 72 °F en Celsius?", "Réserve un bureau calme demain à 10h",
                                      "Wann fährt der FX 204 am 2026-05-02?"])
def test_a_language_it_does_not_read_gets_one_english_sentence(llm, question):
    result = llm.run(question, tools=TOOLS, max_rounds=2)
    assert _calls(result) == [] and "English and Chinese" in result.answer and result.answer.count(".") == 1


def test_english_questions_are_never_taken_for_another_language():
    for question in ("Play 'Clair de Lune'", "Send 40 euros", "Convert 3 miles", "Roll 3 dice", "Hello!"):
        assert not unread_language(question), question


def test_the_scorer_tells_code_from_a_persons_reply():
    assert code_marks("To call book_room I need the room, and the question does not say it.", TOOLS)
    assert code_marks("The result is 22.22 (value 72, from unit fahrenheit).", TOOLS)
    assert code_marks("Created yes (title milk).", TOOLS) and code_marks("{'a': 1}", TOOLS)
    assert code_marks("I can't answer that: I am the offline stand-in model.", TOOLS)
    assert not code_marks("72 °F is 22.22 °C.", TOOLS)
    assert not code_marks("To reserve a desk, I need to know the day.", TOOLS)


def test_a_run_is_judged_across_its_rounds():
    case = expect("Tip Ana 5 euros", (tip_jar, {"person": "Ana", "amount": 5, "currency": "EUR"}))
    assert judge_run(case, TOOLS, [("tip_jar", {"person": "Ana", "amount": 5.0, "currency": "EUR"})], "Done.").verdict \
        == "correct"
    assert judge_run(case, TOOLS, [("tip_jar", {"person": "Ana", "amount": 50, "currency": "EUR"})], "x").verdict \
        == "wrong"
    assert judge_run(case, TOOLS, [], "x").verdict == "missed"


@tool
def add_chore(chore: str, by_day: str | None = None) -> dict:
    """Put a chore on the family board.

    Args:
        chore: What has to be done.
        by_day: The day it must be done by, YYYY-MM-DD.
    """
    return {"chore": chore, "by_day": by_day, "added": True}


def test_free_text_set_off_by_a_colon_or_a_quote_is_the_one_text_parameter(llm):
    colon = llm.run("Add a chore: clean the gutters.", tools=[add_chore, water_plants], max_rounds=2)
    assert _calls(colon) == [("add_chore", {"chore": "clean the gutters"})]
    quoted = llm.run("Add a chore 'sort the recycling' by June 5, 2026", tools=[add_chore, water_plants], max_rounds=2)
    assert _calls(quoted) == [("add_chore", {"chore": "sort the recycling", "by_day": "2026-06-05"})]
