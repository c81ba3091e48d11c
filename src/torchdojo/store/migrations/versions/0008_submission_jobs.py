"""submissions judged by workers: status, attempts, job id, worker, error, start and finish times

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("submissions") as b:
        # Every submission stored before team mode was judged in the request: done.
        b.add_column(sa.Column("status", sa.String(10), nullable=False, server_default="done"))
        b.add_column(sa.Column("attempts", sa.Integer, nullable=False, server_default="0"))
        b.add_column(sa.Column("job_id", sa.String(64), nullable=True))
        b.add_column(sa.Column("worker", sa.String(120), nullable=True))
        b.add_column(sa.Column("error", sa.Text, nullable=True))
        b.add_column(sa.Column("started_at", sa.DateTime, nullable=True))
        b.add_column(sa.Column("finished_at", sa.DateTime, nullable=True))
        b.create_index("ix_submissions_status", ["status"])


def downgrade() -> None:
    with op.batch_alter_table("submissions") as b:
        b.drop_index("ix_submissions_status")
        for col in ("finished_at", "started_at", "error", "worker", "job_id", "attempts", "status"):
            b.drop_column(col)
