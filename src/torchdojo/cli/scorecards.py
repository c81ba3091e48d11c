"""Scorecards in the terminal: self-review of one answer (after ``torchdojo answer`` and a mock
interview), ``torchdojo scorecards agreement`` and ``torchdojo scorecards export``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.prompt import Prompt
from rich.table import Table
from rich.text import Text

from torchdojo.grading.feedback import BANDS
from torchdojo.practice.scorecards import MARKS, ScorecardError

console = Console(highlight=False)
app = typer.Typer(help="Rubric scorecards: agreement of the machine with people, and export.", no_args_is_help=True)

REVIEW_HELP = ("[bold]Enter[/] accepts the machine's proposals for the lines you did not mark and finishes this answer; "
               "[bold]<line> <mark>[/] sets one line (e.g. [bold]2 3[/]: line 2, mark 3; key points: 1 covered, "
               "2 partly, 3 missed, 4 wrong; misconceptions: 1 not-stated, 2 stated; STAR: 1 present, 2 absent); "
               "[bold]s[/] skips the rest of the review.")


def scorecard_table(sc, title: str = "") -> Table:
    """The scorecard's lines: what the machine proposed (with its evidence) and the mark set."""
    t = Table(title=title or None, show_lines=True, expand=True)
    t.add_column("#", justify="right", no_wrap=True)
    t.add_column("line", ratio=5)
    t.add_column("machine", ratio=3)
    t.add_column("mark", no_wrap=True)
    for ln in sc.lines:
        label = Text(("●" * ln.weight + "○" * (3 - ln.weight) + " ") if ln.kind == "key-point" else f"[{ln.kind}] ")
        label.append(ln.label)
        machine = Text(ln.proposal or "no proposal", style="dim" if ln.proposal_uncertain or not ln.proposal else "")
        if ln.proposal_uncertain and ln.proposal:
            machine.append(" (unsure)", style="yellow")
        if ln.evidence:
            machine.append(f"\n“{' '.join(ln.evidence[2].split())[:120]}”", style="italic dim")
        mark = Text(ln.mark or "—", style="bold green" if ln.mark else "dim")
        if ln.mark and ln.marked_by:
            mark.append(f"\n{ln.marked_by}", style="dim")
        t.add_row(str(ln.position + 1), label, machine, mark)
    return t


def _head(sc) -> str:
    cur = sc.current
    if sc.final:
        return f"confirmed score {sc.score}/100 ({BANDS[sc.band]})" if sc.score is not None else "not scored"
    if cur is None:
        return "not scored yet: the machine proposed nothing it trusts, mark the lines yourself"
    return f"so far {cur[0]}/100 ({BANDS[cur[1]]}), unconfirmed"


def review_one(d, scorecard_id: int, title: str, ask=None) -> str:
    """Review one scorecard at the prompt until it is final. Returns ``done`` or ``skip`` (the
    person typed s). Each mark is committed as it is typed."""
    ask = ask or (lambda: Prompt.ask("review > ", default="", show_default=False, console=console))
    while True:
        sc = d.scorecards.get(scorecard_id)
        if sc.final:
            return "done"
        console.print(scorecard_table(sc, title))
        console.print(escape(_head(sc)))
        if sc.grader_error:
            console.print(f"[red]The grader failed:[/] {escape(sc.grader_error)} — mark each line yourself.")
        elif sc.machine_uncertain:
            console.print("[yellow]The machine is unsure about this answer:[/] its proposals are shown, not scored.")
        cmd = ask().strip().lower()
        try:
            if cmd == "s":
                return "skip"
            if cmd in ("", "a", "accept"):
                left = d.scorecards.accept_all(sc.id)
                if left:
                    console.print(f"[yellow]Mark line(s) {', '.join(str(p + 1) for p in left)} yourself:[/] the machine "
                                  "had no proposal for them.")
                    continue
                sc = d.scorecards.finalize(sc.id)
                console.print(f"[green]Saved:[/] {escape(_head(sc))}")
                return "done"
            parts = cmd.split()
            if len(parts) == 2 and parts[0].isdigit():
                d.scorecards.set_mark(sc.id, int(parts[0]) - 1, parts[1])
            else:
                console.print(REVIEW_HELP)
        except ScorecardError as e:
            console.print(f"[red]{escape(str(e))}[/]")


def review_mock(d, mock_id: int, ask=None) -> None:
    """The self-review after a mock interview (before its report); ``s`` skips the rest."""
    m = d.mocks.get(mock_id)
    pairs = d.mocks.review_items(mock_id)
    if m.status != "graded" or d.mocks.review_state(m) != "pending" or not pairs:
        return
    console.rule("[bold]Self-review[/]: confirm or change the machine's marks")
    console.print(REVIEW_HELP)
    for n, (item, sc) in enumerate(pairs, 1):
        if sc.final:
            continue
        console.print(f"\n[bold]{n}/{len(pairs)}[/] {escape(item.title)}")
        console.print(Text(f"Your answer: {item.answer}", style="italic"))
        if review_one(d, sc.id, f"Scorecard {n}/{len(pairs)}", ask) == "skip":
            d.mocks.finish_review(mock_id, skipped=True)
            console.print("Review skipped: the report shows the machine's estimates, labelled unconfirmed.")
            return
    d.mocks.finish_review(mock_id)


@app.command()
def agreement() -> None:
    """How often the machine's proposed marks matched what people confirmed (per line kind, with
    a confusion matrix, and per answer band with quadratic weighted kappa)."""
    from torchdojo.core import Dojo

    ag = Dojo().scorecards.agreement()
    console.print(f"{ag['scorecards']} final scorecard(s).")
    if not ag["per_kind"]:
        console.print("No confirmed marks yet: review an answer (torchdojo answer, a mock interview, the web app).")
        return
    for kind, k in ag["per_kind"].items():
        t = Table(title=f"{kind}: {100 * k['accuracy']:.1f} % agreement ({k['agree']} of {k['n']})")
        t.add_column("person ↓ / machine →")
        for c in MARKS[kind]:
            t.add_column(c, justify="right")
        for a in MARKS[kind]:
            t.add_row(a, *[str(k["confusion"].get((a, b), 0)) for b in MARKS[kind]])
        console.print(t)
    if ag["uncertain"]["n"]:
        console.print(f"Unsure proposals: {ag['uncertain']['n']}, {100 * ag['uncertain']['accuracy']:.1f} % matched.")
    b = ag["bands"]
    if b["n"]:
        console.print(f"Per answer band: {100 * b['accuracy']:.1f} % exact over {b['n']} answer(s), QWK {b['qwk']:.2f}; "
                      f"{b['no_estimate']} without a machine estimate left out.")


@app.command()
def export(out: Annotated[Path | None, typer.Option("--out", "-o", help="file to write (default: standard output)")] = None) -> None:
    """Write every final scorecard marked by a person as JSON Lines (entry, answer, marks with the
    machine's proposal beside each, who marked, score): labelled data for the grader."""
    from torchdojo.core import Dojo

    lines = list(Dojo().scorecards.export_jsonl())
    if out is None:
        for x in lines:
            sys.stdout.write(x + "\n")
    else:
        out.write_text("".join(x + "\n" for x in lines), encoding="utf-8")
        console.print(f"Wrote {len(lines)} scorecard(s) to {escape(str(out))}.")
