"""The judge from the terminal, and failing closed where isolation is impossible."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from conftest import TORCHDOJO

CH = Path(__file__).resolve().parents[1] / "bank" / "challenges" / "stable-softmax"


def run(args, db_url, cwd, user=None):
    env = {**os.environ, "TORCHDOJO_DATABASE_URL": db_url}
    cmd = [TORCHDOJO, *args]
    if user:
        cmd = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", *cmd]
    return subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=300)


@pytest.mark.skipif(os.geteuid() != 0, reason="the sandbox needs root; CI runs as root")
def test_start_submit_history_rejudge(tmp_path, db_url):
    r = run(["challenge", "start", "stable-softmax", "--dir", str(tmp_path)], db_url, tmp_path)
    assert r.returncode == 0, r.stdout
    starter = tmp_path / "stable_softmax.py"
    assert "NotImplementedError" in starter.read_text()
    assert run(["challenge", "start", "stable-softmax", "--dir", str(tmp_path)], db_url, tmp_path).returncode == 1
    r = run(["challenge", "submit", "stable-softmax", str(starter), "--run"], db_url, tmp_path)
    assert r.returncode == 1 and "Runtime Error" in r.stdout and "NotImplementedError" in r.stdout
    starter.write_text((CH / "reference.py").read_text())
    r = run(["challenge", "submit", "stable-softmax", str(starter)], db_url, tmp_path)
    assert r.returncode == 0 and "Accepted" in r.stdout and "7/7 tests passed" in r.stdout
    r = run(["challenge", "history"], db_url, tmp_path)
    assert "Accepted" in r.stdout and "Runtime Error" in r.stdout
    r = run(["challenge", "rejudge", "2"], db_url, tmp_path)
    assert "Accepted" in r.stdout and "submission #3" in r.stdout


def test_without_root_the_judge_refuses_unless_told_unsafe():
    if os.geteuid() != 0:
        pytest.skip("needs root to switch to an unprivileged user for the test")
    home = Path(tempfile.mkdtemp(prefix="torchdojo-nobody-"))  # pytest's tmp dirs are root-only (0700)
    home.chmod(0o777)
    db_url = f"sqlite:///{home / 'torchdojo.db'}"
    sol = home / "sol.py"
    sol.write_text((CH / "reference.py").read_text())
    sol.chmod(0o644)
    tmp_path = home
    r = run(["challenge", "submit", "stable-softmax", str(sol), "--run"], db_url, tmp_path, user=65534)
    assert r.returncode == 3, r.stdout + r.stderr
    assert "Refusing to judge" in r.stdout and "--unsafe-local" in r.stdout
    # The explicit opt-in runs without isolation and says so in the report. (Run as root here: this
    # machine's interpreter lives under /root, which an unprivileged user cannot execute.)
    r = run(["challenge", "submit", "stable-softmax", str(sol), "--run", "--unsafe-local"], db_url, tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "UNSAFE" in r.stdout and "Accepted" in r.stdout


def test_check_command_flags_a_broken_reference(tmp_path):
    bank = tmp_path / "bank"
    dst = bank / "challenges" / "stable-softmax"
    (dst / "wrong").mkdir(parents=True)
    for f in CH.rglob("*.py"):
        (dst / f.relative_to(CH)).write_text(f.read_text())
    for f in ("challenge.yaml", "statement.md"):
        (dst / f).write_text((CH / f).read_text())
    (dst / "reference.py").write_text((CH / "wrong" / "no_max_subtraction.py").read_text().split("\n", 1)[1])
    env = {**os.environ, "TORCHDOJO_BANK_DIR": str(bank)}
    args = [TORCHDOJO, "challenge", "check"] + ([] if os.geteuid() == 0 else ["--unsafe-local"])
    r = subprocess.run(args, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 1
    assert "reference" in r.stdout and "Wrong Answer" in r.stdout
    assert sys.executable  # the venv's interpreter runs the CLI


@pytest.mark.skipif(os.geteuid() != 0, reason="the sandbox needs root; CI runs as root")
def test_try_custom_input_hints_and_editorial_from_the_terminal(tmp_path, db_url):
    wrong = CH / "wrong" / "no_max_subtraction.py"
    r = run(["challenge", "try", "stable-softmax", str(wrong), "--input", '{"values": [[1000, 1001]], "dim": -1}'],
            db_url, tmp_path)
    assert r.returncode == 1, r.stdout + r.stderr
    out = " ".join(r.stdout.split())  # Rich wraps long lines
    assert "softmax = tensor([[0.2689, 0.7311]], dtype=float64) shape=(1, 2)" in out  # the reference's
    assert "softmax = tensor([[nan, nan]], dtype=float64)" in out  # yours
    assert "difference: 'softmax' has NaN" in out and "not stored" in out
    r = run(["challenge", "try", "stable-softmax", str(CH / "reference.py"), "--input", '{"dim": 9}'], db_url, tmp_path)
    assert r.returncode == 2 and "dim must be from -1 to 1" in " ".join(r.stdout.split()), r.stdout

    r = run(["challenge", "hint", "stable-softmax"], db_url, tmp_path)
    assert r.returncode == 0 and "hint 1 of 3" in r.stdout and "hint 2" not in r.stdout, r.stdout
    assert "hint 2 of 3" in run(["challenge", "hint", "stable-softmax"], db_url, tmp_path).stdout
    r = run(["challenge", "editorial", "stable-softmax"], db_url, tmp_path)
    assert r.returncode == 1 and "Locked" in r.stdout, r.stdout
    r = run(["challenge", "editorial", "stable-softmax", "--give-up"], db_url, tmp_path)
    assert r.returncode == 0 and "shift" in r.stdout, r.stdout
    assert run(["challenge", "editorial", "stable-softmax"], db_url, tmp_path).returncode == 0  # remembered
