"""Start-up of `torchdojo serve` until the first page answers, against baselines, side by side.

Prints, for N alternating rounds in one run: the median seconds from process start to the
first 200 of "/" for (a) `torchdojo serve` with the real bank and a fresh SQLite database,
(b) a bare FastAPI app under uvicorn (the floor for any app of this stack), and the time of
(c) `python -c "import torch"` (what the web process avoids). Ratios are against (b).

    .venv/bin/python bench/startup.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent

BARE_APP = """
import sys, uvicorn
from fastapi import FastAPI
from fastapi.responses import HTMLResponse
app = FastAPI()
@app.get("/", response_class=HTMLResponse)
def home(): return "<h1>hello</h1>"
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def time_to_first_page(cmd: list[str], port: int, env: dict) -> float:
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/", timeout=2).status_code == 200:
                    return time.perf_counter() - t0
            except httpx.TransportError:
                time.sleep(0.01)
            if proc.poll() is not None or time.perf_counter() - t0 > 60:
                raise RuntimeError(f"{cmd} did not serve")
    finally:
        proc.terminate()
        proc.wait()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    serve, bare, torch_import = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.rounds):
            env = {**os.environ, "TORCHDOJO_DATABASE_URL": f"sqlite:///{tmp}/db{i}.db"}
            p = free_port()
            serve.append(time_to_first_page([str(BIN / "torchdojo"), "serve", "--port", str(p)], p, env))
            p = free_port()
            bare.append(time_to_first_page([sys.executable, "-c", BARE_APP, str(p)], p, env))
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-c", "import torch"], check=True)
            torch_import.append(time.perf_counter() - t0)
    floor = statistics.median(bare)
    print(f"rounds: {args.rounds} (alternating, one run)")
    for name, xs in (("torchdojo serve -> first page", serve), ("bare FastAPI app -> first page", bare),
                     ("python -c 'import torch'", torch_import)):
        m = statistics.median(xs)
        print(f"{name:34s} median {m:6.3f} s  min {min(xs):6.3f} s  ratio to bare app {m / floor:5.2f}x")


if __name__ == "__main__":
    main()
