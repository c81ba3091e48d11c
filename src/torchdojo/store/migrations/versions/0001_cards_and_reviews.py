"""cards and review logs

Revision ID: 0001
Revises:
Create Date: 2026-11-21
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "cards",
        sa.Column("question_id", sa.String(80), primary_key=True),
        sa.Column("state", sa.Integer, nullable=False),
        sa.Column("step", sa.Integer, nullable=True),
        sa.Column("stability", sa.Float, nullable=True),
        sa.Column("difficulty", sa.Float, nullable=True),
        sa.Column("due", sa.DateTime, nullable=False),
        sa.Column("last_review", sa.DateTime, nullable=True),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_cards_due", "cards", ["due"])
    op.create_table(
        "review_logs",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("question_id", sa.String(80), sa.ForeignKey("cards.question_id"), nullable=False),
        sa.Column("rating", sa.Integer, nullable=False),
        sa.Column("reviewed_at", sa.DateTime, nullable=False),
        sa.Column("duration_ms", sa.Integer, nullable=True),
    )
    op.create_index("ix_review_logs_question_id", "review_logs", ["question_id"])
    op.create_index("ix_review_logs_reviewed_at", "review_logs", ["reviewed_at"])


def downgrade() -> None:
    op.drop_table("review_logs")
    op.drop_table("cards")
