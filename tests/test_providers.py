"""cd.connect(): providers, clients, environment, and the errors that name the fix."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest

import conductor as cd
from conductor.offline import LatencyModel, OfflineModel
from scripted import RawServer, offline, raw_response, scripted
from wire import APIS, api_of


def test_offline_is_the_default(monkeypatch):
    monkeypatch.delenv("CONDUCTOR_PROVIDER", raising=False)
    llm = cd.connect(latency_scale=0)
    assert llm.provider == "offline" and llm.api == "responses"
    assert type(llm.client).__name__ == "OpenAI"


def test_offline_anthropic_speaks_messages():
    llm = cd.connect("offline", api="messages", latency_scale=0)
    assert type(llm.client).__name__ == "Anthropic"
    message = llm.client.messages.create(
        model=llm.model, max_tokens=100, messages=[{"role": "user", "content": "Hello"}]
    )
    assert message.type == "message" and message.content[0].type == "text"


def test_provider_and_model_from_environment(monkeypatch):
    monkeypatch.setenv("CONDUCTOR_PROVIDER", "offline")
    monkeypatch.setenv("CONDUCTOR_MODEL", "my-offline")
    llm = cd.connect(latency_scale=0)
    assert llm.provider == "offline" and llm.model == "my-offline"


def test_unknown_provider_lists_the_valid_ones():
    with pytest.raises(cd.ProviderError, match="choose one of: offline, openai, anthropic"):
        cd.connect("gemini")


@pytest.mark.parametrize("provider, variable", [("openai", "OPENAI_API_KEY"), ("anthropic", "ANTHROPIC_API_KEY")])
def test_missing_key_names_the_variable_and_the_offline_alternative(monkeypatch, provider, variable):
    monkeypatch.delenv(variable, raising=False)
    with pytest.raises(cd.ProviderError) as info:
        cd.connect(provider)
    assert variable in str(info.value) and "cd.connect('offline')" in str(info.value)


def test_openais_own_base_url_still_needs_the_key(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(cd.ProviderError, match="OPENAI_API_KEY"):
        cd.connect("openai", base_url="https://api.openai.com/v1")


def test_key_never_appears_in_repr(monkeypatch):
    secret = "sk-test-DO-NOT-PRINT-1234567890"
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    llm = cd.connect("openai")
    assert secret not in repr(llm) and secret not in str(llm.__dict__.get("model"))


def test_openai_compatible_server_needs_no_key(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    llm = cd.connect("openai", base_url="http://localhost:11434/v1", model="llama3.2")
    assert str(llm.client.base_url).startswith("http://localhost:11434/v1")
    assert llm.cost(cd.Usage(1000, 1000)) == 0.0  # a local model costs nothing we can price


@pytest.mark.parametrize(("api", "chosen"), [(None, "chat"), ("responses", "responses"), ("chat", "chat"),
                                           ("messages", "messages")])
def test_bring_your_own_client(api, chosen):
    """A client you built: an OpenAI client on any base URL but OpenAI's speaks chat unless api= says otherwise."""
    model = OfflineModel(latency=LatencyModel.instant(), policies=[scripted("Hi from my client.")])
    client = model.anthropic_client() if chosen == "messages" else model.openai_client()
    llm = cd.connect(client, model="my-model", api=api)
    assert llm.api == chosen and llm.client is client
    result = llm.run("Hello")
    assert result.answer == "Hi from my client."
    assert model.requests[0].body["model"] == "my-model" and model.requests[0].api == chosen


def test_a_client_on_openais_own_base_url_speaks_the_responses_api():
    import httpx2
    import openai

    server = RawServer("responses", [raw_response("responses", "Hi from OpenAI.")])
    http = httpx2.Client(transport=httpx2.MockTransport(server._handle))
    for base_url in ("https://api.openai.com/v1", "https://api.openai.com/v1/"):
        client = openai.OpenAI(api_key="k", base_url=base_url, http_client=http, max_retries=0)
        llm = cd.connect(client, model="gpt-5.4-mini")
        assert llm.api == "responses" and llm.run("Hello").answer == "Hi from OpenAI."
    assert [api_of(b) for b in server.bodies] == ["responses", "responses"]


def test_unsupported_client_names_the_supported_ones():
    with pytest.raises(cd.ProviderError, match="openai.OpenAI"):
        cd.connect(object(), model="m")


def test_client_without_model_is_an_error():
    model = OfflineModel(latency=LatencyModel.instant())
    with pytest.raises(cd.ProviderError, match="model="):
        cd.connect(model.openai_client())


@pytest.mark.parametrize("api", APIS)
def test_arun_with_async_client(api):
    model = OfflineModel(latency=LatencyModel.instant(), policies=[scripted([("ping", {})], "pong")])
    llm = cd.connect("offline", api=api, asynchronous=True, offline_model=model)
    assert type(llm.client).__name__.startswith("Async")

    @cd.tool
    async def ping() -> str:
        """Ping."""
        await asyncio.sleep(0)
        return "pong"

    result = asyncio.run(llm.arun("Ping?", tools=[ping]))
    assert result.answer == "pong" and result.rounds[0].tool_calls[0].output == "pong"
    assert [r.api for r in model.requests] == [api, api]
    with pytest.raises(cd.ProviderError, match="arun"):
        llm.run("Ping?")


@pytest.mark.parametrize("api", APIS)
def test_arun_with_sync_client(api):
    llm, _ = offline(api, scripted("ok"))
    assert asyncio.run(llm.arun("Hi")).answer == "ok"


def test_import_is_light():
    # jsonschema too: its format checkers load parsers that take over a second to build.
    heavy = "('openai', 'anthropic', 'matplotlib', 'jsonschema')"
    code = f"import sys, conductor; print(sorted(m for m in {heavy} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_offline_model_options_are_not_silently_ignored():
    model = OfflineModel(latency=LatencyModel.instant())
    with pytest.raises(cd.ProviderError, match="pass them to it"):
        cd.connect("offline", offline_model=model, latency_scale=0)


def test_missing_sdk_names_the_install_command(monkeypatch):
    monkeypatch.setitem(sys.modules, "anthropic", None)  # makes `import anthropic` fail
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    with pytest.raises(cd.ProviderError, match="pip install -r requirements.txt"):
        cd.connect("anthropic")


def _subclass(api: str) -> type:
    import anthropic
    import openai

    base = anthropic.Anthropic if api == "messages" else openai.OpenAI
    return type("TeamClient", (base,), {"__module__": "team.clients"})


@pytest.mark.parametrize("api", APIS)
def test_subclass_of_an_sdk_client_is_accepted(api):
    server = RawServer(api, [raw_response(api, "Hi from a subclass.")])
    # The server is not OpenAI's: an OpenAI client there speaks chat unless api= says otherwise.
    llm = cd.connect(server.client(_subclass(api)), model="m", api="responses" if api == "responses" else None)
    assert llm.api == api and not llm.is_async
    assert llm.run("Hello").answer == "Hi from a subclass."
    assert server.bodies[0]["model"] == "m" and api_of(server.bodies[0]) == api


AZURE = {"api_version": "2024-10-21", "azure_endpoint": "https://team.openai.azure.com"}


@pytest.mark.parametrize("api", [None, "responses"])
def test_azure_client_is_accepted(api):
    """Azure is not OpenAI's base URL: Chat Completions (which every Azure api_version serves) unless api= says so."""
    import openai

    chosen = api or "chat"
    server = RawServer(chosen, [raw_response(chosen, "Hi from Azure.")])
    llm = cd.connect(server.client(openai.AzureOpenAI, **AZURE), model="my-deployment", api=api)
    assert llm.api == chosen and llm.run("Hello").answer == "Hi from Azure."
    assert api_of(server.bodies[0]) == chosen


def test_async_azure_client_is_async():
    import openai

    client = openai.AsyncAzureOpenAI(api_key="k", **AZURE)
    llm = cd.connect(client, model="my-deployment")
    assert llm.api == "chat" and llm.is_async


@pytest.mark.parametrize("api", ["openai", "anthropic"])
def test_any_base_url_is_kept(api):
    import anthropic
    import openai

    cls = openai.OpenAI if api == "openai" else anthropic.Anthropic
    llm = cd.connect(cls(api_key="k", base_url="https://gateway.example.com/llm/v1"), model="m")
    assert str(llm.client.base_url).startswith("https://gateway.example.com/llm/v1")
