"""Judge latency and throughput, side by side in one run.

Grades the same typical submission (the stable-softmax reference: 7 tests, forward values
and vector-Jacobian products, traced) through:

- the warm sandbox (fork server, full isolation),
- a cold ``python -m torchdojo.judge.runtime`` subprocess per submission (no fork server),
- in-process with no isolation at all (the floor: only the work itself),

then measures submissions per second with every sandbox slot busy. Prints p50/p95 and the
ratios the targets are stated in (warm p50 <= 60 ms, >= 25x faster than cold, <= 40 ms above
the floor, >= 30 submissions/s on 2 cores), and the load average: on a shared machine the
absolute numbers move with the load, so compare versions side by side with ``--baseline``.

``--baseline SRC`` also starts the fork server of another source tree (for example a copy of
``src/`` taken before a change) and runs it interleaved with this one, submission by
submission and burst by burst, so both see the same machine noise; it prints both and the
new/old ratios.

    sudo .venv/bin/python bench/judge.py [--n 40] [--cold 5] [--baseline /tmp/old/src]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from torchdojo.judge import runtime, wire
from torchdojo.judge.challenge import load_challenge
from torchdojo.judge.execution import ExecResult, LocalUnsafeBackend
from torchdojo.judge.grade import Grader
from torchdojo.judge.sandbox.backend import SandboxBackend
from torchdojo.judge.sandbox.server import slot_socket

ROOT = Path(__file__).resolve().parents[1]


class InProcess:
    name, isolated = "in-process (floor)", False

    def execute(self, job: bytes, limits) -> ExecResult:
        t = time.process_time()
        data = runtime.execute(job)
        return ExecResult("ok", data=data, cpu_seconds=time.process_time() - t)


class BaselineBackend(SandboxBackend):
    """The fork server of another source tree, speaking that tree's protocol: per-slot sockets
    if its server made them, else one socket for everything (the fork-per-job server)."""

    name = "sandbox (baseline)"

    def __init__(self, src: str, slots: int) -> None:
        self._src = str(Path(src).resolve())
        super().__init__(slots=slots)

    def _server_env(self) -> dict[str, str]:
        return {**super()._server_env(), "PYTHONPATH": self._src}

    def _job_path(self, server, slot: int) -> str:
        path = slot_socket(server.socket_path, slot)
        return path if os.path.exists(path) else server.socket_path

    def execute(self, job: bytes, limits) -> ExecResult:
        """Trees before the streamed result answer one message: re-frame it as a stream (the
        re-encoding, well under a millisecond, is counted against the baseline)."""
        res = super().execute(job, limits)
        if res.data and not wire.read_stream(res.data).complete:
            res.data = legacy_to_stream(res.data)
        return res


def legacy_to_stream(data: bytes) -> bytes:
    try:
        header, tensors = wire.decode(data)
    except wire.WireError:
        return data
    frames = []
    for i, rec in enumerate(header.get("cases", [])):
        mine = {k: v for k, v in tensors.items() if k.startswith(f"out/{i}/")}
        frames.append(wire.frame(wire.encode({"case": i, **rec}, mine)))
    end = {"end": True, "status": header.get("status"), **({"error": header["error"]} if "error" in header else {})}
    return b"".join(frames) + wire.frame(wire.encode(end))


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


def burst(grader: Grader, code: str, n: int, workers: int) -> float:
    """Submissions per second with ``workers`` threads submitting ``n`` submissions."""
    t = time.perf_counter()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        reps = list(pool.map(lambda _: grader.grade(code), range(n)))
    rate = n / (time.perf_counter() - t)
    assert all(r.verdict.value == "Accepted" for r in reps)
    return rate


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg()) + f" on {os.cpu_count()} CPUs"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=40)
    ap.add_argument("--cold", type=int, default=5)
    ap.add_argument("--slots", type=int, default=2)
    ap.add_argument("--bursts", type=int, default=3, help="throughput bursts of --n submissions (median)")
    ap.add_argument("--baseline", help="src/ of another checkout: its server runs interleaved with this one")
    args = ap.parse_args()
    ch = load_challenge(ROOT / "bank" / "challenges" / "stable-softmax")
    code = ch.reference_source
    floor_g = Grader(ch, InProcess())
    floor_g.grade(code)  # warm this process (expected outputs cached in every grader alike)
    print(f"before: {load()}")
    backends = [SandboxBackend(slots=args.slots)]
    if args.baseline:
        backends.append(BaselineBackend(args.baseline, slots=args.slots))
    try:
        graders = [Grader(ch, b) for b in backends]
        for g in graders:
            g._expected = floor_g._expected
            g.grade(code)
        cold_g = Grader(ch, LocalUnsafeBackend())
        cold_g._expected = floor_g._expected
        warm: list[list[float]] = [[] for _ in graders]
        floor, cold = [], []
        for i in range(args.n):  # interleave so machine noise hits all alike
            for g, xs in zip(graders, warm, strict=True):
                xs += timed(g, code, 1)
            floor += timed(floor_g, code, 1)
            if i < args.cold:
                cold += timed(cold_g, code, 1)
        rates: list[list[float]] = [[] for _ in graders]
        for _ in range(args.bursts):
            for g, rs in zip(graders, rates, strict=True):
                rs.append(burst(g, code, args.n, args.slots * 2))
    finally:
        for b in backends:
            b.close()
    print(f"after:  {load()}")
    names = ["warm sandbox", "warm baseline"][: len(graders)]
    print(f"submission: stable-softmax reference, {len(ch.tests.cases())} tests; n={args.n}, cold n={args.cold}")
    for name, xs in (*zip(names, warm, strict=True), ("cold subprocess", cold), ("in-process floor", floor)):
        print(f"{name:18s} p50 {statistics.median(xs) * 1000:8.1f} ms   p95 {pct(xs, 0.95) * 1000:8.1f} ms")
    f = statistics.median(floor)
    for name, xs, rs in zip(names, warm, rates, strict=True):
        w = statistics.median(xs)
        print(f"{name}:")
        print(f"  cold / warm p50:          {statistics.median(cold) / w:6.1f}x   (target >= 25x)")
        print(f"  warm - floor p50:         {(w - f) * 1000:6.1f} ms (target <= 40 ms)")
        print(
            f"  throughput, {args.slots} slots busy: {statistics.median(rs):6.1f} submissions/s (target >= 30; "
            f"bursts: {', '.join(f'{r:.1f}' for r in rs)})"
        )
    if args.baseline:
        (new, old), (rn, ro) = warm, rates
        print("new / baseline:")
        print(
            f"  p50 {statistics.median(new) / statistics.median(old):.2f}   p95 {pct(new, 0.95) / pct(old, 0.95):.2f}   "
            f"gap above floor {(statistics.median(new) - f) / (statistics.median(old) - f):.2f}   "
            f"throughput {statistics.median(rn) / statistics.median(ro):.2f}"
        )


if __name__ == "__main__":
    main()
