"""Layered isolation for one judge job, applied in the forked child before user code runs.

Order (each layer fails closed: any error aborts the job before user code runs). Layers 1-2
depend on nothing in the job, so the child applies them while its slot waits for the next job
(:func:`enter_root`); layers 3-6 follow once the job has arrived (:func:`restrict`):

1. new mount, IPC, UTS and network namespaces (the PID namespace was entered by the
   supervisor, so this process is PID 1 of its own namespace: when it exits, the kernel kills
   everything it left behind);
2. a new root: a tmpfs holding read-only binds of the Python prefix, the venv, the torchdojo
   package and /usr (for shared libraries), a fresh /proc, /dev/null and a size-limited
   tmpfs scratch at /tmp; ``pivot_root`` into it and detach the old root; the root is then
   remounted read-only;
3. rlimits: CPU seconds (soft = hard: SIGKILL at the limit), address space (relative to the current VmSize,
   since torch reserves much virtual memory), stack, file size, open files, processes (per uid:
   one uid per slot), core dumps off;
4. drop to the slot's unprivileged uid/gid with no supplementary groups;
5. ``PR_SET_NO_NEW_PRIVS`` and non-dumpable;
6. a seccomp filter denying (EPERM) mount/namespace/keyring/io_uring/ptrace/bpf/exec/socket
   system calls, and ``clone`` with namespace flags. It is compiled once, in the fork server
   (:func:`seccomp_program`), and each child loads the compiled program (:func:`load_seccomp`).

Sources: namespaces(7), pivot_root(2), seccomp(2), setrlimit(2); the layering follows
ioi/isolate and Judge0.
"""

from __future__ import annotations

import ctypes
import errno
import os
import resource
import sys
from dataclasses import dataclass
from pathlib import Path

libc = ctypes.CDLL(None, use_errno=True)

CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWPID, CLONE_NEWNET, CLONE_NEWUSER, CLONE_NEWCGROUP = (
    0x00020000,
    0x04000000,
    0x08000000,
    0x20000000,
    0x40000000,
    0x10000000,
    0x02000000,
)
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = (
    1,
    2,
    4,
    8,
    32,
    4096,
    16384,
    1 << 18,
)
MNT_DETACH = 2
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_SET_SECCOMP, PR_SET_NO_NEW_PRIVS = 1, 4, 22, 38
SECCOMP_MODE_FILTER = 2
SYS_pivot_root = 155  # x86_64


class IsolationError(RuntimeError):
    """A layer could not be applied; the job must not run."""


def _check(ret: int, what: str) -> None:
    if ret != 0:
        e = ctypes.get_errno()
        raise IsolationError(f"{what}: {os.strerror(e)} (errno {e})")


def unshare(flags: int) -> None:
    _check(libc.unshare(flags), "unshare")


def mount(src: str, target: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    _check(
        libc.mount(
            src.encode(),
            target.encode(),
            fstype.encode() if fstype else None,
            ctypes.c_ulong(flags),
            data.encode() if data else None,
        ),
        f"mount {target}",
    )


def bind_ro(src: str, target: Path) -> None:
    if os.path.isdir(src):
        target.mkdir(parents=True, exist_ok=True)
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.touch()
    mount(src, str(target), None, MS_BIND | MS_REC)
    mount("none", str(target), None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV)


SCRATCH_BYTES = 16 << 20  # the job's /tmp (a tmpfs, set up before the job is known)


@dataclass(frozen=True)
class JobLimits:
    cpu_seconds: int
    memory_bytes: int
    file_bytes: int = 16 << 20
    open_files: int = 64
    processes: int = 32
    stack_bytes: int = 64 << 20  # a C-level recursion ends as SIGSEGV here (Python frames live on the heap)


def readonly_paths() -> list[str]:
    """Host paths the job needs read-only: Python, the venv, torchdojo, shared libraries."""
    import torchdojo

    paths = {sys.base_prefix, sys.prefix, str(Path(torchdojo.__file__).parent), "/usr"}
    if sys.prefix != sys.base_prefix:
        paths.add(str(Path(sys.executable).resolve().parent.parent))
    return sorted(p for p in paths if os.path.exists(p))


def vm_size() -> int:
    """This process's virtual memory size in bytes (the first field of /proc/self/statm, in pages)."""
    fd = os.open("/proc/self/statm", os.O_RDONLY)
    try:
        return int(os.read(fd, 256).split()[0]) * os.sysconf("SC_PAGE_SIZE")
    finally:
        os.close(fd)


def enter_root(root: str, ro_paths: list[str], scratch_bytes: int, uid: int) -> None:
    """Layers 1-2: namespaces (not PID: the caller already is PID 1 of a new one) and the new
    root, with a ``scratch_bytes`` tmpfs at /tmp owned by ``uid``. Still root afterwards."""
    unshare(CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWNET)
    mount("none", "/", None, MS_REC | MS_PRIVATE)
    mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0755")
    r = Path(root)
    # The scratch first: read-only paths may live under /tmp (a checkout in /tmp), and their
    # binds must then sit inside the scratch, not under a tmpfs mounted over them afterwards.
    (r / "tmp").mkdir()
    mount(
        "tmpfs",
        str(r / "tmp"),
        "tmpfs",
        MS_NOSUID | MS_NODEV | MS_NOEXEC,
        f"size={scratch_bytes},nr_inodes=2048,mode=0700,uid={uid},gid={uid}",
    )
    for p in ro_paths:
        bind_ro(p, r / p.lstrip("/"))
    for link, target in (("lib", "usr/lib"), ("lib64", "usr/lib64"), ("bin", "usr/bin")):
        if os.path.exists(f"/{link}") and not (r / link).exists():
            (r / link).symlink_to(target)
    (r / "proc").mkdir(exist_ok=True)
    mount("proc", str(r / "proc"), "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    (r / "dev").mkdir(exist_ok=True)
    for dev in ("null", "zero", "urandom"):
        (r / "dev" / dev).touch()
        mount(f"/dev/{dev}", str(r / "dev" / dev), None, MS_BIND)
    (r / ".old").mkdir()
    _check(libc.syscall(SYS_pivot_root, root.encode(), str(r / ".old").encode()), "pivot_root")
    os.chdir("/")
    _check(libc.umount2(b"/.old", MNT_DETACH), "umount old root")
    os.rmdir("/.old")
    mount("none", "/", None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV)
    os.chdir("/tmp")


def set_limits(lim: JobLimits) -> None:
    # soft = hard: the kernel sends SIGKILL at the limit. (PID 1 of a namespace ignores SIGXCPU,
    # which the kernel would send at a lower soft limit; SIGKILL from the kernel still applies.)
    cpu = max(1, lim.cpu_seconds)
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
    address_space = vm_size() + lim.memory_bytes
    resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
    resource.setrlimit(resource.RLIMIT_STACK, (lim.stack_bytes, lim.stack_bytes))
    resource.setrlimit(resource.RLIMIT_FSIZE, (lim.file_bytes, lim.file_bytes))
    resource.setrlimit(resource.RLIMIT_NOFILE, (lim.open_files, lim.open_files))
    resource.setrlimit(resource.RLIMIT_NPROC, (lim.processes, lim.processes))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def drop_privileges(uid: int) -> None:
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    if os.getuid() == 0 or os.geteuid() == 0:
        raise IsolationError("still root after setresuid")
    _check(libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl(NO_NEW_PRIVS)")
    _check(libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0), "prctl(DUMPABLE)")


DENIED_SYSCALLS = (
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "unshare",
    "setns",
    "keyctl",
    "add_key",
    "request_key",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "bpf",
    "perf_event_open",
    "userfaultfd",
    "kexec_load",
    "kexec_file_load",
    "init_module",
    "finit_module",
    "delete_module",
    "reboot",
    "swapon",
    "swapoff",
    "settimeofday",
    "clock_settime",
    "acct",
    "quotactl",
    "execve",
    "execveat",
    "socket",
    "socketpair",
    "connect",
    "bind",
    "listen",
    "accept",
    "accept4",
    "open_by_handle_at",
    "name_to_handle_at",
    "fanotify_init",
    "move_mount",
    "open_tree",
    "fsopen",
    "fsmount",
    "fspick",
    "mount_setattr",
    "personality",
)


def seccomp_program() -> bytes:
    """The compiled seccomp filter (classic BPF, ``struct sock_filter`` array), built once with
    libseccomp in the fork server; :func:`load_seccomp` installs it in each child."""
    import pyseccomp as sc

    f = sc.SyscallFilter(sc.ALLOW)
    deny = sc.ERRNO(errno.EPERM)
    for name in DENIED_SYSCALLS:
        try:
            f.add_rule(deny, name)
        except (RuntimeError, ValueError, OSError):
            pass  # not a syscall on this architecture
    ns_flags = CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWUSER | CLONE_NEWCGROUP
    f.add_rule(deny, "clone", sc.Arg(0, sc.MASKED_EQ, ns_flags & 0xFFFFFFFF, CLONE_NEWUSER))
    for flag in (CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWPID, CLONE_NEWNET, CLONE_NEWCGROUP):
        f.add_rule(deny, "clone", sc.Arg(0, sc.MASKED_EQ, flag, flag))
    f.add_rule(sc.ERRNO(errno.ENOSYS), "clone3")  # flags live in memory: make libc fall back to clone
    fd = os.memfd_create("seccomp")
    try:
        with os.fdopen(fd, "wb", closefd=False) as out:
            f.export_bpf(out)
        program = os.pread(fd, os.fstat(fd).st_size, 0)
    finally:
        os.close(fd)
    if not program or len(program) % 8:
        raise IsolationError(f"libseccomp exported a malformed filter ({len(program)} bytes)")
    return program


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def load_seccomp(program: bytes) -> None:
    """Install a filter from :func:`seccomp_program` (needs ``PR_SET_NO_NEW_PRIVS`` first)."""
    buf = ctypes.create_string_buffer(program, len(program))
    prog = _SockFprog(len(program) // 8, ctypes.addressof(buf))
    _check(libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0), "prctl(SET_SECCOMP)")


def restrict(uid: int, lim: JobLimits, seccomp: bytes) -> None:
    """Layers 3-6, once the job is known: rlimits, the slot's uid, no_new_privs, non-dumpable,
    death with the runner (``PR_SET_PDEATHSIG``), an empty environment, seccomp. After this, the
    process may run untrusted code."""
    set_limits(lim)
    drop_privileges(uid)
    # Die with the runner, whatever kills it (the uid change above cleared any earlier setting).
    _check(libc.prctl(PR_SET_PDEATHSIG, 9, 0, 0, 0), "prctl(PDEATHSIG)")  # SIGKILL
    os.environ.clear()
    load_seccomp(seccomp)
