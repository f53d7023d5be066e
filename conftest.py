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


def pytest_collectstart(collector: pytest.Collector) -> None:
    """Leave stderr out of nbval's output comparison."""
    if isinstance(collector, IPyNbFile):
        collector.skip_compare = (*collector.skip_compare, "stderr")

