"""Team-mode test helpers: a private redis-server and real ``torchdojo worker`` processes.

Both are started from the real binaries on free ports of 127.0.0.1 with their own folders, and
stopped (their whole process group killed) at teardown, even when a test fails.
"""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
from conftest import BANK, ROOT, free_port

#: Seconds a test waits for something that must happen (generous: a busy 2-core machine).
PATIENCE = 240


def wait_for(what: str, check, timeout: float = PATIENCE, every: float = 0.2, on_fail=None):
    """Call ``check()`` until it returns something truthy (returned); fail the test after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if got:
            return got
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}" + (f"\n{on_fail()}" if on_fail else ""))
        time.sleep(every)


class RedisServer:
    """``redis-server`` on a free port, data in ``folder`` (append-only file, fsync on every write)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.proc: subprocess.Popen | None = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        log = open(self.folder / "redis.log", "ab")
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.folder),
             "--save", "", "--appendonly", "yes", "--appendfsync", "always", "--daemonize", "no"],
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        client = redis.Redis(port=self.port, socket_connect_timeout=1)
        wait_for("redis-server to answer", lambda: self._ping(client), timeout=60)
        client.close()

    def _ping(self, client) -> bool:
        assert self.proc is not None and self.proc.poll() is None, (self.folder / "redis.log").read_text()
        try:
            return bool(client.ping())
        except redis.RedisError:
            return False

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, sig)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.proc = None


_names = itertools.count(1)


class Worker:
    """``torchdojo worker`` (this worktree's source) as a child process in its own session."""

    def __init__(self, folder: Path, env: dict[str, str], concurrency: int = 1, path: str | None = None) -> None:
        self.name = f"w{next(_names)}@test"
        self.log = folder / f"{self.name}.log"
        run_env = {**os.environ, **env, "PYTHONPATH": str(ROOT / "src"), "TORCHDOJO_BANK_DIR": str(BANK),
                   "PYTHONUNBUFFERED": "1"}
        if path is not None:
            run_env["PATH"] = path
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "torchdojo.cli.main", "worker", "--concurrency", str(concurrency),
             "--name", self.name], env=run_env, stdout=open(self.log, "ab"), stderr=subprocess.STDOUT,
            start_new_session=True, cwd=folder)

    def tail(self, n: int = 60) -> str:
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return f"--- {self.name} log ---\n" + "\n".join(text.splitlines()[-n:])

    def wait_ready(self) -> Worker:
        def ready() -> bool:
            assert self.proc.poll() is None, f"worker exited with {self.proc.returncode}\n{self.tail()}"
            return "ready." in self.log.read_text(errors="replace")
        wait_for(f"worker {self.name} to be ready", ready, on_fail=self.tail)
        return self

    def kill9(self) -> None:
        """``kill -9`` the worker and every process it started (its pool, its sandbox server)."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()

    def stop(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                pass
        self.kill9()


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory):
    """One private redis-server for the session (each test uses its own database number)."""
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    server.start()
    yield server
    server.stop(signal.SIGKILL)


_dbs = itertools.count(0)


class Team:
    """A test's team: a SQLite file (or the ``database_url`` given) shared by this process and
    the workers, a Redis database, the :class:`JudgeQueue` this process submits with, and the
    workers it started."""

    def __init__(self, folder: Path, redis_server: RedisServer, **settings) -> None:
        from torchdojo.jobs.celery_app import JudgeQueue
        from torchdojo.judge.challenge import load_challenges
        from torchdojo.settings import Settings
        from torchdojo.store.db import open_database

        self.folder, self.redis = folder, redis_server
        db = next(_dbs) % 16
        # These tests drive the queue and the workers with the single-user pages: accounts off
        # (tests/test_accounts.py, test_isolation.py and test_team_accounts.py cover team mode with accounts).
        settings.setdefault("accounts", False)
        settings.setdefault("database_url", f"sqlite:///{folder / 'team.db'}")  # or e.g. a PostgreSQL URL
        self.settings = Settings(bank_dir=BANK, broker_url=redis_server.url(db), **settings)
        self.sessions = open_database(self.settings.database_url)
        self.queue = JudgeQueue(self.settings, self.sessions, load_challenges(BANK / "challenges")[0])
        redis.Redis.from_url(self.settings.broker_url).flushdb()
        self.workers: list[Worker] = []

    def env(self) -> dict[str, str]:
        s = self.settings
        return {"TORCHDOJO_DATABASE_URL": s.database_url, "TORCHDOJO_BROKER_URL": s.broker_url or "",
                "TORCHDOJO_BROKER_VISIBILITY_TIMEOUT": str(s.broker_visibility_timeout),
                "TORCHDOJO_JOBS_MAX_RETRIES": str(s.jobs_max_retries), "TORCHDOJO_QUEUE_MAX": str(s.queue_max),
                "TORCHDOJO_ACCOUNTS": "1" if s.accounts_enabled else "0"}

    def worker(self, path: str | None = None, ready: bool = True) -> Worker:
        w = Worker(self.folder, self.env(), path=path)
        self.workers.append(w)
        return w.wait_ready() if ready else w

    def row(self, sid: int):
        from torchdojo.store.models import SubmissionRow

        with self.sessions() as s:
            return s.get(SubmissionRow, sid)

    def rows(self):
        from sqlalchemy import select

        from torchdojo.store.models import SubmissionRow

        with self.sessions() as s:
            return list(s.scalars(select(SubmissionRow).order_by(SubmissionRow.id)))

    def logs(self) -> str:
        return "\n".join(w.tail() for w in self.workers)

    def wait_final(self, sids, timeout: float = PATIENCE):
        """Wait until every submission in ``sids`` is ``done`` or ``failed``; returns their rows."""
        def final():
            rows = [self.row(sid) for sid in sids]
            return rows if all(r is not None and r.status in ("done", "failed") for r in rows) else None
        return wait_for(f"verdicts of {list(sids)}", final, timeout=timeout,
                        on_fail=lambda: f"{[(r.id, r.status, r.attempts, r.error) for r in self.rows()]}\n{self.logs()}")

    def close(self) -> None:
        for w in self.workers:
            w.stop()
        self.queue.close()
        self.sessions.engine.dispose()


@pytest.fixture
def team(tmp_path, redis_server):
    """Make a :class:`Team` with settings overrides: ``team(queue_max=3)``; torn down after the test."""
    made: list[Team] = []

    def make(**settings) -> Team:
        t = Team(tmp_path, redis_server, **settings)
        made.append(t)
        return t

    yield make
    for t in made:
        t.close()


CHALLENGE = "cosine-similarity-matrix"


def solution(sleep: float = 0.0) -> str:
    """A correct solution of :data:`CHALLENGE` (the reference), sleeping ``sleep`` s per call."""
    code = (BANK / "challenges" / CHALLENGE / "reference.py").read_text()
    if sleep:
        code = code.replace("import torch", "import time\n\nimport torch", 1).replace(
            "def cosine_similarity_matrix(a, b, eps=1e-8):\n",
            f"def cosine_similarity_matrix(a, b, eps=1e-8):\n    time.sleep({sleep})\n", 1)
        assert "time.sleep" in code
    return code
