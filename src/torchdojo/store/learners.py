"""Learner stores: each account's practice data in a store of its own (team mode).

A team server keeps every learner's cards, review log, notes, answers, mocks, scorecards,
submissions and settings apart: each learner has a *learner store* with the very tables (and
migrations) of the single-user app. On PostgreSQL a store is a schema, ``learner_<id>``, of the
server's database; on SQLite a file, ``learners/<id>.db``, beside the server's database file.

Why stores rather than a ``user_id`` column on every row: isolation holds by construction. A
request is served by a :class:`torchdojo.core.Dojo` bound to its user's store, so every query the
practice code makes — the ones written today and the ones written later — can only see that
user's rows; another learner's id is simply not there (404), and no forgotten ``WHERE`` can leak.
The practice code stays the single-user code, tested once. The cost: a coach's cohort view reads
one store per learner (:mod:`torchdojo.team.cohort`), and a migration runs once per store (on
first use by each process after an upgrade, under the migration lock; ``torchdojo admin
migrate`` runs them all ahead of time). PostgreSQL handles thousands of schemas; the sizing in
``docs/deploy.md`` counts them.

How a PostgreSQL store is reached: its :class:`~torchdojo.store.db.Sessions` use the server's
engine (one connection pool) with the execution option ``torchdojo_schema``; the engine's
``begin`` hook then runs ``SET LOCAL search_path TO learner_<id>`` as each transaction's first
statement (transaction-scoped: a pooled connection never carries one learner's path into
another's transaction). The server's own tables (``public``) are not on that path.

Source: PostgreSQL, "Schemas" (https://www.postgresql.org/docs/current/ddl-schemas.html),
``SET LOCAL`` (https://www.postgresql.org/docs/current/sql-set.html); Alembic cookbook,
"Rudimental Schema-Level Multi Tenancy for PostgreSQL Databases".
"""

from __future__ import annotations

import re
import threading
from pathlib import Path

from sqlalchemy import Engine, text

from torchdojo.store.db import (
    DatabaseError,
    Sessions,
    _alembic_config,
    head_revision,
    make_engine,
    migration_lock,
    safe_url,
    sqlite_path,
)

_NAME = re.compile(r"^learner_[0-9]{1,19}$")


def store_name(user_id: int) -> str:
    """The name of user ``user_id``'s store (``learner_<id>``)."""
    if not isinstance(user_id, int) or isinstance(user_id, bool) or user_id < 0:
        raise ValueError(f"a user id is a non-negative int, not {user_id!r}")
    return f"learner_{user_id}"


def _check(name: str) -> str:
    if not _NAME.match(name):
        raise ValueError(f"not a learner store name: {name!r}")
    return name


class LearnerStores:
    """Opens (creating and migrating on first use) the learner stores of the server database at
    ``url``. Thread-safe; each store's :class:`Sessions` is made once per process and cached.

    Raises :class:`~torchdojo.store.db.DatabaseError` when a store cannot be created or migrated,
    and ``ValueError`` for a malformed store name. In-memory SQLite has no place for stores."""

    def __init__(self, url: str, engine: Engine | None = None) -> None:
        self.url = url
        self._lock = threading.Lock()
        self._open: dict[str, Sessions] = {}
        self.postgres = not url.startswith("sqlite:")
        if self.postgres:
            self.engine = engine if engine is not None else make_engine(url)
        else:
            path = sqlite_path(url)
            if path is None:
                raise DatabaseError("learner stores need a SQLite file or PostgreSQL, not an in-memory database")
            self.folder: Path = path.parent / "learners"

    def sessions(self, name: str) -> Sessions:
        """The session factory of store ``name`` (created and migrated to head if needed)."""
        _check(name)
        with self._lock:
            got = self._open.get(name)
            if got is None:
                got = self._open[name] = self._make(name)
            return got

    def exists(self, name: str) -> bool:
        """Whether store ``name`` was created (nothing is created by asking)."""
        _check(name)
        if not self.postgres:
            return (self.folder / f"{name.removeprefix('learner_')}.db").exists()
        with self.engine.connect() as c:
            return c.execute(text("SELECT 1 FROM pg_namespace WHERE nspname = :n"), {"n": name}).first() is not None

    def _make(self, name: str) -> Sessions:
        try:
            if not self.postgres:
                url = f"sqlite:///{self.folder / (name.removeprefix('learner_') + '.db')}"
                engine = make_engine(url)
                _migrate(engine, url, None)
                return Sessions(engine, expire_on_commit=False)
            _migrate(self.engine, self.url, name)
            return Sessions(self.engine.execution_options(torchdojo_schema=name), expire_on_commit=False)
        except DatabaseError:
            raise
        except Exception as e:
            raise DatabaseError(f"cannot open or migrate learner store {name} at {safe_url(self.url)}: {e}") from e

    def close(self) -> None:
        """Dispose of the SQLite stores' engines (PostgreSQL stores share the server's engine)."""
        with self._lock:
            if not self.postgres:
                for s in self._open.values():
                    s.engine.dispose()
            self._open.clear()


def _migrate(engine: Engine, url: str, schema: str | None) -> None:
    """Bring one learner store to head: a SQLite file, or (``schema``) a PostgreSQL schema,
    created if missing; the migrations run with ``search_path`` set to it alone."""
    from alembic import command
    from alembic.runtime.migration import MigrationContext

    cfg = _alembic_config()
    cfg.attributes["learner_store"] = True
    with migration_lock(engine, url):
        with engine.begin() as conn:
            if schema is not None:
                conn.exec_driver_sql(f'CREATE SCHEMA IF NOT EXISTS "{_check(schema)}"')
                conn.exec_driver_sql(f'SET LOCAL search_path TO "{schema}"')
            if MigrationContext.configure(conn).get_current_revision() == head_revision():
                return
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
