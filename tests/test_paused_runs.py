"""A paused run outlives its process, and a person can approve a call with edited arguments.

The cross-process tests run real processes (``sys.executable``): one runs until the pause
and saves the result (pickle, or ``to_json``), a second loads it, decides, resumes on a
freshly connected offline model and reports what ran. The others save and load within
this process, which is quicker to read; every test runs on each of the three wire APIs.
"""

from __future__ import annotations

import asyncio
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from scripted import Bank, offline, scripted
from wire import APIS, results_by_id, tool_calls

import conductor as cd
from conductor.budget import first_request_worst_case
from conductor.offline import LatencyModel, OfflineModel

TESTS = Path(__file__).parent

# -- across processes ----------------------------------------------------------------------------

# Written to bank_tools.py: module-level tools, which the resuming process imports by name (its script does not).
BANK_TOOLS = '''
"""Tools that log each call to the file named by $BANK_LOG."""
import json
import os

import conductor as cd


def _log(entry):
    with open(os.environ["BANK_LOG"], "a", encoding="utf-8") as log:
        log.write(json.dumps(entry) + "\\n")


@cd.tool(requires_approval=lambda args: args["amount"] > 100)
def transfer(to: str, amount: float) -> dict:
    """Transfer money to an account."""
    _log({"tool": "transfer", "to": to, "amount": amount})
    return {"sent": amount, "to": to}


@cd.tool
def balance() -> dict:
    """The account balance."""
    _log({"tool": "balance"})
    return {"balance": 1000}
'''

STEPS = ([("balance", {}), ("transfer", {"to": "DE89", "amount": 500}), ("transfer", {"to": "FR76", "amount": 900})],
         "Done.")
QUESTION = "Check the balance, then send 500 to DE89 and 900 to FR76"

PAUSE = '''
import os, pickle, sys
from scripted import offline, scripted
import bank_tools

for case in sys.argv[1:]:
    api, reasoning, saved_as = case.split("-")
    os.environ["BANK_LOG"] = os.path.join(os.environ["WORK"], case + ".log")
    llm, _ = offline(api, scripted(*{steps!r}), reasoning=reasoning == "reasoning")
    result = llm.run({question!r}, tools=[bank_tools.balance, bank_tools.transfer])
    assert result.stopped_by == "approval", result.transcript()
    with open(os.path.join(os.environ["WORK"], case + ".saved"), "wb") as file:
        if saved_as == "json":
            file.write(result.to_json().encode())
        else:
            pickle.dump(result, file)
'''

RESUME = '''
import json, os, pickle, sys
from scripted import offline, scripted
from conductor import RunResult

assert "bank_tools" not in sys.modules  # resume imports the tools from their module itself


def load(path, saved_as):
    with open(path, "rb") as file:
        return RunResult.from_json(file.read().decode()) if saved_as == "json" else pickle.load(file)


report = {{}}
for case in sys.argv[1:]:
    api, reasoning, saved_as = case.split("-")
    os.environ["BANK_LOG"] = os.path.join(os.environ["WORK"], case + ".log")
    saved = os.path.join(os.environ["WORK"], case + ".saved")
    result = load(saved, saved_as)
    ids = {{call.arguments["to"]: call.id for call in result.pending}}
    result.approve(ids["DE89"])
    result.reject(ids["FR76"], reason="over the daily limit")
    llm, model = offline(api, scripted(*{steps!r}), reasoning=reasoning == "reasoning")
    final = llm.resume(result)
    refusals = []
    for again in (result, load(saved, saved_as)):  # the same object, and the saved run loaded again
        try:
            llm.resume(again)
            refusals.append("resumed again")
        except RuntimeError as exc:
            refusals.append(str(exc))
    report[case] = {{
        "ids": ids,
        "answer": final.answer,
        "stopped_by": final.stopped_by,
        "records": [[c.id, c.name, c.blocked] for c in final.tool_calls],
        "bodies": [r.body for r in model.requests],
        "statuses": [r.status for r in model.requests],
        "refusals": refusals,
    }}
print(json.dumps(report))
'''

# api-model-format: every API, pickled; reasoning models (whose reasoning must go back with their calls); JSON.
CASES = [f"{api}-plain-pickle" for api in APIS] + ["responses-reasoning-pickle", "messages-reasoning-pickle"]
CASES += ["responses-reasoning-json", "chat-plain-json", "messages-reasoning-json"]


def _python(script: str, work: Path, *args: str) -> str:
    path = [str(TESTS), str(work), *filter(None, [os.environ.get("PYTHONPATH")])]
    env = {**os.environ, "WORK": str(work), "PYTHONPATH": os.pathsep.join(path)}
    done = subprocess.run(
        [sys.executable, "-c", script, *args], env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _log(work: Path, case: str) -> list[dict]:
    return [json.loads(line) for line in (work / f"{case}.log").read_text().splitlines()]


@pytest.fixture(scope="module")
def across_processes(tmp_path_factory):
    """Each case paused in one process and resumed in another: (work dir, logs after the pause, the report)."""
    work = tmp_path_factory.mktemp("paused")
    (work / "bank_tools.py").write_text(BANK_TOOLS)
    _python(PAUSE.format(steps=STEPS, question=QUESTION), work, *CASES)
    logs_at_pause = {case: _log(work, case) for case in CASES}
    report = json.loads(_python(RESUME.format(steps=STEPS), work, *CASES))
    return work, logs_at_pause, report


@pytest.mark.parametrize("case", CASES)
def test_a_paused_run_resumes_in_a_new_process(across_processes, case):
    work, logs_at_pause, report = across_processes
    outcome = report[case]
    # The first process ran the call that needed no approval, and nothing else.
    assert logs_at_pause[case] == [{"tool": "balance"}]
    # The second ran the approved transfer exactly once, the denied one never, the balance not again.
    assert _log(work, case) == [{"tool": "balance"}, {"tool": "transfer", "to": "DE89", "amount": 500}]
    assert outcome["answer"] == "Done." and outcome["stopped_by"] is None
    approved, denied = outcome["ids"]["DE89"], outcome["ids"]["FR76"]
    assert [(name, blocked) for _, name, blocked in outcome["records"]] == [
        ("balance", None), ("transfer", None), ("transfer", "denied")
    ]
    # The resumed run made one request (the answer), accepted by the API (a reasoning model's
    # reasoning went back with its calls), in which every call id is answered exactly once.
    assert outcome["statuses"] == [200]
    (body,) = outcome["bodies"]
    answers = results_by_id(body)  # fails on an id answered twice
    asked = [call_id for call_id, _, _ in tool_calls(body)]
    assert sorted(answers) == sorted(asked) and len(asked) == 3
    assert '"sent"' in answers[approved]
    assert "over the daily limit" in answers[denied] and "not run" in answers[denied]
    # Resumed once in that process, however often it was tried, from the same object or a second load.
    assert all("already resumed" in refusal for refusal in outcome["refusals"])


# -- within one process ----------------------------------------------------------------------------


def big_transfer(amount: float = 5000):
    return scripted([("transfer", {"to": "DE89", "amount": amount})], "Done.")


def reloaded(result: cd.RunResult, saved_as: str = "pickle") -> cd.RunResult:
    if saved_as == "json":
        return cd.RunResult.from_json(result.to_json())
    return pickle.loads(pickle.dumps(result))


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("saved_as", ["pickle", "json"])
def test_a_saved_result_reads_as_before(api, saved_as):
    llm, _ = offline(api, big_transfer())
    paused = llm.run("Send 5000 to DE89", tools=[Bank().transfer])
    loaded = reloaded(paused, saved_as)
    assert loaded == paused  # answer, wire messages, trace, neutral conversation, pending calls
    assert loaded.stopped_by == "approval" and loaded.pending[0].arguments["amount"] == 5000
    assert loaded.transcript() == paused.transcript()
    with pytest.raises(TypeError):
        loaded.pending[0].arguments["amount"] = 1  # read-only after a round trip too
    done = llm.resume(loaded, tools=[Bank().transfer])
    assert reloaded(done, saved_as) == done  # a finished result too


def test_json_names_what_it_cannot_hold_and_reads_only_conductors_records():
    import httpx2

    llm, _ = offline("chat", big_transfer())
    paused = llm.run("Send 5000 to DE89", tools=[Bank().transfer], timeout=httpx2.Timeout(5.0))
    with pytest.raises(TypeError, match="Timeout cannot be written as JSON; pickle"):
        paused.to_json()
    pickle.dumps(paused)  # pickle takes it
    with pytest.raises(ValueError, match="not one of conductor's records"):
        cd.RunResult.from_json('{"format": 1, "result": {"$conductor": "os.system", "fields": {}}}')
    with pytest.raises(ValueError, match="to_json"):
        cd.RunResult.from_json('{"answer": "hi"}')


@pytest.mark.parametrize("api", APIS)
def test_tools_that_cannot_be_imported_are_given_again_and_the_error_says_how(api):
    bank = Bank()
    llm, model = offline(api, big_transfer())
    loaded = reloaded(llm.run("Send 5000 to DE89", tools=[bank.transfer]))
    loaded.approve(loaded.pending[0].id)
    with pytest.raises(ValueError, match=r"llm\.resume\(result, tools=\[transfer\]\)"):
        llm.resume(loaded)

    @cd.tool
    def refund(to: str) -> str:
        """Refund an account."""
        return "ok"

    with pytest.raises(ValueError, match="did not offer"):
        llm.resume(loaded, tools=[bank.transfer, refund])
    # A resume that raised claimed nothing: the same result resumes once its tools are given.
    result = llm.resume(loaded, tools=[bank.transfer])
    assert result.answer == "Done." and bank.transfers == [("DE89", 5000)]
    assert len(model.requests) == 2


PAYMENTS: list[tuple[str, float]] = []


@cd.tool(requires_approval=True)
def pay_invoice(to: str, amount: float) -> dict:
    """Pay an invoice. Irreversible."""
    PAYMENTS.append((to, amount))
    return {"paid": amount, "to": to}


@pytest.mark.parametrize("saved_as", ["pickle", "json"])
@pytest.mark.parametrize("api", APIS)
def test_a_run_paused_inside_the_orchestrator_resumes_with_its_tools_found_by_import(api, saved_as):
    PAYMENTS.clear()
    llm, _ = offline(api, scripted([("pay_invoice", {"to": "DE89", "amount": 5000})], "Done."))
    orch = cd.Orchestrator(llm, tools=[pay_invoice], deadline=None)
    paused = orch.run("Pay DE89 5000", user="alice")
    assert paused.stopped_by == "approval" and PAYMENTS == []
    loaded = reloaded(paused, saved_as)  # a new process holds no live tools: only their import path
    loaded.approve(loaded.pending[0].id)
    assert llm.resume(loaded).answer == "Done." and PAYMENTS == [("DE89", 5000)]


@pytest.mark.parametrize("api", APIS)
def test_the_same_saved_run_resumes_once_in_a_process(api):
    bank = Bank()
    llm, _ = offline(api, big_transfer())
    paused = llm.run("Send 5000 to DE89", tools=[bank.transfer])
    paused.approve(paused.pending[0].id)
    saved = pickle.dumps(paused)
    first, second = pickle.loads(saved), pickle.loads(saved)
    assert llm.resume(first, tools=[bank.transfer]).answer == "Done."
    for again in (first, second, paused):
        with pytest.raises(RuntimeError, match="already resumed"):
            llm.resume(again, tools=[bank.transfer])
    with pytest.raises(RuntimeError, match="already resumed"):
        second.approve(second.pending[0].id)
    assert bank.transfers == [("DE89", 5000)]


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("through_pickle", [False, True])
def test_a_resumed_run_keeps_what_is_left_of_its_budget(api, through_pickle):
    bank = Bank()
    llm, model = offline(api, big_transfer())
    question = "Send 5000 to DE89"
    # Room for the first request's worst case, not for a second one as well.
    first = first_request_worst_case(llm, question, tools=[bank.transfer])
    budget = cd.Budget(tokens=first.tokens + 50)
    paused = llm.run(question, tools=[bank.transfer], budget=budget, deadline=60.0)
    if through_pickle:
        paused = reloaded(paused)
    paused.approve(paused.pending[0].id)
    result = llm.resume(paused, tools=[bank.transfer])
    assert bank.transfers == [("DE89", 5000)]
    assert result.stopped_by == "budget" and len(model.requests) == 1


@pytest.mark.parametrize("api", APIS)
def test_async_resume_of_a_pickled_result(api):
    bank = Bank()

    async def go():
        model = OfflineModel(seed=0, latency=LatencyModel.instant(), policies=[big_transfer()])
        llm = cd.connect("offline", api=api, asynchronous=True, offline_model=model)
        loaded = reloaded(await llm.arun("Send 5000 to DE89", tools=[bank.transfer]))
        loaded.approve(loaded.pending[0].id, arguments={"to": "DE89", "amount": 50})
        return await llm.aresume(loaded, tools=[bank.transfer])

    result = asyncio.run(go())
    assert result.answer == "Done." and bank.transfers == [("DE89", 50)]


# -- approving edited arguments --------------------------------------------------------------------


@pytest.mark.parametrize("api", APIS)
def test_an_edited_approval_runs_the_edit_records_it_and_tells_the_model(api):
    bank = Bank()
    llm, model = offline(api, big_transfer())
    paused = llm.run("Send 5000 to DE89", tools=[bank.transfer])
    call_id = paused.pending[0].id
    paused.approve(call_id, arguments={"to": "DE89", "amount": 500})
    result = llm.resume(paused)
    assert bank.transfers == [("DE89", 500)]
    (record,) = result.tool_calls
    assert record.arguments == {"to": "DE89", "amount": 500}
    assert record.edited_from == {"to": "DE89", "amount": 5000}
    assert record.blocked is None and not record.is_error
    body = model.requests[-1].body
    told = results_by_id(body)[call_id]
    assert "amount from 5000 to 500" in told and '"sent":500' in told
    # The model's own call stays in the history as it asked for it.
    assert [(i, args) for i, _, args in tool_calls(body)] == [(call_id, {"to": "DE89", "amount": 5000})]


@pytest.mark.parametrize("api", APIS)
def test_an_invalid_edit_raises_for_the_person_and_records_nothing(api):
    bank = Bank()
    llm, _ = offline(api, big_transfer())
    paused = llm.run("Send 5000 to DE89", tools=[bank.transfer])
    call_id = paused.pending[0].id
    for edit, problem in (
        ({"to": "DE89", "amount": "lots"}, "amount"),
        ({"to": "DE89"}, "amount"),
        ({"to": "DE89", "amount": 500, "memo": "rent"}, "memo"),
        ({"to": "DE89", "amount": float("nan")}, "JSON"),
    ):
        with pytest.raises(ValueError, match=problem):
            paused.approve(call_id, arguments=edit)
    with pytest.raises(TypeError, match="dict"):
        paused.approve(call_id, arguments='{"amount": 500}')
    assert paused.paused.decisions == {}
    result = llm.resume(paused)  # undecided: denied by default
    assert bank.transfers == [] and result.tool_calls[0].blocked == "denied"


@pytest.mark.parametrize("api", APIS)
def test_an_edit_equal_to_the_models_arguments_is_a_plain_approval(api):
    bank = Bank()
    llm, _ = offline(api, big_transfer())
    paused = llm.run("Send 5000 to DE89", tools=[bank.transfer])
    paused.approve(paused.pending[0].id, arguments={"amount": 5000.0, "to": "DE89"})
    (record,) = llm.resume(paused).tool_calls
    assert record.edited_from is None and record.output.startswith("{")
    assert bank.transfers == [("DE89", 5000)]


@pytest.mark.parametrize("api", APIS)
def test_an_edit_is_checked_against_the_schema_when_the_tools_code_is_elsewhere(api):
    """After a round trip the Bank's tools cannot be imported: the schema the model was shown checks the edit."""
    bank = Bank()
    llm, _ = offline(api, big_transfer())
    loaded = reloaded(llm.run("Send 5000 to DE89", tools=[bank.transfer]))
    call_id = loaded.pending[0].id
    with pytest.raises(ValueError, match="amount"):
        loaded.approve(call_id, arguments={"to": "DE89", "amount": "lots"})
    loaded.approve(call_id, arguments={"to": "DE89", "amount": 500})
    (record,) = llm.resume(loaded, tools=[bank.transfer]).tool_calls
    assert bank.transfers == [("DE89", 500)] and record.edited_from == {"to": "DE89", "amount": 5000}


def test_edits_and_plain_decisions_mix_in_one_turn_and_results_keep_call_order():
    bank = Bank()
    calls = [("transfer", {"to": "DE89", "amount": 5000}), ("transfer", {"to": "FR76", "amount": 900})]
    llm, model = offline("responses", scripted(calls, "Done."))
    paused = llm.run("Send both", tools=[bank.transfer])
    first, second = (p.id for p in paused.pending)
    paused.approve(second, arguments={"to": "FR76", "amount": 90})
    paused.approve(first)
    result = llm.resume(paused)
    assert bank.transfers == [("DE89", 5000), ("FR76", 90)]
    assert [c.edited_from for c in result.tool_calls] == [None, {"to": "FR76", "amount": 900}]
    assert list(results_by_id(model.requests[-1].body)) == [first, second]


def test_a_run_kept_on_the_server_resumes_only_on_its_own_model():
    bank = Bank()
    llm, model = offline("responses", big_transfer())
    loaded = reloaded(llm.run("Send 5000 to DE89", tools=[bank.transfer], server_state=True))
    loaded.approve(loaded.pending[0].id)
    other = cd.connect("offline", api="responses", model="another-model", offline_model=model)
    with pytest.raises(ValueError, match="server_state=True"):
        other.resume(loaded, tools=[bank.transfer])
    result = llm.resume(loaded, tools=[bank.transfer])
    assert result.answer == "Done." and bank.transfers == [("DE89", 5000)]
    assert model.requests[-1].body["previous_response_id"]
