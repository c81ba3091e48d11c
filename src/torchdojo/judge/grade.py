"""Grade a submission: static rules, then the sandboxed run, then trusted comparisons.

``grade(challenge, code, backend, mode)``: ``mode="run"`` runs the public tests only (the
editor's Run button); ``"submit"`` runs public then hidden tests. Expected outputs come from
running the challenge's harness with the reference solution *here*, in the trusted process;
the child only ever sees the submission, the harness and the inputs.

Feedback teaches without leaking: public tests show inputs, expected and actual outputs and
stdout; hidden tests show the property tested, a minimal failing input (found by shrinking
the case's size parameters), the index and values of the largest error, and shapes/dtypes —
never the expected outputs in full, never their stdout.
"""

from __future__ import annotations

import copy
import secrets
import threading
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from torchdojo.judge import expected_cache, wire
from torchdojo.judge.challenge import Challenge
from torchdojo.judge.compare import compare_outputs
from torchdojo.judge.display import summarize
from torchdojo.judge.execution import CPU_LIMIT, Backend, ExecResult
from torchdojo.judge.rules import SourceError, check_source
from torchdojo.judge.testing import Case
from torchdojo.judge.verdicts import Verdict

MAX_SHRINK_RUNS = 8
#: Characters of a public test's stdout kept in the report (the runtime captures up to 64 KiB).
STDOUT_SHOWN = 4000
# Reference runs happen in this (trusted) process, possibly from several threads (the web app,
# `challenge check --jobs`). Harnesses may seed torch's global RNG, so runs must not interleave.
_TRUSTED_LOCK = threading.RLock()


@dataclass
class TestResult:
    name: str
    public: bool
    verdict: Verdict
    message: str = ""
    what: str = ""
    seconds: float | None = None
    inputs: dict[str, Any] | None = None  # summary: public tests, or the minimal failing hidden input
    expected: dict[str, Any] | None = None  # public tests only
    got: dict[str, Any] | None = None  # public tests only
    mismatch: dict[str, Any] | None = None
    stdout: str = ""  # public tests only


@dataclass
class Report:
    challenge: str
    mode: str
    verdict: Verdict
    message: str = ""
    tests: list[TestResult] = field(default_factory=list)
    backend: str = ""
    cpu_seconds: float = 0.0
    peak_memory: int | None = None
    speed_ratio: float | None = None

    @property
    def passed(self) -> int:
        return sum(t.verdict == Verdict.ACCEPTED for t in self.tests)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["verdict"] = self.verdict.value
        for t in d["tests"]:
            t["verdict"] = t["verdict"].value
        return d


def cap_stdout(text: str, cap: int = STDOUT_SHOWN) -> str:
    """A test's printed output as shown: at most ``cap`` characters, saying how much was cut."""
    text = text if isinstance(text, str) else ""
    if len(text) <= cap:
        return text
    return text[:cap] + f"\n… ({len(text) - cap} more characters not shown)"


def _clone(values: dict[str, Any]) -> dict[str, Any]:
    import torch

    return {k: v.detach().clone() if isinstance(v, torch.Tensor) else copy.deepcopy(v) for k, v in values.items()}


class Grader:
    """Grades submissions for one challenge; caches expected outputs (deterministic inputs)."""

    def __init__(self, challenge: Challenge, backend: Backend, cache_dir: Path | None = None, guard: bool = True) -> None:
        """``cache_dir``: where expected outputs are kept on disk across processes
        (:mod:`torchdojo.judge.expected_cache`); None keeps them in memory only. ``guard=False``
        only for testing the sandbox's own layers: no static introspection check, no run-time
        guard in the job (``runtime.install_guard``)."""
        self.ch, self.backend = challenge, backend
        self.guard = guard
        self.cache_dir = cache_dir / challenge.id if cache_dir is not None else None
        self._expected: dict[tuple, tuple[dict, dict]] = {}
        self._pruned = False
        self._numel_cap: int | None = None

    # -- trusted side ---------------------------------------------------------------------
    def inputs_and_expected(self, case: Case) -> tuple[dict[str, Any], dict[str, Any]]:
        """The case's inputs and the reference's outputs on them: from memory, else from the disk
        cache, else computed here (and stored on disk)."""
        key = (case.name, repr(sorted(case.params.items())), case.seed)
        with _TRUSTED_LOCK:
            if key not in self._expected:
                disk = expected_cache.key(self.ch, case.name, case.params, case.seed) if self.cache_dir else None
                hit = expected_cache.load(self.cache_dir, disk) if disk else None
                if hit is None:
                    inputs = self.ch.tests.make_inputs(**case.params, seed=case.seed)
                    expected = self.ch.harness.run(self.ch.reference, _clone(inputs))
                    hit = inputs, {k: (v.detach() if hasattr(v, "detach") else v) for k, v in expected.items()}
                    if disk and expected_cache.store(self.cache_dir, disk, *hit) and not self._pruned:
                        self._pruned = True  # files of other versions of this challenge
                        expected_cache.prune(self.cache_dir, {
                            expected_cache.key(self.ch, c.name, c.params, c.seed) for c in self.ch.tests.cases()} | {disk})
                self._expected[key] = hit
            return self._expected[key]

    def _job(self, code: str, cases: list[tuple[Case, dict[str, Any]]], trace: bool = True, repeat: int = 1,
             nonce: str | None = None) -> bytes:
        header: dict[str, Any] = {"code": code, "harness": self.ch.harness_source, "trace": trace, "cases": [],
                                  "nonce": nonce, "guard": self.guard}
        tensors: dict[str, Any] = {}
        for i, (case, inputs) in enumerate(cases):
            js, ts = wire.split_values(inputs, f"in/{i}/")
            header["cases"].append({"name": case.name, "json": js, "repeat": repeat})
            tensors.update(ts)
        return wire.encode(header, tensors)

    def _judge_case(self, case: Case, inputs: dict, expected: dict, rec: dict, tensors: dict, i: int) -> TestResult:
        tr = TestResult(case.name, case.public, Verdict.ACCEPTED, what=case.what, seconds=rec.get("seconds"))
        if case.public:
            shown = {k: v for k, v in expected.items() if k not in set(getattr(self.ch.tests, "CHECK_ONLY", ()))}
            tr.inputs, tr.expected, tr.stdout = summarize(inputs), summarize(shown), cap_stdout(rec.get("stdout", ""))
        if rec.get("status") != "ok":
            err = rec.get("error", {})
            if err.get("kind") == "rule":  # the runtime's guard refused an introspection (runtime.install_guard)
                tr.verdict, tr.message = Verdict.RULE_VIOLATION, str(err.get("message", ""))
                return tr
            tr.verdict = {"memory": Verdict.MEMORY_LIMIT_EXCEEDED, "output": Verdict.OUTPUT_LIMIT_EXCEEDED}.get(
                err.get("kind"), Verdict.RUNTIME_ERROR)
            tr.message = err.get("traceback") or f"{err.get('type')}: {err.get('message')}"
            return tr
        got = wire.join_values(rec.get("json", {}), tensors, f"out/{i}/")
        if case.public:  # in the reference's order, so expected and got read side by side
            tr.got = summarize({**{k: got[k] for k in expected if k in got}, **got})
        rules = self.ch.meta.rules
        used = sorted(set(rec.get("calls", [])) & set(rules.banned_calls) | set(rec.get("ops", [])) & set(rules.banned_ops))
        if used:
            tr.verdict = Verdict.RULE_VIOLATION
            tr.message = f"called {', '.join(used)}, which this challenge does not allow. {rules.why}".strip()
            return tr
        limit = getattr(self.ch.tests, "max_numel", None)
        if limit is not None and rec.get("max_numel", 0) > limit(inputs):
            tr.verdict = Verdict.RULE_VIOLATION
            tr.message = (f"created a tensor of shape {rec.get('max_shape')} ({rec['max_numel']} elements); this "
                          f"challenge allows at most {limit(inputs)} elements in any tensor. {rules.why}").strip()
            return tr
        free = set(getattr(self.ch.tests, "CHECK_ONLY", ()))  # random outputs: shape/dtype here, values in check()
        m = compare_outputs({k: v for k, v in expected.items() if k not in free}, got,
                            self.ch.meta.tolerance.rtol, self.ch.meta.tolerance.atol)
        if m is None and free:
            m = compare_outputs({k: expected[k] for k in free if k in expected}, got, 0.0, float("inf"))
        # An invariant's message ("rows do not sum to 1") teaches more than a value diff: lead with it,
        # and keep the largest-error location as well.
        if hasattr(self.ch.tests, "check"):
            try:
                with _TRUSTED_LOCK:
                    problem = self.ch.tests.check(inputs, got)
            except Exception as e:  # noqa: BLE001 - malformed outputs make the invariant itself fail
                problem = f"the outputs could not be checked ({type(e).__name__}: {e})"
            if problem:
                tr.verdict, tr.message = Verdict.WRONG_ANSWER, problem
                tr.mismatch = m.to_dict() if m else None
                return tr
        if m is not None:
            tr.verdict, tr.message, tr.mismatch = Verdict.WRONG_ANSWER, m.message, m.to_dict()
        return tr

    def _run(self, code: str, cases: list[Case], prepared: list | None = None) -> tuple[ExecResult, list[TestResult]]:
        """Run ``cases`` in one job and judge each. The child writes one result per test as it
        finishes (:func:`wire.read_stream`): when the job is stopped (time, memory, output, a
        crash), the tests that finished are judged, the one that was running gets the job's
        verdict and the rest are marked not run."""
        prepared = prepared or [(c, *self.inputs_and_expected(c)) for c in cases]
        nonce = secrets.token_hex(16)  # the runtime signs every frame with it; the submission never sees it
        res = self.backend.execute(self._job(code, [(c, i) for c, i, _ in prepared], nonce=nonce), self.ch.meta.limits)
        if res.status == "judge_error":
            verdict, msg = _job_verdict(res, self.ch.meta.limits)
            return res, _stopped_at(cases, 0, verdict, msg)
        stream = wire.read_stream(res.data or b"", nonce=nonce)
        done = []
        for (rec, tensors), case in zip(stream.cases, cases, strict=False):
            if rec.get("name") != case.name or not isinstance(rec.get("json", {}), dict) or not isinstance(
                    rec.get("error", {}), dict):
                break
            done.append((rec, tensors))
        if res.status != "ok":  # stopped: judge what finished; the rest is not trusted to be complete
            verdict, msg = _job_verdict(res, self.ch.meta.limits)
            at = min(len(done), len(cases) - 1)
            return res, self._judged(prepared[:at], done) + _stopped_at(cases, at, verdict, msg)
        end = stream.end
        if stream.error or stream.truncated or len(done) < len(stream.cases) or (
                end is not None and end.get("status") not in ("ok", "compile_error", "load_error")):
            why = stream.error or ("it was cut short" if stream.truncated else "its results do not match the job's tests")
            return res, _forged(cases, why)
        if end is None:  # well-formed so far, then the process ended by itself: os._exit() in the submission
            at = min(len(done), len(cases) - 1)
            msg = ("the program exited (status 0) before the judge's harness finished this test: do not end the "
                   "process (os._exit) from your code")
            return res, self._judged(prepared[:at], done) + _stopped_at(cases, at, Verdict.RUNTIME_ERROR, msg)
        err = end.get("error") if isinstance(end.get("error"), dict) else {}
        if end.get("status") == "compile_error":
            return res, _stopped_at(cases, 0, Verdict.COMPILATION_ERROR, err.get("traceback", ""), "the module did not load")
        if end.get("status") == "load_error" and err.get("kind") == "rule":
            return res, _stopped_at(cases, 0, Verdict.RULE_VIOLATION, str(err.get("message", "")),
                                    "the module did not load")
        if end.get("status") == "load_error":
            v = Verdict.MEMORY_LIMIT_EXCEEDED if err.get("kind") == "memory" else Verdict.RUNTIME_ERROR
            return res, _stopped_at(cases, 0, v, "while loading the module: " + err.get("traceback", ""),
                                    "the module did not load")
        if len(done) != len(cases):
            return res, _forged(cases, "its results do not match the job's tests")
        return res, self._judged(prepared, done)

    def _judged(self, prepared: list, done: list) -> list[TestResult]:
        return [self._judge_case(c, inputs, expected, rec, tensors, i)
                for i, ((c, inputs, expected), (rec, tensors)) in enumerate(zip(prepared, done, strict=False))]

    def _shrink(self, code: str, case: Case) -> Case:
        """Smallest variant of ``case`` (halving its shrinkable params) that still fails."""
        best, runs = case, 0
        progress = True
        while progress and runs < MAX_SHRINK_RUNS:
            progress = False
            for p in case.shrink:
                v = best.params.get(p)
                if not isinstance(v, int) or v <= 1 or runs >= MAX_SHRINK_RUNS:
                    continue
                trial = Case(best.name, {**best.params, p: max(1, v // 2)}, best.public, best.seed, best.shrink, best.what)
                runs += 1
                try:
                    _, (r,) = self._run(code, [trial])
                except Exception:  # noqa: BLE001 - a trial the generator cannot make is simply not smaller
                    continue
                if r.verdict not in (Verdict.ACCEPTED, Verdict.JUDGE_ERROR):
                    best, progress = trial, True
        return best

    def _static(self, rep: Report, code: str) -> bool:
        """The static rules; False (and ``rep`` says why) when the code does not pass them."""
        try:
            with _TRUSTED_LOCK:  # CPython 3.11's ast.parse is not safe to run from two threads at once
                rules = self.ch.meta.rules
                findings = check_source(code, rules, traced=bool(rules.banned_calls or rules.banned_ops
                                                                 or hasattr(self.ch.tests, "max_numel")),
                                        introspection=self.guard)
        except SourceError as e:
            rep.verdict, rep.message = Verdict.COMPILATION_ERROR, f"line {e.line}: {e.message}"
            return False
        if findings:
            rep.verdict = Verdict.RULE_VIOLATION
            rep.message = "; ".join(f"line {f.line}: {f.message}" for f in findings)
            if self.ch.meta.rules.why:
                rep.message += f". {self.ch.meta.rules.why}"
            return False
        return True

    def custom_numel_cap(self) -> int:
        """The most tensor elements a custom input may hold: the biggest case's, at least MAX_NUMEL."""
        from torchdojo.judge.custom import MAX_NUMEL, input_numel

        if self._numel_cap is None:
            with _TRUSTED_LOCK:
                sizes = [input_numel(self.ch.tests.make_inputs(**c.params, seed=c.seed)) for c in self.ch.tests.cases()]
            self._numel_cap = max([MAX_NUMEL, *sizes])
        return self._numel_cap

    def run_custom(self, code: str, params: dict[str, Any], seed: int = 0) -> Report:
        """Run the submission and the reference on an input built here by ``tests.make_inputs``
        from validated ``params`` (:func:`torchdojo.judge.custom.parse_custom_input`): a report
        (mode ``custom``) with one public test showing input, both outputs, the difference and
        stdout. Raises :class:`~torchdojo.judge.custom.CustomInputError` when the parameters
        cannot make an input, the input is over the size cap, or the reference cannot run on it."""
        from torchdojo.judge.custom import CustomInputError, input_numel

        rep = Report(self.ch.id, "custom", Verdict.ACCEPTED, backend=self.backend.name)
        if not self._static(rep, code):
            return rep
        case = Case("custom input", dict(params), public=True, seed=seed, what="your input")
        try:
            with _TRUSTED_LOCK:
                inputs = self.ch.tests.make_inputs(**params, seed=seed)
        except Exception as e:  # noqa: BLE001 - parameters the generator rejects are the input's problem
            raise CustomInputError("input", f"these parameters do not make an input ({type(e).__name__}: {e})") from None
        n, cap = input_numel(inputs), self.custom_numel_cap()
        if n > cap:
            raise CustomInputError("input", f"makes tensors with {n} elements in all; the limit is {cap} "
                                            "(the largest test's size)")
        try:
            with _TRUSTED_LOCK:
                expected = self.ch.harness.run(self.ch.reference, _clone(inputs))
        except Exception as e:  # noqa: BLE001
            raise CustomInputError("input", f"the reference solution cannot run on this input ({type(e).__name__}: "
                                            f"{e}); it is outside what this challenge covers") from None
        expected = {k: (v.detach() if hasattr(v, "detach") else v) for k, v in expected.items()}
        try:
            res, results = self._run(code, [case], [(case, inputs, expected)])
        except Exception as e:  # noqa: BLE001 - our fault: say so, never blame the user
            return _judge_failed(rep, e)
        rep.cpu_seconds, rep.peak_memory, rep.tests = res.cpu_seconds, res.peak_memory, results
        t = results[0]
        rep.verdict = t.verdict
        rep.message = ("your output matches the reference's" if t.verdict == Verdict.ACCEPTED
                       else f"{t.verdict.value} on your input")
        return rep

    def grade(self, code: str, mode: Literal["run", "submit"] = "submit") -> Report:
        rep = Report(self.ch.id, mode, Verdict.ACCEPTED, backend=self.backend.name)
        if not self._static(rep, code):
            return rep
        try:
            cases = list(self.ch.tests.cases())
            cases = [c for c in cases if c.public] + ([c for c in cases if not c.public] if mode == "submit" else [])
            res, results = self._run(code, cases)
        except Exception as e:  # noqa: BLE001 - our fault: say so, never blame the user
            return _judge_failed(rep, e)
        rep.cpu_seconds, rep.peak_memory, rep.tests = res.cpu_seconds, res.peak_memory, results
        first_bad = next((t for t in results if t.verdict != Verdict.ACCEPTED), None)
        if first_bad is not None:
            rep.verdict = first_bad.verdict
            rep.message = f"{first_bad.verdict.value} on test '{first_bad.name}'"
            case = next(c for c in cases if c.name == first_bad.name)
            if first_bad.verdict == Verdict.WRONG_ANSWER and not case.public and case.shrink and res.status == "ok":
                small = self._shrink(code, case)
                _, (again,) = self._run(code, [small])
                inputs, _ = self.inputs_and_expected(small)
                first_bad.inputs = summarize(inputs)
                if again.verdict == Verdict.WRONG_ANSWER:
                    first_bad.message, first_bad.mismatch = again.message, again.mismatch
                rep.message += f"; smallest failing input found: {small.params}"
            return rep
        if mode == "submit" and self.ch.meta.speed:
            try:
                ratio = self.speed_ratio(code)
            except _SpeedRunFailed as e:
                rep.verdict, rep.message = e.verdict, e.message
                return rep
            rep.speed_ratio = ratio
            if ratio > self.ch.meta.speed.max_ratio:
                rep.verdict = Verdict.TIME_LIMIT_EXCEEDED
                rep.message = (f"correct, but {ratio:.1f}x the reference's CPU time on '{self.ch.meta.speed.case}' "
                               f"(allowed: {self.ch.meta.speed.max_ratio:g}x)")
        return rep

    def oracle_mismatches(self) -> list[str]:
        """Where the reference disagrees with ``tests.oracle(inputs)`` (an independent brute-force
        or built-in computation), if the challenge has one: the check that the expected values
        themselves are right. Empty when they agree or there is no oracle."""
        oracle = getattr(self.ch.tests, "oracle", None)
        if oracle is None:
            return []
        out = []
        for case in self.ch.tests.cases():
            inputs, expected = self.inputs_and_expected(case)
            with _TRUSTED_LOCK:
                truth = oracle(_clone(inputs))
            m = compare_outputs({k: v for k, v in truth.items()}, expected, self.ch.meta.tolerance.rtol,
                                self.ch.meta.tolerance.atol)
            if m is not None:
                out.append(f"case '{case.name}': reference vs oracle: {m.message}")
        return out

    def speed_ratio(self, code: str) -> float:
        """CPU time of the submission over the reference's on the speed case, both measured here.

        Raises :class:`_SpeedRunFailed` when a timing run does not finish cleanly: the
        submission's → Time Limit Exceeded (or its own verdict), the reference's → Judge Error."""
        sp = self.ch.meta.speed
        case = next(c for c in self.ch.tests.cases() if c.name == sp.case)
        inputs, _ = self.inputs_and_expected(case)
        limits = self.ch.meta.limits
        ref = self.backend.execute(self._job(self.ch.reference_source, [(case, inputs)], trace=False, repeat=sp.repeat),
                                   limits)
        if ref.status != "ok":
            raise _SpeedRunFailed(Verdict.JUDGE_ERROR, f"the reference's timing run failed ({ref.status}: {ref.detail}); "
                                                       "this is not your fault")
        # The submission's timing run may use at most what would already be too slow (the
        # allowed ratio with 50 % slack, at least 1 s): a slow solution is stopped there instead
        # of running to the challenge's whole CPU limit (issue 17: a speed-rule TLE took 33-39 s).
        budget = max(1.0, ref.cpu_seconds * sp.max_ratio * 1.5)
        capped = budget < limits.cpu_seconds
        sub_limits = limits.model_copy(update={"cpu_seconds": budget}) if capped else limits
        sub = self.backend.execute(self._job(code, [(case, inputs)], trace=False, repeat=sp.repeat), sub_limits)
        if sub.status == "timeout" and capped and sub.detail == CPU_LIMIT:
            raise _SpeedRunFailed(Verdict.TIME_LIMIT_EXCEEDED, (
                f"correct, but more than {sp.max_ratio:g}x the reference's CPU time on '{sp.case}': stopped after "
                f"{sub.cpu_seconds:.1f} s of CPU where the reference took {ref.cpu_seconds:.2f} s"))
        if sub.status != "ok":
            verdict, msg = _job_verdict(sub, sub_limits)
            raise _SpeedRunFailed(verdict, f"timing run on '{sp.case}': {msg}")
        return sub.cpu_seconds / max(ref.cpu_seconds, 1e-6)


def _judge_failed(rep: Report, e: Exception) -> Report:
    """``rep`` as a Judge Error for an exception of ours; a refusal to judge (no sandbox on this
    machine: ``fail_closed``) is raised on to the face, which says so."""
    if getattr(e, "fail_closed", False):
        raise e
    rep.verdict, rep.message = Verdict.JUDGE_ERROR, f"the judge failed ({type(e).__name__}: {e}); this is not your fault"
    return rep


class _SpeedRunFailed(Exception):
    def __init__(self, verdict: Verdict, message: str) -> None:
        super().__init__(message)
        self.verdict, self.message = verdict, message


def _job_verdict(res: ExecResult, limits) -> tuple[Verdict, str]:
    if res.status == "timeout":
        return Verdict.TIME_LIMIT_EXCEEDED, (
            f"stopped at {res.detail or 'the time limit'} ({limits.cpu_seconds:g} s CPU, {limits.wall_seconds:g} s "
            f"wall); measured {res.cpu_seconds:.1f} s CPU, {res.wall_seconds:.1f} s wall")
    if res.status == "memory":
        return Verdict.MEMORY_LIMIT_EXCEEDED, f"used more than {limits.memory_mb} MiB"
    if res.status == "output":
        return Verdict.OUTPUT_LIMIT_EXCEEDED, res.detail
    if res.status == "judge_error":
        return Verdict.JUDGE_ERROR, f"{res.detail}; this is not your fault"
    return Verdict.RUNTIME_ERROR, f"the program {res.detail}" + (f": {res.stderr.strip()[-500:]}" if res.stderr.strip() else "")


def _stopped_at(cases: list[Case], at: int, verdict: Verdict, message: str, why: str = "") -> list[TestResult]:
    """``cases[at]`` gets ``verdict`` and ``message``; the tests after it did not run."""
    if not cases:
        return []
    why = why or f"the run stopped at test '{cases[at].name}' ({verdict.value})"
    return [TestResult(cases[at].name, cases[at].public, verdict, message, cases[at].what)] + [
        TestResult(c.name, c.public, Verdict.NOT_RUN, f"not run: {why}", c.what) for c in cases[at + 1:]]


def _forged(cases: list[Case], why: str) -> list[TestResult]:
    """The child's result was not what the judge's runtime writes. The runtime only ever writes
    well-formed frames, and the submission runs in the same process and can write to the result
    pipe: it forged or corrupted its result. The detail names no number read from the data."""
    msg = (f"the judge received a result its harness did not write ({why}). Return your outputs from your "
           "functions: writing to file descriptors your code did not open is not allowed")
    return [TestResult(c.name, c.public, Verdict.RULE_VIOLATION, msg if i == 0 else f"see test '{cases[0].name}'",
                       c.what) for i, c in enumerate(cases)]
