# module: real_tokenizer
# Part 6 notebook, exported with its demo cells at the top level.
import json
from pathlib import Path

import regex

GPT2_SPLIT = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
GPT4_SPLIT = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|"""
    r"""\s+(?!\S)|\s"""
)


# %% 1. bytes_to_unicode
def bytes_to_unicode():
    result = {}
    moved = 0
    for b in range(256):
        ch = chr(b)
        if ("!" <= ch <= "~") or ("¡" <= ch <= "¬") or ("®" <= ch <= "ÿ"):
            result[b] = ch
        else:
            result[b] = chr(256 + moved)
            moved += 1
    return result


table = bytes_to_unicode()
print("space:", table[32], "newline:", table[10], "tab:", table[9])


# %% 2. files
def load(folder):
    folder = Path(folder)
    vocab = json.loads((folder / "vocab.json").read_text(encoding="utf-8"))
    lines = (folder / "merges.txt").read_text(encoding="utf-8").split("\n")
    if lines[0].startswith("#version"):
        lines = lines[1:]
    return vocab, [tuple(l.split(" ")) for l in lines if l != ""]


def save(folder, vocab, merges):
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / "vocab.json").open("w", encoding="utf-8") as f:
        json.dump(vocab, f, ensure_ascii=False)
    with (folder / "merges.txt").open("w", encoding="utf-8") as f:
        f.write("#version: 0.2\n")
        f.writelines(a + " " + b + "\n" for a, b in merges)


# %% 3. encode
def encode(text, vocab, merges, pattern=GPT2_SPLIT, special_tokens=()):
    ranks = {pair: rank for rank, pair in enumerate(merges)}
    if len(ranks) != len(merges):  # duplicates: keep the first rank
        ranks = {}
        for rank, pair in enumerate(merges):
            ranks.setdefault(tuple(pair), rank)
    if special_tokens:
        alts = sorted(special_tokens, key=len, reverse=True)
        chunks = regex.split("(" + "|".join(map(regex.escape, alts)) + ")", text)
    else:
        chunks = [text]
    ids = []
    for n, chunk in enumerate(chunks):
        if n % 2 == 1:
            ids.append(vocab[chunk])
            continue
        for piece in regex.findall(pattern, chunk):
            symbols = [table[byte] for byte in piece.encode("utf-8")]
            while True:
                pairs = [pair for pair in zip(symbols, symbols[1:]) if pair in ranks]
                if not pairs:
                    break
                best = min(pairs, key=ranks.get)
                joined, at = [], 0
                while at < len(symbols):
                    step = 2 if tuple(symbols[at : at + 2]) == best else 1
                    joined.append("".join(symbols[at : at + step]))
                    at += step
                symbols = joined
            ids.extend(vocab[token] for token in symbols)
    return ids


# %% 4. decode
def decode(ids, vocab):
    token_of = {i: t for t, i in vocab.items()}
    back = {c: b for b, c in table.items()}
    return bytes(back[c] for c in "".join(token_of[i] for i in ids)).decode("utf-8", errors="replace")


# %% demo
gpt2_dir = Path("data/gpt2")
if (gpt2_dir / "vocab.json").exists():
    vocab, merges = load(gpt2_dir)
    print(f"GPT-2 tokens: {len(vocab):,}")
    print(f"GPT-2 merges: {len(merges):,}")
    sentence = "Tokenizers aren't magic: GPT-2 splits 2025 too."
    print("ids:", encode(sentence, vocab, merges))
    for sample in ["Zürich, 北京, Αθήνα 🙂", "def f(x):\n\treturn x  # two spaces", "<|endoftext|>"]:
        ids = encode(sample, vocab, merges, special_tokens=["<|endoftext|>"])
        print(ids, decode(ids, vocab) == sample)
else:
    print("no data/gpt2 here, skipping the demo")
