"""The category word lists: nothing lost from the old lists, each term in one category, every list usable."""

import re
from collections import Counter

import pytest

from conductor.offline.arguments import _CATEGORY_NAMES as OLD_NAMES
from conductor.offline.arguments import _CATEGORY_WORDS as OLD
from conductor.offline.categories import CATEGORY_NAMES, CATEGORY_WORDS

NEW_CATEGORIES = sorted(set(CATEGORY_WORDS) - set(OLD))
ENGLISH_TERM = re.compile(r"[a-z0-9]+(?:_[a-z0-9]+)*")


def english(category: str) -> list[str]:
    """The category's English terms (the ASCII ones)."""
    return [t for t in CATEGORY_WORDS[category].split() if t.isascii()]


def chinese(category: str) -> list[str]:
    """The category's Chinese terms."""
    return [t for t in CATEGORY_WORDS[category].split() if not t.isascii()]


@pytest.mark.parametrize("category", sorted(OLD))
def test_old_terms_are_kept_in_their_category(category: str) -> None:
    assert set(OLD[category].split()) <= set(CATEGORY_WORDS[category].split())


@pytest.mark.parametrize("category", sorted(OLD_NAMES))
def test_old_parameter_names_are_kept(category: str) -> None:
    assert set(OLD_NAMES[category]) <= CATEGORY_NAMES[category]


def test_no_term_is_in_two_categories() -> None:
    counts = Counter(term for text in CATEGORY_WORDS.values() for term in set(text.split()))
    assert [term for term, n in counts.items() if n > 1] == []


def test_no_term_is_listed_twice_in_its_category() -> None:
    for category, text in CATEGORY_WORDS.items():
        terms = text.split()
        assert len(terms) == len(set(terms)), category


def test_new_categories_exist() -> None:
    assert {"cuisine", "genre", "instrument", "fruit", "vegetable", "drink", "flower", "plant", "vehicle", "fabric",
            "pest", "profession", "skill", "clothing", "breed", "event", "flavour", "bread", "cheese",
            "symptom"} <= set(NEW_CATEGORIES)


@pytest.mark.parametrize("category", NEW_CATEGORIES)
def test_new_categories_are_full_lists(category: str) -> None:
    assert 40 <= len(english(category)) <= 150
    assert 10 <= len(chinese(category)) <= 40


@pytest.mark.parametrize("category", ["sport", "colour"])
def test_sport_and_colour_are_extended(category: str) -> None:
    old = [t for t in OLD[category].split() if t.isascii()]
    assert len(english(category)) >= len(old) + 30


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


def test_parameter_names_are_frozen() -> None:
    assert all(isinstance(names, frozenset) for names in CATEGORY_NAMES.values())
