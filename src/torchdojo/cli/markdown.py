"""Rich's Markdown renderable over the bank's parser, so identifiers such as ``__init__``
print literally in the terminal too (see :mod:`torchdojo.bank.markup`)."""

from __future__ import annotations

from typing import Any

from rich.markdown import Markdown as RichMarkdown

from torchdojo.bank.markup import parser


class Markdown(RichMarkdown):
    """:class:`rich.markdown.Markdown` parsed with :func:`torchdojo.bank.markup.parser`
    (CommonMark + tables + strikethrough, underscores in identifiers kept literal)."""

    def __init__(self, markup: str, *args: Any, **kwargs: Any) -> None:
        super().__init__(markup, *args, **kwargs)
        self.parsed = parser("commonmark").enable("strikethrough").parse(markup)
