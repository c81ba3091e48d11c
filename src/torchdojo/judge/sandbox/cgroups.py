"""Per-slot cgroup v1 memory and pids controllers: limit, then measure, each job.

The memory controller measures what the job allocated (``memory.max_usage_in_bytes``) better
than ``ru_maxrss`` of a forked child (which counts pages shared with the fork server) and its
OOM kill is how memory limits are enforced; ``pids.max`` contains fork and thread bombs. Where
the controllers are missing or not writable, :meth:`SlotCgroup.available` is False and the
job relies on rlimits alone.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

BASE = Path("/sys/fs/cgroup")


def cgroup_name(token: str) -> str:
    """Per-server cgroup folder, from a random token the client draws for each server it starts.

    Not from the server's pid: pids are reused, and a stopped server's folder is cleaned up
    (everything in it killed) after it is gone, when its pid may belong to another server."""
    return f"torchdojo/judge-{token}"


def remove_server_cgroups(name: str, base: Path = BASE, timeout: float = 2.0) -> None:
    """Remove a stopped server's cgroup folders (``name`` is that server's own, see
    :func:`cgroup_name`), killing what is left in them (an idle slot's pre-forked child exits by
    itself when its runner dies, but may not have yet; a busy one dies with its runner); best effort."""
    deadline = time.monotonic() + timeout
    for ctrl in ("memory", "pids"):
        root = base / ctrl / name
        for d in sorted(root.glob("slot*"), reverse=True) if root.is_dir() else []:
            while True:
                try:
                    _kill_all(d)
                    d.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        break
                    time.sleep(0.01)
        try:
            root.rmdir()
        except OSError:
            pass


def _procs(cgroup: Path) -> list[int]:
    return [int(p) for p in (cgroup / "cgroup.procs").read_text().split()]


def _kill_all(cgroup: Path) -> list[int]:
    pids = _procs(cgroup)
    for p in pids:
        try:
            os.kill(p, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return pids


class SlotCgroup:
    """One slot's memory and pids cgroups, reused by every job of the slot: :meth:`prepare`
    resets the counters a job is measured by (peak, failures, OOM kills) before it starts."""

    def __init__(self, slot: int, name: str, base: Path = BASE) -> None:
        self.mem = base / "memory" / name / f"slot{slot}"
        self.pids = base / "pids" / name / f"slot{slot}"
        self._oom_kills_before = 0
        try:
            self.mem.mkdir(parents=True, exist_ok=True)
            self.pids.mkdir(parents=True, exist_ok=True)
            self.available = (self.mem / "memory.limit_in_bytes").exists() and (self.pids / "pids.max").exists()
        except OSError:
            self.available = False

    def _write(self, path: Path, value: str | int) -> None:
        path.write_text(str(value))

    def prepare(self, memory_bytes: int, max_pids: int) -> None:
        """Set this job's limits and reset the peak and failure counters."""
        self._write(self.mem / "memory.limit_in_bytes", memory_bytes)
        for name in ("memory.max_usage_in_bytes", "memory.failcnt"):
            try:
                self._write(self.mem / name, 0)
            except OSError:
                pass
        self._write(self.pids / "pids.max", max_pids)
        self._oom_kills_before = self._oom_kill_count()  # the kernel's counter only ever grows

    def add(self, pid: int) -> None:
        self._write(self.mem / "cgroup.procs", pid)
        self._write(self.pids / "cgroup.procs", pid)

    def wait_empty(self, timeout: float = 5.0, kill_after: float | None = None) -> bool:
        """Wait until no process is left in the slot (True), killing stragglers once ``kill_after``
        seconds (default ``timeout``/2) have passed."""
        start = time.monotonic()
        kill_at = start + (timeout / 2 if kill_after is None else kill_after)
        while time.monotonic() < start + timeout:
            pids = _kill_all(self.pids) if time.monotonic() >= kill_at else _procs(self.pids)
            if not pids:
                return True
            time.sleep(0.002)
        return False

    def _oom_kill_count(self) -> int:
        for line in (self.mem / "memory.oom_control").read_text().splitlines():
            if line.startswith("oom_kill "):
                return int(line.split()[1])
        return 0

    def oom_kills(self) -> int:
        """OOM kills in this slot since :meth:`prepare` (this job's)."""
        return self._oom_kill_count() - self._oom_kills_before

    def peak(self) -> int:
        return int((self.mem / "memory.max_usage_in_bytes").read_text())

    def failcnt(self) -> int:
        return int((self.mem / "memory.failcnt").read_text())
