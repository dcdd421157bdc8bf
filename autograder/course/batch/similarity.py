"""How alike two students' programs are: the same program, or much of one, under new names and in a new order.

Two measures, both blind to comments, docstrings and layout, taken together by ``measures``:

- the code hash: the same program exactly (the summary's identical code).
- the fingerprints: winnowed hashes of token runs (the method of Schleimer,
  Wilkerson and Aiken's winnowing, which MOSS uses), taken after every name a
  student chose is made one placeholder and the top-level functions are put
  in name order. A copy with renamed variables or reordered functions keeps
  most of its fingerprints; two students who wrote their own code share few.
  The untouched stubs' fingerprints are set aside, as MOSS sets aside base code.

A high share is worth a look, not proof: the summary says so.
"""

from __future__ import annotations

import ast
import builtins
import hashlib
import io
import keyword
import tokenize
from collections.abc import Iterable, Mapping

from autograder.engine.parts import MODULES
from autograder.engine.submission import LoadedSubmission

# A run of this many tokens is one fingerprint candidate; one in each window of WINDOW runs is kept.
# Shorter runs match by chance (`return list(text)`); longer ones miss a copy with a line changed.
RUN = 12
WINDOW = 8
# Pairs that share at least this fraction of the smaller program's fingerprints are listed.
THRESHOLD = 0.75
_KEPT_NAMES = frozenset(dir(builtins)) | frozenset(keyword.kwlist) | frozenset(keyword.softkwlist)


def sources(loaded: LoadedSubmission) -> list[tuple[str, str]]:
    """The student's code as (module, source), in contract order; module "" for a one-notebook hand-in."""
    if loaded.kind != "modules":
        return [("", cell.source) for cell in loaded.cells]
    notebooks = dict(loaded.module_cells)
    found: list[tuple[str, str]] = []
    for module in MODULES:
        if module in notebooks:
            found += [(module, cell.source) for cell in notebooks[module]]
        elif f"{module}.py" in loaded.files:
            found.append((module, loaded.files[f"{module}.py"].decode("utf-8", "replace")))
    return found


def measures(loaded: LoadedSubmission) -> tuple[str, list[int]]:
    """The program's code hash and its winnowed fingerprints, sorted, from one parse of each source.

    Both are stored with a result, so a resumed batch need not read the hand-in again.
    """
    digest = hashlib.sha256()
    program: list[str] = []
    for _, source in sources(loaded):
        tree = _parsed(source)
        digest.update(_without_docstrings(source, tree).encode("utf-8") + b"\0")
        program += _normalised_tokens(source, tree)
    return digest.hexdigest()[:16], sorted(_winnow(program))


def similar_pairs(
    prints: Mapping[str, Iterable[int]], *, base: Iterable[int] = (), threshold: float = THRESHOLD
) -> list[tuple[str, str, float]]:
    """Pairs of students whose programs share at least ``threshold`` of the smaller one's fingerprints.

    Fingerprints of ``base`` (the stubs everyone started from) count for no one. Most alike first.
    """
    common = set(base)
    own = {student: frozenset(found) - common for student, found in prints.items()}
    students = sorted(student for student, found in own.items() if found)
    pairs: list[tuple[str, str, float]] = []
    for index, first in enumerate(students):
        for second in students[index + 1 :]:
            shared = len(own[first] & own[second]) / min(len(own[first]), len(own[second]))
            if shared >= threshold:
                pairs.append((first, second, shared))
    return sorted(pairs, key=lambda pair: (-pair[2], pair[0], pair[1]))


def _without_docstrings(source: str, tree: ast.Module | None) -> str:
    return " ".join(source.split()) if tree is None else ast.dump(tree, annotate_fields=False)


def _parsed(source: str) -> ast.Module | None:
    """The source's tree without docstrings; None when it does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    # Docstrings open the body of a module, function or class, and those are statements: only statements
    # (and the handlers and cases that hold them) are searched, not the far more numerous expressions.
    statements: list[ast.AST] = [tree]
    while statements:
        node = statements.pop()
        body = getattr(node, "body", None)
        if (
            isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            node.body = body[1:] or [ast.Pass()]
        statements += (
            child
            for child in ast.iter_child_nodes(node)
            if isinstance(child, ast.stmt | ast.excepthandler | ast.match_case)
        )
    return tree


def _normalised_tokens(source: str, tree: ast.Module | None) -> list[str]:
    """The program's tokens in one layout, functions in name order, every name the student chose as ``V``.

    ``tree`` is the source's, as ``_parsed`` gives it. A builtin, a keyword and an attribute (``.append``)
    keep their names: they are the program's shape, not the student's choice.
    """
    if tree is not None:
        functions = sorted(
            (node for node in tree.body if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)),
            key=lambda node: node.name,
        )
        tree.body = [node for node in tree.body if node not in functions] + list(functions)
        source = ast.unparse(tree)
    found: list[str] = []
    after_dot = False
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type in (tokenize.COMMENT, tokenize.NL, tokenize.ENDMARKER):
                continue
            text = token.string
            if token.type == tokenize.NAME and not after_dot and text not in _KEPT_NAMES:
                text = "V"
            elif token.type == tokenize.INDENT:
                text = "{"
            elif token.type == tokenize.DEDENT:
                text = "}"
            found.append(text)
            after_dot = token.type == tokenize.OP and token.string == "."
    except (tokenize.TokenError, SyntaxError):
        pass  # what tokenized before the error still counts
    return found


def _winnow(tokens: list[str]) -> set[int]:
    """Winnowing: hash every run of RUN tokens, keep the smallest hash of each window of WINDOW runs."""
    hashes = [
        int.from_bytes(hashlib.blake2b("\0".join(tokens[start : start + RUN]).encode(), digest_size=6).digest())
        for start in range(len(tokens) - RUN + 1)
    ]
    if len(hashes) <= WINDOW:
        return set(hashes)
    return {min(hashes[start : start + WINDOW]) for start in range(len(hashes) - WINDOW + 1)}
