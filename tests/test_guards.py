"""Guards (lesson 04): the allowlist and the per-tool budget of invalid calls, on each API, sync and async."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scripted import offline, scripted
from wire import APIS, results_by_id, tool_calls

import conductor as cd
from conductor.offline import LatencyModel, OfflineModel
from conductor.types import ToolResult, Turn


class Desk:
    """Tools that count how often they really ran."""

    def __init__(self, max_invalid: int | None = 2, *, approval: bool = False) -> None:
        self.ran: list[str] = []

        @cd.tool
        def get_weather(city: str) -> dict:
            """Get today's weather for a city."""
            self.ran.append("get_weather")
            return {"city": city, "temperature": 18}

        @cd.tool(max_invalid=max_invalid)
        def set_alarm(hour: int, minute: int) -> str:
            """Set an alarm."""
            self.ran.append("set_alarm")
            return f"alarm at {hour:02d}:{minute:02d}"

        @cd.tool(requires_approval=approval)
        def delete_database() -> str:
            """Delete the production database."""
            self.ran.append("delete_database")
            return "deleted"

        self.get_weather, self.set_alarm, self.delete_database = get_weather, set_alarm, delete_database

    @property
    def tools(self) -> list[cd.Tool]:
        return [self.get_weather, self.set_alarm, self.delete_database]


def arun(api: str, policy, question: str, **kwargs) -> cd.RunResult:
    model = OfflineModel(seed=0, latency=LatencyModel.instant(), policies=[policy])
    llm = cd.connect("offline", api=api, asynchronous=True, offline_model=model)
    return asyncio.run(llm.arun(question, **kwargs))


def run(api: str, mode: str, policy, question: str, **kwargs) -> cd.RunResult:
    if mode == "async":
        return arun(api, policy, question, **kwargs)
    llm, _ = offline(api, policy)
    return llm.run(question, **kwargs)


MODES = ["sync", "async"]


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("mode", MODES)
def test_a_call_outside_the_allowlist_is_not_run_and_the_error_names_the_allowed_tools(api, mode):
    desk = Desk()
    policy = scripted([("delete_database", {}), ("get_weather", {"city": "Paris"})], "ok")
    result = run(api, mode, policy, "Weather in Paris", tools=desk.tools, allowed_tools=["get_weather"])
    assert desk.ran == ["get_weather"]
    blocked, ran = result.tool_calls
    assert blocked.blocked == "allowlist" and blocked.is_error
    assert "not allowed" in blocked.output and "get_weather" in blocked.output
    assert ran.blocked is None and not ran.is_error
    assert "[not run: allowlist]" in result.transcript()


def test_allowed_tools_takes_tool_objects_and_refuses_names_not_offered():
    desk = Desk()
    llm, _ = offline("responses", scripted("ok"))
    assert llm.run("hi", tools=desk.tools, allowed_tools=[desk.get_weather]).answer == "ok"
    with pytest.raises(ValueError, match="not among the tools="):
        llm.run("hi", tools=desk.tools, allowed_tools=["get_wether"])


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("mode", MODES)
def test_the_model_gets_the_validation_message_and_may_correct_itself(api, mode):
    desk = Desk()
    policy = scripted([("set_alarm", {"hour": "seven"})], [("set_alarm", {"hour": 7, "minute": 0})], "Set.")
    result = run(api, mode, policy, "Alarm at 7", tools=desk.tools)
    first, second = result.tool_calls
    assert first.is_error and "hour" in first.output and "minute" in first.output
    assert "1 of 2 invalid calls" in first.output
    assert second.output == "alarm at 07:00" and desk.ran == ["set_alarm"]
    assert result.stopped_by is None and result.answer == "Set."


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("mode", MODES)
def test_a_tool_is_withdrawn_after_its_budget_of_invalid_calls(api, mode):
    desk = Desk()
    bad = ("set_alarm", {"hour": "seven", "minute": 0})
    policy = scripted([bad, ("get_weather", {"city": "Oslo"})], [bad], [("set_alarm", {"hour": 7, "minute": 0})], "ok")
    result = run(api, mode, policy, "Alarm", tools=desk.tools, max_rounds=4)
    outputs = [c.output for c in result.tool_calls if c.name == "set_alarm"]
    assert "withdrawn" in outputs[1] and "2 of 2" in outputs[1]
    assert result.tool_calls[-1].blocked == "withdrawn"  # even a valid call now: the tool is gone
    assert "withdrawn" in result.tool_calls[-1].output
    assert desk.ran == ["get_weather"]
    assert result.stopped_by is None  # get_weather is still there


@pytest.mark.parametrize("api", APIS)
def test_a_valid_call_resets_the_budget(api):
    desk = Desk()
    bad, good = ("set_alarm", {"hour": "x", "minute": 0}), ("set_alarm", {"hour": 7, "minute": 0})
    policy = scripted([bad], [good], [bad], [("set_alarm", {"hour": 8, "minute": 0})], "ok")
    result = run(api, "sync", policy, "Alarm", tools=desk.tools, max_rounds=4)
    assert [c.blocked for c in result.tool_calls] == ["invalid", None, "invalid", None]
    assert desk.ran == ["set_alarm", "set_alarm"]


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("mode", MODES)
def test_the_run_stops_when_every_usable_tool_is_withdrawn(api, mode):
    desk = Desk(max_invalid=1)
    policy = scripted([("set_alarm", {"hour": "seven"})], "never asked")
    result = run(api, mode, policy, "Alarm", tools=desk.tools, allowed_tools=["set_alarm"])
    assert result.stopped_by == "validation"
    assert "withdrawn" in result.answer
    assert result.api_calls == 1 and desk.ran == []


def test_a_tool_without_a_budget_is_never_withdrawn():
    desk = Desk(max_invalid=None)
    bad = ("set_alarm", {"hour": "seven", "minute": 0})
    result = run("responses", "sync", scripted([bad], [bad], [bad], "ok"), "Alarm", tools=desk.tools, max_rounds=3)
    assert [c.blocked for c in result.tool_calls] == ["invalid"] * 3
    assert all("withdrawn" not in c.output for c in result.tool_calls)


def test_max_invalid_must_be_a_positive_whole_number():
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(cd.ToolDefinitionError, match="max_invalid"):
            cd.tool(max_invalid=bad, name="noop")(lambda: None)


# -- properties ----------------------------------------------------------------------------------

CALLS = st.sampled_from(
    [
        ("get_weather", {"city": "Paris"}),
        ("get_weather", {"city": 3}),
        ("set_alarm", {"hour": 7, "minute": 0}),
        ("set_alarm", {"hour": "seven"}),
        ("delete_database", {}),
        ("no_such_tool", {}),
    ]
)


@settings(max_examples=40, deadline=None)
@given(
    turns=st.lists(st.lists(CALLS, min_size=1, max_size=3), min_size=1, max_size=4),
    allowed=st.one_of(st.none(), st.sets(st.sampled_from(["get_weather", "set_alarm", "delete_database"]))),
    max_repeats=st.sampled_from([None, 2, 3]),
    approve_all=st.booleans(),
    api=st.sampled_from(APIS),
)
def test_whatever_the_model_asks_every_call_is_answered_once_and_no_guard_is_bypassed(
    turns, allowed, max_repeats, approve_all, api
):
    desk = Desk(max_invalid=1, approval=True)
    policy = scripted(*turns, "done")
    llm, model = offline(api, policy)
    result = llm.run(
        "go", tools=desk.tools, max_rounds=len(turns), allowed_tools=allowed, max_repeats=max_repeats,
        approve=lambda call: approve_all,
    )
    issued = [c.id for m in result.conversation if isinstance(m, Turn) for c in m.tool_calls]
    answered = [m.call_id for m in result.conversation if isinstance(m, ToolResult)]
    assert sorted(issued) == sorted(answered) and len(set(issued)) == len(issued)
    for request in model.requests:  # on the wire too: every request answers each of its calls once, in order
        assert request.status == 200
        assert [call_id for call_id, _, _ in tool_calls(request.body)] == list(results_by_id(request.body))
    ran = [c for c in result.tool_calls if c.blocked is None and not c.is_error]
    assert [c.name for c in ran] == desk.ran  # what the trace says ran is exactly what ran
    if allowed is not None:
        assert set(desk.ran) <= allowed
    if not approve_all:
        assert "delete_database" not in desk.ran
    withdrawn_at = next((i for i, c in enumerate(result.tool_calls) if "now withdrawn" in c.output), None)
    if withdrawn_at is not None:
        later = result.tool_calls[withdrawn_at + 1 :]
        assert all(c.blocked is not None or c.name != result.tool_calls[withdrawn_at].name for c in later)


@pytest.mark.parametrize("api", APIS)
def test_a_withdrawn_tool_stays_in_the_requests_for_the_prompt_cache_and_anthropic_rule(api):
    desk = Desk(max_invalid=1)
    llm, model = offline(api, scripted([("set_alarm", {"hour": "x"}), ("get_weather", {"city": "Oslo"})], "ok"))
    llm.run("Alarm", tools=desk.tools)
    first, last = model.requests[0].body["tools"], model.requests[-1].body["tools"]
    assert first == last and len(last) == 3
