"""What a graded suite (tests/hidden, tests/public) may import of the kit: the one face a course author writes
tests against. Every name here stays as it is between releases; anything else of ``autograder`` may change,
and a kit test fails when a suite imports it (tests/kit/testing/test_author_api.py).

A suite's tests take the ``submission`` fixture (``submission.bpe.merge_pair(...)``): the student's code, run
in the cage. What they use beside it:

- ``hint``, ``saw``: the words a student reads next to a failed assertion.
- ``raised``, ``StudentRaised``: a call that should raise, and what the student's code raised.
- ``examples``: the settings of a graded hypothesis property; ``strategy`` of ``domains``: its inputs.
- ``reference``: the kit's own solution of a part, to compare an answer with.
- ``fastest_seconds``, ``speed_problem``, ``once_a_batch``: a speed test and its yardstick.
- ``training_problem``, ``id_training_problem``, ``id_training_fault``, ``early_stop``, ``Fault``: what a
  replayed training did wrong.
- ``CallFolder``: many calls to the student's function sent as one.
- ``Stream``: a call that feeds an iterable argument piece by piece and reads an iterator answer.
- ``gpt2``, ``gpt2_files``, ``read_vocab``, ``read_merges``, ``TokenizerFileError``, ``END_OF_TEXT``,
  ``GPT4_SPLIT``: the GPT-2 files and the tokenizer's words.
- ``growth_of``, ``byte_recount``: the memory a call grows by, and a recount to measure it on.
- ``KIT_ROOT``: the kit's folder, for its data files.

The reference page is docs/reference/writing-tests.md.
"""

from __future__ import annotations

from autograder.kit_root import KIT_ROOT
from autograder.testing import byte_recount, domains
from autograder.testing.byte_recount import Pair, recount
from autograder.testing.memory_growth import growth_of
from autograder.testing.proxy import CallFolder, Stream, StudentRaised
from autograder.testing.reference import reference
from autograder.testing.rubric import (
    Fault,
    early_stop,
    examples,
    fastest_seconds,
    hint,
    id_training_fault,
    id_training_problem,
    raised,
    saw,
    speed_problem,
    training_problem,
)
from autograder.testing.tokenizer_files import (
    END_OF_TEXT,
    GPT4_SPLIT,
    TokenizerFileError,
    gpt2,
    gpt2_files,
    read_merges,
    read_vocab,
)
from autograder.testing.yardsticks import once_a_batch

__all__ = [
    "END_OF_TEXT",
    "GPT4_SPLIT",
    "KIT_ROOT",
    "CallFolder",
    "Fault",
    "Pair",
    "Stream",
    "StudentRaised",
    "TokenizerFileError",
    "byte_recount",
    "domains",
    "early_stop",
    "examples",
    "fastest_seconds",
    "gpt2",
    "gpt2_files",
    "growth_of",
    "hint",
    "id_training_fault",
    "id_training_problem",
    "once_a_batch",
    "raised",
    "read_merges",
    "read_vocab",
    "recount",
    "reference",
    "saw",
    "speed_problem",
    "training_problem",
]
