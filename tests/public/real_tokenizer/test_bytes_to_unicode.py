import pytest

from autograder.testing.author_api import hint

# Bytes that stand for themselves, and the first shifted ones with their characters, written out by hand.
SHIFTED = {0: "Ā", 1: "ā", 9: "ĉ", 10: "Ċ", 32: "Ġ", 127: "ġ", 128: "Ģ", 160: "ł", 173: "Ń"}


@pytest.mark.rules("printable")
@pytest.mark.points(2)
def test_printable_bytes_stand_for_themselves(submission):
    """bytes_to_unicode maps the bytes of ! to ~, ¡ to ¬ and ® to ÿ to chr(byte)"""
    table = submission.real_tokenizer.bytes_to_unicode()
    assert isinstance(table, dict) and sorted(table) == list(range(256)), hint("a dict with every byte 0-255 as key")
    for low, high in ((ord("!"), ord("~")), (ord("¡"), ord("¬")), (ord("®"), ord("ÿ"))):
        wrong = [byte for byte in range(low, high + 1) if table[byte] != chr(byte)]
        assert not wrong, hint(
            f"byte {wrong[0]} is in the range {chr(low)}-{chr(high)} (both ends included): chr(byte)"
        )


@pytest.mark.rules("shifted")
@pytest.mark.points(3)
def test_every_other_byte_takes_the_next_character_from_256(submission):
    """bytes_to_unicode shifts the other 68 bytes, in order, to chr(256), chr(257), ...: the space is "Ġ\""""
    table = submission.real_tokenizer.bytes_to_unicode()
    for byte, character in SHIFTED.items():
        assert table.get(byte) == character, hint(
            f"byte {byte} is the {ord(character) - 256}th byte outside the three ranges: chr(256 + that count)"
        )
    assert sorted(table.values())[-1] == chr(256 + 67) and len(set(table.values())) == 256, hint(
        "68 bytes are shifted, to chr(256) ... chr(323), each character used once"
    )
