"""The speech recogniser in its own process, so the web process never imports faster-whisper (or torch).

- ``python -m torchdojo.speech.worker`` (:func:`main`): reads :class:`Settings` from its
  environment, loads the bank's vocabulary and the model, then speaks JSON lines: first
  ``{"ready": true, "engine": name, "load_seconds": s}`` (or ``{"ready": false, "error": ...}``
  and exit 1), then one reply per request ``{"id": n, "path": file, "name": shown name,
  "entry_id": id or null}`` -> ``{"id": n, "transcript": {...}}`` or ``{"id": n, "error": message,
  "kind": SpeechErrorKind}``. The worker never deletes the file: the caller owns it. EOF exits 0.
  File descriptor 1 is pointed at stderr before anything heavy is imported (library prints
  cannot corrupt the protocol).
- :class:`SpeechProcess`: the client a face holds (imports no engine). Starts the worker on the
  first :meth:`~SpeechProcess.transcribe` (the model loads on first use).
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from torchdojo.grading.worker import stop_process
from torchdojo.speech.transcript import SpeechError, Transcript

WORKER_ENV = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "OMP_NUM_THREADS": "2"}


def main() -> int:
    """Run the worker (see the module doc). Returns the exit code."""
    sys.stdout.flush()
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr

    def send(msg: dict[str, Any]) -> None:
        out.write(json.dumps(msg).encode("utf-8") + b"\n")
        out.flush()

    try:
        from torchdojo.bank.loader import load_bank
        from torchdojo.settings import Settings
        from torchdojo.speech.engine import load_engine
        from torchdojo.speech.vocab import Vocabulary

        settings = Settings()
        bank = load_bank(settings.bank_dir)
        engine = load_engine(Vocabulary.from_bank(bank), settings.speech_engine, threads=settings.speech_threads,
                             max_seconds=settings.speech_max_seconds)
    except Exception as e:
        send({"ready": False, "error": f"{type(e).__name__}: {e}"})
        return 1
    fallback = getattr(engine, "fallback_reason", None)
    if fallback:
        print(f"speech worker: faster-whisper did not load ({fallback}); using {engine.name}", file=sys.stderr)
    send({"ready": True, "engine": engine.name, "load_seconds": engine.load_seconds, "fallback_reason": fallback})
    try:
        while line := sys.stdin.buffer.readline():
            if not line.strip():
                continue
            try:
                req = json.loads(line)
                rid = req.get("id")
            except (ValueError, AttributeError):
                send({"id": None, "error": "malformed request", "kind": "engine"})
                continue
            try:
                entry = bank.get(req["entry_id"]) if req.get("entry_id") else None
                t = engine.transcribe(req["path"], name=req.get("name") or "the recording", entry=entry)
                send({"id": rid, "transcript": t.model_dump(mode="json")})
            except SpeechError as e:
                send({"id": rid, "error": str(e), "kind": e.kind})
            except Exception as e:  # keep serving
                send({"id": rid, "error": f"transcription failed: {type(e).__name__}: {e}", "kind": "engine"})
        return 0
    except (KeyboardInterrupt, BrokenPipeError):
        return 0


def _env(settings: Any) -> dict[str, str]:
    env = {}
    for name in ("bank_dir", "speech_max_seconds", "speech_threads", "speech_engine"):
        value = getattr(settings, name, None)
        if value is not None:
            env[f"TORCHDOJO_{name.upper()}"] = str(value)
    return env


class _Died(Exception):
    """The worker exited while a request was in flight."""


class SpeechProcess:
    """The recogniser in a child process (``python -m torchdojo.speech.worker``). Thread-safe
    (one transcription at a time). A worker that dies is restarted by the next call."""

    def __init__(self, settings: Any) -> None:
        self.settings = settings
        self._proc: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._lock = threading.Lock()
        self._next = 0
        self.engine: str | None = None
        self.load_seconds: float | None = None

    @property
    def pid(self) -> int | None:
        """The worker's process id while one runs."""
        return self._proc.pid if self._proc is not None and self._proc.poll() is None else None

    def _start(self, deadline: float) -> None:  # holds self._lock
        self._stop()
        env = {**os.environ, **_env(self.settings), **WORKER_ENV}
        proc = subprocess.Popen([sys.executable, "-m", "torchdojo.speech.worker"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, env=env)
        lines: queue.Queue[bytes | None] = queue.Queue()

        def read() -> None:
            assert proc.stdout is not None
            for raw in proc.stdout:
                lines.put(raw)
            lines.put(None)

        threading.Thread(target=read, name=f"speech-worker-{proc.pid}", daemon=True).start()
        self._proc, self._lines = proc, lines
        msg = self._reply(deadline)
        if not msg.get("ready"):
            self._stop()
            raise SpeechError("engine", f"the speech recogniser did not start: {msg.get('error', msg)}")
        self.engine, self.load_seconds = msg.get("engine"), msg.get("load_seconds")

    def _reply(self, deadline: float) -> dict[str, Any]:
        try:
            raw = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            self._stop()
            raise SpeechError("engine", "the speech recogniser did not answer in time; try again") from None
        if raw is None:
            self._stop()
            raise SpeechError("engine", "the speech recogniser stopped unexpectedly; try again")
        return json.loads(raw)

    def transcribe(self, path: str | Path, name: str = "the recording", entry_id: str | None = None,
                   timeout: float = 300.0) -> Transcript:
        """Transcribe the audio file at ``path`` (the caller keeps and deletes it). ``timeout``
        bounds the whole call in seconds (start-up included). Raises :class:`SpeechError`: the
        input's (``empty``, ``not-audio``, ``too-long``, ``no-speech`` …) or ``engine`` when the
        worker fails or times out (then the recording is the caller's to keep for a retry)."""
        deadline = time.monotonic() + timeout
        request = {"path": str(path), "name": name, "entry_id": entry_id}
        with self._lock:
            for attempt in (1, 2):  # a worker that died since the last call is restarted once
                if self._proc is None or self._proc.poll() is not None:
                    self._start(deadline)
                try:
                    msg = self._send(request, deadline)
                    break
                except _Died:
                    if attempt == 2:
                        raise SpeechError("engine", "the speech recogniser stopped unexpectedly; try again") from None
        if "transcript" in msg:
            return Transcript.model_validate(msg["transcript"])
        raise SpeechError(msg.get("kind", "engine"), msg.get("error", "transcription failed"))

    def _send(self, request: dict[str, Any], deadline: float) -> dict[str, Any]:  # holds self._lock
        assert self._proc is not None and self._proc.stdin is not None
        self._next += 1
        try:
            self._proc.stdin.write(json.dumps({"id": self._next, **request}).encode() + b"\n")
            self._proc.stdin.flush()
        except OSError:
            self._stop()
            raise _Died from None
        try:
            return self._reply(deadline)
        except SpeechError as e:
            if "stopped unexpectedly" in str(e):
                raise _Died from None
            raise

    def _stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            stop_process(proc, 3.0)

    def close(self) -> None:
        """Stop the worker (it exits on EOF; killed after 3 s)."""
        with self._lock:
            self._stop()


if __name__ == "__main__":
    sys.exit(main())
