"""answer out loud in mock interviews: the transcript (word timings) of a spoken mock answer

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("mock_items") as b:
        b.add_column(sa.Column("speech", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("mock_items") as b:
        b.drop_column("speech")
