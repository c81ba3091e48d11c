"""Judge workers on Celery + Redis (team mode: ``TORCHDOJO_BROKER_URL`` set).

Topology: the web and the CLI store a submission as a ``pending`` row and put only its id on
one Redis queue (:data:`QUEUE`); ``torchdojo worker`` processes (any number, on any machine
that reaches Redis and the database, each with the bank) take ids off it, judge them with a
warm :class:`torchdojo.judge.service.JudgeService` per worker process (created once, when the
process starts: its sandbox fork server is up before the first job) and write the verdict to
the row (:mod:`torchdojo.jobs.team_judge`: idempotent, one verdict per submission).

Jobs are never lost:

- ``task_acks_late``: a job is acknowledged only after its verdict is written; until then
  Redis keeps it (in its ``unacked`` hash). A worker process killed mid-job (``kill -9``, OOM)
  is caught by its worker, which puts the job back at once (``task_reject_on_worker_lost``);
  a whole worker (or machine) gone is noticed by Redis when the job has been out longer than
  ``broker_visibility_timeout`` seconds: another worker gets it then.
- ``worker_prefetch_multiplier=1`` and one job per process (``--concurrency`` = CPU cores by
  default): a worker holds no job it is not judging, so a job never waits behind a busy worker
  and ``kill -9`` of one loses no queued jobs with it.
- Redis itself must persist (``appendonly yes``, ``appendfsync always`` for strictly no loss;
  see docs/deploy.md); a worker reconnects when Redis comes back, and a job whose
  acknowledgement was lost is delivered again (and dropped, being done).
- The database not answering (PostgreSQL stopped or restarting: :func:`torchdojo.store.db.unavailable`)
  is not the job's failure: the job is sent again after 1, 2, 4, then every 8 s, without bound
  and without counting an attempt (a run that had claimed the row takes the same attempt again),
  until the database answers.
- Failures of the judge (sandbox unavailable, a bank that differs, other database errors) are retried
  :attr:`Settings.jobs_max_retries` times with exponential backoff (1, 2, 4… s, at most 60 s),
  then the submission ends ``failed`` with the reason. A submission that kills every worker
  that takes it ends ``failed`` after the same number of attempts.

Priority: Run (public tests only, the editor's button) before Submit. Redis has no priority
queue; kombu emulates it with one list per priority step, read highest first (in Redis 0 is the
highest). :data:`PRIORITY` gives Run 0 and Submit 6, so a Run queued behind any number of
Submits is the next job a free worker takes.

Bounded queue: :meth:`JudgeQueue.submit` refuses with :class:`torchdojo.jobs.QueueFull` (and a
retry-after in seconds) when more than ``queue_max`` jobs wait; the bound is checked before
storing (two submitters at once may overshoot it by one each: a soft bound).

Celery and redis-py are imported only here (team mode), never by the single-user app.
"""

from __future__ import annotations

import logging
import math
import os
import socket
import threading
from dataclasses import dataclass

from celery import Celery, signals

from torchdojo.jobs import QueueFull, QueueUnavailable
from torchdojo.jobs import team_judge as tj
from torchdojo.settings import Settings

log = logging.getLogger(__name__)

QUEUE = "torchdojo.judge"
TASK = "torchdojo.judge"
#: kombu's priority steps on Redis: one list per step (``QUEUE``, ``QUEUE:3``, ``QUEUE:6``, ``QUEUE:9``).
PRIORITY_STEPS = [0, 3, 6, 9]
SEP = ":"
#: Redis priorities (0 first): Run before Submit.
PRIORITY = {"run": 0, "submit": 6}
#: Longest wait between retries of a failed job (seconds).
MAX_BACKOFF = 60
#: While the database is not answering, a job is tried again after 1, 2, 4, then every 8 s.
DB_BACKOFF_STEPS = 3
#: Celery's retry bound where the count is kept elsewhere (the row's attempts; a database outage
#: counts none): in effect no bound.
UNBOUNDED = 1_000_000


def queue_keys() -> list[str]:
    """The Redis lists holding :data:`QUEUE`'s waiting jobs, one per priority step."""
    return [QUEUE if p == 0 else f"{QUEUE}{SEP}{p}" for p in PRIORITY_STEPS]


def backoff(retries: int) -> int:
    """Seconds before retry number ``retries + 1``: 1, 2, 4, … at most :data:`MAX_BACKOFF`."""
    return min(MAX_BACKOFF, 2 ** retries)


def make_app(settings: Settings) -> Celery:
    """The Celery app for ``settings`` (its ``broker_url`` must be set: ``ValueError`` otherwise),
    with the judge task registered."""
    if not settings.broker_url:
        raise ValueError("team mode needs TORCHDOJO_BROKER_URL (e.g. redis://127.0.0.1:6379/0)")
    app = Celery("torchdojo", broker=settings.broker_url, set_as_current=False)
    app.conf.update(
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        task_ignore_result=True,  # verdicts live in the database
        # The jobs layer's records (queued/running/failed, attempts, error, progress) of
        # ``torchdojo.run`` jobs, written explicitly (jobs.celery_backend); no task results.
        result_backend=settings.broker_url,
        result_expires=7 * 86400,
        task_default_queue=QUEUE,
        task_queue_max_priority=9,
        task_default_priority=PRIORITY["submit"],
        broker_transport_options={
            "visibility_timeout": settings.broker_visibility_timeout,
            "priority_steps": PRIORITY_STEPS,
            "sep": SEP,
            "queue_order_strategy": "priority",
            "socket_timeout": 10,
            "socket_connect_timeout": 5,
        },
        broker_connection_retry_on_startup=True,
        broker_connection_max_retries=None,  # a worker waits for Redis as long as it takes
        worker_cancel_long_running_tasks_on_connection_loss=False,  # finish; the ack is redone on redelivery
        worker_hijack_root_logger=False,
        worker_send_task_events=False,
        task_create_missing_queues=True,
    )
    _register(app, settings)
    from torchdojo.jobs import celery_backend

    celery_backend.register(app, settings)  # the jobs layer's generic task (queue torchdojo.jobs)
    return app


@dataclass
class _WorkerState:
    service: object  # JudgeService
    sessions: object
    name: str


_state: _WorkerState | None = None
_state_lock = threading.Lock()


def _worker_state(settings: Settings) -> _WorkerState:
    """This process's warm judge (created once per process)."""
    global _state
    with _state_lock:
        if _state is None:
            from torchdojo.judge.service import JudgeService
            from torchdojo.store.db import open_database

            sessions = open_database(settings.database_url)
            service = JudgeService(settings.bank_dir / "challenges", sessions, unsafe_local=settings.unsafe_local_judge,
                                   slots=1, cache_dir=settings.cache_dir / "judge-expected")
            service.warm_up()
            _state = _WorkerState(service, sessions, f"{socket.gethostname()}:{os.getpid()}")
        return _state


_stores = None


def store_sessions(settings: Settings, store: str | None):
    """The session factory a job of ``store`` writes to: the worker's database for None, else that
    learner's store (:mod:`torchdojo.store.learners`, opened once per process)."""
    global _stores
    st = _worker_state(settings)
    if store is None:
        return st.sessions
    with _state_lock:
        if _stores is None:
            from torchdojo.store.learners import LearnerStores

            _stores = LearnerStores(settings.database_url)
    return _stores.sessions(store)


def _register(app: Celery, settings: Settings) -> None:
    @signals.worker_process_init.connect(weak=False)
    def _warm(**_kw) -> None:  # each pool process starts its judge before its first job
        global _state, _stores
        _state, _stores = None, None  # a process forked from one that had a judge starts its own
        _worker_state(settings)

    @app.task(name=TASK, bind=True, acks_late=True, reject_on_worker_lost=True,
              max_retries=settings.jobs_max_retries)
    def judge(self, submission_id: int, digest: str | None = None, retake: int | None = None,
              store: str | None = None) -> str:
        """Judge submission ``submission_id`` of learner store ``store`` (None: the database's own;
        idempotent). Returns ``done``, ``failed``,
        ``duplicate`` (it had its verdict already) or ``missing``. ``retake``: the attempt a run
        that lost the database after claiming the row had (that attempt is taken again, not
        counted twice)."""
        from celery.exceptions import Retry

        from torchdojo.store.db import unavailable

        st = _worker_state(settings)
        claimed: list[int] = []
        try:
            return _judge(self, st, submission_id, digest, retake, claimed, store)
        except Retry:
            raise
        except Exception as e:
            if not unavailable(e):
                raise
            # The database stopped or is restarting: not the job's failure. Sent again (the
            # message stays unacknowledged until then) without bound and without counting an
            # attempt, every 1, 2, 4, 8 s, until the database answers.
            wait = backoff(min(self.request.retries, DB_BACKOFF_STEPS))
            log.warning("submission %s: the database is not answering (%s.%s); again in %d s", submission_id,
                        type(e.orig).__module__, type(e.orig).__name__, wait)  # type: ignore[attr-defined]
            raise self.retry(countdown=wait, max_retries=UNBOUNDED, exc=e,
                             kwargs={"digest": digest, "retake": claimed[-1] if claimed else retake,
                                     "store": store}) from e

    def _judge(self, st: _WorkerState, submission_id: int, digest: str | None, retake: int | None,
               claimed: list[int], store: str | None) -> str:
        from torchdojo.judge.service import UnknownChallengeError
        from torchdojo.store.db import unavailable

        sessions = store_sessions(settings, store)

        try:
            got = tj.claim(sessions, submission_id, st.name, max_attempts=settings.jobs_max_retries + 1,
                           retake=retake)
        except Exception as e:  # noqa: BLE001 - the database failed otherwise: bounded retries, the row stays pending
            if unavailable(e):
                raise
            raise self.retry(countdown=backoff(self.request.retries), max_retries=settings.jobs_max_retries) from e
        if isinstance(got, str):
            log.info("submission %s not judged: %s", submission_id, got)
            return {"done": "duplicate", "failed": "duplicate", "spent": "failed"}.get(got, got)
        claimed.append(got.attempt)
        try:
            ch = st.service.challenge(got.challenge_id)
            if digest is not None and tj.challenge_digest(ch) != digest:
                raise tj.BankMismatch(f"this worker's copy of challenge '{got.challenge_id}' differs from the one "
                                      "it was submitted against (update the bank on every worker)")
            report = st.service.grade(got.challenge_id, got.code, got.mode)
        except UnknownChallengeError:
            tj.fail(sessions, submission_id, f"unknown challenge '{got.challenge_id}' on worker {st.name}")
            return "failed"
        except Exception as e:  # noqa: BLE001 - the judge's failure: retried, then recorded
            if unavailable(e):
                raise
            reason = f"{type(e).__name__}: {e}"
            if got.attempt > settings.jobs_max_retries:
                tj.fail(sessions, submission_id, f"the judge could not judge this submission after "
                                                    f"{got.attempt} attempt(s): {reason}")
                return "failed"
            tj.release(sessions, submission_id, reason)
            raise self.retry(countdown=backoff(got.attempt - 1), priority=PRIORITY.get(got.mode, 6),
                             max_retries=UNBOUNDED, kwargs={"digest": digest, "store": store}) from e
        return "done" if tj.finish(sessions, submission_id, report) else "duplicate"

    app.judge_task = judge  # type: ignore[attr-defined]


class JudgeQueue:
    """What the web and the CLI call in team mode: store a submission and queue its id."""

    def __init__(self, settings: Settings, sessions, challenges: dict, store: str | None = None,
                 shared: JudgeQueue | None = None) -> None:
        """``sessions``: the session factory submissions are stored in (``store``: the learner store
        it is, named in each job; None: the database's own); ``challenges``: challenges by id (their
        digests go with the jobs). ``shared``: another queue whose Celery app and Redis connection
        this one uses (one per web process, not one per learner). Raises ``ValueError`` without
        ``broker_url``."""
        import redis

        self.settings, self.sessions, self.challenges, self.store = settings, sessions, challenges, store
        self._owner = shared is None
        if shared is not None:
            self.app, self._redis = shared.app, shared._redis
        else:
            self.app = make_app(settings)
            self._redis = redis.Redis.from_url(settings.broker_url, socket_timeout=10, socket_connect_timeout=5)

    def depth(self) -> int:
        """Jobs waiting in the queue (not counting those workers are judging). Raises
        :class:`QueueUnavailable` when Redis does not answer."""
        import redis

        try:
            with self._redis.pipeline(transaction=False) as p:
                for k in queue_keys():
                    p.llen(k)
                return sum(p.execute())
        except redis.RedisError as e:
            raise QueueUnavailable(f"the job queue (Redis) did not answer: {e}") from e

    def retry_after(self, depth: int) -> int:
        """Seconds (int, 1–3600) until the queue is likely below its bound again: the jobs over it
        times the mean judging time of recent submissions."""
        over = max(1, depth - self.settings.queue_max + 1)
        return max(1, min(3600, math.ceil(over * tj.mean_judging_seconds(self.sessions))))

    def submit(self, challenge_id: str, code: str, mode: str = "submit") -> int:
        """Store the submission ``pending`` and queue its id; returns the id (int) at once. Raises
        :class:`QueueFull` (nothing stored) when ``queue_max`` jobs wait, :class:`QueueUnavailable`
        (nothing stored) when Redis does not take the job, ``KeyError`` for an unknown challenge,
        ``ValueError`` for a mode other than ``run``/``submit``, and SQLAlchemy's error when the
        database does not store it (nothing queued; the web answers 503)."""
        if mode not in PRIORITY:
            raise ValueError("mode must be 'run' (public tests) or 'submit' (all tests)")
        digest = tj.challenge_digest(self.challenges[challenge_id])
        depth = self.depth()
        if depth >= self.settings.queue_max:
            raise QueueFull(depth, self.settings.queue_max, self.retry_after(depth))
        sid = tj.store_pending(self.sessions, challenge_id, code, mode)  # type: ignore[arg-type]
        try:
            kwargs = {"digest": digest} if self.store is None else {"digest": digest, "store": self.store}
            res = self.app.send_task(TASK, args=[sid], kwargs=kwargs, queue=QUEUE,
                                     priority=PRIORITY[mode], retry=True,
                                     retry_policy={"max_retries": 3, "interval_start": 0.2,
                                                   "interval_step": 0.5, "interval_max": 1.0})
        except Exception as e:  # noqa: BLE001 - kombu raises the transport's errors; none was acknowledged
            tj.forget(self.sessions, sid)
            raise QueueUnavailable(f"the job queue (Redis) did not take the job: {type(e).__name__}: {e}") from e
        try:
            tj.set_job_id(self.sessions, sid, res.id)
        except Exception as e:
            from torchdojo.store.db import unavailable

            if not unavailable(e):
                raise
            # Stored and queued: acknowledged all the same (the job id is only for the record).
            log.warning("submission %s queued; its job id not recorded (the database stopped answering)", sid)
        return sid

    def close(self) -> None:
        """Close the connections to Redis (a queue sharing another's leaves them to it)."""
        if not self._owner:
            return
        self._redis.close()
        self.app.close()


def __getattr__(name: str):
    # ``celery -A torchdojo.jobs.celery_app worker`` finds ``app`` here, built from the environment.
    if name == "app":
        globals()["app"] = built = make_app(Settings())
        return built
    raise AttributeError(name)
