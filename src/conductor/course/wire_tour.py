"""The wire-formats appendix: what the SDKs really send and receive, recorded and printed.

- :class:`RecordingModel` is the offline model keeping every HTTP exchange it answers:
  the request's JSON body and the response's JSON body, as they crossed the wire.
- :func:`recorded` connects one to an API (``llm.offline.exchanges`` then holds the log).
- :func:`show_json` prints JSON the way a reader wants it in a notebook: indented, small
  values on one line, long strings clipped to the line width, chosen keys cut short.
- :func:`paths` says where a value sits in a JSON document (``input[2].call_id``).

In the notebook::

    from conductor.course.wire_tour import paths, recorded, show_json

    llm = recorded("responses")
    llm.run("北京今天天气怎么样?", tools=[get_weather])
    show_json(llm.offline.exchanges[-1].request, cut={"tools"})
"""

from __future__ import annotations

import json
import threading
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from typing import Any

import httpx2

from ..display import LINE_WIDTH, clip, width
from ..offline import LatencyModel, OfflineModel

__all__ = ["Exchange", "RecordingModel", "recorded", "json_lines", "show_json", "paths"]


@dataclass(frozen=True)
class Exchange:
    """One HTTP request the model answered, and its answer, as JSON."""

    path: str  # "/v1/responses", "/v1/chat/completions", "/v1/messages"
    status: int
    request: dict[str, Any]
    response: Any  # the JSON body (an error body when status >= 400); the text of a stream


def _exchange(request: httpx2.Request, response: httpx2.Response) -> Exchange:
    try:
        body = json.loads(request.content or b"{}")
    except ValueError:
        body = {}
    try:
        answer: Any = json.loads(response.content)
    except ValueError:
        answer = response.text  # a stream of server-sent events
    return Exchange(request.url.path, response.status_code, body, answer)


class RecordingModel(OfflineModel):
    """The offline model, keeping each exchange it answers in :attr:`exchanges` (in order)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._log: list[Exchange] = []
        self._log_lock = threading.Lock()

    @property
    def exchanges(self) -> list[Exchange]:
        """Every exchange so far, oldest first (a copy); a timeout or dropped connection has none."""
        with self._log_lock:
            return list(self._log)

    def _keep(self, request: httpx2.Request, response: httpx2.Response) -> None:
        with self._log_lock:
            self._log.append(_exchange(request, response))

    def transport(self) -> httpx2.MockTransport:
        inner = super().transport()

        def handle(request: httpx2.Request) -> httpx2.Response:
            response = inner.handle_request(request)
            response.read()  # the whole body (a stream too), so it can be kept and still delivered
            self._keep(request, response)
            return response

        return httpx2.MockTransport(handle)

    def async_transport(self) -> httpx2.MockTransport:
        inner = super().async_transport()

        async def handle(request: httpx2.Request) -> httpx2.Response:
            response = await inner.handle_async_request(request)
            await response.aread()
            self._keep(request, response)
            return response

        return httpx2.MockTransport(handle)


def recorded(api: str, *, seed: int = 0, reasoning: bool = False, latency_scale: float = 0.0) -> Any:
    """An offline connection on ``api`` whose model keeps every exchange: ``llm.offline.exchanges``.

    It answers instantly by default (``latency_scale=0``): a tour of the formats times nothing.
    """
    import conductor as cd

    model = RecordingModel(seed=seed, latency=LatencyModel(scale=latency_scale), reasoning=reasoning)
    return cd.connect("offline", api=api, offline_model=model)


# -- printing JSON -----------------------------------------------------------------------------------


def _inline(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _clipped_string(text: str, columns: int) -> str:
    """A JSON string literal of at most ``columns`` display columns (cut inside the quotes)."""
    inner = clip(_inline(text)[1:-1], max(columns - 2, 4))
    if inner.endswith("\\…"):  # never leave half an escape before the ellipsis
        inner = inner[:-2] + "…"
    return f'"{inner}"'


def _lines(
    value: Any, lead: str, tail: str, depth: int, columns: int, cut: Collection[str], key: str | None
) -> list[str]:
    """``value`` at ``depth``, after ``lead`` (its key) and before ``tail`` (a comma, or nothing)."""
    pad = "  " * depth
    if key in cut and isinstance(value, list | dict):
        count = len(value)
        what = "item" if isinstance(value, list) else "key"
        marker = f"[…{count} {what}{'s' if count != 1 else ''}…]"
        return [pad + lead + (marker if isinstance(value, list) else "{" + marker[1:-1] + "}") + tail]
    inline = _inline(value)
    if width(pad + lead + inline + tail) <= columns:
        return [pad + lead + inline + tail]
    if isinstance(value, dict) and value:
        lines = [pad + lead + "{"]
        entries = list(value.items())
        for index, (name, item) in enumerate(entries):
            comma = "," if index < len(entries) - 1 else ""
            lines += _lines(item, _inline(name) + ": ", comma, depth + 1, columns, cut, name)
        return [*lines, pad + "}" + tail]
    if isinstance(value, list) and value:
        lines = [pad + lead + "["]
        for index, item in enumerate(value):
            comma = "," if index < len(value) - 1 else ""
            lines += _lines(item, "", comma, depth + 1, columns, cut, None)
        return [*lines, pad + "]" + tail]
    if isinstance(value, str):
        room = columns - width(pad + lead + tail)
        return [pad + lead + _clipped_string(value, room) + tail]
    return [pad + lead + inline + tail]


def json_lines(value: Any, *, columns: int = LINE_WIDTH, cut: Collection[str] = ()) -> list[str]:
    """``value`` as indented JSON lines of at most ``columns`` display columns.

    Objects and arrays that fit on their line stay on it; a string too long for its line is
    cut, ending in ``…`` inside its quotes; a key named in ``cut`` shows only how many items
    or keys it holds (``"tools": […2 items…]``).
    """
    return _lines(value, "", "", 0, columns, cut, None)


def show_json(value: Any, *, columns: int = LINE_WIDTH, cut: Collection[str] = ()) -> None:
    """Print :func:`json_lines` of ``value``."""
    print("\n".join(json_lines(value, columns=columns, cut=cut)))


# -- finding things in JSON -----------------------------------------------------------------------------


def _walk(value: Any, path: str) -> Iterator[tuple[str, Any]]:
    yield path, value
    if isinstance(value, dict):
        for name, item in value.items():
            yield from _walk(item, f"{path}.{name}" if path else name)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _walk(item, f"{path}[{index}]")


def paths(document: Any, wanted: Any) -> list[str]:
    """Where ``wanted`` sits in ``document``: the path of every value equal to it, in document order.

    ``paths({"input": [{"call_id": "call_1"}]}, "call_1") == ["input[0].call_id"]``
    """
    return [path for path, value in _walk(document, "") if value == wanted and path]
