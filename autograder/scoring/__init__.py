"""From outcomes to a grade: points per test, the typed result (``GradeResult``) every later step reads, and
the words a student controls kept as text."""
