"""Text pieces the grader works on: sentences and clauses with character spans, words,
negation cues and stop words. Pure Python (no model), so it is cheap to test.

A *unit* is a sentence, or a clause of a long sentence cut at ``;``, ``but``, ``whereas``,
``while``, ``so``, ``which``, ``rather than``… Clauses matter for negation: in "it is
accumulated, not overwritten" the "not" belongs to the second clause only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_SENT_END = re.compile(r"(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\betc\.)(?<!\bvs\.)(?<=[.!?])\s+|\n\s*\n|\n\s*[-*•]\s+|;\s+")
_CLAUSE_CUT = re.compile(
    r",\s+(?=(?:but|whereas|while|so|which|and\s+then|because|since|although|though|otherwise|"
    r"not|never|rather|instead|unlike|except)\b)|\s+(?=(?:but|whereas|rather\s+than|instead\s+of)\b)|\s+[-–—]\s+|:\s+|\s+\((?!\))|(?<!\()\)(?=[\s,.;])",
    re.I,
)
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.']*|\d+(?:\.\d+)?")

#: Words that flip a clause's polarity. "n't" contractions are matched separately.
NEGATIONS = frozenset(
    "not no never none nothing neither nor cannot without nobody nowhere hardly".split()
)
#: Function words: a coherent claim has many of them; a stuffed list of terms has few.
STOP_WORDS = frozenset(
    """a an the is are was were be been being am do does did doing have has had having it its it's this that these
    those there here of in on at by for with to from into onto over under as than then so if when while because
    and or but not no nor can could will would should must may might shall i you we they he she them us our your
    their my me what which who whom whose how why where also just only very more most less same each every any
    all some such both either neither one once again through about after before until out up down off own too
    own get gets got make makes made use uses used need needs let lets way ways thing things""".split()
)


@dataclass(frozen=True)
class Unit:
    """A sentence or clause: ``text == answer[start:end]``; ``sentence`` indexes its sentence."""

    start: int
    end: int
    text: str
    sentence: int
    leaf: bool = True  # False for a sentence that splits into clauses


def _pieces(text: str, pattern: re.Pattern, offset: int) -> list[tuple[int, int]]:
    out, pos = [], 0
    for m in pattern.finditer(text):
        out.append((pos, m.start()))
        cut = m.group(0).strip()
        pos = m.end() if cut in {";", ":", "", ")"} or "\n" in m.group(0) or cut.startswith(",") or cut in "-–—" \
            else m.start()
    out.append((pos, len(text)))
    spans = []
    for a, b in out:
        seg = text[a:b]
        lead = len(seg) - len(seg.lstrip())
        seg = seg.strip()
        if seg:
            spans.append((offset + a + lead, offset + a + lead + len(seg)))
    return spans


def sentences(answer: str) -> list[Unit]:
    """Sentences of ``answer`` with their spans (at most 60)."""
    return [Unit(a, b, answer[a:b], i) for i, (a, b) in enumerate(_pieces(answer, _SENT_END, 0)[:60])]


def units(answer: str, min_clause_words: int = 2) -> list[Unit]:
    """Sentences, then the clauses (of at least ``min_clause_words`` words) of sentences that
    split. ``leaf`` is True for clauses and for sentences that do not split: the leaves are
    where negation polarity is read."""
    sents = sentences(answer)
    out: list[Unit] = []
    extra: list[Unit] = []
    for s in sents:
        parts = _pieces(s.text, _CLAUSE_CUT, s.start)
        clauses = [Unit(a, b, answer[a:b], s.sentence) for a, b in parts]
        clauses = [c for c in clauses if len(words(c.text)) >= min_clause_words]
        if len(parts) > 1 and clauses:
            out.append(Unit(s.start, s.end, s.text, s.sentence, leaf=False))
            extra.extend(clauses)
        else:
            out.append(s)
    return out + extra


def words(text: str) -> list[str]:
    return [w.lower().strip(".'") for w in WORD.findall(text)]


#: Quoted text (an error message, a code string): its words are not the speaker's claim.
_QUOTED = re.compile(r"""(?<!\w)'[^'\n]+'(?!\w)|"[^"\n]+"|`[^`\n]+`|“[^”\n]+”""")


def negation_count(text: str) -> int:
    """Negation cues in ``text``: words of :data:`NEGATIONS` and ``n't`` contractions, outside
    quotes (``'element 0 of tensors does not require grad'`` is a message, not a claim)."""
    # "None" with a capital is Python's None, not a negation
    text = _QUOTED.sub(" ", text)
    return sum((w.lower() in NEGATIONS and w != "None") or w.lower().endswith("n't") for w in WORD.findall(text))


def stop_ratio(text: str) -> float:
    """Share of words that are function words (0 for an empty text)."""
    ws = words(text)
    return sum(w in STOP_WORDS for w in ws) / len(ws) if ws else 0.0


def clauses(text: str) -> list[Unit]:
    """The finest pieces: each sentence's clauses (or the sentence when it does not split)."""
    out = []
    for s in sentences(text):
        parts = _pieces(s.text, _CLAUSE_CUT, s.start)
        out.extend(Unit(a, b, text[a:b], s.sentence) for a, b in parts)
    return out
