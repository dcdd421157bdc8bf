import pytest

from autograder.testing.author_api import hint, reference

ref = reference("real_tokenizer")


@pytest.mark.rules("printable", "shifted")
@pytest.mark.points(2)
def test_gives_the_characters_gpt2_writes_its_files_with(submission):
    """bytes_to_unicode maps "a" to itself, the space to "Ġ" and byte 0 to "Ā", each byte to one character"""
    characters = submission.real_tokenizer.bytes_to_unicode()
    assert isinstance(characters, dict) and len(characters) == 256, hint("one entry for each byte value, 0 to 255")
    assert (characters[ord("a")], characters[ord("~")], characters[ord("¡")], characters[ord("ÿ")]) == (
        "a",
        "~",
        "¡",
        "ÿ",
    ), hint("the bytes of ! to ~, ¡ to ¬ and ® to ÿ stand for themselves: chr(byte)", fix="printable")
    assert (characters[0], characters[32], characters[127], characters[173]) == ("Ā", "Ġ", "ġ", "Ń"), hint(
        "every other byte, in increasing order, takes the next character from chr(256) on", fix="shifted"
    )


@pytest.mark.rules("printable", "shifted")
@pytest.mark.points(3)
def test_gives_gpt2s_whole_table(submission):
    """bytes_to_unicode gives GPT-2's table for all 256 bytes, each to a character of its own"""
    characters = submission.real_tokenizer.bytes_to_unicode()
    assert len(set(characters.values())) == 256, hint("no two bytes may share a character, or decoding is ambiguous")
    expected = ref.bytes_to_unicode()
    wrong = sorted(byte for byte in expected if characters.get(byte) != expected[byte])
    assert wrong == [], hint(
        f"byte {wrong[0]} should be {expected[wrong[0]]!r}: check the three ranges (¬ is 172, ® is 174; the soft "
        "hyphen 173 between them is shifted) and count n up only for shifted bytes"
    )
