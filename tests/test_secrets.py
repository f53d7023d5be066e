"""Secret scan: with a (fake) key in use, it appears in no log line, repr, trace, exception or notebook output.

The key goes through the official SDK clients exactly as a real one does (an
``Authorization: Bearer`` header for OpenAI, ``x-api-key`` for Anthropic); the
offline model answers over a MockTransport, so nothing leaves the machine.
Logging is captured at DEBUG for every logger, the SDKs' and httpx2's included,
which is where a leaked header would show first.
"""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path

import httpx2
import pytest

import conductor as cd
from conductor.offline import LatencyModel, OfflineModel
from wire import APIS, OPENAI_APIS

OPENAI_KEY = "sk-proj-FAKEKEY0123456789abcdefSECRET"
ANTHROPIC_KEY = "sk-ant-api03-FAKEKEY0123456789abcdefSECRET"
# A key is found by its distinctive middle too: a masked form ("sk-...SECRET") must not leak it either.
NEEDLES = (OPENAI_KEY, ANTHROPIC_KEY, "FAKEKEY0123456789abcdef")
ROOT = Path(__file__).resolve().parents[1]


def _leaks(text: str) -> list[str]:
    return [needle for needle in NEEDLES if needle in text]


SENT_HEADERS: list[str] = []  # what went out on the wire: proof the key was really in use


def _client(api: str, model: OfflineModel, *, asynchronous: bool = False):
    import anthropic
    import openai

    def record(request: httpx2.Request) -> None:
        SENT_HEADERS.append(str(dict(request.headers)))

    async def arecord(request: httpx2.Request) -> None:
        record(request)

    transport = model.async_transport() if asynchronous else model.transport()
    hooks = {"request": [arecord if asynchronous else record]}
    http = (httpx2.AsyncClient if asynchronous else httpx2.Client)(transport=transport, event_hooks=hooks)
    if api in OPENAI_APIS:
        cls = openai.AsyncOpenAI if asynchronous else openai.OpenAI
        return cls(api_key=OPENAI_KEY, base_url="http://offline.invalid/v1", http_client=http, max_retries=1)
    cls = anthropic.AsyncAnthropic if asynchronous else anthropic.Anthropic
    return cls(api_key=ANTHROPIC_KEY, base_url="http://offline.invalid", http_client=http, max_retries=1)


@pytest.fixture
def everything_logged(caplog):
    caplog.set_level(logging.DEBUG)  # every logger: conductor, openai, anthropic, httpx2
    return caplog


def _seen(result: cd.RunResult, llm: cd.LLM) -> str:
    """Everything a learner can print about a run."""
    return "\n".join(
        [
            repr(llm),
            repr(result),
            result.transcript(),
            result.table(),
            repr(result.trace),
            json.dumps(result.messages, ensure_ascii=False, default=str),
        ]
    )


@pytest.mark.parametrize("api", APIS)
def test_a_run_with_faults_leaks_no_key(api, everything_logged, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", OPENAI_KEY)
    monkeypatch.setenv("ANTHROPIC_API_KEY", ANTHROPIC_KEY)
    model = OfflineModel(seed=0, latency=LatencyModel.instant())
    model.inject("rate_limit", retry_after=0.001)  # the SDK retries: its retry logging runs too
    llm = cd.connect(_client(api, model), model="offline-model", api=api)
    result = llm.run("北京今天穿什么?", tools=cd.scenarios.weather_tools(), max_rounds=2)
    assert result.api_calls == 3 and [r.api for r in model.requests] == [api] * 4
    assert _leaks(_seen(result, llm)) == []
    assert _leaks(everything_logged.text) == []
    # The key did go out, in the header each API uses: the scan had something to find.
    assert len(model.requests) == 4
    assert _leaks(SENT_HEADERS[-1]) == [ANTHROPIC_KEY if api == "messages" else OPENAI_KEY, NEEDLES[2]]


@pytest.mark.parametrize("api", APIS)
def test_errors_leak_no_key(api, everything_logged):
    model = OfflineModel(seed=0, latency=LatencyModel.instant())
    model.inject("quota", times=5)
    llm = cd.connect(_client(api, model), model="offline-model", api=api)
    with pytest.raises(Exception) as raised:
        llm.run("What's the weather in Beijing?", tools=cd.scenarios.weather_tools())
    error = raised.value
    texts = [str(error), repr(error), str(getattr(error, "body", "")), str(getattr(error, "response", ""))]
    texts += [str(getattr(getattr(error, "response", None), "headers", ""))]
    assert _leaks("\n".join(texts)) == []
    assert _leaks(everything_logged.text) == []


def test_async_runs_and_connect_leak_no_key(everything_logged, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", OPENAI_KEY)
    monkeypatch.setenv("ANTHROPIC_API_KEY", ANTHROPIC_KEY)
    real = [cd.connect("openai"), cd.connect("anthropic")]  # built from the environment, never used to send
    assert _leaks(" ".join(repr(llm) for llm in real)) == []
    model = OfflineModel(seed=0, latency=LatencyModel.instant())
    llm = cd.connect(_client("messages", model, asynchronous=True), model="offline-model")
    result = asyncio.run(llm.arun("上海冷吗?", tools=cd.scenarios.weather_tools()))
    assert _leaks(_seen(result, llm)) == []
    assert _leaks(everything_logged.text) == []


def _notebook_outputs(path: Path) -> str:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    return json.dumps([cell.get("outputs", []) for cell in notebook["cells"]], ensure_ascii=False)


@pytest.mark.parametrize(
    "path", sorted([*ROOT.glob("notebooks/*.ipynb"), *ROOT.glob("demos/*.ipynb")]), ids=lambda p: p.name
)
def test_committed_notebook_outputs_hold_no_key_or_auth_header(path):
    outputs = _notebook_outputs(path)
    assert _leaks(outputs) == []
    lowered = outputs.lower()
    assert "bearer sk-" not in lowered
    assert "x-api-key" not in lowered
    assert "authorization:" not in lowered
