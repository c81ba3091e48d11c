"""Interviewer mode: a person runs an interview with a kit and marks a scorecard live.

For a hiring manager, a mentor or a study partner. The flow (both faces call exactly these
methods):

1. :meth:`Interviews.kit` picks the questions: the mock interviews' per-level
   :data:`~torchdojo.practice.mock.BLUEPRINTS` (type and level mix, topics spread) restricted
   to bank entries — coding entries are asked as discussion questions, never as judged
   challenges. Level, topics, types and the number of questions can be chosen.
2. :meth:`Interviews.start` stores the interview (``open``) with one scorecard per question
   (context ``interview``, reviewer ``interviewer``). There is no answer and no machine
   proposal: the interviewer marks every line (key point, misconception, STAR part, design
   item) while listening, with a note beside the mark. Every mark is committed as it is set.
3. :meth:`Interviews.set_overall` records the recommendation (strong-no / no / yes / strong-yes,
   :data:`RUBRIC` says what each means) and the notes.
4. :meth:`Interviews.finalize` makes every scorecard final (lines left unmarked stay unmarked;
   a question with no scoring line marked has no score) and then the interview; afterwards
   every change is refused with :class:`InterviewFinal`.
5. :meth:`Interviews.markdown` and :meth:`Interviews.pdf` export the scorecard.

The candidate's misses are not the interviewer's to study: unlike self-review, finishing an
interview adds no key-point flashcards to this user's deck.
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from torchdojo.bank.loader import Bank, Entry
from torchdojo.bank.taxonomy import LEVELS, QUESTION_TYPES, TOPICS
from torchdojo.grading.feedback import BANDS, band_of
from torchdojo.practice.mock import BLUEPRINTS, MockConfig, MockError, MockInterviews
from torchdojo.practice.scorecards import (
    MAX_NOTE,
    RECOMMENDATIONS,
    REVIEWERS,
    Scorecard,
    ScorecardError,
    Scorecards,
)
from torchdojo.store.models import InterviewRow, ScorecardLineRow, ScorecardRow

#: What each overall recommendation means (shown beside the choice and in the export).
RUBRIC: dict[str, str] = {
    "strong-no": "Well below the bar for the level: essential points missed or wrong, or a misconception "
                 "on core material that follow-ups did not repair.",
    "no": "Below the bar: several key points missed or only partly covered; needed hints on what the "
          "level should know unaided.",
    "yes": "At the bar: the essential points covered and explained correctly; gaps minor and closed "
           "with a follow-up.",
    "strong-yes": "Above the bar: complete, precise answers; follow-ups handled with depth, trade-offs "
                  "and examples from experience.",
}
#: The recommendation the mean question band suggests (a hint: the interviewer decides).
SUGGESTED = {0: "strong-no", 1: "no", 2: "yes", 3: "strong-yes"}
KIND_NAMES = {"key-point": "Key point", "misconception": "Misconception", "star": "STAR", "design": "Design"}
MAX_NAME = 200
MAX_COUNT = 15


class InterviewError(ValueError):
    """An interview request that cannot be done (bad set-up, bad mark…); the message says why."""


class InterviewNotFound(InterviewError):
    """No interview, scorecard or line with that id in this interview."""


class InterviewFinal(InterviewError):
    """The interview is final: its marks, notes and recommendation can no longer change."""


@dataclass
class Question:
    """One kit question with its scorecard."""

    position: int
    entry: Entry
    card: Scorecard

    @property
    def score(self) -> int | None:
        return self.card.score if self.card.final else (self.card.current or (None, None))[0]

    @property
    def band(self) -> int | None:
        return self.card.band if self.card.final else (self.card.current or (None, None))[1]


@dataclass
class Interview:
    id: int
    level: str
    topics: list[str]
    types: list[str]
    entry_ids: list[str]
    candidate: str
    interviewer: str
    status: str
    recommendation: str | None
    notes: str
    created_at: datetime
    finalized_at: datetime | None
    questions: list[Question] = field(default_factory=list)

    @property
    def final(self) -> bool:
        return self.status == "final"

    @property
    def scorecards(self) -> list[Scorecard]:
        return [q.card for q in self.questions]

    @property
    def marked(self) -> tuple[int, int]:
        """(lines marked, lines) over every question."""
        lines = [ln for q in self.questions for ln in q.card.lines]
        return sum(ln.mark is not None for ln in lines), len(lines)

    @property
    def mean_score(self) -> float | None:
        """Mean score of the questions that have one (unscored questions are left out)."""
        scores = [q.score for q in self.questions if q.score is not None]
        return sum(scores) / len(scores) if scores else None

    @property
    def suggested(self) -> str | None:
        """The recommendation the mean score's band suggests (None with no score yet)."""
        m = self.mean_score
        return None if m is None else SUGGESTED[band_of(round(m))]


class _NoCards:
    """Flashcards stand-in for finalising interview scorecards: the candidate's gaps do not go
    into the interviewer's deck."""

    def add_key_point_cards(self, *_args, **_kwargs) -> list[str]:
        return []


class _Planner(MockInterviews):
    """The mock planner, leaving out the entries of ``exclude``."""

    def __init__(self, sessions, bank: Bank, exclude: set[str]) -> None:
        super().__init__(sessions, bank, None)
        self.exclude = exclude

    def _entry_candidates(self, qtype: str, level: str | None, config: MockConfig):
        return [c for c in super()._entry_candidates(qtype, level, config) if c[1] not in self.exclude]


def follow_ups(bank: Bank, entry: Entry) -> list[str]:
    """The follow-up questions of ``entry`` as an interviewer asks them: the ``text``, or the
    title of the linked entry (``ref``), or both."""
    out = []
    for f in entry.meta.follow_ups:
        linked = bank.get(f.ref) if f.ref else None
        title = linked.meta.title if linked else f.ref
        if f.text and title:
            out.append(f"{f.text} (see: {title})")
        else:
            out.append(f.text or title or "")
    return out


class Interviews:
    """Interviews over one bank and user database; ``scorecards`` holds the marks."""

    def __init__(self, sessions, bank: Bank, scorecards: Scorecards) -> None:
        self.sessions = sessions
        self.bank = bank
        self.scorecards = scorecards
        self._finisher = Scorecards(sessions, bank, _NoCards())  # finalize without flashcards

    # -- the kit -----------------------------------------------------------------------------
    def kit(self, level: str, topics: Sequence[str] | None = None, types: Sequence[str] | None = None,
            count: int | None = None, seed: int | None = None, exclude: Collection[str] = ()) -> list[str]:
        """Entry ids for an interview at ``level``: the level's blueprint mix (see the module
        docstring), ``count`` questions (1–15; None: the blueprint's default duration's worth),
        none of the entries in ``exclude`` (a peer mock's second kit leaves out the first's).
        Raises :class:`InterviewError` for an unknown level/topic/type, a count out of range,
        or a set-up the bank has nothing for."""
        if level not in LEVELS:
            raise InterviewError(f"unknown level '{str(level)[:40]}': use one of {', '.join(LEVELS)}")
        for t in topics or ():
            if t not in TOPICS:
                raise InterviewError(f"unknown topic '{str(t)[:40]}': use slugs from {', '.join(TOPICS)}")
        for t in types or ():
            if t not in QUESTION_TYPES:
                raise InterviewError(f"unknown type '{str(t)[:40]}': use one of {', '.join(QUESTION_TYPES)}")
        if count is not None and not 1 <= count <= MAX_COUNT:
            raise InterviewError(f"the number of questions must be between 1 and {MAX_COUNT}")
        bp = BLUEPRINTS[level]
        minutes = math.ceil(count * bp.minutes_per_item) if count else None
        if minutes is not None:
            minutes = max(5, minutes)
        cfg = MockConfig(level=level, minutes=minutes, topics=tuple(topics) if topics else None,
                         types=tuple(types) if types else None, use_judge=False, seed=seed)
        try:
            planned = _Planner(self.sessions, self.bank, set(exclude)).plan(cfg)
        except MockError as e:
            raise InterviewError(str(e)) from None
        ids = [ref for kind, ref in planned if kind == "question"]
        return ids[:count] if count else ids

    # -- running -----------------------------------------------------------------------------
    def start(self, kit: Sequence[str], candidate: str = "", interviewer: str = "", *, level: str | None = None,
              topics: Sequence[str] = (), types: Sequence[str] = (), now: datetime | None = None) -> int:
        """Store an open interview over the entries ``kit`` with one unmarked scorecard per
        question; returns its id. ``level`` (default: the most common level of the kit),
        ``topics`` and ``types`` are recorded with the kit. Raises :class:`InterviewError` for
        an empty kit, an unknown or repeated entry, or over-long names."""
        kit = list(kit)
        if not kit:
            raise InterviewError("the kit has no questions")
        if len(kit) > MAX_COUNT * 4:
            raise InterviewError(f"a kit holds at most {MAX_COUNT * 4} questions")
        unknown = [e for e in kit if self.bank.get(e) is None]
        if unknown:
            raise InterviewError(f"the bank has no entry '{str(unknown[0])[:80]}'")
        if len(set(kit)) != len(kit):
            raise InterviewError("a question appears twice in the kit")
        candidate, interviewer = (candidate or "").strip(), (interviewer or "").strip()
        if len(candidate) > MAX_NAME or len(interviewer) > MAX_NAME:
            raise InterviewError(f"names are limited to {MAX_NAME} characters")
        if level is None:
            levels = [self.bank.entries[e].meta.level for e in kit]
            level = max(LEVELS, key=levels.count)
        elif level not in LEVELS:
            raise InterviewError(f"unknown level '{str(level)[:40]}': use one of {', '.join(LEVELS)}")
        now = now or datetime.now(UTC)
        doc = {"level": level, "topics": list(topics), "types": list(types), "entries": kit}
        with self.sessions.begin() as s:
            row = InterviewRow(kit=json.dumps(doc), candidate=candidate, interviewer=interviewer, status="open",
                               notes="", created_at=now)
            s.add(row)
            s.flush()
            for entry_id in kit:
                self.scorecards.create(entry_id, answer="", fb=None, context="interview", reviewer="interviewer",
                                       interview_id=row.id, now=now, s=s)
            return row.id

    def receive(self, source: Interview, key: str, candidate: str = "", interviewer: str = "",
                reviewer: str = "peer") -> int:
        """Keep, in this (the candidate's) store, a copy of ``source``: a *final* interview
        someone else ran over this user in their own store (a peer mock's half,
        :mod:`torchdojo.team.peer`). The copy is a final interview with the same kit,
        recommendation and notes, and one final scorecard per question (context ``interview``,
        reviewer ``reviewer``) with every line's mark, note and the question's notes, score and
        band; marks a person set are recorded as set by ``reviewer``. No flashcards are made.

        Idempotent by ``key`` (at most 100 characters): a second call with the same key returns
        the first copy's id (checked and written in one write transaction of this store).
        Returns the copy's interview id. Raises :class:`InterviewError` when ``source`` is not
        final or ``key`` is empty or too long."""
        if not source.final:
            raise InterviewError(f"interview #{source.id} is not finished: only a final scorecard is passed on")
        if not key or len(key) > 100:
            raise InterviewError("a copy's key has 1 to 100 characters")
        if reviewer not in REVIEWERS:
            raise InterviewError(f"reviewer must be one of {', '.join(REVIEWERS)}")
        doc = {"level": source.level, "topics": source.topics, "types": source.types,
               "entries": source.entry_ids, "received": key}
        marker = json.dumps({"received": key})[1:-1]  # '"received": "<key>"', as json.dumps writes it in doc
        with self.sessions.begin() as s:
            for row in s.scalars(select(InterviewRow).where(InterviewRow.kit.contains(marker))):
                if json.loads(row.kit).get("received") == key:
                    return row.id
            row = InterviewRow(kit=json.dumps(doc), candidate=candidate.strip()[:MAX_NAME],
                               interviewer=interviewer.strip()[:MAX_NAME], status="final",
                               recommendation=source.recommendation, notes=source.notes,
                               created_at=source.created_at, finalized_at=source.finalized_at)
            s.add(row)
            s.flush()
            for card in source.scorecards:
                sc = ScorecardRow(entry_id=card.entry_id, context="interview", reviewer=reviewer,
                                  interview_id=row.id, answer="", grader=None, grader_error=None,
                                  machine_uncertain=False, machine_score=None, status="final",
                                  recommendation=source.recommendation, notes=card.notes, score=card.score,
                                  band=card.band, created_at=card.created_at, finalized_at=card.finalized_at)
                s.add(sc)
                s.flush()
                for ln in card.lines:
                    by = reviewer if ln.marked_by not in (None, "machine") else ln.marked_by
                    s.add(ScorecardLineRow(
                        scorecard_id=sc.id, position=ln.position, kind=ln.kind, ref=ln.ref, label=ln.label,
                        weight=ln.weight, proposal=ln.proposal, proposal_uncertain=ln.proposal_uncertain,
                        evidence_start=ln.evidence[0] if ln.evidence else None,
                        evidence_end=ln.evidence[1] if ln.evidence else None,
                        evidence_text=ln.evidence[2] if ln.evidence else None,
                        mark=ln.mark, marked_by=by, marked_at=ln.marked_at, note=ln.note))
            return row.id

    # -- reading -----------------------------------------------------------------------------
    def get(self, interview_id: int) -> Interview:
        """The interview with its questions and scorecards. Raises :class:`InterviewNotFound`."""
        with self.sessions() as s:
            row = s.get(InterviewRow, interview_id)
            if row is None:
                raise InterviewNotFound(f"there is no interview #{interview_id}")
        cards = self.scorecards.for_interview(interview_id)
        doc = json.loads(row.kit)
        questions = [Question(i, self.bank.get(c.entry_id), c) for i, c in enumerate(cards)
                     if self.bank.get(c.entry_id) is not None]
        return Interview(row.id, doc.get("level", ""), doc.get("topics", []), doc.get("types", []),
                         doc.get("entries", []), row.candidate or "", row.interviewer or "", row.status,
                         row.recommendation, row.notes or "", row.created_at, row.finalized_at, questions)

    def list(self) -> list[Interview]:
        """Every interview, newest first (without loading their scorecards' lines twice)."""
        with self.sessions() as s:
            ids = list(s.scalars(select(InterviewRow.id).order_by(InterviewRow.id.desc())))
        return [self.get(i) for i in ids]

    # -- marking -----------------------------------------------------------------------------
    def _check_open(self, s: Session, interview_id: int, lock: bool = False) -> InterviewRow:
        row = s.get(InterviewRow, interview_id, with_for_update=lock)
        if row is None:
            raise InterviewNotFound(f"there is no interview #{interview_id}")
        if row.status == "final":
            raise InterviewFinal(f"interview #{interview_id} is finished: its scorecard can no longer change")
        return row

    def _card_of(self, s: Session, interview_id: int, scorecard_id: int) -> ScorecardRow:
        card = s.get(ScorecardRow, scorecard_id)
        if card is None or card.interview_id != interview_id:
            raise InterviewNotFound(f"interview #{interview_id} has no scorecard #{scorecard_id}")
        return card

    def mark(self, interview_id: int, scorecard_id: int, position: int, mark: str | None,
             note: str | None = None, now: datetime | None = None):
        """Set one line's ``mark`` (a mark name or its key "1".."n"; None: keep the mark and
        only save ``note``) and/or its ``note``; committed before returning. Returns the line
        (:class:`~torchdojo.practice.scorecards.Line`). Raises :class:`InterviewNotFound`,
        :class:`InterviewFinal` or :class:`InterviewError` (a mark the line does not take)."""
        if note is not None and len(note) > MAX_NOTE:
            raise InterviewError(f"a note is limited to {MAX_NOTE:,} characters")
        with self.sessions() as s:
            self._check_open(s, interview_id)
            self._card_of(s, interview_id, scorecard_id)
            if s.scalar(select(ScorecardLineRow.id).where(ScorecardLineRow.scorecard_id == scorecard_id,
                                                          ScorecardLineRow.position == position)) is None:
                raise InterviewNotFound(f"scorecard #{scorecard_id} has no line {position + 1}")
        try:
            if mark:
                return self.scorecards.set_mark(scorecard_id, position, mark, by="interviewer", note=note, now=now)
            return self._set_note(scorecard_id, position, note or "")
        except ScorecardError as e:
            with self.sessions() as s:
                self._check_open(s, interview_id)  # finished meanwhile: say so
            raise InterviewError(str(e)) from None

    def _set_note(self, scorecard_id: int, position: int, note: str):
        from torchdojo.practice.scorecards import _line

        with self.sessions.begin() as s:
            self.scorecards._open(s, scorecard_id)
            ln = s.scalar(select(ScorecardLineRow).where(ScorecardLineRow.scorecard_id == scorecard_id,
                                                         ScorecardLineRow.position == position))
            if ln is None:
                raise ScorecardError(f"scorecard #{scorecard_id} has no line {position + 1}")
            ln.note = note
            return _line(ln)

    def set_question_notes(self, interview_id: int, scorecard_id: int, notes: str) -> None:
        """The interviewer's notes on one question. Raises like :meth:`mark`."""
        if len(notes) > MAX_NOTE:
            raise InterviewError(f"notes are limited to {MAX_NOTE:,} characters")
        with self.sessions() as s:
            self._check_open(s, interview_id)
            self._card_of(s, interview_id, scorecard_id)
        try:
            self.scorecards.set_notes(scorecard_id, notes)
        except ScorecardError as e:
            with self.sessions() as s:
                self._check_open(s, interview_id)
            raise InterviewError(str(e)) from None

    def set_overall(self, interview_id: int, recommendation: str | None, notes: str | None = None) -> None:
        """The overall recommendation (one of :data:`RECOMMENDATIONS`, None: not decided) and
        notes (None: unchanged). Raises :class:`InterviewError`/:class:`InterviewFinal`."""
        if recommendation is not None and recommendation not in RECOMMENDATIONS:
            raise InterviewError(f"the recommendation is one of {', '.join(RECOMMENDATIONS)}")
        if notes is not None and len(notes) > MAX_NOTE:
            raise InterviewError(f"notes are limited to {MAX_NOTE:,} characters")
        with self.sessions.begin() as s:
            row = self._check_open(s, interview_id, lock=True)
            row.recommendation = recommendation
            if notes is not None:
                row.notes = notes

    def finalize(self, interview_id: int, now: datetime | None = None) -> Interview:
        """Finish the interview: every scorecard is made final (unmarked lines stay unmarked; a
        question with no scoring line marked has no score), then the interview. Raises
        :class:`InterviewNotFound` or :class:`InterviewFinal` (already finished)."""
        now = now or datetime.now(UTC)
        with self.sessions() as s:
            self._check_open(s, interview_id)
        for card in self.scorecards.for_interview(interview_id):
            if not card.final:  # a finish interrupted half-way resumes here
                try:
                    self._finisher.finalize(card.id, now=now, skipped=True)
                except ScorecardError:  # finalised concurrently by another request
                    pass
        with self.sessions.begin() as s:
            row = self._check_open(s, interview_id, lock=True)
            row.status, row.finalized_at = "final", now
        return self.get(interview_id)

    # -- export ------------------------------------------------------------------------------
    def markdown(self, interview_id: int) -> str:
        """The scorecard as Markdown: who, when, level, the overall recommendation with its
        rubric and notes, a summary, then per question its marks with notes, score and band and
        the interviewer's notes. Raises :class:`InterviewNotFound`."""
        iv = self.get(interview_id)
        out = [f"# Interview scorecard: {_inline(iv.candidate) or 'candidate not named'}", ""]
        done, total = iv.marked
        out += [
            f"- **Candidate:** {_inline(iv.candidate) or '—'}",
            f"- **Interviewer:** {_inline(iv.interviewer) or '—'}",
            f"- **Date:** {iv.created_at:%Y-%m-%d %H:%M} UTC"
            + (f" (finished {iv.finalized_at:%Y-%m-%d %H:%M} UTC)" if iv.finalized_at else ""),
            f"- **Level:** {iv.level} · {len(iv.questions)} questions"
            + (f" · topics: {', '.join(TOPICS.get(t, t) for t in iv.topics)}" if iv.topics else "")
            + (f" · types: {', '.join(iv.types)}" if iv.types else ""),
            f"- **Status:** {'final' if iv.final else 'open (not finished: marks may still change)'}"
            f" · {done} of {total} lines marked",
            "",
            "## Overall recommendation",
            "",
        ]
        if iv.recommendation:
            out += [f"**{_rec_name(iv.recommendation)}** — {RUBRIC[iv.recommendation]}", ""]
        else:
            out += ["*No recommendation recorded.*", ""]
        mean = iv.mean_score
        if mean is not None:
            out += [f"Mean question score {mean:.0f} ({BANDS[band_of(round(mean))]}); the scores suggest "
                    f"*{_rec_name(iv.suggested)}*.", ""]
        if iv.notes.strip():
            out += ["**Notes:**", "", *_quote(iv.notes), ""]
        out += ["Recommendation rubric:", "", *(f"- *{_rec_name(r)}*: {RUBRIC[r]}" for r in RECOMMENDATIONS), ""]
        out += ["## Summary", "", "| # | Question | Type | Level | Score | Band |", "|---|---|---|---|---|---|"]
        for q in iv.questions:
            m = q.entry.meta
            out.append(f"| {q.position + 1} | {_cell(m.title)} | {m.type} | {m.level} | {_score(q)} | "
                       f"{BANDS[q.band] if q.band is not None else '—'} |")
        out.append("")
        for q in iv.questions:
            m = q.entry.meta
            out += [f"## {q.position + 1}. {_inline(m.title)}", "",
                    f"{m.type} · {m.level} · {', '.join(TOPICS.get(t, t) for t in m.topics)}", "",
                    f"**Score:** {_score(q)}" + (f" ({BANDS[q.band]})" if q.band is not None else ""), "",
                    "| Line | Weight | Mark | Note |", "|---|---|---|---|"]
            for ln in q.card.lines:
                weight = str(ln.weight) if ln.kind != "misconception" else "cap"
                out.append(f"| {KIND_NAMES[ln.kind]}: {_cell(ln.label)} | {weight} | "
                           f"{('**' + ln.mark + '**') if ln.mark else '*unmarked*'} | {_cell(ln.note)} |")
            out.append("")
            if q.card.notes.strip():
                out += ["**Interviewer's notes:**", "", *_quote(q.card.notes), ""]
        out += ["---", "", "Score per question: covered/present 1, partly 0.5, missed/absent/wrong 0, weighted by "
                "each line's weight; a stated misconception or a wrong essential point caps the band at weak. "
                "Bands: 0–24 wrong, 25–49 weak, 50–74 adequate, 75–100 excellent. Exported by torchdojo.", ""]
        return "\n".join(out)

    def html(self, interview_id: int) -> str:
        """The Markdown export as a standalone HTML document (print styles included)."""
        from torchdojo.bank.markup import parser

        md = parser("commonmark", {"linkify": False})
        iv = self.get(interview_id)
        title = f"Interview scorecard #{iv.id}"
        body = md.render(self.markdown(interview_id))
        return (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{_esc(title)}</title>'
                f"<style>{PDF_CSS}</style></head><body>{body}</body></html>")

    def pdf(self, interview_id: int) -> bytes:
        """The scorecard as a PDF (A4), rendered from :meth:`html` with WeasyPrint. Nothing is
        fetched from the network or the disk while rendering."""
        from weasyprint import HTML

        def no_fetch(url: str, *_a, **_k):
            raise ValueError(f"not fetched while rendering a scorecard: {url[:80]}")

        return HTML(string=self.html(interview_id), url_fetcher=no_fetch).write_pdf()


PDF_CSS = """
@page { size: A4; margin: 18mm 16mm 20mm;
  @bottom-center { content: "torchdojo interview scorecard · page " counter(page) " of " counter(pages);
                   font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif;
                   font-size: 8pt; color: #666; } }
body { font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; font-size: 10pt; line-height: 1.4;
       color: #1d232b; }
h1 { font-size: 17pt; margin: 0 0 8pt; }
h2 { font-size: 12.5pt; margin: 16pt 0 4pt; border-bottom: 1px solid #ccd; padding-bottom: 2pt;
     break-after: avoid; }
table { border-collapse: collapse; width: 100%; margin: 4pt 0 8pt; font-size: 9pt; }
th, td { border: 1px solid #ccd; padding: 3pt 5pt; text-align: left; vertical-align: top; }
th { background: #f0f2f5; }
tr { break-inside: avoid; }
blockquote { margin: 4pt 0 8pt; padding: 2pt 8pt; border-left: 3px solid #e8502e; color: #333; }
code { font-family: "DejaVu Sans Mono", monospace; font-size: 8.5pt; }
ul { padding-left: 14pt; }
hr { border: 0; border-top: 1px solid #ccd; margin: 14pt 0 6pt; }
hr + p { font-size: 8pt; color: #555; }
"""


def _rec_name(r: str | None) -> str:
    return (r or "").replace("-", " ").capitalize()


def _score(q: Question) -> str:
    return str(q.score) if q.score is not None else "not scored"


def _inline(text: str) -> str:
    """One line of user text for a Markdown line (newlines folded)."""
    return " ".join((text or "").split())


def _cell(text: str) -> str:
    """User or bank text for a Markdown table cell: one line, pipes escaped."""
    return _inline(text).replace("|", "\\|")


def _quote(text: str) -> list[str]:
    return [f"> {line}" if line.strip() else ">" for line in text.strip().splitlines()]


def _esc(text: str) -> str:
    from html import escape

    return escape(text)
