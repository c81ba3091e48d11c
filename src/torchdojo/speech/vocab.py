"""The bank's PyTorch vocabulary, for speech: a prompt that biases recognition toward it, and the
table that maps spoken forms back to code names before grading.

Identifiers are taken from the entries' short answers, key points and their phrasings: names
with an underscore (``zero_grad``), CamelCase names (``GradScaler``), dotted names
(``torch.compile``) and acronyms (``DDP``). Each gets spoken forms by splitting it where a
speaker pauses (``zero grad``, ``grad scaler``, ``torch dot compile``). A spoken form is mapped
only when the bank itself writes the code name more often than the spoken words, so ordinary
prose ("batch size") stays prose. :data:`HAND_FORMS` adds what cannot be derived (``auto cast``).
No engine is imported here.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

#: Identifiers in prose: snake_case, CamelCase, dotted API names, acronyms.
IDENT_RE = re.compile(
    r"(?<![\w.])(?:[A-Za-z]+(?:_[A-Za-z0-9]+)+|[A-Z][a-z]+(?:[A-Z][a-z0-9]*)+|[A-Z]{2,6}|"
    r"[a-z]+\.[a-z_]+(?:\.[a-z_]+)*)\b")
#: Lower-case one-word API names worth prompting (they have no underscore or capital to find them by).
HAND_TERMS = ("autocast", "autograd", "backward", "contiguous", "einsum", "torch.compile", "detach", "checkpoint")
#: Spoken forms that cannot be derived from the identifier's spelling.
HAND_FORMS = {
    "auto cast": "autocast", "auto grad": "autograd",
    "torch dot compile": "torch.compile", "d d p": "DDP", "f s d p": "FSDP", "gradscaler": "GradScaler",
    "dataloader": "DataLoader", "grad scalar": "GradScaler",
}
#: Acronyms that are ordinary English words or too short to prompt usefully.
_SKIP = {"API", "GB", "MB", "RAM", "OK", "TB", "KB", "US", "OR", "AND", "NOT", "IT", "NO", "ID"}
#: Whisper's prompt holds 223 tokens; a long list of terms made tiny.en worse on synthetic speech (more
#: substitutions), so the prompt is short: the entry's own terms, then the most frequent ones.
PROMPT_MAX_CHARS = 200


def _split(ident: str) -> list[str]:
    """The spoken words of an identifier: ``zero_grad`` → [zero, grad], ``GradScaler`` → [grad, scaler]."""
    parts = re.split(r"[_.]", ident)
    words: list[str] = []
    for p in parts:
        words += [w for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+", p) if w]
    return [w.lower() for w in words]


def spoken_forms(ident: str) -> list[str]:
    """How a speaker says ``ident`` (lower case): ``torch.no_grad`` → ``torch no grad``, ``torch dot no grad``."""
    if re.fullmatch(r"[A-Z]{2,6}", ident):
        return []  # an acronym is recognised as itself
    words = _split(ident)
    if len(words) < 2 or any(len(p) < 2 for p in ident.split(".")):
        return []  # one word, or an abbreviation such as e.g
    if "_" not in ident and "." not in ident and any(len(w) < 3 for w in words):
        return []  # PyTorch, ReLU, NaN: said as one word, not as "py torch"
    forms = {" ".join(words)}
    if "." in ident:
        forms.add(" dot ".join(" ".join(_split(p)) for p in ident.split(".")))
    return sorted(forms)


@dataclass(frozen=True)
class Vocabulary:
    """Terms by how often the bank uses them (most first), and spoken form → code name."""

    terms: tuple[str, ...]
    forms: dict[str, str]

    @classmethod
    def from_texts(cls, texts: Iterable[str]) -> Vocabulary:
        """Build from prose (the bank's short answers and key points)."""
        corpus = "\n".join(texts)
        counts = Counter(m for m in IDENT_RE.findall(corpus) if m not in _SKIP and not _abbreviation(m))
        low = corpus.lower()
        forms: dict[str, str] = {}
        for ident, n in counts.most_common():
            for form in spoken_forms(ident):
                said = len(re.findall(rf"(?<![\w.]){re.escape(form)}(?![\w])", low))
                if form not in forms and n > said:
                    forms[form] = ident
        forms.update(HAND_FORMS)
        terms = tuple(dict.fromkeys([*HAND_TERMS[:2], *(t for t, _ in counts.most_common())]))
        return cls(terms, forms)

    @classmethod
    def from_bank(cls, bank) -> Vocabulary:
        """Build from a loaded bank (:class:`torchdojo.bank.loader.Bank`)."""
        return cls.from_texts(_entry_texts(e) for e in bank)

    def prompt(self, entry=None, max_chars: int = PROMPT_MAX_CHARS) -> str:
        """Whisper's ``initial_prompt``: the entry's own terms first (when given), then the bank's
        most frequent ones, at most ``max_chars`` characters."""
        first: list[str] = []
        if entry is not None:
            first = [m for m in IDENT_RE.findall(_entry_texts(entry)) if m not in _SKIP and not _abbreviation(m)]
        out = "A PyTorch interview answer about "
        seen: set[str] = set()
        for t in [*first, *self.terms]:
            if t in seen:
                continue
            piece = t + ", "
            if len(out) + len(piece) > max_chars:
                break
            out += piece
            seen.add(t)
        return out.rstrip(", ") + "."

    def to_code(self, text: str) -> str:
        """``text`` with spoken forms replaced by code names, longest form first, case-insensitive
        ("call zero grad" or "zero-grad" → "call zero_grad"); other text unchanged."""
        if not self.forms:
            return text
        pattern = _pattern(tuple(sorted(self.forms, key=len, reverse=True)))
        return pattern.sub(lambda m: self.forms[_norm(m.group(0))], text)


def _abbreviation(ident: str) -> bool:
    """e.g, i.e, and two-letter acronyms (AD, BN): noise in a prompt."""
    return ("." in ident and any(len(p) < 2 for p in ident.split("."))) or len(ident) < 3


def _norm(said: str) -> str:
    return re.sub(r"[\s-]+", " ", said.lower())


_PATTERNS: dict[tuple[str, ...], re.Pattern[str]] = {}


def _pattern(forms: tuple[str, ...]) -> re.Pattern[str]:
    if forms not in _PATTERNS:
        alts = "|".join(r"[\s-]+".join(re.escape(w) for w in f.split(" ")) for f in forms)
        _PATTERNS[forms] = re.compile(rf"(?<![\w.])(?:{alts})(?![\w])", re.IGNORECASE)
    return _PATTERNS[forms]


def _entry_texts(entry) -> str:
    m = entry.meta
    return " ".join([m.short_answer or "", *(k.text for k in m.key_points), *(p for k in m.key_points for p in k.phrasings)])
