"""conductor.course.cost: the measured course usage, the recording hook, and the cost estimate per default model."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from datetime import date
from pathlib import Path

import genai_prices
import nbformat
import pytest

import conductor as cd
from conductor.__main__ import main
from conductor.course import cost, runner
from conductor.offline.model import USAGE_LOG
from conductor.providers import DEFAULT_MODELS
from conductor.course.scenarios import get_weather

ROOT = Path(__file__).resolve().parent.parent
KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}


def test_the_usage_file_lists_every_course_notebook() -> None:
    usage = cost.load_usage()
    on_disk = sorted(
        path.relative_to(ROOT).as_posix()
        for folder in runner.NOTEBOOK_DIRS
        for path in (ROOT / folder).glob("*.ipynb")
    )
    assert sorted(n.notebook for n in usage.notebooks) == on_disk
    assert all(n.requests > 0 and n.input_tokens > 0 and n.output_tokens > 0 for n in usage.notebooks)
    assert usage.command == "python -m conductor course --save-usage"
    date.fromisoformat(usage.measured)


@pytest.mark.parametrize(("provider", "api"), cost.DEFAULT_CONNECTIONS)
def test_estimate_prices_the_saved_totals_from_the_price_table(provider: str, api: str) -> None:
    usage = cost.load_usage()
    total = usage.total
    assert total.requests == sum(n.requests for n in usage.notebooks)
    assert total.input_tokens == sum(n.input_tokens for n in usage.notebooks)
    assert total.output_tokens == sum(n.output_tokens for n in usage.notebooks)
    row = next(r for r in cost.estimate(usage) if (r.provider, r.api) == (provider, api))
    assert row.model == DEFAULT_MODELS[api]
    assert (row.input_tokens, row.cached_input_tokens, row.output_tokens) == (
        total.input_tokens,
        total.cached_input_tokens,
        total.output_tokens,
    )
    assert total.batched_requests > 0  # lesson 05 sends batches
    # The price table itself, asked directly: the course's requests are far below any long-prompt tier.
    direct = genai_prices.calc_price(
        genai_prices.Usage(
            input_tokens=total.input_tokens - total.batched_input_tokens,
            cache_read_tokens=total.cached_input_tokens,
            output_tokens=total.output_tokens - total.batched_output_tokens,
        ),
        model_ref=row.model,
        provider_id=provider,
    ).total_price
    batched = genai_prices.calc_price(
        genai_prices.Usage(input_tokens=total.batched_input_tokens, output_tokens=total.batched_output_tokens),
        model_ref=row.model,
        provider_id=provider,
    ).total_price
    # Both providers bill a batch's lines at half the direct rate (OpenAI Batch API, Anthropic Message Batches).
    assert row.dollars == pytest.approx(float(direct) + float(batched) / 2, rel=1e-9)


def test_estimate_counts_cached_tokens_at_the_cache_rate() -> None:
    usage = cost.CourseUsage("2026-01-01", "test", (cost.NotebookUsage("a.ipynb", 2, 1_000_000, 400_000, 10_000),))
    row = next(r for r in cost.estimate(usage) if r.api == "chat")
    expected = genai_prices.calc_price(
        genai_prices.Usage(input_tokens=1_000_000, cache_read_tokens=400_000, output_tokens=10_000),
        model_ref="gpt-4.1-mini",
        provider_id="openai",
    ).total_price
    assert row.dollars == pytest.approx(float(expected), rel=1e-9)


def test_batch_lines_are_logged_as_such_and_priced_at_the_batch_rate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio

    log = tmp_path / "usage.jsonl"
    monkeypatch.setenv(USAGE_LOG, str(log))
    llm = cd.connect("offline", api="chat", latency_scale=0, asynchronous=True)
    results = asyncio.run(cd.Orchestrator(llm, tools=[get_weather]).run_many(
        ["北京今天天气怎么样?", "Hello!"], via="batch", state_dir=tmp_path / "runs", progress=False, poll_interval=0.01))
    asyncio.run(llm.arun("Hello!"))  # a direct request beside them
    totals = cost.read_log(log, "x.ipynb")
    batched = sum(r.api_calls for r in results)
    assert totals.requests == batched + 1 and totals.batched_requests == batched == 3
    assert totals.batched_input_tokens == sum(r.usage.input_tokens for r in results)
    assert totals.batched_output_tokens == sum(r.usage.output_tokens for r in results)

    half = cost.NotebookUsage("a.ipynb", 2, 2_000, 0, 200, 1, 1_000, 100)  # one line of each kind, alike
    row = next(r for r in cost.estimate(cost.CourseUsage("2026-01-01", "test", (half,))) if r.api == "chat")
    direct = next(r for r in cost.estimate(cost.CourseUsage("2026-01-01", "test", (
        cost.NotebookUsage("a.ipynb", 1, 1_000, 0, 100),))) if r.api == "chat")
    assert row.dollars == pytest.approx(1.5 * direct.dollars, rel=1e-9)  # the batch line costs half


def test_an_unpriced_model_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(DEFAULT_MODELS, "chat", "no-such-model-anywhere")
    with pytest.raises(cd.UnpricedModelError, match="no-such-model-anywhere"):
        cost.estimate(cost.load_usage())


def test_the_hook_writes_a_line_per_response(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "usage.jsonl"
    monkeypatch.setenv(USAGE_LOG, str(log))
    for api in ("responses", "chat", "messages"):
        result = cd.connect("offline", api=api, latency_scale=0).run("北京今天天气怎么样?", tools=[get_weather])
        lines = [json.loads(line) for line in log.read_text().splitlines()]
        assert len(lines) == result.api_calls == 2
        assert {line["api"] for line in lines} == {api}
        assert sum(line["input_tokens"] for line in lines) == result.usage.input_tokens
        assert sum(line["output_tokens"] for line in lines) == result.usage.output_tokens
        assert sum(line["cached_input_tokens"] for line in lines) == result.usage.cache_read_tokens == 0
        totals = cost.read_log(log, "x.ipynb")
        assert (totals.requests, totals.input_tokens, totals.output_tokens) == (
            2,
            result.usage.input_tokens,
            result.usage.output_tokens,
        )
        log.unlink()


def test_no_variable_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(USAGE_LOG, raising=False)
    monkeypatch.chdir(tmp_path)
    cd.connect("offline", latency_scale=0).run("北京今天天气怎么样?", tools=[get_weather])
    assert list(tmp_path.iterdir()) == []
    assert cost.read_log(tmp_path / "absent.jsonl", "x.ipynb") == cost.NotebookUsage("x.ipynb")


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    notebooks = (
        cost.NotebookUsage("notebooks/a.ipynb", 3, 300, 0, 30),
        cost.NotebookUsage("demos/b.ipynb", 1, 50, 10, 5),
    )
    path = tmp_path / "usage.json"
    saved = cost.save_usage(notebooks, command="cmd", path=path, today=date(2026, 1, 2))
    loaded = cost.load_usage(path)
    assert loaded == saved == cost.CourseUsage("2026-01-02", "cmd", notebooks)
    assert loaded.total == cost.NotebookUsage("total", 4, 350, 10, 35)
    assert "demos/b.ipynb" in cost.format_usage(loaded).splitlines()[3]


def test_the_runner_records_each_notebooks_requests(tmp_path: Path) -> None:
    path = tmp_path / "notebooks" / "01_ask.ipynb"
    path.parent.mkdir()
    source = (
        "import conductor as cd\nfrom conductor.course.scenarios import get_weather\n"
        "cd.connect('offline', latency_scale=0).run('北京今天天气怎么样?', tools=[get_weather])"
    )
    cells = [nbformat.v4.new_code_cell(source)]
    nbformat.write(nbformat.v4.new_notebook(cells=cells, metadata={"kernelspec": KERNELSPEC}), path)
    notebook = runner.Notebook(path, "notebooks/01_ask.ipynb", frozenset())
    result = runner.execute(notebook, {}, tmp_path / "out.ipynb", usage_log=tmp_path / "usage.jsonl")
    assert result.ok, result.failure
    assert result.usage is not None and result.usage.notebook == "notebooks/01_ask.ipynb"
    assert result.usage.requests == 2 and result.usage.input_tokens > 0 and result.usage.output_tokens > 0


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_cost_command_prints_one_row_per_default_model() -> None:
    code, stdout, _ = run("cost")
    assert code == 0
    for row in cost.estimate():
        line = next(line for line in stdout.splitlines() if row.model in line)
        assert line.endswith(f"{row.dollars:.2f}")
    assert 'cd.connect("openai", api="chat")' in stdout
    assert "genai-prices" in stdout


def test_save_usage_refuses_a_partial_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    code, stdout, stderr = run("course", "--save-usage", "--only", "00")
    assert code == 2 and stdout == ""
    assert "--save-usage" in stderr and "--only" in stderr
