"""Flashcards over the bank, scheduled with FSRS (the ``fsrs`` package).

Each bank entry is one card (front: the question; back: short answer, key points, full
answer). A card has no row until it is first reviewed: until then it is *new*.
A *key-point card* (id ``<entry-id>#<key-point-id>``, see :func:`split_card_id`) asks for one
key point of an entry; it is created when a mock interview finds that point missed
(:meth:`Flashcards.add_key_point_cards`) and is due at once. An *own card* (id ``own:<n>``, see
:mod:`torchdojo.practice.own_cards`) is one the learner wrote; new own cards enter the queue before
new bank cards, oldest first. The review
queue shows due cards first (earliest due first), then new cards topic by topic (taxonomy order), junior first, at most
``new_per_day`` new cards a (UTC) day. Ratings are FSRS's: Again 1, Hard 2, Good 3, Easy 4.
Every review is saved in one write transaction (card state + review log) before the next card is
shown, so a crash loses nothing already rated. The transaction reads the card under the write
lock (``BEGIN IMMEDIATE`` on SQLite, ``SELECT … FOR UPDATE`` on PostgreSQL, see
:mod:`torchdojo.store.db`), so concurrent ratings of one card (two tabs, the web app and
``torchdojo study``) apply one after the other, each to the state the other left. A rating given
for a state the user did not see (``seen`` is not the card's current :attr:`CardStatus.version`:
another window rated it meanwhile) is refused with :class:`CardChangedError`, never merged.

Study settings (:mod:`torchdojo.practice.study_settings`: desired retention, FSRS parameters,
new cards and reviews per day, topics and levels) are read from the database, so every process
(the web app, ``torchdojo study``) uses the ones saved last. Suspended cards and cards buried
until a later time stay out of the queue. Cards in (re)learning due within
:data:`LEARN_AHEAD` (20 minutes, Anki's "learn ahead limit") stay in the queue after the cards due
now and the new cards, so a card rated Again still counts in what is left today.
:meth:`Flashcards.undo` removes the latest rating and rebuilds its card from the log left.

Integrity: a card's stored state always equals the replay of its review log through the
current scheduler (:meth:`Flashcards.replay`). Changing the desired retention or the FSRS
parameters therefore reschedules every card from its log in the same transaction that saves
the setting (Anki's "reschedule cards on change"); :meth:`Flashcards.check` finds cards that differ or hold an
impossible FSRS state and rebuilds them from their log (``torchdojo doctor``). A card whose state
cannot be scheduled is refused with :class:`CardStateError` (a message, not a crash).

Source: FSRS, https://github.com/open-spaced-repetition/fsrs4anki/wiki/The-Algorithm
(stability S in days, difficulty D in [1, 10], retrievability R = P(recall) now).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from fsrs import Card, Rating, Scheduler, State
from sqlalchemy import delete, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session, sessionmaker

from torchdojo.bank.loader import Bank, Entry
from torchdojo.bank.taxonomy import LEVELS, QUESTION_TYPES, TOPICS
from torchdojo.practice import own_cards
from torchdojo.practice import study_settings as st
from torchdojo.practice.own_cards import is_own_id
from torchdojo.practice.study_settings import StudySettings
from torchdojo.store.models import CardRow, OwnCardRow, ReviewLogRow

#: Cards in (re)learning due within this much time stay in the queue (Anki's learn-ahead limit).
LEARN_AHEAD = timedelta(minutes=20)

RATINGS: dict[str, Rating] = {"again": Rating.Again, "hard": Rating.Hard, "good": Rating.Good, "easy": Rating.Easy}


class UnknownEntryError(KeyError):
    """A review named an entry id (or key-point card id) the bank does not have."""


class CardChangedError(RuntimeError):
    """The card was rated elsewhere (another tab or ``torchdojo study``) after it was shown;
    the rating was not recorded."""


class CardStateError(RuntimeError):
    """A card's stored FSRS state is impossible (e.g. Relearning without a step), so it cannot
    be scheduled; ``torchdojo doctor`` rebuilds it from its review log."""


class FilterError(ValueError):
    """A filter value that is not allowed; ``field`` names the filter (``level``, ``topic``,
    ``type``, ``status`` …), ``allowed`` its values. The message says both."""

    def __init__(self, field: str, value: str, allowed: Iterable[str]) -> None:
        self.field, self.value, self.allowed = field, value, tuple(allowed)
        super().__init__(f"Unknown {field} '{value[:60]}': use one of {', '.join(self.allowed)} (or leave it empty for any).")


def check_filter(field: str, value: str | None, allowed: Iterable[str]) -> str | None:
    """``value`` if it is one of ``allowed``; None for None or "" (any). Raises :class:`FilterError`."""
    if value is None or value == "":
        return None
    allowed = tuple(allowed)
    if value not in allowed:
        raise FilterError(field, value, allowed)
    return value


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

    @classmethod
    def parse(cls, level: str | None = None, topic: str | None = None, type: str | None = None) -> Filters:
        """Filters from user input (query string, command line): None or "" means any; any other
        value must be a level, topic slug or question type of the taxonomy, else
        :class:`FilterError` (never silently ignored)."""
        return cls(level=check_filter("level", level, LEVELS), topic=check_filter("topic", topic, TOPICS),
                   type=check_filter("type", type, QUESTION_TYPES))

    def match(self, e: Entry) -> bool:
        m = e.meta
        return (
            (self.level is None or m.level == self.level)
            and (self.topic is None or self.topic in m.topics)
            and (self.type is None or m.type == self.type)
        )


@dataclass(frozen=True)
class Undone:
    """What :meth:`Flashcards.undo` removed: the card, the rating (1–4) and when it was given."""

    card_id: str
    rating: int
    reviewed_at: datetime


@dataclass(frozen=True)
class CardStatus:
    """What the queue knows about one card. ``retrievability`` is None for new cards.

    ``version`` names the state shown ("new", or the last review's time): pass it back as
    ``seen`` to :meth:`Flashcards.review` so a rating meant for this state is never applied to
    another one."""

    entry_id: str
    is_new: bool
    due: datetime | None
    stability: float | None
    difficulty: float | None
    retrievability: float | None
    version: str = "new"


def card_version(row: CardRow | None) -> str:
    """"new" for a card never reviewed, else the ISO time of its last review."""
    if row is None or row.last_review is None:
        return "new"
    return row.last_review.isoformat()


def state_problem(row: CardRow) -> str | None:
    """Why ``row`` is not a state FSRS can schedule (None when it is fine)."""
    if row.state not in (1, 2, 3):
        return f"unknown state {row.state}"
    name = State(row.state).name
    if row.state in (1, 3) and (row.step is None or row.step < 0):
        return f"{name} without a learning step"
    if row.state == 2 and row.step is not None:
        return f"Review with a learning step ({row.step})"
    if (row.stability is None) != (row.difficulty is None):
        return "stability and difficulty must both be set or both be empty"
    if row.state in (2, 3) and row.stability is None:
        return f"{name} without stability and difficulty"
    if row.stability is not None and not (math.isfinite(row.stability) and row.stability > 0):
        return f"stability {row.stability} is not a positive number of days"
    if row.difficulty is not None and not (math.isfinite(row.difficulty) and 1 <= row.difficulty <= 10):
        return f"difficulty {row.difficulty} is outside [1, 10]"
    if row.stability is not None and row.last_review is None:
        return "stability set but never reviewed"
    if row.last_review is not None and row.due < row.last_review:
        return "due before its last review"
    return None


@dataclass(frozen=True)
class CardProblem:
    """One card :meth:`Flashcards.check` found wrong: what was wrong, and whether it was repaired."""

    card_id: str
    problem: str
    repaired: bool


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
    """The fsrs Card of a row; raises :class:`CardStateError` when the row cannot be scheduled."""
    problem = state_problem(row)
    if problem is not None:
        raise CardStateError(
            f"the saved schedule of card '{row.question_id}' is damaged ({problem}), so it cannot be shown; "
            "run `torchdojo doctor` to rebuild it from its review log")
    return Card(
        card_id=0, state=State(row.state), step=row.step, stability=row.stability,
        difficulty=row.difficulty, due=row.due, last_review=row.last_review,
    )


class Flashcards:
    """The review queue and review recording for one user database."""

    def __init__(self, sessions: sessionmaker[Session], bank: Bank, desired_retention: float = 0.9,
                 new_per_day: int = 20, max_reviews_per_day: int = 200) -> None:
        """The arguments are the defaults (``TORCHDOJO_*``); study settings saved in the database
        override them (:meth:`refresh`, run by every queue read and every write)."""
        self.sessions = sessions
        self.bank = bank
        #: The settings that apply when the learner saved none.
        self.defaults = StudySettings(desired_retention=desired_retention, new_per_day=new_per_day,
                                      max_reviews_per_day=max_reviews_per_day)
        self._rows: dict[str, str] | None = None  # the stored settings rows last applied
        self.apply(self.defaults)
        # The bank does not change while running: its orders and groupings are computed once.
        self._ordered = sorted(bank, key=_learning_order)
        self._by_topic = {slug: [e for e in bank if slug in e.meta.topics] for slug in TOPICS}
        self._topic_ids = {slug: [e.id for e in entries] for slug, entries in self._by_topic.items()}
        self._ordered_ids = [e.id for e in self._ordered]

    # -- study settings --------------------------------------------------------------------
    def apply(self, study: StudySettings) -> None:
        """Use ``study`` from now on (in this process; nothing is written). Fuzzing stays off:
        intervals are reproducible, and a review's outcome can be explained."""
        self.study = study
        self.new_per_day = study.new_per_day
        self.max_reviews_per_day = study.max_reviews_per_day
        self.scheduler: Scheduler = study.scheduler()

    def refresh(self, s: Session | None = None) -> StudySettings:
        """Apply the study settings saved in the database if they changed since last applied
        (one light query; another process may have saved them). Returns those in force."""
        if s is None:
            with self.sessions() as s2:
                return self.refresh(s2)
        rows = st.read_rows(s)
        if rows != self._rows:
            self.apply(st.from_rows(rows, self.defaults))
            self._rows = rows
        return self.study

    def save_settings(self, values: dict[str, Any], now: datetime | None = None) -> StudySettings:
        """Validate and save study settings (key or CLI name → value); when the desired retention
        or the FSRS parameters change, reschedule every card by replaying its review log through
        the new scheduler, in the same write transaction. Returns the settings in force.

        Raises :class:`torchdojo.practice.study_settings.StudySettingsError` (naming each bad
        field and its allowed values; nothing is written)."""
        with self.sessions.begin() as s:
            old = st.load(s, self.defaults)
            new = st.save(s, values, self.defaults, now)
            self._rescheduled(s, old, new)
        self._rows = None
        self.refresh()
        return self.study

    def reset_settings(self, names: Iterable[str] | None = None) -> StudySettings:
        """Return settings to their defaults (None: all of them), rescheduling as
        :meth:`save_settings` does. Raises ``StudySettingsError`` for an unknown name."""
        with self.sessions.begin() as s:
            old = st.load(s, self.defaults)
            new = st.reset(s, names, self.defaults)
            self._rescheduled(s, old, new)
        self._rows = None
        self.refresh()
        return self.study

    def _rescheduled(self, s: Session, old: StudySettings, new: StudySettings) -> None:
        """Replay every card through ``new``'s scheduler when it differs from ``old``'s."""
        if any(getattr(old, k) != getattr(new, k) for k in st.SCHEDULER_KEYS):
            self._check(s, repair=True, scheduler=new.scheduler())

    def sample_interval(self, desired_retention: float, stability: float = 10.0) -> timedelta:
        """The Good interval of a sample review card (``stability`` days, reviewed when due)
        under ``desired_retention`` and the current FSRS parameters: what a retention change does."""
        study = self.study.model_copy(update={"desired_retention": desired_retention})
        sched = study.scheduler()
        t0 = datetime(2026, 1, 1, tzinfo=UTC)
        card = Card(card_id=0, state=State.Review, stability=stability, difficulty=5.0, last_review=t0,
                    due=t0 + timedelta(days=round(stability)))
        card2, _ = sched.review_card(card, Rating.Good, card.due)
        return card2.due - card.due

    def _in_scope(self, e: Entry) -> bool:
        """Whether the study settings' topics and levels let ``e``'s cards into the queue."""
        s = self.study
        # an own card without a level (or topic) is not held back by a level (or topic) choice
        return ((not s.levels or not e.meta.level or e.meta.level in s.levels)
                and (not s.topics or not e.meta.topics or any(t in s.topics for t in e.meta.topics)))

    # -- cards ---------------------------------------------------------------------------
    def card(self, card_id: str):
        """(entry, key point or None) for a card id; raises :class:`UnknownEntryError`.

        An own card (``own:<id>``, :mod:`torchdojo.practice.own_cards`) is looked up in the
        database and returned as an :class:`Entry` view (:meth:`OwnCard.as_entry`)."""
        if is_own_id(card_id):
            return self._own_entry(card_id), None
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

    def _own_entry(self, card_id: str) -> Entry:
        rid = own_cards.parse_own_id(card_id)
        with self.sessions() as s:
            row = s.get(OwnCardRow, rid) if rid is not None else None
            if row is None:
                raise UnknownEntryError(card_id)
            return own_cards._row_to_card(row).as_entry()

    def _entry_of(self, card_id: str, own: dict[str, Entry] | None = None) -> Entry | None:
        """The entry of a card the bank still has (None for a card whose entry or key point is gone);
        own cards are looked up in ``own`` (:func:`own_cards.entries`) when given."""
        if own is not None and is_own_id(card_id):
            return own.get(card_id)
        try:
            return self.card(card_id)[0]
        except UnknownEntryError:
            return None

    # -- reading -------------------------------------------------------------------------
    def new_introduced_today(self, now: datetime) -> int:
        """New entry cards first reviewed since midnight UTC (key-point cards do not count)."""
        with self.sessions() as s:
            return self._introduced_today(s, now)

    def _introduced_today(self, s: Session, now: datetime) -> int:
        return s.scalar(select(func.count()).select_from(CardRow).where(
            CardRow.created_at >= _day_start(now), CardRow.last_review.is_not(None),
            ~CardRow.question_id.contains(KP_SEP))) or 0

    def _reviews_today(self, s: Session, now: datetime) -> int:
        """Reviews since midnight UTC of cards first studied before today: what counts against
        ``max_reviews_per_day`` (new cards' learning steps count against ``new_per_day``)."""
        day = _day_start(now)
        return s.scalar(select(func.count()).select_from(ReviewLogRow).join(
            CardRow, CardRow.question_id == ReviewLogRow.question_id).where(
            ReviewLogRow.reviewed_at >= day, CardRow.created_at < day)) or 0

    def status(self, entry_id: str, now: datetime | None = None) -> CardStatus:
        now = now or datetime.now(UTC)
        with self.sessions() as s:
            self.refresh(s)
            row = s.get(CardRow, entry_id)
        if row is None or row.last_review is None:  # never reviewed (a row may exist: buried, suspended)
            return CardStatus(entry_id, True, None, None, None, None)
        card = _to_card(row)
        return CardStatus(entry_id, False, row.due, row.stability, row.difficulty,
                          self.scheduler.get_card_retrievability(card, now), card_version(row))

    def _due_map(self, s: Session) -> dict[str, datetime]:
        """Card id → due, for every card reviewed at least once (one light query: two columns)."""
        return dict(s.execute(select(CardRow.question_id, CardRow.due).where(CardRow.last_review.is_not(None))).all())

    def _read_plan(self, filters: Filters, now: datetime, learn_ahead: timedelta):
        with self.sessions() as s:
            self.refresh(s)
            rows = s.execute(select(CardRow.question_id, CardRow.due, CardRow.created_at, CardRow.state,
                                    CardRow.suspended, CardRow.buried_until, CardRow.last_review)).all()
            reviews_today = self._reviews_today(s, now)
            own = own_cards.entries(s)
        return rows, self._plan(rows, reviews_today, filters, now, learn_ahead, own)

    def _plan(self, rows, reviews_today: int, filters: Filters, now: datetime, learn_ahead: timedelta,
              own: dict[str, Entry]) -> tuple[list[str], list[str], list[str]]:
        """(due now, new, (re)learning due within ``learn_ahead``) — the queue's three parts —
        from one read of the cards. Honours the filters, the study settings' topics and levels,
        suspend and bury, the review cap (review-state cards only) and the new-card limit. ``own``:
        the own cards (:func:`own_cards.entries`); new ones come first, oldest first."""
        day = _day_start(now)
        due: list[tuple[datetime, str, bool]] = []
        ahead: list[tuple[datetime, str]] = []
        held: set[str] = set()  # rows that are not new cards any more, or are out of the queue
        introduced = 0
        for cid, d, created, state, suspended, buried, last in rows:
            kp = KP_SEP in cid
            if last is not None and created >= day and not kp:
                introduced += 1
            if last is not None or kp or suspended or (buried is not None and buried > now):
                held.add(cid)
            if suspended or (buried is not None and buried > now):
                continue
            if last is None and not kp:
                continue  # a new card with a row (it was buried or suspended once): in the new pool
            e = self._entry_of(cid, own)
            if e is None or not filters.match(e) or not self._in_scope(e):
                continue
            if d <= now:
                due.append((d, cid, state == State.Review))
            elif state != State.Review and d <= now + learn_ahead:
                ahead.append((d, cid))
        due.sort(key=lambda x: x[0])  # ties keep the order the cards were created in
        room_reviews = max(0, self.max_reviews_per_day - reviews_today)
        due_ids = []
        for _, cid, is_review in due:
            if is_review:
                if room_reviews == 0:
                    continue
                room_reviews -= 1
            due_ids.append(cid)
        room = max(0, self.new_per_day - introduced)
        new = [] if room == 0 else [
            e.id for e in [*own.values(), *self._ordered]
            if e.id not in held and filters.match(e) and self._in_scope(e)][:room]
        ahead.sort(key=lambda x: x[0])
        return due_ids, new, [cid for _, cid in ahead]

    def queue(self, filters: Filters = Filters(), now: datetime | None = None, limit: int = 100,
              learn_ahead: timedelta = LEARN_AHEAD) -> list[str]:
        """Card ids to review now, in order: due cards (earliest first), then new cards, then
        cards in (re)learning due within ``learn_ahead`` (earliest first). ``now``: UTC."""
        now = now or datetime.now(UTC)
        _, (due, new, ahead) = self._read_plan(filters, now, learn_ahead)
        return (due + new + ahead)[:limit]

    def reviews_since(self, since: datetime) -> int:
        """Number of reviews recorded at or after ``since`` (one COUNT query)."""
        with self.sessions() as s:
            return s.scalar(select(func.count()).select_from(ReviewLogRow).where(ReviewLogRow.reviewed_at >= since)) or 0

    def due_split(self, filters: Filters = Filters(), now: datetime | None = None) -> tuple[int, int]:
        """(cards due now or in (re)learning due within :data:`LEARN_AHEAD`, new cards available
        now): the parts of :meth:`queue`, counted."""
        now = now or datetime.now(UTC)
        _, (due, new, ahead) = self._read_plan(filters, now, LEARN_AHEAD)
        return len(due) + len(ahead), len(new)

    def overview(self, now: datetime | None = None) -> tuple[list[TopicProgress], int, int]:
        """(:meth:`progress`, due reviews, new cards available) from one read: the home page."""
        now = now or datetime.now(UTC)
        rows, (due, new, ahead) = self._read_plan(Filters(), now, LEARN_AHEAD)  # one read of the cards
        dues = {r[0]: r[1] for r in rows if r[6] is not None}
        return self._progress(dues, now, Filters()), len(due) + len(ahead), len(new)

    def progress(self, now: datetime | None = None, filters: Filters = Filters()) -> list[TopicProgress]:
        """Due / new / learned counts for every topic that has entries (an entry counts once per topic)."""
        now = now or datetime.now(UTC)
        with self.sessions() as s:
            dues = self._due_map(s)
        return self._progress(dues, now, filters)

    def _progress(self, dues: dict[str, datetime], now: datetime, filters: Filters) -> list[TopicProgress]:
        out = []
        for slug, name in TOPICS.items():
            ids = self._topic_ids[slug] if filters == Filters() else [
                e.id for e in self._by_topic[slug] if filters.match(e)]
            if not ids:
                continue
            seen = [d for i in ids if (d := dues.get(i)) is not None]
            due = sum(1 for d in seen if d <= now)
            out.append(TopicProgress(slug, name, len(ids), due, len(ids) - len(seen), len(seen)))
        return out

    def preview(self, entry_id: str, now: datetime | None = None) -> dict[str, timedelta]:
        """For each rating, how long until the card would be due again if rated so now."""
        now = now or datetime.now(UTC)
        with self.sessions() as s:
            self.refresh(s)
            row = s.get(CardRow, entry_id)
        card = _to_card(row) if row else Card(card_id=0, due=now)
        return {name: self.scheduler.review_card(card, r, now)[0].due - now for name, r in RATINGS.items()}

    # -- writing -------------------------------------------------------------------------
    def review(self, entry_id: str, rating: Rating | str, now: datetime | None = None,
               duration_ms: int | None = None, seen: str | None = None) -> CardStatus:
        """Record a rating for ``entry_id`` and reschedule it; committed before returning.

        ``now`` defaults to the time the write lock was taken, so the review log's order is the
        order the reviews were applied in. ``seen``: the :attr:`CardStatus.version` the user
        rated (None: rate whatever the current state is).

        Raises :class:`UnknownEntryError` for an id not in the bank, ``KeyError`` for an
        unknown rating name, :class:`CardChangedError` when ``seen`` is not the current
        version, :class:`CardStateError` when the stored state cannot be scheduled.
        """
        self.card(entry_id)  # raises UnknownEntryError
        rating = RATINGS[rating.lower()] if isinstance(rating, str) else rating
        with self.sessions.begin() as s:
            now = now or datetime.now(UTC)
            self.refresh(s)
            row = s.get(CardRow, entry_id, with_for_update=True)
            if seen is not None and seen != card_version(row):
                raise CardChangedError(
                    f"card '{entry_id}' was rated elsewhere after you saw it; your rating was not recorded")
            if row is None:
                row = self._create_row(s, entry_id, now)
            elif row.last_review is None and KP_SEP not in entry_id:
                row.created_at = now  # a new card with a row (buried or suspended once): introduced now
            card, _log = self.scheduler.review_card(_to_card(row), rating, now)
            _store(row, card)
            s.add(ReviewLogRow(question_id=entry_id, rating=int(rating), reviewed_at=now, duration_ms=duration_ms))
        return self.status(entry_id, now)

    def _create_row(self, s: Session, card_id: str, now: datetime) -> CardRow:
        """The row of a new card (FSRS Learning, step 0, due now), created idempotently: a row
        another writer created meanwhile is kept (INSERT … ON CONFLICT DO NOTHING)."""
        card = Card(card_id=0, due=now)
        insert = postgresql.insert if s.get_bind().dialect.name == "postgresql" else sqlite.insert
        s.execute(insert(CardRow).values(
            question_id=card_id, state=int(card.state), step=card.step, stability=None, difficulty=None,
            due=now, last_review=None, created_at=now).on_conflict_do_nothing(index_elements=["question_id"]))
        return s.get(CardRow, card_id, with_for_update=True, populate_existing=True)

    def undo(self, now: datetime | None = None) -> Undone | None:
        """Undo the most recent rating (of any card): delete that review-log row and rebuild the
        card from the log left (replay). A card left with no review becomes new again: its row
        is deleted (so today's new-card count goes back down), unless the row must stay (a
        key-point card, or a card suspended or buried until after ``now``, UTC), which is reset
        to the new state. One write transaction, locked as :meth:`review` is. Returns what was
        undone, or None when there is no review."""
        with self.sessions.begin() as s:
            now = now or datetime.now(UTC)
            self.refresh(s)
            last = s.scalars(select(ReviewLogRow).order_by(ReviewLogRow.id.desc()).limit(1).with_for_update()).first()
            if last is None:
                return None
            cid = last.question_id
            undone = Undone(cid, last.rating, last.reviewed_at)
            row = s.get(CardRow, cid, with_for_update=True)
            s.delete(last)
            s.flush()
            rest = list(s.scalars(select(ReviewLogRow).where(ReviewLogRow.question_id == cid).order_by(ReviewLogRow.id)))
            if row is not None:
                keep = KP_SEP in cid or row.suspended or (row.buried_until is not None and row.buried_until > now)
                if not rest and not keep:
                    s.execute(delete(CardRow).where(CardRow.question_id == cid))
                else:
                    created = rest[0].reviewed_at if rest and rest[0].reviewed_at < row.created_at else row.created_at
                    _store(row, self.replay(rest, created))
        return undone

    def bury(self, card_id: str, now: datetime | None = None) -> datetime:
        """Take a card out of the queue until the next midnight UTC after ``now``; returns that
        time. A new card gets its row (new state, no review). Raises :class:`UnknownEntryError`."""
        self.card(card_id)
        now = now or datetime.now(UTC)
        until = _day_start(now) + timedelta(days=1)
        with self.sessions.begin() as s:
            row = s.get(CardRow, card_id, with_for_update=True) or self._create_row(s, card_id, now)
            row.buried_until = until
        return until

    def suspend(self, card_id: str, now: datetime | None = None) -> None:
        """Take a card out of the queue until :meth:`unsuspend` (Anki's suspend); its schedule is
        kept. A new card gets its row (new state, no review). Raises :class:`UnknownEntryError`."""
        self.card(card_id)
        now = now or datetime.now(UTC)
        with self.sessions.begin() as s:
            row = s.get(CardRow, card_id, with_for_update=True) or self._create_row(s, card_id, now)
            row.suspended = True

    def unsuspend(self, card_id: str) -> bool:
        """Put a suspended card back in the queue; False when it was not suspended."""
        with self.sessions.begin() as s:
            row = s.get(CardRow, card_id, with_for_update=True)
            if row is None or not row.suspended:
                return False
            row.suspended = False
            return True

    def suspended(self) -> list[str]:
        """Ids of the suspended cards, sorted."""
        with self.sessions() as s:
            return list(s.scalars(select(CardRow.question_id).where(CardRow.suspended).order_by(CardRow.question_id)))

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
                    self._create_row(s, cid, now)
                    created.append(cid)
        return created

    # -- integrity -----------------------------------------------------------------------
    def replay(self, logs: Iterable[ReviewLogRow], created_at: datetime, scheduler: Scheduler | None = None) -> Card:
        """The state a card must have: its review log (in the order recorded) replayed through
        ``scheduler`` (default: the current one) from a new card created at ``created_at``."""
        scheduler = scheduler or self.scheduler
        card = Card(card_id=0, due=created_at)
        for log in logs:
            card, _ = scheduler.review_card(card, Rating(log.rating), log.reviewed_at)
        return card

    def damaged(self) -> list[str]:
        """Ids of cards whose stored state FSRS cannot schedule (cheap: one pass over the cards,
        run at start-up)."""
        with self.sessions() as s:
            return [r.question_id for r in s.scalars(select(CardRow)) if state_problem(r) is not None]

    def check(self, repair: bool = True) -> list[CardProblem]:
        """Compare every card with the replay of its review log; with ``repair``, rebuild each
        card that differs (or holds an impossible state) from its log, in one transaction.

        A due date that alone differs is reported too (the desired retention may have changed
        since; the replay uses the current one). Returns one :class:`CardProblem` per card found
        wrong, in card id order."""
        with self.sessions.begin() if repair else self.sessions() as s:
            self.refresh(s)
            return self._check(s, repair, self.scheduler)

    def _check(self, s: Session, repair: bool, scheduler: Scheduler) -> list[CardProblem]:
        out: list[CardProblem] = []
        logs: dict[str, list[ReviewLogRow]] = {}
        for log in s.scalars(select(ReviewLogRow).order_by(ReviewLogRow.id)):
            logs.setdefault(log.question_id, []).append(log)
        for row in s.scalars(select(CardRow).order_by(CardRow.question_id)):
            own = logs.get(row.question_id, [])
            created = own[0].reviewed_at if own and own[0].reviewed_at < row.created_at else row.created_at
            want = self.replay(own, created, scheduler)
            problem = state_problem(row) or _differs(row, want)
            if problem is None:
                continue
            if repair:
                _store(row, want)
            out.append(CardProblem(row.question_id, problem, repair))
        return out

    def review_count(self) -> int:
        """Number of reviews in the log (all time)."""
        with self.sessions() as s:
            return s.scalar(select(func.count()).select_from(ReviewLogRow)) or 0

    def optimize(self):
        """Fit the FSRS parameters to this learner's review log (``fsrs.Optimizer``, run in a
        child process: it imports torch). Nothing is saved: pass the result's ``parameters`` to
        :meth:`save_settings` (``fsrs_parameters``) to use them, which reschedules every card.

        Returns :class:`torchdojo.practice.optimizer.Optimization` (review counts, parameters,
        log loss before and after). Raises :class:`torchdojo.practice.optimizer.NotEnoughReviewsError`
        below :data:`torchdojo.practice.optimizer.MIN_REVIEWS` reviews that count for training,
        :class:`torchdojo.practice.optimizer.OptimizerError` when the optimiser fails."""
        from torchdojo.practice import optimizer

        self.refresh()
        return optimizer.optimize(self.history(), self.study.fsrs_parameters)

    def history(self, entry_ids: Iterable[str] | None = None) -> list[ReviewLogRow]:
        """Review-log rows (of ``entry_ids``, or all), oldest first."""
        with self.sessions() as s:
            q = select(ReviewLogRow).order_by(ReviewLogRow.reviewed_at, ReviewLogRow.id)
            if entry_ids is not None:
                q = q.where(ReviewLogRow.question_id.in_(list(entry_ids)))
            return list(s.scalars(q))


def _day_start(now: datetime) -> datetime:
    """Midnight UTC at the start of ``now``'s day."""
    return now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)


def _store(row: CardRow, card: Card) -> None:
    """Write every scheduling field of ``card`` into ``row`` (all of them, always together)."""
    row.state, row.step = int(card.state), card.step
    row.stability, row.difficulty = card.stability, card.difficulty
    row.due, row.last_review = card.due, card.last_review


def _close(a: float | None, b: float | None) -> bool:
    return (a is None and b is None) or (a is not None and b is not None and math.isclose(a, b, rel_tol=1e-9))


def _differs(row: CardRow, want: Card) -> str | None:
    """How the stored state differs from its replay (None: it does not)."""
    diffs = []
    if row.state != int(want.state) or row.step != want.step:
        diffs.append(f"state {State(row.state).name}/step {row.step}, log says {want.state.name}/step {want.step}")
    if not _close(row.stability, want.stability):
        diffs.append(f"stability {row.stability}, log says {want.stability}")
    if not _close(row.difficulty, want.difficulty):
        diffs.append(f"difficulty {row.difficulty}, log says {want.difficulty}")
    if row.last_review != want.last_review:
        diffs.append(f"last review {row.last_review}, log says {want.last_review}")
    if row.due != want.due:
        diffs.append(f"due {row.due}, log says {want.due}")
    return "; ".join(diffs) or None
