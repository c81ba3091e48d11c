"""``torchdojo serve``: the local web app on 127.0.0.1:8000 (uvicorn)."""

from __future__ import annotations

from typing import Annotated

import typer


def serve(
    host: Annotated[str | None, typer.Option(help="interface to bind (default 127.0.0.1: this machine only)")] = None,
    port: Annotated[int | None, typer.Option(help="TCP port (default 8000)")] = None,
) -> None:
    """Start the web app and print its address."""
    import uvicorn

    from torchdojo.settings import Settings
    from torchdojo.web.app import create_app

    settings = Settings()
    host, port = host or settings.host, port or settings.port
    settings = settings.model_copy(update={"host": host, "port": port})  # the Host allow-list names it
    app = create_app(settings)
    typer.echo(f"torchdojo: serving {len(app.state.dojo.bank)} questions at http://{host}:{port}/")
    uvicorn.run(app, host=host, port=port, log_level="warning")
