"""The client side of the sandbox: start the fork server, supervise it, submit jobs to its slots.

One server (per :class:`SandboxBackend`) with N slots; each slot has its own uid, cgroup and
socket (where the slot's pre-forked runner waits for its next job), and at most N jobs run at
once. The web app and the CLI submit through this one interface (``execute``), so a
distributed queue can later sit in front of many servers. Where isolation is impossible (not
root, no namespaces) :func:`check_available` raises :class:`SandboxUnavailable`: the judge then
refuses, unless the user explicitly opts in to the unsafe local backend.

Supervision (:class:`SandboxBackend`): a watcher thread per server waits for its process to end
and, at once, kills what it left (its session: busy runners; its cgroups: their jobs), reaps it
(no ``<defunct>``) and starts a fresh server. A job whose server dies, refuses the connection,
does not answer a ping within :data:`PING_TIMEOUT` or the job within its wall limit plus
:data:`ANSWER_MARGIN`, or answers garbage, is run once more on a fresh server; if that fails
too the job is a Judge Error that says why, and the next job starts another server.
:meth:`SandboxBackend.health` reports the state, the restarts and the last failure.

Isolation between servers on one machine (several apps, tests, CI): each server has its own
folder (``mkdtemp``: sockets, root, log), its own cgroup folder (named by a random token, never
by a pid, which is reused), its own uid range (held by a lock, see
:func:`torchdojo.judge.sandbox.server.claim_uid_range`) and its own session; a client only
ever kills its own server's session (by the pid it started, before reaping it) and its own
cgroups.
"""

from __future__ import annotations

import os
import queue
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

from torchdojo.judge.challenge import Limits
from torchdojo.judge.execution import ExecResult
from torchdojo.judge.sandbox.cgroups import cgroup_name, remove_server_cgroups
from torchdojo.judge.sandbox.server import recv_frame, send_frame, slot_socket

#: A live server answers a ping from its main loop within milliseconds; this is for a loaded machine.
PING_TIMEOUT = 10.0
#: A job's answer comes within its wall limit plus the runner's clean-up (reaping, an empty cgroup: <= ~6 s).
ANSWER_MARGIN = 30.0
#: Servers that died within this many seconds of the last start are not restarted eagerly more than
#: EAGER_RESTARTS times in a row (a crash loop): the next job starts one instead.
RESTART_WINDOW = 60.0
EAGER_RESTARTS = 5


class SandboxUnavailable(RuntimeError):
    """Isolation cannot be set up on this machine; the message says why and what to do.
    A refusal, not a judging failure: graders let it through (``fail_closed``) to the face,
    which says so instead of reporting a Judge Error."""

    fail_closed = True


class ServerFailure(Exception):
    """The fork server failed (not the job): gone, refused, hung or garbled. ``reason`` is in user terms."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


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


def describe_exit(returncode: int) -> str:
    if returncode >= 0:
        return f"exited with status {returncode}"
    try:
        return f"was killed by signal {signal.Signals(-returncode).name}"
    except ValueError:
        return f"was killed by signal {-returncode}"


class ForkServerProcess:
    """One fork server process: its private folder (sockets, root, log), its cgroups, its session.

    It is started in a session of its own, so its pid is also the process group of it and its
    runners, and with a *lifeline*: the read end of a pipe whose write end only this process
    holds, so the server ends when this process does, whichever thread started it. A watcher
    thread waits for it to end (without reaping it, so its pid stays its own), kills its
    process group and its cgroups' processes, reaps it, and calls ``on_exit``."""

    def __init__(self, slots: int, start_timeout: float, env: dict[str, str], on_exit=None,
                 one_shot: bool = False) -> None:
        self.slots = slots
        self.token = uuid.uuid4().hex[:16]
        self.cgroup = cgroup_name(self.token)
        self.dir = tempfile.mkdtemp(prefix="torchdojo-judge-")
        os.chmod(self.dir, 0o700)
        self.socket_path = os.path.join(self.dir, "server.sock")
        self.log_path = os.path.join(self.dir, "server.log")  # its stderr: a pipe nobody drains could block it
        self.exited = threading.Event()
        self.exit_reason = ""  # "was killed by signal SIGKILL", once it is gone
        self.closing = False  # we stopped it on purpose
        self.uid_base = 0
        self._on_exit = on_exit
        self._reap_lock = threading.Lock()  # the pid is ours until reaped: kill and reap under this lock
        self._sockets_lock = threading.Lock()
        self._in_flight: set[socket.socket] = set()
        lifeline_r, self._lifeline = os.pipe()  # neither end is inherited by anything we exec later
        try:
            with open(self.log_path, "wb") as log:
                self.proc = subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "torchdojo.judge.sandbox.server",
                        self.socket_path,
                        os.path.join(self.dir, "root"),
                        str(slots),
                        str(lifeline_r),
                        self.cgroup,
                        *(["one-shot"] if one_shot else []),
                    ],
                    env=env,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE,
                    stderr=log,
                    text=True,
                    cwd=self.dir,
                    pass_fds=(lifeline_r,),
                    start_new_session=True,
                )
        except OSError as e:
            os.close(self._lifeline)
            shutil.rmtree(self.dir, ignore_errors=True)
            raise SandboxUnavailable(f"the judge's fork server could not be started: {e}") from e
        finally:
            os.close(lifeline_r)
        self.pid = self.proc.pid
        threading.Thread(target=self._watch, name=f"judge-server-{self.pid}", daemon=True).start()
        line = self._readline(start_timeout)
        if line.strip() != "ready":
            self.exited.wait(2)
            why = self.exit_reason or f"no 'ready' within {start_timeout:g} s"
            self.close()
            raise SandboxUnavailable(f"the judge's fork server did not start ({why}): {line!r} {self.log_tail()}")
        try:
            info, _ = self.call({"op": "ping"}, timeout=30)
        except ServerFailure as e:
            self.close()
            raise SandboxUnavailable(f"the judge's fork server did not answer after starting: {e.reason}") from e
        self.uid_base = int(info["uid_base"])  # slot s runs as uid_base + s

    def _readline(self, timeout: float) -> str:
        out: list[str] = []
        t = threading.Thread(target=lambda: out.append(self.proc.stdout.readline()), daemon=True)
        t.start()
        t.join(timeout)
        return out[0] if out else ""

    def log_tail(self, n: int = 1500) -> str:
        try:
            with open(self.log_path, "rb") as f:
                f.seek(max(0, os.fstat(f.fileno()).st_size - n))
                return f.read().decode(errors="replace")
        except OSError:
            return ""

    @property
    def alive(self) -> bool:
        return not self.exited.is_set()

    def _watch(self) -> None:
        try:
            os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOWAIT)  # it ended; still unreaped: its pid is its own
        except ChildProcessError:
            pass
        with self._reap_lock:
            self._kill_group()  # runners it left (busy ones would finish their job, for nobody)
            self.proc.wait()
            self.exit_reason = describe_exit(self.proc.returncode)
            self.exited.set()
        with self._sockets_lock:
            for s in self._in_flight:  # wake the callers now rather than at their deadline
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
        remove_server_cgroups(self.cgroup)  # the jobs of those runners (they die with their runner anyway)
        if not self.closing and self._on_exit is not None:
            self._on_exit(self)

    def _kill_group(self) -> None:
        """SIGKILL the session we started (the server and its runners). Only before the server is
        reaped (under ``_reap_lock``, ``exited`` unset): until then its pid, and so the group, is ours."""
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def call(
        self, header: dict, body: bytes = b"", timeout: float | None = None, path: str | None = None
    ) -> tuple[dict, bytes]:
        """One request and its answer. Raises :class:`ServerFailure` when the server cannot be
        reached, does not answer within ``timeout`` seconds, or answers something malformed."""
        if self.exited.is_set():
            raise ServerFailure(f"the judge's server {self.exit_reason}")
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        with self._sockets_lock:
            self._in_flight.add(s)
        try:
            s.settimeout(timeout)
            try:
                s.connect(path or self.socket_path)
            except (FileNotFoundError, ConnectionRefusedError) as e:
                raise ServerFailure(self._why("refused the connection")) from e
            send_frame(s, header, body)
            answer, data = recv_frame(s)
            if not isinstance(answer, dict):
                raise ValueError("the answer's header is not an object")
            return answer, data
        except TimeoutError as e:
            raise ServerFailure(self._why(f"did not answer within {timeout:g} s")) from e
        except OSError as e:  # EOF, reset, broken pipe
            raise ServerFailure(self._why("closed the connection without an answer")) from e
        except ValueError as e:  # bad JSON, an oversized header
            raise ServerFailure("the judge's server sent a malformed answer") from e
        finally:
            with self._sockets_lock:
                self._in_flight.discard(s)
            s.close()

    def _why(self, what: str) -> str:
        if self.exited.wait(0.5):  # it died: that is the reason (the watcher sees it within milliseconds)
            return f"the judge's server {self.exit_reason}"
        return f"the judge's server {what}"

    def close(self) -> None:
        """Stop it (if still running), kill what it left, reap it, remove its folder and cgroups."""
        self.closing = True
        try:
            os.close(self._lifeline)
        except OSError:
            pass
        with self._reap_lock:
            if not self.exited.is_set():
                self._kill_group()
        self.exited.wait(10)
        remove_server_cgroups(self.cgroup)
        shutil.rmtree(self.dir, ignore_errors=True)


class SandboxBackend:
    """Runs jobs on a supervised fork server (see the module's docstring)."""

    name = "sandbox"
    isolated = True

    def __init__(self, slots: int = 2, start_timeout: float = 120.0, one_shot: bool = False) -> None:
        """``one_shot``: a client that runs a few jobs and exits (the CLI): the server skips what
        only pays off over many jobs (collapsing its heap into 2 MiB pages: ~0.5 s CPU)."""
        check_available()
        self.slots = slots
        self.one_shot = one_shot
        self.start_timeout = start_timeout
        self._free: queue.Queue[int] = queue.Queue()
        for s in range(slots):
            self._free.put(s)
        self._lock = threading.Lock()  # who replaces the server
        self._closed = False
        self._starting = False
        self.started = 0  # servers started, the first included
        self.last_failure: str | None = None
        self.last_failure_at: datetime | None = None
        self._recent_failures: list[float] = []
        self._server: ForkServerProcess | None = self._start()  # the first start fails closed: SandboxUnavailable

    # -- the server -----------------------------------------------------------------------------
    def _server_env(self) -> dict[str, str]:
        """The server's whole environment: nothing of this process's (no secrets, no tokens) but
        where this process's torchdojo lives, so that the server speaks the same protocol (a
        checkout run with PYTHONPATH would otherwise start the installed copy's server)."""
        import torchdojo

        return {"PATH": "/usr/bin:/bin", "OMP_NUM_THREADS": "1", "PYTHONDONTWRITEBYTECODE": "1",
                "PYTHONPATH": str(Path(torchdojo.__file__).resolve().parent.parent)}

    def _job_path(self, server: ForkServerProcess, slot: int) -> str:
        return slot_socket(server.socket_path, slot)

    def _start(self) -> ForkServerProcess:
        self._starting = True
        try:
            server = ForkServerProcess(self.slots, self.start_timeout, self._server_env(), on_exit=self._server_exited,
                                       one_shot=self.one_shot)
        finally:
            self._starting = False
        self.started += 1
        return server

    @property
    def restarts(self) -> int:
        return max(0, self.started - 1)

    def _note_failure(self, reason: str) -> None:
        self.last_failure, self.last_failure_at = reason, datetime.now(UTC)
        now = time.monotonic()
        self._recent_failures = [t for t in self._recent_failures if now - t < RESTART_WINDOW] + [now]

    def _current(self) -> ForkServerProcess:
        """The working server, starting one if the last one is gone."""
        server = self._server
        if server is not None and server.alive:
            return server
        return self._replace(server, f"the judge's server {server.exit_reason}" if server else "")

    def _replace(self, old: ForkServerProcess | None, reason: str, start: bool = True) -> ForkServerProcess:
        """Drop ``old`` (recording ``reason``) and start a fresh server, unless another thread
        already replaced it. Raises :class:`ServerFailure` if no fresh server starts."""
        with self._lock:
            if self._closed:
                raise ServerFailure("the judge is shutting down")
            current = self._server
            if current is not None and current is not old and current.alive:
                return current  # someone else replaced it already
            if current is not None:
                if reason:
                    self._note_failure(reason)
                self._server = None
                current.close()  # kill what is left of it, reap it
            if not start:
                raise ServerFailure(reason)
            try:
                self._server = self._start()
            except SandboxUnavailable as e:
                self._note_failure(f"a fresh server did not start: {str(e)[:300]}")
                raise ServerFailure("the judge's server could not be restarted") from e
            return self._server

    def _server_exited(self, server: ForkServerProcess) -> None:
        """The watcher saw ``server`` end without being asked to: start a fresh one now, so the
        next job does not wait for it (a crash loop is left to the next job)."""
        if self._closed or self._server is not server:
            return
        reason = f"the judge's server {server.exit_reason}"
        crash_loop = len([t for t in self._recent_failures if time.monotonic() - t < RESTART_WINDOW]) >= EAGER_RESTARTS
        try:
            self._replace(server, reason, start=not crash_loop)
        except ServerFailure:
            pass  # recorded; the next job tries again

    # -- jobs -----------------------------------------------------------------------------------
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
            failures: list[str] = []
            server: ForkServerProcess | None = None
            for attempt in range(2):
                try:
                    server = self._current() if attempt == 0 else self._replace(server, failures[-1])
                    server.call({"op": "ping"}, timeout=PING_TIMEOUT)  # a hung server: found now, not at the deadline
                    ans, body = server.call(
                        header, job, timeout=limits.wall_seconds + ANSWER_MARGIN, path=self._job_path(server, slot)
                    )
                    break
                except ServerFailure as e:
                    failures.append(e.reason)
            else:
                try:  # the next job gets a fresh server
                    self._replace(server, failures[-1], start=False)
                except ServerFailure:
                    pass
                return ExecResult(
                    "judge_error",
                    detail=f"the judge's sandbox server failed on this job ({failures[0]}), and again on a fresh "
                    f"server ({failures[-1]}); the next run starts another one",
                )
        finally:
            self._free.put(slot)
        return ExecResult(
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

    # -- state ----------------------------------------------------------------------------------
    def ping(self, timeout: float = 10.0) -> bool:
        """True when the server answers (used by tests to prove it stays healthy)."""
        server = self._server
        if server is None:
            return False
        try:
            h, _ = server.call({"op": "ping"}, timeout=timeout)
            return bool(h.get("ok"))
        except ServerFailure:
            return False

    def health(self, ping_timeout: float = 2.0) -> dict:
        """The server's state (``up``, ``not answering``, ``starting``, ``down``, ``closed``), its
        pid, the restarts so far and the last failure (reason and UTC time). Starts nothing."""
        server = self._server
        if self._closed:
            state = "closed"
        elif server is not None and server.alive:
            state = "up" if self.ping(ping_timeout) else "not answering"
        else:
            state = "starting" if self._starting else "down"
        return {
            "backend": self.name,
            "isolated": self.isolated,
            "state": state,
            "server_pid": server.pid if server is not None and server.alive else None,
            "slots": self.slots,
            "restarts": self.restarts,
            "last_failure": self.last_failure,
            "last_failure_at": self.last_failure_at.isoformat() if self.last_failure_at else None,
        }

    def _the_server(self) -> ForkServerProcess:
        server = self._server
        if server is None:
            raise RuntimeError("no judge server is running")
        return server

    @property
    def server_pid(self) -> int:
        return self._the_server().pid

    @property
    def socket_path(self) -> str:
        return self._the_server().socket_path

    @property
    def cgroup(self) -> str:
        return self._the_server().cgroup

    @property
    def uid_base(self) -> int:
        return self._the_server().uid_base

    @property
    def uids(self) -> list[int]:
        return [self.uid_base + s for s in range(self.slots)]

    def close(self) -> None:
        with self._lock:
            self._closed = True
            server, self._server = self._server, None
        if server is not None:
            server.close()

    def __enter__(self) -> SandboxBackend:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
