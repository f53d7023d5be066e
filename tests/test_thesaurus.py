"""The thesaurus of enum options: the table's shape, and look-ups that ignore case, "_" and "-"."""

from __future__ import annotations

from collections import Counter

import pytest

from conductor.offline.thesaurus import SYNONYM_GROUPS, groups_of, same_option


def test_no_entry_is_in_two_groups():
    counts = Counter(entry for group in SYNONYM_GROUPS for entry in group)
    assert [entry for entry, count in counts.items() if count > 1] == []


def test_every_entry_is_lowercase_stripped_and_single_spaced():
    bad = [entry for group in SYNONYM_GROUPS for entry in group if entry != " ".join(entry.lower().split())]
    assert bad == []


def test_no_entry_holds_a_character_that_look_ups_read_as_a_space():
    # A look-up turns "_" and "-" into spaces, so an entry holding one could never be found.
    assert [entry for group in SYNONYM_GROUPS for entry in group if "_" in entry or "-" in entry] == []


def test_the_table_is_large_and_every_group_names_one_option_a_few_ways():
    assert len(SYNONYM_GROUPS) >= 350
    assert [sorted(group) for group in SYNONYM_GROUPS if not 2 <= len(group) <= 12] == []


@pytest.mark.parametrize(("word", "option"), [
    ("annual", "year"),
    ("motorbike", "motorcycle"),
    ("dupe", "duplicate"),
    ("Salt_Water", "saltwater"),
    ("salt-water", "SALTWATER"),
    ("Weekends", "weekend"),
    ("A&E", "emergency"),
    ("colour", "color"),
    ("monthly", "monthly"),
])
def test_same_option_finds_everyday_phrasings(word: str, option: str):
    assert same_option(word, option)
    assert same_option(option, word)


@pytest.mark.parametrize(("word", "option"), [
    ("year", "month"),
    ("small", "large"),
    ("bike", "motorcycle"),
    ("unknown word", "year"),
])
def test_same_option_keeps_different_options_apart(word: str, option: str):
    assert not same_option(word, option)


def test_groups_of_returns_the_one_group_or_nothing():
    (group,) = groups_of("Per_Annum")
    assert {"year", "annual", "per annum"} <= group
    assert groups_of("no such phrase") == ()
