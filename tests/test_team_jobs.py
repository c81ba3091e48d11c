"""Team mode's jobs layer: mock grading runs on real Celery workers (real redis-server, real
``torchdojo worker`` processes, a SQLite file shared with them), never in the web process.

The workers grade with the LLM grader pointed at a real local HTTP server speaking the
OpenAI protocol (below): it answers every key point of whatever entry it is asked about, after
a set delay, so grading is slow enough to kill a worker in the middle of it and no model is
loaded. Each request it receives is counted: an item graded twice would show.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import team as _team
from conftest import ROOT
from team import Worker, wait_for

from torchdojo.jobs import JobContext
from torchdojo.practice.mock import MockConfig

team, redis_server = _team.team, _team.redis_server  # fixtures

ANSWER = "Autograd records the operations on tensors and backward() applies the chain rule in reverse."


class RubricLLM:
    """A real OpenAI-compatible endpoint: grades any entry ("missed" on every key point id the
    prompt lists), after ``delay`` seconds; ``requests`` counts the answers it was asked about."""

    def __init__(self, delay: float = 0.0) -> None:
        self.delay, self.requests = delay, 0
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                prompt = "\n".join(str(m.get("content", "")) for m in body["messages"])
                ids = json.loads(re.search(r"KEY POINT IDS TO GRADE: (\[.*?\])", prompt).group(1))
                fake.requests += 1
                time.sleep(fake.delay)
                reply = {"key_points": [{"id": i, "status": "missed", "quote": None, "why": "Not stated."}
                                        for i in ids],
                         "misconceptions": [], "score": 30, "confidence": 0.9, "follow_up": None,
                         "follow_up_target": None, "summary": "Graded by the test's endpoint."}
                payload = json.dumps({"id": "x", "object": "chat.completion", "created": 0, "model": "fake",
                                      "choices": [{"index": 0, "finish_reason": "stop", "message": {
                                          "role": "assistant", "content": json.dumps(reply)}}]}).encode()
                try:
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except OSError:  # the worker asking was killed
                    pass

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def env(self) -> dict[str, str]:
        return {"TORCHDOJO_GRADER": "llm", "TORCHDOJO_LLM_BASE_URL": self.base_url, "TORCHDOJO_LLM_MODEL": "fake",
                "TORCHDOJO_LLM_TIMEOUT": "120"}

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def llm():
    server = RubricLLM()
    yield server
    server.close()


def grading_worker(t, llm: RubricLLM) -> Worker:
    """A ``torchdojo worker`` of team ``t`` grading with ``llm`` (stopped at the team's teardown)."""
    w = Worker(t.folder, {**t.env(), **llm.env()})
    t.workers.append(w)
    return w.wait_ready()


def finished_mock(t, answered: int) -> tuple[int, list[int]]:
    """A mock (no coding items, no follow-ups) whose first ``answered`` questions have an answer,
    ended: its status is ``grading``. Returns (mock id, positions answered)."""
    from torchdojo.core import Dojo

    d = Dojo(t.settings)
    for seed in range(50):
        m = d.mocks.start(MockConfig(level="junior", use_judge=False, follow_ups=False, seed=seed))
        questions = [i for i in m.items if i.kind == "question"]
        if len(questions) >= answered:
            break
    positions = [i.position for i in questions[:answered]]
    for p in positions:
        d.mocks.save_answer(m.id, p, ANSWER)
    assert d.mocks.finish(m.id).status == "grading"
    d.sessions.engine.dispose()
    return m.id, positions


def items(t, mock_id: int):
    from sqlalchemy import select

    from torchdojo.store.models import MockItemRow

    with t.sessions() as s:
        return list(s.scalars(select(MockItemRow).where(MockItemRow.mock_id == mock_id)
                              .order_by(MockItemRow.position)))


def scorecards_per_item(t, mock_id: int) -> dict[int, int]:
    from sqlalchemy import func, select

    from torchdojo.store.models import MockItemRow, ScorecardRow

    with t.sessions() as s:
        rows = s.execute(select(ScorecardRow.mock_item_id, func.count()).join(
            MockItemRow, MockItemRow.id == ScorecardRow.mock_item_id).where(MockItemRow.mock_id == mock_id)
            .group_by(ScorecardRow.mock_item_id)).all()
    return dict(rows)


def worker_logs(t) -> str:
    return "\n".join(w.log.read_text(errors="replace") for w in t.workers if w.log.exists())


def mock_status(t, mock_id: int) -> str:
    from torchdojo.store.models import MockRow

    with t.sessions() as s:
        return s.get(MockRow, mock_id).status


def test_a_finished_mock_is_graded_by_a_worker_and_the_web_report_shows_it(team, llm):
    from starlette.testclient import TestClient

    from torchdojo.jobs.celery_backend import CeleryBackend
    from torchdojo.web.app import create_app

    t = team(grader="llm", llm_base_url=llm.base_url, llm_model="fake")
    mock_id, answered = finished_mock(t, answered=3)
    with TestClient(create_app(t.settings), base_url="http://127.0.0.1") as c:
        jobs = c.app.state.jobs
        assert isinstance(jobs, CeleryBackend)
        page = c.get(f"/mock/{mock_id}/report?later=1")  # submits the grading: no worker yet
        assert page.status_code == 200 and 'data-status="grading"' in page.text
        st = jobs.state("grade_mock", mock_id)
        assert st.status == "queued" and llm.requests == 0  # the web process grades nothing
        grading_worker(t, llm)
        wait_for("the worker to grade the mock", lambda: mock_status(t, mock_id) == "graded", on_fail=t.logs)
        rows = items(t, mock_id)
        for r in rows:
            if r.position in answered:
                assert r.graded_at is not None and r.score is not None, (r.position, r.feedback)
        assert sorted(scorecards_per_item(t, mock_id).values()) == [1] * len(answered)
        assert llm.requests == len(answered)
        st = jobs.state("grade_mock", mock_id)
        # The app's resume at start and the report page both submit the job: it is sent once
        # (send-once key), so it ran once.
        assert st.status == "done" and st.error is None and st.attempts == 1, st
        report = c.get(f"/mock/{mock_id}/report?later=1").text
        assert 'data-status="graded"' in report and "Grading your answers" not in report
        # Submitted again (a page polled twice, a duplicate delivery): nothing is graded again.
        assert jobs.retry("grade_mock", mock_id).status == "queued"  # shown as queued, over finished work
        wait_for("the repeated job to run", lambda: worker_logs(t).count(f"grade_mock:{mock_id}] succeeded") >= 2,
                 on_fail=t.logs)
        assert llm.requests == len(answered) and sorted(scorecards_per_item(t, mock_id).values()) == [1] * 3


def test_a_worker_killed_mid_grading_leaves_the_rest_to_another_and_no_item_is_graded_twice(team, llm):
    from torchdojo.jobs.celery_backend import CeleryBackend

    llm.delay = 2.0  # grading one answer takes 2 s and more: time to kill the worker mid-mock
    t = team(broker_visibility_timeout=15, jobs_max_retries=2)
    mock_id, answered = finished_mock(t, answered=4)
    jobs = CeleryBackend(JobContext(t.settings))
    try:
        a = grading_worker(t, llm)
        assert jobs.submit("grade_mock", mock_id).status == "queued"
        wait_for("worker A to grade an item", lambda: any(r.graded_at for r in items(t, mock_id)), on_fail=t.logs)
        running = jobs.state("grade_mock", mock_id)
        a.kill9()  # the worker, its pool and everything they started
        before = {r.position: r.graded_at for r in items(t, mock_id) if r.graded_at is not None}
        assert 1 <= len(before) < len(answered), before  # mid-grading
        assert running.status == "running" and running.attempts == 1
        assert mock_status(t, mock_id) == "grading"
        grading_worker(t, llm)  # another worker: gets the job once Redis sees A's went unacknowledged
        wait_for("the other worker to finish the mock", lambda: mock_status(t, mock_id) == "graded",
                 on_fail=t.logs)
        rows = {r.position: r for r in items(t, mock_id)}
        assert all(rows[p].graded_at is not None and rows[p].score is not None for p in answered)
        assert {p: rows[p].graded_at for p in before} == before  # graded before the kill: kept, not redone
        assert sorted(scorecards_per_item(t, mock_id).values()) == [1] * len(answered)  # one grade each
        # Each answer was sent to the grader once, except at most the one in flight at the kill.
        assert len(answered) <= llm.requests <= len(answered) + 1, llm.requests
        st = jobs.state("grade_mock", mock_id)
        assert (st.status, st.attempts) == ("done", 2), st
    finally:
        jobs.close()


def test_a_job_that_keeps_failing_ends_failed_with_its_error_after_bounded_retries(team):
    from torchdojo.jobs.celery_backend import CeleryBackend

    t = team(jobs_max_retries=1)
    mock_id, _ = finished_mock(t, answered=1)
    jobs = CeleryBackend(JobContext(t.settings))
    try:
        # A worker whose grader cannot be built (the LLM grader without its endpoint): every run of
        # the job raises; it is retried once, then failed with the error.
        w = Worker(t.folder, {**t.env(), "TORCHDOJO_GRADER": "llm", "TORCHDOJO_LLM_BASE_URL": "",
                              "TORCHDOJO_LLM_MODEL": ""})
        t.workers.append(w)
        w.wait_ready()
        jobs.submit("grade_mock", mock_id)
        st = wait_for("the job to fail", lambda: (s := jobs.state("grade_mock", mock_id)).status == "failed" and s,
                      on_fail=t.logs)
        assert st.attempts == 2 and "TORCHDOJO_LLM_BASE_URL" in st.error, st
        assert jobs.submit("grade_mock", mock_id).status == "failed"  # not re-run by a plain submit
        assert mock_status(t, mock_id) == "grading"  # the work is still unfinished in the database
        assert jobs.state("grade_mock", 999999).status == "unknown"
    finally:
        jobs.close()


def test_the_web_process_imports_no_torch_in_team_mode(team, llm):
    t = team()
    mock_id, answered = finished_mock(t, answered=2)
    grading_worker(t, llm)
    code = f"""
import sys, time
from starlette.testclient import TestClient
from torchdojo.settings import Settings
from torchdojo.web.app import create_app
settings = Settings(bank_dir={str(t.settings.bank_dir)!r}, database_url={t.settings.database_url!r},
                    broker_url={t.settings.broker_url!r}, accounts=False)
with TestClient(create_app(settings), base_url="http://127.0.0.1") as c:
    assert type(c.app.state.jobs).__name__ == "CeleryBackend"
    deadline = time.monotonic() + {_team.PATIENCE}
    while 'data-status="graded"' not in (page := c.get("/mock/{mock_id}/report?later=1").text):
        assert time.monotonic() < deadline, "not graded in time"
        time.sleep(0.5)
    assert c.get("/challenges").status_code == 200 and c.get("/mock").status_code == 200
torch = sorted(m for m in sys.modules if m == "torch" or m.startswith("torch."))
assert not torch, torch
assert "celery" in sys.modules
print("graded, no torch")
"""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "TORCHDOJO_GRADER": "embedding"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         timeout=_team.PATIENCE + 120)
    assert out.returncode == 0 and "graded, no torch" in out.stdout, out.stderr[-3000:] + t.logs()
    assert llm.requests == len(answered)


def test_queued_runs_and_submits_are_judged_before_a_queued_grading_job(team, llm):
    from team import CHALLENGE, solution

    from torchdojo.jobs.celery_backend import CeleryBackend

    t = team()
    mock_id, answered = finished_mock(t, answered=2)
    jobs = CeleryBackend(JobContext(t.settings))
    try:
        assert jobs.submit("grade_mock", mock_id).status == "queued"  # first in, ...
        sids = [t.queue.submit(CHALLENGE, solution(), "submit"), t.queue.submit(CHALLENGE, solution(), "run")]
        grading_worker(t, llm)  # one worker, one job at a time: the order it takes them in is the queues'
        rows = t.wait_final(sids)
        wait_for("the mock to be graded", lambda: mock_status(t, mock_id) == "graded", on_fail=t.logs)
        assert [(r.status, r.verdict) for r in rows] == [("done", "Accepted")] * 2
        graded = [r.graded_at for r in items(t, mock_id) if r.graded_at is not None]
        judged = max(r.finished_at for r in rows)
        assert judged.replace(tzinfo=None) <= min(graded).replace(tzinfo=None), (rows, graded)  # ... graded last
    finally:
        jobs.close()


def test_a_job_delivered_twice_and_run_by_two_workers_at_once_grades_each_item_once(team, llm):
    # As when Redis's visibility timeout gives a slow job to a second worker: both run it.
    from torchdojo.jobs.celery_backend import JOB_PRIORITY, JOBS_QUEUE, RUN_TASK, CeleryBackend, job_id

    llm.delay = 1.0
    t = team()
    mock_id, answered = finished_mock(t, answered=3)
    jobs = CeleryBackend(JobContext(t.settings))
    try:
        grading_worker(t, llm)
        grading_worker(t, llm)
        jobs.submit("grade_mock", mock_id)
        jobs.app.send_task(RUN_TASK, args=["grade_mock", mock_id], task_id=job_id("grade_mock", mock_id),
                           queue=JOBS_QUEUE, priority=JOB_PRIORITY["normal"])
        wait_for("both workers to run the job", lambda: all("grade_mock" in w.log.read_text() for w in t.workers)
                 or mock_status(t, mock_id) == "graded", on_fail=t.logs)
        wait_for("the mock to be graded", lambda: mock_status(t, mock_id) == "graded", on_fail=t.logs)
        wait_for("both runs to end", lambda: worker_logs(t).count(f"grade_mock:{mock_id}] succeeded") >= 2,
                 on_fail=t.logs)
        assert llm.requests > len(answered)  # both really graded (wasted work, not double grades)
        assert sorted(scorecards_per_item(t, mock_id).values()) == [1] * len(answered)
        assert all(r.graded_at is not None for r in items(t, mock_id) if r.position in answered)
    finally:
        jobs.close()


def test_a_job_submitted_by_several_web_processes_at_once_is_sent_once(team):
    # As the web's resume() at start racing a page that submits the same job, on several web
    # processes: every submitter sees "queued", and exactly one message is on the queue.
    from concurrent.futures import ThreadPoolExecutor

    import redis

    from torchdojo.core import Dojo
    from torchdojo.jobs.celery_backend import JOBS_QUEUE, CeleryBackend, send_key

    t = team()
    mocks = [finished_mock(t, answered=1)[0] for _ in range(6)]
    d = Dojo(t.settings)
    backends = [CeleryBackend(JobContext(t.settings, dojo=d)) for _ in range(6)]
    for b in backends:  # warm (connections, the core's lazily built parts): the submits below race
        assert b.state("grade_mock", mocks[0]).status == "unknown"
    r = redis.Redis.from_url(t.settings.broker_url)
    lists = [JOBS_QUEUE] + [f"{JOBS_QUEUE}:{p}" for p in (3, 6, 9)]  # kombu's one list per priority step
    try:
        for n, mock_id in enumerate(mocks, 1):
            barrier = threading.Barrier(len(backends))

            def submit(b, mock_id=mock_id, barrier=barrier):
                barrier.wait()
                return b.submit("grade_mock", mock_id)

            with ThreadPoolExecutor(len(backends)) as pool:
                states = list(pool.map(submit, backends))
            assert [s.status for s in states] == ["queued"] * len(backends), states
            assert sum(r.llen(k) for k in lists) == n  # no worker: every message sent is still waiting
            assert r.exists(send_key("grade_mock", mock_id))  # held until the job ends
    finally:
        for b in backends:
            b.close()
        r.close()
        d.sessions.engine.dispose()
