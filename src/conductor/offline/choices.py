"""A value outside a ``Literal`` or ``Enum``'s choices: asked about, naming the choices, never sent.

"Reserve a business class seat" for ``seat_class: Literal["first", "second"]``, "the random channel" for
``channel: Literal["general", "engineering", "sales"]``, "from T5" for ``terminal: Literal["T1", "T2", "T3"]``:
the question names a value of the parameter's kind that is not one of its choices. A careful model does not
drop it and call without it (an optional parameter would silently take its default), nor call with it (the
tool would reject it): it says which choices there are. Two signs tell such a value:

* a word right before the parameter's own noun ("business class", "parental leave", "Paris room"), the noun
  being a word of its name or the thing its description says it is a kind of ("What kind of leave");
* a code of the options' own shape ("T5" beside T1, T2, T3).
"""

from __future__ import annotations

import re
from typing import Any

from ..types import ToolSpec
from .arguments import Parameter, concepts_of, name_words, option_named, parameters_of
from .language import STOPWORDS

__all__ = ["outside_choices"]

_KIND_OF = re.compile(r"\b(?:kind|type|sort|size|class|category)\s+of\s+([a-z]+)", re.IGNORECASE)
_NOT_QUALIFIERS = STOPWORDS | frozenset("a an the my our your this that which what new next one any some per".split())


def _nouns(parameter: Parameter) -> set[str]:
    """The words a value of this parameter is said before: its name's words, and "leave" in "What kind of leave"."""
    own = {w.lower() for w in name_words(parameter.name) if len(w) >= 3} - {"kind", "type", "category"}
    return own | {m.lower() for m in _KIND_OF.findall(parameter.description)}


def _shape(text: str) -> str:
    return re.sub(r"[A-Z]+", "A", re.sub(r"[a-z]+", "a", re.sub(r"\d+", "9", text)))


def _outside(parameter: Parameter, question: str) -> bool:
    options = [str(o) for o in parameter.schema.get("enum", ())]
    folded = {o.casefold() for o in options}
    if not options or any(option_named(question, o) for o in options):
        return False
    shapes = {_shape(o) for o in options if re.search(r"\d", o) and re.search(r"[A-Za-z]", o)}
    if any(_shape(t) in shapes and t.casefold() not in folded for t in re.findall(r"[A-Za-z0-9]+", question)):
        return True
    for noun in _nouns(parameter):
        for qualifier in re.findall(rf"\b([A-Za-z]+)[\s-]+{re.escape(noun)}s?\b", question, re.IGNORECASE):
            word = qualifier.casefold()
            if word in _NOT_QUALIFIERS or word in folded or concepts_of(word) & set().union(
                    *(concepts_of(o.casefold()) for o in options)):
                continue
            return True
    return False


def outside_choices(spec: ToolSpec, question: str, arguments: dict[str, Any]) -> list[Parameter]:
    """The parameters with fixed choices that the arguments leave out and the question names another value for."""
    return [p for p in parameters_of(spec.parameters)
            if "enum" in p.schema and p.name not in arguments and _outside(p, question)]
