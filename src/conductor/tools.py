"""``@tool``: turn a typed, documented Python function into a tool a model can call.

The JSON schema comes from the type hints through pydantic (so enums, optional
parameters, lists and nested models work the way pydantic users expect), the
descriptions from the docstring (Google style ``Args:`` section). The same
pydantic model validates the model's arguments before the function runs.
"""

from __future__ import annotations

import asyncio
import copy
import functools
import inspect
import json
import re
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import is_dataclass, asdict
from typing import Any, get_type_hints

import pydantic

from .types import ToolSpec

__all__ = ["Tool", "tool", "ToolDefinitionError", "ToolArgumentsError", "ToolRegistry", "render_output"]

_NAME_RE = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")  # the rule both APIs apply to tool names


class ToolDefinitionError(TypeError):
    """A function cannot become a tool as written; the message says what to change."""


class ToolArgumentsError(ValueError):
    """The model's arguments for a tool are not valid; the message is meant for the model."""


def _parse_docstring(doc: str) -> tuple[str, dict[str, str]]:
    """Split a Google-style docstring into (description, {param: description})."""
    doc = inspect.cleandoc(doc)
    params: dict[str, str] = {}
    section = re.split(r"^\s*(?:Args|Arguments|Parameters):\s*$", doc, maxsplit=1, flags=re.M)
    description = section[0].strip()
    if len(section) == 2:
        current = None
        for line in section[1].splitlines():
            if re.match(r"^\s*(Returns|Raises|Yields|Examples?|Notes?):\s*$", line):
                break
            match = re.match(r"^\s*(\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$", line)
            if match:
                current = match.group(1)
                params[current] = match.group(2).strip()
            elif current and line.strip():
                params[current] += " " + line.strip()
    # The description is the text before the first blank line of the remaining prose.
    description = " ".join(description.split("\n\n")[0].split())
    return description, params


def _inline_refs(schema: dict[str, Any]) -> dict[str, Any]:
    """Replace ``$ref`` pointers by their definitions.

    Nested models give pydantic ``$defs``; inlining keeps the schema readable in a
    lesson and accepted by every OpenAI-compatible server, some of which ignore refs.
    """
    defs = schema.pop("$defs", {})

    def resolve(node: Any) -> Any:
        if isinstance(node, dict):
            if "$ref" in node:
                target = defs[node["$ref"].rsplit("/", 1)[-1]]
                merged = {**resolve(copy.deepcopy(target)), **{k: v for k, v in node.items() if k != "$ref"}}
                return merged
            return {k: resolve(v) for k, v in node.items()}
        if isinstance(node, list):
            return [resolve(v) for v in node]
        return node

    return resolve(schema)


def _drop_titles(node: Any) -> Any:
    """Remove pydantic's auto-generated ``title`` keys: noise the model does not need."""
    if isinstance(node, dict):
        return {k: _drop_titles(v) for k, v in node.items() if not (k == "title" and isinstance(v, str))}
    if isinstance(node, list):
        return [_drop_titles(v) for v in node]
    return node


def render_output(value: Any) -> str:
    """Turn whatever a tool returned into the text sent back to the model.

    Strings go as they are, ``None`` as an empty string, everything else as JSON
    (pydantic models and dataclasses included) with non-ASCII kept readable.
    """
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, pydantic.BaseModel):
        return value.model_dump_json()
    if is_dataclass(value) and not isinstance(value, type):
        value = asdict(value)
    return json.dumps(value, ensure_ascii=False, default=str)


class Tool:
    """A Python function plus what a model needs to call it.

    Calling the tool object calls the function, so ``get_weather("北京")`` still works.
    """

    def __init__(
        self,
        func: Callable[..., Any],
        *,
        name: str | None = None,
        description: str | None = None,
        exclusive: bool = False,
    ) -> None:
        self.func = func
        self.name = name or func.__name__
        self.exclusive = exclusive
        self.is_async = inspect.iscoroutinefunction(func)
        functools.update_wrapper(self, func)
        if not _NAME_RE.match(self.name):
            raise ToolDefinitionError(
                f"tool name {self.name!r} is not allowed: use 1-64 letters, digits, '_' or '-' "
                f"(pass @tool(name='...') to choose another)"
            )
        doc_description, param_docs = _parse_docstring(func.__doc__ or "")
        self.description = description or doc_description
        if not self.description:
            raise ToolDefinitionError(
                f"tool {self.name!r} has no docstring: the model reads it to decide when to call the tool. "
                f'Add one, e.g. """Get today\'s weather for a city.""", or pass @tool(description=...).'
            )
        self.arguments_model = self._build_model(param_docs)
        self.parameters = self._build_schema()

    def _build_model(self, param_docs: dict[str, str]) -> type[pydantic.BaseModel]:
        signature = inspect.signature(self.func)
        try:
            hints = get_type_hints(self.func, include_extras=True)
        except NameError as exc:
            raise ToolDefinitionError(f"tool {self.name!r}: a type hint cannot be resolved ({exc})") from exc
        fields: dict[str, Any] = {}
        for param in signature.parameters.values():
            if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
                raise ToolDefinitionError(
                    f"tool {self.name!r}: *{param.name} / **{param.name} cannot be described to a model; "
                    f"list each parameter with its type instead"
                )
            if param.name not in hints:
                raise ToolDefinitionError(
                    f"tool {self.name!r}: parameter {param.name!r} has no type hint; add one, "
                    f"e.g. `{param.name}: str`, so the model knows what to send"
                )
            default = ... if param.default is param.empty else param.default
            fields[param.name] = (
                hints[param.name],
                pydantic.Field(default=default, description=param_docs.get(param.name)),
            )
        config = pydantic.ConfigDict(extra="forbid", arbitrary_types_allowed=False)
        try:
            return pydantic.create_model(f"{self.name}_arguments", __config__=config, **fields)
        except (pydantic.PydanticSchemaGenerationError, TypeError) as exc:
            raise ToolDefinitionError(
                f"tool {self.name!r}: a parameter type is not supported ({str(exc).splitlines()[0]}). "
                f"Use str, int, float, bool, Literal, Enum, list, dict, a pydantic model or a dataclass"
            ) from exc

    def _build_schema(self) -> dict[str, Any]:
        try:
            schema = self.arguments_model.model_json_schema()
        except pydantic.errors.PydanticInvalidForJsonSchema as exc:
            raise ToolDefinitionError(
                f"tool {self.name!r}: a parameter type has no JSON schema ({str(exc).splitlines()[0]}). "
                f"Use str, int, float, bool, Literal, Enum, list, dict, a pydantic model or a dataclass"
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

    def openai_schema(self) -> dict[str, Any]:
        """The tool as an OpenAI Chat Completions function tool."""
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": self.parameters},
        }

    def anthropic_schema(self) -> dict[str, Any]:
        """The tool as an Anthropic Messages tool."""
        return {"name": self.name, "description": self.description, "input_schema": self.parameters}

    # -- running it ------------------------------------------------------------

    def validate(self, arguments: str | dict[str, Any]) -> dict[str, Any]:
        """Parse and validate the model's arguments; raise :class:`ToolArgumentsError` saying what is wrong."""
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments or "{}")
            except json.JSONDecodeError as exc:
                raise ToolArgumentsError(
                    f"arguments for {self.name} are not valid JSON ({exc.msg} at position {exc.pos}); "
                    f"send a JSON object matching the schema"
                ) from exc
        if not isinstance(arguments, dict):
            raise ToolArgumentsError(f"arguments for {self.name} must be a JSON object, got {type(arguments).__name__}")
        try:
            parsed = self.arguments_model.model_validate(arguments)
        except pydantic.ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in err['loc']) or 'arguments'}: {err['msg']}" for err in exc.errors()
            )
            raise ToolArgumentsError(f"invalid arguments for {self.name}: {problems}") from exc
        # Keep nested models as models: the function's hints asked for them.
        return {name: getattr(parsed, name) for name in type(parsed).model_fields}

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
        """Run the function on the event loop; sync tools go to a worker thread so they do not block it."""
        if self.is_async:
            return await self.func(**arguments)
        return await asyncio.to_thread(self.func, **arguments)

    def __repr__(self) -> str:
        params = ", ".join(self.parameters.get("properties", {}))
        return f"<tool {self.name}({params})>"


def tool(
    func: Callable[..., Any] | None = None,
    *,
    name: str | None = None,
    description: str | None = None,
    exclusive: bool = False,
) -> Any:
    """Decorate a function as a tool: ``@tool`` or ``@tool(name=..., exclusive=True)``.

    ``exclusive=True`` marks a tool that must not run alongside others in a
    parallel turn (it writes shared state, or depends on another call's effect).
    """

    def wrap(f: Callable[..., Any]) -> Tool:
        if isinstance(f, Tool):
            return f
        return Tool(f, name=name, description=description, exclusive=exclusive)

    return wrap(func) if func is not None else wrap


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
        return iter(self._tools.values())

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

