"""Export and backup of the learner's data: an Anki deck, the review log for FSRS tools, and a
full JSON backup with restore (:mod:`torchdojo.store.backup`).

- :meth:`StudyData.anki_package`: an Anki ``.apkg`` made with ``genanki``. One note per bank
  entry (front: the question title with its level and topics; back: the short answer and the
  key points, as HTML) and, when asked, one per own card. The deck and note type ids derive
  from fixed strings and each note's GUID from the entry id, so importing a newer export into
  Anki updates the notes instead of duplicating them.
- :meth:`StudyData.reviews_csv`: the review log in the columns the FSRS optimizers read
  (open-spaced-repetition/fsrs-optimizer's "Review Logs Schema"): ``card_id`` (an integer,
  1, 2, … in the order each card was first reviewed), ``review_time`` (ms since the Unix epoch,
  UTC), ``review_rating`` (1 Again, 2 Hard, 3 Good, 4 Easy), ``review_state`` (the card's state
  *before* the review: 0 New, 1 Learning, 2 Review, 3 Relearning, from a replay of the log),
  ``review_duration`` (ms; empty when not measured), then ``torchdojo_card_id`` (the card's
  torchdojo id, which the integer stands for; tools that read columns by name ignore it).
- :meth:`StudyData.backup_json` / :meth:`StudyData.restore`: the full backup, and restore
  followed by the integrity check (every card equals the replay of its review log).

Markdown is turned into HTML by a renderer the face passes in (the web face's
``torchdojo.web.markdown.render``, which does not pass raw HTML through): this layer does not
import the faces.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import sqlite3
import tempfile
import zipfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from html import escape
from pathlib import Path

from fsrs import Rating
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from torchdojo.bank.loader import Bank
from torchdojo.bank.taxonomy import LEVELS, TOPICS
from torchdojo.practice.flashcards import CardProblem, Flashcards
from torchdojo.store import backup
from torchdojo.store.models import OwnCardRow, ReviewLogRow

#: Anki deck name (all notes go to one deck; topics and levels are tags).
DECK_NAME = "torchdojo"
REVIEW_CSV_COLUMNS = ("card_id", "review_time", "review_rating", "review_state", "review_duration",
                      "torchdojo_card_id")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)

ANKI_CSS = """.card { font-family: system-ui, sans-serif; font-size: 18px; line-height: 1.45; text-align: left;
  max-width: 42em; margin: 0 auto; }
.meta { color: #777; font-size: 0.75em; margin-top: 0.6em; }
code { font-family: ui-monospace, monospace; font-size: 0.92em; }
pre { overflow-x: auto; padding: 0.6em; background: rgba(127,127,127,0.1); }
h4 { margin: 1em 0 0.3em; }
"""
_FRONT = '<div class="question">{{Question}}</div>\n<div class="meta">{{Level}} · {{Topics}}</div>'
_BACK = '{{FrontSide}}\n<hr id="answer">\n{{Answer}}'


class ExportError(ValueError):
    """An export was asked with an unknown topic or level; the message names it."""


def stable_id(name: str) -> int:
    """A fixed Anki id (deck or note type) derived from ``name``: the same on every export, in
    the range genanki recommends (2**30 to 2**31)."""
    return (1 << 30) + int(hashlib.sha256(name.encode()).hexdigest(), 16) % (1 << 30)


def anki_model(css: str = ""):
    """The torchdojo note type: fields Question, Answer, Level, Topics, Id; one card (front and
    back). Its id is fixed (:func:`stable_id`), so re-imports update earlier notes."""
    import genanki

    return genanki.Model(
        stable_id("torchdojo note type v1"), "torchdojo question",
        fields=[{"name": "Question"}, {"name": "Answer"}, {"name": "Level"}, {"name": "Topics"}, {"name": "Id"}],
        templates=[{"name": "Card 1", "qfmt": _FRONT, "afmt": _BACK}],
        css=ANKI_CSS + css, sort_field_index=0)


@dataclass(frozen=True)
class RestoreResult:
    """A restore: rows written per table, rows deleted first (replace), and the cards whose state
    differs from the replay of their log afterwards (none for a backup torchdojo wrote)."""

    report: backup.RestoreReport
    problems: list[CardProblem]


class StudyData:
    """Export and backup over one database and bank (see the module docstring)."""

    def __init__(self, sessions: sessionmaker[Session], bank: Bank, flashcards: Flashcards) -> None:
        self.sessions = sessions
        self.bank = bank
        self.flashcards = flashcards

    # -- backup and restore ----------------------------------------------------------------
    def backup_json(self, now: datetime | None = None) -> str:
        """The full backup as JSON text (see :mod:`torchdojo.store.backup`); ``now`` (UTC) is
        the export time recorded (default: now)."""
        return backup.dumps(self.sessions, now)

    def restore(self, data: str | bytes, replace: bool = False) -> RestoreResult:
        """Restore a backup (JSON text), then compare every card with the replay of its review
        log (nothing is repaired here: ``torchdojo doctor`` does that).

        Raises :class:`torchdojo.store.backup.BackupError` for an invalid file and
        :class:`torchdojo.store.backup.NotEmptyError` for a database with data and no
        ``replace``; in both cases nothing was written."""
        report = backup.restore(self.sessions, data, replace=replace)
        return RestoreResult(report, self.flashcards.check(repair=False))

    def counts(self) -> dict[str, int]:
        """Rows per backed-up table (what a backup would hold)."""
        from sqlalchemy import func

        with self.sessions() as s:
            return {t.name: s.scalar(select(func.count()).select_from(t)) or 0 for t in backup.backup_tables()}

    # -- review log for FSRS tools ---------------------------------------------------------
    def review_rows(self) -> list[dict]:
        """The review log as rows of :data:`REVIEW_CSV_COLUMNS` (see the module docstring), in
        the order the reviews were recorded."""
        with self.sessions() as s:
            logs = list(s.scalars(select(ReviewLogRow).order_by(ReviewLogRow.id)))
        numbers: dict[str, int] = {}
        cards: dict = {}  # torchdojo id -> fsrs Card after the reviews so far
        out = []
        for log in logs:
            cid = log.question_id
            n = numbers.setdefault(cid, len(numbers) + 1)
            before = cards.get(cid)
            state = 0 if before is None else int(before.state)
            if before is None:
                before = self.flashcards.replay([], log.reviewed_at)
            cards[cid], _ = self.flashcards.scheduler.review_card(before, Rating(log.rating), log.reviewed_at)
            out.append({
                "card_id": n,
                "review_time": (log.reviewed_at - _EPOCH) // timedelta(milliseconds=1),
                "review_rating": log.rating,
                "review_state": state,
                "review_duration": "" if log.duration_ms is None else log.duration_ms,
                "torchdojo_card_id": cid,
            })
        return out

    def reviews_csv(self) -> str:
        """:meth:`review_rows` as CSV text with a header line (RFC 4180, ``\\r\\n`` line ends)."""
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=REVIEW_CSV_COLUMNS)
        w.writeheader()
        w.writerows(self.review_rows())
        return buf.getvalue()

    # -- Anki ------------------------------------------------------------------------------
    def anki_package(self, render: Callable[[str], str], topics: Iterable[str] = (), levels: Iterable[str] = (),
                     own: bool = False, css: str = "", now: datetime | None = None) -> tuple[bytes, int]:
        """An Anki package (``.apkg`` bytes) and the number of notes in it.

        ``render``: Markdown → safe HTML. ``topics``/``levels``: only entries with one of these
        topics (any of the entry's topics) and one of these levels; empty means all. ``own``:
        add the learner's own cards (those matching the same filters; an own card without a
        topic or level matches only when that filter is empty). ``css``: added to the note
        type's style (e.g. the code highlighting's). ``now``: the modification time written
        into the collection (UTC; default: now).

        Raises :class:`ExportError` for an unknown topic or level."""
        import genanki

        topics, levels = list(topics), list(levels)
        for t in topics:
            if t not in TOPICS:
                raise ExportError(f"topic: unknown topic {t!r}; known: {', '.join(TOPICS)}")
        for lv in levels:
            if lv not in LEVELS:
                raise ExportError(f"level: unknown level {lv!r}; known: {', '.join(LEVELS)}")
        model = anki_model(css)
        deck = genanki.Deck(stable_id("torchdojo deck"), DECK_NAME,
                            description="PyTorch interview questions from torchdojo (offline practice).")
        order = {lv: i for i, lv in enumerate(LEVELS)}
        topic_order = {t: i for i, t in enumerate(TOPICS)}
        entries = sorted((e for e in self.bank
                          if (not topics or set(topics) & set(e.meta.topics)) and (not levels or e.meta.level in levels)),
                         key=lambda e: (topic_order[e.primary_topic], order[e.meta.level], e.meta.title))
        for e in entries:
            m = e.meta
            answer = render(m.short_answer + "\n\n#### Key points\n\n" + "".join(f"- {k.text}\n" for k in m.key_points))
            deck.add_note(genanki.Note(
                model=model, guid=genanki.guid_for("torchdojo", e.id),
                fields=[escape(m.title), answer, m.level, escape(", ".join(TOPICS[t] for t in m.topics)), e.id],
                tags=["torchdojo", f"level::{m.level}", f"type::{m.type}", *(f"topic::{t}" for t in m.topics)]))
        if own:
            with self.sessions() as s:
                rows = list(s.scalars(select(OwnCardRow).order_by(OwnCardRow.id)))
            for r in rows:
                if (topics and r.topic not in topics) or (levels and r.level not in levels):
                    continue
                answer = render(r.back)
                kps = _own_key_points(r.key_points)
                if kps:
                    answer += render("#### Key points\n\n" + "".join(f"- {k}\n" for k in kps))
                tags = ["torchdojo", "own", *([f"level::{r.level}"] if r.level else []),
                        *([f"topic::{r.topic}"] if r.topic else [])]
                deck.add_note(genanki.Note(
                    model=model, guid=genanki.guid_for("torchdojo-own", r.id),
                    fields=[render(r.front), answer, r.level or "", escape(TOPICS.get(r.topic or "", r.topic or "")),
                            f"own:{r.id}"],
                    tags=tags))
        return _write_apkg(genanki.Package(deck), (now or datetime.now(UTC)).timestamp()), len(deck.notes)


def _own_key_points(raw: str) -> list[str]:
    try:
        kps = json.loads(raw or "[]")
    except json.JSONDecodeError:
        return []
    return [str(k) for k in kps if isinstance(k, str | int | float)] if isinstance(kps, list) else []


def _write_apkg(package, timestamp: float) -> bytes:
    """The package as ``.apkg`` bytes: genanki's collection written into a temporary folder
    that is removed afterwards (``Package.write_to_file`` leaves its temporary database behind)."""
    import itertools

    with tempfile.TemporaryDirectory(prefix="torchdojo-anki-") as tmp:
        db = Path(tmp) / "collection.anki2"
        conn = sqlite3.connect(db)
        try:
            package.write_to_db(conn.cursor(), timestamp, itertools.count(int(timestamp * 1000)))
            conn.commit()
        finally:
            conn.close()
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            z.write(db, "collection.anki2")
            z.writestr("media", "{}")
        return buf.getvalue()
