"""Strict tool schemas: the form in which the APIs guarantee that arguments match the schema.

OpenAI (``"strict": true`` on Responses and Chat Completions) and Anthropic (strict tool use on
Messages) constrain the model's sampling to the schema, but only for schemas that follow their
rules: every object is closed (``"additionalProperties": false``) and lists every property in
``required``. A parameter that has a default is therefore sent as required *and nullable*, and
``null`` means "use the default" when the function is called (see :meth:`conductor.tools.Tool.validate`).

Written here rather than taken from the SDKs: ``openai.lib._pydantic.to_strict_json_schema``
(private) makes every property required but not nullable, so a default could never be used,
and it does not say which parameter stops a schema from being strict.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from typing import Any

__all__ = ["NotStrict", "drop_default_nulls", "fill_nulls", "loosen", "make_strict", "nullable", "strict_blocker"]


@dataclass(frozen=True)
class NotStrict(Exception):
    """A schema that cannot be made strict: where (a path of keys) and why."""

    path: tuple[str, ...]
    reason: str

    @property
    def parameter(self) -> str:
        """The tool parameter the blocking part belongs to ("" for the schema as a whole)."""
        return self.path[1] if len(self.path) > 1 and self.path[0] == "properties" else ""

    def __str__(self) -> str:
        where = f"parameter {self.parameter!r}" if self.parameter else "the schema"
        inside = "/".join(self.path[2:])
        return f"{where}{f' (at {inside})' if inside else ''} {self.reason}"


def make_strict(schema: dict[str, Any]) -> dict[str, Any]:
    """A strict copy of a tool's parameters schema (refs already inlined); raises :class:`NotStrict`."""
    return _strict(copy.deepcopy(schema), ())


def strict_blocker(schema: dict[str, Any]) -> NotStrict | None:
    """Why the schema cannot be made strict, or None when it can."""
    try:
        make_strict(schema)
    except NotStrict as blocker:
        return blocker
    return None


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` that also accepts null, in the form the APIs accept for it."""
    if _accepts_null(schema):
        return schema
    if "anyOf" in schema:
        return {**schema, "anyOf": [*schema["anyOf"], {"type": "null"}]}
    # A union, not "type": [..., "null"]: every API accepts it, for enums and nested objects too,
    # and it keeps the branch's own keywords (enum, minimum, ...) apart from null.
    description = schema.get("description")
    branch = {k: v for k, v in schema.items() if k != "description"}
    wrapped: dict[str, Any] = {"anyOf": [branch, {"type": "null"}]}
    if description:
        wrapped["description"] = description
    return wrapped


def _accepts_null(schema: dict[str, Any]) -> bool:
    kind = schema.get("type")
    if kind == "null" or (isinstance(kind, list) and "null" in kind):
        return True
    return any(_accepts_null(branch) for branch in schema.get("anyOf", ()))


def _strict(schema: dict[str, Any], path: tuple[str, ...]) -> dict[str, Any]:
    for keyword in ("oneOf", "allOf", "not", "if", "patternProperties", "prefixItems", "$ref"):
        if keyword in schema:
            raise NotStrict(path, f"uses {keyword!r}, which strict schemas do not support")
    _default_into_description(schema)
    if "anyOf" in schema:
        schema["anyOf"] = [_strict(branch, (*path, "anyOf", str(i))) for i, branch in enumerate(schema["anyOf"])]
    kinds = schema.get("type")
    kinds = set(kinds) if isinstance(kinds, list) else {kinds}
    if "object" in kinds or "properties" in schema:
        _strict_object(schema, path)
    if "array" in kinds:
        if not isinstance(schema.get("items"), dict) or not schema["items"]:
            raise NotStrict(path, "is a list of anything; give its items a type, e.g. list[str]")
        schema["items"] = _strict(schema["items"], (*path, "items"))
    return schema


def _strict_object(schema: dict[str, Any], path: tuple[str, ...]) -> None:
    extra = schema.get("additionalProperties")
    if extra not in (None, False):
        raise NotStrict(path, "takes keys of any name (a free-form dict); a strict schema lists every key: "
                              "use a pydantic model or a TypedDict")
    properties = schema.get("properties")
    if properties is None:
        if path:  # the top level may be an empty object: a tool without parameters
            raise NotStrict(path, "is an object with no listed keys (a free-form dict); use a pydantic model "
                                  "or a TypedDict")
        properties = {}
    required = set(schema.get("required", ()))
    schema["properties"] = {
        key: (child if key in required else nullable(child))
        for key, child in ((key, _strict(value, (*path, "properties", key))) for key, value in properties.items())
    }
    schema["required"] = list(properties)
    schema["additionalProperties"] = False


def _default_into_description(schema: dict[str, Any]) -> None:
    """A strict schema has no optional keys: the default moves into the description the model reads."""
    if "default" not in schema:
        return
    default = schema.pop("default")
    if default is None:
        return  # null already means "not given"
    shown = json.dumps(default, ensure_ascii=False)
    description = schema.get("description", "").rstrip()
    schema["description"] = f"{description} (null for the default, {shown})" if description else f"Null for the default, {shown}."


def loosen(schema: dict[str, Any]) -> dict[str, Any]:
    """A strict schema read back as a plain one: a key that may be null is optional, ``X or null`` is ``X``.

    The offline model reads tools this way, so a strict tool asks it for what the plain one did;
    :func:`fill_nulls` then sends null for every key it leaves out, as a strict schema requires.
    """
    schema = dict(schema)
    branches = schema.get("anyOf")
    if isinstance(branches, list):
        kept = [loosen(b) for b in branches if b != {"type": "null"}]
        if len(kept) == 1 and len(kept) < len(branches):
            schema.pop("anyOf")
            schema = {**kept[0], **schema}
        else:
            schema["anyOf"] = kept if len(kept) < len(branches) else [loosen(b) for b in branches]
    properties = schema.get("properties")
    if isinstance(properties, dict):
        schema["required"] = [k for k in schema.get("required", ()) if not _accepts_null(properties.get(k, {}))]
        schema["properties"] = {k: loosen(v) for k, v in properties.items()}
    if isinstance(schema.get("items"), dict):
        schema["items"] = loosen(schema["items"])
    return schema


def fill_nulls(schema: dict[str, Any], value: Any) -> Any:
    """``value`` with null for every optional key of ``schema`` (a :func:`loosen`-ed one) that it leaves out.

    A required key left out stays out: a call without it is what the model sent, and validation says so.
    """
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [fill_nulls(schema["items"], item) for item in value]
    if not isinstance(value, dict):
        return value
    shape = _object_shape(schema, value)
    if shape is None:
        return value
    filled = {key: fill_nulls(shape["properties"].get(key, {}), item) for key, item in value.items()}
    required = set(shape.get("required", ()))
    return {**filled, **{key: None for key in shape["properties"] if key not in filled and key not in required}}


def drop_default_nulls(schema: dict[str, Any], value: Any) -> Any:
    """The inverse of :func:`fill_nulls`: ``value`` without the nulls sent for keys ``schema`` leaves
    optional, since a strict call's null means "the default" (nested objects and lists too)."""
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [drop_default_nulls(schema["items"], item) for item in value]
    if not isinstance(value, dict):
        return value
    shape = _object_shape(schema, value)
    if shape is None:
        return value
    required = set(shape.get("required", ()))
    return {
        key: drop_default_nulls(shape["properties"].get(key, {}), item)
        for key, item in value.items()
        if item is not None or key in required
    }


def _object_shape(schema: dict[str, Any], value: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """The object schema that lists a value's keys: the schema itself, or its object branch. In a union
    of objects (``Circle | Square``), the branch ``value`` fits: each of its keys a property, its constants
    matched, its required keys present; the first branch when none fits."""
    shapes = [o for o in (schema, *schema.get("anyOf", ())) if isinstance(o.get("properties"), dict)]
    if len(shapes) > 1 and value is not None:
        fitting = [o for o in shapes if _fits(o, value)]
        complete = [o for o in fitting if set(o.get("required", ())) <= set(value)]
        return (complete or fitting or shapes)[0]
    return shapes[0] if shapes else None


def _fits(shape: dict[str, Any], value: dict[str, Any]) -> bool:
    """Every key of ``value`` is a property of ``shape``, and every constant or enum it holds matches."""
    properties = shape["properties"]
    if not set(value) <= set(properties):
        return False
    for key, item in value.items():
        allowed = properties[key].get("enum", [properties[key]["const"]] if "const" in properties[key] else None)
        if allowed is not None and item is not None and item not in allowed:  # null: the default, any branch
            return False
    return True
