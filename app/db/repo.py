"""Reads of the player rows and of the tables' logs, in one place: the socket layer and the
services ask here instead of writing their own queries. (The table service's commit and
lobby statements still live in app/tables/service.py.)"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import ActionRecord, GameTable, Player


async def player_by_id(session: AsyncSession, player_id: str) -> Player | None:
    return await session.get(Player, player_id)


async def player_by_token_hash(session: AsyncSession, token_hash: str) -> Player | None:
    found = await session.execute(select(Player).where(Player.token_hash == token_hash))
    return found.scalar_one_or_none()


async def players_by_age(session: AsyncSession) -> list[Player]:
    """Every player, the oldest first (the admin's list)."""
    return list((await session.execute(select(Player).order_by(Player.created_at))).scalars())


async def log_records(
    session: AsyncSession, table_id: str, since: int, limit: int | None = None
) -> list[ActionRecord]:
    """A table's log after version ``since``, in order (at most ``limit`` records)."""
    query = (
        select(ActionRecord)
        .where(ActionRecord.table_id == table_id, ActionRecord.version > since)
        .order_by(ActionRecord.version)
    )
    if limit is not None:
        query = query.limit(limit)
    return list((await session.execute(query)).scalars().all())


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
