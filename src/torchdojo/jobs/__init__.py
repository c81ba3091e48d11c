"""The one jobs layer: background work both faces submit and a backend runs.

Design (see also ``docs/deploy.md``, "Jobs layer"):

- A **task** is a plain function registered by name with :func:`task`::

      @task("grade_mock", pending=mocks_waiting_for_grading)
      def grade_mock(ctx: JobContext, ref: int) -> None: ...

  It takes the id of a row stored in the database (``ref``, never a payload), reads what it
  needs through ``ctx``, writes its result in the database and is **idempotent**: running it
  again after a crash, a retry or a second submit repeats no finished work (a mock's graded
  items are skipped). ``pending(ctx)`` (optional) lists the refs whose work the database shows
  unfinished; :meth:`Backend.resume` re-submits them at start.
- A **backend** runs tasks: :class:`torchdojo.jobs.local.LocalBackend` (threads in this process;
  the single-user app and the CLI) or :class:`torchdojo.jobs.celery_backend.CeleryBackend` (team
  mode: Celery workers; state from the database and a record in Redis). Both follow
  :class:`Backend`: ``submit`` / ``state`` / ``retry`` / ``resume`` / ``close``. A task that raises
  is retried up to ``Settings.jobs_max_retries`` more times, then its state is ``failed`` with
  the error kept for the face to show; :meth:`Backend.retry` starts it again from scratch.
- :class:`JobContext` is what a task is given: the settings, the core (:class:`torchdojo.core.Dojo`,
  built lazily from the settings when the face did not pass its own), the database sessions, the
  answer grader (created lazily: only a task that grades prose loads a model), the judge
  (lazily), a ``progress(done, total)`` reporter and the ``stopping`` flag set at shut-down.

This package imports practice, grading and store code (through the core) and never the CLI or
the web; the Celery modules (``torchdojo.jobs.celery_app``, ``torchdojo.jobs.celery_backend``) are
imported only in team mode.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

Status = Literal["unknown", "queued", "running", "done", "failed"]
Priority = Literal["high", "normal", "low"]
PRIORITIES: dict[str, int] = {"high": 0, "normal": 1, "low": 2}


class JobError(Exception):
    """A job was asked for wrongly (unknown task name, bad ref or priority)."""


class JobStopped(Exception):
    """Raised inside a task when the backend is shutting down: the task stops without storing
    anything for the step it was on; the work stays unfinished and is resumed at the next start."""


@dataclass(frozen=True)
class Task:
    """A registered task: ``fn(ctx, ref)``; ``pending(ctx)`` lists refs with unfinished work;
    ``state_of(ctx, ref)`` says what the database shows of the job's work: ``"done"`` (finished),
    ``"pending"`` (unfinished) or None (nothing to tell: no such row, or not ready for the task).
    Backends that keep no job state in memory (the Celery one) read it."""

    name: str
    fn: Callable[[JobContext, int], None]
    pending: Callable[[JobContext], Iterable[int]] | None = None
    state_of: Callable[[JobContext, int], str | None] | None = None


#: Every registered task by name (filled by :func:`task`, see :mod:`torchdojo.jobs.tasks`).
REGISTRY: dict[str, Task] = {}


def task(name: str, *, pending: Callable[[JobContext], Iterable[int]] | None = None,
         state_of: Callable[[JobContext, int], str | None] | None = None):
    """Decorator registering ``fn(ctx: JobContext, ref: int) -> None`` as task ``name``.

    ``pending(ctx) -> iterable of int`` (optional): the refs whose work the database shows
    unfinished, re-submitted by :meth:`Backend.resume`. ``state_of(ctx, ref) -> "done" |
    "pending" | None`` (optional): what the database shows of one job (see :class:`Task`). Raises :class:`JobError` when another
    function is already registered under ``name``."""

    def register(fn: Callable[[JobContext, int], None]) -> Callable[[JobContext, int], None]:
        old = REGISTRY.get(name)
        if old is not None and (old.fn.__module__, old.fn.__qualname__) != (fn.__module__, fn.__qualname__):
            raise JobError(f"task {name!r} is already registered ({old.fn.__module__}.{old.fn.__qualname__})")
        REGISTRY[name] = Task(name, fn, pending, state_of)
        return fn

    return register


def get_task(name: str) -> Task:
    """The task registered as ``name``; raises :class:`JobError` if there is none."""
    t = REGISTRY.get(name)
    if t is None:
        raise JobError(f"unknown task {name!r}; known: {', '.join(sorted(REGISTRY)) or 'none'}")
    return t


def check_ref(ref: Any) -> int:
    """``ref`` as a database id (an int ≥ 1, not a bool); raises :class:`JobError` otherwise."""
    if isinstance(ref, bool) or not isinstance(ref, int) or ref < 1:
        raise JobError(f"a job's ref is the id of a stored row (an integer ≥ 1), not {ref!r}")
    return ref


@dataclass
class JobState:
    """Where one job (task ``name`` on row ``ref``) stands.

    ``status``: ``unknown`` (never submitted to this backend), ``queued`` (waiting, or waiting
    for its next attempt after a failure), ``running``, ``done`` or ``failed`` (attempts used up).
    ``error``: the last failure as ``"Type: message"`` (kept while a retry is queued, and once
    failed). ``attempts``: runs started so far. ``progress``: (steps done, steps) of the running
    attempt, when the task reports it."""

    name: str
    ref: int
    status: Status = "unknown"
    error: str | None = None
    attempts: int = 0
    progress: tuple[int, int] | None = None
    updated: float = field(default_factory=time.monotonic)

    @property
    def busy(self) -> bool:
        """True while queued or running."""
        return self.status in ("queued", "running")


class Backend(Protocol):
    """What a face holds to run jobs. Every method returns at once (never waits for a job).

    Writing one: run a job with :func:`run_task` on a :class:`JobContext` (one per worker
    process), after :meth:`JobContext.set_reporter` if you keep progress; count attempts; treat
    :class:`JobError` as final (no retry), :class:`JobStopped` as "not finished" (neither done nor
    failed), anything else as a failure retried up to ``Settings.jobs_max_retries`` times; keep
    the last error as ``"Type: message"``. :mod:`torchdojo.jobs.local` is the reference."""

    def submit(self, name: str, ref: int, *, priority: Priority = "normal") -> JobState:
        """Queue task ``name`` on row ``ref`` unless it is already queued or running (then a
        no-op) or failed (then too: a failed job starts again only through :meth:`retry`).
        Raises :class:`JobError` for an unknown task, a bad ref or priority."""
        ...

    def state(self, name: str, ref: int) -> JobState:
        """The job's :class:`JobState` (``unknown`` if never submitted here)."""
        ...

    def active(self, name: str) -> dict[int, JobState]:
        """The queued or running jobs of task ``name`` by ref."""
        ...

    def retry(self, name: str, ref: int, *, priority: Priority = "normal") -> JobState:
        """Forget the job's failures and attempts and submit it again."""
        ...

    def resume(self) -> None:
        """Re-submit, in the background, the unfinished work every task's ``pending`` finds in
        the database (call once at start)."""
        ...

    def close(self) -> None:
        """Stop taking work; a running task is told to stop (``ctx.stopping``) and is not waited for."""
        ...


class _StoppableGrader:
    """The context's grader as a task sees it: once the backend is stopping it raises
    :class:`JobStopped` instead of returning a failed grade, so an interrupted item stays
    ungraded (and is resumed) instead of being stored as failed."""

    def __init__(self, ctx: JobContext) -> None:
        self._ctx = ctx

    @property
    def name(self) -> str:
        return getattr(self._ctx.raw_grader, "name", "grader")

    def grade(self, entry: Any, answer: str) -> Any:
        if self._ctx.stopping.is_set():
            raise JobStopped
        fb = self._ctx.raw_grader.grade(entry, answer)
        if self._ctx.stopping.is_set() and getattr(fb, "error", None):
            raise JobStopped
        return fb

    def __getattr__(self, attr: str) -> Any:  # status, follow-ups, …: the real grader's
        return getattr(self._ctx.raw_grader, attr)


class JobContext:
    """What tasks are given. Everything heavy is created on first use.

    ``settings``: :class:`torchdojo.settings.Settings`. ``dojo``: the face's core, or None to build
    one from the settings when a task first needs it. ``grader``: an answer grader (the web
    passes its :class:`~torchdojo.grading.worker.GraderProcess`), or None for the core's own,
    loaded lazily (``dojo.grader``). ``grader_factory``: a callable building the grader on first
    use instead. ``progress`` and ``stopping`` are set per backend / per run.
    """

    def __init__(self, settings: Any = None, *, dojo: Any = None, grader: Any = None,
                 grader_factory: Callable[[], Any] | None = None) -> None:
        if settings is None:
            settings = dojo.settings if dojo is not None else None
        if settings is None:
            from torchdojo.settings import Settings

            settings = Settings()
        self.settings = settings
        self._dojo, self._grader, self._grader_factory = dojo, grader, grader_factory
        self._lock = threading.Lock()
        #: Set by the backend's ``close``: tasks stop at their next step (see :class:`JobStopped`).
        self.stopping = threading.Event()
        self._progress = threading.local()

    @property
    def store(self) -> str | None:
        """The learner store the jobs of this context work on (team accounts), None for the
        database's own (read from the face's core; a context without one has none)."""
        return getattr(self._dojo, "store", None)

    @property
    def dojo(self) -> Any:
        """The core (:class:`torchdojo.core.Dojo`): the face's, or built once from the settings."""
        with self._lock:
            if self._dojo is None:
                from torchdojo.core import Dojo

                self._dojo = Dojo(self.settings)
            return self._dojo

    @property
    def sessions(self) -> Any:
        """The database's sessionmaker."""
        return self.dojo.sessions

    @property
    def judge(self) -> Any:
        """The code judge (:class:`torchdojo.judge.service.JudgeService`), created on first use."""
        return self.dojo.judge

    @property
    def raw_grader(self) -> Any:
        """The answer grader itself, created on first use (may load a model: seconds)."""
        with self._lock:
            if self._grader is None and self._grader_factory is not None:
                self._grader = self._grader_factory()
            grader = self._grader
        return grader if grader is not None else self.dojo.grader

    @property
    def grader(self) -> Any:
        """The answer grader for tasks: lazily created, raising :class:`JobStopped` at shut-down."""
        return _StoppableGrader(self)

    def check_stopping(self) -> None:
        """Raise :class:`JobStopped` if the backend is shutting down (tasks call it between steps)."""
        if self.stopping.is_set():
            raise JobStopped

    def progress(self, done: int, total: int) -> None:
        """Report ``done`` of ``total`` steps of the running job (a no-op outside a backend)."""
        report = getattr(self._progress, "report", None)
        if report is not None:
            report(done, total)

    def set_reporter(self, report: Callable[[int, int], None] | None) -> None:
        """For backends: route this thread's :meth:`progress` calls to ``report(done, total)``
        (None: drop them). Set before :func:`run_task`, cleared after."""
        self._progress.report = report


def resubmit_pending(backend: Backend, ctx: JobContext) -> None:
    """Submit every ref the registered tasks' ``pending(ctx)`` list (the work the database shows
    unfinished) to ``backend``; what :meth:`Backend.resume` does in both backends. A task whose
    listing fails is logged and skipped."""
    import logging

    for t in list(REGISTRY.values()):
        if t.pending is None:
            continue
        try:
            for ref in t.pending(ctx):
                backend.submit(t.name, ref)
        except Exception:
            logging.getLogger("torchdojo.jobs").exception("resuming the unfinished %s jobs failed", t.name)


def run_task(ctx: JobContext, name: str, ref: int) -> None:
    """Run task ``name`` on ``ref`` in this thread, once (what a backend's worker calls).
    Raises what the task raises; :class:`JobError` for an unknown task or a bad ref."""
    get_task(name).fn(ctx, check_ref(ref))


def wait(backend: Backend, name: str, ref: int, *, timeout: float | None = None, poll: float = 0.1,
         on_state: Callable[[JobState], None] | None = None) -> JobState:
    """Block until the job is ``done`` or ``failed`` (or ``timeout`` seconds pass) and return its
    state; ``on_state`` is called with each state polled (every ``poll`` seconds), e.g. to draw
    progress. For faces that wait (the CLI), never for a request handler."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        st = backend.state(name, ref)
        if on_state is not None:
            on_state(st)
        if st.status in ("done", "failed", "unknown"):
            return st
        if deadline is not None and time.monotonic() >= deadline:
            return st
        time.sleep(poll)


from torchdojo.jobs import tasks as tasks  # noqa: E402  (registers the tasks; needs the names above)


class QueueFull(RuntimeError):
    """Team mode: the queue holds more jobs than allowed; submit again in ``retry_after`` seconds
    (int, >= 1). Nothing was stored: the submission was not accepted (the web answers 429 +
    Retry-After). Raised by :class:`torchdojo.jobs.celery_app.JudgeQueue`."""

    def __init__(self, depth: int, limit: int, retry_after: int) -> None:
        super().__init__(f"the judge's queue is full ({depth} jobs waiting, at most {limit}); "
                         f"try again in {retry_after} s")
        self.depth, self.limit, self.retry_after = depth, limit, retry_after


class QueueUnavailable(RuntimeError):
    """Team mode: the broker (Redis) did not take the job; nothing was stored. The message says why."""
