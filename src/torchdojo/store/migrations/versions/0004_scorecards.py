"""scorecards, their lines, interviews (interviewer mode); mock items: follow-ups, graded_at

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "interviews",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("kit", sa.Text, nullable=False),
        sa.Column("candidate", sa.String(200), nullable=False, server_default=""),
        sa.Column("interviewer", sa.String(200), nullable=False, server_default=""),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("recommendation", sa.String(12), nullable=True),
        sa.Column("notes", sa.Text, nullable=False, server_default=""),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("finalized_at", sa.DateTime, nullable=True),
    )
    op.create_table(
        "scorecards",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("entry_id", sa.String(80), nullable=False, index=True),
        sa.Column("context", sa.String(12), nullable=False),
        sa.Column("reviewer", sa.String(12), nullable=False),
        sa.Column("mock_item_id", sa.Integer, sa.ForeignKey("mock_items.id"), nullable=True, index=True),
        sa.Column("interview_id", sa.Integer, sa.ForeignKey("interviews.id"), nullable=True, index=True),
        sa.Column("parent_id", sa.Integer, sa.ForeignKey("scorecards.id"), nullable=True),
        sa.Column("prompt", sa.Text, nullable=True),
        sa.Column("answer", sa.Text, nullable=False, server_default=""),
        sa.Column("grader", sa.String(40), nullable=True),
        sa.Column("grader_error", sa.Text, nullable=True),
        sa.Column("machine_uncertain", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("machine_score", sa.Integer, nullable=True),
        sa.Column("status", sa.String(10), nullable=False, index=True),
        sa.Column("recommendation", sa.String(12), nullable=True),
        sa.Column("notes", sa.Text, nullable=False, server_default=""),
        sa.Column("score", sa.Integer, nullable=True),
        sa.Column("band", sa.Integer, nullable=True),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("finalized_at", sa.DateTime, nullable=True),
    )
    op.create_table(
        "scorecard_lines",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("scorecard_id", sa.Integer, sa.ForeignKey("scorecards.id"), nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("ref", sa.String(200), nullable=False),
        sa.Column("label", sa.Text, nullable=False),
        sa.Column("weight", sa.Integer, nullable=False),
        sa.Column("proposal", sa.String(12), nullable=True),
        sa.Column("proposal_uncertain", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("evidence_start", sa.Integer, nullable=True),
        sa.Column("evidence_end", sa.Integer, nullable=True),
        sa.Column("evidence_text", sa.Text, nullable=True),
        sa.Column("mark", sa.String(12), nullable=True),
        sa.Column("marked_by", sa.String(12), nullable=True),
        sa.Column("marked_at", sa.DateTime, nullable=True),
        sa.Column("note", sa.Text, nullable=False, server_default=""),
    )
    op.create_index("ux_scorecard_lines_position", "scorecard_lines", ["scorecard_id", "position"], unique=True)
    with op.batch_alter_table("mock_items") as b:
        b.add_column(sa.Column("graded_at", sa.DateTime, nullable=True))
        b.add_column(sa.Column("parent_position", sa.Integer, nullable=True))
        b.add_column(sa.Column("prompt", sa.Text, nullable=True))
        b.add_column(sa.Column("target", sa.String(80), nullable=True))
    # Items graded before this revision keep their grade.
    op.execute("UPDATE mock_items SET graded_at = CURRENT_TIMESTAMP WHERE score IS NOT NULL")


def downgrade() -> None:
    with op.batch_alter_table("mock_items") as b:
        for c in ("target", "prompt", "parent_position", "graded_at"):
            b.drop_column(c)
    op.drop_index("ux_scorecard_lines_position", "scorecard_lines")
    op.drop_table("scorecard_lines")
    op.drop_table("scorecards")
    op.drop_table("interviews")
