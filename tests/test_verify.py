"""`bank verify` runs each example in its own process and records what passed."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from conftest import TORCHDOJO

from torchdojo.bank.loader import load_bank

MINI = (Path(__file__).parent / "fixtures" / "mini-entry.md").read_text()
PASS = "```python runnable\nimport torch\ns = torch.ones(2, 3).sum()\nassert s.dim() == 0 and s.item() == 6.0 and s.dtype == torch.float32\n```\n"


def make_bank(root: Path, bodies: dict[str, str]) -> Path:
    """A bank of copies of the mini entry, one per id, each with the given runnable blocks."""
    for entry_id, blocks in bodies.items():
        text = MINI.replace("id: mini-entry", f"id: {entry_id}").split("`torch.ones(2, 3)` has")[0]
        path = root / "questions" / "tensors" / f"{entry_id}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text + "Body.\n\n" + blocks)
    assert not load_bank(root).issues
    return root


def run_verify(bank: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([TORCHDOJO, "bank", "verify", "--bank", str(bank), *args], capture_output=True, text=True,
                          timeout=300)


def test_verify_passes_fails_times_out_and_skips(tmp_path: Path):
    bank = make_bank(tmp_path / "bank", {
        "good-one": PASS,
        "wrong-claim": "```python runnable\nimport torch\nassert torch.ones(2).sum().item() == 3.0, 'sum is 2'\n```\n",
        "hangs": "```python runnable timeout=2\nimport time\ntime.sleep(60)\n```\n",
        "gpu-only": "```python runnable needs=cuda\nimport torch\nassert torch.cuda.is_available()\n```\n",
    })
    res = run_verify(bank)
    assert res.returncode == 1
    assert "FAILED" in res.stderr and "wrong-claim.md:" in res.stderr and "AssertionError: sum is 2" in res.stderr
    assert "TIMEOUT" in res.stderr and "hangs.md:" in res.stderr and "no exit within 2 s" in res.stderr
    assert "gpu-only.md:" in res.stdout and "needs a CUDA device, this machine has none" in res.stdout
    record = json.loads((bank / "verified.json").read_text())
    assert set(record) == {"good-one"}  # skipped-only and failing entries get no record
    assert record["good-one"]["torch"].startswith("2.") and record["good-one"]["digest"]


def test_failing_entry_loses_its_record_and_only_limits_the_run(tmp_path: Path):
    bank = make_bank(tmp_path / "bank", {"good-one": PASS, "other": PASS})
    assert run_verify(bank).returncode == 0
    assert set(json.loads((bank / "verified.json").read_text())) == {"good-one", "other"}
    path = bank / "questions" / "tensors" / "other.md"
    path.write_text(path.read_text().replace("== 6.0", "== 7.0"))
    assert run_verify(bank, "--only", "good-one").returncode == 0  # other not run: keeps its record
    assert set(json.loads((bank / "verified.json").read_text())) == {"good-one", "other"}
    assert run_verify(bank, "--only", "other").returncode == 1
    assert set(json.loads((bank / "verified.json").read_text())) == {"good-one"}


def test_examples_run_isolated_in_a_scratch_directory(tmp_path: Path):
    # Each block runs in its own process and temporary working directory: state never leaks.
    bank = make_bank(tmp_path / "bank", {
        "writes": "```python runnable\nimport os\nopen('marker', 'w').write('x')\nassert os.path.exists('marker')\n```\n",
        "reads": "```python runnable\nimport os\nassert not os.path.exists('marker')\nassert 'torch' not in globals()\n```\n",
    })
    res = run_verify(bank, "--workers", "1")
    assert res.returncode == 0, res.stderr
