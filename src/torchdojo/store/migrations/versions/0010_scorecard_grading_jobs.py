"""scorecards graded by a worker (team mode): machine_pending, the grader's feedback as JSON

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("scorecards") as b:
        # Every scorecard before this was proposed in the request that made it: nothing pending.
        b.add_column(sa.Column("machine_pending", sa.Boolean, nullable=False, server_default=sa.false()))
        b.add_column(sa.Column("feedback", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("scorecards") as b:
        b.drop_column("feedback")
        b.drop_column("machine_pending")
