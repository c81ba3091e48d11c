"""mock interviews

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-21
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "mocks",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("level", sa.String(10), nullable=False),
        sa.Column("minutes", sa.Integer, nullable=False),
        sa.Column("config", sa.Text, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("started_at", sa.DateTime, nullable=False),
        sa.Column("deadline", sa.DateTime, nullable=False),
        sa.Column("finished_at", sa.DateTime, nullable=True),
        sa.Column("end_reason", sa.String(12), nullable=True),
        sa.Column("score", sa.Float, nullable=True),
        sa.Column("current_position", sa.Integer, nullable=True),
        sa.Column("current_since", sa.DateTime, nullable=True),
    )
    op.create_index("ix_mocks_status", "mocks", ["status"])
    op.create_index("ix_mocks_started_at", "mocks", ["started_at"])
    op.create_table(
        "mock_items",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("mock_id", sa.Integer, sa.ForeignKey("mocks.id"), nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("ref_id", sa.String(80), nullable=False),
        sa.Column("answer", sa.Text, nullable=False),
        sa.Column("answer_saved_at", sa.DateTime, nullable=True),
        sa.Column("flagged", sa.Boolean, nullable=False),
        sa.Column("revealed_at", sa.DateTime, nullable=True),
        sa.Column("revealed_before_answer", sa.Boolean, nullable=False),
        sa.Column("time_spent_ms", sa.Integer, nullable=False),
        sa.Column("score", sa.Integer, nullable=True),
        sa.Column("feedback", sa.Text, nullable=True),
        sa.Column("verdict", sa.String(40), nullable=True),
    )
    op.create_index("ix_mock_items_mock_id", "mock_items", ["mock_id"])
    op.create_index("ux_mock_items_position", "mock_items", ["mock_id", "position"], unique=True)


def downgrade() -> None:
    op.drop_table("mock_items")
    op.drop_table("mocks")
