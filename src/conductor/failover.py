"""Model-level resilience: fall over to the next model, skip a failing one for a while.

``cd.fallback(primary, backup, ...)`` is an LLM with the same ``run`` / ``arun``:
each request goes to the first model whose circuit is not open; when it fails
with an error another model may not have (rate limit, overload, 5xx, timeout,
lost connection) the same request goes to the next model, even in the middle
of a run and on another API (the conversation is kept in the neutral form and
rendered for each request's API, so every tool call id is answered). Errors
another model would meet too (a bad request, a bad key, a spent quota) raise
at once: :func:`classify` is the rule, public so the lesson can show it.

One layer owns retries: a fallback sets its members' SDK retries to
``sdk_retries`` (0 by default) on copies of their clients, so a rate-limited
primary costs one request, not three, before the backup answers.

:class:`CircuitBreaker` skips a model after ``failures`` consecutive failures
for ``cooldown`` seconds, then lets one request through (half-open) to see
whether it is back.

:func:`stacked_retries` measures, on the offline model, how retries in layers
multiply, and :func:`breaker_savings` what a breaker saves during an outage
(what one SDK call's own retries cost is :func:`conductor.course.flaky.measure_sdk_retries`).
"""

from __future__ import annotations

import contextlib
import copy
import logging
import sys
import threading
import time
from collections import deque
from collections.abc import AsyncGenerator, Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

from .apis.base import StreamFailed, system_text
from .caching import cache_key
from .providers import LLM, ProviderError, server_of
from .types import CostSplit, Usage

if TYPE_CHECKING:
    from .rounds import Conversation, RunResult

__all__ = [
    "fallback",
    "FallbackLLM",
    "CircuitBreaker",
    "CircuitStatus",
    "classify",
    "Verdict",
    "ModelFailure",
    "ModelError",
    "FatalModelError",
    "QuotaExceededError",
    "AllModelsFailedError",
    "LayerMeasurement",
    "StackedRetries",
    "stacked_retries",
    "OutageRuns",
    "BreakerSavings",
    "breaker_savings",
]

logger = logging.getLogger(__name__)

FAILURES_KEPT = 1_000  # FallbackLLM.failures keeps this many of the latest
Action = Literal["fallback", "fatal"]
State = Literal["closed", "open", "half_open"]

# Create-call options both SDKs accept with the same meaning; any other option
# belongs to one API, so a fallback across APIs refuses it up front rather than
# failing with a TypeError when the backup is first needed.
# (temperature and top_p are not among them: the pinned anthropic SDK's messages.create takes neither.)
SHARED_OPTIONS = frozenset({"timeout", "extra_headers", "extra_query", "extra_body"})

# Words that mark a 429 (or 400) as billing, not load: waiting does not cure it.
# OpenAI sends code/type insufficient_quota; Anthropic words its spend cap as a
# rate_limit_error whose message names the spend limit (code enforced_spend_limit_reached).
QUOTA_MARKERS = (
    "insufficient_quota",
    "exceeded your current quota",
    "spend limit",
    "spend_limit",
    "credit balance",
    "billing_error",
)
# Error types a provider sends for transient trouble inside a stream (no HTTP status).
TRANSIENT_TYPES = frozenset({"server_error", "api_error", "overloaded_error", "rate_limit_error"})
# Codes of a failed Responses stream (``error`` event, ``response.failed``) that another model may not hit.
TRANSIENT_STREAM_CODES = frozenset({"server_error", "rate_limit_exceeded", "vector_store_timeout"})

QUOTA_FIX = (
    "add credit or raise the spend limit in the provider's billing settings (OpenAI: "
    "platform.openai.com/settings/organization/billing; Anthropic: console.anthropic.com/settings/limits). "
    "Waiting or retrying does not help: each retry resends the whole prompt for nothing"
)
STATUS_FIXES = {
    400: "fix the request (the provider's message says what it rejected); another model or a retry would be "
    "rejected too",
    401: "check the API key (OPENAI_API_KEY / ANTHROPIC_API_KEY): it is missing, revoked or for another provider",
    403: "this key may not use this model or feature: check the organization's or workspace's permissions",
    404: "check the model name and base_url: this provider does not serve that model there",
    413: "the request is too large: shorten the conversation, the tool outputs or the tool list",
}
UNSTORED_ITEM = "Items are not persisted when `store` is set to false"
UNSTORED_ITEM_FIX = (
    "an item the model made earlier in the run was sent back without its content (store=False keeps nothing): "
    "for a reasoning model whose name conductor does not know, connect with reasoning=True, or pass "
    "server_state=True to run()"
)
CLIENT_FIX = "fix the request as the provider's message says; retrying or another model will not help"


# -- classifying errors ---------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """What a model fallback does with one error, and why.

    ``action`` is ``"fallback"`` (try the next model) or ``"fatal"`` (raise now);
    ``kind`` names the error (``rate_limit``, ``overloaded``, ``server_error``,
    ``timeout``, ``connection``, ``quota``, ``bad_request``, ...); ``message`` is
    the provider's own text; ``fix`` says what to do about a fatal one.
    """

    action: Action
    kind: str
    reason: str
    status: int | None = None
    message: str = ""
    fix: str = ""

    def __str__(self) -> str:
        return f"{self.action}: {self.reason}"


def _sdk_classes(name: str) -> tuple[type, ...]:
    """The SDKs' exception classes called ``name``, from the SDKs already loaded (never imports one)."""
    found = (getattr(sys.modules.get(sdk), name, None) for sdk in ("openai", "anthropic"))
    return tuple(c for c in found if isinstance(c, type))


def _error_fields(exc: BaseException) -> tuple[str, str, str]:
    """The provider's message, error code and error type from an SDK error's body (either API's shape)."""
    body = getattr(exc, "body", None)
    inner = body.get("error") if isinstance(body, dict) and isinstance(body.get("error"), dict) else body
    if isinstance(inner, dict):
        message = inner.get("message")
        return str(message or getattr(exc, "message", exc)), str(inner.get("code") or ""), str(inner.get("type") or "")
    return str(getattr(exc, "message", exc)), str(getattr(exc, "code", "") or ""), str(getattr(exc, "type", "") or "")


def _is_quota(message: str, code: str, type_: str) -> bool:
    text = f"{code} {type_} {message}".lower()
    return any(marker in text for marker in QUOTA_MARKERS)


def classify(exc: BaseException) -> Verdict:
    """Should a model fallback try the next model after ``exc``, or raise at once?

    Fallback: 429 rate limits, 529 overload, other 5xx, 408, timeouts and lost
    connections (another model, or the same one later, may well answer).
    Fatal: a quota or spend-limit 429 (billing: waiting does not cure it), every
    other 4xx (the request, the key or the model name is wrong, and would be for
    the next model too), and anything that is not a model API error at all.
    """
    if isinstance(exc, _sdk_classes("APITimeoutError") + (TimeoutError,)):
        return Verdict("fallback", "timeout", "the request timed out", message=str(exc))
    if isinstance(exc, _sdk_classes("APIConnectionError") + (ConnectionError,)):
        return Verdict("fallback", "connection", "the connection failed", message=str(exc))
    message, code, type_ = _error_fields(exc)
    if isinstance(exc, _sdk_classes("APIStatusError")):
        return _classify_status(int(exc.status_code), message, code, type_)  # type: ignore[attr-defined]
    if isinstance(exc, _sdk_classes("APIError")):  # an error event inside a stream: no HTTP status
        if _is_quota(message, code, type_):
            return Verdict("fatal", "quota", "the account's quota or spend limit is used up", None, message, QUOTA_FIX)
        if type_ in TRANSIENT_TYPES:
            return Verdict("fallback", "stream_error", f"the provider reported {type_} mid-response", None, message)
        return Verdict("fatal", "api_error", f"the provider reported {type_ or 'an error'}", None, message, CLIENT_FIX)
    if isinstance(exc, StreamFailed):  # a Responses stream's error event or failed response: data, not an SDK error
        code = exc.code or ""
        if _is_quota(str(exc), code, ""):
            return Verdict("fatal", "quota", "the account's quota or spend limit is used up", None, str(exc), QUOTA_FIX)
        if code in TRANSIENT_STREAM_CODES:
            return Verdict("fallback", "stream_error", f"the provider reported {code} mid-response", None, str(exc))
        return Verdict("fatal", "api_error", f"the provider reported {code or 'an error'}", None, str(exc), CLIENT_FIX)
    return Verdict("fatal", "not_api", f"{type(exc).__name__} is not a model API error", message=str(exc))


def _classify_status(status: int, message: str, code: str, type_: str) -> Verdict:
    if _is_quota(message, code, type_):
        reason = f"{status}: the account's quota or spend limit is used up"
        return Verdict("fatal", "quota", reason, status, message, QUOTA_FIX)
    if status == 429:
        return Verdict("fallback", "rate_limit", "429: rate limited", status, message)
    if status == 529 or type_ == "overloaded_error":
        return Verdict("fallback", "overloaded", f"{status}: the model is overloaded", status, message)
    if status >= 500:
        return Verdict("fallback", "server_error", f"{status}: the provider failed", status, message)
    if status == 408:
        return Verdict("fallback", "timeout", "408: the server timed out waiting for the request", status, message)
    kinds = {400: "bad_request", 401: "authentication", 403: "permission", 404: "not_found", 413: "too_large"}
    kind = kinds.get(status, "client_error")
    fix = STATUS_FIXES.get(status, CLIENT_FIX)
    if status == 404 and UNSTORED_ITEM in (message or ""):
        fix = UNSTORED_ITEM_FIX  # the model exists: an item it made was replayed without its content
    return Verdict("fatal", kind, f"{status}: the request was refused", status, message, fix)


# -- errors ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ModelFailure:
    """One model that did not answer one request: which, why, and what the fallback did."""

    model: str  # the member's name (see FallbackLLM.names)
    kind: str  # Verdict.kind, or "circuit_open" when the breaker skipped the model
    action: Literal["fallback", "fatal", "skipped"]
    message: str  # the provider's message, or why the model was skipped
    status: int | None = None
    request: int = 0  # the run's request number (1-based) it happened on

    def __str__(self) -> str:
        status = f" {self.status}" if self.status else ""
        return f"{self.model}: {self.kind}{status}: {self.message}"


class ModelError(RuntimeError):
    """A model request failed in a way a fallback could not cover."""


class FatalModelError(ModelError):
    """An error another model or a retry would not cure: the message says what to do."""

    def __init__(self, model: str, provider: str, verdict: Verdict) -> None:
        self.model = model
        self.provider = provider
        self.verdict = verdict
        self.status = verdict.status
        self.kind = verdict.kind
        status = f" ({verdict.status})" if verdict.status else ""
        super().__init__(
            f"{model} on {provider} refused the request{status}: {verdict.message}\n"
            f"Not retried and no fallback tried: {verdict.fix}."
        )


class QuotaExceededError(FatalModelError):
    """The account's quota or spend limit is used up (OpenAI insufficient_quota, Anthropic spend limit)."""


class AllModelsFailedError(ModelError):
    """Every model of a fallback failed (or was skipped by its circuit breaker) for one request."""

    def __init__(self, failures: Sequence[ModelFailure]) -> None:
        self.failures = tuple(failures)
        lines = "\n".join(f"  - {failure}" for failure in self.failures)
        super().__init__(
            f"every model failed this request:\n{lines}\n"
            "Try again later, add a model from another provider to the fallback (cd.connect('offline') never "
            "fails unless told to), or give the circuit breaker a shorter cooldown."
        )


# -- the circuit breaker --------------------------------------------------------------


@dataclass
class _Circuit:
    state: State = "closed"
    failures: int = 0  # consecutive
    opened_at: float = 0.0
    probing: bool = False  # half-open: the one trial request is in flight


@dataclass(frozen=True)
class CircuitStatus:
    """One model's circuit as seen now."""

    model: str
    state: State  # "half_open" once the cooldown is over, until the trial request settles it
    failures: int  # consecutive failures so far
    retry_in: float  # seconds until an open circuit lets a trial request through (0 otherwise)


class CircuitBreaker:
    """Skip a model after ``failures`` consecutive failures, for ``cooldown`` seconds.

    States per model: ``closed`` (requests go through), ``open`` (skipped until
    the cooldown ends), ``half_open`` (one trial request goes through: success
    closes the circuit, failure opens it for another cooldown, and so does a
    trial that ends with no verdict: cancelled, cut by a deadline, a stream the
    reader left before it began; one that had begun streaming closes it). ``clock`` is
    injectable so tests and lessons need not wait. Safe to share between
    threads and tasks, and between several fallbacks (circuits are keyed by
    model name).
    """

    def __init__(
        self, failures: int = 3, cooldown: float = 30.0, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        if isinstance(failures, bool) or not isinstance(failures, int) or failures < 1:
            raise ValueError(f"failures must be a whole number of at least 1, got {failures!r}")
        if not cooldown >= 0:
            raise ValueError(f"cooldown must be seconds, 0 or more, got {cooldown!r}")
        self.failures = failures
        self.cooldown = float(cooldown)
        self.clock = clock
        self._circuits: dict[str, _Circuit] = {}
        self._lock = threading.Lock()  # held only briefly, never across an await

    def __repr__(self) -> str:
        states = ", ".join(f"{name}={state}" for name, state in self.states().items())
        return f"CircuitBreaker(failures={self.failures}, cooldown={self.cooldown:g}, {{{states}}})"

    def _circuit(self, model: str) -> _Circuit:
        return self._circuits.setdefault(model, _Circuit())

    def _cooled(self, circuit: _Circuit) -> bool:
        return self.clock() - circuit.opened_at >= self.cooldown

    def allow(self, model: str) -> bool:
        """May a request go to ``model`` now? An open circuit past its cooldown admits one trial."""
        with self._lock:
            circuit = self._circuit(model)
            if circuit.state == "closed":
                return True
            if circuit.state == "open":
                if not self._cooled(circuit):
                    return False
                circuit.state = "half_open"
                logger.info("circuit of %s is half-open: one trial request goes through", model)
            if circuit.probing:
                return False
            circuit.probing = True
            return True

    def record_success(self, model: str) -> None:
        """``model`` answered: its circuit closes and its failure count restarts."""
        with self._lock:
            circuit = self._circuit(model)
            if circuit.state != "closed":
                logger.info("circuit of %s closed: it answered again", model)
            self._circuits[model] = _Circuit()

    def record_failure(self, model: str) -> None:
        """``model`` failed: count it, and open the circuit at the limit or after a failed trial."""
        with self._lock:
            circuit = self._circuit(model)
            circuit.failures += 1
            trial_failed = circuit.state == "half_open"
            if trial_failed or (circuit.state == "closed" and circuit.failures >= self.failures):
                circuit.state, circuit.opened_at, circuit.probing = "open", self.clock(), False
                logger.warning(
                    "circuit of %s opened after %d consecutive failures: skipped for %g s",
                    model,
                    circuit.failures,
                    self.cooldown,
                )

    def release(self, model: str) -> None:
        """A request admitted to ``model`` ended without telling whether it is healthy.

        It was cancelled (the run's deadline, asyncio), the reader left the stream before
        it began, or it failed with an error that is not the API's. A half-open circuit
        opens again for another cooldown: its trial showed nothing, and a circuit left
        half-open with no trial in flight would not be probed by the next request's rules
        alone. A closed circuit stays as it is.
        """
        with self._lock:
            circuit = self._circuit(model)
            if circuit.state == "half_open":
                circuit.state, circuit.opened_at = "open", self.clock()
                logger.info("circuit of %s open again: its trial request ended without an answer", model)
            circuit.probing = False

    def status(self, model: str) -> CircuitStatus:
        """``model``'s circuit now (a model never seen is closed)."""
        with self._lock:
            circuit = self._circuits.get(model, _Circuit())
            state = circuit.state
            retry_in = 0.0
            if state == "open":
                if self._cooled(circuit):  # the very test allow() makes, so the two never disagree
                    state = "half_open"
                else:
                    retry_in = max(0.0, circuit.opened_at + self.cooldown - self.clock())
            return CircuitStatus(model, state, circuit.failures, retry_in)

    def state(self, model: str) -> State:
        """``"closed"``, ``"open"`` or ``"half_open"`` for ``model``."""
        return self.status(model).state

    def states(self) -> dict[str, State]:
        """Every model seen so far and its state."""
        with self._lock:
            names = list(self._circuits)
        return {name: self.state(name) for name in names}

    def table(self) -> str:
        """Every model's circuit as plain text: state, consecutive failures, seconds until a trial."""
        with self._lock:
            names = list(self._circuits)
        rows = [self.status(name) for name in names]
        width = max([len("model"), *(len(r.model) for r in rows)])
        lines = [f"{'model':<{width}}  {'state':<9}  {'failures':>8}  {'trial in':>8}"]
        lines += [f"{r.model:<{width}}  {r.state:<9}  {r.failures:>8}  {r.retry_in:>7.1f}s" for r in rows]
        return "\n".join(lines)

    def reset(self) -> None:
        """Close every circuit (a fresh start for the next experiment)."""
        with self._lock:
            self._circuits.clear()


# -- the fallback LLM -----------------------------------------------------------------


def _names(members: Sequence[LLM]) -> list[str]:
    """A distinct name per member: its model, made longer only where two members share one."""
    names = [m.model for m in members]
    if len(set(names)) < len(names):
        names = [f"{m.provider}:{m.api}:{m.model}" for m in members]
    seen: dict[str, int] = {}
    unique = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        unique.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return unique


def _with_sdk_retries(member: LLM, sdk_retries: int | None) -> LLM:
    """A copy of ``member`` whose client retries ``sdk_retries`` times; the caller's object is untouched."""
    if sdk_retries is None:
        return member
    clone = copy.copy(member)
    clone.client = member.client.with_options(max_retries=sdk_retries)  # shares the HTTP connection pool
    return clone


class _Request:
    """One request's trip along the fallback chain: which model next, what failed, and when to give up."""

    def __init__(self, llm: FallbackLLM, conversation: Conversation, request: dict[str, Any]) -> None:
        self.llm = llm
        self.conversation = conversation
        self.request = request
        self.sent = request  # as the driver sent it (a deadline may have set its timeout)
        self.started = time.perf_counter()
        self.number = len(conversation.model_calls) + 1
        self.failures: list[ModelFailure] = []
        self.member = llm.members[0]  # the member being tried, and its name
        self.name = llm.names[0]
        self.admitted: str | None = None  # a member the breaker let through, until its outcome is recorded
        self.began = False  # the admitted member's stream has delivered its first event

    def __iter__(self) -> Iterator[tuple[LLM, dict[str, Any]]]:
        """The members to try, in order, each with the request rendered for its model and API."""
        for member, name in zip(self.llm.members, self.llm.names):
            self.member, self.name = member, name
            if self.llm.breaker is not None:
                if not self.llm.breaker.allow(name):
                    retry_in = self.llm.breaker.status(name).retry_in
                    self._fail(ModelFailure(name, "circuit_open", "skipped", f"circuit open, retry in {retry_in:.1f} s"))
                    continue
                self.admitted, self.began = name, False
            conversation = self.conversation
            settings = conversation.settings
            if (conversation.adapter.api, settings.model, conversation.provider, settings.cache) != (
                member.api,
                member.model,
                member.provider,
                member.cache,
            ):
                conversation.switch(
                    adapter=member.adapter, model=member.model, price=member.cost_split, provider=member.provider,
                    server=server_of(member.client),
                )
                # The member's own connect() settings: its prompt cache (cache=False sends no caching field,
                # "1h" the one-hour form), not the first member's.
                conversation.settings = replace(conversation.settings, cache=member.cache)
                rerendered = conversation.next_request()
                if rerendered is not None and conversation.limits.waiting is not None:
                    # Mid-request there is no waiting for other requests' reservations: it ends as a refusal.
                    conversation.limits.give_up_waiting(conversation)
                    return
                if rerendered is None:  # the budget or deadline stopped the run at this model's prices
                    return
                self.request = _carry_transport_options(self.request, rerendered)
            if not self._within_deadline():
                return
            yield member, self.request

    def _within_deadline(self) -> bool:
        """Shrink a driver-set ``timeout`` (a run's deadline) by the time spent; False once it is used up.

        A ``timeout`` the learner passed to ``run`` is per request and stays as it is.
        """
        timeout = self.sent.get("timeout")
        if not isinstance(timeout, (int, float)) or "timeout" in self.conversation.settings.options:
            return True
        left = timeout - (time.perf_counter() - self.started)
        if left <= 0:
            self._fail(ModelFailure(self.name, "deadline", "skipped", "the run's deadline has passed"))
            return False
        self.request = {**self.request, "timeout": left}
        return True

    def _fail(self, failure: ModelFailure) -> None:
        failure = replace(failure, request=self.number)
        self.failures.append(failure)
        self.llm._note(failure)

    def failed(self, exc: Exception) -> None:
        """Record ``exc`` from the current member; raise unless the next member should be tried."""
        verdict = classify(_unshown_cause(exc))
        breaker = self.llm.breaker
        self.admitted = None
        if verdict.kind == "not_api":
            if breaker is not None:
                breaker.release(self.name)
            raise exc
        if verdict.action == "fatal":
            if breaker is not None:
                breaker.record_success(self.name)  # it answered: the model is up, the request is at fault
            self._fail(ModelFailure(self.name, verdict.kind, "fatal", verdict.message, verdict.status))
            error_class = QuotaExceededError if verdict.kind == "quota" else FatalModelError
            raise error_class(self.member.model, self.member.provider, verdict) from exc
        if breaker is not None:
            breaker.record_failure(self.name)
        self._fail(ModelFailure(self.name, verdict.kind, "fallback", verdict.message, verdict.status))
        # info, not warning: falling over is the fallback working; llm.failures keeps the record
        logger.info("request %d: %s failed (%s); trying the next model", self.number, self.name, verdict.reason)

    def broke_off(self, exc: Exception) -> None:
        """The current member's stream broke after text was shown: too late to fall over, but it counts."""
        self.admitted = None
        if self.llm.breaker is not None:
            self.llm.breaker.record_failure(self.name)
        self._fail(ModelFailure(self.name, "stream_broke", "fatal", str(exc)))

    def answered(self) -> None:
        self.admitted = None
        if self.llm.breaker is not None:
            self.llm.breaker.record_success(self.name)
        if self.failures:
            logger.info("request %d answered by %s after %d failure(s)", self.number, self.name, len(self.failures))

    def close(self) -> None:
        """The trip is over, however it ended: a member let through with no outcome recorded yet (cancelled,
        stopped at the deadline, a stream the reader left) leaves the breaker's half-open state.

        A stream that had begun answering shows the model is up: its circuit closes. Otherwise it
        opens again (:meth:`CircuitBreaker.release`).
        """
        name, self.admitted = self.admitted, None
        if name is None or self.llm.breaker is None:
            return
        if self.began:
            self.llm.breaker.record_success(name)
        else:
            self.llm.breaker.release(name)

    def exhausted(self) -> AllModelsFailedError:
        return AllModelsFailedError(self.failures)


def _carry_transport_options(sent: dict[str, Any], rebuilt: dict[str, Any]) -> dict[str, Any]:
    """``rebuilt`` with the per-request transport options the driver set on ``sent`` (a deadline's ``timeout``).

    A request rebuilt for another model comes from the conversation, so what was
    added to the request itself after it was built would otherwise be lost.
    """
    transport = SHARED_OPTIONS
    carried = {key: sent[key] for key in transport if key in sent and key not in rebuilt}
    return {**rebuilt, **carried} if carried else rebuilt


def _unshown_cause(exc: Exception) -> BaseException:
    """The error to judge: for a stream that broke before any text was shown, the SDK error behind it.

    Falling over is safe until the reader has seen part of an answer; after
    that, the break is raised as it is (``conductor.streaming.StreamInterrupted``).
    """
    if getattr(exc, "partial_text", None) == "" and exc.__cause__ is not None:
        return exc.__cause__
    return exc


class FallbackLLM(LLM):
    """Several models behind one LLM: each request goes to the first that answers.

    Build one with :func:`fallback`. ``run`` / ``arun`` are the LLM's own;
    ``members`` are copies of the models given (with their SDK retries set to
    ``sdk_retries``), ``names`` their names in the breaker and in ``failures``,
    the record of every model that failed or was skipped, across runs.
    """

    def __init__(
        self,
        members: Sequence[LLM],
        *,
        breaker: CircuitBreaker | None = None,
        sdk_retries: int | None = 0,
        names: Sequence[str] | None = None,
    ) -> None:
        members = list(members)
        _check_members(members, sdk_retries)
        self.members = [_with_sdk_retries(m, sdk_retries) for m in members]
        primary = self.members[0]
        super().__init__(
            provider=primary.provider,
            api=primary.api,
            model=primary.model,
            client=primary.client,
            offline=primary.offline,
            cache=primary.cache,  # a run's first request is built with these settings, for the primary
        )
        self.is_async = primary.is_async
        self.names = list(names) if names is not None else _names(members)
        if len(self.names) != len(members) or len(set(self.names)) != len(self.names):
            raise ValueError(f"names= needs one distinct name per model ({len(members)}), got {self.names!r}")
        self.breaker = breaker
        self.sdk_retries = sdk_retries
        # The latest failures across runs (bounded: a long batch must not grow it for ever).
        self.failures: deque[ModelFailure] = deque(maxlen=FAILURES_KEPT)
        self._failures_lock = threading.Lock()

    def __repr__(self) -> str:
        members = ", ".join(repr(m) for m in self.members)
        return f"FallbackLLM([{members}], sdk_retries={self.sdk_retries}, breaker={self.breaker!r})"

    def _note(self, failure: ModelFailure) -> None:
        with self._failures_lock:
            self.failures.append(failure)

    def _conversation(self, *args: Any, **kwargs: Any) -> Conversation:
        conversation = super()._conversation(*args, **kwargs)
        apis = {m.api for m in self.members}
        if conversation.settings.server_state:
            raise ValueError(
                "server_state=True keeps the conversation on OpenAI's servers (previous_response_id), where no "
                "other model or API can continue it, so a fallback cannot fall over; leave server_state out "
                "(requests then carry the whole conversation, and any member can take the run over)"
            )
        only_one_api = sorted(set(conversation.settings.options) - SHARED_OPTIONS)
        if len(apis) > 1 and only_one_api:
            raise ValueError(
                f"this fallback spans the {', '.join(sorted(apis))} APIs, so {', '.join(only_one_api)} would break "
                f"the request to another one; pass only options all accept ({', '.join(sorted(SHARED_OPTIONS))})"
            )
        if conversation.settings.cache_key is None:
            # The primary caches nothing, but a backup may: it needs the run's key. The APIs send the key only
            # where the request's cache setting is not False (conductor.caching), so the primary still sends none.
            settings = conversation.settings
            key = cache_key(system_text(settings.system), settings.tools.names)
            conversation.settings = replace(settings, cache_key=key)
        # A request may go to any member: a budget must hold the worst case at the dearest one's prices.
        conversation.worst_price = self.worst_price  # type: ignore[attr-defined]
        # Any member may answer: a dollar budget needs every member's price, known before the first request.
        conversation.limits.require_prices([m.prices for m in self.members])
        return conversation

    def worst_price(self, usage: Usage) -> CostSplit:
        """``usage`` priced at the member that would charge the most for it."""
        return max((m.cost_split(usage) for m in self.members), key=lambda split: split.total)

    # Each trip ends in a `finally`: a cancelled request (the deadline, asyncio) or a stream the reader
    # left raises no Exception here, yet must not leave its model's circuit half-open for good.

    def _create(self, conversation: Conversation, request: dict[str, Any]) -> Any:
        trip = _Request(self, conversation, request)
        try:
            for member, rendered in trip:
                try:
                    response = member._create(conversation, rendered)
                except Exception as exc:
                    trip.failed(exc)
                    continue
                trip.answered()
                return response
        finally:
            trip.close()
        if conversation.final is not None:  # stopped while switching models: no request to send
            return None
        raise trip.exhausted()

    async def _acreate(self, conversation: Conversation, request: dict[str, Any]) -> Any:
        trip = _Request(self, conversation, request)
        try:
            for member, rendered in trip:
                try:
                    response = await member._acreate(conversation, rendered)
                except Exception as exc:
                    trip.failed(exc)
                    continue
                trip.answered()
                return response
        finally:
            trip.close()
        if conversation.final is not None:  # stopped while switching models: no request to send
            return None
        raise trip.exhausted()

    def _stream_request(
        self, conversation: Conversation, request: dict[str, Any], index: int
    ) -> Generator[Any, None, None]:
        """One streamed request: falls over until the first text arrives, never after."""
        trip = _Request(self, conversation, request)
        try:
            for member, rendered in trip:
                with contextlib.closing(member._stream_request(conversation, rendered, index)) as items:
                    try:
                        first = next(items)
                    except StopIteration:
                        trip.answered()
                        return
                    except Exception as exc:
                        trip.failed(exc)
                        continue
                    trip.began = True
                    try:
                        yield first
                        yield from items
                    except Exception as exc:
                        trip.broke_off(exc)
                        raise
                trip.answered()
                return
        finally:
            trip.close()
        if conversation.final is not None:  # stopped while switching models: nothing streamed
            return
        raise trip.exhausted()

    async def _astream_request(
        self, conversation: Conversation, request: dict[str, Any], index: int
    ) -> AsyncGenerator[Any, None]:
        """:meth:`_stream_request` on the event loop."""
        trip = _Request(self, conversation, request)
        try:
            for member, rendered in trip:
                async with contextlib.aclosing(member._astream_request(conversation, rendered, index)) as items:
                    try:
                        first = await anext(items)
                    except StopAsyncIteration:
                        trip.answered()
                        return
                    except Exception as exc:
                        trip.failed(exc)
                        continue
                    trip.began = True
                    try:
                        yield first
                        async for item in items:
                            yield item
                    except Exception as exc:
                        trip.broke_off(exc)
                        raise
                trip.answered()
                return
        finally:
            trip.close()
        if conversation.final is not None:  # stopped while switching models: nothing streamed
            return
        raise trip.exhausted()

    def _result(self, conversation: Conversation) -> RunResult:
        """The run's result; a run answered by several models names them all (each request keeps its own price)."""
        used: list[LLM] = []
        for call in conversation.model_calls:
            member = next((m for m in self.members if (m.model, m.provider) == (call.model, call.provider)), None)
            if member is not None and member not in used:
                used.append(member)
        used = used or [self.members[0]]
        first = used[0]
        return conversation.result(
            model_name=" + ".join(m.model for m in used),
            priced_as=" + ".join(dict.fromkeys(m.prices.model for m in used)),
            prices=(first.prices.input_per_mtok, first.prices.output_per_mtok),
        )


def _check_members(members: list[LLM], sdk_retries: int | None) -> None:
    if not members:
        raise ValueError("fallback() needs at least one model: cd.fallback(primary, backup, ...)")
    for member in members:
        if isinstance(member, FallbackLLM):
            raise ValueError("a fallback cannot hold another fallback: list the models themselves, in order")
        if not isinstance(member, LLM):
            raise TypeError(f"fallback() takes models made with cd.connect(...), got {type(member).__name__}")
    if len({m.is_async for m in members}) > 1:
        sync = [m.model for m in members if not m.is_async]
        raise ProviderError(
            f"mix of sync and async clients ({', '.join(sync)} sync): connect every model the same way, all with "
            "asynchronous=True for `await llm.arun(...)`, or all without it for llm.run (arun works with those too)"
        )
    whole = isinstance(sdk_retries, int) and not isinstance(sdk_retries, bool)
    if sdk_retries is not None and (not whole or sdk_retries < 0):
        raise ValueError(
            f"sdk_retries must be a whole number, 0 or more (or None to keep each client's), got {sdk_retries!r}"
        )


def fallback(
    *llms: LLM,
    breaker: CircuitBreaker | None = None,
    sdk_retries: int | None = 0,
    names: Sequence[str] | None = None,
) -> FallbackLLM:
    """One LLM that tries ``llms`` in order for every request.

    Falls over on rate limits, overload, 5xx, timeouts and connection errors
    (see :func:`classify`); raises at once on a quota 429 or another 4xx.
    ``sdk_retries`` (default 0) replaces each client's own retries so that one
    layer owns retrying (``None`` keeps them: waits then multiply). ``breaker``
    skips a model that keeps failing. ``names`` overrides the members' names. Each request goes out with
    the settings its member was connected with (``cache=``: a member with ``cache=False`` sends no caching
    field, one with ``cache="1h"`` the one-hour form).
    """
    return FallbackLLM(llms, breaker=breaker, sdk_retries=sdk_retries, names=names)


# -- measurements for the lesson ------------------------------------------------------


def _instant_offline(api: str, max_retries: int, model: str | None = None) -> LLM:
    from .providers import connect
    from .standin import offline_model

    offline = offline_model(instant=True)
    api_name: Any = api
    return connect("offline", api=api_name, model=model, max_retries=max_retries, offline_model=offline)


@dataclass(frozen=True)
class LayerMeasurement:
    """One outage met by stacked retry layers: how many requests it cost and how long it took."""

    sdk_retries: int  # each client's own retries
    attempts: int  # the caller's attempts at the whole run (a tool's or app's retry)
    models: int  # models in the fallback
    requests: int  # HTTP requests the models received
    seconds: float
    error: str  # what the caller finally saw

    @property
    def expected_requests(self) -> int:
        """attempts x models x (1 + sdk_retries): the layers multiply."""
        return self.attempts * self.models * (1 + self.sdk_retries)


@dataclass(frozen=True)
class StackedRetries:
    """The stacked-retries trap measured: every layer retrying, then one layer owning retries."""

    before: LayerMeasurement
    after: LayerMeasurement

    def table(self) -> str:
        header = f"{'':<8} {'sdk':>4} {'attempts':>8} {'models':>6} {'requests':>8} {'seconds':>8}"
        lines = [header]
        for label, m in (("before", self.before), ("after", self.after)):
            lines.append(
                f"{label:<8} {m.sdk_retries:>4} {m.attempts:>8} {m.models:>6} {m.requests:>8} {m.seconds:>7.2f}s"
            )
        return "\n".join(lines)


def _outage(
    sdk_retries: int, attempts: int, models: int, kind: str, retry_after: float, wait: float
) -> LayerMeasurement:
    """Every model down with ``kind``; the caller retries the whole run ``attempts`` times."""
    import tenacity

    members = [_instant_offline("openai", 2, model=f"model-{i + 1}") for i in range(models)]
    for member in members:
        assert member.offline is not None
        member.offline.inject(kind, times=attempts * (1 + sdk_retries), retry_after=retry_after)
    llm = fallback(*members, sdk_retries=sdk_retries)
    retrying = tenacity.Retrying(
        stop=tenacity.stop_after_attempt(attempts),
        wait=tenacity.wait_random_exponential(multiplier=wait, max=wait * 8),
        retry=tenacity.retry_if_exception_type(ModelError),
        reraise=True,
    )
    started = time.perf_counter()
    error = ""
    try:
        retrying(llm.run, "What is 2 + 2?")
    except ModelError as exc:
        error = type(exc).__name__
    seconds = time.perf_counter() - started
    requests = sum(len(m.offline.requests) for m in members if m.offline is not None)
    return LayerMeasurement(sdk_retries, attempts, models, requests, seconds, error)


def stacked_retries(
    *,
    sdk_retries: int = 2,
    attempts: int = 3,
    models: int = 2,
    kind: str = "rate_limit",
    retry_after: float = 0.05,
    wait: float = 0.05,
) -> StackedRetries:
    """Measure an outage of every model with retries in three layers, then with one.

    Before: each SDK retries ``sdk_retries`` times, the fallback tries
    ``models`` models, and the caller retries the whole run ``attempts`` times
    (tenacity, full jitter from ``wait`` seconds): attempts x models x (1 +
    sdk_retries) requests. After: the fallback owns retries (SDK retries 0,
    one attempt), so the outage costs one request per model. Faults tell the
    SDK to wait ``retry_after`` seconds (real APIs say 20 s and more).
    """
    return StackedRetries(
        before=_outage(sdk_retries, attempts, models, kind, retry_after, wait),
        after=_outage(0, 1, models, kind, retry_after, wait),
    )


@dataclass(frozen=True)
class OutageRuns:
    """``runs`` runs in a row while the primary is down and the backup is fine."""

    breaker: str  # "none", or the breaker's settings
    runs: int
    primary_requests: int  # failed requests the primary cost
    backup_requests: int
    seconds: float


@dataclass(frozen=True)
class BreakerSavings:
    """The same outage met without and with a circuit breaker."""

    without: OutageRuns
    with_breaker: OutageRuns

    def table(self) -> str:
        header = f"{'breaker':<28} {'runs':>4} {'primary reqs':>12} {'backup reqs':>11} {'seconds':>8}"
        lines = [header]
        for m in (self.without, self.with_breaker):
            lines.append(
                f"{m.breaker:<28} {m.runs:>4} {m.primary_requests:>12} {m.backup_requests:>11} {m.seconds:>7.2f}s"
            )
        return "\n".join(lines)


def _runs_in_outage(runs: int, kind: str, breaker: CircuitBreaker | None) -> OutageRuns:
    primary, backup = _instant_offline("openai", 0, "primary"), _instant_offline("anthropic", 0, "backup")
    assert primary.offline is not None and backup.offline is not None
    primary.offline.inject(kind, times=runs, retry_after=0.001)
    llm = fallback(primary, backup, breaker=breaker)
    started = time.perf_counter()
    for _ in range(runs):
        llm.run("What is 2 + 2?")
    seconds = time.perf_counter() - started
    label = "none" if breaker is None else f"failures={breaker.failures}, cooldown={breaker.cooldown:g}"
    return OutageRuns(label, runs, len(primary.offline.requests), len(backup.offline.requests), seconds)


def breaker_savings(
    runs: int = 10, *, failures: int = 1, cooldown: float = 30.0, kind: str = "overloaded"
) -> BreakerSavings:
    """Measure ``runs`` runs while the primary fails with ``kind``, without and with a breaker.

    Without one, every run pays a failed request to the primary before the
    backup answers; with ``CircuitBreaker(failures, cooldown)`` only the first
    ``failures`` do, until the cooldown ends. (Here a failure is instant; a real
    outage's timeout or 529 costs seconds each.)
    """
    return BreakerSavings(
        without=_runs_in_outage(runs, kind, None),
        with_breaker=_runs_in_outage(runs, kind, CircuitBreaker(failures=failures, cooldown=cooldown)),
    )
