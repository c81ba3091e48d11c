"""Team mode while PostgreSQL restarts: a real ``torchdojo serve`` (team mode), real
``torchdojo worker`` processes, a private redis-server and a private PostgreSQL server (its own
data directory, stopped with ``pg_ctl stop -m fast`` and started again on the same socket).

What must hold (issue 15's fault list, "restart PostgreSQL"): every submission the web
acknowledged (202 with an id) ends with its verdict, none lost or left pending/judging; the web
answers throughout (``/healthz`` 200; a page that needs the database a clear 503 with
Retry-After, never a 500 or a hang; a submission made during the outage refused with 503 and not
stored); an event stream opened before the outage delivers its verdict after it; the workers
survive and count no attempt for the outage.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading

import httpx
import pytest
import team as _team
from conftest import BANK, ROOT, free_port
from pg import PostgresServer
from team import CHALLENGE, solution, wait_for

team, redis_server = _team.team, _team.redis_server  # fixtures

#: Seconds any one request may take before the test calls it a hang (generous: a busy machine).
REQUEST_TIMEOUT = 60


@pytest.fixture
def pg():
    """A private PostgreSQL server for this test alone (it is stopped and started on purpose)."""
    srv = PostgresServer()
    try:
        srv.start()
        yield srv
    finally:
        srv.stop()


class Web:
    """``torchdojo serve`` in team mode as a child process, its output in a file (never a pipe
    that could fill and stall it)."""

    def __init__(self, folder, env: dict[str, str]) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = folder / "web.log"
        run_env = {**os.environ, **env, "PYTHONPATH": str(ROOT / "src"), "TORCHDOJO_BANK_DIR": str(BANK),
                   "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen([sys.executable, "-m", "torchdojo.cli.main", "serve", "--port", str(self.port)],
                                     env=run_env, stdout=open(self.log, "ab"), stderr=subprocess.STDOUT)
        self.http = httpx.Client(base_url=self.url, timeout=REQUEST_TIMEOUT)

        def up():
            assert self.proc.poll() is None, self.tail()
            try:
                return self.http.get("/healthz", timeout=5).status_code == 200
            except httpx.TransportError:
                return False
        wait_for("the web app to answer", up, on_fail=self.tail)

    def tail(self) -> str:
        return "--- web log ---\n" + "\n".join(self.log.read_text(errors="replace").splitlines()[-80:])

    def submit(self, code: str, mode: str = "submit") -> httpx.Response:
        return self.http.post(f"/challenges/{CHALLENGE}/judge", data={"code": code, "mode": mode},
                              headers={"HX-Request": "true"})

    def stop(self) -> None:
        self.http.close()
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def acknowledged_id(r: httpx.Response) -> int:
    assert r.status_code == 202, (r.status_code, r.text[-2000:])
    return int(re.search(r'data-events="/submissions/(\d+)/events"', r.text).group(1))


def assert_database_503(r: httpx.Response) -> None:
    """A clear refusal: 503, Retry-After, a page saying the database is not answering; no traceback."""
    assert r.status_code == 503, (r.status_code, r.text[-2000:])
    assert int(r.headers["Retry-After"]) >= 1
    assert "Database unavailable" in r.text and "Retry in a few seconds" in r.text, r.text[-2000:]
    assert "Traceback" not in r.text and "sqlalchemy" not in r.text.lower()


def test_postgresql_restarted_mid_stream_every_acknowledged_submission_gets_its_verdict(team, pg, tmp_path):
    t = team(database_url=pg.create_database(), broker_visibility_timeout=120, jobs_max_retries=2)
    web = Web(tmp_path, t.env())
    try:
        t.worker()
        t.worker()
        # Slow enough (each call of the solution sleeps) that jobs are still queued and being
        # judged when the database stops.
        acknowledged = [acknowledged_id(web.submit(solution(sleep=0.3))) for _ in range(6)]
        wait_for("a worker to be judging", lambda: any(t.row(s).status == "judging" for s in acknowledged),
                 on_fail=t.logs)
        waiting = [s for s in acknowledged if t.row(s).status == "pending"]
        assert waiting, "every job was taken before the outage: make judging slower"
        # An event stream opened before the outage, for a submission still waiting.
        watched, events = waiting[-1], {}

        def watch() -> None:
            with httpx.stream("GET", f"{web.url}/submissions/{watched}/events",
                              timeout=_team.PATIENCE + 120) as r:
                events["code"] = r.status_code
                events["body"] = "".join(r.iter_text())

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        wait_for("the event stream to open", lambda: "code" in events)

        pg.halt("fast")  # open transactions rolled back, every connection closed
        try:
            assert web.http.get("/healthz").status_code == 200  # the web is up
            assert_database_503(web.http.get(f"/submissions/{acknowledged[0]}"))  # needs the database
            refused = web.submit(solution())
            assert_database_503(refused)  # not acknowledged: nothing stored, nothing queued
            # The workers meet the outage: their jobs wait for the database, none is failed.
            wait_for("a worker to meet the stopped database", lambda: "psycopg." in t.logs(), on_fail=t.logs)
            assert all(w.proc.poll() is None for w in t.workers), t.logs()
            assert web.proc.poll() is None
        finally:
            pg.resume()  # same data directory, same socket

        acknowledged.append(acknowledged_id(web.submit(solution(), "run")))  # accepted again at once
        rows = t.wait_final(acknowledged)
        assert [(r.status, r.verdict) for r in rows] == [("done", "Accepted")] * len(acknowledged), \
            [(r.id, r.status, r.verdict, r.error) for r in rows]
        assert [r.id for r in t.rows()] == acknowledged  # the one refused during the outage was never stored
        # The outage cost no attempt: each was judged on its first (a retake of the same attempt
        # when the database went away under it).
        assert [r.attempts for r in rows] == [1] * len(rows), [(r.id, r.attempts, r.error) for r in rows]
        watcher.join(_team.PATIENCE)
        assert events.get("code") == 200 and "event: verdict" in events.get("body", ""), events
        assert 'data-verdict="Accepted"' in events["body"].split("event: verdict", 1)[1]
        page = web.http.get(f"/submissions/{acknowledged[0]}")
        assert page.status_code == 200 and 'data-verdict="Accepted"' in page.text
        assert web.http.get("/healthz").status_code == 200
        assert all(w.proc.poll() is None for w in t.workers), t.logs()
        assert " 500 " not in web.log.read_text(errors="replace"), web.tail()
    finally:
        web.stop()


def test_postgresql_restarted_mid_grading_the_job_finishes_without_a_failed_attempt(team, pg):
    # The jobs layer (mock grading on a worker) across the same outage: the job waits for the
    # database, is not failed, and grades every answered item exactly once.
    from test_team_jobs import RubricLLM, finished_mock, grading_worker, items, mock_status, scorecards_per_item

    from torchdojo.jobs import JobContext
    from torchdojo.jobs.celery_backend import CeleryBackend

    llm = RubricLLM(delay=1.0)  # each answer takes a second and more: time to stop the database mid-mock
    t = team(database_url=pg.create_database(), broker_visibility_timeout=120, jobs_max_retries=1)
    mock_id, answered = finished_mock(t, answered=4)
    jobs = CeleryBackend(JobContext(t.settings))
    try:
        grading_worker(t, llm)
        assert jobs.submit("grade_mock", mock_id).status == "queued"
        wait_for("the worker to grade an item", lambda: any(r.graded_at for r in items(t, mock_id)), on_fail=t.logs)
        pg.halt("fast")
        try:
            wait_for("the worker to meet the stopped database", lambda: "psycopg." in t.logs(), on_fail=t.logs)
            assert all(w.proc.poll() is None for w in t.workers), t.logs()
        finally:
            pg.resume()
        wait_for("the mock to be graded", lambda: mock_status(t, mock_id) == "graded", on_fail=t.logs)
        rows = {r.position: r for r in items(t, mock_id)}
        assert all(rows[p].graded_at is not None and rows[p].score is not None for p in answered)
        assert sorted(scorecards_per_item(t, mock_id).values()) == [1] * len(answered)  # one grade each
        st = jobs.state("grade_mock", mock_id)
        # jobs_max_retries=1: had the outage counted as a failed attempt (or two), the job would
        # show 2 attempts, or have ended failed.
        assert (st.status, st.attempts, st.error) == ("done", 1, None), st
        assert all(w.proc.poll() is None for w in t.workers), t.logs()
    finally:
        jobs.close()
        llm.close()
