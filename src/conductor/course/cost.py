"""What one run of the whole course would cost on each default model, from measured token counts.

The figures are measured, not guessed. ``python -m conductor course --save-usage`` runs
every notebook in ``notebooks/`` and ``demos/`` on the offline default; the offline model
appends the usage of every answer it gives (input, cached input and output tokens) to the
JSONL file the environment variable ``CONDUCTOR_USAGE_LOG`` names (the runner gives each
notebook a file of its own), and the runner writes the per-notebook totals to
``conductor/data/course_usage.json`` (:data:`USAGE_FILE`) with the date and the command.

:func:`estimate` prices those totals for each default model (:data:`DEFAULT_CONNECTIONS`)
from the price table of :mod:`conductor.pricing` and returns one :class:`CostRow` per model;
``python -m conductor cost`` prints them (:func:`format_table`). Nothing here touches the
network.

What the figure covers: every model request the course makes in one run, the raw SDK
requests of the by-hand cells and the requests to stand-ins that stay offline whatever the
provider included, with the token counts the offline model estimates from the text (lines
of a provider batch are marked in the log and priced at the batch rate). A real
model writes longer or shorter answers, may take more or fewer rounds, and reads long
prompts from its cache at a lower rate, so the figure is an order of magnitude, not a quote.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from datetime import date
from pathlib import Path
from typing import Any

from ..budget import UnpricedModelError
from ..offline.model import USAGE_LOG
from ..pricing import price_per_million
from ..providers import DEFAULT_MODELS

__all__ = [
    "USAGE_FILE",
    "USAGE_LOG",
    "DEFAULT_CONNECTIONS",
    "NotebookUsage",
    "CourseUsage",
    "CostRow",
    "read_log",
    "load_usage",
    "save_usage",
    "estimate",
    "format_table",
    "price_source",
    "format_usage",
]

USAGE_FILE = Path(__file__).resolve().parent.parent / "data" / "course_usage.json"
"""The saved per-notebook token totals of one course run (``python -m conductor course --save-usage``)."""

DEFAULT_CONNECTIONS: tuple[tuple[str, str], ...] = (
    ("openai", "responses"),  # cd.connect("openai")
    ("openai", "chat"),  # cd.connect("openai", api="chat")
    ("anthropic", "messages"),  # cd.connect("anthropic")
)
"""``(provider, api)`` of each default connection; the model is that API's default (``DEFAULT_MODELS``)."""


@dataclass(frozen=True)
class NotebookUsage:
    """The tokens of every model request one notebook made in one run."""

    notebook: str  # e.g. "notebooks/00_setup.ipynb"
    requests: int = 0
    input_tokens: int = 0  # every prompt token, cached ones included
    cached_input_tokens: int = 0  # part of input_tokens read from a prompt cache
    output_tokens: int = 0  # reasoning included
    # The part of the above sent through a provider's Batch API (lines of a batch), billed at the batch rate.
    batched_requests: int = 0
    batched_input_tokens: int = 0
    batched_output_tokens: int = 0

    def __add__(self, other: NotebookUsage) -> NotebookUsage:
        return NotebookUsage(
            self.notebook,
            self.requests + other.requests,
            self.input_tokens + other.input_tokens,
            self.cached_input_tokens + other.cached_input_tokens,
            self.output_tokens + other.output_tokens,
            self.batched_requests + other.batched_requests,
            self.batched_input_tokens + other.batched_input_tokens,
            self.batched_output_tokens + other.batched_output_tokens,
        )


@dataclass(frozen=True)
class CourseUsage:
    """The saved usage file: when and how it was measured, and each notebook's totals."""

    measured: str  # ISO date
    command: str
    notebooks: tuple[NotebookUsage, ...]

    @property
    def total(self) -> NotebookUsage:
        """Every notebook's tokens added up (``notebook`` is ``"total"``)."""
        total = NotebookUsage("total")
        for notebook in self.notebooks:
            total = total + notebook
        return replace(total, notebook="total")


@dataclass(frozen=True)
class CostRow:
    """One default model's estimate for a run of the whole course."""

    provider: str
    api: str
    model: str
    input_tokens: int
    cached_input_tokens: int
    output_tokens: int
    dollars: float


def read_log(path: Path, notebook: str) -> NotebookUsage:
    """Add up the usage lines the offline model wrote to ``path`` (see ``CONDUCTOR_USAGE_LOG``); none when absent."""
    usage = NotebookUsage(notebook)
    if not path.exists():
        return usage
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            tokens_in, tokens_out = int(record["input_tokens"]), int(record["output_tokens"])
            batched = bool(record.get("batched"))
            usage = usage + NotebookUsage(
                notebook,
                1,
                tokens_in,
                int(record.get("cached_input_tokens", 0)),
                tokens_out,
                int(batched),
                tokens_in if batched else 0,
                tokens_out if batched else 0,
            )
    return usage


def save_usage(
    notebooks: Iterable[NotebookUsage], command: str, path: Path = USAGE_FILE, today: date | None = None
) -> CourseUsage:
    """Write the per-notebook totals to ``path`` as JSON, with the date and ``command``; return what was written."""
    usage = CourseUsage((today or date.today()).isoformat(), command, tuple(notebooks))
    data: dict[str, Any] = {
        "measured": usage.measured,
        "command": usage.command,
        "note": "tokens of every model request each notebook made on the offline default, "
        "as the offline model estimates them; conductor.course.cost prices them",
        "notebooks": {
            n.notebook: {key: value for key, value in asdict(n).items() if key != "notebook"}
            for n in usage.notebooks
        },
    }
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return usage


def load_usage(path: Path = USAGE_FILE) -> CourseUsage:
    """Read the usage file :func:`save_usage` wrote."""
    data = json.loads(path.read_text(encoding="utf-8"))
    notebooks: Mapping[str, Mapping[str, int]] = data["notebooks"]
    return CourseUsage(
        measured=data["measured"],
        command=data["command"],
        notebooks=tuple(
            NotebookUsage(name, **totals)  # a file from before batches has no batched_* keys: 0
            for name, totals in notebooks.items()
        ),
    )


def estimate(
    usage: CourseUsage | None = None, connections: Sequence[tuple[str, str]] = DEFAULT_CONNECTIONS
) -> list[CostRow]:
    """The dollars of the course's measured tokens on each connection's default model.

    ``usage`` defaults to the saved file (:func:`load_usage`). Each part of the tokens
    is billed at its own rate of the price table: uncached input, cached input (at the
    input rate when the model has no cache rate) and output; lines of a provider batch at
    the batch rate. The base rates apply: every request of the course is far below any
    long-prompt tier. Raises
    :class:`~conductor.budget.UnpricedModelError` for a model the table does not know.
    """
    total = (usage or load_usage()).total
    rows = []
    for provider, api in connections:
        model = DEFAULT_MODELS[api]  # type: ignore[index]
        price = price_per_million(model, provider)
        if not price.known:
            raise UnpricedModelError(f"no price is known for {model!r} on {provider} ({price.source})")
        batch = price_per_million(model, provider, batch=True)
        cached_rate = price.input_per_mtok if price.cache_read_per_mtok is None else price.cache_read_per_mtok
        # The offline model has no prompt cache: every cached token is a direct request's.
        dollars = (
            (total.input_tokens - total.batched_input_tokens - total.cached_input_tokens) * price.input_per_mtok
            + total.cached_input_tokens * cached_rate
            + (total.output_tokens - total.batched_output_tokens) * price.output_per_mtok
            + total.batched_input_tokens * batch.input_per_mtok
            + total.batched_output_tokens * batch.output_per_mtok
        ) / 1e6
        rows.append(
            CostRow(provider, api, model, total.input_tokens, total.cached_input_tokens, total.output_tokens, dollars)
        )
    return rows


def price_source() -> str:
    """Where the prices come from, e.g. ``"genai-prices 0.2.3"``."""
    provider, api = DEFAULT_CONNECTIONS[0]
    return price_per_million(DEFAULT_MODELS[api], provider).source  # type: ignore[index]


def format_table(rows: Sequence[CostRow]) -> str:
    """A plain-text table of :func:`estimate`'s rows: connection, model, tokens, dollars."""
    header = f"{'connection':<35} {'model':<17} {'input tokens':>12} {'output tokens':>13} {'cost $':>7}"
    lines = [header, "-" * len(header)]
    for row in rows:
        call = f'cd.connect("{row.provider}"' + (', api="chat")' if row.api == "chat" else ")")
        lines.append(
            f"{call:<35} {row.model:<17} {row.input_tokens:>12,} {row.output_tokens:>13,} {row.dollars:>7.2f}"
        )
    return "\n".join(lines)


def format_usage(usage: CourseUsage) -> str:
    """A plain-text table of the saved per-notebook totals, with the total last (``batched``: lines of a batch)."""
    width = max(len("notebook"), *(len(n.notebook) for n in usage.notebooks))
    header = (f"{'notebook':<{width}} {'requests':>8} {'batched':>7} {'input tokens':>12} {'cached':>7} "
              f"{'output tokens':>13}")
    lines = [header, "-" * len(header)]
    for n in (*usage.notebooks, usage.total):
        lines.append(
            f"{n.notebook:<{width}} {n.requests:>8,} {n.batched_requests:>7,} {n.input_tokens:>12,} "
            f"{n.cached_input_tokens:>7,} {n.output_tokens:>13,}"
        )
    return "\n".join(lines)
