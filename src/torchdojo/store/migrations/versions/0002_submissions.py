"""code submissions

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "submissions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("challenge_id", sa.String(80), nullable=False),
        sa.Column("mode", sa.String(10), nullable=False),
        sa.Column("code", sa.Text, nullable=False),
        sa.Column("verdict", sa.String(40), nullable=False),
        sa.Column("report", sa.Text, nullable=False),
        sa.Column("backend", sa.String(60), nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_submissions_challenge_id", "submissions", ["challenge_id"])
    op.create_index("ix_submissions_created_at", "submissions", ["created_at"])


def downgrade() -> None:
    op.drop_table("submissions")
