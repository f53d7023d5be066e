"""The offline model serves the providers' batch APIs: OpenAI's Files and Batches, Anthropic's Message Batches.

Everything goes through the official SDK clients the offline model hands out; every
batch object, output line and result is checked against the SDKs' own types. Status
progressions run on a hand-driven clock (the batch server reads the time from it), so
they are exact and fast; one test checks the real delay against the machine's clock.
"""

from __future__ import annotations

import asyncio
import json
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import anthropic
import openai
import pytest
from anthropic.types import Message
from anthropic.types.messages import MessageBatch, MessageBatchIndividualResponse
from openai.types import Batch
from openai.types.chat import ChatCompletion
from openai.types.responses import Response

from conductor.offline import LatencyModel, OfflineModel
from scripted import ANTHROPIC_TOOLS, OPENAI_TOOLS

GPT = "gpt-5.4-mini"
CLAUDE = "claude-haiku-4-5"
QUESTIONS = {
    "beijing": "What's the weather in Beijing today?",
    "sum": "What is 12 + 30?",
    "hello": "Hello! Who are you?",
}
RESPONSES_TOOL = {
    "type": "function",
    "name": "get_weather",
    "description": "Get today's weather for a city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def make_model(delay: float = 0.0, clock: Clock | None = None, **options: Any) -> OfflineModel:
    """A model whose batches last ``delay`` seconds (real or on ``clock``): latency scale 1, no sleeping answers."""
    model = OfflineModel(latency=LatencyModel(ttft=0.0, per_token=0.0, jitter=0.0), batch_delay=delay, **options)
    if clock is not None:
        model._batches._clock = clock
    return model


def responses_line(custom_id: str, question: str, **body: Any) -> dict[str, Any]:
    return {"custom_id": custom_id, "method": "POST", "url": "/v1/responses",
            "body": {"model": GPT, "input": question, **body}}


def chat_line(custom_id: str, question: str, **body: Any) -> dict[str, Any]:
    return {"custom_id": custom_id, "method": "POST", "url": "/v1/chat/completions",
            "body": {"model": GPT, "messages": [{"role": "user", "content": question}], **body}}


def jsonl(lines: list[Any]) -> bytes:
    return "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines).encode()


def submit(client: openai.OpenAI, lines: list[Any], endpoint: str = "/v1/responses", **options: Any) -> Batch:
    uploaded = client.files.create(file=("requests.jsonl", jsonl(lines)), purpose="batch")
    return client.batches.create(input_file_id=uploaded.id, endpoint=endpoint, completion_window="24h", **options)


def read_file(client: openai.OpenAI, file_id: str | None) -> dict[str, dict[str, Any]]:
    """The lines of an output or error file, by custom_id."""
    if file_id is None:
        return {}
    records = [json.loads(line) for line in client.files.content(file_id).text.splitlines()]
    return {record["custom_id"]: record for record in records}


def anthropic_request(custom_id: str, question: str, **params: Any) -> dict[str, Any]:
    return {"custom_id": custom_id, "params": {"model": CLAUDE, "max_tokens": 400,
                                               "messages": [{"role": "user", "content": question}], **params}}


def results(client: anthropic.Anthropic, batch_id: str) -> dict[str, MessageBatchIndividualResponse]:
    return {entry.custom_id: entry for entry in client.messages.batches.results(batch_id)}


# ---------------------------------------------------------------------------------- end to end


def test_an_openai_responses_batch_answers_every_line_as_a_direct_request_would() -> None:
    model = make_model()
    client = model.openai_client()
    lines = [responses_line(cid, question, tools=[RESPONSES_TOOL]) for cid, question in QUESTIONS.items()]
    created = submit(client, lines, metadata={"lesson": "06"})
    assert created.status == "validating" and created.request_counts.total == 0

    batch = client.batches.retrieve(created.id)
    assert batch.status == "completed"
    assert batch.request_counts.model_dump() == {"completed": 3, "failed": 0, "total": 3}
    assert batch.model == GPT and batch.metadata == {"lesson": "06"} and batch.error_file_id is None
    assert batch.created_at <= batch.in_progress_at <= batch.finalizing_at <= batch.completed_at
    assert batch.expires_at == batch.created_at + 86_400
    output = read_file(client, batch.output_file_id)
    assert set(output) == set(QUESTIONS)  # in whatever order they finished, mapped by custom_id
    for custom_id, record in output.items():
        assert record["id"].startswith("batch_req_") and record["error"] is None
        assert record["response"]["status_code"] == 200
        answer = Response.model_validate(record["response"]["body"])
        direct = client.responses.create(model=GPT, input=QUESTIONS[custom_id], tools=[RESPONSES_TOOL])
        assert answer.output == direct.output
    weather = Response.model_validate(output["beijing"]["response"]["body"])
    assert [item.type for item in weather.output] == ["function_call"]
    assert batch.usage.input_tokens > 0 and batch.usage.total_tokens == batch.usage.input_tokens + batch.usage.output_tokens


def test_an_openai_chat_completions_batch_is_read_with_the_sdk_types() -> None:
    model = make_model()
    client = model.openai_client()
    batch = submit(client, [chat_line(cid, q, tools=OPENAI_TOOLS) for cid, q in QUESTIONS.items()],
                   endpoint="/v1/chat/completions")
    batch = client.batches.retrieve(batch.id)
    assert batch.status == "completed" and batch.endpoint == "/v1/chat/completions"
    output = read_file(client, batch.output_file_id)
    completions = {cid: ChatCompletion.model_validate(r["response"]["body"]) for cid, r in output.items()}
    assert completions["beijing"].choices[0].finish_reason == "tool_calls"
    assert completions["hello"].choices[0].message.content
    assert batch.usage.input_tokens == sum(c.usage.prompt_tokens for c in completions.values())


def test_an_anthropic_message_batch_streams_its_results() -> None:
    model = make_model()
    client = model.anthropic_client()
    requests = [anthropic_request(cid, q, tools=ANTHROPIC_TOOLS) for cid, q in QUESTIONS.items()]
    created = client.messages.batches.create(requests=requests)
    assert created.processing_status == "in_progress" and created.results_url is None
    assert created.request_counts.processing == 3 and created.id.startswith("msgbatch_01")

    batch = client.messages.batches.retrieve(created.id)
    assert batch.processing_status == "ended" and batch.ended_at is not None
    assert batch.request_counts.model_dump() == {"processing": 0, "succeeded": 3, "errored": 0, "canceled": 0,
                                                 "expired": 0}
    assert batch.results_url == f"http://offline.invalid/v1/messages/batches/{batch.id}/results"
    answers = results(client, batch.id)
    assert set(answers) == set(QUESTIONS)
    for custom_id, entry in answers.items():
        assert entry.result.type == "succeeded"
        message = Message.model_validate(entry.result.message.model_dump())
        direct = client.messages.create(**requests[list(QUESTIONS).index(custom_id)]["params"])
        assert message.content == direct.content
    assert answers["beijing"].result.message.stop_reason == "tool_use"


def test_the_async_clients_work_too() -> None:
    model = make_model()

    async def run() -> tuple[str, str]:
        client = model.openai_client(async_=True)
        uploaded = await client.files.create(file=("in.jsonl", jsonl([responses_line("a", "Hello")])), purpose="batch")
        batch = await client.batches.create(input_file_id=uploaded.id, endpoint="/v1/responses",
                                            completion_window="24h")
        batch = await client.batches.retrieve(batch.id)
        claude = model.anthropic_client(async_=True)
        message_batch = await claude.messages.batches.create(requests=[anthropic_request("a", "Hello")])
        message_batch = await claude.messages.batches.retrieve(message_batch.id)
        return batch.status, message_batch.processing_status

    assert asyncio.run(run()) == ("completed", "ended")


# ---------------------------------------------------------------------------------- time


def test_an_openai_batch_moves_through_the_real_statuses_as_the_clock_runs() -> None:
    clock = Clock()
    model = make_model(delay=100.0, clock=clock)
    client = model.openai_client()
    batch = submit(client, [responses_line(f"q{i}", f"What is {i} + {i}?") for i in range(20)])
    seen = []
    completed = []
    for _ in range(101):
        state = client.batches.retrieve(batch.id)
        if not seen or seen[-1] != state.status:
            seen.append(state.status)
        completed.append(state.request_counts.completed)
        clock.advance(1.0)
    assert seen == ["validating", "in_progress", "finalizing", "completed"]
    assert completed == sorted(completed) and completed[0] == 0 and completed[-1] == 20
    assert len(set(completed)) > 5  # lines finish one by one, not all at once
    state = client.batches.retrieve(batch.id)
    assert state.completed_at - state.created_at == 100
    assert state.in_progress_at - state.created_at == 10 and state.finalizing_at - state.created_at == 80


def test_an_anthropic_batch_counts_every_request_as_processing_until_it_ends() -> None:
    clock = Clock()
    model = make_model(delay=10.0, clock=clock)
    client = model.anthropic_client()
    batch = client.messages.batches.create(requests=[anthropic_request(f"q{i}", "Hello") for i in range(4)])
    clock.advance(9.9)
    state = client.messages.batches.retrieve(batch.id)
    assert state.processing_status == "in_progress" and state.request_counts.processing == 4
    with pytest.raises(anthropic.AnthropicError, match="Has it finished processing"):
        client.messages.batches.results(batch.id)
    clock.advance(0.1)
    state = client.messages.batches.retrieve(batch.id)
    assert state.processing_status == "ended" and state.request_counts.succeeded == 4
    assert (state.ended_at - state.created_at).total_seconds() == pytest.approx(10.0)


def test_the_delay_is_simulated_time_scaled_by_the_latency_model() -> None:
    model = OfflineModel(latency=LatencyModel(ttft=0.0, per_token=0.0, jitter=0.0, scale=0.1), batch_delay=3.0)
    client = model.openai_client()
    batch = submit(client, [responses_line("a", "Hello")])
    assert client.batches.retrieve(batch.id).status != "completed"  # 0.3 s of real time to go
    time.sleep(0.35)
    done = client.batches.retrieve(batch.id)
    assert done.status == "completed" and done.completed_at - done.created_at == 3  # the model's clock
    instant = OfflineModel(latency=LatencyModel.instant(), batch_delay=3.0)
    quick = submit(instant.openai_client(), [responses_line("a", "Hello")])
    assert quick.status == "validating"  # as the real API answers the creation
    assert instant.openai_client().batches.retrieve(quick.id).status == "completed"


# ---------------------------------------------------------------------------------- faults on demand


def test_lines_named_to_expire_end_an_openai_batch_as_expired() -> None:
    clock = Clock()
    model = make_model(delay=10.0, clock=clock, batch_faults={"expire": {"sum"}})
    client = model.openai_client()
    batch = submit(client, [responses_line(cid, q) for cid, q in QUESTIONS.items()])
    clock.advance(9.0)
    assert client.batches.retrieve(batch.id).status == "in_progress"  # no finalizing: the window runs out
    clock.advance(1.0)
    batch = client.batches.retrieve(batch.id)
    assert batch.status == "expired" and batch.expired_at == batch.created_at + 10 and batch.completed_at is None
    assert batch.request_counts.model_dump() == {"completed": 2, "failed": 1, "total": 3}
    assert set(read_file(client, batch.output_file_id)) == {"beijing", "hello"}
    expired = read_file(client, batch.error_file_id)["sum"]
    assert expired["response"] is None
    assert expired["error"] == {
        "code": "batch_expired",
        "message": "This request could not be executed before the completion window expired.",
    }


def test_lines_named_to_fail_get_the_server_error_in_the_error_file() -> None:
    model = make_model(batch_faults={"fail": ["hello"]})
    client = model.openai_client()
    batch = client.batches.retrieve(submit(client, [responses_line(cid, q) for cid, q in QUESTIONS.items()]).id)
    assert batch.status == "completed" and batch.request_counts.failed == 1
    failed = read_file(client, batch.error_file_id)["hello"]
    assert failed["error"] is None and failed["response"]["status_code"] == 500
    assert failed["response"]["body"]["error"]["type"] == "server_error"
    assert failed["response"]["body"]["error"]["message"].startswith("The server had an error")


def test_anthropic_lines_expire_or_fail_on_demand() -> None:
    model = make_model(batch_faults={"expire": "sum", "fail": {"hello"}})
    client = model.anthropic_client()
    batch = client.messages.batches.create(requests=[anthropic_request(cid, q) for cid, q in QUESTIONS.items()])
    batch = client.messages.batches.retrieve(batch.id)
    assert batch.processing_status == "ended"
    assert (batch.request_counts.succeeded, batch.request_counts.errored, batch.request_counts.expired) == (1, 1, 1)
    answers = results(client, batch.id)
    assert answers["sum"].result.type == "expired"
    assert answers["hello"].result.type == "errored"
    assert answers["hello"].result.error.error.type == "api_error"
    assert answers["beijing"].result.type == "succeeded"


def test_fault_rates_are_drawn_per_batch_and_line_from_the_seed() -> None:
    def expired(seed: int) -> list[set[str]]:
        model = make_model(seed=seed, batch_faults={"expire": 0.5})
        client = model.anthropic_client()
        outcome = []
        for _ in range(2):
            batch = client.messages.batches.create(requests=[anthropic_request(f"q{i}", "Hello") for i in range(12)])
            client.messages.batches.retrieve(batch.id)
            outcome.append({cid for cid, e in results(client, batch.id).items() if e.result.type == "expired"})
        return outcome

    first, second = expired(0)
    assert first and second and first != second  # a resubmitted line may pass in a new batch
    assert expired(0) == [first, second]  # the same seed, the same lines
    everything = make_model(batch_faults={"fail": 1.0}).openai_client()
    batch = everything.batches.retrieve(submit(everything, [responses_line("a", "Hello")]).id)
    assert batch.request_counts.failed == 1 and batch.output_file_id is None


def test_batch_faults_are_checked() -> None:
    with pytest.raises(ValueError, match="unknown batch fault"):
        OfflineModel(batch_faults={"explode": 0.1})
    with pytest.raises(ValueError, match="probability"):
        OfflineModel(batch_faults={"fail": 2})
    with pytest.raises(ValueError, match="batch_delay"):
        OfflineModel(batch_delay=-1)


def test_the_models_own_faults_reach_batch_lines() -> None:
    model = make_model()
    client = model.openai_client()
    model.inject("rate_limit", retry_after=0.001)
    batch = client.batches.retrieve(submit(client, [responses_line("a", "Hello"), responses_line("b", "Hi")]).id)
    assert batch.request_counts.failed == 1
    (limited,) = read_file(client, batch.error_file_id).values()
    assert limited["response"]["status_code"] == 429
    assert limited["response"]["body"]["error"]["code"] == "rate_limit_exceeded"


# ---------------------------------------------------------------------------------- validation


def failed(client: openai.OpenAI, lines: list[Any], endpoint: str = "/v1/responses") -> list[Any]:
    batch = client.batches.retrieve(submit(client, lines, endpoint=endpoint).id)
    assert batch.status == "failed" and batch.failed_at == batch.created_at
    assert batch.output_file_id is None and batch.error_file_id is None
    return batch.errors.data


def test_malformed_lines_fail_an_openai_batch_with_the_real_errors() -> None:
    client = make_model().openai_client()
    good = responses_line("ok", "Hello")
    errors = failed(client, [
        good,
        "{not json",
        {key: value for key, value in responses_line("x", "Hi").items() if key != "custom_id"},
        {**responses_line("y", "Hi"), "url": "/v1/chat/completions"},
        {**responses_line("z", "Hi"), "method": "GET"},
        responses_line("ok", "Hello again"),
        responses_line("s", "Hi", stream=True),
        {**responses_line("m", "Hi"), "body": {"input": "Hi"}},
        {**responses_line("n", "Hi"), "body": {"model": "gpt-5.4", "input": "Hi"}},
    ])
    by_line = {error.line: (error.code, error.param) for error in errors}
    assert by_line == {
        2: ("invalid_json_line", None),
        3: ("missing_required_parameter", "custom_id"),
        4: ("invalid_url", "url"),
        5: ("invalid_method", "method"),
        6: ("duplicate_custom_id", "custom_id"),
        7: ("streaming_unsupported", "body.stream"),
        8: ("invalid_request", "body.model"),
        9: ("mismatched_model", "body.model"),
    }
    messages = {error.line: error.message for error in errors}
    assert messages[2] == "This line is not parseable as valid JSON."
    assert messages[3] == "Missing required parameter: 'custom_id'."
    assert messages[4] == "The URL provided for this request does not match the batch endpoint."
    assert messages[7] == "Responses: Streaming is not supported in the Batch API."
    assert messages[8] == "Model parameter is required."
    assert "does not match the rest of the batch" in messages[9]


def test_a_chat_line_without_messages_fails_the_batch() -> None:
    client = make_model().openai_client()
    line = chat_line("a", "Hi")
    del line["body"]["messages"]
    (error,) = failed(client, [line], endpoint="/v1/chat/completions")
    assert (error.code, error.message, error.param) == ("invalid_request", "Messages parameter is required.",
                                                        "body.messages")


def test_a_line_the_api_would_refuse_gets_its_400_in_the_error_file() -> None:
    model = make_model()
    client = model.openai_client()
    refused = {"model": GPT, "input": "Hello", "max_output_tokens": 5}
    batch = submit(client, [responses_line("ok", "Hello"), {**responses_line("bad", "Hello"), "body": refused}])
    batch = client.batches.retrieve(batch.id)
    assert batch.status == "completed"
    assert batch.request_counts.model_dump() == {"completed": 1, "failed": 1, "total": 2}
    line = read_file(client, batch.error_file_id)["bad"]
    assert line["error"] is None and line["response"]["status_code"] == 400
    with pytest.raises(openai.BadRequestError) as direct:
        client.responses.create(**refused)
    assert line["response"]["body"] == {"error": direct.value.body}  # the SDK's .body is the inner object
    assert set(read_file(client, batch.output_file_id)) == {"ok"}


def test_an_anthropic_request_with_invalid_params_ends_errored_with_the_direct_error() -> None:
    model = make_model()
    client = model.anthropic_client()
    params = {"model": CLAUDE, "max_tokens": 100,
              "messages": [{"role": "user", "content": "Hi"}, {"role": "user", "content": " "}]}
    batch = client.messages.batches.create(requests=[anthropic_request("ok", "Hi"),
                                                     {"custom_id": "bad", "params": params}])
    client.messages.batches.retrieve(batch.id)
    errored = results(client, batch.id)["bad"].result
    assert errored.type == "errored" and errored.error.error.type == "invalid_request_error"
    with pytest.raises(anthropic.BadRequestError) as direct:
        client.messages.create(**params)
    assert errored.error.error.message == direct.value.body["error"]["message"]


@pytest.mark.parametrize(
    ("requests", "message"),
    [
        ([], "requests: List should have at least 1 item after validation, not 0"),
        ([anthropic_request("a" * 65, "Hi")], "requests.0.custom_id: String should have at most 64 characters"),
        ([anthropic_request("a b", "Hi")], "requests.0.custom_id: String should match pattern"),
        ([anthropic_request("a", "Hi"), anthropic_request("a", "Ho")], "requests.1.custom_id: Duplicate custom_id 'a'"),
        ([{"custom_id": "a"}], "requests.0.params: Field required"),
    ],
)
def test_anthropic_refuses_a_malformed_request_list_at_once(requests: list[Any], message: str) -> None:
    client = make_model().anthropic_client(max_retries=0)
    with pytest.raises(anthropic.BadRequestError) as refused:
        client.messages.batches.create(requests=requests)
    assert refused.value.body["error"]["message"].startswith(message)


def test_files_and_batches_refuse_what_the_api_refuses() -> None:
    model = make_model()
    client = model.openai_client(max_retries=0)
    with pytest.raises(openai.BadRequestError, match="Must be .jsonl"):
        client.files.create(file=("requests.txt", b"{}\n"), purpose="batch")
    with pytest.raises(openai.NotFoundError, match="No such File object: file-nope"):
        client.files.content("file-nope")
    uploaded = client.files.create(file=("in.jsonl", jsonl([responses_line("a", "Hi")])), purpose="batch")
    with pytest.raises(openai.BadRequestError, match="Invalid value: '/v1/embeddings'"):
        client.batches.create(input_file_id=uploaded.id, endpoint="/v1/embeddings", completion_window="24h")
    with pytest.raises(openai.BadRequestError, match="Supported values are: '24h'"):
        client.batches.create(input_file_id=uploaded.id, endpoint="/v1/responses", completion_window="1h")
    with pytest.raises(openai.BadRequestError, match="metadata.tags"):
        client.batches.create(input_file_id=uploaded.id, endpoint="/v1/responses", completion_window="24h",
                              metadata={"tags": ["a"]})  # type: ignore[dict-item]
    with pytest.raises(openai.NotFoundError):
        client.batches.retrieve("batch_nope")
    missing = client.batches.create(input_file_id="file-nope", endpoint="/v1/responses", completion_window="24h")
    (error,) = client.batches.retrieve(missing.id).errors.data
    assert error.code == "invalid_request" and error.message.startswith("Cannot find file file-nope")
    assert OfflineModel().openai_client(max_retries=0).files.list().data == []  # state lives in one model
    with pytest.raises(anthropic.NotFoundError):
        model.anthropic_client(max_retries=0).messages.batches.retrieve("msgbatch_01nope")


# ---------------------------------------------------------------------------------- cancel, list, delete


def test_cancelling_an_openai_batch_keeps_what_had_finished() -> None:
    clock = Clock()
    model = make_model(delay=100.0, clock=clock)
    client = model.openai_client(max_retries=0)
    batch = submit(client, [responses_line(f"q{i}", "Hello") for i in range(20)])
    clock.advance(45.0)
    cancelling = client.batches.cancel(batch.id)
    assert cancelling.status == "cancelling" and cancelling.cancelling_at == cancelling.created_at + 45
    done = cancelling.request_counts.completed
    assert 0 < done < 20
    clock.advance(10.0)
    cancelled = client.batches.retrieve(batch.id)
    assert cancelled.status == "cancelled" and cancelled.cancelled_at == cancelled.created_at + 55
    assert cancelled.request_counts.model_dump() == {"completed": done, "failed": 20 - done, "total": 20}
    assert len(read_file(client, cancelled.output_file_id)) == done
    not_run = read_file(client, cancelled.error_file_id)
    assert len(not_run) == 20 - done and {r["error"]["code"] for r in not_run.values()} == {"batch_cancelled"}
    assert client.batches.cancel(batch.id).status == "cancelled"  # cancelling again is allowed
    finished = client.batches.retrieve(submit(client, [responses_line("a", "Hi")]).id)
    clock.advance(100.0)
    with pytest.raises(openai.ConflictError, match="Cannot cancel a batch with status 'completed'"):
        client.batches.cancel(finished.id)


def test_cancelling_an_anthropic_batch_cancels_what_had_not_run() -> None:
    clock = Clock()
    model = make_model(delay=100.0, clock=clock)
    client = model.anthropic_client(max_retries=0)
    batch = client.messages.batches.create(requests=[anthropic_request(f"q{i}", "Hello") for i in range(20)])
    clock.advance(45.0)
    canceling = client.messages.batches.cancel(batch.id)
    assert canceling.processing_status == "canceling" and canceling.cancel_initiated_at is not None
    clock.advance(10.0)
    ended = client.messages.batches.retrieve(batch.id)
    counts = ended.request_counts
    assert ended.processing_status == "ended" and counts.succeeded + counts.canceled == 20
    assert 0 < counts.canceled < 20
    kinds = [entry.result.type for entry in results(client, batch.id).values()]
    assert kinds.count("canceled") == counts.canceled
    with pytest.raises(anthropic.BadRequestError):
        client.messages.batches.cancel(batch.id)
    assert client.messages.batches.delete(batch.id).type == "message_batch_deleted"


def test_lists_page_through_every_batch_newest_first() -> None:
    model = make_model()
    client = model.openai_client()
    ids = [submit(client, [responses_line("a", "Hi")]).id for _ in range(3)]
    assert [b.id for b in client.batches.list(limit=2)] == ids[::-1]  # the SDK follows `after`
    assert client.batches.list(limit=2).has_more is True
    assert all(Batch.model_validate(b.model_dump()).status == "completed" for b in client.batches.list())
    assert [f.purpose for f in client.files.list(purpose="batch_output")] == ["batch_output"] * 3
    claude = model.anthropic_client()
    message_ids = [claude.messages.batches.create(requests=[anthropic_request("a", "Hi")]).id for _ in range(3)]
    listed = [b.id for b in claude.messages.batches.list(limit=2)]
    assert listed == message_ids[::-1]
    assert all(isinstance(b, MessageBatch) for b in claude.messages.batches.list())


def test_the_batch_endpoints_are_safe_to_share_between_threads() -> None:
    model = make_model()
    client = model.openai_client()

    def one(index: int) -> tuple[str, int]:
        batch = submit(client, [responses_line(f"q{index}", f"What is {index} + 1?")])
        batch = client.batches.retrieve(batch.id)
        return batch.status, len(read_file(client, batch.output_file_id))

    with ThreadPoolExecutor(8) as pool:
        outcomes = list(pool.map(one, range(16)))
    assert outcomes == [("completed", 1)] * 16
    assert len({b.id for b in client.batches.list()}) == 16
    assert any(r.path == "/v1/batches" for r in model.requests)
