"""turn clocks, undo records, bot takeover

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("time_control", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("clocks", sa.JSON(), nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("takeover_votes", sa.JSON(), nullable=True))
    with op.batch_alter_table("action_log") as batch:
        batch.add_column(
            sa.Column("kind", sa.String(length=16), server_default="action", nullable=False)
        )


def downgrade() -> None:
    with op.batch_alter_table("action_log") as batch:
        batch.drop_column("kind")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("takeover_votes")
        batch.drop_column("last_seen_at")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("clocks")
        batch.drop_column("time_control")
