"""``torchdojo interview …``: interviewer mode in the terminal (list, export).

Interviews are run from the web app's kit sheet (``torchdojo serve``, then Interviewer); this
face lists them and exports a scorecard as Markdown or PDF through
:class:`torchdojo.practice.interviews.Interviews` — the same calls the web export makes.
"""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

app = typer.Typer(help="Interviewer mode: list interviews and export their scorecards (Markdown, PDF).",
                  no_args_is_help=True)
console = Console(highlight=False)
err = Console(stderr=True, highlight=False)


class Format(StrEnum):
    md = "md"
    pdf = "pdf"


def _dojo():
    from torchdojo.core import Dojo

    return Dojo()


@app.command("list")
def list_() -> None:
    """Every interview, newest first: candidate, level, status, recommendation, lines marked."""
    ivs = _dojo().interviews.list()
    if not ivs:
        console.print("No interview yet. Build a kit in the browser: [bold]torchdojo serve[/], then Interviewer.")
        return
    t = Table(title=f"{len(ivs)} interview(s)")
    for c in ("id", "date (UTC)", "candidate", "interviewer", "level", "questions", "marked", "status",
              "recommendation"):
        t.add_column(c)
    for iv in ivs:
        done, total = iv.marked
        t.add_row(str(iv.id), f"{iv.created_at:%Y-%m-%d %H:%M}", escape(iv.candidate or "—"),
                  escape(iv.interviewer or "—"), iv.level, str(len(iv.questions)), f"{done}/{total}",
                  iv.status, iv.recommendation or "—")
    console.print(t)


@app.command()
def export(
    interview_id: Annotated[int, typer.Argument(help="the interview's id (see `torchdojo interview list`)")],
    format: Annotated[Format, typer.Option("--format", "-f", help="md (Markdown) or pdf")] = Format.md,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="file to write (default: Markdown to the "
                                             "terminal, PDF to interview-ID.pdf)")] = None,
) -> None:
    """Export an interview's scorecard: candidate, interviewer, date, level, the overall
    recommendation and notes, then every question's marks, notes, score and band."""
    from torchdojo.practice.interviews import InterviewError

    ivs = _dojo().interviews
    try:
        if format is Format.md:
            text = ivs.markdown(interview_id)
            if out is None:
                sys.stdout.write(text)
                return
            data = text.encode("utf-8")
        else:
            data = ivs.pdf(interview_id)
            out = out or Path(f"interview-{interview_id}.pdf")
    except InterviewError as e:
        err.print(f"[red]error:[/] {escape(str(e))}. List interviews with: torchdojo interview list")
        raise typer.Exit(1) from None
    try:
        out.write_bytes(data)
    except OSError as e:
        err.print(f"[red]error:[/] cannot write {escape(str(out))}: {escape(e.strerror or str(e))}")
        raise typer.Exit(1) from None
    console.print(f"Wrote {escape(str(out))} ({len(data):,} bytes).")
