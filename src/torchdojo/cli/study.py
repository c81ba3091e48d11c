"""``torchdojo study``, ``search``, ``show`` and ``topics``: the bank in the terminal."""

from __future__ import annotations

import time
from typing import Annotated

import typer
from rich.console import Console, Group
from rich.markup import escape
from rich.panel import Panel
from rich.prompt import Prompt
from rich.table import Table
from rich.text import Text

from torchdojo.bank.loader import Entry
from torchdojo.bank.taxonomy import LEVELS, QUESTION_TYPES, TOPICS
from torchdojo.cli.markdown import Markdown
from torchdojo.practice.flashcards import CardChangedError, CardStateError, Filters
from torchdojo.store.search import HL_END, HL_START

console = Console(highlight=False)

Level = Annotated[str | None, typer.Option(help=f"one of {', '.join(LEVELS)}")]
Topic = Annotated[str | None, typer.Option(help="a topic slug, e.g. autograd (list them: torchdojo topics)")]
Type = Annotated[str | None, typer.Option("--type", help=f"one of {', '.join(QUESTION_TYPES)}")]


def _filters(level: str | None, topic: str | None, type_: str | None) -> Filters:
    for value, allowed, name in ((level, LEVELS, "--level"), (topic, TOPICS, "--topic"), (type_, QUESTION_TYPES, "--type")):
        if value is not None and value not in allowed:
            raise typer.BadParameter(f"'{value}' is not one of: {', '.join(allowed)}", param_hint=name)
    return Filters(level=level, topic=topic, type=type_)


def _dojo():
    from torchdojo.core import Dojo

    return Dojo()


def _fmt(td) -> str:
    s = td.total_seconds()
    return f"{max(1, round(s / 60))}m" if s < 3600 else f"{round(s / 3600)}h" if s < 86400 else f"{round(s / 86400)}d"


def _front(e: Entry, remaining: int | None) -> Panel:
    """The front of a card; titled with the cards left in the session, or (``remaining`` None,
    ``torchdojo show``) with the entry's id."""
    m = e.meta
    sub = f"{m.level} · {m.type} · {', '.join(TOPICS[t] for t in m.topics)}"
    title = f"[dim]{remaining} left[/]" if remaining is not None else f"[bold cyan]{escape(e.id)}[/]"
    return Panel(Text(m.title, style="bold"), title=title, subtitle=sub, padding=(1, 2))


def _kp_prompt(e: Entry, kp) -> str:
    """The text of a follow-up of ``e`` that probes key point ``kp``, else a generic prompt."""
    for f in e.meta.follow_ups:
        if kp.id in f.probes and f.text:
            return f.text
    return f"Recall the key point about: {e.meta.title}"


def _kp_front(e: Entry, kp, remaining: int) -> Panel:
    """Front of a key-point card (a key point missed in a mock interview)."""
    m = e.meta
    body = Group(
        Text(m.title, style="bold"),
        Text("Key point you missed in a mock interview", style="yellow"),
        Text(""),
        Text(_kp_prompt(e, kp)),
    )
    sub = f"{m.level} · key-point card · {e.id}#{kp.id}"
    return Panel(body, title=f"[dim]{remaining} left[/]", subtitle=sub, padding=(1, 2))


def _kp_back(e: Entry, kp, full: bool) -> Group:
    weight = Text("●" * kp.weight + "○" * (3 - kp.weight), style="red")
    point = Text.assemble(weight, f"  {kp.text}", (f"  (weight {kp.weight}/3)", "dim"))
    parts = [
        Panel(point, title="The key point", border_style="cyan"),
        Panel(Text(e.meta.short_answer), title="In 20 seconds", border_style="green"),
    ]
    if full:
        parts.append(Panel(Markdown(e.body), title="Full answer"))
    return Group(*parts)


def _back(e: Entry, full: bool) -> Group:
    m = e.meta
    if m.type == "own":  # an own card (torchdojo cards add): its back and key points, nothing else
        parts = [Panel(Markdown(e.body or "(no back)"), title="Your answer", border_style="green")]
        if m.key_points:
            parts.append(Panel("\n".join(f"• {k.text}" for k in m.key_points), title="Key points", border_style="cyan"))
        return Group(*parts)
    parts = [Panel(m.short_answer, title="In 20 seconds", border_style="green")]
    kp = Table.grid(padding=(0, 1))
    for k in m.key_points:
        kp.add_row(Text("●" * k.weight + "○" * (3 - k.weight), style="red"), k.text)
    parts.append(Panel(kp, title="Key points", border_style="cyan"))
    mis = "\n".join(f"✗ {x.claim}\n  ✓ {x.correction}" for x in m.misconceptions)
    parts.append(Panel(mis, title="Misconceptions", border_style="yellow"))
    if full:
        parts.append(Panel(Markdown(e.body), title="Full answer"))
    return Group(*parts)


def study(level: Level = None, topic: Topic = None, type_: Type = None,
          full: Annotated[bool, typer.Option(help="also show the full answer when revealing")] = False) -> None:
    """Review due flashcards (FSRS) in the terminal: reveal, then rate 1 Again … 4 Easy.

    Keys at either prompt: u undo the last rating (the card is shown again), - bury (back
    tomorrow), ! suspend (until `torchdojo config`/the web unsuspends it), q quit."""
    f = _filters(level, topic, type_)
    d = _dojo()
    done = 0
    again: str | None = None  # a card to show next (the one just undone)
    while True:
        queue = d.flashcards.queue(f)
        if again is None and not queue:
            console.print(f"[bold green]All caught up.[/] {done} card(s) reviewed this session. "
                          "([bold]u[/] at a prompt undoes the last rating; run study again to use it.)")
            return
        card_id, again = again or queue[0], None
        e, kp = d.flashcards.card(card_id)
        console.rule()
        console.print(_front(e, len(queue)) if kp is None else _kp_front(e, kp, len(queue)))
        shown = time.monotonic()
        try:
            seen = d.flashcards.status(card_id).version
        except CardStateError as err:
            console.print(f"[red]{escape(str(err))}[/]")
            raise typer.Exit(1) from None
        key = Prompt.ask("[bold]Enter[/] to reveal · [bold]u[/] undo · [bold]-[/] bury · [bold]![/] suspend · "
                         "[bold]q[/] quit", default="", show_default=False).strip().lower()
        if key == "q":
            console.print(f"{done} card(s) reviewed. Progress is saved.")
            return
        if key in _ACTIONS:
            again, n = _action(d, key, card_id)
            done = max(0, done + n)
            continue
        console.print(_back(e, full) if kp is None else _kp_back(e, kp, full))
        pv = d.flashcards.preview(card_id)
        choices = {"1": "again", "2": "hard", "3": "good", "4": "easy"}
        legend = "  ".join(f"[bold]{k}[/] {v.capitalize()} ({_fmt(pv[v])})" for k, v in choices.items())
        answer = Prompt.ask(f"{legend}   [bold]u[/] undo  [bold]-[/] bury  [bold]![/] suspend  [bold]q[/] quit",
                            choices=[*choices, *_ACTIONS, "q"], show_choices=False)
        if answer == "q":
            console.print(f"{done} card(s) reviewed. Progress is saved.")
            return
        if answer in _ACTIONS:
            again, n = _action(d, answer, card_id)
            done = max(0, done + n)
            continue
        try:
            status = d.flashcards.review(card_id, choices[answer], seen=seen,
                                         duration_ms=int((time.monotonic() - shown) * 1000))
        except CardChangedError as err:
            console.print(f"[yellow]{escape(str(err))}[/] (rated in another window?) Showing the next card.")
            continue
        done += 1
        console.print(f"[green]Saved {choices[answer].capitalize()}[/]: next review {status.due:%Y-%m-%d %H:%M} UTC")


_ACTIONS = ("u", "-", "!")


def _action(d, key: str, card_id: str) -> tuple[str | None, int]:
    """Undo (u), bury (-) or suspend (!) from a study prompt: (card to show next, change to the
    count of cards reviewed this session)."""
    if key == "u":
        undone = d.flashcards.undo()
        if undone is None:
            console.print("[yellow]Nothing to undo.[/]")
            return card_id, 0
        name = {1: "Again", 2: "Hard", 3: "Good", 4: "Easy"}[undone.rating]
        console.print(f"[green]Undone[/]: {name} on {escape(undone.card_id)}. Here it is again.")
        return undone.card_id, -1
    if key == "-":
        until = d.flashcards.bury(card_id)
        console.print(f"[green]Buried[/] until {until:%Y-%m-%d %H:%M} UTC.")
    else:
        d.flashcards.suspend(card_id)
        console.print("[green]Suspended[/]: it stays out of the queue until you unsuspend it.")
    return None, 0


def search(query: Annotated[str, typer.Argument(help="words to find in titles and answers")],
           level: Level = None, topic: Topic = None, type_: Type = None,
           limit: Annotated[int, typer.Option(help="most results to show")] = 20,
           fast: Annotated[bool, typer.Option("--fast", help="rank by words only (BM25 with typo correction): "
                                              "no model to load")] = False) -> None:
    """Search the bank: words (BM25, typo-tolerant) and meaning (MiniLM), fused; a table.

    Natural questions, pasted error messages and API names all work. The first search on a new
    bank computes the entries' embeddings (a minute; cached)."""
    f = _filters(level, topic, type_)
    d = _dojo()
    dense = None
    if not fast and d.settings.search_dense:
        from torchdojo.grading.model import ModelUnavailable

        with console.status("Loading the model that ranks by meaning (--fast skips it)…"):
            try:
                dense = d.local_dense_ranker()
            except ModelUnavailable as err:
                console.print(f"[yellow]{escape(str(err))}[/] Ranking by words only.")
    rows, found = d.search(query, f, dense)
    results = rows[:limit]
    if found.did_you_mean:
        console.print(f"Did you mean [bold]{escape(found.did_you_mean)}[/]? Results include it.")
    if not results:
        console.print(f"No question matches '{escape(query)}'. Try other words or drop a filter.")
        raise typer.Exit(1)
    table = Table(title=f"{len(results)} result(s) for '{escape(query)}'", show_lines=False)
    table.add_column("id", style="cyan", no_wrap=True)
    table.add_column("level")
    table.add_column("title / match")
    for e, hit in results:
        snippet = Text()
        if hit:
            for i, part in enumerate(hit.snippet.replace(HL_END, HL_START).split(HL_START)):
                snippet.append(part.replace("\n", " "), style="bold yellow" if i % 2 else "dim")
        table.add_row(e.id, e.meta.level, Text.assemble((e.meta.title, "bold"), "\n", snippet))
    console.print(table)


def show(entry_id: Annotated[str, typer.Argument(help="the entry id, e.g. view-reshape-contiguous")]) -> None:
    """Print one question with its full answer."""
    d = _dojo()
    e = d.bank.get(entry_id)
    if e is None:
        console.print(f"No entry '{escape(entry_id)}'. Find ids with: torchdojo search WORDS")
        raise typer.Exit(1)
    console.print(_front(e, None))
    console.print(_back(e, full=True))


def topics() -> None:
    """The topic slugs that --topic takes, with how many questions and challenges each has."""
    from torchdojo.bank.taxonomy import topic_counts

    d = _dojo()
    questions = topic_counts(e.meta.topics for e in d.bank)
    challenges = topic_counts(ch.meta.topics for ch in d.challenges.values())
    table = Table(title=f"{len(TOPICS)} topics")
    table.add_column("slug (--topic)", style="cyan", no_wrap=True)
    table.add_column("topic")
    table.add_column("questions", justify="right")
    table.add_column("challenges", justify="right")
    for slug, name in TOPICS.items():
        table.add_row(slug, name, str(questions[slug]), str(challenges[slug]))
    console.print(table)
