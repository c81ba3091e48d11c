"""The warm fork server: imports torch once, then runs each job in a fresh, isolated child.

Run as ``python -m torchdojo.judge.sandbox.server SOCKET_PATH ROOT SLOTS LIFELINE_FD CGROUP``
with a clean environment, in a session of its own (the client does this). ``LIFELINE_FD`` is
the read end of a pipe whose write end only the client process holds: at its end of file (the
client process is gone, however it ended) the server exits. ``CGROUP`` names this server's
cgroup folder (unique per server: nothing of another server's is ever touched). It holds no
secrets, no database handle, no expected outputs and never any job's data: every process it
forks sees a copy of its memory, so nothing here may be worth stealing.

Lifecycle of a slot (``SLOTS`` of them run side by side)::

    server ──fork──► runner of slot s (forked before its job exists)
                      │ empty the slot's cgroups, unshare(PID)
                      │ ──fork──► child: PID 1 of a new PID namespace
                      │ move the child into the slot's cgroups │ new namespaces, new root, pivot_root
                      │ accept ONE connection on socket s      │ wait for a job on its pipe
                      │ read the job, set the cgroup limits    │
                      │ send limits + job ────────────────────►│ rlimits, uid, no_new_privs, seccomp
                      │ wall timeout, output caps              │ runtime.execute(job) → result pipe
                      │ read the result stream as it comes ◄───│ one frame per finished test, then the end
                      │ wait4 (rusage), cgroup peak / OOM ◄────│ exit
                      │ answer the client, exit
    server: sees the runner exit (pidfd) and forks the next runner of slot s

A runner and its child serve exactly one job and never outlive it, so no process holds data of
two jobs: the child is forked before its job exists and reads only its own job; the runner
reads the job after it was forked and exits after answering. Everything that does not depend
on the job (two forks, the slow cgroup move, namespaces and the new root) happens while the
slot waits, off the job's critical path. Jobs go to the slot's socket (``SOCKET_PATH.SLOT``);
the main socket answers ``ping``. Framing of requests and answers: 8-byte big-endian length,
JSON header, 8-byte length, raw body.
"""

from __future__ import annotations

import ctypes
import fcntl
import json
import os
import re
import resource
import selectors
import signal
import socket
import struct
import sys
import time
import traceback
from dataclasses import dataclass
from typing import NoReturn

from torchdojo.judge.execution import exit_status, read_capped
from torchdojo.judge.sandbox import isolation
from torchdojo.judge.sandbox.cgroups import SlotCgroup

# Set in main(); runners and children inherit them.
SERVER_PID = os.getpid()
UID_BASE = 0  # slot s runs as UID_BASE + s (a range this server holds a lock on)
CGROUP = ""  # this server's cgroup folder, e.g. torchdojo/judge-<token>

ISOLATION_FAILED = 121
SLOTS_MAX = 32
CGROUP_HEADROOM = 256 << 20
RESULT_CAP = 256 << 20
PR_SET_PDEATHSIG = 1
MADV_COLLAPSE = 25
JOB_PREFIX = struct.Struct(">QQQ")  # runner -> child: CPU seconds, memory bytes, job length


UID_FIRST = 10_000_000  # above the ranges of earlier versions (200,000 + (pid % 100,000) * 32)
UID_RANGES = 4096
UID_LOCKS = "/run/torchdojo-judge" if os.path.isdir("/run") else "/tmp/torchdojo-judge"


def claim_uid_range(locks: str = UID_LOCKS) -> tuple[int, int]:
    """(first uid, lock fd) of a range of ``SLOTS_MAX`` uids no other live server uses.

    Several servers may run on one machine (tests, CI, two apps), and RLIMIT_NPROC counts
    processes per uid, so two servers sharing a uid would limit each other's jobs. A range is
    held by an exclusive ``flock`` on its lock file; the lock is inherited by the runners (not by
    the jobs) and released by the kernel when the last of them exits, however it ends, so a
    range is reused only once no process of its previous server is left."""
    os.makedirs(locks, mode=0o700, exist_ok=True)
    for n in range(UID_RANGES):
        fd = os.open(os.path.join(locks, f"uids-{n}.lock"), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        return UID_FIRST + n * SLOTS_MAX, fd
    raise RuntimeError(f"all {UID_RANGES} uid ranges are held by running judge servers")


def slot_socket(path: str, slot: int) -> str:
    """Where slot ``slot``'s runner accepts its job."""
    return f"{path}.{slot}"


# -- framing ------------------------------------------------------------------------------------
def recv_exact(conn: socket.socket, n: int) -> bytes:
    buf = bytearray()
    while len(buf) < n:
        chunk = conn.recv(min(1 << 20, n - len(buf)))
        if not chunk:
            raise ConnectionError("client closed the connection")
        buf += chunk
    return bytes(buf)


def recv_header(conn: socket.socket, limit: int = 1 << 20) -> dict:
    (hn,) = struct.unpack(">Q", recv_exact(conn, 8))
    if hn > limit:
        raise ValueError(f"header of {hn} bytes")
    return json.loads(recv_exact(conn, hn))


def recv_frame(conn: socket.socket) -> tuple[dict, bytes]:
    header = recv_header(conn)
    (bn,) = struct.unpack(">Q", recv_exact(conn, 8))
    return header, recv_exact(conn, bn)


def send_frame(conn: socket.socket, header: dict, body: bytes = b"") -> None:
    h = json.dumps(header).encode()
    conn.sendall(struct.pack(">Q", len(h)) + h + struct.pack(">Q", len(body)) + body)


# -- the child ----------------------------------------------------------------------------------
def close_fds(keep: set[int]) -> None:
    """Close every descriptor above 2 except ``keep``."""
    low = 3
    for fd in sorted(keep | {1 << 16}):
        if fd >= low:
            os.closerange(low, fd)
            low = fd + 1


def read_exact_fd(fd: int, n: int) -> bytes | None:
    """``n`` bytes from a pipe, or None at end of file (the writer went away)."""
    buf = bytearray()
    while len(buf) < n:
        chunk = os.read(fd, min(1 << 20, n - len(buf)))
        if not chunk:
            return None
        buf += chunk
    return bytes(buf)


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def run_child(root: str, ro_paths: list[str], uid: int, seccomp: bytes, pipes: dict[str, int]) -> NoReturn:
    """In the job's child, PID 1 of a new PID namespace, forked before its job exists.

    Enters its own namespaces and root while the slot is idle, then blocks until the runner
    sends the one job it will ever see (limits + wire bytes); if the runner goes away first
    (end of file), it exits without running anything. Then the remaining layers, the job, and
    the result to the result pipe. Never returns; exits ``ISOLATION_FAILED`` when a layer fails."""
    code = ISOLATION_FAILED
    try:
        os.setsid()
        os.dup2(pipes["out_w"], 1)
        os.dup2(pipes["err_w"], 2)
        close_fds({pipes["job_r"], pipes["res_w"]})
        isolation.enter_root(root, ro_paths, isolation.SCRATCH_BYTES, uid)
        prefix = read_exact_fd(pipes["job_r"], JOB_PREFIX.size)
        if prefix is None:
            os._exit(0)
        cpu_seconds, memory_bytes, n = JOB_PREFIX.unpack(prefix)
        job = read_exact_fd(pipes["job_r"], n)
        if job is None:
            os._exit(0)
        os.close(pipes["job_r"])
        isolation.restrict(uid, isolation.JobLimits(cpu_seconds=cpu_seconds, memory_bytes=memory_bytes), seccomp)
        code = 1
        from torchdojo.judge import runtime

        runtime.limit_recursion()
        runtime.execute(job, emit=lambda frame: write_all(pipes["res_w"], frame), guard=True)
        code = 0
    except BaseException:  # noqa: BLE001 - report and die; never fall through to the runner's code
        try:
            os.write(2, traceback.format_exc().encode()[-4000:])
        except OSError:
            pass
    finally:
        os._exit(code)


# -- the runner (one slot, one job) -------------------------------------------------------------
@dataclass(frozen=True)
class Request:
    """A job's trusted header: its slot and limits (from the client, never from the child)."""

    slot: int
    cpu_seconds: float
    wall_seconds: float
    memory_bytes: int
    output_bytes: int

    @classmethod
    def parse(cls, header: dict) -> Request:
        return cls(
            int(header["slot"]),
            float(header["cpu_seconds"]),
            float(header["wall_seconds"]),
            int(header["memory_bytes"]),
            int(header["output_bytes"]),
        )

    @property
    def rlimit_cpu(self) -> int:
        return int(self.cpu_seconds + 0.999)

    @property
    def cgroup_memory(self) -> int:
        return self.memory_bytes + CGROUP_HEADROOM


class Runner:
    """Supervises one job of one slot. :meth:`prepare` runs before the job exists (fork the
    child into a new PID namespace and the slot's cgroups); :meth:`run` takes the job, sends it
    to the child, enforces the wall time and output caps, and measures what it used."""

    def __init__(self, slot: int, root: str, ro_paths: list[str], seccomp: bytes) -> None:
        self.slot, self.root, self.ro_paths, self.seccomp = slot, root, ro_paths, seccomp
        self.cg = SlotCgroup(slot, CGROUP)
        self.pid = 0
        self.fds: dict[str, int] = {}

    def prepare(self) -> None:
        if self.cg.available and not self.cg.wait_empty(kill_after=0):
            raise RuntimeError("processes of an earlier job are still in the slot's cgroup")
        pipes = {}
        for name in ("job", "res", "out", "err"):
            pipes[f"{name}_r"], pipes[f"{name}_w"] = os.pipe()
        isolation.unshare(isolation.CLONE_NEWPID)
        self.pid = os.fork()
        if self.pid == 0:
            run_child(self.root, self.ro_paths, UID_BASE + self.slot, self.seccomp, pipes)
        for name in ("job_r", "res_w", "out_w", "err_w"):
            os.close(pipes[name])
        self.fds = {name: pipes[name] for name in ("job_w", "res_r", "out_r", "err_r")}
        if self.cg.available:
            self.cg.add(self.pid)  # moving a process between cgroups takes milliseconds: do it now

    def alive(self) -> bool:
        try:
            return os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None
        except ChildProcessError:
            return False

    def send_job(self, req: Request, job: bytes, deadline: float) -> bool:
        """Hand the job to the child; False if it cannot take it (it died, or stalls past ``deadline``)."""
        fd = self.fds["job_w"]
        data = memoryview(JOB_PREFIX.pack(req.rlimit_cpu, req.memory_bytes, len(job)) + job)
        sel = selectors.DefaultSelector()
        try:
            os.set_blocking(fd, False)
            sel.register(fd, selectors.EVENT_WRITE)
            while data:
                if not sel.select(timeout=max(0.0, deadline - time.monotonic())):
                    return False
                try:
                    data = data[os.write(fd, data) :]
                except BlockingIOError:
                    continue
            return True
        except BrokenPipeError:
            return False
        finally:
            sel.close()
            os.close(fd)

    def collect(self, req: Request, deadline: float) -> tuple[dict[str, bytearray], str | None]:
        """The child's result, stdout and stderr, until it exits, the deadline, or a cap."""
        fds = {self.fds["res_r"]: "result", self.fds["out_r"]: "stdout", self.fds["err_r"]: "stderr"}
        caps = {"result": RESULT_CAP, "stdout": req.output_bytes, "stderr": req.output_bytes}
        try:
            return read_capped(fds, caps, deadline, self.alive)
        finally:
            for fd in fds:
                os.close(fd)

    def reap(self, kill: bool) -> tuple[int, resource.struct_rusage]:
        """Wait for the child (killing it first if ``kill`` or still running) and everything it started."""
        if kill or self.alive():
            os.kill(self.pid, signal.SIGKILL)  # PID 1 of the namespace: the kernel kills all it left behind
        _, status, ru = os.wait4(self.pid, 0)
        if self.cg.available:
            self.cg.wait_empty()  # PID 1 is gone; the kernel is killing the rest of its namespace: wait for it
        return status, ru

    def run(self, header: dict, job: bytes) -> tuple[dict, bytes]:
        """Run the job in the prepared child; the answer for the client and the result bytes."""
        req = Request.parse(header)
        if req.slot != self.slot:
            raise ValueError(f"a job for slot {req.slot} reached slot {self.slot}")
        if self.cg.available:
            # RLIMIT_AS (VmSize + the job's memory) fails allocations first, cleanly (MemoryError); the
            # cgroup limit sits higher, for memory RLIMIT_AS does not see (pages copied on write).
            self.cg.prepare(req.cgroup_memory, isolation.JobLimits.processes + 8)
        t0 = time.monotonic()
        delivered = self.send_job(req, job, t0 + req.wall_seconds)
        bufs, reason = self.collect(req, t0 + req.wall_seconds)
        status, ru = self.reap(kill=reason is not None)
        answer: dict = {
            "cpu_seconds": ru.ru_utime + ru.ru_stime,
            "wall_seconds": time.monotonic() - t0,
            "stderr": bytes(bufs["stderr"][-4000:]).decode(errors="replace"),
            "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
            "exit_code": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
            "peak_memory": self.cg.peak() if self.cg.available else ru.ru_maxrss * 1024,
        }
        answer["status"], answer["detail"] = self.verdict(req, answer, reason, delivered, bool(bufs["result"]))
        # A stopped job's result still holds the tests that finished before it stopped.
        return answer, bytes(bufs["result"]) if answer["status"] != "judge_error" else b""

    def verdict(
        self, req: Request, answer: dict, reason: str | None, delivered: bool, has_result: bool
    ) -> tuple[str, str]:
        """(status, detail) of a finished job; see :func:`torchdojo.judge.execution.exit_status`."""
        sig, code = answer["signal"], answer["exit_code"]
        if code == ISOLATION_FAILED or not delivered:
            return "judge_error", "the sandbox could not be set up: " + answer["stderr"][-600:]
        oom = False
        if self.cg.available:
            if reason == "timeout" and answer["peak_memory"] >= 0.95 * req.cgroup_memory:
                return "memory", ""  # stalled reclaiming at its memory limit: the cause is memory, not time
            oom = self.cg.oom_kills() > 0 or (sig == signal.SIGKILL and self.cg.failcnt() > 0 and not reason)
        return exit_status(
            reason=reason,
            sig=sig,
            code=code,
            cpu_seconds=answer["cpu_seconds"],
            cpu_limit=req.cpu_seconds,
            output_bytes=req.output_bytes,
            has_result=has_result,
            oom=oom,
            cpu_rlimit=req.rlimit_cpu,
        )


def serve_slot(listener: socket.socket, slot: int, root: str, ro_paths: list[str], seccomp: bytes) -> None:
    """A runner's whole life: prepare the child, accept one connection, run its job, answer.

    An idle runner dies with the server (PR_SET_PDEATHSIG); once it has a job it finishes it
    (bounded by the wall timeout), so a child never outlives its supervisor's deadline."""
    isolation.libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != SERVER_PID:
        return
    runner = Runner(slot, root, ro_paths, seccomp)
    setup_error = ""
    try:
        runner.prepare()
    except Exception:  # noqa: BLE001 - answer the job with it: fail closed, visibly
        setup_error = traceback.format_exc()[-1500:]
    conn, _ = listener.accept()
    listener.close()
    isolation.libc.prctl(PR_SET_PDEATHSIG, 0, 0, 0, 0)
    with conn:
        try:
            header, job = recv_frame(conn)
            if setup_error:
                answer, body = {"status": "judge_error", "detail": setup_error}, b""
            else:
                answer, body = runner.run(header, job)
        except BaseException:  # noqa: BLE001
            answer, body = {"status": "judge_error", "detail": traceback.format_exc()[-1500:]}, b""
        try:
            send_frame(conn, answer, body)
        except OSError:
            pass
    if runner.pid and runner.alive():  # only when run() failed half-way: never leave the child behind
        os.kill(runner.pid, signal.SIGKILL)


# -- the server ---------------------------------------------------------------------------------
class ForkServer:
    """Keeps one runner per slot ready: forks a new one whenever the last one exits."""

    LIFELINE = "lifeline"

    def __init__(self, path: str, root: str, slots: int, lifeline: int) -> None:
        self.root = root
        self.ro_paths = isolation.readonly_paths()
        self.seccomp = isolation.seccomp_program()
        self.main = self._listen(path)
        self.listeners = [self._listen(slot_socket(path, s)) for s in range(slots)]
        self.sel = selectors.DefaultSelector()
        self.sel.register(self.main, selectors.EVENT_READ, None)
        self.lifeline = lifeline
        self.sel.register(lifeline, selectors.EVENT_READ, self.LIFELINE)

    @staticmethod
    def _listen(path: str) -> socket.socket:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(path)
        os.chmod(path, 0o600)
        s.listen(64)
        return s

    def spawn(self, slot: int) -> bool:
        """Fork slot ``slot``'s next runner; the server watches it through a pidfd."""
        try:
            pid = os.fork()
        except OSError:
            return False
        if pid == 0:
            code = 0
            try:
                self._forget_all_but(slot)
                serve_slot(self.listeners[slot], slot, self.root, self.ro_paths, self.seccomp)
            except BaseException:  # noqa: BLE001
                code = 1
            finally:
                os._exit(code)
        self.sel.register(os.pidfd_open(pid), selectors.EVENT_READ, (slot, pid))  # a zombie until reaped: no race
        return True

    def _forget_all_but(self, slot: int) -> None:
        """In a new runner: close the server's descriptors except the slot's listener."""
        for key in list(self.sel.get_map().values()):
            if key.data is not None:
                os.close(key.fd)  # another runner's pidfd, or the lifeline
        self.sel.close()
        self.main.close()
        for s, listener in enumerate(self.listeners):
            if s != slot:
                listener.close()

    def answer_ping(self) -> None:
        """Only ``ping`` is served here, from the header alone: a job body is never read."""
        conn, _ = self.main.accept()
        with conn:
            conn.settimeout(5)
            try:
                header = recv_header(conn, limit=4096)
                if isinstance(header, dict) and header.get("op") == "ping":
                    info = {"pid": SERVER_PID, "uid_base": UID_BASE, "cgroup": CGROUP}
                    send_frame(conn, {"ok": True, **info})
                else:
                    send_frame(conn, {"status": "judge_error", "detail": "jobs go to a slot's socket"})
            except (OSError, ValueError):
                pass

    def serve_forever(self) -> NoReturn:
        waiting = set(range(len(self.listeners)))  # slots without a runner
        while True:
            for slot in sorted(waiting):
                if self.spawn(slot):
                    waiting.discard(slot)
            for key, _ in self.sel.select(timeout=0.05 if waiting else None):
                if key.data is None:
                    self.answer_ping()
                elif key.data == self.LIFELINE:
                    if not os.read(self.lifeline, 64):  # the client process is gone: so are we
                        os._exit(0)  # idle runners die with us (PR_SET_PDEATHSIG); busy ones finish their job
                else:  # that runner exited
                    slot, pid = key.data
                    self.sel.unregister(key.fd)
                    os.close(key.fd)
                    os.waitpid(pid, 0)
                    waiting.add(slot)


# -- start-up -----------------------------------------------------------------------------------
def preload() -> None:
    """Import what jobs use, once, so each fork starts warm (no torch ops: no thread pools yet)."""
    import safetensors.torch  # noqa: F401
    import torch  # noqa: F401
    import torch.overrides  # noqa: F401
    import torch.testing  # noqa: F401
    import torch.utils._python_dispatch  # noqa: F401

    import torchdojo.judge.runtime  # noqa: F401
    import torchdojo.judge.testing  # noqa: F401


def warm_up() -> None:
    """Run one representative job in-process (trusted code only) so the lazy initialisation
    torch does on first use (op registration, Python dispatch modes, autograd) happens once
    here instead of in every child: ~4 s the first time, ~10 ms after. One intra-op thread,
    so no worker threads exist when we fork. Then freeze the GC so children do not touch
    (and so copy) every object's page when they collect."""
    import gc

    from torchdojo.judge import runtime

    runtime.warm_up()
    gc.collect()
    gc.freeze()


def collapse_huge_pages() -> int:
    """Back this process's private anonymous memory (the Python heap, torch's state: ~220 MB)
    with 2 MiB pages, best effort (``MADV_COLLAPSE``, Linux >= 6.1; elsewhere nothing changes).

    ``fork`` then copies one page-table entry per 2 MiB instead of 512 and ``exit`` frees as
    few: a fork + exit of this process drops from ~13 ms to ~3 ms of CPU (docs/judge.md). A
    child's first write to a shared huge page splits it and copies only that 4 KiB page, as
    before, so memory use does not grow. Returns how many 2 MiB pages were collapsed."""
    madvise = isolation.libc.madvise
    madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    huge, done = 2 << 20, 0
    with open("/proc/self/maps") as maps:
        regions = [line.split() for line in maps]
    for fields in regions:
        perms, name = fields[1], fields[5] if len(fields) > 5 else ""
        if perms[:2] != "rw" or perms[3] != "p" or name not in ("", "[heap]"):
            continue
        lo, hi = (int(x, 16) for x in fields[0].split("-"))
        start, end = (lo + huge - 1) & ~(huge - 1), hi & ~(huge - 1)
        if end > start and madvise(start, end - start, MADV_COLLAPSE) == 0:
            done += (end - start) // huge
    return done


def main() -> None:
    global SERVER_PID, UID_BASE, CGROUP
    SERVER_PID = os.getpid()
    path, root, slots, lifeline, cgroup = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    one_shot = sys.argv[6:] == ["one-shot"]  # a client that runs a few jobs (the CLI): skip what pays off over many
    if not re.fullmatch(r"torchdojo/judge-[0-9a-f]{8,32}", cgroup):
        raise SystemExit(f"bad cgroup name {cgroup!r}")
    # Not PR_SET_PDEATHSIG: it fires when the *thread* that started us exits (a web worker thread
    # is retired after 10 s idle), not the process. The lifeline pipe ends with the process.
    os.set_inheritable(lifeline, False)
    UID_BASE, _uid_lock = claim_uid_range()
    CGROUP = cgroup
    preload()
    warm_up()
    os.makedirs(root, exist_ok=True)
    server = ForkServer(path, root, slots, lifeline)
    if not one_shot:
        collapse_huge_pages()  # last: after everything the runners and children will share exists
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # we reap runners, they reap children (whatever we inherited)
    print("ready", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
