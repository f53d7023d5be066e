"""A tool's parameters as the stand-in reads them from its schema: name, resolved schema, required.

Below ``arguments`` and ``formats``, which both read parameters with it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..wording import name_words
from .language import STOPWORDS, stem


@dataclass(frozen=True)
class Parameter:
    """One parameter as the model reads it from the schema."""

    name: str
    schema: dict[str, Any]
    required: bool

    @property
    def kind(self) -> str:
        """The JSON type; the non-null one of a list such as ``["string", "null"]``."""
        kind = self.schema.get("type", "string")
        if isinstance(kind, list):
            kind = next((k for k in kind if k != "null"), "string")
        return str(kind)

    @property
    def description(self) -> str:
        return str(self.schema.get("description", ""))

    @property
    def terms(self) -> set[str]:
        """Its name's words and its description's words, stemmed."""
        described = re.findall(r"[a-z0-9]+", self.description.lower())
        return {stem(w) for w in [*name_words(self.name), *described] if w not in STOPWORDS or w in ("from", "to")}


def _resolved(schema: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    """The schema with ``$ref`` followed and the non-null branch of ``anyOf`` (``X | None``) taken."""
    if "$ref" in schema:
        target: Any = root
        for part in str(schema["$ref"]).lstrip("#/").split("/"):
            target = target.get(part, {}) if isinstance(target, dict) else {}
        schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
    for option in schema.get("anyOf", ()):
        if option.get("type") != "null":
            return {**{k: v for k, v in schema.items() if k != "anyOf"}, **_resolved(option, root)}
    return schema


def parameters_of(schema: dict[str, Any], root: dict[str, Any] | None = None) -> list[Parameter]:
    """The parameters of an object schema, in order, resolved."""
    root = schema if root is None else root
    required = set(schema.get("required", ()))
    properties = schema.get("properties", {})
    return [Parameter(name, _resolved(sub, root), name in required) for name, sub in properties.items()]
