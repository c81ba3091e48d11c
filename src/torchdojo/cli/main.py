"""The ``torchdojo`` command: a thin face over the core (parse input, call, render)."""

from __future__ import annotations

import typer

from torchdojo.cli import bank

app = typer.Typer(help="torchdojo: offline PyTorch interview practice.", no_args_is_help=True)
app.add_typer(bank.app, name="bank")

from torchdojo.cli.serve import serve  # noqa: E402

app.command()(serve)
from torchdojo.cli.study import search, show, study, topics  # noqa: E402

app.command()(study)
app.command()(search)
app.command()(show)
app.command()(topics)
from torchdojo.cli import challenge  # noqa: E402

app.add_typer(challenge.app, name="challenge")
from torchdojo.cli import mock  # noqa: E402

app.add_typer(mock.app, name="mock")
from torchdojo.cli.answer import answer  # noqa: E402

app.command()(answer)
from torchdojo.cli.doctor import doctor  # noqa: E402

app.command()(doctor)
from torchdojo.cli import scorecards  # noqa: E402

app.add_typer(scorecards.app, name="scorecards")
from torchdojo.cli import interview  # noqa: E402

app.add_typer(interview.app, name="interview")
from torchdojo.cli.stats import stats  # noqa: E402

app.command()(stats)
from torchdojo.cli import data  # noqa: E402

app.add_typer(data.app, name="export")
app.command()(data.backup)
app.command()(data.restore)
from torchdojo.cli import cards  # noqa: E402

app.add_typer(cards.app, name="cards")
app.command()(cards.note)
app.command()(cards.bookmark)
from torchdojo.cli import config  # noqa: E402

app.add_typer(config.app, name="config")
from torchdojo.cli.worker import worker  # noqa: E402

app.command()(worker)
from torchdojo.cli import admin  # noqa: E402

app.add_typer(admin.app, name="admin")

if __name__ == "__main__":
    app()
