"""Reads of the player rows and of the tables' logs, and the lobby's plain queries, in one
place: the socket layer and the services ask here instead of writing their own queries.
(The commit's own statements live with it, in app/tables/moves.py.)"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any, cast

from sqlalchemy import ColumnElement, Table, and_, bindparam, case, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from app.db.models import ActionRecord, GameTable, Player, Seat


async def player_by_id(session: AsyncSession, player_id: str) -> Player | None:
    return await session.get(Player, player_id)


async def players_by_id(session: AsyncSession, player_ids: Iterable[str]) -> dict[str, Player]:
    """The players of ``player_ids`` that exist, by id (in chunks that every database takes)."""
    ids = sorted(set(player_ids))
    found: dict[str, Player] = {}
    for start in range(0, len(ids), 500):
        rows = await session.execute(select(Player).where(Player.id.in_(ids[start : start + 500])))
        found.update((p.id, p) for p in rows.scalars())
    return found


async def player_by_token_hash(session: AsyncSession, token_hash: str) -> Player | None:
    found = await session.execute(select(Player).where(Player.token_hash == token_hash))
    return found.scalar_one_or_none()


async def players_by_age(session: AsyncSession) -> list[Player]:
    """Every player, the oldest first (the admin's list)."""
    return list((await session.execute(select(Player).order_by(Player.created_at))).scalars())


async def log_records(
    session: AsyncSession,
    table_id: str,
    since: int,
    limit: int | None = None,
    upto: int | None = None,
) -> list[ActionRecord]:
    """A table's log after version ``since``, in order (at most ``limit`` records, none
    after version ``upto``)."""
    query = (
        select(ActionRecord)
        .where(ActionRecord.table_id == table_id, ActionRecord.version > since)
        .order_by(ActionRecord.version)
    )
    if upto is not None:
        query = query.where(ActionRecord.version <= upto)
    if limit is not None:
        query = query.limit(limit)
    return list((await session.execute(query)).scalars().all())


async def table_progress(session: AsyncSession, table_id: str) -> Any:
    """What a move changes of a table's row (version, status, state, clocks, result, cancel
    vote), or None when the table is gone."""
    tables = cast(Table, GameTable.__table__)
    c = tables.c
    found = await session.execute(
        select(c.version, c.status, c.state, c.clocks, c.result, c.cancel_vote).where(
            c.id == table_id
        )
    )
    return found.one_or_none()


async def record_by_client_id(
    session: AsyncSession, table_id: str, client_id: str
) -> ActionRecord | None:
    """The logged action a client sent with this idempotency id, if any."""
    found = await session.execute(
        select(ActionRecord).where(
            ActionRecord.table_id == table_id, ActionRecord.client_id == client_id
        )
    )
    return found.scalar_one_or_none()


async def table_ids_with_status(session: AsyncSession, status: str) -> list[str]:
    """The ids of every table with this status (e.g. every running one)."""
    found = await session.execute(select(GameTable.id).where(GameTable.status == status))
    return list(found.scalars().all())


def can_still_move() -> ColumnElement[bool]:
    """The tables that count against their owner's cap: open ones, and running ones at
    which a person still plays a seat (seated, not resigned, no bot playing for them). A
    finished table (cancelled ones too) never counts, nor a game left to bots alone: they
    finish it by themselves."""
    person = (
        select(Seat.table_id)
        .where(
            Seat.table_id == GameTable.id,
            Seat.player_id.is_not(None),
            Seat.bot_level.is_(None),
            Seat.resigned_at.is_(None),
        )
        .exists()
    )
    # The statuses of app.tables.snapshot (OPEN, PLAYING), as the rows store them.
    return or_(GameTable.status == "open", and_(GameTable.status == "playing", person))


async def hold_player(session: AsyncSession, player_id: str) -> bool:
    """Hold the player's row for the transaction (FOR NO KEY UPDATE: the owner's creates
    queue on it; their joins and moves, rows that merely refer to the player, do not).
    False when the player no longer exists."""
    locked = await session.execute(
        select(Player.id).where(Player.id == player_id).with_for_update(key_share=True)
    )
    return locked.scalar_one_or_none() is not None


async def tables_that_can_still_move(session: AsyncSession, owner_id: str) -> int:
    """How many of the owner's tables count against the cap (``can_still_move``)."""
    found = await session.execute(
        select(func.count())
        .select_from(GameTable)
        .where(GameTable.owner_id == owner_id, can_still_move())
    )
    return found.scalar_one()


async def table_ids_of_player(session: AsyncSession, player_id: str, limit: int) -> list[str]:
    """The tables the player sits at, the last changed first."""
    found = await session.execute(
        select(GameTable.id)
        .join(Seat, Seat.table_id == GameTable.id)
        .where(Seat.player_id == player_id)
        .order_by(GameTable.updated_at.desc())
        .limit(limit)
    )
    return list(found.scalars().all())


async def set_webhook(session: AsyncSession, player_id: str, url: str | None) -> list[str]:
    """Store the player's webhook; answers the ids of the tables the player sits at."""
    await session.execute(update(Player).where(Player.id == player_id).values(webhook_url=url))
    found = await session.execute(select(Seat.table_id).where(Seat.player_id == player_id))
    return list(found.scalars().all())


async def last_own_move_at(
    session: AsyncSession, table_id: str, seat: int, server_prefixes: tuple[str, ...]
) -> datetime | None:
    """When the seat last acted itself (moves whose id starts with ``server_prefixes``, the
    server's for the seat, do not count)."""
    client = ActionRecord.client_id
    found = await session.execute(
        select(func.max(ActionRecord.created_at)).where(
            ActionRecord.table_id == table_id,
            ActionRecord.seat == seat,
            or_(
                client.is_(None),
                ~or_(*(client.startswith(prefix) for prefix in server_prefixes)),
            ),
        )
    )
    return found.scalar_one_or_none()


async def seat_last_seen(session: AsyncSession, table_id: str, seat: int) -> datetime | None:
    """The seat's presence lease (``last_seen_at``)."""
    found = await session.execute(
        select(Seat.last_seen_at).where(Seat.table_id == table_id, Seat.seat == seat)
    )
    return found.scalar_one_or_none()


async def hold_seat(session: AsyncSession, table_id: str, seat: int) -> Seat | None:
    """The seat's row, held for the transaction and read afresh."""
    found = await session.execute(
        select(Seat)
        .where(Seat.table_id == table_id, Seat.seat == seat)
        .with_for_update(of=Seat)
        .execution_options(populate_existing=True)
    )
    return found.scalar_one_or_none()


async def renew_leases(
    conn: AsyncConnection, seats: list[tuple[str, str]], until: datetime
) -> None:
    """Move the presence lease of these (table, player) seats forward to ``until`` (never
    back: a longer lease stands) and drop their takeover votes."""
    table = cast(Table, Seat.__table__)
    seen = table.c.last_seen_at
    lease = bindparam("u", type_=seen.type)
    await conn.execute(
        update(table)
        .where(table.c.table_id == bindparam("t"), table.c.player_id == bindparam("p"))
        .values(
            last_seen_at=case((or_(seen.is_(None), seen < lease), lease), else_=seen),
            takeover_votes=None,
        ),
        [{"t": t, "p": p, "u": until} for t, p in seats],
    )


async def cut_lease(
    conn: AsyncConnection, table_id: str, player_id: str, lease: datetime, linger: datetime
) -> None:
    """Cut the player's lease at the table to ``linger``, if it is still ``lease``."""
    table = cast(Table, Seat.__table__)
    await conn.execute(
        update(table)
        .where(
            table.c.table_id == table_id,
            table.c.player_id == player_id,
            table.c.last_seen_at == lease,
        )
        .values(last_seen_at=linger)
    )


async def clocked_tables(session: AsyncSession, status: str) -> list[tuple[str, Any]]:
    """(id, stored time control) of every table with this status that has a time control."""
    found = await session.execute(
        select(GameTable.id, GameTable.time_control).where(
            GameTable.status == status, GameTable.time_control.is_not(None)
        )
    )
    return [(table_id, stored) for table_id, stored in found.all()]
