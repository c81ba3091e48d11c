"""``torchdojo challenge …``: list, show, start, submit, history, rejudge, check."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

from torchdojo.cli.markdown import Markdown
from torchdojo.judge.service import JUDGE_ERROR_ONLY

app = typer.Typer(help="Coding challenges graded by a sandboxed judge with hidden tests.", no_args_is_help=True)
console = Console(highlight=False)

Unsafe = Annotated[bool, typer.Option("--unsafe-local", help="run WITHOUT isolation (only if the sandbox cannot run)")]
COLORS = {"Accepted": "green", "Wrong Answer": "red", "Judge Error": "magenta", JUDGE_ERROR_ONLY: "magenta"}


def _service(unsafe: bool):
    from torchdojo.core import Dojo
    from torchdojo.settings import Settings

    s = Settings()
    if unsafe:
        s.unsafe_local_judge = True
    return Dojo(s)


def _get(d, challenge_id: str):
    ch = d.judge.challenges.get(challenge_id)
    if ch is None:
        console.print(f"No challenge '{escape(challenge_id)}'. See: torchdojo challenge list")
        raise typer.Exit(2)
    return ch


@app.command("list")
def list_(level: Annotated[str | None, typer.Option()] = None, topic: Annotated[str | None, typer.Option()] = None) -> None:
    """All challenges with your best verdict so far."""
    d = _service(False)
    best = d.judge.best_verdicts()
    t = Table(title=f"{len(d.judge.challenges)} challenges")
    for c in ("id", "title", "level", "kind", "best"):
        t.add_column(c)
    for ch in d.judge.challenges.values():
        m = ch.meta
        if (level and m.level != level) or (topic and topic not in m.topics):
            continue
        v = best.get(ch.id, "")
        t.add_row(ch.id, m.title, m.level, m.kind, f"[{COLORS.get(v, 'yellow')}]{v}[/]" if v else "")
    console.print(t)


@app.command()
def show(challenge_id: str) -> None:
    """The statement, limits and rules of a challenge."""
    ch = _get(_service(False), challenge_id)
    console.print(Panel(Markdown(ch.statement), title=f"{ch.meta.title} · {ch.meta.level} · {ch.meta.kind}"))
    lim = ch.meta.limits
    console.print(f"Limits: {lim.cpu_seconds:g} s CPU, {lim.wall_seconds:g} s wall, {lim.memory_mb} MiB.")
    if ch.meta.rules.banned_calls or ch.meta.rules.banned_constructs:
        console.print("Not allowed: " + ", ".join(ch.meta.rules.banned_calls + ch.meta.rules.banned_constructs))
    console.print(f"Start with: torchdojo challenge start {ch.id}")


@app.command()
def start(challenge_id: str, directory: Annotated[Path, typer.Option("--dir")] = Path("."),
          force: Annotated[bool, typer.Option(help="overwrite an existing file")] = False) -> None:
    """Write the starter code to DIR/<id>.py."""
    ch = _get(_service(False), challenge_id)
    path = directory / f"{ch.id.replace('-', '_')}.py"
    if path.exists() and not force:
        console.print(f"{escape(str(path))} exists: edit it, or pass --force to overwrite it with the starter.")
        raise typer.Exit(1)
    path.write_text(ch.starter)
    console.print(f"Wrote {escape(str(path))}. Run public tests: torchdojo challenge submit {ch.id} {path} --run")


def print_report(rep, sid=None) -> None:
    if rep.mode == "custom":
        return _print_custom(rep)
    t = Table(title=f"{rep.challenge} · {rep.mode} · {rep.backend}")
    for c in ("test", "visibility", "verdict", "time", "detail"):
        t.add_column(c, overflow="fold")
    for r in rep.tests:
        color = COLORS.get(r.verdict.value, "yellow")
        t.add_row(r.name, "public" if r.public else "hidden", f"[{color}]{r.verdict.value}[/]",
                  f"{r.seconds * 1000:.0f} ms" if r.seconds is not None else "",
                  (r.message if r.verdict.value != "Accepted" else r.what)[:600])
    if rep.tests:
        console.print(t)
    color = COLORS.get(rep.verdict.value, "yellow")
    console.print(f"[bold {color}]{rep.verdict.value}[/] {rep.message}  ({rep.passed}/{len(rep.tests)} tests passed"
                  + (f", speed {rep.speed_ratio:.2f}x reference" if rep.speed_ratio else "") + ")"
                  + (f"  submission #{sid}" if sid else ""))
    from torchdojo.judge.display import format_mismatch, format_values

    for r in rep.tests:  # only public tests carry stdout; hidden tests' output is never shown
        if r.public and r.stdout:
            console.print(Panel(escape(r.stdout.rstrip()), title=f"stdout of '{escape(r.name)}'"))
    bad = next((r for r in rep.tests if r.verdict.value != "Accepted"), None)
    if bad is not None and bad.inputs is not None:
        console.print(Panel(escape(format_values(bad.inputs)),
                            title=f"input of '{escape(bad.name)}'" + ("" if bad.public else " (smallest failing)")))
    if bad is not None and bad.public and bad.expected is not None:
        console.print(Panel(escape(format_values(bad.expected)), title="expected"))
        if bad.got is not None:
            console.print(Panel(escape(format_values(bad.got)), title="got"))
    if bad is not None and bad.mismatch:
        console.print(escape(format_mismatch(bad.mismatch)))


def _print_custom(rep) -> None:
    from torchdojo.judge.display import format_mismatch, format_values

    t = rep.tests[0] if rep.tests else None
    if t is not None and t.inputs is not None:
        console.print(Panel(escape(format_values(t.inputs)), title="input"))
    if t is not None and t.expected is not None:
        console.print(Panel(escape(format_values(t.expected)), title="reference output"))
    if t is not None and t.got is not None:
        console.print(Panel(escape(format_values(t.got)), title="your output"))
    if t is not None and t.stdout:
        console.print(Panel(escape(t.stdout.rstrip()), title="stdout"))
    if t is not None and t.verdict.value != "Accepted" and t.message:
        console.print(escape(t.message[:2000]))
    if t is not None and t.mismatch:
        console.print("difference: " + escape(format_mismatch(t.mismatch)))
    color = COLORS.get(rep.verdict.value, "yellow")
    label = "Same as the reference" if rep.verdict.value == "Accepted" else rep.verdict.value
    console.print(f"[bold {color}]{label}[/] {escape(rep.message)}  (custom input, not stored)")


@app.command("try")
def try_(challenge_id: str, file: Annotated[Path, typer.Argument(help="your solution (.py)")],
         input_json: Annotated[str, typer.Option("--input", help='parameters of the tests\' make_inputs as JSON, '
                                                 'e.g. \'{"n": 4, "d": 5, "dim": -1}\'; empty: the first example')] = "",
         unsafe: Unsafe = False) -> None:
    """Run FILE and the reference on your own input; show both outputs and their difference.
    Exit 0 when they match, 1 when not, 2 for an input the judge will not build."""
    import json

    from torchdojo.judge.custom import CustomInputError

    d = _service(unsafe)
    _get(d, challenge_id)
    if not file.is_file():
        console.print(f"No file {escape(str(file))}.")
        raise typer.Exit(2)
    code = file.read_text(encoding="utf-8")
    if not input_json.strip():
        input_json = json.dumps(d.judge.custom_input_spec(challenge_id)[1])
    try:
        rep = _judge_or_refuse(d, lambda: d.judge.run_custom(challenge_id, code, input_json))
    except CustomInputError as e:
        spec, example = d.judge.custom_input_spec(challenge_id)
        console.print(f"[red]Custom input refused:[/] {escape(e.field)} {escape(e.message)}")
        console.print("Parameters: " + "; ".join(f"{escape(n)}: {escape(s.describe())}" for n, s in spec.items())
                      + f"; seed: int (optional). Example: {escape(json.dumps(example))}")
        raise typer.Exit(2) from None
    print_report(rep)
    raise typer.Exit(0 if rep.verdict.value == "Accepted" else 1)


@app.command()
def hint(challenge_id: str) -> None:
    """Reveal the next hint of a challenge (and show the ones revealed before)."""
    d = _service(False)
    ch = _get(d, challenge_id)
    if not ch.hints:
        console.print(f"'{escape(ch.id)}' has no hints.")
        raise typer.Exit(1)
    shown = d.judge.reveal_hint(ch.id)
    for i, h in enumerate(ch.hints[:shown], 1):
        console.print(Panel(Markdown(h), title=f"hint {i} of {len(ch.hints)}"))
    if shown == len(ch.hints):
        console.print("That was the last hint." + (f" Editorial: torchdojo challenge editorial {ch.id}"
                                                   if ch.editorial else ""))


@app.command()
def editorial(challenge_id: str,
              give_up: Annotated[bool, typer.Option("--give-up", help="unlock it without an Accepted submission")] = False
              ) -> None:
    """The editorial: after an Accepted submission, or with --give-up (remembered)."""
    from torchdojo.judge.service import EditorialLocked

    d = _service(False)
    ch = _get(d, challenge_id)
    if ch.editorial is None:
        console.print(f"'{escape(ch.id)}' has no editorial.")
        raise typer.Exit(1)
    if give_up:
        d.judge.give_up(ch.id)
    try:
        console.print(Panel(Markdown(d.judge.editorial(ch.id)), title=f"editorial · {ch.meta.title}"))
    except EditorialLocked as e:
        console.print(f"Locked: {escape(str(e))} (pass --give-up).")
        raise typer.Exit(1) from None


@app.command()
def submit(challenge_id: str, file: Annotated[Path, typer.Argument(help="your solution (.py)")],
           run: Annotated[bool, typer.Option("--run", help="public tests only")] = False, unsafe: Unsafe = False,
           wait: Annotated[float, typer.Option(help="team mode: seconds to wait for the workers' verdict")] = 600) -> None:
    """Judge FILE: public tests with --run, public + hidden tests otherwise. Exit 0 only on Accepted.
    In team mode (TORCHDOJO_BROKER_URL set) the submission is queued for the judge workers and
    this waits for their verdict (exit 4: the queue refused it or no verdict came in time)."""
    d = _service(unsafe)
    _get(d, challenge_id)
    if not file.is_file():
        console.print(f"No file {escape(str(file))}. Create it with: torchdojo challenge start {escape(challenge_id)}")
        raise typer.Exit(2)
    code = file.read_text(encoding="utf-8")
    if d.settings.broker_url:
        _submit_to_workers(d, challenge_id, code, "run" if run else "submit", wait)
    d.judge.one_shot = True
    d.judge.warm_up()  # the server starts while this process imports torch and loads the expected outputs
    sid, rep = _judge_or_refuse(d, lambda: d.judge.submit(challenge_id, code, "run" if run else "submit"))
    print_report(rep, sid)
    raise typer.Exit(0 if rep.verdict.value == "Accepted" else 1)


def _submit_to_workers(d, challenge_id: str, code: str, mode: str, wait: float) -> None:
    """Team mode: queue the submission, wait for its verdict, print it and exit (0 on Accepted)."""
    import json
    import time

    from torchdojo.jobs import QueueFull, QueueUnavailable
    from torchdojo.jobs.celery_app import JudgeQueue

    queue = JudgeQueue(d.settings, d.sessions, d.judge.challenges)
    try:
        sid = queue.submit(challenge_id, code, mode)
    except QueueFull as e:
        console.print(f"[red]Not queued:[/] {escape(str(e))}")
        raise typer.Exit(4) from e
    except QueueUnavailable as e:
        console.print(f"[red]Not queued:[/] {escape(str(e))}")
        raise typer.Exit(4) from e
    finally:
        queue.close()
    console.print(f"Queued as submission #{sid}; waiting for a judge worker…")
    deadline = time.monotonic() + wait
    while (row := d.judge.get_submission(sid)) is not None and row.status not in ("done", "failed"):
        if time.monotonic() > deadline:
            console.print(f"No verdict after {wait:.0f} s; it is still queued: torchdojo challenge history {challenge_id}")
            raise typer.Exit(4)
        time.sleep(0.5)
    if row is None or row.status == "failed":
        console.print(f"[red]The judge could not judge #{sid}:[/] {escape(row.error or '') if row else 'gone'}")
        raise typer.Exit(3)
    print_report(_report(json.loads(row.report)), sid)
    raise typer.Exit(0 if row.verdict == "Accepted" else 1)


def _report(d: dict):
    """A stored report (its JSON) as the :class:`~torchdojo.judge.grade.Report` it was."""
    from torchdojo.judge.grade import Report, TestResult
    from torchdojo.judge.verdicts import Verdict

    tests = [TestResult(**{**t, "verdict": Verdict(t["verdict"])}) for t in d.get("tests", [])]
    return Report(**{**d, "verdict": Verdict(d["verdict"]), "tests": tests})


def _judge_or_refuse(d, call):
    """Run a judging call; where the sandbox cannot run, say so and exit 3 (fail closed)."""
    from torchdojo.judge.sandbox.backend import SandboxUnavailable

    try:
        return call()
    except SandboxUnavailable as e:
        console.print(f"[red]Refusing to judge:[/] {escape(str(e))}")
        raise typer.Exit(3) from e
    finally:
        d.judge.close()


@app.command()
def history(challenge_id: Annotated[str | None, typer.Argument()] = None) -> None:
    """Your stored submissions, newest first."""
    d = _service(False)
    t = Table(title="submissions")
    for c in ("#", "challenge", "mode", "verdict", "when"):
        t.add_column(c)
    for r in d.judge.history(challenge_id)[:50]:
        t.add_row(str(r.id), r.challenge_id, r.mode, r.verdict, f"{r.created_at:%Y-%m-%d %H:%M}")
    console.print(t)


@app.command()
def rejudge(submission_id: int, unsafe: Unsafe = False) -> None:
    """Judge a stored submission again from its verbatim code."""
    d = _service(unsafe)
    if d.judge.get_submission(submission_id) is None:
        console.print(f"No submission #{submission_id}. See: torchdojo challenge history")
        raise typer.Exit(2)
    sid, rep = _judge_or_refuse(d, lambda: d.judge.rejudge(submission_id))
    print_report(rep, sid)


#: Known-wrong solutions (mutants) each challenge must have (issue 17: mutation testing).
MIN_MUTANTS = 6


@app.command()
def check(ids: Annotated[list[str] | None, typer.Argument(help="challenge ids (default: all)")] = None,
          unsafe: Unsafe = False,
          jobs: Annotated[int, typer.Option(help="challenges checked at once (one sandbox slot each)")] = 2) -> None:
    """For authors and CI: every reference must be Accepted by its own hidden tests and agree with
    the challenge's oracle, the starter must not pass, and every known-wrong solution must get the
    verdict its first line expects. Prints each challenge's mutation score (known-wrong solutions
    killed, i.e. not Accepted, out of all; at least 6 are required). Exit 1 otherwise."""
    from concurrent.futures import ThreadPoolExecutor

    from torchdojo.judge.service import JudgeService
    from torchdojo.settings import Settings

    s = Settings()
    svc = JudgeService(s.bank_dir / "challenges", None, unsafe_local=unsafe, slots=max(jobs, 1))
    problems = [p for p in svc.problems if not ids or any(f"/{i}" in p for i in ids)]
    for p in problems:
        console.print(f"[red]INVALID[/] {escape(str(p))}")
    missing = [i for i in ids or [] if i not in svc.challenges]
    if missing and not problems:
        console.print(f"[red]no such challenge(s): {escape(', '.join(missing))}[/]")
    chosen = [svc.challenges[i] for i in ids or [] if i in svc.challenges] if ids else list(svc.challenges.values())

    def one(ch) -> tuple[list[tuple[str, str, str, bool, str]], list[str]]:
        rows, notes = [], []
        notes += [f"{ch.id}: {m}" for m in svc.grader(ch.id).oracle_mismatches()]
        if len(ch.wrong) < MIN_MUTANTS:
            notes.append(f"{ch.id}: needs at least {MIN_MUTANTS} known-wrong solutions (mutants) in wrong/, "
                         f"has {len(ch.wrong)}")
        if svc.grade(ch.id, ch.starter).verdict.value == "Accepted":
            notes.append(f"{ch.id}: the starter code is Accepted: it must not pass")
        runs = [("reference", "Accepted", ch.reference_source)] + [
            (f"wrong/{n}", v.value, code) for n, (v, code) in ch.wrong.items()]
        for name, want, code in runs:
            rep = svc.grade(ch.id, code)
            rows.append((name, want, rep.verdict.value, rep.verdict.value == want, rep.message[:300]))
        return rows, notes

    t = Table(title="challenge check")
    for c in ("challenge", "solution", "expected", "got", "ok"):
        t.add_column(c)
    scores = Table(title="mutation score (known-wrong solutions killed: not Accepted)")
    for c in ("challenge", "mutants", "killed", "score"):
        scores.add_column(c)
    failures = len(problems) + len(missing)
    killed_all = mutants_all = 0
    try:
        with ThreadPoolExecutor(max_workers=max(jobs, 1)) as pool:
            for ch, (rows, notes) in zip(chosen, pool.map(one, chosen), strict=True):
                for note in notes:
                    console.print(f"[red]{note}[/]")
                failures += len(notes)
                for name, want, got, ok, msg in rows:
                    failures += not ok
                    t.add_row(ch.id, name, want, got + ("" if ok else f": {msg}"), "[green]✔[/]" if ok else "[red]✘[/]")
                mutants = [r for r in rows if r[0].startswith("wrong/")]
                killed = sum(r[2] != "Accepted" for r in mutants)
                killed_all, mutants_all = killed_all + killed, mutants_all + len(mutants)
                pct = 100 * killed / len(mutants) if mutants else 0.0
                scores.add_row(ch.id, str(len(mutants)), str(killed),
                               f"{pct:.0f} %" if killed == len(mutants) and mutants else f"[red]{pct:.0f} %[/]")
    finally:
        svc.close()
    console.print(t)
    console.print(scores)
    if mutants_all:
        console.print(f"mutation score: {killed_all} of {mutants_all} known-wrong solutions killed "
                      f"({100 * killed_all / mutants_all:.1f} %)")
    console.print(f"{len(chosen)} challenge(s), {failures} failure(s)")
    raise typer.Exit(1 if failures else 0)
