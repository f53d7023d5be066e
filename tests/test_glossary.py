"""The Chinese glossary: its shape, and Chinese questions that find tools on everyday domains."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any, Literal

import pytest

import conductor as cd
from conductor.offline import LatencyModel, OfflineModel
from conductor import glossary
from conductor.glossary import CHINESE_GLOSSARY
from conductor.offline.thesaurus import groups_of

_CJK_ONLY = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
_ENGLISH = re.compile(r"[a-z0-9]+(?:[ '\-][a-z0-9]+)*")


def test_every_key_is_chinese_characters_only():
    assert [key for key in CHINESE_GLOSSARY if not _CJK_ONLY.fullmatch(key)] == []


def test_every_gloss_is_a_tuple_of_lowercase_english_words():
    bad = {key: gloss for key, gloss in CHINESE_GLOSSARY.items()
           if not isinstance(gloss, tuple) or not gloss or not all(_ENGLISH.fullmatch(word) for word in gloss)}
    assert bad == {}


def test_the_source_has_no_duplicate_keys():
    # A dict literal keeps the last of two equal keys silently, so read the source, not the dict.
    tree = ast.parse(Path(glossary.__file__).read_text(encoding="utf-8"))
    literals = [node for node in ast.walk(tree) if isinstance(node, ast.Dict) and node.keys and node.keys[0]]
    keys = [key.value for literal in literals for key in literal.keys if isinstance(key, ast.Constant)]
    duplicates = sorted({key for key in keys if keys.count(key) > 1})
    assert duplicates == []
    assert len(keys) == len(CHINESE_GLOSSARY)


def test_the_enum_option_words_add_only_new_keys():
    # Merged into CHINESE_GLOSSARY, a key of both lists would silently replace the everyday word's glosses.
    assert sorted(glossary.ENUM_OPTION_WORDS.keys() & glossary.EVERYDAY_WORDS.keys()) == []
    assert CHINESE_GLOSSARY == {**glossary.EVERYDAY_WORDS, **glossary.ENUM_OPTION_WORDS}
    assert len(glossary.ENUM_OPTION_WORDS) >= 250


def test_enum_option_glosses_are_lowercase():
    assert [key for key, gloss in glossary.ENUM_OPTION_WORDS.items() if any(w != w.lower() for w in gloss)] == []


# Words of the enum option list, each with a gloss the thesaurus knows, so it reaches its option's group.
@pytest.mark.parametrize("word", [
    "每日", "周卡", "包月", "年卡", "季度", "柴油", "汽油", "电动", "混动", "一等座", "左耳", "双耳", "淡水",
    "海水", "超大", "新手", "婴儿", "刷卡", "次日达", "已解决", "无法复现", "发错货", "套房", "摩托车", "微辣",
    "全熟", "急诊室", "重症监护",
])
def test_a_sample_of_enum_option_words_reaches_a_thesaurus_group(word):
    assert any(groups_of(gloss) for gloss in glossary.ENUM_OPTION_WORDS[word])


# Tools on domains a learner might write about, each asked about in Chinese.

@cd.tool
def book_vet_visit(pet: Literal["cat", "dog", "rabbit"]) -> str:
    """Book a veterinary visit for a pet.

    Args:
        pet: Which animal needs the vet.
    """
    return "booked"


@cd.tool
def backup_database(database: str) -> str:
    """Start a backup of a database.

    Args:
        database: Name of the database.
    """
    return "started"


@cd.tool
def pay_utility_bill(utility: Literal["electricity", "water", "gas"]) -> str:
    """Pay this month's household utility bill.

    Args:
        utility: Which utility to pay.
    """
    return "paid"


@cd.tool
def order_coffee(size: Literal["small", "medium", "large"]) -> str:
    """Order a coffee to pick up.

    Args:
        size: Cup size.
    """
    return "ordered"


@cd.tool
def request_repair(appliance: Literal["fridge", "oven", "dishwasher", "dryer"]) -> str:
    """Ask the landlord to repair a broken appliance.

    Args:
        appliance: The appliance that is broken.
    """
    return "requested"


@cd.tool
def planet_visible(planet: Literal["mercury", "venus", "mars", "jupiter", "saturn"]) -> str:
    """Is this planet visible in the night sky?

    Args:
        planet: The planet to look for.
    """
    return "visible"


@cd.tool
def renew_passport(urgency: Literal["standard", "express"]) -> str:
    """Apply to renew a passport.

    Args:
        urgency: Standard or express processing.
    """
    return "applied"


def _first_calls(tools: list[cd.Tool], question: str) -> list[tuple[str, dict[str, Any]]]:
    """The calls the offline model makes in its first turn."""
    llm = cd.connect("offline", offline_model=OfflineModel(seed=0, latency=LatencyModel.instant()))
    result = llm.run(question, tools=tools, max_rounds=1)
    return [(call.name, call.arguments) for call in result.rounds[0].tool_calls] if result.rounds else []


@pytest.mark.parametrize("tool_, question, arguments", [
    (book_vet_visit, "我的猫生病了，帮我约兽医", {"pet": "cat"}),
    (backup_database, "请备份 orders 数据库", {"database": "orders"}),
    (order_coffee, "来一杯大杯咖啡", {"size": "large"}),
    (request_repair, "冰箱坏了，请房东来维修", {"appliance": "fridge"}),
    (planet_visible, "今晚能看到木星吗", {"planet": "jupiter"}),
    (renew_passport, "我要加急续签护照", {"urgency": "express"}),
    (pay_utility_bill, "帮我交这个月的燃气费", {"utility": "gas"}),
])
def test_chinese_question_on_an_everyday_domain_calls_its_tool(tool_, question, arguments):
    assert _first_calls([tool_], question) == [(tool_.name, arguments)]


def test_chinese_question_picks_its_tool_among_several():
    offered = [book_vet_visit, order_coffee, request_repair, pay_utility_bill, renew_passport]
    assert _first_calls(offered, "烤箱坏了，请房东来维修") == [("request_repair", {"appliance": "oven"})]
    assert _first_calls(offered, "我家的狗需要看兽医") == [("book_vet_visit", {"pet": "dog"})]

