"""Showing what a student controls (output, exception text, file names) so that it stays text.

Student text reaches terminals, Markdown and HTML pages and spreadsheets. In
each it must read as what it is, never act: no terminal control sequences
(a cleared screen, a fake score in green), no closed code fence followed by
raw HTML or links, no formula in a spreadsheet cell.

>>> visible("\\x1b[2Jfake\\tscore\\n")
'\\\\x1b[2Jfake\\tscore\\n'
>>> fenced("a ``` inside")
'````text\\na ``` inside\\n````'
>>> markdown_text("<b>|x|</b>")
'\\\\<b\\\\>\\\\|x\\\\|\\\\</b\\\\>'
>>> spreadsheet_cell("=HYPERLINK(1)"), spreadsheet_cell("-12.5"), spreadsheet_cell("+1+1")
("'=HYPERLINK(1)", '-12.5', "'+1+1")
"""

from __future__ import annotations

import re

# C0 controls but tab and newline, DEL, C1 controls, and the bidirectional overrides that reorder how a
# line reads ("Trojan Source"): each is shown as its escape, \x1b or \u202e.
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
# What CommonMark gives a meaning to inside a line: emphasis, code, links, HTML, entities, table cells.
_MARKDOWN = re.compile(r"([\\`*_\[\]<>|&~])")
# What a spreadsheet takes for the start of a formula (OWASP's list for CSV injection).
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"^[+-]?\d+(\.\d+)?$")


def visible(text: str) -> str:
    """``text`` with every control character shown as its escape, so no terminal or page acts on it."""
    return _CONTROLS.sub(lambda match: match.group().encode("unicode_escape").decode("ascii"), text)


def fenced(text: str, info: str = "text") -> str:
    """A Markdown code block holding ``text`` whatever it holds: its fence is longer than any backtick run."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info}\n{text}\n{fence}"


def markdown_text(text: str) -> str:
    """``text`` as literal Markdown inline text (a table cell, a heading): one line, nothing interpreted."""
    return _MARKDOWN.sub(r"\\\1", " ".join(visible(text).splitlines()))


def markdown_code(text: str) -> str:
    """``text`` as an inline code span that nothing in it can close (pipes escaped for table cells)."""
    line = " ".join(visible(text).splitlines())
    longest = max((len(run) for run in re.findall(r"`+", line)), default=0)
    ticks = "`" * (longest + 1)
    padded = f" {line} " if line.startswith("`") or line.endswith("`") else line
    return f"{ticks}{padded}{ticks}".replace("|", "\\|")


def spreadsheet_cell(text: str) -> str:
    """A CSV cell a spreadsheet shows as text: a leading ``'`` where it would start a formula (OWASP).

    Plain numbers stay numbers; the quote is what spreadsheets hide, so the cell still reads right.
    """
    if text.startswith(_FORMULA_STARTS) and not _NUMBER.match(text):
        return "'" + text
    return text
