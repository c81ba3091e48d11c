"""Load on the local web app: home, question and search pages against a static file served by
the same app, in one run (this machine is shared and noisy: compare the ratios).

    python bench/web_load.py [--seconds 8] [--rounds 3] [--connections 64]

Starts ``torchdojo serve`` on a fresh SQLite file with some review history, waits until the
answer grader has loaded (it shares the CPU while loading), then runs wrk (Debian's ``wrk``)
against each page in turn, round-robin, ``--rounds`` times, and prints per page the median
requests/s and p99 latency across rounds, and the ratios: each page's rate over the static
file's, and home over question. Targets (issue 10): home >= 50 % of the question page's rate;
p99 <= 100 ms for question and home at 64 connections.
"""

from __future__ import annotations

import argparse
import os
import re
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
PAGES = {
    "static": "/static/app.css",
    "home": "/",
    "question": "/questions/view-reshape-contiguous",
    "search": "/questions?q=gradient+accumulation",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wrk(url: str, seconds: int, connections: int) -> tuple[float, float]:
    """(requests/s, p99 in ms) of one wrk run; raises if any response was not 2xx."""
    out = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", url],
                         capture_output=True, text=True, check=True).stdout
    if "Non-2xx" in out:
        raise SystemExit(f"non-2xx responses from {url}:\n{out}")
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    m = re.search(r"99%\s+([\d.]+)(us|ms|s)\b", out)
    p99 = float(m.group(1)) * {"us": 1e-3, "ms": 1.0, "s": 1e3}[m.group(2)]
    return rps, p99


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--connections", type=int, default=64)
    args = ap.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed: apt-get install wrk")
    tmp = Path(tempfile.mkdtemp(prefix="torchdojo-load-"))
    url_db = f"sqlite:///{tmp / 'torchdojo.db'}"
    sys.path.insert(0, str(ROOT / "src"))
    from torchdojo.core import Dojo
    from torchdojo.settings import Settings

    d = Dojo(Settings(database_url=url_db, bank_dir=ROOT / "bank"))
    for cid in d.flashcards.queue()[:15]:  # some history, so the home page has something to count
        d.flashcards.review(cid, "good")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "TORCHDOJO_DATABASE_URL": url_db, "TORCHDOJO_BANK_DIR": str(ROOT / "bank")}
    proc = subprocess.Popen([str(Path(sys.executable).parent / "torchdojo"), "serve", "--port", str(port)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            try:
                if httpx.get(base + "/mock/grader-status", timeout=2).json()["status"] in ("ready", "failed"):
                    break
            except (httpx.TransportError, ValueError, KeyError):
                pass
            time.sleep(0.5)
        results: dict[str, list[tuple[float, float]]] = {k: [] for k in PAGES}
        for _ in range(args.rounds):
            for name, path in PAGES.items():
                results[name].append(wrk(base + path, args.seconds, args.connections))
    finally:
        proc.terminate()
        proc.wait(10)
        shutil.rmtree(tmp, ignore_errors=True)
    med = {k: (statistics.median(r for r, _ in v), statistics.median(p for _, p in v)) for k, v in results.items()}
    print(f"{args.connections} connections, {args.rounds} rounds x {args.seconds} s per page, medians; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"{'page':10s} {'req/s':>9s} {'p99 ms':>8s} {'rate / static':>14s}")
    for k, (rps, p99) in med.items():
        print(f"{k:10s} {rps:9.0f} {p99:8.1f} {rps / med['static'][0]:14.2f}")
    print(f"home / question rate: {med['home'][0] / med['question'][0]:.2f} (target >= 0.50)")


if __name__ == "__main__":
    main()
