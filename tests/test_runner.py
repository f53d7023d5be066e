"""The headless course runner (``python -m conductor course``) and the nbval sanitize rules.

The runner tests build a throwaway course in a temporary folder: one notebook
that prints its parameters and one that fails in cell 2. The whole course is
executed once per module (two kernel starts); the other tests check input
validation, which fails before any kernel starts.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import types
from collections import OrderedDict
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import nbformat
import pytest
from nbval.plugin import get_sanitize_patterns

import conductor
from conductor import colab, runner
from conductor.__main__ import main

SANITIZE_FILE = Path(__file__).parent / "sanitize.cfg"
KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}


def write_notebook(path: Path, sources: list[str], parameters: str | None = None, title: str | None = None) -> None:
    """Write a notebook of code cells, after an optional markdown ``title`` and ``parameters`` cell."""
    cells = [nbformat.v4.new_code_cell(source) for source in sources]
    if parameters is not None:
        cells.insert(0, nbformat.v4.new_code_cell(parameters, metadata={"tags": ["parameters"]}))
    if title is not None:
        cells.insert(0, nbformat.v4.new_markdown_cell(title))
    notebook = nbformat.v4.new_notebook(cells=cells, metadata={"kernelspec": KERNELSPEC})
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, path)


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A two-notebook course: 01_params prints its parameters, demos/02_broken fails in cell 2.

    Both define ``greeting``, so the failing notebook gets an injected cell, right
    before the failing one, that the reported cell index must not count.
    """
    root = tmp_path_factory.mktemp("course")
    write_notebook(
        root / "notebooks" / "01_params.ipynb",
        ["print(f'provider={provider} greeting={greeting} rounds={rounds!r} {type(rounds).__name__}')",
         "import os\nprint(os.getcwd())"],
        parameters="provider = 'offline'\ngreeting = 'hi'\nrounds = 1",
    )
    write_notebook(
        root / "demos" / "02_broken.ipynb",
        ["import math\n\nraise ValueError('the tool chain broke')\nprint('never printed')"],
        parameters="seed = 0\ngreeting = 'hi'",
        title="# A broken demo",
    )
    return root


def run_cli(root: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str, str]:
    """Run ``python -m conductor course ARGS`` in ``root``; return exit code, stdout, stderr."""
    monkeypatch.chdir(root)
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main(["course", *args])
        except SystemExit as exc:  # argparse rejects bad choices by exiting
            code = exc.code
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def course_run(course: Path) -> tuple[int, str]:
    """Run the whole course once, with ``--provider`` and two ``-p`` parameters."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        code, stdout, _ = run_cli(
            course, monkeypatch, "--provider", "anthropic", "-p", "greeting", "hello there", "-p", "rounds", "3"
        )
    return code, stdout


def output_text(notebook: Path) -> str:
    cells = nbformat.read(notebook, as_version=4).cells
    return "".join(out.get("text", "") for cell in cells if cell.cell_type == "code" for out in cell.outputs)


def test_a_failing_notebook_exits_non_zero_and_names_the_cell(course_run: tuple[int, str]) -> None:
    code, stdout = course_run
    assert code == 1
    failure = next(line for line in stdout.splitlines() if line.startswith("FAILED"))
    assert "demos/02_broken.ipynb" in failure
    assert "cell 2, line 3 (`raise ValueError('the tool chain broke')`)" in failure  # the line, not `import math`
    assert "ValueError: the tool chain broke" in failure


def test_summary_table_lists_every_notebook_with_its_status(course_run: tuple[int, str]) -> None:
    _, stdout = course_run
    rows = {line.split()[0]: line.split()[1:] for line in stdout.splitlines() if line.endswith(tuple("0123456789"))}
    assert rows["notebooks/01_params.ipynb"][0] == "ok"
    assert rows["demos/02_broken.ipynb"][0] == "FAILED"
    assert float(rows["demos/02_broken.ipynb"][1]) >= 0


def test_notebooks_run_side_by_side_each_in_its_own_kernel_and_report_in_order(tmp_path: Path) -> None:
    # Each notebook notes when it ran and what its kernel was given; the first waits longer than the second.
    for name, wait in (("01_slow", 1.0), ("02_quick", 0.2)):
        write_notebook(tmp_path / "notebooks" / f"{name}.ipynb", [
            "import json, os, time\nstart = time.time()\n"
            f"time.sleep({wait})\n"
            f"json.dump({{'start': start, 'end': time.time(), 'log': os.environ.get('CONDUCTOR_USAGE_LOG'), "
            f"'widgets': os.environ.get('CONDUCTOR_WIDGETS')}}, open({str(tmp_path / name)!r}, 'w'))",
        ])
    stream = io.StringIO()
    report = runner.run_course(tmp_path, stream=stream, jobs=2)
    assert [r.notebook.name for r in report.results] == ["notebooks/01_slow.ipynb", "notebooks/02_quick.ipynb"]
    lines = [line for line in stream.getvalue().splitlines() if line.startswith("[")]
    assert [line.split(":")[0] for line in lines] == ["[1/2] notebooks/01_slow.ipynb", "[2/2] notebooks/02_quick.ipynb"]
    slow, quick = (json.loads((tmp_path / name).read_text()) for name in ("01_slow", "02_quick"))
    assert quick["start"] < slow["end"] and slow["start"] < quick["end"]  # they ran at the same time
    assert slow["log"] != quick["log"] and slow["widgets"] == quick["widgets"] == "static"
    assert "CONDUCTOR_USAGE_LOG" not in os.environ
    with pytest.raises(runner.CourseError, match="jobs must be"):
        runner.run_course(tmp_path, stream=stream, jobs=0)


def test_parameters_reach_the_notebook_with_papermill_types(course: Path, course_run: tuple[int, str]) -> None:
    text = output_text(course / "build" / "notebooks" / "01_params.ipynb")
    assert "provider=anthropic greeting=hello there rounds=3 int" in text


def test_each_notebook_runs_in_its_own_folder(course: Path, course_run: tuple[int, str]) -> None:
    text = output_text(course / "build" / "notebooks" / "01_params.ipynb")
    assert str(course / "notebooks") in text


def test_parameters_go_only_to_notebooks_that_define_them(course: Path, course_run: tuple[int, str]) -> None:
    cells = nbformat.read(course / "build" / "demos" / "02_broken.ipynb", as_version=4).cells
    injected = [cell.source for cell in cells if "injected-parameters" in cell.metadata.get("tags", [])]
    assert len(injected) == 1
    assert "greeting = " in injected[0]
    assert "rounds" not in injected[0] and "provider" not in injected[0]


def test_unknown_parameter_lists_the_valid_ones_per_notebook(course: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, stdout, stderr = run_cli(course, monkeypatch, "-p", "max_round", "3")
    assert code == 2
    assert "'max_round'" in stderr
    assert "notebooks/01_params.ipynb: greeting, provider, rounds" in stderr
    assert "demos/02_broken.ipynb: greeting, seed" in stderr
    assert stdout == ""


def test_unknown_pattern_lists_the_notebooks(course: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, stderr = run_cli(course, monkeypatch, "--only", "99_missing")
    assert code == 2
    assert "'99_missing'" in stderr
    assert "notebooks/01_params.ipynb" in stderr and "demos/02_broken.ipynb" in stderr


def test_unknown_provider_lists_the_valid_ones(course: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, stderr = run_cli(course, monkeypatch, "--provider", "gemini")
    assert code == 2
    assert all(name in stderr for name in runner.PROVIDERS)
    code, _, stderr = run_cli(course, monkeypatch, "-p", "provider", "gemini")
    assert code == 2
    assert "'gemini'" in stderr and all(name in stderr for name in runner.PROVIDERS)


def test_missing_papermill_names_the_install_command(course: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(__import__("sys").modules, "papermill", None)
    code, _, stderr = run_cli(course, monkeypatch)
    assert code == 2
    assert "papermill" in stderr and "pip install -r requirements.txt" in stderr


def test_only_selects_by_substring_or_glob(course: Path) -> None:
    notebooks = runner.discover_notebooks(course)
    assert [nb.name for nb in runner.select_notebooks(notebooks, ["params"])] == ["notebooks/01_params.ipynb"]
    assert [nb.name for nb in runner.select_notebooks(notebooks, ["demos/*"])] == ["demos/02_broken.ipynb"]
    assert [nb.name for nb in runner.select_notebooks(notebooks, ["0*.ipynb"])] == [nb.name for nb in notebooks]


@pytest.mark.parametrize(
    ("text", "value"),
    [("3", 3), ("3.5", 3.5), ("True", True), ("False", False), ("None", None), ("gpt-4.1-mini", "gpt-4.1-mini")],
)
def test_parameter_values_convert_like_papermill(text: str, value: object) -> None:
    converted = runner.parse_value(text)
    assert converted == value and type(converted) is type(value)


def sanitize(text: str) -> str:
    """Apply tests/sanitize.cfg the way nbval does: its own parser, patterns in file order."""
    patterns = OrderedDict(get_sanitize_patterns(SANITIZE_FILE.read_text(encoding="utf-8")))
    for regex, replace in patterns.items():
        text = re.sub(regex, replace, text)
    return text


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("round 1: model 0.312s, tools 1.2 ms", "round 1: model 12.5s, tools 0.9 ms"),
        ("| parallel |  0.105 s |", "| parallel | 10.250 s |"),
        ("speedup 2.91x", "speedup 3.4x"),
        ("<Client at 0x7f3a2c1b9d60>", "<Client at 0x7f00aa11bb22>"),
        ("2026-11-03 14:02:11,512 WARNING retry", "2026-11-04T09:15:00.003Z WARNING retry"),
    ],
)
def test_sanitize_turns_measurements_into_stable_tokens(first: str, second: str) -> None:
    assert sanitize(first) == sanitize(second)
    assert sanitize(first) != first


@pytest.mark.parametrize(
    "text",
    ["<Figure size 640x480 with 1 Axes>", "3 sources", "3 x 4 = 12", "max_rounds=2", "cost $0.0022"],
)
def test_sanitize_leaves_deterministic_output_alone(text: str) -> None:
    assert sanitize(text) == text


def test_refresh_saves_outputs_in_place_without_run_metadata(tmp_path: Path) -> None:
    write_notebook(
        tmp_path / "notebooks" / "01_echo.ipynb",
        ["print('one')\nprint('two')", "1 + 1"],
        parameters="provider = 'offline'",
    )
    broken = tmp_path / "notebooks" / "02_broken.ipynb"
    write_notebook(broken, ["raise RuntimeError('no')"])
    before = broken.read_text()
    report = runner.refresh_notebooks(tmp_path, stream=io.StringIO())
    assert [r.ok for r in report.results] == [True, False] and report.exit_code == 1
    assert broken.read_text() == before, "a failing notebook is left as it was"
    nb = nbformat.read(tmp_path / "notebooks" / "01_echo.ipynb", as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert [c.execution_count for c in code] == [1, 2, 3, 4]
    assert code[0].source == colab.bootstrap_source() and code[0].outputs == [], "outside Colab it prints nothing"
    assert code[1].metadata["tags"] == ["parameters"]
    assert [o["text"] for o in code[2].outputs] == ["one\ntwo\n"], "consecutive prints are one output"
    assert code[3].outputs[0]["data"]["text/plain"] == "2"
    assert "papermill" not in nb.metadata
    assert all("papermill" not in c.metadata and "execution" not in c.metadata for c in nb.cells)
    nbformat.validate(nb)


OLD_BOOTSTRAP = """import subprocess
import sys

if "google.colab" in sys.modules:
    subprocess.run([sys.executable, "-m", "pip", "install", "git+https://github.com/someone/conductor"], check=True)"""


def notebook_of(*cells: nbformat.NotebookNode) -> nbformat.NotebookNode:
    return nbformat.v4.new_notebook(cells=list(cells))


def test_bootstrap_replaces_an_outdated_bootstrap_cell_and_keeps_the_rest() -> None:
    nb = notebook_of(
        nbformat.v4.new_markdown_cell("# Lesson"),
        nbformat.v4.new_code_cell(OLD_BOOTSTRAP),
        nbformat.v4.new_code_cell("provider = 'offline'", metadata={"tags": ["parameters"]}),
    )
    assert colab.apply_bootstrap(nb)
    assert [c.source for c in nb.cells] == ["# Lesson", colab.bootstrap_source(), "provider = 'offline'"]
    assert not colab.apply_bootstrap(nb), "a notebook with the current bootstrap is left alone"


def test_bootstrap_goes_before_a_first_cell_that_is_not_one() -> None:
    parameters = nbformat.v4.new_code_cell("provider = 'offline'", metadata={"tags": ["parameters"]})
    nb = notebook_of(nbformat.v4.new_markdown_cell("# Lesson"), parameters)
    assert colab.apply_bootstrap(nb)
    assert [c.source for c in nb.cells] == ["# Lesson", colab.bootstrap_source(), "provider = 'offline'"]
    nbformat.validate(nb)


def test_bootstrap_installs_this_version_from_github_only_inside_colab(monkeypatch: pytest.MonkeyPatch) -> None:
    installs: list[list[str]] = []
    monkeypatch.setattr(subprocess, "run", lambda command, check: installs.append(command))
    exec(colab.bootstrap_source(), {})
    assert installs == [], "outside Colab the cell installs nothing"
    monkeypatch.setitem(sys.modules, "google.colab", types.ModuleType("google.colab"))
    exec(colab.bootstrap_source(), {})
    ((*pip, requirement),) = installs
    assert pip == [sys.executable, "-m", "pip", "install", "--quiet"]
    assert requirement == f"git+https://github.com/{colab.COURSE_REPO}@v{conductor.__version__}"


def test_a_progress_bar_is_saved_as_its_last_frame() -> None:
    outputs = [nbformat.v4.new_output("stream", name="stderr", text="bar:   0%| 0/2\rbar:  50%| 1/2"),
               nbformat.v4.new_output("stream", name="stderr", text="\rbar: 100%| 2/2\n"),
               nbformat.v4.new_output("stream", name="stdout", text="done\n")]
    merged = runner._merge_streams(outputs)
    assert [o["text"] for o in merged] == ["bar: 100%| 2/2\n", "done\n"]


def test_headless_progress_is_text_not_a_widget_saved_at_its_first_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    import tqdm
    import tqdm.notebook

    from conductor import display

    monkeypatch.setenv("CONDUCTOR_WIDGETS", "static")
    bar = display.progress_bar(3, "conversations", "conv")
    bar.close()
    assert isinstance(bar, tqdm.tqdm) and not isinstance(bar, tqdm.notebook.tqdm)


def test_notebooks_start_longest_first_by_their_recorded_seconds(tmp_path: Path) -> None:
    # One worker: the start order is the run order. 01 and 03 were measured, 02 never was (it starts first).
    for name in ("01_short", "02_new", "03_long"):
        write_notebook(tmp_path / "notebooks" / f"{name}.ipynb", [
            f"import time\nopen({str(tmp_path / 'order')!r}, 'a').write({name!r} + '\\n')",
        ])
    (tmp_path / runner.SECONDS_FILE).write_text(json.dumps(
        {"seconds": {"notebooks/01_short.ipynb": 2.0, "notebooks/03_long.ipynb": 60.0}}))
    stream = io.StringIO()
    report = runner.run_course(tmp_path, stream=stream, jobs=1)
    assert (tmp_path / "order").read_text().split() == ["02_new", "03_long", "01_short"]
    names = [f"notebooks/{name}.ipynb" for name in ("01_short", "02_new", "03_long")]
    assert [r.notebook.name for r in report.results] == names
    lines = [line.split(":")[0] for line in stream.getvalue().splitlines() if line.startswith("[")]
    assert lines == ["[1/3] notebooks/01_short.ipynb", "[2/3] notebooks/02_new.ipynb", "[3/3] notebooks/03_long.ipynb"]


def test_longest_first_keeps_the_course_order_for_ties_and_puts_unmeasured_notebooks_first() -> None:
    notebooks = [runner.Notebook(Path(name), name, frozenset()) for name in ("a", "b", "c", "d")]
    order = runner.longest_first(notebooks, {"a": 5.0, "b": 9.0, "d": 5.0})
    assert [nb.name for nb in order] == ["c", "b", "a", "d"]


def test_refresh_records_the_seconds_of_clean_notebooks_and_keeps_the_others(tmp_path: Path) -> None:
    write_notebook(tmp_path / "notebooks" / "01_echo.ipynb", ["print('one')"])
    write_notebook(tmp_path / "notebooks" / "02_broken.ipynb", ["raise RuntimeError('no')"])
    write_notebook(tmp_path / "demos" / "kept.ipynb", ["print('kept')"])
    recorded = {"demos/kept.ipynb": 7.5, "demos/removed.ipynb": 3.0, "notebooks/02_broken.ipynb": 4.0}
    (tmp_path / runner.SECONDS_FILE).write_text(json.dumps({"seconds": recorded}))
    report = runner.refresh_notebooks(tmp_path, only=["notebooks/"], stream=io.StringIO())
    assert runner.load_seconds(tmp_path) == {
        "demos/kept.ipynb": 7.5,  # not run this time
        "notebooks/01_echo.ipynb": round(report.results[0].seconds, 1),
        "notebooks/02_broken.ipynb": 4.0,  # it failed: its last clean time stays
    }


def test_an_unreadable_seconds_file_only_costs_the_order(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / runner.SECONDS_FILE).write_text("{not json")
    assert runner.load_seconds(tmp_path) == {}
    assert runner.SECONDS_FILE in caplog.text and "refresh rewrites it" in caplog.text


def test_the_recorded_seconds_name_every_course_notebook_and_no_other() -> None:
    root = Path(__file__).resolve().parent.parent
    names = {nb.name for nb in runner.discover_notebooks(root)}
    recorded = runner.load_seconds(root)
    assert set(recorded) == names, (
        f"{runner.SECONDS_FILE} is out of step with the notebooks (missing: {sorted(names - set(recorded))}, "
        f"stale: {sorted(set(recorded) - names)}): run `python -m conductor refresh --only NAME` for a new one"
    )
    assert all(value > 0 for value in recorded.values())


def test_pytest_starts_the_longest_notebooks_first_then_the_spread_tests_then_the_largest_modules() -> None:
    import conftest  # the project's own, loaded by pytest from the root
    from nbval.plugin import IPyNbFile

    notebook = object.__new__(IPyNbFile)  # only its type matters to the order
    recorded = runner.load_seconds(Path(conftest.__file__).parent)
    short, long = sorted(recorded, key=recorded.get)[0], max(recorded, key=recorded.get)
    items = [types.SimpleNamespace(nodeid=nodeid, parent=parent) for nodeid, parent in [
        ("tests/test_small.py::test_a", None),
        (f"{short}::Cell 0", notebook),
        ("tests/test_big.py::test_a", None), ("tests/test_big.py::test_b", None),
        (f"{conftest.SPREAD_MODULES[0]}::test_x", None),
        (f"{long}::Cell 0", notebook), (f"{long}::Cell 1", notebook),
        ("notebooks/99_new.ipynb::Cell 0", notebook),
    ]]
    order = conftest._start_order(items)
    items.sort(key=lambda item: order[item.nodeid])
    assert [item.nodeid for item in items] == [
        "notebooks/99_new.ipynb::Cell 0",  # never measured: it may be the longest
        f"{long}::Cell 0", f"{long}::Cell 1", f"{short}::Cell 0",
        f"{conftest.SPREAD_MODULES[0]}::test_x",
        "tests/test_big.py::test_a", "tests/test_big.py::test_b", "tests/test_small.py::test_a",
    ]


def test_the_runner_starts_without_building_jsonschemas_iri_grammar(course: Path) -> None:
    # A fresh process, as `python -m conductor course`: papermill and nbformat work, the 2 s grammar is not built.
    code = (
        "import sys\nfrom pathlib import Path\nfrom conductor.course import runner\n"
        f"names = [nb.name for nb in runner.discover_notebooks(Path({str(course)!r}))]\n"
        "import jsonschema\n"
        "checkers = jsonschema.Draft202012Validator.FORMAT_CHECKER.checkers\n"
        "print(names, 'rfc3987_syntax' in sys.modules, 'iri' in checkers)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["['notebooks/01_params.ipynb',", "'demos/02_broken.ipynb']", "False", "False"]


def test_the_course_runs_more_notebooks_at_a_time_than_refresh() -> None:
    # course: 6 at a time (the notebooks mostly wait); refresh: 4, since the outputs it commits hold timings.
    from conductor.__main__ import build_parser

    assert build_parser().parse_args(["course"]).jobs == runner.DEFAULT_JOBS == 6
    assert build_parser().parse_args(["refresh"]).jobs == runner.REFRESH_JOBS == 4
