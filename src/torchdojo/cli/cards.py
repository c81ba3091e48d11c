"""``torchdojo cards …`` (the card browser and own cards), ``torchdojo note`` and ``torchdojo bookmark``.

Thin over the core: :func:`torchdojo.practice.card_browser.list_cards`,
:class:`torchdojo.practice.own_cards.OwnCards`, :class:`torchdojo.practice.notes.Notes`. A bad
value exits 2 with a message naming the field; an unknown card exits 2 too.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

console = Console(highlight=False)
err = Console(stderr=True, highlight=False)
app = typer.Typer(help="Browse every card; add, edit and delete your own cards.", no_args_is_help=True)


def _dojo():
    from torchdojo.core import Dojo

    return Dojo()


def _fail(message: str) -> typer.Exit:
    err.print(f"[red]{escape(message)}[/]")
    return typer.Exit(2)


@app.command("list")
def list_(
    q: Annotated[str, typer.Option("--q", "-q", help="text in the title or front (or the id)")] = "",
    topic: Annotated[str, typer.Option(help="a topic slug, e.g. autograd")] = "",
    level: Annotated[str, typer.Option(help="junior, mid or senior")] = "",
    state: Annotated[str, typer.Option(help="new, learning, review, relearning, suspended or buried")] = "",
    bookmarked: Annotated[bool, typer.Option("--bookmarked", help="only bookmarked cards")] = False,
    own: Annotated[bool, typer.Option("--own", help="only your own cards")] = False,
    sort: Annotated[str, typer.Option(help="due, stability, difficulty, lapses, reviews, retrievability or id")] = "due",
    desc: Annotated[bool, typer.Option("--desc", help="largest first")] = False,
    page: Annotated[int, typer.Option(help="page of 50 cards")] = 1,
) -> None:
    """List cards (bank, key-point and own cards) with their FSRS state, reviews and lapses."""
    from torchdojo.practice.card_browser import CardQueryError, parse_query

    d = _dojo()
    try:
        query = parse_query({"q": q, "topic": topic, "level": level, "state": state, "bookmarked": "1" if bookmarked else "",
                             "own": "1" if own else "", "sort": sort, "order": "desc" if desc else "asc",
                             "page": str(page)})
        result = d.cards(query)
    except CardQueryError as e:
        raise _fail(f"--{e.field}: {e.message}") from None
    t = Table(title=f"{result.total} card(s) · page {result.page} of {result.pages}", expand=True)
    for col, kw in (("card", {"ratio": 3}), ("title", {"ratio": 5}), ("state", {}), ("due (UTC)", {"no_wrap": True}),
                    ("S (d)", {"justify": "right"}), ("D", {"justify": "right"}), ("R", {"justify": "right"}),
                    ("reviews", {"justify": "right"}), ("lapses", {"justify": "right"})):
        t.add_column(col, **kw)
    for c in result.cards:
        t.add_row(("★ " if c.bookmarked else "") + escape(c.card_id), escape(c.title[:120]), c.state,
                  c.due.strftime("%Y-%m-%d %H:%M") if c.due else "—",
                  f"{c.stability:.1f}" if c.stability is not None else "—",
                  f"{c.difficulty:.1f}" if c.difficulty is not None else "—",
                  f"{100 * c.retrievability:.0f}%" if c.retrievability is not None else "—",
                  str(c.reviews), str(c.lapses))
    console.print(t)


def _key_points(values: list[str] | None) -> list[str]:
    return list(values or [])


@app.command("add")
def add(
    front: Annotated[str, typer.Option(help="the question (Markdown)")],
    back: Annotated[str, typer.Option(help="the answer (Markdown)")] = "",
    key_point: Annotated[list[str] | None, typer.Option("--key-point", "-k",
                                                        help="a key point answers are graded on (repeat it)")] = None,
    topic: Annotated[str, typer.Option(help="a topic slug, e.g. autograd")] = "",
    level: Annotated[str, typer.Option(help="junior, mid or senior")] = "",
) -> None:
    """Write your own card; it enters the review queue as a new card."""
    from torchdojo.practice.own_cards import OwnCardError

    d = _dojo()
    try:
        card = d.own_cards.create(front, back, _key_points(key_point), topic, level)
    except OwnCardError as e:
        raise _fail(f"--{'key-point' if e.field == 'key_points' else e.field}: {e.message}") from None
    console.print(f"Created [bold]{card.card_id}[/]: it is in the review queue as a new card "
                  f"(torchdojo study; torchdojo cards edit {card.card_id}).")


@app.command("edit")
def edit(
    card_id: Annotated[str, typer.Argument(help="own:<n> (see torchdojo cards list --own)")],
    front: Annotated[str | None, typer.Option(help="the new question (Markdown)")] = None,
    back: Annotated[str | None, typer.Option(help="the new answer (Markdown)")] = None,
    key_point: Annotated[list[str] | None, typer.Option("--key-point", "-k",
                                                        help="replace the key points (repeat it)")] = None,
    clear_key_points: Annotated[bool, typer.Option("--clear-key-points", help="remove every key point")] = False,
    topic: Annotated[str | None, typer.Option(help="a topic slug ('' for none)")] = None,
    level: Annotated[str | None, typer.Option(help="junior, mid or senior ('' for none)")] = None,
) -> None:
    """Change an own card; fields not given keep their value. Its schedule and reviews are kept."""
    from torchdojo.practice.own_cards import OwnCardError, UnknownOwnCardError

    d = _dojo()
    try:
        card = d.own_cards.get(card_id)
    except UnknownOwnCardError as e:
        raise _fail(str(e)) from None
    if all(v is None for v in (front, back, key_point, topic, level)) and not clear_key_points:
        raise _fail("nothing to change: give --front, --back, --key-point, --clear-key-points, --topic or --level")
    kps = [] if clear_key_points else (key_point if key_point is not None else list(card.key_points))
    try:
        d.own_cards.update(card.id, front if front is not None else card.front, back if back is not None else card.back,
                           kps, topic if topic is not None else card.topic, level if level is not None else card.level)
    except OwnCardError as e:
        raise _fail(f"--{'key-point' if e.field == 'key_points' else e.field}: {e.message}") from None
    console.print(f"Saved {card.card_id}.")


@app.command("rm")
def rm(
    card_id: Annotated[str, typer.Argument(help="own:<n>")],
    yes: Annotated[bool, typer.Option("--yes", "-y", help="do not ask")] = False,
) -> None:
    """Delete an own card with its schedule, review log and note (asks first)."""
    from torchdojo.practice.own_cards import UnknownOwnCardError

    d = _dojo()
    try:
        card = d.own_cards.get(card_id)
    except UnknownOwnCardError as e:
        raise _fail(str(e)) from None
    reviews = len(d.flashcards.history([card.card_id]))
    if not yes and not typer.confirm(f"Delete {card.card_id} ({card.title[:60]!r}) and its {reviews} review(s)?"):
        console.print("Kept.")
        raise typer.Exit(1)
    d.own_cards.delete(card.id)
    console.print(f"Deleted {card.card_id} and its {reviews} review(s).")


def note(
    card_id: Annotated[str, typer.Argument(help="a card id: an entry id, <entry>#<key point> or own:<n>")],
    text: Annotated[str | None, typer.Argument(help="the note (Markdown); none: show the note")] = None,
    clear: Annotated[bool, typer.Option("--clear", help="delete the note")] = False,
) -> None:
    """Show, save or clear your note on a card."""
    from torchdojo.practice.notes import NoteError, UnknownCardError

    d = _dojo()
    try:
        if clear:
            d.notes.clear(card_id)
            console.print(f"Note on {escape(card_id)} cleared.")
        elif text is not None:
            d.notes.save(card_id, text)
            console.print(f"Note on {escape(card_id)} saved.")
        else:
            n = d.notes.get(card_id)
            if not d.notes.exists(card_id):
                raise UnknownCardError(card_id)
            console.print(escape(n.text) if n.text else f"[dim]No note on {escape(card_id)}.[/]")
    except (UnknownCardError, NoteError) as e:
        raise _fail(str(e)) from None


def bookmark(card_id: Annotated[str, typer.Argument(help="a card id: an entry id, <entry>#<key point> or own:<n>")]) -> None:
    """Bookmark a card, or remove its bookmark (list them: torchdojo cards list --bookmarked)."""
    from torchdojo.practice.notes import UnknownCardError

    d = _dojo()
    try:
        n = d.notes.toggle_bookmark(card_id)
    except UnknownCardError as e:
        raise _fail(str(e)) from None
    console.print(f"{'Bookmarked' if n.bookmarked else 'Bookmark removed from'} {escape(card_id)}.")
