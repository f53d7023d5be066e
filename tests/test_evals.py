"""Evaluating tool use (conductor.evals) on the lesson 08 dataset (conductor.course.eval_cases)."""

from __future__ import annotations

import json

import pytest

import conductor as cd
from conductor import evals
from conductor.__main__ import main
from conductor.course.eval_cases import CASES
from conductor.course.scenarios import calculate, get_weather, suggest_clothing
from wire import APIS

BY_NAME = {c.name: c for c in CASES}


def test_the_dataset_covers_every_kind_with_at_least_20_cases():
    assert len(CASES) >= 20
    kinds = {c.kind for c in CASES}
    assert {"single", "chain", "parallel", "irrelevance", "missing_argument", "fault"} <= kinds


def test_a_wrong_tool_call_fails_even_when_the_answer_text_is_right():
    case = evals.Case("sum", "What is 17 * 23?", (calculate, get_weather),
                      (evals.Expect("calculate", {"expression": "17 * 23"}),), facts=("391",))
    llm = cd.connect("offline", latency_scale=0)
    right = evals.score(case, llm.run(case.question, tools=case.tools))
    assert right.passed and right.precision == right.recall == right.arguments == 1.0
    # The same answer after a needless weather lookup: the text holds 391, the trajectory is wrong.
    wrong = evals.score(case, llm.run("What is 17 * 23? And the weather in Beijing?", tools=case.tools))
    assert "391" in llm.run(case.question, tools=case.tools).answer
    assert not wrong.passed and wrong.precision < 1.0


def test_arguments_order_and_facts_are_each_scored():
    case = BY_NAME["chain_shanghai"]
    llm = cd.connect("offline", latency_scale=0)
    result = llm.run(case.question, tools=case.tools_for(0), max_rounds=3)
    assert evals.score(case, result).passed
    swapped = evals.Case("c", case.question, case.tools, tuple(reversed(case.calls)), ordered=True)
    assert evals.score(swapped, result).problems[0].startswith("calls out of order")
    other_city = evals.Case("c", case.question, case.tools, (evals.Expect("get_weather", {"city": "北京"}),
                                                             evals.Expect("suggest_clothing")))
    graded = evals.score(other_city, result)
    assert graded.arguments == 0.5 and "wrong arguments" in graded.problems
    assert evals.score(evals.Case("c", case.question, case.tools, case.calls, facts=("99°C",)), result).facts == 0


def test_pass_hat_k_is_the_chance_that_k_trials_all_pass():
    assert evals.pass_hat_k(5, 5, 5) == 1.0
    assert evals.pass_hat_k(5, 4, 5) == 0.0
    assert evals.pass_hat_k(5, 4, 1) == pytest.approx(0.8)
    assert evals.pass_hat_k(5, 3, 2) == pytest.approx(3 / 10)
    with pytest.raises(ValueError):
        evals.pass_hat_k(3, 3, 5)


@pytest.mark.parametrize("api", APIS)
def test_a_flaky_tool_passes_some_trials_and_fails_pass_k_while_its_retried_twin_passes_all(api):
    cases = [BY_NAME["flaky_weather"], BY_NAME["flaky_weather_retried"], BY_NAME["no_tool_joke"]]
    report = evals.evaluate(cases, k=5, api=api, latency_scale=0)
    rows = {row["case"]: row for row in report.rows()}
    assert 0 < rows["flaky_weather"]["passes"] < 5 and rows["flaky_weather"]["pass_k"] == 0
    assert rows["flaky_weather_retried"]["passes"] == 5 and rows["no_tool_joke"]["passes"] == 5
    assert report.pass_1 > report.pass_k == pytest.approx(2 / 3)
    assert report.latency(0.5) <= report.latency(0.95) and report.cost(0.5) > 0


def test_the_stand_ins_faults_vary_by_trial():
    case = BY_NAME["rate_limited_chain"]
    retries = []
    for trial in range(5):
        llm = evals.offline_llm(case, trial, latency_scale=0)
        llm.run(case.question, tools=case.tools_for(trial))
        retries.append(len(llm.offline.requests) - 3)  # three requests when nothing failed
    assert len(set(retries)) > 1


def test_eval_command_prints_the_report_and_gates_on_pass_k(capsys):
    assert main(["eval", "--k", "2", "--latency-scale", "0", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert len(report["cases"]) == len(CASES) and report["pass_1"] < 1
    assert any(f["case"] == "parallel_mixed" for f in report["failures"])
    assert main(["eval", "--k", "2", "--latency-scale", "0", "--min-pass-k", "0.99"]) == 1
    assert "pass^2" in capsys.readouterr().err
    assert main(["eval", "--k", "2", "--latency-scale", "0", "--min-pass-k", "0.5"]) == 0


def test_bad_k_and_duplicate_names_are_refused():
    with pytest.raises(ValueError, match="k must be"):
        evals.evaluate(CASES[:1], k=0)
    with pytest.raises(ValueError, match="unique"):
        evals.evaluate([CASES[0], CASES[0]], k=1)



def test_a_real_provider_without_a_key_is_a_usage_error_that_names_the_key(capsys):
    assert main(["eval", "--provider", "openai"]) == 2
    assert "OPENAI_API_KEY is not set" in capsys.readouterr().err


# -- issue 38, round 5 -------------------------------------------------------------------------------------------

DEFERRED = (cd.tool(get_weather, defer_loading=True), cd.tool(suggest_clothing, defer_loading=True), calculate)


def test_conductors_own_tool_search_is_not_an_unexpected_call_so_every_api_gives_the_same_verdict():
    # Chat Completions searches with conductor's search_tools tool; Responses and Messages search server-side.
    case = evals.Case("deferred_weather", "北京今天天气怎么样?", DEFERRED, (evals.Expect("get_weather", {"city": "北京"}),),
                      facts=("5°C",))
    graded = {}
    for api in APIS:
        report = evals.evaluate([case], k=1, llm=cd.connect("offline", api=api, latency_scale=0))
        graded[api] = report.scores[0]
    verdicts = {api: (s.passed, s.precision, s.recall, s.arguments, s.problems) for api, s in graded.items()}
    assert set(verdicts.values()) == {(True, 1.0, 1.0, 1.0, ())}, verdicts
    # The search still shows where the score lists what the run did.
    assert graded["chat"].calls[0].startswith("search_tools(query=")
    # score() on its own, as lesson 08 calls it, reads the case's tools to tell the search from a tool.
    chat = cd.connect("offline", api="chat", latency_scale=0).run(case.question, tools=case.tools)
    assert evals.score(case, chat).passed


def test_a_tool_of_the_cases_own_named_search_tools_still_counts():
    def search_tools(query: str) -> str:
        """Search the hardware shop's catalogue (hammers, drills, saws).

        Args:
            query: what to look for, e.g. hammer
        """
        return "hammer: 12 in stock"

    question = "Search the hardware shop for a hammer"
    result = cd.connect("offline", api="chat", latency_scale=0).run(question, tools=[search_tools, get_weather])
    assert [c.name for c in result.tool_calls] == ["search_tools"]
    expected = evals.Case("shop", question, [search_tools, get_weather], (evals.Expect("search_tools"),))
    assert evals.score(expected, result).recall == 1.0
    unexpected = evals.Case("shop", question, [search_tools, get_weather])
    assert "unexpected calls: search_tools" in evals.score(unexpected, result).problems


def test_expected_calls_are_matched_as_an_assignment_not_greedily_in_list_order():
    case = BY_NAME["parallel_two_cities"]
    result = cd.connect("offline", latency_scale=0).run(case.question, tools=case.tools, max_rounds=3)
    assert [c.arguments["city"] for c in result.tool_calls] == ["北京", "上海"]
    loose, beijing = evals.Expect("get_weather"), evals.Expect("get_weather", {"city": "北京"})
    for calls in ((loose, beijing), (beijing, loose)):
        graded = evals.score(evals.Case("c", case.question, case.tools, calls), result)
        assert graded.arguments == 1.0 and graded.passed, (calls, graded)
    # Two expected calls cannot share the one call that holds their arguments.
    twice = evals.score(evals.Case("c", case.question, case.tools, (beijing, beijing)), result)
    assert twice.arguments == 0.5 and "wrong arguments" in twice.problems


def test_match_prefers_the_most_calls_then_the_most_right_arguments():
    pairs = evals._match(
        [evals.Expect("a"), evals.Expect("a", {"x": 1}), evals.Expect("b", {"y": 2}), evals.Expect("a", {"x": 3})],
        [("a", {"x": 1}), ("a", {"x": 2}), ("b", {"y": 5}), ("a", {"x": 3})],
    )
    assert sorted((e, c) for e, c, _ in pairs) == [(0, 1), (1, 0), (2, 2), (3, 3)]
    assert sum(right for _, _, right in pairs) == 3


def _breaking_weather(models: dict[int, object]):
    """get_weather that, once called, makes the stand-in's next request fail (the run raises after spending)."""
    def tools(trial: int) -> list[object]:
        def weather(city: str) -> dict[str, object]:
            """Get today's weather for a city.

            Args:
                city: The city name, e.g. 北京.
            """
            models[trial].inject("server_error", times=1)
            return get_weather(city)

        return [cd.tool(weather, name="get_weather")]

    return tools


def test_a_run_that_raised_is_costed_at_what_it_spent_or_left_out_of_the_cost_percentiles():
    from conductor.offline import LatencyModel, OfflineModel

    models: dict[int, OfflineModel] = {}

    def breaking_llm(case: evals.Case, trial: int) -> cd.LLM:
        models[trial] = OfflineModel(seed=trial, latency=LatencyModel(scale=0))
        return cd.connect("offline", offline_model=models[trial], max_retries=0)

    class Unreachable:
        def run(self, *args: object, **kwargs: object) -> None:
            raise ConnectionError("no route to the model")

    spends = evals.Case("spends_then_raises", "北京今天天气怎么样?", _breaking_weather(models),
                        (evals.Expect("get_weather", {"city": "北京"}),))
    unknown = evals.Case("raises_unknown", "北京今天天气怎么样?", (get_weather,))
    fine = BY_NAME["weather_beijing"]

    def pick(case: evals.Case, trial: int) -> object:
        if case is spends:
            return breaking_llm(case, trial)
        return Unreachable() if case is unknown else cd.connect("offline", seed=trial, latency_scale=0)

    report = evals.evaluate([spends, unknown, fine], k=2, llm=pick)
    raised = report.of("spends_then_raises")
    assert all(s.stopped == "error" and not s.passed for s in raised)
    assert all(s.cost is not None and s.cost > 0 for s in raised)  # the first request was billed
    assert raised[0].calls == ("get_weather(city='北京')",)  # what it did before it raised stays visible
    assert [s.cost for s in report.of("raises_unknown")] == [None, None]
    known = sorted(s.cost for s in report.scores if s.cost is not None)
    assert len(known) == 4 and report.cost(0.5) == pytest.approx((known[1] + known[2]) / 2)
    assert "2 runs that raised before their cost was known are left out" in report.summary()
    saved = json.loads(report.to_json())
    assert saved["cost_unknown_trials"] == 2 and saved["cost_p50_usd"] == pytest.approx(report.cost(0.5))
    rows = {row["case"]: row for row in report.rows()}
    assert rows["raises_unknown"]["cost_usd"] is None and rows["spends_then_raises"]["cost_usd"] > 0


@pytest.mark.parametrize("option, value", [
    ("--k", "0"), ("--k", "-3"), ("--latency-scale", "-1"), ("--latency-scale", "nan"), ("--latency-scale", "inf"),
    ("--min-pass-k", "1.5"), ("--min-pass-k", "-0.1"), ("--min-pass-k", "nan"),
])
def test_eval_refuses_a_bad_number_with_a_usage_error_that_names_the_option(capsys, option, value):
    # Exit 2, as argparse and the other commands give bad input; exit 1 is the --min-pass-k gate failing.
    assert main(["eval", option, value]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(f"error: {option} ") and "Traceback" not in captured.err and not captured.out


# -- issue 42: the eval command says what it ran on, and why each failing case failed ----------------------------


def test_eval_command_names_the_api_and_model_and_why_each_failing_case_failed(capsys):
    assert main(["eval", "--k", "2", "--latency-scale", "0", "--api", "chat"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{len(CASES)} cases x 2 trials on offline: model conductor-offline, Chat Completions API\n")
    why = " ".join(out[out.index("why the failing cases failed"):].split())  # the lines wrap at 100 columns
    assert "parallel_mixed (0/2 passed): trial 0: missing calls: calculate" in why
    assert "calls that succeeded: get_weather(city='Beijing')" in why


def test_eval_json_names_the_api_and_model_and_logs_them_apart_from_the_report(capsys):
    assert main(["eval", "--k", "1", "--latency-scale", "0", "--json"]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert (report["provider"], report["api"], report["model"]) == ("offline", "responses", "conductor-offline")
    assert "on offline: model conductor-offline, Responses API" in captured.err


def test_the_gate_logs_why_each_case_under_the_bar_failed(caplog):
    flaky = next(c for c in CASES if c.name == "flaky_weather")
    report = evals.evaluate([flaky], k=5, latency_scale=0)
    with caplog.at_level("WARNING", logger="conductor.evals"):
        assert not evals.gate(report, 0.99)
    [line] = [r.getMessage() for r in caplog.records if r.name == "conductor.evals"]
    assert line.startswith("case flaky_weather passed ") and "missing calls: get_weather" in line


def test_a_missing_call_whose_tool_failed_says_what_the_tool_said():
    flaky = next(c for c in CASES if c.name == "flaky_weather")
    report = evals.evaluate([flaky], k=5, latency_scale=0)
    failed = report.failures()
    assert failed, "the flaky service fails some trials"
    assert "get_weather failed: TimeoutError: the weather API did not answer within 2 s" in failed[0].problems
    assert report.why("flaky_weather").startswith(f"trial {failed[0].trial}: missing calls: get_weather; ")
    assert report.why("weather_beijing") == ""
