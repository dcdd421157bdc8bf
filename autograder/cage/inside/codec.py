"""The plain-data codec between the grader and its caged worker.

What the worker says travels as JSON in which lists, strings, numbers,
booleans and null stand for themselves and every other plain type is a
one-key object: ``{"t": [...]}`` a tuple, ``{"d": [[key, value], ...]}`` a
dict, ``{"s": [...]}`` a set, ``{"f": [...]}`` a frozenset, ``{"b":
"<base64>"}`` bytes. Nothing else can be said, so decoding can only ever
build exact built-in values: a student's subclass (an ``__eq__`` that is
always true, say) arrives as its plain base type. The grader never
unpickles, unmarshals or evals what the worker sends.

What the grader asks travels the other way as marshal (``dump_request``):
the worker trusts the grader, and marshal, in C, writes and reads exact
built-in values several times faster than the JSON trees (a grading's
thousand-odd calls, each read on one side and written on the other).

This file runs on both sides and imports only the standard library, because
it is copied into the cage beside the worker's bootstrap.
"""

from __future__ import annotations

import base64
import json
import marshal
import os
import select
import struct
import time
from collections import Counter

# typing is a few milliseconds of every worker's start, for names only the type checker reads.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class Budgets:
    """What one message may hold: one object, read by the worker's encoder and by the grader's decoder.

    The encoder refuses to write a message past them, and the decoder refuses to read one, each check made
    before the work it bounds: a frame's length before its body is read, a body's items
    (``wire_items``) before it is parsed, a value's depth and its keys' hashes as it is rebuilt. So what
    the student's process sends costs the trusted grader at most a few copies of ``message_bytes`` and
    ``items`` small objects, whatever it writes into the channel.
    """

    __slots__ = ("depth", "items", "message_bytes", "same_hash")

    def __init__(self, *, message_bytes: int, items: int, depth: int, same_hash: int) -> None:
        self.message_bytes = message_bytes  # a frame's body, in bytes of JSON text
        self.items = items  # values of one message (and of one value, as the encoder walks it)
        self.depth = depth  # how deep a value may nest
        # Keys of one hash that a dict or set may hold. Integers hash to themselves modulo 2**61 - 1, so a
        # sender can make thousands of keys share one hash, and building their dict takes time quadratic in
        # their number (200,000 such keys: minutes of the trusted grader's time). Honest data never comes close.
        self.same_hash = same_hash

    def as_dict(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in ("message_bytes", "items", "depth", "same_hash")}


# The reference's largest message over the whole hidden suite, bonus parts included, is 204 KB of 40,836
# values: these leave honest answers (a trained table, a long text's ids, a folder's files) 80 and 25 times
# that room, and bound what a forged one costs the grader to about 200 MiB (docs/reference/limits.md).
BUDGETS = Budgets(message_bytes=16 * 1024 * 1024, items=1_000_000, depth=64, same_hash=64)
# The same budgets as names, bound once for the walkers below, which read them at every value.
MAX_DEPTH = BUDGETS.depth
MAX_ITEMS = BUDGETS.items
MAX_MESSAGE_BYTES = BUDGETS.message_bytes
MAX_SAME_HASH = BUDGETS.same_hash
# A frame: the marker, a 4-byte length, then the JSON text. The marker lets a reader tell at once that
# bytes are not a message (student code that writes into every descriptor it finds), rather than wait
# for a body whose "length" was made of stray bytes.
MARKER = b"BPEk"
HEADER = struct.Struct(">4sI")
# marshal's format for requests and call arguments. Version 2 writes no back-references (which depend on
# reference counts) and a string the same whether it is interned or not: the same value gives the same
# bytes, so a call's arguments written again after it ran show at once whether it changed them.
MARSHAL_VERSION = 2
_ARGUMENTS = marshal.dumps("arguments", MARSHAL_VERSION)
_END_OF_DICT = b"0"  # marshal's mark after a dict's last pair


class CodecError(ValueError):
    """A value that is not plain data, or a message that breaks the limits."""


class TooLarge(CodecError):
    """A message past a budget's size or items: its words start "answer too large" and name the limit."""


# Values that are exactly these types travel as themselves. A list, tuple or dict made only of them (most
# of what crosses: tokens, ids, pairs) is copied at C speed rather than walked item by item.
_SCALARS = frozenset({str, int, float, bool, type(None)})


_SUBCLASSED_BASES = {"int": int, "float": float, "str": str}


class Subclassed:
    """A student's subclass of int, float or str, as the grader sees it: its name, its base and its plain
    value. Equal only to the same, so no test mistakes it for the plain value the contract asks for."""

    __slots__ = ("base", "type_name", "value")

    def __init__(self, type_name: str, base: str, value: Any) -> None:
        self.type_name, self.base, self.value = type_name, base, value

    def _key(self) -> tuple[str, str, Any]:
        return self.type_name, self.base, self.value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Subclassed) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"{self.type_name}({self.value!r})"


def _only_scalars(items: Any) -> bool:
    return set(map(type, items)) <= _SCALARS


def to_plain(value: Any, *, name_subclasses: bool = True) -> Any:
    """Turn a value into a JSON-ready tree, refusing anything not plain data. A subclass of int, float or str
    goes with its name (``Subclassed``), unless ``name_subclasses`` is false: as its plain value alone."""
    budget = [MAX_ITEMS]
    return _to_plain(value, 0, budget, name_subclasses)


def _spend(budget: list[int], items: int) -> None:
    budget[0] -= items
    if budget[0] < 0:
        raise TooLarge(f"answer too large: a value of more than {MAX_ITEMS} items (the limit)")


def _to_plain(value: Any, depth: int, budget: list[int], named: bool) -> Any:
    if depth > MAX_DEPTH:
        raise CodecError(f"value is nested deeper than {MAX_DEPTH} levels")
    _spend(budget, 1)
    kind = type(value)
    if kind in _SCALARS:
        return value
    inner = depth + 1
    if inner <= MAX_DEPTH and (kind is list or kind is tuple) and _only_scalars(value):
        _spend(budget, len(value))
        return list(value) if kind is list else {"t": list(value)}
    if inner <= MAX_DEPTH and kind is dict and _only_scalars(value) and _only_scalars(value.values()):
        _spend(budget, 2 * len(value))
        return {"d": list(map(list, value.items()))}
    # A subclass of a scalar travels as its plain base value, read with the base type's own method whatever
    # it overrides, and with its name: the grader sees it as a Subclassed, equal to no plain value, so a
    # str subclass or an IntEnum where the contract says str or int fails its test, naming the type.
    for base in (int, float, str):
        if isinstance(value, base):
            plain = base.__dict__[f"__{base.__name__}__"](value)
            return {"u": [kind.__name__[:100], base.__name__, plain]} if named else plain
    if isinstance(value, bytes | bytearray):
        return {"b": base64.b64encode(bytes(value)).decode("ascii")}
    if isinstance(value, list):
        return [_to_plain(item, inner, budget, named) for item in list.__iter__(value)]
    if isinstance(value, tuple):
        return {"t": [_to_plain(item, inner, budget, named) for item in tuple.__iter__(value)]}
    if isinstance(value, dict):
        return {
            "d": [
                [_to_plain(key, inner, budget, named), _to_plain(item, inner, budget, named)]
                for key, item in dict.items(value)
            ]
        }
    if isinstance(value, frozenset):
        return {"f": [_to_plain(item, inner, budget, named) for item in frozenset.__iter__(value)]}
    if isinstance(value, set):
        return {"s": [_to_plain(item, inner, budget, named) for item in set.__iter__(value)]}
    raise CodecError(f"a value of type {type(value).__name__} is not plain data")


def from_plain(tree: Any) -> Any:
    """Rebuild exact built-in values from a tree made by :func:`to_plain`."""
    return _from_plain(tree, 0)


def _from_plain(tree: Any, depth: int) -> Any:
    if depth > MAX_DEPTH:
        raise CodecError(f"value is nested deeper than {MAX_DEPTH} levels")
    if type(tree) in _SCALARS:
        return tree
    inner = depth + 1
    if type(tree) is list:
        if inner <= MAX_DEPTH and _only_scalars(tree):
            return list(tree)  # a copy: the tree is kept (the worker compares the arguments after a call with it)
        return [_from_plain(item, inner) for item in tree]
    if type(tree) is not dict or len(tree) != 1:
        raise CodecError("malformed value in message")
    ((tag, body),) = tree.items()
    try:
        if tag == "b" and type(body) is str:
            return base64.b64decode(body.encode("ascii"), validate=True)
        if type(body) is not list:
            raise CodecError("malformed value in message")
        if tag == "d":
            if any(type(entry) is not list or len(entry) != 2 for entry in body):
                raise CodecError("malformed dict entry in message")
            keys = [key for key, _ in body]
            values = [value for _, value in body]
            if inner > MAX_DEPTH or not _only_scalars(keys):
                keys = [_from_plain(key, inner) for key in keys]
            if inner > MAX_DEPTH or not _only_scalars(values):
                values = [_from_plain(value, inner) for value in values]
            return dict(zip(_spread(keys), values, strict=True))
        items = body if inner <= MAX_DEPTH and _only_scalars(body) else [_from_plain(item, inner) for item in body]
        if tag == "u":
            if len(body) != 3 or type(body[0]) is not str or body[1] not in _SUBCLASSED_BASES:
                raise CodecError("malformed value in message")
            if type(body[2]) is not _SUBCLASSED_BASES[body[1]]:
                raise CodecError("malformed value in message")
            return Subclassed(body[0], body[1], body[2])
        if tag == "t":
            return tuple(items)
        if tag == "s":
            return set(_spread(items))
        if tag == "f":
            return frozenset(_spread(items))
    except TypeError as error:  # an unhashable key or set member
        raise CodecError(f"malformed value in message: {error}") from None
    except ValueError as error:  # bad base64
        raise CodecError(f"malformed value in message: {error}") from None
    raise CodecError(f"unknown tag {tag!r} in message")


def _spread(keys: list[Any]) -> list[Any]:
    """``keys``, refused when too many share one hash: such a dict or set is a flood, not an answer."""
    if len(keys) > MAX_SAME_HASH:
        ((_, most),) = Counter(map(hash, keys)).most_common(1)
        if most > MAX_SAME_HASH:
            raise CodecError(f"{most} keys share one hash value: a dict or set built to be slow, not plain data")
    return keys


# One encoder for every message: json.dumps with any non-default option builds a new one at each call.
_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=True)


def dump_message(message: dict[str, Any]) -> bytes:
    """A framed message: the marker, a 4-byte length, then the JSON text; refused (``TooLarge``) past the
    budgets the grader reads it within, measured as the grader measures them."""
    body = dump_body(message)
    check_items(body)
    return frame(body)


# The exact count's window: what one split of it makes is bounded by it (see wire_items).
_WINDOW = 256 * 1024


def wire_items(body: bytes | bytearray, start: int = 0, end: int | None = None) -> int:
    """How many values (and keys) parsing ``body[start:end]`` makes, at most, counted on its bytes before
    it is parsed.

    Each value but the first follows a ``[``, a ``,`` or a ``:``, each key a ``{`` or a ``,``, and an empty
    ``[]`` or ``{}`` holds none. Counted first with ``bytes.count`` (C speed, no parse), strings included:
    an upper bound, far below the budget for any answer but a huge one. Past the budget, counted again
    with the strings' text left out, a window at a time (so that neither time nor memory grows with the
    number of strings past what one window holds): exact for what our encoder writes, to within one per
    window (a sender that pads with spaces only counts more).
    """
    end = len(body) if end is None else end
    count = _structure(body, start, end)
    return count if count <= BUDGETS.items else exact_items(body, start, end)


def exact_items(body: bytes | bytearray, start: int = 0, end: int | None = None) -> int:
    """``wire_items``'s second count: the values and keys of ``body[start:end]``, strings' text left out."""
    with memoryview(body) as view:
        # Escaped backslashes, then escaped quotes, go first: every quote left opens or closes a string.
        text = bytes(view[start:end]).replace(b"\\\\", b"").replace(b'\\"', b"")
    count, inside = 1, False
    for at in range(0, len(text), _WINDOW):
        window = text[at : at + _WINDOW]
        outside = b"".join(window.split(b'"')[inside::2])
        count += _structure(outside, 0, None) - 1
        inside ^= bool(window.count(b'"') & 1)
    return count


def _structure(text: bytes | bytearray, start: int, end: int | None) -> int:
    def count(what: bytes) -> int:
        return text.count(what, start, end)

    return 1 + count(b"[") - count(b"[]") + count(b"{") - count(b"{}") + count(b",") + count(b":")


def check_items(body: bytes | bytearray, start: int = 0, end: int | None = None) -> None:
    """Refuse (``TooLarge``) a message body (``body[start:end]``) of more values than the budget, before it
    is parsed."""
    items = wire_items(body, start, end)
    if items > BUDGETS.items:
        raise TooLarge(f"answer too large: a message of {items} values, past the limit of {BUDGETS.items}")


def dump_body(message: dict[str, Any]) -> bytes:
    """A message's JSON text, unframed: equal texts are equal messages, exact types and all."""
    try:
        return _ENCODER.encode(message).encode("utf-8")
    except (ValueError, TypeError, RecursionError) as error:
        raise CodecError(f"message cannot be written: {error}") from None


def frame(body: bytes, what: str = "answer") -> bytes:
    """``body`` behind the marker and its length, refused when past the limit."""
    check_length(len(body), what)
    return HEADER.pack(MARKER, len(body)) + body


def check_length(length: int, what: str = "answer") -> None:
    """Refuse (``TooLarge``) a frame whose body is, or says it is, past the budget: checked on a frame's
    header, before its body is read."""
    if length > BUDGETS.message_bytes:
        raise TooLarge(
            f"{what} too large: a message of {length} bytes, past the limit of {BUDGETS.message_bytes} bytes"
        )


def load_message(body: bytes) -> dict[str, Any]:
    """Parse one message body (the part after the length header), within the budgets: its values are
    counted (``check_items``) before any is made. Depth is bounded here by the parser's own recursion
    limit, and to the budget as values are rebuilt (``from_plain``)."""
    check_length(len(body))
    check_items(body)
    try:
        message = json.loads(body.decode("utf-8"))
    except (ValueError, RecursionError) as error:
        raise CodecError(f"message is not valid: {error}") from None
    if type(message) is not dict:
        raise CodecError("message is not an object")
    return message


def call_payload(args: tuple[Any, ...] | list[Any], kwargs: dict[str, Any]) -> bytes:
    """A call's arguments as a request carries them: ``(list(args), dict(kwargs))`` in marshal.

    Marshal writes exact built-in types only; a subclass of one (a Counter, a str of the test's own class)
    goes as its plain base value, as the worker would send it back. ``CodecError`` for what is not plain
    data at all (a function, an instance of a class of the test's)."""
    try:
        return marshal.dumps((list(args), dict(kwargs)), MARSHAL_VERSION)
    except ValueError:
        plain = from_plain(to_plain((list(args), dict(kwargs)), name_subclasses=False))
        return marshal.dumps(plain, MARSHAL_VERSION)


def request_body(message: dict[str, Any]) -> bytes:
    """A request of the grader's, unframed (see ``dump_request``).

    A call's arguments (its ``payload``, written by ``call_payload``) go twice: as those bytes, which the
    worker compares with the arguments written again after the call, and spliced in as the value of
    ``arguments``, which the worker's one read of the request decodes with the rest. A second read, of the
    payload alone, would be a second pass through the worker's audit hook for every call.
    """
    try:
        body = marshal.dumps(message, MARSHAL_VERSION)
    except ValueError as error:
        raise CodecError(f"request cannot be written: {error}") from None
    payload = message.get("payload")
    if type(payload) is bytes and "arguments" not in message:
        # A dict is written as its key and value pairs, then the end mark: one more pair before the mark.
        body = body[: -len(_END_OF_DICT)] + _ARGUMENTS + payload + _END_OF_DICT
    return body


def dump_request(message: dict[str, Any]) -> bytes:
    """A framed request of the grader's: the marker, a 4-byte length, then the message in marshal."""
    return frame(request_body(message), "request")


def read_request(stream: Any) -> dict[str, Any] | None:
    """Read one framed request of the grader's (the worker's side); None at end of stream.

    Bytes that do not start with the marker raise ``CodecError`` at once.
    """
    header = _read_exactly(stream, HEADER.size)
    if header is None:
        return None
    marker, length = HEADER.unpack(header)
    if marker != MARKER:
        raise CodecError(f"bytes that are not a message: {header!r}")
    check_length(length, "request")
    body = _read_exactly(stream, length)
    if body is None:
        return None
    try:
        message = marshal.loads(body)
    except (ValueError, EOFError, TypeError) as error:
        raise CodecError(f"request is not valid: {error}") from None
    if type(message) is not dict:
        raise CodecError("request is not a dict")
    return message


def _read_exactly(stream: Any, size: int) -> bytes | None:
    chunks = []
    remaining = size
    while remaining:
        chunk = stream.read(remaining)
        if not chunk:
            return None
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


class FrameReader:
    """Messages from a pipe, read by the thread that waits for them: no reader thread, no hand-off.

    A call's answer is read where it is awaited, so each of a grading's thousand-odd round trips costs one
    wake-up, not two. Bytes that do not start with the marker raise ``CodecError`` as soon as they arrive;
    a length past the budget raises ``TooLarge`` as soon as its header has, before the body is waited for,
    and a body of too many values before it is parsed (``load_message``). Only what the awaited message
    needs is read (and what one read of 64 KiB brings past it): the rest stays in the pipe, where a sender
    that floods it waits.
    """

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = bytearray()
        self.ended = False

    def read(self, timeout: float) -> dict[str, Any] | None:
        """The next message; None at end of stream; TimeoutError when none is whole within ``timeout`` s."""
        deadline = time.monotonic() + timeout
        while True:
            message = self._next()
            if message is not None or self.ended:
                return message
            chunk = self._chunk(deadline - time.monotonic())
            if chunk:
                self.buffer += chunk
            else:
                self.ended = True

    def _chunk(self, left: float) -> bytes:
        """The pipe's next bytes (b"" at its end) within ``left`` s, else TimeoutError: the one step a reader
        that waits otherwise replaces (cage/pipe_reader.py)."""
        if left <= 0 or not select.select([self.fd], [], [], left)[0]:
            raise TimeoutError
        return os.read(self.fd, 1 << 16)

    def _next(self) -> dict[str, Any] | None:
        if len(self.buffer) >= len(MARKER) and not self.buffer.startswith(MARKER):
            raise CodecError(f"bytes that are not a message: {bytes(self.buffer[: HEADER.size])!r}")
        if len(self.buffer) < HEADER.size:
            return None
        _, length = HEADER.unpack_from(self.buffer)
        check_length(length)  # before a byte of the body is waited for
        end = HEADER.size + length
        if len(self.buffer) < end:
            return None
        try:
            check_items(self.buffer, HEADER.size, end)  # counted where it lies: no copy of a body refused
        except TooLarge:
            self.buffer = bytearray()
            raise
        with memoryview(self.buffer) as view:
            body = bytes(view[HEADER.size : end])  # one copy, not two
        del self.buffer[:end]
        return load_message(body)

    def waiting(self) -> bool:
        """Whether bytes have come that no request asked for yet: read, or in the pipe."""
        return bool(self.buffer) or (not self.ended and bool(select.select([self.fd], [], [], 0)[0]))
