"""Why a student's function raised, in the student's terms: the hint beside a call that ended in an exception.

The rubric cannot tell which line of the contract the raise breaks, so the sentence says what happened in
the code (what kind of step failed), never a fix it cannot know. It is built from the exception's type alone,
one of the built-in ones below: the message is the student's code's words, which the detail shows where
it may (own_words), and a hint is the grader's.
"""

from __future__ import annotations

WHY: dict[str, str] = {
    "KeyError": "a dict was asked for a key it does not hold (the detail names the key): look at where that "
    "key was made, or whether it should be in the dict at all",
    "IndexError": "a list, tuple or string was indexed past its end: look at the last index a loop reaches "
    "(i + 1 at the last item), or at an empty input",
    "TypeError": "a value was used as a type it is not (a call, an operator or a built-in got the wrong "
    "kind of value): the detail names the two types",
    "AttributeError": "a value has no attribute or method of that name: it is of another type than the "
    "code expects there",
    "ValueError": "a built-in was given a value it cannot take (unpacking the wrong number of items, int() of "
    "text, max() of nothing): the detail says which",
    "ZeroDivisionError": "a number was divided by zero",
    "RecursionError": "a function called itself without end: it never reaches the case that stops it",
    "UnboundLocalError": "a local name was read before the function gave it a value on this path",
    "NameError": "a name was used that is not defined where it is read",
    "UnicodeDecodeError": "bytes that are not valid UTF-8 were decoded with errors='strict'",
    "UnicodeEncodeError": "text was encoded to a codec that cannot hold one of its characters",
    "StopIteration": "next() was called on an iterator that had nothing left",
    "AssertionError": "an assert in the function failed",
    "FileExistsError": "a file or folder was made where one is already (os.mkdir, os.makedirs without "
    "exist_ok, open with 'x'): the detail names it",
    "FileNotFoundError": "a file or folder was opened or listed that is not there: the detail names the path "
    "the code built",
    "IsADirectoryError": "a folder was opened as if it were a file: the detail names it",
    "NotADirectoryError": "a file was used as if it were a folder (a path joined onto a file's name)",
}


def why_raised(function: str, error_type: str) -> str:
    """The hint for ``function`` having raised ``error_type``; "" for an exception not listed in WHY."""
    why = WHY.get(error_type)
    return f"{function} raised {error_type}: {why}" if why else ""
