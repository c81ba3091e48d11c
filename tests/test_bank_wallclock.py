"""`bank validate` refuses examples that assert on measured time (issue 13), naming file:line."""

from __future__ import annotations

import subprocess
import textwrap
from pathlib import Path

import pytest
from conftest import TORCHDOJO

from torchdojo.bank.loader import load_bank
from torchdojo.bank.wallclock import timing_asserts

MINI = (Path(__file__).parent / "fixtures" / "mini-entry.md").read_text()

TIMED_ASSERT = """\
import time
import torch
t0 = time.perf_counter()
torch.ones(1000).sum()
dt = time.perf_counter() - t0
print(f"{dt * 1e6:.1f} us")
assert dt < 1
"""

PRINTS_ONLY = """\
import time
import torch
t0 = time.perf_counter()
s = torch.ones(1000).sum()
dt = time.perf_counter() - t0
print(f"sum took {dt * 1e6:.1f} us")
assert s.item() == 1000.0
"""


def bank_with(tmp_path: Path, code: str) -> tuple[Path, Path]:
    """A one-entry bank whose only runnable block is ``code``; returns (bank dir, entry file)."""
    root = tmp_path / "bank"
    path = root / "questions" / "tensors" / "mini-entry.md"
    path.parent.mkdir(parents=True)
    head = MINI.split("```python runnable")[0]
    path.write_text(head + "```python runnable\n" + code + "```\n")
    return root, path


def line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


def test_timed_assert_is_rejected_at_its_line_in_the_md_file(tmp_path: Path):
    root, path = bank_with(tmp_path, TIMED_ASSERT)
    bank = load_bank(root)
    (issue,) = bank.issues
    assert issue.path == path and issue.field == "runnable"
    assert issue.line == line_of(path, "assert dt < 1")
    assert "`dt < 1` (dt measured) checks wall-clock time" in issue.message
    assert str(issue).startswith(f"{path}:{issue.line}: runnable: ")
    assert "mini-entry" not in bank.entries


def test_printing_timings_without_asserting_is_accepted(tmp_path: Path):
    root, _ = bank_with(tmp_path, PRINTS_ONLY)
    bank = load_bank(root)
    assert not bank.issues and "mini-entry" in bank.entries


def test_validate_command_names_file_and_line(tmp_path: Path):
    root, path = bank_with(tmp_path, TIMED_ASSERT)
    bad = subprocess.run([TORCHDOJO, "bank", "validate", "--bank", str(root)], capture_output=True, text=True)
    assert bad.returncode == 1
    assert f"{path}:{line_of(path, 'assert dt < 1')}: runnable: `dt < 1`" in bad.stderr
    path.write_text(path.read_text().replace("assert dt < 1\n", ""))
    ok = subprocess.run([TORCHDOJO, "bank", "validate", "--bank", str(root)], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr


def lines(code: str) -> list[int]:
    return [t.lineno for t in timing_asserts(textwrap.dedent(code))]


@pytest.mark.parametrize("code, flagged", [
    # aliases of the clocks, the _ns variants, a clock bound to a name
    ("from time import perf_counter as pc\na = pc()\nb = pc()\nassert b - a < 5\n", [4]),
    ("import time as T\nt = T.monotonic_ns()\nassert t > 0\n", [3]),
    ("import time\nclock = time.process_time\nt0 = clock()\nd = clock() - t0\nassert d >= 0\n", [5]),
    ("import time\nassert time.time() > 0\n", [2]),
    # timeit and torch.utils.benchmark, through min/sorted/statistics and attributes
    ("import timeit\nts = timeit.repeat('1+1', number=10)\nassert min(ts) < 1\n", [3]),
    ("import statistics, timeit\nm = statistics.median(sorted(timeit.repeat('1', number=9)))\nassert m < 1\n", [3]),
    ("import torch.utils.benchmark as benchmark\nt = benchmark.Timer('x+1', globals={'x': 1})\n"
     "m = t.blocked_autorange(min_run_time=0.1)\nassert m.median < 1\n", [4]),
    ("from torch.utils.benchmark import Timer\nassert Timer('1').timeit(5).mean > 0\n", [2]),
    # a helper that returns a duration; a list filled in a loop; a dict entry
    ("import time\ndef timed(f):\n    t0 = time.perf_counter(); f()\n    return time.perf_counter() - t0\n"
     "assert timed(print) < 1\n", [5]),
    ("import time\nts = []\nfor _ in range(3):\n    t0 = time.perf_counter()\n"
     "    ts.append(time.perf_counter() - t0)\nbest = min(ts)\nassert best < 1\n", [7]),
    ("import time\nd = {}\nd['a'] = time.time()\nassert d['a'] > 0\n", [4]),
    ("import time\nr = [time.time() for _ in range(2)]\nassert r[1] >= r[0]\n", [3]),
    # a flag set under a timed condition; if … raise; unittest and torch.testing asserts
    ("import time\nt = time.time()\nok = False\nif t > 0:\n    ok = True\nassert ok\n", [6]),
    ("import time\nt0 = time.time()\nif time.time() - t0 > 5:\n    raise RuntimeError('slow')\n", [3]),
    ("import time\nt0 = time.monotonic()\nn = 0\nwhile time.monotonic() - t0 < 0.01:\n    n += 1\nassert n > 10\n", [6]),
    ("import time, unittest\nclass T(unittest.TestCase):\n    def test(self):\n"
     "        t0 = time.perf_counter()\n        self.assertLess(time.perf_counter() - t0, 1)\n", [5]),
    ("import time, torch\na = time.time()\ntorch.testing.assert_close(a, a + 0.0)\n", [3]),
    # a parameter passed a duration; an attribute set in a class
    ("import time\ndef check(d):\n    assert d < 1\nt0 = time.time()\ncheck(time.time() - t0)\n", [3]),
    ("import time\nclass Clock:\n    def __enter__(self):\n        self.t0 = time.perf_counter(); return self\n"
     "    def __exit__(self, *a):\n        self.dt = time.perf_counter() - self.t0\n"
     "with Clock() as c:\n    pass\nassert c.dt < 1\n", [9]),
    # profiler and CUDA-event durations
    ("import torch\nwith torch.profiler.profile() as p:\n    torch.ones(3).sum()\n"
     "e = p.key_averages()[0]\nassert e.cpu_time_total >= 0\n", [5]),
    ("import torch\ns = torch.cuda.Event(enable_timing=True)\nassert s.elapsed_time(s) >= 0\n", [3]),
])
def test_timed_checks_are_found(code: str, flagged: list[int]):
    assert lines(code) == flagged


@pytest.mark.parametrize("code", [
    PRINTS_ONLY,
    # a tuple-returning helper: its result is not timed, its duration is only printed
    "import time\ndef run(f):\n    t0 = time.perf_counter()\n    y = f()\n    return y, time.perf_counter() - t0\n"
    "y, dt = run(lambda: 3)\nprint(dt)\nassert y == 3\n",
    # a name reassigned to an untimed value, the same name timed in another function
    "import time\nt = time.time()\nprint(t)\nt = 3\nassert t == 3\n",
    "import time\ndef f():\n    t = time.time()\n    return None\nt = 4\nassert t == 4\n",
    # a deadline loop that sets nothing checked later; asserting on counts from a profiler
    "import time\nx = 1\ndeadline = time.monotonic() + 5\nwhile time.monotonic() < deadline:\n    break\nassert x == 1\n",
    "import torch\nwith torch.profiler.profile() as p:\n    torch.ones(3).sum()\n"
    "names = [e.key for e in p.key_averages()]\nassert 'aten::sum' in names\n",
    "import torch\nfrom torch.utils.flop_counter import FlopCounterMode\nwith FlopCounterMode(display=False) as fc:\n"
    "    torch.ones(4, 4) @ torch.ones(4, 4)\nassert fc.get_total_flops() == 2 * 4 * 4 * 4\n",
    # a measurement's configuration is not a timing
    "from torch.utils import benchmark\nm = benchmark.Timer('1', num_threads=2).timeit(3)\n"
    "assert m.num_threads == 2 and m.task_spec.stmt == '1'\nprint(m.median)\n",
    # code that does not parse is left to `bank verify`
    "def broken(:\n    time.time()\n",
])
def test_untimed_checks_are_accepted(code: str):
    assert lines(code) == []
