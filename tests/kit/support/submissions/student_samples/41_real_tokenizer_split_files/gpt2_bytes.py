"""GPT-2's byte <-> printable character tables, kept apart from the tokenizer."""
from functools import cache

__all__ = ["byte_encoder", "byte_decoder", "spell", "unspell"]


@cache
def _tables():
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(2**8):
        if b not in bs:
            bs.append(b)
            cs.append(2**8 + n)
            n += 1
    enc = dict(zip(bs, map(chr, cs)))
    enc = dict(sorted(enc.items()))
    dec = {v: k for k, v in enc.items()}
    return enc, dec


def byte_encoder():
    return dict(_tables()[0])


def byte_decoder():
    return dict(_tables()[1])


def spell(data: bytes) -> str:
    enc = _tables()[0]
    return "".join(enc[b] for b in data)


def unspell(chars: str) -> bytes:
    dec = _tables()[1]
    return bytes(dec[c] for c in chars)
