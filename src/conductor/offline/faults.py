"""Fault injection: the failures a real model API produces, on demand.

Two ways to ask for faults, both thread-safe:

* ``schedule.inject(Fault("rate_limit", {"retry_after": 0.001}), times=2)``:
  the next two requests get it (queued faults are served first, in order);
* ``FaultSchedule(rates={"server_error": 0.1}, seed=0)``: every request draws
  from a generator seeded once, so a run with the same seed and the same
  sequence of requests meets the same faults.

The kinds, and what the learner's code sees through the official SDKs:

* ``rate_limit``: a 429 with the real texts and headers: ``retry-after`` (whole
  seconds), ``retry-after-ms`` (the SDKs read it first, so ``retry_after=0.001``
  keeps tests fast), and OpenAI's ``x-ratelimit-*`` (resets as durations,
  ``20s``) or Anthropic's ``anthropic-ratelimit-*`` (resets as RFC 3339 times).
  Options: ``retry_after`` (seconds), ``limit`` (requests per minute),
  ``tokens_limit`` (input tokens per minute). The SDKs retry it.
* ``quota``: a 429 that waiting does not cure: OpenAI's ``insufficient_quota``
  (billing) or Anthropic's monthly spend limit. It carries no ``retry-after``,
  and the SDKs still retry it with their own backoff, resending the whole
  prompt for nothing: code must recognise it and stop.
* ``server_error``: a 500, which the SDKs retry.
* ``unavailable``: a 503, which the SDKs retry.
* ``overloaded``: a 529, Anthropic's ``overloaded_error``, which the SDKs retry.
* ``timeout``: the read times out (``httpx2.ReadTimeout``, the SDKs'
  ``APITimeoutError``); no response is sent.
* ``connection``: the connection fails (``httpx2.ConnectError``, the SDKs'
  ``APIConnectionError``); no response is sent.
* ``malformed_arguments``: the first tool call's arguments are broken (invalid
  JSON on OpenAI's APIs, an object that breaks the schema on Anthropic's).
* ``unknown_tool``: the first tool call names a tool that was not offered
  (option ``name``).
* ``truncated``: the answer is cut (``finish_reason`` length, Responses
  ``status`` incomplete, ``stop_reason`` max_tokens).
* ``refusal``: the model refuses (option ``text``).
* ``empty``: no content at all.
* ``stream_error``: an error event in the middle of a stream (a 500 when the
  request did not stream).
* ``ignore_tool_choice``: the model calls tools although ``tool_choice`` is none.

Transport faults (HTTP errors, timeouts, dropped connections) replace the
response; content faults alter what the model says. This module decides *which*
fault a request meets and how a content fault changes the model's decision; the
wire modules render the result in each API's format.
"""

from __future__ import annotations

import json
import random
import threading
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from .conversation import ApiName, CallTools, Conversation, Decision, PlannedCall

__all__ = [
    "Fault",
    "FaultContext",
    "FaultSchedule",
    "FAULT_KINDS",
    "TRANSPORT_FAULTS",
    "malform_arguments",
    "call_unknown_tool",
    "retry_headers",
]

# What each kind does is described in the module docstring.
FAULT_KINDS: tuple[str, ...] = (
    "rate_limit",  # 429 with retry-after and rate-limit headers
    "quota",  # 429 for billing: OpenAI insufficient_quota, Anthropic spend limit
    "server_error",  # 500
    "unavailable",  # 503
    "overloaded",  # 529, Anthropic's overloaded_error
    "timeout",  # the read times out: httpx2.ReadTimeout
    "connection",  # the connection fails: httpx2.ConnectError
    "malformed_arguments",  # the first tool call's arguments are broken
    "unknown_tool",  # the first tool call names a tool that was not offered
    "truncated",  # the answer is cut: finish_reason length / stop_reason max_tokens
    "refusal",  # the model refuses
    "empty",  # no content at all
    "stream_error",  # an error event in the middle of a stream
    "ignore_tool_choice",  # the model calls tools although tool_choice is none
)
DEFAULT_RETRY_AFTER = 0.5  # seconds a rate-limited client is told to wait
TRANSPORT_FAULTS = frozenset(
    {"rate_limit", "quota", "server_error", "unavailable", "overloaded", "timeout", "connection"}
)


@dataclass(frozen=True)
class Fault:
    """One fault to inject: its kind and options (e.g. ``retry_after`` seconds for rate limits)."""

    kind: str
    options: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.kind not in FAULT_KINDS:
            raise ValueError(f"unknown fault kind {self.kind!r}; choose one of: {', '.join(FAULT_KINDS)}")
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))

    @property
    def transport(self) -> bool:
        """Does this fault replace the HTTP response (rather than alter the model's answer)?"""
        return self.kind in TRANSPORT_FAULTS

    def option(self, name: str, default: Any = None) -> Any:
        return self.options.get(name, default)


@dataclass(frozen=True)
class FaultContext:
    """What a wire module needs to word an HTTP fault as the real API would.

    ``now`` is the offline model's clock (epoch seconds derived from a fixed
    date and the request, never the machine's clock), so reset times in the
    headers are reproducible.
    """

    fault: Fault
    model: str
    request_id: str
    account: bytes  # a digest of the seed: the same "organization" for every request
    now: int
    requested_tokens: int  # the refused request's input, roughly estimated

    @property
    def retry_after(self) -> float:
        """Seconds the client is told to wait (option ``retry_after``)."""
        return float(self.fault.option("retry_after", DEFAULT_RETRY_AFTER))


def retry_headers(seconds: float) -> dict[str, str]:
    """``retry-after`` in whole seconds, as the real APIs send it, and ``retry-after-ms``.

    The SDKs read ``retry-after-ms`` first, so a fault with ``retry_after=0.001``
    keeps tests fast while ``retry-after`` still looks like the real header.
    """
    return {"retry-after-ms": f"{seconds * 1000:g}", "retry-after": str(max(1, round(seconds)))}


class FaultSchedule:
    """Which fault, if any, the next request meets. Safe to share between threads."""

    def __init__(self, rates: Mapping[str, float] | None = None, seed: int = 0) -> None:
        self._rates = dict(sorted((rates or {}).items()))
        for kind, rate in self._rates.items():
            Fault(kind)  # validates the name
            if not 0 <= rate <= 1:
                raise ValueError(f"fault rate for {kind!r} must be a probability in [0, 1], got {rate}")
        self._rng = random.Random(seed)
        self._queue: deque[Fault] = deque()
        self._lock = threading.Lock()

    def inject(self, fault: Fault, times: int = 1) -> None:
        """Serve ``fault`` to the next ``times`` requests (after any already queued)."""
        if times < 1:
            raise ValueError(f"times must be at least 1, got {times}")
        with self._lock:
            self._queue.extend([fault] * times)

    def clear(self) -> None:
        """Drop the queued faults (the rates stay)."""
        with self._lock:
            self._queue.clear()

    @property
    def pending(self) -> int:
        """How many queued faults are left."""
        with self._lock:
            return len(self._queue)

    def draw(self) -> Fault | None:
        """The fault for the request being served now, or None."""
        with self._lock:
            if self._queue:
                return self._queue.popleft()
            # One draw per kind per request, in a fixed order, keeps the sequence reproducible.
            hits = [kind for kind, rate in self._rates.items() if self._rng.random() < rate]
        return Fault(hits[0]) if hits else None


def _with_first_call(decision: CallTools, call: PlannedCall) -> CallTools:
    return replace(decision, calls=(call, *decision.calls[1:]))


_WRONG_VALUE = {"string": 12345, "integer": "twelve", "number": "twelve", "boolean": "yes", "array": "x", "object": "x"}


def _wrong_object(arguments: dict[str, Any], conversation: Conversation, name: str) -> dict[str, Any]:
    """Arguments that are a JSON object but break the tool's schema (what Anthropic models get wrong)."""
    spec = conversation.tool(name)
    schema = spec.parameters if spec else {}
    required = [r for r in schema.get("required", []) if r in arguments]
    if required:
        return {k: v for k, v in arguments.items() if k != required[0]}
    properties = schema.get("properties", {})
    for key, prop in properties.items():
        wrong = _WRONG_VALUE.get(prop.get("type", "string"), 12345)
        return {**arguments, key: wrong}
    return {**arguments, "unexpected": True}


def malform_arguments(decision: Decision, conversation: Conversation, api: ApiName) -> Decision:
    """Break the first tool call's arguments.

    OpenAI's APIs (Chat Completions, Responses) send arguments as text, so they
    become invalid JSON (the closing brace is lost). Anthropic's ``input`` is
    always an object, so it becomes an object that breaks the schema: a required
    parameter missing, or a wrong type.
    """
    if not isinstance(decision, CallTools) or not decision.calls:
        return decision
    call = decision.calls[0]
    if isinstance(call.arguments, str):
        return decision  # already raw text: nothing left to break
    if api in ("chat", "responses"):
        broken = json.dumps(call.arguments, ensure_ascii=False)[:-1]
        return _with_first_call(decision, replace(call, arguments=broken))
    return _with_first_call(decision, replace(call, arguments=_wrong_object(call.arguments, conversation, call.name)))


def call_unknown_tool(decision: Decision, conversation: Conversation, name: str | None = None) -> Decision:
    """Rename the first tool call to a tool that was not offered (a hallucinated tool)."""
    if not isinstance(decision, CallTools) or not decision.calls:
        return decision
    call = decision.calls[0]
    unknown = name or f"{call.name}_v2"
    while conversation.tool(unknown) is not None:
        unknown += "_v2"
    return _with_first_call(decision, replace(call, name=unknown))
