"""The jobs layer on Celery (team mode): :class:`CeleryBackend`, what the web holds when
``TORCHDOJO_BROKER_URL`` is set, and the generic worker task ``torchdojo.run(name, ref)``.

Design (see also ``docs/deploy.md``, "Jobs layer" and the Celery section):

- **Submit** sends ``torchdojo.run(name, ref)`` to the queue :data:`JOBS_QUEUE` of the same
  Celery app as the judge (:func:`torchdojo.jobs.celery_app.make_app`); ``torchdojo worker``
  consumes the judge's queue and this one. Only the task's name and the row id travel.
- **The worker** runs :func:`torchdojo.jobs.run_task` with one :class:`~torchdojo.jobs.JobContext`
  per worker process, built from the environment's settings on its first job; its answer grader
  is created lazily on first use (the embedding grader loads MiniLM once per process) and its
  judge is the process's warm one. Acks late and reject on worker lost, as the judge: a worker
  killed mid-job leaves the job to another (or to itself, restarted). Tasks are idempotent
  (``grade_mock`` skips graded items, and an item graded meanwhile by another run is not graded
  again), so a job delivered twice repeats no finished work.
- **State** comes from the database first: the task's ``state_of(ctx, ref)`` hook
  (:class:`torchdojo.jobs.Task`) says whether the work is ``done`` (a mock ``graded``) or
  ``pending``. What the database cannot say — queued or running, attempts, the last error, the
  progress — is the job's record in Celery's result backend (the same Redis), keyed by the
  deterministic task id ``torchdojo.run:<name>:<ref>`` and written by the web at submit and by
  the worker as it runs (custom states, never Celery's SUCCESS/FAILURE). Nothing is kept in the
  web process's memory: any web process, or one restarted, shows the same state. A record lost
  (Redis flushed, expired after :data:`RECORD_TTL`) while the database shows the work unfinished
  reads ``unknown``, and the faces submit it again.
- **Sent once**: :meth:`CeleryBackend.submit` sends a job only after winning Redis ``SET NX`` on
  its send key (:func:`send_key`, expiring after the visibility timeout); the worker clears it
  when the job ends (``done`` or ``failed``). So the web's ``resume()`` at start and a page
  submitting the same job at the same moment send it once, not twice.
- **The database not answering** (PostgreSQL stopped or restarting,
  :func:`torchdojo.store.db.unavailable`) is not the job's failure: the run is sent again after
  1, 2, 4, then every 8 s, without bound, and no attempt is counted.
- **Bounded retries**: a task that raises is retried after 1, 2, 4 … s (at most 60), at most
  ``Settings.jobs_max_retries`` more times, then the record is ``failed`` with the error
  (:class:`~torchdojo.jobs.JobError`: at once). Attempts are counted in the record when a run
  starts, so a job that kills every worker that takes it also ends ``failed``.
- **Priority**: kombu asks Redis for each priority step in turn (0 first), over both queues
  (the judge's first, as ``torchdojo worker -Q`` lists it). :data:`JOB_PRIORITY`: ``high`` is
  Submit's step 6, ``normal`` and ``low`` step 9, so a Run (0) and a Submit (6) queued are taken
  before a grading job; grading never delays judging by more than the job a process is on.

Celery is imported here only (team mode); the web process imports no torch (the worker does).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from typing import Any

from celery import Celery, signals

from torchdojo.jobs import (
    PRIORITIES,
    JobContext,
    JobError,
    JobState,
    Priority,
    check_ref,
    get_task,
    resubmit_pending,
    run_task,
)
from torchdojo.settings import Settings

log = logging.getLogger(__name__)

#: The Celery queue of generic jobs (the judge's is ``torchdojo.judge``).
JOBS_QUEUE = "torchdojo.jobs"
#: The generic task's name: ``torchdojo.run(name, ref)``.
RUN_TASK = "torchdojo.run"
#: Redis priority steps (0 first) of the jobs layer's priorities: never before a Run (0).
JOB_PRIORITY = {"high": 6, "normal": 9, "low": 9}
#: Seconds a job's record stays in the result backend after its last change.
RECORD_TTL = 7 * 86400
_STATUS = {"QUEUED": "queued", "RUNNING": "running", "DONE": "done", "FAILED": "failed"}


def job_id(name: str, ref: int, store: str | None = None) -> str:
    """The Celery task id of job ``name`` on row ``ref`` of learner store ``store`` (None: the
    database's own) — one per job: its record's key."""
    return f"{RUN_TASK}:{name}:{ref}" + (f"@{store}" if store else "")


def send_key(name: str, ref: int, store: str | None = None) -> str:
    """The Redis key whose ``SET NX`` makes sending job (``name``, ``ref``) atomic: held from the
    send until the job ends (``done`` or ``failed``), or expires after the visibility timeout (a
    job lost with its worker is then sent again by the next submit or ``resume``)."""
    return f"torchdojo.send:{name}:{ref}" + (f"@{store}" if store else "")


def _release_send(app: Celery, name: str, ref: int, store: str | None = None) -> None:
    try:
        app.backend.client.delete(send_key(name, ref, store))
    except Exception as e:  # noqa: BLE001 - Redis not answering: the key expires by itself
        log.warning("job %s(%s): send key not cleared (%s); it expires by itself", name, ref, e)


def _read(app: Celery, name: str, ref: int, store: str | None = None) -> dict[str, Any] | None:
    meta = app.backend.get_task_meta(job_id(name, ref, store))
    status = _STATUS.get(meta.get("status"))
    if status is None or not isinstance(meta.get("result"), dict):
        return None
    return {**meta["result"], "status": status}


def _write(app: Celery, name: str, ref: int, status: str, attempts: int, error: str | None = None,
           progress: tuple[int, int] | None = None, store: str | None = None) -> None:
    rec = {"attempts": attempts, "error": error, "progress": list(progress) if progress else None,
           "at": time.time()}
    app.backend.store_result(job_id(name, ref, store), rec, status.upper())


class CeleryBackend:
    """The :class:`torchdojo.jobs.Backend` of team mode (see the module docstring).

    ``ctx``: the web's :class:`JobContext` (its core reads the database for ``state``; it runs
    no task). ``app``: the Celery app (default: :func:`torchdojo.jobs.celery_app.make_app` of
    ``ctx.settings``, whose ``broker_url`` must be set: ``ValueError`` otherwise)."""

    def __init__(self, ctx: JobContext, app: Celery | None = None) -> None:
        from torchdojo.jobs.celery_app import make_app

        self.ctx = ctx
        self.app = app if app is not None else make_app(ctx.settings)
        self._owns_app = app is None
        #: The learner store the jobs work on (team accounts; None: the database's own): it travels with each job.
        self.store: str | None = ctx.store
        self._closed = False

    # -- the Backend interface -----------------------------------------------------------------
    def submit(self, name: str, ref: int, *, priority: Priority = "normal") -> JobState:
        """See :meth:`torchdojo.jobs.Backend.submit`. When Redis does not take the job, the state
        returned is ``unknown`` with the reason in ``error`` (the work stays unfinished in the
        database: the next submit or :meth:`resume` sends it); nothing is raised."""
        get_task(name)
        check_ref(ref)
        if priority not in PRIORITIES:
            raise JobError(f"priority must be one of {', '.join(PRIORITIES)}, not {priority!r}")
        st = self.state(name, ref)
        if self._closed or st.busy or st.status == "failed":
            return st
        won = False
        try:
            won = self._claim_send(name, ref)
            if not won:  # another submitter (a page, resume, another web process) sent it just now
                return JobState(name, ref, status="queued")
            _write(self.app, name, ref, "queued", 0, store=self.store)
            kwargs = {"store": self.store} if self.store else {}
            self.app.send_task(RUN_TASK, args=[name, ref], kwargs=kwargs, task_id=job_id(name, ref, self.store),
                               queue=JOBS_QUEUE,
                               priority=JOB_PRIORITY[priority], retry=True,
                               retry_policy={"max_retries": 3, "interval_start": 0.2, "interval_step": 0.5,
                                             "interval_max": 1.0})
        except Exception as e:  # noqa: BLE001 - kombu/redis raise the transport's errors
            log.warning("job %s(%s) not queued: %s", name, ref, e)
            if won:  # not sent: the next submit may try
                _release_send(self.app, name, ref, self.store)
            return JobState(name, ref, status="unknown", error=f"the job queue (Redis) did not take the job: "
                                                                 f"{type(e).__name__}: {e}")
        return JobState(name, ref, status="queued")

    def _claim_send(self, name: str, ref: int) -> bool:
        """Atomically become the one submitter that sends job (``name``, ``ref``): Redis ``SET
        NX`` of its send key (:func:`send_key`), kept :attr:`Settings.broker_visibility_timeout`
        seconds. True for the winner; raises the client's error when Redis does not answer."""
        vt = max(1, int(self.ctx.settings.broker_visibility_timeout))
        return bool(self.app.backend.client.set(send_key(name, ref, self.store), "1", nx=True, ex=vt))

    def state(self, name: str, ref: int) -> JobState:
        """See :meth:`torchdojo.jobs.Backend.state`: the database's word first (``done``), then the
        job's record. Redis not answering: the database's word alone (``queued`` for unfinished
        work, with the reason in ``error``). The database not answering: SQLAlchemy's error is
        raised (:func:`torchdojo.store.db.unavailable` is true for it; the web answers 503)."""
        t = get_task(name)
        check_ref(ref)
        db = t.state_of(self.ctx, ref) if t.state_of is not None else None
        try:
            rec = _read(self.app, name, ref, self.store)
        except Exception as e:  # noqa: BLE001 - the result backend did not answer
            status = "done" if db == "done" else ("queued" if db == "pending" else "unknown")
            return JobState(name, ref, status=status, error=f"the job queue (Redis) did not answer: {e}")
        fresh = rec is not None and time.time() - float(rec.get("at") or 0) < self.ctx.settings.broker_visibility_timeout
        if db == "done" and not (fresh and rec["status"] in ("queued", "running")):  # type: ignore[index]
            # (a job queued or running again over finished work, e.g. grading failed items again, shows as such)
            return JobState(name, ref, status="done", attempts=rec["attempts"] if rec else 0)
        if rec is None or (rec["status"] == "done" and db == "pending"):
            return JobState(name, ref)  # never submitted, or a record older than the work: unknown
        prog = rec.get("progress")
        return JobState(name, ref, status=rec["status"], error=rec.get("error"), attempts=rec.get("attempts", 0),
                        progress=tuple(prog) if prog else None)  # type: ignore[arg-type]

    def active(self, name: str) -> dict[int, JobState]:
        """See :meth:`torchdojo.jobs.Backend.active`: among the refs the task's ``pending`` finds."""
        t = get_task(name)
        if t.pending is None:
            return {}
        out = {}
        for ref in t.pending(self.ctx):
            st = self.state(name, ref)
            if st.busy:
                out[ref] = st
        return out

    def retry(self, name: str, ref: int, *, priority: Priority = "normal") -> JobState:
        """See :meth:`torchdojo.jobs.Backend.retry` (a queued or running job is left as it is)."""
        st = self.state(name, ref)
        if st.busy:
            return st
        try:
            self.app.backend.forget(job_id(name, ref, self.store))
            self.app.backend.client.delete(send_key(name, ref, self.store))  # asked for explicitly: sent even if a key lingers
        except Exception as e:  # noqa: BLE001
            return JobState(name, ref, status="unknown", error=f"the job queue (Redis) did not answer: {e}")
        return self.submit(name, ref, priority=priority)

    def resume(self) -> None:
        """See :meth:`torchdojo.jobs.Backend.resume` (in a background thread; a job queued or
        running is not sent twice)."""
        threading.Thread(target=self._resume, name="jobs-resume", daemon=True).start()

    def _resume(self) -> None:
        resubmit_pending(self, self.ctx)

    def close(self) -> None:
        """See :meth:`torchdojo.jobs.Backend.close`: stop submitting and close the connections.
        Jobs run on the workers: nothing here is stopped or lost."""
        self._closed = True
        self.app.close()


# -- the worker side -------------------------------------------------------------------------------

_ctx: JobContext | None = None
_store_ctx: dict[str, JobContext] = {}
_ctx_lock = threading.Lock()


def _worker_context(settings: Settings, store: str | None = None) -> JobContext:
    """This worker process's :class:`JobContext` for ``store`` (None: the database's own; a
    learner store otherwise), created on its first job: a core from the settings, with the
    process's warm judge; the grader is created on first use, once per process."""
    global _ctx
    with _ctx_lock:
        if _ctx is None:
            from torchdojo.core import Dojo
            from torchdojo.jobs.celery_app import _worker_state

            dojo = Dojo(settings)
            dojo.__dict__["judge"] = _worker_state(settings).service  # the process's warm judge
            _ctx = JobContext(settings, dojo=dojo)
        if store is None:
            return _ctx
        got = _store_ctx.get(store)
        if got is None:
            from torchdojo.jobs.celery_app import store_sessions

            base = _ctx
            view = base.dojo.for_store(store_sessions(settings, store), store)
            got = _store_ctx[store] = JobContext(settings, dojo=view, grader_factory=lambda: base.raw_grader)
        return got


def register(app: Celery, settings: Settings) -> None:
    """Register ``torchdojo.run(name, ref)`` on ``app`` (called by ``make_app``)."""
    from torchdojo.jobs.celery_app import DB_BACKOFF_STEPS, UNBOUNDED, backoff
    from torchdojo.store.db import unavailable

    @signals.worker_process_init.connect(weak=False)
    def _fresh(**_kw) -> None:  # a forked pool process builds its own context
        global _ctx
        _ctx = None
        _store_ctx.clear()

    @app.task(name=RUN_TASK, bind=True, acks_late=True, reject_on_worker_lost=True, ignore_result=True,
              max_retries=settings.jobs_max_retries)
    def run(self, name: str, ref: int, store: str | None = None) -> str:
        """Run job ``name`` on ``ref`` of learner store ``store`` (None: the database's own) once,
        keeping its record; returns ``done`` or ``failed``."""
        rec = _read(app, name, ref, store) or {}
        attempts = int(rec.get("attempts") or 0) + 1
        if attempts > settings.jobs_max_retries + 1:  # every earlier run died without a word
            _write(app, name, ref, "failed", attempts - 1,
                   rec.get("error") or f"gave up after {attempts - 1} attempt(s): the worker running it "
                                      "stopped each time without finishing", store=store)
            _release_send(app, name, ref, store)
            return "failed"
        _write(app, name, ref, "running", attempts, rec.get("error"), store=store)
        try:  # the send key lives as long as the job may (a run as long as the visibility timeout)
            app.backend.client.expire(send_key(name, ref, store), max(1, int(settings.broker_visibility_timeout)))
        except Exception:  # noqa: BLE001, S110 - a key that expires early only allows a harmless duplicate
            pass
        ctx = _worker_context(settings, store)
        ctx.set_reporter(lambda done, total: _write(app, name, ref, "running", attempts, None, (done, total), store))
        try:
            run_task(ctx, name, ref)
        except JobError as e:
            _write(app, name, ref, "failed", attempts, f"{type(e).__name__}: {e}", store=store)
            _release_send(app, name, ref, store)
            log.warning("job %s(%s) cannot succeed: %s", name, ref, e)
            return "failed"
        except Exception as e:  # noqa: BLE001 - the task's failure: retried, then recorded
            msg = f"{type(e).__name__}: {e}"
            if unavailable(e):
                # The database stopped or is restarting: not the job's failure. Sent again without
                # bound, the attempt not counted, every 1, 2, 4, then 8 s until the database answers.
                wait = backoff(min(self.request.retries, DB_BACKOFF_STEPS))
                _write(app, name, ref, "queued", attempts - 1, f"the database is not answering: {msg}", store=store)
                orig = getattr(e, "orig", e)
                log.warning("job %s(%s): the database is not answering (%s.%s); again in %d s", name, ref,
                            type(orig).__module__, type(orig).__name__, wait)
                raise self.retry(countdown=wait, priority=JOB_PRIORITY["normal"], max_retries=UNBOUNDED) from e
            if attempts > settings.jobs_max_retries:
                _write(app, name, ref, "failed", attempts, msg, store=store)
                _release_send(app, name, ref, store)
                log.exception("job %s(%s) failed (attempt %d, giving up)", name, ref, attempts)
                return "failed"
            _write(app, name, ref, "queued", attempts, msg, store=store)
            log.exception("job %s(%s) failed (attempt %d), retried", name, ref, attempts)
            raise self.retry(countdown=backoff(attempts - 1), priority=JOB_PRIORITY["normal"],
                             max_retries=UNBOUNDED) from e
        finally:
            ctx.set_reporter(None)
        _write(app, name, ref, "done", attempts, store=store)
        _release_send(app, name, ref, store)
        log.info("job %s(%s) done (attempt %d, pid %d)", name, ref, attempts, os.getpid())
        return "done"

    app.run_task = run  # type: ignore[attr-defined]
