"""The lobby listing: one keyset-paginated query that never shows a private table to outsiders.

The listing is ordered newest first by (created_at, id). Privacy is a condition of the query
itself (not a filter applied after a LIMIT), so no number of private tables can push the public
ones off a page, and the opaque cursor names the last table of a page, so following it reaches
every public table once: tables created meanwhile sort before the cursor and never shift a
later page (no overlap, no skip).
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import ColumnElement, Select, and_, or_, select

from app import errors
from app.db.models import GameTable, Seat

MAX_PAGE = 200
_MAX_ID = 32  # GameTable.id is a String(32)


def encode_cursor(created_at: datetime, table_id: str) -> str:
    """The opaque cursor after a table: base64url of [created_at in UTC ISO 8601, id]."""
    moment = created_at if created_at.tzinfo else created_at.replace(tzinfo=UTC)
    raw = json.dumps([moment.astimezone(UTC).isoformat(), table_id], separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[datetime, str]:
    """(created_at in UTC, id) from a cursor this server issued; anything else is a 422."""
    bad = errors.ValidationFailed(
        "cursor is not one this server issued: pass X-Next-Cursor back verbatim",
        reason="bad_format",
        field="cursor",
    )
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        value: Any = json.loads(raw.decode())
    except (binascii.Error, ValueError):
        raise bad from None
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(part, str) for part in value)
        or not 0 < len(value[1]) <= _MAX_ID
    ):
        raise bad
    try:
        moment = datetime.fromisoformat(value[0])
        moment = (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(UTC)
    except (ValueError, OverflowError):  # not a date, or out of range once moved to UTC
        raise bad from None
    return moment, value[1]


def listing_query(
    *,
    status: str | None,
    game: str | None,
    games: Iterable[str],
    viewer_id: str | None,
    cursor: str | None,
    limit: int,
) -> Select[GameTable]:
    """Up to ``limit`` tables the viewer may see, newest first, after ``cursor``."""
    visible: ColumnElement[bool] = GameTable.private.is_(False)
    if viewer_id is not None:
        seated = select(Seat.table_id).where(Seat.player_id == viewer_id)
        visible = or_(visible, GameTable.id.in_(seated))
    query = select(GameTable).where(visible, GameTable.game.in_(list(games)))
    if status is not None:
        query = query.where(GameTable.status == status)
    if game is not None:
        query = query.where(GameTable.game == game)
    if cursor is not None:
        created_at, table_id = decode_cursor(cursor)
        query = query.where(
            or_(
                GameTable.created_at < created_at,
                and_(GameTable.created_at == created_at, GameTable.id < table_id),
            )
        )
    return query.order_by(GameTable.created_at.desc(), GameTable.id.desc()).limit(limit)
