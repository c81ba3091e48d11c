"""Alembic migrations create exactly the schema the models describe."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from torchdojo.store.db import make_engine, migrate
from torchdojo.store.models import Base
from torchdojo.store.team_models import TeamBase


def all_tables():
    """The practice tables (:class:`Base`) and the team server's (:class:`TeamBase`) in one
    MetaData: a server database (SQLite file or PostgreSQL ``public``) holds both."""
    from sqlalchemy import MetaData

    m = MetaData()
    for t in (*Base.metadata.tables.values(), *TeamBase.metadata.tables.values()):
        t.to_metadata(m)
    return m


def test_migrations_match_models(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'x.db'}")
    migrate(engine)
    migrate(engine)  # idempotent
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), all_tables())
    assert diff == []


def test_unwritable_database_location_is_a_clear_error(tmp_path):
    import pytest

    from torchdojo.store.db import DatabaseError, open_database

    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(DatabaseError, match="TORCHDOJO_DATABASE_URL"):
        open_database(f"sqlite:///{blocker / 'sub' / 'x.db'}")
