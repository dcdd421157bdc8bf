"""See where the tokens are: in a notebook each token is a coloured span, in a terminal it sits in brackets.

A list of strings hides what matters in tokenization: where one token ends
and the next begins, and whether the space went with the word before or the
word after. The notebooks of Parts 2 to 4 show tokens with ``show_tokens``
(one sentence) and ``show_rows`` (the same sentence under several
tokenizers, one row each). Spaces are drawn as ``␣``, newlines as ``↵``,
and the end-of-word marker ``</w>`` as a small ``·`` at the token's end.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

END_OF_WORD = "</w>"
SHOWN = {" ": "␣", "\n": "↵", "\t": "⇥"}
END_MARK = "·"
# Pale colours that alternate, so neighbours always differ and dark text stays readable on each.
PALETTE = ("#ffe0a3", "#b8e2f2", "#c9f0c1", "#f7c6d9", "#ddd3f5", "#f2e8b8")
SPAN = (
    'style="background:{colour};border-radius:3px;padding:1px 2px;margin:0 1px;'
    'font-family:monospace;white-space:pre;line-height:1.9"'
)


def visible(token: str | bytes) -> str:
    """A token's text with its invisible parts drawn: spaces, newlines, tabs and the end-of-word marker."""
    if isinstance(token, bytes):  # a byte-level token may hold half a character: show the replacement mark
        token = token.decode("utf-8", errors="replace")
    ends_word = token.endswith(END_OF_WORD)
    text = token.removesuffix(END_OF_WORD) if ends_word else token
    return "".join(SHOWN.get(character, character) for character in text) + (END_MARK if ends_word else "")


@dataclass(frozen=True)
class TokenView:
    """Tokens shown in a notebook (``_repr_html_``) or printed (``str``: ``[To][␣be]``)."""

    tokens: tuple[str | bytes, ...]
    label: str = ""

    def __str__(self) -> str:
        counted = f"{len(self.tokens)} tokens"
        head = f"{self.label} ({counted}): " if self.label else f"({counted}) "
        return head + self.brackets()

    def brackets(self) -> str:
        return "".join(f"[{visible(token)}]" for token in self.tokens)

    __repr__ = __str__

    def spans(self) -> str:
        return "".join(
            f'<span title="{html.escape(repr(token))}" {SPAN.format(colour=PALETTE[index % len(PALETTE)])}>'
            f"{html.escape(visible(token))}</span>"
            for index, token in enumerate(self.tokens)
        )

    def _repr_html_(self) -> str:
        counted = f'<span style="color:#777">{len(self.tokens)} tokens</span>'
        label = f"<b>{html.escape(self.label)}</b> " if self.label else ""
        return f"<div>{label}{counted}<br>{self.spans()}</div>"


@dataclass(frozen=True)
class TokenRows:
    """Several tokenizations of one text, one row each, so their boundaries can be compared."""

    rows: tuple[TokenView, ...]

    def __str__(self) -> str:
        width = max((len(row.label) for row in self.rows), default=0)
        return "\n".join(f"{row.label:>{width}} ({len(row.tokens):>3}): {row.brackets()}" for row in self.rows)

    __repr__ = __str__

    def _repr_html_(self) -> str:
        cells = "".join(
            f'<tr><td style="text-align:right;white-space:nowrap"><b>{html.escape(row.label)}</b></td>'
            f'<td style="text-align:right;color:#777">{len(row.tokens)}</td>'
            f'<td style="text-align:left">{row.spans()}</td></tr>'
            for row in self.rows
        )
        return f"<table>{cells}</table>"


def show_tokens(tokens: Iterable[str | bytes], label: str = "") -> TokenView:
    """One tokenization, to show as a cell's last value or to ``print``."""
    return TokenView(tuple(tokens), label)


def show_rows(rows: Mapping[str, Iterable[str | bytes]]) -> TokenRows:
    """Several tokenizations, each under its label (``{"50 merges": tokens, ...}``), one row each."""
    return TokenRows(tuple(TokenView(tuple(tokens), label) for label, tokens in rows.items()))
