"""Run the bank's CUDA-only examples on a machine with a GPU (the CI machine has none).

    python3 bench/cuda_blocks.py [--out DIR]

Standalone on purpose: it needs only the Python that holds PyTorch (no torchdojo install), so it
runs on a lent GPU machine over a copy of the tree. It finds every ```` ```python runnable ````
block whose ``needs=`` includes ``cuda`` (``multi-gpu`` ones are skipped with one device), runs
each in its own process and temporary folder as ``torchdojo bank verify`` does, and prints (and
writes to ``DIR/cuda_blocks.json``) one line per block: passed / failed / timeout, seconds, and
the tail of the error. The result is recorded by hand in the session's note, with the GPU and
the torch version.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FENCE = re.compile(r"^```python runnable([^\n]*)\n(.*?)^```", re.S | re.M)


def blocks(bank: Path):
    for path in sorted((bank / "questions").rglob("*.md")):
        text = path.read_text(encoding="utf-8")
        entry_id = re.search(r"^id: *(\S+)", text, re.M).group(1)
        for n, m in enumerate(FENCE.finditer(text)):
            opts = dict(o.split("=", 1) for o in m.group(1).split() if "=" in o)
            needs = set(opts.get("needs", "").split(","))
            if needs & {"cuda", "multi-gpu"}:
                line = text.count("\n", 0, m.start()) + 1
                yield entry_id, n, f"{path.relative_to(ROOT)}:{line}", needs, float(opts.get("timeout", 60)), m.group(2)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    import torch

    gpus = torch.cuda.device_count() if torch.cuda.is_available() else 0
    head = {"torch": torch.__version__, "gpus": gpus,
            "device": torch.cuda.get_device_name(0) if gpus else None, "results": []}
    print(f"torch {head['torch']}, {gpus} GPU(s): {head['device']}", flush=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("TORCHDOJO_")}
    env.setdefault("OMP_NUM_THREADS", "1")
    for entry_id, n, where, needs, timeout, code in blocks(ROOT / "bank"):
        if "multi-gpu" in needs and gpus < 2:
            status, secs, detail = "skipped", 0.0, f"needs 2+ GPUs, this machine has {gpus}"
        else:
            t0 = time.perf_counter()
            with tempfile.TemporaryDirectory() as tmp:
                script = Path(tmp) / f"{entry_id}_{n}.py"
                script.write_text(code, encoding="utf-8")
                try:
                    p = subprocess.run([sys.executable, script.name], cwd=tmp, env=env, capture_output=True,
                                       text=True, timeout=timeout, stdin=subprocess.DEVNULL)
                    status = "passed" if p.returncode == 0 else "failed"
                    detail = "" if p.returncode == 0 else "\n".join((p.stderr or p.stdout).splitlines()[-12:])
                except subprocess.TimeoutExpired:
                    status, detail = "timeout", f"no exit within {timeout:g} s"
            secs = time.perf_counter() - t0
        head["results"].append({"entry": entry_id, "block": n, "where": where, "status": status,
                                "seconds": round(secs, 2), "detail": detail})
        print(f"{status:8} {secs:6.1f}s  {where} ({entry_id} #{n})", flush=True)
        if detail and status != "skipped":
            print("    " + detail.replace("\n", "\n    "), flush=True)
    counts = {s: sum(r["status"] == s for r in head["results"]) for s in ("passed", "failed", "timeout", "skipped")}
    print(counts)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "cuda_blocks.json").write_text(json.dumps(head, indent=1))
    return 0 if counts["failed"] == counts["timeout"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
