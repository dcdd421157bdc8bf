"""From outcomes to a grade: points per test, the typed result (``GradeResult``) every later step reads, the
words a student controls kept as text, and the feedback policy (``feedback_policy``): how much of that result a
student is shown, decided here where the result is made so that every report after it only renders."""
