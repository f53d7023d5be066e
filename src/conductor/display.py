"""Plain-text layout that holds in JupyterLab: display widths, padding and clipping.

Python's ``str.ljust`` and f-string widths count characters, but a Chinese
character takes two columns in a monospace font, so a table column holding
``北京`` drifts out of line. These helpers count columns the way a terminal or
JupyterLab's output area draws them (East Asian Wide and Fullwidth characters
take two, combining marks none). Written by hand because the one function it
needs (``unicodedata.east_asian_width``) is in the standard library, and the
``wcwidth`` package would be a dependency for three lines.
"""

from __future__ import annotations

import re

import unicodedata

__all__ = ["width", "ljust", "rjust", "clip", "wrap", "LINE_WIDTH"]

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

