"""The in-process jobs backend: worker threads over a priority queue (the local single-user app
and the CLI; no Redis, no Celery).

- ``submit`` puts ``(priority, order, name, ref)`` on a :class:`queue.PriorityQueue`; ``workers``
  daemon threads (default 1: one job at a time, like a single grader) take the most urgent.
  A job already queued or running is not queued twice; a failed one only through ``retry``.
- A task that raises is run again after ``retry_delay`` × 2^(attempt-1) seconds, at most
  ``max_retries`` more times (``Settings.jobs_max_retries``, default 2); then its state is
  ``failed`` with the error. :class:`~torchdojo.jobs.JobError` (a job that cannot succeed: an
  unknown mock, a mock still running) fails at once, without retries.
- States live in memory: what outlives the process is the database, which the tasks keep
  current and :meth:`LocalBackend.resume` reads at start (each task's ``pending``).
- ``close`` sets ``ctx.stopping``: the running task stops at its next step without storing it
  (:class:`~torchdojo.jobs.JobStopped`), so its work stays unfinished and is resumed next start.
"""

from __future__ import annotations

import itertools
import logging
import queue
import threading
from dataclasses import replace
from typing import Any

from torchdojo.jobs import (
    PRIORITIES,
    JobContext,
    JobError,
    JobState,
    JobStopped,
    Priority,
    check_ref,
    get_task,
    resubmit_pending,
    run_task,
)

log = logging.getLogger(__name__)


class LocalBackend:
    """Runs registered tasks in ``workers`` threads of this process (see the module docstring).

    ``ctx``: the :class:`JobContext` every task gets. ``max_retries``: more runs after a failure
    (None: ``ctx.settings.jobs_max_retries``, else 2). ``retry_delay``: seconds before the first
    retry (doubled each time; 0 retries at once)."""

    def __init__(self, ctx: JobContext, *, workers: int = 1, max_retries: int | None = None,
                 retry_delay: float = 2.0) -> None:
        if workers < 1:
            raise ValueError("workers must be at least 1")
        self.ctx = ctx
        if max_retries is None:
            max_retries = getattr(ctx.settings, "jobs_max_retries", 2)
        if max_retries < 0:
            raise ValueError("max_retries must be 0 or more")
        self.max_retries, self.retry_delay = max_retries, retry_delay
        self._states: dict[tuple[str, int], JobState] = {}
        self._lock = threading.Lock()
        self._queue: queue.PriorityQueue[tuple[int, int, str, int]] = queue.PriorityQueue()
        self._order = itertools.count()
        self._timers: set[threading.Timer] = set()
        self._closed = False
        self._threads = [threading.Thread(target=self._work, name=f"jobs-{i}", daemon=True) for i in range(workers)]
        for t in self._threads:
            t.start()

    # -- the Backend interface -----------------------------------------------------------------
    def submit(self, name: str, ref: int, *, priority: Priority = "normal") -> JobState:
        """See :meth:`torchdojo.jobs.Backend.submit`."""
        get_task(name)
        check_ref(ref)
        if priority not in PRIORITIES:
            raise JobError(f"priority must be one of {', '.join(PRIORITIES)}, not {priority!r}")
        with self._lock:
            st = self._states.get((name, ref))
            if self._closed or (st is not None and (st.busy or st.status == "failed")):
                return replace(st) if st is not None else JobState(name, ref)
            st = self._states[(name, ref)] = JobState(name, ref, status="queued")
            self._queue.put((PRIORITIES[priority], next(self._order), name, ref))
            return replace(st)

    def state(self, name: str, ref: int) -> JobState:
        """See :meth:`torchdojo.jobs.Backend.state` (a copy: later changes do not show in it)."""
        with self._lock:
            st = self._states.get((name, ref))
            return replace(st) if st is not None else JobState(name, ref)

    def active(self, name: str) -> dict[int, JobState]:
        """See :meth:`torchdojo.jobs.Backend.active`."""
        with self._lock:
            return {ref: replace(st) for (n, ref), st in self._states.items() if n == name and st.busy}

    def retry(self, name: str, ref: int, *, priority: Priority = "normal") -> JobState:
        """See :meth:`torchdojo.jobs.Backend.retry` (a queued or running job is left as it is)."""
        get_task(name)
        with self._lock:
            st = self._states.get((name, check_ref(ref)))
            if st is not None and not st.busy:
                del self._states[(name, ref)]
        return self.submit(name, ref, priority=priority)

    def resume(self) -> None:
        """See :meth:`torchdojo.jobs.Backend.resume`: the database is read in a background thread,
        so a face's start is not delayed by it."""
        threading.Thread(target=self._resume, name="jobs-resume", daemon=True).start()

    def close(self) -> None:
        """See :meth:`torchdojo.jobs.Backend.close`. Queued jobs are dropped (their work is still
        unfinished in the database: resumed at the next start)."""
        with self._lock:
            self._closed = True
            for t in self._timers:
                t.cancel()
            self._timers.clear()
        self.ctx.stopping.set()
        for _ in self._threads:
            self._queue.put((-1, -1, "", 0))  # wakes each worker up to exit

    def join(self, timeout: float | None = None) -> None:
        """Wait (up to ``timeout`` seconds for each) for the worker threads to end after :meth:`close`."""
        for t in self._threads:
            t.join(timeout)

    # -- inside ------------------------------------------------------------------------------
    def _resume(self) -> None:
        resubmit_pending(self, self.ctx)

    def _work(self) -> None:
        while True:
            _prio, _n, name, ref = self._queue.get()
            if not name:
                return
            with self._lock:
                st = self._states.get((name, ref))
                if self._closed or st is None or st.status != "queued":
                    continue
                st.status, st.progress = "running", None
                st.attempts += 1

            def report(done: int, total: int, st: JobState = st) -> None:
                with self._lock:
                    st.progress = (done, total)

            self.ctx.set_reporter(report)
            try:
                run_task(self.ctx, name, ref)
            except JobStopped:
                with self._lock:
                    st.status, st.progress = "queued", None  # unfinished: resumed at the next start
                continue
            except Exception as e:
                self._failed(st, e)
                continue
            finally:
                self.ctx.set_reporter(None)
            with self._lock:
                st.status, st.error, st.progress = "done", None, None

    def _failed(self, st: JobState, e: Exception) -> None:
        msg = f"{type(e).__name__}: {e}"
        final = isinstance(e, JobError) or st.attempts > self.max_retries
        (log.warning if isinstance(e, JobError) else log.exception)(
            "job %s(%s) failed (attempt %d%s): %s", st.name, st.ref, st.attempts, ", giving up" if final else "", msg)
        with self._lock:
            st.error, st.progress = msg, None
            if final or self._closed:
                st.status = "failed" if final else "queued"
                return
            st.status = "queued"
            delay = self.retry_delay * 2 ** (st.attempts - 1)
            item = (PRIORITIES["normal"], next(self._order), st.name, st.ref)
            if delay <= 0:
                self._queue.put(item)
                return
            timer = threading.Timer(delay, self._requeue, args=(item,))
            timer.daemon = True
            self._timers.add(timer)
            timer.start()

    def _requeue(self, item: tuple[int, int, str, int]) -> None:
        with self._lock:
            self._timers = {t for t in self._timers if t.is_alive() and t is not threading.current_thread()}
            if not self._closed:
                self._queue.put(item)

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"LocalBackend(workers={len(self._threads)}, jobs={len(self._states)})"


def describe(st: JobState) -> dict[str, Any]:
    """A job state as plain JSON-able data (for status endpoints)."""
    return {"name": st.name, "ref": st.ref, "status": st.status, "error": st.error, "attempts": st.attempts,
            "progress": list(st.progress) if st.progress else None}
