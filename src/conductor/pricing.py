"""Prices per model, and the dollar cost of one model request.

Prices come from `genai-prices <https://github.com/pydantic/genai-prices>`_, a
maintained table of LLM prices that ships inside the package, so pricing works
offline. Its optional background updater (``genai_prices.UpdatePrices``) fetches
newer prices over the network; this module never starts it.

Who is priced how: callers pass ``(model, provider)`` where ``provider`` is one of
:data:`PROVIDERS`:

- ``"openai"`` / ``"anthropic"``: the real API; ``model`` is the model name sent
  (dated names such as ``claude-haiku-4-5-20251001`` are understood).
- ``"offline-responses"`` / ``"offline-chat"`` / ``"offline-messages"``: the course's
  offline model, speaking that API's wire format. Connected under the name of a real model of
  that API's provider (``cd.connect("offline", api="messages", model="claude-sonnet-4-5")``) it
  is priced as that model, as it bills as that model (its hidden prompts and cache minimum go by
  the name too); under its own name or any other it is priced as a real, cheap model of that API
  (:data:`OFFLINE_PRICED_AS`), so the cost figures in the lessons are the ones a learner would pay.

Each part of a request's usage is billed at its own rate (:func:`cost_split`):
prompt tokens read from the cache, tokens written to it, the rest of the
prompt, the output (reasoning included) and Anthropic's web searches. A model
without a cache rate bills cached tokens at its input rate, as genai-prices does.

Requests sent through a provider's Batch API (:mod:`conductor.batch`) are billed at
the batch rate: ``batch=True`` here. genai-prices 0.2.3 has batch prices (its price
variants for ``{"processing": "batch"}``) for the models in the providers' batch price
tables; for a model it has none for, the providers' documented discount
(:data:`BATCH_DISCOUNT`) is applied to its standard rates.

Code execution containers (programmatic tool calling on Messages, :mod:`conductor.programs`) are billed by
time, apart from tokens and from any response's usage: :data:`CODE_EXECUTION` and :func:`container_cost`.

A model genai-prices does not know (a local model behind an OpenAI-compatible
``base_url``, a fine-tune) costs $0.00: one warning is logged per model, and no
exception is raised, because a missing price must never stop a run. A dollar
budget is the one exception: it cannot be kept without a price, so such a run
is refused up front and pointed to a token budget (:mod:`conductor.budget`).

``genai_prices`` is imported on first use, not with ``conductor``: importing it
takes about 0.2-0.3 s on the course machine (it pulls in pydantic and httpx2).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from .types import CostSplit, Usage

logger = logging.getLogger(__name__)

PROVIDERS = ("openai", "anthropic", "offline-responses", "offline-chat", "offline-messages")

# The offline model is priced as the model a learner would most likely pick on that API
# (the default model of each API, see conductor.providers.DEFAULT_MODELS).
OFFLINE_PRICED_AS: dict[str, tuple[str, str]] = {
    "offline-responses": ("gpt-5.4-mini", "openai"),
    "offline-chat": ("gpt-4.1-mini", "openai"),
    "offline-messages": ("claude-haiku-4-5", "anthropic"),
}
# Batch API prices. genai-prices selects its batch variant with this price context.
BATCH_PRICE_CONTEXT = {"processing": "batch"}
# For a model genai-prices has no batch variant for: the providers' documented Batch API rate, half the
# standard token prices (OpenAI, Batch API guide: "a 50% discount compared to synchronous APIs"; Anthropic,
# pricing page: "The Batch API allows asynchronous processing ... with a 50% discount"). Checked 2026-11-27.
# Web searches have no published batch rate and stay at the standard price.
BATCH_DISCOUNT = 0.5

# Anthropic bills a 1-hour cache write at 2x the base input price (a 5-minute write: 1.25x, genai-prices'
# cache_write rate); pricing page, "Prompt caching" (checked 2026-11-28).
ONE_HOUR_WRITE = 2.0



@dataclass(frozen=True)
class ContainerPrice:
    """How a provider bills the containers its code execution tool runs in: by the hour, past free hours."""

    free_hours_per_month: float  # for the organization, before any is billed
    usd_per_hour: float
    minimum_minutes: float  # a container is billed for at least this long
    source: str


# Anthropic's code execution tool (it runs the programs of programmatic tool calling): 1,550 free hours a month,
# then $0.05 an hour per container, at least 5 minutes each. Pricing page and the code execution tool's page,
# "Usage and pricing" (checked 2026-12-01). The responses carry no container time: it is billed monthly.
CODE_EXECUTION = ContainerPrice(1550.0, 0.05, 5.0, "Anthropic's code execution tool pricing, checked 2026-12-01")


def container_hours(seconds: float, price: ContainerPrice = CODE_EXECUTION) -> float:
    """The hours billed for one container that lived ``seconds``: at least the price's minimum."""
    if seconds < 0:
        raise ValueError(f"a container cannot live {seconds} seconds")
    return max(seconds, price.minimum_minutes * 60) / 3600


def container_cost(
    lifetimes: Sequence[float], *, free_hours_left: float = 0.0, price: ContainerPrice = CODE_EXECUTION
) -> float:
    """US dollars for containers that lived ``lifetimes`` seconds each, once ``free_hours_left`` of the month's
    free hours are used up (0, the default: the month's free hours are gone; pass
    ``price.free_hours_per_month`` for an organization that has used none)."""
    hours = sum(container_hours(seconds, price) for seconds in lifetimes)
    return max(0.0, hours - max(0.0, free_hours_left)) * price.usd_per_hour


# The names used before the course taught three APIs.
OFFLINE_ALIASES = {"offline-openai": "offline-chat", "offline-anthropic": "offline-messages"}


@dataclass(frozen=True)
class ModelPrice:
    """US dollars per million tokens for one model, and where the figures come from.

    For a model with tiered prices (a higher rate above some prompt length)
    these are the base rates; :func:`cost` applies the tiers.
    """

    model: str  # the model priced: genai-prices' id, e.g. "gpt-4.1-mini"
    provider: str  # "openai" or "anthropic" for a known model, else the provider asked about
    input_per_mtok: float
    output_per_mtok: float
    source: str  # e.g. "genai-prices 0.2.3"
    known: bool = True  # False when no price was found and the model is counted as free
    tiered: bool = False  # True when a rate changes above some prompt length
    cache_read_per_mtok: float | None = None  # None: billed at the input rate
    cache_write_per_mtok: float | None = None  # None: billed at the input rate
    web_search_per_k: float = 0.0  # US dollars per thousand server-side web searches
    batch: bool = False  # the Batch API rate (requests sent through a provider's batch)
    # A factor on genai-prices' own figures for the tokens: BATCH_DISCOUNT for a batch rate genai-prices does not
    # have (the rates above already include it; tiered prices apply it to genai-prices' result).
    discount: float = 1.0

    def __str__(self) -> str:
        if not self.known:
            return f"{self.model} ({self.provider}): no known price, counted as $0 [{self.source}]"
        rate = " at the batch rate" if self.batch else ""
        return (
            f"{self.model} ({self.provider}): ${self.input_per_mtok:g} input / "
            f"${self.output_per_mtok:g} output per million tokens{rate} [{self.source}]"
        )


def priced_as(model: str, provider: str) -> tuple[str, str]:
    """The ``(model, provider)`` to look up in the price table for ``(model, provider)``.

    The offline model maps to the real model it is named after when the price table knows that name for the
    API's provider (``("claude-sonnet-4-5", "offline-messages")`` -> ``("claude-sonnet-4-5", "anthropic")``), else
    to the API's default (``"offline-chat"`` -> ``("gpt-4.1-mini", "openai")``); a real provider maps to itself.
    Raises ``ValueError`` for a provider outside :data:`PROVIDERS`.
    """
    provider = OFFLINE_ALIASES.get(provider, provider)
    if provider in OFFLINE_PRICED_AS:
        real_provider = OFFLINE_PRICED_AS[provider][1]
        return (model, real_provider) if _known(model, real_provider) else OFFLINE_PRICED_AS[provider]
    if provider in ("openai", "anthropic"):
        return model, provider
    raise ValueError(
        f"unknown provider {provider!r}: pass one of {', '.join(PROVIDERS)} "
        "(for the offline model, name the API it speaks, e.g. 'offline-responses')"
    )


@lru_cache(maxsize=None)
def _known(model: str, provider: str) -> bool:
    """Does genai-prices have a price for ``model`` on ``provider``?"""
    import genai_prices

    if not model:
        return False
    try:
        genai_prices.calc_price(genai_prices.Usage(), model_ref=model, provider_id=provider)
    except LookupError:
        return False
    return True


@lru_cache(maxsize=None)
def price_per_million(model: str, provider: str, batch: bool = False) -> ModelPrice:
    """Input and output prices of ``model`` on ``provider`` (see the module doc for the names).

    ``batch=True``: the rates of requests sent through the provider's Batch API.
    An unknown model gives a zero price with ``known=False`` and logs one
    warning; the result is cached, so the warning is not repeated.
    """
    import genai_prices

    if batch:
        return _batch_price(price_per_million(model, provider))
    source = f"genai-prices {genai_prices.__version__}"
    real_model, real_provider = priced_as(model, provider)
    try:
        calc = genai_prices.calc_price(genai_prices.Usage(), model_ref=real_model, provider_id=real_provider)
    except LookupError:
        logger.warning(
            "no price known for model %r on %s (%s); its requests are counted as $0",
            real_model,
            real_provider,
            source,
        )
        return ModelPrice(real_model, real_provider, 0.0, 0.0, source, known=False)
    from genai_prices.types import TieredPrices

    prices = calc.model_price
    names = ("input_mtok", "output_mtok", "cache_read_mtok", "cache_write_mtok")
    token_rates = [getattr(prices, name, None) for name in names]
    return ModelPrice(
        model=calc.model.id,
        provider=calc.provider.id,
        input_per_mtok=_per_mtok(token_rates[0]),
        output_per_mtok=_per_mtok(token_rates[1]),
        source=source,
        tiered=any(isinstance(rate, TieredPrices) for rate in token_rates),
        cache_read_per_mtok=None if token_rates[2] is None else _per_mtok(token_rates[2]),
        cache_write_per_mtok=None if token_rates[3] is None else _per_mtok(token_rates[3]),
        web_search_per_k=_per_mtok(getattr(prices, "web_searches_kcount", None)),
    )


def _batch_price(standard: ModelPrice) -> ModelPrice:
    """``standard``'s model at the Batch API rate: genai-prices' batch variant, else :data:`BATCH_DISCOUNT` off."""
    if not standard.known:
        return replace(standard, batch=True)
    import genai_prices

    calc = genai_prices.calc_price(
        genai_prices.Usage(), model_ref=standard.model, provider_id=standard.provider, price_context=BATCH_PRICE_CONTEXT
    )
    plain = genai_prices.calc_price(genai_prices.Usage(), model_ref=standard.model, provider_id=standard.provider)
    if calc.model_price != plain.model_price:  # genai-prices has the batch price
        from genai_prices.types import TieredPrices

        prices = calc.model_price
        names = ("input_mtok", "output_mtok", "cache_read_mtok", "cache_write_mtok")
        rates = [getattr(prices, name, None) for name in names]
        searches = getattr(prices, "web_searches_kcount", None)
        return replace(
            standard,
            input_per_mtok=_per_mtok(rates[0]),
            output_per_mtok=_per_mtok(rates[1]),
            tiered=any(isinstance(rate, TieredPrices) for rate in rates),
            cache_read_per_mtok=None if rates[2] is None else _per_mtok(rates[2]),
            cache_write_per_mtok=None if rates[3] is None else _per_mtok(rates[3]),
            web_search_per_k=standard.web_search_per_k if searches is None else _per_mtok(searches),
            batch=True,
        )

    def half(rate: float | None) -> float | None:
        return None if rate is None else rate * BATCH_DISCOUNT

    return replace(
        standard,
        input_per_mtok=standard.input_per_mtok * BATCH_DISCOUNT,
        output_per_mtok=standard.output_per_mtok * BATCH_DISCOUNT,
        cache_read_per_mtok=half(standard.cache_read_per_mtok),
        cache_write_per_mtok=half(standard.cache_write_per_mtok),
        source=f"{standard.source}, less the providers' {1 - BATCH_DISCOUNT:.0%} batch discount",
        batch=True,
        discount=BATCH_DISCOUNT,
    )


def cost(usage: Usage, model: str, provider: str, *, batch: bool = False) -> float:
    """US dollars billed for one request's ``usage``; 0.0 for a model with no known price."""
    return cost_split(usage, model, provider, batch=batch).total


def cost_split(usage: Usage, model: str, provider: str, *, batch: bool = False) -> CostSplit:
    """US dollars billed for one request's ``usage``, by part (see :class:`CostSplit`).

    ``batch=True``: the request went through the provider's Batch API, billed at the batch rate.
    """
    # (the cache keys on the arguments as given: the standard price is asked for without ``batch``)
    price = price_per_million(model, provider, True) if batch else price_per_million(model, provider)
    if not price.known:
        return CostSplit()
    read_rate = price.input_per_mtok if price.cache_read_per_mtok is None else price.cache_read_per_mtok
    write_rate = price.input_per_mtok if price.cache_write_per_mtok is None else price.cache_write_per_mtok
    # An hour-long write costs ONE_HOUR_WRITE times the input price (genai-prices has the 5-minute write rate).
    written = (usage.cache_write_tokens - usage.cache_write_1h_tokens) * write_rate
    written += usage.cache_write_1h_tokens * price.input_per_mtok * ONE_HOUR_WRITE
    base = CostSplit(
        input=(usage.uncached_input_tokens * price.input_per_mtok + written) / 1e6,
        cached=usage.cache_read_tokens * read_rate / 1e6,
        output=usage.output_tokens * price.output_per_mtok / 1e6,
        # Web fetches (usage.web_fetch_requests) add nothing here: Anthropic's web fetch tool documentation says
        # it has no charge beyond the tokens of the fetched content, which input_tokens already counts.
        server_tools=usage.web_search_requests * price.web_search_per_k / 1e3,
    )
    # Flat rates: the same sums genai-prices makes, without its per-call lookup
    # (this runs once per model request, on the loop's hot path).
    return base if not price.tiered else _tiered_split(usage, price, base)


def _tiered_split(usage: Usage, price: ModelPrice, base: CostSplit) -> CostSplit:
    """genai-prices' figures for a model whose rates depend on the prompt length.

    It reports input and output prices; the input is split between cached and
    uncached tokens in the proportion of their base-rate costs, so the parts
    still add up to what is billed.
    """
    import genai_prices

    calc = genai_prices.calc_price(
        genai_prices.Usage(
            input_tokens=usage.input_tokens,
            output_tokens=usage.output_tokens,
            cache_read_tokens=usage.cache_read_tokens,
            cache_write_tokens=usage.cache_write_tokens,
            cache_write_1h_tokens=usage.cache_write_1h_tokens,  # part of cache_write_tokens, at its own rate
            web_searches=usage.web_search_requests,
        ),
        model_ref=price.model,
        provider_id=price.provider,
        price_context=BATCH_PRICE_CONTEXT if price.batch and price.discount == 1.0 else None,
    )
    billed_input = float(calc.input_price) * price.discount
    base_input = base.input + base.cached
    cached = billed_input * base.cached / base_input if base_input else 0.0
    return CostSplit(
        input=billed_input - cached,
        cached=cached,
        output=float(calc.output_price) * price.discount,
        server_tools=float(calc.total_price - calc.input_price - calc.output_price),
    )


def _per_mtok(value: Any) -> float:
    """A genai-prices rate as a float: a Decimal, the base of tiered prices, or 0 when absent."""
    from genai_prices.types import TieredPrices

    if value is None:
        return 0.0
    if isinstance(value, TieredPrices):
        return float(value.base)
    return float(value)
