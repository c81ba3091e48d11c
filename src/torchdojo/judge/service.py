"""The judge as a service both faces call: challenges, grading through one backend, history.

``JudgeService.submit`` grades and persists; ``rejudge`` grades a stored submission again
from its verbatim code; ``health`` says whether the judge's server is up, how often it was
restarted and why it last failed (the sandbox backend supervises its server: see
:mod:`torchdojo.judge.sandbox.backend`). The backend is created on first use (the isolated fork server by
default, which needs root; the unsafe local backend only when explicitly requested), so
creating the service is cheap and imports no torch.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from torchdojo.judge.challenge import Challenge, load_challenges
from torchdojo.judge.execution import Backend
from torchdojo.judge.verdicts import Verdict
from torchdojo.store.models import ChallengeProgressRow, SubmissionRow

#: The best verdict of a challenge whose every full submission ended in a Judge Error: the judge
#: failed each time, which says nothing about the code.
JUDGE_ERROR_ONLY = "Judge Error only (not a verdict on your code)"


class UnknownChallengeError(KeyError):
    pass


class _Deferred:
    """The service's backend as a grader sees it: the name is known at once, the backend is
    only waited for when a job is executed, so a grader prepares its expected outputs (trusted
    side) while the server is still starting."""

    def __init__(self, service: JudgeService) -> None:
        self._service = service
        self.name = "local (UNSAFE: no isolation)" if service.unsafe_local else "sandbox"
        self.isolated = not service.unsafe_local

    def execute(self, job: bytes, limits):
        return self._service.backend.execute(job, limits)


class EditorialLocked(PermissionError):
    """The editorial opens after an Accepted submission or after giving up."""


@dataclass(frozen=True)
class Progress:
    """Where the user stands on one challenge: hints revealed (of ``hints_total``), whether an
    Accepted full submission exists, whether they gave up; the editorial is open after either."""

    hints_shown: int
    hints_total: int
    solved: bool
    gave_up: bool
    has_editorial: bool

    @property
    def editorial_unlocked(self) -> bool:
        return self.has_editorial and (self.solved or self.gave_up)


class JudgeService:
    def __init__(self, challenges_dir: Path, sessions: sessionmaker[Session] | None = None,
                 unsafe_local: bool = False, slots: int = 2, cache_dir: Path | None = None,
                 one_shot: bool = False) -> None:
        """``cache_dir``: the on-disk cache of expected outputs (see
        :mod:`torchdojo.judge.expected_cache`); None computes them in every process. ``one_shot``:
        this process judges once or twice and exits (the CLI; see ``SandboxBackend``)."""
        self.challenges, self.problems = load_challenges(challenges_dir)
        self.sessions = sessions
        self.unsafe_local = unsafe_local
        self.slots = slots
        self.cache_dir = cache_dir
        self.one_shot = one_shot
        self._backend: Backend | None = None
        self._graders: dict = {}
        self._lock = threading.Lock()
        self._backend_lock = threading.Lock()
        self._warming: threading.Thread | None = None
        self.warm_up_error: str | None = None

    def for_sessions(self, sessions: sessionmaker[Session]) -> JudgeService:
        """This judge storing submissions and progress in ``sessions`` (a learner's store): the
        challenges, graders, expected outputs and execution backend stay shared."""
        view = object.__new__(JudgeService)
        view.__dict__.update(self.__dict__)
        view.sessions = sessions
        view._parent = self
        return view

    @property
    def backend(self) -> Backend:
        """The execution backend, started on first use. Raises SandboxUnavailable (fail closed)."""
        parent = self.__dict__.get("_parent")
        if parent is not None:  # a view over another store: the one backend of the judge it came from
            return parent.backend
        with self._backend_lock:
            if self._backend is None:
                if self.unsafe_local:
                    from torchdojo.judge.execution import LocalUnsafeBackend

                    self._backend = LocalUnsafeBackend()
                else:
                    from torchdojo.judge.sandbox.backend import SandboxBackend

                    self._backend = SandboxBackend(slots=self.slots, one_shot=self.one_shot)
            return self._backend

    def challenge(self, challenge_id: str) -> Challenge:
        ch = self.challenges.get(challenge_id)
        if ch is None:
            raise UnknownChallengeError(challenge_id)
        return ch

    def grader(self, challenge_id: str):
        from torchdojo.judge.grade import Grader

        with self._lock:
            if challenge_id not in self._graders:
                self._graders[challenge_id] = Grader(self.challenge(challenge_id), _Deferred(self),  # type: ignore[arg-type]
                                                     cache_dir=self.cache_dir)
        return self._graders[challenge_id]

    def warm_up(self, challenge_id: str | None = None) -> threading.Thread:
        """Start, in the background, what the first verdict would otherwise wait for: the
        backend (the sandbox's server imports torch and warms up: seconds) and, in a second
        thread, torch in this process and ``challenge_id``'s expected outputs (from the disk
        cache when they are there). Returns at once; a later submission waits only for what is
        not ready yet. A backend that cannot start is not an error here (the submission that
        needs it gets the refusal); its reason is kept in ``warm_up_error``."""
        def backend() -> None:
            try:
                _ = self.backend
            except Exception as e:  # noqa: BLE001 - reported by the submission that needs it
                self.warm_up_error = f"{type(e).__name__}: {e}"

        def trusted() -> None:
            try:
                import torch  # noqa: F401 - the import is the point

                if challenge_id is not None and challenge_id in self.challenges:
                    g = self.grader(challenge_id)
                    for case in g.ch.tests.cases():
                        g.inputs_and_expected(case)
            except Exception:  # noqa: BLE001 - the submission computes them again and reports
                pass

        t = threading.Thread(target=backend, name="judge-warm-up", daemon=True)
        t.start()
        threading.Thread(target=trusted, name="judge-warm-up-trusted", daemon=True).start()
        self._warming = t
        return t

    def grade(self, challenge_id: str, code: str, mode: Literal["run", "submit"] = "submit"):
        return self.grader(challenge_id).grade(code, mode)

    def submit(self, challenge_id: str, code: str, mode: Literal["run", "submit"] = "submit"):
        """Grade and store. Returns (submission id or None without a database, report)."""
        rep = self.grade(challenge_id, code, mode)
        sid = None
        if self.sessions is not None:
            with self.sessions.begin() as s:
                row = SubmissionRow(challenge_id=challenge_id, mode=mode, code=code, verdict=rep.verdict.value,
                                    report=json.dumps(rep.to_dict(), default=str), backend=rep.backend,
                                    created_at=datetime.now(UTC))
                s.add(row)
                s.flush()
                sid = row.id
        return sid, rep

    def custom_input_spec(self, challenge_id: str) -> tuple[dict, dict]:
        """(parameter specs, an example input) for the custom-input form (imports torch: the
        challenge's tests module)."""
        from torchdojo.judge.custom import example_input, input_spec

        tests = self.challenge(challenge_id).tests
        return input_spec(tests), example_input(tests)

    def run_custom(self, challenge_id: str, code: str, input_text: str):
        """Run ``code`` and the reference on a custom input (a JSON object of the challenge's
        parameters, validated: see :mod:`torchdojo.judge.custom`). Not stored. Raises
        ``CustomInputError`` naming the field for an input the judge will not build."""
        from torchdojo.judge.custom import parse_custom_input

        params, seed = parse_custom_input(self.challenge(challenge_id).tests, input_text)
        return self.grader(challenge_id).run_custom(code, params, seed)

    def history(self, challenge_id: str | None = None) -> list[SubmissionRow]:
        if self.sessions is None:
            return []
        with self.sessions() as s:
            q = select(SubmissionRow).order_by(SubmissionRow.id.desc())
            if challenge_id:
                q = q.where(SubmissionRow.challenge_id == challenge_id)
            return list(s.scalars(q))

    def best_verdicts(self) -> dict[str, str]:
        """Per challenge with a full submission: Accepted if any was accepted, else the latest
        verdict about the code. A Judge Error says nothing about the code (the judge failed), so
        it counts only when it is all there is, and then reads :data:`JUDGE_ERROR_ONLY`."""
        best: dict[str, str] = {}
        for row in self.history():  # newest first
            if row.mode != "submit" or row.status in ("pending", "judging"):  # team mode: no verdict yet
                continue
            cid, verdict = row.challenge_id, row.verdict
            if verdict == Verdict.JUDGE_ERROR.value:
                best.setdefault(cid, JUDGE_ERROR_ONLY)
            elif verdict == Verdict.ACCEPTED.value or best.get(cid, JUDGE_ERROR_ONLY) == JUDGE_ERROR_ONLY:
                best[cid] = verdict
        return best

    def statuses(self) -> dict[str, str]:
        """Per challenge with any submission: ``solved`` (an Accepted full submission) or
        ``attempted`` (runs or submissions, none accepted). Challenges not listed are new."""
        if self.sessions is None:
            return {}
        out: dict[str, str] = {}
        with self.sessions() as s:
            for cid, mode, verdict in s.execute(select(SubmissionRow.challenge_id, SubmissionRow.mode,
                                                       SubmissionRow.verdict)):
                if mode == "submit" and verdict == "Accepted":
                    out[cid] = "solved"
                else:
                    out.setdefault(cid, "attempted")
        return out

    def find(self, q: str = "", level: str | None = None, topic: str | None = None,
             status: str | None = None) -> tuple[list[tuple[Challenge, str]], dict[str, str]]:
        """The challenges matching every given filter, each with its status (``solved``,
        ``attempted`` or ``new``), and the statuses of all. ``q`` matches the title or id (every
        word, case-insensitive)."""
        statuses = self.statuses()
        words = q.lower().split()
        out = []
        for ch in self.challenges.values():
            st = statuses.get(ch.id, "new")
            hay = f"{ch.id} {ch.meta.title}".lower()
            if (all(w in hay for w in words) and (not level or ch.meta.level == level)
                    and (not topic or topic in ch.meta.topics) and (not status or st == status)):
                out.append((ch, st))
        return out, statuses

    def _solved(self, s: Session, challenge_id: str) -> bool:
        q = select(SubmissionRow.id).where(SubmissionRow.challenge_id == challenge_id, SubmissionRow.mode == "submit",
                                           SubmissionRow.verdict == "Accepted").limit(1)
        return s.scalar(q) is not None

    def progress(self, challenge_id: str) -> Progress:
        ch = self.challenge(challenge_id)
        shown, gave_up, solved = 0, False, False
        if self.sessions is not None:
            with self.sessions() as s:
                row = s.get(ChallengeProgressRow, ch.id)
                if row is not None:
                    shown, gave_up = row.hints_shown, row.gave_up_at is not None
                solved = self._solved(s, ch.id)
        return Progress(min(shown, len(ch.hints)), len(ch.hints), solved, gave_up, ch.editorial is not None)

    def hints(self, challenge_id: str) -> list[str]:
        """The hints revealed so far (never more)."""
        return self.challenge(challenge_id).hints[:self.progress(challenge_id).hints_shown]

    def reveal_hint(self, challenge_id: str, seen: int | None = None) -> int:
        """Reveal the next hint; returns how many are revealed now. ``seen`` is how many the page
        showed: a second click from a stale page (or a double click) reveals no more than one."""
        ch = self.challenge(challenge_id)
        if self.sessions is None:
            raise RuntimeError("hints need a database to remember what was revealed")
        with self.sessions.begin() as s:
            row = s.get(ChallengeProgressRow, ch.id)
            if row is None:
                row = ChallengeProgressRow(challenge_id=ch.id, hints_shown=0)
                s.add(row)
            if seen is None or seen >= row.hints_shown:
                row.hints_shown = min(row.hints_shown + 1, len(ch.hints))
            return row.hints_shown

    def give_up(self, challenge_id: str) -> None:
        """Unlock the editorial (and every hint) without an Accepted submission; remembered."""
        ch = self.challenge(challenge_id)
        if self.sessions is None:
            raise RuntimeError("giving up needs a database to remember it")
        with self.sessions.begin() as s:
            row = s.get(ChallengeProgressRow, ch.id)
            if row is None:
                row = ChallengeProgressRow(challenge_id=ch.id, hints_shown=0)
                s.add(row)
            row.hints_shown = len(ch.hints)
            if row.gave_up_at is None:
                row.gave_up_at = datetime.now(UTC)

    def editorial(self, challenge_id: str) -> str:
        """The editorial's Markdown, only once unlocked. Raises :class:`EditorialLocked` before,
        ``LookupError`` when the challenge has none."""
        p = self.progress(challenge_id)
        if not p.has_editorial:
            raise LookupError(f"challenge '{challenge_id}' has no editorial")
        if not p.editorial_unlocked:
            raise EditorialLocked("the editorial opens after an Accepted submission, or after you give up")
        return self.challenge(challenge_id).editorial or ""

    def get_submission(self, submission_id: int) -> SubmissionRow | None:
        if self.sessions is None:
            return None
        with self.sessions() as s:
            return s.get(SubmissionRow, submission_id)

    def rejudge(self, submission_id: int):
        row = self.get_submission(submission_id)
        if row is None:
            raise KeyError(submission_id)
        return self.submit(row.challenge_id, row.code, row.mode)  # type: ignore[arg-type]

    def health(self) -> dict:
        """The judge's health without starting anything: the backend's state (``not started``
        until the first submission; for the sandbox: ``up``, ``not answering``, ``starting``,
        ``down``, ``closed``), server pid, restarts and the last failure. Imports no torch."""
        backend = self._backend
        if backend is None:
            warming = self._warming is not None and self._warming.is_alive()
            state = "starting" if warming else "unavailable" if self.warm_up_error else "not started"
            return {"backend": "local (UNSAFE: no isolation)" if self.unsafe_local else "sandbox",
                    "isolated": not self.unsafe_local, "state": state, "server_pid": None,
                    "slots": self.slots, "restarts": 0, "last_failure": self.warm_up_error, "last_failure_at": None}
        if hasattr(backend, "health"):
            return backend.health()
        return {"backend": backend.name, "isolated": backend.isolated, "state": "up", "server_pid": None,
                "slots": None, "restarts": 0, "last_failure": None, "last_failure_at": None}

    def close(self) -> None:
        """Stop the backend; the next submission starts a new one."""
        with self._backend_lock:
            backend, self._backend = self._backend, None
        if backend is not None and hasattr(backend, "close"):
            backend.close()
