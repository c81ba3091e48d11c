"""How bank Markdown is parsed for display: markdown-it-py with identifiers kept literal.

Bank text is full of Python identifiers (``super().__init__()``, ``_foreach_lerp_``,
``torch.__version__``). CommonMark lets ``_``/``__`` open emphasis when the run follows
punctuation and precedes a letter (``.__init__(`` is "left-flanking" after ``.`` and the closing
``__(`` is "right-flanking"), so ``super().__init__()`` would render as "super().**init**()".
:func:`identifiers_plugin` adds an inline rule, run before emphasis, that takes a word made of
letters, digits and underscores as plain text whenever it contains an underscore, so
underscores never emphasise in bank text (write emphasis with ``*``/``**``, as the bank does).
Every face that renders bank Markdown (web pages, the PDF scorecard, the terminal) builds its
parser with :func:`parser`.
"""

from __future__ import annotations

import re
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline

# A word with an underscore in it, from an underscore on: "_private", "__init__", "_(" is not one.
_AFTER_WORD = re.compile(r"_[\w]*")  # the underscore follows a letter/digit: the rest of the word
_WORD_START = re.compile(r"_+[^\W_][\w]*")  # a word that starts with underscores, then a letter/digit


def _identifier(state: StateInline, silent: bool) -> bool:
    pos = state.pos
    src = state.src
    if src[pos] != "_":
        return False
    prev = src[pos - 1] if pos > 0 else ""
    m = (_AFTER_WORD if prev and (prev.isalnum() or prev == "_") else _WORD_START).match(src, pos)
    if m is None:
        return False
    if not silent:
        state.pending += m.group(0)
    state.pos = m.end()
    return True


def identifiers_plugin(md: MarkdownIt) -> None:
    """Keep identifiers with underscores (``__init__``, ``snake_case``, ``add_``) literal: a
    markdown-it inline rule before ``emphasis`` (see the module docstring)."""
    md.inline.ruler.before("emphasis", "identifier", _identifier)


def parser(preset: str = "commonmark", options: dict[str, Any] | None = None) -> MarkdownIt:
    """A markdown-it-py parser for bank text: ``preset`` with ``options`` (``html`` defaults to
    False, so bank files cannot inject markup), tables enabled, identifiers kept literal."""
    md = MarkdownIt(preset, {"html": False, **(options or {})}).enable("table")
    md.use(identifiers_plugin)
    return md
