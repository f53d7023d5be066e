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


def _runs_on(api: str, out_dir: Path) -> None:
    log = io.StringIO()
    report = run_course(ROOT, api=api, parameters={"latency_scale": 0}, out_dir=out_dir, stream=log)
    assert report.results and not report.failures, log.getvalue()


# One class per API: pytest-xdist (--dist loadscope) gives each class to a worker, so the two
# slow runs go side by side instead of one after the other.
class TestOnChatCompletions:
    def test_every_notebook_runs(self, tmp_path):
        _runs_on("chat", tmp_path)


class TestOnMessages:
    def test_every_notebook_runs(self, tmp_path):
        _runs_on("messages", tmp_path)


def test_an_unknown_api_stops_the_run_before_any_notebook(tmp_path):
    from conductor.runner import CourseError

    with pytest.raises(CourseError, match="unknown api 'soap'; choose one of: responses, chat, messages"):
        run_course(ROOT, api="soap", out_dir=tmp_path, stream=io.StringIO())
    assert not any(tmp_path.iterdir())
