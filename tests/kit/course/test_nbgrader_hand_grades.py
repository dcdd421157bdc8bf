"""Which of an nbgrader gradebook's manual scores are a grader's, typed into formgrader, and which are the kit's."""

from __future__ import annotations

import pytest


@pytest.mark.unit
def test_a_cell_is_the_graders_when_it_holds_neither_nothing_nor_what_the_kit_wrote_or_would_write():
    """formgrader saves a manual score and extra credit together; the kit tells a grader's from its own by what it
    recorded writing there last time and what it would write now, so a dropped adjustment still goes away."""
    from autograder.course.nbgrader_hand_grades import typed_by_hand

    assert not typed_by_hand((None, None), (3.0, None), (None, None)), "an empty cell is no one's"
    assert not typed_by_hand((3.0, None), (3.0, None), (None, None)), "the kit's old adjustment, since dropped"
    assert not typed_by_hand((None, 2.5), None, (None, 2.5)), "a bonus the kit writes, from an older export"
    assert typed_by_hand((4.0, None), (3.0, None), (3.0, None)), "a score typed over the kit's adjustment"
    assert typed_by_hand((4.0, 0.0), None, (None, None)), "a score typed where the kit writes none"
    assert typed_by_hand((5.0, None), (5.0 - 1e-3, None), (None, None))
