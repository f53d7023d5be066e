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
  whole test modules (their module fixtures are made once), notebooks first; the slow
  notebook runs of ``SPREAD_MODULES`` go one by one.
- Tests marked ``slow`` (volume: every notebook on the other two wire APIs) are skipped
  unless ``--slow`` is given: ``make test`` stays short, ``make slow`` and CI run them.
- Hypothesis draws the same examples on every ``make test`` (profile ``repeatable``),
  so a test run cannot go red on a new random draw; ``make fuzz`` (profile
  ``explore``) draws fresh ones to look for new failures.
"""

from __future__ import annotations

import os

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


# Modules of slow tests whose tests are each a long unit of work (a notebook run each): spread one by one.
SPREAD_MODULES = ("tests/test_course_apis.py",)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", help="also run the tests marked slow (make slow; CI runs them)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Notebooks first: each is one long unit of work, and starting them last would leave one worker busy at the end.
    items.sort(key=lambda item: not isinstance(item.parent, IPyNbFile))
    if config.getoption("--slow"):
        return
    skip = pytest.mark.skip(reason="slow volume: run it with make slow (pytest --slow -m slow); CI does")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


class _SpreadSlow:
    """pytest-xdist's scheduling by scope (a notebook, a test module), except that each slow test is its own."""

    @pytest.hookimpl(tryfirst=True)
    def pytest_xdist_make_scheduler(self, config: pytest.Config, log: object) -> object:
        from xdist.scheduler import LoadScopeScheduling

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

