"""The approval widget (lesson 04) respects the click: what the person decided is what the resume does.

The buttons are driven programmatically (``Button.click()`` runs the click handlers
without a frontend); the tool is a counting bank transfer, so "ran" means money moved.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from scripted import Bank, offline, scripted
from wire import APIS, results_by_id

import conductor as cd
from conductor.widgets import UNDECIDED, UNDECIDED_AT_RESUME

pytest.importorskip("ipywidgets")

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "04_tool_validation.ipynb"


def paused_transfers(api: str = "responses", *amounts: float):
    """A run paused on one transfer per amount (to accounts A0, A1, ...), its llm, model and bank."""
    bank = Bank()
    calls = [("transfer", {"to": f"A{i}", "amount": amount}) for i, amount in enumerate(amounts or (5000,))]
    llm, model = offline(api, scripted(calls, "Done."))
    paused = llm.run("Send the money", tools=[bank.transfer])
    assert paused.stopped_by == "approval" and len(paused.pending) == len(calls)
    return llm, model, bank, paused


def controls(panel, position: int = 0):
    """The approve and deny buttons, the reason box and the status label of one pending call's row."""
    shown, buttons, status = panel.children[1 + position].children
    approve, deny, reason = buttons.children
    return SimpleNamespace(shown=shown, approve=approve, deny=deny, reason=reason, status=status)


class FakeShell:
    """Just enough of IPython's shell for the panel: the real event manager, triggered by hand."""

    def __init__(self) -> None:
        from IPython.core.events import EventManager, available_events

        self.events = EventManager(self, available_events)

    def run_cell(self, code) -> object:  # a cell: run it, then IPython's post_run_cell event
        value = code()
        self.events.trigger("post_run_cell", None)
        return value


@pytest.fixture
def shell(monkeypatch: pytest.MonkeyPatch) -> FakeShell:
    import IPython

    fake = FakeShell()
    monkeypatch.setattr(IPython, "get_ipython", lambda: fake)
    return fake


@pytest.mark.parametrize("api", APIS)
def test_a_deny_click_means_the_resume_does_not_run_the_call_and_the_model_hears_why(api):
    llm, model, bank, paused = paused_transfers(api, 5000)
    panel = cd.widgets.approval(paused, interactive=True)
    row = controls(panel)
    row.reason.value = "  not the account the user named "
    row.deny.click()
    assert cd.widgets.approval_decisions(paused) == {paused.pending[0].id: "denied: not the account the user named"}
    result = llm.resume(paused)
    assert bank.transfers == []
    record = result.tool_calls[0]
    assert record.blocked == "denied" and record.is_error
    told = results_by_id(model.requests[-1].body)[paused.pending[0].id]
    assert "did not approve" in told and "not the account the user named" in told


def test_a_call_nobody_decided_stays_undecided_and_is_denied_at_resume():
    llm, model, bank, paused = paused_transfers("responses", 5000)
    panel = cd.widgets.approval(paused, interactive=True)
    row = controls(panel)
    assert row.status.value == UNDECIDED
    assert cd.widgets.approval_decisions(paused) == {paused.pending[0].id: UNDECIDED}
    assert paused.paused.decisions == {}  # showing the panel decides nothing
    result = llm.resume(paused)
    assert bank.transfers == [] and result.tool_calls[0].blocked == "denied"
    assert "did not approve" in results_by_id(model.requests[-1].body)[paused.pending[0].id]
    assert cd.widgets.approval_decisions(paused) == {paused.pending[0].id: UNDECIDED_AT_RESUME}


def test_an_approve_click_runs_the_call_once_with_its_exact_arguments():
    llm, _, bank, paused = paused_transfers("chat", 5000)
    panel = cd.widgets.approval(paused, interactive=True)
    row = controls(panel)
    assert "&quot;amount&quot;: 5000" in row.shown.value
    row.approve.click()
    assert bank.transfers == []  # a click decides; nothing runs before the resume
    assert row.status.value.startswith("approved") and "llm.resume(result)" in row.status.value
    result = llm.resume(paused)
    assert bank.transfers == [("A0", 5000)]
    assert result.tool_calls[0].blocked is None and result.answer == "Done."


def test_each_row_decides_its_own_call_and_the_last_click_counts():
    llm, model, bank, paused = paused_transfers("messages", 800, 5000, 900)
    panel = cd.widgets.approval(paused, interactive=True)
    rent, attacker, undecided = (controls(panel, i) for i in range(3))
    rent.approve.click()
    attacker.approve.click()
    attacker.reason.value = "the invoice asked for it, not the user"
    attacker.deny.click()  # a change of mind before the resume: the denial stands
    result = llm.resume(paused)
    assert bank.transfers == [("A0", 800)]
    blocked = {r.id: r.blocked for r in result.tool_calls}
    ids = [call.id for call in paused.pending]
    assert blocked == {ids[0]: None, ids[1]: "denied", ids[2]: "denied"}
    told = results_by_id(model.requests[-1].body)
    assert "the invoice asked for it" in told[ids[1]] and "did not approve" in told[ids[2]]
    assert undecided.status.value == UNDECIDED  # nothing refreshed the panel: no IPython here


def test_after_the_cell_that_resumes_the_panel_shows_each_decision_and_its_buttons_are_off(shell):
    llm, _, bank, paused = paused_transfers("responses", 800, 5000, 900)
    panel = shell.run_cell(lambda: cd.widgets.approval(paused, interactive=True))
    rows = [controls(panel, i) for i in range(3)]
    rows[0].approve.click()
    rows[1].reason.value = "not today"
    rows[1].deny.click()
    assert not any(c.disabled for row in rows for c in (row.approve, row.deny, row.reason))
    shell.run_cell(lambda: llm.resume(paused))  # the learner's next cell
    assert bank.transfers == [("A0", 800)]
    statuses = [row.status.value for row in rows]
    assert statuses[0].startswith("approved;")
    assert statuses[1].startswith("denied: not today;")
    assert statuses[2].startswith(UNDECIDED_AT_RESUME + ";")
    assert all("already resumed" in s for s in statuses)
    assert all(c.disabled for row in rows for c in (row.approve, row.deny, row.reason))
    assert shell.events.callbacks["post_run_cell"] == []  # done watching
    rows[2].approve.click()  # a click that still arrives changes nothing
    assert bank.transfers == [("A0", 800)] and rows[2].status.value == statuses[2]


def test_panel_resume_refreshes_the_panel_without_ipython():
    llm, _, bank, paused = paused_transfers("responses", 5000)
    panel = cd.widgets.approval(paused, interactive=True)
    row = controls(panel)
    result = panel.resume(llm)
    assert bank.transfers == [] and result.tool_calls[0].blocked == "denied"
    assert row.status.value.startswith(UNDECIDED_AT_RESUME) and row.approve.disabled and row.deny.disabled


def test_a_decision_made_in_code_shows_on_the_panel_after_that_cell(shell):
    _, _, _, paused = paused_transfers("responses", 5000)
    panel = cd.widgets.approval(paused, interactive=True)
    row = controls(panel)
    shell.run_cell(lambda: paused.reject(paused.pending[0].id, reason="checked by phone: not ours"))
    assert row.status.value.startswith("denied: checked by phone: not ours")
    assert not row.approve.disabled  # not resumed yet: the person may still change it


def test_headless_the_listing_says_what_is_decided_so_far(capsys):
    _, _, _, paused = paused_transfers("responses", 800, 5000)
    first, second = (call.id for call in paused.pending)
    assert cd.widgets.approval(paused, interactive=False) is None
    shown = capsys.readouterr().out
    assert shown.count(f"decision: {UNDECIDED}") == 2
    paused.reject(second, reason="unknown account")
    cd.widgets.approval(paused, interactive=False)
    shown = capsys.readouterr().out
    assert f"decision: {UNDECIDED}" in shown.split(second)[0].split(first)[1]
    assert "decision: denied: unknown account" in shown.split(second)[1]


def test_lesson_04_acts_on_the_decision_and_never_approves_every_pending_call():
    cells = ["".join(c["source"]) for c in json.loads(NOTEBOOK.read_text())["cells"] if c["cell_type"] == "code"]
    (at,) = [i for i, source in enumerate(cells) if "cd.widgets.approval(" in source]
    after = cells[at + 1]
    assert "llm.resume(paused)" in after and ".approve(" not in after
    approve_all = re.compile(r"for (\w+) in (\w+)\.pending:[^\n]*\n\s+\2\.approve\(\1\.id")
    assert not [source for source in cells if approve_all.search(source)]


def test_with_a_frontend_an_undecided_call_is_not_resumed_until_the_click(monkeypatch, capsys):
    _, _, _, paused = paused_transfers("responses", 5000)
    monkeypatch.setenv("CONDUCTOR_WIDGETS", "interactive")  # JupyterLab or Colab: someone can click
    assert not cd.widgets.decided(paused)  # Run All reached the resume cell first
    assert "still undecided" in capsys.readouterr().out and not paused.paused.resumed
    paused.approve(paused.pending[0].id)  # the click
    assert cd.widgets.decided(paused)
    monkeypatch.setenv("CONDUCTOR_WIDGETS", "static")  # headless: nobody to click, resume as decided
    *_, undecided = paused_transfers("responses", 5000)
    assert cd.widgets.decided(undecided)


def test_lesson_04_resumes_only_once_the_calls_are_decided():
    cells = ["".join(c["source"]) for c in json.loads(NOTEBOOK.read_text())["cells"] if c["cell_type"] == "code"]
    (at,) = [i for i, source in enumerate(cells) if "cd.widgets.approval(" in source]
    assert cells[at + 1].startswith("if cd.widgets.decided(paused):")
