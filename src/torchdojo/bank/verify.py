"""Run every runnable example of the bank, each in its own process, and record the results.

Design: a block is written to a temporary folder and run as ``python block.py`` with that
folder as working directory, a clean-ish environment (``OMP_NUM_THREADS=1`` so parallel
blocks do not oversubscribe the cores) and a wall-clock timeout; it passes when it exits 0.
Blocks run in parallel on a thread pool (the work happens in the child processes). Blocks
whose ``needs`` this machine cannot provide are skipped with the reason. The PyTorch version
each entry last passed on is written to ``bank/verified.json`` by :func:`record` — the only
writer of that file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from torchdojo.bank.loader import Entry
from torchdojo.bank.schema import RunnableBlock

RECORD_FILE = "verified.json"


@dataclass(frozen=True)
class Capabilities:
    """What this machine can run: CUDA device count and whether processes can be spawned."""

    cuda_devices: int
    multiprocess: bool
    torch_version: str

    def skip_reason(self, needs: Iterable[str]) -> str | None:
        needs = set(needs)
        if "multi-gpu" in needs and self.cuda_devices < 2:
            return f"needs 2+ CUDA devices, this machine has {self.cuda_devices}"
        if "cuda" in needs and self.cuda_devices < 1:
            return "needs a CUDA device, this machine has none"
        if "multiprocess" in needs and not self.multiprocess:
            return "needs torch.distributed, which this PyTorch build lacks"
        return None


def detect_capabilities() -> Capabilities:
    """Ask a child process what torch sees, so the verifier itself never imports torch."""
    code = (
        "import json, torch, torch.distributed as d;"
        "print(json.dumps([torch.cuda.device_count() if torch.cuda.is_available() else 0,"
        " d.is_available(), torch.__version__]))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    n, dist, version = json.loads(out.stdout.strip().splitlines()[-1])
    return Capabilities(cuda_devices=n, multiprocess=dist, torch_version=version)


@dataclass(frozen=True)
class BlockResult:
    """Outcome of one block: status is 'passed', 'failed', 'timeout' or 'skipped'."""

    entry_id: str
    path: Path
    block: RunnableBlock
    status: str
    seconds: float
    detail: str = ""


def _tail(text: str, lines: int = 25) -> str:
    return "\n".join(text.strip().splitlines()[-lines:])


def run_block(entry: Entry, block: RunnableBlock, caps: Capabilities) -> BlockResult:
    reason = caps.skip_reason(block.needs)
    if reason:
        return BlockResult(entry.id, entry.path, block, "skipped", 0.0, reason)
    env = {k: v for k, v in os.environ.items() if not k.startswith("TORCHDOJO_")}
    env.setdefault("OMP_NUM_THREADS", "1")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="torchdojo-verify-") as tmp:
        script = Path(tmp) / f"{entry.id}_{block.index}.py"
        script.write_text(block.code, encoding="utf-8")
        try:
            proc = subprocess.run(
                [sys.executable, script.name], cwd=tmp, env=env, capture_output=True, text=True,
                timeout=block.timeout, stdin=subprocess.DEVNULL,
            )
        except subprocess.TimeoutExpired:
            return BlockResult(entry.id, entry.path, block, "timeout", time.perf_counter() - start,
                               f"no exit within {block.timeout:g} s (raise timeout= or make the example smaller)")
    elapsed = time.perf_counter() - start
    if proc.returncode == 0:
        return BlockResult(entry.id, entry.path, block, "passed", elapsed)
    return BlockResult(entry.id, entry.path, block, "failed", elapsed,
                       f"exit status {proc.returncode}\n{_tail(proc.stderr or proc.stdout)}")


def verify(
    entries: Iterable[Entry],
    caps: Capabilities,
    workers: int | None = None,
    on_result: Callable[[BlockResult], None] | None = None,
) -> list[BlockResult]:
    """Run the blocks of ``entries`` on ``workers`` parallel processes (default: CPU count)."""
    jobs = [(e, b) for e in entries for b in e.blocks]
    # Longest-timeout (usually multi-process) blocks first, so they do not trail at the end.
    jobs.sort(key=lambda eb: -eb[1].timeout)
    results: list[BlockResult] = []
    with ThreadPoolExecutor(max_workers=workers or os.cpu_count() or 2) as pool:
        for res in pool.map(lambda eb: run_block(eb[0], eb[1], caps), jobs):
            results.append(res)
            if on_result:
                on_result(res)
    return results


def load_record(bank_root: Path) -> dict[str, dict]:
    path = bank_root / RECORD_FILE
    if not path.exists():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


def record(bank_root: Path, entries: Iterable[Entry], results: list[BlockResult], caps: Capabilities) -> dict[str, dict]:
    """Update ``bank/verified.json``: entries whose every block passed (skips allowed, at least
    one passed) get the torch version, date and examples digest; entries with a failure lose
    their record. Entries not run this time keep theirs."""
    rec = load_record(bank_root)
    by_entry: dict[str, list[BlockResult]] = {}
    for r in results:
        by_entry.setdefault(r.entry_id, []).append(r)
    today = datetime.now(UTC).date().isoformat()
    for e in entries:
        rs = by_entry.get(e.id, [])
        if not rs:
            continue
        if any(r.status in ("failed", "timeout") for r in rs):
            rec.pop(e.id, None)
        elif any(r.status == "passed" for r in rs):
            rec[e.id] = {
                "torch": caps.torch_version,
                "date": today,
                "digest": e.examples_digest,
                "skipped": sum(r.status == "skipped" for r in rs),
            }
    rec = dict(sorted(rec.items()))
    (bank_root / RECORD_FILE).write_text(json.dumps(rec, indent=1) + "\n", encoding="utf-8")
    return rec
