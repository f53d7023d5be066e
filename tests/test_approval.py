"""Approval (lesson 04): a run pauses at a call that needs a person's decision, and resumes.

Every test runs on each of the three wire APIs; the async twins use ``arun`` / ``aresume``.
"""

from __future__ import annotations

import asyncio

import pytest
from scripted import Bank, offline, scripted
from wire import APIS, results_by_id

import conductor as cd
from conductor.guards import Decision, digest
from conductor.offline import LatencyModel, OfflineModel


def big_transfer():
    return scripted([("transfer", {"to": "DE89", "amount": 500})], "Done.")


@pytest.mark.parametrize("api", APIS)
def test_a_call_needing_approval_pauses_the_run_before_it_runs(api):
    bank = Bank()
    llm, model = offline(api, big_transfer())
    result = llm.run("Send 500 to DE89", tools=[bank.transfer])
    assert result.stopped_by == "approval"
    assert bank.transfers == []
    assert len(model.requests) == 1
    (pending,) = result.pending
    assert (pending.name, dict(pending.arguments)) == ("transfer", {"to": "DE89", "amount": 500})
    assert pending.id  # the model's call id
    assert "waiting for approval" in result.transcript()


@pytest.mark.parametrize("api", APIS)
def test_approve_then_resume_runs_the_call_once_and_continues_the_same_conversation(api):
    bank = Bank()
    llm, model = offline(api, big_transfer())
    paused = llm.run("Send 500 to DE89", tools=[bank.transfer])
    call_id = paused.pending[0].id
    paused.approve(call_id)
    result = llm.resume(paused)
    assert bank.transfers == [("DE89", 500)]
    assert result.stopped_by is None and result.answer == "Done."
    assert result.pending == ()
    assert result.api_calls == 2 and len(result.rounds) == 1
    record = result.tool_calls[0]
    assert record.id == call_id and not record.is_error and record.blocked is None
    assert call_id in results_by_id(model.requests[-1].body)
    # A paused result is used once: a second resume cannot run the transfer again.
    with pytest.raises(RuntimeError, match="already resumed"):
        llm.resume(paused)
    with pytest.raises(ValueError, match="not paused"):
        llm.resume(result)
    assert bank.transfers == [("DE89", 500)]


@pytest.mark.parametrize("api", APIS)
def test_reject_sends_the_reason_to_the_model_and_nothing_runs(api):
    bank = Bank()
    llm, model = offline(api, big_transfer())
    paused = llm.run("Send 500 to DE89", tools=[bank.transfer])
    call_id = paused.pending[0].id
    paused.reject(call_id, reason="over the daily limit")
    result = llm.resume(paused)
    assert bank.transfers == []
    assert result.tool_calls[0].blocked == "denied"
    sent = results_by_id(model.requests[-1].body)[call_id]
    assert "over the daily limit" in sent and "not run" in sent


@pytest.mark.parametrize("api", APIS)
def test_an_undecided_call_is_denied_by_default_on_resume(api):
    bank = Bank()
    llm, _ = offline(api, big_transfer())
    result = llm.resume(llm.run("Send 500 to DE89", tools=[bank.transfer]))
    assert bank.transfers == []
    assert result.tool_calls[0].blocked == "denied"


@pytest.mark.parametrize("api", APIS)
def test_the_predicate_lets_small_calls_through_without_a_pause(api):
    bank = Bank()
    llm, _ = offline(api, scripted([("transfer", {"to": "DE89", "amount": 50})], "Done."))
    result = llm.run("Send 50 to DE89", tools=[bank.transfer])
    assert result.stopped_by is None and bank.transfers == [("DE89", 50)]


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("verdict", [True, False])
def test_headless_policy_decides_at_once(api, verdict):
    bank = Bank()
    seen = []
    llm, model = offline(api, big_transfer())

    def policy(call):
        seen.append((call.name, dict(call.arguments)))
        return verdict

    result = llm.run("Send 500 to DE89", tools=[bank.transfer], approve=policy)
    assert seen == [("transfer", {"to": "DE89", "amount": 500})]
    assert result.stopped_by is None and result.pending == ()
    assert bank.transfers == ([("DE89", 500)] if verdict else [])
    assert result.tool_calls[0].blocked == (None if verdict else "denied")


@pytest.mark.parametrize("api", APIS)
def test_a_policy_that_raises_denies(api):
    bank = Bank()
    llm, _ = offline(api, big_transfer())
    result = llm.run("Send 500 to DE89", tools=[bank.transfer], approve=lambda call: 1 / 0)
    assert bank.transfers == [] and result.tool_calls[0].blocked == "denied"


@pytest.mark.parametrize("api", APIS)
def test_an_approval_is_bound_to_the_exact_arguments(api):
    bank = Bank()
    llm, _ = offline(api, big_transfer())
    paused = llm.run("Send 500 to DE89", tools=[bank.transfer])
    call_id = paused.pending[0].id
    # An approval given for other arguments (a tampered or stale decision) does not run this call.
    paused.paused.decisions[call_id] = Decision(approved=True, digest=digest('{"to": "DE89", "amount": 5}'))
    result = llm.resume(paused)
    assert bank.transfers == []
    assert result.tool_calls[0].blocked == "changed"


@pytest.mark.parametrize("api", APIS)
def test_other_calls_of_the_turn_run_at_once_and_results_keep_call_order(api):
    bank = Bank()
    llm, model = offline(api, scripted([("balance", {}), ("transfer", {"to": "DE89", "amount": 500})], "Done."))
    paused = llm.run("Check and send", tools=[bank.transfer, bank.balance])
    assert [p.name for p in paused.pending] == ["transfer"]
    paused.approve(paused.pending[0].id)
    result = llm.resume(paused)
    assert [c.name for c in result.tool_calls] == ["balance", "transfer"]
    assert list(results_by_id(model.requests[-1].body)) == [c.id for c in result.tool_calls]
    assert bank.transfers == [("DE89", 500)]


@pytest.mark.parametrize("api", APIS)
def test_learner_mistakes_raise_with_the_fix(api):
    bank = Bank()
    llm, _ = offline(api, big_transfer())
    paused = llm.run("Send 500 to DE89", tools=[bank.transfer])
    with pytest.raises(KeyError, match="awaiting a decision"):
        paused.approve("no-such-id")
    with pytest.raises(TypeError, match="approve="):
        llm.run("Send 500 to DE89", tools=[bank.transfer], approve="yes")
    with pytest.raises(cd.ToolDefinitionError, match="requires_approval"):
        cd.tool(requires_approval="always", name="noop")(lambda: None)


@pytest.mark.parametrize("api", APIS)
def test_async_pause_and_resume(api):
    bank = Bank()

    async def go():
        model = OfflineModel(seed=0, latency=LatencyModel.instant(), policies=[big_transfer()])
        llm = cd.connect("offline", api=api, asynchronous=True, offline_model=model)
        paused = await llm.arun("Send 500 to DE89", tools=[bank.transfer])
        assert paused.stopped_by == "approval" and bank.transfers == []
        paused.approve(paused.pending[0].id)
        result = await llm.aresume(paused)
        with pytest.raises(RuntimeError, match="already resumed"):
            await llm.aresume(paused)
        return result

    result = asyncio.run(go())
    assert result.answer == "Done." and bank.transfers == [("DE89", 500)]


@pytest.mark.parametrize("api", ["responses", "messages"])
def test_a_reasoning_models_reasoning_goes_back_with_its_call_after_a_pause(api):
    """The real APIs reject a call replayed without the reasoning before it; a resumed run keeps it."""
    bank = Bank()
    model = OfflineModel(seed=0, latency=LatencyModel.instant(), reasoning=True, policies=[big_transfer()])
    llm = cd.connect("offline", api=api, offline_model=model)
    paused = llm.run("Send 500 to DE89", tools=[bank.transfer])
    paused.approve(paused.pending[0].id)
    result = llm.resume(paused)
    assert result.answer == "Done." and bank.transfers == [("DE89", 500)]
    assert [r.status for r in model.requests] == [200, 200]
    assert list(results_by_id(model.requests[-1].body)) == [paused.pending[0].id]


# -- cd.widgets.approval ----------------------------------------------------------------------


def test_headless_approval_lists_the_exact_arguments_and_how_to_decide(capsys):
    bank = Bank()
    llm, _ = offline("responses", big_transfer())
    paused = llm.run("Send 500 to DE89", tools=[bank.transfer])
    assert cd.widgets.approval(paused, interactive=False) is None
    shown = capsys.readouterr().out
    call = paused.pending[0]
    assert f"{call.id}: transfer" in shown
    assert '"amount": 500' in shown and '"to": "DE89"' in shown
    assert "llm.resume(result)" in shown


def test_approval_of_a_finished_run_says_nothing_awaits(capsys):
    llm, _ = offline("responses", scripted("ok"))
    assert cd.widgets.approval(llm.run("hi")) is None
    assert "No call awaits approval" in capsys.readouterr().out
    with pytest.raises(TypeError, match="RunResult"):
        cd.widgets.approval("not a result")


@pytest.mark.parametrize("choice", ["Approve", "Deny"])
def test_the_buttons_record_the_decision_and_resume_acts_on_it(choice):
    pytest.importorskip("ipywidgets")
    bank = Bank()
    llm, model = offline("messages", big_transfer())
    paused = llm.run("Send 500 to DE89", tools=[bank.transfer])
    panel = cd.widgets.approval(paused, interactive=True)
    row = panel.children[1]
    shown, buttons, status = row.children
    approve, deny, reason = buttons.children
    assert "&quot;amount&quot;: 500" in shown.value  # exact arguments, HTML-escaped
    assert bank.transfers == []  # a click decides; nothing runs until resume
    reason.value = "not today"
    (approve if choice == "Approve" else deny).click()
    assert "llm.resume(result)" in status.value
    result = llm.resume(paused)
    if choice == "Approve":
        assert bank.transfers == [("DE89", 500)]
    else:
        assert bank.transfers == [] and "not today" in result.tool_calls[0].output
    approve.click()  # too late: the run has resumed
    assert "already resumed" in status.value
    assert bank.transfers == ([("DE89", 500)] if choice == "Approve" else [])


def test_the_trace_leaves_out_the_time_spent_waiting_for_a_person(monkeypatch):
    import time

    real, waited = time.perf_counter, [0.0]
    monkeypatch.setattr(time, "perf_counter", lambda: real() + waited[0])  # a clock we can move forward
    bank = Bank()
    llm, _ = offline("responses", big_transfer())
    paused = llm.run("Send 500 to DE89", tools=[bank.transfer])
    paused.approve(paused.pending[0].id)
    waited[0] = 3600.0  # an hour before someone clicked
    result = llm.resume(paused)
    assert result.seconds < 60 and all(c.ended < 60 for c in result.trace.model_calls)
    assert bank.transfers == [("DE89", 500)]


def test_two_resumes_at_once_run_the_call_once():
    import threading

    bank = Bank()
    llm, _ = offline("responses", big_transfer())
    paused = llm.run("Send 500 to DE89", tools=[bank.transfer])
    paused.approve(paused.pending[0].id)
    start, outcomes = threading.Barrier(2), []

    def resume() -> None:
        start.wait()
        try:
            outcomes.append(llm.resume(paused).answer)
        except RuntimeError as exc:
            outcomes.append(str(exc))

    threads = [threading.Thread(target=resume) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(o == "Done." for o in outcomes) == [False, True]
    assert bank.transfers == [("DE89", 500)]


def test_the_listing_fits_the_notebook_width_and_keeps_long_arguments_whole(capsys):
    from conductor import display

    @cd.tool(requires_approval=True)
    def send_email(to: str, body: str) -> str:
        """Send an e-mail."""
        return "sent"

    body = " ".join(f"word{i}" for i in range(60))
    llm, _ = offline("responses", scripted([("send_email", {"to": "a@example.invalid", "body": body})], "ok"))
    cd.widgets.approval(llm.run("Mail it", tools=[send_email]), interactive=False)
    shown = capsys.readouterr().out
    assert all(display.width(line) <= display.LINE_WIDTH for line in shown.splitlines())
    assert " ".join(shown.split()).count("word59") == 1 and '"to": "a@example.invalid"' in shown


@pytest.mark.parametrize("answer", ["no", None, 1, "yes"])
def test_only_a_real_true_from_the_policy_approves(answer):
    bank = Bank()
    llm, _ = offline("responses", big_transfer())
    result = llm.run("Send 500 to DE89", tools=[bank.transfer], approve=lambda call: answer)
    assert bank.transfers == [] and result.tool_calls[0].blocked == "denied"


def test_an_async_policy_is_refused_with_the_fix():
    async def policy(call):
        return True

    llm, _ = offline("responses", big_transfer())
    with pytest.raises(TypeError, match="not async"):
        llm.run("Send 500 to DE89", tools=[Bank().transfer], approve=policy)
