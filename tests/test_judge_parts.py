"""The judge's trusted parts: static rules, comparisons, the wire format, challenge loading."""

from __future__ import annotations

import math
import struct
from pathlib import Path

import pytest
import torch

from torchdojo.judge import wire
from torchdojo.judge.challenge import ChallengeError, Rules, load_challenge
from torchdojo.judge.compare import compare_outputs
from torchdojo.judge.rules import SourceError, check_source

ROOT = Path(__file__).resolve().parents[1]


def test_static_rules_resolve_aliases_and_methods():
    rules = Rules(
        banned_calls=["torch.softmax", "torch.nn.functional.softmax", "torch.Tensor.softmax"],
        banned_imports=["numpy"],
        banned_constructs=["for"],
    )
    src = (
        "import torch\nimport torch.nn.functional as F\nfrom torch.nn.functional import softmax as sm\n"
        "import numpy as np\ndef f(x):\n    a = F.softmax(x, -1)\n    b = x.softmax(-1)\n    c = torch.softmax(x, 0)\n"
        "    d = sm(x)\n    for i in range(3):\n        pass\n    return x.exp() / x.exp().sum()\n"
    )
    lines = sorted({f.line for f in check_source(src, rules)})
    assert lines == [3, 4, 6, 7, 8, 9, 10]
    assert check_source("import torch\ndef f(x):\n    return torch.exp(x) / torch.exp(x).sum()\n", rules) == []
    with pytest.raises(SourceError) as e:
        check_source("def f(:\n", rules)
    assert e.value.line == 1


def test_compare_reports_the_largest_error_not_the_whole_tensor():
    exp = torch.arange(12, dtype=torch.float64).reshape(3, 4)
    got = exp.clone()
    got[2, 1] += 0.5
    got[0, 3] += 0.1
    m = compare_outputs({"y": exp}, {"y": got})
    assert m.kind == "value" and m.index == (2, 1) and m.expected == 9.0 and m.got == 9.5
    assert "Mismatched elements: 2 / 12" in m.message
    assert compare_outputs({"y": exp}, {"y": exp.float()}).kind == "dtype"
    assert compare_outputs({"y": exp}, {"y": exp.T}).kind == "shape"
    nan = exp.clone()
    nan[1, 1] = math.nan
    assert compare_outputs({"y": exp}, {"y": nan}).kind == "nonfinite"
    assert compare_outputs({"y": exp}, {"y": exp + 1e-9}) is None  # within float64 tolerance
    assert compare_outputs({"n": [1, 2, 3]}, {"n": [1, 2, 4]}).message.startswith("'n'[2] is 4")
    assert compare_outputs({"y": exp}, {}).kind == "missing"


def test_wire_round_trip_and_rejects_forgeries():
    h, t = wire.decode(wire.encode({"a": [1, 2]}, {"x": torch.ones(2, 3, dtype=torch.bfloat16)}))
    assert h == {"a": [1, 2]} and t["x"].dtype == torch.bfloat16 and t["x"].shape == (2, 3)
    for bad in (b"", b"\x00" * 8 + b"x", b"\x00\x00\x00\x00\x00\x00\x00\x02{}" + b"garbage", b"\xff" * 100):
        with pytest.raises(wire.WireError):
            wire.decode(bad)


def test_result_stream_keeps_finished_tests_and_names_no_forged_number():
    one = wire.frame(wire.encode({"case": 0, "name": "a", "status": "ok", "json": {}}, {"out/0/y": torch.ones(2)}))
    two = wire.frame(wire.encode({"case": 1, "name": "b", "status": "ok", "json": {}}))
    end = wire.frame(wire.encode({"end": True, "status": "ok"}))
    whole = wire.read_stream(one + two + end)
    assert whole.complete and [h["name"] for h, _ in whole.cases] == ["a", "b"]
    assert whole.cases[0][1]["out/0/y"].tolist() == [1.0, 1.0]
    cut = wire.read_stream(one + two[:-3])  # stopped while writing test b
    assert [h["name"] for h, _ in cut.cases] == ["a"] and cut.truncated and not cut.complete and cut.error is None
    assert wire.read_stream(two + end).error  # out of order
    assert wire.read_stream(one + end + one).error  # after the end
    forged = struct.pack(">Q", 8872776721799716980) + b"x" * 34  # the 42-byte message of issue 17
    for data in (forged, b"\x00" * 8 + b"{", struct.pack(">Q", 42) + b"\xff" * 42):
        out = wire.read_stream(data)
        assert not out.complete and not out.cases
        assert out.error is None or "8872776721799716980" not in out.error
    with pytest.raises(wire.WireError) as e:
        wire.decode(forged)
    assert "8872776721799716980" not in str(e.value)


def test_challenge_loading_errors_name_the_file(tmp_path):
    src = ROOT / "bank" / "challenges" / "stable-softmax"
    dst = tmp_path / "stable-softmax"
    dst.mkdir()
    for f in src.iterdir():
        if f.is_file():
            (dst / f.name).write_text(f.read_text())
    assert load_challenge(dst).id == "stable-softmax"
    (dst / "challenge.yaml").write_text((src / "challenge.yaml").read_text().replace("level: junior", "level: guru"))
    with pytest.raises(ChallengeError, match=r"challenge.yaml: level: Input should be"):
        load_challenge(dst)
    (dst / "harness.py").unlink()
    with pytest.raises(ChallengeError, match="missing file"):
        load_challenge(dst)


def test_exit_status_maps_how_a_child_ended():
    import signal

    from torchdojo.judge.execution import CPU_LIMIT, WALL_LIMIT, exit_status

    def status(**kw):
        args = dict(
            reason=None, sig=None, code=0, cpu_seconds=0.1, cpu_limit=2.0, output_bytes=64 << 10, has_result=True
        )
        return exit_status(**{**args, **kw})

    assert status() == ("ok", "")
    assert status(cpu_seconds=2.5) == ("timeout", CPU_LIMIT)  # finished, but over the CPU limit
    assert status(reason="timeout", code=None, sig=signal.SIGKILL) == ("timeout", WALL_LIMIT)
    assert status(reason="output:stdout") == ("output", "the program wrote more than 64 KiB to stdout")
    assert status(oom=True, code=None, sig=signal.SIGKILL) == ("memory", "")
    assert status(code=None, sig=signal.SIGKILL, cpu_seconds=1.95) == ("timeout", CPU_LIMIT)  # the CPU rlimit
    assert status(code=None, sig=signal.SIGXCPU, cpu_seconds=1.9) == ("timeout", CPU_LIMIT)
    # issue 17: killed by the 10 s RLIMIT_CPU while rusage measured 8.9 s: the signal and the limit decide
    assert status(code=None, sig=signal.SIGKILL, cpu_seconds=8.9, cpu_limit=10.0, cpu_rlimit=10) == ("timeout", CPU_LIMIT)
    assert status(code=None, sig=signal.SIGKILL) == ("crashed", "was killed by signal SIGKILL")
    assert status(code=None, sig=signal.SIGXFSZ) == ("output", "a file passed the size limit")
    assert status(has_result=False) == ("crashed", "exited with status 0")
    assert status(code=3) == ("crashed", "exited with status 3")


def test_slot_cgroup_counts_only_this_jobs_oom_kills(tmp_path):
    from torchdojo.judge.sandbox.cgroups import SlotCgroup

    files = {
        "memory": ["memory.limit_in_bytes", "memory.max_usage_in_bytes", "memory.failcnt", "cgroup.procs"],
        "pids": ["pids.max", "cgroup.procs"],
    }
    for ctrl, names in files.items():
        d = tmp_path / ctrl / "server1" / "slot0"
        d.mkdir(parents=True)
        for name in names:
            (d / name).write_text("")
    oom = tmp_path / "memory" / "server1" / "slot0" / "memory.oom_control"
    oom.write_text("oom_kill_disable 0\nunder_oom 0\noom_kill 3\n")  # an earlier job's, in the same slot
    cg = SlotCgroup(0, "server1", base=tmp_path)
    assert cg.available
    cg.prepare(1 << 30, 40)
    assert cg.oom_kills() == 0
    oom.write_text("oom_kill_disable 0\nunder_oom 0\noom_kill 4\n")
    assert cg.oom_kills() == 1
    assert cg.wait_empty(timeout=0.1)


def test_compiled_seccomp_filter_is_enforced():
    pytest.importorskip("pyseccomp")
    import subprocess
    import sys

    script = (
        "import ctypes, errno, os, socket\n"
        "from torchdojo.judge.sandbox import isolation as I\n"
        "program = I.seccomp_program()\n"
        "assert program and len(program) % 8 == 0\n"
        "I.libc.prctl(I.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)\n"
        "I.load_seccomp(program)\n"
        "try:\n"
        "    socket.socket()\n"
        "    raise SystemExit('socket() was allowed')\n"
        "except PermissionError:\n"
        "    pass\n"
        "assert I.libc.unshare(I.CLONE_NEWUTS) == -1 and ctypes.get_errno() == errno.EPERM\n"
        "assert I.libc.syscall(435, None, 0) == -1 and ctypes.get_errno() == errno.ENOSYS  # clone3\n"
        "print('ok', os.getpid() > 0)\n"
    )
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.strip() == "ok True", r.stdout + r.stderr
