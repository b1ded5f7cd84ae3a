"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("is_blocked", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_players_token_hash")),
    )
    op.create_table(
        "game_tables",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("seat_count", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=True),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("owner_id", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["owner_id"],
            ["players.id"],
            name=op.f("fk_game_tables_owner_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_tables")),
    )
    with op.batch_alter_table("game_tables", schema=None) as batch_op:
        batch_op.create_index("ix_game_tables_status_game", ["status", "game"], unique=False)

    op.create_table(
        "action_log",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            autoincrement=True,
            nullable=False,
        ),
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.Column("events", sa.JSON(), nullable=False),
        sa.Column("client_id", sa.String(length=64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["game_tables.id"],
            name=op.f("fk_action_log_table_id_game_tables"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_action_log")),
        sa.UniqueConstraint("table_id", "client_id", name=op.f("uq_action_log_table_id_client_id")),
        sa.UniqueConstraint("table_id", "version", name=op.f("uq_action_log_table_id_version")),
    )
    op.create_table(
        "seats",
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=True),
        sa.Column("bot_level", sa.String(length=16), nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_seats_player_id_players"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["game_tables.id"],
            name=op.f("fk_seats_table_id_game_tables"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("table_id", "seat", name=op.f("pk_seats")),
    )
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_seats_player_id"), ["player_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_seats_player_id"))

    op.drop_table("seats")
    op.drop_table("action_log")
    with op.batch_alter_table("game_tables", schema=None) as batch_op:
        batch_op.drop_index("ix_game_tables_status_game")

    op.drop_table("game_tables")
    op.drop_table("players")
