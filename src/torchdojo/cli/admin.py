"""``torchdojo admin``: the team server's accounts from the terminal (see docs/deploy.md).

- ``create-admin EMAIL``: the first administrator (password asked twice, never echoed; or
  ``TORCHDOJO_ADMIN_PASSWORD`` for scripted set-ups).
- ``invite EMAIL --role learner|coach|admin --cohort NAME``: prints the sign-up link (shown once).
- ``users [--cohort NAME]``: the accounts, as a table.
- ``disable EMAIL``: end an account's sessions and refuse its log-ins.
- ``migrate``: bring every learner store to the newest schema ahead of time (otherwise each is
  migrated by the first process that opens it after an upgrade).

Talks to the database of ``TORCHDOJO_DATABASE_URL`` directly: run it on the server.
"""

from __future__ import annotations

import os
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

app = typer.Typer(help="Team server accounts: create the first admin, invite, list users.", no_args_is_help=True)
console = Console()


def _accounts():
    from torchdojo.settings import Settings
    from torchdojo.store.db import DatabaseError, open_database
    from torchdojo.team.accounts import Accounts

    settings = Settings()
    try:
        return Accounts(open_database(settings.database_url)), settings
    except DatabaseError as e:
        console.print(f"[red]{e}[/red]")
        raise typer.Exit(1) from None


def _fail(e) -> None:
    console.print(f"[red]{e}[/red]")
    raise typer.Exit(1 if getattr(e, "status", 400) != 409 else 3)


@app.command("create-admin")
def create_admin(email: str, name: Annotated[str, typer.Option(help="display name")] = "") -> None:
    """Create an administrator account (the first one, or another)."""
    from torchdojo.team.accounts import AccountError

    accounts, _ = _accounts()
    password = os.environ.get("TORCHDOJO_ADMIN_PASSWORD") or typer.prompt(
        "Password (10 characters or more)", hide_input=True, confirmation_prompt=True)
    try:
        user = accounts.create_user(email, password, "admin", name=name)
    except AccountError as e:
        _fail(e)
    console.print(f"Admin account {user.email} created (id {user.id}). Log in at /login.")


@app.command()
def invite(email: str,
           role: Annotated[str, typer.Option(help="learner, coach or admin")] = "learner",
           cohort: Annotated[str, typer.Option(help="the cohort (group) the account joins")] = "",
           days: Annotated[float, typer.Option(help="days the link stays valid")] = 7,
           base_url: Annotated[str | None, typer.Option(help="the server's address, for the link "
                                                              "(default http://<host>:<port>)")] = None) -> None:
    """Invite EMAIL: prints the sign-up link, which works once."""
    from torchdojo.team.accounts import AccountError

    accounts, settings = _accounts()
    try:
        _id, token = accounts.invite(None, email, role, cohort, days=days)
    except AccountError as e:
        _fail(e)
    base = (base_url or f"http://{settings.host}:{settings.port}").rstrip("/")
    console.print(f"Invitation for {email.strip().lower()} as {role}" + (f" in cohort {cohort}" if cohort else "")
                  + f", valid {days:g} days. Send this link (shown once):")
    print(f"{base}/signup/{token}")


@app.command()
def users(cohort: Annotated[str | None, typer.Option(help="only this cohort")] = None) -> None:
    """List the accounts."""
    accounts, _ = _accounts()
    t = Table("id", "e-mail", "name", "role", "cohort", "last seen")
    for u in accounts.users(cohort=cohort):
        t.add_row(str(u.id), u.email, u.name, u.role, u.cohort,
                  u.last_seen_at.strftime("%Y-%m-%d %H:%M") if u.last_seen_at else "never")
    console.print(t)


@app.command()
def disable(email: str) -> None:
    """Disable the account of EMAIL: its sessions end and its log-ins are refused."""
    from torchdojo.team.accounts import AccountError, normalize_email

    accounts, _ = _accounts()
    try:
        e = normalize_email(email)
        found = [u for u in accounts.users() if u.email == e]
        if not found:
            raise AccountError(f"no account {e}", 404)
        accounts.disable(found[0].id)
    except AccountError as err:
        _fail(err)
    console.print(f"{e} disabled.")


@app.command()
def migrate() -> None:
    """Migrate every learner store to the newest schema now."""
    from torchdojo.store.learners import LearnerStores

    accounts, settings = _accounts()
    stores = LearnerStores(settings.database_url, engine=accounts.sessions.engine)
    n = 0
    for u in accounts.users():
        stores.sessions(u.store)
        n += 1
    console.print(f"{n} learner store(s) at the newest schema.")
