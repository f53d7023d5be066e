"""The one place the library builds the offline stand-in model, for ``connect("offline")``.

The stand-in (``conductor.offline``) is a server behind the SDK clients: the library does not need it to run
a model, only to build one when a learner asks for it. ``providers`` (``connect("offline")``), ``evals`` (a
dataset's trials) and ``failover`` (the lesson's measurements) build it here; no other library module imports
``conductor.offline`` (``tests/test_layout.py`` checks it). It loads on first use: ``import conductor`` stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .offline import OfflineModel


def offline_model(
    *,
    seed: int = 0,
    latency_scale: float | None = None,
    instant: bool = False,
    gullible: bool = False,
    reasoning: bool = False,
) -> OfflineModel:
    """A new stand-in model: seeded by ``seed``, its latencies scaled by ``latency_scale`` (``None``: real-time;
    ``instant``: none at all), ``gullible`` to injected instructions, ``reasoning`` like a reasoning model."""
    from .offline import LatencyModel, OfflineModel

    if instant:
        latency = LatencyModel.instant()
    else:
        latency = LatencyModel() if latency_scale is None else LatencyModel(scale=latency_scale)
    return OfflineModel(seed=seed, latency=latency, gullible=gullible, reasoning=reasoning)


__all__ = ["OfflineModel", "offline_model"]
