"""The category word lists: nothing lost from the old lists, each term in one category, every list usable."""

import re
from collections import Counter

import pytest

from conductor.offline.categories import CATEGORY_NAMES, CATEGORY_WORDS

# The lists as they were before this module held them: every word and name must still be here.
OLD: dict[str, str] = {
    "animal": """dog dogs puppy puppies cat cats kitten kittens rabbit rabbits hamster hamsters guinea_pig parrot
        parrots bird birds fish goldfish horse horses pony turtle tortoise snake lizard ferret penguin penguins sea_lion
        sea_lions lion lions tiger tigers elephant elephants giraffe giraffes zebra zebras panda pandas bear bears monkey
        monkeys gorilla koala kangaroo otter otters seal seals dolphin dolphins shark sharks wolf wolves fox deer owl
        eagle flamingo flamingos hippo rhino cow cows pig pigs sheep goat goats chicken chickens duck ducks bee bees
        狗 小狗 猫 小猫 兔子 仓鼠 鹦鹉 鸟 鱼 金鱼 马 乌龟 蛇 熊猫 老虎 狮子 大象 长颈鹿 斑马 企鹅 海狮 猴子 海豚 熊 狼 狐狸
        考拉 袋鼠""",
    "subject": """math maths mathematics algebra geometry calculus physics chemistry biology science history
        geography english literature art music economics computer_science programming philosophy psychology
        数学 语文 英语 物理 化学 生物 历史 地理 政治 音乐 美术 科学""",
    "colour": """red blue green yellow orange purple pink black white grey gray brown silver gold navy beige
        红色 蓝色 绿色 黄色 橙色 紫色 粉色 黑色 白色 灰色 棕色 银色 金色""",
    "appliance": """fridge fridges refrigerator freezer oven ovens dishwasher washing_machine washer dryer tumble_dryer
        microwave boiler kettle toaster air_conditioner heater vacuum_cleaner coffee_machine stove hob cooker
        冰箱 烤箱 洗碗机 洗衣机 烘干机 微波炉 热水器 空调 吸尘器 电饭煲 咖啡机""",
    "body part": """knee knees shoulder shoulders back lower_back neck ankle ankles wrist wrists elbow elbows hip hips
        foot feet hand hands arm arms leg legs hamstring calf spine jaw
        膝盖 肩膀 腰 颈椎 脖子 脚踝 手腕 手肘 髋关节 脚 手 胳膊 腿""",
    "crop": """wheat barley corn maize rice oats rye soy soybeans soya potatoes canola rapeseed sorghum cotton
        sugarcane sugar_beet sunflowers 小麦 玉米 水稻 大米 大豆 土豆 马铃薯 棉花 油菜 高粱""",
    "sport": """football soccer basketball tennis baseball hockey cricket rugby golf volleyball badminton
        table_tennis swimming cycling running boxing 篮球 足球 网球 棒球 排球 羽毛球 乒乓球 游泳""",
}
OLD_NAMES = {"animal": {"animal", "animals", "species", "pet", "creature"}, "subject": {"subject", "course"},
                   "appliance": {"appliance", "appliances", "device", "machine"},
                   "crop": {"crop", "crops", "grain"},
                   "body part": {"body", "joint", "injury", "limb"},
                   "colour": {"colour", "color", "colours", "colors"}, "sport": {"sport", "sports"}}

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
