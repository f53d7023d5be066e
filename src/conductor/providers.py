"""``connect()``: one object to talk to the offline model, OpenAI or Anthropic.

The object holds the official SDK client (``llm.client``), the adapter for its
wire API, and the round loop (``llm.run`` / ``await llm.arun``). The SDKs are
imported only here and only when a connection is made, so ``import conductor``
stays fast.
"""

from __future__ import annotations

import asyncio
import importlib
import os
import time
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from .adapters import ApiName, RequestSettings, adapter_for
from .execution import DEFAULT_MAX_WORKERS, aexecute, execute
from .rounds import Conversation, RunResult
from .tools import Tool, ToolRegistry
from .types import Usage

if TYPE_CHECKING:
    from .offline import OfflineModel

PROVIDERS: tuple[str, ...] = ("offline", "openai", "anthropic")
DEFAULT_MODELS = {"openai": "gpt-4.1-mini", "anthropic": "claude-haiku-4-5"}
OFFLINE_MODEL_NAME = "conductor-offline"
KEY_VARIABLES = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}


class ProviderError(ValueError):
    """A connection cannot be made as asked; the message says what to do instead."""


class LLM:
    """A connected model: the SDK client in use plus the tool loop.

    Build one with :func:`connect`.
    """

    def __init__(
        self,
        *,
        provider: str,
        api: ApiName,
        model: str,
        client: Any,
        offline: OfflineModel | None = None,
    ) -> None:
        self.provider = provider
        self.api = api
        self.model = model
        self.client = client
        self.offline = offline
        self.adapter = adapter_for(api)
        self.is_async = type(client).__name__.startswith("Async")
        from . import pricing

        self.pricing_key = ("offline-" + api) if provider == "offline" else provider
        self.prices = pricing.price_per_million(model, self.pricing_key)

    def __repr__(self) -> str:  # never shows the key
        return f"LLM(provider={self.provider!r}, api={self.api!r}, model={self.model!r}, async={self.is_async})"

    def cost(self, usage: Usage) -> float:
        """US dollars for ``usage`` at this model's prices."""
        from . import pricing

        return pricing.cost(usage, self.model, self.pricing_key)

    def _conversation(
        self,
        question: str,
        tools: Iterable[Tool | Callable[..., Any]],
        max_rounds: int,
        system: str | None,
        history: Sequence[dict[str, Any]] | None,
        max_tokens: int | None,
        parallel_tool_calls: bool | None,
        options: dict[str, Any],
    ) -> Conversation:
        if not isinstance(question, str) or not question.strip():
            raise ValueError("the question must be a non-empty string")
        settings = RequestSettings(self.model, ToolRegistry(tools), system, max_tokens, parallel_tool_calls, options)
        return Conversation(
            adapter=self.adapter,
            settings=settings,
            question=question,
            history=history,
            max_rounds=max_rounds,
            price=self.cost,
        )

    def _result(self, conversation: Conversation) -> RunResult:
        return conversation.result(
            model_name=self.model,
            priced_as=self.prices.model,
            prices=(self.prices.input_per_mtok, self.prices.output_per_mtok),
        )

    def run(
        self,
        question: str,
        *,
        tools: Iterable[Tool | Callable[..., Any]] = (),
        max_rounds: int = 2,
        system: str | None = None,
        history: Sequence[dict[str, Any]] | None = None,
        parallel: bool = False,
        max_workers: int = DEFAULT_MAX_WORKERS,
        parallel_tool_calls: bool | None = None,
        max_tokens: int | None = None,
        **options: Any,
    ) -> RunResult:
        """Answer ``question``, letting the model call ``tools`` for up to ``max_rounds`` rounds.

        ``parallel=True`` runs one turn's calls at the same time (threads, at most
        ``max_workers``); it is off by default because a sync tool may not be
        thread-safe (``arun`` runs calls concurrently by default: that is what it is for). ``parallel_tool_calls=False`` asks the model itself for at
        most one call per turn. Other keyword arguments go to the SDK's create call.
        """
        if self.is_async:
            raise ProviderError("this LLM holds an async client: use `await llm.arun(...)`")
        conversation = self._conversation(
            question, tools, max_rounds, system, history, max_tokens, parallel_tool_calls, options
        )
        while (request := conversation.next_request()) is not None:
            started = time.perf_counter()
            response = self.adapter.create(self.client, request)
            calls = conversation.receive(response, started, time.perf_counter())
            if calls:
                records = execute(
                    calls, conversation.tools, parallel=parallel, max_workers=max_workers, origin=conversation.origin
                )
                conversation.add_results(records)
        return self._result(conversation)

    async def arun(
        self,
        question: str,
        *,
        tools: Iterable[Tool | Callable[..., Any]] = (),
        max_rounds: int = 2,
        system: str | None = None,
        history: Sequence[dict[str, Any]] | None = None,
        parallel: bool = True,
        max_workers: int = DEFAULT_MAX_WORKERS,
        parallel_tool_calls: bool | None = None,
        max_tokens: int | None = None,
        **options: Any,
    ) -> RunResult:
        """:meth:`run` on the event loop: async tools run as tasks, sync ones in threads."""
        conversation = self._conversation(
            question, tools, max_rounds, system, history, max_tokens, parallel_tool_calls, options
        )
        while (request := conversation.next_request()) is not None:
            started = time.perf_counter()
            if self.is_async:
                response = await self.adapter.acreate(self.client, request)
            else:
                response = await asyncio.to_thread(self.adapter.create, self.client, request)
            calls = conversation.receive(response, started, time.perf_counter())
            if calls:
                records = await aexecute(
                    calls, conversation.tools, parallel=parallel, max_workers=max_workers, origin=conversation.origin
                )
                conversation.add_results(records)
        return self._result(conversation)


def _import_sdk(name: str) -> Any:
    """The official SDK module, or an error naming the install command."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        raise ProviderError(
            f"the {name} SDK is not installed: run `pip install -r requirements.txt` (or `pip install {name}`)"
        ) from exc


def _key(provider: str, api_key: str | None, base_url: str | None) -> str:
    variable = KEY_VARIABLES[provider]
    key = api_key or os.environ.get(variable)
    if key:
        return key
    if base_url:  # local OpenAI-compatible servers (Ollama, vLLM, llama.cpp) take any key
        return "not-needed"
    raise ProviderError(
        f"{variable} is not set. Set it in your environment (or pass api_key=...) to use {provider}, "
        f"or run offline with cd.connect('offline'), which needs no key."
    )


def _from_client(client: Any, model: str | None) -> LLM:
    module = type(client).__module__.split(".")[0]
    name = type(client).__name__
    if module == "openai" and name in ("OpenAI", "AsyncOpenAI", "AzureOpenAI", "AsyncAzureOpenAI"):
        api: ApiName = "openai"
    elif module == "anthropic" and name in ("Anthropic", "AsyncAnthropic"):
        api = "anthropic"
    else:
        raise ProviderError(
            f"unsupported client type {type(client).__module__}.{name}; pass an openai.OpenAI, "
            f"openai.AsyncOpenAI, anthropic.Anthropic or anthropic.AsyncAnthropic client, or a provider name "
            f"({', '.join(PROVIDERS)})"
        )
    if not model:
        raise ProviderError("pass the model name with the client: cd.connect(client, model='...')")
    return LLM(provider=api, api=api, model=model, client=client)


def connect(
    provider: str | Any | None = None,
    *,
    model: str | None = None,
    api: ApiName | None = None,
    base_url: str | None = None,
    api_key: str | None = None,
    asynchronous: bool = False,
    max_retries: int = 2,
    seed: int = 0,
    latency_scale: float | None = None,
    offline_model: OfflineModel | None = None,
) -> LLM:
    """Connect to a model.

    ``provider`` is ``"offline"`` (no key, no network, deterministic), ``"openai"``,
    ``"anthropic"``, or an official SDK client you built. ``None`` reads
    ``CONDUCTOR_PROVIDER`` and falls back to ``"offline"``; ``model`` falls back
    to ``CONDUCTOR_MODEL``, then to each provider's default.

    ``api`` picks the offline model's wire format (``"openai"`` Chat Completions by
    default, or ``"anthropic"`` Messages). ``asynchronous=True`` builds the SDK's
    async client, for ``await llm.arun(...)``.
    """
    if provider is not None and not isinstance(provider, str):
        return _from_client(provider, model or os.environ.get("CONDUCTOR_MODEL"))
    provider = (provider or os.environ.get("CONDUCTOR_PROVIDER") or "offline").strip().lower()
    if provider not in PROVIDERS:
        raise ProviderError(f"unknown provider {provider!r}; choose one of: {', '.join(PROVIDERS)}")
    model = model or os.environ.get("CONDUCTOR_MODEL") or None
    if provider == "offline":
        return _connect_offline(model, api, asynchronous, max_retries, seed, latency_scale, offline_model)
    if api is not None and api != provider:
        raise ProviderError(f"api={api!r} applies to the offline model only; {provider} speaks its own API")
    # The SDK reads OPENAI_BASE_URL itself; a local server set that way needs no key either.
    local_url = (base_url or os.environ.get("OPENAI_BASE_URL")) if provider == "openai" else None
    key = _key(provider, api_key, local_url)
    if provider == "openai":
        openai = _import_sdk("openai")
        cls = openai.AsyncOpenAI if asynchronous else openai.OpenAI
        client = cls(api_key=key, base_url=base_url, max_retries=max_retries)
        return LLM(provider="openai", api="openai", model=model or DEFAULT_MODELS["openai"], client=client)
    anthropic = _import_sdk("anthropic")
    cls = anthropic.AsyncAnthropic if asynchronous else anthropic.Anthropic
    client = cls(api_key=key, base_url=base_url, max_retries=max_retries)
    return LLM(provider="anthropic", api="anthropic", model=model or DEFAULT_MODELS["anthropic"], client=client)


def _connect_offline(
    model: str | None,
    api: ApiName | None,
    asynchronous: bool,
    max_retries: int,
    seed: int,
    latency_scale: float | None,
    offline_model: OfflineModel | None,
) -> LLM:
    from .offline import LatencyModel, OfflineModel

    api = api or "openai"
    if api not in ("openai", "anthropic"):
        raise ProviderError(f"unknown api {api!r} for the offline model; choose 'openai' or 'anthropic'")
    if offline_model is None:
        latency = LatencyModel() if latency_scale is None else LatencyModel(scale=latency_scale)
        offline_model = OfflineModel(seed=seed, latency=latency)
    elif latency_scale is not None or seed:
        raise ProviderError(
            "seed= and latency_scale= configure a new offline model; with offline_model= pass them to it "
            "instead: OfflineModel(seed=..., latency=LatencyModel(scale=...))"
        )
    factory = offline_model.openai_client if api == "openai" else offline_model.anthropic_client
    client = factory(async_=asynchronous, max_retries=max_retries)
    return LLM(provider="offline", api=api, model=model or OFFLINE_MODEL_NAME, client=client, offline=offline_model)

