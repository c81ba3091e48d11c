"""``torchdojo mock …``: timed mock interviews in the terminal (start/resume, report, history).

A thin face over :class:`torchdojo.practice.mock.MockInterviews`: every navigation calls
``open_item`` (the core measures time per item), every answer is saved with ``save_answer``
before the next prompt (autosave), and the deadline is enforced with ``SIGALRM``: a pending
``input()`` is interrupted when the time is up, so nobody can keep typing past it.
"""

from __future__ import annotations

import signal
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console, Group
from rich.markup import escape
from rich.panel import Panel
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text

from torchdojo.bank.taxonomy import LEVELS, QUESTION_TYPES, TOPICS
from torchdojo.cli.markdown import Markdown

if TYPE_CHECKING:
    from torchdojo.grading.feedback import Feedback

app = typer.Typer(
    help="Timed mock interviews: answer against the clock, then a graded report.", invoke_without_command=True
)
console = Console(highlight=False)

HELP = (
    "[bold]a[/] answer  [bold]n[/]/[bold]p[/] next/previous  [bold]g N[/] go to N  [bold]f[/] flag  "
    "[bold]r[/] reveal  [bold]l[/] list  [bold]s[/] submit  [bold]q[/] quit for now"
)
HELP_CODE = "  [bold]t[/] run the public tests"


class TimeOut(Exception):
    """Raised by the SIGALRM handler in the main thread: the interview's deadline passed."""


# -- small helpers ---------------------------------------------------------------------------
def _dojo():
    from torchdojo.core import Dojo

    return Dojo()


def _mmss(seconds: float) -> str:
    s = max(0, int(seconds))
    return f"{s // 60:02d}:{s % 60:02d}"


def _topics(topics: list[str]) -> str:
    return ", ".join(TOPICS.get(t, t) for t in topics) or "—"


def _fail(message: str, code: int = 2) -> typer.Exit:
    console.print(f"[red]{escape(message)}[/]")
    return typer.Exit(code)


def _close_judge(d) -> None:
    """Stop the judge's sandbox if this process started it."""
    judge = d.__dict__.get("judge")
    if judge is not None:
        judge.close()


class _Clock:
    """The interview's deadline as ``SIGALRM``.

    The handler only raises while the program waits for input (``ask``); anywhere else
    (a database commit, the judge) it just marks the time as up, and the next ``ask`` raises.
    A line typed just as the alarm fires is discarded: nothing new is saved after time-out.
    """

    def __init__(self, deadline: datetime) -> None:
        self.deadline = deadline
        self.expired = False
        self.waiting = False
        self._previous: Any = None

    def _on_alarm(self, signum, frame) -> None:
        self.expired = True
        if self.waiting:
            self.waiting = False
            raise TimeOut

    def __enter__(self) -> _Clock:
        self._previous = signal.signal(signal.SIGALRM, self._on_alarm)
        remaining = (self.deadline - datetime.now(UTC)).total_seconds()
        if remaining <= 0:
            self.expired = True
        else:
            signal.setitimer(signal.ITIMER_REAL, remaining)
        return self

    def __exit__(self, *exc) -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self._previous if self._previous is not None else signal.SIG_DFL)

    def ask(self, prompt: str = "") -> str:
        if self.expired:
            raise TimeOut
        self.waiting = True
        try:
            return console.input(prompt)
        finally:
            self.waiting = False

    def left(self) -> float:
        return (self.deadline - datetime.now(UTC)).total_seconds()


def _discard_typeahead() -> None:
    """Drop what was typed but not entered when the time ran out (it must not reach the shell)."""
    import sys
    import termios

    try:
        if sys.stdin.isatty():
            termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)
    except (OSError, termios.error):
        pass


def _yes(clock: _Clock, question: str, default: bool = False) -> bool:
    hint = "\\[Y/n]" if default else "\\[y/N]"
    answer = clock.ask(f"{question} {hint} ").strip().lower()
    return default if not answer else answer in ("y", "yes")


# -- the interview ---------------------------------------------------------------------------
def _navigator(m, current: int | None = None) -> Text:
    """``1✓ 2· 3·⚑``: answered ✓, unanswered ·, flagged ⚑; the current item in reverse video."""
    out = Text()
    for it in m.items:
        sym = ("✓" if it.answered else "·") + ("⚑" if it.flagged else "")
        style = "reverse bold" if it.position == current else ("green" if it.answered else "dim")
        if it.flagged and it.position != current:
            style = "yellow"
        out.append(f"{it.position + 1}{sym}", style=style)
        out.append(" ")
    return out


def _starter_path(m, item) -> Path:
    return Path.cwd() / f"mock-{m.id}-{item.ref_id}.py"


def _show_item(d, m, item) -> None:
    n = len(m.items)
    console.rule(f"[bold]Item {item.position + 1}/{n}[/] · {item.type} · {item.level} · {_topics(item.topics)}")
    if item.kind == "challenge":
        ch = d.mocks.challenges.get(item.ref_id)
        if ch is None:
            console.print(Panel(Text(item.title, style="bold"), title="coding"))
        else:
            console.print(Panel(Markdown(ch.statement), title=Text(f"{ch.meta.title} · coding")))
            path = _starter_path(m, item)
            if not path.exists():
                path.write_text(ch.starter, encoding="utf-8")
                console.print(f"Wrote the starter code to [bold]{path.name}[/].")
            console.print(
                f"Edit [bold]{path.name}[/] in your editor; [bold]t[/] runs the public tests, "
                "[bold]a[/] saves the file as your answer."
            )
    else:
        console.print(Panel(Text(item.title, style="bold"), padding=(1, 2)))
    if item.revealed_before_answer:
        console.print("[yellow]The model answer was revealed before you answered: this item is locked.[/]")
    elif item.answered:
        console.print(Panel(Text(item.answer), title="your saved answer", border_style="green"))


def _status(m, item, clock: _Clock, item_ms: float) -> None:
    left = clock.left()
    line = Text(f"⏱ {_mmss(left)} left", style="bold red" if left < 60 else "bold")
    per = m.config.get("per_item_minutes")
    if per:
        used, allowed = item_ms / 1000, per * 60
        line.append(f"   this item {_mmss(used)} / {_mmss(allowed)}", style="red" if used > allowed else "")
    line.append("   ")
    line.append_text(_navigator(m, item.position))
    console.print(line)


def _read_answer(clock: _Clock, item) -> str | None:
    if item.answered:
        console.print(
            Panel(Text(item.answer), title="your saved answer: what you type now replaces it", border_style="green")
        )
    console.print(
        "Type your answer. End it with a line containing only [bold].[/] "
        "(a lone [bold].[/] at once keeps the saved answer)."
    )
    lines: list[str] = []
    while True:
        line = clock.ask("| ")
        if line.strip() == ".":
            break
        lines.append(line)
    text = "\n".join(lines)
    return text if text.strip() else None


def _reveal(d, m, item, clock: _Clock) -> None:
    if not item.answered and not item.revealed:
        console.print(
            "[yellow]You have not answered this item. Revealing the model answer first is recorded in "
            "the report and locks the item: it stays unanswered and scores 0.[/]"
        )
        if not _yes(clock, "Reveal it anyway?"):
            console.print("Not revealed.")
            return
    entry = d.mocks.reveal(m.id, item.position)
    if entry is not None:
        kp = Table.grid(padding=(0, 1))
        for k in entry.meta.key_points:
            kp.add_row(Text("●" * k.weight + "○" * (3 - k.weight), style="red"), Text(k.text))
        console.print(
            Group(
                Panel(Text(entry.meta.short_answer), title="In 20 seconds", border_style="green"),
                Panel(kp, title="Key points", border_style="cyan"),
            )
        )
    else:
        ch = d.mocks.challenges.get(item.ref_id)
        if ch is not None:
            console.print(
                Panel(Syntax(ch.reference_source, "python"), title="reference solution", border_style="green")
            )


def _run_tests(d, m, item) -> None:
    """Public tests of the coding item's file through the judge (never ends the interview)."""
    from torchdojo.cli.challenge import print_report
    from torchdojo.judge.sandbox.backend import SandboxUnavailable

    path = _starter_path(m, item)
    if not path.is_file():
        console.print(f"[red]No file {path.name}[/]: it holds your code for this item.")
        return
    console.print("Running the public tests…")
    try:
        sid, rep = d.judge.submit(item.ref_id, path.read_text(encoding="utf-8"), "run")
    except SandboxUnavailable as e:
        console.print(f"[red]Refusing to judge:[/] {escape(str(e))}")
        return
    except Exception as e:  # the judge failing must not end the interview
        console.print(f"[red]The judge failed:[/] {type(e).__name__}: {escape(str(e))}")
        return
    print_report(rep, sid)


def _save_code(d, m, item, clock: _Clock) -> bool:
    path = _starter_path(m, item)
    if not path.is_file():
        console.print(f"[red]No file {path.name}[/]: write your solution there, then press [bold]a[/].")
        return False
    code = path.read_text(encoding="utf-8")
    ch = d.mocks.challenges.get(item.ref_id)
    if (
        ch is not None
        and code.strip() == ch.starter.strip()
        and not _yes(clock, f"{path.name} still holds the starter code. Save it as your answer anyway?")
    ):
        return False
    d.mocks.save_answer(m.id, item.position, code)
    console.print(f"[green]Saved[/] {path.name} as your answer ({len(code)} characters).")
    return True


def _list(m, current: int, current_ms: float) -> None:
    t = Table(title=f"mock #{m.id}: {m.counts()['answered']}/{len(m.items)} answered")
    for c in ("#", "title", "type", "level", "state", "flag", "time"):
        t.add_column(c, overflow="fold")
    for it in m.items:
        ms = current_ms if it.position == current else it.time_spent_ms
        state = "locked (revealed)" if it.revealed_before_answer else it.state
        t.add_row(
            ("▶ " if it.position == current else "") + str(it.position + 1),
            Text(it.title),
            it.type,
            it.level,
            f"[green]{state}[/]" if it.answered else state,
            "⚑" if it.flagged else "",
            _mmss(ms / 1000),
        )
    console.print(t)


class _GraderLoader:
    """Loads the answer grader in a thread while the candidate answers, so a live follow-up never
    makes them wait for the model (until it is loaded, the interview simply moves on)."""

    def __init__(self, d) -> None:
        self.d, self.ready = d, threading.Event()
        threading.Thread(target=self._load, daemon=True).start()

    def _load(self) -> None:
        try:
            _ = self.d.grader
            self.ready.set()
        except Exception:  # no follow-ups then; grading at the end reports the error
            pass


_loader: _GraderLoader | None = None


def _follow_up(d, mock_id: int, pos: int) -> bool:
    """Ask the interviewer's follow-up on item ``pos`` when the grader is loaded (True if asked)."""
    if _loader is None:
        return False
    if not _loader.ready.is_set():
        with console.status("the interviewer is thinking about your answer…"):
            if not _loader.ready.wait(timeout=60):  # the grader is still loading: move on
                return False
    fu = d.mocks.ask_follow_up(mock_id, pos, d.grader)
    if fu is None:
        return False
    console.print(Panel(Text(fu.prompt or ""), title="[bold]The interviewer follows up[/]", border_style="magenta"))
    return True


def _interview(d, mock_id: int, clock: _Clock, pos: int) -> str:
    """The command loop. Returns ``quit``, ``submit`` or ``ended`` (ended elsewhere);
    raises :class:`TimeOut` or the core's ``TimeUp``."""
    from torchdojo.practice.mock import Locked

    opened: int | None = None
    since = base_ms = 0.0
    show = True
    while True:
        m = d.mocks.get(mock_id)
        if m.status != "active":
            return "ended"
        if pos != opened:
            d.mocks.open_item(mock_id, pos)
            m = d.mocks.get(mock_id)
            opened, since, base_ms, show = pos, time.monotonic(), m.items[pos].time_spent_ms, True
        item = m.items[pos]
        if show:
            _show_item(d, m, item)
            console.print(HELP + (HELP_CODE if item.kind == "challenge" else ""))
            show = False
        item_ms = base_ms + (time.monotonic() - since) * 1000
        _status(m, item, clock, item_ms)
        cmd = clock.ask(f"mock #{m.id} \\[{pos + 1}/{len(m.items)}] > ").strip().lower()
        try:
            if cmd in ("", "h", "?", "help"):
                show = True
            elif cmd == "a":
                if item.revealed_before_answer:
                    raise Locked("the model answer was shown before you answered, so this item stays unanswered")
                if item.kind == "challenge":
                    _save_code(d, m, item, clock)
                else:
                    text = _read_answer(clock, item)
                    if text is None:
                        console.print("Nothing typed: the saved answer is unchanged.")
                    else:
                        d.mocks.save_answer(mock_id, pos, text)
                        console.print(f"[green]Saved[/] ({len(text)} characters).")
            elif cmd == "n":
                if _follow_up(d, mock_id, pos):
                    pos += 1  # the follow-up was inserted right after this item
                elif pos + 1 < len(m.items):
                    pos += 1
                else:
                    console.print("This is the last item: [bold]s[/] submits, [bold]g 1[/] goes back to the first.")
            elif cmd == "p":
                if pos > 0:
                    pos -= 1
                else:
                    console.print("This is the first item.")
            elif cmd.startswith("g") or cmd.isdigit():
                arg = cmd[1:].strip() if cmd.startswith("g") else cmd
                if arg.isdigit() and 1 <= int(arg) <= len(m.items):
                    pos = int(arg) - 1
                    show = True
                else:
                    console.print(f"[red]Go to which item?[/] Type g and a number from 1 to {len(m.items)}.")
            elif cmd == "f":
                d.mocks.set_flag(mock_id, pos, not item.flagged)
                console.print(f"Item {pos + 1} {'unflagged' if item.flagged else 'flagged ⚑'}.")
            elif cmd == "r":
                _reveal(d, m, item, clock)
            elif cmd == "l":
                _list(m, pos, item_ms)
            elif cmd == "t" and item.kind == "challenge":
                _run_tests(d, m, item)
            elif cmd == "s":
                left = m.counts()["unanswered"]
                if not left or _yes(clock, f"{left} item(s) are unanswered and will score 0. Submit now?"):
                    return "submit"
            elif cmd == "q":
                return "quit"
            else:
                console.print(f"[red]Unknown command '{escape(cmd)}'.[/] " + HELP)
        except Locked as e:
            console.print(f"[yellow]{escape(str(e))}[/]")


def _setup_panel(m) -> Panel:
    from torchdojo.practice.mock import BLUEPRINTS

    bp = BLUEPRINTS[m.level]
    kinds: dict[str, int] = {}
    for it in m.items:
        kinds[it.type] = kinds.get(it.type, 0) + 1
    lines = [
        f"[bold]Level[/] {m.level}   [bold]Time[/] {m.minutes} min   [bold]Items[/] {len(m.items)} "
        f"({', '.join(f'{k} ×{v}' for k, v in kinds.items())})"
    ]
    if m.config.get("per_item_minutes"):
        lines.append(f"[bold]Per item[/] {m.config['per_item_minutes']:g} min (shown, not enforced)")
    lines += [
        "",
        bp.why,
        "",
        "Answers are saved as soon as you enter them. [bold]q[/] pauses (the clock keeps running); "
        "continue with [bold]torchdojo mock --resume[/].",
    ]
    return Panel("\n".join(lines), title=f"Mock interview #{m.id}", border_style="cyan")


def _run(d, mock_id: int, resumed: bool) -> None:
    from torchdojo.practice.mock import TimeUp

    m = d.mocks.get(mock_id)
    if m.status == "active":
        console.print(_setup_panel(m))
        if resumed:
            console.print(
                f"Resuming: {m.counts()['answered']}/{len(m.items)} answered, {_mmss(m.remaining_seconds())} left."
            )
        pos = next((i.position for i in m.items if not i.answered and not i.revealed_before_answer), 0)
        global _loader
        if m.config.get("follow_ups") and _loader is None:
            _loader = _GraderLoader(d)
        outcome = "ended"
        with _Clock(m.deadline) as clock:
            try:
                outcome = _interview(d, mock_id, clock, pos)
            except TimeOut:
                outcome = "time-out"
            except TimeUp as e:
                console.print(f"[yellow]{escape(str(e))}[/]")
                outcome = "time-out"
            except (KeyboardInterrupt, EOFError):
                console.print()
                outcome = "quit"
        if outcome == "quit":
            d.mocks.pause(mock_id)  # the open item stops counting time while you are away
            m = d.mocks.get(mock_id)
            if m.status == "active":
                left = _mmss(m.remaining_seconds())
                console.print(f"Paused. Your answers are saved; the clock keeps running ({left} left).")
                console.print("Continue with: [bold]torchdojo mock --resume[/]")
                return
        if outcome == "submit":
            d.mocks.finish(mock_id)
        elif outcome == "time-out" or d.mocks.get(mock_id).end_reason == "time-out":
            _discard_typeahead()
            console.print()
            console.print(
                Panel(
                    "[bold red]Time is up.[/] Only what you saved before the deadline will be graded.",
                    border_style="red",
                )
            )
            d.mocks.finish(mock_id, max(datetime.now(UTC), m.deadline))  # past the deadline: a time-out
        else:  # ended elsewhere (the web face submitted it)
            console.print("This interview was submitted elsewhere.")
    _grade(d, mock_id)
    from torchdojo.cli.scorecards import review_mock

    review_mock(d, mock_id)  # the self-review comes before the report; each mark is saved at once
    _print_report(d, d.mocks.report(mock_id))


def _grade(d, mock_id: int) -> None:
    """Grade what is still ungraded through the jobs layer (the ``grade_mock`` task on the
    in-process backend), with a progress bar; exits 1 with the reason if grading fails."""
    from torchdojo.jobs import JobContext, wait
    from torchdojo.jobs.local import LocalBackend

    m = d.mocks.get(mock_id)
    if m.status != "grading":
        return
    todo = [i for i in m.items if not i.graded]
    prose = [i for i in todo if i.kind == "question" and i.answered]
    grader = None  # the task creates the core's grader only if it grades prose
    if prose:
        console.print("loading the answer grader… (the first time this loads a sentence-embedding model)")
        try:
            grader = d.grader
        except Exception as e:
            console.print(f"[red]Could not load the answer grader:[/] {type(e).__name__}: {escape(str(e))}")
            console.print(f"Your answers are saved. Grade them later with: [bold]torchdojo mock report {mock_id}[/]")
            raise typer.Exit(1) from e
    columns = (
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    jobs = LocalBackend(JobContext(d.settings, dojo=d, grader=grader), retry_delay=1.0)
    try:
        with Progress(*columns, console=console, transient=False) as prog:
            first = "loading the answer grader…" if prose else "grading"
            task = prog.add_task(first, total=max(1, len(todo)))

            def step(st) -> None:
                if st.progress is not None:
                    done, total = st.progress
                    prog.update(task, completed=done, total=total, description="grading answers")

            jobs.submit("grade_mock", mock_id, priority="high")
            st = wait(jobs, "grade_mock", mock_id, on_state=step)
            if st.status == "done":
                prog.update(task, completed=max(1, len(todo)), description="graded")
    finally:
        jobs.close()
    if st.status != "done":
        console.print(f"[red]Grading stopped:[/] {escape(st.error or st.status)}")
        console.print(f"What was graded is saved. Try again with: [bold]torchdojo mock report {mock_id}[/]")
        raise typer.Exit(1)


# -- the report ------------------------------------------------------------------------------
_EIGHTHS = " ▏▎▍▌▋▊▉"


def _bar(score: float, width: int = 30) -> Text:
    cells = max(0.0, min(100.0, score)) / 100 * width
    full = int(cells)
    part = _EIGHTHS[int((cells - full) * 8)] if full < width else ""
    color = "red" if score < 50 else "yellow" if score < 75 else "green"
    return Text("█" * full + part.strip(), style=color) + Text(" " * (width - full - len(part.strip())))


def _chart(title: str, rows: list[tuple[str, float]]) -> Table:
    t = Table(title=title, show_header=False, box=None, padding=(0, 1), title_justify="left")
    t.add_column(justify="right")
    t.add_column()
    t.add_column(justify="right")
    for label, score in rows:
        t.add_row(Text(label), _bar(score), f"{score:.0f}")
    return t


def _feedback(item):
    """The item's feedback as :class:`Feedback` (prose) or the raw dict (code), or None."""
    if not item.feedback:
        return None
    if item.kind == "question":
        from torchdojo.grading.feedback import Feedback

        try:
            return Feedback.model_validate(item.feedback)
        except ValueError:
            return None
    return item.feedback


def _score_cell(item) -> str:
    if not item.answered:
        return "0 (unanswered)" if not item.revealed_before_answer else "0 (locked)"
    fb = _feedback(item)
    error = fb.error if hasattr(fb, "error") else (fb or {}).get("error") if isinstance(fb, dict) else None
    if error:  # a failed grade keeps no score; the next grading retries it
        return "[magenta]grading failed[/]"
    if not item.graded:
        return "[dim]not graded yet[/]"
    if item.score is None:  # the grader was unsure: left out of the scores until the candidate marks it
        return "[yellow]uncertain — not scored[/]"
    color = "red" if item.score < 50 else "yellow" if item.score < 75 else "green"
    return f"[{color}]{item.score}[/]"


def _quote(answer: str, span) -> str:
    text = span.text if span is not None else ""
    text = " ".join(text.split())
    return f"“{text[:200]}{'…' if len(text) > 200 else ''}”" if text else ""


def feedback_panel(answer: str, fb: Feedback, title: Text | str = "", what: str = "item") -> Panel:
    """One graded prose answer as a Rich panel: score (or "uncertain"), key points hit / missed /
    contradicted with the evidence quoted from ``answer``, misconceptions with corrections, flags,
    checks and the follow-up. A failed grade (``fb.error``) shows why and no score. ``what`` names
    the answer in the failure message. Used by the mock report and ``torchdojo answer``."""
    if fb.error:
        return Panel(
            Text(
                f"Grading failed for this {what}: {fb.error}\nNo score is shown for it.", style="magenta"
            ),
            title=title,
            border_style="magenta",
        )
    from torchdojo.grading.feedback import BANDS

    parts: list[Any] = []
    head = f"score {fb.score} ({BANDS[fb.band]})" if not fb.uncertain else "uncertain (the grader does not trust its score)"
    parts.append(Text(f"{head} · grader {fb.grader}" + (f" · {fb.summary}" if fb.summary else ""), style="dim"))
    kp = Table.grid(padding=(0, 1))
    kp.add_column(no_wrap=True)
    kp.add_column()
    for k in fb.key_points:
        if k.status == "hit":
            mark, style = "✓ hit", "green"
        elif k.status == "contradicted":
            mark, style = "✗ contradicted", "red"
        else:
            mark, style = "✗ missed", "yellow"
        cell = Text(k.text)
        q = _quote(answer, k.evidence)
        if q:
            cell.append(f"\n  {q}", style="italic dim")
        kp.add_row(Text(mark, style=style), cell)
    parts.append(Text("Key points", style="bold"))
    parts.append(kp)
    if fb.misconceptions:
        parts.append(Text("Misconceptions stated", style="bold red"))
        mis = Table.grid(padding=(0, 1))
        for mc in fb.misconceptions:
            mis.add_row(Text("✗", style="red"), Text(mc.claim))
            mis.add_row(Text("✓", style="green"), Text(mc.correction))
            q = _quote(answer, mc.evidence)
            if q:
                mis.add_row("", Text(f"you wrote: {q}", style="italic dim"))
        parts.append(mis)
    if fb.flags:
        parts.append(Text("Flags: " + ", ".join(fb.flags), style="yellow"))
    failed_checks = [c for c in fb.checks if not c.ok]
    if fb.checks:
        parts.append(
            Text(
                f"Checks: {len(fb.checks) - len(failed_checks)}/{len(fb.checks)} ok"
                + "".join(f"\n  ✗ {c.name}{': ' + c.note if c.note else ''}" for c in failed_checks)
            )
        )
    if fb.follow_up:
        parts.append(Text.assemble(("Follow-up: ", "bold"), fb.follow_up))
    return Panel(Group(*parts), title=title, border_style="cyan")


def _item_detail(item) -> Panel | None:
    fb = _feedback(item)
    if fb is None or not item.answered:
        return None
    title = Text(f"{item.position + 1}. {item.title}")
    if isinstance(fb, dict):  # a coding item: the judge's verdict
        if fb.get("error"):
            body = Text(f"Grading failed for this item: {fb['error']}", style="magenta")
        else:
            body = Text(
                f"{fb.get('verdict')}: {fb.get('passed')}/{fb.get('total')} tests passed. {fb.get('message', '')}"
            )
        return Panel(body, title=title, border_style="magenta" if fb.get("error") else "cyan")
    return feedback_panel(item.answer, fb, title)


def _print_report(d, rep) -> None:
    m = rep.mock
    console.rule(f"[bold]Report · mock #{m.id}[/]")
    failed = [i for i in m.items if i.answered and _score_cell(i).endswith("grading failed[/]")]
    head = Text.assemble(
        ("Overall ", "bold"),
        (f"{rep.overall:.0f}/100" if rep.overall is not None else "—/100 (nothing scored)", "bold"),
        (" (incomplete)" if failed or rep.pending else "", "magenta"),
        f"   ended: {m.end_reason or '—'}   level {m.level} · {m.minutes} min · "
        f"{m.counts()['answered']}/{len(m.items)} answered",
    )
    console.print(head)
    if failed:
        console.print(
            f"[magenta]Grading failed for {len(failed)} item(s) "
            f"({', '.join(str(i.position + 1) for i in failed)}): they are left out of the scores; "
            f"`torchdojo mock report {m.id}` grades them again.[/]"
        )
    if rep.pending - len(failed) > 0:
        console.print(f"[yellow]{rep.pending - len(failed)} item(s) are not graded yet.[/] "
                      f"Run: torchdojo mock report {m.id}")
    console.print(Text("Items: ").append_text(_navigator(m)))
    t = Table(title="Items")
    code = any(it.kind == "challenge" for it in m.items)
    t.add_column("#", no_wrap=True)
    t.add_column("title", overflow="fold", ratio=1)
    for c in ("type", "level", "score", *(["verdict"] if code else []), "time", "⚑", "revealed"):
        t.add_column(c, overflow="fold", max_width=16)
    for it in m.items:
        revealed = "before answer" if it.revealed_before_answer else "after answer" if it.revealed else ""
        row = [str(it.position + 1), Text(it.title), it.type, it.level, _score_cell(it)]
        row += [it.verdict or ""] if code else []
        row += [_mmss(it.time_spent_ms / 1000), "⚑" if it.flagged else "", revealed]
        t.add_row(*row)
    console.print(t)
    console.print(
        _chart("Score by topic", [(TOPICS.get(k, k), v) for k, v in sorted(rep.by_topic.items(), key=lambda kv: kv[1])])
    )
    console.print(_chart("Score by level", [(lvl, rep.by_level[lvl]) for lvl in LEVELS if lvl in rep.by_level]))
    details = [p for it in m.items if (p := _item_detail(it)) is not None]
    if details:
        console.rule("Feedback per answer")
        for p in details:
            console.print(p)
    if len(rep.history) > 1:
        console.print(
            _chart(
                "Your mock interviews so far", [(f"#{i} {at:%Y-%m-%d}", score) for i, at, score in rep.history[-10:]]
            )
        )
    if rep.study_plan:
        console.rule("Study plan")
        plan = Table.grid(padding=(0, 2))
        plan.add_column(no_wrap=True)
        plan.add_column()
        for p in rep.study_plan:
            plan.add_row(Text(p["name"], style="bold"), Text(f"score {p['score']:.0f}", style="dim"))
            for eid, title in p["entries"]:
                plan.add_row(Text(f"  {eid}", style="cyan"), Text(title))
        console.print(plan)
    else:
        console.print("[green]No weak topic in this interview: no study plan needed.[/]")
    console.print(
        f"{rep.cards_added} key-point flashcard(s) added from what you missed. "
        "Review them with: [bold]torchdojo study[/]"
    )
    for note in rep.notes:
        console.print(f"[dim]Note:[/] {escape(note)}")


# -- commands --------------------------------------------------------------------------------
@app.callback(invoke_without_command=True)
def mock(
    ctx: typer.Context,
    level: Annotated[str, typer.Option(help=f"one of {', '.join(LEVELS)}")] = "mid",
    minutes: Annotated[int | None, typer.Option(help="duration (5–240; default: the level's)")] = None,
    topic: Annotated[list[str] | None, typer.Option("--topic", help="topic slug; repeat for several")] = None,
    type_: Annotated[
        list[str] | None, typer.Option("--type", help=f"one of {', '.join(QUESTION_TYPES)}; repeatable")
    ] = None,
    per_item_minutes: Annotated[float | None, typer.Option(help="show a per-item countdown of X minutes")] = None,
    judge: Annotated[bool, typer.Option("--judge/--no-judge", help="coding items as judged challenges")] = True,
    seed: Annotated[int | None, typer.Option(help="seed for choosing the items")] = None,
    follow_ups: Annotated[bool | None, typer.Option(
        "--follow-ups/--no-follow-ups",
        help="after each prose answer the interviewer asks about its weakest point (default: on for mid and senior)",
    )] = None,
    resume: Annotated[bool, typer.Option("--resume", help="continue the newest running mock without asking")] = False,
    new: Annotated[bool, typer.Option("--new", help="start a new mock even if one is running")] = False,
) -> None:
    """Start a timed mock interview (or resume the running one); `mock report`, `mock history`."""
    if ctx.invoked_subcommand is not None:
        return
    from torchdojo.practice.mock import MockConfig, MockError

    if resume and new:
        raise _fail("--resume and --new exclude each other: choose one.")
    config = MockConfig(
        level=level,
        minutes=minutes,
        topics=tuple(topic) if topic else None,
        types=tuple(type_) if type_ else None,
        per_item_minutes=per_item_minutes,
        use_judge=judge,
        seed=seed,
        follow_ups=follow_ups,
    )
    d = None
    try:
        config.validate()
        if per_item_minutes is not None and per_item_minutes <= 0:
            raise MockError("--per-item-minutes must be more than 0")
        d = _dojo()
        _start(d, config, resume, new)
    except MockError as e:
        raise _fail(str(e)) from None
    except (KeyboardInterrupt, EOFError):
        console.print()
        raise typer.Exit(130) from None
    finally:
        if d is not None:
            _close_judge(d)


def _start(d, config, resume: bool, new: bool) -> None:
    running = None if new else d.mocks.active()
    if resume and running is None:
        newest = next(iter(d.mocks.list()), None)
        if newest is None or newest.status != "grading":
            console.print("No mock interview is running. Start one with: [bold]torchdojo mock[/]")
            raise typer.Exit(1)
        if newest.end_reason == "time-out":
            console.print(
                Panel(
                    f"[bold red]Time is up[/] for mock #{newest.id}: it ended at "
                    f"{newest.deadline:%H:%M} UTC. What you saved will be graded.",
                    border_style="red",
                )
            )
        return _run(d, newest.id, resumed=True)
    if running is not None and not resume:
        console.print(
            f"Mock #{running.id} ({running.level}, {running.counts()['answered']}/{len(running.items)} "
            f"answered) is still running: {_mmss(running.remaining_seconds())} left."
        )
        answer = console.input("Resume it? \\[Y/n] (n starts a new one) ").strip().lower()
        if answer in ("n", "no"):
            running = None
    if running is None:
        ungraded = [x.id for x in d.mocks.list() if x.status == "grading"]
        if ungraded:
            console.print(
                f"[dim]Not graded yet: mock #{ungraded[0]} — see it with: torchdojo mock report {ungraded[0]}[/]"
            )
        m = d.mocks.start(config)
        return _run(d, m.id, resumed=False)
    return _run(d, running.id, resumed=True)


@app.command()
def report(
    mock_id: Annotated[int | None, typer.Argument(help="mock id (default: the latest finished)")] = None,
) -> None:
    """The report of a finished mock interview (grades it first if needed)."""
    from torchdojo.practice.mock import MockError

    d = _dojo()
    try:
        if mock_id is None:
            latest = next((x for x in d.mocks.list() if x.status in ("graded", "grading")), None)
            if latest is None:
                console.print("No finished mock interview yet. Start one with: [bold]torchdojo mock[/]")
                raise typer.Exit(1)
            mock_id = latest.id
        m = d.mocks.get(mock_id)
        if m.status == "active":
            console.print(
                f"Mock #{m.id} is still running ({_mmss(m.remaining_seconds())} left). "
                "Continue it with: [bold]torchdojo mock --resume[/]"
            )
            raise typer.Exit(1)
        _grade(d, mock_id)
        _print_report(d, d.mocks.report(mock_id))
    except MockError as e:
        raise _fail(str(e)) from None
    finally:
        _close_judge(d)


@app.command()
def review(
    mock_id: Annotated[int | None, typer.Argument(help="mock id (default: the latest graded)")] = None,
) -> None:
    """Self-review a graded mock interview: confirm or change the machine's marks, then the report."""
    from torchdojo.cli.scorecards import review_mock
    from torchdojo.practice.mock import MockError

    d = _dojo()
    try:
        if mock_id is None:
            latest = next((x for x in d.mocks.list() if x.status == "graded"), None)
            if latest is None:
                console.print("No graded mock interview yet. Start one with: [bold]torchdojo mock[/]")
                raise typer.Exit(1)
            mock_id = latest.id
        _grade(d, mock_id)
        review_mock(d, mock_id)
        _print_report(d, d.mocks.report(mock_id))
    except MockError as e:
        raise _fail(str(e)) from None
    finally:
        _close_judge(d)


@app.command()
def history() -> None:
    """Your past mock interviews, newest first."""
    d = _dojo()
    mocks = d.mocks.list()
    if not mocks:
        console.print("No mock interview yet. Start one with: [bold]torchdojo mock[/]")
        return
    t = Table(title=f"{len(mocks)} mock interview(s)")
    for c in ("id", "date (UTC)", "level", "minutes", "items", "score", "end", "status"):
        t.add_column(c)
    for m in mocks:
        t.add_row(
            str(m.id),
            f"{m.started_at:%Y-%m-%d %H:%M}",
            m.level,
            str(m.minutes),
            str(len(m.items)),
            f"{m.score:.0f}" if m.score is not None else "—",
            m.end_reason or "",
            m.status,
        )
    console.print(t)
