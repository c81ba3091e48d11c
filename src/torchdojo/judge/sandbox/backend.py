"""The client side of the sandbox: start the fork server once, submit jobs to its slots.

One server per machine (per :class:`SandboxBackend` here) with N slots; each slot has its
own uid, cgroup and socket (where the slot's pre-forked runner waits for its next job), and at
most N jobs run at once. The web app and the CLI submit through
this one interface (``execute``), so a distributed queue can later sit in front of many
servers. Where isolation is impossible (not root, no namespaces) :func:`check_available`
raises :class:`SandboxUnavailable`: the judge then refuses, unless the user explicitly opts in
to the unsafe local backend.
"""

from __future__ import annotations

import os
import queue
import shutil
import socket
import subprocess
import sys
import tempfile
import threading

from torchdojo.judge.challenge import Limits
from torchdojo.judge.execution import ExecResult
from torchdojo.judge.sandbox.server import recv_frame, send_frame, slot_socket


class SandboxUnavailable(RuntimeError):
    """Isolation cannot be set up on this machine; the message says why and what to do."""


def check_available() -> None:
    if os.geteuid() != 0:
        raise SandboxUnavailable(
            "the sandbox needs root (namespaces, pivot_root, per-slot uids) and this process is not root. "
            "Run as root, or pass --unsafe-local to run submissions WITHOUT isolation on your own machine."
        )
    probe = subprocess.run(
        ["unshare", "--mount", "--pid", "--fork", "--net", "--ipc", "--uts", "true"], capture_output=True, text=True
    )
    if probe.returncode != 0:
        raise SandboxUnavailable(
            f"namespaces are not available here ({probe.stderr.strip()}). "
            "Pass --unsafe-local to run submissions WITHOUT isolation."
        )
    try:
        import pyseccomp  # noqa: F401
    except (ImportError, OSError) as e:
        raise SandboxUnavailable(f"seccomp is not available ({e}): install libseccomp2") from e


class SandboxBackend:
    name = "sandbox"
    isolated = True

    def __init__(self, slots: int = 2, start_timeout: float = 120.0) -> None:
        check_available()
        self.slots = slots
        self._free: queue.Queue[int] = queue.Queue()
        for s in range(slots):
            self._free.put(s)
        self._dir = tempfile.mkdtemp(prefix="torchdojo-judge-")
        os.chmod(self._dir, 0o700)
        self.socket_path = os.path.join(self._dir, "server.sock")
        self._lock = threading.Lock()
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "torchdojo.judge.sandbox.server",
                self.socket_path,
                os.path.join(self._dir, "root"),
                str(slots),
            ],
            env=self._server_env(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=self._dir,
        )
        line = self._readline(start_timeout)
        if line.strip() != "ready":
            err = self.proc.stderr.read() if self.proc.poll() is not None else ""
            self.close()
            raise SandboxUnavailable(f"the judge's fork server did not start: {line!r} {err[-1500:]}")
        info, _ = self._call({"op": "ping"}, timeout=30)
        self.uid_base: int = info["uid_base"]  # slot s runs as uid_base + s
        self.cgroup: str = info["cgroup"]

    def _server_env(self) -> dict[str, str]:
        """The server's whole environment: nothing of this process's (no secrets, no tokens)."""
        return {"PATH": "/usr/bin:/bin", "OMP_NUM_THREADS": "1", "PYTHONDONTWRITEBYTECODE": "1"}

    def _job_path(self, slot: int) -> str:
        return slot_socket(self.socket_path, slot)

    def _readline(self, timeout: float) -> str:
        out: list[str] = []
        t = threading.Thread(target=lambda: out.append(self.proc.stdout.readline()), daemon=True)
        t.start()
        t.join(timeout)
        return out[0] if out else ""

    @property
    def server_pid(self) -> int:
        return self.proc.pid

    def _call(
        self, header: dict, body: bytes = b"", timeout: float | None = None, path: str | None = None
    ) -> tuple[dict, bytes]:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(timeout)
            s.connect(path or self.socket_path)
            send_frame(s, header, body)
            return recv_frame(s)

    def ping(self, timeout: float = 10.0) -> bool:
        """True when the server answers (used by tests to prove it stays healthy)."""
        try:
            h, _ = self._call({"op": "ping"}, timeout=timeout)
            return bool(h.get("ok"))
        except OSError:
            return False

    def execute(self, job: bytes, limits: Limits) -> ExecResult:
        slot = self._free.get()
        try:
            header = {
                "op": "job",
                "slot": slot,
                "cpu_seconds": limits.cpu_seconds,
                "wall_seconds": limits.wall_seconds,
                "memory_bytes": limits.memory_mb << 20,
                "output_bytes": limits.output_kb << 10,
            }
            try:
                ans, body = self._call(header, job, timeout=limits.wall_seconds + 60, path=self._job_path(slot))
            except (OSError, ValueError) as e:
                return ExecResult("judge_error", detail=f"the fork server did not answer: {e}")
        finally:
            self._free.put(slot)
        res = ExecResult(
            ans.get("status", "judge_error"),
            data=body or None,
            cpu_seconds=ans.get("cpu_seconds", 0.0),
            wall_seconds=ans.get("wall_seconds", 0.0),
            peak_memory=ans.get("peak_memory"),
            exit_code=ans.get("exit_code"),
            signal=ans.get("signal"),
            stderr=ans.get("stderr", ""),
            detail=ans.get("detail", ""),
        )
        return res

    @property
    def uids(self) -> list[int]:
        return [self.uid_base + s for s in range(self.slots)]

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        if getattr(self, "cgroup", None):
            from torchdojo.judge.sandbox.cgroups import remove_server_cgroups

            remove_server_cgroups(self.cgroup)
        shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self) -> SandboxBackend:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
