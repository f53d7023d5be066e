"""``@tool``: turn a typed, documented Python function into a tool a model can call.

The JSON schema comes from the type hints through pydantic (so enums, optional
parameters, lists and nested models work the way pydantic users expect), the
descriptions from the docstring (Google, NumPy or Sphinx style, read by
``docstring_parser``). The same pydantic model validates the model's arguments
before the function runs. A tool defined elsewhere (an MCP server, an OpenAPI
spec) can bring its own JSON schema instead; ``jsonschema`` then validates.
"""

from __future__ import annotations

import asyncio
import copy
import functools
import importlib
import inspect
import json
import logging
import re
import string
import sys
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, get_type_hints

import docstring_parser
import pydantic
import pydantic_core
from pydantic.fields import FieldInfo

from .strict import NotStrict, drop_default_nulls, make_strict
from .types import ToolSpec, loads_json

if TYPE_CHECKING:
    import jsonschema

__all__ = [
    "Namespace",
    "Tool",
    "tool",
    "ToolDefinitionError",
    "ToolArgumentsError",
    "ToolOutputError",
    "ToolRegistry",
    "render_output",
]

logger = logging.getLogger(__name__)

_NAME_RE = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")  # the rule both APIs apply to tool names
_SUPPORTED_TYPES = (
    "Use str, int, float, bool, Literal, Enum, list, dict, a pydantic model, a dataclass or a TypedDict "
    "(on Python 3.11, typing_extensions.TypedDict: pydantic reads typing.TypedDict only from 3.12)"
)
_MESSAGE_CHARS = 200  # one validation problem, as the model reads it; an argument can be long
_MISSING: Any = object()  # tells ``tool(None)`` (a mistake) from ``@tool()``, and an option given from one left out
_OPTIONS = frozenset({
    "name", "description", "exclusive", "parameters", "requires_approval", "max_invalid", "retry", "timeout",
    "fallbacks", "progress", "strict", "sync_to_thread", "defer_loading", "programmatic", "namespace", "idempotent",
})


@dataclass(frozen=True)
class Namespace:
    """A group of tools the Responses API shows the model under one name and description (an MCP server's tools,
    say): ``{"type": "namespace", "name", "description", "tools": [...]}``. With tool search, the model reads only
    the name and description of a namespace whose functions are deferred until a search loads some of them, so a
    catalogue of many servers costs a line per server. Chat Completions and Messages have no namespaces: the tools
    are sent one by one there. ``server.tools(namespace=True)`` groups an MCP server's tools under its name."""

    name: str
    description: str

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not _NAME_RE.match(self.name):
            raise ValueError(f"namespace name {self.name!r}: use 1-64 letters, digits, '_' or '-' (e.g. \"crm\")")
        if not isinstance(self.description, str) or not self.description.strip():
            raise ValueError(f"namespace {self.name!r} needs a description: the model reads it to decide what to "
                             "search for (the Responses API requires one)")


def _check_idempotent(idempotent: Any, name: str) -> bool:
    if not isinstance(idempotent, bool):
        raise ToolDefinitionError(f"tool {name!r}: idempotent= takes True or False, got {idempotent!r}")
    return idempotent


class ToolDefinitionError(TypeError):
    """A function cannot become a tool as written; the message says what to change."""


class ToolArgumentsError(ValueError):
    """The model's arguments for a tool are not valid; the message is meant for the model."""


class ToolOutputError(ValueError):
    """A tool ran but what it returned cannot be sent to the model; the message is meant for the model."""


# -- output ------------------------------------------------------------------------------


def _type_name(value: Any) -> str:
    kind = type(value)
    return kind.__qualname__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"


def _unsendable(value: Any, tool: str | None, reason: str) -> ToolOutputError:
    """The error for the model: what came back, and that the call itself did happen."""
    who = f"tool {tool}" if tool else "the tool"
    logger.warning(
        "%s returned a value of type %s that cannot be sent to the model (%s); return JSON-compatible "
        "data: str, numbers, dict, list, a pydantic model or a dataclass",
        who, _type_name(value), reason,
    )
    return ToolOutputError(
        f"{who} ran (its side effects, if any, have happened) but returned a value of type "
        f"{_type_name(value)}, which cannot be sent back as text ({reason}). Calling it again will "
        f"not help: do not repeat the call; tell the user the tool's result could not be read."
    )


def render_output(value: Any, *, tool: str | None = None) -> str:
    """Turn whatever a tool returned into the text sent back to the model.

    Strings go as they are, ``None`` as an empty string, everything else as JSON
    through pydantic (models, dataclasses, enums, sets, datetimes and bytes included;
    numpy scalars and arrays and pandas Series and DataFrames too, see :func:`_data_value`),
    with non-ASCII kept readable and NaN / infinity as the strings ``"NaN"`` /
    ``"Infinity"`` (bare ``NaN`` is not JSON). Raises :class:`ToolOutputError`, a
    message for the model naming ``tool``, when the value cannot be sent.
    """
    if value is None:
        return ""
    if isinstance(value, str):
        return str.__str__(value)  # the text itself, also for a str enum (whose str() is "Class.MEMBER")
    # pydantic would drain an iterator, running the tool's code after the call has ended
    # (beyond its timeout, possibly forever); a coroutine here is a missing ``await``.
    if isinstance(value, (Iterator, AsyncIterator)) or inspect.isawaitable(value):
        if inspect.iscoroutine(value):
            value.close()  # never awaited on purpose: no "coroutine was never awaited" warning
        raise _unsendable(value, tool, "it is computed lazily, after the call")
    try:
        return pydantic_core.to_json(value, inf_nan_mode="strings", fallback=_data_value).decode()
    except pydantic_core.PydanticSerializationError:
        try:  # bytes that are not UTF-8 text can still go, as base64
            return pydantic_core.to_json(
                value, inf_nan_mode="strings", bytes_mode="base64", fallback=_data_value
            ).decode()
        except pydantic_core.PydanticSerializationError as exc:
            raise _unsendable(value, tool, str(exc).splitlines()[0]) from exc


def _data_value(value: Any) -> Any:
    """numpy and pandas values as plain Python, for pydantic to write as JSON (also nested in dicts).

    Told apart by their methods, so neither library is imported here: a numpy scalar or array
    (``tolist``), a pandas DataFrame (``to_dict(orient="records")``: one object per row, as a
    person reads a table) or Series (``to_dict``: index -> value). Anything else is refused as
    pydantic refuses it.
    """
    if hasattr(value, "to_dict") and hasattr(value, "columns"):
        return value.to_dict(orient="records")
    if hasattr(value, "to_dict") and hasattr(value, "index"):  # before numpy's test: a Series has tolist too
        return value.to_dict()
    if hasattr(value, "dtype") and hasattr(value, "tolist"):
        return value.tolist()
    raise pydantic_core.PydanticSerializationError(f"Unable to serialize unknown type: {type(value)}")


# -- definition --------------------------------------------------------------------------


def _target(func: Callable[..., Any]) -> Callable[..., Any]:
    """Where the hints and the docstring live: the function behind a partial or a callable instance."""
    while isinstance(func, functools.partial):
        func = func.func
    if inspect.isroutine(func) or inspect.isclass(func):
        return func
    return type(func).__call__


def _docstring(func: Callable[..., Any]) -> str:
    target = _target(func)
    doc = target.__doc__
    if not doc and target is not func and not isinstance(func, functools.partial):
        doc = type(func).__doc__  # a callable instance documented on its class
    return inspect.cleandoc(doc or "")


def _parse_docstring(doc: str, name: str) -> tuple[str, dict[str, str]]:
    """(description, {param: description}) from a Google, NumPy or Sphinx docstring.

    The description is the whole summary, every paragraph before the parameter
    section: what the learner wrote there is what the model should read (when to
    call the tool, what it returns, its limits). Line breaks inside a paragraph go.
    """
    try:
        parsed = docstring_parser.parse(doc)
    except docstring_parser.ParseError as exc:
        raise ToolDefinitionError(
            f"tool {name!r}: the docstring cannot be read ({exc}); fix its parameter section "
            f"(Google `Args:`, NumPy `Parameters`, or Sphinx `:param x:`) or pass description="
        ) from exc
    paragraphs = (" ".join(p.split()) for p in (parsed.description or "").split("\n\n"))
    description = "\n\n".join(p for p in paragraphs if p)
    params = {p.arg_name: " ".join(p.description.split()) for p in parsed.params if p.description}
    return description, params


def _check_callable(func: Any, name: str | None) -> str:
    """The tool's name; raises :class:`ToolDefinitionError` for what could never be called."""
    if func is None:
        raise ToolDefinitionError(
            "cd.tool got None instead of a function: pass the function itself, "
            "e.g. cd.tool(get_weather), not what calling it returns"
        )
    if not callable(func):
        raise ToolDefinitionError(
            f"cd.tool needs a function, got a {_type_name(func)} ({func!r:.60}); pass the function itself"
        )
    name = name or getattr(func, "__name__", None)
    if name is None:
        raise ToolDefinitionError(
            f"a {_type_name(func)} has no name for the model to call it by: pass one with name=, "
            f"e.g. cd.tool(partial(f, x=1), name='f1')"
        )
    if inspect.isgeneratorfunction(_target(func)) or inspect.isasyncgenfunction(_target(func)):
        raise ToolDefinitionError(
            f"tool {name!r} is a generator function: its results cannot be sent to a "
            f"model as they come; collect them and return a list instead"
        )
    if not _NAME_RE.match(name):
        raise ToolDefinitionError(
            f"tool name {name!r} is not allowed: use 1-64 letters, digits, '_' or '-' "
            f"(pass @tool(name='...') to choose another)"
        )
    return name


def _parameters(func: Callable[..., Any], name: str) -> list[inspect.Parameter]:
    """The parameters the model fills in, refusing those a keyword call could never reach."""
    try:
        signature = inspect.signature(func)
    except (TypeError, ValueError) as exc:
        raise ToolDefinitionError(
            f"tool {name!r}: its signature cannot be read ({exc}); wrap it in a def with typed parameters"
        ) from exc
    bound = func.keywords if isinstance(func, functools.partial) else {}
    params = []
    for param in signature.parameters.values():
        if param.name in bound:
            continue  # fixed by the partial: not the model's to choose
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            raise ToolDefinitionError(
                f"tool {name!r}: *{param.name} / **{param.name} cannot be described to a model; "
                f"list each parameter with its type instead"
            )
        if param.kind is param.POSITIONAL_ONLY:
            raise ToolDefinitionError(
                f"tool {name!r}: parameter {param.name!r} is positional-only, but a tool is called "
                f"with keyword arguments; remove the '/' from its signature"
            )
        if param.name.startswith("_"):
            raise ToolDefinitionError(
                f"tool {name!r}: parameter {param.name!r} starts with '_', which pydantic keeps "
                f"private, so a model could never send it; rename it, or fix its value with "
                f"functools.partial(f, {param.name}=...) and pass name="
            )
        params.append(param)
    return params


def _def_name(ref: Any) -> str | None:
    return ref.rsplit("/", 1)[-1] if isinstance(ref, str) and ref.startswith("#/$defs/") else None


def _refs_in(node: Any) -> set[str]:
    if isinstance(node, dict):
        found = {name} if (name := _def_name(node.get("$ref"))) else set()
        return found.union(*(_refs_in(v) for v in node.values()))
    if isinstance(node, list):
        return set().union(*(_refs_in(v) for v in node))
    return set()


def _recursive_defs(defs: dict[str, Any]) -> set[str]:
    """The definitions that refer back to themselves, directly or through others."""
    edges = {name: _refs_in(schema) & defs.keys() for name, schema in defs.items()}

    def reaches(start: str, goal: str) -> bool:
        seen, todo = set(), list(edges[start])
        while todo:
            node = todo.pop()
            if node == goal:
                return True
            if node not in seen:
                seen.add(node)
                todo += edges[node]
        return False

    return {name for name in defs if reaches(name, name)}


def _inline_refs(schema: dict[str, Any]) -> dict[str, Any]:
    """Replace ``$ref`` pointers by their definitions, except where a model is recursive.

    Nested models give pydantic ``$defs``; inlining keeps the schema readable in a
    lesson and accepted by every OpenAI-compatible server, some of which ignore refs.
    A recursive model (a tree node holding nodes) cannot be inlined: it keeps its refs.
    """
    defs = schema.pop("$defs", {})
    recursive = _recursive_defs(defs)

    def resolve(node: Any) -> Any:
        if isinstance(node, dict):
            name = _def_name(node.get("$ref"))
            if name and name not in recursive:
                return {**resolve(defs[name]), **{k: resolve(v) for k, v in node.items() if k != "$ref"}}
            return {k: resolve(v) for k, v in node.items()}
        if isinstance(node, list):
            return [resolve(v) for v in node]
        return node

    resolved = resolve(schema)
    if recursive:
        resolved["$defs"] = {name: resolve(s) for name, s in defs.items() if name in recursive}
    return resolved


def _drop_titles(node: Any) -> Any:
    """Remove pydantic's auto-generated ``title`` keys: noise the model does not need."""
    if isinstance(node, dict):
        return {k: _drop_titles(v) for k, v in node.items() if not (k == "title" and isinstance(v, str))}
    if isinstance(node, list):
        return [_drop_titles(v) for v in node]
    return node


def _schema_validator(parameters: Any, func: Callable[..., Any], name: str) -> jsonschema.protocols.Validator:
    """A validator for a tool's own JSON schema, checked against the function at definition time."""
    # Imported here: jsonschema's format checkers load optional parsers (rfc3987-syntax builds a
    # grammar for 1.2 s), a cost only a tool with an explicit schema should pay.
    import jsonschema

    if not isinstance(parameters, dict) or parameters.get("type") != "object":
        raise ToolDefinitionError(
            f"tool {name!r}: parameters must be a JSON schema of type 'object' (both APIs require it), "
            f'e.g. {{"type": "object", "properties": {{"city": {{"type": "string"}}}}}}'
        )
    cls = jsonschema.validators.validator_for(parameters, default=jsonschema.Draft202012Validator)
    try:
        cls.check_schema(parameters)
    except jsonschema.SchemaError as exc:
        where = "/".join(str(p) for p in exc.absolute_path) or "the top level"
        raise ToolDefinitionError(f"tool {name!r}: the parameters schema is invalid at {where}: {exc.message}") from exc
    try:
        inspect.signature(func).bind_partial(**dict.fromkeys(parameters.get("properties", {})))
    except TypeError as exc:
        raise ToolDefinitionError(
            f"tool {name!r}: the function cannot take the schema's properties as keywords ({exc}); "
            f"give it a parameter per property, or **arguments"
        ) from exc
    except ValueError:
        pass  # a signature Python cannot read (some builtins): nothing to check against
    return cls(parameters, format_checker=cls.FORMAT_CHECKER)


def _field(param: inspect.Parameter, doc: str | None) -> Any:
    """The pydantic field of one parameter, keeping what the learner wrote.

    A ``pydantic.Field(...)`` given as the default is the field itself (its default, or
    none: required; its description); a docstring line fills a description it lacks. A
    description inside ``Annotated[..., Field(description=...)]`` is kept because no
    description is set over it here unless the docstring has one.
    """
    described = {"description": doc} if doc else {}
    if isinstance(param.default, FieldInfo):
        field = copy.copy(param.default)
        if field.description is None and doc:
            field.description = doc
        return field
    default = ... if param.default is param.empty else param.default
    return pydantic.Field(default=default, **described)


def _check_requires_approval(rule: Any, name: str) -> bool | Callable[[dict[str, Any]], bool]:
    if isinstance(rule, bool) or callable(rule):
        return rule
    raise ToolDefinitionError(
        f"tool {name!r}: requires_approval must be True/False or a function of the arguments dict, "
        f"e.g. requires_approval=lambda args: args['amount'] > 100; got {rule!r:.60}"
    )


def _strict_parameters(name: str, parameters: dict[str, Any], strict: bool | None) -> dict[str, Any] | None:
    """The strict form of a tool's schema, or None when the tool is not strict (``strict=``: see :func:`tool`)."""
    if strict is False:
        return None
    if strict not in (None, True):
        raise ToolDefinitionError(f"tool {name!r}: strict must be True, False or None; got {strict!r:.60}")
    try:
        return make_strict(parameters)
    except NotStrict as blocker:
        if strict:
            raise ToolDefinitionError(
                f"tool {name!r} cannot be strict: {blocker}. Change that parameter, or pass strict=False "
                f"(its arguments are then checked only when they arrive)"
            ) from None
        if name not in _NOT_STRICT_LOGGED:
            _NOT_STRICT_LOGGED.add(name)
            logger.info("tool %r is sent without strict: %s", name, blocker)
        return None


_NOT_STRICT_LOGGED: set[str] = set()  # tools already logged as not strict: once each, not on every definition


ProgressLabel = str | Callable[[dict[str, Any], int], str] | None
"""A tool's progress label: a template over its parameters, or a function of (arguments, earlier calls)."""


def _check_progress(label: Any, name: str, parameters: dict[str, Any]) -> None:
    """A label's fields must be the tool's parameters: a typo would otherwise show "Calling <name>…" silently."""
    if label is None or callable(label):
        return
    if not isinstance(label, str):
        raise ToolDefinitionError(
            f"tool {name!r}: progress must be a text such as 'Checking the weather in {{city}}…' "
            f"or a function of (arguments, earlier calls); got {label!r:.60}"
        )
    known = set(parameters.get("properties", {}))
    try:
        fields = {field.split(".")[0].split("[")[0] for _, field, _, _ in string.Formatter().parse(label) if field}
    except ValueError as exc:
        raise ToolDefinitionError(f"tool {name!r}: progress label {label!r} is not a valid template: {exc}") from None
    unknown = sorted(fields - known)
    if unknown:
        raise ToolDefinitionError(
            f"tool {name!r}: progress label {label!r} names {', '.join(unknown)}, which "
            f"{'is not a parameter' if len(unknown) == 1 else 'are not parameters'}; "
            f"its parameters are: {', '.join(sorted(known)) or 'none'}"
        )


def _check_max_invalid(budget: Any, name: str) -> int | None:
    if budget is None:
        return None
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
        raise ToolDefinitionError(
            f"tool {name!r}: max_invalid must be a whole number of invalid calls (1 or more), or None "
            f"for no limit; got {budget!r}"
        )
    return budget


def _check_programmatic(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise ToolDefinitionError(f"tool {name!r}: programmatic must be True or False, got {value!r}")
    return value


class Tool:
    """A Python function plus what a model needs to call it.

    Calling the tool object calls the function, so ``get_weather("北京")`` still works.
    ``parameters=`` gives a JSON schema of the tool's own (from an MCP server, an
    OpenAPI spec) instead of one built from the type hints.
    """

    def __init__(
        self,
        func: Callable[..., Any],
        *,
        name: str | None = None,
        description: str | None = None,
        exclusive: bool = False,
        parameters: dict[str, Any] | None = None,
        requires_approval: bool | Callable[[dict[str, Any]], bool] = False,
        max_invalid: int | None = None,
        retry: Any = None,
        timeout: float | None = None,
        fallbacks: Iterable[Any] = (),
        progress: ProgressLabel = None,
        strict: bool | None = None,
        sync_to_thread: bool = True,
        defer_loading: bool | None = None,
        programmatic: bool = True,
        namespace: Namespace | None = None,
        idempotent: bool = False,
    ) -> None:
        name = _check_callable(func, name)
        # Not the wrapped object's __dict__: a callable instance's attributes would overwrite the tool's.
        functools.update_wrapper(self, func, updated=())
        doc = _docstring(func)
        self.__name__ = getattr(func, "__name__", name)
        self.__doc__ = doc
        self.func = func
        self._stands_for: Tool | None = None  # the tool a wrapper made by calling() is imported again as
        self.name = name
        self.exclusive = exclusive
        # Lesson 04's guards (conductor.guards) read these: a person approves a call first
        # (always, or when the predicate says so for the call's arguments), and the model may
        # send invalid arguments ``max_invalid`` times in a row before the tool is withdrawn.
        self.requires_approval = _check_requires_approval(requires_approval, name)
        self.max_invalid = _check_max_invalid(max_invalid, name)
        self.progress = progress
        # A durable run (conductor.durable) runs a call the process died in again only when this is True:
        # running it twice does no harm (a read, a write keyed by the call id). Otherwise a person decides.
        self.idempotent = _check_idempotent(idempotent, name)
        # May a program the model writes call it (llm.run(..., programmatic=True))? See conductor.programs.
        self.programmatic = _check_programmatic(programmatic, name)
        self.is_async = inspect.iscoroutinefunction(func) or inspect.iscoroutinefunction(_target(func))
        self.retry, self.timeout, self.fallbacks = None, None, ()
        if retry is not None or timeout is not None or fallbacks:
            from .retry import check_policy  # tenacity loads only for a tool that has a policy

            self.retry, self.timeout, self.fallbacks = check_policy(name, retry, timeout, fallbacks)
        # Lesson 03's policy (conductor.retry); a tool without one takes execution's fast path.
        self.guarded = self.retry is not None or self.timeout is not None or bool(self.fallbacks)
        self.sync_to_thread = _check_sync_to_thread(sync_to_thread, name, self.is_async, self.timeout)
        # Tool search (conductor.search): True keeps the definition out of the model's context until a
        # search loads it; False keeps it loaded even under tool_search=True; None leaves it to the run.
        self.defer_loading = _check_defer_loading(defer_loading, name)
        self.namespace = _check_namespace(namespace, name)  # Responses: sent inside this namespace
        doc_description, param_docs = _parse_docstring(doc, name)
        self.description = description or doc_description
        self.arguments_model: type[pydantic.BaseModel] | None = None
        self._validator: jsonschema.protocols.Validator | None = None
        if parameters is not None:
            self._validator = _schema_validator(parameters, func, name)
            self.parameters = copy.deepcopy(parameters)  # a copy the caller's later edits cannot change
        else:
            self.arguments_model = self._build_model(param_docs)
            self.parameters = self._build_schema()
        _check_progress(progress, name, self.parameters)
        self.strict_option = strict
        self.strict_parameters = _strict_parameters(name, self.parameters, strict)
        self.strict = self.strict_parameters is not None
        if not self.description:  # both APIs accept it, but the model then has only the name to go by
            logger.warning(
                "tool %r has no description: the model reads it to decide when to call the tool; "
                "add a docstring or pass description=",
                name,
            )

    def describe(self, arguments: dict[str, Any], earlier: int = 0) -> str:
        """What a call with these arguments is doing, for a progress display ("Checking the weather in Oslo…").

        ``earlier``: how many calls of this tool the conversation made before (a label
        function may say "Comparing…" for a second search). Without a ``progress=`` label,
        or when the arguments do not fit the label, it is "Calling <name>…".
        """
        plain = f"Calling {self.name}…"
        label = self.progress
        try:
            if callable(label):
                return str(label(arguments, earlier))
            if isinstance(label, str):
                return label.format_map(arguments)
        except Exception:  # noqa: BLE001 - a label must never break the call it describes
            logger.debug("tool %s: progress label failed for %r", self.name, arguments, exc_info=True)
        return plain

    def needs_approval(self, arguments: dict[str, Any]) -> bool:
        """Whether a person must approve a call with these (validated) arguments.

        A predicate that raises counts as "yes": when in doubt, ask.
        """
        rule = self.requires_approval
        if not callable(rule):
            return bool(rule)
        try:
            return bool(rule(arguments))
        except Exception:  # noqa: BLE001 - a broken predicate must not wave a call through
            logger.warning("tool %s: requires_approval raised for %r; asking for approval", self.name, arguments)
            return True

    def _build_model(self, param_docs: dict[str, str]) -> type[pydantic.BaseModel]:
        params = _parameters(self.func, self.name)
        try:
            hints = get_type_hints(_target(self.func), include_extras=True)
        except NameError as exc:
            raise ToolDefinitionError(f"tool {self.name!r}: a type hint cannot be resolved ({exc})") from exc
        fields: dict[str, Any] = {}
        for position, param in enumerate(params):
            if param.name not in hints:
                if position == 0 and param.name in ("self", "cls"):
                    raise ToolDefinitionError(
                        f"tool {self.name!r} is a method: decorated in the class body, it would ask the model "
                        f"for {param.name!r}. Leave it undecorated and make the tool from the method of an "
                        f"instance: `bank = Bank(); transfer = cd.tool(bank.{self.name})`"
                    )
                raise ToolDefinitionError(
                    f"tool {self.name!r}: parameter {param.name!r} has no type hint; add one, "
                    f"e.g. `{param.name}: str`, so the model knows what to send"
                )
            fields[param.name] = (hints[param.name], _field(param, param_docs.get(param.name)))
        config = pydantic.ConfigDict(extra="forbid", arbitrary_types_allowed=False)
        try:
            return pydantic.create_model(f"{self.name}_arguments", __config__=config, **fields)
        except (pydantic.PydanticSchemaGenerationError, pydantic.PydanticUserError, TypeError) as exc:
            raise ToolDefinitionError(
                f"tool {self.name!r}: a parameter type is not supported ({str(exc).splitlines()[0]}). "
                f"{_SUPPORTED_TYPES}"
            ) from exc

    def _build_schema(self) -> dict[str, Any]:
        assert self.arguments_model is not None
        try:
            schema = self.arguments_model.model_json_schema()
        except pydantic.errors.PydanticInvalidForJsonSchema as exc:
            raise ToolDefinitionError(
                f"tool {self.name!r}: a parameter type has no JSON schema ({str(exc).splitlines()[0]}). "
                f"{_SUPPORTED_TYPES}"
            ) from exc
        schema = _drop_titles(_inline_refs(schema))
        schema.pop("additionalProperties", None)
        schema.setdefault("properties", {})
        schema["required"] = schema.get("required", [])
        return schema

    # -- what the model sees -------------------------------------------------

    @property
    def spec(self) -> ToolSpec:
        return ToolSpec(self.name, self.description, self.parameters)

    @property
    def wire_parameters(self) -> dict[str, Any]:
        """The parameters schema sent to a model: the strict form for a strict tool."""
        return self.strict_parameters if self.strict_parameters is not None else self.parameters

    # The wire forms are the wire layer's (conductor.apis.tool_schemas); these name them on the tool.

    def openai_schema(self) -> dict[str, Any]:
        """The tool as an OpenAI Chat Completions function tool (``"strict": true`` when strict; else no flag)."""
        from .apis.tool_schemas import chat_tool

        return chat_tool(self)

    def responses_schema(self) -> dict[str, Any]:
        """The tool as an OpenAI Responses function tool (flat: no ``function`` wrapper)."""
        from .apis.tool_schemas import responses_tool

        return responses_tool(self)

    def anthropic_schema(self) -> dict[str, Any]:
        """The tool as an Anthropic Messages tool (``"strict": true`` when strict; else no flag)."""
        from .apis.tool_schemas import messages_tool

        return messages_tool(self)

    # -- running it ------------------------------------------------------------

    def validate(self, arguments: str | dict[str, Any]) -> dict[str, Any]:
        """Parse and validate the model's arguments; raise :class:`ToolArgumentsError` saying what is wrong."""
        if isinstance(arguments, str):
            try:
                arguments = loads_json(arguments or "{}")
            except json.JSONDecodeError as exc:
                raise ToolArgumentsError(
                    f"arguments for {self.name} are not valid JSON ({exc.msg} at position {exc.pos}); "
                    f"send a JSON object matching the schema"
                ) from exc
        if not isinstance(arguments, dict):
            raise ToolArgumentsError(f"arguments for {self.name} must be a JSON object, got {type(arguments).__name__}")
        if self.strict:
            arguments = drop_default_nulls(self.parameters, arguments)
        if self.arguments_model is None:
            return self._validate_with_schema(arguments)
        try:
            parsed = self.arguments_model.model_validate(arguments)
        except pydantic.ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in err['loc']) or 'arguments'}: {err['msg']}" for err in exc.errors()
            )
            raise ToolArgumentsError(f"invalid arguments for {self.name}: {problems}") from exc
        # Keep nested models as models: the function's hints asked for them.
        return {name: getattr(parsed, name) for name in type(parsed).model_fields}

    def _validate_with_schema(self, arguments: dict[str, Any]) -> dict[str, Any]:
        assert self._validator is not None
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err.absolute_path) or 'arguments'}: {err.message[:_MESSAGE_CHARS]}"
            for err in self._validator.iter_errors(arguments)
        )
        if problems:
            raise ToolArgumentsError(f"invalid arguments for {self.name}: {problems}")
        return arguments

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.func(*args, **kwargs)

    def invoke(self, arguments: dict[str, Any]) -> Any:
        """Run the function with validated arguments, blocking until it returns (async tools too)."""
        if not self.is_async:
            return self.func(**arguments)
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return asyncio.run(self.func(**arguments))
        # This thread already runs an event loop (Jupyter does): give the coroutine a loop of its own.
        with ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(asyncio.run, self.func(**arguments)).result()

    async def ainvoke(self, arguments: dict[str, Any]) -> Any:
        """Run the function on the event loop; sync tools go to a worker thread so they do not block it,
        unless declared ``sync_to_thread=False``."""
        if self.is_async:
            return await self.func(**arguments)
        if not self.sync_to_thread:
            return self.func(**arguments)
        return await asyncio.to_thread(self.func, **arguments)

    def with_policy(self, *, retry: Any = None, timeout: float | None = None, fallbacks: Iterable[Any] = ()) -> Tool:
        """A copy of this tool with a retry policy, a timeout and fallbacks (see :mod:`conductor.retry`).

        ``cd.tool(existing_tool, retry=...)`` does the same, so a course tool such as
        ``cd.scenarios.get_weather`` can be given a policy without redefining it.
        """
        return self.with_options(retry=retry, timeout=timeout, fallbacks=fallbacks)

    def with_options(self, **options: Any) -> Tool:
        """A copy of this tool with some of ``@cd.tool``'s options changed; the tool itself is left as it is.

        ``cd.tool(existing_tool, requires_approval=True, name="mail_search", ...)`` calls this, so a
        course tool or an MCP tool can be renamed (two servers offering the same name), made to ask
        for approval, described again or given another schema. Only the options passed change.
        """
        unknown = sorted(set(options) - _OPTIONS)
        if unknown:
            raise TypeError(f"tool {self.name!r}: unknown option(s) {', '.join(unknown)}; "
                            f"@cd.tool takes {', '.join(sorted(_OPTIONS))}")
        copied = copy.copy(self)
        copied.__dict__.pop("_anthropic_strict", None)  # made again from the copy's own schema
        if "name" in options:
            copied.name = _check_callable(self.func, options["name"])
            copied.__name__ = copied.name
        name = copied.name
        if "description" in options:
            copied.description = options["description"] or ""
        if "exclusive" in options:
            copied.exclusive = bool(options["exclusive"])
        if "idempotent" in options:
            copied.idempotent = _check_idempotent(options["idempotent"], name)
        if "requires_approval" in options:
            copied.requires_approval = _check_requires_approval(options["requires_approval"], name)
        if "max_invalid" in options:
            copied.max_invalid = _check_max_invalid(options["max_invalid"], name)
        if "parameters" in options and options["parameters"] is not None:
            # The caller's schema replaces the one from the hints: validated with jsonschema from now on.
            copied._validator = _schema_validator(options["parameters"], self.func, name)
            copied.parameters = copy.deepcopy(options["parameters"])
            copied.arguments_model = None
        if "progress" in options:
            copied.progress = options["progress"]
        if "programmatic" in options:
            copied.programmatic = _check_programmatic(options["programmatic"], name)
        _check_progress(copied.progress, name, copied.parameters)
        if {"strict", "parameters", "name"} & set(options):
            copied.strict_option = options.get("strict", self.strict_option)
            copied.strict_parameters = _strict_parameters(name, copied.parameters, copied.strict_option)
            copied.strict = copied.strict_parameters is not None
        policy = {key: options[key] for key in ("retry", "timeout", "fallbacks") if key in options}
        if policy:
            from .retry import check_policy

            copied.retry, copied.timeout, copied.fallbacks = check_policy(
                name, policy.get("retry", self.retry), policy.get("timeout", self.timeout),
                policy.get("fallbacks", self.fallbacks),
            )
            copied.guarded = copied.retry is not None or copied.timeout is not None or bool(copied.fallbacks)
        copied.sync_to_thread = _check_sync_to_thread(
            options.get("sync_to_thread", self.sync_to_thread), name, self.is_async, copied.timeout
        )
        if "defer_loading" in options:
            copied.defer_loading = _check_defer_loading(options["defer_loading"], name)
        if "namespace" in options:
            copied.namespace = _check_namespace(options["namespace"], name)
        return copied

    def calling(self, func: Callable[..., Any]) -> Tool:
        """A copy of this tool, every option kept, that calls ``func`` instead (a wrapper around its function:
        rate limits, progress). A paused run finds it again, in another process too, where this tool is."""
        copied = copy.copy(self)
        copied.func = func
        copied._stands_for = self._stands_for or self
        return copied

    def in_line(self) -> Tool:
        """A copy of this sync tool declared ``sync_to_thread=False``: run on the event loop, in-line."""
        return self.with_options(sync_to_thread=False)

    def reference(self) -> tuple[str, str] | None:
        """``(module, name)`` under which this very tool can be imported again, or None.

        A tool carries its function and a pydantic model built at run time, neither of
        which pickles, so a paused run keeps its tools by this reference (see
        :class:`conductor.rounds.PausedRun`). None when the module its function comes
        from does not hold it under a name: a tool made inside a function, say.
        """
        if self._stands_for is not None:
            return self._stands_for.reference()
        module = sys.modules.get(getattr(self, "__module__", None) or "")
        if module is None:
            return None
        qualname = self.__dict__.get("__qualname__", "")  # the function's, copied by update_wrapper
        if qualname and "<" not in qualname:
            try:
                if _attribute(module, qualname) is self:
                    return module.__name__, qualname
            except AttributeError:
                pass
        # A tool assigned under another name (weather = cd.tool(get_weather, retry=...)).
        names = [name for name, value in vars(module).copy().items() if value is self]
        return (module.__name__, names[0]) if names else None

    def __repr__(self) -> str:
        params = ", ".join(self.parameters.get("properties", {}))
        return f"<tool {self.name}({params})>"


def _attribute(owner: Any, qualname: str) -> Any:
    for part in qualname.split("."):
        owner = getattr(owner, part)
    return owner


def _check_namespace(namespace: Any, name: str) -> Namespace | None:
    if namespace is not None and not isinstance(namespace, Namespace):
        raise TypeError(f"tool {name!r}: namespace= takes a cd.tools.Namespace(name, description) or None, "
                        f"got {namespace!r}")
    return namespace


def _check_defer_loading(defer_loading: Any, name: str) -> bool | None:
    if defer_loading is not None and not isinstance(defer_loading, bool):
        raise TypeError(f"tool {name!r}: defer_loading= takes True, False or None, got {defer_loading!r}")
    return defer_loading


def _check_sync_to_thread(sync_to_thread: Any, name: str, is_async: bool, timeout: float | None) -> bool:
    if not isinstance(sync_to_thread, bool):
        raise TypeError(f"tool {name!r}: sync_to_thread= takes True or False, got {sync_to_thread!r}")
    if sync_to_thread:
        return True
    if is_async:
        raise ValueError(f"tool {name!r}: sync_to_thread=False is for a sync function; an async tool already runs "
                         "on the event loop: leave sync_to_thread out")
    if timeout is not None:
        raise ValueError(f"tool {name!r}: a timeout needs the call on a thread of its own (Python cannot interrupt "
                         "a sync function), and sync_to_thread=False runs it in-line: drop timeout= or "
                         "sync_to_thread=False")
    return False


def resolve_tool(module: str, name: str) -> Tool:
    """The tool a :meth:`Tool.reference` names, its module imported if need be.

    Raises ImportError or AttributeError when it is not there, and TypeError when what is there is not a tool.
    """
    found = _attribute(importlib.import_module(module), name)
    if not isinstance(found, Tool):
        raise TypeError(f"{module}.{name} is a {_type_name(found)}, not a tool made with @cd.tool")
    return found


def tool(
    func: Callable[..., Any] | None = _MISSING,
    *,
    name: str | None = _MISSING,
    description: str | None = _MISSING,
    exclusive: bool = _MISSING,
    parameters: dict[str, Any] | None = _MISSING,
    requires_approval: bool | Callable[[dict[str, Any]], bool] = _MISSING,
    max_invalid: int | None = _MISSING,
    retry: Any = _MISSING,
    timeout: float | None = _MISSING,
    fallbacks: Iterable[Any] = _MISSING,
    progress: ProgressLabel = _MISSING,
    strict: bool | None = _MISSING,
    sync_to_thread: bool = _MISSING,
    defer_loading: bool | None = _MISSING,
    programmatic: bool = _MISSING,
    namespace: Namespace | None = _MISSING,
    idempotent: bool = _MISSING,
) -> Any:
    """Decorate a function as a tool: ``@tool`` or ``@tool(name=..., exclusive=True)``.

    ``exclusive=True`` marks a tool that must not run alongside others in a
    parallel turn (it writes shared state, or depends on another call's effect).
    ``parameters=`` gives the tool's JSON schema explicitly (a tool defined
    elsewhere); arguments are then checked against it with ``jsonschema``.
    A ``functools.partial`` or a callable object needs ``name=``.
    ``requires_approval=True`` (or a predicate on the validated arguments, e.g.
    ``lambda args: args["amount"] > 100``) makes a run pause for a person's decision
    before the call runs; ``max_invalid=2`` withdraws the tool for the rest of a run
    after two invalid calls in a row (see :mod:`conductor.guards`).
    ``retry=cd.Retry(...)``, ``timeout=`` seconds and ``fallbacks=[...]`` (tools or
    functions taking the same arguments) make transient failures retried, a slow
    call an error result, and a spent tool answered from elsewhere (see :mod:`conductor.retry`).
    ``progress="Checking the weather in {city}…"`` is what a progress display shows while
    the call runs (fields are the tool's parameters), or a function of the arguments dict
    and the number of earlier calls of the tool; without it, "Calling <name>…".
    ``strict=None`` (the default) sends the tool strict when its schema can be made strict
    (the API then guarantees the arguments' shape; see :mod:`conductor.strict`), and logs once
    when it cannot; ``strict=True`` raises :class:`ToolDefinitionError` naming the parameter that
    blocks it; ``strict=False`` never sends it strict.
    ``sync_to_thread=False`` runs a sync function in-line on the event loop (``arun``, ``run_many``)
    instead of on a worker thread: for a function that never blocks (a lookup, arithmetic), it
    saves the hand-over to a thread and back; a function that waits (network, disk, sleep) would
    stall every other conversation on the loop, so leave it on a thread (the default).
    ``defer_loading=True`` keeps the tool's definition out of the model's context until a tool
    search loads it (see :mod:`conductor.search`); ``defer_loading=False`` keeps it loaded even
    when a run passes ``tool_search=True``, which defers every other tool.
    ``programmatic=False`` keeps the tool out of the programs a model writes with
    ``llm.run(..., programmatic=True)``: the model may still call it itself, one round at a time
    (see :mod:`conductor.programs`).
    ``namespace=cd.tools.Namespace("crm", "CRM tools: leads and deals.")`` sends the tool inside that
    namespace on the Responses API (see :class:`Namespace`); the other APIs send it as usual.
    ``idempotent=True`` says running the call twice does no harm: a durable run
    (:mod:`conductor.durable`) whose worker died during the call runs it again; without it
    the run waits for a person to decide.
    """

    given = {
        key: value for key, value in {
            "name": name, "description": description, "exclusive": exclusive, "parameters": parameters,
            "requires_approval": requires_approval, "max_invalid": max_invalid, "retry": retry, "timeout": timeout,
            "fallbacks": fallbacks, "progress": progress, "strict": strict, "sync_to_thread": sync_to_thread,
            "defer_loading": defer_loading,
            "programmatic": programmatic, "namespace": namespace, "idempotent": idempotent,
        }.items() if value is not _MISSING
    }

    def wrap(f: Callable[..., Any]) -> Tool:
        if isinstance(f, Tool):
            # Options given for a tool that already exists apply to a copy: silently keeping the original
            # would run a tool its caller marked requires_approval=True without asking.
            return f.with_options(**given) if given else f
        return Tool(f, **given)

    return wrap if func is _MISSING else wrap(func)


class ToolRegistry:
    """The tools offered in one run, looked up by name (an allowlist: nothing else runs)."""

    def __init__(self, tools: Iterable[Tool | Callable[..., Any]] = ()) -> None:
        self._tools: dict[str, Tool] = {}
        for item in tools:
            t = item if isinstance(item, Tool) else tool(item)
            if t.name in self._tools:
                raise ToolDefinitionError(f"two tools are named {t.name!r}; tool names must be unique in one run")
            self._tools[t.name] = t

    def __iter__(self):
        return iter(list(self._tools.values()))  # a copy: a tool search may add tools while a request is built

    def add(self, tool: Tool) -> None:
        """Offer one more tool from now on, after those already offered (a tool search loading it)."""
        if tool.name in self._tools:
            raise ToolDefinitionError(f"two tools are named {tool.name!r}; tool names must be unique in one run")
        self._tools[tool.name] = tool

    def __len__(self) -> int:
        return len(self._tools)

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    @property
    def names(self) -> list[str]:
        return list(self._tools)

    def get(self, name: str) -> Tool:
        """The tool called ``name``; a :class:`ToolArgumentsError` for the model lists the valid names."""
        try:
            return self._tools[name]
        except KeyError:
            valid = ", ".join(self._tools) or "(no tools are available)"
            raise ToolArgumentsError(f"unknown tool {name!r}; the available tools are: {valid}") from None

    def specs(self) -> list[ToolSpec]:
        return [t.spec for t in self._tools.values()]
