"""private tables

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("private", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
        batch_op.add_column(
            sa.Column("invite_code", sa.String(length=32), server_default="", nullable=False)
        )


def downgrade() -> None:
    with op.batch_alter_table("game_tables", schema=None) as batch_op:
        batch_op.drop_column("invite_code")
        batch_op.drop_column("private")
