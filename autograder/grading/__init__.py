"""Grading a hand-in end to end, through every step: the one way from a path to a result, with the
student's cache of unchanged parts and the digests that decide when a result still holds."""
