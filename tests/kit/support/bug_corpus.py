"""Mistakes students really make, each as the one function they got wrong.

Each entry: (module, function, the student's version of that function); RECORDS says of each the fix a
teacher would name and where it came from.
"""

from dataclasses import dataclass

BUGS: dict[str, tuple[str, str, str]] = {
    "char_tokenize drops spaces": (
        "simple_tokenizers",
        "char_tokenize",
        """
def char_tokenize(text):
    return [character for character in text if character != " "]
""",
    ),
    "char vocab numbered in first-seen order": (
        "simple_tokenizers",
        "build_char_vocab",
        """
def build_char_vocab(texts):
    vocab = {}
    for text in texts:
        for character in text:
            if character not in vocab:
                vocab[character] = len(vocab)
    return vocab
""",
    ),
    "char vocab ids start at 1": (
        "simple_tokenizers",
        "build_char_vocab",
        """
def build_char_vocab(texts):
    characters = sorted(set("".join(texts)))
    return {character: index for index, character in enumerate(characters, start=1)}
""",
    ),
    "word_tokenize splits on a single space": (
        "simple_tokenizers",
        "word_tokenize",
        """
def word_tokenize(text):
    return text.split(" ")
""",
    ),
    "word vocab without [UNK]": (
        "simple_tokenizers",
        "build_word_vocab",
        """
def build_word_vocab(texts):
    words = sorted({word for text in texts for word in text.split()})
    return {word: index for index, word in enumerate(words)}
""",
    ),
    "word vocab puts [UNK] first": (
        "simple_tokenizers",
        "build_word_vocab",
        """
def build_word_vocab(texts):
    words = sorted({word for text in texts for word in text.split()})
    vocab = {"[UNK]": 0}
    for word in words:
        vocab[word] = len(vocab)
    return vocab
""",
    ),
    "encode_words drops unknown words": (
        "simple_tokenizers",
        "encode_words",
        """
def encode_words(text, vocab):
    return [vocab[word] for word in text.split() if word in vocab]
""",
    ),
    "encode_words adds unknown words to the vocabulary": (
        "simple_tokenizers",
        "encode_words",
        """
def encode_words(text, vocab):
    ids = []
    for word in text.split():
        if word not in vocab:
            vocab[word] = vocab["[UNK]"]
        ids.append(vocab[word])
    return ids
""",
    ),
    "char_tokenize strips the text first": (
        "simple_tokenizers",
        "char_tokenize",
        """
def char_tokenize(text):
    return list(text.strip())
""",
    ),
    "char vocab numbered with repeated characters": (
        "simple_tokenizers",
        "build_char_vocab",
        """
def build_char_vocab(texts):
    characters = sorted("".join(texts))
    return {character: index for index, character in enumerate(characters)}
""",
    ),
    "word_tokenize drops punctuation": (
        "simple_tokenizers",
        "word_tokenize",
        """
import re

def word_tokenize(text):
    return re.findall(r"\\w+", text)
""",
    ),
    "word_tokenize splits on spaces and newlines only": (
        "simple_tokenizers",
        "word_tokenize",
        """
def word_tokenize(text):
    return [word for word in text.replace("\\n", " ").split(" ") if word]
""",
    ),
    "word vocab sorts [UNK] in with the words": (
        "simple_tokenizers",
        "build_word_vocab",
        """
def build_word_vocab(texts):
    words = {word for text in texts for word in text.split()}
    return {word: index for index, word in enumerate(sorted(words | {"[UNK]"}))}
""",
    ),
    "word vocab splits on a single space": (
        "simple_tokenizers",
        "build_word_vocab",
        """
def build_word_vocab(texts):
    words = sorted({word for text in texts for word in text.split(" ")})
    vocab = {word: index for index, word in enumerate(words)}
    vocab["[UNK]"] = len(vocab)
    return vocab
""",
    ),
    "encode_words takes the last id for unknown words": (
        "simple_tokenizers",
        "encode_words",
        """
def encode_words(text, vocab):
    return [vocab.get(word, len(vocab) - 1) for word in text.split()]
""",
    ),
    "encode_words splits on a single space": (
        "simple_tokenizers",
        "encode_words",
        """
def encode_words(text, vocab):
    return [vocab.get(word, vocab["[UNK]"]) for word in text.split(" ")]
""",
    ),
    "pair counts miss the last pair": (
        "bpe",
        "get_pair_counts",
        """
def get_pair_counts(tokens):
    counts = {}
    for i in range(len(tokens) - 2):
        pair = (tokens[i], tokens[i + 1])
        counts[pair] = counts.get(pair, 0) + 1
    return counts
""",
    ),
    "pair counts skip overlapping pairs": (
        "bpe",
        "get_pair_counts",
        """
def get_pair_counts(tokens):
    counts = {}
    i = 0
    while i < len(tokens) - 1:
        pair = (tokens[i], tokens[i + 1])
        counts[pair] = counts.get(pair, 0) + 1
        i += 2 if tokens[i] == tokens[i + 1] else 1
    return counts
""",
    ),
    "merge_pair forgets to skip past a merged pair": (
        "bpe",
        "merge_pair",
        """
def merge_pair(tokens, pair):
    merged = []
    i = 0
    while i < len(tokens):
        if i + 1 < len(tokens) and tokens[i] == pair[0] and tokens[i + 1] == pair[1]:
            merged.append(pair[0] + pair[1])
        else:
            merged.append(tokens[i])
        i += 1
    return merged
""",
    ),
    "merge_pair with join and str.replace": (
        "bpe",
        "merge_pair",
        """
def merge_pair(tokens, pair):
    text = " ".join(tokens)
    text = text.replace(pair[0] + " " + pair[1], pair[0] + pair[1])
    return text.split(" ")
""",
    ),
    "merge_pair edits the list in place": (
        "bpe",
        "merge_pair",
        """
def merge_pair(tokens, pair):
    i = 0
    while i < len(tokens) - 1:
        if tokens[i] == pair[0] and tokens[i + 1] == pair[1]:
            tokens[i:i + 2] = [pair[0] + pair[1]]
        i += 1
    return tokens
""",
    ),
    "train_bpe merges the least frequent pair": (
        "bpe",
        "train_bpe",
        """
def train_bpe(text, num_merges=20):
    tokens = list(text)
    merges = []
    for _ in range(num_merges):
        counts = get_pair_counts(tokens)
        if not counts:
            break
        pair = min(counts, key=counts.get)
        if counts[pair] < 2:
            break
        tokens = merge_pair(tokens, pair)
        merges.append(pair)
    return tokens, merges
""",
    ),
    "train_bpe never stops early": (
        "bpe",
        "train_bpe",
        """
def train_bpe(text, num_merges=20):
    tokens = list(text)
    merges = []
    for _ in range(num_merges):
        counts = get_pair_counts(tokens)
        if not counts:
            break
        pair = max(counts, key=counts.get)
        tokens = merge_pair(tokens, pair)
        merges.append(pair)
    return tokens, merges
""",
    ),
    "train_bpe returns merges then tokens": (
        "bpe",
        "train_bpe",
        """
def train_bpe(text, num_merges=20):
    tokens = list(text)
    merges = []
    for _ in range(num_merges):
        counts = get_pair_counts(tokens)
        if not counts or max(counts.values()) < 2:
            break
        pair = max(counts, key=counts.get)
        tokens = merge_pair(tokens, pair)
        merges.append(pair)
    return merges, tokens
""",
    ),
    "train_bpe counts pairs only once": (
        "bpe",
        "train_bpe",
        """
def train_bpe(text, num_merges=20):
    tokens = list(text)
    counts = get_pair_counts(tokens)
    merges = []
    for pair, count in sorted(counts.items(), key=lambda item: -item[1])[:num_merges]:
        if count < 2:
            break
        tokens = merge_pair(tokens, pair)
        merges.append(pair)
    return tokens, merges
""",
    ),
    "train_bpe loops forever on short input": (
        "bpe",
        "train_bpe",
        """
def train_bpe(text, num_merges=20):
    tokens = list(text)
    merges = []
    while len(merges) < num_merges:
        counts = get_pair_counts(tokens)
        if not counts:
            continue
        pair = max(counts, key=counts.get)
        if counts[pair] < 2:
            break
        tokens = merge_pair(tokens, pair)
        merges.append(pair)
    return tokens, merges
""",
    ),
    "bpe vocab sorted alphabetically": (
        "bpe",
        "build_bpe_vocab",
        """
def build_bpe_vocab(text, merges):
    tokens = sorted(set(text) | {a + b for a, b in merges})
    return {token: i for i, token in enumerate(tokens)}
""",
    ),
    "bpe vocab numbers a repeated token twice": (
        "bpe",
        "build_bpe_vocab",
        """
def build_bpe_vocab(text, merges):
    tokens = sorted(set(text), key=lambda t: (len(t), t)) + sorted((a + b for a, b in merges), key=lambda t: (len(t), t))
    return {token: i for i, token in enumerate(tokens)}
""",
    ),
    "encode applies merges in vocabulary order": (
        "bpe",
        "encode",
        """
def encode(text, merges, vocab):
    tokens = list(text)
    for pair in sorted(merges, key=lambda p: vocab[p[0] + p[1]]):
        tokens = merge_pair(tokens, pair)
    return [vocab[token] for token in tokens]
""",
    ),
    "encode returns tokens instead of ids": (
        "bpe",
        "encode",
        """
def encode(text, merges, vocab):
    tokens = list(text)
    for pair in merges:
        tokens = merge_pair(tokens, pair)
    return tokens
""",
    ),
    "decode joins tokens with spaces": (
        "bpe",
        "decode",
        """
def decode(ids, vocab):
    token_of = {i: t for t, i in vocab.items()}
    return " ".join(token_of[i] for i in ids)
""",
    ),
    "decode returns a list of tokens": (
        "bpe",
        "decode",
        """
def decode(ids, vocab):
    token_of = {i: t for t, i in vocab.items()}
    return [token_of[i] for i in ids]
""",
    ),
    "merge_pair pops the tokens off the list it is given": (
        "bpe",
        "merge_pair",
        """
def merge_pair(tokens, pair):
    merged = []
    while tokens:
        token = tokens.pop(0)
        if tokens and token == pair[0] and tokens[0] == pair[1]:
            merged.append(token + tokens.pop(0))
        else:
            merged.append(token)
    return merged
""",
    ),
    "merge_pair returns a tuple": (
        "bpe",
        "merge_pair",
        """
def merge_pair(tokens, pair):
    merged = []
    i = 0
    while i < len(tokens):
        if tuple(tokens[i:i + 2]) == pair:
            merged.append(pair[0] + pair[1])
            i += 2
        else:
            merged.append(tokens[i])
            i += 1
    return tuple(merged)
""",
    ),
    "train_bpe crashes on text shorter than two characters": (
        "bpe",
        "train_bpe",
        """
def train_bpe(text, num_merges=20):
    tokens = list(text)
    merges = []
    for _ in range(num_merges):
        counts = get_pair_counts(tokens)
        best = max(counts, key=counts.get)
        if counts[best] < 2:
            break
        tokens = merge_pair(tokens, best)
        merges.append(best)
    return tokens, merges
""",
    ),
    "bpe vocab numbered in merge order": (
        "bpe",
        "build_bpe_vocab",
        """
def build_bpe_vocab(text, merges):
    vocab = {}
    for character in sorted(set(text)):
        vocab[character] = len(vocab)
    for first, second in merges:
        if first + second not in vocab:
            vocab[first + second] = len(vocab)
    return vocab
""",
    ),
    "encode takes the longest token of the vocabulary, greedily": (
        "bpe",
        "encode",
        """
def encode(text, merges, vocab):
    ids = []
    start = 0
    while start < len(text):
        end = len(text)
        while text[start:end] not in vocab:
            end -= 1
        ids.append(vocab[text[start:end]])
        start = end
    return ids
""",
    ),
    "decode looks an id up by its place in the vocabulary": (
        "bpe",
        "decode",
        """
def decode(ids, vocab):
    tokens = list(vocab)
    return "".join(tokens[i] for i in ids)
""",
    ),
    # -- Part 3: word-level BPE ------------------------------------------------------------
    "pre_tokenize lowercases the text": (
        "word_bpe",
        "pre_tokenize",
        """
def pre_tokenize(text):
    return re.findall(r"\\w+|[^\\s\\w]+", text.lower())
""",
    ),
    "pre_tokenize splits on whitespace only": (
        "word_bpe",
        "pre_tokenize",
        """
def pre_tokenize(text):
    return text.split()
""",
    ),
    "word_frequencies glues the marker to the last character": (
        "word_bpe",
        "word_frequencies",
        """
def word_frequencies(text):
    counts = {}
    for word in pre_tokenize(text):
        key = tuple(word[:-1]) + (word[-1] + "</w>",)
        counts[key] = counts.get(key, 0) + 1
    return counts
""",
    ),
    "word_frequencies counts each distinct word once": (
        "word_bpe",
        "word_frequencies",
        """
def word_frequencies(text):
    return {tuple(word) + ("</w>",): 1 for word in set(pre_tokenize(text))}
""",
    ),
    "word pair counts ignore the frequencies": (
        "word_bpe",
        "get_pair_counts",
        """
def get_pair_counts(word_freqs):
    counts = Counter()
    for word in word_freqs:
        for pair in zip(word, word[1:]):
            counts[pair] += 1
    return counts
""",
    ),
    "word pair counts run across words": (
        "word_bpe",
        "get_pair_counts",
        """
def get_pair_counts(word_freqs):
    symbols = []
    for word, frequency in word_freqs.items():
        symbols.extend(list(word) * frequency)
    return Counter(zip(symbols, symbols[1:]))
""",
    ),
    "word merge_pair with str.replace on spaced symbols": (
        "word_bpe",
        "merge_pair",
        """
def merge_pair(word_freqs, pair):
    merged = {}
    for word, frequency in word_freqs.items():
        spaced = " ".join(word).replace(pair[0] + " " + pair[1], pair[0] + pair[1])
        merged[tuple(spaced.split(" "))] = frequency
    return merged
""",
    ),
    "word merge_pair edits the table in place": (
        "word_bpe",
        "merge_pair",
        """
def merge_pair(word_freqs, pair):
    for word in list(word_freqs):
        symbols, i = [], 0
        while i < len(word):
            if i + 1 < len(word) and (word[i], word[i + 1]) == pair:
                symbols.append(word[i] + word[i + 1])
                i += 2
            else:
                symbols.append(word[i])
                i += 1
        frequency = word_freqs.pop(word)
        word_freqs[tuple(symbols)] = word_freqs.get(tuple(symbols), 0) + frequency
    return word_freqs
""",
    ),
    "word merge_pair overwrites the count of words that become equal": (
        "word_bpe",
        "merge_pair",
        """
def merge_pair(word_freqs, pair):
    merged = {}
    for word, frequency in word_freqs.items():
        symbols, i = [], 0
        while i < len(word):
            if i + 1 < len(word) and (word[i], word[i + 1]) == pair:
                symbols.append(word[i] + word[i + 1])
                i += 2
            else:
                symbols.append(word[i])
                i += 1
        merged[tuple(symbols)] = frequency
    return merged
""",
    ),
    "word train_bpe counts the pairs only once": (
        "word_bpe",
        "train_bpe",
        """
def train_bpe(text, num_merges):
    word_freqs = word_frequencies(text)
    counts = get_pair_counts(word_freqs)
    merges = []
    for pair, count in counts.most_common(num_merges):
        if count < 2:
            break
        word_freqs = merge_pair(word_freqs, pair)
        merges.append(pair)
    return merges
""",
    ),
    "word train_bpe merges pairs seen once": (
        "word_bpe",
        "train_bpe",
        """
def train_bpe(text, num_merges):
    word_freqs = word_frequencies(text)
    merges = []
    for _ in range(num_merges):
        counts = get_pair_counts(word_freqs)
        if not counts:
            break
        pair = counts.most_common(1)[0][0]
        word_freqs = merge_pair(word_freqs, pair)
        merges.append(pair)
    return merges
""",
    ),
    "word encode forgets the end-of-word marker": (
        "word_bpe",
        "encode",
        """
def encode(text, merges):
    tokens = []
    for word in pre_tokenize(text):
        symbols = {tuple(word): 1}
        for pair in merges:
            symbols = merge_pair(symbols, pair)
        tokens.extend(next(iter(symbols)))
    return tokens
""",
    ),
    "word encode sorts the merges": (
        "word_bpe",
        "encode",
        """
def encode(text, merges):
    tokens = []
    for word in pre_tokenize(text):
        symbols = {tuple(word) + ("</w>",): 1}
        for pair in sorted(merges):
            symbols = merge_pair(symbols, pair)
        tokens.extend(next(iter(symbols)))
    return tokens
""",
    ),
    "encode_by_rank merges the newest pair first": (
        "word_bpe",
        "encode_by_rank",
        """
def encode_by_rank(text, merges):
    ranks = {pair: rank for rank, pair in enumerate(merges)}
    tokens = []
    for word in pre_tokenize(text):
        symbols = (*word, END_OF_WORD)
        while True:
            known = [pair for pair in zip(symbols, symbols[1:]) if pair in ranks]
            if not known:
                break
            best = max(known, key=ranks.get)
            symbols = next(iter(merge_pair({symbols: 1}, best)))
        tokens.extend(symbols)
    return tokens
""",
    ),
    "encode_by_rank stops after one merge per word": (
        "word_bpe",
        "encode_by_rank",
        """
def encode_by_rank(text, merges):
    ranks = {pair: rank for rank, pair in enumerate(merges)}
    tokens = []
    for word in pre_tokenize(text):
        symbols = (*word, END_OF_WORD)
        known = [pair for pair in zip(symbols, symbols[1:]) if pair in ranks]
        if known:
            symbols = next(iter(merge_pair({symbols: 1}, min(known, key=ranks.get))))
        tokens.extend(symbols)
    return tokens
""",
    ),
    "encode_by_rank replays every merge in order": (
        "word_bpe",
        "encode_by_rank",
        """
def encode_by_rank(text, merges):
    return encode(text, merges)
""",
    ),
    "word decode glues the words together": (
        "word_bpe",
        "decode",
        """
def decode(tokens):
    return "".join(tokens).replace("</w>", "")
""",
    ),
    "word decode leaves a trailing space": (
        "word_bpe",
        "decode",
        """
def decode(tokens):
    return "".join(tokens).replace("</w>", " ")
""",
    ),
    "encode_by_rank merges the leftmost mergeable pair": (
        "word_bpe",
        "encode_by_rank",
        """
def encode_by_rank(text, merges):
    ranks = {pair: rank for rank, pair in enumerate(merges)}
    tokens = []
    for word in pre_tokenize(text):
        symbols = list(word) + [END_OF_WORD]
        merged = True
        while merged:
            merged = False
            for i in range(len(symbols) - 1):
                if (symbols[i], symbols[i + 1]) in ranks:
                    symbols[i : i + 2] = [symbols[i] + symbols[i + 1]]
                    merged = True
                    break
        tokens.extend(symbols)
    return tokens
""",
    ),
    "word train_bpe stops at a count of two": (
        "word_bpe",
        "train_bpe",
        """
def train_bpe(text, num_merges):
    word_freqs = word_frequencies(text)
    merges = []
    for _ in range(num_merges):
        counts = get_pair_counts(word_freqs)
        if not counts:
            break
        pair, count = counts.most_common(1)[0]
        if count <= 2:
            break
        word_freqs = merge_pair(word_freqs, pair)
        merges.append(pair)
    return merges
""",
    ),
    "pre_tokenize drops punctuation": (
        "word_bpe",
        "pre_tokenize",
        """
def pre_tokenize(text):
    return re.findall(r"\\w+", text)
""",
    ),
    "word decode puts a space between the tokens of a word": (
        "word_bpe",
        "decode",
        """
def decode(tokens):
    return " ".join(token.replace("</w>", "") for token in tokens if token != "</w>")
""",
    ),
    # -- Part 4: byte-level BPE ------------------------------------------------------------
    "byte pair counts step two ids at a time": (
        "byte_bpe",
        "get_pair_counts",
        """
def get_pair_counts(ids):
    counts = Counter()
    for i in range(0, len(ids) - 1, 2):
        counts[(ids[i], ids[i + 1])] += 1
    return counts
""",
    ),
    "byte merge_pair steps by one after a merge": (
        "byte_bpe",
        "merge_pair",
        """
def merge_pair(ids, pair, new_id):
    merged = []
    i = 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            merged.append(new_id)
        else:
            merged.append(ids[i])
        i += 1
    return merged
""",
    ),
    "byte train_bpe starts from ord() of each character": (
        "byte_bpe",
        "train_bpe",
        """
def train_bpe(text, vocab_size):
    if vocab_size < 256:
        raise ValueError("vocab_size must be at least 256")
    ids = [ord(character) for character in text]
    merges = {}
    for new_id in range(256, vocab_size):
        counts = get_pair_counts(ids)
        if not counts or counts.most_common(1)[0][1] < 2:
            break
        pair = counts.most_common(1)[0][0]
        ids = merge_pair(ids, pair, new_id)
        merges[pair] = new_id
    return merges
""",
    ),
    "byte train_bpe numbers merges from 257": (
        "byte_bpe",
        "train_bpe",
        """
def train_bpe(text, vocab_size):
    if vocab_size < 256:
        raise ValueError("vocab_size must be at least 256")
    ids = list(text.encode("utf-8"))
    merges = {}
    for i in range(vocab_size - 256):
        counts = get_pair_counts(ids)
        if not counts or counts.most_common(1)[0][1] < 2:
            break
        pair = counts.most_common(1)[0][0]
        ids = merge_pair(ids, pair, 257 + i)
        merges[pair] = 257 + i
    return merges
""",
    ),
    "byte train_bpe accepts any vocab_size": (
        "byte_bpe",
        "train_bpe",
        """
def train_bpe(text, vocab_size):
    ids = list(text.encode("utf-8"))
    merges = {}
    for new_id in range(256, vocab_size):
        counts = get_pair_counts(ids)
        if not counts or counts.most_common(1)[0][1] < 2:
            break
        pair = counts.most_common(1)[0][0]
        ids = merge_pair(ids, pair, new_id)
        merges[pair] = new_id
    return merges
""",
    ),
    "byte encode applies merges in pair order": (
        "byte_bpe",
        "encode",
        """
def encode(text, merges):
    ids = list(text.encode("utf-8"))
    for pair in sorted(merges):
        ids = merge_pair(ids, pair, merges[pair])
    return ids
""",
    ),
    "byte encode uses ord() instead of UTF-8": (
        "byte_bpe",
        "encode",
        """
def encode(text, merges):
    ids = [ord(character) for character in text]
    for pair, new_id in sorted(merges.items(), key=lambda item: item[1]):
        ids = merge_pair(ids, pair, new_id)
    return ids
""",
    ),
    "byte decode with errors=strict": (
        "byte_bpe",
        "decode",
        """
def decode(ids, merges):
    token_bytes = {i: bytes([i]) for i in range(256)}
    for (a, b), new_id in sorted(merges.items(), key=lambda item: item[1]):
        token_bytes[new_id] = token_bytes[a] + token_bytes[b]
    return b"".join(token_bytes[i] for i in ids).decode("utf-8")
""",
    ),
    "byte decode decodes each token on its own": (
        "byte_bpe",
        "decode",
        """
def decode(ids, merges):
    token_bytes = {i: bytes([i]) for i in range(256)}
    for (a, b), new_id in sorted(merges.items(), key=lambda item: item[1]):
        token_bytes[new_id] = token_bytes[a] + token_bytes[b]
    return "".join(token_bytes[i].decode("utf-8", errors="replace") for i in ids)
""",
    ),
    "pieces training counts pairs across pieces": (
        "byte_bpe",
        "train_on_pieces",
        """
def train_on_pieces(text, vocab_size):
    return train_bpe(text, vocab_size)
""",
    ),
    "pieces training splits on whitespace instead of the pattern": (
        "byte_bpe",
        "train_on_pieces",
        """
def train_on_pieces(text, vocab_size):
    if vocab_size < 256:
        raise ValueError("vocab_size must be at least 256")
    pieces = [list(word.encode("utf-8")) for word in text.split()]
    merges = {}
    for new_id in range(256, vocab_size):
        counts = Counter()
        for piece in pieces:
            counts.update(get_pair_counts(piece))
        if not counts or counts.most_common(1)[0][1] < 2:
            break
        best = counts.most_common(1)[0][0]
        pieces = [merge_pair(piece, best, new_id) for piece in pieces]
        merges[best] = new_id
    return merges
""",
    ),
    "specials encoded without the pre-split": (
        "byte_bpe",
        "encode_with_specials",
        """
def encode_with_specials(text, merges, special_tokens):
    longest_first = sorted(special_tokens, key=len, reverse=True)
    pattern = "(" + "|".join(regex.escape(token) for token in longest_first) + ")"
    ids = []
    for index, chunk in enumerate(regex.split(pattern, text) if special_tokens else [text]):
        ids += [special_tokens[chunk]] if index % 2 else encode(chunk, merges)
    return ids
""",
    ),
    "special tokens tried in dict order, not longest first": (
        "byte_bpe",
        "encode_with_specials",
        """
def encode_with_specials(text, merges, special_tokens):
    chunks = [text]
    if special_tokens:
        chunks = regex.split("(" + "|".join(regex.escape(token) for token in special_tokens) + ")", text)
    ids = []
    for index, chunk in enumerate(chunks):
        if index % 2:
            ids.append(special_tokens[chunk])
        else:
            for piece in regex.findall(GPT2_SPLIT_PATTERN, chunk):
                ids.extend(encode(piece, merges))
    return ids
""",
    ),
    "special ids decoded as if they were merges": (
        "byte_bpe",
        "decode_with_specials",
        """
def decode_with_specials(ids, merges, special_tokens):
    return decode([i for i in ids if i not in special_tokens.values()], merges)
""",
    ),
    "byte train_bpe makes one merge too many": (
        "byte_bpe",
        "train_bpe",
        """
def train_bpe(text, vocab_size):
    if vocab_size < 256:
        raise ValueError("vocab_size must be at least 256")
    ids = list(text.encode("utf-8"))
    merges = {}
    while len(merges) <= vocab_size - 256:
        counts = get_pair_counts(ids)
        if not counts:
            break
        pair, count = counts.most_common(1)[0]
        if count < 2:
            break
        new_id = 256 + len(merges)
        ids = merge_pair(ids, pair, new_id)
        merges[pair] = new_id
    return merges
""",
    ),
    "byte encode applies merges in the dict's order": (
        "byte_bpe",
        "encode",
        """
def encode(text, merges):
    ids = list(text.encode("utf-8"))
    for pair, new_id in merges.items():
        ids = merge_pair(ids, pair, new_id)
    return ids
""",
    ),
    "special tokens: an empty dict splits between every character": (
        "byte_bpe",
        "encode_with_specials",
        """
def encode_with_specials(text, merges, special_tokens):
    longest_first = sorted(special_tokens, key=len, reverse=True)
    pattern = "(" + "|".join(regex.escape(token) for token in longest_first) + ")"
    ids = []
    for chunk in regex.split(pattern, text):
        if chunk in special_tokens:
            ids.append(special_tokens[chunk])
        else:
            for piece in regex.findall(GPT2_SPLIT_PATTERN, chunk):
                ids.extend(encode(piece, merges))
    return ids
""",
    ),
    "special-token text decoded one id at a time": (
        "byte_bpe",
        "decode_with_specials",
        """
def decode_with_specials(ids, merges, special_tokens):
    token_of = {new_id: token for token, new_id in special_tokens.items()}
    return "".join(token_of[i] if i in token_of else decode([i], merges) for i in ids)
""",
    ),
    "fast trainer breaks ties by first seen": (
        "fast_bpe",
        "train_bpe",
        """
from collections import Counter

def train_bpe(word_freqs, num_merges):
    words = {tuple(word) + ("</w>",): count for word, count in word_freqs.items()}
    merges = []
    while len(merges) < num_merges:
        counts = Counter()
        for symbols, count in words.items():
            for pair in zip(symbols, symbols[1:]):
                counts[pair] += count
        if not counts or counts.most_common(1)[0][1] < 2:
            break
        best = counts.most_common(1)[0][0]
        words = {tuple(_merge(list(symbols), best)): count for symbols, count in words.items()}
        merges.append(best)
    return merges
""",
    ),
    "fast trainer never lowers the counts of a merged word's old pairs": (
        "fast_bpe",
        "train_bpe",
        """
from collections import Counter

def train_bpe(word_freqs, num_merges):
    spelled = [list(word) + ["</w>"] for word in word_freqs]
    frequency = list(word_freqs.values())
    counts = Counter()
    for symbols, count in zip(spelled, frequency):
        for pair in zip(symbols, symbols[1:]):
            counts[pair] += count
    merges = []
    while len(merges) < num_merges and counts:
        best = max(counts, key=lambda pair: (counts[pair], pair))
        if counts[best] < 2:
            break
        merges.append(best)
        del counts[best]
        for index, symbols in enumerate(spelled):
            if best in zip(symbols, symbols[1:]):
                spelled[index] = _merge(symbols, best)
                for pair in zip(spelled[index], spelled[index][1:]):
                    if best[0] + best[1] in pair:
                        counts[pair] += frequency[index]
    return merges
""",
    ),
    # Slower than the target, but it answers a table it has seen before at once: the speed test's best
    # of three must not time a remembered answer.
    "fast trainer below the speed target, remembering its answers": (
        "fast_bpe",
        "train_bpe",
        """
import time

_remembered = {}
_honest_train = train_bpe

def train_bpe(word_freqs, num_merges):
    key = (tuple(sorted(word_freqs.items())), num_merges)
    if key not in _remembered:
        started = time.perf_counter()
        _remembered[key] = _honest_train(word_freqs, num_merges)
        time.sleep(12 * (time.perf_counter() - started))  # below the target however busy the machine
    return list(_remembered[key])
""",
    ),
    "fast trainer is the naive recount (right, but slow)": (
        "fast_bpe",
        "train_bpe",
        """
from collections import Counter

def train_bpe(word_freqs, num_merges):
    words = {tuple(word) + ("</w>",): count for word, count in word_freqs.items()}
    merges = []
    while len(merges) < num_merges:
        counts = Counter()
        for symbols, count in words.items():
            for pair in zip(symbols, symbols[1:]):
                counts[pair] += count
        best = max(counts, key=lambda pair: (counts[pair], pair), default=None)
        if best is None or counts[best] < 2:
            break
        merged = {}
        for symbols, count in words.items():
            key = tuple(_merge(list(symbols), best))
            merged[key] = merged.get(key, 0) + count
        words = merged
        merges.append(best)
    return merges
""",
    ),
    "fast trainer's heap pops the smallest pair on a tie": (
        "fast_bpe",
        "train_bpe",
        """
import heapq
from collections import defaultdict

def train_bpe(word_freqs, num_merges):
    words = [list(word) + ["</w>"] for word in word_freqs]
    frequency = list(word_freqs.values())
    counts = defaultdict(int)
    holders = defaultdict(set)
    for index, symbols in enumerate(words):
        for pair in zip(symbols, symbols[1:]):
            counts[pair] += frequency[index]
            holders[pair].add(index)
    heap = [(-count, pair) for pair, count in counts.items()]
    heapq.heapify(heap)
    merges = []
    while heap and len(merges) < num_merges:
        negative_count, best = heapq.heappop(heap)
        if -negative_count != counts.get(best, 0):
            continue  # stale
        if -negative_count < 2:
            break
        merges.append(best)
        changed = set()
        for index in holders.pop(best):
            symbols = words[index]
            old_pairs = list(zip(symbols, symbols[1:]))
            if best not in old_pairs:
                continue
            for pair in old_pairs:
                counts[pair] -= frequency[index]
            symbols = _merge(symbols, best)
            words[index] = symbols
            for pair in zip(symbols, symbols[1:]):
                counts[pair] += frequency[index]
                holders[pair].add(index)
            changed.update(old_pairs)
            changed.update(zip(symbols, symbols[1:]))
        counts.pop(best, None)
        for pair in changed:
            if counts.get(pair, 0) > 0:
                heapq.heappush(heap, (-counts[pair], pair))
    return merges
""",
    ),
    "fast trainer forgets the end-of-word marker": (
        "fast_bpe",
        "train_bpe",
        """
from collections import Counter

def train_bpe(word_freqs, num_merges):
    spelled = [list(word) for word in word_freqs]
    frequency = list(word_freqs.values())
    counts = Counter()
    for symbols, count in zip(spelled, frequency):
        for pair in zip(symbols, symbols[1:]):
            counts[pair] += count
    merges = []
    while len(merges) < num_merges and counts:
        best = max(counts, key=lambda pair: (counts[pair], pair))
        if counts[best] < 2:
            break
        merges.append(best)
        for index, symbols in enumerate(spelled):
            old_pairs = list(zip(symbols, symbols[1:]))
            if best in old_pairs:
                for pair in old_pairs:
                    counts[pair] -= frequency[index]
                symbols = _merge(symbols, best)
                spelled[index] = symbols
                for pair in zip(symbols, symbols[1:]):
                    counts[pair] += frequency[index]
        counts = +counts  # drop the pairs no word holds any more
    return merges
""",
    ),
    "fast trainer adds a merged word's new pairs once, not by its frequency": (
        "fast_bpe",
        "train_bpe",
        """
from collections import Counter

def train_bpe(word_freqs, num_merges):
    spelled = [list(word) + ["</w>"] for word in word_freqs]
    frequency = list(word_freqs.values())
    counts = Counter()
    for symbols, count in zip(spelled, frequency):
        for pair in zip(symbols, symbols[1:]):
            counts[pair] += count
    merges = []
    while len(merges) < num_merges and counts:
        best = max(counts, key=lambda pair: (counts[pair], pair))
        if counts[best] < 2:
            break
        merges.append(best)
        for index, symbols in enumerate(spelled):
            old_pairs = list(zip(symbols, symbols[1:]))
            if best in old_pairs:
                for pair in old_pairs:
                    counts[pair] -= frequency[index]
                symbols = _merge(symbols, best)
                spelled[index] = symbols
                for pair in zip(symbols, symbols[1:]):
                    counts[pair] += 1
        counts = +counts  # drop the pairs no word holds any more
    return merges
""",
    ),
    "fast trainer merges pairs seen only once": (
        "fast_bpe",
        "train_bpe",
        """
from collections import Counter

def train_bpe(word_freqs, num_merges):
    spelled = [list(word) + ["</w>"] for word in word_freqs]
    frequency = list(word_freqs.values())
    counts = Counter()
    for symbols, count in zip(spelled, frequency):
        for pair in zip(symbols, symbols[1:]):
            counts[pair] += count
    merges = []
    while len(merges) < num_merges and counts:
        best = max(counts, key=lambda pair: (counts[pair], pair))
        if counts[best] < 1:
            break
        merges.append(best)
        for index, symbols in enumerate(spelled):
            old_pairs = list(zip(symbols, symbols[1:]))
            if best in old_pairs:
                for pair in old_pairs:
                    counts[pair] -= frequency[index]
                symbols = _merge(symbols, best)
                spelled[index] = symbols
                for pair in zip(symbols, symbols[1:]):
                    counts[pair] += frequency[index]
        counts = +counts  # drop the pairs no word holds any more
    return merges
""",
    ),
    "fast trainer merges across symbols with str.replace": (
        "fast_bpe",
        "train_bpe",
        """
from collections import Counter

def train_bpe(word_freqs, num_merges):
    spelled = [list(word) + ["</w>"] for word in word_freqs]
    frequency = list(word_freqs.values())
    counts = Counter()
    for symbols, count in zip(spelled, frequency):
        for pair in zip(symbols, symbols[1:]):
            counts[pair] += count
    merges = []
    while len(merges) < num_merges and counts:
        best = max(counts, key=lambda pair: (counts[pair], pair))
        if counts[best] < 2:
            break
        merges.append(best)
        for index, symbols in enumerate(spelled):
            old_pairs = list(zip(symbols, symbols[1:]))
            if best in old_pairs:
                for pair in old_pairs:
                    counts[pair] -= frequency[index]
                symbols = " ".join(symbols).replace(" ".join(best), "".join(best)).split(" ")
                spelled[index] = symbols
                for pair in zip(symbols, symbols[1:]):
                    counts[pair] += frequency[index]
        counts = +counts  # drop the pairs no word holds any more
    return merges
""",
    ),
    "fast trainer spells the words into the table it is given": (
        "fast_bpe",
        "train_bpe",
        """
from collections import Counter

def train_bpe(word_freqs, num_merges):
    words = word_freqs  # a new name, not a new dict
    for word in list(words):
        words[tuple(word) + ("</w>",)] = words.pop(word)
    counts = Counter()
    for symbols, count in words.items():
        for pair in zip(symbols, symbols[1:]):
            counts[pair] += count
    merges = []
    while len(merges) < num_merges and counts:
        best = max(counts, key=lambda pair: (counts[pair], pair))
        if counts[best] < 2:
            break
        merges.append(best)
        for symbols in [symbols for symbols in words if best in zip(symbols, symbols[1:])]:
            count = words.pop(symbols)
            for pair in zip(symbols, symbols[1:]):
                counts[pair] -= count
            symbols = tuple(_merge(list(symbols), best))
            words[symbols] = count
            for pair in zip(symbols, symbols[1:]):
                counts[pair] += count
        counts = +counts
    return merges
""",
    ),
    # -- Part 6: a real tokenizer ------------------------------------------------------------
    "byte table: every byte stands for itself": (
        "real_tokenizer",
        "bytes_to_unicode",
        """
def bytes_to_unicode():
    return {byte: chr(byte) for byte in range(256)}
""",
    ),
    "byte table shifts a byte to chr(256 + byte)": (
        "real_tokenizer",
        "bytes_to_unicode",
        """
def bytes_to_unicode():
    printable = set(range(ord("!"), ord("~") + 1)) | set(range(ord("¡"), ord("¬") + 1)) | set(range(ord("®"), ord("ÿ") + 1))
    return {byte: chr(byte) if byte in printable else chr(256 + byte) for byte in range(256)}
""",
    ),
    "byte table leaves out the range ¡ to ¬": (
        "real_tokenizer",
        "bytes_to_unicode",
        """
def bytes_to_unicode():
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    table, n = {}, 0
    for byte in range(256):
        if byte in printable:
            table[byte] = chr(byte)
        else:
            table[byte] = chr(256 + n)
            n += 1
    return table
""",
    ),
    "byte table ranges stop one short (range end excluded)": (
        "real_tokenizer",
        "bytes_to_unicode",
        """
def bytes_to_unicode():
    printable = list(range(ord("!"), ord("~"))) + list(range(ord("¡"), ord("¬"))) + list(range(ord("®"), ord("ÿ")))
    table, n = {}, 0
    for byte in range(256):
        if byte in printable:
            table[byte] = chr(byte)
        else:
            table[byte] = chr(256 + n)
            n += 1
    return table
""",
    ),
    "load keeps the #version line as a merge": (
        "real_tokenizer",
        "load",
        """
def load(folder):
    with open(f"{folder}/vocab.json", encoding="utf-8") as file:
        vocab = json.load(file)
    with open(f"{folder}/merges.txt", encoding="utf-8") as file:
        merges = [tuple(line.split()) for line in file.read().split("\\n") if line]
    return vocab, merges
""",
    ),
    "load drops the first line even when it is a merge": (
        "real_tokenizer",
        "load",
        """
def load(folder):
    with open(f"{folder}/vocab.json", encoding="utf-8") as file:
        vocab = json.load(file)
    with open(f"{folder}/merges.txt", encoding="utf-8") as file:
        lines = file.read().split("\\n")[1:]
    return vocab, [tuple(line.split(" ")) for line in lines if line]
""",
    ),
    "load drops the last merge, as encoder.py's [1:-1]": (
        "real_tokenizer",
        "load",
        """
def load(folder):
    with open(f"{folder}/vocab.json", encoding="utf-8") as file:
        vocab = json.load(file)
    with open(f"{folder}/merges.txt", encoding="utf-8") as file:
        lines = file.read().split("\\n")[1:-1]
    return vocab, [tuple(line.split(" ")) for line in lines]
""",
    ),
    "load gives each merge as a list": (
        "real_tokenizer",
        "load",
        """
def load(folder):
    with open(f"{folder}/vocab.json", encoding="utf-8") as file:
        vocab = json.load(file)
    with open(f"{folder}/merges.txt", encoding="utf-8") as file:
        lines = [line for line in file.read().split("\\n") if line and not line.startswith("#version")]
    return vocab, [line.split(" ") for line in lines]
""",
    ),
    "save leaves out the #version line": (
        "real_tokenizer",
        "save",
        """
def save(folder, vocab, merges):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "vocab.json"), "w", encoding="utf-8") as file:
        json.dump(vocab, file)
    with open(os.path.join(folder, "merges.txt"), "w", encoding="utf-8") as file:
        for first, second in merges:
            file.write(f"{first} {second}\\n")
""",
    ),
    "save does not make the folder": (
        "real_tokenizer",
        "save",
        """
def save(folder, vocab, merges):
    with open(os.path.join(folder, "vocab.json"), "w", encoding="utf-8") as file:
        json.dump(vocab, file)
    with open(os.path.join(folder, "merges.txt"), "w", encoding="utf-8") as file:
        file.write("#version: 0.2\\n")
        for first, second in merges:
            file.write(f"{first} {second}\\n")
""",
    ),
    "save joins the lines with no newline after the last": (
        "real_tokenizer",
        "save",
        """
def save(folder, vocab, merges):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "vocab.json"), "w", encoding="utf-8") as file:
        json.dump(vocab, file)
    with open(os.path.join(folder, "merges.txt"), "w", encoding="utf-8") as file:
        file.write("\\n".join(["#version: 0.2"] + [f"{first} {second}" for first, second in merges]))
""",
    ),
    "save writes each merge as its tuple's repr": (
        "real_tokenizer",
        "save",
        """
def save(folder, vocab, merges):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "vocab.json"), "w", encoding="utf-8") as file:
        json.dump(vocab, file)
    with open(os.path.join(folder, "merges.txt"), "w", encoding="utf-8") as file:
        file.write("#version: 0.2\\n")
        for merge in merges:
            file.write(f"{merge}\\n")
""",
    ),
    "encode merges the first pair it meets that is a merge": (
        "real_tokenizer",
        "encode",
        """
def encode(text, vocab, merges, pattern=GPT2_SPLIT, special_tokens=()):
    table = bytes_to_unicode()
    known = set(merges)
    chunks = [text]
    if special_tokens:
        chunks = regex.split("(" + "|".join(regex.escape(t) for t in sorted(special_tokens, key=len, reverse=True)) + ")", text)
    ids = []
    for index, chunk in enumerate(chunks):
        if index % 2:
            ids.append(vocab[chunk])
            continue
        for piece in regex.findall(pattern, chunk):
            symbols = [table[b] for b in piece.encode("utf-8")]
            while True:
                for i in range(len(symbols) - 1):
                    if (symbols[i], symbols[i + 1]) in known:
                        symbols[i : i + 2] = [symbols[i] + symbols[i + 1]]
                        break
                else:
                    break
            ids.extend(vocab[s] for s in symbols)
    return ids
""",
    ),
    "encode spells characters, not bytes": (
        "real_tokenizer",
        "encode",
        """
def encode(text, vocab, merges, pattern=GPT2_SPLIT, special_tokens=()):
    ranks = {pair: rank for rank, pair in enumerate(merges)}
    table = bytes_to_unicode()
    chunks = [text]
    if special_tokens:
        chunks = regex.split("(" + "|".join(regex.escape(t) for t in sorted(special_tokens, key=len, reverse=True)) + ")", text)
    ids = []
    for index, chunk in enumerate(chunks):
        if index % 2:
            ids.append(vocab[chunk])
            continue
        for piece in regex.findall(pattern, chunk):
            symbols = [table.get(ord(c), c) for c in piece]
            ids.extend(vocab.get(s, 0) for s in merge_by_rank(symbols, ranks))
    return ids
""",
    ),
    "encode always splits with GPT2_SPLIT": (
        "real_tokenizer",
        "encode",
        """
def encode(text, vocab, merges, pattern=GPT2_SPLIT, special_tokens=()):
    ranks = {pair: rank for rank, pair in enumerate(merges)}
    table = bytes_to_unicode()
    chunks = [text]
    if special_tokens:
        chunks = regex.split("(" + "|".join(regex.escape(t) for t in sorted(special_tokens, key=len, reverse=True)) + ")", text)
    ids = []
    for index, chunk in enumerate(chunks):
        if index % 2:
            ids.append(vocab[chunk])
            continue
        for piece in regex.findall(GPT2_SPLIT, chunk):
            ids.extend(vocab[s] for s in merge_by_rank([table[b] for b in piece.encode("utf-8")], ranks))
    return ids
""",
    ),
    "encode tries special tokens in the order given": (
        "real_tokenizer",
        "encode",
        """
def encode(text, vocab, merges, pattern=GPT2_SPLIT, special_tokens=()):
    ranks = {pair: rank for rank, pair in enumerate(merges)}
    table = bytes_to_unicode()
    chunks = [text]
    if special_tokens:
        chunks = regex.split("(" + "|".join(regex.escape(t) for t in special_tokens) + ")", text)
    ids = []
    for index, chunk in enumerate(chunks):
        if index % 2:
            ids.append(vocab[chunk])
            continue
        for piece in regex.findall(pattern, chunk):
            ids.extend(vocab[s] for s in merge_by_rank([table[b] for b in piece.encode("utf-8")], ranks))
    return ids
""",
    ),
    "encode merges across pieces (no pre-split)": (
        "real_tokenizer",
        "encode",
        """
def encode(text, vocab, merges, pattern=GPT2_SPLIT, special_tokens=()):
    ranks = {pair: rank for rank, pair in enumerate(merges)}
    table = bytes_to_unicode()
    chunks = [text]
    if special_tokens:
        chunks = regex.split("(" + "|".join(regex.escape(t) for t in sorted(special_tokens, key=len, reverse=True)) + ")", text)
    ids = []
    for index, chunk in enumerate(chunks):
        if index % 2:
            ids.append(vocab[chunk])
        elif chunk:
            ids.extend(vocab[s] for s in merge_by_rank([table[b] for b in chunk.encode("utf-8")], ranks))
    return ids
""",
    ),
    "encode splits on an empty alternation when there are no special tokens": (
        "real_tokenizer",
        "encode",
        """
def encode(text, vocab, merges, pattern=GPT2_SPLIT, special_tokens=()):
    ranks = {pair: rank for rank, pair in enumerate(merges)}
    table = bytes_to_unicode()
    longest = sorted(special_tokens, key=len, reverse=True)
    chunks = regex.split("(" + "|".join(regex.escape(t) for t in longest) + ")", text)
    ids = []
    for chunk in chunks:
        if chunk in special_tokens:
            ids.append(vocab[chunk])
            continue
        for piece in regex.findall(pattern, chunk):
            ids.extend(vocab[s] for s in merge_by_rank([table[b] for b in piece.encode("utf-8")], ranks))
    return ids
""",
    ),
    "decode decodes each token on its own": (
        "real_tokenizer",
        "decode",
        """
def decode(ids, vocab):
    token_of = {i: t for t, i in vocab.items()}
    byte_of = {c: b for b, c in bytes_to_unicode().items()}
    return "".join(bytes(byte_of[c] for c in token_of[i]).decode("utf-8", errors="replace") for i in ids)
""",
    ),
    "decode with errors=strict": (
        "real_tokenizer",
        "decode",
        """
def decode(ids, vocab):
    token_of = {i: t for t, i in vocab.items()}
    byte_of = {c: b for b, c in bytes_to_unicode().items()}
    return bytes(byte_of[c] for i in ids for c in token_of[i]).decode("utf-8")
""",
    ),
    "decode joins the tokens as they are written": (
        "real_tokenizer",
        "decode",
        """
def decode(ids, vocab):
    token_of = {i: t for t, i in vocab.items()}
    return "".join(token_of[i] for i in ids)
""",
    ),
    "decode turns only Ġ back into a space": (
        "real_tokenizer",
        "decode",
        """
def decode(ids, vocab):
    token_of = {i: t for t, i in vocab.items()}
    return "".join(token_of[i] for i in ids).replace("Ġ", " ").replace("Ċ", "\\n")
""",
    ),
    # -- Part 6's bonus: training where its cost shows (helpers of the reference's module in reach) -------------
    "train_bytes breaks a tie toward the smallest pair": (
        "real_tokenizer",
        "train_bytes",
        """
class _Largest:
    __slots__ = ("count", "pair")

    def __init__(self, count, pair):
        self.count, self.pair = count, pair

    def __lt__(self, other):
        return (-self.count, self.pair) < (-other.count, other.pair)
""",
    ),
    "train_bytes counts pairs across GPT-2's pieces": (
        "real_tokenizer",
        "train_bytes",
        """
def _piece_counts(text, specials):
    chunks = [text]
    if specials:
        chunks = regex.split("|".join(regex.escape(t) for t in sorted(specials, key=len, reverse=True)), text)
    return Counter(chunk for chunk in chunks if chunk)
""",
    ),
    "train_bytes trains on the special tokens' bytes": (
        "real_tokenizer",
        "train_bytes",
        """
def _piece_counts(text, specials):
    return Counter(regex.findall(GPT2_SPLIT, text))
""",
    ),
    "train_bytes recounts every pair after each merge": (
        "real_tokenizer",
        "train_bytes",
        """
def train_bytes(text, vocab_size, special_tokens=()):
    specials = list(dict.fromkeys(special_tokens))
    if vocab_size < 256 + len(specials):
        raise ValueError("vocab_size is too small for the bytes and the special tokens")
    pieces = {tuple(bytes([b]) for b in p.encode("utf-8")): n for p, n in _piece_counts(text, specials).items()}
    merges = []
    while len(merges) < vocab_size - 256 - len(specials):
        counts = Counter()
        for tokens, n in pieces.items():
            for pair in zip(tokens, tokens[1:]):
                counts[pair] += n
        best = max(counts, key=lambda pair: (counts[pair], pair), default=None)
        if best is None or counts[best] < 2:
            break
        merges.append(best)
        pieces = {tuple(_merge_tokens(list(tokens), best)): n for tokens, n in pieces.items()}
    vocab = {i: bytes([i]) for i in range(256)}
    for first, second in merges:
        vocab[len(vocab)] = first + second
    for token in specials:
        vocab[len(vocab)] = token.encode("utf-8")
    return vocab, merges
""",
    ),
    "train_bytes keeps every merge's pieces (memory grows with merges times pieces)": (
        "real_tokenizer",
        "train_bytes",
        """
def train_bytes(text, vocab_size, special_tokens=()):
    specials = list(dict.fromkeys(special_tokens))
    if vocab_size < 256 + len(specials):
        raise ValueError("vocab_size is too small for the bytes and the special tokens")
    counted = _piece_counts(text, specials)
    pieces = [[bytes([b]) for b in p.encode("utf-8")] for p in counted]
    weights = list(counted.values())
    counts, holders = Counter(), {}
    for i, tokens in enumerate(pieces):
        for pair in zip(tokens, tokens[1:]):
            counts[pair] += weights[i]
            holders.setdefault(pair, set()).add(i)
    merges, history = [], []  # history: the pieces after each merge, to show the training step by step
    while len(merges) < vocab_size - 256 - len(specials) and counts:
        best = max(counts, key=lambda pair: (counts[pair], pair))
        if counts[best] < 2:
            break
        merges.append(best)
        for i in holders.pop(best, ()):
            merged = _merge_tokens(pieces[i], best)
            for pair in zip(pieces[i], pieces[i][1:]):
                counts[pair] -= weights[i]
            for pair in zip(merged, merged[1:]):
                counts[pair] += weights[i]
                holders.setdefault(pair, set()).add(i)
            pieces[i] = merged
        counts = +counts
        history.append([list(tokens) for tokens in pieces])
    vocab = {i: bytes([i]) for i in range(256)}
    for first, second in merges:
        vocab[len(vocab)] = first + second
    for token in specials:
        vocab[len(vocab)] = token.encode("utf-8")
    return vocab, merges
""",
    ),
    # Part 6's steps of encode and GPT-4's merges, one rule of each negated (source "negated-rule"); each a copy
    # of the reference with one change, and an input inside the graded domain where it differs (above it).
    # split_specials("a<|e|>b<|e|>c", ["<|e|>"]) gives ['a', '<|e|>', 'b<|e|>c']: only the first is cut out.
    "split_specials cuts out only the first special token": (
        "real_tokenizer",
        "split_specials",
        """
def split_specials(text, special_tokens):
    if not special_tokens:
        return [text] if text else []
    longest_first = sorted(special_tokens, key=len, reverse=True)
    stretches = regex.split("(" + "|".join(regex.escape(token) for token in longest_first) + ")", text, maxsplit=1)
    return [stretch for stretch in stretches if stretch]
""",
    ),
    # split_specials("<|e|>!", ["<|e|>", "<|e|>!"]) gives ['<|e|>', '!'], not ['<|e|>!'].
    "split_specials tries the special tokens in the order given": (
        "real_tokenizer",
        "split_specials",
        """
def split_specials(text, special_tokens):
    if not special_tokens:
        return [text] if text else []
    stretches = regex.split("(" + "|".join(regex.escape(token) for token in special_tokens) + ")", text)
    return [stretch for stretch in stretches if stretch]
""",
    ),
    # split_specials(" a <|e|>", ["<|e|>"]) gives ['a', '<|e|>'], not [' a ', '<|e|>'].
    "split_specials strips the text between special tokens": (
        "real_tokenizer",
        "split_specials",
        """
def split_specials(text, special_tokens):
    if not special_tokens:
        return [text.strip()] if text.strip() else []
    longest_first = sorted(special_tokens, key=len, reverse=True)
    stretches = regex.split("(" + "|".join(regex.escape(token) for token in longest_first) + ")", text)
    return [stretch.strip() for stretch in stretches if stretch.strip()]
""",
    ),
    # split_specials("<|e|><|e|>", ["<|e|>"]) gives ['', '<|e|>', '', '<|e|>', ''].
    "split_specials keeps the empty strings regex.split gives": (
        "real_tokenizer",
        "split_specials",
        """
def split_specials(text, special_tokens):
    if not special_tokens:
        return [text]
    longest_first = sorted(special_tokens, key=len, reverse=True)
    return regex.split("(" + "|".join(regex.escape(token) for token in longest_first) + ")", text)
""",
    ),
    # merge_by_rank("ab", {}) gives ['ab'], not ['a', 'b'].
    "merge_by_rank gives the piece whole when no pair is a merge": (
        "real_tokenizer",
        "merge_by_rank",
        """
def merge_by_rank(piece, ranks):
    tokens = list(piece)
    if not any(pair in ranks for pair in zip(tokens, tokens[1:])):
        return [piece]
    while len(tokens) > 1:
        lowest, at = NO_RANK, 0
        for index, pair in enumerate(zip(tokens, tokens[1:])):
            rank = ranks.get(pair, NO_RANK)
            if rank < lowest:
                lowest, at = rank, index
        if lowest == NO_RANK:
            break
        first, second = tokens[at], tokens[at + 1]
        while at + 1 < len(tokens):
            if tokens[at] == first and tokens[at + 1] == second:
                tokens[at : at + 2] = [first + second]
            at += 1
    return tokens
""",
    ),
    # merge_by_rank("abc", {("a", "b"): 1, ("b", "c"): 0}) gives ['ab', 'c'], not ['a', 'bc'].
    "merge_by_rank merges the pair ranks lists first": (
        "real_tokenizer",
        "merge_by_rank",
        """
def merge_by_rank(piece, ranks):
    tokens = list(piece)
    while len(tokens) > 1:
        present = set(zip(tokens, tokens[1:]))
        chosen = next((pair for pair in ranks if pair in present), None)
        if chosen is None:
            break
        first, second = chosen
        at = 0
        while at + 1 < len(tokens):
            if tokens[at] == first and tokens[at + 1] == second:
                tokens[at : at + 2] = [first + second]
            at += 1
    return tokens
""",
    ),
    # merge_by_rank("abab", {("ab", "a"): 0, ("a", "b"): 1}) gives ['aba', 'b'], not ['ab', 'ab'].
    "merge_by_rank merges one place a round": (
        "real_tokenizer",
        "merge_by_rank",
        """
def merge_by_rank(piece, ranks):
    tokens = list(piece)
    while len(tokens) > 1:
        lowest, at = NO_RANK, 0
        for index, pair in enumerate(zip(tokens, tokens[1:])):
            rank = ranks.get(pair, NO_RANK)
            if rank < lowest:
                lowest, at = rank, index
        if lowest == NO_RANK:
            break
        tokens[at : at + 2] = [tokens[at] + tokens[at + 1]]
    return tokens
""",
    ),
    # merge_by_rank("hug", {("u", "g"): 0, ("h", "ug"): 1}) gives ['h', 'ug'], not ['hug'].
    "merge_by_rank makes one round only": (
        "real_tokenizer",
        "merge_by_rank",
        """
def merge_by_rank(piece, ranks):
    tokens = list(piece)
    if len(tokens) > 1:
        lowest, at = NO_RANK, 0
        for index, pair in enumerate(zip(tokens, tokens[1:])):
            rank = ranks.get(pair, NO_RANK)
            if rank < lowest:
                lowest, at = rank, index
        if lowest == NO_RANK:
            return tokens
        first, second = tokens[at], tokens[at + 1]
        while at + 1 < len(tokens):
            if tokens[at] == first and tokens[at + 1] == second:
                tokens[at : at + 2] = [first + second]
            at += 1
    return tokens
""",
    ),
    # merges_from_ranks({b"b": 0, b"a": 1, b"ab": 2}) gives vocab {'b': 98, 'a': 97, 'ab': 2}.
    "merges_from_ranks numbers the single bytes by their byte value": (
        "real_tokenizer",
        "merges_from_ranks",
        """
def merges_from_ranks(mergeable_ranks):
    spelled = bytes_to_unicode()

    def written(token):
        return "".join(spelled[byte] for byte in token)

    vocab = {written(token): token[0] if len(token) == 1 else rank for token, rank in mergeable_ranks.items()}
    merges = []
    for token, limit in sorted(mergeable_ranks.items(), key=lambda item: item[1]):
        if len(token) < 2:
            continue
        parts = [bytes([byte]) for byte in token]
        while len(parts) > 2:
            lowest, at = limit, -1
            for index in range(len(parts) - 1):
                rank = mergeable_ranks.get(parts[index] + parts[index + 1], limit)
                if rank < lowest:
                    lowest, at = rank, index
            if at < 0:
                break
            parts[at : at + 2] = [parts[at] + parts[at + 1]]
        if len(parts) != 2:
            raise ValueError(f"no two tokens ranked below {token!r} make it")
        merges.append((written(parts[0]), written(parts[1])))
    return vocab, merges
""",
    ),
    # merges_from_ranks({b"a": 0, b"aa": 1, b"aaa": 2}) gives the merge ('a', 'aa'), not ('aa', 'a').
    "merges_from_ranks merges the last place of a tie": (
        "real_tokenizer",
        "merges_from_ranks",
        """
def merges_from_ranks(mergeable_ranks):
    spelled = bytes_to_unicode()

    def written(token):
        return "".join(spelled[byte] for byte in token)

    vocab = {written(token): rank for token, rank in mergeable_ranks.items()}
    merges = []
    for token, limit in sorted(mergeable_ranks.items(), key=lambda item: item[1]):
        if len(token) < 2:
            continue
        parts = [bytes([byte]) for byte in token]
        while len(parts) > 2:
            lowest, at = limit, -1
            for index in range(len(parts) - 1):
                rank = mergeable_ranks.get(parts[index] + parts[index + 1], limit)
                if rank <= lowest and rank < limit:
                    lowest, at = rank, index
            if at < 0:
                break
            parts[at : at + 2] = [parts[at] + parts[at + 1]]
        if len(parts) != 2:
            raise ValueError(f"no two tokens ranked below {token!r} make it")
        merges.append((written(parts[0]), written(parts[1])))
    return vocab, merges
""",
    ),
    # merges_from_ranks({b"aab": 3, b"ab": 2, b"a": 0, b"b": 1}) gives [("a", "ab"), ("a", "b")]: the table's order.
    "merges_from_ranks lists the merges in the table's order": (
        "real_tokenizer",
        "merges_from_ranks",
        """
def merges_from_ranks(mergeable_ranks):
    spelled = bytes_to_unicode()

    def written(token):
        return "".join(spelled[byte] for byte in token)

    vocab = {written(token): rank for token, rank in mergeable_ranks.items()}
    merges = []
    for token, limit in mergeable_ranks.items():
        if len(token) < 2:
            continue
        parts = [bytes([byte]) for byte in token]
        while len(parts) > 2:
            lowest, at = limit, -1
            for index in range(len(parts) - 1):
                rank = mergeable_ranks.get(parts[index] + parts[index + 1], limit)
                if rank < lowest:
                    lowest, at = rank, index
            if at < 0:
                break
            parts[at : at + 2] = [parts[at] + parts[at + 1]]
        if len(parts) != 2:
            raise ValueError(f"no two tokens ranked below {token!r} make it")
        merges.append((written(parts[0]), written(parts[1])))
    return vocab, merges
""",
    ),
    # Part 6's special tokens as production uses them, one rule of each negated (source "negated-rule").
    # encode_checked("<|endoftext|>", ..., ["<|endoftext|>", "text|>"], allowed=["<|endoftext|>"]) gives ids: the
    # refused "text|>" inside the allowed token is never looked for.
    "encode_checked looks for refused tokens only outside the allowed ones": (
        "real_tokenizer",
        "encode_checked",
        """
def encode_checked(text, vocab, merges, special_tokens, allowed=(), pattern=GPT2_SPLIT):
    refused = [token for token in special_tokens if token not in allowed]
    for stretch in split_specials(text, list(special_tokens)):
        if stretch in refused:
            raise ValueError(f"the text holds the special token {stretch!r}, which this call does not allow")
    return encode(text, vocab, merges, pattern=pattern, special_tokens=allowed)
""",
    ),
    # encode_checked("<|end|><|endoftext|>", ..., ["<|endoftext|>", "<|end|>"]) names <|endoftext|>, listed first.
    "encode_checked names the first refused token of special_tokens": (
        "real_tokenizer",
        "encode_checked",
        """
def encode_checked(text, vocab, merges, special_tokens, allowed=(), pattern=GPT2_SPLIT):
    for token in special_tokens:
        if token not in allowed and token in text:
            raise ValueError(f"the text holds the special token {token!r}, which this call does not allow")
    return encode(text, vocab, merges, pattern=pattern, special_tokens=allowed)
""",
    ),
    # encode_checked("<|endoftext|>", ..., ["<|endoftext|>"], allowed=["<|endoftext|>"]) gives its characters' ids.
    "encode_checked encodes the allowed tokens as text": (
        "real_tokenizer",
        "encode_checked",
        """
def encode_checked(text, vocab, merges, special_tokens, allowed=(), pattern=GPT2_SPLIT):
    refused = [token for token in special_tokens if token not in allowed]
    for stretch in split_specials(text, refused):
        if stretch in refused:
            raise ValueError(f"the text holds the special token {stretch!r}, which this call does not allow")
    return encode(text, vocab, merges, pattern=pattern)
""",
    ),
    # encode_checked("1234", ..., pattern=GPT4_SPLIT) gives GPT-2's one piece, not 123 and 4.
    "encode_checked splits with GPT-2's pattern whatever it is given": (
        "real_tokenizer",
        "encode_checked",
        """
def encode_checked(text, vocab, merges, special_tokens, allowed=(), pattern=GPT2_SPLIT):
    refused = [token for token in special_tokens if token not in allowed]
    for stretch in split_specials(text, refused):
        if stretch in refused:
            raise ValueError(f"the text holds the special token {stretch!r}, which this call does not allow")
    return encode(text, vocab, merges, special_tokens=allowed)
""",
    ),
    # add_tokens({"a": 0}, ["a"]) gives {"a": 1}: a name vocab holds is given a new id.
    "add_tokens gives a name the vocab holds a new id": (
        "real_tokenizer",
        "add_tokens",
        """
def add_tokens(vocab, names):
    grown = dict(vocab)
    next_id = max(vocab.values(), default=-1) + 1
    for name in dict.fromkeys(names):
        grown[name] = next_id
        next_id += 1
    return grown
""",
    ),
    # add_tokens({"a": 5}, ["b"]) gives b the id 1, len(vocab), not 6.
    "add_tokens numbers the new names from len(vocab)": (
        "real_tokenizer",
        "add_tokens",
        """
def add_tokens(vocab, names):
    grown = dict(vocab)
    next_id = len(vocab)
    for name in names:
        if name not in grown:
            grown[name] = next_id
            next_id += 1
    return grown
""",
    ),
    # add_tokens({}, ["b", "a"]) gives {"a": 0, "b": 1}: sorted, not in the order given.
    "add_tokens adds the names in sorted order": (
        "real_tokenizer",
        "add_tokens",
        """
def add_tokens(vocab, names):
    grown = dict(vocab)
    next_id = max(vocab.values(), default=-1) + 1
    for name in sorted(names):
        if name not in grown:
            grown[name] = next_id
            next_id += 1
    return grown
""",
    ),
    # add_tokens({"a": 0}, ["b"]) adds b to the vocab it is given.
    "add_tokens adds the names to the vocab it is given": (
        "real_tokenizer",
        "add_tokens",
        """
def add_tokens(vocab, names):
    grown = vocab
    next_id = max(vocab.values(), default=-1) + 1
    for name in names:
        if name not in grown:
            grown[name] = next_id
            next_id += 1
    return grown
""",
    ),
    # Issue 51's blind sample (source "blind"): mistakes written from the students' spec of encode_checked and
    # add_tokens alone, before the tests were, each kept as written (its file in the sample in the comment).
    # encode_checked/01_raises_on_allowed
    "encode_checked refuses the allowed tokens too": (
        "real_tokenizer",
        "encode_checked",
        """
def encode_checked(text, vocab, merges, special_tokens, allowed=(), pattern=GPT2_SPLIT):
    for token in special_tokens:
        if token in text:
            raise ValueError(f"special token {token!r} is not allowed")
    return encode(text, vocab, merges, pattern=pattern, special_tokens=allowed)
""",
    ),
    # encode_checked/02_list_order_first
    "encode_checked names the refused token listed first": (
        "real_tokenizer",
        "encode_checked",
        """
def encode_checked(text, vocab, merges, special_tokens, allowed=(), pattern=GPT2_SPLIT):
    for token in special_tokens:
        if token not in allowed and token in text:
            raise ValueError(f"disallowed special token {token!r} in text")
    return encode(text, vocab, merges, pattern=pattern, special_tokens=allowed)
""",
    ),
    # encode_checked/03_shorter_at_same_place
    "encode_checked names the shorter of two refused tokens at one place": (
        "real_tokenizer",
        "encode_checked",
        """
def encode_checked(text, vocab, merges, special_tokens, allowed=(), pattern=GPT2_SPLIT):
    found = []
    for token in special_tokens:
        if token in allowed:
            continue
        where = text.find(token)
        if where != -1:
            found.append((where, len(token), token))
    if found:
        # min() on (position, length): at the same place the SHORTER token wins.
        _, _, first = min(found)
        raise ValueError(f"disallowed special token {first!r} in text")
    return encode(text, vocab, merges, pattern=pattern, special_tokens=allowed)
""",
    ),
    # encode_checked/04_unescaped_regex
    "encode_checked puts the special tokens in its pattern unescaped": (
        "real_tokenizer",
        "encode_checked",
        """
import regex


def encode_checked(text, vocab, merges, special_tokens, allowed=(), pattern=GPT2_SPLIT):
    disallowed = [token for token in special_tokens if token not in allowed]
    if disallowed:
        # The tokens are pasted into the pattern as they are: the "|" in "<|endoftext|>" is alternation.
        match = regex.search("|".join(sorted(disallowed, key=len, reverse=True)), text)
        if match:
            raise ValueError(f"disallowed special token {match.group()!r} in text")
    return encode(text, vocab, merges, pattern=pattern, special_tokens=allowed)
""",
    ),
    # encode_checked/05_checks_ids_after_encoding
    "encode_checked looks for the refused tokens' ids in encode's": (
        "real_tokenizer",
        "encode_checked",
        """
def encode_checked(text, vocab, merges, special_tokens, allowed=(), pattern=GPT2_SPLIT):
    ids = encode(text, vocab, merges, pattern=pattern, special_tokens=allowed)
    for token in special_tokens:
        if token not in allowed and vocab[token] in ids:
            raise ValueError(f"disallowed special token {token!r} in text")
    return ids
""",
    ),
    # encode_checked/06_allowed_not_passed
    "encode_checked calls encode without the allowed tokens": (
        "real_tokenizer",
        "encode_checked",
        """
def encode_checked(text, vocab, merges, special_tokens, allowed=(), pattern=GPT2_SPLIT):
    disallowed = [token for token in special_tokens if token not in allowed]
    found = [(text.find(token), -len(token), token) for token in disallowed if token in text]
    if found:
        raise ValueError(f"disallowed special token {min(found)[2]!r} in text")
    return encode(text, vocab, merges, pattern=pattern)
""",
    ),
    # encode_checked/07_find_minus_one
    "encode_checked names a refused token the text lacks": (
        "real_tokenizer",
        "encode_checked",
        """
def encode_checked(text, vocab, merges, special_tokens, allowed=(), pattern=GPT2_SPLIT):
    disallowed = [token for token in special_tokens if token not in allowed]
    if any(token in text for token in disallowed):
        # text.find gives -1 for a token that is not there, which sorts before every real position.
        first = min(disallowed, key=lambda token: (text.find(token), -len(token)))
        raise ValueError(f"disallowed special token {first!r} in text")
    return encode(text, vocab, merges, pattern=pattern, special_tokens=allowed)
""",
    ),
    # encode_checked/08_first_special_only
    "encode_checked checks the first special token only": (
        "real_tokenizer",
        "encode_checked",
        """
def encode_checked(text, vocab, merges, special_tokens, allowed=(), pattern=GPT2_SPLIT):
    if special_tokens:
        # GPT-2 has one special token, so look at the first.
        token = special_tokens[0]
        if token not in allowed and token in text:
            raise ValueError(f"disallowed special token {token!r} in text")
    return encode(text, vocab, merges, pattern=pattern, special_tokens=allowed)
""",
    ),
    # encode_checked/09_allowed_cut_first
    "encode_checked takes the allowed tokens out before it searches": (
        "real_tokenizer",
        "encode_checked",
        """
def encode_checked(text, vocab, merges, special_tokens, allowed=(), pattern=GPT2_SPLIT):
    # Take the allowed tokens out first: what is left is the user's own text.
    rest = text
    for token in sorted(allowed, key=len, reverse=True):
        rest = rest.replace(token, "\\0")
    found = [
        (rest.find(token), -len(token), token)
        for token in special_tokens
        if token not in allowed and token in rest
    ]
    if found:
        raise ValueError(f"disallowed special token {min(found)[2]!r} in text")
    return encode(text, vocab, merges, pattern=pattern, special_tokens=allowed)
""",
    ),
    # encode_checked/10_split_words
    "encode_checked looks for refused tokens among the words": (
        "real_tokenizer",
        "encode_checked",
        """
def encode_checked(text, vocab, merges, special_tokens, allowed=(), pattern=GPT2_SPLIT):
    words = text.split()
    for word in words:
        if word in special_tokens and word not in allowed:
            raise ValueError(f"disallowed special token {word!r} in text")
    return encode(text, vocab, merges, pattern=pattern, special_tokens=allowed)
""",
    ),
    # encode_checked/11_scan_misses_end
    "encode_checked misses a refused token that ends the text": (
        "real_tokenizer",
        "encode_checked",
        """
def encode_checked(text, vocab, merges, special_tokens, allowed=(), pattern=GPT2_SPLIT):
    disallowed = sorted((t for t in special_tokens if t not in allowed), key=len, reverse=True)
    for start in range(len(text)):
        for token in disallowed:
            # The last place a token can start is len(text) - len(token), which range() leaves out.
            if start < len(text) - len(token) and text.startswith(token, start):
                raise ValueError(f"disallowed special token {token!r} at {start}")
    return encode(text, vocab, merges, pattern=pattern, special_tokens=allowed)
""",
    ),
    # encode_checked/12_message_without_token
    "encode_checked's message names no token": (
        "real_tokenizer",
        "encode_checked",
        """
def encode_checked(text, vocab, merges, special_tokens, allowed=(), pattern=GPT2_SPLIT):
    for token in special_tokens:
        if token not in allowed and token in text:
            raise ValueError("text contains a special token that is not allowed")
    return encode(text, vocab, merges, pattern=pattern, special_tokens=allowed)
""",
    ),
    # encode_checked/13_mutates_special_tokens
    "encode_checked removes the allowed tokens from special_tokens": (
        "real_tokenizer",
        "encode_checked",
        """
def encode_checked(text, vocab, merges, special_tokens, allowed=(), pattern=GPT2_SPLIT):
    disallowed = special_tokens
    for token in allowed:
        disallowed.remove(token)
    found = [(text.find(token), -len(token), token) for token in disallowed if token in text]
    if found:
        raise ValueError(f"disallowed special token {min(found)[2]!r} in text")
    return encode(text, vocab, merges, pattern=pattern, special_tokens=allowed)
""",
    ),
    # encode_checked/14_pattern_ignored
    "encode_checked leaves out the pattern it is given": (
        "real_tokenizer",
        "encode_checked",
        """
def encode_checked(text, vocab, merges, special_tokens, allowed=(), pattern=GPT2_SPLIT):
    found = [
        (text.find(token), -len(token), token)
        for token in special_tokens
        if token not in allowed and token in text
    ]
    if found:
        raise ValueError(f"disallowed special token {min(found)[2]!r} in text")
    return encode(text, vocab, merges, special_tokens=allowed)
""",
    ),
    # encode_checked/15_assert_instead_of_raise
    "encode_checked asserts where it should raise ValueError": (
        "real_tokenizer",
        "encode_checked",
        """
def encode_checked(text, vocab, merges, special_tokens, allowed=(), pattern=GPT2_SPLIT):
    found = [
        (text.find(token), -len(token), token)
        for token in special_tokens
        if token not in allowed and token in text
    ]
    assert not found, f"disallowed special token {min(found)[2]!r} in text"
    return encode(text, vocab, merges, pattern=pattern, special_tokens=allowed)
""",
    ),
    # add_tokens/01_ids_from_len
    "add_tokens counts the ids on from the vocab's size": (
        "real_tokenizer",
        "add_tokens",
        """
def add_tokens(vocab, names):
    result = dict(vocab)
    for name in names:
        if name not in result:
            result[name] = len(result)
    return result
""",
    ),
    # add_tokens/02_mutates_input
    "add_tokens grows the vocab it is given and returns it": (
        "real_tokenizer",
        "add_tokens",
        """
def add_tokens(vocab, names):
    next_id = max(vocab.values(), default=-1) + 1
    for name in names:
        if name not in vocab:
            vocab[name] = next_id
            next_id += 1
    return vocab
""",
    ),
    # add_tokens/03_duplicate_names_new_id
    "add_tokens gives a name repeated in names a second id": (
        "real_tokenizer",
        "add_tokens",
        """
def add_tokens(vocab, names):
    result = dict(vocab)
    next_id = max(vocab.values(), default=-1) + 1
    for name in names:
        # Checks the original vocab only, not the names added so far.
        if name not in vocab:
            result[name] = next_id
            next_id += 1
    return result
""",
    ),
    # add_tokens/04_empty_vocab_max
    "add_tokens takes max of an empty vocab": (
        "real_tokenizer",
        "add_tokens",
        """
def add_tokens(vocab, names):
    result = dict(vocab)
    next_id = max(vocab.values()) + 1
    for name in names:
        if name not in result:
            result[name] = next_id
            next_id += 1
    return result
""",
    ),
    # add_tokens/05_set_loses_order
    "add_tokens drops repeated names with a set": (
        "real_tokenizer",
        "add_tokens",
        """
def add_tokens(vocab, names):
    result = dict(vocab)
    next_id = max(vocab.values(), default=-1) + 1
    # set() removes the repeats, and the order the names were given in with them.
    for name in set(names):
        if name not in result:
            result[name] = next_id
            next_id += 1
    return result
""",
    ),
    # add_tokens/06_enumerate_gaps
    "add_tokens gives each new name the id of its place in names": (
        "real_tokenizer",
        "add_tokens",
        """
def add_tokens(vocab, names):
    result = dict(vocab)
    start = max(vocab.values(), default=-1) + 1
    for offset, name in enumerate(names):
        if name not in result:
            result[name] = start + offset
    return result
""",
    ),
    # add_tokens/07_next_id_is_max
    "add_tokens gives the first new name the largest id": (
        "real_tokenizer",
        "add_tokens",
        """
def add_tokens(vocab, names):
    result = dict(vocab)
    last_id = max(vocab.values(), default=-1)
    for name in names:
        if name not in result:
            result[name] = last_id
            last_id += 1
    return result
""",
    ),
    # add_tokens/08_empty_starts_at_one
    "add_tokens starts an empty vocab at id 1": (
        "real_tokenizer",
        "add_tokens",
        """
def add_tokens(vocab, names):
    result = dict(vocab)
    next_id = max(vocab.values(), default=0) + 1
    for name in names:
        if name not in result:
            result[name] = next_id
            next_id += 1
    return result
""",
    ),
    # add_tokens/09_overwrites_existing
    "add_tokens gives every name of names a new id": (
        "real_tokenizer",
        "add_tokens",
        """
def add_tokens(vocab, names):
    result = dict(vocab)
    next_id = max(vocab.values(), default=-1) + 1
    for name in names:
        result[name] = next_id
        next_id += 1
    return result
""",
    ),
    # add_tokens/10_returns_only_new
    "add_tokens returns only the names it adds": (
        "real_tokenizer",
        "add_tokens",
        """
def add_tokens(vocab, names):
    added = {}
    next_id = max(vocab.values(), default=-1) + 1
    for name in names:
        if name not in vocab and name not in added:
            added[name] = next_id
            next_id += 1
    return added
""",
    ),
    # add_tokens/11_new_entries_first
    "add_tokens lists the new names before vocab's entries": (
        "real_tokenizer",
        "add_tokens",
        """
def add_tokens(vocab, names):
    added = {}
    next_id = max(vocab.values(), default=-1) + 1
    for name in names:
        if name not in vocab and name not in added:
            added[name] = next_id
            next_id += 1
    # vocab last, so an old token keeps its own id.
    return {**added, **vocab}
""",
    ),
    # add_tokens/12_counter_not_advanced
    "add_tokens gives every new name the same id": (
        "real_tokenizer",
        "add_tokens",
        """
def add_tokens(vocab, names):
    result = dict(vocab)
    next_id = max(vocab.values(), default=-1) + 1
    for name in names:
        if name not in result:
            result[name] = next_id
    return result
""",
    ),
    # add_tokens/13_strips_names
    "add_tokens strips the names before adding them": (
        "real_tokenizer",
        "add_tokens",
        """
def add_tokens(vocab, names):
    result = dict(vocab)
    next_id = max(vocab.values(), default=-1) + 1
    for name in names:
        name = name.strip()
        if name and name not in result:
            result[name] = next_id
            next_id += 1
    return result
""",
    ),
    # Issue 50's sample: mistakes from outside the kit's own tests, each with an input inside the graded domain
    # on which it differs from the reference (in the comment above it).
    # encode_words("The cat", {"The": 0, "cat": 1, "[UNK]": 2}) gives [2, 1], not [0, 1].
    "encode_words lowercases a word before looking it up": (
        "simple_tokenizers",
        "encode_words",
        """
def encode_words(text, vocab):
    return [vocab.get(word.lower(), vocab["[UNK]"]) for word in text.split()]
""",
    ),
    # encode_words("cat.", {"cat": 0, "cat.": 1, "[UNK]": 2}) gives [0], not [1].
    "encode_words strips punctuation off a word before looking it up": (
        "simple_tokenizers",
        "encode_words",
        """
def encode_words(text, vocab):
    return [vocab.get(word.strip(".,;:!?"), vocab["[UNK]"]) for word in text.split()]
""",
    ),
    # With the merges of train_bpe("ab ab bcbcbc", 270), {(98, 99): 256, (97, 98): 257, ...}, encode("abc") gives
    # [257, 99] (the longest token first), not [97, 256] ((b, c) was learned first).
    "byte encode takes the longest known token at each place": (
        "byte_bpe",
        "encode",
        """
def encode(text, merges):
    spelled = {byte: bytes([byte]) for byte in range(256)}
    for (first, second), new_id in sorted(merges.items(), key=lambda item: item[1]):
        spelled[new_id] = spelled[first] + spelled[second]
    ids_of = {}
    for token_id, token in spelled.items():
        ids_of.setdefault(token, token_id)
    longest = max(len(token) for token in spelled.values())
    data, ids, at = text.encode("utf-8"), [], 0
    while at < len(data):
        for width in range(min(longest, len(data) - at), 0, -1):
            if data[at : at + width] in ids_of:
                ids.append(ids_of[data[at : at + width]])
                at += width
                break
    return ids
""",
    ),
    # encode("abcbc", {(97, 98): 256, (98, 99): 257}) gives [97, 257, 257], not [256, 99, 257]: (b, c) occurs
    # twice, so it goes first, though (a, b) was learned first (and so with merges trained on "ab ab bcbcbc").
    "byte encode applies the most frequent merge first": (
        "byte_bpe",
        "encode",
        """
def encode(text, merges):
    ids = list(text.encode("utf-8"))
    while True:
        counts = get_pair_counts(ids)
        known = [pair for pair in counts if pair in merges]
        if not known:
            return ids
        best = max(known, key=lambda pair: counts[pair])
        ids = merge_pair(ids, best, merges[best])
""",
    ),
    # Saving twice into one folder (the docstring's example run twice) raises FileExistsError.
    "save makes its folder even when it exists": (
        "real_tokenizer",
        "save",
        """
def save(folder, vocab, merges):
    root = Path(folder)
    root.mkdir(parents=True)
    (root / VOCAB_FILE).write_text(json.dumps(vocab, ensure_ascii=False), encoding="utf-8")
    lines = [MERGES_HEADER, *(f"{first} {second}" for first, second in merges)]
    (root / MERGES_FILE).write_text("".join(line + "\\n" for line in lines), encoding="utf-8")
""",
    ),
    # Saving twice into one folder writes the header and the merges twice into merges.txt.
    "save appends to a merges.txt already there": (
        "real_tokenizer",
        "save",
        """
def save(folder, vocab, merges):
    root = Path(folder)
    root.mkdir(parents=True, exist_ok=True)
    (root / VOCAB_FILE).write_text(json.dumps(vocab, ensure_ascii=False), encoding="utf-8")
    with open(root / MERGES_FILE, "a", encoding="utf-8") as merges_file:
        merges_file.write(MERGES_HEADER + "\\n")
        for first, second in merges:
            merges_file.write(f"{first} {second}\\n")
""",
    ),
    # A merges.txt whose second merge is "# #" (GPT-2's own has "Ġ #" and "# #") loses that merge.
    "load skips every line that starts with #": (
        "real_tokenizer",
        "load",
        """
def load(folder):
    root = Path(folder)
    vocab = json.loads((root / VOCAB_FILE).read_text(encoding="utf-8"))
    merges = []
    for line in (root / MERGES_FILE).read_text(encoding="utf-8").split("\\n"):
        if line and not line.startswith("#"):
            first, second = line.split(" ")
            merges.append((first, second))
    return vocab, merges
""",
    ),
    # encode("ab", vocab_1, merges_1) then encode("ab", vocab_2, merges_2) gives vocab_1's ids the second time.
    "real encode keeps each piece's ids from one vocabulary to the next": (
        "real_tokenizer",
        "encode",
        """
_IDS_OF_PIECE = {}


def encode(text, vocab, merges, pattern=GPT2_SPLIT, special_tokens=()):
    ranks = {}
    for rank, pair in enumerate(merges):
        ranks.setdefault(pair, rank)
    spelled = bytes_to_unicode()
    chunks = [text]
    if special_tokens:
        longest_first = sorted(special_tokens, key=len, reverse=True)
        chunks = regex.split("(" + "|".join(regex.escape(token) for token in longest_first) + ")", text)
    ids = []
    for index, chunk in enumerate(chunks):
        if index % 2:
            ids.append(vocab[chunk])
            continue
        for piece in regex.findall(pattern, chunk):
            if piece not in _IDS_OF_PIECE:
                symbols = [spelled[byte] for byte in piece.encode("utf-8")]
                _IDS_OF_PIECE[piece] = [vocab[token] for token in merge_by_rank(symbols, ranks)]
            ids.extend(_IDS_OF_PIECE[piece])
    return ids
""",
    ),
    # encode("aaa", {"a": 0, "aa": 1}, [("a", "a")]) gives [0, 1] (a, aa), not [1, 0] (aa, a).
    "real encode merges the last of the pairs of lowest rank": (
        "real_tokenizer",
        "encode",
        """
def encode(text, vocab, merges, pattern=GPT2_SPLIT, special_tokens=()):
    ranks = {}
    for rank, pair in enumerate(merges):
        ranks.setdefault(pair, rank)
    spelled = bytes_to_unicode()
    chunks = [text]
    if special_tokens:
        longest_first = sorted(special_tokens, key=len, reverse=True)
        chunks = regex.split("(" + "|".join(regex.escape(token) for token in longest_first) + ")", text)
    ids = []
    for index, chunk in enumerate(chunks):
        if index % 2:
            ids.append(vocab[chunk])
            continue
        for piece in regex.findall(pattern, chunk):
            symbols = [spelled[byte] for byte in piece.encode("utf-8")]
            while len(symbols) > 1:
                lowest, at = None, 0
                for place in range(len(symbols) - 1):
                    rank = ranks.get((symbols[place], symbols[place + 1]))
                    if rank is not None and (lowest is None or rank <= lowest):
                        lowest, at = rank, place
                if lowest is None:
                    break
                symbols[at : at + 2] = [symbols[at] + symbols[at + 1]]
            ids.extend(vocab[token] for token in symbols)
    return ids
""",
    ),
    # train_bytes("aaaa", 257, ["<|endoftext|>"]) makes a merge and a vocab of 258 ids, one past its size.
    "train_bytes leaves the special tokens out of its budget": (
        "real_tokenizer",
        "train_bytes",
        """
def train_bytes(text, vocab_size, special_tokens=()):
    specials = list(dict.fromkeys(special_tokens))
    if vocab_size - BYTE_VALUES < len(specials):
        raise ValueError(f"vocab_size {vocab_size} cannot hold the 256 bytes and the special tokens {specials}")
    merges = _merges_of(_piece_counts(text, specials), vocab_size - BYTE_VALUES)
    vocab = {token_id: bytes([token_id]) for token_id in range(BYTE_VALUES)}
    for first, second in merges:
        vocab[len(vocab)] = first + second
    for token in specials:
        vocab[len(vocab)] = token.encode("utf-8")
    return vocab, merges
""",
    ),
    "train_bpe takes max(counts) without a key, the largest pair": (
        "bpe",
        "train_bpe",
        """
def train_bpe(text, num_merges=20):
    tokens = list(text)
    merges = []
    for _ in range(num_merges):
        counts = get_pair_counts(tokens)
        if not counts:
            break
        best = max(counts)
        if counts[best] < 2:
            break
        tokens = merge_pair(tokens, best)
        merges.append(best)
    return tokens, merges
""",
    ),
    "fast trainer's heap trusts an entry pushed before its count changed": (
        "fast_bpe",
        "train_bpe",
        """
import heapq
from collections import defaultdict

class _Backwards(str):
    def __lt__(self, other):
        return str.__gt__(self, other)

def train_bpe(word_freqs, num_merges):
    words = [list(word) + ["</w>"] for word in word_freqs]
    frequency = list(word_freqs.values())
    counts = defaultdict(int)
    holders = defaultdict(set)
    for index, symbols in enumerate(words):
        for pair in zip(symbols, symbols[1:]):
            counts[pair] += frequency[index]
            holders[pair].add(index)
    heap = [(-count, _Backwards(a), _Backwards(b)) for (a, b), count in counts.items()]
    heapq.heapify(heap)
    merges = []
    while heap and len(merges) < num_merges:
        negative_count, a, b = heapq.heappop(heap)
        best = (str(a), str(b))
        if best not in counts:
            continue  # merged already
        if -negative_count < 2:
            break
        merges.append(best)
        changed = set()
        for index in holders.pop(best, ()):
            symbols = words[index]
            old_pairs = list(zip(symbols, symbols[1:]))
            if best not in old_pairs:
                continue
            for pair in old_pairs:
                counts[pair] -= frequency[index]
            symbols = _merge(symbols, best)
            words[index] = symbols
            for pair in zip(symbols, symbols[1:]):
                counts[pair] += frequency[index]
                holders[pair].add(index)
            changed.update(old_pairs)
            changed.update(zip(symbols, symbols[1:]))
        counts.pop(best, None)
        for pair in changed:
            if counts.get(pair, 0) <= 0:
                counts.pop(pair, None)
            else:
                heapq.heappush(heap, (-counts[pair], _Backwards(pair[0]), _Backwards(pair[1])))
    return merges
""",
    ),
    "encode_by_rank reads rank 0 as no rank": (
        "word_bpe",
        "encode_by_rank",
        """
def encode_by_rank(text, merges):
    ranks = {pair: rank for rank, pair in enumerate(merges)}
    tokens = []
    for word in pre_tokenize(text):
        symbols = (*word, END_OF_WORD)
        while len(symbols) > 1:
            known = [pair for pair in zip(symbols, symbols[1:]) if ranks.get(pair)]
            if not known:
                break
            symbols = next(iter(merge_pair({symbols: 1}, min(known, key=ranks.get))))
        tokens.extend(symbols)
    return tokens
""",
    ),
    # From real threads (source "forum"): each names the thread the mistake comes from.
    # karpathy/minbpe issue 51 and pull request 72: count a pair only as often as merge can replace it.
    "byte pair counts skip a pair that overlaps the one before": (
        "byte_bpe",
        "get_pair_counts",
        """
from collections import Counter

def get_pair_counts(ids):
    counts = Counter()
    at = 0
    while at + 1 < len(ids):
        pair = (ids[at], ids[at + 1])
        counts[pair] += 1
        at += 2 if pair[0] == pair[1] else 1
    return counts
""",
    ),
    # huggingface/course issue 608: "thug" tokenized as hu g, a merge applied where it first fits in the word.
    "word encode merges the leftmost pair that is any merge": (
        "word_bpe",
        "encode",
        """
def encode(text, merges):
    known = set(merges)
    tokens = []
    for word in pre_tokenize(text):
        symbols = (*word, END_OF_WORD)
        while True:
            found = [pair for pair in zip(symbols, symbols[1:]) if pair in known]
            if not found:
                break
            symbols = next(iter(merge_pair({symbols: 1}, found[0])))
        tokens.extend(symbols)
    return tokens
""",
    ),
    # umran666/UniqToken issue 8: a stale entry is dropped, and a pair whose count only fell is never pushed again.
    "fast trainer pushes only a merged word's new pairs back on the heap": (
        "fast_bpe",
        "train_bpe",
        """
import heapq
from collections import defaultdict

class _Backwards(str):
    def __lt__(self, other):
        return str.__gt__(self, other)

def train_bpe(word_freqs, num_merges):
    words = [list(word) + ["</w>"] for word in word_freqs]
    frequency = list(word_freqs.values())
    counts = defaultdict(int)
    holders = defaultdict(set)
    for index, symbols in enumerate(words):
        for pair in zip(symbols, symbols[1:]):
            counts[pair] += frequency[index]
            holders[pair].add(index)
    heap = [(-count, _Backwards(a), _Backwards(b)) for (a, b), count in counts.items()]
    heapq.heapify(heap)
    merges = []
    while heap and len(merges) < num_merges:
        negative_count, a, b = heapq.heappop(heap)
        best = (str(a), str(b))
        if -negative_count != counts.get(best, 0):
            continue  # stale
        if -negative_count < 2:
            break
        merges.append(best)
        added = set()
        for index in holders.pop(best, ()):
            symbols = words[index]
            old_pairs = list(zip(symbols, symbols[1:]))
            if best not in old_pairs:
                continue
            for pair in old_pairs:
                counts[pair] -= frequency[index]
            symbols = _merge(symbols, best)
            words[index] = symbols
            for pair in zip(symbols, symbols[1:]):
                counts[pair] += frequency[index]
                holders[pair].add(index)
                added.add(pair)
        counts.pop(best, None)
        for pair in added:
            if counts.get(pair, 0) > 0:
                heapq.heappush(heap, (-counts[pair], _Backwards(pair[0]), _Backwards(pair[1])))
    return merges
""",
    ),
    # wind-wing234/cs336-assignment1-basics issue 1: re.split without a group drops the special tokens.
    "real encode splits the special tokens off without keeping them": (
        "real_tokenizer",
        "encode",
        """
def encode(text, vocab, merges, pattern=GPT2_SPLIT, special_tokens=()):
    ranks = {}
    for rank, pair in enumerate(merges):
        ranks.setdefault(pair, rank)
    spelled = bytes_to_unicode()
    chunks = [text]
    if special_tokens:
        longest_first = sorted(special_tokens, key=len, reverse=True)
        chunks = regex.split("|".join(regex.escape(token) for token in longest_first), text)
    ids = []
    for chunk in chunks:
        for piece in regex.findall(pattern, chunk):
            symbols = [spelled[byte] for byte in piece.encode("utf-8")]
            ids.extend(vocab[token] for token in merge_by_rank(symbols, ranks))
    return ids
""",
    ),
    # karpathy/minbpe pull request 90: max(stats, key=stats.get) breaks a tie by the pair seen first.
    "train_bytes breaks a tie toward the pair seen first": (
        "real_tokenizer",
        "train_bytes",
        """
_FIRST_SEEN = {}

class _Largest:
    __slots__ = ("count", "pair", "seen")

    def __init__(self, count, pair):
        self.count = count
        self.pair = pair
        self.seen = _FIRST_SEEN.setdefault(pair, len(_FIRST_SEEN))

    def __lt__(self, other):
        return (self.count, -self.seen) > (other.count, -other.seen)

def train_bytes(text, vocab_size, special_tokens=()):
    _FIRST_SEEN.clear()
    specials = list(dict.fromkeys(special_tokens))
    merge_budget = vocab_size - 256 - len(specials)
    if merge_budget < 0:
        raise ValueError(f"vocab_size {vocab_size} cannot hold the bytes and the special tokens")
    merges = _merges_of(_piece_counts(text, specials), merge_budget)
    vocab = {token_id: bytes([token_id]) for token_id in range(256)}
    for first, second in merges:
        vocab[len(vocab)] = first + second
    for token in specials:
        vocab[len(vocab)] = token.encode("utf-8")
    return vocab, merges
""",
    ),
    # Issue 50's outside sample: special tokens joined into the pattern unescaped (KeyError: '<').
    "real encode joins the special tokens into the pattern unescaped": (
        "real_tokenizer",
        "encode",
        """
def encode(text, vocab, merges, pattern=GPT2_SPLIT, special_tokens=()):
    ranks = {}
    for rank, pair in enumerate(merges):
        ranks.setdefault(pair, rank)
    spelled = bytes_to_unicode()
    chunks = [text]
    if special_tokens:
        longest_first = sorted(special_tokens, key=len, reverse=True)
        chunks = regex.split("(" + "|".join(longest_first) + ")", text)
    ids = []
    for index, chunk in enumerate(chunks):
        if index % 2:
            ids.append(vocab[chunk])
            continue
        for piece in regex.findall(pattern, chunk):
            symbols = [spelled[byte] for byte in piece.encode("utf-8")]
            ids.extend(vocab[token] for token in merge_by_rank(symbols, ranks))
    return ids
""",
    ),
    # One rule of the contract negated each (source "negated-rule"): the rule's id is the entry's fix.
    "char vocab gives the empty texts a token of their own": (
        "simple_tokenizers",
        "build_char_vocab",
        """
def build_char_vocab(texts):
    characters = sorted(set("".join(texts))) or [""]
    return {character: index for index, character in enumerate(characters)}
""",
    ),
    "pair counts skip a pair that overlaps the last one counted": (
        "bpe",
        "get_pair_counts",
        """
from collections import Counter


def get_pair_counts(tokens):
    counts = Counter()
    index = 0
    while index + 1 < len(tokens):
        pair = (tokens[index], tokens[index + 1])
        counts[pair] += 1
        index += 2 if pair[0] == pair[1] else 1
    return counts
""",
    ),
    "merge_pair matches the pair inside the joined text": (
        "bpe",
        "merge_pair",
        """
def merge_pair(tokens, pair):
    merged, index = [], 0
    while index < len(tokens):
        if index + 1 < len(tokens) and tokens[index] + tokens[index + 1] == pair[0] + pair[1]:
            merged.append(pair[0] + pair[1])
            index += 2
        else:
            merged.append(tokens[index])
            index += 1
    return merged
""",
    ),
    "word decode leaves a space after the last word": (
        "word_bpe",
        "decode",
        """
def decode(tokens):
    return "".join(tokens).replace("</w>", " ")
""",
    ),
    "byte decode raises on bytes that are not UTF-8": (
        "byte_bpe",
        "decode",
        """
def decode(ids, merges):
    token_bytes = _token_bytes(merges)
    return b"".join(token_bytes[value] for value in ids).decode("utf-8")
""",
    ),
    "byte train_bpe numbers the first merge 257": (
        "byte_bpe",
        "train_bpe",
        """
def train_bpe(text, vocab_size):
    if vocab_size < 256:
        raise ValueError(f"vocab_size {vocab_size} is below 256: the vocabulary must hold every byte value")
    ids = list(text.encode("utf-8"))
    merges = {}
    for new_id in range(257, vocab_size + 1):
        pair_counts = get_pair_counts(ids)
        if not pair_counts:
            break
        best_pair, best_count = pair_counts.most_common(1)[0]
        if best_count < 2:
            break
        ids = merge_pair(ids, best_pair, new_id)
        merges[best_pair] = new_id
    return merges
""",
    ),
    "word merge_pair keeps the frequency of the last word it makes twice": (
        "word_bpe",
        "merge_pair",
        """
def merge_pair(word_freqs, pair):
    merged_table = {}
    for word, frequency in word_freqs.items():
        symbols, index = [], 0
        while index < len(word):
            if index + 1 < len(word) and (word[index], word[index + 1]) == pair:
                symbols.append(pair[0] + pair[1])
                index += 2
            else:
                symbols.append(word[index])
                index += 1
        merged_table[tuple(symbols)] = frequency
    return merged_table
""",
    ),
    "char train_bpe runs one merge past num_merges": (
        "bpe",
        "train_bpe",
        """
def train_bpe(text, num_merges=20):
    tokens = list(text)
    merges = []
    for _ in range(num_merges + 1):
        pair_counts = get_pair_counts(tokens)
        if not pair_counts:
            break
        best_pair, best_count = pair_counts.most_common(1)[0]
        if best_count < 2:
            break
        tokens = merge_pair(tokens, best_pair)
        merges.append(best_pair)
    return tokens, merges
""",
    ),
    "char_tokenize gives one empty token for the empty text": (
        "simple_tokenizers",
        "char_tokenize",
        """
def char_tokenize(text):
    return list(text) or [""]
""",
    ),
    "char vocab sorts whitespace after the other characters": (
        "simple_tokenizers",
        "build_char_vocab",
        """
def build_char_vocab(texts):
    characters = sorted({character for text in texts for character in text}, key=lambda c: (c.isspace(), c))
    return {character: index for index, character in enumerate(characters)}
""",
    ),
    "char vocab sorts the list of texts it is given": (
        "simple_tokenizers",
        "build_char_vocab",
        """
def build_char_vocab(texts):
    texts.sort()
    characters = sorted({character for text in texts for character in text})
    return {character: index for index, character in enumerate(characters)}
""",
    ),
    "word_tokenize keeps the empty words at either end": (
        "simple_tokenizers",
        "word_tokenize",
        """
import re

def word_tokenize(text):
    return re.split(r"\\s+", text)
""",
    ),
    "word vocab is empty for texts without words": (
        "simple_tokenizers",
        "build_word_vocab",
        """
def build_word_vocab(texts):
    words = sorted({word for text in texts for word in word_tokenize(text)})
    if not words:
        return {}
    vocab = {word: index for index, word in enumerate(words)}
    vocab[UNKNOWN] = len(words)
    return vocab
""",
    ),
    "encode pops the merges off the list it is given": (
        "bpe",
        "encode",
        """
def encode(text, merges, vocab):
    tokens = list(text)
    while merges:
        tokens = merge_pair(tokens, merges.pop(0))
    return [vocab[token] for token in tokens]
""",
    ),
    "word train_bpe makes one merge more than num_merges": (
        "word_bpe",
        "train_bpe",
        """
def train_bpe(text, num_merges):
    word_freqs = word_frequencies(text)
    merges = []
    for _ in range(num_merges + 1):
        counts = get_pair_counts(word_freqs)
        if not counts:
            break
        best, count = counts.most_common(1)[0]
        if count < 2:
            break
        word_freqs = merge_pair(word_freqs, best)
        merges.append(best)
    return merges
""",
    ),
    "byte merge_pair merges in the list it is given": (
        "byte_bpe",
        "merge_pair",
        """
def merge_pair(ids, pair, new_id):
    index = 0
    while index < len(ids):
        if index + 1 < len(ids) and ids[index] == pair[0] and ids[index + 1] == pair[1]:
            ids[index : index + 2] = [new_id]
        index += 1
    return ids
""",
    ),
    "special tokens encoded as their bytes": (
        "byte_bpe",
        "encode_with_specials",
        """
def encode_with_specials(text, merges, special_tokens):
    ids = []
    for piece in regex.findall(GPT2_SPLIT_PATTERN, text):
        ids.extend(encode(piece, merges))
    return ids
""",
    ),
    "pieces training accepts a vocab_size below 256": (
        "byte_bpe",
        "train_on_pieces",
        """
def train_on_pieces(text, vocab_size):
    pieces = [list(piece.encode("utf-8")) for piece in regex.findall(GPT2_SPLIT_PATTERN, text)]
    merges = {}
    for new_id in range(256, vocab_size):
        pair_counts = Counter()
        for piece in pieces:
            pair_counts.update(get_pair_counts(piece))
        if not pair_counts:
            break
        best_pair, best_count = pair_counts.most_common(1)[0]
        if best_count < 2:
            break
        pieces = [merge_pair(piece, best_pair, new_id) for piece in pieces]
        merges[best_pair] = new_id
    return merges
""",
    ),
    "train_bytes makes no merge where it should refuse a vocab_size too small": (
        "real_tokenizer",
        "train_bytes",
        """
def train_bytes(text, vocab_size, special_tokens=()):
    specials = list(dict.fromkeys(special_tokens))
    merge_budget = max(0, vocab_size - 256 - len(specials))
    merges = _merges_of(_piece_counts(text, specials), merge_budget)
    vocab = {token_id: bytes([token_id]) for token_id in range(256)}
    for first, second in merges:
        vocab[len(vocab)] = first + second
    for token in specials:
        vocab[len(vocab)] = token.encode("utf-8")
    return vocab, merges
""",
    ),
    "bpe vocab holds the merged tokens only, not the characters": (
        "bpe",
        "build_bpe_vocab",
        """
def build_bpe_vocab(text, merges):
    tokens = {first + second for first, second in merges}
    ordered = sorted(tokens, key=lambda token: (len(token), token))
    return {token: index for index, token in enumerate(ordered)}
""",
    ),
    "bpe vocab sorts the merges it is given": (
        "bpe",
        "build_bpe_vocab",
        """
def build_bpe_vocab(text, merges):
    tokens = sorted(set(text))
    merges.sort(key=lambda pair: (len(pair[0] + pair[1]), pair[0] + pair[1]))
    for first, second in merges:
        if first + second not in tokens:
            tokens.append(first + second)
    return {token: index for index, token in enumerate(tokens)}
""",
    ),
    "decode strips the whitespace at either end": (
        "bpe",
        "decode",
        """
def decode(ids, vocab):
    token_of = {index: token for token, index in vocab.items()}
    return "".join(token_of[index] for index in ids).strip()
""",
    ),
    "decode empties the list of ids as it reads it": (
        "bpe",
        "decode",
        """
def decode(ids, vocab):
    token_of = {index: token for token, index in vocab.items()}
    text = ""
    while ids:
        text += token_of[ids.pop(0)]
    return text
""",
    ),
    "pair counts are None for fewer than two tokens": (
        "bpe",
        "get_pair_counts",
        """
def get_pair_counts(tokens):
    if len(tokens) < 2:
        return None  # nothing to count
    pair_counts = Counter()
    for pair in zip(tokens, tokens[1:]):
        pair_counts[pair] += 1
    return pair_counts
""",
    ),
    "pair counts pop the tokens off the list they are given": (
        "bpe",
        "get_pair_counts",
        """
def get_pair_counts(tokens):
    pair_counts = Counter()
    while len(tokens) > 1:
        first = tokens.pop(0)
        pair_counts[(first, tokens[0])] += 1
    return pair_counts
""",
    ),
    "merge_pair merges only the first occurrence": (
        "bpe",
        "merge_pair",
        """
def merge_pair(tokens, pair):
    for index in range(len(tokens) - 1):
        if (tokens[index], tokens[index + 1]) == pair:
            return tokens[:index] + [pair[0] + pair[1]] + tokens[index + 2 :]
    return list(tokens)
""",
    ),
    "train_bpe returns the distinct final tokens, sorted": (
        "bpe",
        "train_bpe",
        """
def train_bpe(text, num_merges=20):
    tokens = list(text)
    merges = []
    for _ in range(num_merges):
        pair_counts = get_pair_counts(tokens)
        if not pair_counts:
            break
        best_pair, best_count = pair_counts.most_common(1)[0]
        if best_count < 2:
            break
        tokens = merge_pair(tokens, best_pair)
        merges.append(best_pair)
    return sorted(set(tokens)), merges
""",
    ),
    "byte decode normalises the text it decodes (NFC)": (
        "byte_bpe",
        "decode",
        """
import unicodedata


def decode(ids, merges):
    token_bytes = _token_bytes(merges)
    text = b"".join(token_bytes[value] for value in ids).decode("utf-8", errors="replace")
    return unicodedata.normalize("NFC", text)
""",
    ),
    "byte decode empties the list of ids as it reads it": (
        "byte_bpe",
        "decode",
        """
def decode(ids, merges):
    token_bytes = _token_bytes(merges)
    data = b""
    while ids:
        data += token_bytes[ids.pop(0)]
    return data.decode("utf-8", errors="replace")
""",
    ),
    "special-token decode moves the special tokens out of their dict": (
        "byte_bpe",
        "decode_with_specials",
        """
def decode_with_specials(ids, merges, special_tokens):
    token_bytes = _token_bytes(merges)
    for token in list(special_tokens):
        token_bytes[special_tokens.pop(token)] = token.encode("utf-8")
    return b"".join(token_bytes[value] for value in ids).decode("utf-8", errors="replace")
""",
    ),
    "byte encode pops the merges off the dict it is given": (
        "byte_bpe",
        "encode",
        """
def encode(text, merges):
    ids = list(text.encode("utf-8"))
    while merges:
        pair = min(merges, key=merges.get)
        ids = merge_pair(ids, pair, merges.pop(pair))
    return ids
""",
    ),
    "special-token encode deletes the special tokens the text lacks": (
        "byte_bpe",
        "encode_with_specials",
        """
def encode_with_specials(text, merges, special_tokens):
    for token in [token for token in special_tokens if token not in text]:
        del special_tokens[token]  # only the ones in the text go into the pattern
    chunks = [text]
    if special_tokens:
        by_length = sorted(special_tokens, key=len, reverse=True)
        chunks = regex.split("(" + "|".join(regex.escape(token) for token in by_length) + ")", text)
    ids = []
    for index, chunk in enumerate(chunks):
        if index % 2:
            ids.append(special_tokens[chunk])
            continue
        for piece in regex.findall(GPT2_SPLIT_PATTERN, chunk):
            ids.extend(encode(piece, merges))
    return ids
""",
    ),
    "byte pair counts pop the ids off the list they are given": (
        "byte_bpe",
        "get_pair_counts",
        """
def get_pair_counts(ids):
    pair_counts = Counter()
    while len(ids) > 1:
        first = ids.pop(0)
        pair_counts[(first, ids[0])] += 1
    return pair_counts
""",
    ),
    "byte merge_pair also merges the pair's ids the other way round": (
        "byte_bpe",
        "merge_pair",
        """
def merge_pair(ids, pair, new_id):
    merged = []
    index = 0
    while index < len(ids):
        if index + 1 < len(ids) and {ids[index], ids[index + 1]} == set(pair):
            merged.append(new_id)
            index += 2
        else:
            merged.append(ids[index])
            index += 1
    return merged
""",
    ),
    "byte train_bpe merges the first pair seen twice, not the most frequent": (
        "byte_bpe",
        "train_bpe",
        """
def train_bpe(text, vocab_size):
    if vocab_size < 256:
        raise ValueError(f"vocab_size {vocab_size} is below 256: the vocabulary must hold every byte value")
    ids = list(text.encode("utf-8"))
    merges = {}
    for new_id in range(256, vocab_size):
        repeated = [pair for pair, count in get_pair_counts(ids).items() if count >= 2]
        if not repeated:
            break
        ids = merge_pair(ids, repeated[0], new_id)
        merges[repeated[0]] = new_id
    return merges
""",
    ),
    "byte train_bpe merges pairs seen once": (
        "byte_bpe",
        "train_bpe",
        """
def train_bpe(text, vocab_size):
    if vocab_size < 256:
        raise ValueError(f"vocab_size {vocab_size} is below 256: the vocabulary must hold every byte value")
    ids = list(text.encode("utf-8"))
    merges = {}
    for new_id in range(256, vocab_size):
        pair_counts = get_pair_counts(ids)
        if not pair_counts:
            break
        best_pair = pair_counts.most_common(1)[0][0]
        ids = merge_pair(ids, best_pair, new_id)
        merges[best_pair] = new_id
    return merges
""",
    ),
    "pieces training merges pairs seen once": (
        "byte_bpe",
        "train_on_pieces",
        """
def train_on_pieces(text, vocab_size):
    if vocab_size < 256:
        raise ValueError(f"vocab_size {vocab_size} is below 256: the vocabulary must hold every byte value")
    pieces = [list(piece.encode("utf-8")) for piece in regex.findall(GPT2_SPLIT_PATTERN, text)]
    merges = {}
    for new_id in range(256, vocab_size):
        pair_counts = Counter()
        for piece in pieces:
            pair_counts.update(get_pair_counts(piece))
        if not pair_counts:
            break
        best_pair = pair_counts.most_common(1)[0][0]
        pieces = [merge_pair(piece, best_pair, new_id) for piece in pieces]
        merges[best_pair] = new_id
    return merges
""",
    ),
    "load turns the vocabulary around, id to token": (
        "real_tokenizer",
        "load",
        """
def load(folder):
    root = Path(folder)
    token_ids = json.loads((root / VOCAB_FILE).read_text(encoding="utf-8"))
    vocab = {token_id: token for token, token_id in token_ids.items()}  # ids to tokens, to decode with
    merge_lines = (root / MERGES_FILE).read_text(encoding="utf-8").split("\\n")
    if merge_lines and merge_lines[0].startswith("#version"):
        merge_lines = merge_lines[1:]
    ranked_merges = []
    for line in merge_lines:
        if line:
            first, second = line.split(" ")
            ranked_merges.append((first, second))
    return vocab, ranked_merges
""",
    ),
    "save writes the vocabulary id to token": (
        "real_tokenizer",
        "save",
        """
def save(folder, vocab, merges):
    root = Path(folder)
    root.mkdir(parents=True, exist_ok=True)
    by_id = {token_id: token for token, token_id in vocab.items()}  # as a decoder reads it
    (root / VOCAB_FILE).write_text(json.dumps(by_id, ensure_ascii=False), encoding="utf-8")
    lines = [MERGES_HEADER, *(f"{first} {second}" for first, second in merges)]
    (root / MERGES_FILE).write_text("".join(line + "\\n" for line in lines), encoding="utf-8")
""",
    ),
    "word vocab splits the texts in the list it is given": (
        "simple_tokenizers",
        "build_word_vocab",
        """
def build_word_vocab(texts):
    for index, text in enumerate(texts):
        texts[index] = word_tokenize(text)  # each text as its words
    words = sorted({word for words in texts for word in words})
    vocab = {word: index for index, word in enumerate(words)}
    vocab[UNKNOWN] = len(words)
    return vocab
""",
    ),
    "word decode puts punctuation back against the word before it": (
        "word_bpe",
        "decode",
        """
def decode(tokens):
    words = "".join(tokens).split(END_OF_WORD)
    text = " ".join(word for word in words if word)
    for mark in ".,;:!?":
        text = text.replace(" " + mark, mark)  # as written text has it
    return text
""",
    ),
    "word decode empties the list of tokens as it reads it": (
        "word_bpe",
        "decode",
        """
def decode(tokens):
    words, current = [], ""
    while tokens:
        current += tokens.pop(0)
        if current.endswith(END_OF_WORD):
            words.append(current[: -len(END_OF_WORD)])
            current = ""
    return " ".join(word for word in words if word)
""",
    ),
    "word encode gives a list of tokens per word": (
        "word_bpe",
        "encode",
        """
def encode(text, merges):
    words = []
    for word in pre_tokenize(text):
        symbols = {tuple(word) + (END_OF_WORD,): 1}
        for pair in merges:
            symbols = merge_pair(symbols, pair)
        words.append(list(next(iter(symbols))))
    return words
""",
    ),
    "word encode pops the merges off the list it is given": (
        "word_bpe",
        "encode",
        """
def encode(text, merges):
    words = [(*word, END_OF_WORD) for word in pre_tokenize(text)]
    while merges:
        pair = merges.pop(0)  # each merge once, in learned order, over every word
        words = [next(iter(merge_pair({symbols: 1}, pair))) for symbols in words]
    return [token for symbols in words for token in symbols]
""",
    ),
    "word encode makes characters no merge holds [UNK]": (
        "word_bpe",
        "encode",
        """
def encode(text, merges):
    known = {character for pair in merges for symbol in pair for character in symbol}
    tokens = []
    for word in pre_tokenize(text):
        spelled = tuple(character if character in known else "[UNK]" for character in word)
        symbols = {spelled + (END_OF_WORD,): 1}
        for pair in merges:
            symbols = merge_pair(symbols, pair)
        tokens.extend(next(iter(symbols)))
    return tokens
""",
    ),
    "encode_by_rank merges a pair's occurrences from the right": (
        "word_bpe",
        "encode_by_rank",
        """
def encode_by_rank(text, merges):
    ranks = {pair: rank for rank, pair in enumerate(merges)}
    tokens = []
    for word in pre_tokenize(text):
        symbols = [*word, END_OF_WORD]
        while len(symbols) > 1:
            best = min(zip(symbols, symbols[1:]), key=lambda pair: ranks.get(pair, len(merges)))
            if best not in ranks:
                break
            index = len(symbols) - 2
            while index >= 0:  # from the right, so that a merge never moves a place still to visit
                if (symbols[index], symbols[index + 1]) == best:
                    symbols[index : index + 2] = [best[0] + best[1]]
                    index -= 2
                else:
                    index -= 1
        tokens.extend(symbols)
    return tokens
""",
    ),
    "encode_by_rank spells a word without the end-of-word marker": (
        "word_bpe",
        "encode_by_rank",
        """
def encode_by_rank(text, merges):
    ranks = {pair: rank for rank, pair in enumerate(merges)}
    tokens = []
    for word in pre_tokenize(text):
        symbols = tuple(word)
        while len(symbols) > 1:
            best = min(zip(symbols, symbols[1:]), key=lambda pair: ranks.get(pair, len(merges)))
            if best not in ranks:
                break
            symbols = next(iter(merge_pair({symbols: 1}, best)))
        tokens.extend(symbols)
    return tokens
""",
    ),
    "encode_by_rank pops the merges off the list to rank them": (
        "word_bpe",
        "encode_by_rank",
        """
def encode_by_rank(text, merges):
    ranks = {}
    while merges:
        pair = merges.pop()
        ranks[pair] = len(merges)  # its index, now that the ones after it are gone
    tokens = []
    for word in pre_tokenize(text):
        symbols = (*word, END_OF_WORD)
        while len(symbols) > 1:
            best = min(zip(symbols, symbols[1:]), key=lambda pair: ranks.get(pair, len(ranks)))
            if best not in ranks:
                break
            symbols = next(iter(merge_pair({symbols: 1}, best)))
        tokens.extend(symbols)
    return tokens
""",
    ),
    "word pair counts pop the words off the table": (
        "word_bpe",
        "get_pair_counts",
        """
def get_pair_counts(word_freqs):
    pair_counts = Counter()
    while word_freqs:
        word, frequency = word_freqs.popitem()
        for pair in zip(word, word[1:]):
            pair_counts[pair] += frequency
    return pair_counts
""",
    ),
    "word train_bpe collects the merges in a set": (
        "word_bpe",
        "train_bpe",
        """
def train_bpe(text, num_merges):
    word_freqs = word_frequencies(text)
    merges = set()
    for _ in range(num_merges):
        pair_counts = get_pair_counts(word_freqs)
        if not pair_counts:
            break
        best_pair, best_count = pair_counts.most_common(1)[0]
        if best_count < 2:
            break
        word_freqs = merge_pair(word_freqs, best_pair)
        merges.add(best_pair)
    return merges
""",
    ),
    "wordpiece takes the shortest piece first": (
        "relatives",
        "wordpiece_encode",
        """
def wordpiece_encode(word, vocab):
    pieces, start = [], 0
    while start < len(word):
        prefix = "##" if start else ""
        for end in range(start + 1, len(word) + 1):
            if prefix + word[start:end] in vocab:
                break
        else:
            return ["[UNK]"]
        pieces.append(prefix + word[start:end])
        start = end
    return pieces
""",
    ),
    "wordpiece goes back to a shorter piece when the longest leaves a gap": (
        "relatives",
        "wordpiece_encode",
        """
def wordpiece_encode(word, vocab):
    def cut(start):
        if start == len(word):
            return []
        prefix = "##" if start else ""
        for end in range(len(word), start, -1):
            if prefix + word[start:end] in vocab:
                rest = cut(end)
                if rest is not None:
                    return [prefix + word[start:end]] + rest
        return None

    found = cut(0)
    return ["[UNK]"] if found is None else found
""",
    ),
    "wordpiece looks pieces up without ##": (
        "relatives",
        "wordpiece_encode",
        """
def wordpiece_encode(word, vocab):
    pieces, start = [], 0
    while start < len(word):
        for end in range(len(word), start, -1):
            if word[start:end] in vocab:
                break
        else:
            return ["[UNK]"]
        pieces.append(word[start:end] if start == 0 else "##" + word[start:end])
        start = end
    return pieces
""",
    ),
    "wordpiece writes ## before the first piece too": (
        "relatives",
        "wordpiece_encode",
        """
def wordpiece_encode(word, vocab):
    pieces, start = [], 0
    while start < len(word):
        for end in range(len(word), start, -1):
            if "##" + word[start:end] in vocab:
                break
        else:
            return ["[UNK]"]
        pieces.append("##" + word[start:end])
        start = end
    return pieces
""",
    ),
    "wordpiece keeps the pieces found before the gap": (
        "relatives",
        "wordpiece_encode",
        """
def wordpiece_encode(word, vocab):
    pieces, start = [], 0
    while start < len(word):
        prefix = "##" if start else ""
        end = len(word)
        while end > start and prefix + word[start:end] not in vocab:
            end -= 1
        if end == start:
            return pieces + ["[UNK]"]
        pieces.append(prefix + word[start:end])
        start = end
    return pieces
""",
    ),
    "wordpiece gives [UNK] for the unknown character and goes on": (
        "relatives",
        "wordpiece_encode",
        """
def wordpiece_encode(word, vocab):
    pieces, start = [], 0
    while start < len(word):
        prefix = "##" if start else ""
        end = len(word)
        while end > start and prefix + word[start:end] not in vocab:
            end -= 1
        if end == start:
            pieces.append("[UNK]")
            start += 1
            continue
        pieces.append(prefix + word[start:end])
        start = end
    return pieces
""",
    ),
    "wordpiece calls the empty word unknown": (
        "relatives",
        "wordpiece_encode",
        """
def wordpiece_encode(word, vocab):
    if not word:
        return ["[UNK]"]
    pieces, start = [], 0
    while start < len(word):
        prefix = "##" if start else ""
        end = len(word)
        while end > start and prefix + word[start:end] not in vocab:
            end -= 1
        if end == start:
            return ["[UNK]"]
        pieces.append(prefix + word[start:end])
        start = end
    return pieces
""",
    ),
    "wordpiece adds the pieces it finds to the vocabulary": (
        "relatives",
        "wordpiece_encode",
        """
def wordpiece_encode(word, vocab):
    pieces, start = [], 0
    while start < len(word):
        prefix = "##" if start else ""
        end = len(word)
        while end > start and prefix + word[start:end] not in vocab:
            end -= 1
        if end == start:
            return ["[UNK]"]
        pieces.append(prefix + word[start:end])
        start = end
    vocab.add(word)  # remembered as a whole for next time
    return pieces
""",
    ),
    "unigram takes the longest known piece first": (
        "relatives",
        "unigram_segment",
        """
def unigram_segment(word, log_probs):
    pieces, start = [], 0
    while start < len(word):
        for end in range(len(word), start, -1):
            if word[start:end] in log_probs:
                break
        else:
            return None
        pieces.append(word[start:end])
        start = end
    return pieces
""",
    ),
    "unigram multiplies the log-probabilities": (
        "relatives",
        "unigram_segment",
        """
def unigram_segment(word, log_probs):
    best = [None] * len(word) + [(1.0, [])]
    for start in range(len(word) - 1, -1, -1):
        for end in range(len(word), start, -1):
            piece, rest = word[start:end], best[end]
            if piece in log_probs and rest is not None:
                score = log_probs[piece] * rest[0]
                if best[start] is None or score > best[start][0]:
                    best[start] = (score, [piece] + rest[1])
    return None if best[0] is None else best[0][1]
""",
    ),
    "unigram breaks a tie toward the shorter first piece": (
        "relatives",
        "unigram_segment",
        """
def unigram_segment(word, log_probs):
    best = [None] * len(word) + [(0.0, [])]
    for start in range(len(word) - 1, -1, -1):
        for end in range(start + 1, len(word) + 1):
            piece, rest = word[start:end], best[end]
            if piece in log_probs and rest is not None:
                score = log_probs[piece] + rest[0]
                if best[start] is None or score > best[start][0]:
                    best[start] = (score, [piece] + rest[1])
    return None if best[0] is None else best[0][1]
""",
    ),
    "unigram fills the table from the start, keeping the longer last piece on a tie": (
        "relatives",
        "unigram_segment",
        """
def unigram_segment(word, log_probs):
    best = [(0.0, [])] + [None] * len(word)
    for end in range(1, len(word) + 1):
        for start in range(end):  # the longest last piece first
            piece, before = word[start:end], best[start]
            if piece in log_probs and before is not None:
                score = before[0] + log_probs[piece]
                if best[end] is None or score > best[end][0]:
                    best[end] = (score, before[1] + [piece])
    return None if best[-1] is None else best[-1][1]
""",
    ),
    "unigram answers [] when no split exists": (
        "relatives",
        "unigram_segment",
        """
def unigram_segment(word, log_probs):
    best = [None] * len(word) + [(0.0, [])]
    for start in range(len(word) - 1, -1, -1):
        for end in range(len(word), start, -1):
            piece, rest = word[start:end], best[end]
            if piece in log_probs and rest is not None:
                score = log_probs[piece] + rest[0]
                if best[start] is None or score > best[start][0]:
                    best[start] = (score, [piece] + rest[1])
    return [] if best[0] is None else best[0][1]
""",
    ),
    "unigram keeps the word's best sum in log_probs for next time": (
        "relatives",
        "unigram_segment",
        """
def unigram_segment(word, log_probs):
    best = [None] * len(word) + [(0.0, [])]
    for start in range(len(word) - 1, -1, -1):
        for end in range(len(word), start, -1):
            piece, rest = word[start:end], best[end]
            if piece in log_probs and rest is not None:
                score = log_probs[piece] + rest[0]
                if best[start] is None or score > best[start][0]:
                    best[start] = (score, [piece] + rest[1])
    if best[0] is None:
        return None
    if word not in log_probs:
        log_probs[word] = best[0][0]  # a memo: the next call finds the whole word at once
    return best[0][1]
""",
    ),
    # Part 6's tokenizer at scale: one rule of each of chunk_text, write_ids and read_ids negated (or the kit's
    # own guess at a student's slip), each the reference with one change.
    "chunk_text loses the text after the last cut": (
        "real_tokenizer",
        "chunk_text",
        """
def chunk_text(pieces, size):
    held, looked = "", 0
    for piece in pieces:
        held += piece
        while True:
            at = held.find("\\n", max(looked, size - 1, 1))
            while at != -1 and at + 1 < len(held) and (held[at - 1].isspace() or held[at + 1].isspace()):
                at = held.find("\\n", at + 1)
            if at == -1 or at + 1 == len(held):
                looked = len(held) if at == -1 else at
                break
            yield held[: at + 1]
            held, looked = held[at + 1 :], 0
""",
    ),
    "chunk_text cuts after any newline": (
        "real_tokenizer",
        "chunk_text",
        """
def chunk_text(pieces, size):
    held = ""
    for piece in pieces:
        held += piece
        while True:
            at = held.find("\\n", size - 1)
            if at == -1:
                break
            yield held[: at + 1]
            held = held[at + 1 :]
    if held:
        yield held
""",
    ),
    "chunk_text looks for the newline from index size": (
        "real_tokenizer",
        "chunk_text",
        """
def chunk_text(pieces, size):
    held, looked = "", 0
    for piece in pieces:
        held += piece
        while True:
            at = held.find("\\n", max(looked, size, 1))
            while at != -1 and at + 1 < len(held) and (held[at - 1].isspace() or held[at + 1].isspace()):
                at = held.find("\\n", at + 1)
            if at == -1 or at + 1 == len(held):
                looked = len(held) if at == -1 else at
                break
            yield held[: at + 1]
            held, looked = held[at + 1 :], 0
    if held:
        yield held
""",
    ),
    "chunk_text joins every piece before it cuts": (
        "real_tokenizer",
        "chunk_text",
        """
def chunk_text(pieces, size):
    text = "".join(pieces)
    start = 0
    while True:
        at = text.find("\\n", max(start + size - 1, start + 1))
        while at != -1 and at + 1 < len(text) and (text[at - 1].isspace() or text[at + 1].isspace()):
            at = text.find("\\n", at + 1)
        if at == -1 or at + 1 == len(text):
            break
        yield text[start : at + 1]
        start = at + 1
    if text[start:]:
        yield text[start:]
""",
    ),
    "write_ids packs the ids big-endian": (
        "real_tokenizer",
        "write_ids",
        """
def write_ids(path, ids, vocab_size):
    outside = [token_id for token_id in ids if not 0 <= token_id < vocab_size]
    if outside:
        raise ValueError(f"id {outside[0]} is not in range({vocab_size})")
    with open(path, "wb") as written:
        written.write(struct.pack(f">{len(ids)}{'H' if vocab_size <= UINT16_IDS else 'I'}", *ids))
""",
    ),
    "write_ids takes 4 bytes an id from 65,536 tokens on": (
        "real_tokenizer",
        "write_ids",
        """
def write_ids(path, ids, vocab_size):
    outside = [token_id for token_id in ids if not 0 <= token_id < vocab_size]
    if outside:
        raise ValueError(f"id {outside[0]} is not in range({vocab_size})")
    with open(path, "wb") as written:
        written.write(struct.pack(f"<{len(ids)}{'H' if vocab_size < 65536 else 'I'}", *ids))
""",
    ),
    "write_ids checks only that an id is below vocab_size": (
        "real_tokenizer",
        "write_ids",
        """
def write_ids(path, ids, vocab_size):
    outside = [token_id for token_id in ids if token_id >= vocab_size]
    if outside:
        raise ValueError(f"id {outside[0]} is not in range({vocab_size})")
    with open(path, "wb") as written:
        written.write(struct.pack(f"<{len(ids)}{'H' if vocab_size <= UINT16_IDS else 'I'}", *ids))
""",
    ),
    "read_ids reads signed ids": (
        "real_tokenizer",
        "read_ids",
        """
def read_ids(path, vocab_size):
    code = "h" if vocab_size <= UINT16_IDS else "i"
    data = Path(path).read_bytes()
    width = struct.calcsize(f"<{code}")
    if len(data) % width:
        raise ValueError(f"{len(data)} bytes are not a whole number of {width}-byte ids")
    return list(struct.unpack(f"<{len(data) // width}{code}", data))
""",
    ),
    "read_ids drops the bytes of a last part id": (
        "real_tokenizer",
        "read_ids",
        """
def read_ids(path, vocab_size):
    code = "H" if vocab_size <= UINT16_IDS else "I"
    data = Path(path).read_bytes()
    width = struct.calcsize(f"<{code}")
    return list(struct.unpack(f"<{len(data) // width}{code}", data[: len(data) // width * width]))
""",
    ),
    # The blind helper's mistakes (issue 51), written from the students' spec alone before the tests existed,
    # each as written; where a file got both write_ids and read_ids wrong, an entry for each.
    "chunk_text, blind 01: any newline": (
        "real_tokenizer",
        "chunk_text",
        """
from collections.abc import Iterable, Iterator


def chunk_text(pieces: Iterable[str], size: int) -> Iterator[str]:
    buffer = ""
    for piece in pieces:
        buffer += piece
        while True:
            cut = buffer.find("\\n", size - 1)
            if cut == -1:
                break
            yield buffer[: cut + 1]
            buffer = buffer[cut + 1 :]
    if buffer:
        yield buffer
""",
    ),
    "chunk_text, blind 02: cut before newline": (
        "real_tokenizer",
        "chunk_text",
        """
from collections.abc import Iterable, Iterator


def chunk_text(pieces: Iterable[str], size: int) -> Iterator[str]:
    buffer = ""
    for piece in pieces:
        buffer += piece
        start = size
        while True:
            cut = buffer.find("\\n", start)
            if cut == -1 or cut + 1 >= len(buffer):
                break
            if buffer[cut - 1].isspace() or buffer[cut + 1].isspace():
                start = cut + 1
                continue
            # Cuts in front of the "\\n", so the next chunk starts with it.
            yield buffer[:cut]
            buffer = buffer[cut:]
            start = size
    if buffer:
        yield buffer
""",
    ),
    "chunk_text, blind 03: blank line cut": (
        "real_tokenizer",
        "chunk_text",
        """
from collections.abc import Iterable, Iterator


def chunk_text(pieces: Iterable[str], size: int) -> Iterator[str]:
    buffer = ""
    for piece in pieces:
        buffer += piece
        while True:
            # Cut at paragraph breaks: after a blank line.
            cut = buffer.find("\\n\\n", max(size - 2, 0))
            if cut == -1:
                break
            yield buffer[: cut + 2]
            buffer = buffer[cut + 2 :]
    if buffer:
        yield buffer
""",
    ),
    "chunk_text, blind 04: left neighbour only": (
        "real_tokenizer",
        "chunk_text",
        """
from collections.abc import Iterable, Iterator


def chunk_text(pieces: Iterable[str], size: int) -> Iterator[str]:
    buffer = ""
    for piece in pieces:
        buffer += piece
        start = max(size - 1, 1)
        while True:
            cut = buffer.find("\\n", start)
            if cut == -1:
                break
            if buffer[cut - 1].isspace():
                start = cut + 1
                continue
            yield buffer[: cut + 1]
            buffer = buffer[cut + 1 :]
            start = max(size - 1, 1)
    if buffer:
        yield buffer
""",
    ),
    "chunk_text, blind 05: not lazy": (
        "real_tokenizer",
        "chunk_text",
        """
from collections.abc import Iterable, Iterator


def chunk_text(pieces: Iterable[str], size: int) -> Iterator[str]:
    text = "".join(pieces)
    start = 0
    position = start + max(size - 1, 1)
    while True:
        cut = text.find("\\n", position)
        if cut == -1 or cut + 1 >= len(text):
            break
        if text[cut - 1].isspace() or text[cut + 1].isspace():
            position = cut + 1
            continue
        yield text[start : cut + 1]
        start = cut + 1
        position = start + max(size - 1, 1)
    if start < len(text):
        yield text[start:]
""",
    ),
    "chunk_text, blind 06: loses tail": (
        "real_tokenizer",
        "chunk_text",
        """
from collections.abc import Iterable, Iterator


def chunk_text(pieces: Iterable[str], size: int) -> Iterator[str]:
    buffer = ""
    for piece in pieces:
        buffer += piece
        start = max(size - 1, 1)
        while True:
            cut = buffer.find("\\n", start)
            if cut == -1 or cut + 1 >= len(buffer):
                break
            if buffer[cut - 1].isspace() or buffer[cut + 1].isspace():
                start = cut + 1
                continue
            yield buffer[: cut + 1]
            buffer = buffer[cut + 1 :]
            start = max(size - 1, 1)
""",
    ),
    "chunk_text, blind 07: yields empty tail": (
        "real_tokenizer",
        "chunk_text",
        """
from collections.abc import Iterable, Iterator


def chunk_text(pieces: Iterable[str], size: int) -> Iterator[str]:
    buffer = ""
    for piece in pieces:
        buffer += piece
        start = max(size - 1, 1)
        while True:
            cut = buffer.find("\\n", start)
            if cut == -1 or cut + 1 >= len(buffer):
                break
            if buffer[cut - 1].isspace() or buffer[cut + 1].isspace():
                start = cut + 1
                continue
            yield buffer[: cut + 1]
            buffer = buffer[cut + 1 :]
            start = max(size - 1, 1)
    yield buffer
""",
    ),
    "chunk_text, blind 08: size in pieces": (
        "real_tokenizer",
        "chunk_text",
        """
from collections.abc import Iterable, Iterator


def chunk_text(pieces: Iterable[str], size: int) -> Iterator[str]:
    buffer = ""
    taken = 0
    for piece in pieces:
        buffer += piece
        taken += 1
        if taken < size:
            continue
        # At least `size` pieces are in: cut at the first good "\\n".
        for cut in range(1, len(buffer) - 1):
            if buffer[cut] == "\\n" and not buffer[cut - 1].isspace() and not buffer[cut + 1].isspace():
                yield buffer[: cut + 1]
                buffer = buffer[cut + 1 :]
                taken = 0
                break
    if buffer:
        yield buffer
""",
    ),
    "chunk_text, blind 09: size in bytes": (
        "real_tokenizer",
        "chunk_text",
        """
from collections.abc import Iterable, Iterator


def chunk_text(pieces: Iterable[str], size: int) -> Iterator[str]:
    buffer = ""
    for piece in pieces:
        buffer += piece
        while True:
            cut = None
            for index in range(1, len(buffer) - 1):
                if (
                    buffer[index] == "\\n"
                    and len(buffer[: index + 1].encode("utf-8")) >= size
                    and not buffer[index - 1].isspace()
                    and not buffer[index + 1].isspace()
                ):
                    cut = index + 1
                    break
            if cut is None:
                break
            yield buffer[:cut]
            buffer = buffer[cut:]
    if buffer:
        yield buffer
""",
    ),
    "chunk_text, blind 10: strictly more than size": (
        "real_tokenizer",
        "chunk_text",
        """
from collections.abc import Iterable, Iterator


def chunk_text(pieces: Iterable[str], size: int) -> Iterator[str]:
    buffer = ""
    for piece in pieces:
        buffer += piece
        start = max(size, 1)
        while True:
            # Looks for the "\\n" from index size on: the chunk then has more than size characters.
            cut = buffer.find("\\n", start)
            if cut == -1 or cut + 1 >= len(buffer):
                break
            if buffer[cut - 1].isspace() or buffer[cut + 1].isspace():
                start = cut + 1
                continue
            yield buffer[: cut + 1]
            buffer = buffer[cut + 1 :]
            start = max(size, 1)
    if buffer:
        yield buffer
""",
    ),
    "chunk_text, blind 11: cuts before next char": (
        "real_tokenizer",
        "chunk_text",
        """
from collections.abc import Iterable, Iterator


def chunk_text(pieces: Iterable[str], size: int) -> Iterator[str]:
    buffer = ""
    for piece in pieces:
        buffer += piece
        start = max(size - 1, 1)
        while True:
            cut = buffer.find("\\n", start)
            if cut == -1:
                break
            after = buffer[cut + 1 : cut + 2]  # "" when the "\\n" ends this piece
            if buffer[cut - 1].isspace() or after.isspace():
                start = cut + 1
                continue
            yield buffer[: cut + 1]
            buffer = buffer[cut + 1 :]
            start = max(size - 1, 1)
    if buffer:
        yield buffer
""",
    ),
    "chunk_text, blind 12: one cut per piece": (
        "real_tokenizer",
        "chunk_text",
        """
from collections.abc import Iterable, Iterator


def chunk_text(pieces: Iterable[str], size: int) -> Iterator[str]:
    buffer = ""
    for piece in pieces:
        buffer += piece
        start = max(size - 1, 1)
        # Looks for one cut per piece read.
        while True:
            cut = buffer.find("\\n", start)
            if cut == -1 or cut + 1 >= len(buffer):
                break
            if buffer[cut - 1].isspace() or buffer[cut + 1].isspace():
                start = cut + 1
                continue
            yield buffer[: cut + 1]
            buffer = buffer[cut + 1 :]
            break
    if buffer:
        yield buffer
""",
    ),
    "chunk_text, blind 13: space char only": (
        "real_tokenizer",
        "chunk_text",
        """
from collections.abc import Iterable, Iterator


def chunk_text(pieces: Iterable[str], size: int) -> Iterator[str]:
    buffer = ""
    for piece in pieces:
        buffer += piece
        start = max(size - 1, 1)
        while True:
            cut = buffer.find("\\n", start)
            if cut == -1 or cut + 1 >= len(buffer):
                break
            # Only " " and "\\n" count as whitespace here.
            if buffer[cut - 1] in " \\n" or buffer[cut + 1] in " \\n":
                start = cut + 1
                continue
            yield buffer[: cut + 1]
            buffer = buffer[cut + 1 :]
            start = max(size - 1, 1)
    if buffer:
        yield buffer
""",
    ),
    "chunk_text, blind 14: longest not shortest": (
        "real_tokenizer",
        "chunk_text",
        """
from collections.abc import Iterable, Iterator


def chunk_text(pieces: Iterable[str], size: int) -> Iterator[str]:
    buffer = ""
    for piece in pieces:
        buffer += piece
        if len(buffer) < size:
            continue
        # Keep as much as possible: cut at the last good "\\n" in what has been read.
        cut = len(buffer) - 2
        while cut >= max(size - 1, 1):
            if buffer[cut] == "\\n" and not buffer[cut - 1].isspace() and not buffer[cut + 1].isspace():
                yield buffer[: cut + 1]
                buffer = buffer[cut + 1 :]
                break
            cut -= 1
    if buffer:
        yield buffer
""",
    ),
    "chunk_text, blind 15: regex whitespace class": (
        "real_tokenizer",
        "chunk_text",
        """
from collections.abc import Iterable, Iterator

import regex

# A "\\n" with a non-space character on each side.
CUT = regex.compile(r"(?<=\\S)\\n(?=\\S)")


def chunk_text(pieces: Iterable[str], size: int) -> Iterator[str]:
    buffer = ""
    for piece in pieces:
        buffer += piece
        while True:
            match = CUT.search(buffer, max(size - 1, 1))
            if match is None:
                break
            yield buffer[: match.end()]
            buffer = buffer[match.end() :]
    if buffer:
        yield buffer
""",
    ),
    "chunk_text, blind 16: right neighbour only": (
        "real_tokenizer",
        "chunk_text",
        """
from collections.abc import Iterable, Iterator


def chunk_text(pieces: Iterable[str], size: int) -> Iterator[str]:
    buffer = ""
    for piece in pieces:
        buffer += piece
        start = max(size - 1, 0)
        while True:
            cut = buffer.find("\\n", start)
            if cut == -1 or cut + 1 >= len(buffer):
                break
            # What follows the cut starts the next chunk: it must not be whitespace.
            if buffer[cut + 1].isspace():
                start = cut + 1
                continue
            yield buffer[: cut + 1]
            buffer = buffer[cut + 1 :]
            start = max(size - 1, 0)
    if buffer:
        yield buffer
""",
    ),
    "chunk_text, blind 17: reads one ahead": (
        "real_tokenizer",
        "chunk_text",
        """
from collections.abc import Iterable, Iterator


def chunk_text(pieces: Iterable[str], size: int) -> Iterator[str]:
    iterator = iter(pieces)
    buffer = next(iterator, "")
    for upcoming in iterator:
        # Always hold the next piece, so the character after a "\\n" is known.
        text = buffer + upcoming
        start = max(size - 1, 1)
        while True:
            cut = text.find("\\n", start)
            if cut == -1 or cut >= len(buffer) or cut + 1 >= len(text):
                break
            if text[cut - 1].isspace() or text[cut + 1].isspace():
                start = cut + 1
                continue
            yield text[: cut + 1]
            text = text[cut + 1 :]
            buffer = buffer[cut + 1 :]
            start = max(size - 1, 1)
        buffer = text
    if buffer:
        start = max(size - 1, 1)
        while True:
            cut = buffer.find("\\n", start)
            if cut == -1 or cut + 1 >= len(buffer):
                break
            if buffer[cut - 1].isspace() or buffer[cut + 1].isspace():
                start = cut + 1
                continue
            yield buffer[: cut + 1]
            buffer = buffer[cut + 1 :]
            start = max(size - 1, 1)
        if buffer:
            yield buffer
""",
    ),
    "write_ids, blind 01: boundary 65535": (
        "real_tokenizer",
        "write_ids",
        """
import struct
from pathlib import Path


def _code(vocab_size):
    # uint16 holds ids up to 65535, so "less than 65536" looks right...
    return "H" if vocab_size < 65536 else "I"


def write_ids(path, ids, vocab_size):
    for token_id in ids:
        if not 0 <= token_id < vocab_size:
            raise ValueError(f"id {token_id} is not in range({vocab_size})")
    code = _code(vocab_size)
    Path(path).write_bytes(struct.pack(f"<{len(ids)}{code}", *ids))
""",
    ),
    "read_ids, blind 01: boundary 65535": (
        "real_tokenizer",
        "read_ids",
        """
import struct
from pathlib import Path


def _code(vocab_size):
    # uint16 holds ids up to 65535, so "less than 65536" looks right...
    return "H" if vocab_size < 65536 else "I"


def read_ids(path, vocab_size):
    data = Path(path).read_bytes()
    code = _code(vocab_size)
    width = struct.calcsize(code)
    if len(data) % width:
        raise ValueError(f"{len(data)} bytes is not a multiple of {width}")
    return list(struct.unpack(f"<{len(data) // width}{code}", data))
""",
    ),
    "write_ids, blind 02: big endian": (
        "real_tokenizer",
        "write_ids",
        """
import struct
from pathlib import Path


def _code(vocab_size):
    return "H" if vocab_size <= 65536 else "I"


def write_ids(path, ids, vocab_size):
    for token_id in ids:
        if not 0 <= token_id < vocab_size:
            raise ValueError(f"id {token_id} is not in range({vocab_size})")
    code = _code(vocab_size)
    # ">" is network order: the high byte first.
    Path(path).write_bytes(struct.pack(f">{len(ids)}{code}", *ids))
""",
    ),
    "read_ids, blind 02: big endian": (
        "real_tokenizer",
        "read_ids",
        """
import struct
from pathlib import Path


def _code(vocab_size):
    return "H" if vocab_size <= 65536 else "I"


def read_ids(path, vocab_size):
    data = Path(path).read_bytes()
    code = _code(vocab_size)
    width = struct.calcsize(code)
    if len(data) % width:
        raise ValueError(f"{len(data)} bytes is not a multiple of {width}")
    return list(struct.unpack(f">{len(data) // width}{code}", data))
""",
    ),
    "write_ids, blind 03: signed": (
        "real_tokenizer",
        "write_ids",
        """
import struct
from pathlib import Path


def _code(vocab_size):
    # "h"/"i" are the 2- and 4-byte integer codes... signed ones.
    return "h" if vocab_size <= 65536 else "i"


def write_ids(path, ids, vocab_size):
    for token_id in ids:
        if not 0 <= token_id < vocab_size:
            raise ValueError(f"id {token_id} is not in range({vocab_size})")
    code = _code(vocab_size)
    Path(path).write_bytes(struct.pack(f"<{len(ids)}{code}", *ids))
""",
    ),
    "read_ids, blind 03: signed": (
        "real_tokenizer",
        "read_ids",
        """
import struct
from pathlib import Path


def _code(vocab_size):
    # "h"/"i" are the 2- and 4-byte integer codes... signed ones.
    return "h" if vocab_size <= 65536 else "i"


def read_ids(path, vocab_size):
    data = Path(path).read_bytes()
    code = _code(vocab_size)
    width = struct.calcsize(code)
    if len(data) % width:
        raise ValueError(f"{len(data)} bytes is not a multiple of {width}")
    return list(struct.unpack(f"<{len(data) // width}{code}", data))
""",
    ),
    "write_ids, blind 04: length header": (
        "real_tokenizer",
        "write_ids",
        """
import struct
from pathlib import Path


def _code(vocab_size):
    return "H" if vocab_size <= 65536 else "I"


def write_ids(path, ids, vocab_size):
    for token_id in ids:
        if not 0 <= token_id < vocab_size:
            raise ValueError(f"id {token_id} is not in range({vocab_size})")
    code = _code(vocab_size)
    # A count in front, so read_ids knows how many ids follow.
    Path(path).write_bytes(struct.pack("<I", len(ids)) + struct.pack(f"<{len(ids)}{code}", *ids))
""",
    ),
    "read_ids, blind 04: length header": (
        "real_tokenizer",
        "read_ids",
        """
import struct
from pathlib import Path


def _code(vocab_size):
    return "H" if vocab_size <= 65536 else "I"


def read_ids(path, vocab_size):
    data = Path(path).read_bytes()
    if len(data) < 4:
        raise ValueError("file too short for its header")
    (count,) = struct.unpack("<I", data[:4])
    code = _code(vocab_size)
    body = data[4:]
    if len(body) != count * struct.calcsize(code):
        raise ValueError("file length does not match its header")
    return list(struct.unpack(f"<{count}{code}", body))
""",
    ),
    "write_ids, blind 05: no range check": (
        "real_tokenizer",
        "write_ids",
        """
import array
import sys
from pathlib import Path


def _typecode(vocab_size):
    return "H" if vocab_size <= 65536 else "I"


def write_ids(path, ids, vocab_size):
    numbers = array.array(_typecode(vocab_size), ids)
    if sys.byteorder == "big":
        numbers.byteswap()
    Path(path).write_bytes(numbers.tobytes())
""",
    ),
    "write_ids, blind 06: range off by one": (
        "real_tokenizer",
        "write_ids",
        """
import struct
from pathlib import Path


def _code(vocab_size):
    return "H" if vocab_size <= 65536 else "I"


def write_ids(path, ids, vocab_size):
    for token_id in ids:
        if token_id < 0 or token_id > vocab_size:
            raise ValueError(f"id {token_id} is out of range for a vocabulary of {vocab_size}")
    code = _code(vocab_size)
    Path(path).write_bytes(struct.pack(f"<{len(ids)}{code}", *ids))
""",
    ),
    "read_ids, blind 07: no length check": (
        "real_tokenizer",
        "read_ids",
        """
import struct
from pathlib import Path


def _code(vocab_size):
    return "H" if vocab_size <= 65536 else "I"


def read_ids(path, vocab_size):
    data = Path(path).read_bytes()
    code = _code(vocab_size)
    count = len(data) // struct.calcsize(code)
    # unpack_from reads the whole ids and ignores any bytes left over.
    return list(struct.unpack_from(f"<{count}{code}", data))
""",
    ),
    "read_ids, blind 08: checks even length only": (
        "real_tokenizer",
        "read_ids",
        """
import struct
from pathlib import Path


def _code(vocab_size):
    return "H" if vocab_size <= 65536 else "I"


def read_ids(path, vocab_size):
    data = Path(path).read_bytes()
    if len(data) % 2:
        raise ValueError(f"odd file length {len(data)}")
    code = _code(vocab_size)
    count = len(data) // struct.calcsize(code)
    return list(struct.unpack_from(f"<{count}{code}", data))
""",
    ),
    "read_ids, blind 09: returns tuple": (
        "real_tokenizer",
        "read_ids",
        """
import struct
from pathlib import Path


def _code(vocab_size):
    return "H" if vocab_size <= 65536 else "I"


def read_ids(path, vocab_size):
    data = Path(path).read_bytes()
    code = _code(vocab_size)
    width = struct.calcsize(code)
    if len(data) % width:
        raise ValueError(f"{len(data)} bytes is not a multiple of {width}")
    return struct.unpack(f"<{len(data) // width}{code}", data)
""",
    ),
    "write_ids, blind 10: width from ids": (
        "real_tokenizer",
        "write_ids",
        """
import struct
from pathlib import Path


def write_ids(path, ids, vocab_size):
    for token_id in ids:
        if not 0 <= token_id < vocab_size:
            raise ValueError(f"id {token_id} is not in range({vocab_size})")
    # Small ids fit in 2 bytes, so save space when they all do.
    code = "H" if max(ids, default=0) < 65536 else "I"
    Path(path).write_bytes(struct.pack(f"<{len(ids)}{code}", *ids))
""",
    ),
    "read_ids, blind 11: width guessed from length": (
        "real_tokenizer",
        "read_ids",
        """
import struct
from pathlib import Path


def read_ids(path, vocab_size):
    data = Path(path).read_bytes()
    # A file of whole 4-byte ids is a uint32 file, of whole 2-byte ones a uint16 file.
    if len(data) % 4 == 0 and vocab_size > 65536:
        code = "I"
    elif len(data) % 2 == 0:
        code = "H"
    else:
        raise ValueError(f"{len(data)} bytes is not a whole number of ids")
    return list(struct.unpack(f"<{len(data) // struct.calcsize(code)}{code}", data))
""",
    ),
    "write_ids, blind 12: append mode": (
        "real_tokenizer",
        "write_ids",
        """
import struct
from pathlib import Path


def _code(vocab_size):
    return "H" if vocab_size <= 65536 else "I"


def write_ids(path, ids, vocab_size):
    for token_id in ids:
        if not 0 <= token_id < vocab_size:
            raise ValueError(f"id {token_id} is not in range({vocab_size})")
    code = _code(vocab_size)
    # Append, so a corpus can be written shard by shard.
    with open(path, "ab") as file:
        file.write(struct.pack(f"<{len(ids)}{code}", *ids))
""",
    ),
    "write_ids, blind 13: empty ids min": (
        "real_tokenizer",
        "write_ids",
        """
import struct
from pathlib import Path


def _code(vocab_size):
    return "H" if vocab_size <= 65536 else "I"


def write_ids(path, ids, vocab_size):
    if min(ids) < 0 or max(ids) >= vocab_size:
        raise ValueError(f"ids must be in range({vocab_size})")
    code = _code(vocab_size)
    Path(path).write_bytes(struct.pack(f"<{len(ids)}{code}", *ids))
""",
    ),
    "write_ids, blind 14: no lower bound": (
        "real_tokenizer",
        "write_ids",
        """
import struct
from pathlib import Path


def _code(vocab_size):
    return "H" if vocab_size <= 65536 else "I"


def write_ids(path, ids, vocab_size):
    for token_id in ids:
        if token_id >= vocab_size:
            raise ValueError(f"id {token_id} is too large for a vocabulary of {vocab_size}")
    code = _code(vocab_size)
    Path(path).write_bytes(struct.pack(f"<{len(ids)}{code}", *ids))
""",
    ),
}


@dataclass(frozen=True)
class Record:
    """What is known of a mistake beyond its code: the fix a teacher would name, as the contract rule it breaks
    ("module.function.rule", autograder.testing.rules), written from the code and the contract before reading
    any hint; and where the mistake came from (one of SOURCES)."""

    fix: str
    source: str


# Where a mistake came from: the kit's own authors; someone who read only the contract and the stubs (the
# kinds issue 50's outside sample found, each written down here from its description); a real course's
# thread; one rule of the contract negated; or someone who wrote students' mistakes from the students' spec
# alone, before the tests existed, as issue 51's new functions had (kept as written).
SOURCES = ("kit", "outside", "forum", "negated-rule", "blind")

RECORDS: dict[str, Record] = {
    "char_tokenize drops spaces": Record("simple_tokenizers.char_tokenize.every_character", "kit"),
    "char vocab numbered in first-seen order": Record("simple_tokenizers.build_char_vocab.sorted_ids", "kit"),
    "char vocab ids start at 1": Record("simple_tokenizers.build_char_vocab.sorted_ids", "kit"),
    "word_tokenize splits on a single space": Record("simple_tokenizers.word_tokenize.any_whitespace", "kit"),
    "word vocab without [UNK]": Record("simple_tokenizers.build_word_vocab.unknown_last", "kit"),
    "word vocab puts [UNK] first": Record("simple_tokenizers.build_word_vocab.unknown_last", "kit"),
    "encode_words drops unknown words": Record("simple_tokenizers.encode_words.unknown_word", "kit"),
    "encode_words adds unknown words to the vocabulary": Record("simple_tokenizers.encode_words.unchanged", "kit"),
    "char_tokenize strips the text first": Record("simple_tokenizers.char_tokenize.every_character", "kit"),
    "char vocab numbered with repeated characters": Record("simple_tokenizers.build_char_vocab.sorted_ids", "kit"),
    "word_tokenize drops punctuation": Record("simple_tokenizers.word_tokenize.kept_as_written", "kit"),
    "word_tokenize splits on spaces and newlines only": Record("simple_tokenizers.word_tokenize.any_whitespace", "kit"),
    "word vocab sorts [UNK] in with the words": Record("simple_tokenizers.build_word_vocab.unknown_last", "kit"),
    "word vocab splits on a single space": Record("simple_tokenizers.build_word_vocab.sorted_words", "kit"),
    "encode_words takes the last id for unknown words": Record("simple_tokenizers.encode_words.unknown_word", "kit"),
    "encode_words splits on a single space": Record("simple_tokenizers.encode_words.word_ids", "kit"),
    "pair counts miss the last pair": Record("bpe.get_pair_counts.adjacent_pairs", "kit"),
    "pair counts skip overlapping pairs": Record("bpe.get_pair_counts.overlapping", "kit"),
    "merge_pair forgets to skip past a merged pair": Record("bpe.merge_pair.left_to_right", "kit"),
    "merge_pair with join and str.replace": Record("bpe.merge_pair.whole_tokens", "kit"),
    "merge_pair edits the list in place": Record("bpe.merge_pair.unchanged", "kit"),
    "train_bpe merges the least frequent pair": Record("bpe.train_bpe.most_frequent", "kit"),
    "train_bpe never stops early": Record("bpe.train_bpe.stops", "kit"),
    "train_bpe returns merges then tokens": Record("bpe.train_bpe.returns", "kit"),
    "train_bpe counts pairs only once": Record("bpe.train_bpe.most_frequent", "kit"),
    "train_bpe loops forever on short input": Record("bpe.train_bpe.stops", "kit"),
    "bpe vocab sorted alphabetically": Record("bpe.build_bpe_vocab.length_order", "kit"),
    "bpe vocab numbers a repeated token twice": Record("bpe.build_bpe_vocab.made_twice", "kit"),
    "encode applies merges in vocabulary order": Record("bpe.encode.learned_order", "kit"),
    "encode returns tokens instead of ids": Record("bpe.encode.ids", "kit"),
    "decode joins tokens with spaces": Record("bpe.decode.joined", "kit"),
    "decode returns a list of tokens": Record("bpe.decode.joined", "kit"),
    "merge_pair pops the tokens off the list it is given": Record("bpe.merge_pair.unchanged", "kit"),
    "merge_pair returns a tuple": Record("bpe.merge_pair.unchanged", "kit"),
    "train_bpe crashes on text shorter than two characters": Record("bpe.train_bpe.stops", "kit"),
    "bpe vocab numbered in merge order": Record("bpe.build_bpe_vocab.length_order", "kit"),
    "encode takes the longest token of the vocabulary, greedily": Record("bpe.encode.learned_order", "kit"),
    "decode looks an id up by its place in the vocabulary": Record("bpe.decode.joined", "kit"),
    "pre_tokenize lowercases the text": Record("word_bpe.pre_tokenize.words_and_punctuation", "kit"),
    "pre_tokenize splits on whitespace only": Record("word_bpe.pre_tokenize.whitespace_separates", "kit"),
    "word_frequencies glues the marker to the last character": Record("word_bpe.word_frequencies.spelled", "kit"),
    "word_frequencies counts each distinct word once": Record("word_bpe.word_frequencies.counted", "kit"),
    "word pair counts ignore the frequencies": Record("word_bpe.get_pair_counts.weighted", "kit"),
    "word pair counts run across words": Record("word_bpe.get_pair_counts.inside_words", "kit"),
    "word merge_pair with str.replace on spaced symbols": Record("word_bpe.merge_pair.every_word", "kit"),
    "word merge_pair edits the table in place": Record("word_bpe.merge_pair.unchanged", "kit"),
    "word merge_pair overwrites the count of words that become equal": Record(
        "word_bpe.merge_pair.frequencies_add", "kit"
    ),
    "word train_bpe counts the pairs only once": Record("word_bpe.train_bpe.most_frequent", "kit"),
    "word train_bpe merges pairs seen once": Record("word_bpe.train_bpe.stops", "kit"),
    "word encode forgets the end-of-word marker": Record("word_bpe.encode.learned_order", "kit"),
    "word encode sorts the merges": Record("word_bpe.encode.learned_order", "kit"),
    "encode_by_rank merges the newest pair first": Record("word_bpe.encode_by_rank.lowest_rank", "kit"),
    "encode_by_rank stops after one merge per word": Record("word_bpe.encode_by_rank.lowest_rank", "kit"),
    "encode_by_rank replays every merge in order": Record("word_bpe.encode_by_rank.speed", "kit"),
    "word decode glues the words together": Record("word_bpe.decode.words", "kit"),
    "word decode leaves a trailing space": Record("word_bpe.decode.no_outer_space", "kit"),
    "encode_by_rank merges the leftmost mergeable pair": Record("word_bpe.encode_by_rank.lowest_rank", "kit"),
    "word train_bpe stops at a count of two": Record("word_bpe.train_bpe.stops", "kit"),
    "pre_tokenize drops punctuation": Record("word_bpe.pre_tokenize.words_and_punctuation", "kit"),
    "word decode puts a space between the tokens of a word": Record("word_bpe.decode.words", "kit"),
    "byte pair counts step two ids at a time": Record("byte_bpe.get_pair_counts.adjacent_pairs", "kit"),
    "byte merge_pair steps by one after a merge": Record("byte_bpe.merge_pair.left_to_right", "kit"),
    "byte train_bpe starts from ord() of each character": Record("byte_bpe.train_bpe.utf8_bytes", "kit"),
    "byte train_bpe numbers merges from 257": Record("byte_bpe.train_bpe.new_ids", "kit"),
    "byte train_bpe accepts any vocab_size": Record("byte_bpe.train_bpe.too_small", "kit"),
    "byte encode applies merges in pair order": Record("byte_bpe.encode.by_new_id", "kit"),
    "byte encode uses ord() instead of UTF-8": Record("byte_bpe.encode.utf8_bytes", "kit"),
    "byte decode with errors=strict": Record("byte_bpe.decode.replaced", "kit"),
    "byte decode decodes each token on its own": Record("byte_bpe.decode.bytes_joined", "kit"),
    "pieces training counts pairs across pieces": Record("byte_bpe.train_on_pieces.inside_pieces", "kit"),
    "pieces training splits on whitespace instead of the pattern": Record(
        "byte_bpe.train_on_pieces.inside_pieces", "kit"
    ),
    "specials encoded without the pre-split": Record("byte_bpe.encode_with_specials.pieces", "kit"),
    "special tokens tried in dict order, not longest first": Record("byte_bpe.encode_with_specials.longest", "kit"),
    "special ids decoded as if they were merges": Record("byte_bpe.decode_with_specials.special_text", "kit"),
    "byte train_bpe makes one merge too many": Record("byte_bpe.train_bpe.at_most", "kit"),
    "byte encode applies merges in the dict's order": Record("byte_bpe.encode.by_new_id", "kit"),
    "special tokens: an empty dict splits between every character": Record(
        "byte_bpe.encode_with_specials.pieces", "kit"
    ),
    "special-token text decoded one id at a time": Record("byte_bpe.decode_with_specials.bytes_joined", "kit"),
    "fast trainer breaks ties by first seen": Record("fast_bpe.train_bpe.largest", "kit"),
    "fast trainer never lowers the counts of a merged word's old pairs": Record("fast_bpe.train_bpe.largest", "kit"),
    "fast trainer below the speed target, remembering its answers": Record("fast_bpe.train_bpe.speed", "kit"),
    "fast trainer is the naive recount (right, but slow)": Record("fast_bpe.train_bpe.speed", "kit"),
    "fast trainer's heap pops the smallest pair on a tie": Record("fast_bpe.train_bpe.largest", "kit"),
    "fast trainer forgets the end-of-word marker": Record("fast_bpe.train_bpe.spelled", "kit"),
    "fast trainer adds a merged word's new pairs once, not by its frequency": Record(
        "fast_bpe.train_bpe.spelled", "kit"
    ),
    "fast trainer merges pairs seen only once": Record("fast_bpe.train_bpe.stops", "kit"),
    "fast trainer merges across symbols with str.replace": Record("fast_bpe.train_bpe.largest", "kit"),
    "fast trainer spells the words into the table it is given": Record("fast_bpe.train_bpe.unchanged", "kit"),
    "byte table: every byte stands for itself": Record("real_tokenizer.bytes_to_unicode.shifted", "kit"),
    "byte table shifts a byte to chr(256 + byte)": Record("real_tokenizer.bytes_to_unicode.shifted", "kit"),
    "byte table leaves out the range ¡ to ¬": Record("real_tokenizer.bytes_to_unicode.printable", "kit"),
    "byte table ranges stop one short (range end excluded)": Record("real_tokenizer.bytes_to_unicode.printable", "kit"),
    "load keeps the #version line as a merge": Record("real_tokenizer.load.version_line", "kit"),
    "load drops the first line even when it is a merge": Record("real_tokenizer.load.version_line", "kit"),
    "load drops the last merge, as encoder.py's [1:-1]": Record("real_tokenizer.load.version_line", "kit"),
    "load gives each merge as a list": Record("real_tokenizer.load.merges", "kit"),
    "save leaves out the #version line": Record("real_tokenizer.save.format", "kit"),
    "save does not make the folder": Record("real_tokenizer.save.folder", "kit"),
    "save joins the lines with no newline after the last": Record("real_tokenizer.save.format", "kit"),
    "save writes each merge as its tuple's repr": Record("real_tokenizer.save.format", "kit"),
    "encode merges the first pair it meets that is a merge": Record("real_tokenizer.encode.lowest_rank", "kit"),
    "encode spells characters, not bytes": Record("real_tokenizer.encode.spelled", "kit"),
    "encode always splits with GPT2_SPLIT": Record("real_tokenizer.encode.pattern", "kit"),
    "encode tries special tokens in the order given": Record("real_tokenizer.encode.specials", "kit"),
    "encode merges across pieces (no pre-split)": Record("real_tokenizer.encode.pattern", "kit"),
    "encode splits on an empty alternation when there are no special tokens": Record(
        "real_tokenizer.encode.specials", "kit"
    ),
    "decode decodes each token on its own": Record("real_tokenizer.decode.replaced", "kit"),
    "decode with errors=strict": Record("real_tokenizer.decode.replaced", "kit"),
    "decode joins the tokens as they are written": Record("real_tokenizer.decode.bytes_back", "kit"),
    "decode turns only Ġ back into a space": Record("real_tokenizer.decode.bytes_back", "kit"),
    "train_bytes breaks a tie toward the smallest pair": Record("real_tokenizer.train_bytes.largest", "kit"),
    "train_bytes counts pairs across GPT-2's pieces": Record("real_tokenizer.train_bytes.pieces", "kit"),
    "train_bytes trains on the special tokens' bytes": Record("real_tokenizer.train_bytes.specials", "kit"),
    "train_bytes recounts every pair after each merge": Record("real_tokenizer.train_bytes.time", "kit"),
    "train_bytes keeps every merge's pieces (memory grows with merges times pieces)": Record(
        "real_tokenizer.train_bytes.memory", "kit"
    ),
    "split_specials cuts out only the first special token": Record(
        "real_tokenizer.split_specials.whole", "negated-rule"
    ),
    "split_specials tries the special tokens in the order given": Record(
        "real_tokenizer.split_specials.longest", "negated-rule"
    ),
    "split_specials strips the text between special tokens": Record(
        "real_tokenizer.split_specials.as_it_is", "negated-rule"
    ),
    "split_specials keeps the empty strings regex.split gives": Record(
        "real_tokenizer.split_specials.no_empty", "negated-rule"
    ),
    "merge_by_rank gives the piece whole when no pair is a merge": Record(
        "real_tokenizer.merge_by_rank.characters", "negated-rule"
    ),
    "merge_by_rank merges the pair ranks lists first": Record(
        "real_tokenizer.merge_by_rank.lowest_rank", "negated-rule"
    ),
    "merge_by_rank merges one place a round": Record("real_tokenizer.merge_by_rank.everywhere", "negated-rule"),
    "merge_by_rank makes one round only": Record("real_tokenizer.merge_by_rank.until_none", "negated-rule"),
    "merges_from_ranks numbers the single bytes by their byte value": Record(
        "real_tokenizer.merges_from_ranks.vocab", "negated-rule"
    ),
    "merges_from_ranks merges the last place of a tie": Record(
        "real_tokenizer.merges_from_ranks.recovered", "negated-rule"
    ),
    "merges_from_ranks lists the merges in the table's order": Record(
        "real_tokenizer.merges_from_ranks.rank_order", "negated-rule"
    ),
    "encode_checked looks for refused tokens only outside the allowed ones": Record(
        "real_tokenizer.encode_checked.refused", "negated-rule"
    ),
    "encode_checked names the first refused token of special_tokens": Record(
        "real_tokenizer.encode_checked.names_first", "negated-rule"
    ),
    "encode_checked encodes the allowed tokens as text": Record(
        "real_tokenizer.encode_checked.allowed", "negated-rule"
    ),
    "encode_checked splits with GPT-2's pattern whatever it is given": Record(
        "real_tokenizer.encode_checked.pattern", "negated-rule"
    ),
    "add_tokens gives a name the vocab holds a new id": Record("real_tokenizer.add_tokens.kept", "negated-rule"),
    "add_tokens numbers the new names from len(vocab)": Record("real_tokenizer.add_tokens.next_id", "negated-rule"),
    "add_tokens adds the names in sorted order": Record("real_tokenizer.add_tokens.in_order", "negated-rule"),
    "add_tokens adds the names to the vocab it is given": Record("real_tokenizer.add_tokens.unchanged", "negated-rule"),
    "encode_checked refuses the allowed tokens too": Record("real_tokenizer.encode_checked.allowed", "blind"),
    "encode_checked names the refused token listed first": Record("real_tokenizer.encode_checked.names_first", "blind"),
    "encode_checked names the shorter of two refused tokens at one place": Record(
        "real_tokenizer.encode_checked.names_first", "blind"
    ),
    "encode_checked puts the special tokens in its pattern unescaped": Record(
        "real_tokenizer.encode_checked.allowed", "blind"
    ),
    "encode_checked looks for the refused tokens' ids in encode's": Record(
        "real_tokenizer.encode_checked.refused", "blind"
    ),
    "encode_checked calls encode without the allowed tokens": Record("real_tokenizer.encode_checked.allowed", "blind"),
    "encode_checked names a refused token the text lacks": Record("real_tokenizer.encode_checked.names_first", "blind"),
    "encode_checked checks the first special token only": Record("real_tokenizer.encode_checked.refused", "blind"),
    "encode_checked takes the allowed tokens out before it searches": Record(
        "real_tokenizer.encode_checked.refused", "blind"
    ),
    "encode_checked looks for refused tokens among the words": Record("real_tokenizer.encode_checked.refused", "blind"),
    "encode_checked misses a refused token that ends the text": Record(
        "real_tokenizer.encode_checked.refused", "blind"
    ),
    "encode_checked's message names no token": Record("real_tokenizer.encode_checked.names_first", "blind"),
    "encode_checked removes the allowed tokens from special_tokens": Record(
        "real_tokenizer.encode_checked.unchanged", "blind"
    ),
    "encode_checked leaves out the pattern it is given": Record("real_tokenizer.encode_checked.pattern", "blind"),
    "encode_checked asserts where it should raise ValueError": Record("real_tokenizer.encode_checked.refused", "blind"),
    "add_tokens counts the ids on from the vocab's size": Record("real_tokenizer.add_tokens.next_id", "blind"),
    "add_tokens grows the vocab it is given and returns it": Record("real_tokenizer.add_tokens.unchanged", "blind"),
    "add_tokens gives a name repeated in names a second id": Record("real_tokenizer.add_tokens.in_order", "blind"),
    "add_tokens takes max of an empty vocab": Record("real_tokenizer.add_tokens.next_id", "blind"),
    "add_tokens drops repeated names with a set": Record("real_tokenizer.add_tokens.in_order", "blind"),
    "add_tokens gives each new name the id of its place in names": Record("real_tokenizer.add_tokens.next_id", "blind"),
    "add_tokens gives the first new name the largest id": Record("real_tokenizer.add_tokens.next_id", "blind"),
    "add_tokens starts an empty vocab at id 1": Record("real_tokenizer.add_tokens.next_id", "blind"),
    "add_tokens gives every name of names a new id": Record("real_tokenizer.add_tokens.kept", "blind"),
    "add_tokens returns only the names it adds": Record("real_tokenizer.add_tokens.kept", "blind"),
    "add_tokens lists the new names before vocab's entries": Record("real_tokenizer.add_tokens.in_order", "blind"),
    "add_tokens gives every new name the same id": Record("real_tokenizer.add_tokens.next_id", "blind"),
    "add_tokens strips the names before adding them": Record("real_tokenizer.add_tokens.in_order", "blind"),
    "encode_words lowercases a word before looking it up": Record("simple_tokenizers.encode_words.word_ids", "outside"),
    "encode_words strips punctuation off a word before looking it up": Record(
        "simple_tokenizers.encode_words.word_ids", "outside"
    ),
    "byte encode takes the longest known token at each place": Record("byte_bpe.encode.by_new_id", "outside"),
    "byte encode applies the most frequent merge first": Record("byte_bpe.encode.by_new_id", "outside"),
    "save makes its folder even when it exists": Record("real_tokenizer.save.folder", "outside"),
    "save appends to a merges.txt already there": Record("real_tokenizer.save.folder", "outside"),
    "load skips every line that starts with #": Record("real_tokenizer.load.version_line", "outside"),
    "real encode keeps each piece's ids from one vocabulary to the next": Record(
        "real_tokenizer.encode.ids", "outside"
    ),
    "real encode merges the last of the pairs of lowest rank": Record("real_tokenizer.encode.lowest_rank", "outside"),
    "train_bytes leaves the special tokens out of its budget": Record("real_tokenizer.train_bytes.vocab", "outside"),
    "train_bpe takes max(counts) without a key, the largest pair": Record("bpe.train_bpe.most_frequent", "outside"),
    "fast trainer's heap trusts an entry pushed before its count changed": Record(
        "fast_bpe.train_bpe.largest", "outside"
    ),
    "encode_by_rank reads rank 0 as no rank": Record("word_bpe.encode_by_rank.lowest_rank", "outside"),
    "byte pair counts skip a pair that overlaps the one before": Record(
        "byte_bpe.get_pair_counts.adjacent_pairs", "forum"
    ),
    "word encode merges the leftmost pair that is any merge": Record("word_bpe.encode.learned_order", "forum"),
    "fast trainer pushes only a merged word's new pairs back on the heap": Record(
        "fast_bpe.train_bpe.largest", "forum"
    ),
    "real encode splits the special tokens off without keeping them": Record("real_tokenizer.encode.specials", "forum"),
    "train_bytes breaks a tie toward the pair seen first": Record("real_tokenizer.train_bytes.largest", "forum"),
    "real encode joins the special tokens into the pattern unescaped": Record(
        "real_tokenizer.encode.specials", "outside"
    ),
    "char vocab gives the empty texts a token of their own": Record(
        "simple_tokenizers.build_char_vocab.empty", "negated-rule"
    ),
    "pair counts skip a pair that overlaps the last one counted": Record(
        "bpe.get_pair_counts.overlapping", "negated-rule"
    ),
    "merge_pair matches the pair inside the joined text": Record("bpe.merge_pair.whole_tokens", "negated-rule"),
    "word decode leaves a space after the last word": Record("word_bpe.decode.no_outer_space", "negated-rule"),
    "byte decode raises on bytes that are not UTF-8": Record("byte_bpe.decode.replaced", "negated-rule"),
    "byte train_bpe numbers the first merge 257": Record("byte_bpe.train_bpe.new_ids", "negated-rule"),
    "word merge_pair keeps the frequency of the last word it makes twice": Record(
        "word_bpe.merge_pair.frequencies_add", "negated-rule"
    ),
    "char train_bpe runs one merge past num_merges": Record("bpe.train_bpe.at_most", "negated-rule"),
    "char_tokenize gives one empty token for the empty text": Record(
        "simple_tokenizers.char_tokenize.empty", "negated-rule"
    ),
    "char vocab sorts whitespace after the other characters": Record(
        "simple_tokenizers.build_char_vocab.whitespace_first", "negated-rule"
    ),
    "char vocab sorts the list of texts it is given": Record(
        "simple_tokenizers.build_char_vocab.unchanged", "negated-rule"
    ),
    "word_tokenize keeps the empty words at either end": Record(
        "simple_tokenizers.word_tokenize.no_empty_words", "negated-rule"
    ),
    "word vocab is empty for texts without words": Record(
        "simple_tokenizers.build_word_vocab.no_words", "negated-rule"
    ),
    "encode pops the merges off the list it is given": Record("bpe.encode.unchanged", "negated-rule"),
    "word train_bpe makes one merge more than num_merges": Record("word_bpe.train_bpe.at_most", "negated-rule"),
    "byte merge_pair merges in the list it is given": Record("byte_bpe.merge_pair.unchanged", "negated-rule"),
    "special tokens encoded as their bytes": Record("byte_bpe.encode_with_specials.special_ids", "negated-rule"),
    "pieces training accepts a vocab_size below 256": Record("byte_bpe.train_on_pieces.too_small", "negated-rule"),
    "train_bytes makes no merge where it should refuse a vocab_size too small": Record(
        "real_tokenizer.train_bytes.too_small", "negated-rule"
    ),
    "bpe vocab holds the merged tokens only, not the characters": Record(
        "bpe.build_bpe_vocab.every_token", "negated-rule"
    ),
    "bpe vocab sorts the merges it is given": Record("bpe.build_bpe_vocab.unchanged", "negated-rule"),
    "decode strips the whitespace at either end": Record("bpe.decode.round_trip", "negated-rule"),
    "decode empties the list of ids as it reads it": Record("bpe.decode.unchanged", "negated-rule"),
    "pair counts are None for fewer than two tokens": Record("bpe.get_pair_counts.short", "negated-rule"),
    "pair counts pop the tokens off the list they are given": Record("bpe.get_pair_counts.unchanged", "negated-rule"),
    "merge_pair merges only the first occurrence": Record("bpe.merge_pair.every_occurrence", "negated-rule"),
    "train_bpe returns the distinct final tokens, sorted": Record("bpe.train_bpe.tokens_join", "negated-rule"),
    "byte decode normalises the text it decodes (NFC)": Record("byte_bpe.decode.round_trip", "negated-rule"),
    "byte decode empties the list of ids as it reads it": Record("byte_bpe.decode.unchanged", "negated-rule"),
    "special-token decode moves the special tokens out of their dict": Record(
        "byte_bpe.decode_with_specials.unchanged", "negated-rule"
    ),
    "byte encode pops the merges off the dict it is given": Record("byte_bpe.encode.unchanged", "negated-rule"),
    "special-token encode deletes the special tokens the text lacks": Record(
        "byte_bpe.encode_with_specials.unchanged", "negated-rule"
    ),
    "byte pair counts pop the ids off the list they are given": Record(
        "byte_bpe.get_pair_counts.unchanged", "negated-rule"
    ),
    "byte merge_pair also merges the pair's ids the other way round": Record(
        "byte_bpe.merge_pair.every_occurrence", "negated-rule"
    ),
    "byte train_bpe merges the first pair seen twice, not the most frequent": Record(
        "byte_bpe.train_bpe.most_frequent", "negated-rule"
    ),
    "byte train_bpe merges pairs seen once": Record("byte_bpe.train_bpe.stops", "negated-rule"),
    "pieces training merges pairs seen once": Record("byte_bpe.train_on_pieces.as_train_bpe", "negated-rule"),
    "load turns the vocabulary around, id to token": Record("real_tokenizer.load.vocab", "negated-rule"),
    "save writes the vocabulary id to token": Record("real_tokenizer.save.reads_back", "negated-rule"),
    "word vocab splits the texts in the list it is given": Record(
        "simple_tokenizers.build_word_vocab.unchanged", "negated-rule"
    ),
    "word decode puts punctuation back against the word before it": Record(
        "word_bpe.decode.round_trip", "negated-rule"
    ),
    "word decode empties the list of tokens as it reads it": Record("word_bpe.decode.unchanged", "negated-rule"),
    "word encode gives a list of tokens per word": Record("word_bpe.encode.concatenated", "negated-rule"),
    "word encode pops the merges off the list it is given": Record("word_bpe.encode.unchanged", "negated-rule"),
    "word encode makes characters no merge holds [UNK]": Record("word_bpe.encode.unseen", "negated-rule"),
    "encode_by_rank merges a pair's occurrences from the right": Record(
        "word_bpe.encode_by_rank.every_occurrence", "negated-rule"
    ),
    "encode_by_rank spells a word without the end-of-word marker": Record(
        "word_bpe.encode_by_rank.same_as_encode", "negated-rule"
    ),
    "encode_by_rank pops the merges off the list to rank them": Record(
        "word_bpe.encode_by_rank.unchanged", "negated-rule"
    ),
    "word pair counts pop the words off the table": Record("word_bpe.get_pair_counts.unchanged", "negated-rule"),
    "word train_bpe collects the merges in a set": Record("word_bpe.train_bpe.in_order", "negated-rule"),
    "wordpiece takes the shortest piece first": Record("relatives.wordpiece_encode.longest_first", "negated-rule"),
    "wordpiece goes back to a shorter piece when the longest leaves a gap": Record(
        "relatives.wordpiece_encode.longest_first", "kit"
    ),
    "wordpiece looks pieces up without ##": Record("relatives.wordpiece_encode.continuation", "negated-rule"),
    "wordpiece writes ## before the first piece too": Record("relatives.wordpiece_encode.continuation", "kit"),
    "wordpiece keeps the pieces found before the gap": Record(
        "relatives.wordpiece_encode.unknown_whole", "negated-rule"
    ),
    "wordpiece gives [UNK] for the unknown character and goes on": Record(
        "relatives.wordpiece_encode.unknown_whole", "kit"
    ),
    "wordpiece calls the empty word unknown": Record("relatives.wordpiece_encode.empty", "negated-rule"),
    "wordpiece adds the pieces it finds to the vocabulary": Record(
        "relatives.wordpiece_encode.unchanged", "negated-rule"
    ),
    "unigram takes the longest known piece first": Record("relatives.unigram_segment.largest_sum", "kit"),
    "unigram multiplies the log-probabilities": Record("relatives.unigram_segment.largest_sum", "negated-rule"),
    "unigram breaks a tie toward the shorter first piece": Record("relatives.unigram_segment.ties", "negated-rule"),
    "unigram fills the table from the start, keeping the longer last piece on a tie": Record(
        "relatives.unigram_segment.ties", "kit"
    ),
    "unigram answers [] when no split exists": Record("relatives.unigram_segment.no_split", "negated-rule"),
    "unigram keeps the word's best sum in log_probs for next time": Record(
        "relatives.unigram_segment.unchanged", "negated-rule"
    ),
    "chunk_text loses the text after the last cut": Record("real_tokenizer.chunk_text.joined", "negated-rule"),
    "chunk_text cuts after any newline": Record("real_tokenizer.chunk_text.cut", "negated-rule"),
    "chunk_text looks for the newline from index size": Record("real_tokenizer.chunk_text.shortest", "kit"),
    "chunk_text joins every piece before it cuts": Record("real_tokenizer.chunk_text.lazy", "negated-rule"),
    "write_ids packs the ids big-endian": Record("real_tokenizer.write_ids.layout", "negated-rule"),
    "write_ids takes 4 bytes an id from 65,536 tokens on": Record("real_tokenizer.write_ids.width", "kit"),
    "write_ids checks only that an id is below vocab_size": Record("real_tokenizer.write_ids.in_range", "kit"),
    "read_ids reads signed ids": Record("real_tokenizer.read_ids.reads_back", "negated-rule"),
    "read_ids drops the bytes of a last part id": Record("real_tokenizer.read_ids.whole_ids", "negated-rule"),
    "chunk_text, blind 01: any newline": Record("real_tokenizer.chunk_text.cut", "blind"),
    "chunk_text, blind 02: cut before newline": Record("real_tokenizer.chunk_text.cut", "blind"),
    "chunk_text, blind 03: blank line cut": Record("real_tokenizer.chunk_text.cut", "blind"),
    "chunk_text, blind 04: left neighbour only": Record("real_tokenizer.chunk_text.cut", "blind"),
    "chunk_text, blind 05: not lazy": Record("real_tokenizer.chunk_text.lazy", "blind"),
    "chunk_text, blind 06: loses tail": Record("real_tokenizer.chunk_text.joined", "blind"),
    "chunk_text, blind 07: yields empty tail": Record("real_tokenizer.chunk_text.joined", "blind"),
    "chunk_text, blind 08: size in pieces": Record("real_tokenizer.chunk_text.shortest", "blind"),
    "chunk_text, blind 09: size in bytes": Record("real_tokenizer.chunk_text.shortest", "blind"),
    "chunk_text, blind 10: strictly more than size": Record("real_tokenizer.chunk_text.shortest", "blind"),
    "chunk_text, blind 11: cuts before next char": Record("real_tokenizer.chunk_text.cut", "blind"),
    "chunk_text, blind 12: one cut per piece": Record("real_tokenizer.chunk_text.shortest", "blind"),
    "chunk_text, blind 13: space char only": Record("real_tokenizer.chunk_text.cut", "blind"),
    "chunk_text, blind 14: longest not shortest": Record("real_tokenizer.chunk_text.shortest", "blind"),
    "chunk_text, blind 15: regex whitespace class": Record("real_tokenizer.chunk_text.cut", "blind"),
    "chunk_text, blind 16: right neighbour only": Record("real_tokenizer.chunk_text.cut", "blind"),
    "chunk_text, blind 17: reads one ahead": Record("real_tokenizer.chunk_text.lazy", "blind"),
    "write_ids, blind 01: boundary 65535": Record("real_tokenizer.write_ids.width", "blind"),
    "read_ids, blind 01: boundary 65535": Record("real_tokenizer.read_ids.reads_back", "blind"),
    "write_ids, blind 02: big endian": Record("real_tokenizer.write_ids.layout", "blind"),
    "read_ids, blind 02: big endian": Record("real_tokenizer.read_ids.reads_back", "blind"),
    "write_ids, blind 03: signed": Record("real_tokenizer.write_ids.layout", "blind"),
    "read_ids, blind 03: signed": Record("real_tokenizer.read_ids.reads_back", "blind"),
    "write_ids, blind 04: length header": Record("real_tokenizer.write_ids.layout", "blind"),
    "read_ids, blind 04: length header": Record("real_tokenizer.read_ids.reads_back", "blind"),
    "write_ids, blind 05: no range check": Record("real_tokenizer.write_ids.in_range", "blind"),
    "write_ids, blind 06: range off by one": Record("real_tokenizer.write_ids.in_range", "blind"),
    "read_ids, blind 07: no length check": Record("real_tokenizer.read_ids.whole_ids", "blind"),
    "read_ids, blind 08: checks even length only": Record("real_tokenizer.read_ids.whole_ids", "blind"),
    "read_ids, blind 09: returns tuple": Record("real_tokenizer.read_ids.reads_back", "blind"),
    "write_ids, blind 10: width from ids": Record("real_tokenizer.write_ids.width", "blind"),
    "read_ids, blind 11: width guessed from length": Record("real_tokenizer.read_ids.whole_ids", "blind"),
    "write_ids, blind 12: append mode": Record("real_tokenizer.write_ids.layout", "blind"),
    "write_ids, blind 13: empty ids min": Record("real_tokenizer.write_ids.in_range", "blind"),
    "write_ids, blind 14: no lower bound": Record("real_tokenizer.write_ids.in_range", "blind"),
}

# The rules no corpus mistake negates, each with why none can: a rule that only allows a choice (any of
# several answers is right) has no mistake that differs from the reference on an input of its domain and
# still keeps the rule. Every other rule of autograder.testing.rules has an entry whose Record names it.
UNNEGATABLE: dict[str, str] = {}
