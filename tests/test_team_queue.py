"""Team mode's judge queue under faults: real redis-server, real Celery workers, real sandbox.

Every scenario stores submissions through :class:`torchdojo.jobs.celery_app.JudgeQueue` (as the
web and CLI do in team mode) and checks the rows the workers wrote in the shared SQLite file.
"""

from __future__ import annotations

import os
import signal
import stat

import pytest
import team as _team
from team import CHALLENGE, solution, wait_for

from torchdojo.jobs import QueueFull, QueueUnavailable
from torchdojo.jobs.celery_app import PRIORITY, QUEUE, TASK
from torchdojo.jobs.team_judge import challenge_digest

team, redis_server = _team.team, _team.redis_server  # fixtures


def test_a_run_queued_after_many_submits_is_judged_first(team):
    t = team()
    submits = [t.queue.submit(CHALLENGE, solution(), "submit") for _ in range(5)]
    run = t.queue.submit(CHALLENGE, solution(), "run")
    assert t.queue.depth() == 6 and t.row(run).status == "pending" and t.row(run).verdict == "Pending"
    t.worker()  # one worker, one job at a time: the order it takes them in is the queue's
    rows = t.wait_final([*submits, run])
    assert all(r.status == "done" and r.verdict == "Accepted" and r.attempts == 1 for r in rows), \
        [(r.status, r.verdict, r.error) for r in rows]
    first = min(rows, key=lambda r: r.started_at)
    assert first.id == run, f"the Run was judged after Submits: {[(r.id, r.mode, r.started_at) for r in rows]}"
    assert [r.id for r in sorted(rows[:-1], key=lambda r: r.started_at)] == submits  # Submits in order


def test_full_queue_refuses_with_retry_after_and_loses_nothing_accepted(team):
    t = team(queue_max=3)
    accepted = [t.queue.submit(CHALLENGE, solution(), "submit") for _ in range(3)]
    with pytest.raises(QueueFull) as e:
        t.queue.submit(CHALLENGE, solution(), "submit")
    assert e.value.retry_after >= 1 and e.value.depth == 3 and e.value.limit == 3
    assert "queue is full" in str(e.value) and f"{e.value.retry_after} s" in str(e.value)
    assert [r.id for r in t.rows()] == accepted  # the refused one was never stored
    t.worker()
    rows = t.wait_final(accepted)
    assert [(r.status, r.verdict) for r in rows] == [("done", "Accepted")] * 3
    # Delivered again (as after a lost acknowledgement), a judged submission is not judged again.
    first = rows[0]
    t.queue.app.send_task(TASK, args=[first.id], kwargs={"digest": challenge_digest(t.queue.challenges[CHALLENGE])},
                          queue=QUEUE, priority=PRIORITY["submit"])
    after = t.queue.submit(CHALLENGE, solution(), "submit")  # same priority: taken after the duplicate
    t.wait_final([after])
    again = t.row(first.id)
    assert (again.attempts, again.finished_at, again.report) == (first.attempts, first.finished_at, first.report)
    assert len(t.rows()) == 4


def test_a_worker_killed_mid_job_leaves_it_to_another_with_one_verdict(team):
    t = team(broker_visibility_timeout=15, jobs_max_retries=2)
    a = t.worker()
    sid = t.queue.submit(CHALLENGE, solution(sleep=1.0), "submit")  # judging takes ~10 s and more
    judging = wait_for("worker A to take the job", lambda: (r := t.row(sid)).status == "judging" and r,
                       on_fail=t.logs)
    b = t.worker()
    a.kill9()
    assert t.row(sid).status == "judging"  # A died mid-job: no verdict yet
    row = t.wait_final([sid])[0]
    assert (row.status, row.verdict, row.attempts) == ("done", "Accepted", 2), (row.status, row.error, t.logs())
    assert row.worker != judging.worker  # judged again, by the other worker
    assert len(t.rows()) == 1
    assert b.proc.poll() is None


def test_a_pool_process_killed_mid_job_is_replaced_and_the_job_put_back_at_once(team):
    # The visibility timeout is long: only the worker's own notice (reject on worker lost) can
    # bring the job back within the test's patience.
    t = team(broker_visibility_timeout=3600, jobs_max_retries=2)
    w = t.worker()
    sid = t.queue.submit(CHALLENGE, solution(sleep=1.0), "submit")
    judging = wait_for("the worker to take the job", lambda: (r := t.row(sid)).status == "judging" and r,
                       on_fail=t.logs)
    pool_pid = int(judging.worker.rsplit(":", 1)[1])
    assert pool_pid != w.proc.pid
    os.kill(pool_pid, signal.SIGKILL)
    row = t.wait_final([sid])[0]
    assert (row.status, row.verdict, row.attempts) == ("done", "Accepted", 2), (row.status, row.error, t.logs())
    assert row.worker != judging.worker and w.proc.poll() is None  # a new pool process of the same worker


def test_redis_restarted_mid_stream_every_acknowledged_submission_gets_its_verdict(team, redis_server):
    t = team(broker_visibility_timeout=20)
    t.worker()
    acknowledged = [t.queue.submit(CHALLENGE, solution(sleep=0.2), "submit") for _ in range(4)]
    wait_for("the first verdict", lambda: t.row(acknowledged[0]).status == "done", on_fail=t.logs)
    redis_server.stop(signal.SIGKILL)  # kill -9: only what reached its append-only file survives
    refused = 0
    for _ in range(2):
        try:
            acknowledged.append(t.queue.submit(CHALLENGE, solution(), "submit"))
        except QueueUnavailable:
            refused += 1
    assert refused == 2  # with Redis down nothing is acknowledged (and nothing is stored)
    assert len(t.rows()) == 4
    redis_server.start()
    acknowledged += [t.queue.submit(CHALLENGE, solution(), mode) for mode in ("submit", "run", "submit")]
    rows = t.wait_final(acknowledged)
    assert [(r.status, r.verdict) for r in rows] == [("done", "Accepted")] * len(acknowledged), \
        [(r.id, r.status, r.error) for r in rows]


def test_a_job_the_judge_cannot_run_is_retried_then_ends_failed(team, tmp_path):
    # The sandbox's probe finds no working namespaces (an `unshare` that fails comes first on PATH).
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "unshare").write_text("#!/bin/sh\necho 'unshare: operation not permitted' >&2\nexit 1\n")
    (fake / "unshare").chmod(stat.S_IRWXU)
    t = team(jobs_max_retries=2)
    t.worker(path=f"{fake}:{os.environ['PATH']}")
    sid = t.queue.submit(CHALLENGE, solution(), "submit")
    row = t.wait_final([sid])[0]
    assert row.status == "failed" and row.verdict == "Judge Error"
    assert row.attempts == 3  # the first try and two retries
    assert "after 3 attempt(s)" in row.error and "namespaces are not available" in row.error, row.error
