"""Export and backup in the terminal: ``torchdojo export anki|reviews``, ``torchdojo backup``
and ``torchdojo restore`` (thin: the work is :class:`torchdojo.practice.export.StudyData`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.prompt import Confirm

console = Console(highlight=False)
app = typer.Typer(help="Export your study data: an Anki deck, or the review log for FSRS tools.",
                  no_args_is_help=True)

Out = Annotated[Path, typer.Option("--out", "-o", help="file to write", dir_okay=False)]


def _fail(message: str) -> None:
    console.print(f"[red]{escape(message)}[/]")
    raise typer.Exit(1)


def _write(path: Path, data: bytes | str) -> None:
    try:
        if isinstance(data, str):
            path.write_text(data, encoding="utf-8", newline="")
        else:
            path.write_bytes(data)
    except OSError as e:
        _fail(f"{path}: cannot write: {e.strerror or e}")


@app.command()
def anki(out: Out,
         topic: Annotated[list[str] | None, typer.Option("--topic", "-t", help="only this topic (repeatable; default: all)")] = None,
         level: Annotated[list[str] | None, typer.Option("--level", "-l", help="only this level: junior, mid, senior (repeatable)")] = None,
         own: Annotated[bool, typer.Option("--own", help="add your own cards")] = False) -> None:
    """Write an Anki deck (.apkg): one note per question (front: the title, level and topics;
    back: the short answer and key points). Re-importing a newer export updates the notes."""
    from torchdojo.core import Dojo
    from torchdojo.practice.export import ExportError
    from torchdojo.web.markdown import pygments_css, render

    d = Dojo()
    try:
        data, n = d.data.anki_package(render, topics=topic or (), levels=level or (), own=own, css=pygments_css())
    except ExportError as e:
        _fail(str(e))
    _write(out, data)
    console.print(f"Wrote {n} notes to {escape(str(out))} (Anki: File → Import).")


@app.command()
def reviews(out: Out) -> None:
    """Write the review log as CSV for FSRS tools (fsrs-optimizer's columns: card_id,
    review_time in ms UTC, review_rating, review_state, review_duration in ms; then
    torchdojo_card_id, the card each integer card_id stands for)."""
    from torchdojo.core import Dojo

    text = Dojo().data.reviews_csv()
    _write(out, text)
    console.print(f"Wrote {text.count(chr(10)) - 1} review(s) to {escape(str(out))}.")


def backup(out: Out) -> None:
    """Write a full backup of your study data (cards, review log, mocks, scorecards, interviews,
    submissions, notes, own cards, settings) as one JSON file."""
    from torchdojo.core import Dojo

    text = Dojo().data.backup_json()
    _write(out, text)
    console.print(f"Wrote the backup to {escape(str(out))} ({len(text.encode()):,} bytes).")


def restore(file: Annotated[Path, typer.Argument(help="a backup written by `torchdojo backup`", dir_okay=False)],
            replace: Annotated[bool, typer.Option("--replace", help="delete the study data here first")] = False,
            yes: Annotated[bool, typer.Option("--yes", "-y", help="do not ask before replacing")] = False) -> None:
    """Restore a backup. The whole file is checked first and written in one transaction (all or
    nothing); into a database that already holds data only with --replace (asks first unless --yes)."""
    from torchdojo.core import Dojo
    from torchdojo.store.backup import BackupError

    try:
        data = file.read_bytes()
    except OSError as e:
        _fail(f"{file}: cannot read: {e.strerror or e}")
    d = Dojo()
    if replace and not yes and not Confirm.ask(
            "Replace ALL study data in this database with the backup? This cannot be undone", console=console,
            default=False):
        _fail("Nothing changed.")
    try:
        result = d.data.restore(data, replace=replace)
    except BackupError as e:
        _fail(f"{file}: {e}. Nothing changed.")
    rep = result.report
    deleted = f" ({rep.deleted} row(s) deleted first)" if rep.deleted else ""
    console.print(f"Restored {rep.total} row(s) from {escape(str(file))}{deleted}: "
                  + ", ".join(f"{n} {t}" for t, n in rep.rows.items() if n) + ".")
    if result.problems:
        for p in result.problems:
            console.print(f"[yellow]card {escape(p.card_id)}[/]: {escape(p.problem)}")
        console.print(f"{len(result.problems)} card(s) differ from their review log: run `torchdojo doctor`.")
        raise typer.Exit(1)
    console.print("[green]ok[/]  every card equals the replay of its review log.")
