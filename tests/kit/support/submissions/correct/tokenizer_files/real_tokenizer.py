"""Part 6 written another way: GPT-2's original table code, os.path and open(), a merge loop by index, special
tokens found by a scan instead of a pattern, a trainer with no heap, a chunker that walks the characters, and
ids stored with array and read with int.from_bytes."""

import array
import json
import os
import sys

import regex

GPT2_SPLIT = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


def bytes_to_unicode():
    kept = list(range(33, 127)) + list(range(161, 173)) + list(range(174, 256))
    characters = kept[:]
    extra = 0
    for byte in range(256):
        if byte not in kept:
            kept.append(byte)
            characters.append(256 + extra)
            extra += 1
    return dict(zip(kept, map(chr, characters)))


def load(folder):
    with open(os.path.join(folder, "vocab.json"), encoding="utf-8") as file:
        vocab = json.load(file)
    with open(os.path.join(folder, "merges.txt"), encoding="utf-8") as file:
        lines = file.read().split("\n")
    if lines[0].startswith("#version"):
        del lines[0]
    return vocab, [tuple(line.split(" ")) for line in lines if line != ""]


def save(folder, vocab, merges):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "vocab.json"), "w", encoding="utf-8") as file:
        json.dump(vocab, file, indent=2)
    with open(os.path.join(folder, "merges.txt"), "w", encoding="utf-8") as file:
        file.write("#version: 0.2\n")
        file.writelines(f"{first} {second}\n" for first, second in merges)


def split_specials(text, special_tokens):
    # A scan from the left: at each place the longest special token that starts there, else one more character.
    longest = sorted(set(special_tokens), key=len, reverse=True)
    stretches, plain, at = [], [], 0
    while at < len(text):
        found = next((token for token in longest if text.startswith(token, at)), None)
        if found is None:
            plain.append(text[at])
            at += 1
            continue
        if plain:
            stretches.append("".join(plain))
            plain = []
        stretches.append(found)
        at += len(found)
    if plain:
        stretches.append("".join(plain))
    return stretches


def merge_by_rank(piece, ranks):
    word = list(piece)
    while True:
        ranked = [(ranks[pair], at) for at, pair in enumerate(zip(word, word[1:])) if pair in ranks]
        if not ranked:
            return word
        at = min(ranked)[1]
        best = [word[at], word[at + 1]]
        merged, at = [], 0
        while at < len(word):
            if word[at : at + 2] == best:
                merged.append(best[0] + best[1])
                at += 2
            else:
                merged.append(word[at])
                at += 1
        word = merged


def merges_from_ranks(mergeable_ranks):
    table = bytes_to_unicode()
    vocab = {"".join(table[byte] for byte in token): rank for token, rank in mergeable_ranks.items()}
    merges = []
    for token in sorted(mergeable_ranks, key=lambda each: mergeable_ranks[each]):
        if len(token) == 1:
            continue
        limit = mergeable_ranks[token]
        parts = [token[at : at + 1] for at in range(len(token))]
        while len(parts) > 2:
            rank, at = min((mergeable_ranks.get(a + b, limit), at) for at, (a, b) in enumerate(zip(parts, parts[1:])))
            if rank >= limit:
                break
            parts[at : at + 2] = [parts[at] + parts[at + 1]]
        merges.append(tuple("".join(table[byte] for byte in part) for part in parts))
    return vocab, merges


def encode(text, vocab, merges, pattern=GPT2_SPLIT, special_tokens=()):
    rank = {}
    for index, pair in enumerate(merges):
        rank.setdefault(pair, index)
    table = bytes_to_unicode()
    ids = []
    rest = text
    longest = sorted(special_tokens, key=len, reverse=True)
    while rest:
        # the earliest special token, the longest of those that start there
        found = min(((rest.find(token), -len(token), token) for token in longest if token in rest), default=None)
        head, rest = (rest, "") if found is None else (rest[: found[0]], rest[found[0] - found[1] :])
        for piece in regex.findall(pattern, head):
            word = [table[byte] for byte in piece.encode("utf-8")]
            while True:
                ranked = [(rank[pair], at) for at, pair in enumerate(zip(word, word[1:])) if pair in rank]
                if not ranked:
                    break
                best = word[min(ranked)[1]], word[min(ranked)[1] + 1]
                at, merged = 0, []
                while at < len(word):
                    if word[at : at + 2] == list(best):
                        merged.append(best[0] + best[1])
                        at += 2
                    else:
                        merged.append(word[at])
                        at += 1
                word = merged
            ids += [vocab[token] for token in word]
        if found is not None:
            ids.append(vocab[found[2]])
    return ids


def encode_checked(text, vocab, merges, special_tokens, allowed=(), pattern=GPT2_SPLIT):
    # tiktoken's way: one search for any refused token, longest first so the longer wins where two start at once.
    refused = sorted(set(special_tokens) - set(allowed), key=len, reverse=True)
    if refused:
        found = regex.search("|".join(regex.escape(token) for token in refused), text)
        if found:
            raise ValueError(f"disallowed special token {found.group()!r} in the text")
    return encode(text, vocab, merges, pattern, list(allowed))


def add_tokens(vocab, names):
    added = {**vocab}
    for name in names:
        added.setdefault(name, max(added.values()) + 1 if added else 0)
    return added


def decode(ids, vocab):
    tokens = {value: key for key, value in vocab.items()}
    back = {character: byte for byte, character in bytes_to_unicode().items()}
    data = bytearray()
    for token_id in ids:
        data.extend(back[character] for character in tokens[token_id])
    return data.decode("utf-8", "replace")


def train_bytes(text, vocab_size, special_tokens=()):
    # Pieces as tuples of bytes, counted once each; the pairs' counts and where each pair is kept up to date
    # after a merge, and the best pair found by a plain max over the counts (no heap).
    specials = sorted(set(special_tokens), key=len, reverse=True)
    if vocab_size < 256 + len(specials):
        raise ValueError(f"vocab_size must be at least {256 + len(specials)}")
    stretches = regex.split("|".join(map(regex.escape, specials)), text) if specials else [text]
    frequency = {}
    for stretch in stretches:
        for piece in regex.findall(GPT2_SPLIT, stretch):
            frequency[piece] = frequency.get(piece, 0) + 1
    words = [tuple(bytes([byte]) for byte in piece.encode("utf-8")) for piece in frequency]
    counts = list(frequency.values())
    pairs, where = {}, {}
    for index, word in enumerate(words):
        for pair in zip(word, word[1:]):
            pairs[pair] = pairs.get(pair, 0) + counts[index]
            where.setdefault(pair, set()).add(index)
    merges = []
    while pairs and len(merges) < vocab_size - 256 - len(specials):
        best = max(pairs.items(), key=lambda item: (item[1], item[0]))
        if best[1] < 2:
            break
        first, second = best[0]
        merges.append(best[0])
        for index in where.pop(best[0]):
            word, count = words[index], counts[index]
            new, at = [], 0
            while at < len(word):
                if word[at] == first and at + 1 < len(word) and word[at + 1] == second:
                    new.append(first + second)
                    at += 2
                else:
                    new.append(word[at])
                    at += 1
            for pair in zip(word, word[1:]):
                pairs[pair] -= count
                if not pairs[pair]:
                    del pairs[pair]
            for pair in zip(new, new[1:]):
                pairs[pair] = pairs.get(pair, 0) + count
                where.setdefault(pair, set()).add(index)
            words[index] = tuple(new)
    vocab = {token_id: bytes([token_id]) for token_id in range(256)}
    for first, second in merges:
        vocab[len(vocab)] = first + second
    for token in dict.fromkeys(special_tokens):
        vocab[len(vocab)] = token.encode("utf-8")
    return vocab, merges


def chunk_text(pieces, size):
    # One character at a time: a "\n" is judged when the character after it comes, and a piece is read only
    # when its first character is wanted, so nothing is read ahead of a chunk.
    chunk = []
    for piece in pieces:
        for character in piece:
            if len(chunk) >= max(size, 2) and chunk[-1] == "\n" and not chunk[-2].isspace():
                if not character.isspace():
                    yield "".join(chunk)
                    chunk = []
            chunk.append(character)
    if chunk:
        yield "".join(chunk)


def write_ids(path, ids, vocab_size):
    for token_id in ids:
        if token_id < 0 or token_id >= vocab_size:
            raise ValueError(f"{token_id} is no id of a vocabulary of {vocab_size}")
    stored = array.array("H" if vocab_size <= 2**16 else "I", ids)  # unsigned, in the machine's byte order
    if sys.byteorder == "big":
        stored.byteswap()
    with open(path, "wb") as file:
        stored.tofile(file)


def read_ids(path, vocab_size):
    width = 2 if vocab_size <= 2**16 else 4
    with open(path, "rb") as file:
        data = file.read()
    if len(data) % width != 0:
        raise ValueError(f"{path}: {len(data)} bytes is not a whole number of {width}-byte ids")
    return [int.from_bytes(data[at : at + width], "little") for at in range(0, len(data), width)]
