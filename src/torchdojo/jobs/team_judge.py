"""Judge submissions stored as rows, exactly once per row: the database side of team mode.

No Celery here (the Celery task in :mod:`torchdojo.jobs.celery_app` calls these), so the rules
are plain functions over the ``submissions`` table:

- :func:`store_pending` writes the submission ``pending`` (code verbatim, verdict ``Pending``);
  only its id goes on the queue.
- :func:`claim` (write transaction, the row locked) takes a row for judging: a row already
  ``done`` or ``failed`` is never judged again (a job delivered twice is acknowledged and
  dropped); otherwise ``attempts`` grows by one and the row reads ``judging``. A row whose
  attempts are spent (a submission that kills every worker that takes it) ends ``failed``.
- :func:`finish` writes the verdict only if no other attempt wrote one first (one verdict per
  submission, whichever duplicate finishes first); :func:`fail` ends a row ``failed`` with the
  reason, under the same rule.

Hidden tests reach workers from the bank on each worker's disk: the job carries the digest of
the challenge as the submitting process loaded it (:func:`challenge_digest`), and a worker whose
bank differs refuses the job (:class:`BankMismatch`, retried, so a worker with the right bank
may take it) instead of judging against other tests.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

from sqlalchemy.orm import Session, sessionmaker

from torchdojo.store.models import SubmissionRow

FINAL = ("done", "failed")
PENDING_VERDICT = "Pending"


class BankMismatch(RuntimeError):
    """This worker's copy of a challenge differs from the one the submission was made against."""


def challenge_digest(challenge) -> str:
    """SHA-256 (hex) of what decides a challenge's verdicts: metadata (limits, rules), reference,
    harness and tests (the hidden ones included)."""
    h = hashlib.sha256()
    meta = json.dumps(challenge.meta.model_dump(mode="json"), sort_keys=True)
    for part in (meta, challenge.reference_source, challenge.harness_source, challenge.tests_source):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()


def store_pending(sessions: sessionmaker[Session], challenge_id: str, code: str,
                  mode: Literal["run", "submit"]) -> int:
    """Store a submission ``pending``; returns its id (int)."""
    with sessions.begin() as s:  # type: ignore[attr-defined]
        row = SubmissionRow(challenge_id=challenge_id, mode=mode, code=code, verdict=PENDING_VERDICT, report="{}",
                            backend="", created_at=datetime.now(UTC), status="pending", attempts=0)
        s.add(row)
        s.flush()
        return row.id


def set_job_id(sessions: sessionmaker[Session], submission_id: int, job_id: str) -> None:
    """Remember the queue's id of the job judging ``submission_id``."""
    with sessions.begin() as s:  # type: ignore[attr-defined]
        row = s.get(SubmissionRow, submission_id, with_for_update=True)
        if row is not None:
            row.job_id = job_id


def forget(sessions: sessionmaker[Session], submission_id: int) -> None:
    """Delete a pending submission the queue refused (never acknowledged to the user)."""
    with sessions.begin() as s:  # type: ignore[attr-defined]
        row = s.get(SubmissionRow, submission_id, with_for_update=True)
        if row is not None and row.status == "pending":
            s.delete(row)


@dataclass(frozen=True)
class Claim:
    """A row taken for judging (its code, challenge, mode and attempt number)."""

    challenge_id: str
    code: str
    mode: str
    attempt: int


def claim(sessions: sessionmaker[Session], submission_id: int, worker: str,
          max_attempts: int, retake: int | None = None) -> Claim | str:
    """Take ``submission_id`` for judging. Returns a :class:`Claim`, or a string saying why not:
    ``missing`` (no such row), ``done``/``failed`` (judged already: drop the job), or ``spent``
    (this would be attempt ``max_attempts + 1``: the row is now ``failed``). ``retake``: the
    attempt number of a run that claimed the row and then lost the database; while the row is
    still ``judging`` at that attempt, that attempt is taken again rather than a new one counted
    (a database outage is not the submission's fault)."""
    with sessions.begin() as s:  # type: ignore[attr-defined]
        row = s.get(SubmissionRow, submission_id, with_for_update=True)
        if row is None:
            return "missing"
        if row.status in FINAL:
            return row.status
        if retake is not None and row.status == "judging" and row.attempts == retake:
            row.worker, row.started_at = worker, datetime.now(UTC)
            return Claim(row.challenge_id, row.code, row.mode, row.attempts)
        if row.attempts >= max_attempts:
            row.status, row.finished_at = "failed", datetime.now(UTC)
            row.verdict = "Judge Error"
            row.error = (f"gave up after {row.attempts} attempt(s): the worker judging it stopped each time "
                         f"without a verdict (last: {row.worker})")
            return "spent"
        row.status, row.attempts, row.worker, row.started_at = "judging", row.attempts + 1, worker, datetime.now(UTC)
        return Claim(row.challenge_id, row.code, row.mode, row.attempts)


def finish(sessions: sessionmaker[Session], submission_id: int, report) -> bool:
    """Write ``report``'s verdict (a :class:`torchdojo.judge.grade.Report`). Returns False, writing
    nothing, when the row already has its verdict (another attempt finished first)."""
    with sessions.begin() as s:  # type: ignore[attr-defined]
        row = s.get(SubmissionRow, submission_id, with_for_update=True)
        if row is None or row.status in FINAL:
            return False
        row.verdict, row.backend = report.verdict.value, report.backend
        row.report = json.dumps(report.to_dict(), default=str)
        row.status, row.error, row.finished_at = "done", None, datetime.now(UTC)
        return True


def fail(sessions: sessionmaker[Session], submission_id: int, reason: str) -> bool:
    """End the row ``failed`` with ``reason`` (the judge could not judge it; not a verdict on the
    code). Returns False when the row already has its verdict."""
    with sessions.begin() as s:  # type: ignore[attr-defined]
        row = s.get(SubmissionRow, submission_id, with_for_update=True)
        if row is None or row.status in FINAL:
            return False
        row.status, row.verdict, row.error, row.finished_at = "failed", "Judge Error", reason, datetime.now(UTC)
        row.report = json.dumps({"challenge": row.challenge_id, "mode": row.mode, "verdict": "Judge Error",
                                 "message": reason, "tests": []})
        return True


def release(sessions: sessionmaker[Session], submission_id: int, reason: str) -> None:
    """Put a row back to ``pending`` after a failed attempt that will be retried (``error`` keeps why)."""
    with sessions.begin() as s:  # type: ignore[attr-defined]
        row = s.get(SubmissionRow, submission_id, with_for_update=True)
        if row is not None and row.status not in FINAL:
            row.status, row.error = "pending", reason


def mean_judging_seconds(sessions: sessionmaker[Session], last: int = 20, default: float = 5.0) -> float:
    """Mean seconds a worker took over the last ``last`` submissions it judged (``default`` when none)."""
    from sqlalchemy import select

    with sessions() as s:
        rows = s.execute(select(SubmissionRow.started_at, SubmissionRow.finished_at)
                         .where(SubmissionRow.status == "done", SubmissionRow.started_at.is_not(None))
                         .order_by(SubmissionRow.id.desc()).limit(last)).all()
    spans = [(f - st).total_seconds() for st, f in rows if f is not None and st is not None]
    return sum(spans) / len(spans) if spans else default
