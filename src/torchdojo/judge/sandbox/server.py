"""The warm fork server: imports torch once, then forks one supervised, isolated child per job.

Run as ``python -m torchdojo.judge.sandbox.server SOCKET_PATH`` with a clean environment (the
client does this). It holds no secrets, no database handle and no expected outputs: a forked
child sees a copy of this process's memory, so nothing here may be worth stealing.

Per connection: the server forks a *supervisor* (so jobs run concurrently), which enters a
new PID namespace and forks the job's child; the child waits until the supervisor has placed
it in the slot's cgroups, applies :mod:`isolation`, runs :func:`torchdojo.judge.runtime.execute`
and writes the result to a pipe. The supervisor enforces the wall timeout and output caps,
reads CPU time (rusage) and peak memory (cgroup), and answers the client. Request and
answer framing: 8-byte big-endian length, JSON header, then raw bytes.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import struct
import sys
import time
import traceback

from torchdojo.judge.execution import read_capped
from torchdojo.judge.sandbox import isolation
from torchdojo.judge.sandbox.cgroups import SlotCgroup, cgroup_name

SERVER_PID = os.getpid()  # set again in main(); children inherit it

ISOLATION_FAILED = 121
SLOTS_MAX = 32


def uid_base(server_pid: int) -> int:
    """First uid of this server's slots. Several servers may run on one machine (tests, CI, two
    apps): each gets its own uid range (RLIMIT_NPROC counts per uid) and its own cgroups."""
    return 200_000 + (server_pid % 100_000) * SLOTS_MAX
CGROUP_HEADROOM = 256 << 20


def recv_exact(conn: socket.socket, n: int) -> bytes:
    buf = bytearray()
    while len(buf) < n:
        chunk = conn.recv(min(1 << 20, n - len(buf)))
        if not chunk:
            raise ConnectionError("client closed the connection")
        buf += chunk
    return bytes(buf)


def recv_frame(conn: socket.socket) -> tuple[dict, bytes]:
    (hn,) = struct.unpack(">Q", recv_exact(conn, 8))
    header = json.loads(recv_exact(conn, hn))
    (bn,) = struct.unpack(">Q", recv_exact(conn, 8))
    return header, recv_exact(conn, bn)


def send_frame(conn: socket.socket, header: dict, body: bytes = b"") -> None:
    h = json.dumps(header).encode()
    conn.sendall(struct.pack(">Q", len(h)) + h + struct.pack(">Q", len(body)) + body)


def run_child(job: bytes, root: str, ro_paths: list[str], slot: int, lim: isolation.JobLimits, go_r: int,
              res_w: int, out_w: int, err_w: int, keep: set[int]) -> None:
    """In the job's child (PID 1 of a new PID namespace). Never returns."""
    code = ISOLATION_FAILED
    try:
        os.setsid()
        os.dup2(out_w, 1)
        os.dup2(err_w, 2)
        os.closerange(3, go_r)
        for fd in range(3, 1024):
            if fd not in keep:
                try:
                    os.close(fd)
                except OSError:
                    pass
        if os.read(go_r, 1) != b"1":
            os._exit(ISOLATION_FAILED)
        os.close(go_r)
        isolation.isolate(root, ro_paths, uid_base(SERVER_PID) + slot, lim)
        code = 1
        from torchdojo.judge import runtime

        data = runtime.execute(job)
        view = memoryview(data)
        while view:
            n = os.write(res_w, view)
            view = view[n:]
        code = 0
    except BaseException:  # noqa: BLE001 - report and die; never fall through to the server's loop
        try:
            os.write(2, traceback.format_exc().encode()[-4000:])
        except OSError:
            pass
    finally:
        os._exit(code)


def supervise(conn: socket.socket, root: str, ro_paths: list[str]) -> None:
    """In a forked supervisor: run one job and answer the client."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    header, job = recv_frame(conn)
    if header.get("op") == "ping":
        send_frame(conn, {"ok": True, "pid": SERVER_PID, "uid_base": uid_base(SERVER_PID),
                          "cgroup": cgroup_name(SERVER_PID)})
        return
    slot = int(header["slot"])
    mem = int(header["memory_bytes"])
    lim = isolation.JobLimits(cpu_seconds=int(header["cpu_seconds"] + 0.999), memory_bytes=mem)
    wall = float(header["wall_seconds"])
    out_cap = int(header["output_bytes"])
    cg = SlotCgroup(slot, cgroup_name(SERVER_PID))
    if cg.available:
        # RLIMIT_AS (VmSize + the job's memory) fails allocations first, cleanly (MemoryError); the
        # cgroup limit sits higher, for memory RLIMIT_AS does not see (pages copied on write).
        cg.prepare(mem + CGROUP_HEADROOM, lim.processes + 8)
    go_r, go_w = os.pipe()
    res_r, res_w = os.pipe()
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    isolation.unshare(isolation.CLONE_NEWPID)
    t0 = time.monotonic()
    pid = os.fork()
    if pid == 0:
        conn.close()
        run_child(job, root, ro_paths, slot, lim, go_r, res_w, out_w, err_w, keep={go_r, res_w})
    for fd in (go_r, res_w, out_w, err_w):
        os.close(fd)
    if cg.available:
        cg.add(pid)
    os.write(go_w, b"1")
    os.close(go_w)

    def alive() -> bool:
        try:
            return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None
        except ChildProcessError:
            return False

    bufs, reason = read_capped({res_r: "result", out_r: "stdout", err_r: "stderr"},
                               {"result": 256 << 20, "stdout": out_cap, "stderr": out_cap}, t0 + wall, alive)
    if reason or alive():
        os.kill(pid, signal.SIGKILL)  # PID 1 of the namespace: the kernel kills all it left behind
    _, status, ru = os.wait4(pid, 0)
    if cg.available:
        cg.wait_empty()  # PID 1 is gone; the kernel is killing the rest of its namespace: wait for it
    wall_used = time.monotonic() - t0
    for fd in (res_r, out_r, err_r):
        os.close(fd)
    answer: dict = {"cpu_seconds": ru.ru_utime + ru.ru_stime, "wall_seconds": wall_used,
                    "stderr": bytes(bufs["stderr"][-4000:]).decode(errors="replace")}
    sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
    answer.update(signal=sig, exit_code=code)
    oom = False
    if cg.available:
        answer["peak_memory"] = cg.peak()
        oom = cg.oom_kills() > 0 or (sig == signal.SIGKILL and cg.failcnt() > 0 and not reason)
    else:
        answer["peak_memory"] = ru.ru_maxrss * 1024
    body = b""
    if code == ISOLATION_FAILED:
        answer.update(status="judge_error", detail="the sandbox could not be set up: " + answer["stderr"][-600:])
    elif reason == "timeout" and cg.available and answer["peak_memory"] >= 0.95 * (mem + CGROUP_HEADROOM):
        answer["status"] = "memory"  # stalled reclaiming at its memory limit: the cause is memory, not time
    elif reason == "timeout":
        answer["status"] = "timeout"
    elif reason and reason.startswith("output"):
        answer.update(status="output", detail=f"the program wrote more than {out_cap // 1024} KiB to {reason[7:]}")
    elif oom:
        answer["status"] = "memory"
    # RLIMIT_CPU (soft = hard) kills with SIGKILL; rusage under-reports the scheduler's CPU time by up to a
    # few percent, so a SIGKILL near the limit is the CPU limit (OOM kills and our own kills are handled above).
    elif sig == signal.SIGKILL and answer["cpu_seconds"] >= 0.9 * lim.cpu_seconds:
        answer["status"] = "timeout"
    elif sig == signal.SIGXFSZ:
        answer.update(status="output", detail="a file passed the size limit")
    elif code == 0 and bufs["result"]:
        answer["status"] = "ok"
        body = bytes(bufs["result"])
    else:
        answer["status"] = "crashed"
        answer["detail"] = f"was killed by signal {signal.Signals(sig).name}" if sig else f"exited with status {code}"
    if answer["status"] == "ok" and answer["cpu_seconds"] > float(header["cpu_seconds"]):
        answer["status"], body = "timeout", b""
    send_frame(conn, answer, body)


def preload() -> None:
    """Import what jobs use, once, so each fork starts warm (no torch ops: no thread pools yet)."""
    import pyseccomp  # noqa: F401 - finds libseccomp via ldconfig: only possible before pivot_root
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

    import torch

    from torchdojo.judge import runtime, wire

    torch.set_num_threads(1)
    runtime._aliases()
    harness = (
        "from torchdojo.judge.testing import vjp\n"
        "def run(sol, inputs):\n"
        "    x = inputs['x'].clone().requires_grad_(True)\n"
        "    y = sol.f(x)\n"
        "    return {'y': y, 'g': vjp(y, x)[0], 'n': [1, 2.5]}\n"
    )
    code = "import torch\ndef f(x):\n    return torch.nn.functional.softmax(x @ x.T, -1).sum(0) * x.exp().mean()\n"
    job = wire.encode({"code": code, "harness": harness, "trace": True, "cases": [{"name": "warm", "json": {}}]},
                      {"in/0/x": torch.randn(4, 4, dtype=torch.float64)})
    header, _ = wire.decode(runtime.execute(job))
    if header["cases"][0]["status"] != "ok":
        raise RuntimeError(f"warm-up job failed: {header}")
    gc.collect()
    gc.freeze()


def main() -> None:
    global SERVER_PID
    SERVER_PID = os.getpid()
    path, root = sys.argv[1], sys.argv[2]
    isolation.libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG: die with the app that started us
    preload()
    warm_up()
    ro_paths = isolation.readonly_paths()
    os.makedirs(root, exist_ok=True)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # supervisors are reaped by the kernel
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(path)
    os.chmod(path, 0o600)
    srv.listen(64)
    print("ready", flush=True)
    while True:
        conn, _ = srv.accept()
        try:
            pid = os.fork()
        except OSError:
            conn.close()
            continue
        if pid == 0:
            srv.close()
            code = 0
            try:
                supervise(conn, root, ro_paths)
            except BaseException:  # noqa: BLE001
                code = 1
                try:
                    send_frame(conn, {"status": "judge_error", "detail": traceback.format_exc()[-1500:]})
                except OSError:
                    pass
            finally:
                os._exit(code)
        conn.close()


if __name__ == "__main__":
    main()
