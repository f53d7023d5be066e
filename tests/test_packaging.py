"""Packaging and repository checks: pins in step, metadata sane, notebooks committed executed.

The README promises that ``pip install -r requirements.txt`` and
``conda env create -f environment.yml`` build the same pinned environment;
these tests keep the two files, pyproject.toml and the installed packages in
step, and hold the notebooks to the course's rule of being committed executed.
"""

from __future__ import annotations

import os
import re
import subprocess
import tomllib
from importlib.metadata import version
from pathlib import Path

import nbformat
import pytest
import yaml
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import Version

import conductor

ROOT = Path(__file__).resolve().parent.parent
EDITABLE_SELF = "-e ."
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "demos").glob("*.ipynb"))


def parse_pins(lines: list[str]) -> dict[str, str]:
    """``name==version`` lines as {canonical name: version}; fails on any other requirement form."""
    pins = {}
    for line in lines:
        requirement = Requirement(line)
        (specifier,) = requirement.specifier  # exactly one specifier, and it must be ==
        assert specifier.operator == "==", f"{line!r} is not pinned with =="
        pins[canonicalize_name(requirement.name)] = specifier.version
    return pins


def requirement_lines() -> list[str]:
    text = (ROOT / "requirements.txt").read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def environment() -> dict:
    return yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))


def conda_pip_lines() -> list[str]:
    sections = [dep["pip"] for dep in environment()["dependencies"] if isinstance(dep, dict) and "pip" in dep]
    assert len(sections) == 1, "environment.yml needs exactly one pip: section"
    return [str(line).strip() for line in sections[0]]


def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def pinned() -> dict[str, str]:
    return parse_pins([line for line in requirement_lines() if line != EDITABLE_SELF])


def test_requirements_pin_every_package_and_install_the_course_package() -> None:
    lines = requirement_lines()
    assert EDITABLE_SELF in lines
    assert pinned()


def test_environment_yml_has_the_same_pins_as_requirements_txt() -> None:
    conda_lines = conda_pip_lines()
    assert EDITABLE_SELF in conda_lines
    assert parse_pins([line for line in conda_lines if line != EDITABLE_SELF]) == pinned()


def test_environment_yml_python_satisfies_requires_python() -> None:
    python = next(str(dep) for dep in environment()["dependencies"] if str(dep).startswith("python="))
    requires = SpecifierSet(pyproject()["project"]["requires-python"])
    assert Version(python.split("=", 1)[1]) in requires


def test_pyproject_metadata_is_sane() -> None:
    project = pyproject()["project"]
    assert project["name"] == "conductor-course"  # `conductor` is taken on PyPI; the import name stays
    assert project["version"] == conductor.__version__
    assert Version("3.11") in SpecifierSet(project["requires-python"])
    assert (ROOT / project["readme"]).is_file()
    assert pyproject()["tool"]["setuptools"]["packages"]["find"]["where"] == ["src"]
    assert (ROOT / "src" / "conductor" / "__init__.py").is_file()


@pytest.mark.parametrize("group", ["dependencies", "test"])
def test_every_declared_dependency_is_pinned_within_its_range(group: str) -> None:
    project = pyproject()["project"]
    declared = project["dependencies"] if group == "dependencies" else project["optional-dependencies"][group]
    pins = pinned()
    for line in declared:
        requirement = Requirement(line)
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{requirement.name} is declared in pyproject.toml but not pinned in requirements.txt"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"requirements.txt pins {name}=={pins[name]}, outside pyproject.toml's {requirement.specifier}"
        )


def test_the_installed_environment_matches_the_pins() -> None:
    wrong = {name: version(name) for name, pin in pinned().items() if version(name) != pin}
    assert not wrong, f"installed versions differ from requirements.txt: {wrong}; run `make venv`"


def test_course_commands_exist() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    for target in ("course:", "test:", "venv:"):
        assert f"\n{target}" in makefile
    assert os.access(ROOT / ".ci" / "run", os.X_OK), ".ci/run must be executable"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_notebook_is_committed_executed_without_errors(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    code = [(index, cell) for index, cell in enumerate(notebook.cells) if cell.cell_type == "code"]
    unrun = [index for index, cell in code if cell.source.strip() and cell.execution_count is None]
    errors = [index for index, cell in code if any(output.output_type == "error" for output in cell.outputs)]
    fix = f"jupyter nbconvert --to notebook --execute --inplace {path.relative_to(ROOT)}"
    assert not unrun, f"cells {unrun} were never executed; commit the notebook executed: {fix}"
    assert not errors, f"cells {errors} hold error outputs"
    stderr = [index for index, cell in code if any(output.get("name") == "stderr" for output in cell.outputs)]
    assert not stderr, (
        f"cells {stderr} print to stderr, which a saved notebook shows in a pink box a learner reads as their "
        "error: print the lesson's own output to stdout (a logged warning a lesson shows: capture it and print it)"
    )


@pytest.mark.parametrize("path", sorted((ROOT / "notebooks").glob("*.ipynb")), ids=lambda path: path.stem)
def test_readme_table_of_contents_lists_the_notebook(path: Path) -> None:
    assert f"notebooks/{path.name}" in (ROOT / "README.md").read_text(encoding="utf-8")


LESSONS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def printed_lines(cell) -> list[str]:
    """Every line a code cell printed or displayed as text: streams and text/plain results."""
    texts = []
    for output in cell.get("outputs", []):
        if output.output_type == "stream":
            texts.append(output.text)
        elif output.output_type in ("execute_result", "display_data"):
            texts.append(output.get("data", {}).get("text/plain", ""))
    return [line for text in texts for line in text.splitlines()]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_printed_output_fits_jupyterlab_without_wrapping(path: Path) -> None:
    """No printed line is wider than 100 display columns (a Chinese character takes two)."""
    from conductor.display import LINE_WIDTH, width

    notebook = nbformat.read(path, as_version=4)
    wide = [
        (index, width(line), line[:60])
        for index, cell in enumerate(notebook.cells)
        if cell.cell_type == "code"
        for line in printed_lines(cell)
        if width(line) > LINE_WIDTH
    ]
    assert not wide, f"output lines wider than {LINE_WIDTH} columns (cell, width, start): {wide}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_notebook_text_cites_nothing_the_learner_does_not_have(path: Path) -> None:
    """No cell refers to the course's internal source documents ("seed 001", "the source tutorial")."""
    import re

    cited = re.compile(r"\bseed\s+0\d+|source tutorial", re.IGNORECASE)
    notebook = nbformat.read(path, as_version=4)
    hits = [
        (index, match.group(0))
        for index, cell in enumerate(notebook.cells)
        if cell.cell_type in ("markdown", "code")
        for match in cited.finditer(cell.source)
    ]
    assert not hits, f"cells citing documents the learner does not have: {hits}"


@pytest.mark.parametrize("path", LESSONS, ids=lambda path: path.stem)
def test_next_links_point_to_files_that_exist(path: Path) -> None:
    """Every relative link of a lesson's markdown resolves, so "Next:" works on GitHub and Colab too."""
    import re

    notebook = nbformat.read(path, as_version=4)
    links = [
        target
        for cell in notebook.cells
        if cell.cell_type == "markdown"
        for target in re.findall(r"\]\(([^)\s]+)\)", cell.source)
        if not re.match(r"[a-z]+:", target) and not target.startswith("#")
    ]
    missing = [target for target in links if not (path.parent / target.split("#")[0]).exists()]
    assert not missing, f"links to files that do not exist: {missing}"
    assert any("Next:" in cell.source for cell in notebook.cells if cell.cell_type == "markdown")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_first_code_cell_is_the_colab_bootstrap_of_this_version(path: Path) -> None:
    """Every notebook installs, in Colab only, the package version it was executed against."""
    from conductor.course.colab import bootstrap_source

    notebook = nbformat.read(path, as_version=4)
    first = next(cell for cell in notebook.cells if cell.cell_type == "code")
    assert first.source == bootstrap_source(), "run `python -m conductor refresh` to write the current bootstrap cell"
    assert first.outputs == [], "outside Colab the bootstrap cell prints nothing"


COLAB_LINK = re.compile(r"https://colab\.research\.google\.com/github/([^/\s]+/[^/\s]+)/blob/([^/\s]+)/([^)\s]+\.ipynb)")


@pytest.mark.parametrize("path", [ROOT / "README.md", *NOTEBOOKS], ids=lambda path: path.relative_to(ROOT).as_posix())
def test_colab_links_open_existing_notebooks_at_this_version(path: Path) -> None:
    """A Colab badge opens a notebook that exists, from the repository and tag the bootstrap installs."""
    from conductor.course.colab import COURSE_REF, COURSE_REPO

    if path.suffix == ".ipynb":
        text = "\n".join(c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "markdown")
    else:
        text = path.read_text(encoding="utf-8")
    links = COLAB_LINK.findall(text)
    if path.name == "README.md":
        lessons = {target for _, _, target in links}
        assert {f"notebooks/{p.name}" for p in (ROOT / "notebooks").glob("*.ipynb")} <= lessons, (
            "every lesson has a Colab badge in the README"
        )
    wrong = [link for link in links if link[:2] != (COURSE_REPO, COURSE_REF) or not (ROOT / link[2]).is_file()]
    assert not wrong, f"Colab links to another repository or ref than {COURSE_REPO}@{COURSE_REF}, or to no file: {wrong}"


def test_license_is_the_mit_license_pyproject_declares() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert pyproject()["project"]["license"] == "MIT"
    assert text.startswith("MIT License\n")
    assert "Copyright (c) 2026 conductor course team" in text
    assert "Permission is hereby granted, free of charge, to any person obtaining a copy" in text
    assert 'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND' in text


def test_every_package_data_pattern_matches_a_file() -> None:
    """A pattern that matches nothing ships nothing and hides a missing file."""
    package_data = pyproject()["tool"]["setuptools"]["package-data"]
    assert package_data
    for package, patterns in package_data.items():
        folder = ROOT / "src" / package.replace(".", "/")
        empty = [pattern for pattern in patterns if not any(p.is_file() for p in folder.glob(pattern))]
        assert not empty, f"package-data patterns of {package} that match no file: {empty}"


@pytest.mark.parametrize("path", [p for p in LESSONS if p.stem[:2].isdigit()], ids=lambda path: path.stem)
def test_lesson_holds_its_exercises_exactly_as_the_package_writes_them(path: Path) -> None:
    """The task and stub cells are ``q.prompt`` and ``q.stub`` verbatim, so a check always judges the stub it ships with."""
    import importlib

    module = importlib.import_module(f"conductor.course.exercises.lesson{path.stem[:2]}")
    notebook = nbformat.read(path, as_version=4)
    markdown = [cell.source for cell in notebook.cells if cell.cell_type == "markdown"]
    code = [cell.source for cell in notebook.cells if cell.cell_type == "code"]
    assert module.SETUP in code, f"add a code cell `{module.SETUP}` before the exercises"
    for exercise in module.EXERCISES:
        assert exercise.prompt in markdown, f"{path.name}: the task of {exercise.title!r} differs from its .prompt"
        assert exercise.stub in code, f"{path.name}: the code cell of {exercise.title!r} differs from its .stub"
        assert code.index(exercise.stub) > code.index(module.SETUP)


def test_refresh_writes_the_exercise_cells_between_exercises_and_summary(tmp_path: Path) -> None:
    from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

    from conductor.course.exercises import lesson01
    from conductor.course.runner import apply_exercises

    notebook = new_notebook(
        cells=[
            new_markdown_cell("## Exercises\n\nHow they work."),
            new_code_cell("old_solution = 42"),
            new_markdown_cell("## Summary"),
        ]
    )
    path = tmp_path / "01_tool_chain.ipynb"
    assert apply_exercises(notebook, path)
    sources = [cell.source for cell in notebook.cells]
    assert "old_solution = 42" not in sources
    assert sources[1] == lesson01.SETUP and sources[-1] == "## Summary"
    assert sources[2:-1] == [text for q in lesson01.EXERCISES for text in (q.prompt, q.stub)]
    assert not apply_exercises(notebook, path), "a second pass changes nothing"
    assert not apply_exercises(new_notebook(cells=[new_markdown_cell("## Summary")]), path)
    assert not apply_exercises(notebook, tmp_path / "99_future.ipynb"), "no exercises module: left alone"


README_WORD_LIMIT = 1500
"""A learner's first page: the benchmarks, instructor and contributor detail live in docs/."""


def test_readme_stays_a_first_page_under_the_word_limit() -> None:
    """Counted as ``wc -w`` counts: whitespace-separated words, tables and code included."""
    words = len((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert words < README_WORD_LIMIT, (
        f"README.md has {words:,} words; a learner's first page stays under {README_WORD_LIMIT:,}: move "
        "benchmark figures, instructor and contributor detail into docs/ and link to them"
    )


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a markdown heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def markdown_anchors(path: Path) -> set[str]:
    text = re.sub(r"(?ms)^```.*?^```", "", path.read_text(encoding="utf-8"))  # no headings inside code blocks
    return {github_anchor(match) for match in re.findall(r"(?m)^#{1,6} (.+)$", text)}


MARKDOWN_PAGES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("path", MARKDOWN_PAGES, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_markdown_links_reach_files_and_headings_that_exist(path: Path) -> None:
    """Every relative link of the README and the docs opens a file, and a ``#heading`` one a heading there."""
    text = re.sub(r"(?ms)^```.*?^```", "", path.read_text(encoding="utf-8"))
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        file_part, _, anchor = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        if not linked.exists():
            broken.append(target)
        elif anchor and linked.suffix == ".md" and anchor not in markdown_anchors(linked):
            broken.append(target)
    assert not broken, f"{path.name}: links to files or headings that do not exist: {broken}"


def test_refresh_writes_the_exercise_cells_up_to_the_next_section(tmp_path: Path) -> None:
    """Lesson 08's exercises are followed by "## A gate for CI", not by the summary: that section is kept."""
    from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

    from conductor.course.exercises import lesson08
    from conductor.course.runner import apply_exercises

    gate = new_markdown_cell("## A gate for CI\n\nThe evaluation is a command too.")
    notebook = new_notebook(cells=[
        new_markdown_cell("## Exercises\n\nHow they work."), new_code_cell("old_solution = 42"), gate,
        new_code_cell("print('gate')"), new_markdown_cell("## Summary"),
    ])
    assert apply_exercises(notebook, tmp_path / "08_observe_and_evaluate.ipynb")
    sources = [cell.source for cell in notebook.cells]
    assert sources[1:-3] == [lesson08.SETUP, *(text for q in lesson08.EXERCISES for text in (q.prompt, q.stub))]
    assert sources[-3:] == [gate.source, "print('gate')", "## Summary"]


def test_readme_says_how_to_get_the_chinese_font_the_charts_look_for() -> None:
    """The font package the README names installs a family the charts pick up, and the README says to restart."""
    from conductor.charts import CJK_FONTS

    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "apt-get install fonts-noto-cjk" in text and "Noto Sans CJK SC" in CJK_FONTS
    assert "PingFang SC" in text and "PingFang SC" in CJK_FONTS and "Microsoft YaHei" in CJK_FONTS
    assert "matplotlib.get_cachedir()" in text and "restart the kernel" in text


def test_make_runs_the_course_and_the_tests_with_bytecode_caching_on() -> None:
    # PYTHONDONTWRITEBYTECODE=1 (set in some containers) would make every kernel and pytest worker compile again.
    done = subprocess.run(["make", "-n", "course", "test", "notebooks"], cwd=ROOT, capture_output=True, text=True,
                          check=True)
    runs = [line for line in done.stdout.splitlines() if " -m conductor " in line or " -m pytest" in line]
    assert len(runs) == 3 and all(line.startswith("PYTHONDONTWRITEBYTECODE= ") for line in runs), runs
