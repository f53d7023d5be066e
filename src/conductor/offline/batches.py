"""The providers' batch APIs, served by the offline model: OpenAI's Files and Batches, Anthropic's Message Batches.

What the official clients call, and what they get back::

    # OpenAI: a JSONL file of requests, then a batch over it
    file = client.files.create(file=("questions.jsonl", data), purpose="batch")
    batch = client.batches.create(input_file_id=file.id, endpoint="/v1/responses", completion_window="24h")
    batch = client.batches.retrieve(batch.id)       # validating -> in_progress -> finalizing -> completed
    client.files.content(batch.output_file_id)      # one JSON line per answered request, in no fixed order

    # Anthropic: the requests inline
    batch = client.messages.batches.create(requests=[{"custom_id": "q1", "params": {...}}])
    client.messages.batches.retrieve(batch.id)      # processing_status in_progress -> ended
    client.messages.batches.results(batch.id)       # JSONL: succeeded / errored / expired / canceled

**Time.** A batch runs for ``batch_delay`` simulated seconds (``OfflineModel(batch_delay=...)``), which
the latency model's ``scale`` turns into real seconds, as it does every other delay: with
``LatencyModel.instant()`` a batch has ended by the first poll after its creation (the creation
itself always answers ``validating`` / ``in_progress``, as the real APIs do). A batch's status is
computed from the time elapsed when it is asked for; an OpenAI batch spends its first tenth
validating, is in progress until eight tenths, then finalizing; its lines finish one by one in
between, in an order drawn from the seed, and ``request_counts`` follow them. Timestamps are the
model's clock: a fixed date, one second per object created, plus the simulated offsets, so a
notebook's output does not change between runs.

**Validation, as the real APIs do it.** OpenAI checks the input file while the batch is
``validating`` and fails the whole batch on a malformed line (``errors.data`` with the line number):
invalid JSON, a missing ``custom_id`` / ``method`` / ``url`` / ``body``, a method other than POST, a
``url`` other than the batch's endpoint, a repeated ``custom_id``, a streamed request, a missing
``model`` (or, on Chat Completions, ``messages``), a model other than the first line's. A line that
passes is run later through the stand-in's own request path (:meth:`OfflineModel._answer_safely`:
the same contract checks, decision policies, faults and usage log as a direct request); one the API
would refuse gets its 400 with the real error body, in the error file. Anthropic checks the
``requests`` list when the batch is created (a 400, e.g. a ``custom_id`` longer than 64 characters)
and each request's ``params`` only when it runs: an invalid one ends ``errored`` with the error body
a direct request would get.

**Faults on demand.** ``OfflineModel(batch_faults={"expire": ..., "fail": ...})`` names lines by
``custom_id`` (a set: those lines, in every batch that holds them) or by rate (a probability, drawn
per batch and line from the seed, so a line resubmitted in a new batch may pass). An expired line
is never run: OpenAI's batch ends ``expired`` and the line is in the error file as ``batch_expired``;
Anthropic's batch ends with the line's result ``{"type": "expired"}``. A failed line gets the
server error of the API (a 500 in OpenAI's error file, an ``errored`` ``api_error`` on Anthropic). The
model's ordinary faults (``OfflineModel(faults=...)``, ``model.inject(...)``) also reach batch lines,
since they go through the same request path: a line meeting a rate limit gets the 429 in the error
file; one meeting a timeout or a dropped connection gets a 500.

Everything lives in the :class:`~.model.OfflineModel` instance (in memory, thread-safe): a new model
knows no files or batches. The HTTP requests to these endpoints are recorded in ``model.requests``;
the batch lines themselves are not (they are not HTTP requests), but their usage is logged.
"""

from __future__ import annotations

import email.parser
import email.policy
import hashlib
import json
import logging
import math
import re
import threading
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal, Protocol

import httpx2

from .completion import BATCH_LINE, CREATED_EPOCH
from .faults import Fault, FaultContext
from .ids import base62, hexadecimal
from .wire import chat as chat_wire
from .wire import messages as messages_wire
from .wire import responses as responses_wire

if TYPE_CHECKING:
    from .latency import LatencyModel


class OfflineModel(Protocol):
    """What the batch server reads and calls on the :class:`~.model.OfflineModel` that holds it (the model passes
    itself; this module sits below ``model`` and names only these)."""

    seed: int
    latency: LatencyModel
    _account: bytes

    def _digest(self, body: dict[str, Any]) -> bytes: ...

    def _answer_safely(
        self, wire: ModuleType, request: httpx2.Request, body: dict[str, Any], digest: bytes, headers: dict[str, str]
    ) -> Any: ...

    def _now(self, digest: bytes) -> int: ...


__all__ = ["BATCH_FAULT_KINDS", "DEFAULT_BATCH_DELAY", "BatchServer", "LineFaults", "serves"]

log = logging.getLogger(__name__)

DEFAULT_BATCH_DELAY = 2.0
"""Simulated seconds from a batch's creation to its end (real seconds: times the latency scale)."""
BATCH_FAULT_KINDS = ("expire", "fail")

WINDOW = 86_400  # completion window and Anthropic's processing limit: 24 hours
FILE_LIFETIME = 30 * 86_400  # batch files expire after 30 days by default
# Phases, as fractions of the delay.
VALIDATED = 0.1  # OpenAI: validating until then
FINALIZING = 0.8  # OpenAI: finalizing from then until the end; every line has finished by then
CANCEL_TAKES = 0.1  # cancelling (canceling) lasts this long after the request

OPENAI_ENDPOINTS = {chat_wire.PATH: chat_wire, responses_wire.PATH: responses_wire}
FILE_PURPOSES = ("assistants", "batch", "fine-tune", "vision", "user_data", "evals")
_ANTHROPIC_CUSTOM_ID = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
_PREFIXES = ("/v1/files", "/v1/batches", "/v1/messages/batches")

# The texts the real APIs send (where each comes from is in the report of the change that added them).
EXPIRED_LINE = {
    "code": "batch_expired",
    "message": "This request could not be executed before the completion window expired.",
}
CANCELLED_LINE = {
    "code": "batch_cancelled",
    "message": "This request could not be executed before the batch was cancelled.",
}
_STREAM_NAMES = {chat_wire.PATH: "Chat Completions", responses_wire.PATH: "Responses"}

Response = tuple[int, dict[str, str], bytes]


def serves(path: str) -> bool:
    """Is ``path`` one of the Files or Batches endpoints?"""
    return any(path == prefix or path.startswith(prefix + "/") for prefix in _PREFIXES)


# ---------------------------------------------------------------------------------- faults on demand


class LineFaults:
    """Which lines of a batch expire or fail: named by ``custom_id``, or drawn at a rate."""

    def __init__(self, spec: Mapping[str, float | str | Collection[str]] | None, seed: int) -> None:
        self._seed = seed
        self._rates: dict[str, float] = {}
        self._ids: dict[str, frozenset[str]] = {}
        for kind, value in (spec or {}).items():
            if kind not in BATCH_FAULT_KINDS:
                raise ValueError(f"unknown batch fault {kind!r}; choose one of: {', '.join(BATCH_FAULT_KINDS)}")
            if isinstance(value, bool):
                raise TypeError(f"batch fault {kind!r}: give a rate in [0, 1] or the custom_ids of lines")
            if isinstance(value, (int, float)):
                if not 0 <= value <= 1:
                    raise ValueError(f"batch fault rate for {kind!r} must be a probability in [0, 1], got {value}")
                self._rates[kind] = float(value)
            else:
                ids = frozenset([value] if isinstance(value, str) else value)
                if not all(isinstance(i, str) for i in ids):
                    raise TypeError(f"batch fault {kind!r}: custom_ids must be strings")
                self._ids[kind] = ids

    def __bool__(self) -> bool:
        return bool(self._rates or self._ids)

    def kind(self, batch_id: str, custom_id: str) -> str | None:
        """``"expire"``, ``"fail"`` or None for one line of one batch (expiring wins)."""
        for kind in BATCH_FAULT_KINDS:
            if custom_id in self._ids.get(kind, ()):
                return kind
            rate = self._rates.get(kind, 0.0)
            if rate and _fraction(f"{self._seed}\n{kind}\n{batch_id}\n{custom_id}") < rate:
                return kind
        return None


def _fraction(text: str) -> float:
    """A number in [0, 1) drawn from ``text``."""
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") / 2**64


# ---------------------------------------------------------------------------------- stored objects


@dataclass
class _File:
    id: str
    filename: str
    purpose: str
    content: bytes
    created_at: int

    def json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "object": "file",
            "bytes": len(self.content),
            "created_at": self.created_at,
            "filename": self.filename,
            "purpose": self.purpose,
            "status": "processed",
            "expires_at": self.created_at + FILE_LIFETIME if self.purpose.startswith("batch") else None,
            "status_details": None,
        }


@dataclass
class _Line:
    """One request of a batch: when it finishes (a fraction of the delay), and once run, its answer."""

    custom_id: str
    body: dict[str, Any]
    done: float
    fault: str | None  # "expire", "fail" or None
    status: int = 0  # HTTP status of the answer; 0 until run
    answer: dict[str, Any] | None = None
    request_id: str = ""

    @property
    def ran(self) -> bool:
        return self.status != 0


@dataclass
class _Batch:
    provider: Literal["openai", "anthropic"]
    id: str
    created_at: int  # the model's clock
    started: float  # the machine's monotonic clock
    delay: float  # simulated seconds
    real_delay: float  # seconds
    lines: list[_Line]
    wire: ModuleType
    errors: list[dict[str, Any]] = field(default_factory=list)  # OpenAI validation errors: the batch fails
    cancelled: float | None = None  # when cancelling began, as a fraction of the delay
    endpoint: str = ""
    input_file_id: str = ""
    completion_window: str = "24h"
    metadata: dict[str, str] | None = None
    output_file_id: str | None = None
    error_file_id: str | None = None
    finished: bool = False  # output written (OpenAI)

    def progress(self, now: float) -> float:
        """The time elapsed, as a fraction of the delay (infinite when there is no delay)."""
        if self.real_delay <= 0:
            return math.inf
        return (now - self.started) / self.real_delay

    def at(self, fraction: float) -> float:
        """The model's clock at ``fraction`` of the delay."""
        return self.created_at + fraction * self.delay

    @property
    def model(self) -> str | None:
        return self.lines[0].body.get("model") if self.lines and not self.errors else None


class _Refused(Exception):
    """A request the API refuses: its status and error body."""

    def __init__(self, status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        super().__init__(status)
        self.status = status
        self.body = body
        self.headers = headers or {}


def _json(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def _jsonl(values: list[dict[str, Any]]) -> bytes:
    return b"".join(_json(value) + b"\n" for value in values)


def _openai_error(status: int, message: str, *, param: str | None = None, code: str | None = None) -> _Refused:
    return _Refused(status, chat_wire.error_body(message, param=param, code=code))


def _type_name(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if value is None:
        return "null"
    return "an object"


def _int_param(params: httpx2.QueryParams, name: str, default: int, low: int, high: int) -> int:
    raw = params.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise _openai_error(400, f"Invalid '{name}': expected an integer, but got '{raw}' instead.",
                            param=name) from None
    return min(max(value, low), high)


# ---------------------------------------------------------------------------------- the server


class BatchServer:
    """The files and batches one :class:`~.model.OfflineModel` holds, and its answers to their endpoints."""

    def __init__(
        self,
        model: OfflineModel,
        delay: float = DEFAULT_BATCH_DELAY,
        faults: Mapping[str, float | str | Collection[str]] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if delay < 0:
            raise ValueError(f"batch_delay must be >= 0 seconds, got {delay}")
        self._model = model
        self._epoch = CREATED_EPOCH
        self.delay = float(delay)
        self.faults = LineFaults(faults, model.seed)
        self._clock = clock
        self._lock = threading.Lock()
        self._files: dict[str, _File] = {}
        self._batches: dict[str, _Batch] = {}
        self._created = 0  # objects created: the model's clock moves one second for each

    def __repr__(self) -> str:
        return f"BatchServer(delay={self.delay}, files={len(self._files)}, batches={len(self._batches)})"

    # ------------------------------------------------------------------ routing

    def serve(self, request: httpx2.Request, body: dict[str, Any] | None, request_id: str) -> Response:
        """Answer one request to a Files or Batches endpoint: status, headers, body."""
        path, method = request.url.path, request.method
        anthropic = path.startswith("/v1/messages/batches")
        try:
            with self._lock:
                return self._route(method, path, request, body, request_id, anthropic)
        except _Refused as refusal:
            headers = {"content-type": "application/json", **refusal.headers}
            return refusal.status, headers, _json(refusal.body)
        except Exception as error:  # a bug here: a 500 that names it, as the model does for its answers
            log.exception("offline model failed on %s %s", method, path)
            wire = messages_wire if anthropic else chat_wire
            message = f"The offline model failed on this request: {type(error).__name__}: {error}."
            headers = {"content-type": "application/json", "x-should-retry": "false"}
            return 500, headers, _json(wire.internal_error(message, request_id))

    def _route(
        self,
        method: str,
        path: str,
        request: httpx2.Request,
        body: dict[str, Any] | None,
        request_id: str,
        anthropic: bool,
    ) -> Response:
        parts = path.strip("/").split("/")[1:]  # without "v1"
        params = request.url.params
        if anthropic:
            rest = parts[2:]
            if not rest and method == "POST":
                return self._ok(self._anthropic_create(self._object(body, request_id, anthropic=True), request_id))
            if not rest and method == "GET":
                return self._ok(self._anthropic_list(params))
            if len(rest) == 1 and method == "GET":
                return self._ok(self._anthropic_json(self._anthropic_batch(rest[0], request_id)))
            if len(rest) == 1 and method == "DELETE":
                return self._ok(self._anthropic_delete(rest[0], request_id))
            if len(rest) == 2 and rest[1] == "cancel" and method == "POST":
                return self._ok(self._anthropic_cancel(rest[0], request_id))
            if len(rest) == 2 and rest[1] == "results" and method == "GET":
                content = self._anthropic_results(rest[0], request_id)
                return 200, {"content-type": "application/x-jsonl"}, content
            status, error = messages_wire.not_found(method, path, request_id)
            raise _Refused(status, error)
        kind, rest = parts[0], parts[1:]
        if kind == "files":
            if not rest and method == "POST":
                return self._ok(self._file_create(request))
            if not rest and method == "GET":
                return self._ok(self._file_list(params))
            if len(rest) == 1 and method == "GET":
                return self._ok(self._file(rest[0]).json())
            if len(rest) == 1 and method == "DELETE":
                self._file(rest[0])
                del self._files[rest[0]]
                return self._ok({"id": rest[0], "object": "file", "deleted": True})
            if len(rest) == 2 and rest[1] == "content" and method == "GET":
                return 200, {"content-type": "application/octet-stream"}, self._file(rest[0]).content
        elif kind == "batches":
            if not rest and method == "POST":
                return self._ok(self._openai_create(self._object(body, request_id, anthropic=False)))
            if not rest and method == "GET":
                return self._ok(self._openai_list(params))
            if len(rest) == 1 and method == "GET":
                return self._ok(self._openai_json(self._openai_batch(rest[0])))
            if len(rest) == 2 and rest[1] == "cancel" and method == "POST":
                return self._ok(self._openai_cancel(rest[0]))
        status, error = chat_wire.not_found(method, path, request_id)
        raise _Refused(status, error)

    @staticmethod
    def _ok(value: dict[str, Any]) -> Response:
        return 200, {"content-type": "application/json"}, _json(value)

    @staticmethod
    def _object(body: dict[str, Any] | None, request_id: str, *, anthropic: bool) -> dict[str, Any]:
        if isinstance(body, dict):
            return body
        if anthropic:
            raise _Refused(400, messages_wire.bad_json(request_id), {"x-should-retry": "false"})
        raise _Refused(400, chat_wire.bad_json(request_id))

    def _new_id(self, kind: str) -> tuple[str, int]:
        """A fresh id for an object of ``kind``, and the model's clock at its creation."""
        self._created += 1
        digest = hashlib.sha256(f"{self._model.seed}\n{kind}\n{self._created}".encode()).digest()
        created_at = self._epoch + self._created
        if kind == "file":
            return "file-" + base62(digest, "file", 22), created_at
        if kind == "batch":
            return "batch_" + hexadecimal(digest, "batch", 32), created_at
        return "msgbatch_01" + base62(digest, "message batch", 22), created_at

    # ------------------------------------------------------------------ OpenAI files

    def _file(self, file_id: str) -> _File:
        found = self._files.get(file_id)
        if found is None:
            raise _openai_error(404, f"No such File object: {file_id}", param="id")
        return found

    def _file_create(self, request: httpx2.Request) -> dict[str, Any]:
        fields = _multipart(request)
        purpose = fields.get("purpose", (None, b""))[1].decode(errors="replace")
        if "purpose" not in fields:
            raise _openai_error(400, "Missing required parameter: 'purpose'.", param="purpose",
                                code="missing_required_parameter")
        if purpose not in FILE_PURPOSES:
            allowed = ", ".join(f"'{p}'" for p in FILE_PURPOSES)
            raise _openai_error(400, f"'{purpose}' is not one of [{allowed}] - 'purpose'", param="purpose",
                                code="invalid_value")
        if "file" not in fields:
            raise _openai_error(400, "Missing required parameter: 'file'.", param="file",
                                code="missing_required_parameter")
        filename, content = fields["file"]
        filename = filename or "upload"
        if purpose == "batch" and not filename.endswith(".jsonl"):
            raise _openai_error(400, "Invalid file format for Batch API. Must be .jsonl")
        file_id, created_at = self._new_id("file")
        stored = _File(file_id, filename, purpose, content, created_at)
        self._files[file_id] = stored
        return stored.json()

    def _file_list(self, params: httpx2.QueryParams) -> dict[str, Any]:
        limit = _int_param(params, "limit", 10_000, 1, 10_000)
        files = sorted(self._files.values(), key=lambda f: f.created_at, reverse=params.get("order", "desc") != "asc")
        if params.get("purpose"):
            files = [f for f in files if f.purpose == params["purpose"]]
        return _page([f.json() for f in files], params.get("after"), limit, openai=True)

    # ------------------------------------------------------------------ OpenAI batches

    def _openai_batch(self, batch_id: str) -> _Batch:
        found = self._batches.get(batch_id)
        if found is None or found.provider != "openai":
            raise _openai_error(404, f"No batch found with id '{batch_id}'.")
        return found

    def _openai_create(self, body: dict[str, Any]) -> dict[str, Any]:
        for name in ("input_file_id", "endpoint", "completion_window"):
            if name not in body:
                raise _openai_error(400, f"Missing required parameter: '{name}'.", param=name,
                                    code="missing_required_parameter")
        endpoint, window = body["endpoint"], body["completion_window"]
        if endpoint not in OPENAI_ENDPOINTS:
            raise _openai_error(
                400,
                f"Invalid value: '{endpoint}'. Supported values are: '/v1/chat/completions' and '/v1/responses'.",
                param="endpoint", code="invalid_value",
            )
        if window != "24h":
            raise _openai_error(400, f"Invalid value: '{window}'. Supported values are: '24h'.",
                                param="completion_window", code="invalid_value")
        metadata = body.get("metadata")
        if metadata is not None:
            if not isinstance(metadata, dict):
                raise _openai_error(400, f"Invalid type for 'metadata': expected an object, but got "
                                    f"{_type_name(metadata)} instead.", param="metadata", code="invalid_type")
            for key, value in metadata.items():
                if not isinstance(value, str):
                    raise _openai_error(400, f"Invalid type for 'metadata.{key}': expected a string, but got "
                                        f"{_type_name(value)} instead.", param=f"metadata.{key}", code="invalid_type")
        batch_id, created_at = self._new_id("batch")
        wire = OPENAI_ENDPOINTS[endpoint]
        lines, errors = self._read_input(body["input_file_id"], endpoint, batch_id)
        batch = _Batch(
            "openai", batch_id, created_at, self._clock(), self.delay, self.delay * self._model.latency.scale,
            lines, wire, errors, endpoint=endpoint, input_file_id=str(body["input_file_id"]),
            completion_window=window, metadata=metadata,
        )
        self._batches[batch_id] = batch
        return self._openai_json(batch, created=True)

    def _read_input(self, file_id: Any, endpoint: str, batch_id: str) -> tuple[list[_Line], list[dict[str, Any]]]:
        """The lines of a batch's input file, or what makes the batch fail (``errors.data``)."""
        stored = self._files.get(file_id) if isinstance(file_id, str) else None
        if stored is None:
            org = chat_wire.organization(self._model._account)
            message = f"Cannot find file {file_id}, or organization {org} does not have access to it."
            return [], [{"code": "invalid_request", "line": None, "message": message, "param": "file_id"}]
        lines: list[_Line] = []
        errors: list[dict[str, Any]] = []
        seen: set[str] = set()
        model: str | None = None
        for number, raw in enumerate(stored.content.splitlines(), start=1):
            if not raw.strip():
                continue
            try:
                line = json.loads(raw)
            except ValueError:
                line = None
            problem = self._line_problem(line, endpoint, seen, model)
            if problem is not None:
                code, message, param = problem
                errors.append({"code": code, "line": number, "message": message, "param": param})
                continue
            assert isinstance(line, dict)
            seen.add(line["custom_id"])
            model = model or line["body"]["model"]
            lines.append(self._line(batch_id, line["custom_id"], line["body"]))
        if not lines and not errors:
            errors.append({"code": "empty_file", "line": None, "message": "The batch input file is empty.",
                           "param": None})
        return ([] if errors else lines), errors

    @staticmethod
    def _line_problem(
        line: Any, endpoint: str, seen: set[str], model: str | None
    ) -> tuple[str, str, str | None] | None:
        """(code, message, param) of what the Batch API refuses in one input line, or None."""
        if not isinstance(line, dict):
            return "invalid_json_line", "This line is not parseable as valid JSON.", None
        for name in ("custom_id", "method", "url", "body"):
            if name not in line:
                return "missing_required_parameter", f"Missing required parameter: '{name}'.", name
        custom_id, body = line["custom_id"], line["body"]
        if not isinstance(custom_id, str):
            return ("invalid_type", f"Invalid type for 'custom_id': expected a string, but got "
                    f"{_type_name(custom_id)} instead.", "custom_id")
        if line["method"] != "POST":
            return ("invalid_method", f"The method '{line['method']}' is not supported for this request. "
                    "Only 'POST' is supported.", "method")
        if line["url"] != endpoint:
            return "invalid_url", "The URL provided for this request does not match the batch endpoint.", "url"
        if custom_id in seen:
            return ("duplicate_custom_id", f"The custom_id '{custom_id}' for this request is a duplicate of another "
                    "request. The custom_id parameter must be unique for each request in a batch.", "custom_id")
        if not isinstance(body, dict):
            return ("invalid_type", f"Invalid type for 'body': expected an object, but got {_type_name(body)} "
                    "instead.", "body")
        if body.get("stream"):
            return ("streaming_unsupported", f"{_STREAM_NAMES[endpoint]}: Streaming is not supported in the "
                    "Batch API.", "body.stream")
        if not body.get("model"):
            return "invalid_request", "Model parameter is required.", "body.model"
        if endpoint == chat_wire.PATH and "messages" not in body:
            return "invalid_request", "Messages parameter is required.", "body.messages"
        if model is not None and body["model"] != model:
            return ("mismatched_model", f"The model '{body['model']}' for this request does not match the rest of "
                    "the batch. Each batch must contain requests for a single model.", "body.model")
        return None

    def _line(self, batch_id: str, custom_id: str, body: dict[str, Any]) -> _Line:
        """A line with the time it finishes (drawn from the seed) and its fault on demand."""
        done = VALIDATED + (FINALIZING - VALIDATED) * _fraction(f"{self._model.seed}\n{batch_id}\n{custom_id}")
        return _Line(custom_id, body, done, self.faults.kind(batch_id, custom_id))

    def _openai_status(self, batch: _Batch, progress: float, created: bool = False) -> str:
        if created:
            return "validating"
        if batch.cancelled is not None:
            return "cancelling" if progress < batch.cancelled + CANCEL_TAKES else "cancelled"
        if batch.errors:
            return "validating" if progress < VALIDATED else "failed"
        if progress < VALIDATED:
            return "validating"
        if any(line.fault == "expire" for line in batch.lines):
            return "in_progress" if progress < 1 else "expired"
        if progress < FINALIZING:
            return "in_progress"
        return "finalizing" if progress < 1 else "completed"

    def _openai_json(self, batch: _Batch, created: bool = False) -> dict[str, Any]:
        progress = 0.0 if created else batch.progress(self._clock())
        status = self._openai_status(batch, progress, created)
        horizon = progress if batch.cancelled is None else min(progress, batch.cancelled)
        if not created and not batch.errors:
            self._run(batch, horizon)
        if status in ("completed", "expired", "cancelled") and not batch.finished:
            self._write_output(batch)

        def at(fraction: float) -> int:
            return int(batch.at(fraction))

        started = not created and not batch.errors and progress >= VALIDATED and (
            batch.cancelled is None or batch.cancelled >= VALIDATED
        )
        finished = [line for line in batch.lines if line.ran]
        total = len(batch.lines) if status not in ("validating", "failed") else 0
        succeeded = sum(1 for line in finished if line.status == 200)
        failed = len(finished) - succeeded
        if status in ("expired", "cancelled"):
            failed = total - succeeded  # what never ran is in the error file too
        ends = {
            "completed": ("completed_at", 1.0),
            "expired": ("expired_at", 1.0),
            "failed": ("failed_at", VALIDATED),
        }
        stamps: dict[str, int | None] = dict.fromkeys(
            ("in_progress_at", "finalizing_at", "completed_at", "failed_at", "expired_at", "cancelling_at",
             "cancelled_at"))
        if started:
            stamps["in_progress_at"] = at(VALIDATED)
        if status in ("finalizing", "completed"):
            stamps["finalizing_at"] = at(FINALIZING)
        if status in ends:
            name, fraction = ends[status]
            stamps[name] = at(fraction)
        if batch.cancelled is not None:
            stamps["cancelling_at"] = at(batch.cancelled)
            if status == "cancelled":
                stamps["cancelled_at"] = at(batch.cancelled + CANCEL_TAKES)
        return {
            "id": batch.id,
            "object": "batch",
            "endpoint": batch.endpoint,
            "model": batch.model if started else None,
            "errors": {"object": "list", "data": batch.errors} if status == "failed" else None,
            "input_file_id": batch.input_file_id,
            "completion_window": batch.completion_window,
            "status": status,
            "output_file_id": batch.output_file_id,
            "error_file_id": batch.error_file_id,
            "created_at": batch.created_at,
            **stamps,
            "expires_at": batch.created_at + WINDOW,
            "request_counts": {"total": total, "completed": succeeded, "failed": failed},
            "usage": _batch_usage(batch),
            "metadata": batch.metadata,
        }

    def _write_output(self, batch: _Batch) -> None:
        """The output and error files of an ended batch (none when it has no line for one)."""
        outputs, errors = [], []
        for line in sorted(batch.lines, key=lambda line: (not line.ran, line.done, line.custom_id)):
            record: dict[str, Any] = {"id": self._request_line_id(batch, line), "custom_id": line.custom_id}
            if line.ran:
                response = {"status_code": line.status, "request_id": line.request_id, "body": line.answer}
                (outputs if line.status == 200 else errors).append({**record, "response": response, "error": None})
            else:
                reason = EXPIRED_LINE if line.fault == "expire" and batch.cancelled is None else CANCELLED_LINE
                errors.append({**record, "response": None, "error": dict(reason)})
        for records, suffix, attribute in ((outputs, "output", "output_file_id"), (errors, "error", "error_file_id")):
            if records:
                file_id, created_at = self._new_id("file")
                self._files[file_id] = _File(file_id, f"{batch.id}_{suffix}.jsonl", "batch_output", _jsonl(records),
                                             created_at)
                setattr(batch, attribute, file_id)
        batch.finished = True

    def _request_line_id(self, batch: _Batch, line: _Line) -> str:
        digest = hashlib.sha256(f"{self._model.seed}\n{batch.id}\n{line.custom_id}".encode()).digest()
        return "batch_req_" + base62(digest, "batch request", 24)

    def _openai_cancel(self, batch_id: str) -> dict[str, Any]:
        batch = self._openai_batch(batch_id)
        progress = batch.progress(self._clock())
        status = self._openai_status(batch, progress)
        if status in ("completed", "failed", "expired"):
            raise _openai_error(409, f"Cannot cancel a batch with status '{status}'.")
        if batch.cancelled is None:
            self._run(batch, progress)  # what has finished by now keeps its answer
            batch.cancelled = progress
        return self._openai_json(batch)

    def _openai_list(self, params: httpx2.QueryParams) -> dict[str, Any]:
        limit = _int_param(params, "limit", 20, 1, 100)
        batches = [b for b in self._batches.values() if b.provider == "openai"]
        batches.sort(key=lambda b: b.created_at, reverse=True)
        return _page([self._openai_json(b) for b in batches], params.get("after"), limit, openai=True)

    # ------------------------------------------------------------------ running lines

    def _run(self, batch: _Batch, horizon: float) -> None:
        """Run, in the order they finish, the lines that have finished by ``horizon`` and have not run yet."""
        due = sorted((line for line in batch.lines if not line.ran and line.fault != "expire" and line.done <= horizon),
                     key=lambda line: (line.done, line.custom_id))
        for line in due:
            line.status, line.answer, line.request_id = self._answer(batch, line)

    def _answer(self, batch: _Batch, line: _Line) -> tuple[int, dict[str, Any], str]:
        """One line's HTTP status, body and request id, through the model's own request path."""
        model, wire, body = self._model, batch.wire, line.body
        digest = model._digest(body)
        request_id = wire.request_id(digest + f"\n{batch.id}\n{line.custom_id}".encode())
        if line.fault == "fail" or (batch.provider == "anthropic" and body.get("stream")):
            if line.fault == "fail":
                status, body_out = self._server_error(wire, body, digest, request_id)
            else:
                status, body_out = 400, messages_wire.error_body(
                    "stream: Streaming is not supported in the Message Batches API.", request_id)
            return status, body_out, _bare(request_id)
        request = httpx2.Request("POST", f"http://offline.invalid{wire.PATH}", json=body, extensions={BATCH_LINE: True})
        plan = model._answer_safely(wire, request, body, digest, {wire.REQUEST_ID_HEADER: request_id})
        if plan.error is not None or plan.events is not None:
            # A timeout or a dropped connection has no place in a batch: the line failed on the server.
            status, body_out = self._server_error(wire, body, digest, request_id)
            return status, body_out, _bare(request_id)
        return plan.status, json.loads(plan.body), _bare(request_id)

    def _server_error(
        self, wire: ModuleType, body: dict[str, Any], digest: bytes, request_id: str
    ) -> tuple[int, dict[str, Any]]:
        context = FaultContext(
            fault=Fault("server_error"),
            model=str(body.get("model", "")),
            request_id=request_id,
            account=self._model._account,
            now=self._model._now(digest),
            requested_tokens=0,
        )
        status, _, error = wire.fault_response("server_error", context)
        return status, error

    # ------------------------------------------------------------------ Anthropic message batches

    def _anthropic_batch(self, batch_id: str, request_id: str) -> _Batch:
        found = self._batches.get(batch_id)
        if found is None or found.provider != "anthropic":
            raise _Refused(404, messages_wire.error_body(f"Message Batch {batch_id} not found.", request_id,
                                                         type_="not_found_error"))
        return found

    @staticmethod
    def _anthropic_invalid(message: str, request_id: str) -> _Refused:
        return _Refused(400, messages_wire.error_body(message, request_id), {"x-should-retry": "false"})

    def _anthropic_create(self, body: dict[str, Any], request_id: str) -> dict[str, Any]:
        requests = body.get("requests")
        if "requests" not in body:
            raise self._anthropic_invalid("requests: Field required", request_id)
        if not isinstance(requests, list):
            raise self._anthropic_invalid("requests: Input should be a valid list", request_id)
        if not requests:
            raise self._anthropic_invalid("requests: List should have at least 1 item after validation, not 0",
                                          request_id)
        seen: set[str] = set()
        for index, item in enumerate(requests):
            where = f"requests.{index}"
            if not isinstance(item, dict):
                raise self._anthropic_invalid(f"{where}: Input should be a valid dictionary", request_id)
            for name in ("custom_id", "params"):
                if name not in item:
                    raise self._anthropic_invalid(f"{where}.{name}: Field required", request_id)
            custom_id = item["custom_id"]
            if not isinstance(custom_id, str):
                raise self._anthropic_invalid(f"{where}.custom_id: Input should be a valid string", request_id)
            if len(custom_id) > 64:
                raise self._anthropic_invalid(f"{where}.custom_id: String should have at most 64 characters",
                                              request_id)
            if not _ANTHROPIC_CUSTOM_ID.match(custom_id):
                raise self._anthropic_invalid(
                    f"{where}.custom_id: String should match pattern '{_ANTHROPIC_CUSTOM_ID.pattern}'", request_id)
            if custom_id in seen:
                raise self._anthropic_invalid(
                    f"{where}.custom_id: Duplicate custom_id '{custom_id}'. Each request in a Message Batch must "
                    "have a unique custom_id.", request_id)
            seen.add(custom_id)
            if not isinstance(item["params"], dict):
                raise self._anthropic_invalid(f"{where}.params: Input should be a valid dictionary", request_id)
        batch_id, created_at = self._new_id("message_batch")
        lines = [self._line(batch_id, item["custom_id"], item["params"]) for item in requests]
        batch = _Batch("anthropic", batch_id, created_at, self._clock(), self.delay,
                       self.delay * self._model.latency.scale, lines, messages_wire)
        self._batches[batch_id] = batch
        return self._anthropic_json(batch, created=True)

    def _anthropic_status(self, batch: _Batch, progress: float, created: bool = False) -> str:
        if created:
            return "in_progress"
        if batch.cancelled is not None:
            return "canceling" if progress < batch.cancelled + CANCEL_TAKES else "ended"
        return "in_progress" if progress < 1 else "ended"

    def _anthropic_json(self, batch: _Batch, created: bool = False) -> dict[str, Any]:
        progress = 0.0 if created else batch.progress(self._clock())
        status = self._anthropic_status(batch, progress, created)
        if not created:
            self._run(batch, progress if batch.cancelled is None else min(progress, batch.cancelled))
        counts = {"processing": len(batch.lines), "succeeded": 0, "errored": 0, "canceled": 0, "expired": 0}
        if status == "ended":
            counts["processing"] = 0
            for line in batch.lines:
                counts[_anthropic_result_type(line, batch)] += 1
        ended = None
        if status == "ended":
            ended = 1.0 if batch.cancelled is None else batch.cancelled + CANCEL_TAKES
        return {
            "id": batch.id,
            "type": "message_batch",
            "processing_status": status,
            "request_counts": counts,
            "ended_at": _rfc3339(batch.at(ended)) if ended is not None else None,
            "created_at": _rfc3339(batch.created_at),
            "expires_at": _rfc3339(batch.created_at + WINDOW),
            "archived_at": None,
            "cancel_initiated_at": _rfc3339(batch.at(batch.cancelled)) if batch.cancelled is not None else None,
            "results_url": (
                f"http://offline.invalid/v1/messages/batches/{batch.id}/results" if status == "ended" else None
            ),
        }

    def _anthropic_results(self, batch_id: str, request_id: str) -> bytes:
        batch = self._anthropic_batch(batch_id, request_id)
        if self._anthropic_json(batch)["processing_status"] != "ended":
            raise _Refused(404, messages_wire.error_body(
                f"Results for Message Batch {batch_id} are not available: it has not ended yet.", request_id,
                type_="not_found_error"))
        records = []
        for line in sorted(batch.lines, key=lambda line: (not line.ran, line.done, line.custom_id)):
            kind = _anthropic_result_type(line, batch)
            result: dict[str, Any] = {"type": kind}
            if kind == "succeeded":
                result["message"] = line.answer
            elif kind == "errored":
                result["error"] = line.answer
            records.append({"custom_id": line.custom_id, "result": result})
        return _jsonl(records)

    def _anthropic_cancel(self, batch_id: str, request_id: str) -> dict[str, Any]:
        batch = self._anthropic_batch(batch_id, request_id)
        progress = batch.progress(self._clock())
        if self._anthropic_status(batch, progress) == "ended":
            raise self._anthropic_invalid(f"Message Batch {batch_id} has already ended and cannot be canceled.",
                                          request_id)
        if batch.cancelled is None:
            self._run(batch, progress)
            batch.cancelled = progress
        return self._anthropic_json(batch)

    def _anthropic_delete(self, batch_id: str, request_id: str) -> dict[str, Any]:
        batch = self._anthropic_batch(batch_id, request_id)
        if self._anthropic_json(batch)["processing_status"] != "ended":
            raise self._anthropic_invalid(
                f"Message Batch {batch_id} cannot be deleted while it is processing; cancel it first.", request_id)
        del self._batches[batch_id]
        return {"id": batch_id, "type": "message_batch_deleted"}

    def _anthropic_list(self, params: httpx2.QueryParams) -> dict[str, Any]:
        limit = _int_param(params, "limit", 20, 1, 1000)
        batches = sorted((b for b in self._batches.values() if b.provider == "anthropic"),
                         key=lambda b: b.created_at, reverse=True)
        items = [self._anthropic_json(b) for b in batches]
        before = params.get("before_id")
        if before:
            ids = [item["id"] for item in items]
            end = ids.index(before) if before in ids else len(items)
            window = items[max(0, end - limit):end]
            has_more = end - limit > 0
        else:
            page = _page(items, params.get("after_id"), limit, openai=False)
            window, has_more = page["data"], page["has_more"]
        return {
            "data": window,
            "has_more": has_more,
            "first_id": window[0]["id"] if window else None,
            "last_id": window[-1]["id"] if window else None,
        }


# ---------------------------------------------------------------------------------- helpers


def _anthropic_result_type(line: _Line, batch: _Batch) -> Literal["succeeded", "errored", "canceled", "expired"]:
    if not line.ran:
        return "expired" if line.fault == "expire" and batch.cancelled is None else "canceled"
    return "succeeded" if line.status == 200 else "errored"


def _bare(request_id: str) -> str:
    """A request id as a batch line carries it: OpenAI's without its ``req_`` prefix (32 hex digits)."""
    return request_id.removeprefix("req_") if request_id.startswith("req_") and len(request_id) == 36 else request_id


def _rfc3339(epoch: float) -> str:
    """An RFC 3339 time in UTC with microseconds, as Anthropic writes its batches' times."""
    moment = datetime.fromtimestamp(epoch, timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _page(items: list[dict[str, Any]], after: str | None, limit: int, *, openai: bool) -> dict[str, Any]:
    """The ``limit`` items after the one with id ``after`` (all from the first without it)."""
    start = 0
    if after:
        ids = [item["id"] for item in items]
        start = ids.index(after) + 1 if after in ids else len(items)
    window = items[start:start + limit]
    page: dict[str, Any] = {
        "data": window,
        "first_id": window[0]["id"] if window else None,
        "last_id": window[-1]["id"] if window else None,
        "has_more": start + limit < len(items),
    }
    return {"object": "list", **page} if openai else page


def _batch_usage(batch: _Batch) -> dict[str, Any]:
    """The tokens of the batch's answered lines, in the shape of the Batch object's ``usage``."""
    input_tokens = output_tokens = reasoning = cached = 0
    for line in batch.lines:
        if line.status != 200 or not isinstance(line.answer, dict):
            continue
        usage = line.answer.get("usage") or {}
        if batch.endpoint == chat_wire.PATH:
            input_tokens += usage.get("prompt_tokens", 0)
            output_tokens += usage.get("completion_tokens", 0)
            reasoning += (usage.get("completion_tokens_details") or {}).get("reasoning_tokens", 0)
            cached += (usage.get("prompt_tokens_details") or {}).get("cached_tokens", 0)
        else:
            input_tokens += usage.get("input_tokens", 0)
            output_tokens += usage.get("output_tokens", 0)
            reasoning += (usage.get("output_tokens_details") or {}).get("reasoning_tokens", 0)
            cached += (usage.get("input_tokens_details") or {}).get("cached_tokens", 0)
    return {
        "input_tokens": input_tokens,
        "input_tokens_details": {"cached_tokens": cached},
        "output_tokens": output_tokens,
        "output_tokens_details": {"reasoning_tokens": reasoning},
        "total_tokens": input_tokens + output_tokens,
    }


def _multipart(request: httpx2.Request) -> dict[str, tuple[str | None, bytes]]:
    """The fields of a ``multipart/form-data`` body: name -> (filename, content)."""
    content_type = request.headers.get("content-type", "")
    if not content_type.startswith("multipart/form-data"):
        return {}
    head = f"Content-Type: {content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode()
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + request.content)
    fields: dict[str, tuple[str | None, bytes]] = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        if isinstance(name, str):
            payload = part.get_payload(decode=True)
            fields[name] = (part.get_filename(), payload if isinstance(payload, bytes) else b"")
    return fields
