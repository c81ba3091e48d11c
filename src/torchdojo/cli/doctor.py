"""``torchdojo doctor``: check the database and rebuild what can be re-derived."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

console = Console(highlight=False)


def doctor(dry_run: Annotated[bool, typer.Option("--dry-run", help="only report; change nothing")] = False) -> None:
    """Check the database: SQLite integrity (skipped on PostgreSQL), schema revision, and every
    flashcard's FSRS state against a replay of its review log. Cards that differ or hold an
    impossible state are rebuilt from their log (unless --dry-run). Exit 0 when everything is
    (now) fine, 1 otherwise, 2 when the database cannot be opened at all."""
    from torchdojo.core import Dojo
    from torchdojo.store.db import DatabaseError

    try:
        d = Dojo()
    except DatabaseError as e:
        console.print(f"[red]FAIL[/]  database: {escape(str(e))}")
        raise typer.Exit(2) from None
    findings, problems = d.doctor(repair=not dry_run)
    bad = False
    for f in findings:
        mark = "[green]ok[/]" if f.ok else "[red]FAIL[/]"
        console.print(f"{mark}  {escape(f.check)}: {escape(f.detail)}")
        bad |= not f.ok
    if not problems:
        console.print("[green]ok[/]  flashcards: every card equals the replay of its review log")
    for p in problems:
        verb = "[yellow]repaired[/]" if p.repaired else "[red]wrong[/]"
        console.print(f"{verb}  card {escape(p.card_id)}: {escape(p.problem)}")
    if problems:
        n = len(problems)
        if dry_run:
            console.print(f"{n} card(s) differ from their review log; run without --dry-run to rebuild them.")
            bad = True
        else:
            console.print(f"{n} card(s) rebuilt from their review log.")
    raise typer.Exit(1 if bad else 0)
