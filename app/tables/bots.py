"""The bot drivers: one task per table plays its bot seats' turns, at the table's pace,
through the same gauntlet and commit as a player's action (the table service's).

A driver asked to look again while it runs (``schedule_bots``) reads the table once more
before it stops; on start-up ``resume`` restarts the drivers of every running table.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app import errors
from app.db import repo
from app.tables import pace
from app.tables.snapshot import PLAYING, Snapshot

log = logging.getLogger("partida.tables")

# Moves the server makes for a seat carry these id prefixes in the log (never undoable).
BOT_MOVE, TIMEOUT_MOVE = "bot:", "timeout:"
SERVER_MOVES = (BOT_MOVE, TIMEOUT_MOVE)

#: The table as stored now.
Load = Callable[[str], Awaitable[Snapshot]]
#: The table as this instance last cached it, if it did.
Cached = Callable[[str], Snapshot | None]


class ServerMove(Protocol):
    """A move the server makes for a seat, through the gauntlet and the commit (a bot's, or
    the one a seat that ran out of time makes, ``timed_out``)."""

    def __call__(
        self,
        table_id: str,
        seat: int,
        version: int,
        action: Any,
        client_id: str | None,
        *,
        timed_out: bool = ...,
    ) -> Awaitable[Any]: ...


class Bots:
    """The bot drivers of this instance's tables."""

    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        snapshot: Load,
        cached: Cached,
        move: ServerMove,
        bot_delay: float,
    ) -> None:
        self.sessionmaker = sessionmaker
        self.snapshot = snapshot
        self.cached = cached
        self.move = move
        self.bot_delay = bot_delay
        self._bot_tasks: dict[str, asyncio.Task[None]] = {}
        # Tables whose bots were asked to look again while their driver was busy.
        self._bot_wakeups: set[str] = set()
        self._closing = False

    def schedule_bots(self, table_id: str) -> None:
        """Make sure a bot driver runs for the table if a bot seat may have to act."""
        if self._closing:
            return
        cached = self.cached(table_id)
        if cached is not None and not any(s.bot_level for s in cached.seats):
            return  # nobody here is a bot (a takeover reloads the seats before it schedules)
        self._bot_wakeups.add(table_id)
        task = self._bot_tasks.get(table_id)
        if task is not None and not task.done():
            # The running driver may have read the table before this change: it looks
            # again before it stops.
            return
        self._bot_tasks[table_id] = asyncio.create_task(
            self._drive_bots(table_id), name=f"bots-{table_id}"
        )

    async def _drive_bots(self, table_id: str) -> None:
        failures = 0
        while not self._closing:
            self._bot_wakeups.discard(table_id)
            try:
                snap = await self.snapshot(table_id)
            except errors.NotFound:
                return
            bot_seats = [s for s in snap.to_act() if snap.is_bot(s)]
            if not bot_seats or snap.state is None:
                if table_id in self._bot_wakeups:
                    continue  # something changed while we were reading: read again
                return
            # The table's pace, before every bot action: each one is a step people can see.
            await pace.pause(pace.bot_delay(snap.time_control.bot_pace, self.bot_delay))
            seat = bot_seats[0]
            engine = snap.engine
            level = snap.seats[seat].bot_level or "normal"
            try:
                view = engine.view(snap.state, seat)
                legal = engine.legal_actions(snap.state, seat)
                rng = random.Random(f"{snap.seed}:{snap.version}:{seat}")
                choice = engine.bot(view, legal, rng, level)
                await self.move(
                    table_id, seat, snap.version, choice.model_dump(mode="json"),
                    f"{BOT_MOVE}{snap.version}:{seat}",
                )  # fmt: skip
                failures = 0
            except (errors.StaleVersion, errors.NotYourTurnError, errors.NotPlaying):
                # Moved on, or ended meanwhile (cancelled, ended early): look again.
                await asyncio.sleep(0)
            except asyncio.CancelledError:
                raise
            except Exception:
                # Never give up on a running table (it would wait for the bot forever);
                # back off instead, and say so in the log each time.
                failures += 1
                log.exception("bot failed to act", extra={"table": table_id, "seat": seat})
                await asyncio.sleep(min(30.0, 0.5 * 2 ** (failures - 1)))

    async def resume(self) -> int:
        """On start-up: restart the bot drivers of every running table."""
        async with self.sessionmaker() as session:
            ids = await repo.table_ids_with_status(session, PLAYING)
        for table_id in ids:
            self.schedule_bots(table_id)
        return len(ids)

    async def close(self) -> None:
        """Stop every driver; none starts after this."""
        self._closing = True
        tasks = [t for t in self._bot_tasks.values() if not t.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
