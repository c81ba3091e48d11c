"""``torchdojo bank …``: validate, verify and measure coverage of the question bank."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from torchdojo.bank.coverage import CatalogueError, coverage, read_catalogue
from torchdojo.bank.loader import load_bank
from torchdojo.settings import Settings

app = typer.Typer(help="Validate, verify and measure the question bank.", no_args_is_help=True)
console = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)

BankDir = Annotated[Path | None, typer.Option("--bank", help="bank folder (default: TORCHDOJO_BANK_DIR or ./bank)")]


def _load(bank_dir: Path | None):
    root = bank_dir or Settings().bank_dir
    return root, load_bank(root)


@app.command()
def validate(bank: BankDir = None) -> None:
    """Check every bank file against the format; print path:line: field: problem. Exit 1 on any."""
    root, b = _load(bank)
    for issue in b.issues:
        err.print(str(issue), markup=False, highlight=False)
    blocks = sum(len(e.blocks) for e in b)
    console.print(f"{len(b)} entries loaded, {blocks} runnable examples, {len(b.issues)} problem(s) in {root}")
    raise typer.Exit(1 if b.issues else 0)


@app.command()
def verify(
    bank: BankDir = None,
    only: Annotated[list[str] | None, typer.Option("--only", help="verify only these entry ids (repeatable)")] = None,
    workers: Annotated[int | None, typer.Option(help="parallel processes (default: CPU count)")] = None,
    record: Annotated[bool, typer.Option(help="update bank/verified.json with the results")] = True,
) -> None:
    """Run every runnable example in its own process; exit 1 on any failure or timeout."""
    from torchdojo.bank.verify import detect_capabilities
    from torchdojo.bank.verify import record as write_record
    from torchdojo.bank.verify import verify as run

    root, b = _load(bank)
    entries = [e for e in b if not only or e.id in only]
    # With --only, problems in other files are not this run's business.
    paths = {e.path for e in entries}
    issues = [i for i in b.issues if not only or i.path in paths]
    for issue in issues:
        err.print(str(issue), markup=False, highlight=False)
    if only and (missing := set(only) - {e.id for e in entries}):
        err.print(f"no such entry id(s): {', '.join(sorted(missing))}")
        raise typer.Exit(2)
    caps = detect_capabilities()
    total = sum(len(e.blocks) for e in entries)
    start = time.perf_counter()
    with Progress(TextColumn("[bold]verify"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TextColumn("{task.description}"), console=console, transient=False) as progress:
        task = progress.add_task("", total=total)

        def tick(r):
            progress.update(task, advance=1, description=f"{r.entry_id}#{r.block.index} {r.status}")

        results = run(entries, caps, workers=workers, on_result=tick)
    wall = time.perf_counter() - start
    counts = {s: sum(r.status == s for r in results) for s in ("passed", "failed", "timeout", "skipped")}
    table = Table(title="bank verify", caption=f"torch {caps.torch_version}, {wall:.1f} s wall")
    for col in ("status", "blocks"):
        table.add_column(col)
    for s, n in counts.items():
        table.add_row(s, str(n))
    console.print(table)
    bad = [r for r in results if r.status in ("failed", "timeout")]
    skipped = [r for r in results if r.status == "skipped"]
    for r in sorted(skipped, key=lambda r: (str(r.path), r.block.line)):
        console.print(f"skipped {r.path}:{r.block.line}: {r.detail}", markup=False, highlight=False)
    for r in sorted(bad, key=lambda r: (str(r.path), r.block.line)):
        err.print(f"{r.status.upper()} {r.path}:{r.block.line} ({r.entry_id} example {r.block.index})\n{r.detail}\n",
                  markup=False, highlight=False)
    if record:
        write_record(root, entries, results, caps)
    raise typer.Exit(1 if bad or issues else 0)


@app.command("coverage")
def coverage_cmd(
    catalogue: Annotated[Path, typer.Option("--catalogue", help="CSV with columns id, question, topic")],
    bank: BankDir = None,
) -> None:
    """Print covered/total per catalogue topic and the uncovered ids; exit 1 under 100%."""
    _, b = _load(bank)
    try:
        rows = read_catalogue(catalogue)
    except CatalogueError as e:
        err.print(str(e), markup=False)
        raise typer.Exit(2) from e
    rep = coverage(b, rows)
    table = Table(title=f"coverage of {catalogue.name}")
    for col in ("topic", "covered", "total", "uncovered"):
        table.add_column(col)
    for t in sorted(rep.topics.values(), key=lambda t: t.topic):
        table.add_row(t.topic, str(t.covered), str(t.total), " ".join(t.uncovered))
    console.print(table)
    console.print(f"covered {rep.covered}/{rep.total}")
    for eid, bad in rep.unknown_ids.items():
        err.print(f"entry {eid} lists coverage id(s) not in the catalogue: {', '.join(bad)}")
    raise typer.Exit(0 if rep.covered == rep.total and not rep.unknown_ids else 1)
