"""``torchdojo config``: show, set and reset the study settings; optimise the FSRS parameters."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from torchdojo.practice import study_settings as st

console = Console(highlight=False)
app = typer.Typer(help="Study settings: desired retention, daily limits, topics and levels, FSRS parameters.",
                  invoke_without_command=True)


def _dojo():
    from torchdojo.core import Dojo

    return Dojo()


def _table(study: st.StudySettings, defaults: st.StudySettings) -> Table:
    table = Table(title="Study settings (torchdojo config set NAME VALUE · config reset NAME)")
    table.add_column("name", style="cyan", no_wrap=True)
    table.add_column("value")
    table.add_column("default", style="dim")
    table.add_column("allowed", style="dim")
    for key, f in st.FIELDS.items():
        value = study.display(key)
        changed = getattr(study, key) != getattr(defaults, key)
        table.add_row(f.name, f"[bold]{escape(value)}[/]" if changed else escape(value), escape(defaults.display(key)),
                      escape(f.allowed))
    return table


@app.callback()
def main(ctx: typer.Context) -> None:
    """Without a command: show every setting with its default."""
    if ctx.invoked_subcommand is None:
        show()


@app.command()
def show() -> None:
    """Show every study setting, its default and what it allows."""
    d = _dojo()
    console.print(_table(d.flashcards.study, d.flashcards.defaults))
    suspended = d.flashcards.suspended()
    if suspended:
        console.print(f"Suspended cards ({len(suspended)}; `torchdojo config unsuspend ID`): "
                      + escape(", ".join(suspended)))


@app.command()
def unsuspend(card_id: Annotated[str, typer.Argument(help="a suspended card's id (see `torchdojo config`)")]) -> None:
    """Put a suspended card back in the queue."""
    d = _dojo()
    if not d.flashcards.unsuspend(card_id):
        console.print(f"[red]'{escape(card_id)}' is not suspended.[/] Suspended: "
                      + escape(", ".join(d.flashcards.suspended()) or "none"))
        raise typer.Exit(1)
    console.print(f"[green]Unsuspended[/] {escape(card_id)}: it is back in the queue.")


def _refused(e: st.StudySettingsError) -> typer.Exit:
    for msg in e.errors.values():
        console.print(f"[red]{escape(msg)}[/]")
    return typer.Exit(1)


@app.command("set")
def set_(name: Annotated[str, typer.Argument(help="e.g. desired-retention, new-per-day, topics")],
         value: Annotated[str, typer.Argument(help="the new value; lists comma-separated, '' or 'all' to clear")]) -> None:
    """Save one setting. Changing desired-retention or fsrs-parameters reschedules every card."""
    d = _dojo()
    try:
        key = st.key_of(name)
        study = d.flashcards.save_settings({key: st.parse_text(key, value)})
    except st.StudySettingsError as e:
        raise _refused(e) from None
    note = " (every card rescheduled from its review log)" if key in st.SCHEDULER_KEYS else ""
    console.print(f"[green]Saved[/] {st.FIELDS[key].name} = {escape(study.display(key))}{note}")


@app.command()
def reset(name: Annotated[str | None, typer.Argument(help="the setting to reset; omit with --all")] = None,
          all_: Annotated[bool, typer.Option("--all", help="reset every setting")] = False) -> None:
    """Return a setting (or --all) to its default."""
    if name is None and not all_:
        console.print("[red]Name a setting to reset, or pass --all.[/]")
        raise typer.Exit(1)
    d = _dojo()
    try:
        study = d.flashcards.reset_settings(None if all_ else [name])
    except st.StudySettingsError as e:
        raise _refused(e) from None
    if all_:
        console.print("[green]Every study setting is back to its default.[/]")
    else:
        key = st.key_of(name)
        console.print(f"[green]Reset[/] {st.FIELDS[key].name} = {escape(study.display(key))} (default)")


@app.command()
def optimize(apply: Annotated[bool, typer.Option("--apply", help="save the new parameters (reschedules every card)")] = False) -> None:
    """Fit the FSRS parameters to your review log and compare them by log loss; --apply saves them."""
    from torchdojo.practice.optimizer import OptimizerError

    d = _dojo()
    console.print(f"Optimising from {d.flashcards.review_count()} review(s)… (this can take a minute)")
    try:
        r = d.flashcards.optimize()
    except OptimizerError as e:
        console.print(f"[red]{escape(str(e))}[/]")
        raise typer.Exit(1) from None
    console.print(f"Reviews: {r.reviews} ({r.training_reviews} count for training)")
    console.print(f"Log loss with the parameters in use: {r.loss_before:.4f}")
    console.print(f"Log loss with the optimised ones:    {r.loss_after:.4f}"
                  + ("  (better)" if r.improved else "  (not better: keep yours)"))
    console.print("Parameters: " + ", ".join(f"{x:.4f}" for x in r.parameters))
    if not apply:
        console.print("Nothing saved. Run [bold]torchdojo config optimize --apply[/] to use them.")
        return
    d.flashcards.save_settings({"fsrs_parameters": list(r.parameters)})
    console.print("[green]Saved[/]: every card rescheduled from its review log with the new parameters.")
