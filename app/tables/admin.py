"""The host's tools: list and delete tables, end a stuck game, rename or block players, prune,
and the housekeeping that expires open tables nobody joined."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, select

from app import errors
from app.db import repo
from app.db.models import GameTable, Player, Seat, utcnow
from app.realtime.broker import PlayerRevoked
from app.tables.outcomes import host_ended_result
from app.tables.service import TableService
from app.tables.snapshot import FINISHED, OPEN, PLAYING

log = logging.getLogger("partida.admin")


class Admin:
    def __init__(self, service: TableService) -> None:
        self.service = service
        self.sessionmaker = service.sessionmaker

    async def tables(self, status: str | None = None) -> list[dict[str, Any]]:
        async with self.sessionmaker() as session:
            query = select(GameTable).order_by(GameTable.created_at.desc())
            if status is not None:
                query = query.where(GameTable.status == status)
            rows = (await session.execute(query)).unique().scalars().all()
            snaps = [
                self.service.lobby.lightweight(r) for r in rows if r.game in self.service.games
            ]
        out = []
        for snap in snaps:
            table = self.service.presenter.table_public(snap)
            table["invite_code"] = snap.invite_code or None
            out.append(table)
        return out

    async def delete_table(self, table_id: str) -> None:
        async with self.sessionmaker() as session, session.begin():
            row = await session.get(GameTable, table_id)
            if row is None:
                raise errors.NotFound(f"no table '{table_id}'", reason="table")
            await session.delete(row)
        self.service.invalidate(table_id)
        await self.service.announce_table(table_id)
        log.info("table deleted by the admin", extra={"table": table_id})

    async def end_game(self, table_id: str) -> dict[str, Any]:
        """Stop a stuck game: it becomes finished with an 'ended by the host' result."""
        async with self.service.table_lock(table_id):
            async with self.sessionmaker() as session, session.begin():
                row = await session.get(GameTable, table_id)
                if row is None:
                    raise errors.NotFound(f"no table '{table_id}'", reason="table")
                if row.status != PLAYING:
                    raise errors.NotPlaying(f"the table is {row.status}, not playing")
                row.status = FINISHED
                row.result = host_ended_result()
                row.finished_at = row.updated_at = utcnow()
            self.service.invalidate(table_id)
            snap = await self.service.snapshot(table_id)
        await self.service.announce_table(table_id, snap.version)
        return self.service.presenter.table_public(snap)

    async def players(self) -> list[dict[str, Any]]:
        async with self.sessionmaker() as session:
            rows = await repo.players_by_age(session)
        return [
            {
                "id": p.id,
                "name": p.name,
                "blocked": p.is_blocked,
                "created_at": p.created_at.isoformat(),
            }
            for p in rows
        ]

    async def update_player(
        self, player_id: str, name: str | None, blocked: bool | None
    ) -> dict[str, Any]:
        async with self.sessionmaker() as session, session.begin():
            player = await session.get(Player, player_id)
            if player is None:
                raise errors.NotFound(f"no player '{player_id}'", reason="player")
            if name is not None:
                player.name = name
            if blocked is not None:
                player.is_blocked = blocked
            table_ids = (
                (await session.execute(select(Seat.table_id).where(Seat.player_id == player_id)))
                .scalars()
                .all()
            )
        for table_id in table_ids:
            self.service.invalidate(table_id)
        if blocked:
            await self.revoke_sockets(player_id)
        return {"id": player.id, "name": player.name, "blocked": player.is_blocked}

    async def revoke_sockets(self, player_id: str) -> None:
        """Close the player's open sockets on every instance (4401, "player blocked"): the
        broker's "revoked" notice. Call it after committing a block (or a deletion)."""
        try:
            await self.service.broker.publish(PlayerRevoked(player_id))
        except Exception:
            # The block is committed all the same; each socket re-reads its player within
            # ws.RECHECK_SECONDS of its next frame and closes then.
            log.exception("could not publish the revocation", extra={"player": player_id})
            return
        log.info("player blocked; sockets revoked", extra={"player": player_id})

    async def prune_finished(self, before: datetime) -> int:
        """Delete finished games older than ``before`` (history is kept until the host prunes)."""
        async with self.sessionmaker() as session, session.begin():
            result = await session.execute(
                delete(GameTable).where(
                    GameTable.status == FINISHED, GameTable.finished_at < before
                )
            )
        return int(result.rowcount or 0)  # type: ignore[attr-defined]

    async def expire_open_tables(self, older_than: timedelta) -> int:
        """Open tables that nobody joined (only the owner is seated) and that are older than the TTL."""
        cutoff = utcnow() - older_than
        async with self.sessionmaker() as session, session.begin():
            taken = (
                select(Seat.table_id)
                .where((Seat.player_id.is_not(None)) | (Seat.bot_level.is_not(None)))
                .group_by(Seat.table_id)
                .having(func.count() > 1)
            )
            ids = (
                (
                    await session.execute(
                        select(GameTable.id).where(
                            GameTable.status == OPEN,
                            GameTable.created_at < cutoff,
                            GameTable.id.not_in(taken),
                        )
                    )
                )
                .scalars()
                .all()
            )
            if ids:
                # The delete checks again on each row as it deletes it: a table someone joined
                # meanwhile (its lobby change holds the row and moves updated_at) is kept.
                gone = await session.execute(
                    delete(GameTable)
                    .where(
                        GameTable.id.in_(ids),
                        GameTable.status == OPEN,
                        GameTable.updated_at < cutoff,
                    )
                    .returning(GameTable.id)
                )
                ids = list(gone.scalars().all())
        for table_id in ids:
            self.service.invalidate(table_id)
        if ids:
            log.info("expired open tables", extra={"count": len(ids)})
        return len(ids)


async def housekeeping_loop(admin: Admin, ttl: timedelta, every: float) -> None:
    """Runs for the life of the process; one failed sweep never stops the next."""
    while True:
        try:
            await admin.expire_open_tables(ttl)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("housekeeping sweep failed")
        await asyncio.sleep(every)
