"""Where the course lives on GitHub, and the Colab bootstrap cell every notebook starts with.

This module is the one place that names the course's GitHub repository and
the git ref a notebook installs. The ref is the release tag of this package's
version, so a notebook opened in Colab from that tag installs the package the
notebook was executed against. To release: bump ``conductor.__version__`` (and
pyproject's ``version``, a test keeps them equal), run ``python -m conductor
refresh`` so every notebook's first code cell installs the new tag, commit,
and push the tag ``v<version>``.

A notebook cannot import this module before the package is installed, so
``python -m conductor refresh`` writes :func:`bootstrap_source` into each
notebook as plain code.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import __version__

COURSE_REPO = "conductor-course/conductor"
"""``OWNER/REPO`` of the course on GitHub (a placeholder until the repository is published)."""

COURSE_REF = f"v{__version__}"
"""The git tag of this version: what the notebooks install and what the Colab links open."""

BOOTSTRAP_MARK = '"google.colab" in sys.modules'
"""The test a bootstrap cell makes; a first code cell without it is not a bootstrap cell."""


def install_url(repo: str = COURSE_REPO, ref: str = COURSE_REF) -> str:
    """The pip requirement that installs the package at ``ref``: ``git+https://github.com/OWNER/REPO@REF``."""
    return f"git+https://github.com/{repo}@{ref}"


def bootstrap_source(repo: str = COURSE_REPO, ref: str = COURSE_REF) -> str:
    """The first code cell of every notebook: inside Colab, install the course package; elsewhere nothing.

    Outside Colab the package is already installed (``pip install -r
    requirements.txt`` installs it editable), so the cell prints nothing and
    its output stays empty for nbval.
    """
    return (
        "# Colab only: install the course package at the version of this notebook.\n"
        "# Written by `python -m conductor refresh` from src/conductor/colab.py; edit it there.\n"
        "import subprocess\n"
        "import sys\n"
        "\n"
        f'COURSE_PACKAGE = "{install_url(repo, ref)}"\n'
        "\n"
        f"if {BOOTSTRAP_MARK}:\n"
        '    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", COURSE_PACKAGE], check=True)'
    )


def apply_bootstrap(notebook: Any) -> bool:
    """Make ``notebook``'s first code cell the bootstrap cell; True when that changed the notebook.

    ``notebook`` is an ``nbformat`` v4 notebook. A first code cell that already
    tests for Colab is replaced; otherwise (say the ``parameters`` cell comes
    first) a bootstrap cell is inserted before it, so no lesson code is lost.
    """
    from nbformat.v4 import new_code_cell

    source = bootstrap_source()
    cells = notebook.cells
    first = next((index for index, cell in enumerate(cells) if cell.cell_type == "code"), None)
    if first is not None and _is_bootstrap(cells[first]):
        if cells[first].source == source:
            return False
        cells[first].source = source
        return True
    cells.insert(len(cells) if first is None else first, new_code_cell(source))
    return True


def _is_bootstrap(cell: Mapping[str, Any]) -> bool:
    return BOOTSTRAP_MARK in cell["source"] and "parameters" not in cell.get("metadata", {}).get("tags", [])
