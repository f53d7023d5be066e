"""Questions of several parts: each part its own values, and a chain's next call from the first result.

Two kinds of several-part question, each read by a rule of its own:

* **one request, several values**: "Send 20 euros to Bob and 30 euros to Alice", "8,000 steps on
  Saturday and 12,000 on Sunday", "Convert 100 °F to Celsius and 5 miles to kilometers". The question
  is cut at its commas and "and"s; when every part holds a number of its own and, read alone (with
  what the whole question states for the rest, such as "at Main Street"), fills the tool, each part is
  one call with its own values, never a value of another part;
* **a chain**: "Look up UA 919 on 2026-03-09 and book the Kyoto room when it lands". A tool the question
  asks for lacks a value only an earlier result gives: a value of its documented format (the result's
  one ``HH:MM`` time for a start time, its date and time joined for an ISO date-time) or the result's
  one number whose name the question uses ("send its total": ``total_eur``).

Requests joined by "and" plus a verb ("book the room ... and add a task ...") are steps, read by
``policies.steps_of``; :data:`REQUEST_VERBS` is the list of verbs that start one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from ..types import ToolSpec
from .arguments import Filled, Parameter, name_words, parameters_of
from .formats import conforms, documented_format
from .language import stem, words

__all__ = ["REQUEST_VERBS", "segments", "segment_calls", "value_from_results"]

REQUEST_VERBS = (
    "book add send log schedule remind refill rent hire reserve check look find post convert create set pay email "
    "call buy order request cancel get show tell text message text play start stop turn put record track update "
    "delete remove move share invite notify ask tip water give"
).split()

# A comma inside a number ("8,000") or before a year ("March 12, 2026") cuts nothing.
_CUT = re.compile(r"\s*(?:(?:,(?!\d)|(?<!\d),)(?!\s*\d{4}\b)|[;\uff0c\uff1b\u3001])\s*(?:and\s+)?|\s+and\s+"
                  r"|\?\s+(?:and\s+)?(?=\S)|\s*\u548c\s*", re.IGNORECASE)


def segments(question: str) -> list[str]:
    """The question cut at its commas and "and"s; parts without a digit of their own are kept with the one before."""
    parts = [p.strip(" .?!。?!") for p in _CUT.split(question) if p and p.strip(" .?!。?!")]
    merged: list[str] = []
    for part in parts:
        if merged and not re.search(r"\d", part):
            merged[-1] = f"{merged[-1]} {part}"
        else:
            merged.append(part)
    return merged


def segment_calls(spec: ToolSpec, question: str,
                  plan: Callable[[ToolSpec, str, dict[str, Any] | None], list[dict[str, Any]] | Filled]
                  ) -> list[dict[str, Any]]:
    """One call per part for a question giving the same request several values; empty when it does not.

    ``plan`` reads one part's arguments (``arguments.plan_arguments``). A part takes what the whole question
    states for a parameter it does not state itself; a part that states none of the tool's numbers or
    options of its own, or that leaves a required value unstated, means the question is not of this kind.
    """
    cut = segments(question)
    # A part that starts with a verb of its own is another request ("... and log 7 hours of sleep"): a step.
    if any(part.split(" ", 1)[0].lower() in REQUEST_VERBS for part in cut[1:]):
        return []
    if len(cut) < 2 or any(len(part.split()) < 2 and not re.search(r"[\u4e00-\u9fff]", part) for part in cut):
        return []
    whole = plan(spec, question, None)
    shared = whole.arguments if isinstance(whole, Filled) else (whole[0] if whole else {})
    # The calls the whole question makes already: a part's own numbers and options all among them need no cut.
    made = set() if isinstance(whole, Filled) else {_key(v) for call in whole for v in _leaves(call)}
    calls: list[dict[str, Any]] = []
    kinds: set[frozenset[str]] = set()
    covered = 0
    verb = cut[0].split(" ", 1)[0]
    for index, part in enumerate(cut):
        # A later part is read with the request's verb before it: "Ben 7 euros" as "Tip Ben 7 euros".
        if index and verb.lower() in REQUEST_VERBS:
            part = f"{verb} {part}"
        own = plan(spec, part, None)
        stated = own.arguments if isinstance(own, Filled) else (own[0] if len(own) == 1 else {})
        kinds.add(_own_values(spec, stated))
        # Parts of one request state the same kinds of value ("20 euros to Bob", "30 euros to Alice"); "2 bags"
        # and "the heavier is 25 kg" are two facts of one request.
        if not _own_values(spec, stated) or len(kinds) > 1:
            return []
        if made and all(_key(stated[name]) in made for name in _own_values(spec, stated)):
            covered += 1
        merged = {**shared, **stated}
        parameters = parameters_of(spec.parameters)
        if any(p.required and p.name not in merged for p in parameters):
            return []
        ordered = {p.name: merged[p.name] for p in parameters if p.name in merged}
        if ordered not in calls:
            calls.append(ordered)
    return calls if len(calls) == len(cut) and covered < len(cut) else []


def _key(value: Any) -> str:
    """A value to compare across calls: 2, 2.0 and "2" (a postal code's digits) are one number."""
    if isinstance(value, str) and re.fullmatch(r"-?\d+(?:\.\d+)?", value.strip()):
        value = float(value)
    return repr(float(value)) if isinstance(value, (int, float)) and not isinstance(value, bool) else repr(value)


def _leaves(value: Any) -> list[Any]:
    """Every value inside a call's arguments, nested objects and lists included."""
    if isinstance(value, dict):
        return [leaf for item in value.values() for leaf in _leaves(item)]
    if isinstance(value, list):
        return [leaf for item in value for leaf in _leaves(item)]
    return [value]


def _own_values(spec: ToolSpec, stated: dict[str, Any]) -> frozenset[str]:
    """The numbers and options a part states (not text, which any part could hold), by parameter."""
    return frozenset(p.name for p in parameters_of(spec.parameters) if stated.get(p.name) is not None
                     and (p.kind in ("integer", "number") or "enum" in p.schema))


# A later step refers to an earlier result: "when it lands", "send its total", "from then", 那天.
_REFERS = re.compile(r"\b(?:it|its|that|then|them|this|the result)\b|它|那|这个结果|结果", re.IGNORECASE)


# -- a chain's next value, from a result ---------------------------------------------------------------------


def _scalars(data: Any) -> dict[str, Any]:
    if isinstance(data, list) and len(data) == 1:
        data = data[0]
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(v, (str, int, float)) and not isinstance(v, bool)}


def value_from_results(parameter: Parameter, results: Sequence[Any], question: str) -> Any:
    """The value a result gives for ``parameter`` by kind, or None: see the module's docstring."""
    if not _REFERS.search(question):
        return None
    fields = {k: v for data in results for k, v in _scalars(data).items()}
    kind = documented_format(parameter)
    if kind in ("date", "time"):
        found = {v for v in fields.values() if isinstance(v, str) and conforms(parameter, v)}
        return found.pop() if len(found) == 1 else None
    if kind == "datetime":
        dates = {v for v in fields.values() if isinstance(v, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", v)}
        times = {v for v in fields.values() if isinstance(v, str) and re.fullmatch(r"\d{2}:\d{2}", v)}
        return f"{dates.pop()}T{times.pop()}" if len(dates) == 1 and len(times) == 1 else None
    if parameter.kind in ("integer", "number") and "enum" not in parameter.schema:
        asked = {stem(w.casefold()) for w in words(question)}
        numbers = [(k, v) for k, v in fields.items() if isinstance(v, (int, float))
                   and {stem(w) for w in name_words(k)} & asked]
        return numbers[0][1] if len(numbers) == 1 else None
    return None
