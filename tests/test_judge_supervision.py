"""Issue 17: the judge's fork server is supervised, judge instances leave each other alone, and
stopped runs get the right verdicts. Real fork servers, real kills, real sandboxed jobs: no mocks.

No test here asserts on elapsed time: waits are bounded only so that a broken build fails
instead of hanging.
"""

from __future__ import annotations

import os
import signal
import textwrap
import threading
import time
from pathlib import Path

import pytest

from torchdojo.judge.challenge import load_challenge
from torchdojo.judge.grade import Grader
from torchdojo.judge.verdicts import Verdict

ROOT = Path(__file__).resolve().parents[1]
PROBE = ROOT / "tests" / "fixtures" / "challenges" / "probe"  # solve(x) = x * 2; limits: 2 s CPU, 10 s wall, 96 MiB
SOFTMAX = ROOT / "bank" / "challenges" / "stable-softmax"  # the bank's limits: 10 s CPU, 20 s wall, 1 GiB

root_only = pytest.mark.skipif(os.geteuid() != 0, reason="the sandbox needs root; CI runs as root")


def solve(body: str, prelude: str = "") -> str:
    return textwrap.dedent(prelude) + "def solve(x):\n" + textwrap.indent(textwrap.dedent(body), "    ")


def wait_for(pred, what: str, limit: float = 120.0) -> None:
    """Poll ``pred`` until true; the limit only turns a hang into a failure."""
    deadline = time.monotonic() + limit
    while not pred():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.05)


def proc_state(pid: int) -> str | None:
    """The state letter of ``pid`` (``Z`` for a zombie), or None when there is no such process."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return None


def uid_processes(uid: int) -> list[int]:
    """Processes running as ``uid`` (a slot's uid: a job that has its job and dropped root)."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/status") as f:
                    uids = next(line for line in f if line.startswith("Uid:")).split()[1:]
            except (OSError, StopIteration):
                continue
            if int(uids[0]) == uid:
                found.append(int(name))
    return found


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
        return True
    except ProcessLookupError:
        return False


@pytest.fixture(scope="module")
def shared():
    """A judge instance that runs beside the ones the tests kill."""
    from torchdojo.judge.sandbox.backend import SandboxBackend

    b = SandboxBackend(slots=1)
    yield b
    b.close()


@pytest.fixture
def fresh():
    from torchdojo.judge.sandbox.backend import SandboxBackend

    b = SandboxBackend(slots=1)
    yield b
    b.close()


@root_only
def test_a_server_started_by_a_thread_that_ends_keeps_serving():
    """The cause of issue 17: the web app starts the server from a worker thread that anyio
    retires when idle; PR_SET_PDEATHSIG killed the server with that thread."""
    from torchdojo.judge.sandbox.backend import SandboxBackend

    box: dict = {}
    t = threading.Thread(target=lambda: box.update(b=SandboxBackend(slots=1)))
    t.start()
    t.join()
    b = box["b"]
    try:
        pid = b.server_pid
        rep = Grader(load_challenge(PROBE), b).grade(solve("return x * 2"), "run")
        assert rep.verdict == Verdict.ACCEPTED, rep.message
        assert b.restarts == 0 and b.server_pid == pid and proc_state(pid) not in (None, "Z")
    finally:
        b.close()


@root_only
def test_kill_9_between_two_submissions_restarts_the_server_and_leaves_other_instances_alone(fresh, shared):
    grader = Grader(load_challenge(PROBE), fresh)
    assert grader.grade(solve("return x * 2"), "submit").verdict == Verdict.ACCEPTED
    other_pid = shared.server_pid
    assert not set(fresh.uids) & set(shared.uids) and fresh.cgroup != shared.cgroup
    assert os.path.dirname(fresh.socket_path) != os.path.dirname(shared.socket_path)
    old = fresh.server_pid

    os.kill(old, signal.SIGKILL)
    wait_for(lambda: fresh.restarts == 1, "the watcher to restart the server")

    second = grader.grade(solve("return x * 2"), "submit")
    assert second.verdict == Verdict.ACCEPTED, second.message
    h = fresh.health()
    assert h["state"] == "up" and h["restarts"] == 1 and h["server_pid"] not in (None, old), h
    assert "SIGKILL" in h["last_failure"], h
    assert proc_state(old) != "Z"  # reaped: no <defunct>
    assert not group_alive(old)  # nothing of the dead server's session is left
    wrong = grader.grade(solve("return x * 3"), "submit")
    assert wrong.verdict == Verdict.WRONG_ANSWER  # the fresh server judges, it does not just answer
    # The other instance on this machine was not touched.
    assert shared.server_pid == other_pid and shared.restarts == 0 and shared.ping()


@root_only
def test_kill_9_during_a_job_reruns_the_job(fresh):
    grader = Grader(load_challenge(PROBE), fresh)
    code = solve("import time\ntime.sleep(1.5)\nreturn x * 2")
    out: dict = {}
    worker = threading.Thread(target=lambda: out.update(rep=grader.grade(code, "run")))
    uid = fresh.uids[0]
    old = fresh.server_pid
    worker.start()
    wait_for(lambda: uid_processes(uid), "the job to be running in its sandbox")
    os.kill(old, signal.SIGKILL)
    worker.join(300)
    assert not worker.is_alive()
    rep = out["rep"]
    assert rep.verdict == Verdict.ACCEPTED, rep.message
    assert fresh.restarts == 1 and "SIGKILL" in fresh.health()["last_failure"]
    assert proc_state(old) != "Z" and not group_alive(old)
    if fresh.uids[0] != uid:  # the killed job's process is gone too (unless the new server reuses the range)
        wait_for(lambda: not uid_processes(uid), "the killed job's process to be gone", limit=30)


@root_only
def test_a_hung_server_is_replaced_and_the_job_still_judged(fresh):
    """SIGSTOP: the process lives but answers nothing; the ping before the job finds it."""
    grader = Grader(load_challenge(PROBE), fresh)
    old = fresh.server_pid
    os.kill(old, signal.SIGSTOP)
    try:
        rep = grader.grade(solve("return x * 2"), "run")
    finally:
        try:
            os.kill(old, signal.SIGCONT)
        except ProcessLookupError:
            pass
    assert rep.verdict == Verdict.ACCEPTED, rep.message
    h = fresh.health()
    assert h["restarts"] == 1 and h["server_pid"] != old and "did not answer" in h["last_failure"], h
    assert proc_state(old) != "Z" and not group_alive(old)


@root_only
def test_an_infinite_loop_is_tle_every_time_and_later_tests_are_not_run(shared):
    grader = Grader(load_challenge(PROBE), shared)
    for _ in range(3):
        rep = grader.grade(solve("while True:\n    pass"), "submit")
        assert rep.verdict == Verdict.TIME_LIMIT_EXCEEDED, rep.tests[0].message
        first, later = rep.tests
        assert first.verdict == Verdict.TIME_LIMIT_EXCEEDED and "time limit" in first.message, first.message
        assert later.verdict == Verdict.NOT_RUN and later.message.startswith("not run"), later.message
        assert rep.message == "Time Limit Exceeded on test 'public'"


@root_only
def test_a_loop_in_the_second_test_keeps_the_first_tests_result(shared):
    grader = Grader(load_challenge(PROBE), shared)
    code = solve("calls.append(1)\nwhile len(calls) > 1:\n    pass\nreturn x * 2", prelude="calls = []\n")
    rep = grader.grade(code, "submit")
    assert [t.verdict for t in rep.tests] == [Verdict.ACCEPTED, Verdict.TIME_LIMIT_EXCEEDED], rep.tests
    assert rep.verdict == Verdict.TIME_LIMIT_EXCEEDED and rep.tests[0].got is not None


@root_only
@pytest.mark.parametrize(
    "prelude",
    ["", "import sys\nsys.setrecursionlimit(10**7)\n"],
    ids=["default-limit", "raised-limit"],
)
def test_deep_recursion_is_a_recursion_error_not_a_kill(shared, prelude):
    """At the bank's limits (10 s CPU, 1 GiB) a raised recursion limit let this run until the
    CPU limit killed it, reported as RE 'killed by signal SIGKILL'. Asserts on the verdict and
    what ended it, not on time."""
    code = prelude + "import torch\n\ndef f(n):\n    return f(n + 1) + 1\n\n" + (
        "def softmax(x, dim=-1):\n    return f(0)\n\ndef log_softmax(x, dim=-1):\n    return f(0)\n")
    rep = Grader(load_challenge(SOFTMAX), shared).grade(code, "run")
    assert rep.verdict in (Verdict.RUNTIME_ERROR, Verdict.MEMORY_LIMIT_EXCEEDED), rep.message
    msg = rep.tests[0].message
    assert "RecursionError" in msg or "MemoryError" in msg, msg
    assert "SIGKILL" not in msg


def test_health_before_the_judge_starts_starts_nothing():
    from torchdojo.judge.service import JudgeService

    svc = JudgeService(ROOT / "bank" / "challenges", None)
    h = svc.health()
    assert h["state"] == "not started" and h["restarts"] == 0 and h["last_failure"] is None
    assert svc._backend is None


@root_only
def test_service_health_reports_its_server():
    from torchdojo.judge.service import JudgeService

    svc = JudgeService(PROBE.parent, None, slots=1)
    try:
        _, rep = svc.submit("probe", solve("return x * 2"), "run")
        assert rep.verdict == Verdict.ACCEPTED
        h = svc.health()
        assert h["state"] == "up" and h["restarts"] == 0 and isinstance(h["server_pid"], int), h
    finally:
        svc.close()
    assert svc.health()["state"] == "not started"  # closed: the next submission starts a new one


@root_only
def test_the_web_app_restarts_a_killed_judge_server_and_shows_it_on_healthz(server):
    """Issue 17 end to end: `torchdojo serve`, a submission, kill -9 of its judge server, another."""
    import httpx

    ref = (SOFTMAX / "reference.py").read_text()

    def run() -> str:
        r = httpx.post(f"{server.url}/challenges/stable-softmax/judge", data={"code": ref, "mode": "run"},
                       headers={"HX-Request": "true"}, timeout=300)
        assert r.status_code == 200
        return r.text

    def health() -> dict:
        r = httpx.get(server.url + "/healthz", timeout=30)
        assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
        return r.json()["judge"]

    assert health()["state"] == "not started"
    assert 'data-verdict="Accepted"' in run()
    h = health()
    assert h["state"] == "up" and h["restarts"] == 0 and h["last_failure"] is None, h
    os.kill(h["server_pid"], signal.SIGKILL)
    assert 'data-verdict="Accepted"' in run()
    after = health()
    assert after["state"] == "up" and after["restarts"] == 1 and "SIGKILL" in after["last_failure"], after
    assert proc_state(h["server_pid"]) != "Z"  # reaped: no <defunct> under serve


def test_the_unsafe_local_backend_reports_a_loop_as_tle_and_the_rest_not_run():
    """The same verdict rules without a sandbox (RLIMIT_CPU soft < hard: SIGXCPU), no root needed."""
    from torchdojo.judge.execution import LocalUnsafeBackend

    grader = Grader(load_challenge(PROBE), LocalUnsafeBackend())
    rep = grader.grade(solve("calls.append(1)\nwhile len(calls) > 1:\n    pass\nreturn x * 2", prelude="calls = []\n"),
                       "submit")
    assert [t.verdict for t in rep.tests] == [Verdict.ACCEPTED, Verdict.TIME_LIMIT_EXCEEDED], rep.tests
    deep = grader.grade(solve("import sys\nsys.setrecursionlimit(10**7)\ndef f(n):\n    return f(n + 1) + 1\nreturn f(0)"),
                        "run")
    assert deep.verdict == Verdict.RUNTIME_ERROR and "RecursionError" in deep.tests[0].message, deep.tests[0].message
