"""Helpers graded tests import: the hint a student reads next to a failed assertion."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class _Notes:
    """What the running test said about its failure; reset by the plugin before each test."""

    hint: str = ""


notes = _Notes()


def hint(text: str) -> str:
    """The fix to suggest when the assertion it stands beside fails.

    Written as an assertion's message, so it is evaluated only on failure:
    ``assert got == expected, hint("after a merge, jump past both tokens")``.
    """
    notes.hint = text
    return text


def raised(function: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[str, str] | None:
    """Call a student's function that should raise: ``(exception name, message)``, or None if it returned.

    ``assert raised(f, x) == ...`` reads better in a graded test than
    ``pytest.raises``, whose own failure would look like the grader's.
    """
    from autograder.engine.proxy import StudentRaised

    try:
        function(*args, **kwargs)
    except StudentRaised as error:
        return error.error_type, error.error_message
    return None


def examples(count: int) -> Callable[[Any], Any]:
    """Hypothesis settings for a graded property: ``@examples(50)`` above its ``@given``.

    Derandomized so a submission always gets the same score; no example
    database, so nothing is written beside the submission; no deadline,
    because the cage's per-call limit is the one that counts. Because the
    examples are the same for every submission, a grader that grades many
    replays them instead of drawing them again (``autograder.engine.replay``).
    """
    from hypothesis import HealthCheck, settings

    chosen = settings(
        max_examples=count,
        derandomize=True,
        database=None,
        deadline=None,
        print_blob=False,
        report_multiple_bugs=False,
        suppress_health_check=list(HealthCheck),
    )

    def decorate(test: Any) -> Any:
        from autograder.engine import replay

        test = chosen(test)
        replay.install(test)
        return test

    return decorate
