"""Plain-text layout that holds in JupyterLab: display widths, padding and clipping.

Python's ``str.ljust`` and f-string widths count characters, but a Chinese
character takes two columns in a monospace font, so a table column holding
``北京`` drifts out of line. These helpers count columns the way a terminal or
JupyterLab's output area draws them (East Asian Wide and Fullwidth characters
take two, combining marks none). Written by hand because the one function it
needs (``unicodedata.east_asian_width``) is in the standard library, and the
``wcwidth`` package would be a dependency for three lines.

:func:`table` lays rows out in columns at least two spaces apart, so no two header
cells run together. :func:`notebook_logging` shows the library's warnings in a
notebook as plain output lines (``conductor: ...``) instead of red-tinted stderr
boxes; ``import conductor`` turns it on by itself inside a Jupyter kernel.
"""

from __future__ import annotations

import logging
import os
import re
import sys
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

__all__ = [
    "width", "ljust", "rjust", "clip", "wrap", "table", "LINE_WIDTH",
    "in_notebook", "notebook_logging", "NotebookLogHandler",
]

LINE_WIDTH = 100  # the longest printed line the course's outputs use (no wraps in JupyterLab)


def _char_width(char: str) -> int:
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def width(text: str) -> int:
    """Columns ``text`` takes in a monospace font (``width("北京") == 4``)."""
    return sum(_char_width(c) for c in text)


def ljust(text: str, columns: int) -> str:
    """``text`` padded on the right to ``columns`` display columns."""
    return text + " " * max(0, columns - width(text))


def rjust(text: str, columns: int) -> str:
    """``text`` padded on the left to ``columns`` display columns."""
    return " " * max(0, columns - width(text)) + text


def clip(text: str, columns: int = LINE_WIDTH, *, ellipsis: str = "…") -> str:
    """``text`` on one line, cut to at most ``columns`` display columns (ending in ``…`` when cut)."""
    text = " ".join(str(text).split())
    if width(text) <= columns:
        return text
    budget = columns - width(ellipsis)
    kept, used = [], 0
    for char in text:
        w = _char_width(char)
        if used + w > budget:
            break
        kept.append(char)
        used += w
    return "".join(kept).rstrip() + ellipsis


def wrap(text: str, columns: int = LINE_WIDTH, *, indent: str = "") -> str:
    """``text`` broken into lines of at most ``columns`` display columns, each starting with ``indent``.

    Breaks at spaces where it can, and inside a word only when the word is wider
    than a line (Chinese text has no spaces to break at). Line breaks already in
    ``text`` are kept.
    """
    lines = []
    for paragraph in str(text).splitlines() or [""]:
        line = ""
        for word in paragraph.split():
            joined = f"{line} {word}" if line else word
            if width(indent + joined) <= columns:
                line = joined
                continue
            if line:
                lines.append(indent + line)
            line = ""
            # A word wider than a line (Chinese text runs on without spaces) is cut between
            # CJK characters or at the edge of a Latin run, inside a Latin run only if it alone
            # is wider than a line.
            for piece in _PIECES.findall(word):
                if width(indent + line + piece) > columns and line:
                    lines.append(indent + line)
                    line = ""
                for char in piece:
                    if width(indent + line + char) > columns and line:
                        lines.append(indent + line)
                        line = ""
                    line += char
        lines.append(indent + line)
    return "\n".join(lines)


# One CJK character (or full-width sign), or a run of anything else: the places a long word may break.
_PIECES = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]|[^\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]+")



def table(header: Sequence[object], rows: Iterable[Sequence[object]], *, align: str | None = None, gap: int = 2) -> str:
    """``rows`` under ``header`` in aligned text columns, every two columns at least ``gap`` spaces apart.

    ``align`` has one character per column, ``<`` (left) or ``>`` (right); by default
    the first column is left-aligned and the others, usually numbers, right-aligned.
    Columns are as wide as their widest cell, header included, counted in display
    columns (Chinese text lines up). Lines carry no trailing spaces.

    >>> print(table(["kind", "schema", "allowlist"], [["wrong tool", "0/11", "2/11"]]))
    kind        schema  allowlist
    wrong tool    0/11       2/11
    """
    lines = [[str(cell) for cell in header], *([str(cell) for cell in row] for row in rows)]
    columns = len(lines[0])
    if any(len(line) != columns for line in lines):
        raise ValueError(f"every row needs {columns} cells, one per header cell")
    align = align or "<" + ">" * (columns - 1)
    if len(align) != columns or set(align) - {"<", ">"}:
        raise ValueError(f"align takes one '<' or '>' per column ({columns}), got {align!r}")
    if gap < 1:
        raise ValueError(f"gap must be at least 1 space, got {gap}")
    widths = [max(width(line[i]) for line in lines) for i in range(columns)]
    pad = {"<": ljust, ">": rjust}
    return "\n".join(
        (" " * gap).join(pad[a](cell, w) for a, cell, w in zip(align, line, widths)).rstrip() for line in lines
    )


# --- the library's warnings in a notebook ---------------------------------------------------------
#
# The library logs to loggers under "conductor" and configures no handler (a library leaves that
# to the application). With none configured, Python's last-resort handler writes each warning to
# stderr, which Jupyter draws as a red-tinted box, alarming for a note such as "call 3 of
# suggest_clothing with the same arguments: not run". Inside a kernel, ``import conductor`` attaches
# the handler below instead; scripts, the CLI and pytest keep Python's default behaviour.

LOGGER_NAME = "conductor"
HANDLER_NAME = "conductor.notebook"  # how the handler is found again, also after importlib.reload


def in_notebook() -> bool:
    """Is this code running in a Jupyter kernel (JupyterLab, Notebook, VS Code, Colab, papermill)?

    False in a plain script, in terminal IPython and under pytest.
    """
    if "ipykernel" not in sys.modules:
        return False
    ipython = sys.modules.get("IPython")
    try:
        shell = ipython.get_ipython() if ipython is not None else None
    except Exception:  # an IPython half torn down at exit
        return False
    # Colab's shell subclasses ZMQInteractiveShell under another name.
    return shell is not None and any(cls.__name__ == "ZMQInteractiveShell" for cls in type(shell).__mro__)


class _PlainFormatter(logging.Formatter):
    """``conductor: <message>`` for a warning; ``conductor error: <message>`` from ERROR up."""

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        if record.levelno >= logging.ERROR:
            return f"conductor {record.levelname.lower()}: {text}"
        return f"conductor: {text}"


class NotebookLogHandler(logging.Handler):
    """Writes WARNING and above to the cell's output (``sys.stdout``) as plain lines.

    Quiet when a handler above the ``conductor`` logger (usually the root logger's,
    after ``logging.basicConfig(...)``) shows the record anyway, so a notebook that
    configures logging itself sees each line once, in its own format.
    """

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.set_name(HANDLER_NAME)
        self.setFormatter(_PlainFormatter("%(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        if _shown_above(logging.getLogger(LOGGER_NAME)):
            return
        try:
            stream = sys.stdout  # looked up per line: the kernel gives every cell's output its own stream state
            stream.write(self.format(record) + "\n")
            stream.flush()
        except Exception:
            self.handleError(record)


def _shown_above(logger: logging.Logger) -> bool:
    """Does a record that reaches ``logger`` also reach a handler of one of its ancestors?"""
    while logger.propagate and logger.parent is not None:
        logger = logger.parent
        if logger.handlers:
            return True
    return False


def _ours(logger: logging.Logger) -> list[logging.Handler]:
    return [h for h in logger.handlers if h.get_name() == HANDLER_NAME]


def notebook_logging(on: bool = True) -> NotebookLogHandler | None:
    """Show conductor's warnings as plain output lines (``on=True``), or stop (``on=False``).

    On, a :class:`NotebookLogHandler` on the ``conductor`` logger writes each warning
    to the cell's output as ``conductor: <message>`` and each error as ``conductor
    error: <message>``; INFO and DEBUG records are left to whatever handlers you add.
    ``import conductor`` turns this on by itself in a Jupyter kernel. Calling it again
    (or re-importing conductor) never adds a second handler; the one attached is returned.

    Off, the handler is removed and warnings go where Python sends them by default
    (stderr, a red-tinted box in Jupyter), or to your own handlers. Returns None.
    """
    logger = logging.getLogger(LOGGER_NAME)
    attached = _ours(logger)
    if not on:
        for handler in attached:
            logger.removeHandler(handler)
        return None
    if attached:
        return attached[0]  # type: ignore[return-value]  # may come from a reloaded copy of this module
    handler = NotebookLogHandler()
    logger.addHandler(handler)
    return handler


def _attach_in_notebook() -> None:
    """Called by ``import conductor``: the plain-lines handler in a Jupyter kernel, nothing elsewhere."""
    if in_notebook():
        notebook_logging(True)


def has_frontend() -> bool:
    """Is a live notebook frontend there to draw widgets?

    True in a kernel that JupyterLab or Jupyter Notebook started (jupyter_server
    gives each kernel a ``JPY_SESSION_NAME``) and in Colab; False headless
    (papermill, nbval) and outside IPython. ``CONDUCTOR_WIDGETS=static`` or
    ``=interactive`` overrides the guess.
    """
    choice = os.environ.get("CONDUCTOR_WIDGETS", "").strip().lower()
    if choice in ("static", "interactive"):
        return choice == "interactive"
    if "ipykernel" not in sys.modules:
        return False
    return "JPY_SESSION_NAME" in os.environ or "google.colab" in sys.modules


def progress_bar(total: int, description: str, unit: str) -> Any:
    """A tqdm progress bar: a widget where a notebook frontend draws it (JupyterLab, Colab), else text.

    Headless (papermill, nbval) a widget would be saved as its first frame, "0/200", for good, so the bar is
    text there, on stdout: a saved notebook shows it as the cell's output, not as a stderr box a learner reads
    as an error. Outside a kernel (a script, the command line) it goes to stderr, keeping stdout for results.
    """
    if has_frontend():
        from tqdm.auto import tqdm

        return tqdm(total=total, desc=description, unit=unit, mininterval=0.5)
    from tqdm import tqdm

    stream = sys.stdout if in_notebook() else sys.stderr
    return tqdm(total=total, desc=description, unit=unit, mininterval=0.5, file=stream)
