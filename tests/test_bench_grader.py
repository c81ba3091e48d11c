"""``bench/grader.py --llm`` against a real local OpenAI-compatible endpoint (tests/fake_llm.py).

The answers are written here for the test (the labelled set in bench/grader_eval stays unused
by tests)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import yaml
from conftest import ROOT
from fake_llm import ANSWER, FakeLLM

SET = [
    {"entry": "what-is-autograd", "kind": "partial", "score": 1, "answer": ANSWER},
    {"entry": "what-is-autograd", "kind": "strong", "score": 3, "answer": ANSWER + " It accumulates."},
    {"entry": "what-is-autograd", "kind": "off-topic", "score": 0, "answer": "I like learning-rate warmup."},
]


def run(tmp_path: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "set.yaml"
    path.write_text(yaml.safe_dump(SET))
    clean = {k: v for k, v in os.environ.items() if not k.startswith("TORCHDOJO_")}
    return subprocess.run([sys.executable, str(ROOT / "bench" / "grader.py"), "--llm", "--set", str(path)],
                          env=clean | env, capture_output=True, text=True, timeout=120)


def test_llm_benchmark_reports_figures_and_failures(llm: FakeLLM, tmp_path: Path) -> None:
    env = {"TORCHDOJO_LLM_BASE_URL": llm.base_url, "TORCHDOJO_LLM_MODEL": "fake-model", "TORCHDOJO_LLM_TIMEOUT": "10"}
    out = run(tmp_path, env)
    assert out.returncode == 0, out.stderr
    assert "not graded: 0 of 3 answers" in out.stdout
    # the fake always answers score 48 (band 1): right for the first answer only
    assert "== all: 3 answers" in out.stdout and "accuracy 0.333" in out.stdout
    assert "     1:    0    1    0    0" in out.stdout  # label 1 predicted 1
    assert "latency per answer" in out.stdout
    assert len(llm.requests) == 3

    llm.status = 500
    out = run(tmp_path, env)
    assert out.returncode == 0, out.stderr
    assert "not graded: 3 of 3 answers" in out.stdout and "500" in out.stdout
    assert "== all" not in out.stdout  # no made-up figures from failed grades


def test_llm_benchmark_without_settings_says_what_is_missing(tmp_path: Path) -> None:
    out = run(tmp_path, {})
    assert out.returncode != 0
    assert "TORCHDOJO_LLM_BASE_URL" in out.stderr and "TORCHDOJO_LLM_MODEL" in out.stderr


def test_frozen_grader_set_is_unchanged() -> None:
    """The frozen evaluation set is never edited silently: its digest is part of the repository."""
    import hashlib

    import yaml

    from torchdojo.bank.loader import load_bank

    folder = ROOT / "bench" / "grader_frozen"
    want = (folder / "answers.sha256").read_text().split()[0]
    data = (folder / "answers.yaml").read_bytes()
    assert hashlib.sha256(data).hexdigest() == want, "bench/grader_frozen/answers.yaml changed: see its README"
    items = yaml.safe_load(data)
    bank = load_bank(ROOT / "bank")
    assert len(items) >= 300 and len({x["entry"] for x in items}) >= 50
    for x in items:  # every mark names a key point the entry still has
        assert set(x["marks"]) == {k.id for k in bank.get(x["entry"]).meta.key_points}, x["entry"]
