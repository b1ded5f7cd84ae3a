"""one seat per player per table; repair seatings that lobby races left behind; index the
lobby's keyset order

Lobby changes on two instances could leave a player at two seats of one table, a seat
with both a player and a bot at an open table, a running game with an empty seat
nobody can play, and an open table whose owner left while someone joined. The
upgrade repairs those rows first (a running game's surplus or empty seat goes to a
bot, so the game can finish), then makes a second seat of one player unrepresentable.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-04
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Every game ships this bot level (the takeover bot uses it too).
BOT = "normal"

_REPAIRS = (
    # A player at several seats of one table keeps the lowest; the others are freed (open
    # table) or played by a bot (running or finished game).
    f"""
    UPDATE seats SET player_id = NULL,
        bot_level = CASE
            WHEN (SELECT g.status FROM game_tables g WHERE g.id = seats.table_id) = 'open'
            THEN bot_level ELSE COALESCE(bot_level, '{BOT}') END
    WHERE player_id IS NOT NULL AND seat > (
        SELECT MIN(s2.seat) FROM seats s2
        WHERE s2.table_id = seats.table_id AND s2.player_id = seats.player_id)
    """,
    # At an open table a seat holds a player or a bot, never both: the player keeps it.
    """
    UPDATE seats SET bot_level = NULL
    WHERE player_id IS NOT NULL AND bot_level IS NOT NULL
      AND table_id IN (SELECT id FROM game_tables WHERE status = 'open')
    """,
    # A running game with an empty seat never finishes: a bot plays it.
    f"""
    UPDATE seats SET bot_level = '{BOT}'
    WHERE player_id IS NULL AND bot_level IS NULL
      AND table_id IN (SELECT id FROM game_tables WHERE status = 'playing')
    """,
    # An open table whose owner is not seated goes to the player in the lowest seat.
    """
    UPDATE game_tables SET owner_id = (
        SELECT s.player_id FROM seats s
        WHERE s.table_id = game_tables.id AND s.player_id IS NOT NULL
        ORDER BY s.seat LIMIT 1)
    WHERE status = 'open'
      AND EXISTS (SELECT 1 FROM seats s
                  WHERE s.table_id = game_tables.id AND s.player_id IS NOT NULL)
      AND NOT EXISTS (SELECT 1 FROM seats s
                      WHERE s.table_id = game_tables.id AND s.player_id = game_tables.owner_id)
    """,
)

# An open table with nobody seated is one its owner left: it is removed, as leaving does.
_ORPHANS = """
    SELECT id FROM game_tables
    WHERE status = 'open'
      AND NOT EXISTS (SELECT 1 FROM seats s
                      WHERE s.table_id = game_tables.id AND s.player_id IS NOT NULL)
"""


def upgrade() -> None:
    for statement in _REPAIRS:
        op.execute(sa.text(statement))
    # Explicit deletes: SQLite's migration connection does not enforce the cascades.
    for child in ("seats", "chat_messages", "action_log"):
        op.execute(sa.text(f"DELETE FROM {child} WHERE table_id IN ({_ORPHANS})"))
    op.execute(sa.text(f"DELETE FROM game_tables WHERE id IN ({_ORPHANS})"))
    with op.batch_alter_table("seats") as batch:
        batch.create_unique_constraint("uq_seats_table_id_player_id", ["table_id", "player_id"])
    # The lobby pages newest first by (created_at, id) after a cursor (app.tables.lobby).
    op.create_index("ix_game_tables_created_at_id", "game_tables", ["created_at", "id"])


def downgrade() -> None:
    op.drop_index("ix_game_tables_created_at_id", table_name="game_tables")
    with op.batch_alter_table("seats") as batch:
        batch.drop_constraint("uq_seats_table_id_player_id", type_="unique")
