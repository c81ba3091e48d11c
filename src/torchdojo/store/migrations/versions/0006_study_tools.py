"""study tools: suspend and bury on cards, notes and bookmarks, own cards, study settings

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("cards") as b:
        b.add_column(sa.Column("suspended", sa.Boolean, nullable=False, server_default=sa.false()))
        b.add_column(sa.Column("buried_until", sa.DateTime, nullable=True))
    op.create_table(
        "notes",
        sa.Column("card_id", sa.String(80), primary_key=True),
        sa.Column("text", sa.Text, nullable=False, server_default=""),
        sa.Column("bookmarked", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("updated_at", sa.DateTime, nullable=False),
    )
    op.create_table(
        "own_cards",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("front", sa.Text, nullable=False),
        sa.Column("back", sa.Text, nullable=False, server_default=""),
        sa.Column("key_points", sa.Text, nullable=False, server_default="[]"),
        sa.Column("topic", sa.String(40), nullable=True),
        sa.Column("level", sa.String(10), nullable=True),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("updated_at", sa.DateTime, nullable=False),
    )
    op.create_table(
        "user_settings",
        sa.Column("key", sa.String(60), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
        sa.Column("updated_at", sa.DateTime, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("user_settings")
    op.drop_table("own_cards")
    op.drop_table("notes")
    with op.batch_alter_table("cards") as b:
        b.drop_column("buried_until")
        b.drop_column("suspended")
