"""The category word lists: each term in one category, written so the model can match it, every list usable."""

import re
from collections import Counter

import pytest

from conductor.offline.arguments import Parameter, category_values
from conductor.offline.categories import CATEGORY_NAMES, CATEGORY_WORDS

ENGLISH_TERM = re.compile(r"[a-z0-9]+(?:_[a-z0-9]+)*")


def english(category: str) -> list[str]:
    """The category's English terms (the ASCII ones)."""
    return [t for t in CATEGORY_WORDS[category].split() if t.isascii()]


def test_no_term_is_in_two_categories() -> None:
    counts = Counter(term for text in CATEGORY_WORDS.values() for term in set(text.split()))
    assert [term for term, n in counts.items() if n > 1] == []


def test_no_term_is_listed_twice_in_its_category() -> None:
    for category, text in CATEGORY_WORDS.items():
        terms = text.split()
        assert len(terms) == len(set(terms)), category


@pytest.mark.parametrize("category", sorted(CATEGORY_WORDS))
def test_terms_are_lowercase_words_joined_by_underscores(category: str) -> None:
    # The model compares lower-cased text and turns "_" into a space; a hyphen would never match.
    for term in CATEGORY_WORDS[category].split():
        assert term == term.lower() and "-" not in term, term
        if term.isascii():
            assert ENGLISH_TERM.fullmatch(term), term


def test_every_category_has_parameter_names() -> None:
    assert set(CATEGORY_NAMES) == set(CATEGORY_WORDS)
    assert all(CATEGORY_NAMES.values())


def test_parameter_names_are_single_words_owned_by_one_category() -> None:
    # A parameter's name is split into words before it is compared, so "event_type" could never match.
    counts = Counter(name for names in CATEGORY_NAMES.values() for name in names)
    assert [name for name, n in counts.items() if n > 1] == []
    assert all(re.fullmatch(r"[a-z]+", name) for name in counts)
    assert "title" not in counts and "language" not in counts  # books and spoken languages use these


@pytest.mark.parametrize("category", sorted(CATEGORY_WORDS))
def test_a_parameter_named_after_a_category_takes_its_words(category: str) -> None:
    """The longest English term of each category is found, as written, for a parameter named after it."""
    name = sorted(CATEGORY_NAMES[category])[0]
    description = "The school subject." if category == "subject" else f"The {name}."
    term = max(english(category), key=len).replace("_", " ")
    parameter = Parameter(name, {"type": "string", "description": description}, True)
    assert category_values(parameter, f"I'd like the {term} please") == [term]
