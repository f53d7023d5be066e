"""Run the course headless: every notebook in ``notebooks/`` and ``demos/`` through papermill.

The runner finds the notebooks, reads each one's ``parameters`` cell with
``papermill.inspect_notebook``, checks the requested provider and parameters
against them, executes each notebook in-process with
``papermill.execute_notebook`` (a kernel start costs about 0.6 s in-process
against 2 s through the papermill command line), writes the executed copies
under the output folder, prints a line per notebook and a summary table.

Each notebook's kernel gets ``CONDUCTOR_USAGE_LOG`` naming a JSONL file of its own:
the offline model appends the usage of every answer it gives there, and the
runner adds the lines up into the notebook's :attr:`NotebookResult.usage`
(``python -m conductor course --save-usage`` saves them, see :mod:`.cost`).

Notebooks start longest first (:func:`longest_first`), by the seconds each took when last
measured (:data:`SECONDS_FILE`, written by ``refresh``), so the workers finish together
rather than one of them starting the longest lesson last; the report keeps the course's order.

Bad input (an unknown provider, parameter or notebook pattern, a missing
dependency) raises :class:`CourseError`, whose message lists the valid choices
or names the fix.
"""

from __future__ import annotations

import fnmatch
import importlib
import json
import logging
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, TextIO

from ..apis import API_ALIASES, API_NAMES
from ..providers import PROVIDERS  # the one list of providers (importing it loads no SDK)
from .cost import USAGE_LOG, NotebookUsage, read_log

NOTEBOOK_DIRS: tuple[str, ...] = ("notebooks", "demos")
"""Folders, relative to the project root, whose notebooks make up the course."""

DEFAULT_OUT = "build"
CELL_TIMEOUT = 600
"""Seconds one cell may run before the notebook counts as failed."""
DEFAULT_JOBS = 6
"""Notebooks ``course`` runs at a time: they mostly wait on the offline model's simulated latency, so three
times the two cores the README's Quickstart measures on (run alone, the notebooks wait about 60 % of their time;
with 4 at a time the cores were partly idle, 6 brings the course nearer the time its CPU needs)."""
REFRESH_JOBS = 4
"""Notebooks ``refresh`` runs at a time: fewer than ``course``, since the outputs it commits hold measured timings
that contention would stretch further."""

SECONDS_FILE = "course_seconds.json"
"""File, in the course root, of the seconds each notebook took when last executed (``refresh`` writes it): the
order in which notebooks start, longest first. A notebook it does not list starts first (it may be long)."""

KERNEL_NAME = "python3"

logger = logging.getLogger(__name__)
INSTALL_HINT = "pip install -r requirements.txt"


def _kernel_manager(env: Mapping[str, str], cwd: Path) -> type:
    """A kernel manager that starts the kernel in ``cwd`` with ``env`` and talks to it over local IPC sockets.

    Over TCP (the default) every kernel prints a warning about unencrypted traffic; local
    sockets are the transport that warning recommends. The folder and environment are the
    kernel's own, not this process's (papermill's ``cwd=`` changes the whole process's folder):
    notebooks run side by side, each in its folder, with its own usage log.
    """
    import tempfile
    import uuid

    from jupyter_client.manager import KernelManager
    from traitlets import default

    class IPCKernelManager(KernelManager):
        @default("transport")
        def _default_transport(self) -> str:
            return "ipc"

        @default("ip")
        def _default_ip(self) -> str:
            return str(Path(tempfile.gettempdir()) / f"conductor-kernel-{uuid.uuid4().hex[:12]}")

        async def _async_pre_start_kernel(self, **kw: Any) -> Any:
            kw["env"], kw["cwd"] = dict(env), str(cwd)
            return await super()._async_pre_start_kernel(**kw)

    return IPCKernelManager


class CourseError(Exception):
    """Bad input to the course runner; the message says what is valid or how to fix it."""


@dataclass(frozen=True)
class Notebook:
    """One course notebook and the parameters its ``parameters`` cell defines."""

    path: Path
    name: str
    parameters: frozenset[str]


@dataclass(frozen=True)
class CellFailure:
    """Where a notebook failed: the cell's index (from 0, as nbval counts), the line that raised (the cell's
    first line when the traceback does not say), its number in the cell (or None), the error."""

    cell_index: int | None
    first_line: str
    error: str
    line_number: int | None = None

    def describe(self) -> str:
        """One line naming the cell, the failing line and the error, e.g.
        ``cell 2, line 3 (`raise ValueError`): ValueError: boom``."""
        if self.cell_index is None:
            return self.error
        where = f"cell {self.cell_index}" + (f", line {self.line_number}" if self.line_number else "")
        return f"{where} (`{self.first_line}`): {self.error}"


@dataclass(frozen=True)
class NotebookResult:
    """The outcome of executing one notebook."""

    notebook: Notebook
    output: Path
    seconds: float
    failure: CellFailure | None = None
    usage: NotebookUsage | None = None  # the tokens of every offline model answer; None when not recorded

    @property
    def ok(self) -> bool:
        return self.failure is None

    @property
    def status(self) -> str:
        return "ok" if self.ok else "FAILED"


@dataclass
class CourseReport:
    """All results of one course run, in execution order."""

    results: list[NotebookResult] = field(default_factory=list)

    @property
    def failures(self) -> list[NotebookResult]:
        return [result for result in self.results if not result.ok]

    @property
    def exit_code(self) -> int:
        return 1 if self.failures else 0


def require(module: str) -> ModuleType:
    """Import ``module`` or raise :class:`CourseError` naming the install command."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        missing = exc.name or module
        raise CourseError(
            f"the package {missing!r} is not installed in {sys.executable}: run `{INSTALL_HINT}`"
        ) from exc


def _papermill() -> ModuleType:
    """papermill, imported without the grammar jsonschema builds for its "iri" format.

    papermill imports nbformat, nbformat imports jsonschema, and jsonschema imports rfc3987-syntax when it is
    installed (jupyterlab's dependencies install it), which builds an Earley parser as it is imported: about 2 s
    of CPU before the first notebook can start. A notebook file has no "iri" field, so this process does without
    it, and jsonschema leaves that format unchecked, as it does when the package is absent. The kernels are
    processes of their own: the notebooks' code keeps it.
    """
    if "jsonschema" in sys.modules or "rfc3987_syntax" in sys.modules:
        return require("papermill")
    sys.modules["rfc3987_syntax"] = None  # type: ignore[assignment]  # importing it now raises ImportError
    try:
        return require("papermill")
    finally:
        del sys.modules["rfc3987_syntax"]


def find_root(start: Path) -> Path:
    """The nearest folder at or above ``start`` that holds a course notebook folder."""
    for folder in (start, *start.parents):
        if any((folder / name).is_dir() for name in NOTEBOOK_DIRS):
            return folder
    raise CourseError(
        f"no {' or '.join(f'{name}/' for name in NOTEBOOK_DIRS)} folder in {start} or above: "
        "run the command from the course repository"
    )


def discover_notebooks(root: Path) -> list[Notebook]:
    """Every ``*.ipynb`` directly inside the course folders under ``root``, in name order."""
    inspect_notebook = _papermill().inspect_notebook
    notebooks = []
    for folder in NOTEBOOK_DIRS:
        for path in sorted((root / folder).glob("*.ipynb")):
            name = path.relative_to(root).as_posix()
            try:
                parameters = frozenset(inspect_notebook(str(path)))
            except Exception as exc:  # noqa: BLE001 - papermill raises ValueError, JSON and nbformat errors
                raise CourseError(
                    f"cannot read the parameters cell of {name} ({type(exc).__name__}: {exc}); "
                    "open and save it in Jupyter to repair its metadata"
                ) from exc
            notebooks.append(Notebook(path, name, parameters))
    return notebooks


def _matches(notebook: Notebook, pattern: str) -> bool:
    if any(char in pattern for char in "*?["):
        return fnmatch.fnmatch(notebook.name, pattern) or fnmatch.fnmatch(notebook.path.name, pattern)
    return pattern in notebook.name


def select_notebooks(notebooks: Sequence[Notebook], patterns: Sequence[str]) -> list[Notebook]:
    """The notebooks matching any pattern (a glob, or else a substring of ``folder/name.ipynb``).

    No patterns selects every notebook; a pattern that matches nothing is an error.
    """
    if not patterns:
        return list(notebooks)
    for pattern in patterns:
        if not any(_matches(notebook, pattern) for notebook in notebooks):
            names = "\n  ".join(notebook.name for notebook in notebooks) or "(none found)"
            raise CourseError(f"no notebook matches {pattern!r}; the notebooks are:\n  {names}")
    return [nb for nb in notebooks if any(_matches(nb, pattern) for pattern in patterns)]


def parse_value(text: str) -> Any:
    """Convert a ``-p`` value the way papermill's command line does: bool, None, int, float, else str."""
    # papermill's own converter lives in its private CLI module (papermill.cli._resolve_type),
    # so the same four rules are restated here rather than importing a private name.
    constants = {"True": True, "False": False, "None": None}
    if text in constants:
        return constants[text]
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            continue
    return text


def _parameter_listing(notebooks: Iterable[Notebook]) -> str:
    lines = [f"  {nb.name}: {', '.join(sorted(nb.parameters)) or '(no parameters cell)'}" for nb in notebooks]
    return "\n".join(lines)


def plan_parameters(
    notebooks: Sequence[Notebook],
    parameters: Mapping[str, Any],
    provider: str | None = None,
    api: str | None = None,
) -> dict[str, dict[str, Any]]:
    """The parameters each notebook receives, keyed by notebook name.

    ``provider`` and ``api`` become the ``provider`` and ``api`` parameters. A parameter
    goes only to the notebooks that define it; one that no selected notebook defines is an error.
    """
    requested = dict(parameters)
    for name, value in (("provider", provider), ("api", api)):
        if value is None:
            continue
        if requested.get(name, value) != value:
            raise CourseError(f"--{name} {value} and -p {name} {requested[name]} disagree: pass one of them")
        requested[name] = value
    if "provider" in requested and requested["provider"] not in PROVIDERS:
        raise CourseError(f"unknown provider {requested['provider']!r}; choose one of: {', '.join(PROVIDERS)}")
    if requested.get("api") is not None and requested["api"] not in (*API_NAMES, *API_ALIASES):
        raise CourseError(f"unknown api {requested['api']!r}; choose one of: {', '.join(API_NAMES)}")
    for name in requested:
        if not any(name in nb.parameters for nb in notebooks):
            raise CourseError(
                f"no selected notebook has a parameter {name!r}; parameters per notebook:\n"
                + _parameter_listing(notebooks)
            )
    return {nb.name: {k: v for k, v in requested.items() if k in nb.parameters} for nb in notebooks}


def _tags(cell: Mapping[str, Any]) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


def _source_index(cells: Sequence[Mapping[str, Any]], output_index: int) -> int:
    """Map papermill's index of the failing cell back to the source notebook.

    papermill counts cells before it adds its error-marker cells to the saved
    output, and its count includes the injected-parameters cell.
    """
    marker = require("papermill.execute").ERROR_MARKER_TAG
    executed = [cell for cell in cells if marker not in _tags(cell)]
    injected = sum("injected-parameters" in _tags(cell) for cell in executed[:output_index])
    return output_index - injected


def _failure_from(exc: Exception, output: Path) -> CellFailure:
    """Describe a failed execution: papermill's cell error, or any other error (kernel death, timeout)."""
    papermill_exceptions = require("papermill.exceptions")
    if not isinstance(exc, papermill_exceptions.PapermillExecutionError):
        return CellFailure(None, "", f"{type(exc).__name__}: {exc}".strip())
    cells = require("nbformat").read(output, as_version=4).cells if output.exists() else []
    source = exc.source.splitlines()
    number = _failing_line(exc.traceback, len(source))
    lines = [line for line in source if line.strip()]
    return CellFailure(
        cell_index=_source_index(cells, exc.cell_index),
        first_line=source[number - 1].strip() if number else (lines[0].strip() if lines else ""),
        error=f"{exc.ename}: {exc.evalue}" if exc.evalue else exc.ename,
        line_number=number,
    )


_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_CELL_LINE = re.compile(r"Cell In\[\d+\], line (\d+)")  # how IPython names a line of the cell in a traceback


def _failing_line(traceback: Sequence[str], lines: int) -> int | None:
    """The number of the cell's line that raised, from IPython's traceback (its first frame in the cell)."""
    found = _CELL_LINE.search(_ANSI.sub("", "\n".join(traceback or ())))
    number = int(found.group(1)) if found else None
    return number if number is not None and 1 <= number <= lines else None


def _kernel_environment(usage_log: Path | None = None) -> dict[str, str]:
    """This process's environment plus ``CONDUCTOR_WIDGETS=static``: no frontend will draw a widget.

    The widgets' own guess reads Jupyter's variables, which a kernel started from a
    notebook cell inherits; a headless run must commit static figures regardless.
    With ``usage_log`` the kernel also gets ``CONDUCTOR_USAGE_LOG`` naming it.
    """
    env = {**os.environ, "CONDUCTOR_WIDGETS": "static"}
    env.pop(USAGE_LOG, None)
    if usage_log is not None:
        env[USAGE_LOG] = str(usage_log)
    return env


def execute(
    notebook: Notebook,
    parameters: Mapping[str, Any],
    output: Path,
    cell_timeout: int = CELL_TIMEOUT,
    source: Any | None = None,
    usage_log: Path | None = None,
) -> NotebookResult:
    """Execute one notebook into ``output`` in its own folder; never raises for a failing notebook.

    ``source``, an ``nbformat`` notebook, is executed in place of the file's
    contents (still in the file's folder). With ``usage_log`` (a file that need
    not exist), the offline model's answers are recorded there and added up
    into the result's ``usage``.
    """
    papermill = _papermill()
    output.parent.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    failure = None
    try:
        papermill.execute_notebook(
            source if source is not None else str(notebook.path),
            str(output),
            parameters=dict(parameters),
            kernel_name=KERNEL_NAME,
            progress_bar=False,
            execution_timeout=cell_timeout,
            kernel_manager_class=_kernel_manager(_kernel_environment(usage_log), notebook.path.parent),
        )
    except Exception as exc:  # noqa: BLE001 - any failure of one notebook is reported, the run goes on
        failure = _failure_from(exc, output)
    usage = read_log(usage_log, notebook.name) if usage_log is not None else None
    return NotebookResult(notebook, output, time.perf_counter() - started, failure, usage)


def _check_jobs(jobs: Any) -> None:
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise CourseError(f"jobs must be a whole number of notebooks at a time, 1 or more; got {jobs!r}")


def load_seconds(root: Path) -> dict[str, float]:
    """The seconds each notebook took when last measured, from ``root``/:data:`SECONDS_FILE`; empty without it.

    The file only orders the runs, so an unreadable one is logged and ignored rather than stopping the course.
    """
    path = root / SECONDS_FILE
    if not path.exists():
        return {}
    try:
        seconds = json.loads(path.read_text(encoding="utf-8"))["seconds"]
        return {str(name): float(value) for name, value in seconds.items()}
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        logger.warning("%s is unreadable (%s): notebooks start in the course's order; refresh rewrites it", path, exc)
        return {}


def save_seconds(root: Path, results: Iterable[NotebookResult], course: Iterable[Notebook]) -> None:
    """Record in ``root``/:data:`SECONDS_FILE` the seconds of each notebook that ran cleanly, keeping the others'
    of the ``course`` (a notebook no longer in it is dropped)."""
    names = {notebook.name for notebook in course}
    seconds = {name: value for name, value in load_seconds(root).items() if name in names}
    seconds.update({result.notebook.name: round(result.seconds, 1) for result in results if result.ok})
    data = {
        "note": "seconds each notebook took when last executed, notebooks side by side (`python -m conductor "
        "refresh` records them); `python -m conductor course` and `make test` start the longest first",
        "seconds": dict(sorted(seconds.items())),
    }
    (root / SECONDS_FILE).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def longest_first(notebooks: Sequence[Notebook], seconds: Mapping[str, float]) -> list[Notebook]:
    """The order to start ``notebooks`` in: longest first by ``seconds`` (longest-processing-time-first).

    With a fixed number of workers each taking the next notebook, starting the longest first keeps
    a long lesson from starting last and running alone at the end. A notebook without a measured
    time comes first (it may be the longest); ties keep the course's order.
    """
    return sorted(notebooks, key=lambda nb: -seconds.get(nb.name, float("inf")))


def _side_by_side(
    notebooks: Sequence[Notebook],
    run: Callable[[int, Notebook], NotebookResult],
    jobs: int,
    stream: TextIO,
    seconds: Mapping[str, float] | None = None,
) -> Iterable[NotebookResult]:
    """``run(number, notebook)`` for each notebook, ``jobs`` at a time (threads: each waits on its own kernel
    process), started longest first by ``seconds`` (:func:`longest_first`); the results, and a line for each on
    ``stream``, come in the notebooks' order."""
    from concurrent.futures import ThreadPoolExecutor

    total = len(notebooks)
    numbers = {notebook.name: number for number, notebook in enumerate(notebooks, start=1)}
    with ThreadPoolExecutor(max_workers=min(jobs, total) or 1, thread_name_prefix="notebook") as pool:
        # the pool's queue is first in, first out: the submission order is the start order
        started = {nb.name: pool.submit(run, numbers[nb.name], nb) for nb in longest_first(notebooks, seconds or {})}
        futures = [started[notebook.name] for notebook in notebooks]
        for number, (notebook, future) in enumerate(zip(notebooks, futures), start=1):
            result = future.result()
            detail = f": {result.failure.describe()}" if result.failure else ""
            print(f"[{number}/{total}] {notebook.name}: {result.status} in {result.seconds:.1f} s{detail}",
                  file=stream, flush=True)
            yield result


def format_summary(results: Sequence[NotebookResult]) -> str:
    """A plain-text table: notebook, status, seconds."""
    width = max([len("notebook"), *(len(result.notebook.name) for result in results)])
    rows = [f"{'notebook':<{width}}  {'status':<6}  {'seconds':>7}", f"{'-' * width}  {'-' * 6}  {'-' * 7}"]
    rows += [f"{r.notebook.name:<{width}}  {r.status:<6}  {r.seconds:>7.1f}" for r in results]
    return "\n".join(rows)


def run_course(
    root: Path,
    *,
    provider: str | None = None,
    api: str | None = None,
    only: Sequence[str] = (),
    out_dir: Path | None = None,
    parameters: Mapping[str, Any] | None = None,
    cell_timeout: int = CELL_TIMEOUT,
    stream: TextIO | None = None,
    jobs: int = DEFAULT_JOBS,
) -> CourseReport:
    """Execute the selected course notebooks under ``root`` and report on ``stream`` (stdout by default).

    Executed copies go to ``out_dir`` (default ``root/build``), keeping their
    folder, e.g. ``build/notebooks/00_setup.ipynb``. ``jobs`` notebooks run at a time,
    each in its own kernel (they mostly wait on the offline model's simulated latency);
    the report keeps the course's order. Raises :class:`CourseError`
    for bad input before any notebook runs; a failing notebook does not raise,
    it is recorded in the returned report.
    """
    _check_jobs(jobs)
    stream = stream or sys.stdout
    out_dir = out_dir if out_dir is not None else root / DEFAULT_OUT
    notebooks = select_notebooks(discover_notebooks(root), only)
    if not notebooks:
        raise CourseError(f"no notebooks found in {', '.join(f'{root / d}/' for d in NOTEBOOK_DIRS)}")
    plan = plan_parameters(notebooks, parameters or {}, provider, api)
    report = CourseReport()
    with tempfile.TemporaryDirectory(prefix="conductor-usage-") as usage_dir:

        def run(number: int, notebook: Notebook) -> NotebookResult:
            usage_log = Path(usage_dir) / f"{number:03d}.jsonl"
            return execute(notebook, plan[notebook.name], out_dir / notebook.name, cell_timeout, usage_log=usage_log)

        for result in _side_by_side(notebooks, run, jobs, stream, load_seconds(root)):
            report.results.append(result)
    print(f"\n{format_summary(report.results)}\n", file=stream)
    for result in report.results:
        if result.failure is not None:
            print(f"FAILED {result.notebook.name} {result.failure.describe()}", file=stream)
    print(f"{len(report.results) - len(report.failures)} of {len(report.results)} notebooks ran cleanly; "
          f"executed copies in {out_dir}", file=stream)
    return report


def _clean_executed(path: Path, target: Path) -> None:
    """Write the executed notebook at ``path`` to ``target`` without papermill's run metadata.

    Durations and timestamps in the metadata would change on every run and
    make every commit of a notebook a diff; consecutive prints merge into one
    output, as Jupyter shows them.
    """
    nbformat = require("nbformat")
    nb = nbformat.read(path, as_version=4)
    nb.metadata.pop("papermill", None)
    for cell in nb.cells:
        cell.metadata.pop("papermill", None)
        cell.metadata.pop("execution", None)
        if not cell.metadata.get("tags", True):  # papermill adds an empty list to every cell
            cell.metadata.pop("tags")
        if cell.cell_type == "code":
            cell.outputs = _merge_streams(cell.outputs)
    nbformat.write(nb, target)


def _merge_streams(outputs: list[Any]) -> list[Any]:
    """Consecutive prints of one stream as one output, each line as a terminal shows it: a progress bar
    redrawn with carriage returns is kept as its last frame."""
    merged: list[Any] = []
    for output in outputs:
        previous = merged[-1] if merged else None
        if (
            previous is not None
            and output.get("output_type") == "stream"
            and previous.get("output_type") == "stream"
            and previous.get("name") == output.get("name")
        ):
            previous["text"] = "".join(previous["text"]) + "".join(output["text"])
        else:
            merged.append(output)
    for output in merged:
        if output.get("output_type") == "stream":
            output["text"] = _as_shown("".join(output["text"]))
    return merged


def _as_shown(text: str) -> str:
    """Each line of ``text`` after its last carriage return, as a terminal leaves it."""
    return "\n".join(line.rsplit("\r", 1)[-1] if "\r" in line.rstrip("\r") else line.rstrip("\r")
                     for line in text.split("\n"))


def apply_exercises(notebook: Any, path: Path) -> bool:
    """Write lesson NN's exercises (``conductor.course.exercises.lessonNN``) into ``notebook``, verbatim.

    The cells between the markdown cell that starts ``## Exercises`` and the next one that
    starts a section (``## Summary``, or another ``## `` heading, as lesson 08's "A gate for CI")
    become the module's ``SETUP`` cell, then each exercise's ``prompt`` (markdown) and ``stub``
    (code). A notebook without those headings or without an exercises module is left alone. True
    when the notebook changed.
    """
    from nbformat.v4 import new_code_cell, new_markdown_cell

    try:
        module = importlib.import_module(f"conductor.course.exercises.lesson{path.stem[:2]}")
    except ImportError:
        return False
    cells = notebook.cells
    heads = [i for i, c in enumerate(cells) if c.cell_type == "markdown" and c.source.startswith("## Exercises")]
    if not heads:
        return False
    ends = [i for i, c in enumerate(cells) if i > heads[0] and c.cell_type == "markdown" and c.source.startswith("## ")]
    if not ends:
        return False
    start, end = heads[0] + 1, ends[0]
    wanted = [("code", module.SETUP)]
    for exercise in module.EXERCISES:
        wanted += [("markdown", exercise.prompt), ("code", exercise.stub)]
    if [(c.cell_type, c.source) for c in cells[start:end]] == wanted:
        return False
    cells[start:end] = [new_code_cell(text) if kind == "code" else new_markdown_cell(text) for kind, text in wanted]
    return True


def refresh_notebooks(
    root: Path, *, only: Sequence[str] = (), cell_timeout: int = CELL_TIMEOUT, stream: TextIO | None = None,
    jobs: int = REFRESH_JOBS,
) -> CourseReport:
    """Re-execute the selected notebooks on the offline default and save them in place, for committing
    (``jobs`` at a time, as :func:`run_course`).

    Each notebook's first code cell is first made the Colab bootstrap cell of
    :mod:`conductor.course.colab`, so every notebook installs the same version, and its
    exercise cells are rewritten from :mod:`conductor.course.exercises` (:func:`apply_exercises`). A
    notebook that fails is left as it was and reported. The seconds of those that ran cleanly go to
    :data:`SECONDS_FILE` (:func:`save_seconds`), the order ``course`` starts them in.
    """
    import tempfile

    from .colab import apply_bootstrap

    _check_jobs(jobs)
    stream = stream or sys.stdout
    course = discover_notebooks(root)
    notebooks = select_notebooks(course, only)
    nbformat = require("nbformat")
    report = CourseReport()
    with tempfile.TemporaryDirectory(prefix="conductor-refresh-") as scratch:

        def run(number: int, notebook: Notebook) -> NotebookResult:
            source = nbformat.read(notebook.path, as_version=4)
            apply_bootstrap(source)
            apply_exercises(source, notebook.path)
            result = execute(notebook, {}, Path(scratch) / notebook.name, cell_timeout, source=source)
            if result.ok:
                _clean_executed(result.output, notebook.path)
            return result

        report.results.extend(_side_by_side(notebooks, run, jobs, stream, load_seconds(root)))
    save_seconds(root, report.results, course)
    print(f"\n{format_summary(report.results)}", file=stream)
    return report
