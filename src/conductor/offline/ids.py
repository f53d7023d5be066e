"""Deterministic identifiers for the offline model's responses.

Real ids are random; the offline model derives them from a digest of the
request and the seed, so the same request gets the same ids and a notebook's
output does not change between runs. Each wire module decides the shapes
(prefix, alphabet, length); this module only turns a digest into characters.
"""

from __future__ import annotations

import hashlib

__all__ = ["base62", "hexadecimal"]

_BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _number(digest: bytes, label: str) -> int:
    """A 256-bit number from ``digest`` and ``label``: more bits than the longest id needs (29 base62 = 173)."""
    return int.from_bytes(hashlib.sha256(digest + label.encode()).digest(), "big")


def base62(digest: bytes, label: str, length: int) -> str:
    """``length`` characters of ``[0-9A-Za-z]`` derived from ``digest`` and ``label``."""
    number = _number(digest, label)
    chars = []
    for _ in range(length):
        number, rest = divmod(number, 62)
        chars.append(_BASE62[rest])
    return "".join(chars)


def hexadecimal(digest: bytes, label: str, length: int) -> str:
    """``length`` lower-case hex characters derived from ``digest`` and ``label``."""
    return f"{_number(digest, label):064x}"[:length]
