"""The plain-data codec: exact built-in values only, with limits, never code."""

from __future__ import annotations

import io
import os
from collections import Counter, OrderedDict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autograder.cage.inside import codec

plain = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text() | st.binary(),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=3) | st.integers(), inner, max_size=3)
        | st.frozensets(st.integers(), max_size=3)
    ),
    max_leaves=12,
)


@pytest.mark.unit
@settings(max_examples=200, derandomize=True, database=None)
@given(value=plain)
def test_plain_values_round_trip_with_their_exact_types(value):
    read = read_answer(codec.dump_message({"value": codec.to_plain(value)}))
    assert read is not None
    back = codec.from_plain(read["value"])
    assert back == value
    assert same_types(back, value)


def read_answer(frame: bytes) -> dict | None:
    """``frame`` read as the grader reads a worker's answers: through a pipe, by a FrameReader."""
    reader, writer = os.pipe()
    try:
        os.write(writer, frame)
        os.close(writer)
        return codec.FrameReader(reader).read(timeout=5)
    finally:
        os.close(reader)


def same_types(left, right) -> bool:
    if type(left) is not type(right):
        return False
    if isinstance(left, list | tuple):
        return all(same_types(a, b) for a, b in zip(left, right, strict=True))
    if isinstance(left, dict):
        return all(same_types(left[key], right[key]) for key in left)
    return True


@pytest.mark.unit
def test_subclasses_arrive_as_their_plain_base_type():
    class AlwaysEqual(list):
        def __eq__(self, other):
            return True

    for value, base in ((AlwaysEqual([1]), list), (Counter({"a": 2}), dict), (OrderedDict(a=1), dict)):
        back = codec.from_plain(codec.to_plain(value))
        assert type(back) is base


@pytest.mark.unit
def test_objects_that_are_not_plain_data_are_refused():
    with pytest.raises(codec.CodecError, match="not plain data"):
        codec.to_plain(object())


@pytest.mark.unit
def test_nesting_past_the_limit_is_refused_both_ways():
    deep: list = []
    for _ in range(codec.MAX_DEPTH + 5):
        deep = [deep]
    with pytest.raises(codec.CodecError, match="deeper"):
        codec.to_plain(deep)
    with pytest.raises(codec.CodecError):
        tree: list = []
        for _ in range(codec.MAX_DEPTH + 5):
            tree = [tree]
        codec.from_plain(tree)


@pytest.mark.unit
@pytest.mark.parametrize("tree", [{"x": 1}, {"t": 1}, {"d": [[[], 1]]}, {"b": "%%%"}, {"s": [[1]]}])
def test_malformed_trees_are_refused(tree):
    with pytest.raises(codec.CodecError):
        codec.from_plain(tree)


@pytest.mark.unit
def test_oversized_message_is_refused_before_it_is_read():
    """By the grader reading an answer, and by the worker reading a request."""
    header = codec.HEADER.pack(codec.MARKER, codec.MAX_MESSAGE_BYTES + 1)
    with pytest.raises(codec.TooLarge, match="too large"):
        read_answer(header)
    with pytest.raises(codec.TooLarge, match="too large"):
        codec.read_request(io.BytesIO(header))


@pytest.mark.unit
@pytest.mark.parametrize("tag", ["d", "s", "f"])
def test_keys_made_to_share_one_hash_are_refused_not_built(tag):
    """Integers hash to themselves modulo 2**61 - 1: 200,000 such keys would take the grader minutes."""
    keys = [index * ((1 << 61) - 1) for index in range(200_000)]
    body = [[key, 0] for key in keys] if tag == "d" else keys
    with pytest.raises(codec.CodecError, match="share one hash"):
        codec.from_plain({tag: body})
    honest = list(range(200_000))
    assert len(codec.from_plain({tag: [[key, 0] for key in honest] if tag == "d" else honest})) == 200_000


@pytest.mark.unit
def test_what_is_decoded_is_a_copy_so_a_mutation_shows_against_the_message():
    """The worker compares a call's arguments afterwards with the message they came in: decoding must
    never hand the student the message's own lists (the fast path for lists of scalars copies them)."""
    tree = codec.to_plain([["a", "b"], ("x", 1), {"k": 2}])
    value = codec.from_plain(tree)
    value[0].append("c")
    value[2]["k"] = 3
    assert codec.to_plain(value) != tree
    assert codec.from_plain(tree) == [["a", "b"], ("x", 1), {"k": 2}]


@pytest.mark.unit
def test_scalars_inside_containers_keep_their_exact_types_and_limits():
    """Lists, tuples and dicts of scalars take a fast path: a str subclass inside one still arrives named as
    what it is (equal to no plain str, so it fails its test), and scalars one level past the depth limit are
    still refused, as they were item by item."""

    class Loud(str):
        def __eq__(self, other):
            return True

        __hash__ = str.__hash__

    back = codec.from_plain(codec.to_plain([Loud("a"), ("b", Loud("c")), {Loud("k"): Loud("v")}]))
    loud = [codec.Subclassed("Loud", "str", text) for text in "ackv"]
    assert back == [loud[0], ("b", loud[1]), {loud[2]: loud[3]}] and back != ["a", ("b", "c"), {"k": "v"}]
    assert repr(back[0]) == "Loud('a')"
    plain = codec.from_plain(codec.to_plain([Loud("a"), {Loud("k"): 1}], name_subclasses=False))
    assert same_types(plain, ["a", {"k": 1}])
    nested: list = ["deepest"]
    for _ in range(codec.MAX_DEPTH):
        nested = [nested]
    with pytest.raises(codec.CodecError, match="deeper"):
        codec.to_plain(nested)
    with pytest.raises(codec.CodecError, match="deeper"):
        codec.from_plain(nested)
    with pytest.raises(codec.CodecError, match="more than"):
        codec.to_plain(list(range(codec.MAX_ITEMS + 1)))


@pytest.mark.unit
@settings(max_examples=200, derandomize=True, database=None)
@given(args=st.lists(plain, max_size=3), kwargs=st.dictionaries(st.text(max_size=3), plain, max_size=2))
def test_a_calls_arguments_reach_the_worker_with_their_exact_types_and_write_back_to_the_same_bytes(args, kwargs):
    """The grader's requests are marshal: what the worker reads is what the test passed, and written again
    unchanged it is the same bytes, which is how the worker tells at once that a call left them alone. The
    arguments come decoded with the request (one read), equal in every value and type to the payload's."""
    import marshal

    payload = codec.call_payload(tuple(args), kwargs)
    request = codec.read_request(io.BytesIO(codec.dump_request({"op": "call", "payload": payload})))
    assert request is not None
    got_args, got_kwargs = request["arguments"]
    again_args, again_kwargs = marshal.loads(request["payload"])
    assert again_args == got_args and same_types(again_args, got_args)
    assert again_kwargs == got_kwargs and same_types(again_kwargs, got_kwargs)
    assert got_args == args and same_types(got_args, args)
    assert got_kwargs == kwargs and same_types(got_kwargs, kwargs)
    assert marshal.dumps((got_args, got_kwargs), codec.MARSHAL_VERSION) == payload


@pytest.mark.unit
def test_a_calls_arguments_of_subclasses_go_as_their_base_values_and_functions_are_refused():
    import marshal

    class Loud(str):
        pass

    (args, kwargs) = marshal.loads(codec.call_payload((Loud("a"), Counter({"b": 1})), {"c": OrderedDict(d=2)}))
    assert args == ["a", {"b": 1}] and type(args[0]) is str and type(args[1]) is dict
    assert type(kwargs["c"]) is dict
    with pytest.raises(codec.CodecError, match="not plain data"):
        codec.call_payload((lambda: 0,), {})


@pytest.mark.unit
def test_a_request_that_is_not_marshal_or_not_a_dict_is_refused():
    import marshal

    for body in (b"\xff\xfe garbage", marshal.dumps([1, 2])):
        with pytest.raises(codec.CodecError):
            codec.read_request(io.BytesIO(codec.frame(body)))
