"""The lobby listing: one keyset-paginated query that never shows a private table to outsiders.

The listing is ordered newest first by (created_at, id). Privacy is a condition of the query
itself (not a filter applied after a LIMIT), so no number of private tables can push the public
ones off a page, and the opaque cursor (signed by the server: app.signing) names the last
table of a page, so following it reaches every public table once: tables created meanwhile
sort before the cursor and never shift a later page (no overlap, no skip).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import ColumnElement, Select, and_, or_, select

from app import errors
from app.db.models import GameTable, Seat
from app.signing import Signer

MAX_PAGE = 200
#: No cursor the server issues is longer (about 140 characters).
MAX_CURSOR = 200
#: A table id as the server makes them (and as GameTable.id, a String(32), holds them).
_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def encode_cursor(signer: Signer, created_at: datetime, table_id: str) -> str:
    """The opaque cursor after a table: [created_at in UTC ISO 8601, id], signed."""
    moment = created_at if created_at.tzinfo else created_at.replace(tzinfo=UTC)
    raw = json.dumps([moment.astimezone(UTC).isoformat(), table_id], separators=(",", ":"))
    return signer.sign(raw.encode())


def decode_cursor(signer: Signer, cursor: str) -> tuple[datetime, str]:
    """(created_at in UTC, id) from a cursor this server issued; anything else is a 422.

    The signature proves the server made it; each field is checked all the same (its type,
    the id's form, a real moment) before any database sees it."""
    bad = errors.ValidationFailed(
        "cursor is not one this server issued: pass X-Next-Cursor back verbatim, or start "
        "again from the first page",
        reason="bad_format",
        field="cursor",
    )
    raw = signer.unsign(cursor) if len(cursor) <= MAX_CURSOR else None
    if raw is None:
        raise bad
    try:
        value: Any = json.loads(raw.decode())
    except ValueError:  # UnicodeDecodeError and JSONDecodeError alike
        raise bad from None
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(part, str) for part in value)
        or not _TABLE_ID.fullmatch(value[1])
    ):
        raise bad
    try:
        moment = datetime.fromisoformat(value[0])
        in_utc = moment.astimezone(UTC) if moment.tzinfo else None  # issued in UTC: aware
    except (ValueError, OverflowError):  # not a date, or out of range once moved to UTC
        raise bad from None
    if in_utc is None:
        raise bad
    return in_utc, value[1]


def listing_query(
    *,
    status: str | None,
    game: str | None,
    games: Iterable[str],
    viewer_id: str | None,
    after: tuple[datetime, str] | None,
    limit: int,
) -> Select[GameTable]:
    """Up to ``limit`` tables the viewer may see, newest first, after the table ``after``
    names (its created_at and id, from a decoded cursor)."""
    visible: ColumnElement[bool] = GameTable.private.is_(False)
    if viewer_id is not None:
        seated = select(Seat.table_id).where(Seat.player_id == viewer_id)
        visible = or_(visible, GameTable.id.in_(seated))
    query = select(GameTable).where(visible, GameTable.game.in_(list(games)))
    if status is not None:
        query = query.where(GameTable.status == status)
    if game is not None:
        query = query.where(GameTable.game == game)
    if after is not None:
        created_at, table_id = after
        query = query.where(
            or_(
                GameTable.created_at < created_at,
                and_(GameTable.created_at == created_at, GameTable.id < table_id),
            )
        )
    return query.order_by(GameTable.created_at.desc(), GameTable.id.desc()).limit(limit)
