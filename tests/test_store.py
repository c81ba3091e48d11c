"""Alembic migrations create exactly the schema the models describe."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from torchdojo.store.db import make_engine, migrate
from torchdojo.store.models import Base
from torchdojo.store.team_models import server_metadata


def test_migrations_match_models(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'x.db'}")
    migrate(engine)
    migrate(engine)  # idempotent
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), server_metadata())
    assert diff == []


def test_a_learner_stores_migrations_match_the_practice_models(tmp_path):
    """A learner store (team mode) has the practice tables only: no accounts (migration 0009 skips them)."""
    from torchdojo.store.learners import LearnerStores

    stores = LearnerStores(f"sqlite:///{tmp_path / 'server.db'}")
    sessions = stores.sessions("learner_7")
    assert (tmp_path / "learners" / "7.db").exists()
    with sessions.engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
    stores.close()


def test_unwritable_database_location_is_a_clear_error(tmp_path):
    import pytest

    from torchdojo.store.db import DatabaseError, open_database

    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(DatabaseError, match="TORCHDOJO_DATABASE_URL"):
        open_database(f"sqlite:///{blocker / 'sub' / 'x.db'}")
