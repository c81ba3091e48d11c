"""Alembic environment: runs migrations on the connection handed over by torchdojo.store.db."""

from alembic import context
from sqlalchemy import create_engine

config = context.config
from torchdojo.store.team_models import server_metadata  # noqa: E402

target_metadata = server_metadata()  # the server database: practice tables and accounts

connection = config.attributes.get("connection")
if connection is None:  # `alembic` command line: use sqlalchemy.url from the ini
    engine = create_engine(config.get_main_option("sqlalchemy.url"))
    with engine.begin() as connection:
        context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
else:
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
