"""The answer grader in its own process, so a face stays responsive (and torch-free) while it loads.

Two halves in one module:

- ``python -m torchdojo.grading.worker`` (:func:`main`): the worker. Reads :class:`Settings`
  from its environment, loads the bank, builds :func:`torchdojo.grading.make_grader` and calls
  its ``warm_up()`` if it has one, then speaks JSON lines: first ``{"ready": true, "grader":
  name}`` (or ``{"ready": false, "error": ...}`` and exit 1), then one reply per request line
  ``{"id": n, "entry_id": ..., "answer": ...}`` -> ``{"id": n, "feedback": {...}}`` or
  ``{"id": n, "error": ...}``. Bad requests, unknown entries and grader exceptions are replied
  to and the worker keeps serving; EOF on stdin exits 0. A search request
  ``{"id": n, "search": text, "k": 100}`` -> ``{"id": n, "dense": [[entry_id, score], ...]}``
  ranks entries by embedding (:mod:`torchdojo.store.dense`; the index is built, or read from the
  cache, in a background thread once the worker is ready; until then the reply is an error and
  the caller searches lexically). An answer to an own card (``entry_id`` ``own:<n>``) carries
  the card: ``"own_card": {"front", "back", "key_points", "topic", "level"}`` (the worker has
  no database), graded on its key points as they are now. Only protocol lines go to the real
  stdout: file descriptor 1 is pointed at stderr before anything heavy is imported, so library
  prints and progress bars cannot corrupt the protocol.
- :class:`GraderProcess`: the client a face holds. It imports neither torch nor
  sentence-transformers (only this module, the feedback schema and the bank).

Timeouts and crashes never raise and never produce a score: they return
:func:`~torchdojo.grading.feedback.failed`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from typing import IO, Any

from pydantic import ValidationError

from torchdojo.bank.loader import Bank, Entry
from torchdojo.grading.feedback import Feedback, failed

#: Added to the worker's environment: never reach the network for models, no tokenizer threads
#: fighting over the pipes after fork.
WORKER_ENV = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}


# ---------------------------------------------------------------------------------------------
# worker side
# ---------------------------------------------------------------------------------------------


def _send(out: IO[bytes], message: dict[str, Any]) -> None:
    out.write(json.dumps(message).encode("ascii") + b"\n")
    out.flush()


class _DenseSearch:
    """The worker's dense search: the index is built in a background thread (seconds from the
    cache, a minute without), queries are answered once it is there."""

    def __init__(self, bank: Bank, grader: Any, cache_dir: Any) -> None:
        from torchdojo.grading.model import Encoder

        self.encoder = getattr(grader, "encoder", None) or Encoder()
        self.index = None
        self.error: str | None = None
        threading.Thread(target=self._build, args=(bank, cache_dir), name="dense-index", daemon=True).start()

    def _build(self, bank: Bank, cache_dir: Any) -> None:
        from torchdojo.store.dense import DenseIndex

        try:
            self.index = DenseIndex.build(bank, self.encoder.encode, cache_dir)
        except Exception as e:  # the lexical search still answers
            import traceback

            traceback.print_exc(file=sys.stderr)
            self.error = f"{type(e).__name__}: {e}"

    def handle(self, rid: Any, text: Any, k: Any) -> dict[str, Any]:
        if not isinstance(text, str) or not isinstance(k, int) or not 1 <= k <= 1000:
            return {"id": rid, "error": "malformed search: needs a string 'search' and an integer 'k' in 1..1000"}
        if self.index is None:
            return {"id": rid, "error": self.error or "the search index is still being built"}
        import torch

        # One short query: one thread is several times faster than two fighting over a busy
        # machine (measured 9 ms vs 15-150 ms); the grader gets its threads back after.
        threads = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            vec = self.encoder.encode([text[:1000]])[0]
        finally:
            torch.set_num_threads(threads)
        return {"id": rid, "dense": [[i, round(s, 5)] for i, s in self.index.rank(vec, k)]}


def _handle(line: bytes, bank: Bank, grader: Any, dense: _DenseSearch | None = None) -> dict[str, Any]:
    """One request line -> one reply (never raises)."""
    try:
        req = json.loads(line)
    except ValueError as e:
        return {"id": None, "error": f"malformed request (not JSON): {e}"}
    if not isinstance(req, dict):
        return {"id": None, "error": "malformed request: expected a JSON object"}
    rid = req.get("id")
    if "search" in req:
        if dense is None:
            return {"id": rid, "error": "this worker does not search"}
        try:
            return dense.handle(rid, req.get("search"), req.get("k", 100))
        except Exception as e:
            return {"id": rid, "error": f"search failed: {type(e).__name__}: {e}"}
    entry_id, answer = req.get("entry_id"), req.get("answer")
    if not isinstance(entry_id, str) or not isinstance(answer, str):
        return {"id": rid, "error": "malformed request: needs string fields 'entry_id' and 'answer'"}
    own = req.get("own_card")
    if isinstance(own, dict):
        try:
            entry = _own_entry(entry_id, own)
        except (TypeError, ValueError) as e:
            return {"id": rid, "error": f"malformed own card: {e}"}
        forget = getattr(grader, "forget", None)
        if callable(forget):
            forget(entry_id)  # the learner may have edited it since
    else:
        entry = bank.get(entry_id)
    if entry is None:
        return {"id": rid, "error": f"unknown entry id {entry_id!r} (not in the worker's bank)"}
    try:
        feedback = grader.grade(entry, answer)
        return {"id": rid, "feedback": feedback.model_dump(mode="json")}
    except Exception as e:  # the worker must survive a grader bug and keep serving
        import traceback

        traceback.print_exc(file=sys.stderr)
        return {"id": rid, "error": f"the grader raised {type(e).__name__}: {e}"}


def _own_entry(card_id: str, fields: dict[str, Any]) -> Entry:
    """The :class:`Entry` view of an own card sent with a request (see :mod:`torchdojo.practice.own_cards`)."""
    from datetime import UTC, datetime

    from torchdojo.practice.own_cards import OwnCard, is_own_id, parse_own_id

    n = parse_own_id(card_id) if is_own_id(card_id) else None
    if n is None:
        raise ValueError(f"{card_id!r} is not an own card id (own:<n>)")
    kps = fields.get("key_points") or []
    if not isinstance(kps, list) or not all(isinstance(k, str) for k in kps):
        raise ValueError("key_points must be a list of strings")
    text = {k: fields.get(k) for k in ("front", "back", "topic", "level")}
    if not all(v is None or isinstance(v, str) for v in text.values()) or not text["front"]:
        raise ValueError("front (a non-empty string), back, topic and level must be strings")
    now = datetime.now(UTC)
    return OwnCard(n, text["front"], text["back"] or "", tuple(kps), text["topic"] or None, text["level"] or None,
                   now, now).as_entry()


def main() -> int:
    """Run the worker (see the module doc). Returns the exit code."""
    # Keep the real stdout for the protocol; everything else that writes to fd 1 or sys.stdout
    # (library prints, C extensions, progress bars) lands on stderr.
    sys.stdout.flush()
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    try:
        try:
            from torchdojo.bank.loader import load_bank
            from torchdojo.grading import make_grader
            from torchdojo.settings import Settings

            settings = Settings()
            bank = load_bank(settings.bank_dir)
            if len(bank) == 0:
                raise RuntimeError(f"no entries loaded from the bank at {settings.bank_dir} (TORCHDOJO_BANK_DIR)")
            grader = make_grader(settings)
            warm_up = getattr(grader, "warm_up", None)
            if callable(warm_up):
                warm_up()
        except Exception as e:
            import traceback

            traceback.print_exc(file=sys.stderr)
            _send(out, {"ready": False, "error": f"{type(e).__name__}: {e}"})
            return 1
        _send(out, {"ready": True, "grader": grader.name})
        dense = _DenseSearch(bank, grader, settings.cache_dir) if settings.search_dense else None
        stdin = sys.stdin.buffer
        while line := stdin.readline():
            if not line.strip():
                continue
            _send(out, _handle(line, bank, grader, dense))
        return 0
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the client went away
        return 0


# ---------------------------------------------------------------------------------------------
# client side
# ---------------------------------------------------------------------------------------------


def _settings_env(settings: Any) -> dict[str, str]:
    """The grading settings of ``settings`` as ``TORCHDOJO_*`` variables, so the worker uses the
    same grader, bank and endpoint as the process that holds the client."""
    env: dict[str, str] = {}
    for name in ("grader", "bank_dir", "cache_dir", "search_dense", "llm_base_url", "llm_model", "llm_api_key",
                 "llm_timeout"):
        value = getattr(settings, name, None)
        if value is not None:
            env[f"TORCHDOJO_{name.upper()}"] = str(value)
    return env


class GraderProcess:
    """A grader running in a child process (``python -m torchdojo.grading.worker``).

    The worker's environment is ``os.environ`` + the grading fields of ``settings``
    (``TORCHDOJO_GRADER``, ``_BANK_DIR``, ``_LLM_*``) + ``env`` (wins) + :data:`WORKER_ENV`.
    ``bank`` is the caller's bank; the worker loads its own copy from the same folder.

    Lifecycle: :meth:`start` spawns the worker and returns at once; :attr:`status` is
    ``"stopped"``, ``"loading"``, ``"ready"`` or ``"failed: <why>"``. :meth:`grade` starts the
    worker if needed and waits for it. Restart policy: a worker that *died after it was ready*
    (crash, OOM kill, ``os.kill``) is restarted by the next :meth:`grade` call transparently; the
    call during which it died returns a failed Feedback. A worker that *failed to load* stays
    failed (its reason is returned at once) until :meth:`start` is called again. After
    :meth:`close`, :meth:`grade` no longer starts a worker (a grade racing a shutting-down server
    would leave an orphan process): it returns a failed Feedback until :meth:`start`. A request that
    times out returns a failed Feedback and leaves the worker running; its late reply is
    discarded. Implements :class:`~torchdojo.grading.feedback.AnswerGrader`; thread-safe (one
    request at a time).
    """

    def __init__(self, settings: Any, bank: Bank, env: Mapping[str, str] | None = None) -> None:
        self.settings = settings
        self.bank = bank
        self.env = dict(env or {})
        self.name = f"process:{getattr(settings, 'grader', 'grader')}"
        self._proc: subprocess.Popen[bytes] | None = None
        self._state = "stopped"  # stopped | loading | ready | failed (load failed) | died (after ready)
        self._why = ""
        self._closed = False  # close() was called and start() not since
        self._cond = threading.Condition()
        self._request_lock = threading.Lock()
        self._next_id = 0
        self._awaiting: int | None = None
        self._reply: dict[str, Any] | None = None

    # -- lifecycle ------------------------------------------------------------------------------

    @property
    def status(self) -> str:
        with self._cond:
            if self._state in ("failed", "died"):
                return f"failed: {self._why}"
            return self._state

    @property
    def pid(self) -> int | None:
        """The worker's process id while one is running."""
        with self._cond:
            return self._proc.pid if self._proc is not None and self._proc.poll() is None else None

    def start(self) -> None:
        """Spawn the worker unless one is loading or ready (also after :meth:`close`). Returns at once."""
        with self._cond:
            self._closed = False
            if self._state in ("loading", "ready") and self._proc is not None and self._proc.poll() is None:
                return
            self._spawn()

    def _spawn(self) -> None:  # holds self._cond
        self._reap()
        env = {**os.environ, **_settings_env(self.settings), **self.env, **WORKER_ENV}
        try:
            proc = subprocess.Popen(
                [sys.executable, "-m", "torchdojo.grading.worker"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                env=env,
            )
        except OSError as e:
            self._state, self._why = "failed", f"cannot start the grader process: {e}"
            self._cond.notify_all()
            return
        self._proc, self._state, self._why = proc, "loading", ""
        threading.Thread(target=self._read, args=(proc,), name=f"grader-worker-{proc.pid}", daemon=True).start()

    def _read(self, proc: subprocess.Popen[bytes]) -> None:
        """Reader thread of one worker: the ready line, then replies, then EOF."""
        assert proc.stdout is not None
        ready = False
        with proc.stdout:
            for raw in proc.stdout:
                try:
                    msg = json.loads(raw)
                    if not isinstance(msg, dict):
                        raise ValueError("not an object")
                except ValueError:
                    print(f"torchdojo grader process: ignoring a non-protocol line {raw[:200]!r}", file=sys.stderr)
                    continue
                with self._cond:
                    if self._proc is not proc:
                        return
                    if not ready:
                        ready = True
                        if msg.get("ready") is True:
                            self._state = "ready"
                            self.name = f"process:{msg.get('grader', '?')}"
                        else:
                            self._state, self._why = "failed", f"the grader did not load: {msg.get('error', msg)}"
                    elif self._awaiting is not None and msg.get("id") == self._awaiting:
                        self._reply = msg
                    self._cond.notify_all()
        code = proc.wait()
        with self._cond:
            if self._proc is not proc:
                return
            if not ready:
                self._state, self._why = "failed", f"the grader process exited with code {code} before it was ready"
            elif self._state == "ready":
                self._state, self._why = "died", f"the grader process exited with code {code}"
            self._cond.notify_all()

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Wait while the worker is loading (does not start it). True when it is ready."""
        with self._cond:
            self._cond.wait_for(lambda: self._state != "loading", timeout)
            return self._state == "ready"

    def close(self, timeout: float = 10.0) -> None:
        """Stop the worker: close its stdin (it exits 0 on EOF), wait, kill after ``timeout`` s."""
        with self._cond:
            proc, self._proc = self._proc, None
            self._state, self._why = "stopped", ""
            self._closed = True
            self._cond.notify_all()
        if proc is not None:
            stop_process(proc, timeout)

    def _reap(self) -> None:  # holds self._cond; forget a previous (dead or failed) worker
        proc, self._proc = self._proc, None
        if proc is not None:
            stop_process(proc, 0.0)

    def __enter__(self) -> GraderProcess:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- grading --------------------------------------------------------------------------------

    def _call(self, payload: dict[str, Any], timeout: float | None, lock_timeout: float | None = None,
              start: bool = True) -> tuple[dict[str, Any] | None, str]:
        """Send one request and wait for its reply: (reply, "") or (None, why). ``timeout``
        bounds the whole call (None: as long as the worker lives); ``lock_timeout`` bounds the
        wait for an earlier request to finish; ``start``: spawn a stopped or dead worker."""
        deadline = None if timeout is None else time.monotonic() + timeout

        def left() -> float | None:
            return None if deadline is None else max(0.0, deadline - time.monotonic())

        wait = left() if lock_timeout is None else min(lock_timeout, left() or lock_timeout)
        if not self._request_lock.acquire(timeout=-1 if wait is None else wait):
            return None, f"the grader was busy with another answer for {timeout:g} s (timeout)"
        try:
            with self._cond:
                if self._closed:
                    return None, ("the grader process was closed (the server is shutting down); "
                                  "try again once it is running (a mock interview resumes its grading by itself)")
                if self._state in ("stopped", "died"):
                    if not start:
                        return None, f"the grader is {self._state}"
                    self._spawn()
                if not self._cond.wait_for(lambda: self._state != "loading", left()):
                    return None, f"the grader was still loading after {timeout:g} s (timeout); try again when it is ready"
                if self._state != "ready":
                    return None, self._why or f"the grader is {self._state}"
                proc = self._proc
                assert proc is not None and proc.stdin is not None
                self._next_id += 1
                rid = self._awaiting = self._next_id
                self._reply = None
            try:
                proc.stdin.write(json.dumps({"id": rid, **payload}).encode("ascii") + b"\n")
                proc.stdin.flush()
            except (OSError, ValueError):  # broken pipe, or stdin closed by close(): the wait below sees it
                pass
            with self._cond:
                try:
                    got = self._cond.wait_for(
                        lambda: self._reply is not None or self._proc is not proc or self._state != "ready", left()
                    )
                    reply = self._reply
                finally:
                    self._awaiting, self._reply = None, None
                if reply is None:
                    if not got:
                        return None, (f"no reply within {timeout:g} s (timeout); the grader process "
                                      "keeps running and its late reply will be discarded")
                    why = self._why if self._proc is proc else "the grader process was closed"
                    return None, f"{why} while grading; it restarts on the next request"
                return reply, ""
        finally:
            self._request_lock.release()

    def grade(self, entry: Entry, answer: str, timeout: float | None = None) -> Feedback:
        """Grade in the worker. ``timeout`` bounds the whole call (waiting for the model to load
        and for other requests included); None waits as long as the worker lives. Never raises:
        a failed load, a dead worker, a timeout or a worker error return a failed Feedback."""
        payload: dict[str, Any] = {"entry_id": entry.id, "answer": answer}
        if entry.id.startswith("own:"):  # the worker has no database: send the card itself
            payload["own_card"] = {"front": entry.meta.title, "back": entry.body,
                                   "key_points": [k.text for k in entry.meta.key_points],
                                   "topic": entry.meta.topics[0] if entry.meta.topics else None,
                                   "level": entry.meta.level or None}
        reply, why = self._call(payload, timeout)
        if reply is None:
            return failed(entry, self.name, why)
        if "feedback" in reply:
            try:
                return Feedback.model_validate(reply["feedback"])
            except ValidationError as e:
                return failed(entry, self.name, f"the grader process returned an invalid Feedback: {e.errors()[:3]}")
        return failed(entry, self.name, f"grader process: {reply.get('error', 'reply without feedback or error')}")

    # -- search ---------------------------------------------------------------------------------

    def dense_search(self, text: str, k: int = 1000, timeout: float = 1.0) -> list[tuple[str, float]] | None:
        """Entries ranked by embedding for ``text`` (see :mod:`torchdojo.store.dense`): (entry id,
        score) best first, or None — at once — when the worker is not ready, is busy grading
        (waits at most 0.2 s for it), or its index is still being built: the caller then ranks
        lexically. Never starts a worker and never raises. A :data:`torchdojo.store.search.DenseRanker`."""
        with self._cond:
            if self._state != "ready" or self._closed:
                return None
        reply, _why = self._call({"search": text, "k": k}, timeout, lock_timeout=0.2, start=False)
        if reply is None or not isinstance(reply.get("dense"), list):
            return None
        try:
            return [(str(i), float(s)) for i, s in reply["dense"]]
        except (TypeError, ValueError):
            return None

    def dense_ready(self, timeout: float = 120.0) -> bool:
        """Wait until the worker answers searches (its dense index is built). False on timeout or
        when the worker cannot search (failed to load, or search switched off)."""
        deadline = time.monotonic() + timeout
        if not self.wait_ready(timeout):
            return False
        while time.monotonic() < deadline:
            reply, _ = self._call({"search": "ready?", "k": 1}, max(0.1, deadline - time.monotonic()), start=False)
            if reply is not None and "dense" in reply:
                return True
            if reply is None or "still being built" not in str(reply.get("error", "")):
                return False
            time.sleep(0.2)
        return False


def stop_process(proc: subprocess.Popen[bytes], timeout: float) -> None:
    """Close a worker's stdin (it exits on EOF), wait up to ``timeout`` s, then kill and reap
    (the grader's and the speech worker's clients both stop theirs so)."""
    try:
        if proc.stdin is not None:
            proc.stdin.close()
    except OSError:
        pass
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


if __name__ == "__main__":
    sys.exit(main())
