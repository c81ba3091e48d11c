"""What a self-review costs: an 8-item mock interview reviewed with the keyboard in Chromium.

    python bench/self_review.py [--items 8] [--changes 2]

Starts ``torchdojo serve`` on a fresh SQLite file (the offline grader), runs an 8-item concept
mock whose answers are the first sentences of each entry's short answer (some points made, some
not), ends it, waits for grading, then reviews every answer with the keyboard only: per answer,
``--changes`` marks set to something other than the machine's proposal (``j``/``k`` to reach a
line, a digit to mark it), then ``Enter`` to accept the rest; a last ``Enter`` opens the report.
Prints the keys pressed and the seconds the app took (machine time only: a person's reading
time comes on top), and the agreement figures of that run. Needs Debian's chromium and
Playwright (``scripts/setup.sh --test``).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--items", type=int, default=8)
    ap.add_argument("--changes", type=int, default=2)
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT / "src"))
    from playwright.sync_api import sync_playwright

    from torchdojo.core import Dojo
    from torchdojo.practice.mock import MockConfig
    from torchdojo.settings import Settings

    tmp = Path(tempfile.mkdtemp(prefix="torchdojo-review-"))
    db = f"sqlite:///{tmp / 'torchdojo.db'}"
    d = Dojo(Settings(database_url=db, bank_dir=ROOT / "bank"))
    m = d.mocks.start(MockConfig(level="mid", minutes=args.items * 6, types=("concept",), use_judge=False, seed=11,
                                 follow_ups=False))
    items = m.items[: args.items]
    for it in items:
        sa = d.bank.get(it.ref_id).meta.short_answer
        d.mocks.save_answer(m.id, it.position, " ".join(re.split(r"(?<=\.)\s", sa)[:2]))
    d.mocks.finish(m.id)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "TORCHDOJO_DATABASE_URL": db, "TORCHDOJO_BANK_DIR": str(ROOT / "bank"), "TORCHDOJO_GRADER": "embedding"}
    proc = subprocess.Popen([str(Path(sys.executable).parent / "torchdojo"), "serve", "--port", str(port)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    keys = 0
    try:
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline:  # the report page starts grading; wait until it is done
            try:
                r = httpx.get(f"{url}/mock/{m.id}/report", follow_redirects=False, timeout=5)
                if r.status_code == 303 and r.headers["location"].endswith("/review"):
                    break
            except httpx.TransportError:
                pass
            time.sleep(1)
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=shutil.which("chromium") or "/usr/bin/chromium",
                                  args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
            page = b.new_page()
            page.goto(f"{url}/mock/{m.id}/review")
            t0 = time.perf_counter()
            n = int(page.locator("#mock-review").get_attribute("data-total"))
            for i in range(1, n + 1):
                page.locator(".sc-head").click()
                for _ in range(args.changes):
                    pos = int(page.locator(".scorecard .sc-line.current").get_attribute("data-pos"))
                    proposal, choices = page.locator(f".sc-line[data-pos='{pos}']").evaluate(
                        "l => [l.querySelector('.proposal')?.dataset.proposal ?? null, "
                        "[...l.querySelectorAll('button.mark-btn')].map(b => b.value)]")
                    key = next(k for k, c in enumerate(choices, 1) if c != proposal)
                    page.keyboard.press(str(key))
                    keys += 1
                    page.locator(f".sc-line[data-pos='{pos}'] button.on").wait_for()
                page.keyboard.press("Enter")
                keys += 1
                if i < n:
                    page.wait_for_url(re.compile(rf"review\?n={i + 1}$"))
            page.locator("#review-done").wait_for()
            page.keyboard.press("Enter")
            keys += 1
            page.wait_for_url(re.compile(r"/report$"))
            seconds = time.perf_counter() - t0
            b.close()
    finally:
        proc.terminate()
        proc.wait(10)
    ag = d.scorecards.agreement()
    print(f"self-review of a {n}-answer mock, {args.changes} mark(s) changed per answer: {keys} keys, "
          f"{seconds:.1f} s of app time ({seconds / n:.2f} s per answer); load average {os.getloadavg()[0]:.1f}")
    kp = ag["per_kind"].get("key-point")
    if kp:
        print(f"agreement on key-point lines in this run: {kp['agree']}/{kp['n']} (by construction "
              f"{args.changes} changed per answer: this measures the tool, not the grader)")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
