"""Where the untrusted child runs: the result type and the explicitly unsafe local backend.

:class:`ExecResult` is what a backend reports about one job, measured by the *parent*
(CPU time from rusage, peak memory from the cgroup or rusage, exit status, output sizes);
only ``data`` (the result stream, also what a stopped job wrote before it stopped) comes from
the child and it is untrusted.

:class:`LocalUnsafeBackend` runs the job in a plain ``python -m torchdojo.judge.runtime``
subprocess with rlimits and a wall timeout but **no isolation**: the code can read your files
and use the network. It exists for machines without namespaces (not root) and must be chosen
explicitly (``--unsafe-local``); the isolated backend is :mod:`torchdojo.judge.sandbox`.
"""

from __future__ import annotations

import math
import os
import resource
import selectors
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Literal, Protocol

from torchdojo.judge.challenge import Limits

Status = Literal["ok", "timeout", "memory", "output", "crashed", "judge_error"]
#: ``ExecResult.detail`` of a time-out: which limit stopped the job.
CPU_LIMIT = "the CPU time limit"
WALL_LIMIT = "the wall-clock time limit"
#: Stack size of a job's process (RLIMIT_STACK): a C-level recursion ends as a segmentation fault here.
STACK_BYTES = 64 << 20
#: The unsafe local backend starts a fresh interpreter per job: what its start-up (``import torch``)
#: may take, outside the job's limits (CPU seconds, wall seconds).
STARTUP_CPU = 60
STARTUP_WALL = 120.0


@dataclass
class ExecResult:
    status: Status
    data: bytes | None = None
    cpu_seconds: float = 0.0
    wall_seconds: float = 0.0
    peak_memory: int | None = None  # bytes
    exit_code: int | None = None
    signal: int | None = None
    stderr: str = ""
    detail: str = ""


class Backend(Protocol):
    name: str
    isolated: bool

    def execute(self, job: bytes, limits: Limits) -> ExecResult: ...


def read_capped(
    fds: dict[int, str], cap: dict[str, int], deadline: float, proc_alive
) -> tuple[dict[str, bytearray], str | None]:
    """Read every fd until EOF, the deadline, or a cap is passed. Returns (buffers, reason)."""
    sel = selectors.DefaultSelector()
    bufs = {name: bytearray() for name in fds.values()}
    for fd, name in fds.items():
        os.set_blocking(fd, False)
        sel.register(fd, selectors.EVENT_READ, name)
    open_fds = set(fds)
    reason = None
    try:
        while open_fds:
            left = deadline - time.monotonic()
            if left <= 0:
                reason = "timeout"
                break
            for key, _ in sel.select(timeout=min(left, 0.5)):
                try:
                    chunk = os.read(key.fd, 1 << 16)
                except BlockingIOError:
                    continue
                if not chunk:
                    sel.unregister(key.fd)
                    open_fds.discard(key.fd)
                    continue
                bufs[key.data] += chunk
                if len(bufs[key.data]) > cap[key.data]:
                    reason = f"output:{key.data}"
                    return bufs, reason
            if not proc_alive() and not sel.select(timeout=0):
                break
    finally:
        sel.close()
    return bufs, reason


def alive(pid: int) -> bool:
    """True while ``pid`` (our child) has not exited; does not reap it (WNOWAIT)."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None
    except ChildProcessError:
        return False


def exit_status(
    *,
    reason: str | None,
    sig: int | None,
    code: int | None,
    cpu_seconds: float,
    cpu_limit: float,
    output_bytes: int,
    has_result: bool,
    oom: bool = False,
    cpu_rlimit: float | None = None,
) -> tuple[Status, str]:
    """How a child ended -> (status, detail), for every backend.

    ``reason`` is what the reader stopped for (``"timeout"``: the wall deadline, ``"output:<stream>"``,
    None), ``sig``/``code`` how the child ended, ``cpu_seconds`` its measured CPU time, ``oom``
    whether the memory cgroup OOM-killed it, ``cpu_rlimit`` the RLIMIT_CPU that was set (default:
    ``cpu_limit`` rounded up).

    A SIGKILL or SIGXCPU that we did not send (``reason`` is None) and that is not an OOM kill is
    the CPU rlimit: in the sandbox nothing else can send it (the job's process is PID 1 of its
    own PID namespace, which ignores every signal from inside it). It is a time-out whatever
    rusage says: measured CPU time was seen ~11 % under the limit at such a kill (8.9 s of 10 s),
    so the measurement only has to be plausible (at least half the limit), not near it. A clean
    exit is only ``ok`` with a result and within the CPU limit."""
    if reason == "timeout":
        return "timeout", WALL_LIMIT
    if reason and reason.startswith("output:"):
        return "output", f"the program wrote more than {output_bytes // 1024} KiB to {reason[7:]}"
    if oom:
        return "memory", ""
    rlimit = math.ceil(cpu_limit) if cpu_rlimit is None else cpu_rlimit
    if sig in (signal.SIGKILL, signal.SIGXCPU) and cpu_seconds >= 0.5 * rlimit:
        return "timeout", CPU_LIMIT
    if sig == signal.SIGXFSZ:
        return "output", "a file passed the size limit"
    if code == 0 and has_result:
        return ("timeout", CPU_LIMIT) if cpu_seconds > cpu_limit else ("ok", "")
    if sig == signal.SIGSEGV:
        return "crashed", "was killed by signal SIGSEGV (a segmentation fault: often a recursion too deep for the stack)"
    return "crashed", f"was killed by signal {signal_name(sig)}" if sig else f"exited with status {code}"


def signal_name(sig: int) -> str:
    try:
        return signal.Signals(sig).name
    except ValueError:
        return str(sig)


class LocalUnsafeBackend:
    """No isolation: a subprocess with rlimits. Only for users who opt in (``--unsafe-local``)."""

    name = "local (UNSAFE: no isolation)"
    isolated = False

    def execute(self, job: bytes, limits: Limits) -> ExecResult:
        r_res, w_res = os.pipe()
        r_start, w_start = os.pipe()
        mem = limits.memory_mb * 1024 * 1024
        cpu = int(limits.cpu_seconds) + 1

        def preexec() -> None:
            os.setsid()
            # the start-up (python, import torch) gets its own allowance; the runtime tightens the
            # limit to what it used plus ``cpu`` once torch is imported (runtime.main)
            resource.setrlimit(resource.RLIMIT_CPU, (cpu + STARTUP_CPU, cpu + STARTUP_CPU + 1))
            resource.setrlimit(resource.RLIMIT_FSIZE, (64 << 20, 64 << 20))
            resource.setrlimit(resource.RLIMIT_STACK, (STACK_BYTES, STACK_BYTES))
            # torch reserves a lot of address space at import: allow it on top of the job's memory.
            resource.setrlimit(resource.RLIMIT_AS, (mem + (6 << 30), mem + (6 << 30)))

        t0 = time.monotonic()
        import torchdojo

        env = {"PATH": os.environ.get("PATH", "/usr/bin"), "OMP_NUM_THREADS": "1", "PYTHONDONTWRITEBYTECODE": "1",
               # the runtime of this torchdojo (the result format), not whichever copy is installed
               "PYTHONPATH": os.path.dirname(os.path.dirname(os.path.abspath(torchdojo.__file__)))}
        proc = subprocess.Popen(
            [sys.executable, "-m", "torchdojo.judge.runtime", str(w_res), str(w_start), str(cpu)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            pass_fds=(w_res, w_start),
            preexec_fn=preexec,
            env=env,
            cwd="/tmp",
        )
        os.close(w_res)
        os.close(w_start)
        # start-up first: the limits count from the moment torch is imported
        started, _ = read_capped({r_start: "start"}, {"start": 256}, t0 + STARTUP_WALL, lambda: alive(proc.pid))
        os.close(r_start)
        try:
            startup_cpu, t_start = (float(v) for v in bytes(started["start"]).split())
        except ValueError:  # died or hung before torch was imported: judged from the whole run
            startup_cpu, t_start = 0.0, time.monotonic()
        try:
            proc.stdin.write(job)
            proc.stdin.close()
        except BrokenPipeError:
            pass
        cap = limits.output_kb * 1024
        bufs, reason = read_capped(
            {r_res: "result", proc.stdout.fileno(): "stdout", proc.stderr.fileno(): "stderr"},
            {"result": 256 << 20, "stdout": cap, "stderr": cap},
            t_start + limits.wall_seconds + 5.0,
            lambda: alive(proc.pid),
        )
        if reason:
            os.killpg(proc.pid, signal.SIGKILL)
        _, status, ru = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        os.close(r_res)
        res = ExecResult(
            "ok",
            cpu_seconds=max(0.0, ru.ru_utime + ru.ru_stime - startup_cpu),
            wall_seconds=time.monotonic() - t_start,
            peak_memory=ru.ru_maxrss * 1024,
            stderr=bytes(bufs["stderr"][-4000:]).decode(errors="replace"),
        )
        if os.WIFSIGNALED(status):
            res.signal = os.WTERMSIG(status)
        else:
            res.exit_code = os.WEXITSTATUS(status)
        res.status, res.detail = exit_status(
            reason=reason,
            sig=res.signal,
            code=res.exit_code,
            cpu_seconds=res.cpu_seconds,
            cpu_limit=limits.cpu_seconds,
            output_bytes=cap,
            has_result=bool(bufs["result"]),
            cpu_rlimit=cpu,
        )
        res.data = bytes(bufs["result"]) or None  # also when stopped: the tests that finished
        return res
