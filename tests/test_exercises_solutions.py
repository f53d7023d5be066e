"""Every exercise's printed solution works when pasted into its notebook.

``ex.qN.solution()`` prints what a learner copies into the exercise's cell. Each test runs that text in a
fresh namespace prepared the way the notebook prepares its kernel before the exercises: the notebook's own
imports (every top-level ``import`` of its code cells, in order) and the exercises' setup cell
(``from conductor.course.exercises import ____, lessonNN as ex``). The names the solution defines then go
through the check, which must say "correct". A solution that leans on an import the notebook never made
(``math``, ``Counter``) or on a name only the exercises module has (``LONG_RULES`` without ``ex.``) fails here.
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import io
from pathlib import Path

import nbformat
import pytest
from IPython.core.inputtransformer2 import TransformerManager

from conductor.course.colab import bootstrap_source
from conductor.course.exercises import Exercise

ROOT = Path(__file__).resolve().parent.parent
LESSONS = sorted(p for p in (ROOT / "notebooks").glob("*.ipynb") if p.stem[:2].isdigit())
SOLUTION_HEADER = "Solution:\n\n"


def notebook_imports(path: Path) -> str:
    """The top-level import statements of the notebook's code cells, in order (the bootstrap cell left out)."""
    notebook = nbformat.read(path, as_version=4)
    lines = []
    for cell in notebook.cells:
        if cell.cell_type != "code" or cell.source == bootstrap_source():
            continue
        tree = ast.parse(TransformerManager().transform_cell(cell.source))  # %magics become Python, as in a kernel
        lines += [ast.unparse(node) for node in tree.body if isinstance(node, ast.Import | ast.ImportFrom)]
    return "\n".join(lines)


def printed_solution(exercise: Exercise) -> str:
    """What ``exercise.solution()`` prints, without its heading: the text a learner pastes."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exercise.solution()
    text = out.getvalue()
    assert text.startswith(SOLUTION_HEADER), text[:80]
    return text[len(SOLUTION_HEADER):]


CASES = [
    pytest.param(path, exercise, id=f"{path.stem[:2]}-{exercise.label}")
    for path in LESSONS
    for exercise in importlib.import_module(f"conductor.course.exercises.lesson{path.stem[:2]}").EXERCISES
]


@pytest.mark.parametrize(("path", "exercise"), CASES)
def test_the_printed_solution_passes_its_check_when_pasted_into_the_notebook(path: Path, exercise: Exercise) -> None:
    module = importlib.import_module(f"conductor.course.exercises.lesson{path.stem[:2]}")
    namespace: dict[str, object] = {"__name__": "__main__"}
    exec(notebook_imports(path), namespace)  # noqa: S102 - the notebook's own imports
    exec(module.SETUP, namespace)  # noqa: S102
    solution = printed_solution(exercise)
    try:
        exec(compile(solution, f"<solution of {path.stem} {exercise.label}>", "exec"), namespace)  # noqa: S102
    except Exception as exc:  # noqa: BLE001 - report which solution fails to paste, and how
        pytest.fail(f"{path.stem} {exercise.label}'s solution fails when pasted: {type(exc).__name__}: {exc}")
    missing = [name for name in exercise.names if name not in namespace]
    assert not missing, f"the pasted solution does not define {missing}"
    outcome = exercise.evaluate(tuple(namespace[name] for name in exercise.names))
    assert outcome.status == "correct", f"{path.stem} {exercise.label}: {outcome.message}"


def test_a_solution_that_needs_an_import_the_notebook_lacks_is_caught() -> None:
    """The namespace holds the notebook's imports only: ``math`` is not there unless the solution imports it."""
    path = next(p for p in LESSONS if p.stem.startswith("08"))
    namespace: dict[str, object] = {}
    exec(notebook_imports(path), namespace)  # noqa: S102
    with pytest.raises(NameError, match="math"):
        exec("def f(n):\n    return math.comb(n, 2)\nf(3)", namespace)  # noqa: S102
