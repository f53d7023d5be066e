"""Every lesson and demo runs headless on each wire API (strict nbval covers the default, Responses).

The same notebooks a learner opens, executed the way ``python -m conductor course --api chat``
runs them, with the offline model's latency off so the three runs fit in the test budget.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from conductor.runner import discover_notebooks, find_root, run_course

ROOT = find_root(Path(__file__).parent)


def test_every_notebook_takes_an_api_parameter():
    missing = [nb.name for nb in discover_notebooks(ROOT) if "api" not in nb.parameters]
    assert not missing, f"these notebooks have no `api` parameter: {missing}"


@pytest.mark.parametrize("api", ["chat", "messages"])
def test_every_notebook_runs_on_the_api(api, tmp_path):
    log = io.StringIO()
    report = run_course(ROOT, api=api, parameters={"latency_scale": 0}, out_dir=tmp_path, stream=log)
    assert report.results and not report.failures, log.getvalue()


def test_an_unknown_api_stops_the_run_before_any_notebook(tmp_path):
    from conductor.runner import CourseError

    with pytest.raises(CourseError, match="unknown api 'soap'; choose one of: responses, chat, messages"):
        run_course(ROOT, api="soap", out_dir=tmp_path, stream=io.StringIO())
    assert not any(tmp_path.iterdir())
