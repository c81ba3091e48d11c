"""The grader in its own process: ``python -m torchdojo.grading.worker`` and :class:`GraderProcess`.

The worker runs the LLM judge (``TORCHDOJO_GRADER=llm``) against the real local fake endpoint of
``test_llm_judge`` so these tests do not depend on the embedding model. Everything is real:
child processes, pipes, signals, HTTP.

Restart policy under test: a worker killed while idle is restarted transparently by the next
``grade()``; a worker that dies during a request makes that request return a failed Feedback,
and the next one restarts it; a worker that fails to load stays failed until ``start()``.
"""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from fake_llm import ANSWER, BANK, ENTRY_ID, FakeLLM, reply_for

from torchdojo.bank.loader import Bank, Entry, load_bank
from torchdojo.grading.feedback import Feedback
from torchdojo.grading.llm import LLMGrader
from torchdojo.grading.worker import GraderProcess
from torchdojo.settings import Settings

MODEL = "fake-model"


@pytest.fixture(scope="module")
def bank() -> Bank:
    return load_bank(BANK)


@pytest.fixture(scope="module")
def entry(bank: Bank) -> Entry:
    e = bank.get(ENTRY_ID)
    assert e is not None
    return e


def worker_env(fake: FakeLLM, bank_dir: Path = BANK) -> dict[str, str]:
    return {
        "TORCHDOJO_GRADER": "llm",
        "TORCHDOJO_LLM_BASE_URL": fake.base_url,
        "TORCHDOJO_LLM_MODEL": MODEL,
        "TORCHDOJO_LLM_TIMEOUT": "10",
        "TORCHDOJO_BANK_DIR": str(bank_dir),
    }


def settings_for(fake: FakeLLM) -> Settings:
    return Settings(bank_dir=BANK, grader="llm", llm_base_url=fake.base_url, llm_model=MODEL, llm_timeout=10)


@pytest.fixture
def gp(llm: FakeLLM, bank: Bank):
    p = GraderProcess(settings_for(llm), bank, env=worker_env(llm))
    yield p
    p.close()


def wait_until(cond, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(0.02)
    return False


def assert_failed(fb: Feedback, *words: str) -> None:
    assert fb.error is not None and fb.uncertain is True and fb.score == 0 and fb.confidence == 0.0
    for w in words:
        assert w.lower() in fb.error.lower(), (w, fb.error)


def test_loading_then_ready_and_feedback_round_trips(gp: GraderProcess, llm: FakeLLM, entry: Entry) -> None:
    assert gp.status == "stopped" and gp.pid is None
    gp.start()
    assert gp.status == "loading"  # start() does not wait: importing and loading the bank takes a while
    assert gp.wait_ready(60), gp.status
    assert gp.status == "ready"
    assert gp.name == f"process:llm:{MODEL}"
    fb = gp.grade(entry, ANSWER, timeout=30)
    # the same answer graded in this process by the same grader gives the same Feedback
    direct = LLMGrader(llm.base_url, MODEL, timeout=10).grade(entry, ANSWER)
    assert direct.error is None and direct.score == 48
    assert fb == direct
    assert isinstance(fb, Feedback) and fb.key_points[0].evidence is not None
    assert len(llm.requests) == 2
    pid = gp.pid
    assert pid is not None
    gp.close()
    assert gp.status == "stopped" and gp.pid is None
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_grade_starts_the_worker_itself(gp: GraderProcess, entry: Entry) -> None:
    fb = gp.grade(entry, ANSWER, timeout=60)
    assert fb.error is None and fb.score == 48 and gp.status == "ready"


def test_after_close_grade_starts_nothing_until_start(gp: GraderProcess, entry: Entry) -> None:
    """A grade that races a shutting-down server must not leave an orphan worker behind."""
    assert gp.grade(entry, ANSWER, timeout=60).error is None
    gp.close()
    fb = gp.grade(entry, ANSWER, timeout=60)
    assert fb.error is not None and "closed" in fb.error and fb.uncertain
    assert gp.pid is None and gp.status == "stopped"
    gp.start()
    assert gp.grade(entry, ANSWER, timeout=60).error is None and gp.pid is not None


def test_settings_from_os_environ(llm: FakeLLM, bank: Bank, entry: Entry, monkeypatch: pytest.MonkeyPatch) -> None:
    for k, v in worker_env(llm).items():
        monkeypatch.setenv(k, v)
    p = GraderProcess(Settings(), bank)
    try:
        fb = p.grade(entry, ANSWER, timeout=60)
        assert fb.error is None and fb.grader == f"llm:{MODEL}"
    finally:
        p.close()


def test_unknown_entry_is_an_error_and_the_worker_keeps_serving(gp: GraderProcess, entry: Entry) -> None:
    assert gp.grade(entry, ANSWER, timeout=60).error is None
    pid = gp.pid
    ghost = dataclasses.replace(entry, meta=entry.meta.model_copy(update={"id": "no-such-entry"}))
    fb = gp.grade(ghost, ANSWER, timeout=30)
    assert_failed(fb, "unknown entry id 'no-such-entry'")
    assert fb.entry_id == "no-such-entry"
    assert gp.status == "ready" and gp.pid == pid
    assert gp.grade(entry, ANSWER, timeout=30).error is None
    assert gp.pid == pid


def test_killed_idle_worker_restarts_transparently(gp: GraderProcess, llm: FakeLLM, entry: Entry) -> None:
    gp.start()
    assert gp.wait_ready(60)
    pid = gp.pid
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    assert wait_until(lambda: gp.status.startswith("failed")), gp.status
    assert "exited with code -9" in gp.status
    fb = gp.grade(entry, ANSWER, timeout=60)
    assert fb.error is None and fb.score == 48
    assert gp.status == "ready" and gp.pid not in (None, pid)


def test_worker_killed_mid_request_fails_that_request_then_restarts(
    gp: GraderProcess, llm: FakeLLM, entry: Entry
) -> None:
    gp.start()
    assert gp.wait_ready(60)
    pid = gp.pid
    assert pid is not None
    llm.delay = 5.0
    result: list[Feedback] = []
    t = threading.Thread(target=lambda: result.append(gp.grade(entry, ANSWER, timeout=30)))
    t.start()
    assert wait_until(lambda: len(llm.requests) == 1)  # the worker is now inside grade()
    os.kill(pid, signal.SIGKILL)
    t.join(20)
    [fb] = result
    assert_failed(fb, "exited with code -9", "while grading")
    llm.delay = 0.0
    fb2 = gp.grade(entry, ANSWER, timeout=60)
    assert fb2.error is None and fb2.score == 48
    assert gp.pid not in (None, pid)


def test_timeout_returns_failed_and_the_late_reply_is_discarded(gp: GraderProcess, llm: FakeLLM, entry: Entry) -> None:
    gp.start()
    assert gp.wait_ready(60)
    pid = gp.pid
    llm.reply, llm.delay = reply_for(score=10), 2.0
    t0 = time.monotonic()
    fb = gp.grade(entry, ANSWER, timeout=0.5)
    assert time.monotonic() - t0 < 1.5
    assert_failed(fb, "timeout")
    llm.reply, llm.delay = reply_for(score=90), 0.0
    fb2 = gp.grade(entry, ANSWER, timeout=30)  # queued behind the slow one; its reply (score 10) is dropped
    assert fb2.error is None and fb2.score == 90
    assert gp.pid == pid and len(llm.requests) == 2


def test_concurrent_callers_are_serialised(gp: GraderProcess, llm: FakeLLM, entry: Entry) -> None:
    llm.delay = 0.2
    results: list[Feedback] = []
    threads = [threading.Thread(target=lambda: results.append(gp.grade(entry, ANSWER, timeout=60))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(90)
    assert len(results) == 4 and all(r.error is None and r.score == 48 for r in results)
    assert len(llm.requests) == 4


def test_load_failure_is_reported_not_hidden(bank: Bank, entry: Entry, monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("TORCHDOJO_LLM_BASE_URL", "TORCHDOJO_LLM_MODEL"):
        monkeypatch.delenv(var, raising=False)
    p = GraderProcess(Settings(bank_dir=BANK, grader="llm"), bank, env={"TORCHDOJO_GRADER": "llm"})
    try:
        p.start()
        assert not p.wait_ready(60)
        assert p.status.startswith("failed: the grader did not load: ValueError")
        assert "TORCHDOJO_LLM_BASE_URL" in p.status
        t0 = time.monotonic()
        fb = p.grade(entry, ANSWER, timeout=10)
        assert time.monotonic() - t0 < 0.3  # answered from the recorded failure: no respawn (that takes ~1 s)
        assert_failed(fb, "the grader did not load", "TORCHDOJO_LLM_BASE_URL")
        assert wait_until(lambda: p.pid is None)
        p.start()  # an explicit start() retries
        assert p.status == "loading"
        assert not p.wait_ready(60) and "TORCHDOJO_LLM_BASE_URL" in p.status
    finally:
        p.close()


def test_empty_bank_dir_fails_to_load(llm: FakeLLM, bank: Bank, entry: Entry, tmp_path: Path) -> None:
    p = GraderProcess(settings_for(llm), bank, env=worker_env(llm, bank_dir=tmp_path))
    try:
        fb = p.grade(entry, ANSWER, timeout=60)
        assert_failed(fb, "no entries loaded", str(tmp_path))
        assert p.status.startswith("failed: ")
    finally:
        p.close()


def _worker(env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "torchdojo.grading.worker"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, **env},
    )


def test_worker_protocol_directly(llm: FakeLLM) -> None:
    proc = _worker(worker_env(llm))
    try:
        assert proc.stdin is not None and proc.stdout is not None
        assert json.loads(proc.stdout.readline()) == {"ready": True, "grader": f"llm:{MODEL}"}
        requests = [
            b"this is not json\n",
            b"[1, 2]\n",
            b'{"id": 7}\n',
            b'{"id": 8, "entry_id": "no-such-entry", "answer": "x"}\n',
            json.dumps({"id": 9, "entry_id": ENTRY_ID, "answer": ANSWER}).encode() + b"\n",
        ]
        proc.stdin.write(b"".join(requests))
        proc.stdin.flush()
        replies = [json.loads(proc.stdout.readline()) for _ in requests]
        assert replies[0]["id"] is None and "not JSON" in replies[0]["error"]
        assert replies[1]["id"] is None and "JSON object" in replies[1]["error"]
        assert replies[2]["id"] == 7 and "entry_id" in replies[2]["error"]
        assert replies[3] == {"id": 8, "error": "unknown entry id 'no-such-entry' (not in the worker's bank)"}
        assert replies[4]["id"] == 9 and "error" not in replies[4]
        fb = Feedback.model_validate(replies[4]["feedback"])
        assert fb.entry_id == ENTRY_ID and fb.score == 48
        proc.stdin.close()  # EOF -> exit 0, nothing else on stdout
        assert proc.wait(20) == 0
        assert proc.stdout.read() == b""
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_worker_load_failure_line_and_exit_code(tmp_path: Path) -> None:
    proc = _worker({"TORCHDOJO_GRADER": "llm", "TORCHDOJO_BANK_DIR": str(BANK), "TORCHDOJO_LLM_BASE_URL": ""})
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1
    [line] = out.decode().splitlines()
    msg = json.loads(line)
    assert msg["ready"] is False and "TORCHDOJO_LLM_BASE_URL" in msg["error"]
    assert b"Traceback" in err  # details go to stderr, never to the protocol stream


def test_client_side_stays_torch_free(llm: FakeLLM) -> None:
    script = f"""
import json, sys
from torchdojo.bank.loader import load_bank
from torchdojo.grading.worker import GraderProcess
import torchdojo.grading.llm
from torchdojo.settings import Settings
assert 'torch' not in sys.modules, 'import'
bank = load_bank(Settings().bank_dir)
p = GraderProcess(Settings(), bank)
fb = p.grade(bank.get({ENTRY_ID!r}), {ANSWER!r}, timeout=60)
p.close()
print(json.dumps({{"error": fb.error, "score": fb.score,
                   "torch": "torch" in sys.modules, "st": "sentence_transformers" in sys.modules}}))
"""
    env = {**os.environ, **worker_env(llm)}
    run = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert result == {"error": None, "score": 48, "torch": False, "st": False}


NOISY_SITECUSTOMIZE = '''
import os, sys

class _Noise:
    """Prints to sys.stdout and writes to fd 1 when the grader module is imported, like a chatty library."""

    def find_spec(self, name, path=None, target=None):
        if name == "torchdojo.grading.llm":
            print("noise via print()")
            sys.stdout.flush()
            os.write(1, b"noise via fd 1\\n")
        return None

sys.meta_path.insert(0, _Noise())
'''


def test_library_output_goes_to_stderr_not_the_protocol(llm: FakeLLM, tmp_path: Path) -> None:
    (tmp_path / "sitecustomize.py").write_text(NOISY_SITECUSTOMIZE)
    proc = _worker({**worker_env(llm), "PYTHONPATH": str(tmp_path)})
    assert proc.stdin is not None
    request = json.dumps({"id": 1, "entry_id": ENTRY_ID, "answer": ANSWER}).encode() + b"\n"
    out, err = proc.communicate(request, timeout=60)
    assert proc.returncode == 0
    lines = [json.loads(line) for line in out.decode().splitlines()]  # every stdout line is protocol
    assert [sorted(m) for m in lines] == [["grader", "ready"], ["feedback", "id"]]
    assert b"noise via print()" in err and b"noise via fd 1" in err
