"""Per-slot cgroup v1 memory and pids controllers: limit, then measure, each job.

The memory controller measures what the job allocated (``memory.max_usage_in_bytes``) better
than ``ru_maxrss`` of a forked child (which counts pages shared with the fork server) and its
OOM kill is how memory limits are enforced; ``pids.max`` contains fork and thread bombs. Where
the controllers are missing or not writable, :meth:`SlotCgroup.available` is False and the
job relies on rlimits alone.
"""

from __future__ import annotations

from pathlib import Path

BASE = Path("/sys/fs/cgroup")


def cgroup_name(server_pid: int) -> str:
    """Per-server cgroup folder: servers running side by side never touch each other's jobs."""
    return f"torchdojo/server{server_pid}"


def remove_server_cgroups(name: str, base: Path = BASE) -> None:
    """Remove a stopped server's (empty) cgroup folders; best effort."""
    for ctrl in ("memory", "pids"):
        root = base / ctrl / name
        for d in sorted(root.glob("slot*"), reverse=True) if root.is_dir() else []:
            try:
                d.rmdir()
            except OSError:
                pass
        try:
            root.rmdir()
        except OSError:
            pass


class SlotCgroup:
    def __init__(self, slot: int, name: str, base: Path = BASE) -> None:
        self.mem = base / "memory" / name / f"slot{slot}"
        self.pids = base / "pids" / name / f"slot{slot}"
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

    def add(self, pid: int) -> None:
        self._write(self.mem / "cgroup.procs", pid)
        self._write(self.pids / "cgroup.procs", pid)

    def wait_empty(self, timeout: float = 5.0) -> bool:
        """Wait until no process is left in the slot (True), killing stragglers after ``timeout``/2."""
        import os
        import signal
        import time

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pids = [int(p) for p in (self.pids / "cgroup.procs").read_text().split()]
            if not pids:
                return True
            if time.monotonic() > deadline - timeout / 2:
                for p in pids:
                    try:
                        os.kill(p, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
            time.sleep(0.002)
        return False

    def oom_kills(self) -> int:
        for line in (self.mem / "memory.oom_control").read_text().splitlines():
            if line.startswith("oom_kill "):
                return int(line.split()[1])
        return 0

    def peak(self) -> int:
        return int((self.mem / "memory.max_usage_in_bytes").read_text())

    def failcnt(self) -> int:
        return int((self.mem / "memory.failcnt").read_text())
