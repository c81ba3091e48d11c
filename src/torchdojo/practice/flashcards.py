"""Flashcards over the bank, scheduled with FSRS (the ``fsrs`` package).

Each bank entry is one card (front: the question; back: short answer, key points, full
answer). A card has no row until it is first reviewed: until then it is *new*.
A *key-point card* (id ``<entry-id>#<key-point-id>``, see :func:`split_card_id`) asks for one
key point of an entry; it is created when a mock interview finds that point missed
(:meth:`Flashcards.add_key_point_cards`) and is due at once. The review
queue shows due cards first (earliest due first), then new cards topic by topic (taxonomy order), junior first, at most
``new_per_day`` new cards a (UTC) day. Ratings are FSRS's: Again 1, Hard 2, Good 3, Easy 4.
Every review is saved in one transaction (card state + review log) before the next card is
shown, so a crash loses nothing already rated.

Source: FSRS, https://github.com/open-spaced-repetition/fsrs4anki/wiki/The-Algorithm
(stability S in days, difficulty D in [1, 10], retrievability R = P(recall) now).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from fsrs import Card, Rating, Scheduler, State
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from torchdojo.bank.loader import Bank, Entry
from torchdojo.bank.taxonomy import TOPICS
from torchdojo.store.models import CardRow, ReviewLogRow

RATINGS: dict[str, Rating] = {"again": Rating.Again, "hard": Rating.Hard, "good": Rating.Good, "easy": Rating.Easy}


class UnknownEntryError(KeyError):
    """A review named an entry id (or key-point card id) the bank does not have."""


KP_SEP = "#"


def split_card_id(card_id: str) -> tuple[str, str | None]:
    """``"entry"`` → ("entry", None); ``"entry#key-point"`` → ("entry", "key-point")."""
    entry_id, sep, kp = card_id.partition(KP_SEP)
    return entry_id, (kp if sep else None)


def key_point_card_id(entry_id: str, key_point_id: str) -> str:
    return f"{entry_id}{KP_SEP}{key_point_id}"


@dataclass(frozen=True)
class Filters:
    """Restrict the queue to entries of a level, topic and/or type (None: any)."""

    level: str | None = None
    topic: str | None = None
    type: str | None = None

    def match(self, e: Entry) -> bool:
        m = e.meta
        return (
            (self.level is None or m.level == self.level)
            and (self.topic is None or self.topic in m.topics)
            and (self.type is None or m.type == self.type)
        )


@dataclass(frozen=True)
class CardStatus:
    """What the queue knows about one card. ``retrievability`` is None for new cards."""

    entry_id: str
    is_new: bool
    due: datetime | None
    stability: float | None
    difficulty: float | None
    retrievability: float | None


@dataclass(frozen=True)
class TopicProgress:
    """Per-topic counts: ``due`` review cards due now, ``new`` never-reviewed, ``learned`` reviewed."""

    topic: str
    name: str
    total: int
    due: int
    new: int
    learned: int


_TOPIC_ORDER = {t: i for i, t in enumerate(TOPICS)}
_LEVEL_ORDER = {"junior": 0, "mid": 1, "senior": 2}


def _learning_order(e: Entry) -> tuple[int, int, str]:
    """New cards come topic by topic (taxonomy order), easier levels first."""
    return (_TOPIC_ORDER[e.primary_topic], _LEVEL_ORDER[e.meta.level], e.id)


def _to_card(row: CardRow) -> Card:
    return Card(
        card_id=0, state=State(row.state), step=row.step, stability=row.stability,
        difficulty=row.difficulty, due=row.due, last_review=row.last_review,
    )


class Flashcards:
    """The review queue and review recording for one user database."""

    def __init__(self, sessions: sessionmaker[Session], bank: Bank, desired_retention: float = 0.9,
                 new_per_day: int = 20) -> None:
        self.sessions = sessions
        self.bank = bank
        self.new_per_day = new_per_day
        # Fuzzing off: intervals are reproducible, and a review's outcome can be explained.
        self.scheduler = Scheduler(desired_retention=desired_retention, enable_fuzzing=False)

    # -- cards ---------------------------------------------------------------------------
    def card(self, card_id: str):
        """(entry, key point or None) for a card id; raises :class:`UnknownEntryError`."""
        entry_id, kp_id = split_card_id(card_id)
        entry = self.bank.get(entry_id)
        if entry is None:
            raise UnknownEntryError(card_id)
        if kp_id is None:
            return entry, None
        kp = next((k for k in entry.meta.key_points if k.id == kp_id), None)
        if kp is None:
            raise UnknownEntryError(card_id)
        return entry, kp

    def _entry_of(self, card_id: str) -> Entry | None:
        """The entry of a card the bank still has (None for a card whose entry or key point is gone)."""
        try:
            return self.card(card_id)[0]
        except UnknownEntryError:
            return None

    # -- reading -------------------------------------------------------------------------
    def _rows(self, s: Session) -> dict[str, CardRow]:
        return {r.question_id: r for r in s.scalars(select(CardRow))}

    def new_introduced_today(self, now: datetime) -> int:
        day_start = now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
        with self.sessions() as s:
            return s.scalar(select(func.count()).select_from(CardRow).where(
                CardRow.created_at >= day_start, ~CardRow.question_id.contains(KP_SEP))) or 0

    def status(self, entry_id: str, now: datetime | None = None) -> CardStatus:
        now = now or datetime.now(UTC)
        with self.sessions() as s:
            row = s.get(CardRow, entry_id)
        if row is None:
            return CardStatus(entry_id, True, None, None, None, None)
        card = _to_card(row)
        return CardStatus(entry_id, False, row.due, row.stability, row.difficulty,
                          self.scheduler.get_card_retrievability(card, now))

    def queue(self, filters: Filters = Filters(), now: datetime | None = None, limit: int = 100) -> list[str]:
        """Entry ids to review now, in order: due cards (earliest first), then new cards."""
        now = now or datetime.now(UTC)
        with self.sessions() as s:
            rows = self._rows(s)
        due = sorted(
            (r for r in rows.values()
             if r.due <= now and (e := self._entry_of(r.question_id)) and filters.match(e)),
            key=lambda r: r.due,
        )
        ids = [r.question_id for r in due]
        room = max(0, self.new_per_day - self.new_introduced_today(now))
        new = [e.id for e in sorted(self.bank, key=_learning_order) if e.id not in rows and filters.match(e)][:room]
        return (ids + new)[:limit]

    def reviews_since(self, since: datetime) -> int:
        """Number of reviews recorded at or after ``since`` (one COUNT query)."""
        with self.sessions() as s:
            return s.scalar(select(func.count()).select_from(ReviewLogRow).where(ReviewLogRow.reviewed_at >= since)) or 0

    def due_split(self, filters: Filters = Filters(), now: datetime | None = None) -> tuple[int, int]:
        """(review cards due now, new cards available now) — the two parts of :meth:`queue`."""
        now = now or datetime.now(UTC)
        queue = self.queue(filters, now, limit=len(self.bank) + 1)
        with self.sessions() as s:
            known = set(s.scalars(select(CardRow.question_id)))
        due = sum(1 for i in queue if i in known)
        return due, len(queue) - due

    def progress(self, now: datetime | None = None, filters: Filters = Filters()) -> list[TopicProgress]:
        """Due / new / learned counts for every topic that has entries (an entry counts once per topic)."""
        now = now or datetime.now(UTC)
        with self.sessions() as s:
            rows = self._rows(s)
        out = []
        for slug, name in TOPICS.items():
            entries = [e for e in self.bank if slug in e.meta.topics and filters.match(e)]
            if not entries:
                continue
            due = sum(1 for e in entries if e.id in rows and rows[e.id].due <= now)
            new = sum(1 for e in entries if e.id not in rows)
            out.append(TopicProgress(slug, name, len(entries), due, new, len(entries) - new))
        return out

    def preview(self, entry_id: str, now: datetime | None = None) -> dict[str, timedelta]:
        """For each rating, how long until the card would be due again if rated so now."""
        now = now or datetime.now(UTC)
        with self.sessions() as s:
            row = s.get(CardRow, entry_id)
        card = _to_card(row) if row else Card(card_id=0, due=now)
        return {name: self.scheduler.review_card(card, r, now)[0].due - now for name, r in RATINGS.items()}

    # -- writing -------------------------------------------------------------------------
    def review(self, entry_id: str, rating: Rating | str, now: datetime | None = None,
               duration_ms: int | None = None) -> CardStatus:
        """Record a rating for ``entry_id`` and reschedule it; committed before returning.

        Raises :class:`UnknownEntryError` for an id not in the bank, ``KeyError`` for an
        unknown rating name.
        """
        self.card(entry_id)  # raises UnknownEntryError
        rating = RATINGS[rating.lower()] if isinstance(rating, str) else rating
        now = now or datetime.now(UTC)
        with self.sessions.begin() as s:
            row = s.get(CardRow, entry_id)
            card = _to_card(row) if row else Card(card_id=0, due=now)
            card, _log = self.scheduler.review_card(card, rating, now)
            if row is None:
                row = CardRow(question_id=entry_id, created_at=now)
                s.add(row)
            row.state, row.step = int(card.state), card.step
            row.stability, row.difficulty = card.stability, card.difficulty
            row.due, row.last_review = card.due, card.last_review
            s.flush()
            s.add(ReviewLogRow(question_id=entry_id, rating=int(rating), reviewed_at=now, duration_ms=duration_ms))
        return self.status(entry_id, now)

    def add_key_point_cards(self, entry_id: str, key_point_ids: Iterable[str], now: datetime | None = None) -> list[str]:
        """Put a card for each key point in the queue, due now (FSRS Learning, step 0); returns
        the ids of cards created. Cards that already exist keep their schedule."""
        now = now or datetime.now(UTC)
        created = []
        with self.sessions.begin() as s:
            for kp in key_point_ids:
                cid = key_point_card_id(entry_id, kp)
                self.card(cid)
                if s.get(CardRow, cid) is None:
                    card = Card(card_id=0, due=now)
                    s.add(CardRow(question_id=cid, state=int(card.state), step=card.step, stability=None,
                                  difficulty=None, due=now, last_review=None, created_at=now))
                    created.append(cid)
        return created

    def history(self, entry_ids: Iterable[str] | None = None) -> list[ReviewLogRow]:
        with self.sessions() as s:
            q = select(ReviewLogRow).order_by(ReviewLogRow.reviewed_at)
            if entry_ids is not None:
                q = q.where(ReviewLogRow.question_id.in_(list(entry_ids)))
            return list(s.scalars(q))
