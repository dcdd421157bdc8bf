"""How alike two students' programs are: the same program, or much of one, under new names and in a new order.

Two measures, both blind to comments, docstrings and layout, taken together by ``measures``:

- the code hash: the same program exactly (the summary's identical code).
- the fingerprints, part by part: winnowed hashes of token runs (the method of
  Schleimer, Wilkerson and Aiken's winnowing, which MOSS uses), taken after
  every name a student chose is made one placeholder and the top-level
  functions are put in name order. A copy with renamed variables or reordered
  functions keeps most of its fingerprints; two students who wrote their own
  code share few. The untouched stubs' fingerprints are set aside, as MOSS sets
  aside base code, and a part with too few of its own is compared with no one.
  Two hand-ins are compared part by part, so a copy of one part is not lost
  among the parts each wrote alone, and the summary says which part it is.

The tokens are read from the syntax tree as ``ast.dump`` writes it (node kinds, names, constants), not
from the source: the dump is made for the code hash anyway, and a regular expression reads it at C
speed, where unparsing the tree and running ``tokenize`` over it took a third of a batch's own time.

A high share is worth a look, not proof: the summary says so.
"""

from __future__ import annotations

import ast
import builtins
import functools
import hashlib
import io
import keyword
import re
import sys
import tokenize
import zlib
from collections.abc import Iterable, Mapping
from typing import NamedTuple

from autograder.hand_in import student_syntax
from autograder.hand_in.loaded import HandInKind, LoadedHandIn
from autograder.hand_in.loading import PART_FILES
from autograder.parts import MODULES
from autograder.reports.code_view import Sources

# A run of this many tokens is one fingerprint candidate; one in each window of WINDOW runs is kept.
# Shorter runs match by chance (`return list(text)`); longer ones miss a copy with a line changed. Chosen on
# the kit's hand-ins: a partial copy (the fixtures' notebook holds another's Part 2) shares 0.78 of its
# fingerprints at 11, the most alike of the independent solutions 0.41.
RUN = 11
WINDOW = 8
# Pairs that share at least this fraction of a part's fingerprints (the smaller one's) are listed.
THRESHOLD = 0.75
# A part with fewer fingerprints of its own than this (the stubs' set aside) is compared with no one: about
# one short function's worth, too little to tell a copy from the one way there is to write it. The
# reference's Part 1 has 36 of its own, its `char_tokenize` alone 5 and its `merge_pair` 29.
SMALLEST = 20
# What a stored result's measures were made by: a result kept from an older way of measuring is measured
# again before it is compared with this one's (see run._stamp).
VERSION = 7
# How a summary names the part of a one-notebook hand-in, which is all its parts at once.
WHOLE_NOTEBOOK = ""
# Sources no longer than this have their trees kept between readings (see _parsed): five times the longest
# reference module; 16 of them at most, so the trees kept stay under 200 MB whatever the hand-ins hold.
KEPT_CHARACTERS = 50_000
# The kit's own package, which the student release holds: a hand-in that keeps it imports it, as the
# notebooks' check cells do, and it is no one's own code.
KIT_PACKAGE = "autograder"
# What graded code may import without being listed among its measures' imports: the contract's one third-party
# package (GPT-2's pre-split pattern needs regex's \p{L}) and the kit's own.
EXPECTED_PACKAGES = frozenset({"regex", KIT_PACKAGE})
_KEPT_NAMES = frozenset(dir(builtins)) | frozenset(keyword.kwlist) | frozenset(keyword.softkwlist)
# In a dump: a name the student chose (a variable, a parameter, a function or class being defined).
_CHOSEN_NAME = re.compile(r"\b(Name|arg|FunctionDef|AsyncFunctionDef|ClassDef)\('(\w+)'")
# A dump's tokens: quoted constants, and words (node kinds, names, numbers); its punctuation is the tree's
# layout.
_DUMP_TOKEN = re.compile(r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|[\w.+-]+""")
# A name's context says nothing the node around it does not (an Assign's target is stored).
_CONTEXTS = ("Load()", "Store()", "Del()")


def sources(loaded: LoadedHandIn) -> Sources:
    """The student's code as (module, source), in contract order; module "" for a one-notebook hand-in.

    Each part's sources come after the sources of the hand-in's own modules that it imports, directly or
    through another (a ``bpe.py`` of one line, ``from helper import *``, is graded on ``helper.py``'s
    code): those count for the part too, here and on the feedback page, where the last definition of a
    function is the one shown, as it is the one Python keeps."""
    if loaded.halves:  # a release's own folder: each work folder's code, as each was graded
        return [found for half in loaded.halves for found in sources(half)]
    parts = _parts(loaded)
    # What is read of the hand-in's own modules: its parts and their imports, up to one long source's worth.
    room = [student_syntax.MOST_CHARACTERS - sum(len(text) for _, texts in parts for text in texts)]
    found: list[tuple[str, str]] = []
    for module, texts in parts:
        found += [(module, source) for source in _imported(texts, loaded.files, room)]
        found += [(module, text) for text in texts]
    return found


def shown(loaded: LoadedHandIn, code: Sources, graded_from: Mapping[str, str]) -> Sources:
    """Of ``code`` (``sources(loaded)``), what the feedback page shows: of a release's own folder, each part's
    code from the work folder it counted from (``graded_from``), where the other may hold another try."""
    if not loaded.halves or not graded_from:
        return code
    return [
        (module, source)
        for half in loaded.halves
        for module, source in sources(half)
        if graded_from.get(module, half.name) == half.name
    ]


def _parts(loaded: LoadedHandIn) -> list[tuple[str, list[str]]]:
    """Each part's module and its sources (a notebook's cells)."""
    if loaded.kind is not HandInKind.MODULES:
        return [("", [cell.source for cell in loaded.cells])]
    notebooks = dict(loaded.module_cells)
    found: list[tuple[str, list[str]]] = []
    for module in MODULES:
        if module in notebooks:
            found.append((module, [cell.source for cell in notebooks[module]]))
        elif f"{module}.py" in loaded.files:
            found.append((module, [loaded.files[f"{module}.py"].decode("utf-8", "replace")]))
    return found


def _imported(texts: list[str], files: Mapping[str, bytes], room: list[int]) -> list[str]:
    """The sources of the hand-in's own modules that ``texts`` import, and those import, in turn: each once,
    and neither a part (measured as itself) nor the kit's own package (the student release ships it); only
    while they fit in ``room`` characters (what is left is taken from it)."""
    if all(path in PART_FILES or not path.endswith(".py") for path in files):
        return []  # no module of its own to import: nothing need be read as syntax (a class's merge reads all)
    queue = [("", text) for text in texts]  # (the importer's file, its source)
    taken: set[str] = set(PART_FILES)
    found: list[str] = []
    while queue:
        importer, text = queue.pop(0)
        parsed = _parsed(text)
        for target in _targets(parsed[1] if parsed else (), importer):
            for path in _files_of(target, files):
                if path not in taken and len(files[path]) <= room[0]:
                    taken.add(path)
                    source = files[path].decode("utf-8", "replace")
                    room[0] -= len(source)
                    found.append(source)
                    queue.append((path, source))
    return found


def _targets(imports: Iterable[ast.Import | ast.ImportFrom], importer: str) -> list[list[str]]:
    """The dotted names ``imports`` may load, as parts, relative ones made absolute from ``importer``'s file."""
    package = importer.split("/")[:-1]  # a module's package; a package's __init__.py is in its own folder
    targets: list[list[str]] = []
    for node in imports:
        if isinstance(node, ast.Import):
            targets += [alias.name.split(".") for alias in node.names]
            continue
        climb = node.level - 1  # folders above the importer's package (`from .. import x` climbs one)
        if climb > len(package):
            continue  # above the hand-in's folder: nothing of it
        module = (package[: len(package) - climb] if node.level else []) + (
            node.module.split(".") if node.module else []
        )
        targets.append(module)
        targets += [[*module, alias.name] for alias in node.names if alias.name != "*"]  # perhaps a submodule
    return [target for target in targets if target and target[0] != KIT_PACKAGE]


def _files_of(target: list[str], files: Mapping[str, bytes]) -> list[str]:
    """The hand-in's files that importing ``target`` runs: each package's __init__.py on the way, then it."""
    candidates = ["/".join(target[:depth]) + "/__init__.py" for depth in range(1, len(target) + 1)]
    candidates.append("/".join(target) + ".py")
    return [path for path in candidates if path in files]


class Measures(NamedTuple):
    """What is stored with a result, so a resumed batch need not read the hand-in again."""

    code_hash: str  # the program, blind to comments, docstrings and layout: equal for identical code
    prints: dict[str, list[int]]  # each part's winnowed fingerprints, sorted, by module (WHOLE_NOTEBOOK: "")
    imports: list[str]  # what it imports from beyond what a hand-in is expected to (see _outside)
    builds_code: list[str]  # how it would run code built at run time, which the worker refuses (_builds_code)


def measures(loaded: LoadedHandIn, code: Sources | None = None) -> Measures:
    """The program's measures from one reading of each of its sources: ``code`` (``sources(loaded)``,
    which the feedback page shows too), or read here."""
    digest = hashlib.sha256()
    program: dict[str, list[str]] = {}  # each part's tokens
    imports: list[ast.Import | ast.ImportFrom] = []
    for module, source in sources(loaded) if code is None else code:
        tokens = program.setdefault(module, [])
        parsed = _parsed(source)
        dumped = _dumped(parsed[0]) if parsed is not None else None
        imports += parsed[1] if parsed is not None else ()
        if dumped is None:
            # A source Python cannot read, or ast.dump cannot write: its text in one layout, and its tokens;
            # of one too long to read here, its length and its start.
            text = source[: student_syntax.MOST_CHARACTERS]
            digest.update(f"{len(source)}:".encode() + " ".join(text.split()).encode("utf-8") + b"\0")
            tokens += _source_tokens(text)
            continue
        digest.update("\n".join(dump for _, dump in dumped).encode("utf-8") + b"\0")
        tokens += _normalised_tokens(dump for _, dump in _in_name_order(dumped))
    files = {name: content for half in loaded.halves for name, content in half.files.items()} or loaded.files
    texts = [source for _, source in (sources(loaded) if code is None else code)]
    built = _builds_code(texts, imports)
    prints = {module: sorted(_winnow(tokens)) for module, tokens in program.items()}
    return Measures(digest.hexdigest()[:16], prints, _outside(imports, files), built)


# Ways to run code that is not a hand-in's source: exec, eval or compile of built text (exec handed to a
# thread as its target too), marshalled code, code objects made by hand, machine code through ctypes, a
# codec of the hand-in's own decoding a source, and reaching into the grader's worker (gc, the stack). The
# worker refuses what it can see (bootstrap.watch_built_code, tripwire.py), and the summary lists the hand-ins that try:
# a copy hidden that way earns nothing and shows nothing to the similarity measure.
BUILDING_CALLS = re.compile(
    r"(?<![\w.])(exec|eval|compile)\b(?!\s*=[^=])|\b(CodeType|FunctionType)\b"
    r"|\b(codecs\.register|gc\.get_objects|sys\._getframe)\b"
    r"|\.(tb_frame|gi_frame|cr_frame|f_globals|__subclasses__|__globals__)\b"
    r"|^[ \t\f]*#.*?(coding)[:=][ \t]*(?!utf-?8\b)[-\w.]+",
    re.M,
)
# The plain-Python policy refuses these (hand_in.policy) and the summary lists who tries: they load code by a
# name computed at run time, or from data (pickle), which no static import shows.
BUILDING_MODULES = frozenset({"marshal", "ctypes", "_ctypes", "importlib", "pickle", "gc", "runpy", "code"})


def _builds_code(texts: Iterable[str], imports: Iterable[ast.Import | ast.ImportFrom]) -> list[str]:
    """How the graded code would run code built at run time, by name: calls seen in its text (comments and
    strings included: a copy might be found there), and the modules it imports for it."""
    found: set[str] = set()
    for text in texts:
        found.update(next(name for name in match.groups() if name) for match in BUILDING_CALLS.finditer(text))
    for node in imports:
        names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else [node.module or ""]
        found.update(name.split(".")[0] for name in names if name.split(".")[0] in BUILDING_MODULES)
    return sorted(found)


def _outside(imports: Iterable[ast.Import | ast.ImportFrom], files: Mapping[str, bytes]) -> list[str]:
    """The modules, by top-level name, that ``imports`` load from beyond the standard library, the hand-in's
    own ``files`` and EXPECTED_PACKAGES: a library may be doing the exercise (worth a look, not proof). A
    notebook's graded code is what its functions need (notebook_slice): a plot's imports are not."""
    found: set[str] = set()
    for node in imports:
        if isinstance(node, ast.ImportFrom) and node.level:
            continue  # the hand-in's own package
        names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else [node.module or ""]
        tops = {name.split(".")[0] for name in names} - EXPECTED_PACKAGES - sys.stdlib_module_names - {""}
        found |= {top for top in tops if not _files_of([top], files)}
    return sorted(found)


class AlikePair(NamedTuple):
    """Two students, and the parts in which their code is alike, each with the share of its fingerprints
    (the smaller one's) that the two have in common, in the parts' order."""

    first: str
    second: str
    parts: tuple[tuple[str, float], ...]  # (part module, or WHOLE_NOTEBOOK where both are one notebook; share)


PartPrints = Mapping[str, Iterable[int]]  # a hand-in's fingerprints by part module (Measures.prints)


def own_prints(
    prints: Mapping[str, PartPrints], *, base: PartPrints | None = None, smallest: int = SMALLEST
) -> dict[str, dict[str, frozenset[int]]]:
    """Each student's parts that are compared: their fingerprints less ``base``'s (the stubs everyone started
    from, which count for no one), where at least ``smallest`` are left."""
    common = frozenset[int]().union(*(base or {}).values())
    kept: dict[str, dict[str, frozenset[int]]] = {}
    for student, parts in prints.items():
        own = {part: frozenset(found) - common for part, found in parts.items()}
        kept[student] = {part: found for part, found in own.items() if len(found) >= smallest}
    return kept


def similar_pairs(
    prints: Mapping[str, PartPrints],
    *,
    base: PartPrints | None = None,
    threshold: float = THRESHOLD,
    smallest: int = SMALLEST,
) -> list[AlikePair]:
    """Pairs of students with a part in which they share at least ``threshold`` of the smaller one's
    fingerprints; most alike first. A part is compared with the same part, and a one-notebook hand-in's
    code with each part of the other's; parts with fewer than ``smallest`` of their own are not compared."""
    own = own_prints(prints, base=base, smallest=smallest)
    students = sorted(student for student, parts in own.items() if parts)
    # Each part's fingerprints as the bits of one integer: what two parts share is one AND and one count of
    # bits, at C speed (a class of 200 is 19,900 pairs; a set intersection walks a hash table in Python's).
    position: dict[int, int] = {}
    for student in students:
        for found in own[student].values():
            for each in found:
                position.setdefault(each, len(position))
    bits = {
        student: {part: (_bit_set(position[each] for each in found), len(found)) for part, found in parts.items()}
        for student, parts in own.items()
    }
    pairs: list[AlikePair] = []
    for index, first in enumerate(students):
        for second in students[index + 1 :]:
            alike = [
                (mine or theirs, shared)
                for mine, (found, size) in bits[first].items()
                for theirs, (other, other_size) in bits[second].items()
                if (mine == theirs or WHOLE_NOTEBOOK in (mine, theirs))
                and (shared := (found & other).bit_count() / min(size, other_size)) >= threshold
            ]
            if alike:
                pairs.append(AlikePair(first, second, tuple(sorted(alike, key=lambda part: _in_order(part[0])))))
    return sorted(pairs, key=lambda pair: (-max(shared for _, shared in pair.parts), pair.first, pair.second))


def _in_order(module: str) -> int:
    """Where a part module comes in the exercises (a whole notebook first)."""
    return MODULES.index(module) if module in MODULES else -1


def _bit_set(positions: Iterable[int]) -> int:
    """The integer whose bits at ``positions`` are set."""
    listed = list(positions)
    flags = bytearray(max(listed, default=0) // 8 + 1)
    for place in listed:
        flags[place >> 3] |= 1 << (place & 7)
    return int.from_bytes(flags, "little")


def _parsed(source: str) -> tuple[ast.Module, tuple[ast.Import | ast.ImportFrom, ...]] | None:
    """The source's tree without docstrings, and its import statements; None when it does not parse.

    The trees of the last few sources of a module's usual length are kept: a hand-in's sources are read for
    what they import, then measured, then shown. A tree takes a hundred times its source's length or more,
    so a longer source's is made again each time. Nothing changes a tree once it is made."""
    return _parsed_kept(source) if len(source) <= KEPT_CHARACTERS else _parse(source)


@functools.lru_cache(maxsize=16)
def _parsed_kept(source: str) -> tuple[ast.Module, tuple[ast.Import | ast.ImportFrom, ...]] | None:
    return _parse(source)


def _parse(source: str) -> tuple[ast.Module, tuple[ast.Import | ast.ImportFrom, ...]] | None:
    tree = student_syntax.parse(source)
    if tree is None:
        return None
    imports: list[ast.Import | ast.ImportFrom] = []
    # Docstrings open the body of a module, function or class, and those are statements: only statements
    # (and the handlers and cases that hold them) are searched, not the far more numerous expressions.
    statements: list[ast.AST] = [tree]
    while statements:
        node = statements.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            imports.append(node)
            continue
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
    imports.sort(key=lambda node: (node.lineno, node.col_offset))  # the walk above goes last to first
    return tree, tuple(imports)


def _dumped(tree: ast.Module) -> list[tuple[ast.stmt, str]] | None:
    """Each top-level statement with its dump; None when one is nested deeper than ast.dump, which calls
    itself a level at a time, can go (Python still reads and runs it)."""
    try:
        return [(node, ast.dump(node, annotate_fields=False)) for node in tree.body]
    except RecursionError:
        return None


def _in_name_order(dumped: list[tuple[ast.stmt, str]]) -> list[tuple[ast.stmt, str]]:
    """A module's statements (each with its dump) with its functions last, in name order: the order a copy
    cannot hide in."""
    functions = sorted(
        (pair for pair in dumped if isinstance(pair[0], ast.FunctionDef | ast.AsyncFunctionDef)),
        key=lambda pair: pair[0].name,  # type: ignore[attr-defined]
    )
    return [pair for pair in dumped if pair not in functions] + functions


def _normalised_tokens(dumps: Iterable[str]) -> list[str]:
    """The tokens of statements' dumps, every name the student chose as ``V``. A builtin, a keyword, an
    attribute (``.append``) and an imported name keep their names: they are the program's shape, not the
    student's choice."""
    found: list[str] = []
    for dump in dumps:
        normalised = _CHOSEN_NAME.sub(_placeholder, dump)
        for context in _CONTEXTS:
            normalised = normalised.replace(context, "")
        found += _DUMP_TOKEN.findall(normalised)
    return found


def _placeholder(chosen: re.Match[str]) -> str:
    kind, name = chosen.groups()
    return chosen.group(0) if name in _KEPT_NAMES else f"{kind}(V"


def _source_tokens(source: str) -> list[str]:
    """The tokens of a source that does not parse, as far as it tokenizes, every name as ``V`` but the
    builtins' and keywords'."""
    found: list[str] = []
    after_dot = False
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type in (tokenize.COMMENT, tokenize.NL, tokenize.ENDMARKER):
                continue
            text = token.string
            if token.type == tokenize.NAME and not after_dot and text not in _KEPT_NAMES:
                text = "V"
            found.append(text)
            after_dot = token.type == tokenize.OP and token.string == "."
    except (tokenize.TokenError, SyntaxError):
        pass  # what tokenized before the error still counts
    return found


def _winnow(tokens: list[str]) -> set[int]:
    """Winnowing: hash every run of RUN tokens, keep the smallest hash of each window of WINDOW runs.

    The tokens are written out once, and each run hashed (CRC-32: stable from run to run, unlike hash())
    from its slice of them."""
    text = "\0".join(tokens).encode("utf-8") + b"\0"
    starts = [0]
    for token in tokens:
        starts.append(starts[-1] + len(token.encode("utf-8")) + 1)
    hashes = [zlib.crc32(text[starts[start] : starts[start + RUN]]) for start in range(len(tokens) - RUN + 1)]
    if len(hashes) <= WINDOW:
        return set(hashes)
    return {min(hashes[start : start + WINDOW]) for start in range(len(hashes) - WINDOW + 1)}
