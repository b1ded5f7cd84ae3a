"""Reads and writes of the player rows, in one place: the socket layer and the services ask
here instead of writing their own queries. (The table rows' queries still live in
app/tables/service.py; they move here as the service is split.)"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Player


async def player_by_id(session: AsyncSession, player_id: str) -> Player | None:
    return await session.get(Player, player_id)


async def player_by_token_hash(session: AsyncSession, token_hash: str) -> Player | None:
    found = await session.execute(select(Player).where(Player.token_hash == token_hash))
    return found.scalar_one_or_none()


async def players_by_age(session: AsyncSession) -> list[Player]:
    """Every player, the oldest first (the admin's list)."""
    return list((await session.execute(select(Player).order_by(Player.created_at))).scalars())
