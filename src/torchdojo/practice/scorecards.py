"""Rubric scorecards: the unit of feedback for self-review, live follow-ups and interviewer mode.

A scorecard marks one answer to one bank entry, one **line** per thing the answer must show:

=============  ==============================================  ======================
line kind      marks (keys 1..n in this order)                 counts toward
=============  ==============================================  ======================
key-point      covered · partly · missed · wrong               score (the point's weight)
misconception  not-stated · stated                             a cap on the band
star           present · absent                                score (weight 1; behavioral)
design         covered · missed                                score (weight 1; system design)
=============  ==============================================  ======================

The machine (a grader's :class:`~torchdojo.grading.feedback.Feedback`) **proposes** a mark per
line with the answer span that shows it; a person (the candidate reviewing their own answer, a
peer, or an interviewer) **confirms or changes** it. Where the grader failed, or does not trust
its proposal (the answer or the point is *uncertain*), the line is left for the person: it is
never turned into a score on its own. Every mark is committed as it is set, so a closed tab or
a killed process loses no confirmed mark; a final scorecard refuses further marks.

**The formula** (:func:`score_of`), one for every context:

- credit per line: covered / present 1, partly 0.5, missed / absent / wrong 0;
- score = round(100 × Σ weight × credit / Σ weight) over the key-point, STAR and design lines;
- band = 0–24 wrong, 25–49 weak, 50–74 adequate, 75–100 excellent (as the grader's bands);
- caps: a stated misconception, or an essential key point (weight 3) marked *wrong*, caps the
  band at 1 (weak); any other key point marked wrong caps it at 2; the score is lowered to the
  top of the capped band, so score and band never disagree.

A scorecard's **confirmed** score uses the final marks. Before that, :attr:`Scorecard.estimate`
applies the same formula to the machine's *confident* proposals only, says it is unconfirmed,
and is None when the machine proposed nothing it trusts (an uncertain or ungradable answer is
left out of averages, never counted as 0).

Every confirmation is also a label: :meth:`Scorecards.agreement` compares the machine's
proposals with what people confirmed, and :meth:`Scorecards.export_jsonl` writes them out as
labelled data. Key points confirmed *missed* or *wrong* become key-point flashcards when the
scorecard is finalised; a proposal the person overruled does not.

Sources: structured interviewing (Campion, Palmer & Campion 1997, "A review of structure in the
selection interview", Personnel Psychology 50(3)); idea-unit self-scoring of free recall
(Zamary, Rawson & Dunlosky 2016, "How accurately can students evaluate the quality of
self-generated examples?"); weighted kappa, Cohen (1968).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from torchdojo.bank.loader import Bank, Entry
from torchdojo.grading.feedback import BANDS, Feedback, band_of
from torchdojo.practice.flashcards import Flashcards
from torchdojo.store.models import ScorecardLineRow, ScorecardRow

#: The marks of each line kind, in key order (key 1 is the first).
MARKS: dict[str, tuple[str, ...]] = {
    "key-point": ("covered", "partly", "missed", "wrong"),
    "misconception": ("not-stated", "stated"),
    "star": ("present", "absent"),
    "design": ("covered", "missed"),
}
CREDIT = {"covered": 1.0, "partly": 0.5, "present": 1.0, "missed": 0.0, "absent": 0.0, "wrong": 0.0}
REVIEWERS = ("self", "peer", "interviewer")
RECOMMENDATIONS = ("strong-no", "no", "yes", "strong-yes")
MAX_NOTE = 5000
_GRADER_STATUS = {"hit": "covered", "missed": "missed", "contradicted": "wrong"}


class ScorecardError(ValueError):
    """A scorecard request that cannot be done (unknown id, bad mark, already final…); the
    message says why and what to do."""


@dataclass
class Line:
    """One line as the faces show it (see the module docstring for kinds and marks)."""

    position: int
    kind: str
    ref: str
    label: str
    weight: int
    proposal: str | None
    proposal_uncertain: bool
    evidence: tuple[int, int, str] | None
    mark: str | None
    marked_by: str | None
    marked_at: datetime | None
    note: str

    @property
    def choices(self) -> tuple[str, ...]:
        return MARKS[self.kind]

    @property
    def overruled(self) -> bool:
        """A person set a mark other than the machine's proposal."""
        return (self.mark is not None and self.proposal is not None and self.marked_by not in (None, "machine")
                and self.mark != self.proposal)

    @property
    def trusted_proposal(self) -> str | None:
        """The proposal when the machine trusts it, else None (the person decides)."""
        return None if self.proposal_uncertain else self.proposal


@dataclass
class Scorecard:
    id: int
    entry_id: str
    context: str
    reviewer: str
    status: str
    answer: str
    prompt: str | None
    parent_id: int | None
    mock_item_id: int | None
    interview_id: int | None
    grader: str | None
    grader_error: str | None
    machine_uncertain: bool
    machine_score: int | None
    recommendation: str | None
    notes: str
    score: int | None
    band: int | None
    created_at: datetime
    finalized_at: datetime | None
    lines: list[Line] = field(default_factory=list)
    #: A worker has yet to propose marks (team mode; :meth:`Scorecards.propose`).
    machine_pending: bool = False
    #: The grader's feedback as JSON when a worker graded the answer (None otherwise).
    feedback: str | None = None

    @property
    def final(self) -> bool:
        return self.status == "final"

    @property
    def unmarked(self) -> list[Line]:
        return [ln for ln in self.lines if ln.mark is None]

    @property
    def estimate(self) -> tuple[int, int] | None:
        """(score, band) from the machine's trusted proposals, or None when it trusts none of
        the scoring lines (see the module docstring)."""
        marks = {ln.position: ln.trusted_proposal for ln in self.lines}
        scoring = [ln for ln in self.lines if ln.kind != "misconception"]
        if not any(marks[ln.position] is not None for ln in scoring):
            return None
        return score_of(self.lines, marks)

    @property
    def current(self) -> tuple[int, int] | None:
        """(score, band) from the marks set so far, the machine's trusted proposals filling the
        rest; None when nothing can be scored yet."""
        marks = {ln.position: ln.mark if ln.mark is not None else ln.trusted_proposal for ln in self.lines}
        if not any(marks[ln.position] is not None for ln in self.lines if ln.kind != "misconception"):
            return None
        return score_of(self.lines, marks)

    @property
    def confirmed(self) -> bool:
        """Final, with every line marked by a person (not only accepted by default)."""
        return self.final and all(ln.marked_by not in (None, "machine") for ln in self.lines)


def score_of(lines: Iterable[Line], marks: dict[int, str | None]) -> tuple[int, int]:
    """(score 0–100, band 0–3) of ``marks`` (line position → mark, None: left out) by the
    formula in the module docstring."""
    num = den = 0.0
    cap = 3
    for ln in lines:
        m = marks.get(ln.position)
        if m is None:
            continue
        if ln.kind == "misconception":
            if m == "stated":
                cap = min(cap, 1)
            continue
        num += ln.weight * CREDIT[m]
        den += ln.weight
        if ln.kind == "key-point" and m == "wrong":
            cap = min(cap, 1 if ln.weight >= 3 else 2)
    score = round(100 * num / den) if den else 0
    band = min(band_of(score), cap)
    score = min(score, {0: 24, 1: 49, 2: 74, 3: 100}[band])
    return score, band


def lines_for(entry: Entry, fb: Feedback | None, only: Iterable[str] | None = None) -> list[dict]:
    """The lines of a scorecard for ``entry``, with the machine's proposals from ``fb`` (None:
    no proposals). ``only``: restrict key-point lines to these ids (a follow-up probes one or
    two points; then no misconception/STAR/design lines)."""
    m = entry.meta
    only = set(only) if only is not None else None
    results = {k.id: k for k in fb.key_points} if fb and not fb.error else {}
    answer_uncertain = bool(fb and fb.uncertain)
    out: list[dict] = []
    for kp in m.key_points:
        if only is not None and kp.id not in only:
            continue
        r = results.get(kp.id)
        ev = (r.evidence.start, r.evidence.end, r.evidence.text) if r and r.evidence else None
        out.append({"kind": "key-point", "ref": kp.id, "label": kp.text, "weight": kp.weight,
                    "proposal": _GRADER_STATUS.get(r.status) if r else None,
                    "proposal_uncertain": answer_uncertain or bool(r and getattr(r, "uncertain", False)),
                    "evidence": ev})
    if only is not None:
        return out
    stated = {x.claim: x for x in fb.misconceptions} if fb and not fb.error else {}
    for mc in m.misconceptions:
        x = stated.get(mc.claim)
        out.append({"kind": "misconception", "ref": mc.claim[:200], "label": mc.claim, "weight": 0,
                    "proposal": ("stated" if x else "not-stated") if fb and not fb.error else None,
                    "proposal_uncertain": answer_uncertain,
                    "evidence": (x.evidence.start, x.evidence.end, x.evidence.text) if x and x.evidence else None})
    checks = {c.name: c for c in fb.checks} if fb and not fb.error else {}
    if m.type == "behavioral" and m.behavioral_rubric is not None:
        for part in ("situation", "task", "action", "result"):
            c = checks.get(f"STAR: {part}")
            out.append({"kind": "star", "ref": part, "label": f"STAR {part}: {m.behavioral_rubric.star_outline[part]}",
                        "weight": 1, "proposal": ("present" if c.ok else "absent") if c else None,
                        "proposal_uncertain": answer_uncertain,
                        "evidence": (c.evidence.start, c.evidence.end, c.evidence.text) if c and c.evidence else None})
    if m.type == "system-design" and m.design_rubric is not None:
        dr = m.design_rubric
        for group, items in (("components", dr.components), ("trade-offs", dr.trade_offs),
                             ("failure modes", dr.failure_modes)):
            for text in items:
                c = checks.get(f"{group}: {text}")
                out.append({"kind": "design", "ref": f"{group}: {text}"[:200], "label": f"{group.capitalize()}: {text}",
                            "weight": 1, "proposal": ("covered" if c.ok else "missed") if c else None,
                            "proposal_uncertain": answer_uncertain,
                            "evidence": (c.evidence.start, c.evidence.end, c.evidence.text) if c and c.evidence else None})
    return out


class Scorecards:
    """Scorecards over one bank and user database (the faces call exactly these methods)."""

    def __init__(self, sessions, bank: Bank, flashcards: Flashcards) -> None:
        self.sessions = sessions
        self.bank = bank
        self.flashcards = flashcards

    # -- creating ---------------------------------------------------------------------------
    def create(self, entry_id: str, answer: str, fb: Feedback | None, *, context: str = "practice",
               reviewer: str = "self", mock_item_id: int | None = None, interview_id: int | None = None,
               parent_id: int | None = None, prompt: str | None = None, only: Iterable[str] | None = None,
               now: datetime | None = None, s: Session | None = None, pending: bool = False) -> int:
        """A new open scorecard with the machine's proposals from ``fb`` (None: no machine);
        returns its id. ``pending``: a worker will propose the marks later (team mode; ``fb`` must
        be None; see :meth:`propose`). Raises :class:`ScorecardError` for an unknown entry or reviewer."""
        if pending and fb is not None:
            raise ScorecardError("a scorecard waiting for a worker has no proposals yet")
        entry = self.entry_of(entry_id)
        if reviewer not in REVIEWERS:
            raise ScorecardError(f"reviewer must be one of {', '.join(REVIEWERS)}")
        now = now or datetime.now(UTC)
        lines = lines_for(entry, fb, only)

        def write(s: Session) -> int:
            row = ScorecardRow(entry_id=entry_id, context=context, reviewer=reviewer, mock_item_id=mock_item_id,
                               interview_id=interview_id, parent_id=parent_id, prompt=prompt, answer=answer,
                               grader=fb.grader if fb else None, grader_error=fb.error if fb else None,
                               machine_uncertain=bool(fb and (fb.uncertain or fb.error)),
                               machine_score=fb.score if fb and not fb.error else None, status="open", notes="",
                               created_at=now, machine_pending=pending)
            s.add(row)
            s.flush()
            for pos, ln in enumerate(lines):
                ev = ln.pop("evidence")
                s.add(ScorecardLineRow(scorecard_id=row.id, position=pos, note="", **ln,
                                       evidence_start=ev[0] if ev else None, evidence_end=ev[1] if ev else None,
                                       evidence_text=ev[2] if ev else None))
            return row.id

        if s is not None:
            return write(s)
        with self.sessions.begin() as s2:
            return write(s2)

    def entry_of(self, entry_id: str) -> Entry:
        """The entry a scorecard is about: a bank entry or an own card (``own:<n>``, key points
        kp1…kpN). Raises :class:`ScorecardError`."""
        entry = self.bank.get(entry_id)
        if entry is None and entry_id.startswith("own:"):
            try:
                entry = self.flashcards.card(entry_id)[0]
            except KeyError:
                entry = None
        if entry is None:
            raise ScorecardError(f"there is no entry '{entry_id}'")
        return entry

    def pending_machine(self) -> list[int]:
        """Ids of the scorecards waiting for a worker's proposals (team mode), oldest first."""
        with self.sessions() as s:
            return list(s.scalars(select(ScorecardRow.id).where(ScorecardRow.machine_pending.is_(True))
                                  .order_by(ScorecardRow.id)))

    def propose(self, scorecard_id: int, fb: Feedback) -> bool:
        """Fill in the machine's proposals from ``fb`` on a scorecard made with ``pending=True``
        (the ``grade_answer`` job): each line's proposal, uncertainty and evidence, the machine's
        score and the feedback JSON. Lines a person marked meanwhile keep their marks. Returns
        False (changing nothing) when the scorecard is not pending: a job delivered twice
        proposes once. Raises :class:`ScorecardError` for an unknown id."""
        with self.sessions.begin() as s:
            row = s.get(ScorecardRow, scorecard_id, with_for_update=True)
            if row is None:
                raise ScorecardError(f"there is no scorecard #{scorecard_id}")
            if not row.machine_pending:
                return False
            entry = self.entry_of(row.entry_id)
            fresh = {(ln["kind"], ln["ref"]): ln for ln in lines_for(entry, fb)}
            for ln in s.scalars(select(ScorecardLineRow).where(ScorecardLineRow.scorecard_id == scorecard_id)):
                got = fresh.get((ln.kind, ln.ref))
                if got is None:
                    continue
                ev = got["evidence"]
                ln.proposal, ln.proposal_uncertain = got["proposal"], got["proposal_uncertain"]
                ln.evidence_start, ln.evidence_end, ln.evidence_text = ev if ev else (None, None, None)
            row.grader, row.grader_error = fb.grader, fb.error
            row.machine_uncertain = bool(fb.uncertain or fb.error)
            row.machine_score = fb.score if not fb.error else None
            row.feedback, row.machine_pending = fb.model_dump_json(), False
            return True

    def estimate_in(self, s: Session, scorecard_id: int) -> tuple[int, int] | None:
        """The estimate of a scorecard created in the still-open transaction ``s`` (mock grading
        stores it as the item's score in the same commit)."""
        row = s.get(ScorecardRow, scorecard_id)
        lines = list(s.scalars(select(ScorecardLineRow).where(ScorecardLineRow.scorecard_id == scorecard_id)
                               .order_by(ScorecardLineRow.position)))
        return _card(row, lines).estimate

    # -- reading ----------------------------------------------------------------------------
    def get(self, scorecard_id: int) -> Scorecard:
        """Raises :class:`ScorecardError` for an unknown id."""
        with self.sessions() as s:
            row = s.get(ScorecardRow, scorecard_id)
            if row is None:
                raise ScorecardError(f"there is no scorecard #{scorecard_id}")
            lines = list(s.scalars(select(ScorecardLineRow).where(ScorecardLineRow.scorecard_id == scorecard_id)
                                   .order_by(ScorecardLineRow.position)))
        return _card(row, lines)

    def for_mock_items(self, item_ids: Iterable[int]) -> dict[int, Scorecard]:
        """mock item id → its scorecard (the newest one), in two queries."""
        ids = list(item_ids)
        if not ids:
            return {}
        with self.sessions() as s:
            rows = list(s.scalars(select(ScorecardRow).where(ScorecardRow.mock_item_id.in_(ids))
                                  .order_by(ScorecardRow.id)))
            lines = list(s.scalars(select(ScorecardLineRow).where(
                ScorecardLineRow.scorecard_id.in_([r.id for r in rows])).order_by(ScorecardLineRow.position)))
        by: dict[int, list[ScorecardLineRow]] = {}
        for ln in lines:
            by.setdefault(ln.scorecard_id, []).append(ln)
        return {r.mock_item_id: _card(r, by.get(r.id, [])) for r in rows}

    def for_interview(self, interview_id: int) -> list[Scorecard]:
        with self.sessions() as s:
            ids = list(s.scalars(select(ScorecardRow.id).where(ScorecardRow.interview_id == interview_id)
                                 .order_by(ScorecardRow.id)))
        return [self.get(i) for i in ids]

    def list(self, status: str | None = None) -> list[Scorecard]:
        with self.sessions() as s:
            q = select(ScorecardRow.id).order_by(ScorecardRow.id)
            if status:
                q = q.where(ScorecardRow.status == status)
            ids = list(s.scalars(q))
        return [self.get(i) for i in ids]

    # -- marking ----------------------------------------------------------------------------
    def _open(self, s: Session, scorecard_id: int) -> ScorecardRow:
        row = s.get(ScorecardRow, scorecard_id, with_for_update=True)
        if row is None:
            raise ScorecardError(f"there is no scorecard #{scorecard_id}")
        if row.status == "final":
            raise ScorecardError(f"scorecard #{scorecard_id} is final: its marks can no longer change")
        return row

    def set_mark(self, scorecard_id: int, position: int, mark: str, by: str = "self", note: str | None = None,
                 now: datetime | None = None) -> Line:
        """Set one line's mark (committed before returning). ``mark`` may also be the key number
        "1".."n" of the line's marks. Raises :class:`ScorecardError` for an unknown scorecard or
        line, a mark the line does not take, or a final scorecard."""
        if by not in REVIEWERS:
            raise ScorecardError(f"marks are set by one of {', '.join(REVIEWERS)}")
        if note is not None and len(note) > MAX_NOTE:
            raise ScorecardError(f"a note is limited to {MAX_NOTE:,} characters")
        now = now or datetime.now(UTC)
        with self.sessions.begin() as s:
            self._open(s, scorecard_id)
            ln = s.scalar(select(ScorecardLineRow).where(ScorecardLineRow.scorecard_id == scorecard_id,
                                                         ScorecardLineRow.position == position))
            if ln is None:
                raise ScorecardError(f"scorecard #{scorecard_id} has no line {position + 1}")
            choices = MARKS[ln.kind]
            if mark.isdigit() and 1 <= int(mark) <= len(choices):
                mark = choices[int(mark) - 1]
            if mark not in choices:
                raise ScorecardError(f"line {position + 1} takes one of {', '.join(choices)}, not '{mark[:40]}'")
            ln.mark, ln.marked_by, ln.marked_at = mark, by, now
            if note is not None:
                ln.note = note
            out = _line(ln)
        return out

    def accept_all(self, scorecard_id: int, by: str = "self", now: datetime | None = None) -> list[int]:
        """Confirm the machine's proposal on every line not marked yet (Enter); lines with no
        proposal stay unmarked. Returns the positions still unmarked. Raises :class:`ScorecardError`
        for an unknown or final scorecard, or one still waiting for a worker's proposals."""
        now = now or datetime.now(UTC)
        with self.sessions.begin() as s:
            if self._open(s, scorecard_id).machine_pending:
                raise ScorecardError(f"scorecard #{scorecard_id} waits for the machine's proposals (a grading worker): "
                                     "accept them once they are in, or mark the lines yourself")
            left = []
            for ln in s.scalars(select(ScorecardLineRow).where(ScorecardLineRow.scorecard_id == scorecard_id)):
                if ln.mark is None and ln.proposal is not None:
                    ln.mark, ln.marked_by, ln.marked_at = ln.proposal, by, now
                elif ln.mark is None:
                    left.append(ln.position)
        return sorted(left)

    def set_notes(self, scorecard_id: int, notes: str, recommendation: str | None = None) -> None:
        if len(notes) > MAX_NOTE:
            raise ScorecardError(f"notes are limited to {MAX_NOTE:,} characters")
        if recommendation is not None and recommendation not in RECOMMENDATIONS:
            raise ScorecardError(f"the recommendation is one of {', '.join(RECOMMENDATIONS)}")
        with self.sessions.begin() as s:
            row = self._open(s, scorecard_id)
            row.notes = notes
            if recommendation is not None:
                row.recommendation = recommendation

    def finalize(self, scorecard_id: int, now: datetime | None = None, skipped: bool = False) -> Scorecard:
        """Make the scorecard final: its score and band come from its marks; key points marked
        missed or wrong become key-point flashcards. Every line must be marked, unless
        ``skipped`` (the person skipped the review): then the machine's *trusted* proposals fill
        unmarked lines (``marked_by`` machine) and the rest stay unmarked; the score is the
        estimate (None when there is none). Raises :class:`ScorecardError` when lines are
        unmarked and not ``skipped``, or when it is already final."""
        now = now or datetime.now(UTC)
        with self.sessions.begin() as s:
            row = self._open(s, scorecard_id)
            rows = list(s.scalars(select(ScorecardLineRow).where(ScorecardLineRow.scorecard_id == scorecard_id)
                                  .order_by(ScorecardLineRow.position)))
            if skipped:
                for ln in rows:
                    if ln.mark is None and ln.proposal is not None and not ln.proposal_uncertain:
                        ln.mark, ln.marked_by, ln.marked_at = ln.proposal, "machine", now
            missing = [ln.position + 1 for ln in rows if ln.mark is None]
            if missing and not skipped:
                raise ScorecardError(
                    f"mark every line before finishing: line(s) {', '.join(map(str, missing))} "
                    "have no mark (the machine could not decide them)")
            lines = [_line(ln) for ln in rows]
            marks = {ln.position: ln.mark for ln in lines}
            scoring = [ln for ln in lines if ln.kind != "misconception" and ln.mark is not None]
            row.score, row.band = score_of(lines, marks) if scoring else (None, None)
            row.status, row.finalized_at = "final", now
            entry_id = row.entry_id
            to_card = [ln.ref for ln in lines if ln.kind == "key-point" and ln.mark in ("missed", "wrong")]
        if to_card:
            self.flashcards.add_key_point_cards(entry_id, to_card, now)
        return self.get(scorecard_id)

    # -- agreement and export ---------------------------------------------------------------
    def agreement(self) -> dict:
        """How often the machine's proposals matched what people confirmed, over final
        scorecards' lines that had a proposal and a person's mark: per line kind (accuracy and
        a confusion matrix, rows = person, columns = machine), and per answer (band of the
        machine's estimate vs the confirmed band, QWK). Uncertain proposals are counted apart."""
        cards = [c for c in self.list("final")]
        per_kind: dict[str, dict] = {}
        uncertain = Counter()
        bands: list[tuple[int, int]] = []
        left_out = 0
        for c in cards:
            for ln in c.lines:
                if ln.proposal is None or ln.marked_by in (None, "machine") or ln.mark is None:
                    continue
                if ln.proposal_uncertain:
                    uncertain["n"] += 1
                    uncertain["agree"] += ln.mark == ln.proposal
                    continue
                k = per_kind.setdefault(ln.kind, {"n": 0, "agree": 0, "confusion": Counter()})
                k["n"] += 1
                k["agree"] += ln.mark == ln.proposal
                k["confusion"][(ln.mark, ln.proposal)] += 1
            person = [ln for ln in c.lines if ln.marked_by not in (None, "machine")]
            est = c.estimate
            if person and c.band is not None and est is not None:
                bands.append((c.band, est[1]))
            elif person:
                left_out += 1
        for k in per_kind.values():
            k["accuracy"] = k["agree"] / k["n"] if k["n"] else None
        return {
            "scorecards": len(cards),
            "per_kind": per_kind,
            "uncertain": {"n": uncertain["n"], "accuracy": uncertain["agree"] / uncertain["n"] if uncertain["n"] else None},
            "bands": {"n": len(bands), "accuracy": sum(a == b for a, b in bands) / len(bands) if bands else None,
                      "qwk": qwk([a for a, _ in bands], [b for _, b in bands]) if bands else None,
                      "confusion": Counter(bands), "no_estimate": left_out},
        }

    def export_jsonl(self) -> Iterable[str]:
        """One JSON line per final scorecard marked by a person: entry, answer, marks (with the
        machine's proposal beside each), who marked, score and band — labelled data for the
        grader."""
        for c in self.list("final"):
            if not any(ln.marked_by not in (None, "machine") for ln in c.lines):
                continue
            yield json.dumps({
                "scorecard": c.id, "entry": c.entry_id, "context": c.context, "reviewer": c.reviewer,
                "prompt": c.prompt, "answer": c.answer, "score": c.score, "band": c.band,
                "band_name": BANDS.get(c.band) if c.band is not None else None, "grader": c.grader,
                "marks": [{"kind": ln.kind, "ref": ln.ref, "mark": ln.mark, "by": ln.marked_by,
                           "proposal": ln.proposal, "proposal_uncertain": ln.proposal_uncertain,
                           "note": ln.note or None} for ln in c.lines],
            }, ensure_ascii=False)


def qwk(y: list[int], p: list[int], k: int = 4) -> float:
    """Quadratic weighted kappa of two ratings in 0..k-1 (Cohen 1968); 1.0 when both are constant
    and equal."""
    o = [[0] * k for _ in range(k)]
    for a, b in zip(y, p, strict=True):
        o[a][b] += 1
    n = len(y)
    rows = [sum(r) for r in o]
    cols = [sum(o[i][j] for i in range(k)) for j in range(k)]
    num = den = 0.0
    for i in range(k):
        for j in range(k):
            w = (i - j) ** 2 / (k - 1) ** 2
            num += w * o[i][j]
            den += w * rows[i] * cols[j] / n
    return 1.0 - num / den if den else 1.0


def _line(r: ScorecardLineRow) -> Line:
    ev = (r.evidence_start, r.evidence_end, r.evidence_text or "") if r.evidence_start is not None else None
    return Line(r.position, r.kind, r.ref, r.label, r.weight, r.proposal, r.proposal_uncertain, ev, r.mark,
                r.marked_by, r.marked_at, r.note or "")


def _card(row: ScorecardRow, lines: list[ScorecardLineRow]) -> Scorecard:
    return Scorecard(row.id, row.entry_id, row.context, row.reviewer, row.status, row.answer, row.prompt,
                     row.parent_id, row.mock_item_id, row.interview_id, row.grader, row.grader_error,
                     row.machine_uncertain, row.machine_score, row.recommendation, row.notes or "", row.score,
                     row.band, row.created_at, row.finalized_at, [_line(ln) for ln in lines],
                     bool(row.machine_pending), row.feedback)
