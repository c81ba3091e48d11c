"""Structure checks for the two free-form question types.

- **Behavioral** (:func:`star`): the STAR structure — situation, task, action, result present
  (cue words, or a sentence close to the entry's own ``star_outline`` part), the result
  quantified (a number, percentage, duration or multiple), ownership stated (first-person
  singular actions, not only "we"), and none of the rubric's red flags.
- **System design** (:func:`design`): coverage of the rubric's components, trade-offs and
  failure modes (a sentence close to each item).

Each returns ``(checks, score in [0, 1])``; the grader blends the score with key-point
coverage. Source for STAR: the common behavioral-interview method (Situation, Task, Action,
Result), e.g. https://www.themuse.com/advice/star-interview-method .
"""

from __future__ import annotations

import re

import numpy as np

from torchdojo.grading.feedback import Check, Span
from torchdojo.grading.text import Unit

_CUES = {
    "situation": r"\b(when i was|at my (last|previous)|we (had|were)|our (team|model|system|pipeline)|the (team|project|system) was|last year|once|context)\b",
    "task": r"\b(my (job|task|goal|responsibility|role) was|i (was asked|had to|needed to|was responsible)|the goal was|we needed to|i owned)\b",
    "action": r"\b(i (built|wrote|added|changed|ran|profiled|proposed|set up|led|decided|designed|measured|paired|reviewed|rolled|migrated|introduced|started|split|moved|fixed|debugged|asked|talked|met|scheduled|created|implemented))\b",
    "result": r"\b(as a result|in the end|result(ed)?|outcome|we (cut|reduced|shipped|saved|improved)|it (cut|reduced|improved|dropped)|afterwards|since then|learned)\b",
}
_QUANT = re.compile(r"\b\d+(\.\d+)?\s*(%|percent|x\b|×|ms|s\b|seconds?|minutes?|hours?|days?|weeks?|months?|gb|mb|k\b|points?|people|engineers)|\b\d+(\.\d+)?x\b|\bfrom \S+ to \S+", re.I)
_I = re.compile(r"\bI\b|\bmy\b|\bI'(?:m|ve|d)\b")
_WE = re.compile(r"\bwe\b|\bour\b", re.I)


def _best(units: list[Unit], U: np.ndarray, text_emb: np.ndarray) -> tuple[float, Unit | None]:
    if not units:
        return 0.0, None
    s = U @ text_emb
    i = int(s.argmax())
    return float(s[i]), units[i]


def _span(u: Unit | None) -> Span | None:
    return Span(start=u.start, end=u.end, text=u.text) if u else None


def star(answer: str, units: list[Unit], U: np.ndarray, rubric, encoder, sim: float = 0.45):
    """STAR checks for a behavioral answer → (checks, score in [0, 1])."""
    parts = ["situation", "task", "action", "result"]
    emb = encoder.encode_cached([rubric.star_outline[p] for p in parts] + list(rubric.red_flags))
    checks: list[Check] = []
    ok = 0
    for n, part in enumerate(parts):
        m = re.search(_CUES[part], answer, re.I)
        s, u = _best(units, U, emb[n])
        present = bool(m) or s >= sim
        ev = _span(u) if s >= sim else (Span(start=m.start(), end=m.end(), text=m.group(0)) if m else None)
        checks.append(Check(name=f"STAR: {part}", ok=present, evidence=ev,
                            note="" if present else f"no {part} stated"))
        ok += present
    q = _QUANT.search(answer)
    checks.append(Check(name="result quantified", ok=bool(q),
                        evidence=Span(start=q.start(), end=q.end(), text=q.group(0)) if q else None,
                        note="" if q else "give the result as a number: time saved, error rate, latency…"))
    n_i, n_we = len(_I.findall(answer)), len(_WE.findall(answer))
    owned = n_i >= 2 and n_i >= n_we / 2
    checks.append(Check(name="ownership stated", ok=owned,
                        note=f"{n_i} first-person singular vs {n_we} 'we'" + ("" if owned else ": say what *you* did")))
    red = []
    for n, flag in enumerate(rubric.red_flags):
        s, u = _best(units, U, emb[4 + n])
        if s >= 0.6:
            red.append(Check(name=f"red flag: {flag}", ok=False, evidence=_span(u), note="sounds like a red flag"))
    checks.extend(red)
    score = (ok / 4) * 0.6 + 0.2 * bool(q) + 0.2 * owned - 0.2 * len(red)
    return checks, float(min(1.0, max(0.0, score)))


def design(answer: str, units: list[Unit], U: np.ndarray, rubric, encoder, sim: float = 0.45):
    """Rubric coverage for a system-design answer → (checks, score in [0, 1])."""
    groups = [("components", rubric.components, 0.5), ("trade-offs", rubric.trade_offs, 0.25),
              ("failure modes", rubric.failure_modes, 0.25)]
    emb = encoder.encode_cached([t for _, items, _ in groups for t in items])
    checks: list[Check] = []
    score = 0.0
    i = 0
    for name, items, w in groups:
        covered = 0
        for item in items:
            s, u = _best(units, U, emb[i])
            i += 1
            hit = s >= sim
            covered += hit
            checks.append(Check(name=f"{name}: {item}", ok=hit, evidence=_span(u) if hit else None,
                                note=f"similarity {s:.2f}"))
        score += w * covered / len(items)
    return checks, float(score)
