"""The registered tasks. Each takes the id of a stored row, is idempotent and writes its result
in the database (see :mod:`torchdojo.jobs`)."""

from __future__ import annotations

from torchdojo.jobs import JobContext, JobError, task


def mocks_waiting_for_grading(ctx: JobContext) -> list[int]:
    """Ids of the mocks the database shows ended but not graded (status ``grading``): a server
    stopped mid-grading, or a mock whose time ran out while nothing was running."""
    return [m.id for m in ctx.dojo.mocks.list() if m.status == "grading"]


def mock_grading_state(ctx: JobContext, ref: int) -> str | None:
    """What the database shows of grading mock ``ref``: ``done`` (status ``graded``), ``pending``
    (``grading``), None (no such mock, or one still running)."""
    from torchdojo.practice.mock import MockError

    try:
        status = ctx.dojo.mocks.get(ref).status
    except MockError:
        return None
    return {"graded": "done", "grading": "pending"}.get(status)


@task("grade_mock", pending=mocks_waiting_for_grading, state_of=mock_grading_state)
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


# -- practice answers graded by a worker (team mode) --------------------------------------------

def answers_waiting_for_grading(ctx: JobContext) -> list[int]:
    """Ids of the scorecards whose answer waits for the machine's proposals (``machine_pending``)."""
    return ctx.dojo.scorecards.pending_machine()


def answer_grading_state(ctx: JobContext, ref: int) -> str | None:
    """``done`` (proposals in), ``pending`` (waiting), None (no such scorecard)."""
    from torchdojo.practice.scorecards import ScorecardError

    try:
        return "pending" if ctx.dojo.scorecards.get(ref).machine_pending else "done"
    except ScorecardError:
        return None


@task("grade_answer", pending=answers_waiting_for_grading, state_of=answer_grading_state)
def grade_answer(ctx: JobContext, ref: int) -> None:
    """Grade the answer of scorecard ``ref`` (a practice answer stored by the web in team mode)
    and fill in the machine's proposals (:meth:`torchdojo.practice.scorecards.Scorecards.propose`).

    Idempotent: a scorecard already proposed is left as it is. A grader failure is stored as the
    feedback's error (the person marks the lines), as in the request path. Raises :class:`JobError`
    for an unknown scorecard and :class:`~torchdojo.jobs.JobStopped` at shut-down (nothing stored)."""
    from torchdojo.practice.scorecards import ScorecardError

    cards = ctx.dojo.scorecards
    try:
        sc = cards.get(ref)
        entry = cards.entry_of(sc.entry_id)
    except ScorecardError as e:
        raise JobError(f"scorecard #{ref}: {e}") from None
    if not sc.machine_pending:
        return
    ctx.check_stopping()
    fb = ctx.grader.grade(entry, sc.answer)
    cards.propose(ref, fb)


# -- FSRS optimisation ------------------------------------------------------------------------

#: The ``user_settings`` row (not a setting: :mod:`torchdojo.practice.study_settings` skips keys it
#: does not know) holding the latest optimisation request and its outcome as JSON:
#: ``{"upto": <review-log id>, "status": "requested"|"done"|"failed", "result": {...}, "error": str}``.
OPTIMIZATION_KEY = "fsrs_optimization"


def read_optimization(sessions) -> dict | None:
    """The stored optimisation request / outcome (see :data:`OPTIMIZATION_KEY`), or None."""
    import json

    from torchdojo.store.models import UserSettingRow

    with sessions() as s:
        row = s.get(UserSettingRow, OPTIMIZATION_KEY)
        return json.loads(row.value) if row is not None else None


def _write_optimization(sessions, data: dict) -> None:
    import json
    from datetime import UTC, datetime

    from torchdojo.store.models import UserSettingRow

    with sessions.begin() as s:
        row = s.get(UserSettingRow, OPTIMIZATION_KEY, with_for_update=True)
        now = datetime.now(UTC)
        if row is None:
            s.add(UserSettingRow(key=OPTIMIZATION_KEY, value=json.dumps(data), updated_at=now))
        else:
            row.value, row.updated_at = json.dumps(data), now


def request_optimization(sessions) -> int:
    """Record a request to fit FSRS parameters to the review log as it is now; returns the id of
    its newest review (the ``ref`` to submit ``optimize_fsrs`` with). A request for the same log
    keeps its stored outcome. Raises :class:`torchdojo.practice.optimizer.NotEnoughReviewsError`
    at once when too few reviews count (a cheap count, no torch)."""
    from sqlalchemy import select

    from torchdojo.practice import optimizer
    from torchdojo.store.models import ReviewLogRow

    with sessions() as s:
        rows = list(s.scalars(select(ReviewLogRow).order_by(ReviewLogRow.reviewed_at, ReviewLogRow.id)))
    optimizer.require_enough(optimizer.as_reviews(rows))
    ref = max(r.id for r in rows)
    stored = read_optimization(sessions)
    if stored is None or stored.get("upto") != ref or stored.get("status") == "failed":
        _write_optimization(sessions, {"upto": ref, "status": "requested"})
    return ref


def optimizations_pending(ctx: JobContext) -> list[int]:
    """The review-log id of an optimisation requested but not finished (a stopped server)."""
    stored = read_optimization(ctx.sessions)
    return [stored["upto"]] if stored and stored.get("status") == "requested" else []


def optimization_state(ctx: JobContext, ref: int) -> str | None:
    """What the database shows of the optimisation up to review ``ref``: ``done``, ``pending``
    (requested), None (another log requested, or its fit failed: the job's own state tells)."""
    stored = read_optimization(ctx.sessions)
    if not stored or stored.get("upto") != ref:
        return None
    return {"done": "done", "requested": "pending"}.get(stored.get("status"))


@task("optimize_fsrs", pending=optimizations_pending, state_of=optimization_state)
def optimize_fsrs(ctx: JobContext, ref: int) -> None:
    """Fit FSRS parameters to the review log up to review ``ref`` (its id) and store the outcome
    under :data:`OPTIMIZATION_KEY` (nothing is applied: the learner chooses to use them).

    Idempotent: an outcome already stored for ``ref`` is kept and nothing is fitted again.
    Too few reviews (:class:`~torchdojo.practice.optimizer.NotEnoughReviewsError`) is stored
    as ``failed`` and raised as :class:`JobError` (no retry); an optimiser failure is raised (and
    retried by the backend; the last one is stored)."""
    from dataclasses import asdict

    from torchdojo.practice import optimizer

    stored = read_optimization(ctx.sessions)
    if stored and stored.get("upto") == ref and stored.get("status") == "done":
        return  # finished work
    fc = ctx.dojo.flashcards
    fc.refresh()
    rows = [r for r in fc.history() if r.id <= ref]
    ctx.progress(0, 1)
    try:
        result = optimizer.optimize(rows, fc.study.fsrs_parameters)
    except optimizer.NotEnoughReviewsError as e:
        _write_optimization(ctx.sessions, {"upto": ref, "status": "failed", "error": str(e)})
        raise JobError(str(e)) from None
    except optimizer.OptimizerError as e:
        _write_optimization(ctx.sessions, {"upto": ref, "status": "requested", "error": str(e)})
        raise
    ctx.check_stopping()
    from datetime import UTC, datetime

    _write_optimization(ctx.sessions, {"upto": ref, "status": "done", "result": asdict(result),
                                       "at": datetime.now(UTC).isoformat()})
    ctx.progress(1, 1)


def stored_result(data: dict):
    """A stored ``result`` as :class:`torchdojo.practice.optimizer.Optimization`."""
    from torchdojo.practice.optimizer import Optimization

    r = dict(data)
    r["old_parameters"], r["parameters"] = tuple(r["old_parameters"]), tuple(r["parameters"])
    return Optimization(**r)
