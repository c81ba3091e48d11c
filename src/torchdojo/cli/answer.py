"""``torchdojo answer ENTRY_ID``: answer one question in the terminal and get it graded.

Outside a mock interview: no clock, nothing stored. The answer is typed (end it with a line
containing only ``.``, as in ``torchdojo mock``) or read from ``--file``, graded in this process by
``dojo.grader`` and shown with the mock report's per-answer rendering
(:func:`torchdojo.cli.mock.feedback_panel`).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.text import Text

from torchdojo.bank.taxonomy import TOPICS

console = Console(highlight=False)


def _dojo():
    from torchdojo.core import Dojo

    return Dojo()


def _read_typed() -> str:
    """Lines typed until one containing only ``.`` (or end of input)."""
    console.print("Type your answer. End it with a line containing only [bold].[/]")
    lines: list[str] = []
    while True:
        try:
            line = console.input("| ")
        except EOFError:
            break
        if line.strip() == ".":
            break
        lines.append(line)
    return "\n".join(lines)


def answer(
    entry_id: Annotated[str, typer.Argument(help="the question's id, e.g. what-is-autograd (see `torchdojo search`)")],
    file: Annotated[
        Path | None, typer.Option("--file", "-f", help="read the answer from this file instead of the terminal")
    ] = None,
    review: Annotated[bool | None, typer.Option(
        "--review/--no-review", help="confirm or change the machine's marks afterwards (default: in a terminal)")] = None,
) -> None:
    """Answer one question and get feedback: key points made and missed, misconceptions, a follow-up.

    The answer is kept with its rubric scorecard; in a terminal you then confirm or change the
    machine's marks (self-review; --no-review skips it). Exit status: 0 graded, 1 could not be
    graded, 2 unknown id or unreadable file, 130 interrupted.
    """
    from torchdojo.cli.mock import feedback_panel

    d = _dojo()
    entry = d.bank.get(entry_id)
    if entry is None and entry_id.startswith("own:"):  # an own card: graded on its key points (kp1…kpN)
        from torchdojo.practice.flashcards import UnknownEntryError

        try:
            entry = d.flashcards.card(entry_id)[0]
        except UnknownEntryError:
            entry = None
        if entry is not None and not entry.meta.key_points:
            console.print(f"[red]Own card '{escape(entry_id)}' has no key points, so an answer to it cannot be graded:[/] "
                          f"rate yourself in review, or add some: torchdojo cards edit {escape(entry_id)} --key-point …")
            raise typer.Exit(2)
    if entry is None:
        console.print(f"[red]No question with id '{escape(entry_id)}'.[/] Find ids with: torchdojo search WORDS")
        raise typer.Exit(2)
    text = ""
    if file is not None:
        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            console.print(f"[red]Cannot read the answer from {escape(str(file))}:[/] {escape(str(e))}")
            raise typer.Exit(2) from None
    m = entry.meta
    sub = f"{m.level or 'any level'} · {m.type} · {', '.join(TOPICS.get(t, t) for t in m.topics)}"
    console.print(Panel(Text(m.title, style="bold"), title=Text(entry.id), subtitle=Text(sub), padding=(1, 2)))
    if file is not None:
        console.print(Text(f"Answer read from {file}:"))
        console.print(Panel(Text(text), title=Text(f"your answer ({len(text)} characters)"), border_style="green"))
    else:
        try:
            text = _read_typed()
        except KeyboardInterrupt:
            console.print()
            raise typer.Exit(130) from None
    try:
        with console.status("loading the answer grader… (the first time this loads a sentence-embedding model)") as st:
            grader = d.grader
            warm_up = getattr(grader, "warm_up", None)
            if callable(warm_up):
                warm_up()
            st.update("grading your answer…")
            fb = grader.grade(entry, text)
    except KeyboardInterrupt:
        console.print()
        raise typer.Exit(130) from None
    except Exception as e:  # a missing model, a grader bug: say so, never a made-up score
        console.print(f"[red]Could not grade the answer:[/] {type(e).__name__}: {escape(str(e))}")
        raise typer.Exit(1) from None
    console.print(feedback_panel(text, fb, Text(f"Feedback · {m.title}"), what="answer"))
    sid = d.scorecards.create(entry.id, text, fb, context="practice")
    if review is None:
        review = sys.stdin.isatty()
    if review and text.strip():
        from torchdojo.cli.scorecards import REVIEW_HELP, review_one

        console.rule("[bold]Self-review[/]: confirm or change the machine's marks")
        console.print(REVIEW_HELP)
        try:
            review_one(d, sid, "Your scorecard")
        except (KeyboardInterrupt, EOFError):
            console.print("\nStopped: the marks you set are saved.")
    where = "torchdojo cards list --own" if m.type == "own" else f"torchdojo show {escape(entry.id)}"
    console.print(f"[dim]Your answer is saved with scorecard #{sid}. The model answer: [bold]{where}[/][/]")
    if fb.error:
        raise typer.Exit(1)
