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
