"""Many conversations through the providers' Batch APIs, at half price: ``orch.run_many(questions, via="batch")``.

Every round of every conversation goes out as one provider batch: the requests the
round loop would send one by one (:class:`~conductor.rounds.Conversation`, the same
machinery as ``llm.run``) are collected from every conversation still going, sent
together, and each answer is fed back to its conversation exactly as a direct
response would be; its tools run (in parallel, as usual) and the conversations that
have another round go into the next batch.

* OpenAI (``/v1/responses`` or ``/v1/chat/completions``): a JSONL file through the
  Files API, then ``client.batches.create(...)``; the output and error files are read
  with ``client.files.content``.
* Anthropic: ``client.messages.batches.create(requests=[...])``, then
  ``client.messages.batches.results(...)``.

Each request line is named ``c0007-r1`` (conversation 7, batch round 1). A line that
errors, expires or is cancelled ends only its own conversation, with
``stopped_by="error"`` and the provider's reason in its answer; the others go on.
``result.trace.model_calls[i].batch_id`` names the batch that carried a request, and
requests are priced at the batch rate (:func:`conductor.pricing.cost_split` with
``batch=True``).

**Surviving a restart.** ``orch.submit(questions)`` sends the first round and returns
a :class:`BatchHandle`; ``orch.collect(handle.id)``, on a new Orchestrator in another
process, finishes the work. Everything collect needs is on disk, in a directory per run
(``.conductor/batches/<id>/`` beside the working directory, or ``state_dir=``): the
questions and limits, each round's batch id, and each conversation as it stood after its
last answer (its messages, tool records, guards' counters). A round is written down as
being submitted *before* it is sent, and its batch id right after; OpenAI batches also
carry the run's id in their ``metadata``, and for Anthropic, whose batches carry none, the
newest batch listed before the round is sent is written down with it (the round's batch is
the first one after it, on the provider's clock), so a process that stopped between the two
finds its batch instead of sending the round again. A conversation is saved once its
tools have run, so a collect after a restart never runs a tool call twice, except for a
conversation whose tools were running at the very moment the process stopped (see
:class:`~conductor.rounds.PausedRun` for the same caveat, and what a deployment adds).

**Limits.** ``budget=`` (per conversation) and ``batch_budget=`` (shared by the run)
are checked before every request line goes into a batch, at the batch rate, as in
the direct loop; a line the budget cannot cover is not sent and its conversation ends
with ``stopped_by="budget"``. The Orchestrator's ``deadline=`` counts each
conversation's own time (building its requests and running its tools, whose calls are
cut at it), not the time its requests wait in a provider's queue, which nobody
controls (up to 24 hours). ``deadline=`` given to ``run_many`` / ``submit`` bounds the
whole run by the wall clock, across restarts: when it passes, the batch in flight is
cancelled, the answers that had come are recorded (and billed), no tool runs any more,
and every conversation still going ends with ``stopped_by="deadline"``.
Request and token rate limits (``cd.RateLimit``) pace direct requests only; a batch is
queued by the provider. Per-user tool-call limits still apply to the tools.

The offline model serves both batch APIs (:mod:`conductor.offline.batches`), finishing
a batch after a simulated delay; the default poll interval is scaled to it.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import os
import pickle
import time
import uuid
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from filelock import FileLock, Timeout

from . import display, pricing, tracing
from .budget import Budget, Ledger, RunLimits, Spend, stopped_answer
from .execution import DEFAULT_MAX_WORKERS, aexecute
from .guards import DEFAULT_MAX_REPEATS, blocked_record
from .rounds import DEFAULT_MAX_PAUSES, RunResult, _from_json, _to_json
from .tools import Tool
from .trace import ToolCallRecord
from .types import Turn

if TYPE_CHECKING:
    import threading

    from .providers import LLM
    from .rounds import Conversation


class _Run(Protocol):
    """One conversation's hooks, as the :class:`conductor.orchestrator.Orchestrator` made them (``orch._start``)."""

    run_id: str

    def _announce(self, conversation: Conversation) -> None: ...


class Orchestrator(Protocol):
    """What a batched run reads and calls on the :class:`conductor.orchestrator.Orchestrator` driving it: the
    orchestrator passes itself (``orch.run_many(via="batch")``, ``submit``, ``collect``); this module sits below
    ``orchestrator`` and names only these."""

    llm: LLM
    tools: list[Any]
    max_rounds: int
    run_options: dict[str, Any]
    budget: Budget | None
    batch_budget: Budget | None
    deadline: float | None
    results: list[RunResult | None]
    batch_ledger: Ledger | None
    batch_handle: BatchHandle | None
    failures: list[tuple[int | None, str, BaseException]]
    _lock: threading.Lock

    def _start(self, user: str, on_progress: Any, loop: asyncio.AbstractEventLoop | None) -> _Run: ...

    def _options(self, run: _Run) -> dict[str, Any]: ...

    def _line(self, event: str, run: _Run, **fields: Any) -> str: ...

    def _finish(
        self, run: _Run, question: str, result: RunResult, seconds: float, error: Exception | None,
        batched: bool = False,
    ) -> RunResult: ...

    def metrics(self) -> Any: ...


__all__ = ["BatchHandle", "BatchLineError", "STATE_DIR", "DEFAULT_POLL_INTERVAL", "custom_id"]

logger = logging.getLogger(__name__)

STATE_DIR = Path(".conductor") / "batches"
"""Where each run's state is kept unless ``state_dir=`` says otherwise (relative: to the working directory)."""
DEFAULT_POLL_INTERVAL = 15.0
"""Seconds between two looks at a real provider's batch (they take minutes to hours)."""
OFFLINE_POLLS = 20
"""The offline model's batch is looked at about this many times over its delay."""
_FORMAT = 1
_ENDPOINTS = {"responses": "/v1/responses", "chat": "/v1/chat/completions"}
# Arguments of the SDK's create call that are not part of the request body.
_SDK_ONLY = ("timeout", "extra_headers", "extra_query")
_METADATA_KEY = "conductor_run"
# The most requests one batch takes (OpenAI Batch API guide: 50,000 per batch, input file up to 200 MB;
# Anthropic Message Batches: 100,000 requests or 256 MB). Checked 2026-11-27. A round is one batch, so a run
# holds at most this many conversations.
MAX_LINES = {"responses": 50_000, "chat": 50_000, "messages": 100_000}
MAX_BYTES = {"responses": 200 * 2**20, "chat": 200 * 2**20, "messages": 256 * 2**20}


def custom_id(index: int, round_: int) -> str:
    """The ``custom_id`` of conversation ``index``'s request in batch round ``round_``: ``c0007-r1``."""
    return f"c{index:04d}-r{round_}"


class BatchRunBusy(RuntimeError):
    """Another process (or call) is driving this batched run; collecting it twice would bill it twice."""


class BatchLineError(Exception):
    """A request line of a provider batch that came back without an answer (errored, expired, cancelled)."""

    def __init__(self, reason: str, batch_id: str | None, line: str) -> None:
        super().__init__(f"batch {batch_id}, request {line}: {reason}")
        self.reason = reason
        self.batch_id = batch_id
        self.line = line


@dataclass(frozen=True)
class BatchHandle:
    """A batched run sent with ``orch.submit``: ``orch.collect(handle)`` (or ``orch.collect(handle.id)`` in
    another process) finishes it. ``path`` is the directory its state is kept in."""

    id: str
    path: Path
    conversations: int = 0
    batch_ids: tuple[str, ...] = ()

    def __str__(self) -> str:
        return self.id

    def status(self) -> dict[str, Any]:
        """What the state on disk says: conversations finished, batch rounds sent, and their batch ids."""
        state = _State.load(self.path)
        finished = sum(1 for item in state.items if item.get("result") is not None or item.get("pickled"))
        return {
            "id": self.id,
            "conversations": len(state.questions),
            "finished": finished,
            "rounds": len(state.rounds),
            "batch_ids": [r.get("batch_id") for r in state.rounds],
            "done": state.done,
        }


# -- the state on disk --------------------------------------------------------------------------------


def _write(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` as JSON to ``path`` atomically: a reader (or a restart) sees the old file or the new one."""
    temporary = path.with_name(path.name + f".{os.getpid()}.tmp")
    temporary.write_text(json.dumps(data, ensure_ascii=False, allow_nan=False, indent=1), encoding="utf-8")
    os.replace(temporary, path)


class _State:
    """One batched run as kept on disk: ``run.json`` (the run and its rounds) and ``c0007.json`` per conversation."""

    def __init__(self, path: Path, run: dict[str, Any], items: list[dict[str, Any]], claim: FileLock) -> None:
        self.path = path
        self.run = run
        self.items = items
        self.claim = claim  # held while this process drives the run: no other may run its tools or send its rounds

    @staticmethod
    def _claimed(path: Path) -> FileLock:
        """The run's lock, taken now or never: a second collector of the same run would run every tool call and
        send every round again, billed twice. The OS lets go of it when the process ends, however it ends.
        (filelock rather than fcntl by hand: the same lock on Windows, where the course also runs.)"""
        # Beside the run's folder, not in it: the folder holds the run's state and nothing else.
        claim = FileLock(path.with_name(path.name + ".lock"), thread_local=False)  # driven from a loop's thread too
        try:
            claim.acquire(timeout=0)
        except Timeout:
            raise BatchRunBusy(
                f"batched run {path.name} is being driven by another process (or another call in this one): "
                "wait for it to finish, then collect it again; a finished run's results come back without "
                "sending anything"
            ) from None
        return claim

    def release(self) -> None:
        if self.claim.is_locked:
            self.claim.release()

    @property
    def id(self) -> str:
        return self.run["id"]

    @property
    def questions(self) -> list[str]:
        return self.run["questions"]

    @property
    def rounds(self) -> list[dict[str, Any]]:
        return self.run["rounds"]

    @property
    def done(self) -> bool:
        return bool(self.run.get("done"))

    @classmethod
    def create(cls, directory: Path, run: dict[str, Any]) -> _State:
        path = directory / run["id"]
        path.mkdir(parents=True, exist_ok=False)
        claim = cls._claimed(path)
        state = cls(path, run, [{"index": i, "step": 0, "active": 0.0} for i in range(len(run["questions"]))], claim)
        for index in range(len(state.items)):
            state.save_item(index)
        state.save_run()
        return state

    @classmethod
    def load(cls, path: Path) -> _State:
        run_file = path / "run.json"
        if not run_file.exists():
            raise FileNotFoundError(
                f"no batched run is kept in {path} (no run.json): pass the id orch.submit returned, and the same "
                f"state_dir= if it was given one"
            )
        claim = cls._claimed(path)  # before reading: what another collector writes meanwhile must not be missed
        try:
            run = json.loads(run_file.read_text(encoding="utf-8"))
            if run.get("format") != _FORMAT:
                raise ValueError(f"{run_file} was written by another version of conductor (format {run.get('format')})")
            items = [json.loads((path / f"c{i:04d}.json").read_text(encoding="utf-8"))
                     for i in range(len(run["questions"]))]
        except BaseException:
            claim.release()
            raise
        return cls(path, run, items, claim)

    def save_run(self) -> None:
        _write(self.path / "run.json", self.run)

    def save_item(self, index: int) -> None:
        _write(self.path / f"c{index:04d}.json", self.items[index])


def _resolve(handle_or_id: BatchHandle | str, state_dir: str | os.PathLike[str] | None) -> Path:
    if isinstance(handle_or_id, BatchHandle):
        return handle_or_id.path
    if not isinstance(handle_or_id, str) or not handle_or_id:
        raise TypeError(f"collect() takes a BatchHandle or its id (a string), got {handle_or_id!r}")
    return Path(state_dir if state_dir is not None else STATE_DIR) / handle_or_id


# -- a conversation as data ---------------------------------------------------------------------------


def _snapshot(conversation: Conversation) -> dict[str, Any]:
    """A live conversation between two requests (its tools have run, nothing is pending), as JSON data."""
    guards = conversation.guards
    neutral = tuple(replace(m, raw=None) if isinstance(m, Turn) else m for m in conversation.neutral)
    return {
        "neutral": _to_json(neutral),
        "continued": _to_json(conversation.continued),
        "model_calls": _to_json(tuple(conversation.model_calls)),
        "rounds": _to_json(tuple(conversation.rounds)),
        "pauses": conversation.pauses,
        "paused_texts": list(conversation._paused_texts),
        "guards": _to_json({"invalid": guards.invalid, "withdrawn": guards.withdrawn, "repeats": guards.repeats,
                            "ran": guards.ran}),
    }


def _restore(conversation: Conversation, data: dict[str, Any]) -> None:
    """Put the state :func:`_snapshot` wrote into a conversation built afresh with the run's options."""
    neutral = list(_from_json(data["neutral"]))
    conversation.neutral = neutral
    conversation.call_ids = {c.id for m in neutral if isinstance(m, Turn) for c in m.tool_calls}
    conversation._renderings = {}
    conversation.continued = _from_json(data["continued"])
    conversation.model_calls = list(_from_json(data["model_calls"]))
    conversation.rounds = list(_from_json(data["rounds"]))
    conversation.pauses = data["pauses"]
    conversation._paused_texts = tuple(data["paused_texts"])
    counters = _from_json(data["guards"])
    for name, value in counters.items():
        setattr(conversation.guards, name, value)


def _result_data(result: RunResult) -> dict[str, Any]:
    try:
        return {"result": result.to_json()}
    except TypeError:  # a value JSON cannot hold (a paused run's SDK option): kept pickled
        pass
    try:
        return {"pickled": base64.b64encode(pickle.dumps(result)).decode()}
    except Exception:  # noqa: BLE001 - e.g. an approve= callback defined in a function: kept without the pause
        logger.warning("a paused conversation's decisions cannot be kept on disk; it is kept as its answer only")
        return {"result": replace(result, paused=None, pending=()).to_json()}


def _load_result(item: dict[str, Any]) -> RunResult | None:
    if item.get("result") is not None:
        return RunResult.from_json(item["result"])
    if item.get("pickled"):
        return pickle.loads(base64.b64decode(item["pickled"]))  # noqa: S301 - our own state file
    return None


# -- the providers' batch endpoints ---------------------------------------------------------------------


@dataclass
class _Line:
    """One request line's outcome: the SDK's response object, or why there is none."""

    response: Any = None
    reason: str | None = None
    cancelled: bool = False  # no answer because the batch was cancelled


@dataclass
class _Status:
    ended: bool
    done: int
    total: int
    status: str
    raw: Any = field(default=None, repr=False)


class _Batches:
    """One provider's batch endpoints, through the llm's own SDK client (sync clients run in a thread)."""

    def __init__(self, llm: LLM) -> None:
        self.llm = llm
        self.client = llm.client

    async def _call(self, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if self.llm.is_async:
            return await function(*args, **kwargs)
        return await asyncio.to_thread(function, *args, **kwargs)

    async def create(self, lines: list[tuple[str, dict[str, Any]]], run_id: str, round_: int) -> str:
        raise NotImplementedError

    async def listed(self, list_batches: Callable[..., Any], **params: Any) -> AsyncIterator[Any]:
        """Every batch ``list_batches`` lists, newest first, page after page (a lost round may be far down)."""
        page = await self._call(list_batches, **params)
        while True:
            for batch in page.data:
                yield batch
            if not page.has_next_page():
                return
            page = await self._call(page.get_next_page)

    async def mark(self) -> dict[str, Any] | None:
        """What :meth:`find` needs written down before a round is sent, beyond the run id and round (None: nothing)."""
        return None

    async def find(self, run_id: str, round_: int, count: int, sent: dict[str, Any], known: set[str]) -> str | None:
        """The batch of round ``round_`` when it was created but its id was not written down, else None.

        ``sent`` is the round as written down before it was sent (with :meth:`mark`'s ``after``).
        """
        raise NotImplementedError

    async def status(self, batch_id: str) -> _Status:
        raise NotImplementedError

    async def cancel(self, batch_id: str) -> None:
        raise NotImplementedError

    async def results(self, status: _Status) -> dict[str, _Line]:
        raise NotImplementedError


class _OpenAIBatches(_Batches):
    ENDED = ("completed", "failed", "expired", "cancelled")

    def __init__(self, llm: LLM) -> None:
        super().__init__(llm)
        self.endpoint = _ENDPOINTS[llm.api]

    async def create(self, lines: list[tuple[str, dict[str, Any]]], run_id: str, round_: int) -> str:
        data = b"".join(
            json.dumps({"custom_id": cid, "method": "POST", "url": self.endpoint, "body": body},
                       ensure_ascii=False).encode() + b"\n"
            for cid, body in lines
        )
        _check_size(len(data), self.llm.api)
        uploaded = await self._call(self.client.files.create, file=(f"{run_id}-r{round_}.jsonl", data), purpose="batch")
        batch = await self._call(
            self.client.batches.create, input_file_id=uploaded.id, endpoint=self.endpoint, completion_window="24h",
            metadata={_METADATA_KEY: run_id, "round": str(round_)},
        )
        return batch.id

    async def find(self, run_id: str, round_: int, count: int, sent: dict[str, Any], known: set[str]) -> str | None:
        # Every page: batches are matched by their metadata, not by time (the provider's clock is not this
        # machine's), and a crash recovery is rare enough to read the account's list once.
        async for batch in self.listed(self.client.batches.list, limit=100):
            metadata = batch.metadata or {}
            if metadata.get(_METADATA_KEY) == run_id and metadata.get("round") == str(round_):
                return batch.id
        return None

    async def status(self, batch_id: str) -> _Status:
        batch = await self._call(self.client.batches.retrieve, batch_id)
        counts = batch.request_counts
        total = counts.total if counts else 0
        done = (counts.completed + counts.failed) if counts else 0
        return _Status(batch.status in self.ENDED, done, total, batch.status, batch)

    async def cancel(self, batch_id: str) -> None:
        await self._call(self.client.batches.cancel, batch_id)

    async def _lines(self, file_id: str | None) -> list[dict[str, Any]]:
        if not file_id:
            return []
        content = await self._call(self.client.files.content, file_id)
        text = content.text
        return [json.loads(line) for line in text.splitlines() if line.strip()]

    def _parse(self, body: Any) -> Any:
        """A line's body as the SDK would have read it from a direct response: constructed, not validated
        (real responses lack fields the SDK declares required, e.g. Responses' ``cache_write_tokens``)."""
        if not isinstance(body, dict):
            raise ValueError(f"the line's body is a {type(body).__name__}, not a JSON object")
        if self.llm.api == "responses":
            from openai.types.responses import Response

            return Response.construct(**body)
        from openai.types.chat import ChatCompletion

        return ChatCompletion.construct(**body)

    async def results(self, status: _Status) -> dict[str, _Line]:
        batch = status.raw
        if batch.status == "failed":
            errors = getattr(batch.errors, "data", None) or []
            reason = "the batch failed: " + ("; ".join(
                f"{e.code}: {e.message}" + (f" (line {e.line})" if e.line else "") for e in errors
            ) or "no reason given")
            return {"*": _Line(reason=reason)}
        found: dict[str, _Line] = {}
        for record in await self._lines(batch.output_file_id) + await self._lines(batch.error_file_id):
            line = record.get("custom_id")
            response, error = record.get("response"), record.get("error")
            if response is not None and response.get("status_code") == 200:
                try:
                    found[line] = _Line(self._parse(response.get("body")))
                except ValueError as exc:
                    found[line] = _Line(reason=f"the answer could not be read ({type(exc).__name__}: {exc})")
            elif response is not None:
                body = response.get("body") or {}
                detail = (body.get("error") or {}).get("message") if isinstance(body, dict) else None
                found[line] = _Line(reason=f"HTTP {response.get('status_code')}: {detail or body}")
            else:
                code, message = (error or {}).get("code"), (error or {}).get("message")
                found[line] = _Line(reason=f"{code}: {message}", cancelled=code == "batch_cancelled")
        return found


class _AnthropicBatches(_Batches):
    async def create(self, lines: list[tuple[str, dict[str, Any]]], run_id: str, round_: int) -> str:
        requests = [{"custom_id": cid, "params": body} for cid, body in lines]
        _check_size(len(json.dumps({"requests": requests}, ensure_ascii=False).encode()), self.llm.api)
        batch = await self._call(self.client.messages.batches.create, requests=requests)
        return batch.id

    async def mark(self) -> dict[str, Any] | None:
        # Message batches carry no metadata, so a round lost in a crash is found by position: the newest batch
        # before it is sent, on the provider's own clock (this machine's clock may differ from Anthropic's).
        page = await self._call(self.client.messages.batches.list, limit=1)
        newest = page.data[0] if page.data else None
        return {"id": newest.id, "created": _timestamp(newest.created_at)} if newest is not None else {"id": None}

    async def find(self, run_id: str, round_: int, count: int, sent: dict[str, Any], known: set[str]) -> str | None:
        # The first batch created after the mark, holding as many requests, not known to the run: the round was
        # sent right after its mark was taken. Its results are matched by custom_id, so a batch of another run
        # would answer none of this run's requests (they would end with "no result"). A round written down
        # before marks existed falls back to this machine's clock.
        after = sent.get("after")
        since = after.get("created", 0.0) if after is not None else sent["submitting"] - 60
        found = None
        async for batch in self.listed(self.client.messages.batches.list, limit=100):  # newest first, to the mark
            if after is not None and batch.id == after.get("id"):
                break
            if after is None and _timestamp(batch.created_at) < since:
                break
            counts = batch.request_counts
            total = counts.processing + counts.succeeded + counts.errored + counts.canceled + counts.expired
            if batch.id not in known and total == count and _timestamp(batch.created_at) >= since:
                found = batch.id
        return found

    async def status(self, batch_id: str) -> _Status:
        batch = await self._call(self.client.messages.batches.retrieve, batch_id)
        counts = batch.request_counts
        total = counts.processing + counts.succeeded + counts.errored + counts.canceled + counts.expired
        return _Status(batch.processing_status == "ended", total - counts.processing, total,
                       batch.processing_status, batch)

    async def cancel(self, batch_id: str) -> None:
        await self._call(self.client.messages.batches.cancel, batch_id)

    async def results(self, status: _Status) -> dict[str, _Line]:
        batch_id = status.raw.id
        if self.llm.is_async:
            decoder = await self.client.messages.batches.results(batch_id)
            records = [record async for record in decoder]
        else:
            records = await asyncio.to_thread(lambda: list(self.client.messages.batches.results(batch_id)))
        found: dict[str, _Line] = {}
        for record in records:
            result = record.result
            if result.type == "succeeded":
                found[record.custom_id] = _Line(result.message)
            elif result.type == "errored":
                error = getattr(result.error, "error", None)
                found[record.custom_id] = _Line(
                    reason=f"{getattr(error, 'type', 'error')}: {getattr(error, 'message', None) or result.error}"
                )
            elif result.type == "expired":
                found[record.custom_id] = _Line(reason="expired: the batch ended before this request was processed")
            else:
                found[record.custom_id] = _Line(reason="canceled: the batch was cancelled before this request ran",
                                                cancelled=True)
        return found


def _timestamp(value: Any) -> float:
    return value.timestamp() if isinstance(value, datetime) else 0.0


def _check_size(size: int, api: str) -> None:
    if size > MAX_BYTES[api]:
        raise ValueError(
            f"this round's batch holds {size / 2**20:,.0f} MB of requests; one {api} batch takes at most "
            f"{MAX_BYTES[api] / 2**20:,.0f} MB: run fewer questions at once"
        )


def _batches_of(llm: LLM) -> _Batches:
    if llm.api in _ENDPOINTS:
        return _OpenAIBatches(llm)
    return _AnthropicBatches(llm)


def _body(request: dict[str, Any]) -> dict[str, Any]:
    """The JSON body of a request line: the SDK call's keyword arguments without the SDK's own options."""
    body = {key: value for key, value in request.items() if key not in _SDK_ONLY and key != "extra_body"}
    body.update(request.get("extra_body") or {})
    try:
        json.dumps(body, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"a request of this run cannot go into a batch line as JSON ({exc}); pass only JSON "
                         f"values as options") from exc
    return body


def _poll_interval(llm: LLM, given: float | None) -> float:
    if given is not None:
        if isinstance(given, bool) or not given >= 0:
            raise ValueError(f"poll_interval must be a number of seconds, 0 or more, got {given!r}")
        return float(given)
    offline = getattr(llm, "offline", None)
    if offline is not None:
        delay = getattr(offline, "batch_delay", None)
        if delay is None:
            delay = getattr(getattr(offline, "_batches", None), "delay", 2.0)
        return float(delay) * float(getattr(offline.latency, "scale", 1.0)) / OFFLINE_POLLS
    return DEFAULT_POLL_INTERVAL


# -- building conversations the way llm.arun does -------------------------------------------------------


def _new_conversation(
    llm: LLM,
    question: str,
    *,
    tools: Sequence[Any] = (),
    max_rounds: int = 2,
    system: Any = None,
    history: Any = None,
    parallel: bool = True,
    max_workers: int = DEFAULT_MAX_WORKERS,
    parallel_tool_calls: bool | None = None,
    max_tokens: int | None = None,
    tool_choice: Any = None,
    allowed_tools: Any = None,
    max_repeats: int | None = DEFAULT_MAX_REPEATS,
    approve: Any = None,
    max_pauses: int = DEFAULT_MAX_PAUSES,
    limits: RunLimits | None = None,
    keep_raw: bool = True,
    **options: Any,
) -> Conversation:
    """The conversation ``llm.arun(question, ...)`` would drive (its defaults: ``parallel=True``)."""
    return llm._conversation(
        question, tools, max_rounds, system, history, max_tokens, parallel_tool_calls, tool_choice, options,
        guards={"allowed_tools": allowed_tools, "max_repeats": max_repeats, "approve": approve},
        parallel=parallel, max_workers=max_workers, max_pauses=max_pauses, limits=limits, keep_raw=keep_raw,
    )


def _fingerprint(options: dict[str, Any]) -> str:
    """The run options as text, to tell whether collect was given the same ones (callables by name)."""
    def plain(value: Any) -> Any:
        if isinstance(value, dict):
            return {str(k): plain(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [plain(v) for v in value]
        if value is None or isinstance(value, (bool, int, float, str)):
            return value
        return getattr(value, "__qualname__", type(value).__name__)

    return json.dumps(plain(options), sort_keys=True, ensure_ascii=False)


def _tool_names(tools: Sequence[Any]) -> list[str]:
    return [t.name if isinstance(t, Tool) else str(t.get("name") or t.get("type")) for t in tools]


def _budget_data(budget: Budget | None) -> dict[str, Any] | None:
    return None if budget is None else {"usd": budget.usd, "tokens": budget.tokens}


def _budget_of(data: dict[str, Any] | None) -> Budget | None:
    return None if data is None else Budget(**data)


def _ledger(budget: Budget, spent: Spend) -> Ledger:
    """A ledger of ``budget`` that has already spent ``spent`` (a run picked up after a restart)."""
    ledger = Ledger(budget)
    with ledger._lock:
        ledger._spent = spent
    return ledger


def _spent(conversation: Conversation) -> Spend:
    return Spend(sum(c.cost for c in conversation.model_calls),
                 sum(c.usage.input_tokens + c.usage.output_tokens for c in conversation.model_calls))


# -- the run --------------------------------------------------------------------------------------------


class _Item:
    """One conversation of a batched run, as the driver holds it."""

    def __init__(self, index: int, question: str, user: str, run: _Run, data: dict[str, Any]) -> None:
        self.index = index
        self.question = question
        self.user = user
        self.run = run
        self.data = data  # its state on disk
        self.conversation: Conversation | None = None
        self.result: RunResult | None = _load_result(data)
        self.error: BatchLineError | None = None
        if data.get("error"):
            self.error = BatchLineError(data["error"]["reason"], data["error"]["batch_id"], data["error"]["line"])

    @property
    def live(self) -> bool:
        return self.result is None


class BatchRun:
    """Drives one batched run: builds each round's requests, sends them as one batch, waits, feeds the answers."""

    def __init__(
        self,
        orch: Orchestrator,
        state: _State,
        *,
        progress: bool = True,
        poll_interval: float | None = None,
        concurrency: int = 10,
    ) -> None:
        if isinstance(concurrency, bool) or not isinstance(concurrency, int) or concurrency < 1:
            raise ValueError(f"concurrency must be a whole number above 0, got {concurrency!r}")
        self.orch = orch
        self.llm = orch.llm
        self.state = state
        self.progress = progress
        self.poll_interval = _poll_interval(self.llm, poll_interval)
        self.concurrency = concurrency
        self.batches = _batches_of(self.llm)
        self.price = pricing.price_per_million(self.llm.model, self.llm.pricing_key, True)
        run = state.run
        self.deadline = run.get("conversation_deadline")  # seconds of each conversation's own time
        self.deadline_at = run.get("deadline_at")  # the whole run's, as time.time()
        self.items: list[_Item] = []
        self.deferred = 0  # conversations left out of the round being built, to wait for room in the budget
        self.batch_ledger: Ledger | None = None
        self.prices_checked = False

    # -- setup ------------------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        orch: Orchestrator,
        questions: Sequence[str],
        users: list[str],
        *,
        state_dir: str | os.PathLike[str] | None,
        deadline: float | None,
        **options: Any,
    ) -> BatchRun:
        """A new run, written to disk before anything is sent."""
        _check_llm(orch.llm)
        if deadline is not None and (isinstance(deadline, bool) or not deadline > 0):
            raise ValueError(f"deadline must be a number of seconds above 0, got {deadline!r}")
        for question in questions:
            if not isinstance(question, str) or not question.strip():
                raise ValueError(f"every question must be a non-empty string, got {question!r}")
        most = MAX_LINES[orch.llm.api]
        if len(questions) > most:
            raise ValueError(
                f"{len(questions):,} questions: one {orch.llm.api} batch takes at most {most:,} requests, and each "
                f"round of the run is one batch; split the questions into runs of at most {most:,}"
            )
        now = time.time()
        run_id = f"batchrun_{time.strftime('%Y%m%d_%H%M%S', time.gmtime(now))}_{uuid.uuid4().hex[:8]}"
        llm = orch.llm
        data = {
            "format": _FORMAT,
            "id": run_id,
            "created": now,
            "provider": llm.provider,
            "api": llm.api,
            "model": llm.model,
            "questions": list(questions),
            "users": users,
            "tools": _tool_names(orch.tools),
            "max_rounds": orch.max_rounds,
            "options": _fingerprint(orch.run_options),
            "budget": _budget_data(orch.budget),
            "batch_budget": _budget_data(orch.batch_budget),
            "conversation_deadline": orch.deadline,
            "deadline_at": None if deadline is None else now + deadline,
            "rounds": [],
            "done": False,
        }
        state = _State.create(Path(state_dir if state_dir is not None else STATE_DIR), data)
        return cls._built(orch, state, options)

    @classmethod
    def _built(cls, orch: Orchestrator, state: _State, options: dict[str, Any]) -> BatchRun:
        try:
            batch_run = cls(orch, state, **options)
            batch_run._build()
        except BaseException:
            state.release()
            raise
        return batch_run

    @classmethod
    def resume(
        cls, orch: Orchestrator, handle_or_id: BatchHandle | str, *, state_dir: str | os.PathLike[str] | None,
        **options: Any,
    ) -> BatchRun:
        """A run read back from disk (in this process or another), on ``orch``'s llm and tools."""
        _check_llm(orch.llm)
        state = _State.load(_resolve(handle_or_id, state_dir))
        try:
            cls._check_same(orch, state)
        except BaseException:
            state.release()
            raise
        return cls._built(orch, state, options)

    @staticmethod
    def _check_same(orch: Orchestrator, state: _State) -> None:
        """Refuse another model or other tools than the run was sent with; warn of other settings, kept as sent."""
        run, llm = state.run, orch.llm
        if (run["provider"], run["api"], run["model"]) != (llm.provider, llm.api, llm.model):
            raise ValueError(
                f"batched run {state.id} was sent to {run['provider']} {run['api']} {run['model']!r}; collect it "
                f"with an Orchestrator on the same provider, API and model (this one has {llm.provider} {llm.api} "
                f"{llm.model!r}): its requests in flight are that model's"
            )
        if _tool_names(orch.tools) != run["tools"]:
            raise ValueError(
                f"batched run {state.id} offered the tools {run['tools']}; collect it with an Orchestrator given "
                f"the same tools (this one has {_tool_names(orch.tools)})"
            )
        if orch.max_rounds != run["max_rounds"]:
            logger.warning("batched run %s was sent with max_rounds=%d; it goes on with that, not %d",
                           state.id, run["max_rounds"], orch.max_rounds)
        for name in ("budget", "batch_budget"):
            if _budget_data(getattr(orch, name)) != run[name]:
                logger.warning("batched run %s keeps the %s it was sent with (%s), not this Orchestrator's",
                               state.id, name, _budget_of(run[name]) or "none")
        if _fingerprint(orch.run_options) != run["options"]:
            logger.warning("batched run %s was sent with other run options (%s); it goes on with this "
                           "Orchestrator's (%s)", state.id, run["options"], _fingerprint(orch.run_options))

    def _build(self) -> None:
        """An item per question, its conversation built with the run's options and restored from its state."""
        orch, state = self.orch, self.state
        batch_budget = _budget_of(state.run["batch_budget"])
        budget = _budget_of(state.run["budget"])
        loop = _running_loop()
        orch.results = [None] * len(state.questions)
        conversations: list[Conversation] = []
        for index, question in enumerate(state.questions):
            user = state.run["users"][index]
            item = _Item(index, question, user, orch._start(user, None, loop), state.items[index])
            self.items.append(item)
            if not item.live:
                orch.results[index] = item.result
                continue
            options = orch._options(item.run)
            options.update(max_rounds=state.run["max_rounds"], limits=RunLimits())
            conversation = _new_conversation(self.llm, question, **options)
            conversation.price = self._cost_split  # every request of the run goes in a batch
            started = item.data.get("started")
            if started is None:
                item.data["started"] = time.time()
                state.save_item(index)
            else:  # the clock goes on from the run's start, in this process or another
                conversation.origin = time.perf_counter() - (time.time() - started)
            if item.data.get("state") is not None:
                _restore(conversation, item.data["state"])
            item.conversation = conversation
            conversations.append(conversation)
        spent = {c: _spent(c) for c in conversations}
        if batch_budget is not None:
            total = sum(spent.values(), Spend())
            self.batch_ledger = _ledger(batch_budget, total)
        for item in self.items:
            if item.conversation is None:
                continue
            ledgers = [_ledger(budget, spent[item.conversation])] if budget is not None else []
            if self.batch_ledger is not None:
                ledgers.append(self.batch_ledger)
            item.conversation.limits = RunLimits(ledgers)  # the deadline is the driver's (see the module doc)
        self.orch.batch_ledger = self.batch_ledger

    def _cost_split(self, usage: Any) -> Any:
        return pricing.cost_split(usage, self.llm.model, self.llm.pricing_key, batch=True)

    def handle(self) -> BatchHandle:
        return BatchHandle(self.state.id, self.state.path, len(self.items),
                           tuple(r["batch_id"] for r in self.state.rounds if r.get("batch_id")))

    # -- the loop -------------------------------------------------------------------------------

    @tracing.traced_batch
    async def drive(self, *, until_submitted: bool = False) -> list[RunResult]:
        """Run rounds until every conversation has ended (or, ``until_submitted``, until a round is in flight);
        the run's claim is let go at the end, however it ends."""
        try:
            return await self._drive(until_submitted)
        finally:
            self.state.release()

    async def _drive(self, until_submitted: bool) -> list[RunResult]:
        if not self.prices_checked:
            for item in self.items:
                if item.conversation is not None:
                    item.conversation.limits.require_prices([self.price])
            self.prices_checked = True
        state = self.state
        while True:
            current = state.rounds[-1] if state.rounds and not state.rounds[-1].get("fed") else None
            if current is not None:
                if current.get("batch_id") is None and not await self._recover(current):
                    continue
                if until_submitted:
                    return []
                await self._collect_round(current)
                continue
            self.deferred = 0
            lines = self._next_round()
            if not lines and self.deferred:
                await asyncio.sleep(self.poll_interval)  # only reservations made elsewhere stand in the way
                continue
            if not lines:
                break
            await self._submit(lines)
        state.run["done"] = True
        state.save_run()
        return self._finish()

    async def _recover(self, current: dict[str, Any]) -> bool:
        """A round written down as being sent, with no batch id: find its batch, else take the mark back."""
        known = {r["batch_id"] for r in self.state.rounds if r.get("batch_id")}
        found = await self.batches.find(self.state.id, current["round"], len(current["custom_ids"]), current, known)
        if found is not None:
            logger.warning("batch round %d of %s was sent before the process stopped; found it: %s",
                           current["round"], self.state.id, found)
            current["batch_id"] = found
            current.setdefault("submitted", current["submitting"])
            self.state.save_run()
            self._reserve(current)
            return True
        logger.info("batch round %d of %s was never sent; it is built again", current["round"], self.state.id)
        self.state.rounds.pop()
        self.state.save_run()
        return False

    def _reserve(self, current: dict[str, Any]) -> None:
        """After a restart: hold each in-flight request's worst case again, as when it was built."""
        lines = set(current["custom_ids"])
        for item in self.items:
            conversation = item.conversation
            if conversation is None or not conversation.limits.active or not item.live:
                continue
            if custom_id(item.index, current["round"]) not in lines:
                continue
            if item.data["step"] >= current["round"] or conversation.limits._open is not None:
                continue
            if conversation.next_request() is None:  # cannot happen with the same state; said if it does
                logger.warning("conversation %d could not be rebuilt as it was sent", item.index)

    def _next_round(self) -> list[tuple[str, dict[str, Any]]]:
        """The next request of every conversation still going, as batch lines; the others are finished."""
        round_ = len(self.state.rounds) + 1
        lines: list[tuple[str, dict[str, Any]]] = []
        late = self.deadline_at is not None and time.time() >= self.deadline_at
        for item in self.items:
            conversation = item.conversation
            if not item.live or conversation is None:
                continue
            request = None
            if late:
                self._stop(item, "deadline", f"{self.state.run['deadline_at'] - self.state.run['created']:g} s for "
                           f"the whole batched run")
            elif self.deadline is not None and item.data["active"] >= self.deadline:
                self._stop(item, "deadline", f"{self.deadline:g} s of the conversation's own time")
            else:
                request = conversation.next_request()
            if request is not None and conversation.limits.waiting is not None:
                # It fits the shared budget once the lines already in this round settle: it goes in the next one.
                conversation.limits.waiting = None
                self.deferred += 1
                continue
            if request is None:
                self._done(item)
                continue
            item.run._announce(conversation)
            lines.append((custom_id(item.index, round_), _body(request)))
        return lines

    async def _submit(self, lines: list[tuple[str, dict[str, Any]]]) -> None:
        state = self.state
        round_ = len(state.rounds) + 1
        current = {"round": round_, "custom_ids": [cid for cid, _ in lines], "submitting": time.time(),
                   "batch_id": None}
        try:
            after = await self.batches.mark()
            if after is not None:
                current["after"] = after
            state.rounds.append(current)
            state.save_run()  # written down before it is sent: a restart looks for it rather than send it again
            batch_id = await self.batches.create(lines, state.id, round_)
        except Exception:
            if state.rounds and state.rounds[-1] is current:
                state.rounds.pop()
                state.save_run()
            for item in self.items:  # nothing was sent: the reservations go back
                if item.conversation is not None:
                    item.conversation.limits.release()
            raise
        current["batch_id"] = batch_id
        current["submitted"] = time.time()
        state.save_run()
        logger.info("batch round %d of %s: %d requests in %s", round_, state.id, len(lines), batch_id)

    @tracing.traced_batch_round
    async def _collect_round(self, current: dict[str, Any]) -> None:
        self._reserve(current)
        status = await self._wait(current)
        lines = await self.batches.results(status)
        gate = asyncio.Semaphore(self.concurrency)
        expected = set(current["custom_ids"])

        async def one(item: _Item) -> None:
            line_id = custom_id(item.index, current["round"])
            if line_id not in expected or not item.live or item.data["step"] >= current["round"]:
                return
            line = lines.get(line_id) or lines.get("*") or _Line(reason="the batch has no result for this request")
            async with gate:
                await self._feed(item, line, current)

        await asyncio.gather(*(one(item) for item in self.items))
        current["fed"] = True
        self.state.save_run()

    async def _wait(self, current: dict[str, Any]) -> _Status:
        """Poll the round's batch until it ends (a progress bar over its request counts); cancel it at the deadline."""
        batch_id = current["batch_id"]
        bar = _bar(len(current["custom_ids"]), f"batch round {current['round']}") if self.progress else None
        try:
            while True:
                status = await self.batches.status(batch_id)
                if bar is not None:
                    bar.total = status.total or bar.total
                    bar.n = status.done
                    bar.set_postfix_str(status.status, refresh=False)
                    bar.refresh()
                if status.ended:
                    return status
                if self.deadline_at is not None and time.time() >= self.deadline_at and not current.get("cancelled"):
                    logger.warning("the batched run %s passed its deadline: cancelling %s", self.state.id, batch_id)
                    current["cancelled"] = True
                    self.state.save_run()
                    await self.batches.cancel(batch_id)
                    continue
                wait = self.poll_interval
                if self.deadline_at is not None and not current.get("cancelled"):
                    wait = max(0.0, min(wait, self.deadline_at - time.time()))
                await asyncio.sleep(wait)
        finally:
            if bar is not None:
                bar.close()

    async def _feed(self, item: _Item, line: _Line, current: dict[str, Any]) -> None:
        """One answer to its conversation, as a direct response would be; its tools run; the conversation saved."""
        conversation = item.conversation
        assert conversation is not None
        batch_id = current["batch_id"]
        late = bool(current.get("cancelled"))
        line_id = custom_id(item.index, current["round"])
        if line.response is None:
            conversation.limits.release()  # an unanswered line is not billed
            if late and line.cancelled:
                self._stop(item, "deadline", "the whole batched run's deadline; its batch was cancelled")
            else:
                self._error(item, BatchLineError(line.reason or "no answer", batch_id, line_id))
            item.data["step"] = current["round"]
            self._done(item)
            return
        started = time.perf_counter() - (time.time() - current.get("submitted", current["submitting"]))
        began = time.perf_counter()
        try:
            calls = conversation.receive(line.response, started, time.perf_counter(), batch_id=batch_id)
            if calls:
                if late:  # past the run's deadline no tool runs: each call is answered as not run
                    records = [blocked_record(c, "deadline", "Not run: the batched run's deadline passed.",
                                              conversation.origin) for c in calls]
                else:
                    records = await self._execute(item, calls)
                conversation.add_results(records)
            if late and conversation.final is None:
                self._stop(item, "deadline", "the whole batched run's deadline")
        except Exception as exc:  # noqa: BLE001 - one conversation's failure ends only it
            logger.exception("conversation %d failed on its answer from %s", item.index, batch_id)
            self._error(item, BatchLineError(f"{type(exc).__name__}: {exc}", batch_id, line_id))
        item.data["active"] += time.perf_counter() - began
        item.data["step"] = current["round"]
        if conversation.final is not None or conversation.paused:
            self._done(item)
        else:
            item.data["state"] = _snapshot(conversation)
            self.state.save_item(item.index)

    @tracing.traced_run(lambda self, item, *_: item.conversation, owns=False)
    async def _execute(self, item: _Item, calls: list[Any]) -> list[ToolCallRecord]:
        conversation = item.conversation
        assert conversation is not None
        deadline = None
        if self.deadline is not None:
            deadline = time.perf_counter() + max(self.deadline - item.data["active"], 0.0)
        if self.deadline_at is not None:
            whole = time.perf_counter() + (self.deadline_at - time.time())
            deadline = whole if deadline is None else min(deadline, whole)
        options = conversation.run_options
        return await aexecute(
            calls, conversation.tools, parallel=options.get("parallel", True),
            max_workers=options.get("max_workers", DEFAULT_MAX_WORKERS), origin=conversation.origin, deadline=deadline,
        )

    # -- endings --------------------------------------------------------------------------------

    def _stop(self, item: _Item, reason: str, detail: str) -> None:
        conversation = item.conversation
        assert conversation is not None
        if conversation.final is None:
            conversation.stop(reason, stopped_answer(conversation, reason, detail))

    def _error(self, item: _Item, error: BatchLineError) -> None:
        conversation = item.conversation
        assert conversation is not None
        answer = stopped_answer(conversation, "error", str(error))
        if error.reason not in answer:
            answer = f"{answer}\n\n(The conversation ended: {error}.)"
        conversation.stop("error", answer)
        item.error = error
        item.data["error"] = {"reason": error.reason, "batch_id": error.batch_id, "line": error.line}
        logger.error("%s", self.orch._line("conversation_failed", item.run, error=str(error)))

    def _done(self, item: _Item) -> None:
        """The conversation has ended: its result, kept on disk."""
        conversation = item.conversation
        assert conversation is not None
        conversation.limits.release()
        item.result = conversation.result(
            model_name=self.llm.model, priced_as=self.price.model,
            prices=(self.price.input_per_mtok, self.price.output_per_mtok),
        )
        item.data.pop("state", None)
        item.data.update(_result_data(item.result))
        self.state.save_item(item.index)
        self.orch.results[item.index] = item.result

    def _finish(self) -> list[RunResult]:
        """Every result, in input order, each counted in the Orchestrator's metrics and logs."""
        results = []
        for item in self.items:
            assert item.result is not None
            if item.error is not None:
                with self.orch._lock:
                    self.orch.failures.append((item.index, item.run.run_id, item.error))
            self.orch._finish(item.run, item.question, item.result, item.result.trace.seconds, item.error,
                              batched=True)
            results.append(item.result)
        self.orch.metrics()
        return results


def _check_llm(llm: Any) -> None:
    from .failover import FallbackLLM

    if isinstance(llm, FallbackLLM):
        raise ValueError(
            "a model fallback (cd.fallback) cannot run via='batch': a provider batch goes to one provider and "
            "model; batch with one of its llms, or run_many without via='batch'"
        )


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _bar(total: int, description: str) -> Any:
    return display.progress_bar(total, description, "req")


async def run(orch: Orchestrator, questions: Sequence[str], users: list[str], *,
              state_dir: str | os.PathLike[str] | None, deadline: float | None, **options: Any) -> list[RunResult]:
    """``orch.run_many(questions, via="batch")``."""
    batch_run = BatchRun.start(orch, questions, users, state_dir=state_dir, deadline=deadline, **options)
    handle = orch.batch_handle = batch_run.handle()
    logger.info("batched run %s is kept in %s: if this process stops, orch.collect(%r) finishes it",
                handle.id, handle.path, handle.id)
    return await batch_run.drive()


async def submit(orch: Orchestrator, questions: Sequence[str], users: list[str], *,
                 state_dir: str | os.PathLike[str] | None, deadline: float | None) -> BatchHandle:
    """``orch.submit(questions)``: the first round sent, the run on disk."""
    batch_run = BatchRun.start(orch, questions, users, state_dir=state_dir, deadline=deadline, progress=False)
    await batch_run.drive(until_submitted=True)
    return batch_run.handle()


async def collect(orch: Orchestrator, handle_or_id: BatchHandle | str, *, state_dir: str | os.PathLike[str] | None,
                  **options: Any) -> list[RunResult]:
    """``orch.collect(handle_or_id)``: the run read from disk and finished."""
    batch_run = BatchRun.resume(orch, handle_or_id, state_dir=state_dir, **options)
    return await batch_run.drive()

