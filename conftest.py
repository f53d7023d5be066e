"""pytest set-up shared by the unit tests and nbval's notebook runs.

- Tests never see real credentials or a provider choice: the provider variables
  (keys, base URLs, ``CONDUCTOR_PROVIDER`` / ``CONDUCTOR_MODEL``) are removed before
  any test or kernel starts (kernels inherit this process's environment), so
  every notebook and test runs on the offline default.
- Figures drawn in this process use matplotlib's Agg backend, set with
  ``matplotlib.use`` rather than the ``MPLBACKEND`` variable: kernels inherit
  the environment, and ``MPLBACKEND=Agg`` there would switch off the inline
  figures the committed notebooks hold, so strict nbval would fail on them.
- nbval ignores stderr when comparing outputs (progress bars; the library's warnings go to stdout
  as plain 'conductor: ...' lines in a notebook, see conductor.display.notebook_logging).
- Kernels get ``CONDUCTOR_WIDGETS=static``: widgets render the static figure the
  committed notebooks hold, as in a headless run.
- pytest-xdist gives each worker whole notebooks (a notebook's cells share one kernel) and
  whole test modules (their module fixtures are made once); the tests of ``SPREAD_MODULES``, each a long
  unit of work, go one by one. The longest start first, so that no worker starts a long one last
  while the others stand idle: the notebooks, longest first by the seconds ``python -m conductor refresh``
  recorded for them (``course_seconds.json``, the order ``make course`` starts them in), then the spread tests,
  then the test modules, most tests first.
- Tests marked ``slow`` (volume: every notebook on the other two wire APIs) are skipped
  unless ``--slow`` is given: ``make test`` stays short, ``make slow`` and CI run them.
- Hypothesis draws the same examples on every ``make test`` (profile ``repeatable``),
  so a test run cannot go red on a new random draw; ``make fuzz`` (profile
  ``explore``) draws fresh ones to look for new failures.
"""

from __future__ import annotations

import os

from pathlib import Path

import matplotlib
import pytest
from hypothesis import settings
from nbval.plugin import IPyNbFile

PROVIDER_VARIABLES = (
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "OPENAI_ORG_ID",
    "OPENAI_PROJECT_ID",
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_AUTH_TOKEN",
    "ANTHROPIC_BASE_URL",
    "CONDUCTOR_PROVIDER",
    "CONDUCTOR_MODEL",
)

for _name in PROVIDER_VARIABLES:
    os.environ.pop(_name, None)
# nbval compares against notebooks executed headless: widgets draw their static figure there,
# even when pytest itself runs inside Jupyter (whose variables the kernels would inherit).
os.environ["CONDUCTOR_WIDGETS"] = "static"

matplotlib.use("Agg")

settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


# Modules whose tests are each a long unit of work (a notebook run, a benchmark's command): spread one by one.
SPREAD_MODULES = ("tests/test_course_apis.py", "tests/test_bench_summary.py")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", help="also run the tests marked slow (make slow; CI runs them)")


def _start_order(items: list[pytest.Item]) -> dict[str, tuple[float, ...]]:
    """Each item's file (or spread test) and its place in the start order, longest first (see the docstring)."""
    from conductor.course.runner import load_seconds

    seconds = load_seconds(Path(__file__).resolve().parent)
    sizes: dict[str, int] = {}
    for item in items:
        sizes[item.nodeid.split("::", 1)[0]] = sizes.get(item.nodeid.split("::", 1)[0], 0) + 1
    order: dict[str, tuple[float, ...]] = {}
    for item in items:
        path = item.nodeid.split("::", 1)[0]
        if isinstance(item.parent, IPyNbFile):
            order[item.nodeid] = (0, -seconds.get(path, float("inf")))
        elif path in SPREAD_MODULES:
            order[item.nodeid] = (1, 0)
        else:
            order[item.nodeid] = (2, -sizes[path])
    return order


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # The longest units first; a stable sort keeps each file's items together and in their order.
    order = _start_order(items)
    items.sort(key=lambda item: order[item.nodeid])
    if config.getoption("--slow"):
        return
    skip = pytest.mark.skip(reason="slow volume: run it with make slow (pytest --slow -m slow); CI does")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


class _SpreadSlow:
    """pytest-xdist's scheduling by scope (a notebook, a test module), except that each test of
    ``SPREAD_MODULES`` is its own, in the collection's order (longest first, see the docstring)."""

    @pytest.hookimpl(tryfirst=True)
    def pytest_xdist_make_scheduler(self, config: pytest.Config, log: object) -> object:
        from xdist.scheduler import LoadScopeScheduling

        config.option.loadscopereorder = False  # xdist would reorder the scopes by their number of tests

        class SpreadSlow(LoadScopeScheduling):
            def _split_scope(self, nodeid: str) -> str:
                return nodeid if nodeid.split("::", 1)[0] in SPREAD_MODULES else super()._split_scope(nodeid)

        return SpreadSlow(config, log)


def pytest_configure(config: pytest.Config) -> None:
    if config.pluginmanager.hasplugin("xdist"):  # not with -p no:xdist, where the hook does not exist
        config.pluginmanager.register(_SpreadSlow(), "conductor-spread-slow")


def pytest_collectstart(collector: pytest.Collector) -> None:
    """Leave stderr out of nbval's output comparison."""
    if isinstance(collector, IPyNbFile):
        collector.skip_compare = (*collector.skip_compare, "stderr")

