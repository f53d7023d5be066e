"""Property-based tests of the round loop over random scripted model behaviour."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import conductor as cd
from scripted import offline, scripted
from wire import APIS, tool_results

CITIES = ["北京", "上海", "广州", "火星"]


@cd.tool
def get_weather(city: str) -> dict:
    """Get today's weather for a city."""
    if city == "火星":
        raise ValueError("unknown city")
    return {"city": city, "temperature": len(city) * 7}


@cd.tool
def note(text: str) -> None:
    """Write a note."""


call = st.one_of(
    st.builds(lambda c: ("get_weather", {"city": c}), st.sampled_from(CITIES)),
    st.builds(lambda t: ("note", {"text": t}), st.text(max_size=5)),
    st.just(("no_such_tool", {})),
    st.just(("get_weather", {})),
)
step = st.one_of(
    st.text(min_size=1, max_size=20).filter(str.strip),
    st.lists(call, min_size=1, max_size=4),
)


@pytest.mark.parametrize("api", APIS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(step, min_size=1, max_size=6), max_rounds=st.integers(0, 4), parallel=st.booleans())
def test_loop_invariants(api, steps, max_rounds, parallel):
    llm, model = offline(api, scripted(*steps))
    result = llm.run("Go", tools=[get_weather, note], max_rounds=max_rounds, parallel=parallel)
    # Never more than max_rounds + 1 requests, and the SDK never saw a 400 from the contract.
    assert len(model.requests) == result.api_calls <= max_rounds + 1
    assert all(r.status == 200 for r in model.requests)
    # Every call id the model issued in a tool round was answered exactly once, in order.
    issued = [c.id for r in result.rounds for c in r.tool_calls]
    assert len(issued) == len(set(issued))
    # A run the guards stopped (a loop) answers its last turn in result.messages without another request.
    last = {"messages": result.messages} if result.stopped_by else model.requests[-1].body
    answered = [call_id for call_id, _, _ in tool_results(last)]
    assert answered == issued
    assert len(result.rounds) <= max_rounds
