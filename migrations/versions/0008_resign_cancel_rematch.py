"""resign, cancel by agreement, play again

A seat records when its player resigned; a table records what a resignation means
(``on_resign``: ranked last, or a bot finishes the seat), the cancel vote under way and
the table that a "Play again" made from it (``next_table_id``, cleared when that table is
deleted).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(
            sa.Column("on_resign", sa.String(length=8), server_default="last", nullable=False)
        )
        batch.add_column(sa.Column("cancel_vote", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("next_table_id", sa.String(length=32), nullable=True))
        batch.create_foreign_key(
            "fk_game_tables_next_table_id_game_tables",
            "game_tables",
            ["next_table_id"],
            ["id"],
            ondelete="SET NULL",
        )
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("resigned_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("resigned_at")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_constraint("fk_game_tables_next_table_id_game_tables", type_="foreignkey")
        batch.drop_column("next_table_id")
        batch.drop_column("cancel_vote")
        batch.drop_column("on_resign")
