"""Issue 17, item 2: the judge answers at once. Expected outputs are cached on disk per challenge
version; the web app starts the judge at start-up; the CLI starts the server while it prepares.

Real challenges, real files, real servers. Nothing here asserts on elapsed time (the latency
figures are measured by bench/judge_latency.py): the tests check *that* work is reused or
started early, by what ran, not by how long it took.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
from pathlib import Path

import httpx
import pytest
from conftest import TORCHDOJO, Server

from torchdojo.judge import expected_cache
from torchdojo.judge.challenge import load_challenge
from torchdojo.judge.grade import Grader

ROOT = Path(__file__).resolve().parents[1]
SOFTMAX = ROOT / "bank" / "challenges" / "stable-softmax"
root_only = pytest.mark.skipif(os.geteuid() != 0, reason="the sandbox needs root; CI runs as root")

BROKEN_REFERENCE = ("def softmax(x, dim=-1):\n    raise AssertionError('the reference was run')\n\n\n"
                    "log_softmax = softmax\n")


def _with_reference(ch, source: str):
    """The same challenge with another reference (a new version: its cache key changes)."""
    out = dataclasses.replace(ch, reference_source=source)
    for attr in ("tests", "harness", "reference"):
        out.__dict__.pop(attr, None)
    return out


def test_expected_outputs_are_computed_once_and_read_back_from_disk(tmp_path):
    import torch

    ch = load_challenge(SOFTMAX)
    cases = list(ch.tests.cases())
    first = Grader(ch, None, cache_dir=tmp_path)  # type: ignore[arg-type]
    computed = {c.name: first.inputs_and_expected(c) for c in cases}
    files = sorted((tmp_path / ch.id).glob("*.bin"))
    assert len(files) == len(cases), files

    # A new process would build a new grader: it must not run the reference at all. Make running
    # it fail, keeping every source the key covers: the values can only come from the files.
    again = Grader(ch, None, cache_dir=tmp_path)  # type: ignore[arg-type]
    ch.__dict__["reference"] = _with_reference(ch, BROKEN_REFERENCE).reference
    try:
        for c in cases:
            inputs, expected = again.inputs_and_expected(c)
            want_in, want_out = computed[c.name]
            assert inputs.keys() == want_in.keys() and expected.keys() == want_out.keys()
            for k, v in {**want_in, **want_out}.items():
                got = inputs.get(k, expected.get(k))
                if isinstance(v, torch.Tensor):
                    assert got.dtype == v.dtype and torch.equal(got, v), (c.name, k)
                else:
                    assert got == v and type(got) is type(v), (c.name, k)
    finally:
        ch.__dict__.pop("reference")


def test_a_new_version_of_the_challenge_is_recomputed_and_old_files_pruned(tmp_path):
    ch = load_challenge(SOFTMAX)
    case = next(iter(ch.tests.cases()))
    Grader(ch, None, cache_dir=tmp_path).inputs_and_expected(case)  # type: ignore[arg-type]
    old = {p.name for p in (tmp_path / ch.id).glob("*.bin")}
    # An edited reference (here: one that cannot run) is a new version: its key is new, so it runs.
    edited = _with_reference(ch, BROKEN_REFERENCE)
    with pytest.raises(AssertionError, match="the reference was run"):
        Grader(edited, None, cache_dir=tmp_path).inputs_and_expected(case)  # type: ignore[arg-type]
    # A working edit: stored under its own key, and the other version's files go.
    edited = _with_reference(ch, ch.reference_source + "\n# edited\n")
    Grader(edited, None, cache_dir=tmp_path).inputs_and_expected(case)  # type: ignore[arg-type]
    now = {p.name for p in (tmp_path / ch.id).glob("*.bin")}
    assert len(now) == 1 and not now & old, (old, now)


def test_a_damaged_cache_file_is_a_miss_and_is_rewritten(tmp_path):
    ch = load_challenge(SOFTMAX)
    case = next(iter(ch.tests.cases()))
    _, want = Grader(ch, None, cache_dir=tmp_path).inputs_and_expected(case)  # type: ignore[arg-type]
    (path,) = (tmp_path / ch.id).glob("*.bin")
    good = path.read_bytes()
    for damaged in (good[: len(good) // 2], b"", b"\x00" * 64, b"not a cache file at all"):
        path.write_bytes(damaged)
        _, got = Grader(ch, None, cache_dir=tmp_path).inputs_and_expected(case)  # type: ignore[arg-type]
        assert got.keys() == want.keys()
        assert path.read_bytes() == good  # recomputed and stored again, byte for byte


def test_values_that_would_not_come_back_identical_are_not_cached(tmp_path):
    import torch

    folder = tmp_path / "c"
    assert expected_cache.store(folder, "a" * 64, {"x": torch.ones(2)}, {"y": [1, 2.5, "s"], "t": torch.zeros(3)})
    assert expected_cache.load(folder, "a" * 64) is not None
    for bad in ({"y": (1, 2)}, {"y": {1: "int key"}}, {"y": float("nan")}, {"y": object()}):
        assert not expected_cache.store(folder, "b" * 64, {}, bad), bad
        assert expected_cache.load(folder, "b" * 64) is None
    assert not list(folder.glob(".tmp-*")), "no temporary file is left behind"


def test_the_cli_reuses_the_cache_written_by_an_earlier_process(tmp_path):
    """Two cold `torchdojo challenge submit` processes: the first writes the cache, the second
    only reads it (it leaves every file untouched)."""
    env = {**os.environ, "TORCHDOJO_DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite'}",
           "TORCHDOJO_CACHE_DIR": str(tmp_path / "cache"), "TORCHDOJO_UNSAFE_LOCAL_JUDGE": "0"}
    args = [TORCHDOJO, "challenge", "submit", "stable-softmax", str(SOFTMAX / "reference.py")]
    if os.geteuid() != 0:
        args.append("--unsafe-local")
    first = subprocess.run(args, env=env, capture_output=True, text=True, timeout=600)
    assert first.returncode == 0 and "Accepted" in first.stdout, first.stdout + first.stderr
    files = sorted((tmp_path / "cache" / "judge-expected" / "stable-softmax").glob("*.bin"))
    assert len(files) == len(list(load_challenge(SOFTMAX).tests.cases()))
    stamps = {p: (p.stat().st_mtime_ns, p.stat().st_ino) for p in files}
    second = subprocess.run(args, env=env, capture_output=True, text=True, timeout=600)
    assert second.returncode == 0 and "Accepted" in second.stdout, second.stdout + second.stderr
    assert {p: (p.stat().st_mtime_ns, p.stat().st_ino) for p in files} == stamps


@root_only
def test_serve_starts_the_judge_at_start_up_before_any_submission(db_url, tmp_path):
    srv = Server(db_url, env={"TORCHDOJO_JUDGE_PRESTART": "1", "TORCHDOJO_CACHE_DIR": str(tmp_path / "cache")})
    srv.start()
    try:
        from test_judge_supervision import wait_for

        def state() -> str:
            return httpx.get(srv.url + "/healthz", timeout=30).json()["judge"]["state"]

        assert state() in ("starting", "up")  # nobody has submitted anything
        wait_for(lambda: state() == "up", "the judge's server to be up", limit=300)
        ref = (SOFTMAX / "reference.py").read_text()
        r = httpx.post(f"{srv.url}/challenges/stable-softmax/judge", data={"code": ref, "mode": "submit"},
                       headers={"HX-Request": "true"}, timeout=300)
        assert r.status_code == 200 and 'data-verdict="Accepted"' in r.text
        health = httpx.get(srv.url + "/healthz", timeout=30).json()["judge"]
        assert health["restarts"] == 0, json.dumps(health)  # the first verdict used the server started early
    finally:
        srv.stop()
