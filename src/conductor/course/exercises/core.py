"""The course's one exercise pattern: ``q1.check()``, ``q1.hint()``, ``q1.solution()``.

A notebook's exercise cell holds a stub with ``____`` placeholders and ends
with ``ex.q1.check()``. The check reads the names it needs from the notebook
(the caller's globals) or takes them as arguments, then prints one verdict:

* "Not attempted yet" while a placeholder is left (so the stub runs cleanly as committed);
* "Incorrect" with what is wrong and how to fix it; the learner's exceptions are
  caught and explained, never raised;
* "Correct" with what the check saw.

Checks judge orchestration behaviour (requests sent, ids answered, overlap,
rounds), read from a fresh zero-latency offline model each check builds
itself, so they depend on no notebook state besides the learner's own names.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import sys
import sysconfig
import textwrap
import traceback
import types
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ...display import wrap

__all__ = [
    "____",
    "Placeholder",
    "Wrong",
    "Outcome",
    "WrongAnswer",
    "Exercise",
    "has_placeholder",
    "explain",
    "learner_call",
    "as_tool",
    "offline_llm",
    "run_coroutine",
]

logger = logging.getLogger(__name__)

_EXERCISES_DIR = Path(__file__).resolve().parent
_PACKAGE_DIR = _EXERCISES_DIR.parent.parent  # src/conductor (the exercises live in conductor/course/)
_MACHINERY = {_EXERCISES_DIR / "core.py", _EXERCISES_DIR / "report.py"}
_LIBRARY_DIRS = tuple(
    str(Path(p).resolve()) for p in {sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["purelib"]}
)


class Placeholder:
    """The ``____`` a stub leaves for the learner to fill in (one shared instance)."""

    _instance: Placeholder | None = None

    def __new__(cls) -> Placeholder:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "____"


____ = Placeholder()


class Wrong(Exception):
    """The learner's answer is not right yet; the message says what to change."""


Status = Literal["correct", "incorrect", "not attempted"]


@dataclass(frozen=True)
class Outcome:
    """A check's verdict and the sentence explaining it."""

    status: Status
    message: str

    def text(self) -> str:
        """The verdict as printed: wrapped to the course's line width."""
        label = {"correct": "Correct", "incorrect": "Incorrect", "not attempted": "Not attempted yet"}[self.status]
        return wrap(f"{label}: {self.message}")


@dataclass(frozen=True)
class WrongAnswer:
    """A typical mistake: ``values()`` builds the learner's names as that mistake would define them.

    ``fix`` is a phrase the check's message must hold: the words that name the fix.
    """

    label: str
    values: Callable[[], tuple[Any, ...]]
    fix: str


# -- placeholders ----------------------------------------------------------------------------------


def _code_names(code: types.CodeType) -> set[str]:
    """Global names a code object and its nested functions, lambdas and comprehensions read."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _code_names(const)
    return names


def has_placeholder(value: Any) -> bool:
    """Does ``value`` still hold a ``____`` (or is it ``...``)? Looks inside tools, functions and containers."""
    from ...tools import Tool

    if value is ____ or value is Ellipsis:
        return True
    if isinstance(value, str):
        return "____" in value
    if isinstance(value, Tool):
        return value.exclusive is ____ or has_placeholder(value.func)
    if inspect.isfunction(value):
        parts = [*(value.__defaults__ or ()), *(value.__kwdefaults__ or {}).values(), *value.__annotations__.values()]
        return (
            "____" in _code_names(value.__code__)
            or "____" in (value.__doc__ or "")
            or any(has_placeholder(part) for part in parts)
        )
    if isinstance(value, dict):
        return any(has_placeholder(v) for v in value.values())
    if isinstance(value, list | tuple | set | frozenset):
        return any(has_placeholder(v) for v in value)
    return False


# -- explaining the learner's exceptions -----------------------------------------------------------


def _is_library(filename: str) -> bool:
    """Frames outside the learner's code: the standard library, installed packages, conductor itself.

    The lesson modules count as the learner's: the wrong answers the command
    line tries live there, and their traceback lines should point at them.
    """
    if filename.startswith("<"):  # code compiled from a string: a stub, a doctest
        return False
    path = Path(filename).resolve()
    if path.is_relative_to(_EXERCISES_DIR):
        return path in _MACHINERY
    return path.is_relative_to(_PACKAGE_DIR) or str(path).startswith(_LIBRARY_DIRS)


def _is_check(frame: traceback.FrameSummary) -> bool:
    """A frame of a check's own judge (``_judge_...`` in a lesson module): never the learner's line to fix."""
    return frame.name.startswith("_judge") and Path(frame.filename).resolve().is_relative_to(_EXERCISES_DIR)


def _where(exc: BaseException) -> str:
    """' (in f, line n)' for the innermost frame of the learner's code, or ''."""
    frames = [
        f for f in traceback.extract_tb(exc.__traceback__) if not _is_library(f.filename) and not _is_check(f)
    ]
    if not frames:
        return ""
    frame = frames[-1]
    place = "your cell" if frame.name == "<module>" else frame.name
    return f" (in {place}, line {frame.lineno})"


def _api_error_text(exc: BaseException) -> str | None:
    """The API's own message for an SDK status error (a 400 from the offline model), else None."""
    body = getattr(exc, "body", None)
    status = getattr(exc, "status_code", None)
    if status is None or not isinstance(body, dict):
        return None
    error = body.get("error", body)
    message = error.get("message") if isinstance(error, dict) else None
    return f"the API rejected a request with HTTP {status}: {str(message or exc).rstrip('.')}"


def explain(exc: BaseException, doing: str) -> str:
    """A sentence for the learner about an exception their code raised while ``doing`` ran."""
    from ...tools import ToolDefinitionError

    if isinstance(exc, ToolDefinitionError):
        return f"cd.tool cannot make a tool of it: {exc}"
    api_text = _api_error_text(exc)
    if api_text:
        return f"{doing} failed{_where(exc)}: {api_text}. Fix the request it sends."
    if "Placeholder" in str(exc) or "____" in str(exc):
        return f"{doing} reached a ____ placeholder{_where(exc)}: replace it with your code."
    detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    where = _where(exc)
    fix = "Fix that line" if where else "Fix your code"  # no line of the learner's to point at
    return f"{doing} raised {detail}{where}. {fix} and run the cell again."


def learner_call(doing: str, func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call the learner's ``func``; an exception becomes :class:`Wrong` explaining it."""
    if not callable(func):
        raise Wrong(f"{doing} cannot run: that name holds {type(func).__name__} {func!r}, not a function.")
    try:
        return func(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - the learner's mistakes are explained, never raised
        raise Wrong(explain(exc, doing)) from exc


# -- what checks need ------------------------------------------------------------------------------


def as_tool(value: Any, name: str) -> Any:
    """The learner's ``name`` as a :class:`~conductor.Tool` (a plain function goes through ``cd.tool``)."""
    from ...tools import Tool, ToolDefinitionError, tool

    if isinstance(value, Tool):
        return value
    if not callable(value):
        raise Wrong(f"`{name}` should be a function, but it is {type(value).__name__} {value!r}.")
    try:
        return tool(value)
    except ToolDefinitionError as exc:
        raise Wrong(f"cd.tool cannot make a tool of `{name}`: {exc}") from exc


def offline_llm(api: str = "openai", *, policies: tuple[Any, ...] = (), asynchronous: bool = False) -> Any:
    """A fresh zero-latency offline connection: a check's own model, with its own request log."""
    import conductor as cd
    from ...offline import LatencyModel, OfflineModel

    model = OfflineModel(seed=0, latency=LatencyModel.instant(), policies=list(policies))
    return cd.connect("offline", api=api, offline_model=model, asynchronous=asynchronous)


def run_coroutine(make: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
    """Run a coroutine to the end from sync code, even inside Jupyter's running event loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(make())
    with ThreadPoolExecutor(max_workers=1) as pool:  # this thread runs a loop: use another thread's
        return pool.submit(lambda: asyncio.run(make())).result()


# -- the exercise ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Exercise:
    """One exercise: what the notebook shows, how to judge an answer, and the answers to try.

    ``judge`` takes the learner's values of ``names`` in order, returns what the
    check saw on success, and raises :class:`Wrong` naming the fix otherwise.
    ``reference`` gives the reference solution's values; ``solution_parts`` are
    what :meth:`solution` prints: functions and tools by their source, strings as they are.
    """

    number: int
    title: str
    task: str  # markdown: what to do, in the learner's words
    stub: str
    hint_text: str
    names: tuple[str, ...]
    judge: Callable[..., str]
    reference: Callable[[], tuple[Any, ...]]
    solution_parts: tuple[Any, ...]
    wrong_answers: tuple[WrongAnswer, ...]

    @property
    def label(self) -> str:
        return f"q{self.number}"

    @property
    def prompt(self) -> str:
        """The markdown cell above the stub: a heading, then the task."""
        return f"### Exercise {self.number}: {self.title}\n\n{self.task}"

    def evaluate(self, values: tuple[Any, ...]) -> Outcome:
        """Judge the learner's values; never raises for anything the learner's code does."""
        pending = [name for name, value in zip(self.names, values) if has_placeholder(value)]
        if pending:
            return Outcome(
                "not attempted",
                f"replace each ____ in {_join(pending)}, then run the cell again "
                f"(ex.{self.label}.hint() gives a hint).",
            )
        try:
            return Outcome("correct", self.judge(*values))
        except Wrong as wrong:
            return Outcome("incorrect", str(wrong))
        except Exception as exc:  # noqa: BLE001 - a check must explain, not crash
            logger.debug("check %s raised", self.label, exc_info=True)
            return Outcome("incorrect", explain(exc, "your code"))

    def check(self, *values: Any) -> None:
        """Print the verdict on the learner's answer: ``check()`` reads the notebook's names."""
        if not values:
            namespace = sys._getframe(1).f_globals  # the notebook's namespace, Kaggle style
            missing = [name for name in self.names if name not in namespace]
            if missing:
                verb = "is" if len(missing) == 1 else "are"
                outcome = Outcome(
                    "not attempted", f"{_join(missing)} {verb} not defined yet: run the exercise's cell first."
                )
                print(outcome.text())
                return
            values = tuple(namespace[name] for name in self.names)
        elif len(values) != len(self.names):
            print(wrap(f"check() takes {len(self.names)} value(s): {', '.join(self.names)}; got {len(values)}."))
            return
        print(self.evaluate(values).text())

    def hint(self) -> None:
        """Print the hint."""
        print(wrap(f"Hint: {self.hint_text}"))

    def solution(self) -> None:
        """Print the reference solution's source."""
        print("Solution:\n")
        print("\n\n\n".join(_source(part) for part in self.solution_parts))

    def __repr__(self) -> str:
        return f"<exercise {self.label}: {self.title}>"


def _source(part: Any) -> str:
    from ...tools import Tool

    if isinstance(part, str):
        return part
    return textwrap.dedent(inspect.getsource(part.func if isinstance(part, Tool) else part)).rstrip()


def _join(names: list[str]) -> str:
    quoted = [f"`{n}`" for n in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]
