"""The retry explorer: its figures, the static fallback headless, the live widget with a frontend."""

from __future__ import annotations

import io
from contextlib import redirect_stdout

import pytest
from matplotlib.figure import Figure

from conductor import widgets
from conductor.backoff import schedule
from conductor.widgets import expected_waits, has_frontend, retry_explorer, retry_outcome


def test_one_attempt_succeeds_as_often_as_the_tool_and_waits_for_nothing() -> None:
    outcome = retry_outcome(0.3, 1, base=0.5, call_seconds=0.2)
    assert outcome.success_rate == pytest.approx(0.7)
    assert outcome.expected_latency == pytest.approx(0.2) and outcome.give_up_latency == pytest.approx(0.2)


def test_three_attempts_at_30_percent() -> None:
    outcome = retry_outcome(0.3, 3, base=0.5, jitter="none", call_seconds=0.2)
    assert outcome.success_rate == pytest.approx(1 - 0.3**3)  # 97.3 %
    # the 2nd attempt (after 0.5 s) happens 30 % of the time, the 3rd (after 1 s more) 9 %
    assert outcome.expected_latency == pytest.approx(0.2 + 0.3 * (0.5 + 0.2) + 0.09 * (1.0 + 0.2))
    assert outcome.give_up_latency == pytest.approx(3 * 0.2 + 0.5 + 1.0)


def test_more_attempts_buy_success_and_cost_time() -> None:
    rates = [retry_outcome(0.3, n, 0.5) for n in range(1, 7)]
    assert all(a.success_rate < b.success_rate for a, b in zip(rates, rates[1:]))
    assert all(a.expected_latency < b.expected_latency for a, b in zip(rates, rates[1:]))


def test_no_failures_need_no_retries_and_certain_failure_never_succeeds() -> None:
    assert retry_outcome(0.0, 5, 1.0).expected_latency == pytest.approx(0.2)
    assert retry_outcome(1.0, 5, 1.0).success_rate == 0


def test_expected_waits_match_each_jitter_on_average() -> None:
    e = schedule("none", 4, base=0.5, cap=8.0)
    assert expected_waits("none", 4, base=0.5, cap=8.0) == e
    assert expected_waits("full", 4, base=0.5, cap=8.0) == pytest.approx([x / 2 for x in e])
    assert expected_waits("equal", 4, base=0.5, cap=8.0) == pytest.approx([x * 3 / 4 for x in e])
    decorrelated = expected_waits("decorrelated", 3, base=0.5, cap=8.0)
    assert decorrelated[0] == pytest.approx(1.0, abs=0.03)  # uniform(0.5, 1.5)
    assert decorrelated == expected_waits("decorrelated", 3, base=0.5, cap=8.0)  # seeded: the same each time
    assert expected_waits("decorrelated", 0, base=0.5, cap=8.0) == []


@pytest.mark.parametrize(
    ("args", "fix"),
    [((1.5, 3, 0.5), "probability from 0 to 1"), ((0.3, 0, 0.5), "counts the first try"), ((0.3, 2, 0.5, "x"), "choose")],
)
def test_bad_settings_name_the_fix(args: tuple, fix: str) -> None:
    with pytest.raises(ValueError, match=fix):
        retry_outcome(*args)


def test_headless_it_prints_the_figures_and_returns_a_static_figure() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        figure = retry_explorer(0.3, 3, 0.5, interactive=False)
    assert isinstance(figure, Figure) and len(figure.axes) == 2
    assert "97.3% succeed" in out.getvalue()
    assert len(figure.axes[1].get_legend().get_texts()) == 4  # one line per jitter


def test_with_a_frontend_it_returns_sliders_that_redraw(capsys: pytest.CaptureFixture[str]) -> None:
    ipywidgets = pytest.importorskip("ipywidgets")
    box = retry_explorer(interactive=True)
    assert isinstance(box, ipywidgets.VBox)
    sliders = {c.description: c for row in box.children[:2] for c in row.children}
    assert sliders["attempts"].value == 3 and sliders["jitter"].value == "full"
    assert set(sliders["jitter"].options) == {"full", "equal", "decorrelated", "none"}
    capsys.readouterr()
    sliders["attempts"].value = 5  # the output redraws for the new value (outside a kernel, on stdout)
    assert "5 attempt(s) at 30% failure" in capsys.readouterr().out


def test_frontend_guess(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CONDUCTOR_WIDGETS", "interactive")
    assert has_frontend()
    monkeypatch.setenv("CONDUCTOR_WIDGETS", "static")
    assert not has_frontend()
    monkeypatch.delenv("CONDUCTOR_WIDGETS")
    monkeypatch.setenv("JPY_SESSION_NAME", "03_retry_fallback.ipynb")
    monkeypatch.delitem(__import__("sys").modules, "ipykernel", raising=False)
    assert not has_frontend()  # not in a kernel: nothing draws widgets


def test_functions_are_independent_names_of_the_module() -> None:
    assert {"retry_explorer", "retry_outcome", "has_frontend"} <= set(widgets.__all__)
