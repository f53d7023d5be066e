"""How close the stand-in's bill is to the real APIs': recorded real requests sent to it, per API.

Each recorded exchange (a request body exactly as it was sent to the real API, and the input tokens the real
response billed) is sent to a fresh stand-in on its API's path, and the input tokens the stand-in bills are
compared with the recorded ones: every input token, cached ones included (Messages: ``input_tokens`` +
``cache_read_input_tokens`` + ``cache_creation_input_tokens``, summed over ``usage.iterations`` when a
compaction pass ran). Per API it reports the share of requests billed within 20% of the recording and the
median ratio (stand-in / real). A request the stand-in rejects counts as missed: its contract must accept what
the real API accepted.

``stream`` and ``stream_options`` are left out of the body sent (the bill is read from the plain response);
a Responses body that asks for encrypted reasoning or sets ``reasoning`` was sent to a reasoning model, so
it goes to the stand-in as a reasoning model.

Run ``python -m conductor.offline.calibration tests/recorded_traffic.py`` to print the figures (the module
named must define ``RECORDED``, as ``tests/recorded_traffic.py`` does).
"""

from __future__ import annotations

import importlib.util
import json
import statistics
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import httpx2

from .latency import LatencyModel
from .model import OfflineModel

__all__ = ["Exchange", "Measured", "ApiFigures", "TOLERANCE", "billed", "measure", "figures", "report"]

TOLERANCE = 0.20  # "within 20% of the recording"
_PATHS = {"messages": "/v1/messages", "responses": "/v1/responses", "chat": "/v1/chat/completions"}
_ORIGIN = "http://offline.invalid"


class Exchange(Protocol):
    """A recorded exchange (``tests/recorded_traffic.Recorded`` is one)."""

    source: str
    interaction: int
    api: str
    model: str
    input_tokens: int
    body: dict[str, Any]


@dataclass(frozen=True)
class Measured:
    """One recorded request: what the real API billed, what the stand-in billed (None: it rejected the request)."""

    source: str
    interaction: int
    api: str
    model: str
    recorded: int
    billed: int | None
    rejected: str | None = None  # the stand-in's error, when it refused the request

    @property
    def ratio(self) -> float | None:
        """Stand-in / real; None when the stand-in rejected the request."""
        return None if self.billed is None else self.billed / max(1, self.recorded)

    @property
    def within(self) -> bool:
        """Billed within :data:`TOLERANCE` of the recording."""
        return self.ratio is not None and abs(self.ratio - 1) <= TOLERANCE


@dataclass(frozen=True)
class ApiFigures:
    """One API's figures: requests, how many billed within 20%, the median ratio of those billed, rejections."""

    api: str
    requests: int
    within: int
    median: float
    rejected: int

    @property
    def share(self) -> float:
        return self.within / self.requests if self.requests else 0.0


def total_input(api: str, usage: dict[str, Any]) -> int:
    """Every input token a response's ``usage`` bills, cached ones and every compaction pass included."""
    if api == "chat":
        return int(usage.get("prompt_tokens") or 0)
    if api == "responses":
        return int(usage.get("input_tokens") or 0)
    passes = usage.get("iterations") or [usage]
    return sum(
        int(p.get("input_tokens") or 0) + int(p.get("cache_read_input_tokens") or 0)
        + int(p.get("cache_creation_input_tokens") or 0)
        for p in passes
    )


def _reasons(api: str, body: dict[str, Any]) -> bool:
    """Was ``body`` sent to a reasoning model (as its own fields say)?"""
    return api == "responses" and (
        "reasoning.encrypted_content" in (body.get("include") or ()) or bool(body.get("reasoning"))
    )


def billed(api: str, body: dict[str, Any]) -> tuple[int | None, str | None]:
    """The input tokens a fresh stand-in bills for ``body`` on ``api``, or (None, its error) when it rejects it."""
    model = OfflineModel(latency=LatencyModel.instant(), reasoning=_reasons(api, body))
    sent = {key: value for key, value in body.items() if key not in ("stream", "stream_options")}
    headers = {"anthropic-version": "2023-06-01"} if api == "messages" else {}
    with httpx2.Client(transport=model.transport()) as client:
        response = client.post(_ORIGIN + _PATHS[api], json=sent, headers=headers)
    if response.status_code != 200:
        return None, f"{response.status_code}: {response.text[:300]}"
    return total_input(api, response.json()["usage"]), None


def measure(exchanges: Iterable[Exchange]) -> list[Measured]:
    """Send every exchange's body to the stand-in and set its bill beside the recorded one."""
    measured = []
    for exchange in exchanges:
        tokens, error = billed(exchange.api, exchange.body)
        measured.append(Measured(exchange.source, exchange.interaction, exchange.api, exchange.model,
                                 exchange.input_tokens, tokens, error))
    return measured


def figures(measured: Sequence[Measured]) -> dict[str, ApiFigures]:
    """Per API (and ``"all"``): requests, within 20%, the median ratio, rejections."""
    groups: dict[str, list[Measured]] = {}
    for item in measured:
        groups.setdefault(item.api, []).append(item)
    groups["all"] = list(measured)
    out = {}
    for api, items in groups.items():
        ratios = [item.ratio for item in items if item.ratio is not None]
        out[api] = ApiFigures(api, len(items), sum(item.within for item in items),
                              statistics.median(ratios) if ratios else 0.0,
                              sum(item.billed is None for item in items))
    return out


def report(measured: Sequence[Measured], *, every: bool = False) -> str:
    """The figures as lines of text: per API, then (with ``every``) each request."""
    lines = []
    for name, figure in figures(measured).items():
        lines.append(f"billing [{name}]: {figure.within}/{figure.requests} within {TOLERANCE:.0%} of the real bill, "
                     f"median {figure.median:.2f}x, {figure.rejected} rejected")
    if every:
        for item in measured:
            ratio = "rejected" if item.ratio is None else f"{item.ratio:.2f}x"
            lines.append(f"  {item.api:9} {item.model:20} real {item.recorded:>6} stand-in "
                         f"{item.billed if item.billed is not None else '-':>6} {ratio:>8}  "
                         f"{item.source.rsplit('/', 1)[-1]}#{item.interaction}"
                         + (f"  {item.rejected}" if item.rejected else ""))
    return "\n".join(lines)


def _load(path: str) -> Sequence[Exchange]:
    spec = importlib.util.spec_from_file_location("recorded_traffic", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.RECORDED


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m conductor.offline.calibration RECORDED_MODULE [--every] [--json]``: print the figures."""
    args = list(sys.argv[1:] if argv is None else argv)
    paths = [a for a in args if not a.startswith("--")]
    measured = measure(_load(paths[0] if paths else "tests/recorded_traffic.py"))
    if "--json" in args:
        print(json.dumps([item.__dict__ for item in measured], indent=1))
    else:
        print(report(measured, every="--every" in args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
