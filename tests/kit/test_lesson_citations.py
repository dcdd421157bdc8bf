"""What the lessons say about other projects, held against those projects' source.

Where the project ships as Python source in the dev venv (subword-nmt, tiktoken), the test opens the
installed file and finds there what the lesson says of it. The rest are listed in ``CHECKED_BY_READING``.
"""

from __future__ import annotations

import importlib.util
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from autograder.authoring import notebooks as exercises


@dataclass(frozen=True)
class Citation:
    lesson: str  # exercises/src/<lesson>
    says: str  # the lesson's words (whitespace-insensitive)
    module: str  # the installed module whose source backs them
    holds: tuple[str, ...]  # text that module's source has
    lacks: tuple[str, ...] = ()  # text it must not have


INSTALLED = [
    Citation(
        "fast_bpe.md",
        "where `subword-nmt` instead takes `max` over a dictionary of counts kept small by a frequency threshold",
        "subword_nmt.learn_bpe",
        ("threshold = max(stats.values()) / 10", "max(stats, key=lambda x: (stats[x], x))"),
        lacks=("heapq",),
    ),
    Citation(
        "bpe.md",
        "stopping there is `subword-nmt`'s choice",
        "subword_nmt.learn_bpe",
        ("min_frequency=2",),
    ),
    Citation(
        "word_bpe.md",
        "tiktoken merges only the leftmost occurrence per round and looks the pair up by its joined bytes",
        "tiktoken._educational",
        ("mergeable_ranks.get(pair[0] + pair[1])", "parts[:min_idx] + [parts[min_idx] + parts[min_idx + 1]]"),
    ),
]

# Cited, checked by reading: not Python source the kit ships or depends on.
CHECKED_BY_READING = {
    "fast_bpe.md: Hugging Face's trainer finds the best pair with a heap": (
        "huggingface/tokenizers",
        "tokenizers/src/models/bpe/trainer.rs (BinaryHeap<Merge>)",
    ),
    "word_bpe.md: GPT-2 merges every occurrence of the best pair in a round": ("openai/gpt-2", "src/encoder.py bpe()"),
    "real_tokenizer.md: OpenAI never released GPT-2's trainer": ("openai/gpt-2", "src/ (encoder.py only)"),
    "bpe.md: minbpe merges until the vocabulary is full": ("karpathy/minbpe", "minbpe/basic.py train"),
    # tokenizers ships compiled: its trainer is read in the repository, at the commit the lesson names.
    "relatives.md: Hugging Face's WordPieceTrainer is its BPE trainer with the ## prefix": (
        "huggingface/tokenizers",
        "tokenizers/src/models/wordpiece/trainer.rs at 6aaeb79fd651e064e16a3e86a3b1f779a1b3e571 "
        "(WordPieceTrainer { bpe_trainer }, WordPiece::from_bpe)",
    ),
}


def _plain(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def _source_of(module: str) -> str:
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin, f"{module} is not installed: pip install -e '.[dev]'"
    return Path(spec.origin).read_text(encoding="utf-8")


@pytest.mark.unit
@pytest.mark.parametrize("citation", INSTALLED, ids=lambda citation: f"{citation.lesson}:{citation.module}")
def test_a_claim_about_an_installed_project_is_in_its_source(citation):
    lesson = _plain((exercises.EXERCISES / "src" / citation.lesson).read_text(encoding="utf-8"))
    assert _plain(citation.says) in lesson, f"{citation.lesson} no longer says {citation.says!r}: update INSTALLED"
    source = _source_of(citation.module)
    assert [text for text in citation.holds if text not in source] == [], citation.module
    assert [text for text in citation.lacks if text in source] == [], citation.module


@pytest.mark.unit
def test_every_claim_checked_by_reading_names_a_repository_and_a_path():
    for claim, (repository, path) in CHECKED_BY_READING.items():
        assert re.fullmatch(r"[\w.-]+/[\w.-]+", repository), claim
        assert path, claim
