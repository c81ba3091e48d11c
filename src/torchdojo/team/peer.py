"""Peer mock interviews: two learners of a cohort interview each other, then swap.

The flow (the web's ``/peer`` pages call exactly these methods):

1. :meth:`PeerMocks.start` — learner A pairs up with B (same non-empty cohort, not A) at a
   level (and topics, and a number of questions per half). Two *disjoint* kits are drawn from
   the bank with interviewer mode's planner (:meth:`torchdojo.practice.interviews.Interviews.kit`):
   the entries A asks B and the entries B asks A. A's interview of B is started in **A's** store
   at once (stage ``a-asks``).
2. A runs it in interviewer mode (``/interview/<id>``: live rubric scorecard per question, the
   overall recommendation) and finalises it there. From then on the half is *final*.
3. :meth:`PeerMocks.swap` (either participant, once A's half is final): A's final scorecards are
   copied into **B's** store (:meth:`~torchdojo.practice.interviews.Interviews.receive`: a final
   interview with context ``interview``, reviewer ``peer``, marks, notes and recommendation kept)
   and B's interview of A is started in B's store (stage ``b-asks``).
4. :meth:`PeerMocks.finish` (either participant, once B's half is final): B's scorecards are
   copied into A's store; stage ``done``. Each learner then holds both scorecards: the one they
   marked (their own record) and the one they received (feedback).

:meth:`PeerMocks.refresh` copies a half as soon as it is final (the pages call it when shown),
so the feedback reaches the candidate without waiting for the swap or the finish.

**Access.** ``peer_mocks`` rows are server-wide (:class:`~torchdojo.store.team_models.PeerMockRow`),
not in a learner store, so isolation does not hold by construction here: every method takes the
acting user and raises :class:`PeerNotFound` (404) unless they are A or B of that row.

**Consistency.** A stage change is one write transaction of the server database holding the
peer mock's row (``FOR UPDATE``; the server's write lock), inside which the learner stores are
written (their own write locks: a learner store never waits on the server, so no lock cycle). A
copy is idempotent by its key (``peer-<id>-a`` / ``peer-<id>-b``): a retry after a crash between
the store's commit and the server's finds the first copy instead of making a second.

Nothing here imports the web or the CLI.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import or_, select

from torchdojo.practice.interviews import MAX_COUNT, Interview, InterviewError, InterviewNotFound
from torchdojo.store.db import Sessions
from torchdojo.store.team_models import PeerMockRow
from torchdojo.team.accounts import Accounts, User

STAGES = ("a-asks", "b-asks", "done")


class PeerError(ValueError):
    """A peer-mock request that cannot be done; ``status`` is the HTTP status a face answers
    with (400 bad input, 404 unknown or not a participant, 409 wrong stage, 422 no kit)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class PeerNotFound(PeerError):
    """No such peer mock, or the user is not one of its two participants (said the same way)."""

    def __init__(self, peer_id: int) -> None:
        super().__init__(f"there is no peer mock #{peer_id}", 404)


@dataclass(frozen=True)
class PeerMock:
    """A peer mock as the faces see it (``a``/``b``: the two participants)."""

    id: int
    a: User
    b: User
    level: str
    topics: list[str]
    a_asks: list[str]
    b_asks: list[str]
    stage: str
    a_interview_id: int | None
    b_interview_id: int | None
    a_copy_id: int | None
    b_copy_id: int | None
    created_at: datetime
    finished_at: datetime | None

    def role_of(self, user: User) -> str:
        """"a" or "b" (raises :class:`PeerNotFound` for anyone else)."""
        if user.id == self.a.id:
            return "a"
        if user.id == self.b.id:
            return "b"
        raise PeerNotFound(self.id)

    def partner_of(self, user: User) -> User:
        return self.b if self.role_of(user) == "a" else self.a

    @property
    def interviewer(self) -> User | None:
        """Who asks now (None when done)."""
        return {"a-asks": self.a, "b-asks": self.b}.get(self.stage)

    @property
    def candidate(self) -> User | None:
        """Who answers now (None when done)."""
        return {"a-asks": self.b, "b-asks": self.a}.get(self.stage)

    def own_interview_id(self, user: User) -> int | None:
        """The interview ``user`` runs (their record, in their store)."""
        return self.a_interview_id if self.role_of(user) == "a" else self.b_interview_id

    def received_id(self, user: User) -> int | None:
        """The copy of the scorecards ``user`` received (in their store; None until copied)."""
        return self.b_copy_id if self.role_of(user) == "a" else self.a_copy_id


def _name(u: User) -> str:
    return u.name or u.email


class PeerMocks:
    """Peer mocks over the server database (``sessions``), its accounts, and ``dojo_of``: a
    user → their learner :class:`~torchdojo.core.Dojo` (the web: ``app.state.learners.get(u).dojo``)."""

    def __init__(self, sessions: Sessions, accounts: Accounts, dojo_of: Callable[[User], object]) -> None:
        self.sessions = sessions
        self.accounts = accounts
        self.dojo_of = dojo_of

    # -- partners and reading ------------------------------------------------------------------
    def partners(self, user: User) -> list[User]:
        """Whom ``user`` may pair up with: the other active accounts of their cohort (none
        without a cohort), oldest first."""
        if not user.cohort:
            return []
        return [u for u in self.accounts.users(cohort=user.cohort) if u.id != user.id]

    def _load(self, row: PeerMockRow, users: dict[int, User] | None = None) -> PeerMock:
        users = users or {}
        a = users.get(row.a_id) or self.accounts.get(row.a_id)
        b = users.get(row.b_id) or self.accounts.get(row.b_id)
        if a is None or b is None:  # a participant's account was disabled: the mock is gone for both
            raise PeerNotFound(row.id)
        kits = json.loads(row.kits)
        return PeerMock(row.id, a, b, row.level, kits.get("topics", []), kits["a_asks"], kits["b_asks"], row.stage,
                        row.a_interview_id, row.b_interview_id, row.a_copy_id, row.b_copy_id, row.created_at,
                        row.finished_at)

    def get(self, peer_id: int, user: User) -> PeerMock:
        """Peer mock ``peer_id`` as seen by ``user``. Raises :class:`PeerNotFound` (404) when there
        is none or ``user`` is not one of its two participants."""
        with self.sessions() as s:
            row = s.get(PeerMockRow, peer_id)
        if row is None or user.id not in (row.a_id, row.b_id):
            raise PeerNotFound(peer_id)
        return self._load(row, {user.id: user})

    def list(self, user: User) -> list[PeerMock]:
        """``user``'s peer mocks (as A or B), newest first (mocks whose partner was disabled are left out)."""
        with self.sessions() as s:
            rows = list(s.scalars(select(PeerMockRow).where(or_(PeerMockRow.a_id == user.id,
                                                                 PeerMockRow.b_id == user.id))
                                  .order_by(PeerMockRow.id.desc())))
        out = []
        for r in rows:
            try:
                out.append(self._load(r, {user.id: user}))
            except PeerNotFound:
                pass
        return out

    # -- the flow ------------------------------------------------------------------------------
    def start(self, a: User, partner_id: int, level: str, topics: Sequence[str] = (), count: int | None = None,
              seed: int | None = None, now: datetime | None = None) -> PeerMock:
        """Pair ``a`` with the user ``partner_id`` of their cohort: draw two disjoint kits at
        ``level`` (``topics``: restrict; ``count``: questions per half, 1–15, None: the level's
        default) and start A's interview of B in A's store. Raises :class:`PeerError`: 400 the
        partner is not another active member of ``a``'s cohort (the same message for an unknown
        id), 422 a bad level/topic/count or a bank too small for two kits."""
        ok_id = isinstance(partner_id, int) and not isinstance(partner_id, bool) and 0 <= partner_id < 2**63
        b = self.accounts.get(partner_id) if ok_id else None
        if b is None or b.id == a.id or not a.cohort or b.cohort != a.cohort:
            raise PeerError("choose your partner from the other members of your cohort"
                            + ("" if a.cohort else ": you are in no cohort, ask your coach"), 400)
        if count is not None and not 1 <= count <= MAX_COUNT:
            raise PeerError(f"the number of questions per half must be between 1 and {MAX_COUNT}", 422)
        topics = list(dict.fromkeys(topics))
        da = self.dojo_of(a)
        try:
            a_asks = da.interviews.kit(level, topics or None, None, count, seed)
        except InterviewError as e:
            raise PeerError(str(e), 422) from None
        try:
            b_asks = da.interviews.kit(level, topics or None, None, count, None if seed is None else seed + 1,
                                       exclude=a_asks)
        except InterviewError:
            raise PeerError("the bank has too few questions for two different kits at this set-up: "
                            "widen the topics", 422) from None
        now = now or datetime.now(UTC)
        kits = {"a_asks": a_asks, "b_asks": b_asks, "topics": topics}
        with self.sessions.begin() as s:
            row = PeerMockRow(a_id=a.id, b_id=b.id, level=level, kits=json.dumps(kits), stage="a-asks",
                              created_at=now)
            s.add(row)
            s.flush()
            row.a_interview_id = da.interviews.start(a_asks, candidate=_name(b), interviewer=_name(a), level=level,
                                                     topics=topics, now=now)
            peer_id = row.id
        return self.get(peer_id, a)

    def _half(self, pm: PeerMock, half: str) -> tuple[User, User, int | None]:
        """(interviewer, candidate, interview id in the interviewer's store) of half "a" or "b"."""
        return (pm.a, pm.b, pm.a_interview_id) if half == "a" else (pm.b, pm.a, pm.b_interview_id)

    def _final(self, pm: PeerMock, half: str) -> Interview | None:
        asker, _cand, iid = self._half(pm, half)
        if iid is None:
            return None
        try:
            iv = self.dojo_of(asker).interviews.get(iid)
        except InterviewNotFound:
            return None
        return iv if iv.final else None

    def _copy(self, pm: PeerMock, half: str, iv: Interview) -> int:
        asker, cand, _ = self._half(pm, half)
        return self.dojo_of(cand).interviews.receive(iv, f"peer-{pm.id}-{half}", candidate=_name(cand),
                                                     interviewer=_name(asker), reviewer="peer")

    def _locked(self, s, peer_id: int, user: User) -> PeerMockRow:
        row = s.get(PeerMockRow, peer_id, with_for_update=True)
        if row is None or user.id not in (row.a_id, row.b_id):
            raise PeerNotFound(peer_id)
        return row

    def refresh(self, peer_id: int, user: User) -> PeerMock:
        """Copy every half that is final and not yet copied into its candidate's store (no
        stage change). Returns the peer mock. Raises :class:`PeerNotFound`."""
        pm = self.get(peer_id, user)
        todo = [h for h, copied in (("a", pm.a_copy_id), ("b", pm.b_copy_id)) if copied is None]
        finals = {h: iv for h in todo if (iv := self._final(pm, h)) is not None}
        if not finals:
            return pm
        with self.sessions.begin() as s:
            row = self._locked(s, peer_id, user)
            for h, iv in finals.items():
                if getattr(row, f"{h}_copy_id") is None:
                    setattr(row, f"{h}_copy_id", self._copy(pm, h, iv))
        return self.get(peer_id, user)

    def swap(self, peer_id: int, user: User, now: datetime | None = None) -> PeerMock:
        """After A's half is final: copy it to B, start B's interview of A in B's store, stage
        ``b-asks``. Raises :class:`PeerNotFound`, or :class:`PeerError` (409) when the stage is
        not ``a-asks`` or A has not finalised their interview yet."""
        pm = self.get(peer_id, user)
        if pm.stage != "a-asks":
            raise PeerError("the roles were swapped already", 409)
        iv = self._final(pm, "a")
        if iv is None:
            raise PeerError(f"{_name(pm.a)} has not finished their interview yet: swap once it is final", 409)
        now = now or datetime.now(UTC)
        db = self.dojo_of(pm.b)
        with self.sessions.begin() as s:
            row = self._locked(s, peer_id, user)
            if row.stage != "a-asks":  # swapped meanwhile by the partner
                raise PeerError("the roles were swapped already", 409)
            if row.a_copy_id is None:
                row.a_copy_id = self._copy(pm, "a", iv)
            row.b_interview_id = db.interviews.start(pm.b_asks, candidate=_name(pm.a), interviewer=_name(pm.b),
                                                     level=pm.level, topics=pm.topics, now=now)
            row.stage = "b-asks"
        return self.get(peer_id, user)

    def finish(self, peer_id: int, user: User, now: datetime | None = None) -> PeerMock:
        """After B's half is final: copy it to A, stage ``done``. Raises :class:`PeerNotFound`, or
        :class:`PeerError` (409) when the stage is not ``b-asks`` or B's interview is not final."""
        pm = self.get(peer_id, user)
        if pm.stage != "b-asks":
            raise PeerError("this peer mock is finished already" if pm.stage == "done"
                            else "swap first: the second half has not started", 409)
        iv = self._final(pm, "b")
        if iv is None:
            raise PeerError(f"{_name(pm.b)} has not finished their interview yet: finish once it is final", 409)
        now = now or datetime.now(UTC)
        with self.sessions.begin() as s:
            row = self._locked(s, peer_id, user)
            if row.stage != "b-asks":
                raise PeerError("this peer mock is finished already", 409)
            if row.b_copy_id is None:
                row.b_copy_id = self._copy(pm, "b", iv)
            row.stage, row.finished_at = "done", now
        return self.get(peer_id, user)
