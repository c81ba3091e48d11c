"""Study statistics: what the learner did, how well they remember, what is coming (Anki-style).

Every function reads the user database and returns plain dataclasses; none writes. Each takes
an explicit ``now`` (a timezone-aware datetime, converted to UTC) so the numbers are
reproducible: *days are UTC days* (``now``'s UTC date is "today"), and reviews recorded after
``now`` are left out. The faces show these numbers as they are (``torchdojo stats``, ``/stats``).

Definitions (also in ``docs/study.md``, "Statistics"):

- **Reviews and time per day** (:func:`review_activity`): reviews recorded on each UTC day of
  the last N days (today last); time is the sum of the reviews' ``duration_ms`` in minutes.
  A review with no recorded duration adds 0 minutes and is counted in ``untimed``.
- **Due forecast** (:func:`due_forecast`): cards falling due on each of the next N UTC days;
  day 0 is today and includes every overdue card (due before today). Suspended cards are left
  out; a buried card counts on the day it comes back (``max(due, buried_until)``); cards whose
  bank entry (or key point, or own card) is gone are left out, as the review queue leaves them.
- **True retention** (:func:`true_retention`, Anki's definition): among reviews of cards that
  were in the FSRS *Review* state when reviewed, the share not rated Again. Learning and
  Relearning reviews do not count. A review is *young* when the card's interval before it
  (its scheduled interval: ``due - last_review`` of the state it was reviewed in, in days, as
  Anki's ``lastIvl``) was under 21 days, *mature* otherwise. Given for the last 30 UTC days
  (today included) and all time, each with its count ``n`` (the value is None when n = 0).
  The state and interval at each review are not stored: they come from replaying each card's
  review log, in the order recorded, through the flashcards' FSRS scheduler
  (:meth:`Flashcards.replay`'s logic). The review log alone cannot give them: whether a card
  had graduated from its learning steps, and its interval, depend on the scheduler. The replay
  is what the stored card state is checked against (``torchdojo doctor``), so both agree; if
  the desired retention changed since, intervals are the ones the current scheduler gives.
- **Per topic** (:func:`topic_stats`, taxonomy order): a card belongs to every topic of its
  bank entry (a key-point card ``entry#kp`` to its entry's topics, an own card ``own:<id>`` to
  its chosen topic). ``learned``: cards reviewed at least once by ``now``; ``retention``: all-time
  true retention of those cards; ``mean_stability``: mean FSRS stability in days;
  ``mean_retrievability``: mean probability of recall at ``now``. Stability and retrievability
  come from the same replay (equal to the stored card state, which ``torchdojo doctor`` checks;
  the replay also gives the state *at* ``now`` when later reviews exist).
- **Heat map** (:func:`heat_map`): reviews per UTC day for the last 365 days, with a grid
  position (column: week, Monday first; row: weekday, 0 = Monday) and a level 0–4
  (0: none; otherwise ``ceil(4 * reviews / max)``).
- **Mock scores** (:func:`mock_scores`): the overall score (0–100) of each graded mock
  interview, oldest first, with its level and when it finished.
- **Challenges by topic** (:func:`challenge_stats`): a challenge is *solved* once it has an
  Accepted submission (mode ``submit``), *attempted* when it has any other submission; a
  challenge counts in each of its topics (``challenge.yaml``).

Sources: Anki manual, "Statistics" (true retention, young/mature at 21 days,
https://docs.ankiweb.net/stats.html); FSRS (stability S in days, retrievability R = P(recall)).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from fsrs import Card, Rating, Scheduler, State
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from torchdojo.bank.loader import Bank
from torchdojo.bank.taxonomy import TOPICS
from torchdojo.practice.flashcards import split_card_id
from torchdojo.store.models import CardRow, MockRow, OwnCardRow, ReviewLogRow, SubmissionRow

#: Anki's threshold: a review whose interval before it was at least this many days is mature.
MATURE_DAYS = 21
#: The longest window any series may ask for, in days.
MAX_DAYS = 365
OWN_PREFIX = "own:"
_VALID_RATINGS = frozenset(int(r) for r in Rating)


# -- results ----------------------------------------------------------------------------
@dataclass(frozen=True)
class DayActivity:
    """One UTC day: ``reviews`` recorded, ``minutes`` spent (from ``duration_ms``), and how many
    of those reviews had no duration (``untimed``, counted as 0 minutes)."""

    day: date
    reviews: int
    minutes: float
    untimed: int


@dataclass(frozen=True)
class Activity:
    """Reviews and time per day over ``len(days)`` UTC days (oldest first, today last), with totals."""

    days: list[DayActivity]

    @property
    def reviews(self) -> int:
        return sum(d.reviews for d in self.days)

    @property
    def minutes(self) -> float:
        return sum(d.minutes for d in self.days)

    @property
    def untimed(self) -> int:
        return sum(d.untimed for d in self.days)

    @property
    def days_studied(self) -> int:
        return sum(1 for d in self.days if d.reviews)

    @property
    def today(self) -> int:
        return self.days[-1].reviews if self.days else 0

    def last(self, n: int) -> int:
        """Reviews in the last ``n`` days (today included)."""
        return sum(d.reviews for d in self.days[-n:]) if n > 0 else 0

    @property
    def max_reviews(self) -> int:
        return max((d.reviews for d in self.days), default=0)


@dataclass(frozen=True)
class ForecastDay:
    """Cards due on UTC day ``day`` (``offset`` days from today; offset 0 includes overdue cards)."""

    offset: int
    day: date
    due: int


@dataclass(frozen=True)
class Forecast:
    """Cards due on each of the next ``len(days)`` UTC days; ``overdue``: due before today
    (already inside day 0)."""

    days: list[ForecastDay]
    overdue: int

    @property
    def total(self) -> int:
        return sum(d.due for d in self.days)

    @property
    def today(self) -> int:
        return self.days[0].due if self.days else 0

    @property
    def tomorrow(self) -> int:
        return self.days[1].due if len(self.days) > 1 else 0

    def next(self, n: int) -> int:
        """Cards due within the first ``n`` days (day 0, overdue included, to day n - 1)."""
        return sum(d.due for d in self.days[:n])

    @property
    def max_due(self) -> int:
        return max((d.due for d in self.days), default=0)


@dataclass(frozen=True)
class Rate:
    """``passed`` of ``n`` reviews; ``value`` is the share in [0, 1], None when n = 0."""

    passed: int = 0
    n: int = 0

    @property
    def value(self) -> float | None:
        return self.passed / self.n if self.n else None

    @property
    def percent(self) -> str:
        """"87.5%", or "—" when there is nothing to measure."""
        return "—" if not self.n else f"{100 * self.passed / self.n:.1f}%"

    def __add__(self, other: Rate) -> Rate:
        return Rate(self.passed + other.passed, self.n + other.n)


@dataclass(frozen=True)
class RetentionWindow:
    """True retention of young (interval < 21 d) and mature (≥ 21 d) reviews over one window."""

    young: Rate
    mature: Rate

    @property
    def total(self) -> Rate:
        return self.young + self.mature


@dataclass(frozen=True)
class TrueRetention:
    """True retention over the last 30 UTC days (today included) and over all time."""

    last_30: RetentionWindow
    all_time: RetentionWindow


@dataclass(frozen=True)
class TopicStats:
    """One topic: ``learned`` cards (reviewed at least once), their all-time true ``retention``,
    mean stability (days) and mean retrievability at ``now`` (None when no card has a state)."""

    topic: str
    name: str
    learned: int
    retention: Rate
    mean_stability: float | None
    mean_retrievability: float | None


@dataclass(frozen=True)
class HeatDay:
    """One cell of the heat map: ``week`` (column, 0 = oldest), ``weekday`` (row, 0 = Monday),
    ``level`` 0–4."""

    day: date
    reviews: int
    week: int
    weekday: int
    level: int


@dataclass(frozen=True)
class HeatLevel:
    """Legend line: level ``level`` shows days with ``low``–``high`` reviews."""

    level: int
    low: int
    high: int


@dataclass(frozen=True)
class HeatMap:
    """Reviews per UTC day for the last ``len(days)`` days (oldest first) on a week × weekday grid."""

    days: list[HeatDay]
    weeks: int
    max_reviews: int
    legend: list[HeatLevel]

    @property
    def reviews(self) -> int:
        return sum(d.reviews for d in self.days)

    @property
    def days_studied(self) -> int:
        return sum(1 for d in self.days if d.reviews)


@dataclass(frozen=True)
class MockScore:
    """A graded mock interview: overall ``score`` 0–100, ``level``, ``finished`` (UTC; the start
    time when the finish time is missing)."""

    mock_id: int
    finished: datetime
    level: str
    score: float


@dataclass(frozen=True)
class ChallengeTopic:
    """Challenges of one topic: ``solved`` (an Accepted submission), ``attempted`` (submissions,
    none Accepted), of ``total``."""

    topic: str
    name: str
    total: int
    solved: int
    attempted: int


@dataclass(frozen=True)
class ChallengeStats:
    """Challenges solved and attempted, overall (each challenge once) and per topic (taxonomy order)."""

    topics: list[ChallengeTopic]
    total: int
    solved: int
    attempted: int


@dataclass(frozen=True)
class StudyStats:
    """Everything the stats page and ``torchdojo stats`` show, computed at ``now`` (UTC)."""

    now: datetime
    activity: Activity
    heat_map: HeatMap
    forecast: Forecast
    retention: TrueRetention
    topics: list[TopicStats]
    mocks: list[MockScore]
    challenges: ChallengeStats


@dataclass(frozen=True)
class ReviewFact:
    """One review with the state the card was in when reviewed (from the replay).

    ``state``: the card's fsrs.State before the rating; ``interval_days``: its scheduled
    interval then (``due - last_review``, days; None for a card never reviewed before)."""

    card_id: str
    reviewed_at: datetime
    rating: int
    duration_ms: int | None
    state: State
    interval_days: float | None

    @property
    def counts_for_retention(self) -> bool:
        return self.state == State.Review

    @property
    def mature(self) -> bool:
        return self.interval_days is not None and self.interval_days >= MATURE_DAYS

    @property
    def passed(self) -> bool:
        return self.rating != int(Rating.Again)


# -- helpers ----------------------------------------------------------------------------
def _utc(now: datetime) -> datetime:
    if now.tzinfo is None:
        raise ValueError("naive datetime: pass a timezone-aware (UTC) datetime as now")
    return now.astimezone(UTC)


def utc_day(t: datetime) -> date:
    """The UTC calendar day of an aware datetime."""
    return t.astimezone(UTC).date()


def _day_start(d: date) -> datetime:
    return datetime(d.year, d.month, d.day, tzinfo=UTC)


def _load_logs(s: Session, now: datetime) -> list[ReviewLogRow]:
    """Every review recorded at or before ``now``, in the order recorded (log id)."""
    return list(s.scalars(select(ReviewLogRow).where(ReviewLogRow.reviewed_at <= now).order_by(ReviewLogRow.id)))


def replay_facts(logs: Iterable[ReviewLogRow], scheduler: Scheduler) -> list[ReviewFact]:
    """Replay each card's review log (in the order given) through ``scheduler`` from a new card,
    recording the state and scheduled interval each review was given in. Returns one
    :class:`ReviewFact` per log row, in the order given."""
    return _replay(logs, scheduler)[0]


def _replay(logs: Iterable[ReviewLogRow], scheduler: Scheduler) -> tuple[list[ReviewFact], dict[str, Card]]:
    """(:func:`replay_facts`, each card's state after its last review given)."""
    cards: dict[str, Card] = {}
    out = []
    for log in logs:
        card = cards.get(log.question_id) or Card(card_id=0, due=log.reviewed_at)
        interval = ((card.due - card.last_review).total_seconds() / 86400
                    if card.last_review is not None else None)
        out.append(ReviewFact(log.question_id, log.reviewed_at, log.rating, log.duration_ms, card.state, interval))
        if log.rating in _VALID_RATINGS:  # a damaged row (torchdojo doctor reports it) changes nothing here
            cards[log.question_id], _ = scheduler.review_card(card, Rating(log.rating), log.reviewed_at)
        else:
            cards[log.question_id] = card
    return out, cards


def _activity(facts: Iterable[ReviewFact | ReviewLogRow], now: datetime, days: int) -> Activity:
    """Per-day counts from anything with ``reviewed_at`` and ``duration_ms`` (facts or log rows)."""
    today = utc_day(now)
    first = today - timedelta(days=days - 1)
    count = [0] * days
    ms = [0] * days
    untimed = [0] * days
    for f in facts:
        i = (utc_day(f.reviewed_at) - first).days
        if 0 <= i < days:
            count[i] += 1
            if f.duration_ms is None:
                untimed[i] += 1
            else:
                ms[i] += max(0, f.duration_ms)
    return Activity([DayActivity(first + timedelta(days=i), count[i], ms[i] / 60000, untimed[i]) for i in range(days)])


def _window(facts: Iterable[ReviewFact]) -> RetentionWindow:
    young = mature = Rate()
    for f in facts:
        if not f.counts_for_retention:
            continue
        r = Rate(int(f.passed), 1)
        if f.mature:
            mature += r
        else:
            young += r
    return RetentionWindow(young, mature)


def _retention(facts: list[ReviewFact], now: datetime) -> TrueRetention:
    since = _day_start(utc_day(now) - timedelta(days=29))
    return TrueRetention(_window(f for f in facts if f.reviewed_at >= since), _window(facts))


def _heat(facts: Iterable[ReviewFact | ReviewLogRow], now: datetime, days: int) -> HeatMap:
    act = _activity(facts, now, days)
    first = act.days[0].day
    monday = first - timedelta(days=first.weekday())
    top = act.max_reviews

    def level(c: int) -> int:
        return 0 if c == 0 else min(4, math.ceil(4 * c / top))

    cells = [HeatDay(d.day, d.reviews, (d.day - monday).days // 7, d.day.weekday(), level(d.reviews)) for d in act.days]
    legend: dict[int, list[int]] = {}
    for c in range(1, top + 1):
        lv = level(c)
        legend.setdefault(lv, [c, c])[1] = c
    return HeatMap(cells, (cells[-1].week + 1) if cells else 0, top,
                   [HeatLevel(lv, lo, hi) for lv, (lo, hi) in sorted(legend.items())])


def _card_exists(card_id: str, bank: Bank, own_ids: set[int]) -> bool:
    if card_id.startswith(OWN_PREFIX):
        tail = card_id[len(OWN_PREFIX):]
        return tail.isdigit() and int(tail) in own_ids
    entry_id, kp = split_card_id(card_id)
    entry = bank.get(entry_id)
    if entry is None:
        return False
    return kp is None or any(k.id == kp for k in entry.meta.key_points)


def _own_topics(s: Session) -> dict[int, str | None]:
    return dict(s.execute(select(OwnCardRow.id, OwnCardRow.topic)).all())


def _forecast(rows: Iterable[CardRow], bank: Bank, own: Mapping[int, str | None], now: datetime,
              days: int) -> Forecast:
    today = utc_day(now)
    counts = [0] * days
    overdue = 0
    own_ids = set(own)
    for r in rows:
        if r.suspended or not _card_exists(r.question_id, bank, own_ids):
            continue
        due = max(r.due, r.buried_until) if r.buried_until is not None else r.due
        offset = (utc_day(due) - today).days
        if offset < 0:
            overdue += 1
        offset = max(0, offset)
        if offset < days:
            counts[offset] += 1
    return Forecast([ForecastDay(i, today + timedelta(days=i), counts[i]) for i in range(days)], overdue)


def _card_topics(card_id: str, bank: Bank, own: Mapping[int, str | None]) -> list[str]:
    if card_id.startswith(OWN_PREFIX):
        tail = card_id[len(OWN_PREFIX):]
        topic = own.get(int(tail)) if tail.isdigit() else None
        return [topic] if topic in TOPICS else []
    entry = bank.get(split_card_id(card_id)[0])
    return list(entry.meta.topics) if entry is not None else []


def _topics(cards: Mapping[str, Card], facts: Iterable[ReviewFact], bank: Bank, own: Mapping[int, str | None],
            scheduler: Scheduler, now: datetime) -> list[TopicStats]:
    per_card: dict[str, Rate] = {}
    for f in facts:
        if f.counts_for_retention:
            per_card[f.card_id] = per_card.get(f.card_id, Rate()) + Rate(int(f.passed), 1)
    learned: dict[str, int] = dict.fromkeys(TOPICS, 0)
    rate: dict[str, Rate] = dict.fromkeys(TOPICS, Rate())
    stab: dict[str, list[float]] = {t: [] for t in TOPICS}
    retr: dict[str, list[float]] = {t: [] for t in TOPICS}
    for cid, card in cards.items():
        topics = _card_topics(cid, bank, own)
        if not topics:
            continue
        sound = card.stability is not None and card.last_review is not None
        p = scheduler.get_card_retrievability(card, now) if sound else None
        for t in topics:
            learned[t] += 1
            rate[t] += per_card.get(cid, Rate())
            if sound:
                stab[t].append(card.stability)
                retr[t].append(p)

    def mean(xs: list[float]) -> float | None:
        return sum(xs) / len(xs) if xs else None

    has_entries = {t for e in bank for t in e.meta.topics}
    return [TopicStats(t, name, learned[t], rate[t], mean(stab[t]), mean(retr[t]))
            for t, name in TOPICS.items() if t in has_entries or learned[t]]


def _mocks(s: Session, now: datetime) -> list[MockScore]:
    rows = s.execute(select(MockRow.id, MockRow.started_at, MockRow.finished_at, MockRow.level, MockRow.score)
                     .where(MockRow.status == "graded", MockRow.score.is_not(None), MockRow.started_at <= now)
                     .order_by(MockRow.started_at, MockRow.id)).all()
    return [MockScore(i, fin or start, level, float(score)) for i, start, fin, level, score in rows]


def _challenges(s: Session, challenges: Mapping) -> ChallengeStats:
    status: dict[str, str] = {}
    for cid, mode, verdict in s.execute(select(SubmissionRow.challenge_id, SubmissionRow.mode, SubmissionRow.verdict)):
        if mode == "submit" and verdict == "Accepted":
            status[cid] = "solved"
        else:
            status.setdefault(cid, "attempted")
    topics = []
    for slug, name in TOPICS.items():
        ids = [cid for cid, ch in challenges.items() if slug in ch.meta.topics]
        if ids:
            topics.append(ChallengeTopic(slug, name, len(ids), sum(status.get(i) == "solved" for i in ids),
                                         sum(status.get(i) == "attempted" for i in ids)))
    return ChallengeStats(topics, len(challenges), sum(status.get(i) == "solved" for i in challenges),
                          sum(status.get(i) == "attempted" for i in challenges))


# -- public: one computation each -----------------------------------------------------
def review_activity(sessions: sessionmaker[Session], now: datetime, days: int = 30) -> Activity:
    """Reviews and minutes per UTC day for the last ``days`` days (today last).

    ``now``: aware datetime (UTC day boundaries). Raises ``ValueError`` for a naive ``now`` or
    ``days`` < 1."""
    now, days = _utc(now), _check_days(days)
    with sessions() as s:
        logs = _load_logs(s, now)
    return _activity(logs, now, days)


def heat_map(sessions: sessionmaker[Session], now: datetime, days: int = 365) -> HeatMap:
    """Reviews per UTC day for the last ``days`` days on a week × weekday grid with levels 0–4.
    Raises ``ValueError`` for a naive ``now`` or ``days`` < 1."""
    now, days = _utc(now), _check_days(days)
    with sessions() as s:
        logs = _load_logs(s, now)
    return _heat(logs, now, days)


def due_forecast(sessions: sessionmaker[Session], bank: Bank, now: datetime, days: int = 30) -> Forecast:
    """Cards due on each of the next ``days`` UTC days (day 0 = today, overdue included).
    Raises ``ValueError`` for a naive ``now`` or ``days`` < 1."""
    now, days = _utc(now), _check_days(days)
    with sessions() as s:
        rows = list(s.scalars(select(CardRow)))
        own = _own_topics(s)
    return _forecast(rows, bank, own, now, days)


def true_retention(sessions: sessionmaker[Session], scheduler: Scheduler, now: datetime) -> TrueRetention:
    """Anki's true retention (young/mature, last 30 UTC days and all time) from the review log
    replayed through ``scheduler`` (the flashcards' own). Raises ``ValueError`` for a naive ``now``."""
    now = _utc(now)
    with sessions() as s:
        logs = _load_logs(s, now)
    return _retention(replay_facts(logs, scheduler), now)


def topic_stats(sessions: sessionmaker[Session], bank: Bank, scheduler: Scheduler, now: datetime) -> list[TopicStats]:
    """Per topic (taxonomy order; topics with entries or learned cards): learned cards, all-time
    true retention, mean stability (days), mean retrievability at ``now``."""
    now = _utc(now)
    with sessions() as s:
        logs = _load_logs(s, now)
        own = _own_topics(s)
    facts, cards = _replay(logs, scheduler)
    return _topics(cards, facts, bank, own, scheduler, now)


def mock_scores(sessions: sessionmaker[Session], now: datetime) -> list[MockScore]:
    """Overall scores (0–100) of graded mock interviews started at or before ``now``, oldest first."""
    now = _utc(now)
    with sessions() as s:
        return _mocks(s, now)


def challenge_stats(sessions: sessionmaker[Session], challenges: Mapping) -> ChallengeStats:
    """Challenges solved / attempted, overall and per topic. ``challenges``: id → challenge
    (anything with ``.meta.topics``, e.g. ``JudgeService.challenges``; reading them imports no torch)."""
    with sessions() as s:
        return _challenges(s, challenges)


def study_stats(sessions: sessionmaker[Session], bank: Bank, scheduler: Scheduler, challenges: Mapping,
                now: datetime, days: int = 30, forecast_days: int = 30, heat_days: int = 365) -> StudyStats:
    """All of the above from one read of the database (one replay of the review log).

    ``days``: the window of the reviews-per-day series (1–365); ``forecast_days``: the
    forecast's; ``heat_days``: the heat map's. Raises ``ValueError`` for a naive ``now`` or a
    window out of range."""
    now, days, heat_days = _utc(now), _check_days(days), _check_days(heat_days)
    forecast_days = _check_days(forecast_days)
    with sessions() as s:
        logs = _load_logs(s, now)
        rows = list(s.scalars(select(CardRow)))
        own = _own_topics(s)
        mocks = _mocks(s, now)
        chal = _challenges(s, challenges)
    facts, cards = _replay(logs, scheduler)
    return StudyStats(now, _activity(facts, now, days), _heat(facts, now, heat_days),
                      _forecast(rows, bank, own, now, forecast_days), _retention(facts, now),
                      _topics(cards, facts, bank, own, scheduler, now), mocks, chal)


def _check_days(days: int) -> int:
    if not isinstance(days, int) or not 1 <= days <= MAX_DAYS:
        raise ValueError(f"days must be a whole number from 1 to {MAX_DAYS}, not {days!r}")
    return days
