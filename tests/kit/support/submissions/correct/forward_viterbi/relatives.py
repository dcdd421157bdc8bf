"""Part 7 written another way: WordPiece by shrinking the end in a while loop, and Unigram's table filled from the
start of the word, each place keeping its whole best split so that a tie is settled by the first piece."""


def wordpiece_encode(word, vocab):
    tokens = []
    start = 0
    while start < len(word):
        end = len(word)
        token = None
        while end > start:
            candidate = word[start:end] if start == 0 else "##" + word[start:end]
            if candidate in vocab:
                token = candidate
                break
            end -= 1
        if token is None:
            return ["[UNK]"]
        tokens.append(token)
        start = end
    return tokens


def unigram_segment(word, log_probs):
    # best[end]: (sum, lengths of the pieces, pieces) of the best split of word[:end]. Comparing the lengths as a
    # tuple puts the split whose first differing piece is longer first, which a last-piece pointer cannot see.
    best = [None] * (len(word) + 1)
    best[0] = (0.0, (), [])
    for end in range(1, len(word) + 1):
        for start in range(end):
            piece = word[start:end]
            if best[start] is None or piece not in log_probs:
                continue
            total, lengths, pieces = best[start]
            candidate = (total + log_probs[piece], lengths + (len(piece),), pieces + [piece])
            if best[end] is None or candidate[:2] > best[end][:2]:
                best[end] = candidate
    return None if best[-1] is None else best[-1][2]
