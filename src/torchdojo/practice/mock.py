"""Timed mock interviews: set-up from a per-level blueprint, answering with autosave, reveal,
flags, time-out, grading and the report.

The flow (both faces call exactly these methods):

1. :meth:`MockInterviews.start` picks items from the level's :data:`BLUEPRINTS` (documented in
   ``docs/mock-interviews.md``): a type mix scaled to the duration, mostly questions at the
   role's level, topics spread so no topic repeats while others are unused.
2. While ``active``: :meth:`open_item` (the server measures time per item from these calls),
   :meth:`save_answer` (every autosave is committed at once: a crash or closed tab loses
   nothing), :meth:`set_flag`, :meth:`reveal` (recorded; revealing an unanswered item locks it
   empty). Past the deadline every write is refused with :class:`TimeUp` and the interview is
   ended with ``end_reason = "time-out"``.
3. :meth:`finish` ends it (``grading``); :meth:`grade` grades each answered item (one commit
   per item, so an interrupted grading resumes where it stopped), turns every missed key point
   into an FSRS key-point card, and sets ``graded``. Prose items go to an
   :class:`~torchdojo.grading.feedback.AnswerGrader`; coding items (challenges) to the judge.
4. :meth:`report` assembles scores per item, topic and level, key points hit/missed with the
   answer spans, time per item, earlier mocks and a study plan.

Times are timezone-aware UTC datetimes; durations in milliseconds. Every write is one write
transaction that locks the mock's row first (``BEGIN IMMEDIATE`` on SQLite, ``FOR UPDATE`` on
PostgreSQL; :mod:`torchdojo.store.db`), so concurrent autosaves, flags and time accounting of one
mock apply one after the other.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from torchdojo.bank.loader import Bank, Entry
from torchdojo.bank.taxonomy import LEVELS, QUESTION_TYPES, TOPICS
from torchdojo.grading.feedback import AnswerGrader, Feedback
from torchdojo.practice.flashcards import Flashcards
from torchdojo.store.models import MockItemRow, MockRow

#: Seconds of grace after the deadline for an autosave already in flight.
GRACE_SECONDS = 5


@dataclass(frozen=True)
class Blueprint:
    """What a screen at one level asks.

    ``minutes``: default duration; ``minutes_per_item``: the pace the item count is scaled
    with; ``types``: share of each question type; ``levels``: share of each question level.
    """

    level: str
    minutes: int
    minutes_per_item: float
    types: dict[str, float]
    levels: dict[str, float]
    why: str


BLUEPRINTS: dict[str, Blueprint] = {
    "junior": Blueprint(
        "junior", 30, 5.0,
        types={"concept": 0.6, "coding": 0.2, "debugging": 0.2},
        levels={"junior": 0.7, "mid": 0.3},
        why="Junior screens check fundamentals (tensors, autograd, the training loop) and one small "
            "piece of code; no system design.",
    ),
    "mid": Blueprint(
        "mid", 45, 6.0,
        types={"concept": 0.4, "coding": 0.15, "debugging": 0.15, "system-design": 0.15, "behavioral": 0.15},
        levels={"mid": 0.6, "junior": 0.2, "senior": 0.2},
        why="Mid-level loops mix concepts with a coding and a debugging item, one design discussion "
            "and one behavioral question.",
    ),
    "senior": Blueprint(
        "senior", 60, 7.5,
        types={"concept": 0.35, "coding": 0.125, "debugging": 0.125, "system-design": 0.25, "behavioral": 0.15},
        levels={"senior": 0.7, "mid": 0.3},
        why="Senior loops weigh system design and trade-offs most, keep one coding and one debugging "
            "item, and ask about ownership and influence.",
    ),
}


class MockError(ValueError):
    """A mock-interview request that cannot be done; the message says why."""


class TimeUp(MockError):
    """The interview's time is over: the write was refused and the interview ended."""


class Locked(MockError):
    """The item's answer is locked (the model answer was revealed, or the interview ended)."""


@dataclass(frozen=True)
class MockConfig:
    """Set-up of one mock. ``topics``/``types`` restrict the mix (None: the blueprint's);
    ``per_item_minutes``: an optional per-question countdown shown by the faces;
    ``use_judge``: coding items are challenges judged in the sandbox (else coding entries in prose)."""

    level: str = "mid"
    minutes: int | None = None
    topics: tuple[str, ...] | None = None
    types: tuple[str, ...] | None = None
    per_item_minutes: float | None = None
    use_judge: bool = True
    seed: int | None = None
    #: Live follow-ups (one question aimed at the weakest point of each prose answer, asked
    #: before moving on); None: the level's default (on for mid and senior, off for junior).
    follow_ups: bool | None = None
    #: Answer out loud: prose items are answered by voice (recorded, transcribed, corrected) under
    #: the same timer; the report adds delivery feedback. Coding items are typed.
    out_loud: bool = False

    def wants_follow_ups(self) -> bool:
        return self.follow_ups if self.follow_ups is not None else self.level in ("mid", "senior")

    def validate(self) -> None:
        if self.level not in LEVELS:
            raise MockError(f"unknown level '{self.level}': use one of {', '.join(LEVELS)}")
        if self.minutes is not None and not 5 <= self.minutes <= 240:
            raise MockError("minutes must be between 5 and 240")
        if self.per_item_minutes is not None and not 0.5 <= self.per_item_minutes <= 60:
            raise MockError("per-item minutes must be between 0.5 and 60")
        for t in self.topics or ():
            if t not in TOPICS:
                raise MockError(f"unknown topic '{t}': use slugs from {', '.join(TOPICS)}")
        for t in self.types or ():
            if t not in QUESTION_TYPES:
                raise MockError(f"unknown type '{t}': use one of {', '.join(QUESTION_TYPES)}")


@dataclass
class Item:
    """One item as the faces show it. ``kind``: question | challenge; ``state``: answered |
    unanswered (``flagged`` is separate); ``title``/``level``/``type``/``topics`` from the
    entry or challenge."""

    position: int
    kind: str
    ref_id: str
    title: str
    level: str
    type: str
    topics: list[str]
    answer: str
    flagged: bool
    revealed: bool
    revealed_before_answer: bool
    time_spent_ms: int
    score: int | None
    verdict: str | None
    feedback: dict[str, Any] | None
    item_id: int = 0
    #: A follow-up: the position of the item it follows up, the question asked, the key point probed.
    parent_position: int | None = None
    prompt: str | None = None
    target: str | None = None
    graded: bool = False
    #: The transcript JSON of an answer given out loud (None: typed).
    speech: str | None = None

    @property
    def is_follow_up(self) -> bool:
        return self.prompt is not None

    @property
    def answered(self) -> bool:
        return bool(self.answer.strip())

    @property
    def state(self) -> str:
        return "answered" if self.answered else "unanswered"


@dataclass
class Mock:
    id: int
    level: str
    minutes: int
    status: str
    started_at: datetime
    deadline: datetime
    finished_at: datetime | None
    end_reason: str | None
    score: float | None
    config: dict[str, Any]
    items: list[Item]
    current_position: int | None = None

    def remaining_seconds(self, now: datetime | None = None) -> int:
        now = now or datetime.now(UTC)
        return max(0, int((self.deadline - now).total_seconds()))

    def counts(self) -> dict[str, int]:
        return {"answered": sum(i.answered for i in self.items),
                "unanswered": sum(not i.answered for i in self.items),
                "flagged": sum(i.flagged for i in self.items)}


@dataclass
class Report:
    """The end-of-interview report. Scores 0–100; ``by_topic``/``by_level``: mean item score
    (unanswered items count 0); ``history``: (mock id, started_at, score) of graded mocks,
    oldest first, this one included; ``study_plan``: weakest topics with entries to study."""

    mock: Mock
    overall: float | None
    by_topic: dict[str, float]
    by_level: dict[str, float]
    by_type: dict[str, float]
    history: list[tuple[int, datetime, float]]
    study_plan: list[dict[str, Any]]
    cards_added: int = 0
    pending: int = 0
    notes: list[str] = field(default_factory=list)


def _distribute(total: int, shares: dict[str, float]) -> dict[str, int]:
    """Largest-remainder apportionment of ``total`` slots over ``shares`` (every share ≥ 0)."""
    s = sum(shares.values()) or 1.0
    raw = {k: total * v / s for k, v in shares.items()}
    out = {k: int(v) for k, v in raw.items()}
    for k in sorted(raw, key=lambda k: raw[k] - out[k], reverse=True)[: total - sum(out.values())]:
        out[k] += 1
    return out


class MockInterviews:
    """Mock interviews over one bank and user database.

    ``challenges``: challenge id → :class:`torchdojo.judge.challenge.Challenge` (coding items);
    ``judge``: a :class:`torchdojo.judge.service.JudgeService` used to grade them (optional).
    """

    def __init__(self, sessions: sessionmaker[Session], bank: Bank, flashcards: Flashcards,
                 challenges: dict | None = None, judge=None) -> None:
        self.sessions = sessions
        self.bank = bank
        self.flashcards = flashcards
        self.challenges = challenges or {}
        self.judge = judge
        from torchdojo.practice.scorecards import Scorecards

        self.scorecards = Scorecards(sessions, bank, flashcards)

    # -- set-up ----------------------------------------------------------------------------
    def plan(self, config: MockConfig) -> list[tuple[str, str]]:
        """The items a mock with this set-up would ask: [(kind, ref id)], in order.

        Raises :class:`MockError` when the bank has nothing matching the set-up.
        """
        config.validate()
        bp = BLUEPRINTS[config.level]
        minutes = config.minutes or bp.minutes
        n = max(2, min(15, round(minutes / bp.minutes_per_item)))
        types = {t: w for t, w in bp.types.items() if not config.types or t in config.types}
        if config.types:
            types.update({t: 1.0 / len(config.types) for t in config.types if t not in types})
        if not types:
            raise MockError("no question type left: choose at least one type")
        rng = random.Random(config.seed)
        per_type = _distribute(n, types)
        used_topics: dict[str, int] = defaultdict(int)
        chosen: list[tuple[str, str]] = []
        taken: set[str] = set()

        def pick(cands: list[tuple[str, str, list[str]]]) -> tuple[str, str] | None:
            cands = [c for c in cands if c[1] not in taken]
            if not cands:
                return None
            least = min(min(used_topics[t] for t in c[2]) for c in cands)
            best = [c for c in cands if min(used_topics[t] for t in c[2]) == least]
            kind, ref, topics = rng.choice(best)
            taken.add(ref)
            used_topics[topics[0]] += 1
            return kind, ref

        for qtype, count in per_type.items():
            levels = _distribute(count, bp.levels)
            for lvl, k in sorted(levels.items(), key=lambda kv: -bp.levels[kv[0]]):
                for _ in range(k):
                    got = None
                    if qtype == "coding" and config.use_judge and self.challenges:
                        got = pick(self._challenge_candidates(lvl, config)) or pick(self._challenge_candidates(None, config))
                    got = got or pick(self._entry_candidates(qtype, lvl, config)) \
                        or pick(self._entry_candidates(qtype, None, config))
                    if got:
                        chosen.append(got)
        if not chosen:
            raise MockError("the bank has no questions for this set-up; widen the topics or types")
        order = {t: i for i, t in enumerate(QUESTION_TYPES)}
        chosen.sort(key=lambda c: order[self._type_of(*c)])
        return chosen

    def _entry_candidates(self, qtype: str, level: str | None, config: MockConfig):
        return [("question", e.id, e.meta.topics) for e in self.bank
                if e.meta.type == qtype and (level is None or e.meta.level == level)
                and (not config.topics or set(e.meta.topics) & set(config.topics))]

    def _challenge_candidates(self, level: str | None, config: MockConfig):
        return [("challenge", c.id, c.meta.topics) for c in self.challenges.values()
                if (level is None or c.meta.level == level)
                and (not config.topics or set(c.meta.topics) & set(config.topics))]

    def _type_of(self, kind: str, ref: str) -> str:
        if kind == "challenge":
            return "coding"
        return self.bank.entries[ref].meta.type

    def start(self, config: MockConfig, now: datetime | None = None) -> Mock:
        """Create a mock interview (status ``active``) and return it; the clock starts now."""
        now = now or datetime.now(UTC)
        items = self.plan(config)
        minutes = config.minutes or BLUEPRINTS[config.level].minutes
        cfg = {"topics": list(config.topics or []), "types": list(config.types or []),
               "per_item_minutes": config.per_item_minutes, "use_judge": config.use_judge, "seed": config.seed,
               "follow_ups": config.wants_follow_ups(), "out_loud": config.out_loud, "review": "pending"}
        with self.sessions.begin() as s:
            row = MockRow(level=config.level, minutes=minutes, config=json.dumps(cfg), status="active",
                          started_at=now, deadline=now + timedelta(minutes=minutes),
                          current_position=0, current_since=now)
            s.add(row)
            s.flush()
            for pos, (kind, ref) in enumerate(items):
                s.add(MockItemRow(mock_id=row.id, position=pos, kind=kind, ref_id=ref, answer="", flagged=False,
                                  revealed_before_answer=False, time_spent_ms=0))
            mock_id = row.id
        return self.get(mock_id, now)

    # -- reading ---------------------------------------------------------------------------
    def get(self, mock_id: int, now: datetime | None = None) -> Mock:
        """The mock with its items; ends it first (time-out) if its deadline has passed.
        Raises :class:`MockError` for an unknown id."""
        self.expire(mock_id, now)
        with self.sessions() as s:
            row = s.get(MockRow, mock_id)
            if row is None:
                raise MockError(f"there is no mock interview {mock_id}")
            items = list(s.scalars(select(MockItemRow).where(MockItemRow.mock_id == mock_id)
                                   .order_by(MockItemRow.position)))
        return self._mock(row, items)

    def _mock(self, row: MockRow, items: list[MockItemRow]) -> Mock:
        return Mock(row.id, row.level, row.minutes, row.status, row.started_at, row.deadline, row.finished_at,
                    row.end_reason, row.score, json.loads(row.config), [self._item(i) for i in items],
                    row.current_position)

    def _item(self, r: MockItemRow) -> Item:
        if r.kind == "challenge":
            ch = self.challenges.get(r.ref_id)
            title, level, topics = (ch.meta.title, ch.meta.level, ch.meta.topics) if ch else (r.ref_id, "", [])
            qtype = "coding"
        else:
            e = self.bank.get(r.ref_id)
            title, level, topics, qtype = (e.meta.title, e.meta.level, e.meta.topics, e.meta.type) if e \
                else (r.ref_id, "", [], "concept")
        if r.prompt is not None:
            title = f"Follow-up: {r.prompt}"
        return Item(r.position, r.kind, r.ref_id, title, level, qtype, list(topics), r.answer, r.flagged,
                    r.revealed_at is not None, r.revealed_before_answer, r.time_spent_ms, r.score, r.verdict,
                    json.loads(r.feedback) if r.feedback else None, r.id, r.parent_position, r.prompt, r.target,
                    r.graded_at is not None, r.speech)

    def entry(self, item: Item) -> Entry | None:
        return self.bank.get(item.ref_id) if item.kind == "question" else None

    def list(self) -> list[Mock]:
        """Every mock, newest first (items included)."""
        with self.sessions() as s:
            ids = list(s.scalars(select(MockRow.id).order_by(MockRow.id.desc())))
        return [self.get(i) for i in ids]

    def active(self, now: datetime | None = None) -> Mock | None:
        """The newest mock still running, if any (ending any whose time is up)."""
        with self.sessions() as s:
            ids = list(s.scalars(select(MockRow.id).where(MockRow.status == "active").order_by(MockRow.id.desc())))
        for i in ids:
            m = self.get(i, now)
            if m.status == "active":
                return m
        return None

    # -- during the interview --------------------------------------------------------------
    def expire(self, mock_id: int, now: datetime | None = None) -> bool:
        """End the mock with ``time-out`` once its deadline (plus :data:`GRACE_SECONDS`) has
        passed; True if it did now."""
        now = now or datetime.now(UTC)
        with self.sessions.begin() as s:
            row = s.get(MockRow, mock_id, with_for_update=True)
            # the grace lets an autosave already in flight at the deadline land first
            if row is None or row.status != "active" or now < row.deadline + timedelta(seconds=GRACE_SECONDS):
                return False
            self._close(s, row, row.deadline, "time-out")
            return True

    def _close(self, s: Session, row: MockRow, at: datetime, reason: str) -> None:
        self._account(s, row, at)
        row.status, row.finished_at, row.end_reason = "grading", at, reason
        row.current_position = row.current_since = None

    def _account(self, s: Session, row: MockRow, now: datetime) -> None:
        """Add the time since ``current_since`` to the open item."""
        if row.current_position is None or row.current_since is None:
            return
        item = s.scalar(select(MockItemRow).where(MockItemRow.mock_id == row.id,
                                                  MockItemRow.position == row.current_position))
        if item is not None:
            item.time_spent_ms += max(0, int((now - row.current_since).total_seconds() * 1000))
        row.current_since = now

    def _writable(self, s: Session, mock_id: int, now: datetime) -> MockRow:
        row = s.get(MockRow, mock_id, with_for_update=True)
        if row is None:
            raise MockError(f"there is no mock interview {mock_id}")
        if row.status != "active":
            raise Locked("this interview has ended; its answers can no longer change")
        if now >= row.deadline + timedelta(seconds=GRACE_SECONDS):
            self._close(s, row, row.deadline, "time-out")
            raise TimeUp("time is up: the interview has ended and what you answered will be graded")
        return row

    def _item_row(self, s: Session, mock_id: int, position: int, lock: bool = False) -> MockItemRow:
        q = select(MockItemRow).where(MockItemRow.mock_id == mock_id, MockItemRow.position == position)
        it = s.scalar(q.with_for_update() if lock else q)
        if it is None:
            raise MockError(f"mock {mock_id} has no item {position + 1}")
        return it

    def _commit_or_timeout(self, mock_id: int, now: datetime, fn):
        """Run ``fn(session, row)`` in one transaction; a time-out is committed before raising."""
        err: TimeUp | None = None
        with self.sessions.begin() as s:
            try:
                row = self._writable(s, mock_id, now)
            except TimeUp as e:
                err = e
            else:
                return fn(s, row)
        raise err

    def open_item(self, mock_id: int, position: int, now: datetime | None = None) -> None:
        """The candidate moved to item ``position`` (0-based): time now counts for it."""
        now = now or datetime.now(UTC)

        def go(s, row):
            self._item_row(s, mock_id, position)
            self._account(s, row, now)
            row.current_position, row.current_since = position, now
        self._commit_or_timeout(mock_id, now, go)

    def pause(self, mock_id: int, now: datetime | None = None, position: int | None = None) -> None:
        """The candidate left (closed the tab, quit the terminal): the open item stops counting
        time. The interview clock keeps running; a no-op once the interview has ended, and, when
        ``position`` is given, unless that item is the open one (a late "left the page" signal
        must not pause the item opened since)."""
        now = now or datetime.now(UTC)
        with self.sessions.begin() as s:
            row = s.get(MockRow, mock_id, with_for_update=True)
            if row is None or row.status != "active":
                return
            if position is not None and row.current_position != position:
                return
            self._account(s, row, min(now, row.deadline))
            row.current_position = row.current_since = None

    def save_answer(self, mock_id: int, position: int, answer: str, now: datetime | None = None,
                    speech: str | None = None) -> None:
        """Autosave: store the answer text verbatim, committed before returning. ``speech``: the
        transcript JSON of the recording the answer came from (stored when given; the face
        validates it), kept for delivery feedback.

        Raises :class:`TimeUp` past the deadline, :class:`Locked` after a reveal before answering
        or once the interview ended.
        """
        now = now or datetime.now(UTC)
        if len(answer) > 100_000:
            raise MockError("answers are limited to 100,000 characters")

        def go(s, row):
            it = self._item_row(s, mock_id, position)
            if it.revealed_before_answer:
                raise Locked("the model answer was shown before you answered, so this item stays unanswered")
            it.answer, it.answer_saved_at = answer, now
            if speech:
                it.speech = speech
        self._commit_or_timeout(mock_id, now, go)

    def set_flag(self, mock_id: int, position: int, flagged: bool, now: datetime | None = None) -> None:
        now = now or datetime.now(UTC)

        def go(s, row):
            self._item_row(s, mock_id, position).flagged = flagged
        self._commit_or_timeout(mock_id, now, go)

    def reveal(self, mock_id: int, position: int, now: datetime | None = None) -> Entry | None:
        """Record that the model answer was shown and return the entry (None for a challenge).
        Revealing an unanswered item is recorded as ``revealed_before_answer`` and locks it."""
        now = now or datetime.now(UTC)

        def go(s, row):
            it = self._item_row(s, mock_id, position)
            if it.revealed_at is None:
                it.revealed_at = now
                it.revealed_before_answer = not it.answer.strip()
            return it.ref_id if it.kind == "question" else None
        ref = self._commit_or_timeout(mock_id, now, go)
        return self.bank.get(ref) if ref else None

    def finish(self, mock_id: int, now: datetime | None = None) -> Mock:
        """End the interview now (``submitted``); a no-op when it already ended."""
        now = now or datetime.now(UTC)
        self.expire(mock_id, now)
        with self.sessions.begin() as s:
            row = s.get(MockRow, mock_id, with_for_update=True)
            if row is None:
                raise MockError(f"there is no mock interview {mock_id}")
            if row.status == "active":
                if now >= row.deadline:  # the countdown reached zero: that is a time-out, not a submit
                    self._close(s, row, row.deadline, "time-out")
                else:
                    self._close(s, row, now, "submitted")
        return self.get(mock_id, now)

    # -- live follow-ups ---------------------------------------------------------------------
    def ask_follow_up(self, mock_id: int, position: int, grader: AnswerGrader, now: datetime | None = None) -> Item | None:
        """Ask the follow-up an interviewer would: grade the answer at ``position`` now and, when
        it left a key point out (or stated it wrongly), insert one follow-up item right after it,
        aimed at the weakest point of *that* answer (the entry's own follow-up that probes it,
        else one composed from the point: :func:`torchdojo.grading.followup.choose_follow_up`).

        Returns the new item, or None when there is nothing to ask: follow-ups off, a coding or
        follow-up item, no answer, already asked, every point made, or the grader failed (then
        the interview simply moves on). Raises :class:`TimeUp` / :class:`Locked` like any write.
        """
        from torchdojo.grading.followup import choose_follow_up

        now = now or datetime.now(UTC)
        m = self.get(mock_id, now)
        if m.status != "active" or not m.config.get("follow_ups") or not 0 <= position < len(m.items):
            return None
        item = m.items[position]
        if item.kind != "question" or item.is_follow_up or not item.answered:
            return None
        if any(i.parent_position == position for i in m.items):
            return None
        entry = self.bank.get(item.ref_id)
        if entry is None:
            return None
        fb = grader.grade(entry, item.answer)
        if fb.error:
            return None
        question, target = choose_follow_up(entry, fb)
        if question is None:
            return None

        def insert(s, row):
            # Make room at position + 1 (two steps: the (mock, position) index is unique).
            for col in ("position", "parent_position"):
                c = getattr(MockItemRow, col)
                s.execute(update(MockItemRow).where(MockItemRow.mock_id == mock_id, c > position)
                          .values({col: c + 100_000}))
                s.execute(update(MockItemRow).where(MockItemRow.mock_id == mock_id, c > position + 100_000)
                          .values({col: c - 99_999}))
            if row.current_position is not None and row.current_position > position:
                row.current_position += 1
            s.add(MockItemRow(mock_id=mock_id, position=position + 1, kind="question", ref_id=item.ref_id, answer="",
                              flagged=False, revealed_before_answer=False, time_spent_ms=0,
                              parent_position=position, prompt=question, target=target))
        self._commit_or_timeout(mock_id, now, insert)
        return self.get(mock_id, now).items[position + 1]

    # -- grading ---------------------------------------------------------------------------
    def grade(self, mock_id: int, grader: AnswerGrader, progress=None, now: datetime | None = None) -> Mock:
        """Grade every item not graded yet (one commit each), then mark the mock ``graded``.

        Prose answers go to ``grader``; each gets a scorecard (:mod:`torchdojo.practice.scorecards`)
        holding the machine's proposed marks for the self-review, and the item's score is the
        scorecard's *estimate* until the candidate confirms it (None when the grader is
        uncertain: such an item is left out of the averages, never counted as 0). A follow-up is
        scored on the key point it probed. Unanswered items score 0 and all their key points
        become cards (the candidate did not show them); for answered items cards come from the
        confirmed marks (:meth:`finish_review`). An answer the grader could not grade
        (``Feedback.error``) stays ungraded and is retried by the next ``grade``.
        ``progress(done, total)`` is called after each item. Raises :class:`MockError` if the
        mock is still active.
        """
        m = self.get(mock_id)
        if m.status == "active":
            raise MockError("finish the interview before grading it")
        todo = [i for i in m.items if not i.graded]
        added = 0
        for n, item in enumerate(todo, 1):
            score, verdict, fb_json = self._grade_item(item, grader)
            failed = item.kind == "question" and item.answered and (fb_json is None or json.loads(fb_json).get("error"))
            judge_failed = item.kind == "challenge" and score is None
            with self.sessions.begin() as s:
                r = self._item_row(s, mock_id, item.position, lock=True)
                if r.graded_at is not None:  # graded meanwhile by another run (team mode: a job
                    continue                 # delivered twice): keep the first grade, add nothing
                r.verdict, r.feedback = verdict, fb_json
                if failed or judge_failed:
                    r.score = None  # not a grade: retried next time
                elif item.kind == "question" and item.answered:
                    fb = Feedback.model_validate_json(fb_json)
                    sid = self.scorecards.create(item.ref_id, item.answer, fb, context="mock", mock_item_id=r.id,
                                                 prompt=item.prompt, only=[item.target] if item.target else None,
                                                 now=now, s=s)
                    r.graded_at = now or datetime.now(UTC)
                    est = self.scorecards.estimate_in(s, sid)
                    r.score = est[0] if est else None
                else:
                    r.score, r.graded_at = score, now or datetime.now(UTC)
            if item.kind == "question" and not item.answered and not item.is_follow_up:
                added += len(self.flashcards.add_key_point_cards(
                    item.ref_id, [k.id for k in self.bank.entries[item.ref_id].meta.key_points]))
            if progress:
                progress(n, len(todo))
        m = self.get(mock_id)
        with self.sessions.begin() as s:
            row = s.get(MockRow, mock_id, with_for_update=True)
            row.status = "graded"  # items whose grading failed stay ungraded (with the error) and are retried
            row.score = _overall(m.items)
            cfg = json.loads(row.config)
            cfg["cards_added"] = int(cfg.get("cards_added", 0)) + added
            row.config = json.dumps(cfg)
        return self.get(mock_id)

    # -- self-review -------------------------------------------------------------------------
    def review_items(self, mock_id: int) -> list[tuple[Item, Any]]:
        """(item, scorecard) for every prose item that has a scorecard, in interview order."""
        m = self.get(mock_id)
        cards = self.scorecards.for_mock_items(i.item_id for i in m.items)
        return [(i, cards[i.item_id]) for i in m.items if i.item_id in cards]

    def review_state(self, mock: Mock) -> str:
        """pending (scorecards wait for the candidate), done or skipped; "none" when nothing to review."""
        return mock.config.get("review", "none")

    def sync_scores(self, mock_id: int) -> None:
        """Item scores follow their scorecards (confirmed score once final, else the estimate);
        the mock's overall score follows the items."""
        pairs = self.review_items(mock_id)
        with self.sessions.begin() as s:
            for item, sc in pairs:
                r = self._item_row(s, mock_id, item.position)
                val = (sc.score if sc.final else (sc.estimate[0] if sc.estimate else None))
                r.score = val
            row = s.get(MockRow, mock_id, with_for_update=True)
            items = list(s.scalars(select(MockItemRow).where(MockItemRow.mock_id == mock_id)))
            row.score = _overall([self._item(i) for i in items])

    def sync_scores_for_item(self, item_id: int) -> None:
        """:meth:`sync_scores` for the mock that holds mock item ``item_id``."""
        with self.sessions() as s:
            mock_id = s.scalar(select(MockItemRow.mock_id).where(MockItemRow.id == item_id))
        if mock_id is not None:
            self.sync_scores(mock_id)

    def finish_review(self, mock_id: int, skipped: bool = False) -> Mock:
        """End the self-review: every scorecard still open is finalised (``skipped``: with the
        machine's trusted proposals where the candidate left lines unmarked; otherwise every line
        must be marked — :class:`torchdojo.practice.scorecards.ScorecardError` says which are
        not). Key points confirmed missed or wrong become cards. Raises :class:`MockError` while
        the mock is still running or grading."""
        m = self.get(mock_id)
        if m.status != "graded":
            raise MockError("the review starts once the interview is over and graded")
        for _item, sc in self.review_items(mock_id):
            if not sc.final:
                self.scorecards.finalize(sc.id, skipped=skipped)
        self.sync_scores(mock_id)
        with self.sessions.begin() as s:
            row = s.get(MockRow, mock_id, with_for_update=True)
            cfg = json.loads(row.config)
            cfg["review"] = "skipped" if skipped else "done"
            row.config = json.dumps(cfg)
        return self.get(mock_id)

    def _grade_item(self, item: Item, grader: AnswerGrader) -> tuple[int | None, str | None, str | None]:
        if not item.answered:
            return 0, None, None
        if item.kind == "challenge":
            if self.judge is None:
                return 0, "Not judged", json.dumps({"error": "no judge available"})
            try:
                _sid, rep = self.judge.submit(item.ref_id, item.answer, "submit")
            except Exception as e:  # the sandbox may be unavailable: not a grade, retried next time
                return None, "Judge Error", json.dumps({"error": f"{type(e).__name__}: {e}"})
            if rep.verdict.value == "Judge Error":  # our fault, never the candidate's: retry later
                return None, rep.verdict.value, json.dumps({"error": f"Judge Error: {rep.message}"})
            total = len(rep.tests) or 1
            accepted = rep.verdict.value == "Accepted"
            score = 100 if accepted else round(50 * rep.passed / total)
            return score, rep.verdict.value, json.dumps({"verdict": rep.verdict.value, "passed": rep.passed,
                                                         "total": len(rep.tests), "message": rep.message})
        entry = self.bank.entries[item.ref_id]
        fb: Feedback = grader.grade(entry, item.answer)
        if fb.error:  # not a grade: keep the item ungraded (retried on the next grade()) and say why
            return None, None, fb.model_dump_json()
        return fb.score, None, fb.model_dump_json()

    # -- after -----------------------------------------------------------------------------
    def report(self, mock_id: int) -> Report:
        """The report of an ended mock (partial while ``grading``: ``pending`` items left)."""
        m = self.get(mock_id)
        if m.status == "active":
            raise MockError("the interview is still running")
        graded = [i for i in m.items if i.score is not None]
        overall = _overall(m.items)

        def mean_by(key) -> dict[str, float]:
            acc: dict[str, list[int]] = defaultdict(list)
            for i in graded:
                for k in key(i):
                    acc[k].append(i.score)
            return {k: sum(v) / len(v) for k, v in acc.items()}

        by_topic = mean_by(lambda i: i.topics[:1])
        by_level = mean_by(lambda i: [i.level])
        by_type = mean_by(lambda i: [i.type])
        with self.sessions() as s:
            hist = [(r.id, r.started_at, r.score or 0.0) for r in
                    s.scalars(select(MockRow).where(MockRow.status == "graded", MockRow.id <= mock_id)
                              .order_by(MockRow.id))]
        plan = []
        for topic, sc in sorted(by_topic.items(), key=lambda kv: kv[1])[:3]:
            if sc >= 75:
                continue
            study = [i.ref_id for i in m.items if i.kind == "question" and i.topics[:1] == [topic]]
            related = [r for i in m.items if i.kind == "question" and i.topics[:1] == [topic]
                       for r in self.bank.entries[i.ref_id].meta.related if r in self.bank.entries]
            extra = [e.id for e in self.bank if e.primary_topic == topic and e.meta.level == m.level][:3]
            ids = list(dict.fromkeys(study + related + extra))[:5]
            plan.append({"topic": topic, "name": TOPICS.get(topic, topic), "score": sc,
                         "entries": [(i, self.bank.entries[i].meta.title) for i in ids]})
        notes = []
        if any(i.revealed_before_answer for i in m.items):
            notes.append("Model answers were revealed before answering on "
                         + ", ".join(str(i.position + 1) for i in m.items if i.revealed_before_answer) + ".")
        if m.end_reason == "time-out":
            notes.append("Time ran out: only what was saved by then was graded.")
        unsure = [i for i in m.items if i.graded and i.score is None and i.kind == "question"]
        if unsure:
            notes.append(f"The grader was unsure about {len(unsure)} answer(s) (item(s) "
                         + ", ".join(str(i.position + 1) for i in unsure)
                         + "): they are left out of the scores until you mark them in the review.")
        review = m.config.get("review")
        if review == "pending" and m.status == "graded" and any(i.kind == "question" and i.answered for i in m.items):
            notes.append("Scores are the machine's unconfirmed estimates: review your answers to confirm them.")
        elif review == "skipped":
            notes.append("The review was skipped: prose scores are the machine's unconfirmed estimates.")
        failed = [i for i in m.items if not i.graded and i.feedback and i.feedback.get("error")]
        if failed and m.status in ("graded", "grading"):
            notes.append(f"{len(failed)} answer(s) could not be graded ({failed[0].feedback['error']}); they are left "
                         "out of the scores. Grading again retries them.")
        return Report(m, overall, by_topic, by_level, by_type, hist, plan,
                      cards_added=int(m.config.get("cards_added", 0)),
                      pending=sum(not i.graded for i in m.items), notes=notes)


def _overall(items: list[Item]) -> float | None:
    """Mean score of the items that have one (an uncertain or ungradable answer is left out,
    never counted as 0); None when no item has a score."""
    scored = [i.score for i in items if i.score is not None]
    return sum(scored) / len(scored) if scored else None
