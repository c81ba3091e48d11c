"""Markdown to HTML for the web face: markdown-it-py (CommonMark + tables) and Pygments.

Raw HTML in bank files is not passed through (``html=False``), so a bank file cannot
inject markup; identifiers such as ``__init__`` stay literal (:mod:`torchdojo.bank.markup`).
Runnable examples get a caption saying they are executed by ``bank verify``.
"""

from __future__ import annotations

from functools import lru_cache
from html import escape

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound

from torchdojo.bank.markup import parser

_FORMATTER = HtmlFormatter(nowrap=True)


def _highlight(code: str, lang: str, _attrs: str) -> str:
    try:
        lexer = get_lexer_by_name(lang or "text")
    except ClassNotFound:
        return escape(code)
    return highlight(code, lexer, _FORMATTER)


_md = parser("commonmark", {"linkify": False, "highlight": _highlight})
_default_fence = _md.renderer.rules["fence"]


def _fence(tokens, idx, options, env):
    tok = tokens[idx]
    words = tok.info.split()
    runnable = len(words) >= 2 and words[1] == "runnable"
    needs = next((w.split("=", 1)[1] for w in words[2:] if w.startswith("needs=")), "cpu")
    tok.info = words[0] if words else ""
    html = _default_fence(tokens, idx, options, env)
    if not runnable:
        return f'<div class="code">{html}</div>'
    return (
        f'<figure class="code runnable"><figcaption>Verified example · runs on {escape(needs)}'
        f"</figcaption>{html}</figure>"
    )


_md.renderer.rules["fence"] = _fence


@lru_cache(maxsize=2048)
def render(text: str) -> str:
    """HTML for a Markdown string (cached: bank text does not change while the app runs)."""
    return _md.render(text)


@lru_cache(maxsize=2048)
def render_inline(text: str) -> str:
    """HTML for one line of Markdown (inline code, emphasis), without a paragraph wrapper."""
    return _md.renderInline(text)


def pygments_css() -> str:
    light = HtmlFormatter(style="friendly").get_style_defs(".highlight, .code pre")
    dark = HtmlFormatter(style="monokai").get_style_defs(".highlight, .code pre")
    return f"{light}\n@media (prefers-color-scheme: dark) {{\n{dark}\n}}\n"
