"""Durable runs (conductor.durability on DBOS): the same run recorded step by step, a worker SIGKILLed mid-call and
started again, approvals from another process, bad input refused before anything is recorded.

Every case runs on SQLite; the ones marked ``postgres`` run again on the PostgreSQL server that
``CONDUCTOR_TEST_POSTGRES_URL`` names (``.ci/run`` starts one) and are skipped only when it is unset.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import pytest

import conductor as cd
from conductor import durability
from conductor.course import durable_soak

sys.path.insert(0, str(Path(__file__).parent))
import durable_tools  # noqa: E402 - a module a worker process imports by name

from durable_tools import EMAIL, WEATHER, database as _database, ledger, ran as _ran  # noqa: E402,F401


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_durable_run_gives_the_result_of_an_ordinary_run_and_records_each_step(tmp_path, ledger, kind):
    llm = durable_soak.offline_llm()
    plain = llm.run(WEATHER, tools=durable_tools.TOOLS, parallel=True)
    with cd.durable(llm, tools=durable_tools.TOOLS, database=_database(tmp_path, kind)) as app:
        run_id = app.start(WEATHER, parallel=True)
        result = app.result(run_id)
        steps = [s["function_name"] for s in __import__("dbos").DBOS.list_workflow_steps(run_id)]
    assert isinstance(result, cd.RunResult)
    assert result.answer == plain.answer and result.api_calls == plain.api_calls
    assert [(c.name, c.arguments, c.output) for c in result.tool_calls] == [
        (c.name, c.arguments, c.output) for c in plain.tool_calls]
    assert steps.count("conductor.model") == 2 and steps.count("conductor.tool:get_weather") == 3


def test_budgets_and_guards_act_as_in_an_ordinary_run(tmp_path, ledger):
    llm = durable_soak.offline_llm()
    with cd.durable(llm, tools=durable_tools.TOOLS, database=_database(tmp_path, "sqlite")) as app:
        spent = app.run(WEATHER, budget=cd.Budget(usd=0.0000001))
        allowed = app.run(WEATHER, allowed_tools=["send_email"])
    assert spent.stopped_by == "budget" and spent.api_calls == 0
    plain = llm.run(WEATHER, tools=durable_tools.TOOLS, allowed_tools=["send_email"])
    assert (allowed.answer, allowed.api_calls) == (plain.answer, plain.api_calls)
    assert [c.name for c in allowed.tool_calls] == [c.name for c in plain.tool_calls]
    assert _ran(ledger, "get_weather") == 0


def test_a_wrong_call_id_names_the_calls_the_run_waits_on(tmp_path, ledger):
    llm = durable_soak.offline_llm()
    with cd.durable(llm, tools=durable_tools.TOOLS, database=_database(tmp_path, "sqlite")) as app:
        run_id = app.start("Send 500 dollars to Anna.")
        call = app.client.wait_pending(run_id).calls[0]
        with pytest.raises(KeyError, match=call.id):
            app.approve(run_id, "call_nope")
        app.reject(run_id, call.id, "not today")
        result = app.result(run_id)
    assert result.tool_calls[0].blocked == "denied" and "not today" in result.tool_calls[0].output
    assert _ran(ledger, "transfer_money") == 0


# -- approvals that park ---------------------------------------------------------------------------

TWO_TRANSFERS = "Send 20 dollars to Bob and 30 dollars to Alice."


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_parked_run_holds_no_worker_and_goes_on_when_decided(tmp_path, ledger, kind):
    llm = durable_soak.offline_llm()
    database = _database(tmp_path, kind)
    with cd.durable(llm, tools=durable_tools.TOOLS, database=database, worker_concurrency=1) as app:
        parked = app.enqueue("Send 500 dollars to Anna.", run_id="run-parked")
        call = app.client.wait_pending(parked).calls[0]
        # The worker's one slot is free while the run waits: another run goes through meanwhile.
        weather = app.result(app.enqueue(WEATHER, parallel=True), timeout=60)
        assert app.client.status(parked) == "PARKED"
        ended = app.client._dbos.list_workflows(workflow_ids=[parked], load_input=False, load_output=False)[0]
        assert str(ended.status) == "SUCCESS"  # its workflow ended: no thread waits in it
        app.approve(parked, call.id)
        result = app.result(parked, timeout=60)
        steps = [name for _, name in app.steps(parked)]
        finished = app.client.runs(status="SUCCESS")
    assert parked in finished and not [r for r in finished if "after-pause" in r]  # one run, whatever its pauses
    assert weather.answer == llm.run(WEATHER, tools=durable_tools.TOOLS, parallel=True).answer
    assert [(c.name, c.is_error) for c in result.tool_calls] == [("transfer_money", False)]
    with sqlite3.connect(ledger) as db:  # the tool ran in the continuation, and saw the run's own id
        assert db.execute("SELECT run FROM effects WHERE tool = 'transfer_money'").fetchall() == [(parked,)]
    assert steps.count("conductor.model") == 2 and steps.count("conductor.await") == 1


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_each_call_of_a_pause_is_decided_on_its_own_and_the_run_goes_on_after_the_last(tmp_path, ledger, kind):
    llm = durable_soak.offline_llm()
    with cd.durable(llm, tools=durable_tools.TOOLS, database=_database(tmp_path, kind)) as app:
        run_id = app.start(TWO_TRANSFERS, parallel=True)
        bob, alice = app.client.wait_pending(run_id).calls
        app.approve(run_id, bob.id)
        with pytest.raises(KeyError, match="not waiting on call"):
            app.reject(run_id, bob.id, "changed my mind")  # the first decision stands
        assert app.client.status(run_id) == "PARKED" and app.pending(run_id).calls == (alice,)
        app.approve(run_id, alice.id, approved=False, reason="not this week")  # the design's one-call form
        result = app.result(run_id, timeout=60)
    assert [(c.arguments["to"], c.blocked) for c in result.tool_calls] == [("Bob", None), ("Alice", "denied")]
    assert _ran(ledger, "transfer_money") == 1


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_an_edit_that_does_not_fit_the_schema_is_refused_and_the_run_still_waits(tmp_path, ledger, kind):
    with cd.durable(durable_soak.offline_llm(), tools=durable_tools.TOOLS,
                    database=_database(tmp_path, kind)) as app:
        run_id = app.start("Send 500 dollars to Anna.")
        call = app.client.wait_pending(run_id).calls[0]
        with pytest.raises(ValueError, match="do not fit the tool's schema.*approve again"):
            app.approve(run_id, call.id, arguments={"to": "Anna", "amount": "lots"})
        assert app.pending(run_id).calls == (call,)
        app.approve(run_id, call.id, arguments={"to": "Anna", "amount": 50})
        result = app.result(run_id, timeout=60)
    assert result.tool_calls[0].arguments == {"to": "Anna", "amount": 50}
    assert _ran(ledger, "transfer_money") == 1


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_last_decision_whose_sender_died_before_starting_the_run_again_is_picked_up(tmp_path, ledger, kind):
    database = _database(tmp_path, kind)
    with cd.durable(durable_soak.offline_llm(), tools=durable_tools.TOOLS, database=database) as app:
        run_id = app.start("Send 500 dollars to Anna.")
        call = app.client.wait_pending(run_id).calls[0]
    with durability.DurableClient(database) as client:  # the sender records the decision, then dies
        assert client.pauses.decide(client.pauses.get(run_id), call.id, {"approved": True})
    with cd.durable(durable_soak.offline_llm(), tools=durable_tools.TOOLS, database=database) as app:
        result = app.result(run_id, timeout=60)  # the worker's launch started what the sender never did
    assert [(c.name, c.is_error) for c in result.tool_calls] == [("transfer_money", False)]
    assert _ran(ledger, "transfer_money") == 1


# -- bad input -------------------------------------------------------------------------------------

def test_what_cannot_be_recorded_is_refused_before_the_run_starts_naming_it(tmp_path):
    with pytest.raises(durability.DurableError, match="hosted tool 'web_search'"):
        cd.durable(durable_soak.offline_llm(), tools=[{"type": "web_search"}], launch=False)
    app = cd.durable(durable_soak.offline_llm(), tools=durable_tools.TOOLS, launch=False,
                     database=_database(tmp_path, "sqlite"))
    with pytest.raises(durability.DurableError, match="history= holds a list.*JSON"):
        app.start(WEATHER, history=[{"role": "user", "content": object()}])
    with pytest.raises(durability.DurableError, match="approve= is a function"):
        app.start(WEATHER, approve=lambda call: True)

    @cd.tool
    def lookup(key: str) -> str:
        """Look a key up."""
        return key

    with pytest.raises(durability.DurableError, match="tool 'lookup' is not one this durable app serves"):
        app.start(WEATHER, tools=[lookup])
    assert not app.launched and not (tmp_path / "runs.sqlite").exists()  # nothing was recorded


def test_a_second_worker_with_another_tool_set_on_the_queue_is_refused(tmp_path, ledger):
    database = _database(tmp_path, "sqlite")
    cd.durable(durable_soak.offline_llm(), tools=durable_tools.TOOLS, database=database).shutdown()
    durable_tools.enqueue(database, WEATHER, "run-waiting")  # waits for a worker with these tools
    refused = "another tool set.*send_email.*this worker has get_weather, version"
    with pytest.raises(durability.DurableError, match=refused):
        cd.durable(durable_soak.offline_llm(), tools=durable_tools.OTHER_TOOLS, database=database)


def test_a_database_that_cannot_be_reached_is_one_clear_line(tmp_path):
    with pytest.raises(durability.DatabaseUnreachable) as caught:
        cd.durable(durable_soak.offline_llm(), tools=durable_tools.TOOLS,
                   database="postgresql://nobody:secret@127.0.0.1:1/conductor")
    message = str(caught.value)
    assert "\n" not in message and "secret" not in message and "127.0.0.1" in message
    with pytest.raises(durability.DatabaseUnreachable, match="does not exist"):
        cd.durable(durable_soak.offline_llm(), tools=durable_tools.TOOLS,
                   database=f"sqlite:///{tmp_path / 'missing' / 'runs.sqlite'}")


def test_recorded_responses_are_json_and_read_back_into_the_sdk_type():
    llm = durable_soak.offline_llm()
    response = llm.client.responses.create(model=llm.model, input="hi")
    data = json.loads(json.dumps(durability.dump_response(response)))
    assert type(durability.load_response(data)) is type(response)
    with pytest.raises(durability.DurableError, match="not an SDK type"):
        durability.load_response({"type": "os:system", "body": {}})




def test_a_dollar_budget_for_the_whole_queue_holds_across_its_runs(tmp_path, ledger):
    llm = durable_soak.offline_llm()
    one = llm.run(WEATHER, tools=durable_tools.TOOLS, parallel=True, max_tokens=100).cost
    # A request reserves its worst case (max_tokens of output) until it settles: a run needs about 3x its cost.
    with cd.durable(llm, tools=durable_tools.TOOLS, database=_database(tmp_path, "sqlite"),
                    queue_budget=cd.Budget(usd=one * 4.5)) as app:
        results = app.run_many([WEATHER] * 5, parallel=True, max_tokens=100)
        budget, spent, reserved = app.queue_budget.state()
    assert [r.stopped_by for r in results].count(None) >= 1
    assert "budget" in [r.stopped_by for r in results]
    assert spent <= budget and reserved == pytest.approx(0.0, abs=1e-12)
    assert spent == pytest.approx(sum(r.cost for r in results))


def test_a_model_fallback_inside_a_durable_run_records_which_model_answered(tmp_path, ledger):
    from conductor.offline import LatencyModel, OfflineModel

    def member(api, model):
        return cd.connect("offline", api=api, model=model, offline_model=OfflineModel(latency=LatencyModel.instant()))

    primary, backup = member("responses", "gpt-4.1-mini"), member("messages", "claude-haiku-4-5")
    primary.offline.inject("overloaded", times=3, retry_after=0.001)
    llm = cd.fallback(primary, backup)
    with cd.durable(llm, tools=durable_tools.TOOLS, database=_database(tmp_path, "sqlite")) as app:
        result = app.run(WEATHER, parallel=True)
    assert [c.model for c in result.trace.model_calls] == ["claude-haiku-4-5"] * 2
    assert len(result.tool_calls) == 3 and not result.stopped_by


def test_the_approve_command_says_in_one_line_when_the_database_cannot_be_reached(capsys):
    from conductor.__main__ import main

    code = main(["approve", "run-1", "call_1", "--database", "postgresql://nobody:secret@127.0.0.1:1/conductor"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and err.startswith("error: cannot reach") and "secret" not in err


def test_what_llm_run_would_refuse_is_refused_before_anything_is_recorded(tmp_path):
    app = cd.durable(durable_soak.offline_llm(), tools=durable_tools.TOOLS, launch=False,
                     database=_database(tmp_path, "sqlite"))
    with pytest.raises(durability.DurableError, match="would be refused when it starts.*max_rounds"):
        app.start(WEATHER, max_rounds=-1)
    assert not app.launched and not (tmp_path / "runs.sqlite").exists()


def test_the_orchestrator_runs_many_conversations_on_a_durable_queue(tmp_path, ledger):
    import asyncio

    llm = durable_soak.offline_llm()
    questions = [WEATHER, "Check the weather in Oslo."]
    orch = cd.Orchestrator(llm, tools=durable_tools.TOOLS, parallel=True)
    with cd.durable(llm, tools=durable_tools.TOOLS, database=_database(tmp_path, "sqlite")) as app:
        results = asyncio.run(orch.run_many(questions, via="durable", durable=app, progress=False))
        with pytest.raises(ValueError, match="durable=cd.durable"):
            asyncio.run(orch.run_many(questions, via="durable", progress=False))
        spending = cd.Orchestrator(llm, tools=durable_tools.TOOLS, batch_budget=cd.Budget(usd=1.0))
        with pytest.raises(ValueError, match="queue_budget"):
            asyncio.run(spending.run_many(questions, via="durable", durable=app, progress=False))
        runs = app.client.runs()
    plain = [llm.run(q, tools=durable_tools.TOOLS, parallel=True, max_rounds=2) for q in questions]
    assert [r.answer for r in results] == [p.answer for p in plain]
    assert len(runs) == 2 and len(orch.records) == 2  # recorded as durable runs, logged and counted here
    assert _ran(ledger, "get_weather") == 4
