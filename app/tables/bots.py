"""The bot drivers: one task per table plays its bot seats' turns, at the table's pace,
through the same gauntlet and commit as a player's action (the table service's).

A driver asked to look again while it runs (``schedule_bots``) reads the table once more
before it stops; on start-up ``resume`` restarts the drivers of every running table.

Each bot plays at its seat's level. The easy and normal bots decide in a few milliseconds at
most, here; a strong bot searches in the thinking pool (:mod:`app.tables.thinking`),
while the table's pace runs, so people wait for the longer of the two, not for both. A
strong bot with a running clock thinks for at most a quarter of the time it has left.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app import errors
from app.db import repo
from app.games.base import STRONG, SearchBudget
from app.tables import clocks, pace
from app.tables.snapshot import PLAYING, Snapshot
from app.tables.thinking import ThinkingPool, answer, question_for

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
        thinking: ThinkingPool,
        budget: SearchBudget,
        now: Callable[[], float],
    ) -> None:
        self.sessionmaker = sessionmaker
        self.snapshot = snapshot
        self.cached = cached
        self.move = move
        self.bot_delay = bot_delay
        self.thinking = thinking
        self.budget = budget
        self.now = now
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
            seat = bot_seats[0]
            # The table's pace, before every bot action: each one is a step people can see.
            delay = pace.bot_delay(snap.time_control.bot_pace, self.bot_delay)
            try:
                choice = await self._decide(table_id, snap, seat, delay)
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

    async def _decide(self, table_id: str, snap: Snapshot, seat: int, delay: float) -> Any:
        """The seat's bot's move at this version, after the table's pace."""
        if snap.state is None:
            raise errors.NotPlaying("the table has no game running")
        engine = snap.engine
        level = snap.seats[seat].bot_level or engine.info.default_bot_level
        budget = self.budget_for(snap, seat, delay)
        seed = f"{snap.seed}:{snap.version}:{seat}"
        question = question_for(engine, snap.state, seat, level, seed, budget)
        if level == STRONG and len(question.legal_actions) > 1:
            index, _ = await asyncio.gather(
                self.thinking.ask(table_id, question), pace.pause(delay)
            )
        else:
            await pace.pause(delay)
            index = answer(engine, question)  # milliseconds at most: no need to leave the loop
        return question.legal_actions[index]

    def budget_for(self, snap: Snapshot, seat: int, delay: float) -> SearchBudget:
        """The search budget of the seat's strong bot now: the server's, and at most a
        quarter of what its clock has left after the pace (never less than a tenth of a
        second: a bot that is out of time is timed out like anybody)."""
        deadline = clocks.deadline(snap.time_control, snap.clocks, seat)
        if deadline is None:
            return self.budget
        left = deadline - self.now() - delay
        return self.budget._replace(seconds=min(self.budget.seconds, max(0.1, left / 4)))

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
        self.thinking.close()
