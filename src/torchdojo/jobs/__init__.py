"""Background jobs (placeholder until merge: the generic jobs layer, its task registry and
Backend protocol, is written beside this; only what the Celery side needs is here).

Team mode runs jobs on Celery + Redis workers (:mod:`torchdojo.jobs.celery_app`); a job is a
database row's id, and the task that runs it is idempotent.
"""

from __future__ import annotations


class QueueFull(RuntimeError):
    """The queue holds more jobs than allowed; submit again in ``retry_after`` seconds (int, >= 1).
    Nothing was stored: the caller's submission was not accepted (the web answers 429 + Retry-After)."""

    def __init__(self, depth: int, limit: int, retry_after: int) -> None:
        super().__init__(f"the judge's queue is full ({depth} jobs waiting, at most {limit}); "
                         f"try again in {retry_after} s")
        self.depth, self.limit, self.retry_after = depth, limit, retry_after


class QueueUnavailable(RuntimeError):
    """The broker (Redis) did not take the job; nothing was stored. The message says why."""
