"""A notebook cell's IPython syntax made plain Python, line for line, so the worker runs it without IPython.

What IPython itself recognises is what counts: where IPython is importable its own input transformer
(``TransformerManager``) decides which lines are magics, shell escapes or help requests; elsewhere a
tokenizer-based scan gives the same answer on the cases that matter (an escape starts a logical line,
never a continuation line such as black's ``!= value``).

- A cell magic that only wraps code (``%%time``, ``%%timeit``, ``%%capture``) runs its body.
- Any other cell magic (``%%bash``, ``%%writefile``) is skipped whole.
- A line magic, shell escape or help request becomes ``pass`` (its assignment, ``x = !ls``, too).

Line numbers are kept, so a traceback still points at the student's line.
"""

from __future__ import annotations

import io
import re
import tokenize

from autograder.hand_in import student_syntax

WRAPPING_CELL_MAGICS = frozenset({"time", "timeit", "capture"})
_HELP = re.compile(r"^\s*[A-Za-z_][\w.]*\s*\?{1,2}\s*$|^\s*\?{1,2}\s*[A-Za-z_][\w.]*\s*$")


def plain_python(source: str) -> tuple[str, list[str]]:
    """The cell as plain Python, and what was skipped (the magics' names, shortened), for a note."""
    # Plain Python already (no magic, escape or help parses as Python): no need to load IPython. Too long to
    # read here: the worker runs it as written.
    if len(source) > student_syntax.MOST_CHARACTERS or student_syntax.parse(source) is not None:
        return "\n".join(source.splitlines()), []
    lines = source.splitlines()
    first = next((index for index, line in enumerate(lines) if line.strip()), None)
    if first is not None and lines[first].lstrip().startswith("%%"):
        magic = lines[first].strip()
        name = magic[2:].split(maxsplit=1)[0] if len(magic) > 2 else ""
        if name not in WRAPPING_CELL_MAGICS:
            return "pass", [magic.split()[0][:30]]
        lines[first] = ""  # the body runs; its lines keep their numbers
    escaped = _escaped_lines(lines)
    skipped = []
    for start, end in escaped:
        text = lines[start].lstrip()
        label = re.search(r"[!%]+\S*|\S+\?+", text)
        skipped.append((label.group() if label else text)[:30])
        indent = lines[start][: len(lines[start]) - len(text)]
        lines[start] = f"{indent}pass"
        for index in range(start + 1, end + 1):
            lines[index] = ""
    return "\n".join(lines), skipped


def _escaped_lines(lines: list[str]) -> list[tuple[int, int]]:
    """(first, last) physical line of each logical line that IPython would not hand to Python as it is."""
    # Only a logical line with one of these characters can be IPython's: the rest never import IPython.
    candidates = [
        (start, end)
        for start, end in _logical_lines(lines)
        if re.search(r"[!%?]", "".join(lines[start : end + 1])) and not lines[start].lstrip().startswith("#")
    ]
    if not candidates:
        return []
    try:
        from IPython.core.inputtransformer2 import TransformerManager
    except ImportError:
        return [(start, end) for start, end in candidates if _looks_escaped(lines, start, end)]
    manager = TransformerManager()
    found = []
    for start, end in candidates:
        chunk = (
            "\n".join(line.strip() if index == 0 else line for index, line in enumerate(lines[start : end + 1])) + "\n"
        )
        try:
            transformed = manager.transform_cell(chunk)
        except Exception:  # IPython could not read it either: leave it to Python's own error
            continue
        if "get_ipython()" in transformed and "get_ipython()" not in chunk:
            found.append((start, end))
    return found


def _looks_escaped(lines: list[str], start: int, end: int) -> bool:
    text = lines[start].lstrip()
    if text.startswith(("%", "!")) and not text.startswith("!="):
        return True
    if re.match(r"^[A-Za-z_][\w.]*\s*=\s*[!%]", text) and not re.match(r"^[A-Za-z_][\w.]*\s*=\s*!=", text):
        return True  # x = !ls, x = %who_ls
    return bool(_HELP.match(" ".join(line.strip() for line in lines[start : end + 1])))


def _logical_lines(lines: list[str]) -> list[tuple[int, int]]:
    """Each logical line's first and last physical line (0-based); one per line if the cell cannot be tokenized.

    A logical line ends at a NEWLINE token: inside brackets a line break is only NL, so black's
    continuation lines (``!= value``) stay part of the statement they continue.
    """
    text = "\n".join(lines) + "\n"
    spans: list[tuple[int, int]] = []
    start: int | None = None
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type in (tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER):
                continue
            if start is None and token.type in (tokenize.NL, tokenize.COMMENT):
                continue  # a blank or comment-only line
            if start is None:
                start = token.start[0] - 1
            if token.type == tokenize.NEWLINE:
                spans.append((start, token.start[0] - 1))
                start = None
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return [(index, index) for index in range(len(lines))]
    if start is not None:
        spans.append((start, len(lines) - 1))
    return spans
