"""Which hand-ins one ``grade batch`` grades: every one without a current result, the students named with
``--student`` (graded again, the rest kept, every report rebuilt), one shard, or none (the merge)."""

from __future__ import annotations

import pytest

from autograder.course.batch.selection import Selection, Shard, shard_of


@pytest.mark.unit
def test_each_selection_grades_its_own_and_only_a_shard_leaves_the_class_files_alone():
    class_ids = [f"s{number:04d}" for number in range(60)]
    every, named, merge = Selection.every(), Selection.of_students(["s0003"]), Selection.of_no_one()
    shards = [Selection.of_shard(Shard(index, 3)) for index in range(3)]
    assert all(every.grades(student) and not every.regrades(student) for student in class_ids)
    assert [student for student in class_ids if named.grades(student)] == ["s0003"]
    assert named.regrades("s0003") and not named.regrades("s0004"), "a student named is graded again"
    assert not any(merge.grades(student) for student in class_ids)
    graded_by = [[index for index, shard in enumerate(shards) if shard.grades(student)] for student in class_ids]
    assert all(len(indexes) == 1 for indexes in graded_by), "each hand-in is graded by one shard"
    assert {indexes[0] for indexes in graded_by} == {0, 1, 2}, "every shard has work in a class of 60"
    assert [every.class_files, named.class_files, merge.class_files] == [True, True, True]
    assert not any(shard.class_files for shard in shards), "shards write into one OUT at once: results only"
    assert all(shard.reads(student) == shard.grades(student) for shard in shards for student in class_ids)
    assert all(named.reads(student) and merge.reads(student) for student in class_ids), "the reports show all"


@pytest.mark.unit
def test_a_students_shard_depends_on_their_id_alone():
    """Every machine computes the same split, and a hand-in added later moves no one else."""
    assert shard_of("ada", 1) == 0
    # Pinned: Python's own hash() of a string is salted in each process, and would split the class
    # differently on each machine (so some hand-ins would be graded twice, and others never).
    assert [shard_of(student, 3) for student in ("ada", "bea", "cyd", "dan", "eve")] == [2, 1, 1, 1, 2]
