"""``torchdojo worker``: a Celery worker judging queued submissions and running the jobs layer's
jobs (mock grading, FSRS optimisation) in team mode; see docs/deploy.md."""

from __future__ import annotations

import os
from typing import Annotated

import typer


def worker(
    concurrency: Annotated[int | None, typer.Option(help="judge jobs at once (default: TORCHDOJO_WORKER_CONCURRENCY, "
                                                          "else one per CPU core)")] = None,
    name: Annotated[str | None, typer.Option(help="this worker's name (default: worker@<host>:<pid>)")] = None,
    loglevel: Annotated[str, typer.Option(help="Celery log level")] = "INFO",
) -> None:
    """Judge submissions and run background jobs (mock grading) from the team server's queues
    (needs TORCHDOJO_BROKER_URL)."""
    from torchdojo.settings import Settings

    settings = Settings()
    if not settings.broker_url:
        typer.echo("torchdojo worker needs TORCHDOJO_BROKER_URL (e.g. redis://127.0.0.1:6379/0): "
                   "workers are for the team server; the single-user app judges by itself.", err=True)
        raise typer.Exit(2)
    try:
        from torchdojo.jobs.celery_app import QUEUE, make_app
        from torchdojo.jobs.celery_backend import JOBS_QUEUE
    except ImportError as e:
        typer.echo(f"Team mode needs its extra dependencies ({e.name} is missing): pip install 'torchdojo[team]'", err=True)
        raise typer.Exit(2) from None

    n = concurrency or settings.worker_concurrency or os.cpu_count() or 1
    app = make_app(settings)
    app.worker_main(["worker", f"--concurrency={n}", "--pool=prefork", "-Q", f"{QUEUE},{JOBS_QUEUE}", f"--loglevel={loglevel}",
                     "-O", "fair", "--prefetch-multiplier=1", "--without-gossip", "--without-mingle",
                     f"--hostname={name or f'worker@{os.uname().nodename}:{os.getpid()}'}"])
