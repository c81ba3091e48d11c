"""SQLAlchemy 2 models: what torchdojo remembers about a user's practice.

The bank itself is files (``bank/``), not rows: rows refer to entries by their stable id
(``question_id``). Datetimes are stored as naive UTC and returned timezone-aware (UTC).
Schema changes go through Alembic migrations in ``store/migrations``.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import DateTime, Float, ForeignKey, Index, Integer, String, Text, TypeDecorator
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class UTCDateTime(TypeDecorator):
    """Timezone-aware UTC datetimes on every backend (SQLite has no time zones)."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect):
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime: pass a timezone-aware (UTC) datetime")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect):
        return None if value is None else value.replace(tzinfo=UTC)


class Base(DeclarativeBase):
    pass


class CardRow(Base):
    """The FSRS memory state of one flashcard (one bank entry).

    ``state``: fsrs.State (1 Learning, 2 Review, 3 Relearning); ``stability`` in days;
    ``difficulty`` in [1, 10]; ``due`` when the card is next shown.
    """

    __tablename__ = "cards"

    question_id: Mapped[str] = mapped_column(String(80), primary_key=True)
    state: Mapped[int] = mapped_column(Integer)
    step: Mapped[int | None] = mapped_column(Integer, nullable=True)
    stability: Mapped[float | None] = mapped_column(Float, nullable=True)
    difficulty: Mapped[float | None] = mapped_column(Float, nullable=True)
    due: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    last_review: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class ReviewLogRow(Base):
    """One review: which card, the rating (1 Again, 2 Hard, 3 Good, 4 Easy), when, how long (ms)."""

    __tablename__ = "review_logs"
    __table_args__ = (Index("ix_review_logs_reviewed_at", "reviewed_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    question_id: Mapped[str] = mapped_column(String(80), ForeignKey("cards.question_id"), index=True)
    rating: Mapped[int] = mapped_column(Integer)
    reviewed_at: Mapped[datetime] = mapped_column(UTCDateTime)
    duration_ms: Mapped[int | None] = mapped_column(Integer, nullable=True)


class SubmissionRow(Base):
    """A code submission and its verdict. ``code`` is kept verbatim so any verdict the user
    disputes can be reproduced (re-judged) from it; ``report`` is the full report as JSON."""

    __tablename__ = "submissions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    challenge_id: Mapped[str] = mapped_column(String(80), index=True)
    mode: Mapped[str] = mapped_column(String(10))  # run | submit
    code: Mapped[str] = mapped_column(Text)
    verdict: Mapped[str] = mapped_column(String(40))
    report: Mapped[str] = mapped_column(Text)
    backend: Mapped[str] = mapped_column(String(60))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
