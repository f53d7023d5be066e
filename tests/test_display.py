"""Text for notebooks: lines that fit JupyterLab, in English and Chinese."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from conductor.display import width, wrap


def test_chinese_text_breaks_between_characters_never_inside_a_latin_word():
    text = "北京今天晴,气温4°C(数据来自cached_weather,可能不是最新的)。" * 3
    lines = wrap(text, 60).splitlines()
    assert all(width(line) <= 60 for line in lines)
    assert "".join(lines) == text  # nothing lost, nothing added
    assert not any(line.endswith("cached_") or line.startswith("weather") for line in lines)


def test_english_breaks_at_spaces_and_cuts_only_a_word_wider_than_the_line():
    assert wrap("the weather API did not answer", 12) == "the weather\nAPI did not\nanswer"
    assert wrap("x" * 25, 10) == "xxxxxxxxxx\nxxxxxxxxxx\nxxxxx"


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab c北京,。_9")), max_size=200), st.integers(4, 40))
def test_every_line_fits_and_only_spaces_are_lost(text, columns):
    lines = wrap(text, columns).splitlines()
    assert all(width(line) <= columns for line in lines)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
