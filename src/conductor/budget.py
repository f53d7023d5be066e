"""Budgets and deadlines checked *before* each model request.

Frameworks learners know check a cost limit after each response, so the
request that crosses the limit has already been sent and billed. Here the
worst case of the next request is priced before it goes out: its estimated
input tokens plus every output token it may generate (``max_tokens``), at the
model's prices. A request whose worst case does not fit in what is left is not
sent; the run ends with the best answer it has and ``stopped_by="budget"``.

A deadline works the same way: before each request the time left is compared
with the slowest request of the run so far, so the run ends in time rather than
one request late (``stopped_by="deadline"``); tool calls are cut at the
deadline by :mod:`conductor.execution`.

Under a deadline no wait starts that would end past it: the SDK's own retries
are switched off for the run's requests and made here instead, with the SDK's
rules (which errors, how long ``retry-after`` says to wait), so a 429 that asks
for 20 s ends a 1 s run at once rather than 20 s late.

One :class:`Ledger` holds one budget's spending and is safe to share between
threads and concurrent runs: the worst case is *reserved* before a request and
settled to the real usage when the response arrives, so ten runs sharing a
batch budget cannot cross it together either. A request given up while it may
still be answered (cancelled at the deadline, timed out, a stream the reader
left) keeps its worst case as spent: the provider bills it if it completes.
A dollar budget needs the model's price: for a model with none known the run is
refused at the start (:class:`UnpricedModelError`), naming a token budget instead.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import sys
import threading
import time
import weakref
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from .apis.base import HiddenPrompt
from .tokens import estimate_tokens
from .apis.hosted import search_ceiling
from .apis.responses import is_reasoning_model
from .caching import cache_write_ttl
from .types import CostSplit, ToolResult, Turn, Usage, UserMessage

if TYPE_CHECKING:
    from .pricing import ModelPrice
    from .state import RunState as Conversation  # the loop's Conversation, as this module reads it

T = TypeVar("T")

__all__ = [
    "Budget",
    "Spend",
    "Ledger",
    "RunLimits",
    "DeadlineReached",
    "UnpricedModelError",
    "estimate_input_tokens",
    "worst_case",
    "first_request_worst_case",
    "stopped_answer",
    "DEFAULT_OUTPUT_CEILING",
    "REASONING_OUTPUT_CEILING",
    "INPUT_MARGIN",
]

logger = logging.getLogger(__name__)

DEFAULT_OUTPUT_CEILING = 4096
"""``max_tokens`` set on a budgeted request that has none (OpenAI needs none): without a ceiling
the output, and so the worst case, has no bound."""
REASONING_OUTPUT_CEILING = 25_000
"""The same for a reasoning model, whose hidden reasoning counts as output: OpenAI's advice is to
leave at least 25,000 tokens for reasoning and the answer, or the answer is cut off mid-thought."""

INPUT_MARGIN = 1.25
"""The input estimate (4 characters a token, 1 per CJK character, over the request's JSON) times
this: real tokenizers count JSON punctuation nearer 3 characters a token."""


@dataclass(frozen=True)
class Budget:
    """At most ``usd`` US dollars and ``tokens`` tokens (input + output); ``None`` means no limit."""

    usd: float | None = None
    tokens: int | None = None

    def __post_init__(self) -> None:
        if self.usd is None and self.tokens is None:
            raise ValueError("a Budget needs a limit: Budget(usd=0.01), Budget(tokens=20_000) or both")
        if self.usd is not None and (isinstance(self.usd, bool) or not self.usd >= 0):
            raise ValueError(f"Budget usd must be a number of dollars, 0 or more, got {self.usd!r}")
        if self.tokens is not None and (isinstance(self.tokens, bool) or not isinstance(self.tokens, int)
                                        or self.tokens < 0):
            raise ValueError(f"Budget tokens must be a whole number, 0 or more, got {self.tokens!r}")

    def __str__(self) -> str:
        parts = [f"${self.usd:g}" if self.usd is not None else "", f"{self.tokens:,} tokens" if self.tokens else ""]
        return " and ".join(p for p in parts if p) or "$0"


@dataclass(frozen=True)
class Spend:
    """An amount of spending: dollars and tokens."""

    usd: float = 0.0
    tokens: int = 0

    def __add__(self, other: Spend) -> Spend:
        return Spend(self.usd + other.usd, self.tokens + other.tokens)

    def __sub__(self, other: Spend) -> Spend:
        return Spend(self.usd - other.usd, self.tokens - other.tokens)

    @classmethod
    def of(cls, usage: Usage, cost: float) -> Spend:
        return cls(cost, usage.input_tokens + usage.output_tokens)


class Ledger:
    """One budget's spending, shared safely between threads and concurrent runs.

    :meth:`reserve` takes a request's worst case out of what is left, or
    refuses; :meth:`settle` replaces the reservation by what the request
    really cost; :meth:`release` gives it back (the request was never answered).
    """

    def __init__(self, budget: Budget) -> None:
        if not isinstance(budget, Budget):
            raise TypeError(f"Ledger takes a cd.Budget, got {type(budget).__name__}")
        self.budget = budget
        self._spent = Spend()
        self._reserved = Spend()
        self._refused = 0
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)  # a reservation settled or was given back
        self._version = 0
        self._holding = 0  # open reservations (counted: sums of floats never quite come back to 0)

    def __repr__(self) -> str:
        return f"Ledger({self.budget}, spent=${self.spent.usd:.6f} / {self.spent.tokens} tokens)"

    @property
    def spent(self) -> Spend:
        with self._lock:
            return self._spent

    @property
    def reserved(self) -> Spend:
        with self._lock:
            return self._reserved

    @property
    def refused(self) -> int:
        """Requests this budget kept from being sent."""
        with self._lock:
            return self._refused

    def remaining(self) -> Spend:
        """What is left once spending and open reservations are taken out (``inf`` where unlimited)."""
        with self._lock:
            return self._left()

    def _left(self) -> Spend:
        used = self._spent + self._reserved
        usd = math.inf if self.budget.usd is None else self.budget.usd - used.usd
        tokens = math.inf if self.budget.tokens is None else self.budget.tokens - used.tokens
        return Spend(usd, tokens)  # type: ignore[arg-type]  # inf marks "no limit"

    def reserve(self, worst: Spend) -> bool | None:
        """Hold ``worst`` for a request about to be sent: True when held; None (nothing held) when it would fit but
        other requests' reservations hold the rest for now; False when it does not fit what is left unspent."""
        with self._lock:
            left = self._left()
            if worst.usd <= left.usd and worst.tokens <= left.tokens:
                self._reserved = self._reserved + worst
                self._holding += 1
                return True
            unspent = left + self._reserved
            if self._holding and worst.usd <= unspent.usd and worst.tokens <= unspent.tokens:
                return None
            self._refused += 1
            return False

    @property
    def version(self) -> int:
        """How many reservations have settled or been given back: a waiting request tries again when it moves."""
        with self._lock:
            return self._version

    def wait_for_change(self, seen: int, timeout: float) -> None:
        """Block (a thread, never the event loop) until :attr:`version` moves past ``seen``, or ``timeout`` passes."""
        with self._changed:
            self._changed.wait_for(lambda: self._version != seen, timeout)

    def settle(self, worst: Spend, actual: Spend) -> None:
        """The request held ``worst`` and really cost ``actual``."""
        if actual.usd > worst.usd + 1e-12 or actual.tokens > worst.tokens:
            logger.warning(
                "a request cost more than its worst-case estimate ($%.6f / %d tokens against $%.6f / %d); "
                "the budget may be crossed by the difference", actual.usd, actual.tokens, worst.usd, worst.tokens,
            )
        with self._lock:
            self._reserved = self._reserved - worst
            self._spent = self._spent + actual
            self._moved()

    def release(self, worst: Spend) -> None:
        """Give back a reservation whose request got no response."""
        with self._lock:
            self._reserved = self._reserved - worst
            self._moved()

    def _moved(self) -> None:
        self._holding -= 1
        self._version += 1
        self._changed.notify_all()


# -- the worst case of one request ------------------------------------------------------------


def estimate_input_tokens(conversation: Conversation, request: dict[str, Any]) -> int:
    """An upper estimate of a request's input tokens: the whole conversation, system text and tools as JSON.

    The whole conversation, not only what the request carries: with server state
    (``previous_response_id``) the request sends the new items, but the model reads,
    and the provider bills, everything before them too.
    Input the API adds by itself, known as a token count (:class:`~conductor.apis.base.HiddenPrompt`,
    e.g. Anthropic's tool-use system prompt), is added as it is.
    """
    extras = conversation.adapter.prompt_extras(request)
    hidden = sum(value.tokens for value in extras.values() if isinstance(value, HiddenPrompt))
    parts = {"conversation": conversation.messages}
    parts.update((key, value) for key, value in extras.items() if not isinstance(value, HiddenPrompt))
    text = json.dumps(parts, ensure_ascii=False, default=str)
    return math.ceil(estimate_tokens(text) * INPUT_MARGIN) + hidden


def output_ceiling(conversation: Conversation, request: dict[str, Any]) -> int:
    """The most output tokens a request may generate; when it has no limit, sets :data:`DEFAULT_OUTPUT_CEILING`
    (:data:`REASONING_OUTPUT_CEILING` for a model known to reason)."""
    reasons = is_reasoning_model(conversation.settings.model)
    return conversation.adapter.output_limit(request, REASONING_OUTPUT_CEILING if reasons else DEFAULT_OUTPUT_CEILING)


def worst_case(conversation: Conversation, request: dict[str, Any], price: Callable[[Usage], CostSplit]) -> Spend:
    """What ``request`` can cost at most: estimated input (at the cache-write price where it may write the
    cache) plus its output limit, at ``price``, and every web search its hosted tools allow (Anthropic's
    ``max_uses``; an unbounded search tool adds none)."""
    input_tokens = estimate_input_tokens(conversation, request)
    # A request marked for caching may write its whole prompt to the cache, billed above the input price
    # (Anthropic: 1.25x for 5 minutes, 2x for an hour): the worst case prices every input token as written.
    ttl = cache_write_ttl(request)
    usage = Usage(
        input_tokens=input_tokens,
        output_tokens=output_ceiling(conversation, request),
        web_search_requests=search_ceiling(request),
        cache_write_tokens=input_tokens if ttl else 0,
        cache_write_1h_tokens=input_tokens if ttl == "1h" else 0,
    )
    return Spend(price(usage).total, usage.input_tokens + usage.output_tokens)


def first_request_worst_case(
    llm: Any, question: str, *, tools: Sequence[Any] = (), max_tokens: int | None = None, system: str | None = None
) -> Spend:
    """The worst case of the first request ``llm.run(question, ...)`` would send, priced as the budget check does.

    Sends nothing: the request is built, estimated and priced. Useful to size a budget.
    """
    conversation = llm._conversation(question, tools, 1, system, None, max_tokens, None, None, {})
    request = conversation.next_request()
    return worst_case(conversation, request, conversation.price)


# -- the best answer a stopped run has -----------------------------------------------------------

_REASONS = {
    "budget": "the budget ({detail}) would not cover another request",
    "deadline": "the deadline ({detail}) came before another request could finish",
    "error": "the run failed ({detail})",
}


_REASONS_ZH = {
    "budget": "预算({detail})不够再发一次请求",
    "deadline": "时限({detail})到了,来不及完成下一次请求",
    "error": "运行失败({detail})",
}


def stopped_answer(conversation: Conversation, reason: str, detail: str) -> str:
    """The model's latest answer to this question, else a sentence saying why the run stopped and what the tools
    returned. Text beside tool calls is not an answer ("Let me look that up"), so it is passed over."""
    for message in reversed(conversation.neutral):
        if isinstance(message, UserMessage):
            break
        if isinstance(message, Turn) and message.text.strip() and not message.tool_calls:
            return message.text
    # The stop is said in the question's language, with the words the stand-in's answers use too.
    from .language import language_of  # loaded with the first stopped run: word lists
    from .wording import result_words

    question = next((m.text for m in reversed(conversation.neutral) if isinstance(m, UserMessage)), "")
    chinese = language_of(question if isinstance(question, str) else "") == "zh"
    if chinese:
        detail = detail[:-2] + "秒" if detail.endswith(" s") and detail[:-2].replace(".", "").isdigit() else detail
    why = (_REASONS_ZH if chinese else _REASONS).get(reason, "{detail}").format(detail=detail)
    results = [m for m in conversation.neutral if isinstance(m, ToolResult)]
    if not results:
        return f"没有回答:{why}。" if chinese else f"No answer: {why}."
    found = ("；" if chinese else "; ").join(
        result_words(r.name, r.content, r.is_error, "zh" if chinese else "en") for r in results)
    if chinese:
        return f"没有写出回答:{why}。工具返回了:{found}"
    return f"No answer was written: {why}. The tools returned: {found}"


# -- one run's limits ---------------------------------------------------------------------------------


class DeadlineReached(TimeoutError):
    """A model request was cancelled, or not retried, because the run's deadline came."""


class UnpricedModelError(ValueError):
    """A dollar budget for a model whose price is not known: it cannot be kept, so the run is refused."""


# -- the SDK's retries, made here under a deadline ---------------------------------------------

_UNRETRIED: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()
_UNRETRIED_LOCK = threading.Lock()
_BUDGET_POLL = 0.5  # seconds a request waiting for room in a shared budget waits before it checks again anyway
_BUDGET_STEP = 0.002  # how often an async one looks


def _without_retries(client: Any) -> Any:
    """``client`` with the SDK's own retries off (one copy per client, sharing its connection pool)."""
    if client.max_retries == 0:
        return client
    with _UNRETRIED_LOCK:
        once = _UNRETRIED.get(client)
        if once is None:
            once = _UNRETRIED[client] = client.with_options(max_retries=0)
        return once


class _RetryCount:
    """What the SDK's ``_calculate_retry_timeout`` reads of a request's options: how many retries it has."""

    def __init__(self, retries: int) -> None:
        self.retries = retries

    def get_max_retries(self, default: int) -> int:
        return self.retries


def sdk_retry_wait(client: Any, error: BaseException, retries_taken: int) -> float | None:
    """Seconds ``client``'s SDK would wait before retrying after ``error``, or None when it would not retry.

    The SDK's own rules (openai and anthropic share them, but for how long a
    ``retry-after`` they honour): connection errors and timeouts, 408, 409, 429
    and 5xx are retried, ``client.max_retries`` times, after ``retry-after`` or
    an exponential backoff with jitter. Asked of the client's own (private)
    ``_should_retry`` and ``_calculate_retry_timeout``, so the answer is its SDK
    version's, openai's 120 s cap on ``retry-after`` included.
    """
    sdk = sys.modules.get(type(client).__module__.partition(".")[0])
    retries = client.max_retries
    if sdk is None or retries_taken >= retries:
        return None
    headers = None
    if isinstance(error, sdk.APIStatusError):
        if not client._should_retry(error.response):
            return None
        headers = error.response.headers
    elif not isinstance(error, sdk.APIConnectionError):  # APITimeoutError is one too
        return None
    return float(client._calculate_retry_timeout(retries - retries_taken, _RetryCount(retries), headers))


def _refused(error: BaseException) -> bool:
    """Did the API answer with an error status? Then it processed nothing it bills."""
    return isinstance(getattr(error, "status_code", None), int) and getattr(error, "response", None) is not None


def _bounded(left: float, timeout: Any) -> float:
    """A per-request timeout of at most ``left`` seconds (a learner's shorter number is kept)."""
    return min(left, timeout) if isinstance(timeout, int | float) and not isinstance(timeout, bool) else left


class RunLimits:
    """The budgets and deadline of one run, checked before each of its requests.

    ``ledgers``: every budget the run draws on (its own, and a batch's shared
    one). ``deadline``: seconds from the start of the run. ``before_send`` is
    called with the run and the request just before it goes out, after the
    checks (the orchestrator paces requests and reports progress there);
    ``abefore_send`` is its async twin for ``arun``.
    """

    def __init__(
        self,
        ledgers: Sequence[Ledger] = (),
        deadline: float | None = None,
        *,
        before_send: Callable[[Conversation, dict[str, Any]], None] | None = None,
        abefore_send: Callable[[Conversation, dict[str, Any]], Any] | None = None,
    ) -> None:
        if deadline is not None and (isinstance(deadline, bool) or not deadline > 0):
            raise ValueError(f"deadline must be a number of seconds above 0, got {deadline!r}")
        self.ledgers = tuple(ledgers)
        self.deadline = deadline
        self.before_send = before_send
        self.abefore_send = abefore_send
        self._open: Spend | None = None
        self._billable = False  # the request holding _open went out and may be billed
        # A request that fits the budget but not beside other requests' open reservations waits for them to
        # settle (pace / apace) instead of ending its run: outcomes must not depend on how many run at once.
        self.waiting: tuple[Ledger, int] | None = None

    @classmethod
    def of(cls, budget: Budget | Ledger | Sequence[Budget | Ledger] | None, deadline: float | None) -> RunLimits:
        """Limits from ``llm.run``'s ``budget=`` (a Budget, a shared Ledger, or several) and ``deadline=``."""
        if budget is None:
            items: Sequence[Any] = ()
        elif isinstance(budget, Budget | Ledger):
            items = (budget,)
        elif isinstance(budget, list | tuple):
            items = budget
        else:
            raise TypeError(f"budget= takes cd.Budget(usd=..., tokens=...), got {type(budget).__name__}")
        ledgers = []
        for item in items:
            if isinstance(item, Budget):
                ledgers.append(Ledger(item))
            elif isinstance(item, Ledger):
                ledgers.append(item)
            else:
                raise TypeError(f"budget= takes cd.Budget(usd=..., tokens=...), got {type(item).__name__}")
        return cls(ledgers, deadline)

    @property
    def active(self) -> bool:
        return bool(self.ledgers) or self.deadline is not None

    def require_prices(self, prices: Sequence[ModelPrice]) -> None:
        """Refuse a dollar budget when one of the models a run may use has no known price.

        Counted as $0, such a model would let every request through: the budget would
        promise what it cannot keep. A token budget needs no price.
        """
        dollars = [ledger.budget for ledger in self.ledgers if ledger.budget.usd is not None]
        unpriced = [price for price in prices if not price.known]
        if not dollars or not unpriced:
            return
        names = ", ".join(f"{price.model!r} on {price.provider}" for price in unpriced)
        raise UnpricedModelError(
            f"no price is known for {names} ({unpriced[0].source}), so the dollar budget {dollars[0]} cannot be "
            "kept: its requests would count as $0. Pass a token budget instead, cd.Budget(tokens=20_000), "
            "or connect to a model genai-prices knows"
        )

    def deadline_at(self, conversation: Conversation) -> float | None:
        """The deadline as a ``time.perf_counter()`` value, or None."""
        return None if self.deadline is None else conversation.origin + self.deadline

    def time_left(self, conversation: Conversation) -> float:
        at = self.deadline_at(conversation)
        return math.inf if at is None else at - time.perf_counter()

    def _slowest(self, conversation: Conversation) -> float:
        return max((c.seconds for c in conversation.model_calls), default=0.0)

    def check(self, conversation: Conversation, request: dict[str, Any]) -> tuple[str, str] | None:
        """``(reason, detail)`` when ``request`` must not be sent, else None (its worst case is then held)."""
        if self.deadline is not None:
            left = self.time_left(conversation)
            if left <= 0 or left < self._slowest(conversation):
                return "deadline", f"{self.deadline:g} s"
            # The SDK's own timeout for this request: a sync request cannot be cancelled otherwise.
            request["timeout"] = _bounded(left, request.get("timeout"))
        if not self.ledgers:
            return None
        # A request built again before it was sent (a model fallback renders it for another model)
        # replaces the reservation of the first rendering: one request holds one reservation.
        self.abandon()
        worst = worst_case(conversation, request, conversation.price)
        held: list[Ledger] = []
        for ledger in self.ledgers:
            seen = ledger.version
            verdict = ledger.reserve(worst)
            if verdict is not True:
                for other in held:
                    other.release(worst)
                if verdict is None:
                    self.waiting = (ledger, seen)
                    return None
                logger.info("request not sent: its worst case ($%.6f, %d tokens) exceeds what is left of %s",
                            worst.usd, worst.tokens, ledger.budget)
                return "budget", str(ledger.budget)
            held.append(ledger)
        self._open = worst
        self._billable = False
        return None

    # -- what the drivers call around each request ---------------------------------------------

    def pace(self, conversation: Conversation, request: dict[str, Any]) -> bool:
        """Wait for room in a shared budget, then run ``before_send`` (which may wait); False when either
        stopped the run instead."""
        while self.waiting is not None:
            ledger, seen = self.waiting
            ledger.wait_for_change(seen, timeout=min(_BUDGET_POLL, max(self.time_left(conversation), 0.0)))
            self._try_again(conversation, request)
        if conversation.final is None and self.before_send is not None:
            self.before_send(conversation, request)
        return self._still_on(conversation)

    async def apace(self, conversation: Conversation, request: dict[str, Any]) -> bool:
        """The async twin of :meth:`pace` (``abefore_send``, else ``before_send``)."""
        while self.waiting is not None:
            ledger, seen = self.waiting
            # Polled, never blocked on: the requests that will settle run on this same event loop.
            waited = 0.0
            while ledger.version == seen and waited < _BUDGET_POLL and self.time_left(conversation) > 0:
                await asyncio.sleep(_BUDGET_STEP)
                waited += _BUDGET_STEP
            self._try_again(conversation, request)
        if conversation.final is not None:
            return self._still_on(conversation)
        if self.abefore_send is not None:
            await self.abefore_send(conversation, request)
        elif self.before_send is not None:
            self.before_send(conversation, request)
        return self._still_on(conversation)

    def give_up_waiting(self, conversation: Conversation) -> None:
        """End the run as a budget refusal instead of waiting for room (where no waiting is possible)."""
        ledger, _ = self.waiting or (None, 0)
        self.waiting = None
        if ledger is not None:
            conversation.stop("budget", stopped_answer(conversation, "budget", str(ledger.budget)))

    def _try_again(self, conversation: Conversation, request: dict[str, Any]) -> None:
        """The waiting request's budget check once more: held, still waiting, or the run stopped."""
        self.waiting = None
        refused = self.check(conversation, request)
        if refused is not None:
            conversation.stop(refused[0], stopped_answer(conversation, *refused))

    def _still_on(self, conversation: Conversation) -> bool:
        if conversation.final is None:
            return True
        self.abandon()
        return False

    def send(
        self, conversation: Conversation, client: Any, call: Callable[[Any, dict[str, Any]], T], request: dict[str, Any]
    ) -> T:
        """``call(client, request)``: one request sent with a sync client (``call`` may open a stream).

        Under a deadline, the SDK's own retries are made here instead, each with the
        time left as its timeout, and none whose wait would end past the deadline:
        the SDK would sleep as long as a ``retry-after`` says (openai up to 120 s,
        anthropic any time at all). Raises :class:`DeadlineReached` instead.
        """
        if self.deadline is None:
            return self._attempt(call, client, request)
        once = _without_retries(client)
        retries_taken = 0
        while True:
            try:
                return self._attempt(call, once, self._timed(conversation, request))
            except Exception as error:
                wait = self._retry_wait(conversation, client, error, retries_taken)
            time.sleep(wait)
            retries_taken += 1

    async def asend(
        self,
        conversation: Conversation,
        client: Any,
        call: Callable[[Any, dict[str, Any]], Awaitable[T]],
        request: dict[str, Any],
    ) -> T:
        """:meth:`send` with an async client."""
        if self.deadline is None:
            return await self._aattempt(call, client, request)
        once = _without_retries(client)
        retries_taken = 0
        while True:
            try:
                return await self._aattempt(call, once, self._timed(conversation, request))
            except Exception as error:
                wait = self._retry_wait(conversation, client, error, retries_taken)
            await asyncio.sleep(wait)
            retries_taken += 1

    def _timed(self, conversation: Conversation, request: dict[str, Any]) -> dict[str, Any]:
        """``request`` with the time left as its timeout; DeadlineReached when none is left."""
        left = self.time_left(conversation)
        if left <= 0:
            raise DeadlineReached(f"the deadline ({self.deadline:g} s) came before the request could be sent")
        return {**request, "timeout": _bounded(left, request.get("timeout"))}

    def _retry_wait(self, conversation: Conversation, client: Any, error: Exception, retries_taken: int) -> float:
        """The wait before the next attempt; re-raises ``error`` when the SDK would not retry it, and raises
        DeadlineReached when the retry could not end before the deadline (its wait plus the slowest request)."""
        wait = sdk_retry_wait(client, error, retries_taken)
        if wait is None:
            raise error
        if wait + self._slowest(conversation) >= self.time_left(conversation):
            raise DeadlineReached(
                f"the request failed ({type(error).__name__}) and its retry in {wait:.1f} s would end past the "
                f"deadline ({self.deadline:g} s)"
            ) from error
        logger.info("request failed (%s); retrying in %.2f s, within the deadline", type(error).__name__, wait)
        return wait

    def _attempt(self, call: Callable[[Any, dict[str, Any]], T], client: Any, kwargs: dict[str, Any]) -> T:
        billable = self._billable
        self._billable = True  # from here the provider may process, and bill, the request
        try:
            return call(client, kwargs)
        except Exception as error:
            if _refused(error):
                self._billable = billable
            raise

    async def _aattempt(
        self, call: Callable[[Any, dict[str, Any]], Awaitable[T]], client: Any, kwargs: dict[str, Any]
    ) -> T:
        billable = self._billable
        self._billable = True  # a cancellation (the deadline) leaves it so: the request may still complete
        try:
            return await call(client, kwargs)
        except Exception as error:
            if _refused(error):
                self._billable = billable
            raise

    async def within_deadline(self, conversation: Conversation, awaitable: Awaitable[T]) -> T:
        """Await ``awaitable`` in this task, cancelled at the deadline (raises :class:`DeadlineReached`)."""
        if self.deadline is None:
            return await awaitable
        timeout = asyncio.timeout(max(self.time_left(conversation), 0.0))
        try:
            async with timeout:
                return await awaitable
        except TimeoutError as exc:
            if not timeout.expired():  # the awaitable's own timeout, not the deadline's
                raise
            raise DeadlineReached(f"the request was still running at the deadline ({self.deadline:g} s)") from exc

    def overran(self, conversation: Conversation, exc: BaseException) -> bool:
        """A request failed with ``exc``: when the deadline caused it, stop the run there and say True."""
        if self.deadline is None or not (isinstance(exc, DeadlineReached) or self.time_left(conversation) <= 0):
            return False
        self.abandon()
        logger.info("request abandoned at the deadline: %s", exc)
        conversation.stop("deadline", stopped_answer(conversation, "deadline", f"{self.deadline:g} s"))
        return True

    def settle(self, usage: Usage, cost: float) -> None:
        """The request answered with ``usage`` costing ``cost``: replace its reservation by that."""
        if self._open is None:
            return
        actual = Spend.of(usage, cost)
        for ledger in self.ledgers:
            ledger.settle(self._open, actual)
        self._open = None

    def abandon(self) -> None:
        """The request held gets no response here: settle its reservation.

        Given back when nothing was sent or the API refused it (an error status);
        kept as spent when it went out and may still complete (cancelled at the
        deadline, timed out, a stream left mid-way), since the provider bills it then.
        """
        if self._open is not None and self._billable:
            logger.info("request given up after it was sent: its worst case ($%.6f, %d tokens) counts as spent",
                        self._open.usd, self._open.tokens)
            for ledger in self.ledgers:
                ledger.settle(self._open, self._open)
            self._open = None
        self.release()

    def release(self) -> None:
        """The request held was never processed: give its reservation back."""
        if self._open is None:
            return
        for ledger in self.ledgers:
            ledger.release(self._open)
        self._open = None
