"""Every lesson and demo runs headless on each wire API (strict nbval covers the default, Responses).

The same notebooks a learner opens, executed the way ``python -m conductor course --api chat``
runs them, with the offline model's latency off. Slow volume (about four minutes of CPU for the
two APIs): ``make test`` skips it, ``make slow`` and CI run it, one notebook per test so that
pytest-xdist spreads them over its workers.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from conductor.course.runner import discover_notebooks, find_root, run_course

ROOT = find_root(Path(__file__).parent)
NOTEBOOKS = {nb.name: nb for nb in discover_notebooks(ROOT)}


def test_every_notebook_takes_an_api_parameter():
    missing = [nb.name for nb in discover_notebooks(ROOT) if "api" not in nb.parameters]
    assert not missing, f"these notebooks have no `api` parameter: {missing}"


@pytest.mark.slow
@pytest.mark.parametrize("api", ["chat", "messages"])
@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_the_notebook_runs_on_each_api(notebook: str, api: str, tmp_path: Path) -> None:
    log = io.StringIO()
    no_latency = {"latency_scale": 0} if "latency_scale" in NOTEBOOKS[notebook].parameters else {}
    report = run_course(ROOT, api=api, only=[notebook], parameters=no_latency, out_dir=tmp_path, stream=log)
    assert [r.notebook.name for r in report.results] == [notebook] and not report.failures, log.getvalue()
