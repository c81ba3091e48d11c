"""The registered tasks. Each takes the id of a stored row, is idempotent and writes its result
in the database (see :mod:`torchdojo.jobs`)."""

from __future__ import annotations

from torchdojo.jobs import JobContext, JobError, task


def mocks_waiting_for_grading(ctx: JobContext) -> list[int]:
    """Ids of the mocks the database shows ended but not graded (status ``grading``): a server
    stopped mid-grading, or a mock whose time ran out while nothing was running."""
    return [m.id for m in ctx.dojo.mocks.list() if m.status == "grading"]


@task("grade_mock", pending=mocks_waiting_for_grading)
def grade_mock(ctx: JobContext, ref: int) -> None:
    """Grade mock ``ref``'s items that are not graded yet, then mark it ``graded``
    (:meth:`torchdojo.practice.mock.MockInterviews.grade`, one commit per item).

    Idempotent: graded items are skipped, so a re-run after a crash or a retry grades only what
    is left; on a mock with nothing left it changes nothing. Items whose grading failed
    (``Feedback.error``, a judge error) stay ungraded and are graded again by the next run — that
    is how "grade again" works. Raises :class:`JobError` for an unknown or still-running mock and
    :class:`~torchdojo.jobs.JobStopped` when the backend shuts down mid-way (nothing is stored for
    the item being graded)."""
    from torchdojo.practice.mock import MockError

    mocks = ctx.dojo.mocks
    try:
        m = mocks.get(ref)
    except MockError as e:
        raise JobError(f"mock #{ref}: {e}") from None
    if m.status == "active":
        raise JobError(f"mock #{ref} is still running: finish it before grading it")
    if m.status == "graded" and all(i.graded for i in m.items):
        return  # finished work: nothing to repeat
    ctx.check_stopping()
    mocks.grade(ref, ctx.grader, progress=ctx.progress)
