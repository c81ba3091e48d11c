"""Open the database and bring its schema up to date with Alembic.

:func:`open_database` is the one entry point: it creates the folder of a SQLite file,
applies every pending migration (``alembic upgrade head``) and returns a session factory.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import Session, sessionmaker

MIGRATIONS = Path(__file__).parent / "migrations"


class DatabaseError(RuntimeError):
    """The database could not be opened or migrated; the message says where and what to do."""


def _sqlite_pragmas(dbapi_conn, _record) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA journal_mode=WAL")  # readers never block the writer: web + CLI at once
    cur.execute("PRAGMA busy_timeout=5000")
    cur.close()


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite:///"):
        path = Path(url.removeprefix("sqlite:///"))
        if str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_pre_ping=True)


def migrate(engine: Engine) -> None:
    """Apply all pending Alembic migrations to ``engine``'s database."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


def open_database(url: str) -> sessionmaker[Session]:
    """Engine for ``url``, migrated to the latest schema; returns a session factory.

    Raises :class:`DatabaseError` when the database cannot be opened or migrated.
    """
    try:
        engine = make_engine(url)
        migrate(engine)
    except Exception as e:  # report any driver/migration failure with the URL and a next step
        raise DatabaseError(
            f"cannot open or migrate the database at {url}: {e}. "
            "Check the path is writable or set TORCHDOJO_DATABASE_URL to another location."
        ) from e
    return sessionmaker(engine, expire_on_commit=False)
