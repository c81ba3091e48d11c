"""Tables of a team server (accounts, sessions, cohorts' assignments, coach comments, peer mocks).

They live in the server's own database (the ``public`` schema on PostgreSQL, the main file on
SQLite), apart from the learners' practice data: each learner's cards, answers, mocks,
scorecards and submissions live in a *learner store* of their own (a PostgreSQL schema or a
SQLite file, see :mod:`torchdojo.store.learners`). These tables use their own metadata
(:class:`TeamBase`), so a learner's backup (``torchdojo data backup``) never holds them.
Created by migrations 0009 and 0011 (peer mocks) on the server's database only.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from torchdojo.store.models import UTCDateTime

ROLES = ("learner", "coach", "admin")


class TeamBase(DeclarativeBase):
    pass


def server_metadata():
    """The server database's whole schema: the practice tables (:class:`~torchdojo.store.models.Base`,
    which a learner store holds alone) and these (migration 0009). Raises nothing."""
    from sqlalchemy import MetaData

    from torchdojo.store.models import Base

    md = MetaData()
    for t in (*Base.metadata.sorted_tables, *TeamBase.metadata.sorted_tables):
        t.to_metadata(md)
    return md


class UserRow(TeamBase):
    """An account. ``role``: learner | coach | admin. ``password_hash``: argon2id (PHC string).
    ``cohort``: the group a coach follows (free text, e.g. "fall-2026"); ``store``: the name
    of the learner store holding this user's practice data (``learner_<id>``)."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    email: Mapped[str] = mapped_column(String(254), unique=True)
    name: Mapped[str] = mapped_column(String(120), default="")
    role: Mapped[str] = mapped_column(String(10))
    cohort: Mapped[str] = mapped_column(String(60), default="", server_default="")
    password_hash: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    last_seen_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    disabled: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class InvitationRow(TeamBase):
    """An invitation to sign up: only the SHA-256 of its token is stored (the token is shown
    once, in the invitation link). Used once; expires at ``expires_at``."""

    __tablename__ = "invitations"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    email: Mapped[str] = mapped_column(String(254))
    role: Mapped[str] = mapped_column(String(10))
    cohort: Mapped[str] = mapped_column(String(60), default="", server_default="")
    invited_by: Mapped[int | None] = mapped_column(Integer, ForeignKey("users.id"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    user_id: Mapped[int | None] = mapped_column(Integer, ForeignKey("users.id"), nullable=True)


class LoginSessionRow(TeamBase):
    """A server-side log-in session: the cookie holds a random token, the row its SHA-256 (a
    stolen database yields no usable cookie). ``csrf_token``: the session's CSRF token (sent
    back in a form field or the ``X-CSRF-Token`` header on every state-changing request)."""

    __tablename__ = "login_sessions"
    __table_args__ = (Index("ix_login_sessions_user", "user_id"),)

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(Integer, ForeignKey("users.id"))
    csrf_token: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)


class AssignmentRow(TeamBase):
    """Work a coach set a cohort: ``kind`` mock | questions | challenges; ``items`` a JSON list
    (entry or challenge ids; for a mock, its level and topics as JSON object); due at ``due_at``."""

    __tablename__ = "assignments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    cohort: Mapped[str] = mapped_column(String(60), index=True)
    kind: Mapped[str] = mapped_column(String(12))
    title: Mapped[str] = mapped_column(String(200))
    items: Mapped[str] = mapped_column(Text)
    due_at: Mapped[datetime] = mapped_column(UTCDateTime)
    created_by: Mapped[int] = mapped_column(Integer, ForeignKey("users.id"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class CoachCommentRow(TeamBase):
    """A coach's comment on one of a learner's scorecards (the scorecard lives in the
    learner's store: ``scorecard_id`` is its id there)."""

    __tablename__ = "coach_comments"
    __table_args__ = (Index("ix_coach_comments_target", "learner_id", "scorecard_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    learner_id: Mapped[int] = mapped_column(Integer, ForeignKey("users.id"))
    scorecard_id: Mapped[int] = mapped_column(Integer)
    author_id: Mapped[int] = mapped_column(Integer, ForeignKey("users.id"))
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class PeerMockRow(TeamBase):
    """A peer mock interview (:mod:`torchdojo.team.peer`): learner ``a_id`` asks ``b_id`` the
    entries ``kits["a_asks"]`` in interviewer mode, then they swap and ``b_id`` asks ``kits["b_asks"]``
    (two disjoint kits). ``stage``: a-asks → b-asks → done. ``a_interview_id``: the interview A
    runs, in A's store; ``b_interview_id``: the one B runs, in B's store (None until the swap).
    ``a_copy_id`` / ``b_copy_id``: the copy of that half's final scorecards in the *candidate's*
    store (B's / A's), None until copied. Server-wide rows: every read checks membership."""

    __tablename__ = "peer_mocks"
    __table_args__ = (Index("ix_peer_mocks_a", "a_id"), Index("ix_peer_mocks_b", "b_id"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    a_id: Mapped[int] = mapped_column(Integer, ForeignKey("users.id"))
    b_id: Mapped[int] = mapped_column(Integer, ForeignKey("users.id"))
    level: Mapped[str] = mapped_column(String(10))
    kits: Mapped[str] = mapped_column(Text)
    stage: Mapped[str] = mapped_column(String(10))
    a_interview_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    b_interview_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    a_copy_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    b_copy_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
