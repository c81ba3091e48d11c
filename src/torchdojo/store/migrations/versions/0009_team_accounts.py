"""team server: users, invitations, log-in sessions, assignments, coach comments

Created on the server's database only: a learner store (``torchdojo.store.learners``, migrated
with ``config.attributes["learner_store"]`` set) holds practice data, never accounts.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import context, op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def _learner_store() -> bool:
    return bool(context.config.attributes.get("learner_store"))


def upgrade() -> None:
    if _learner_store():
        return
    op.create_table(
        "users",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("email", sa.String(254), nullable=False, unique=True),
        sa.Column("name", sa.String(120), nullable=False, server_default=""),
        sa.Column("role", sa.String(10), nullable=False),
        sa.Column("cohort", sa.String(60), nullable=False, server_default=""),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("last_seen_at", sa.DateTime, nullable=True),
        sa.Column("disabled", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_table(
        "invitations",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("email", sa.String(254), nullable=False),
        sa.Column("role", sa.String(10), nullable=False),
        sa.Column("cohort", sa.String(60), nullable=False, server_default=""),
        sa.Column("invited_by", sa.Integer, sa.ForeignKey("users.id"), nullable=True),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("expires_at", sa.DateTime, nullable=False),
        sa.Column("used_at", sa.DateTime, nullable=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=True),
    )
    op.create_table(
        "login_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("csrf_token", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("expires_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_login_sessions_user", "login_sessions", ["user_id"])
    op.create_table(
        "assignments",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("cohort", sa.String(60), nullable=False),
        sa.Column("kind", sa.String(12), nullable=False),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("items", sa.Text, nullable=False),
        sa.Column("due_at", sa.DateTime, nullable=False),
        sa.Column("created_by", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_assignments_cohort", "assignments", ["cohort"])
    op.create_table(
        "coach_comments",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("learner_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("scorecard_id", sa.Integer, nullable=False),
        sa.Column("author_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_coach_comments_target", "coach_comments", ["learner_id", "scorecard_id"])


def downgrade() -> None:
    if _learner_store():
        return
    for t in ("coach_comments", "assignments", "login_sessions", "invitations", "users"):
        op.drop_table(t)
