"""How long to wait before a retry: exponential backoff and its three jitters.

The definitions are those of AWS's "Exponential Backoff And Jitter"
(AWS Architecture Blog, 2015). With ``e = min(cap, base * 2 ** (retry - 1))``,
the exponential delay before retry number ``retry`` (1 = the first retry):

====================  ==========================================  ========================================
jitter                delay before retry ``n``                    why
====================  ==========================================  ========================================
``"none"``            ``e``                                       plain exponential: clients that failed
                                                                  together retry together
``"full"``            ``uniform(0, e)``                           spreads retries over the whole window;
                                                                  fewest calls in AWS's comparison
``"equal"``           ``e / 2 + uniform(0, e / 2)``               never waits less than half of ``e``
``"decorrelated"``    ``min(cap, uniform(base, previous * 3))``   grows from the previous delay waited
                                                                  (``previous`` = ``base`` at first)
====================  ==========================================  ========================================

Every delay lies in ``[0, cap]``. Randomness comes from the ``random.Random``
passed in, so a seeded generator gives the same schedule every time (the
lesson's figures and the tests rely on that).
"""

from __future__ import annotations

import math
import random
from typing import Literal, get_args

__all__ = ["Jitter", "JITTERS", "backoff_delay", "schedule"]

Jitter = Literal["full", "equal", "decorrelated", "none"]
JITTERS: tuple[Jitter, ...] = ("full", "equal", "decorrelated", "none")
assert JITTERS == get_args(Jitter)  # one list of names, two spellings: keep them in step


def _check(jitter: str, retry: int, base: float, cap: float, previous: float | None) -> None:
    """Raise ``ValueError`` naming the fix for arguments no backoff can use."""
    if jitter not in JITTERS:
        raise ValueError(f"unknown jitter {jitter!r}; choose one of: {', '.join(map(repr, JITTERS))}")
    if isinstance(retry, bool) or not isinstance(retry, int) or retry < 1:
        raise ValueError(f"retry must be a whole number from 1 (the first retry), got {retry!r}")
    for name, value in (("base", base), ("cap", cap)):
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < 0:
            raise ValueError(f"{name} must be a finite number of seconds >= 0, got {value!r}")
    if cap < base:
        raise ValueError(f"cap ({cap!r} s) is below base ({base!r} s); pass a cap of at least the base delay")
    if previous is not None and (not math.isfinite(previous) or previous < 0):
        raise ValueError(f"previous must be the last delay waited (seconds >= 0) or None, got {previous!r}")


def backoff_delay(
    jitter: Jitter,
    retry: int,
    *,
    base: float,
    cap: float,
    previous: float | None,
    rng: random.Random,
) -> float:
    """Seconds to wait before retry number ``retry`` (1 = the first retry).

    Args:
        jitter: ``"full"``, ``"equal"``, ``"decorrelated"`` or ``"none"`` (see the module's table).
        retry: which retry this wait comes before, from 1.
        base: the first exponential delay, in seconds.
        cap: the longest any wait may be, in seconds.
        previous: the delay waited before the last retry (only ``"decorrelated"`` reads it);
            None before the first retry.
        rng: where the randomness comes from; seed it for a reproducible schedule.
    """
    _check(jitter, retry, base, cap, previous)
    # 2.0 ** (retry - 1) overflows past retry 1025: stop doubling long after any base reaches any cap.
    exponential = float(min(cap, base * 2.0 ** min(retry - 1, 1000)))
    if jitter == "none":
        return exponential
    if jitter == "full":
        return rng.uniform(0, exponential)
    if jitter == "equal":
        return exponential / 2 + rng.uniform(0, exponential / 2)
    upper = max(base, (previous if previous is not None else base) * 3)
    return float(min(cap, rng.uniform(base, upper)))


def schedule(jitter: Jitter, retries: int, base: float, cap: float, seed: int | None = 0) -> list[float]:
    """The waits before retries 1..``retries`` for one caller, drawn from ``random.Random(seed)``.

    >>> schedule("none", 5, base=1.0, cap=8.0)
    [1.0, 2.0, 4.0, 8.0, 8.0]
    """
    if isinstance(retries, bool) or not isinstance(retries, int) or retries < 0:
        raise ValueError(f"retries must be a whole number >= 0, got {retries!r}")
    rng = random.Random(seed)
    delays: list[float] = []
    previous: float | None = None
    for retry in range(1, retries + 1):
        previous = backoff_delay(jitter, retry, base=base, cap=cap, previous=previous, rng=rng)
        delays.append(previous)
    return delays
