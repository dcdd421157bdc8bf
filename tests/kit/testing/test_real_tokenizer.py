"""Part 6's reference is GPT-2 and GPT-4 themselves: tiktoken's ids, Hugging Face tokenizers' files, and the
expected ids the hidden tests keep (made by tiktoken, remade here so they cannot drift)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import tiktoken_ids
from classroom import SOLUTIONS

from autograder.testing import tokenizer_files
from autograder.testing.reference import reference

ref = reference("real_tokenizer")
DATA = SOLUTIONS.parent / "exercises" / "data"


@pytest.mark.unit
def test_the_hidden_tests_ids_are_what_tiktoken_gives_now():
    """tests/hidden/real_tokenizer/tiktoken_ids.json is tiktoken's work: made again, it is the same file."""
    stored = tiktoken_ids.STORED.read_text(encoding="utf-8")
    assert stored == tiktoken_ids.expected_document(), (
        "run python tests/kit/support/tiktoken_ids.py and commit the file"
    )


@pytest.mark.unit
def test_the_hidden_tests_cl100k_ranks_and_ids_are_what_tiktoken_gives_now():
    """tests/hidden/real_tokenizer/cl100k_ranks.json is cl100k_base's first ranks and tiktoken's ids with them."""
    stored = tiktoken_ids.CL100K_STORED.read_text(encoding="utf-8")
    assert stored == tiktoken_ids.cl100k_document(), "run python tests/kit/support/tiktoken_ids.py and commit the file"


@pytest.mark.unit
def test_the_reference_gives_tiktokens_gpt2_ids_on_every_held_out_text():
    stored = json.loads(tiktoken_ids.STORED.read_text(encoding="utf-8"))
    cut_vocab, cut_merges = tokenizer_files.gpt2(stored["merges"])
    whole_vocab, whole_merges = tokenizer_files.gpt2()
    for vocab in (cut_vocab, whole_vocab):
        vocab |= stored["special_ids"]
    for case in stored["cases"]:
        text, specials = case["text"], case["specials"]
        assert ref.encode(text, cut_vocab, cut_merges, special_tokens=specials) == case["cut"], text
        assert ref.encode(text, whole_vocab, whole_merges, special_tokens=specials) == case["whole"], text
        split4 = ref.encode(text, cut_vocab, cut_merges, pattern=ref.GPT4_SPLIT, special_tokens=specials)
        assert split4 == case["cut, GPT-4's split"], text
        assert ref.decode(case["whole"], whole_vocab) == text


@pytest.mark.unit
def test_the_reference_encodes_the_corpora_as_tiktokens_gpt2():
    from autograder.notebook.openai_tokenizers import gpt2_encoding

    vocab, merges = ref.load(tokenizer_files.gpt2_folder())
    for path in sorted(DATA.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        assert ref.encode(text, vocab, merges) == gpt2_encoding().encode_ordinary(text), path.name


@pytest.mark.unit
def test_the_reference_gives_gpt4s_ids_from_cl100k_written_as_two_files():
    """cl100k_base's ranks as GPT-2's two files (each merge recovered from the ranks below it, by the kit's copy
    and by the reference's merges_from_ranks alike): the reference with GPT4_SPLIT gives tiktoken's ids, special
    tokens included."""
    from autograder.notebook.openai_tokenizers import cl100k_encoding, cl100k_files

    vocab, merges, specials = cl100k_files(ref.bytes_to_unicode())
    assert (len(vocab), len(merges)) == (100256, 100000)
    # The student's step (merges_from_ranks) and the kit's own copy of it recover the same files.
    assert ref.merges_from_ranks(cl100k_encoding()._mergeable_ranks) == (vocab, merges)
    vocab |= specials
    gpt4 = cl100k_encoding()
    stored = json.loads(tiktoken_ids.STORED.read_text(encoding="utf-8"))
    texts = [path.read_text(encoding="utf-8") for path in sorted(DATA.glob("*.txt"))]
    texts += [case["text"].replace("<|end text|>", "<|fim_prefix|>") for case in stored["cases"]]
    for text in texts:
        got = ref.encode(text, vocab, merges, pattern=ref.GPT4_SPLIT, special_tokens=list(specials))
        assert got == gpt4.encode(text, allowed_special="all"), text[:80]


@pytest.mark.unit
def test_the_kits_patterns_and_gpt2s_files_are_the_references(tmp_path):
    assert (tokenizer_files.GPT2_SPLIT, tokenizer_files.GPT4_SPLIT) == (ref.GPT2_SPLIT, ref.GPT4_SPLIT)
    assert ref.load(tokenizer_files.gpt2_folder()) == tokenizer_files.gpt2()
    vocab, merges = tokenizer_files.gpt2(300)
    ref.save(tmp_path / "saved", vocab, merges)
    files = {name: (tmp_path / "saved" / name).read_bytes() for name in ("vocab.json", "merges.txt")}
    assert (tokenizer_files.read_vocab(files["vocab.json"]), tokenizer_files.read_merges(files["merges.txt"])) == (
        vocab,
        merges,
    )


def _byte_level(tokenizer):
    from tokenizers import decoders, pre_tokenizers

    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)  # GPT-2 adds no space in front
    tokenizer.decoder = decoders.ByteLevel()
    return tokenizer


@pytest.mark.unit
def test_a_tokenizer_trained_by_hugging_face_and_the_reference_read_each_others_files(tmp_path):
    """tokenizers trains a GPT-2-style byte-level BPE on the kit's corpora, offline: the reference loads its
    files and gives its ids; the files the reference saves, tokenizers reads to the same ids."""
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    corpora = [path.read_text(encoding="utf-8") for path in sorted(DATA.glob("*.txt"))]
    trained = _byte_level(Tokenizer(models.BPE()))
    trainer = trainers.BpeTrainer(
        vocab_size=1500,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        special_tokens=[tokenizer_files.END_OF_TEXT],
        show_progress=False,
    )
    trained.train_from_iterator([text[: len(text) // 2] for text in corpora], trainer)
    (tmp_path / "trained").mkdir()
    trained.model.save(str(tmp_path / "trained"))
    vocab, merges = ref.load(tmp_path / "trained")
    assert len(merges) > 1000
    held_out = "<|endoftext|>".join(text[len(text) // 2 :] for text in corpora) + " é🙂 日本  \n\n"
    ids = trained.encode(held_out).ids
    assert ref.encode(held_out, vocab, merges, special_tokens=[tokenizer_files.END_OF_TEXT]) == ids
    ref.save(tmp_path / "saved", vocab, merges)
    saved = _byte_level(
        Tokenizer(models.BPE.from_file(str(tmp_path / "saved" / "vocab.json"), str(tmp_path / "saved" / "merges.txt")))
    )
    saved.add_special_tokens([tokenizer_files.END_OF_TEXT])
    assert saved.encode(held_out).ids == ids
    assert Path(tmp_path / "saved" / "merges.txt").read_text(encoding="utf-8").startswith("#version: 0.2\n")
