"""challenge progress: hints revealed, gave up (unlocks the editorial)

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "challenge_progress",
        sa.Column("challenge_id", sa.String(80), primary_key=True),
        sa.Column("hints_shown", sa.Integer, nullable=False, server_default="0"),
        sa.Column("gave_up_at", sa.DateTime, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("challenge_progress")
