"""Where the course lives on GitHub, and the Colab bootstrap cell every notebook starts with.

This module is the one place that names the course's GitHub repository and
the git ref a notebook installs. The ref is the release tag of this package's
version, so a notebook opened in Colab from that tag installs the package the
notebook was executed against. To release: bump ``__version__`` in ``conductor/version.py`` (and
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

from .. import __version__

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
        "# Written by `python -m conductor refresh` from src/conductor/course/colab.py; edit it there.\n"
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


# -- API keys in a notebook ------------------------------------------------------------------

KEY_SOURCES: tuple[str, ...] = ("env", "colab", "getpass")
"""Where :func:`read_key` looks: the environment variable, Colab's secrets, or a hidden prompt."""


def read_key(provider: str, source: str = "env") -> str | None:
    """The API key for ``provider``, read only from where the learner asked; never printed or logged.

    ``"env"`` returns ``None``: ``cd.connect`` then reads ``OPENAI_API_KEY`` /
    ``ANTHROPIC_API_KEY`` itself. ``"colab"`` reads the Colab secret of that name
    (the key icon in Colab's left bar), ``"getpass"`` asks for it without echoing
    it. The offline model needs no key, so it is ``None`` whatever ``source`` is.
    """
    from ..providers import KEY_VARIABLES, PROVIDERS

    if source not in KEY_SOURCES:
        raise ValueError(f"unknown key source {source!r}; choose one of: {', '.join(KEY_SOURCES)}")
    if provider not in PROVIDERS:
        raise ValueError(f"unknown provider {provider!r}; choose one of: {', '.join(PROVIDERS)}")
    if provider == "offline" or source == "env":
        return None
    variable = KEY_VARIABLES[provider]
    if source == "getpass":
        import getpass

        return getpass.getpass(f"{variable} (not shown): ").strip() or None
    return _colab_secret(variable)


def _colab_secret(variable: str) -> str:
    try:
        from google.colab import userdata  # type: ignore[import-not-found]
    except ImportError:
        raise RuntimeError(
            "key source 'colab' works inside Google Colab only; here, set the environment variable "
            f"{variable} (source 'env') or type the key at a hidden prompt (source 'getpass')"
        ) from None
    try:
        return userdata.get(variable)
    except Exception as exc:  # SecretNotFoundError, NotebookAccessError: the fix is the same
        raise RuntimeError(
            f"Colab has no secret {variable} this notebook may read ({type(exc).__name__}): add it in the "
            "key panel of Colab's left bar and switch on 'Notebook access'"
        ) from None
