"""Judge latency and throughput, side by side in one run.

Grades the same typical submission (the stable-softmax reference: 7 tests, forward values
and vector-Jacobian products, traced) through:

- the warm sandbox (fork server, full isolation),
- a cold ``python -m torchdojo.judge.runtime`` subprocess per submission (no fork server),
- in-process with no isolation at all (the floor: only the work itself),

then measures submissions per second with every sandbox slot busy. Prints p50/p95 and the
ratios the targets are stated in (warm p50 <= 60 ms, >= 25x faster than cold, <= 40 ms above
the floor, >= 30 submissions/s on 2 cores).

    sudo .venv/bin/python bench/judge.py [--n 40] [--cold 5]
"""

from __future__ import annotations

import argparse
import statistics
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from torchdojo.judge import runtime
from torchdojo.judge.challenge import load_challenge
from torchdojo.judge.execution import ExecResult, LocalUnsafeBackend
from torchdojo.judge.grade import Grader
from torchdojo.judge.sandbox.backend import SandboxBackend

ROOT = Path(__file__).resolve().parents[1]


class InProcess:
    name, isolated = "in-process (floor)", False

    def execute(self, job: bytes, limits) -> ExecResult:
        t = time.process_time()
        data = runtime.execute(job)
        return ExecResult("ok", data=data, cpu_seconds=time.process_time() - t)


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def timed(grader: Grader, code: str, n: int) -> list[float]:
    out = []
    for _ in range(n):
        t = time.perf_counter()
        rep = grader.grade(code)
        out.append(time.perf_counter() - t)
        assert rep.verdict.value == "Accepted", rep.message
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=40)
    ap.add_argument("--cold", type=int, default=5)
    ap.add_argument("--slots", type=int, default=2)
    args = ap.parse_args()
    ch = load_challenge(ROOT / "bank" / "challenges" / "stable-softmax")
    code = ch.reference_source
    floor_g = Grader(ch, InProcess())
    floor_g.grade(code)  # warm this process (expected outputs cached in every grader alike)
    with SandboxBackend(slots=args.slots) as sb:
        warm_g = Grader(ch, sb)
        warm_g.grade(code)
        cold_g = Grader(ch, LocalUnsafeBackend())
        cold_g._expected = warm_g._expected
        warm, floor, cold = [], [], []
        for i in range(args.n):  # interleave so machine noise hits all alike
            warm += timed(warm_g, code, 1)
            floor += timed(floor_g, code, 1)
            if i < args.cold:
                cold += timed(cold_g, code, 1)
        burst = args.n
        t = time.perf_counter()
        with ThreadPoolExecutor(max_workers=args.slots * 2) as pool:
            reps = list(pool.map(lambda _: warm_g.grade(code), range(burst)))
        rate = burst / (time.perf_counter() - t)
        assert all(r.verdict.value == "Accepted" for r in reps)
    print(f"submission: stable-softmax reference, {len(ch.tests.cases())} tests; n={args.n}, cold n={args.cold}")
    for name, xs in (("warm sandbox", warm), ("cold subprocess", cold), ("in-process floor", floor)):
        print(f"{name:18s} p50 {statistics.median(xs) * 1000:8.1f} ms   p95 {pct(xs, 0.95) * 1000:8.1f} ms")
    w, c, f = statistics.median(warm), statistics.median(cold), statistics.median(floor)
    print(f"cold / warm p50:          {c / w:6.1f}x   (target >= 25x)")
    print(f"warm - floor p50:         {(w - f) * 1000:6.1f} ms (target <= 40 ms)")
    print(f"throughput, {args.slots} slots busy: {rate:6.1f} submissions/s (target >= 30)")


if __name__ == "__main__":
    main()
