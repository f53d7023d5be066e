"""Lesson 03's failures on demand: a weather API that times out, its cache, and the SDKs' own retries.

* :class:`WeatherAPI`: today's weather (:data:`conductor.course.scenarios.WEATHER`) behind
  a network that times out on a seeded share of calls. A timeout is worth
  retrying; an unknown city (火星, Mars) is not, and says so.
* :func:`get_weather_cached`: the fallback, an older copy of a few cities.
* :func:`measure_sdk_retries`: sends one request through an official SDK client
  to the offline model with a fault injected, and records every HTTP request
  the SDK made and how long it waited before each retry.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from . import scenarios as sc

__all__ = [
    "WeatherAPI",
    "CACHE",
    "get_weather_cached",
    "SdkRetries",
    "measure_sdk_retries",
    "format_sdk_retries",
]


class WeatherAPI:
    """A weather service whose calls time out with probability ``failure_rate`` (seeded).

    Call it like the tool it backs: ``api("北京")``. ``calls`` counts every call,
    ``timeouts`` the ones that failed on the network; ``reset()`` starts the
    count and the random sequence again. Safe to call from several threads
    (one lock around the draw), though the order of draws then follows the threads.
    """

    def __init__(self, failure_rate: float = 0.3, *, seed: int = 0) -> None:
        if not 0 <= failure_rate <= 1:
            raise ValueError(f"failure_rate is a probability from 0 to 1, got {failure_rate!r}")
        self.failure_rate = failure_rate
        self.seed = seed
        self._lock = threading.Lock()
        self.reset()

    def reset(self) -> None:
        """Start again: no calls counted, the random sequence from its seed."""
        with self._lock:
            self._rng = random.Random(self.seed)
            self.calls = 0
            self.timeouts = 0

    def __call__(self, city: str) -> dict[str, Any]:
        """Today's weather for ``city`` from the API; raises ``TimeoutError`` on a network failure."""
        with self._lock:
            self.calls += 1
            failed = self._rng.random() < self.failure_rate
            self.timeouts += failed
        if failed:
            raise TimeoutError("the weather API did not answer within 2 s; the call may be retried")
        return {**sc.get_weather.func(city), "source": "api"}

    def __repr__(self) -> str:
        return f"WeatherAPI(failure_rate={self.failure_rate}, seed={self.seed}, calls={self.calls})"


CACHE: dict[str, dict[str, Any]] = {
    "北京": {"temperature": 4, "weather": "晴", "weather_en": "sunny"},
    "上海": {"temperature": 17, "weather": "多云", "weather_en": "cloudy"},
}
"""The cached copy: yesterday's reading of two cities, in °C."""


def get_weather_cached(city: str) -> dict[str, Any]:
    """Yesterday's cached weather for a city, when the live API cannot answer.

    Args:
        city: The city name in Chinese or English, e.g. 北京 or Beijing.
    """
    key = sc.CITY_ALIASES.get(city.strip().casefold(), city.strip())
    if key not in CACHE:
        raise LookupError(f"no cached weather for {city!r}; the cache holds {', '.join(CACHE)}")
    return {"city": city, **CACHE[key], "unit": "°C", "source": "cache (yesterday)"}


# -- the SDKs' own retries ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SdkRetries:
    """One SDK call against a fault: what the SDK sent, how long it waited, how it ended."""

    api: Literal["openai", "anthropic"]
    fault: str
    max_retries: int
    statuses: tuple[int, ...]  # HTTP status of each request the SDK sent (0: no response)
    waits: tuple[float, ...]  # seconds between one request's answer and the next request
    outcome: str  # "answered", or the exception the SDK raised

    @property
    def requests(self) -> int:
        return len(self.statuses)


def _timed_client(model: Any, api: str, max_retries: int, stamps: list[tuple[str, float]]) -> Any:
    """An official client on ``model`` whose transport notes when each request left and its answer came."""
    import httpx2

    inner = model.transport()

    def handle(request: httpx2.Request) -> httpx2.Response:
        stamps.append(("sent", time.perf_counter()))
        try:
            return inner.handle_request(request)
        finally:
            stamps.append(("answered", time.perf_counter()))

    http = httpx2.Client(transport=httpx2.MockTransport(handle))
    from ..offline import model as offline_model

    if api == "openai":
        import openai

        return openai.OpenAI(
            api_key=offline_model.API_KEY, base_url=offline_model.OPENAI_BASE_URL, max_retries=max_retries,
            http_client=http,
        )
    import anthropic

    return anthropic.Anthropic(
        api_key=offline_model.API_KEY, base_url=offline_model.ANTHROPIC_BASE_URL, max_retries=max_retries,
        http_client=http,
    )


def measure_sdk_retries(
    fault: str,
    *,
    api: Literal["openai", "anthropic"] = "openai",
    max_retries: int = 2,
    times: int | None = None,
    seed: int = 0,
    **options: Any,
) -> SdkRetries:
    """Inject ``fault`` into the next ``times`` requests (all of them by default) and send one request.

    The SDK's retries happen inside that one call; the waits between its
    requests are measured on the wall clock, so they show the SDK's real
    backoff (``min(0.5 * 2**n, 8) * (1 - 0.25 * random())``) or the server's
    ``retry-after`` (fault option ``retry_after``, in seconds).
    """
    from ..offline import LatencyModel, OfflineModel

    if api not in ("openai", "anthropic"):
        raise ValueError(
            f"api= names the SDK whose retries are measured, 'openai' or 'anthropic', got {api!r}: an SDK "
            "retries the same way on every wire API it speaks"
        )
    model = OfflineModel(seed=seed, latency=LatencyModel.instant())
    model.inject(fault, times=max_retries + 1 if times is None else times, **options)
    stamps: list[tuple[str, float]] = []
    client = _timed_client(model, api, max_retries, stamps)
    question = [{"role": "user", "content": "What is 2+2?"}]
    try:
        if api == "openai":
            client.chat.completions.create(model="conductor-offline", messages=question)
        else:
            client.messages.create(model="conductor-offline", max_tokens=256, messages=question)
        outcome = "answered"
    except Exception as exc:  # noqa: BLE001 - the SDK's exception is the measurement
        outcome = type(exc).__name__
    sent = [t for kind, t in stamps if kind == "sent"]
    answered = [t for kind, t in stamps if kind == "answered"]
    return SdkRetries(
        api=api,
        fault=fault,
        max_retries=max_retries,
        statuses=tuple(r.status for r in model.requests),
        waits=tuple(nxt - prev for prev, nxt in zip(answered, sent[1:])),
        outcome=outcome,
    )


def format_sdk_retries(rows: Sequence[SdkRetries]) -> str:
    """A table: API, fault, max_retries, the statuses sent, the waits between them, the outcome."""
    lines = [f"{'api':<9}  {'fault':<12}  {'max_retries':>11}  {'statuses':<16}  {'waits':<20}  outcome"]
    for r in rows:
        waits = ", ".join(f"{w:.2f} s" for w in r.waits) or "-"
        statuses = " ".join(map(str, r.statuses))
        lines.append(f"{r.api:<9}  {r.fault:<12}  {r.max_retries:>11}  {statuses:<16}  {waits:<20}  {r.outcome}")
    return "\n".join(lines)
