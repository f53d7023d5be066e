"""orch.run_many(questions, via="batch"), orch.submit and orch.collect: every round of every conversation as one
provider batch, on each of the three APIs, against the offline model's Files / Batches / Message Batches endpoints.

The batches end at once (``batch_delay=0``) unless a test needs one in flight; the one check in a real new
process serves the offline model over HTTP on localhost, so the provider outlives the process that submitted.
"""

from __future__ import annotations

import asyncio
import http.server
import json
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import openai
import pytest

import conductor as cd
from conductor import scenarios as sc
from conductor.batch import BatchHandle, BatchLineError, custom_id
from conductor.offline import LatencyModel, OfflineModel
from conductor.offline.model import API_KEY
from wire import APIS, results_by_id, tool_calls

CHAIN = "北京今天天气怎么样?应该穿什么衣服?"  # two tool rounds: the weather, then clothes for it
QUESTIONS = [CHAIN, "What is (12 + 30) * 2?", "What's the weather in Mars and Shanghai today?", "Hello!", CHAIN]
TOOLS = sc.weather_tools() + [t for t in sc.ALL_TOOLS if t.name not in ("get_weather", "suggest_clothing")]
CREATES = {"/v1/batches", "/v1/messages/batches"}


def model(delay: float = 0.0, **options: Any) -> OfflineModel:
    """An offline model whose answers take no time and whose batches last ``delay`` real seconds."""
    return OfflineModel(latency=LatencyModel(ttft=0.0, per_token=0.0, jitter=0.0), batch_delay=delay, **options)


def orchestrator(offline: OfflineModel, api: str, *, asynchronous: bool = False, tools: list[Any] = TOOLS,
                 **options: Any) -> cd.Orchestrator:
    llm = cd.connect("offline", api=api, offline_model=offline, asynchronous=asynchronous)
    return cd.Orchestrator(llm, tools=tools, rate_limit=None, **options)


def batches_created(offline: OfflineModel) -> list[Any]:
    """The requests that created a batch (a POST with a body: listing batches is a GET to the same path)."""
    return [r for r in offline.requests if r.path in CREATES and ("input_file_id" in r.body or "requests" in r.body)]


def batched(orch: cd.Orchestrator, questions: list[str], state_dir: Path, **options: Any) -> list[cd.RunResult]:
    return asyncio.run(orch.run_many(questions, via="batch", state_dir=state_dir, progress=False, **options))


def direct(api: str, questions: list[str], **options: Any) -> list[cd.RunResult]:
    orch = orchestrator(model(), api, asynchronous=True, **options)  # tools= among the options
    return asyncio.run(orch.run_many(questions, progress=False))


def assert_every_call_answered_once(result: cd.RunResult) -> None:
    asked = [call_id for call_id, _, _ in tool_calls({"messages": result.messages})]
    assert asked == list(results_by_id({"messages": result.messages}))
    assert asked == [c.id for c in result.tool_calls]


# -- the same answers, one batch per round, at half price -------------------------------------------------


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync-client", "async-client"])
@pytest.mark.parametrize("api", APIS)
def test_batched_conversations_answer_as_the_direct_loop_does_at_half_price(api: str, asynchronous: bool,
                                                                           tmp_path: Path) -> None:
    offline = model()
    orch = orchestrator(offline, api, asynchronous=asynchronous)
    results = batched(orch, QUESTIONS, tmp_path)
    reference = direct(api, QUESTIONS)

    assert [r.answer for r in results] == [r.answer for r in reference]  # in input order, the same answers
    assert "羽绒服" in results[0].answer and "84" in results[1].answer
    assert [r.api_calls for r in results] == [r.api_calls for r in reference] == [3, 2, 2, 1, 3]
    assert [len(r.rounds) for r in results] == [len(r.rounds) for r in reference]
    # One batch per round: as many batches as the longest conversation has requests.
    assert len(batches_created(offline)) == 3
    assert not [r for r in offline.requests if r.path in ("/v1/responses", "/v1/chat/completions", "/v1/messages")]
    for result, plain in zip(results, reference):
        assert result.stopped_by is None and result.trace.batched and not plain.trace.batched
        assert all(call.batch_id for call in result.trace.model_calls)
        assert all(call.batch_id is None for call in plain.trace.model_calls)
        assert result.usage == plain.usage
        assert result.cost == pytest.approx(plain.cost / 2)  # the batch rate: half price
        assert_every_call_answered_once(result)
    # Every conversation's request of round n went in the same batch.
    firsts = {r.trace.model_calls[0].batch_id for r in results}
    assert len(firsts) == 1
    assert results[0].trace.model_calls[1].batch_id == results[1].trace.model_calls[1].batch_id not in firsts
    assert len(orch.records) == len(QUESTIONS) and orch.results == results


# A Responses body as the API sent it in 2025: usage without the cache_write_tokens SDK 3.54 declares required.
RECORDED_2025 = {
    "id": "resp_68a1", "object": "response", "created_at": 1755000000, "status": "completed", "model": "gpt-4.1-mini",
    "output": [{"type": "message", "id": "msg_68a1", "status": "completed", "role": "assistant",
                "content": [{"type": "output_text", "text": "It is 5°C in Beijing.", "annotations": []}]}],
    "parallel_tool_calls": True, "tool_choice": "auto", "tools": [], "error": None, "incomplete_details": None,
    "usage": {"input_tokens": 120, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 9,
              "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 129},
}


def test_a_batch_line_is_read_the_way_the_sdk_reads_a_response_not_stricter() -> None:
    from openai.types.responses import Response

    from conductor.batch import _OpenAIBatches

    with pytest.raises(ValueError):
        Response.model_validate(RECORDED_2025)  # stricter than what the API really sends
    llm = cd.connect("offline", api="responses", offline_model=model())
    turn = llm.adapter.parse(_OpenAIBatches(llm)._parse(RECORDED_2025))
    assert turn.text == "It is 5°C in Beijing." and (turn.usage.input_tokens, turn.usage.output_tokens) == (120, 9)
    with pytest.raises(ValueError, match="not a JSON object"):
        _OpenAIBatches(llm)._parse("<html>")


def test_the_lines_are_named_by_conversation_and_round() -> None:
    assert custom_id(7, 1) == "c0007-r1"
    assert custom_id(12345, 3) == "c12345-r3"


def test_the_batch_price_comes_from_genai_prices_with_the_documented_discount_as_fallback() -> None:
    usage = cd.Usage(input_tokens=10_000, output_tokens=1_000)
    for key in ("offline-responses", "offline-chat", "offline-messages"):
        assert cd.pricing.cost(usage, "x", key, batch=True) == pytest.approx(cd.pricing.cost(usage, "x", key) / 2)
        assert cd.pricing.price_per_million("x", key, True).batch
    # A model genai-prices has no batch price for: the providers' 50% batch discount.
    fallback = cd.pricing.price_per_million("o1-mini", "openai", True)
    assert fallback.discount == cd.pricing.BATCH_DISCOUNT and "batch discount" in fallback.source
    assert cd.pricing.cost(usage, "o1-mini", "openai", batch=True) == pytest.approx(
        cd.pricing.cost(usage, "o1-mini", "openai") / 2)


def test_a_batched_run_shows_a_progress_bar(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    orch = orchestrator(model(delay=0.05), "responses")
    results = asyncio.run(orch.run_many([CHAIN], via="batch", state_dir=tmp_path, poll_interval=0.01))
    assert results[0].stopped_by is None
    err = capsys.readouterr().err
    assert "batch round 1" in err and "batch round 3" in err


# -- a line that errors or expires ends only its conversation -------------------------------------------


@pytest.mark.parametrize("api", APIS)
def test_an_expired_line_and_a_failed_line_end_only_their_conversations(api: str, tmp_path: Path) -> None:
    offline = model(batch_faults={"expire": {custom_id(1, 1)}, "fail": {custom_id(2, 2)}})
    orch = orchestrator(offline, api)
    results = batched(orch, [CHAIN] * 4, tmp_path)

    assert [r.stopped_by for r in results] == [None, "error", "error", None]
    assert "羽绒服" in results[0].answer and "羽绒服" in results[3].answer
    expired, failed = results[1], results[2]
    assert "c0001-r1" in expired.answer and "expired" in expired.answer and expired.api_calls == 0
    assert "c0002-r2" in failed.answer and failed.api_calls == 1
    assert ("500" if api != "messages" else "api_error") in failed.answer
    assert "get_weather" in failed.answer  # what its tools returned is kept in the answer
    for result in results:
        assert_every_call_answered_once(result)
    assert [(index, type(error)) for index, _, error in orch.failures] == [(1, BatchLineError), (2, BatchLineError)]
    metrics = orch.metrics()
    assert metrics.errors == 2 and metrics.batched == 4  # the expired one too, though no request of it came back
    assert len(batches_created(offline)) == 3  # the others went on, round after round


def test_a_failed_openai_batch_ends_every_conversation_in_it_with_the_reason(tmp_path: Path) -> None:
    orch = orchestrator(model(), "chat")
    # The Batch API fails a whole batch whose input file holds a streamed request; the run never writes one,
    # so one is slipped in here.
    from conductor import batch

    original = batch._body

    def streamed(request: dict[str, Any]) -> dict[str, Any]:
        return {**original(request), "stream": True}

    batch._body = streamed
    try:
        results = batched(orch, [CHAIN, "Hello!"], tmp_path)
    finally:
        batch._body = original
    assert [r.stopped_by for r in results] == ["error", "error"]
    assert all("the batch failed" in r.answer and "Streaming is not supported" in r.answer for r in results)


# -- budgets and deadlines ---------------------------------------------------------------------------------

# Per API, a token budget (with max_tokens=1000 and the two weather tools) that covers "Hello!" and only
# part of CHAIN.
TIGHT = {"responses": 1600, "chat": 1600, "messages": 2600}  # Messages: the tool-use system prompt, 496 a request
WEATHER = sc.weather_tools()


@pytest.mark.parametrize("api", APIS)
def test_a_per_conversation_budget_stops_its_conversation(api: str, tmp_path: Path) -> None:
    offline = model()
    budget = cd.Budget(tokens=TIGHT[api])
    orch = orchestrator(offline, api, tools=WEATHER, budget=budget, max_tokens=1000)
    results = batched(orch, [CHAIN, "Hello!"], tmp_path)
    assert [(r.stopped_by, r.api_calls) for r in results] == [("budget", 2), (None, 1)]
    assert results[0].usage.input_tokens + results[0].usage.output_tokens <= budget.tokens
    # The direct loop stops at the same request.
    reference = direct(api, [CHAIN, "Hello!"], tools=WEATHER, budget=budget, max_tokens=1000)
    assert [(r.stopped_by, r.api_calls) for r in reference] == [("budget", 2), (None, 1)]
    assert len(batches_created(offline)) == 2  # the request the budget refused was never sent
    # Across a restart the budget holds too: what was spent and what is in flight are counted again.
    handle = orchestrator(offline, api, tools=WEATHER, budget=budget, max_tokens=1000).submit(
        [CHAIN, "Hello!"], state_dir=tmp_path)
    fresh = orchestrator(offline, api, tools=WEATHER, max_tokens=1000)  # the run's own budget is on disk
    again = fresh.collect(handle, progress=False)
    assert [(r.stopped_by, r.api_calls) for r in again] == [("budget", 2), (None, 1)]


def test_a_dollar_budget_counts_the_batch_rate(tmp_path: Path) -> None:
    # Each request's worst case is priced at the batch rate too: a budget too small for the direct loop's
    # first request covers the whole batched conversation.
    llm = cd.connect("offline", api="responses", offline_model=model())
    worst = cd.budget.first_request_worst_case(llm, CHAIN, tools=WEATHER, max_tokens=1000)
    budget = cd.Budget(usd=worst.usd * 0.75)
    reference = direct("responses", [CHAIN], tools=WEATHER, budget=budget, max_tokens=1000)[0]
    orch = orchestrator(model(), "responses", tools=WEATHER, budget=budget, max_tokens=1000)
    result = batched(orch, [CHAIN], tmp_path)[0]
    assert (reference.stopped_by, reference.api_calls) == ("budget", 0)
    assert (result.stopped_by, result.api_calls) == (None, 3) and result.cost <= budget.usd


def test_the_batch_budget_is_shared_by_the_run(tmp_path: Path) -> None:
    offline = model()
    budget = cd.Budget(tokens=6_000)  # three of the four conversations fit, the fourth is stopped
    orch = orchestrator(offline, "responses", batch_budget=budget, max_tokens=1000)
    results = batched(orch, [CHAIN] * 4, tmp_path)
    stops = [r.stopped_by for r in results]
    assert "budget" in stops and stops.count(None) >= 1
    spent = sum(r.usage.input_tokens + r.usage.output_tokens for r in results)
    assert spent <= budget.tokens
    assert orch.batch_ledger is not None and orch.batch_ledger.spent.tokens == spent


def test_the_runs_deadline_cancels_the_batch_in_flight(tmp_path: Path) -> None:
    offline = model(delay=2.0)  # cancelling takes a tenth of it
    orch = orchestrator(offline, "messages")
    results = batched(orch, [CHAIN, "Hello!"], tmp_path, deadline=0.2, poll_interval=0.05)
    assert [r.stopped_by for r in results] == ["deadline", "deadline"]
    assert any(r.path.endswith("/cancel") for r in offline.requests)
    assert all(r.api_calls == 0 and "deadline" in r.answer for r in results)


def test_a_conversations_deadline_counts_its_own_time_not_the_queue(tmp_path: Path) -> None:
    import time

    @cd.tool
    def get_weather(city: str) -> str:
        """Get today's weather for a city."""
        time.sleep(0.3)
        return "sunny, 20 °C"

    llm = cd.connect("offline", api="responses", offline_model=model(delay=0.3))
    orch = cd.Orchestrator(llm, tools=[get_weather, sc.suggest_clothing], rate_limit=None, deadline=0.15)
    results = asyncio.run(orch.run_many([CHAIN, "Hello!"], via="batch", state_dir=tmp_path, progress=False,
                                        poll_interval=0.02))
    # "Hello!" waited 0.3 s in its batch, past its 0.15 s deadline, and still got its answer.
    assert results[1].stopped_by is None and results[1].seconds > 0.15
    # CHAIN's tool ran past its deadline: the call was cut and the conversation ended there.
    assert results[0].stopped_by == "deadline" and results[0].tool_calls[0].is_error


# -- submit, then collect in a new Orchestrator (and a new process) ---------------------------------------


@pytest.mark.parametrize("api", APIS)
def test_collect_on_a_new_orchestrator_finishes_without_resending_a_round(api: str, tmp_path: Path) -> None:
    offline = model(delay=0.1)
    handle = orchestrator(offline, api).submit(QUESTIONS, state_dir=tmp_path)
    assert isinstance(handle, BatchHandle) and handle.conversations == len(QUESTIONS) and len(handle.batch_ids) == 1
    assert len(batches_created(offline)) == 1
    assert handle.status()["rounds"] == 1 and handle.status()["finished"] == 0

    fresh = orchestrator(offline, api)  # another Orchestrator, another llm: only the id and the disk are shared
    results = fresh.collect(handle.id, state_dir=tmp_path, progress=False, poll_interval=0.02)
    assert [r.answer for r in results] == [r.answer for r in direct(api, QUESTIONS)]
    assert len(batches_created(offline)) == 3  # round 1 was polled, not sent again
    assert {r.trace.model_calls[0].batch_id for r in results} == {handle.batch_ids[0]}
    for result in results:
        assert_every_call_answered_once(result)
    assert handle.status()["done"] and handle.status()["finished"] == len(QUESTIONS)
    # Collecting a finished run again sends nothing and gives the same results.
    again = orchestrator(offline, api).collect(handle, progress=False)
    assert [r.answer for r in again] == [r.answer for r in results] and len(batches_created(offline)) == 3


@pytest.mark.parametrize("api", APIS)
def test_a_run_is_collected_by_one_collector_at_a_time(api: str, tmp_path: Path) -> None:
    from conductor.batch import BatchRunBusy

    offline = model(delay=0.2)
    handle = orchestrator(offline, api).submit([CHAIN, "Hello!"], state_dir=tmp_path)
    first, second = orchestrator(offline, api), orchestrator(offline, api)

    async def both() -> list[Any]:
        return await asyncio.gather(
            first.acollect(handle.id, state_dir=tmp_path, progress=False, poll_interval=0.01),
            second.acollect(handle.id, state_dir=tmp_path, progress=False, poll_interval=0.01),
            return_exceptions=True)

    done, refused = asyncio.run(both())
    assert [r.stopped_by for r in done] == [None, None]
    assert isinstance(refused, BatchRunBusy) and "wait for it to finish" in str(refused)
    assert len(batches_created(offline)) == 3  # no round sent twice, no tool run twice
    again = orchestrator(offline, api).collect(handle.id, state_dir=tmp_path, progress=False)
    assert [r.answer for r in again] == [r.answer for r in done] and len(batches_created(offline)) == 3


def test_a_run_held_by_another_process_is_refused_until_it_lets_go(tmp_path: Path) -> None:
    from conductor.batch import BatchRunBusy

    offline = model()
    handle = orchestrator(offline, "responses").submit(["Hello!"], state_dir=tmp_path)
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys\nfrom filelock import FileLock\nlock = FileLock(sys.argv[1])\n"
         "lock.acquire()\nprint('held', flush=True)\nsys.stdin.read()", str(handle.path.with_name(handle.path.name + ".lock"))],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(BatchRunBusy, match="another process"):
            orchestrator(offline, "responses").collect(handle.id, state_dir=tmp_path, progress=False)
    finally:
        holder.communicate("")  # the holder exits: the OS lets go of its lock
    results = orchestrator(offline, "responses").collect(handle.id, state_dir=tmp_path, progress=False)
    assert [r.stopped_by for r in results] == [None]


def _lose_batch_id(handle: BatchHandle) -> None:
    """The process stopped after round 1's batch was created, before its id was written down."""
    run_file = handle.path / "run.json"
    run = json.loads(run_file.read_text())
    run["rounds"][0]["batch_id"] = None
    run_file.write_text(json.dumps(run))


@pytest.mark.parametrize("api", ["responses", "chat", "messages"])
def test_a_round_sent_just_before_a_crash_is_found_not_sent_again(api: str, tmp_path: Path) -> None:
    offline = model(delay=0.05)
    handle = orchestrator(offline, api).submit([CHAIN, "Hello!"], state_dir=tmp_path)
    _lose_batch_id(handle)
    results = orchestrator(offline, api).collect(handle.id, state_dir=tmp_path, progress=False, poll_interval=0.01)
    assert [r.stopped_by for r in results] == [None, None]
    assert len(batches_created(offline)) == 3
    assert results[0].trace.model_calls[0].batch_id == handle.batch_ids[0]


def _newer_batches(offline: OfflineModel, api: str, count: int) -> None:
    """``count`` batches of someone else's, created after the run's: more than one page of the provider's list."""
    if api == "messages":
        client = offline.anthropic_client()
        for n in range(count):
            client.messages.batches.create(requests=[{"custom_id": f"other-{n}", "params": {
                "model": "claude-haiku-4-5", "max_tokens": 16, "messages": [{"role": "user", "content": "Hi"}]}}])
        return
    client = offline.openai_client()
    endpoint = "/v1/responses" if api == "responses" else "/v1/chat/completions"
    body = {"model": "gpt-4.1-mini", "input": "Hi"} if api == "responses" else {
        "model": "gpt-4.1-mini", "messages": [{"role": "user", "content": "Hi"}]}
    line = json.dumps({"custom_id": "other", "method": "POST", "url": endpoint, "body": body}).encode()
    uploaded = client.files.create(file=("other.jsonl", line), purpose="batch")
    for _ in range(count):
        client.batches.create(input_file_id=uploaded.id, endpoint=endpoint, completion_window="24h")


@pytest.mark.parametrize("api", APIS)
def test_a_lost_round_is_found_below_the_first_page_of_batches(api: str, tmp_path: Path) -> None:
    offline = model(delay=0.05)
    handle = orchestrator(offline, api).submit([CHAIN, "Hello!"], state_dir=tmp_path)
    _lose_batch_id(handle)
    _newer_batches(offline, api, 101)
    results = orchestrator(offline, api).collect(handle.id, state_dir=tmp_path, progress=False, poll_interval=0.01)
    assert [r.stopped_by for r in results] == [None, None]
    assert len(batches_created(offline)) == 101 + 3  # the lost round was found, not sent again
    assert results[0].trace.model_calls[0].batch_id == handle.batch_ids[0]


def test_a_lost_message_batch_is_the_first_one_after_its_mark_not_another_runs(tmp_path: Path) -> None:
    # Message Batches carry no metadata: two runs of the same size, both losing round 1's id, each find their own
    # batch by the newest batch listed before they sent it, on the provider's clock (the offline model's is fixed).
    offline = model(delay=0.05)
    first = orchestrator(offline, "messages").submit([CHAIN, "Hello!"], state_dir=tmp_path)
    second = orchestrator(offline, "messages").submit(["Hello!", CHAIN], state_dir=tmp_path)
    for handle in (first, second):
        _lose_batch_id(handle)
    for handle in (second, first):
        results = orchestrator(offline, "messages").collect(handle.id, state_dir=tmp_path, progress=False,
                                                             poll_interval=0.01)
        assert all(r.stopped_by is None for r in results)
        assert results[0].trace.model_calls[0].batch_id == handle.batch_ids[0]
    assert len(batches_created(offline)) == 6  # two runs of three rounds: no round sent twice


def test_collect_refuses_another_model_or_other_tools(tmp_path: Path) -> None:
    offline = model(delay=5.0)
    handle = orchestrator(offline, "responses").submit(["Hello!"], state_dir=tmp_path)
    other = cd.Orchestrator(cd.connect("offline", api="chat", offline_model=offline), tools=TOOLS)
    with pytest.raises(ValueError, match="same provider, API and model"):
        other.collect(handle, progress=False)
    fewer = cd.Orchestrator(cd.connect("offline", api="responses", offline_model=offline), tools=TOOLS[:1])
    with pytest.raises(ValueError, match="same tools"):
        fewer.collect(handle, progress=False)
    with pytest.raises(FileNotFoundError, match="no batched run"):
        orchestrator(offline, "responses").collect("batchrun_nope", state_dir=tmp_path)
    with pytest.raises(ValueError, match="via must be"):
        asyncio.run(orchestrator(offline, "responses").run_many(["Hello!"], via="batches"))


class _Bridge(http.server.BaseHTTPRequestHandler):
    """The offline model over HTTP: the provider lives in this process, the client in another."""

    def _serve(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        request = httpx2.Request(self.command, f"http://offline.invalid{self.path}",
                                 headers=list(self.headers.items()), content=self.rfile.read(length))
        response = self.server.offline._handle(request)  # type: ignore[attr-defined]
        content = response.read()
        self.send_response(response.status_code)
        for name, value in response.headers.items():
            if name.lower() not in ("content-length", "transfer-encoding", "connection", "content-encoding"):
                self.send_header(name, value)
        self.send_header("content-length", str(len(content)))
        self.end_headers()
        self.wfile.write(content)

    do_GET = do_POST = do_DELETE = _serve

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def served() -> Iterator[tuple[OfflineModel, str]]:
    offline = model(delay=0.5)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Bridge)
    server.offline = offline  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield offline, f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()


def test_collect_in_a_new_process_finishes_the_run_without_resending(served: tuple[OfflineModel, str],
                                                                     tmp_path: Path) -> None:
    offline, url = served

    def llm() -> cd.LLM:
        client = openai.OpenAI(base_url=url, api_key=API_KEY, max_retries=0)
        return cd.connect(client, model="conductor-offline", api="responses")

    questions = [CHAIN, "What is (12 + 30) * 2?", "Hello!"]
    reference = [cd.Orchestrator(llm(), tools=TOOLS, rate_limit=None).run(q) for q in questions]
    before = len(batches_created(offline))
    handle = cd.Orchestrator(llm(), tools=TOOLS, rate_limit=None).submit(questions, state_dir=tmp_path)
    assert len(batches_created(offline)) == before + 1

    script = textwrap.dedent(f"""
        import json, sys
        import openai
        import conductor as cd
        from conductor import scenarios as sc
        tools = sc.weather_tools() + [t for t in sc.ALL_TOOLS if t.name not in ("get_weather", "suggest_clothing")]
        client = openai.OpenAI(base_url={url!r}, api_key={API_KEY!r}, max_retries=0)
        llm = cd.connect(client, model="conductor-offline", api="responses")
        orch = cd.Orchestrator(llm, tools=tools, rate_limit=None)
        results = orch.collect({handle.id!r}, state_dir={str(tmp_path)!r}, progress=False, poll_interval=0.05)
        json.dump([{{"answer": r.answer, "stopped_by": r.stopped_by,
                     "batches": [c.batch_id for c in r.trace.model_calls]}} for r in results], sys.stdout)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    assert [r["answer"] for r in results] == [r.answer for r in reference]
    assert [r["stopped_by"] for r in results] == [None, None, None]
    assert {r["batches"][0] for r in results} == {handle.batch_ids[0]}  # round 1 polled, never sent again
    assert len(batches_created(offline)) == before + 3
