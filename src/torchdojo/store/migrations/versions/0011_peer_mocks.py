"""team server: peer mock interviews

Created on the server's database only, like 0009: a learner store (migrated with
``config.attributes["learner_store"]`` set) never holds server-wide rows.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import context, op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def _learner_store() -> bool:
    return bool(context.config.attributes.get("learner_store"))


def upgrade() -> None:
    if _learner_store():
        return
    op.create_table(
        "peer_mocks",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("a_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("b_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("level", sa.String(10), nullable=False),
        sa.Column("kits", sa.Text, nullable=False),
        sa.Column("stage", sa.String(10), nullable=False),
        sa.Column("a_interview_id", sa.Integer, nullable=True),
        sa.Column("b_interview_id", sa.Integer, nullable=True),
        sa.Column("a_copy_id", sa.Integer, nullable=True),
        sa.Column("b_copy_id", sa.Integer, nullable=True),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("finished_at", sa.DateTime, nullable=True),
    )
    op.create_index("ix_peer_mocks_a", "peer_mocks", ["a_id"])
    op.create_index("ix_peer_mocks_b", "peer_mocks", ["b_id"])


def downgrade() -> None:
    if _learner_store():
        return
    op.drop_index("ix_peer_mocks_b", "peer_mocks")
    op.drop_index("ix_peer_mocks_a", "peer_mocks")
    op.drop_table("peer_mocks")
