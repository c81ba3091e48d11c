"""SQLAlchemy 2 models: what torchdojo remembers about a user's practice.

The bank itself is files (``bank/``), not rows: rows refer to entries by their stable id
(``question_id``). Datetimes are stored as naive UTC and returned timezone-aware (UTC).
Schema changes go through Alembic migrations in ``store/migrations``.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Boolean, DateTime, Float, ForeignKey, Index, Integer, String, Text, TypeDecorator, false
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
    #: Suspended cards never enter the queue until unsuspended (Anki's "suspend").
    suspended: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: Buried until this time (next local midnight, UTC here): out of the queue until then.
    buried_until: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class ReviewLogRow(Base):
    """One review: which card, the rating (1 Again, 2 Hard, 3 Good, 4 Easy), when, how long (ms)."""

    __tablename__ = "review_logs"
    __table_args__ = (Index("ix_review_logs_reviewed_at", "reviewed_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    question_id: Mapped[str] = mapped_column(String(80), ForeignKey("cards.question_id"), index=True)
    rating: Mapped[int] = mapped_column(Integer)
    reviewed_at: Mapped[datetime] = mapped_column(UTCDateTime)
    duration_ms: Mapped[int | None] = mapped_column(Integer, nullable=True)


class NoteRow(Base):
    """The learner's note and bookmark on one card (bank entry id, key-point card id or own card id)."""

    __tablename__ = "notes"

    card_id: Mapped[str] = mapped_column(String(80), primary_key=True)
    text: Mapped[str] = mapped_column(Text, default="", server_default="")
    bookmarked: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)


class OwnCardRow(Base):
    """A card the learner wrote: front and back in Markdown, optional key points (a JSON list
    of strings) so answers to it can be graded. Its card id is ``own:<id>``."""

    __tablename__ = "own_cards"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    front: Mapped[str] = mapped_column(Text)
    back: Mapped[str] = mapped_column(Text, default="", server_default="")
    key_points: Mapped[str] = mapped_column(Text, default="[]", server_default="[]")
    topic: Mapped[str | None] = mapped_column(String(40), nullable=True)
    level: Mapped[str | None] = mapped_column(String(10), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)


class UserSettingRow(Base):
    """One study setting the learner chose (``key`` → JSON ``value``); a setting with no row
    takes its ``TORCHDOJO_*`` default. Keys: see :mod:`torchdojo.practice.study_settings`."""

    __tablename__ = "user_settings"

    key: Mapped[str] = mapped_column(String(60), primary_key=True)
    value: Mapped[str] = mapped_column(Text)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)


class ChallengeProgressRow(Base):
    """Per challenge: how many of its hints the user has revealed, and whether they gave up
    (which unlocks the editorial, as an Accepted submission does)."""

    __tablename__ = "challenge_progress"

    challenge_id: Mapped[str] = mapped_column(String(80), primary_key=True)
    hints_shown: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    gave_up_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


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
    #: ``done`` (judged in the request, or by a worker), or in team mode ``pending`` (queued),
    #: ``judging`` (a worker took it), ``failed`` (the judge could not judge it: ``error`` says why).
    status: Mapped[str] = mapped_column(String(10), default="done", server_default="done", index=True)
    #: Times a worker started judging it (a worker killed mid-job leaves one more).
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    job_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    worker: Mapped[str | None] = mapped_column(String(120), nullable=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class MockRow(Base):
    """One mock interview. ``status``: active → grading → graded. ``end_reason``: submitted |
    time-out. ``deadline`` = started_at + minutes. ``config`` is the set-up as JSON (topics,
    types, per-item minutes, seed). ``current_position``/``current_since`` track which item is
    open so time spent per item is measured by the server, not trusted from the client."""

    __tablename__ = "mocks"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    level: Mapped[str] = mapped_column(String(10))
    minutes: Mapped[int] = mapped_column(Integer)
    config: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(12), index=True)
    started_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    deadline: Mapped[datetime] = mapped_column(UTCDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    end_reason: Mapped[str | None] = mapped_column(String(12), nullable=True)
    score: Mapped[float | None] = mapped_column(Float, nullable=True)
    current_position: Mapped[int | None] = mapped_column(Integer, nullable=True)
    current_since: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class MockItemRow(Base):
    """One item of a mock interview: a bank entry answered in prose (``kind`` question) or a
    coding challenge answered with code through the judge (``kind`` challenge).

    ``answer`` is autosaved verbatim; ``revealed_before_answer`` records a reveal of the model
    answer while the answer was still empty (the answer is then locked empty). ``score`` 0–100
    once graded; ``feedback`` the grader's :class:`torchdojo.grading.feedback.Feedback` as JSON
    (prose) or the judge's verdict summary (code)."""

    __tablename__ = "mock_items"
    __table_args__ = (Index("ux_mock_items_position", "mock_id", "position", unique=True),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    mock_id: Mapped[int] = mapped_column(Integer, ForeignKey("mocks.id"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(10))
    ref_id: Mapped[str] = mapped_column(String(80))
    answer: Mapped[str] = mapped_column(Text, default="")
    answer_saved_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    flagged: Mapped[bool] = mapped_column(Boolean, default=False)
    revealed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    revealed_before_answer: Mapped[bool] = mapped_column(Boolean, default=False)
    time_spent_ms: Mapped[int] = mapped_column(Integer, default=0)
    score: Mapped[int | None] = mapped_column(Integer, nullable=True)
    feedback: Mapped[str | None] = mapped_column(Text, nullable=True)
    verdict: Mapped[str | None] = mapped_column(String(40), nullable=True)
    #: When grading finished for this item (None: still to grade, or grading failed).
    graded_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    #: A follow-up item: the position of the item it follows up, the question asked, and the
    #: key point (or linked entry) it probes.
    parent_position: Mapped[int | None] = mapped_column(Integer, nullable=True)
    prompt: Mapped[str | None] = mapped_column(Text, nullable=True)
    target: Mapped[str | None] = mapped_column(String(80), nullable=True)
    #: An answer given out loud: its transcript as JSON (``torchdojo.speech.Transcript``: words
    #: with start/end seconds), for delivery feedback in the report (migration 0007).
    speech: Mapped[str | None] = mapped_column(Text, nullable=True)


class InterviewRow(Base):
    """An interview run by a person with a kit (interviewer mode). ``kit`` is JSON (level,
    topics, types, entry ids); ``status`` open | final; ``recommendation`` strong-no | no | yes |
    strong-yes."""

    __tablename__ = "interviews"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    kit: Mapped[str] = mapped_column(Text)
    candidate: Mapped[str] = mapped_column(String(200), default="")
    interviewer: Mapped[str] = mapped_column(String(200), default="")
    status: Mapped[str] = mapped_column(String(10))
    recommendation: Mapped[str | None] = mapped_column(String(12), nullable=True)
    notes: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    finalized_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class ScorecardRow(Base):
    """A rubric scorecard for one answer to one entry (see :mod:`torchdojo.practice.scorecards`).

    ``context``: practice | mock | interview; ``reviewer``: self | peer | interviewer;
    ``status``: open | final. ``machine_*``: what the grader proposed (``grader_error`` when it
    failed). ``score``/``band``: from the marks (the formula in the scorecards module), set
    when final. ``parent_id``: the scorecard of the answer a follow-up (``prompt``) probed."""

    __tablename__ = "scorecards"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    entry_id: Mapped[str] = mapped_column(String(80), index=True)
    context: Mapped[str] = mapped_column(String(12))
    reviewer: Mapped[str] = mapped_column(String(12))
    mock_item_id: Mapped[int | None] = mapped_column(Integer, ForeignKey("mock_items.id"), nullable=True, index=True)
    interview_id: Mapped[int | None] = mapped_column(Integer, ForeignKey("interviews.id"), nullable=True, index=True)
    parent_id: Mapped[int | None] = mapped_column(Integer, ForeignKey("scorecards.id"), nullable=True)
    prompt: Mapped[str | None] = mapped_column(Text, nullable=True)
    answer: Mapped[str] = mapped_column(Text, default="")
    grader: Mapped[str | None] = mapped_column(String(40), nullable=True)
    grader_error: Mapped[str | None] = mapped_column(Text, nullable=True)
    machine_uncertain: Mapped[bool] = mapped_column(Boolean, default=False)
    machine_score: Mapped[int | None] = mapped_column(Integer, nullable=True)
    status: Mapped[str] = mapped_column(String(10), index=True)
    recommendation: Mapped[str | None] = mapped_column(String(12), nullable=True)
    notes: Mapped[str] = mapped_column(Text, default="")
    score: Mapped[int | None] = mapped_column(Integer, nullable=True)
    band: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    finalized_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    #: Team mode: the answer waits for a worker to grade it (the ``grade_answer`` job); the
    #: machine's proposals are filled in then (migration 0010).
    machine_pending: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: The grader's :class:`torchdojo.grading.feedback.Feedback` as JSON, when a worker graded it.
    feedback: Mapped[str | None] = mapped_column(Text, nullable=True)


class ScorecardLineRow(Base):
    """One line of a scorecard: a key point, a misconception, a STAR part or a design item.

    ``proposal``: the machine's mark (None when it could not propose); ``proposal_uncertain``:
    the machine does not trust it (the person must decide); ``evidence_*``: the answer span that
    shows it; ``mark``/``marked_by``/``marked_at``: the mark that counts and who set it."""

    __tablename__ = "scorecard_lines"
    __table_args__ = (Index("ux_scorecard_lines_position", "scorecard_id", "position", unique=True),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    scorecard_id: Mapped[int] = mapped_column(Integer, ForeignKey("scorecards.id"))
    position: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    ref: Mapped[str] = mapped_column(String(200))
    label: Mapped[str] = mapped_column(Text)
    weight: Mapped[int] = mapped_column(Integer)
    proposal: Mapped[str | None] = mapped_column(String(12), nullable=True)
    proposal_uncertain: Mapped[bool] = mapped_column(Boolean, default=False)
    evidence_start: Mapped[int | None] = mapped_column(Integer, nullable=True)
    evidence_end: Mapped[int | None] = mapped_column(Integer, nullable=True)
    evidence_text: Mapped[str | None] = mapped_column(Text, nullable=True)
    mark: Mapped[str | None] = mapped_column(String(12), nullable=True)
    marked_by: Mapped[str | None] = mapped_column(String(12), nullable=True)
    marked_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    note: Mapped[str] = mapped_column(Text, default="")
