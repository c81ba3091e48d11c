"""Soak test of the judge behind ``torchdojo serve`` (issue 17, "Done when"): mixed normal and
hostile submissions for N minutes while the judge's fork server is killed with SIGKILL every K
seconds; every submission must get its correct verdict.

Submissions, drawn at random (seeded):
- every challenge's reference (Accepted) and known-wrong solutions (the verdict on their first line);
- hostile ones on the probe-free bank challenge ``stable-softmax``: an endless loop (Time Limit
  Exceeded), a 4 GiB allocation (Memory Limit Exceeded or Runtime Error: torch reports a failed
  allocation as an error), a forged result without introspection and a stack-walking one (Rule
  Violation), printing 1 MiB (Output Limit Exceeded), ``os._exit(0)`` (Runtime Error), a fork
  bomb (Runtime Error or Time Limit Exceeded: either is right for it).

A Judge Error is always a failure here: a killed server must be replaced and the job re-run.
Prints the counts per expected verdict, every wrong verdict, the kills, the restarts /healthz
reports and the load average. Not part of CI (it runs for minutes and needs root).

    sudo .venv/bin/python bench/judge_soak.py --minutes 30 --kill-every 60 [--workers 2]
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from torchdojo.judge.challenge import load_challenges  # noqa: E402

HOSTILE = {
    "loop": ("import torch\ndef softmax(x, dim=-1):\n    while True:\n        pass\nlog_softmax = softmax\n",
             {"Time Limit Exceeded"}),
    "memory": ("import torch\ndef softmax(x, dim=-1):\n    big = torch.ones(1 << 30, dtype=torch.float32)\n"
               "    return x + big[0]\nlog_softmax = softmax\n", {"Memory Limit Exceeded", "Runtime Error"}),
    "forge": ("import os, sys, torch\ndef softmax(x, dim=-1):\n    wire = sys.modules['torch' + 'dojo.judge.wire']\n"
              "    data = wire.frame(wire.encode({'end': True, 'status': 'ok'}))\n"
              "    for fd in range(3, 64):\n        try:\n            os.write(fd, data)\n        except OSError:\n"
              "            pass\n    os._exit(0)\nlog_softmax = softmax\n", {"Rule Violation"}),
    "stack-walk": ("import sys, torch\ndef softmax(x, dim=-1):\n    f = sys._getframe(1)\n    return torch.softmax(x, dim)\n"
                   "log_softmax = softmax\n", {"Rule Violation"}),
    "print": ("import torch\ndef softmax(x, dim=-1):\n    print('x' * (1 << 20))\n    return x\nlog_softmax = softmax\n",
              {"Output Limit Exceeded"}),
    "exit": ("import os, torch\ndef softmax(x, dim=-1):\n    os._exit(0)\nlog_softmax = softmax\n", {"Runtime Error"}),
    "fork-bomb": ("import os, torch\ndef softmax(x, dim=-1):\n    while True:\n        os.fork()\nlog_softmax = softmax\n",
                  {"Runtime Error", "Time Limit Exceeded"}),
}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--minutes", type=float, default=30.0)
    ap.add_argument("--kill-every", type=float, default=60.0, help="seconds between SIGKILLs of the judge server")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()

    challenges, problems = load_challenges(ROOT / "bank" / "challenges")
    assert not problems, problems
    corpus: list[tuple[str, str, str, set[str]]] = []
    for ch in challenges.values():
        corpus.append((ch.id, "reference", ch.reference_source, {"Accepted"}))
        corpus += [(ch.id, f"wrong/{n}", code, {v.value}) for n, (v, code) in ch.wrong.items()]
    hostile = [("stable-softmax", f"hostile/{k}", code, want) for k, (code, want) in HOSTILE.items()]

    tmp = Path(tempfile.mkdtemp(prefix="judge-soak-"))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "TORCHDOJO_DATABASE_URL": f"sqlite:///{tmp / 'db.sqlite'}",
           "TORCHDOJO_CACHE_DIR": str(tmp / "cache"), "TORCHDOJO_JUDGE_PRESTART": "1"}
    serve = subprocess.Popen([sys.executable, "-m", "torchdojo.cli.main", "serve", "--port", str(port)], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while True:
        try:
            if httpx.get(url + "/", timeout=2).status_code == 200:
                break
        except httpx.TransportError:
            if time.monotonic() > deadline:
                raise SystemExit("serve did not start") from None
            time.sleep(0.1)

    stop = threading.Event()
    kills: list[str] = []
    results: collections.Counter = collections.Counter()
    wrong: list[str] = []
    lock = threading.Lock()

    def killer() -> None:
        while not stop.wait(a.kill_every):
            try:
                pid = httpx.get(url + "/healthz", timeout=30).json()["judge"].get("server_pid")
                if pid:
                    os.kill(pid, signal.SIGKILL)
                    kills.append(f"{time.strftime('%H:%M:%S')} pid {pid}")
            except (httpx.HTTPError, ProcessLookupError, KeyError):
                pass

    def worker(i: int) -> None:
        rng = random.Random(a.seed * 1000 + i)
        client = httpx.Client(timeout=600)
        while not stop.is_set():
            cid, name, code, want = rng.choice(hostile) if rng.random() < 0.25 else rng.choice(corpus)
            try:
                r = client.post(f"{url}/challenges/{cid}/judge", data={"code": code, "mode": "submit"},
                                headers={"HX-Request": "true"})
                m = re.search(r'data-verdict="([^"]+)"', r.text)
                got = m.group(1) if m else f"HTTP {r.status_code}"
            except httpx.HTTPError as e:
                got = f"{type(e).__name__}"
            with lock:
                results[(name.split("/")[0], got in want)] += 1
                if got not in want:
                    wrong.append(f"{cid} {name}: expected {sorted(want)}, got {got}")

    threading.Thread(target=killer, daemon=True).start()
    t0 = time.monotonic()
    with ThreadPoolExecutor(a.workers) as pool:
        futures = [pool.submit(worker, i) for i in range(a.workers)]
        while time.monotonic() - t0 < a.minutes * 60:
            time.sleep(5)
        stop.set()
        for f in futures:
            f.result()
    health = httpx.get(url + "/healthz", timeout=30).json()["judge"]
    serve.terminate()
    serve.wait(30)
    total = sum(results.values())
    ok = sum(n for (_, good), n in results.items() if good)
    print(f"{a.minutes:g} min, {a.workers} workers, load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    for kind in ("reference", "wrong", "hostile"):
        print(f"  {kind:9s}: {results[(kind, True)]} right, {results[(kind, False)]} wrong")
    print(f"submissions: {total}, right verdicts: {ok}, wrong: {total - ok}")
    print(f"server SIGKILLs: {len(kills)}; /healthz restarts: {health.get('restarts')}, state {health.get('state')}")
    for w in wrong[:50]:
        print("  WRONG", w)


if __name__ == "__main__":
    main()
