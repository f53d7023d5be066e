"""Lesson 06's measurements (conductor.course.scale) and `python -m conductor bench scale`."""

from __future__ import annotations

import re

import pytest

import conductor as cd
from conductor.__main__ import main
from conductor.course import scale, toolbox, workplace
from conductor.search import SEARCH_TOOL, ToolIndex
from conductor.tokens import openai_function_tokens
from wire import APIS

LINE = re.compile(r"scale cost \[(responses|chat|messages)\] (\d+) tools: (\d+\.\d\d)x the naive loop \(([a-z ]+)\), "
                  r"floor (\d+\.\d\d)x, (\d+)% of the possible saving, same answer: (yes|no)")


@pytest.fixture(scope="module")
def measured() -> list[scale.ApiScale]:
    """The whole bench, once: every API, every size, every strategy."""
    return scale.bench()


def test_the_catalogues_are_10_62_and_300_distinct_tools():
    assert scale.SIZES == (10, 62, 300)
    for size in scale.SIZES:
        tools = scale.catalogue(size)
        assert len(tools) == size == len({t.name for t in tools}) == len({t.description for t in tools})
        assert scale.FLOOR_TOOL in {t.name for t in tools}
    with pytest.raises(ValueError, match="the sizes are 10, 62, 300"):
        scale.catalogue(61)


def test_the_workplace_tools_answer_from_their_tables():
    tickets = {t.name: t for t in workplace.service_tools("helpdesk")}
    assert [r["id"] for r in tickets["list_tickets"].func(limit=2)["tickets"]] == ["TK-1", "TK-2"]
    assert tickets["search_tickets"].func(words="password")["tickets"][0]["subject"] == "Cannot reset password"
    assert tickets["count_tickets_by_priority"].func() == {"by_priority": {"urgent": 2, "normal": 1}}
    assert tickets["delete_ticket"].requires_approval
    with pytest.raises(ValueError, match="the ids are: TK-1, TK-2, TK-3"):
        tickets["get_ticket"].func(ticket_id="TK-9")


def test_a_search_over_300_tools_still_finds_the_weather():
    index = ToolIndex(scale.catalogue(300))
    assert index.search("hot sydney lisbon tokyo paris right now") == ["get_weather"]
    for question in toolbox.QUESTIONS:  # lesson 06's questions find their tool among the 300 too
        assert question.tool in index.search(question.text)


def test_every_strategy_does_the_task_with_the_naive_answer(measured):
    assert {(r.api, r.size) for r in measured} == {(a, s) for a in APIS for s in scale.SIZES}
    for result in measured:
        offered = [c.name for c in scale.strategies_for(result.api)]
        assert [r.name for r in result.rows] == offered
        for row in result.rows:
            assert row.same, (result.api, result.size, row.name)
            assert [n for n in row.tools_called if n != SEARCH_TOOL] == [scale.FLOOR_TOOL] * 4
            assert 0 < row.output_cost < row.cost
            assert row.cached_tokens <= row.input_tokens  # a namespace's deferred functions are in no prefix


def test_chat_has_no_hosted_search_and_only_responses_has_namespaces():
    assert [c.name for c in scale.strategies_for("chat")] == [
        "naive", "caching", "client search", "allowed tools", "floor"]
    assert "namespaces" in [c.name for c in scale.strategies_for("responses")]
    assert "namespaces" not in [c.name for c in scale.strategies_for("messages")]


def test_the_targets_hold_on_every_api(measured):
    mid, large = scale.SIZES[1:]
    for result in measured:
        assert result.floor.cost < result.best.cost < result.naive.cost
        if result.size == mid:
            assert result.share >= 0.75, scale.scale_line(result)
        if result.size == large:
            assert result.ratio <= 0.30, scale.scale_line(result)
        assert result.ok


def test_caching_where_each_api_caches(measured):
    for result in measured:
        naive, cached = result.naive, result.row("caching")
        if result.api == "messages":  # only what a request marks: the naive loop reads nothing
            assert naive.cached_tokens == 0
            if result.size > scale.SIZES[0]:  # 10 tools are under Haiku's 4,096-token minimum
                assert cached.cached_tokens > 0 and cached.cost < naive.cost / 2
        elif result.size > scale.SIZES[0]:  # automatic: the naive loop is read from the cache too
            assert naive.cached_tokens == cached.cached_tokens > naive.input_tokens / 2


def test_namespaces_cost_a_line_per_server(measured):
    """At 300 tools the hosted search reads every deferred function's name and description; in namespaces,
    a line per server."""
    large = next(r for r in measured if r.api == "responses" and r.size == scale.SIZES[2])
    assert large.row("namespaces").input_tokens < large.row("hosted search").input_tokens / 4
    assert large.row("namespaces").cost < large.row("hosted search").cost / 3


def test_the_lines_read_as_the_bench_prints_them(measured, capsys):
    assert scale.print_bench(measured)
    out = capsys.readouterr().out
    lines = [m.groups() for m in map(LINE.fullmatch, out.splitlines()) if m]
    assert len(lines) == len(measured) and all(line[-1] == "yes" for line in lines)
    for (api, size, ratio, best, floor, share, _), result in zip(lines, measured):
        assert (api, int(size), best) == (result.api, result.size, result.best.name)
        assert float(ratio) == pytest.approx(result.ratio, abs=0.005)
        assert int(share) == round(result.share * 100)
    assert "missed" not in out and ": met" in out


def _missing_result() -> scale.ApiScale:
    def row(name, cost, output_cost, tokens):
        return scale.ScaleRow(name, tokens, 0, 0, cost, 5, 0.0, "Sydney: 25°C", True, output_cost=output_cost,
                              output_tokens=100)

    return scale.ApiScale("responses", scale.SIZES[1],
                          (row("naive", 1.0, 0.2, 10_000), row("client search", 0.6, 0.25, 2_000),
                           row("floor", 0.3, 0.2, 800)))


def test_a_missed_target_says_why_in_one_line(capsys):
    result = _missing_result()
    assert not result.ok and result.share == pytest.approx(0.4 / 0.7)
    assert not scale.print_bench([result])
    out = capsys.readouterr().out.splitlines()
    reason = out[out.index(scale.scale_line(result)) + 1]
    assert reason == ("  missed [responses] 62 tools: target >= 75% of the possible saving; client search costs "
                      "$0.30000 more than the floor: $0.25000 input (+1,200 tokens, 0 cached), $0.05000 output "
                      "(+0 tokens), +0 requests")
    assert out[-1].endswith("NOT met")


def test_bench_scale_exits_1_on_a_missed_target(monkeypatch, capsys):
    monkeypatch.setattr(scale, "bench", lambda: [_missing_result()])
    assert main(["bench", "scale"]) == 1
    assert "missed [responses]" in capsys.readouterr().out


def test_bench_help_names_the_catalogue_sizes(capsys):
    with pytest.raises(SystemExit):
        main(["bench", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "catalogues of {}, {} and {} tools".format(*scale.SIZES) in help_text


def test_the_client_search_tool_is_short():
    """Its definition goes with every request of the run: 87 tokens, six requests, put client search at 68% of
    the possible saving at 62 tools on Responses; 47 tokens put it over 75%."""
    registry = cd.search.client_search_registry([], toolbox.TOOLS)
    search_tool = registry.get(SEARCH_TOOL)
    assert openai_function_tokens(search_tool.name, search_tool.description, search_tool.parameters) <= 50


@pytest.mark.parametrize("api", ["responses", "messages"])
def test_deferred_tools_without_their_search_tool_get_the_400_a_trimmed_history_does_not(api):
    llm = cd.connect("offline", api=api, latency_scale=0)
    llm.run(toolbox.QUESTIONS[0].text, tools=toolbox.TOOLS, tool_search=True)
    last = llm.offline.requests[-1].body
    with pytest.raises(Exception, match="Deferred tools require tools.tool_search|All tools cannot be deferred"):
        scale.resend(llm, scale.without_search_tool(api, last))
    assert scale.resend(llm, scale.without_search(api, last)).id  # the real APIs take it: so does the stand-in


def test_hourly_readings_are_long_and_refuse_an_unknown_city():
    readings = scale.get_hourly_readings.func("Lisbon")["readings"]
    assert len(readings) == 24 and readings[0]["hour"] == "00:00"
    with pytest.raises(ValueError, match="the cities are"):
        scale.get_hourly_readings.func("Atlantis")
