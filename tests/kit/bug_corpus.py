"""Mistakes students really make in Parts 1-2, each as the one function they got wrong.

Each entry: (module, function, the student's version of that function).
"""

BUGS: dict[str, tuple[str, str, str]] = {
    "char_tokenize drops spaces": ("simple_tokenizers", "char_tokenize", '''
def char_tokenize(text):
    return [character for character in text if character != " "]
'''),
    "char vocab numbered in first-seen order": ("simple_tokenizers", "build_char_vocab", '''
def build_char_vocab(texts):
    vocab = {}
    for text in texts:
        for character in text:
            if character not in vocab:
                vocab[character] = len(vocab)
    return vocab
'''),
    "char vocab ids start at 1": ("simple_tokenizers", "build_char_vocab", '''
def build_char_vocab(texts):
    characters = sorted(set("".join(texts)))
    return {character: index for index, character in enumerate(characters, start=1)}
'''),
    "word_tokenize splits on a single space": ("simple_tokenizers", "word_tokenize", '''
def word_tokenize(text):
    return text.split(" ")
'''),
    "word vocab without [UNK]": ("simple_tokenizers", "build_word_vocab", '''
def build_word_vocab(texts):
    words = sorted({word for text in texts for word in text.split()})
    return {word: index for index, word in enumerate(words)}
'''),
    "word vocab puts [UNK] first": ("simple_tokenizers", "build_word_vocab", '''
def build_word_vocab(texts):
    words = sorted({word for text in texts for word in text.split()})
    vocab = {"[UNK]": 0}
    for word in words:
        vocab[word] = len(vocab)
    return vocab
'''),
    "encode_words drops unknown words": ("simple_tokenizers", "encode_words", '''
def encode_words(text, vocab):
    return [vocab[word] for word in text.split() if word in vocab]
'''),
    "encode_words adds unknown words to the vocabulary": ("simple_tokenizers", "encode_words", '''
def encode_words(text, vocab):
    ids = []
    for word in text.split():
        if word not in vocab:
            vocab[word] = vocab["[UNK]"]
        ids.append(vocab[word])
    return ids
'''),
    "pair counts miss the last pair": ("bpe", "get_pair_counts", '''
def get_pair_counts(tokens):
    counts = {}
    for i in range(len(tokens) - 2):
        pair = (tokens[i], tokens[i + 1])
        counts[pair] = counts.get(pair, 0) + 1
    return counts
'''),
    "pair counts skip overlapping pairs": ("bpe", "get_pair_counts", '''
def get_pair_counts(tokens):
    counts = {}
    i = 0
    while i < len(tokens) - 1:
        pair = (tokens[i], tokens[i + 1])
        counts[pair] = counts.get(pair, 0) + 1
        i += 2 if tokens[i] == tokens[i + 1] else 1
    return counts
'''),
    "merge_pair forgets to skip past a merged pair": ("bpe", "merge_pair", '''
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
'''),
    "merge_pair with join and str.replace": ("bpe", "merge_pair", '''
def merge_pair(tokens, pair):
    text = " ".join(tokens)
    text = text.replace(pair[0] + " " + pair[1], pair[0] + pair[1])
    return text.split(" ")
'''),
    "merge_pair edits the list in place": ("bpe", "merge_pair", '''
def merge_pair(tokens, pair):
    i = 0
    while i < len(tokens) - 1:
        if tokens[i] == pair[0] and tokens[i + 1] == pair[1]:
            tokens[i:i + 2] = [pair[0] + pair[1]]
        i += 1
    return tokens
'''),
    "train_bpe merges the least frequent pair": ("bpe", "train_bpe", '''
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
'''),
    "train_bpe never stops early": ("bpe", "train_bpe", '''
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
'''),
    "train_bpe returns merges then tokens": ("bpe", "train_bpe", '''
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
'''),
    "train_bpe counts pairs only once": ("bpe", "train_bpe", '''
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
'''),
    "train_bpe loops forever on short input": ("bpe", "train_bpe", '''
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
'''),
    "bpe vocab sorted alphabetically": ("bpe", "build_bpe_vocab", '''
def build_bpe_vocab(text, merges):
    tokens = sorted(set(text) | {a + b for a, b in merges})
    return {token: i for i, token in enumerate(tokens)}
'''),
    "bpe vocab numbers a repeated token twice": ("bpe", "build_bpe_vocab", '''
def build_bpe_vocab(text, merges):
    tokens = sorted(set(text), key=lambda t: (len(t), t)) + sorted((a + b for a, b in merges), key=lambda t: (len(t), t))
    return {token: i for i, token in enumerate(tokens)}
'''),
    "encode applies merges in vocabulary order": ("bpe", "encode", '''
def encode(text, merges, vocab):
    tokens = list(text)
    for pair in sorted(merges, key=lambda p: vocab[p[0] + p[1]]):
        tokens = merge_pair(tokens, pair)
    return [vocab[token] for token in tokens]
'''),
    "encode returns tokens instead of ids": ("bpe", "encode", '''
def encode(text, merges, vocab):
    tokens = list(text)
    for pair in merges:
        tokens = merge_pair(tokens, pair)
    return tokens
'''),
    "decode joins tokens with spaces": ("bpe", "decode", '''
def decode(ids, vocab):
    token_of = {i: t for t, i in vocab.items()}
    return " ".join(token_of[i] for i in ids)
'''),
    "decode returns a list of tokens": ("bpe", "decode", '''
def decode(ids, vocab):
    token_of = {i: t for t, i in vocab.items()}
    return [token_of[i] for i in ids]
'''),
}
