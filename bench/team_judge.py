"""Judge throughput of team mode: jobs/s with 1 worker vs 2 workers (``--concurrency 1`` each)
over the same batch, measured side by side in one run (issue 15). Not a test.

Starts a private ``redis-server`` (free port, its own folder) and ``torchdojo worker`` processes
(this checkout's source) over one SQLite file; per round and per worker count: warms every
worker (each judges a few jobs first: its sandbox server up, expected outputs cached), then
submits the batch through :class:`torchdojo.jobs.celery_app.JudgeQueue` and times until every
verdict is written. Rounds alternate 1, 2, 1, 2… so load from elsewhere falls on both. Prints
jobs/s per round, the medians and their ratio; every verdict must be Accepted.

    sudo .venv/bin/python bench/team_judge.py [--batch 24] [--rounds 2]
"""

from __future__ import annotations

import argparse
import collections
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
BANK = ROOT / "bank"
CHALLENGES = ["cosine-similarity-matrix", "stable-softmax", "box-iou-nms"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait(what: str, check, timeout: float = 600.0):
    deadline = time.monotonic() + timeout
    while not (got := check()):
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        time.sleep(0.1)
    return got


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--batch", type=int, default=24, help="jobs per measured batch")
    ap.add_argument("--rounds", type=int, default=2, help="rounds of (1 worker, 2 workers)")
    args = ap.parse_args()
    if not shutil.which("redis-server"):
        raise SystemExit("needs redis-server (scripts/setup.sh installs it)")

    import redis
    from sqlalchemy import func, select

    from torchdojo.jobs.celery_app import JudgeQueue
    from torchdojo.judge.challenge import load_challenges
    from torchdojo.settings import Settings
    from torchdojo.store.db import open_database
    from torchdojo.store.models import SubmissionRow

    tmp = Path(tempfile.mkdtemp(prefix="torchdojo-team-bench-"))
    port = free_port()
    rs = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--dir", str(tmp),
                           "--save", "", "--appendonly", "yes"], stdout=subprocess.DEVNULL, start_new_session=True)
    workers: list[subprocess.Popen] = []
    try:
        wait("redis", lambda: _ping(redis, port))
        settings = Settings(bank_dir=BANK, database_url=f"sqlite:///{tmp / 'team.db'}",
                            broker_url=f"redis://127.0.0.1:{port}/0", queue_max=100_000,
                            cache_dir=tmp / "cache")
        sessions = open_database(settings.database_url)
        challenges = load_challenges(BANK / "challenges")[0]
        queue = JudgeQueue(settings, sessions, challenges)
        refs = {c: (BANK / "challenges" / c / "reference.py").read_text() for c in CHALLENGES}
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "TORCHDOJO_BANK_DIR": str(BANK),
               "TORCHDOJO_DATABASE_URL": settings.database_url, "TORCHDOJO_BROKER_URL": settings.broker_url,
               "TORCHDOJO_ACCOUNTS": "0",
               "TORCHDOJO_CACHE_DIR": str(settings.cache_dir)}

        def start(i: int) -> subprocess.Popen:
            log = open(tmp / f"worker{i}.log", "ab")
            return subprocess.Popen([sys.executable, "-m", "torchdojo.cli.main", "worker", "--concurrency", "1",
                                     "--name", f"bench{i}@local", "--loglevel", "WARNING"], env=env, stdout=log,
                                    stderr=subprocess.STDOUT, start_new_session=True)

        def batch(n: int) -> list[int]:
            return [queue.submit(CHALLENGES[i % len(CHALLENGES)], refs[CHALLENGES[i % len(CHALLENGES)]], "submit")
                    for i in range(n)]

        def done(ids: list[int]) -> bool:
            with sessions() as s:
                return s.scalar(select(func.count()).where(SubmissionRow.id.in_(ids),
                                                           SubmissionRow.status.in_(("done", "failed")))) == len(ids)

        def stop_all() -> None:
            for w in workers:
                os.killpg(w.pid, signal.SIGTERM)
            for w in workers:
                try:
                    w.wait(60)
                except subprocess.TimeoutExpired:
                    os.killpg(w.pid, signal.SIGKILL)
            workers.clear()

        rates: dict[int, list[float]] = {1: [], 2: []}
        for rnd in range(args.rounds):
            for n in (1, 2):
                workers.extend(start(i) for i in range(n))
                warm = batch(3 * n)  # every worker's sandbox up and the expected outputs cached
                wait("warm-up", lambda warm=warm: done(warm))
                t0 = time.perf_counter()
                ids = batch(args.batch)
                wait("the batch", lambda ids=ids: done(ids))
                seconds = time.perf_counter() - t0
                with sessions() as s:
                    got = s.execute(select(SubmissionRow.verdict, SubmissionRow.worker)
                                    .where(SubmissionRow.id.in_(ids))).all()
                bad = [v for v, _ in got if v != "Accepted"]
                share = sorted(collections.Counter(w for _, w in got).values(), reverse=True)
                if bad:
                    raise SystemExit(f"wrong verdicts: {bad}")
                rates[n].append(args.batch / seconds)
                print(f"round {rnd + 1}: {n} worker(s): {args.batch} jobs in {seconds:.1f} s = "
                      f"{args.batch / seconds:.2f} jobs/s (jobs per worker process: {share}; "
                      f"load average {os.getloadavg()[0]:.1f})", flush=True)
                stop_all()
        one, two = statistics.median(rates[1]), statistics.median(rates[2])
        print(f"median: 1 worker {one:.2f} jobs/s, 2 workers {two:.2f} jobs/s, ratio {two / one:.2f}x "
              f"({os.cpu_count()} CPU cores, load average {os.getloadavg()[0]:.1f})")
        queue.close()
    finally:
        for w in workers:
            os.killpg(w.pid, signal.SIGKILL)
        rs.kill()
        rs.wait()
        shutil.rmtree(tmp, ignore_errors=True)


def _ping(redis, port: int) -> bool:
    try:
        return bool(redis.Redis(port=port, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


if __name__ == "__main__":
    main()
