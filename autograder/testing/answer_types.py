"""Whether an answer has the type the contract says: a float id, a bool count or a list where a tuple is
due fails its test here, with both types named, however equal its value (``1.0 == 1`` in Python).

The expected types are the reference's return annotations (``contract_types``, generated). Values arrive
from the worker as exact built-in types (codec); a student's subclass of str, int or float arrives as
``codec.Subclassed`` and is named as such.
"""

from __future__ import annotations

import collections.abc
import functools
import itertools
import types
import typing
from typing import Any

from autograder.cage.inside.codec import Subclassed
from autograder.testing.contract_types import RETURNS

SCALARS = frozenset({int, str, bytes, bool})  # exact types that a set of types can be checked against
NAMES = {int: "an int", float: "a float", str: "a str", bytes: "bytes", bool: "a bool", type(None): "None"}
NAMES.update({list: "a list", tuple: "a tuple", dict: "a dict", set: "a set", frozenset: "a frozenset"})


def returns_iterator(module: str, function: str) -> bool:
    """Whether the contract says ``function`` returns an iterator: its calls are streamed (``proxy.Stream``),
    and what comes back is the list of the items read."""
    return _parts(RETURNS.get((module, function)))[0] is collections.abc.Iterator


def type_problem(module: str, function: str, value: Any) -> tuple[str, str, str] | None:
    """``(the contract's type, the part of it not met, what was found)`` in words where ``value`` is not what
    ``function`` must return, else None."""
    expected = RETURNS.get((module, function))
    if expected is None:
        return None
    problem = _problem(value, expected, "")
    return None if problem is None else (_spelled(expected), *problem)


@functools.cache
def _parts(expected: Any) -> tuple[Any, tuple[Any, ...]]:
    return typing.get_origin(expected), typing.get_args(expected)


def _all_exactly(items: Any, kind: Any) -> bool:
    """True when every one of ``items`` is exactly ``kind``, seen at C speed: a scalar, or a tuple of one
    scalar type (the pairs and words most answers hold). False means only: look item by item."""
    if kind in SCALARS:
        return set(map(type, items)) <= {kind}
    origin, arguments = _parts(kind)
    if origin is not tuple or not arguments or not set(map(type, items)) <= {tuple}:
        return False
    variadic = arguments[-1] is Ellipsis
    inner = set(arguments[:1] if variadic else arguments)
    if len(inner) != 1 or not inner <= SCALARS or not (variadic or set(map(len, items)) <= {len(arguments)}):
        return False
    return set(map(type, itertools.chain.from_iterable(items))) <= inner


def _problem(value: Any, expected: Any, where: str) -> tuple[str, str] | None:
    origin, arguments = _parts(expected)
    if origin in (typing.Union, types.UnionType):
        found = [_problem(value, argument, where) for argument in arguments]
        return None if None in found else found[0]
    if expected is None:
        expected = type(None)
    if origin is collections.abc.Iterator:  # a streamed answer arrives as the list of the items read
        origin = list
    wanted = origin or expected
    if type(value) is not wanted and not (wanted is float and type(value) is int):
        return _named(expected), _found(value) + (f" at answer{where}" if where else "")
    if origin is None:
        return None
    if origin is tuple and arguments and arguments[-1] is not Ellipsis:
        if len(value) != len(arguments):
            return _named(expected), f"a tuple of {len(value)}" + (f" at answer{where}" if where else "")
        items = zip(value, arguments, strict=True)
        return _first(((item, kind, f"{where}[{index}]") for index, (item, kind) in enumerate(items)))
    if origin in (list, tuple, set, frozenset):
        kind = arguments[0] if arguments else Any
        if _all_exactly(value, kind):  # most answers: a list of ids or of pairs, at C speed
            return None
        return _first((item, kind, f"{where}[{index}]") for index, item in enumerate(value))
    if origin is dict:
        key_kind, value_kind = arguments
        if _all_exactly(value.values(), value_kind) and _all_exactly(value, key_kind):
            return None
        for key, item in value.items():
            problem = _problem(key, key_kind, f"{where}.keys()") or _problem(item, value_kind, f"{where}[{key!r}]")
            if problem:
                return problem
    return None


def _first(checks: Any) -> tuple[str, str] | None:
    for value, kind, where in checks:
        if kind is Any:
            return None
        problem = _problem(value, kind, where)
        if problem:
            return problem
    return None


def _named(expected: Any) -> str:
    origin = _parts(expected)[0]
    word = NAMES.get(origin or expected, str(expected))
    return f"{word} ({_spelled(expected)})" if origin else word


def _spelled(expected: Any) -> str:
    return str(expected).replace("typing.", "")


def _found(value: Any) -> str:
    if isinstance(value, Subclassed):
        return f"a {value.type_name} (a subclass of {value.base})"
    return f"{NAMES.get(type(value), type(value).__name__)} ({_short(value)})"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
