"""The child side of a judge job: run a submission on given inputs, return outputs as data.

Runs inside the sandbox (or the explicitly unsafe local subprocess). It receives a job
(:mod:`torchdojo.judge.wire` format) holding the submission's source, the challenge's
harness source and the inputs of each case; it returns, per case, the outputs, the error if
any, the Python-level stdout (capped), the wall time, and a trace of the torch functions and
ATen ops called and the largest tensor created, as a stream of frames written as each test
finishes (:mod:`torchdojo.judge.wire`), so a job stopped half-way still says which tests ran.
Nothing it returns decides anything: the parent treats it as untrusted data.

Run as ``python -m torchdojo.judge.runtime RESULT_FD`` it reads a job from stdin and writes
the result to file descriptor ``RESULT_FD``.
"""

from __future__ import annotations

import collections
import errno
import io
import math
import os
import sys
import time
import traceback
import types
from collections.abc import Callable
from typing import Any

from torchdojo.judge import wire

STDOUT_CAP = 64 * 1024
#: The deepest recursion a job may ask for (``sys.setrecursionlimit`` is capped to it). Python
#: >= 3.11 keeps Python frames on the heap, so an uncapped limit lets ``def f(n): return f(n + 1)``
#: run for millions of frames until the CPU or memory limit kills it (seconds, and a kill instead
#: of an error); at this depth it stops at once with a RecursionError (~10 MB of frames).
MAX_RECURSION = 100_000


def limit_recursion(cap: int = MAX_RECURSION) -> None:
    """In the job's process only: cap what ``sys.setrecursionlimit`` can set to ``cap``."""
    real = sys.setrecursionlimit

    def setrecursionlimit(limit: int, /) -> None:
        real(min(limit, cap) if isinstance(limit, int) else limit)

    setrecursionlimit.__doc__ = real.__doc__
    sys.setrecursionlimit = setrecursionlimit
    real(min(sys.getrecursionlimit(), cap))


class OutputLimit(Exception):
    """Raised inside the submission when its printed output passes the cap."""


class _CappedWriter(io.TextIOBase):
    def __init__(self, cap: int) -> None:
        self.buf = io.StringIO()
        self.cap = cap

    def write(self, s: str) -> int:
        if self.buf.tell() + len(s) > self.cap:
            raise OutputLimit(f"printed output passed {self.cap // 1024} KiB")
        return self.buf.write(s)

    def getvalue(self) -> str:
        return self.buf.getvalue()


_ALIASES: dict[int, set[str]] | None = None


def _aliases() -> dict[int, set[str]]:
    """id(callable) -> every public dotted name it is reachable under, so a call through
    ``getattr`` or an alias is recorded under the names a challenge bans (built once, in the
    fork server's warm-up)."""
    global _ALIASES
    if _ALIASES is None:
        import torch
        import torch.nn.functional

        found: dict[int, set[str]] = {}
        for prefix, ns in (("torch", torch), ("torch.nn.functional", torch.nn.functional),
                           ("torch.special", torch.special), ("torch.linalg", torch.linalg), ("torch.fft", torch.fft),
                           ("torch.Tensor", torch.Tensor)):
            for name in dir(ns):
                if name.startswith("__"):
                    continue
                obj = getattr(ns, name, None)
                if callable(obj):
                    found.setdefault(id(obj), set()).add(f"{prefix}.{name}")
        _ALIASES = found
    return _ALIASES


def _trace_modes():
    import torch
    from torch.overrides import TorchFunctionMode
    from torch.utils._python_dispatch import TorchDispatchMode

    class Calls(TorchFunctionMode):
        def __init__(self):
            super().__init__()
            self.names: set[str] = set()

        def __torch_function__(self, func, types_, args=(), kwargs=None):
            self.names.update(aliases.get(id(func), ()))
            name = getattr(func, "__name__", repr(func))
            qual = getattr(func, "__qualname__", "")
            if qual.startswith(("TensorBase.", "Tensor.")) or getattr(func, "__objclass__", None) in (
                    torch.Tensor, torch._C.TensorBase):
                self.names.add(f"torch.Tensor.{name}")
            else:
                mod = getattr(func, "__module__", None) or "torch"
                if mod.startswith("torch._C"):
                    mod = "torch"
                self.names.add(f"{mod}.{name}")
            return func(*args, **(kwargs or {}))

    class Ops(TorchDispatchMode):
        def __init__(self):
            super().__init__()
            self.names: set[str] = set()
            self.max_numel = 0
            self.max_shape: list[int] = []

        def __torch_dispatch__(self, func, types_, args=(), kwargs=None):
            self.names.add(f"aten.{func._overloadpacket.__name__}")
            out = func(*args, **(kwargs or {}))
            for t in out if isinstance(out, (tuple, list)) else (out,):
                if isinstance(t, torch.Tensor) and t.numel() > self.max_numel:
                    self.max_numel, self.max_shape = t.numel(), list(t.shape)
            return out

    aliases = _aliases()
    return Calls(), Ops()


def _user_traceback(exc: BaseException) -> str:
    """The last 5 frames in the submission, without materialising a deep traceback (a
    million-frame recursion must not cost more memory or time to report than to run)."""
    last: collections.deque = collections.deque(maxlen=5)
    innermost = None
    for frame, lineno in traceback.walk_tb(exc.__traceback__):
        innermost = frame.f_code.co_filename
        if innermost == "solution.py":
            last.append(traceback.FrameSummary("solution.py", lineno, frame.f_code.co_name, lookup_line=False))
    where = ""
    if innermost == "harness.py":
        where = "(raised in the judge's harness while it checked what your code returned or did)\n"
    return where + "".join(traceback.format_list(list(last))) + f"{type(exc).__name__}: {str(exc)[:500]}"


def _error(exc: BaseException) -> dict[str, str]:
    kind = "error"
    msg = str(exc)
    if isinstance(exc, MemoryError) or "can't allocate memory" in msg or "DefaultCPUAllocator" in msg:
        kind = "memory"
    elif isinstance(exc, OutputLimit) or (isinstance(exc, OSError) and exc.errno in (errno.EFBIG, errno.ENOSPC)):
        kind = "output"  # printed too much, or a file passed RLIMIT_FSIZE / filled the scratch tmpfs
    return {"kind": kind, "type": type(exc).__name__, "message": msg[:2000], "traceback": _user_traceback(exc)[:4000]}


def execute(job: bytes, emit: Callable[[bytes], None] | None = None) -> bytes:
    """Run a job (wire bytes); its result is a stream of frames (:func:`wire.read_stream`), one
    per test as it finishes, then the end. ``emit`` gets each frame at once (the sandbox writes
    it to the result pipe); without it the frames are returned together. Never raises for user
    faults."""
    import torch

    chunks: list[bytes] = []
    sink = emit or chunks.append
    owner = os.getpid()

    def out(frame: bytes) -> None:
        if os.getpid() == owner:  # not a copy the submission forked: it runs this loop too, and must not write
            sink(frame)

    torch.set_num_threads(1)
    header, tensors = wire.decode(job)
    sol = types.ModuleType("solution")
    sol.__file__ = "solution.py"
    real_stdout = sys.stdout
    try:
        sys.stdout = _CappedWriter(STDOUT_CAP)
        exec(compile(header["code"], "solution.py", "exec"), sol.__dict__)
    except BaseException as e:  # noqa: BLE001 - any failure to load the submission is reported
        sys.stdout = real_stdout
        if isinstance(e, SystemExit | KeyboardInterrupt):
            e = RuntimeError(f"the submission raised {type(e).__name__} while loading")
        status = "compile_error" if isinstance(e, SyntaxError | ImportError) else "load_error"
        out(wire.frame(wire.encode({"end": True, "status": status, "error": _error(e)})))
        return b"".join(chunks)
    finally:
        sys.stdout = real_stdout
    harness = types.ModuleType("harness")
    exec(compile(header["harness"], "harness.py", "exec"), harness.__dict__)
    trace = header.get("trace", True)
    for i, case in enumerate(header["cases"]):
        inputs = wire.join_values(case["json"], tensors, f"in/{i}/")
        rec: dict[str, Any] = {"case": i, "name": case["name"], "status": "ok"}
        case_tensors: dict[str, Any] = {}
        writer = _CappedWriter(STDOUT_CAP)
        calls = ops = None
        t0 = time.perf_counter()
        try:
            sys.stdout = writer
            if trace:
                calls, ops = _trace_modes()
                with calls, ops:
                    outputs = harness.run(sol, inputs)
            else:
                for _ in range(int(case.get("repeat", 1))):
                    outputs = harness.run(sol, inputs)
            if not isinstance(outputs, dict):
                raise TypeError(f"the harness expected a dict of outputs, got {type(outputs).__name__}")
            js, ts = wire.split_values(outputs, f"out/{i}/")
            wire.encode(js)  # JSON-able?
            for k, v in ts.items():
                if not v.is_floating_point() and not v.dtype.is_complex and v.requires_grad:
                    raise TypeError(f"output {k} is malformed")
            rec["json"] = js
            case_tensors = {k: v.detach() for k, v in ts.items()}
        except BaseException as e:  # noqa: BLE001 - user faults become data
            if isinstance(e, KeyboardInterrupt):
                raise
            rec["status"] = "error"
            rec["error"] = _error(e if not isinstance(e, SystemExit) else RuntimeError("the submission called exit()"))
        finally:
            sys.stdout = real_stdout
        rec["seconds"] = time.perf_counter() - t0
        rec["stdout"] = writer.getvalue()
        if calls is not None:
            rec["calls"] = sorted(calls.names)
            rec["ops"] = sorted(ops.names)
            rec["max_numel"] = ops.max_numel
            rec["max_shape"] = ops.max_shape
        out(wire.frame(wire.encode(rec, case_tensors)))
    out(wire.frame(wire.encode({"end": True, "status": "ok"})))
    return b"".join(chunks)


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def main() -> None:
    """``runtime RESULT_FD [START_FD CPU_RLIMIT]``. With START_FD (the unsafe local backend, where
    the job's process imports torch itself): once torch is imported, tighten RLIMIT_CPU to the
    CPU used so far plus CPU_RLIMIT seconds, and write "<cpu used> <monotonic time>" to START_FD,
    so that neither the CPU limit nor the measured time charges the interpreter's start-up
    (~2 s of CPU for ``import torch`` on a busy machine) to the submission."""
    fd = int(sys.argv[1])
    if len(sys.argv) > 3:
        import resource

        import torch  # noqa: F401 - paid here, before the clock starts

        ru = resource.getrusage(resource.RUSAGE_SELF)
        used = ru.ru_utime + ru.ru_stime
        soft = math.ceil(used) + int(sys.argv[3])
        resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 1))
        start_fd = int(sys.argv[2])
        write_all(start_fd, f"{used:.6f} {time.monotonic():.6f}\n".encode())
        os.close(start_fd)
    job = sys.stdin.buffer.read()
    limit_recursion()
    execute(job, emit=lambda frame: write_all(fd, frame))
    os.close(fd)


if __name__ == "__main__":
    main()
