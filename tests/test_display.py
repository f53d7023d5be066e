"""Text for notebooks: lines that fit JupyterLab, in English and Chinese."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conductor.display import table, width, wrap


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


# table: columns that never run together


def test_table_keeps_every_header_cell_apart():
    """The header of lesson 04's defence table read 'schemaallowlist': cells as wide as their column."""
    header = ["kind", "keywords", "schema", "allowlist", "approval", "loops", "all four", "all+kw"]
    rows = [
        ["relevant call", "16/34", "0/34", "0/34", "3/34", "0/34", "3/34", "18/34"],
        ["invented or invalid arguments", "2/9", "7/9", "0/9", "0/9", "0/9", "7/9", "7/9"],
    ]
    lines = table(header, rows).splitlines()
    for line, cells in zip(lines, [header, *rows]):
        assert [cell.strip() for cell in line.split("  ") if cell.strip()] == cells
    assert "schemaallowlist" not in lines[0]
    assert len({width(line) for line in lines}) == 1  # right-aligned last column: every line as long


def test_table_lines_up_chinese_cells_by_display_width():
    text = table(["city", "temp"], [["北京", "4°C"], ["Shanghai", "12°C"]], align="<>")
    assert text.splitlines() == ["city      temp", "北京       4°C", "Shanghai  12°C"]
    assert {width(line) for line in text.splitlines()} == {14}


def test_table_left_aligned_columns_carry_no_trailing_spaces():
    assert table(["a", "b"], [["long value", "x"]], align="<<", gap=3) == "a" + " " * 12 + "b\nlong value   x"
    assert table(["name", "note"], [["a", ""]], align="<<") == "name  note\na"


def test_table_refuses_rows_and_alignments_that_do_not_fit_the_header():
    with pytest.raises(ValueError, match="2 cells"):
        table(["a", "b"], [["only one"]])
    with pytest.raises(ValueError, match="align"):
        table(["a", "b"], [], align="<")
    with pytest.raises(ValueError, match="align"):
        table(["a", "b"], [], align="<^")
    with pytest.raises(ValueError, match="gap"):
        table(["a", "b"], [], gap=0)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.text(alphabet=st.sampled_from(list("ab9北京/_")), min_size=1, max_size=8), min_size=1, max_size=5).flatmap(
        lambda header: st.tuples(
            st.just(header),
            st.lists(st.lists(st.text(alphabet=st.sampled_from(list("ab9北京/_")), min_size=1, max_size=8),
                              min_size=len(header), max_size=len(header)), max_size=4),
        )
    )
)
def test_every_cell_stays_two_columns_from_its_neighbours(data):
    header, rows = data
    lines = table(header, rows).splitlines()
    for line, cells in zip(lines, [header, *rows]):
        # the alphabet has no spaces, so splitting a line at its gaps gives its cells back
        assert [c.strip() for c in line.split("  ") if c.strip()] == list(cells)
