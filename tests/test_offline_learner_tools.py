"""A newcomer's own four tools and their questions: the offline model's calls and answers, on every API.

The tools (``learner_tools``): a currency converter whose parameters ask for ISO 4217 codes, a
time-zone lookup, a recipe scaler (original_servings, new_servings, recipe) and a shipping estimator
(weight_kg, country). The questions are the ones a newcomer asked. The model calls a tool only with
what the question states (a country or an adjective is no currency code; "to feed" is no recipe),
calls once per value when the same question is asked of two ("London, and ... Sydney"), and answers
as a model would: the result's values under their labels said as words, numbers as the result gives
them, lists as lists, in the question's language; a decline is one sentence naming what is missing.
"""

from __future__ import annotations

import logging
import re

import pytest
from learner_tools import TOOLS, convert_currency, get_local_time, scale_recipe
from wire import APIS

import conductor as cd
from conductor.offline import LatencyModel, OfflineModel, wording


@pytest.fixture(params=APIS)
def llm(request: pytest.FixtureRequest) -> cd.LLM:
    model = OfflineModel(seed=0, latency=LatencyModel.instant())
    return cd.connect("offline", api=request.param, offline_model=model)


def _calls(result: cd.RunResult) -> list[tuple[str, dict]]:
    return [(call.name, call.arguments) for call in result.tool_calls]


# -- calls --------------------------------------------------------------------------------------------------


def test_a_verb_after_to_is_never_the_recipe(llm):
    result = llm.run("My pancake recipe serves 4 but I need to feed 10 people", tools=TOOLS)
    assert _calls(result) == [("scale_recipe", {"recipe": "pancake", "original_servings": 4, "new_servings": 10})]


@pytest.mark.parametrize("question", [
    "How much is shipping 5 kg to Australia, in Japanese yen?",
    "How much does it cost to ship 2 kg to Germany?",
])
def test_a_country_an_adjective_or_a_unit_is_never_sent_as_a_currency_code(llm, question):
    result = llm.run(question, tools=TOOLS)
    sent = [arguments for name, arguments in _calls(result) if name == "convert_currency"]
    assert all(re.fullmatch(r"[A-Z]{3}", a[side]) for a in sent for side in ("from_currency", "to_currency")), sent
    assert not sent  # the question gives no code for either side: declined


def test_currency_words_still_give_their_codes(llm):
    result = llm.run("How much is 100 euros in Japanese yen?", tools=[convert_currency])
    assert _calls(result) == [("convert_currency", {"amount": 100.0, "from_currency": "EUR", "to_currency": "JPY"})]


def test_the_same_question_asked_of_two_cities_makes_one_call_each(llm):
    result = llm.run("What time is it in London, and what time is it in Sydney?", tools=TOOLS)
    assert _calls(result) == [("get_local_time", {"city": "London"}), ("get_local_time", {"city": "Sydney"})]
    assert "London" in result.answer and "Sydney" in result.answer and "12:00" in result.answer


@pytest.mark.parametrize(("question", "call"), [
    ("把一个3公斤的包裹寄到德国要多少钱?", ("estimate_shipping", {"weight_kg": 3.0, "country": "德国"})),
    ("我的饺子食谱是4人份的,我要做12人份", ("scale_recipe", {"recipe": "饺子", "original_servings": 4, "new_servings": 12})),
    ("Scale my lasagna recipe from 4 to 10 servings",
     ("scale_recipe", {"recipe": "lasagna", "original_servings": 4, "new_servings": 10})),
    ("How much does it cost to ship 2 kg to Germany?", ("estimate_shipping", {"weight_kg": 2.0, "country": "Germany"})),
])
def test_what_the_question_states_is_sent(llm, question, call):
    assert _calls(llm.run(question, tools=TOOLS)) == [call]


def test_the_same_value_asked_of_two_countries_makes_one_call_each_and_says_which_is_cheaper(llm):
    result = llm.run("Is it cheaper to ship 2 kg to Germany or to France?", tools=TOOLS)
    assert _calls(result) == [("estimate_shipping", {"weight_kg": 2.0, "country": "Germany"}),
                              ("estimate_shipping", {"weight_kg": 2.0, "country": "France"})]
    assert result.answer.endswith("France is the cheapest (cost 17; Germany 18).")


def test_a_missing_parameter_with_a_unit_is_named_with_it(llm):
    result = llm.run("Ship a parcel to France", tools=TOOLS)
    assert not result.tool_calls
    assert result.answer == ("To estimate the cost and delivery time of shipping a parcel abroad, I need to know the "
                             "weight in kg.")


def test_a_number_after_to_is_the_new_servings_and_the_original_is_named_missing(llm):
    result = llm.run("Scale my cookie recipe to 24 servings.", tools=TOOLS)
    assert not result.tool_calls
    assert result.answer == ("I can do that, but I need to know the original servings (how many servings the recipe "
                             "makes as written).")


# -- answers ------------------------------------------------------------------------------------------------

_CODE = re.compile(r"\w+\(\w+=|[{}\[\]]|\b[a-z]+_[a-z_]+\b")


@pytest.mark.parametrize(("question", "said"), [
    ("Convert 250 USD to EUR", ["Converted 230", "amount 250", "from currency USD", "to currency EUR"]),
    ("What time is it in Tokyo?", ["Tokyo:", "local time 21:00", "UTC offset +9", "Asia/Tokyo"]),
    ("Scale my lasagna recipe from 4 to 10 servings",
     ["Scale recipe (recipe lasagna, original servings 4, new servings 10): factor 2.5",
      "\n- pasta sheets: 30\n- minced beef: 1250 g\n- tomato sauce: 1000 ml"]),
])
def test_an_english_answer_says_the_values_under_labels_in_words(llm, question, said):
    answer = llm.run(question, tools=TOOLS).answer
    assert all(part in answer for part in said), answer
    assert not _CODE.search(answer), answer


@pytest.mark.parametrize(("question", "said"), [
    ("把100美元换成人民币", ["换算结果 724", "金额 100", "原货币 USD", "目标货币 CNY"]),
    ("把一个3公斤的包裹寄到德国要多少钱?", ["费用 24.5 EUR", "送达天数 4", "重量 3 kg", "国家 德国"]),
    ("我的饺子食谱是4人份的,我要做12人份", ["倍数 3", "\n- 面粉:1500 g\n- 猪肉馅:1200 g\n- 白菜:900 g"]),
    ("伦敦现在几点?", ["伦敦:", "当地时间 12:00", "时区 Europe/London"]),
])
def test_a_chinese_answer_says_each_number_with_its_label_in_chinese(llm, question, said):
    answer = llm.run(question, tools=TOOLS).answer
    assert all(part in answer for part in said), answer
    assert not re.search(r"\d[,,]\d", answer), answer  # two numbers never run together
    assert not _CODE.search(answer) and not re.search(r"[A-Za-z]{2,} [a-z]{2,}", answer), answer


@pytest.mark.parametrize(("question", "answer"), [
    # Said as a careful model says it: no function or parameter identifiers, no self-description.
    ("What time is it?", "To look up the current local time and time zone of a city, I need to know the city."),
    ("What's the exchange rate today?", "I can do that, but I need to know the amount, the from currency and the to "
                                        "currency."),
    ("现在几点了?", "可以办,不过我还需要知道城市,请告诉我。"),
    ("Tell me a joke", "Sorry, I can't help with that: none of the tools I have here does it."),
    ("今天股市怎么样?", "抱歉,这个我帮不上忙:我手头的工具都做不了这件事。"),
])
def test_a_decline_or_an_unrelated_question_gets_one_sentence_in_the_questions_language(llm, question, answer):
    result = llm.run(question, tools=TOOLS)
    assert not result.tool_calls and result.answer == answer


def test_the_hint_to_connect_a_real_model_is_a_log_line_once_per_process(llm, caplog, monkeypatch):
    monkeypatch.setattr(wording, "_hinted", False)
    with caplog.at_level(logging.INFO, logger="conductor"):
        answers = [llm.run(q, tools=TOOLS).answer for q in ("What time is it?", "Tell me a joke", "今天股市怎么样?")]
    hints = [r for r in caplog.records if "cd.connect(" in r.getMessage()]
    assert len(hints) == 1 and hints[0].levelno == logging.WARNING
    assert not any("cd.connect" in answer for answer in answers)


def test_the_hint_reaches_a_notebook_as_a_conductor_line(llm, capsys, monkeypatch):
    monkeypatch.setattr(wording, "_hinted", False)
    root = logging.getLogger()
    saved = root.handlers[:]  # pytest's capture handlers: a fresh kernel's root logger has none
    for handler in saved:
        root.removeHandler(handler)
    cd.display.notebook_logging(True)
    try:
        llm.run("What time is it?", tools=[get_local_time, scale_recipe])
    finally:
        cd.display.notebook_logging(False)
        for handler in saved:
            root.addHandler(handler)
    out = capsys.readouterr().out
    assert out.startswith("conductor: the offline stand-in follows simple rules; for real answers, use a real model:")
    assert 'cd.connect("anthropic") (ANTHROPIC_API_KEY)' in out and max(len(line) for line in out.splitlines()) <= 100
