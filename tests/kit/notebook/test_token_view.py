"""The token display of the notebooks: boundaries visible, invisible characters drawn, nothing injected."""

from __future__ import annotations

import pytest

from autograder.notebook.token_view import END_MARK, show_rows, show_tokens


@pytest.mark.unit
def test_a_terminal_sees_each_token_in_brackets_with_spaces_and_word_ends_drawn():
    view = show_tokens(["To", " be", "\n", "low</w>", "er"], label="five")
    assert str(view) == f"five (5 tokens): [To][␣be][↵][low{END_MARK}][er]"


@pytest.mark.unit
def test_a_notebook_sees_one_span_per_token_and_the_text_escaped():
    page = show_tokens(["<b>", "a&b", " "])._repr_html_()
    assert page.count("<span title=") == 3
    assert "&lt;b&gt;" in page and "a&amp;b" in page and "<b>&" not in page
    assert "␣" in page


@pytest.mark.unit
def test_half_a_character_shows_the_replacement_mark():
    euro = "€".encode()
    assert str(show_tokens([euro[:2], euro[2:]])) == "(2 tokens) [�][�]"


@pytest.mark.unit
def test_rows_line_up_under_their_labels():
    rows = show_rows({"0 merges": list("ab"), "50 merges": ["ab"]})
    assert str(rows).splitlines() == [" 0 merges (  2): [a][b]", "50 merges (  1): [ab]"]
    assert rows._repr_html_().count("<tr>") == 2
