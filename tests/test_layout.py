"""The package shows what is library and what is course: the core never reaches into conductor.course."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import conductor

PACKAGE = Path(conductor.__file__).parent
# __main__ is the course's command line (`python -m conductor course`): it is allowed to.
CORE = sorted(
    p for p in PACKAGE.rglob("*.py") if "course" not in p.relative_to(PACKAGE).parts and p.name != "__main__.py"
)


def _course_imports(path: Path, text: str | None = None) -> list[str]:
    """The imports in one core file that resolve into conductor.course."""
    depth = len(path.relative_to(PACKAGE).parts) - 1  # packages below conductor
    found = []
    source = path.read_text(encoding="utf-8") if text is None else text
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = ["conductor", *path.relative_to(PACKAGE).parts[:depth]][: 1 + depth - (node.level - 1)]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            targets = [f"{module}.{alias.name}" for alias in node.names] + [module]
        elif isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            continue
        for target in targets:
            parts = target.split(".")
            if parts[0] == "conductor" and len(parts) > 1 and parts[1] == "course":
                found.append(f"line {node.lineno}: {target}")
    return found


def test_the_core_files_are_found() -> None:
    names = {p.name for p in CORE}
    assert {"providers.py", "rounds.py", "orchestrator.py", "tools.py", "responses.py", "model.py"} <= names
    assert not names & {"scenarios.py", "catalogue.py", "runner.py"}


@pytest.mark.parametrize("path", CORE, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_a_core_module_imports_nothing_from_the_course(path: Path) -> None:
    assert _course_imports(path) == []


def test_the_checker_sees_a_course_import() -> None:
    text = "from .course import scenarios\nfrom .course.flaky import WeatherAPI\nfrom .tools import tool\n"
    text += "import conductor.course.runner\n"
    assert _course_imports(PACKAGE / "offline" / "sample.py", text.replace("from .", "from ..")) == [
        "line 1: conductor.course.scenarios", "line 1: conductor.course", "line 2: conductor.course.flaky.WeatherAPI",
        "line 2: conductor.course.flaky", "line 4: conductor.course.runner",
    ]


def test_a_library_run_loads_no_course_module() -> None:
    program = """
import sys
import conductor as cd

@cd.tool(progress="Checking the weather in {city}...")
def weather(city: str) -> dict:
    '''The weather in a city.

    Args:
        city: The city's name.
    '''
    return {"city": city, "temperature": 21}

llm = cd.connect("offline", latency_scale=0)
llm.run("What is the weather in Oslo?", tools=[weather])
events = []
cd.Orchestrator(llm, tools=[weather], on_progress=events.append).run("What is the weather in Oslo?")
assert "Checking the weather in Oslo..." in [e.text for e in events], events
print(sorted(name for name in sys.modules if name.startswith("conductor.course")))
"""
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_old_module_paths_are_the_course_modules() -> None:
    from conductor.course import scenarios
    from conductor.course.exercises import lesson01

    import conductor.course.exercises.lesson01 as old_lesson01
    import conductor.course.scenarios as old_scenarios

    assert old_scenarios is scenarios and old_lesson01 is lesson01 and conductor.course.scenarios is scenarios
    assert scenarios.__spec__.name == "conductor.course.scenarios"


def test_each_course_module_has_one_import_path() -> None:
    import importlib.util

    assert importlib.util.find_spec("conductor.course.scenarios") is not None
    for name in ("scenarios", "exercises", "flaky", "runner"):
        assert importlib.util.find_spec(f"conductor.{name}") is None, name  # no alias: the file is where it says
    assert conductor.scenarios is importlib.import_module("conductor.course.scenarios")  # cd.scenarios stays


# -- one direction: the import graph of src/conductor/ has no cycle ------------------------------------------------
#
# Every import counts: module level, inside a function (lazy) and under ``if TYPE_CHECKING:``. A package's
# ``__init__`` is a module of its own (``conductor``, ``conductor.apis``): importing ``conductor.apis.base`` is an
# edge to ``conductor.apis.base`` only, so a package may gather its modules without tying them together.

# The one library module that builds the stand-in for connect("offline"); evals and failover go through it.
STAND_IN_FACTORY = "conductor.standin"
# What runs above the library: the command line (`python -m conductor`) is the course's.
ABOVE_THE_LIBRARY = {"conductor.__main__"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(sources: dict[str, tuple[str, bool]]) -> dict[str, dict[str, int]]:
    """module -> {module it imports: first line}, from ``sources`` (module -> (text, is a package)).

    Read with ``ast``: every ``import`` and ``from ... import`` in the file, wherever it stands. ``from . import x``
    is an edge to the module ``x`` when there is one, else to the package.
    """
    graph: dict[str, dict[str, int]] = {}

    def known(name: str) -> str | None:
        while name and name not in sources:
            name = name.rpartition(".")[0]
        return name or None

    for module, (text, is_package) in sources.items():
        package = module if is_package else module.rpartition(".")[0]
        edges: dict[str, int] = {}
        for node in ast.walk(ast.parse(text)):
            targets: list[str | None] = []
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    source = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    source = node.module or ""
                targets = [f"{source}.{a.name}" if f"{source}.{a.name}" in sources else known(source)
                           for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [known(a.name) for a in node.names]
            for target in targets:
                if target and target != module and target.startswith("conductor"):
                    edges.setdefault(target, node.lineno)
        graph[module] = edges
    return graph


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """One cycle (``a -> b -> ... -> a``) per strongly connected group of modules that import each other."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def visit(node: str) -> None:  # Tarjan's algorithm
        index[node] = low[node] = len(index)
        stack.append(node)
        for after in graph.get(node, {}):
            if after not in index:
                visit(after)
                low[node] = min(low[node], low[after])
            elif after in stack:
                low[node] = min(low[node], index[after])
        if low[node] == index[node]:
            group = set()
            while True:
                top = stack.pop()
                group.add(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    found = []
    for group in groups:  # the shortest way back to the start, from the group's first module
        start = min(group)
        paths = {start: [start]}
        queue = [start]
        while queue:
            node = queue.pop(0)
            for after in sorted(graph[node]):
                if after == start:
                    found.append([*paths[node], start])
                    queue = []
                    break
                if after in group and after not in paths:
                    paths[after] = [*paths[node], after]
                    queue.append(after)
    return sorted(found)


def _package_graph() -> dict[str, dict[str, int]]:
    return import_graph(
        {_module_name(p): (p.read_text(encoding="utf-8"), p.name == "__init__.py") for p in PACKAGE.rglob("*.py")}
    )


def _show(cycle: list[str], graph: dict[str, dict[str, int]]) -> str:
    steps = [f"{a} (line {graph[a][b]})" for a, b in zip(cycle, cycle[1:])]
    return " -> ".join([*steps, cycle[-1]])


def test_the_modules_of_the_package_import_in_one_direction() -> None:
    graph = _package_graph()
    found = cycles(graph)
    assert not found, "import cycles (break each: move the shared part down, or pass it as an argument):\n" + "\n".join(
        _show(c, graph) for c in found
    )


def _is_library(module: str) -> bool:
    parts = module.split(".")
    return module not in ABOVE_THE_LIBRARY and not (len(parts) > 1 and parts[1] in {"offline", "course"})


def test_the_library_reaches_the_stand_in_and_the_course_only_through_the_factory() -> None:
    graph = _package_graph()
    wrong = [
        f"{module} line {line}: imports {target}"
        for module, edges in sorted(graph.items())
        if _is_library(module) and module != STAND_IN_FACTORY
        for target, line in sorted(edges.items())
        if not _is_library(target) and target not in ABOVE_THE_LIBRARY
    ]
    assert wrong == [], "\n".join(wrong)
    assert not any(t.startswith("conductor.course") for t in graph[STAND_IN_FACTORY])


def test_the_graph_sees_lazy_and_type_checking_imports_and_shows_a_cycle() -> None:
    sources = {
        "conductor": ("from . import low\n", True),
        "conductor.low": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .high import x\n", False),
        "conductor.high": ("def f():\n    from .mid import y\n", False),
        "conductor.mid": ("from .low import z\nfrom conductor.sub import b\n", False),
        "conductor.sub": ("", True),
        "conductor.sub.b": ("from .. import low\n", False),
    }
    graph = import_graph(sources)
    assert graph["conductor.sub.b"] == {"conductor.low": 1} and graph["conductor.mid"]["conductor.sub.b"] == 2
    found = cycles(graph)
    assert found == [["conductor.high", "conductor.mid", "conductor.low", "conductor.high"]]
    assert _show(found[0], graph) == (
        "conductor.high (line 2) -> conductor.mid (line 1) -> conductor.low (line 3) -> conductor.high"
    )
    del sources["conductor.low"]
    assert cycles(import_graph(sources)) == []


# -- the picture of the layers in docs/library.md is the code's ----------------------------------------------------

LIBRARY_DOC = PACKAGE.parents[1] / "docs" / "library.md"


def _picture_rows(text: str, names: set[str]) -> list[list[str]]:
    """The rows of the picture under "## The layers", top first: the module names each line starts with; a line
    that is only "|" separates two rows."""
    block = text.split("## The layers", 1)[1].split("```text", 1)[1].split("```", 1)[0]
    lines = block.split("\n")
    start = next(i for i, line in enumerate(lines) if set(line.strip()) == {"-"}) + 1
    rows: list[list[str]] = [[]]
    for line in lines[start:]:
        if line.strip() == "|":
            rows.append([])
            continue
        for token in line.split():
            if token not in names:
                break
            rows[-1].append(token)
    return [row for row in rows if row]


def test_the_picture_of_the_layers_is_the_import_graph() -> None:
    graph = _package_graph()
    library = {m for m in graph if _is_library(m)}
    short = {m: m.removeprefix("conductor.") for m in library}
    rows = _picture_rows(LIBRARY_DOC.read_text(encoding="utf-8"), set(short.values()))
    drawn = [name for row in rows for name in row]
    assert sorted(drawn) == sorted(short.values()), "draw each library module once in docs/library.md"
    row_of = {name: index for index, row in enumerate(rows) for name in row}
    upward = [
        f"{short[module]} (row {row_of[short[module]] + 1}) imports {short[target]} (row {row_of[short[target]] + 1})"
        for module, edges in sorted(graph.items()) if module in library
        for target in sorted(edges) if target in library and row_of[short[target]] < row_of[short[module]]
    ]
    assert upward == [], "imports up a row of the picture in docs/library.md:\n" + "\n".join(upward)
