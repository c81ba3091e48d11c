"""What a coach sees of a cohort, assignments and comments (team mode).

A *cohort* is the learners whose account names it (``users.cohort``; a coach follows their own,
an admin any). Each learner's figures come from their own store (:mod:`torchdojo.store.learners`),
read with the very code of the learner's own stats page (:func:`torchdojo.practice.stats.study_stats`),
so a coach sees what the learner sees. Reading is one store per learner: a cohort of N learners
costs N short read transactions (about 20 ms each on this machine's SQLite; see docs/deploy.md).

- :meth:`Cohort.progress` — per learner: reviews in the last 7 days, last practice, true retention
  (30 days), mock scores over time, challenges solved, and ``inactive`` (no review, mock, answer or
  submission for :data:`INACTIVE_DAYS` days).
- :meth:`Cohort.heat_map` — the cohort's progress per topic × level: of the bank's entries in the
  cell, the share each learner has studied (a card reviewed at least once) and their mean
  retrievability now (FSRS: the probability of recall today), averaged over the cohort.
- :meth:`Cohort.assign` / :meth:`Cohort.assignments` — a mock (level and topics), a question set or a
  challenge set with a due date; each learner's completion is read from their store.
- :meth:`Cohort.comment` / :meth:`Cohort.comments` — a coach's comments on one of a learner's scorecards.

Who may see what is checked here (:class:`CohortError`, 403/404), not only in the faces: a coach
reads only learners of their own cohort, an admin any; learners none.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select

from torchdojo.bank.taxonomy import LEVELS, TOPICS
from torchdojo.store.team_models import AssignmentRow, CoachCommentRow
from torchdojo.team.accounts import User

#: A learner with no practice for this many days is flagged inactive.
INACTIVE_DAYS = 7
ASSIGNMENT_KINDS = ("mock", "questions", "challenges")


class CohortError(ValueError):
    """Not allowed (403), not found (404) or bad input (400): ``status`` says which."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class LearnerProgress:
    """One learner's figures at ``now``: ``retention_30`` true retention of the last 30 days (None:
    no review in the window); ``mocks`` (finished UTC, score 0–100) oldest first."""

    user: User
    reviews_7d: int
    cards_studied: int
    last_practice: datetime | None
    retention_30: float | None
    mocks: list[tuple[datetime, float]]
    challenges_solved: int
    inactive: bool


@dataclass(frozen=True)
class HeatCell:
    """One topic × level cell: ``entries`` in the bank; ``studied`` the cohort's mean share of them
    studied (0–1); ``retrievability`` the mean probability of recall now of the studied ones (None:
    nobody studied one)."""

    topic: str
    level: str
    entries: int
    studied: float
    retrievability: float | None


@dataclass(frozen=True)
class Assignment:
    id: int
    cohort: str
    kind: str
    title: str
    items: list | dict
    due_at: datetime
    #: learner id → done (True), per learner of the cohort
    done: dict[int, bool] = field(default_factory=dict)


@dataclass(frozen=True)
class Comment:
    id: int
    author: str
    text: str
    created_at: datetime


class Cohort:
    """The coach's view over the server database (``accounts``: :class:`~torchdojo.team.accounts.Accounts`)
    and the learners' stores (``learners``: a callable user → that learner's :class:`~torchdojo.core.Dojo` view)."""

    def __init__(self, accounts, learners) -> None:
        self.accounts, self.learners = accounts, learners

    # -- who --------------------------------------------------------------------------------
    def cohorts(self, viewer: User) -> list[str]:
        """The cohorts ``viewer`` may see: their own (a coach), every named one (an admin)."""
        self._coach(viewer)
        if viewer.is_admin:
            return sorted({u.cohort for u in self.accounts.users() if u.cohort})
        return [viewer.cohort] if viewer.cohort else []

    def members(self, viewer: User, cohort: str) -> list[User]:
        """The learners of ``cohort``. Raises :class:`CohortError` 403 when ``viewer`` may not see it."""
        self._check(viewer, cohort)
        return self.accounts.users(cohort=cohort, role="learner")

    def learner(self, viewer: User, learner_id: int) -> User:
        """A learner ``viewer`` may see. Raises :class:`CohortError` 404 (no such learner, or not
        in a cohort the viewer sees: a coach cannot tell other cohorts' ids exist)."""
        self._coach(viewer)
        u = self.accounts.get(learner_id)
        if u is None or u.role != "learner" or not (viewer.is_admin or (u.cohort and u.cohort == viewer.cohort)):
            raise CohortError(f"no learner {learner_id} in your cohort", 404)
        return u

    def _coach(self, viewer: User) -> None:
        if not viewer.is_coach:
            raise CohortError("this is for the coaches of this server", 403)

    def _check(self, viewer: User, cohort: str) -> None:
        self._coach(viewer)
        if not viewer.is_admin and cohort != viewer.cohort:
            raise CohortError(f"you do not coach cohort {cohort!r}", 403)

    # -- figures ----------------------------------------------------------------------------
    def progress(self, viewer: User, cohort: str, now: datetime | None = None) -> list[LearnerProgress]:
        """Every learner of ``cohort`` (see :class:`LearnerProgress`), inactive ones first."""
        now = now or datetime.now(UTC)
        out = [self._progress(u, now) for u in self.members(viewer, cohort)]
        return sorted(out, key=lambda p: (not p.inactive, p.user.name or p.user.email))

    def learner_progress(self, viewer: User, learner_id: int, now: datetime | None = None) -> LearnerProgress:
        return self._progress(self.learner(viewer, learner_id), now or datetime.now(UTC))

    def _progress(self, u: User, now: datetime) -> LearnerProgress:
        from torchdojo.store.models import MockItemRow, MockRow, ReviewLogRow, SubmissionRow

        d = self.learners(u)
        st = d.stats(now, days=7)
        with d.sessions() as s:
            last = [s.scalar(select(func.max(ReviewLogRow.reviewed_at))),
                    s.scalar(select(func.max(MockRow.started_at))),
                    s.scalar(select(func.max(MockItemRow.answer_saved_at))),
                    s.scalar(select(func.max(SubmissionRow.created_at)))]
        # (max() over UTCDateTime columns comes back naive from SQLite: read as UTC)
        last = [t if t is None or t.tzinfo else t.replace(tzinfo=UTC) for t in last]
        last_practice = max((t for t in last if t is not None), default=None)
        studied = sum(t.learned for t in st.topics)
        solved = st.challenges.solved
        return LearnerProgress(
            user=u, reviews_7d=st.activity.reviews, cards_studied=studied, last_practice=last_practice,
            retention_30=st.retention.last_30.total.value,
            mocks=[(m.finished, m.score) for m in st.mocks], challenges_solved=int(solved),
            inactive=last_practice is None or now - last_practice > timedelta(days=INACTIVE_DAYS))

    def heat_map(self, viewer: User, cohort: str, now: datetime | None = None) -> list[HeatCell]:
        """The cohort's progress per topic × level (see :class:`HeatCell`), topics in the taxonomy's order."""
        from torchdojo.practice.flashcards import _to_card
        from torchdojo.store.models import CardRow

        now = now or datetime.now(UTC)
        members = self.members(viewer, cohort)
        bank = None
        studied: dict[tuple[str, str], list[float]] = {}
        retr: dict[tuple[str, str], list[float]] = {}
        for u in members:
            d = self.learners(u)
            bank = d.bank
            with d.sessions() as s:
                rows = list(s.scalars(select(CardRow)))
            seen: dict[tuple[str, str], int] = {}
            for row in rows:
                e = d.bank.get(row.question_id)
                if e is None or row.last_review is None:
                    continue
                p = None
                if row.stability is not None:
                    p = d.flashcards.scheduler.get_card_retrievability(_to_card(row), now)
                for t in e.meta.topics:
                    key = (t, e.meta.level)
                    seen[key] = seen.get(key, 0) + 1
                    if p is not None:
                        retr.setdefault(key, []).append(p)
            for key, n in seen.items():
                studied.setdefault(key, []).append(n)
        if bank is None:
            return []
        size: dict[tuple[str, str], int] = {}
        for e in bank:
            for t in e.meta.topics:
                size[(t, e.meta.level)] = size.get((t, e.meta.level), 0) + 1
        cells = []
        for t in TOPICS:
            for lv in LEVELS:
                n = size.get((t, lv), 0)
                if not n:
                    continue
                shares = [k / n for k in studied.get((t, lv), [])]
                mean_share = sum(shares) / len(members) if members else 0.0
                rs = retr.get((t, lv), [])
                cells.append(HeatCell(t, lv, n, mean_share, sum(rs) / len(rs) if rs else None))
        return cells

    # -- assignments ------------------------------------------------------------------------
    def assign(self, viewer: User, cohort: str, kind: str, title: str, items, due_at: datetime,
               valid_ids=None, now: datetime | None = None) -> int:
        """Set ``cohort`` work: ``kind`` mock (``items`` {"level", "topics"}), questions (entry ids) or
        challenges (challenge ids); ``valid_ids``: the ids allowed for the kind (unknown ones: 400).
        Returns the assignment id. Raises :class:`CohortError`."""
        self._check(viewer, cohort)
        now = now or datetime.now(UTC)
        if kind not in ASSIGNMENT_KINDS:
            raise CohortError(f"kind must be one of {', '.join(ASSIGNMENT_KINDS)}")
        title = (title or "").strip()
        if not 1 <= len(title) <= 200:
            raise CohortError("a title has 1 to 200 characters")
        if due_at.tzinfo is None or due_at <= now:
            raise CohortError("the due date must be in the future")
        if kind == "mock":
            if not isinstance(items, dict) or items.get("level") not in LEVELS:
                raise CohortError(f"a mock assignment names a level ({', '.join(LEVELS)})")
        else:
            items = [str(i).strip() for i in items if str(i).strip()]
            if not items:
                raise CohortError("name at least one id")
            unknown = [i for i in items if valid_ids is not None and i not in valid_ids]
            if unknown:
                raise CohortError(f"unknown id(s): {', '.join(unknown[:5])}")
        with self.accounts.sessions.begin() as s:
            row = AssignmentRow(cohort=cohort, kind=kind, title=title, items=json.dumps(items), due_at=due_at,
                                created_by=viewer.id, created_at=now)
            s.add(row)
            s.flush()
            return row.id

    def assignments(self, cohort: str, learners: list[User] | None = None) -> list[Assignment]:
        """``cohort``'s assignments, soonest due first, with each of ``learners``' completion."""
        with self.accounts.sessions() as s:
            rows = list(s.scalars(select(AssignmentRow).where(AssignmentRow.cohort == cohort)
                                  .order_by(AssignmentRow.due_at, AssignmentRow.id)))
        out = []
        for r in rows:
            items = json.loads(r.items)
            done = {u.id: self._done(u, r.kind, items, r.created_at, r.due_at) for u in (learners or [])}
            out.append(Assignment(r.id, r.cohort, r.kind, r.title, items, r.due_at, done))
        return out

    def learner_assignments(self, learner: User) -> list[Assignment]:
        """What ``learner``'s cohort was assigned, with their own completion."""
        if not learner.cohort:
            return []
        return self.assignments(learner.cohort, [learner])

    def _done(self, u: User, kind: str, items, since: datetime, due: datetime) -> bool:
        from torchdojo.store.models import MockRow, ReviewLogRow, SubmissionRow

        d = self.learners(u)
        with d.sessions() as s:
            if kind == "mock":
                q = select(func.count()).select_from(MockRow).where(
                    MockRow.status == "graded", MockRow.level == items["level"], MockRow.started_at >= since)
                return (s.scalar(q) or 0) > 0
            if kind == "questions":
                got = set(s.scalars(select(ReviewLogRow.question_id).where(ReviewLogRow.reviewed_at >= since,
                                                                            ReviewLogRow.question_id.in_(items))))
                return got >= set(items)
            got = set(s.scalars(select(SubmissionRow.challenge_id).where(
                SubmissionRow.verdict == "Accepted", SubmissionRow.mode == "submit",
                SubmissionRow.challenge_id.in_(items))))
            return got >= set(items)

    # -- comments ---------------------------------------------------------------------------
    def comment(self, viewer: User, learner_id: int, scorecard_id: int, text: str,
                now: datetime | None = None) -> int:
        """Comment on learner ``learner_id``'s scorecard ``scorecard_id`` (which must exist in their
        store). Raises :class:`CohortError` (404 unknown learner or scorecard, 400 empty/over-long)."""
        u = self.learner(viewer, learner_id)
        text = (text or "").strip()
        if not 1 <= len(text) <= 5000:
            raise CohortError("a comment has 1 to 5000 characters")
        if self.scorecard(viewer, learner_id, scorecard_id) is None:
            raise CohortError(f"no scorecard {scorecard_id} for this learner", 404)
        with self.accounts.sessions.begin() as s:
            row = CoachCommentRow(learner_id=u.id, scorecard_id=scorecard_id, author_id=viewer.id, text=text,
                                  created_at=now or datetime.now(UTC))
            s.add(row)
            s.flush()
            return row.id

    def comments(self, learner_id: int, scorecard_id: int) -> list[Comment]:
        """The comments on a learner's scorecard, oldest first (for the coach and for the learner)."""
        from torchdojo.store.team_models import UserRow

        with self.accounts.sessions() as s:
            rows = s.execute(select(CoachCommentRow, UserRow.name, UserRow.email)
                             .join(UserRow, UserRow.id == CoachCommentRow.author_id)
                             .where(CoachCommentRow.learner_id == learner_id,
                                    CoachCommentRow.scorecard_id == scorecard_id)
                             .order_by(CoachCommentRow.id)).all()
        return [Comment(c.id, name or email, c.text, c.created_at) for c, name, email in rows]

    def scorecards(self, viewer: User, learner_id: int, limit: int = 50):
        """A learner's most recent final or open scorecards (newest first), as the learner's store
        has them (:class:`torchdojo.practice.scorecards.Scorecards` rows)."""
        from torchdojo.store.models import ScorecardRow

        u = self.learner(viewer, learner_id)
        d = self.learners(u)
        with d.sessions() as s:
            return list(s.scalars(select(ScorecardRow).order_by(ScorecardRow.created_at.desc(), ScorecardRow.id.desc())
                                  .limit(limit)))

    def scorecard(self, viewer: User, learner_id: int, scorecard_id: int):
        """One of a learner's scorecards (:meth:`torchdojo.practice.scorecards.Scorecards.get`'s
        view), or None."""
        u = self.learner(viewer, learner_id)
        d = self.learners(u)
        from torchdojo.practice.scorecards import ScorecardError

        try:
            return d.scorecards.get(scorecard_id)
        except ScorecardError:
            return None
