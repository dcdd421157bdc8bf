# A correct beginner's submission: explicit loops and lists, no sets.
def char_tokenize(text):
    result = []
    for ch in text:
        result.append(ch)
    return result


def build_char_vocab(texts):
    seen = []
    for text in texts:
        for ch in text:
            if ch not in seen:
                seen.append(ch)
    seen.sort()
    vocab = {}
    for i in range(len(seen)):
        vocab[seen[i]] = i
    return vocab


def word_tokenize(text):
    words = []
    current = ""
    for ch in text:
        if ch.isspace():
            if current != "":
                words.append(current)
            current = ""
        else:
            current = current + ch
    if current != "":
        words.append(current)
    return words


def build_word_vocab(texts):
    words = []
    for text in texts:
        for w in word_tokenize(text):
            if w not in words:
                words.append(w)
    words.sort()
    vocab = {}
    for i in range(len(words)):
        vocab[words[i]] = i
    vocab["[UNK]"] = len(words)
    return vocab


def encode_words(text, vocab):
    ids = []
    for w in word_tokenize(text):
        if w in vocab:
            ids.append(vocab[w])
        else:
            ids.append(vocab["[UNK]"])
    return ids
