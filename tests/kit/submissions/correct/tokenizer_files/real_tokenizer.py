"""Part 6 written another way: GPT-2's original table code, os.path and open(), and a merge loop by index."""

import json
import os

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


def decode(ids, vocab):
    tokens = {value: key for key, value in vocab.items()}
    back = {character: byte for byte, character in bytes_to_unicode().items()}
    data = bytearray()
    for token_id in ids:
        data.extend(back[character] for character in tokens[token_id])
    return data.decode("utf-8", "replace")
