"""How long a user waits for a verdict (issue 17, item 2), this tree against another, side by side.

Each scenario runs the two source trees in turn (A B A B ...), so both see the same machine noise,
and prints each one's median, their ratio and the load average. The machine is shared: quote the
ratios and the medians together with the load, not a single figure.

- ``cli-cold``: ``torchdojo challenge submit stable-softmax reference.py`` from a cold terminal, with
  an empty expected-output cache (the first submission ever) ...
- ``cli``: ... and with the cache a first submission left (every later one). Target: <= 5 s.
- ``serve-first``: ``torchdojo serve`` is started; from the moment its home page answers, a
  Submit of the reference is sent at once; the time until the verdict arrives. Target: <= 3 s.
- ``tle``: on a warm ``serve``, a submission that loops forever (stable-softmax: 10 s CPU limit):
  the time until its Time Limit Exceeded. Target: <= limit + 1 s.
- ``speed-tle``: on a warm ``serve``, the known-slow solution of union-find-components (the speed
  rule: at most 8x the reference's CPU time): the time until its Time Limit Exceeded.

    sudo .venv/bin/python bench/judge_latency.py --baseline /path/to/old/checkout [--n 3]

``--baseline`` is another checkout's root (its ``src`` and ``bank`` are used). Needs root (the
sandbox).
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
LOOP = "import torch\n\n\ndef softmax(x, dim=-1):\n    while True:\n        pass\n\n\nlog_softmax = softmax\n"


def env_for(tree: Path, tmp: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(tree / "src"), "TORCHDOJO_BANK_DIR": str(tree / "bank"),
            "TORCHDOJO_DATABASE_URL": f"sqlite:///{tmp / 'db.sqlite'}", "TORCHDOJO_CACHE_DIR": str(tmp / "cache"),
            "TORCHDOJO_UNSAFE_LOCAL_JUDGE": "0", **extra}


def cli_submit(tree: Path, tmp: Path) -> float:
    ref = tree / "bank" / "challenges" / "stable-softmax" / "reference.py"
    t0 = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "torchdojo.cli.main", "challenge", "submit", "stable-softmax", str(ref)],
                       env=env_for(tree, tmp), capture_output=True, text=True, timeout=600)
    took = time.monotonic() - t0
    if r.returncode != 0 or "Accepted" not in r.stdout:
        raise SystemExit(f"{tree}: not Accepted:\n{r.stdout}\n{r.stderr}")
    return took


class Serve:
    def __init__(self, tree: Path, tmp: Path) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.tree = tree
        self.proc = subprocess.Popen([sys.executable, "-m", "torchdojo.cli.main", "serve", "--port", str(self.port)],
                                     env=env_for(tree, tmp), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.url + "/", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.02)
        raise SystemExit(f"{tree}: serve did not answer")

    def judge(self, challenge: str, code: str, mode: str = "submit") -> str:
        r = httpx.post(f"{self.url}/challenges/{challenge}/judge", data={"code": code, "mode": mode},
                       headers={"HX-Request": "true"}, timeout=600)
        r.raise_for_status()
        return r.text

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def verdict_time(srv: Serve, challenge: str, code: str, want: str) -> float:
    t0 = time.monotonic()
    text = srv.judge(challenge, code)
    took = time.monotonic() - t0
    if f'data-verdict="{want}"' not in text:
        raise SystemExit(f"{srv.tree}: expected {want} on {challenge}")
    return took


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--baseline", type=Path, required=True, help="the other checkout's root")
    ap.add_argument("--n", type=int, default=3, help="rounds per scenario")
    ap.add_argument("--only", nargs="*", default=None)
    a = ap.parse_args()
    trees = {"this": ROOT, "baseline": a.baseline.resolve()}
    results: dict[str, dict[str, list[float]]] = {}
    scratch = Path(tempfile.mkdtemp(prefix="judge-latency-"))

    def record(scenario: str, who: str, value: float) -> None:
        results.setdefault(scenario, {}).setdefault(who, []).append(value)
        print(f"  {scenario:12s} {who:9s} {value:7.2f} s   (load {os.getloadavg()[0]:.1f})", flush=True)

    def want(s: str) -> bool:
        return a.only is None or s in a.only

    for i in range(a.n):
        for who, tree in trees.items():
            tmp = scratch / f"{who}-{i}"
            tmp.mkdir()
            if want("cli-cold") or want("cli"):
                record("cli-cold", who, cli_submit(tree, tmp))
                record("cli", who, cli_submit(tree, tmp))
            if want("serve-first") or want("tle") or want("speed-tle"):
                srv = Serve(tree, tmp)
                try:
                    ref = (tree / "bank/challenges/stable-softmax/reference.py").read_text()
                    record("serve-first", who, verdict_time(srv, "stable-softmax", ref, "Accepted"))
                    if want("tle"):
                        record("tle", who, verdict_time(srv, "stable-softmax", LOOP, "Time Limit Exceeded"))
                    if want("speed-tle"):
                        slow = (tree / "bank/challenges/union-find-components/wrong/no_compression.py").read_text()
                        record("speed-tle", who, verdict_time(srv, "union-find-components", slow, "Time Limit Exceeded"))
                finally:
                    srv.stop()
    shutil.rmtree(scratch, ignore_errors=True)
    print(f"\nmedians over {a.n} rounds, trees run in turn; load average now {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} CPUs")
    print(f"{'scenario':12s} {'this':>9s} {'baseline':>9s} {'this/baseline':>14s}")
    for scenario, by in results.items():
        m = {w: statistics.median(v) for w, v in by.items()}
        print(f"{scenario:12s} {m.get('this', float('nan')):8.2f}s {m.get('baseline', float('nan')):8.2f}s "
              f"{m.get('this', 0) / m.get('baseline', 1):14.2f}")


if __name__ == "__main__":
    main()
