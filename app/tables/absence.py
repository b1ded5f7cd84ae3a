"""Clocks and absent players: a seat that runs out of time, the presence leases that say a
player is connected somewhere, and the takeover of an absent player's seat by a bot (by a
vote, by the clock keeper, on a timeout) and its return to the player.

The wall clock is read through ``now`` (the service's, read late), the moments stored in
the rows through ``utcnow``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import random
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from datetime import datetime, timedelta
from typing import Any, Protocol

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app import errors
from app.db import repo
from app.db.models import GameTable, Player, Seat, utcnow
from app.realtime.broker import TableKind
from app.tables import clocks
from app.tables.bots import SERVER_MOVES, TIMEOUT_MOVE, ServerMove
from app.tables.cancelling import settle_cancel
from app.tables.clocks import time_control_of
from app.tables.snapshot import PLAYING, Snapshot, as_utc, current_votes, later

log = logging.getLogger("partida.tables")


class Tables(Protocol):
    """What the clocks and takeovers use of the table service (no import of it: the service
    builds this part)."""

    sessionmaker: async_sessionmaker[AsyncSession]
    db: AsyncEngine
    writer: AbstractAsyncContextManager[Any]

    def presence(self, table_id: str) -> set[str]: ...

    def table_lock(self, table_id: str) -> asyncio.Lock: ...

    async def snapshot(self, table_id: str, *, fresh: bool = True) -> Snapshot: ...

    def invalidate(self, table_id: str) -> None: ...

    async def publish(self, table_id: str, version: int, kind: TableKind) -> None: ...

    async def lock_row(self, session: AsyncSession, table_id: str) -> GameTable: ...


class Absence:
    """Time-outs, presence leases and takeovers; the clock keeper drives it
    (app.tables.clocks.ClockDriver)."""

    def __init__(
        self,
        core: Tables,
        move: ServerMove,
        schedule_bots: Callable[[str], None],
        now: Callable[[], float],
        touch_seconds: float,
    ) -> None:
        self.core = core
        # A move the server makes for a seat, through the gauntlet and the commit.
        self.move = move
        self.schedule_bots = schedule_bots
        # The wall clock (the service's, read late: a test may set it).
        self.now = now
        self.touch_seconds = touch_seconds
        # (table, player) -> the presence lease this instance last wrote (see mark_seen).
        self._leases: dict[tuple[str, str], datetime] = {}
        # The clock keeper's schedule (see clock_due): the tables changed since its last
        # pass, the moment each clocked table next needs a look, and the playing tables
        # without a clock or automatic takeover (forgotten at each full pass).
        self.changed = asyncio.Event()
        self._changed: set[str] = set()
        self._due: dict[str, float] = {}
        self._unclocked: set[str] = set()
        self._rescan = False

    async def time_out(self, table_id: str, seat: int, version: int) -> bool:
        """The seat ran out of time at ``version``: apply the table's policy. Several instances
        may try at once; the idempotency key and the compare-and-set let one of them win.

        A bot's seat runs on the clock too: a strong bot still thinking (a busy thinking pool)
        when its time is up gets the normal bot's move, like a player's seat."""
        snap = await self.core.snapshot(table_id)
        if snap.status != PLAYING or snap.version != version or snap.state is None:
            return False
        if seat not in snap.to_act():
            return False
        if not clocks.overdue(snap.time_control, snap.clocks, [seat], self.now()):
            return False
        if (
            snap.time_control.on_timeout == "bot_takeover"
            and snap.seats[seat].player_id
            and not snap.is_bot(seat)
        ):
            await self.take_over(table_id, seat, reason="timeout")
            return True
        engine = snap.engine
        view = engine.view(snap.state, seat)
        legal = engine.legal_actions(snap.state, seat)
        rng = random.Random(f"{snap.seed}:{snap.version}:{seat}:timeout")
        choice = engine.bot(view, legal, rng, "normal")
        try:
            await self.move(
                table_id, seat, version, choice.model_dump(mode="json"),
                f"{TIMEOUT_MOVE}{version}:{seat}", timed_out=True,
            )  # fmt: skip
        except (errors.StaleVersion, errors.NotYourTurnError, errors.NotPlaying):
            return False
        log.info("clock ran out", extra={"table": table_id, "seat": seat, "version": version})
        return True

    async def _absence(
        self, session: AsyncSession, snap: Snapshot, seat: int, seen: datetime | None
    ) -> tuple[float, datetime]:
        """How long the seat's player has been away, and since when: neither connected to
        any instance nor acting. ``seen`` is the seat's ``last_seen_at``, a lease that every
        instance holding a socket of the player keeps in the future (``mark_seen``); moves
        the server made for the seat (bot, timeout) are not the player's."""
        now = utcnow()
        if snap.seats[seat].player_id in self.core.presence(snap.id):
            return 0.0, now
        acted = await repo.last_own_move_at(session, snap.id, seat, SERVER_MOVES)
        since = max(as_utc(m) for m in (seen, acted, snap.created_at) if m is not None)
        return max(0.0, (now - since).total_seconds()), since

    async def away_seconds(self, snap: Snapshot, seat: int) -> float:
        """How long the seat's player has been neither connected nor acting (any instance)."""
        async with self.core.sessionmaker() as session:
            seen = await repo.seat_last_seen(session, snap.id, seat)
            away, _ = await self._absence(session, snap, seat, seen)
        return away

    async def _seat_for_takeover(
        self, session: AsyncSession, snap: Snapshot, seat: int
    ) -> tuple[Seat, datetime]:
        """The seat row, locked, if its player is still there and away past the grace now,
        and since when; asked inside the transaction that hands the seat to a bot, so that a
        player seen meanwhile (on any instance) keeps it."""
        tc = snap.time_control
        row = await repo.hold_seat(session, snap.id, seat)
        player_id = snap.seats[seat].player_id
        if row is None or row.player_id is None or row.player_id != player_id:
            raise errors.NoTakeover(
                f"seat {seat} has no player to replace", reason="no_player", seat=seat
            )
        if row.bot_level is not None:
            raise errors.NoTakeover(
                f"seat {seat} is already played by a bot", reason="already_bot", seat=seat
            )
        away, since = await self._absence(session, snap, seat, row.last_seen_at)
        if away < tc.grace_seconds:
            # The seconds until a vote can work: the grace from when the absence starts (a
            # presence lease still running counts as seen until it ends).
            left = tc.grace_seconds - (utcnow() - as_utc(since)).total_seconds()
            raise errors.NoTakeover(
                f"seat {seat}'s player has been away {int(away)} s; a seat can be handed to a bot "
                f"after {tc.grace_seconds} s",
                reason="too_soon",
                seat=seat,
                away_seconds=int(away), grace_seconds=tc.grace_seconds,
                wait_seconds=max(1, math.ceil(left)),
            )  # fmt: skip
        return row, since

    async def vote_takeover(self, table_id: str, voter: Player, seat: int) -> Snapshot:
        """A seated player votes to hand an absent player's seat to a bot; a majority of the
        other seated players decides. A vote belongs to the absence it was cast in: once the
        player is seen again (connected or acting), it no longer counts."""
        snap = await self.core.snapshot(table_id)
        tc = snap.time_control
        if snap.status != PLAYING:
            raise errors.NotPlaying(f"the table is {snap.status}, not playing")
        if not 0 <= seat < snap.seat_count:
            raise errors.ValidationFailed(
                f"seat must be 0..{snap.seat_count - 1}",
                reason="out_of_range",
                params={"min": 0, "max": snap.seat_count - 1},
                field="seat",
            )
        voter_seat = snap.seat_of(voter.id)
        if voter_seat is None:
            raise errors.NotSeated("only players seated at this table may vote")
        if snap.seats[voter_seat].resigned:
            raise errors.Resigned("you resigned from this game; you no longer vote")
        target = snap.seats[seat]
        if voter_seat == seat:
            raise errors.NoTakeover("you cannot vote on your own seat", reason="own_seat")
        if target.player_id is None or target.taken_over or target.resigned:
            raise errors.NoTakeover(
                f"seat {seat} is already played by a bot", reason="already_bot", seat=seat
            )
        if tc.abandon == "off":
            raise errors.NoTakeover("this table does not hand seats to bots", reason="off")
        # Players who resigned have left the game: they neither vote nor count.
        voters = {
            s.player_id for s in snap.seats if s.player_id and s.seat != seat and not s.resigned
        }
        async with (
            self.core.table_lock(table_id),
            self.core.sessionmaker() as session,
            session.begin(),
        ):
            row, since = await self._seat_for_takeover(session, snap, seat)
            votes = [v for v in current_votes(row.takeover_votes, since) if v["voter"] in voters]
            if voter.id not in {v["voter"] for v in votes}:
                votes.append({"voter": voter.id, "at": utcnow().timestamp()})
            taken = len(votes) * 2 > len(voters)
            if taken:
                row.bot_level = tc.bot_level(snap.engine.info)
                row.takeover_votes = None
            else:
                row.takeover_votes = votes
        return await self._after_takeover(table_id, seat, "vote" if taken else None)

    async def take_over(
        self, table_id: str, seat: int, reason: str, *, absent: Snapshot | None = None
    ) -> Snapshot:
        """A bot plays the seat from now on; its player stays seated and may take it back.
        With ``absent`` (the table as the caller saw it), only if the player is still away
        past the grace, checked again in the transaction (``NoTakeover`` otherwise). The bot
        plays at the level the table chose for takeovers."""
        table = absent or await self.core.snapshot(table_id)
        level = table.time_control.bot_level(table.engine.info)
        async with (
            self.core.table_lock(table_id),
            self.core.sessionmaker() as session,
            session.begin(),
        ):
            if absent is not None:
                row, _ = await self._seat_for_takeover(session, absent, seat)
            else:
                found = await session.get(Seat, (table_id, seat))
                if found is None or found.player_id is None:
                    raise errors.NoTakeover(
                        f"seat {seat} has no player to replace", reason="no_player", seat=seat
                    )
                row = found
            row.bot_level = row.bot_level or level
            row.takeover_votes = None
        return await self._after_takeover(table_id, seat, reason)

    async def _after_takeover(self, table_id: str, seat: int, reason: str | None) -> Snapshot:
        self.core.invalidate(table_id)
        snap = await self.core.snapshot(table_id)
        if reason is not None:
            log.info(
                "seat taken over by a bot",
                extra={"table": table_id, "seat": seat, "reason": reason},
            )
            if snap.cancel_vote is not None:
                snap = await self._settle_cancel(table_id)
        await self.core.publish(table_id, snap.version, "table")
        if snap.status != PLAYING:  # cancelled: every seat's picture shows the end
            await self.core.publish(table_id, snap.version, "refresh")
        if reason is not None:
            self.schedule_bots(table_id)
        return snap

    async def _settle_cancel(self, table_id: str) -> Snapshot:
        """A seat's player lost their say in the cancel vote under way: the one rule
        (app.tables.cancelling) decides it again, in its own transaction on the table's row
        (not in the takeover's: the endings hold the table's row before a seat's)."""
        async with (
            self.core.table_lock(table_id),
            self.core.sessionmaker() as session,
            session.begin(),
        ):
            row = await self.core.lock_row(session, table_id)
            if row.status == PLAYING and settle_cancel(row) == "refused":
                row.updated_at = utcnow()
        self.core.invalidate(table_id)
        return await self.core.snapshot(table_id)

    async def take_back(self, table_id: str, player: Player) -> Snapshot:
        """The player returns: the bot leaves the seat and the clock restarts from now."""
        async with self.core.table_lock(table_id):
            snap = await self.core.snapshot(table_id)
            seat = snap.seat_of(player.id)
            if seat is None:
                raise errors.NotSeated("you hold no seat at this table")
            if snap.seats[seat].resigned:
                raise errors.Resigned("you resigned from this game; the seat stays with its bot")
            if not snap.seats[seat].taken_over:
                raise errors.NoTakeover("no bot is playing your seat", reason="not_taken_over")
            async with self.core.sessionmaker() as session, session.begin():
                row = await session.get(Seat, (table_id, seat))
                if row is None:  # removed since the snapshot (by its owner or housekeeping)
                    raise errors.NotFound(f"no table '{table_id}'", reason="table")
                row.bot_level = None
                row.takeover_votes = None
                row.last_seen_at = later(row.last_seen_at, utcnow())
                if snap.clocks is not None and snap.status == PLAYING:
                    table_row = await session.get(GameTable, table_id)
                    if table_row is None:
                        raise errors.NotFound(f"no table '{table_id}'", reason="table")
                    table_row.clocks = clocks.restart_seat(
                        snap.clocks, seat, seat in snap.to_act(), self.now()
                    )
            self.core.invalidate(table_id)
            snap = await self.core.snapshot(table_id)
        await self.core.publish(table_id, snap.version, "table")
        await self.core.publish(table_id, snap.version, "refresh")
        return snap

    async def mark_seen(
        self, connected: list[tuple[str, set[str]]], *, everyone: bool = False
    ) -> None:
        """These players are connected to these tables here: their seats' ``last_seen_at``
        becomes a lease, ``presence_lease`` ahead, that this instance renews every
        ``presence_touch_seconds`` while the socket stays open. Every instance reads a
        lease in the future as "connected somewhere", whatever the table's grace. The lease
        only moves forward (another instance's longer lease stands), and the player's
        takeover votes go (they belonged to an absence that is over). ``everyone``: this is
        the full list of the players connected here (the heartbeat). One transaction for
        all: on SQLite every write transaction holds the single writer lock."""
        rows = [
            {"t": table_id, "p": player_id}
            for table_id, players in connected
            for player_id in players
        ]
        if everyone:
            keep = {(r["t"], r["p"]) for r in rows}
            for key in [k for k in self._leases if k not in keep]:
                del self._leases[key]
        if not rows:
            return
        until = utcnow() + timedelta(seconds=clocks.presence_lease(self.touch_seconds))
        async with self.core.writer, self.core.db.begin() as conn:
            await repo.renew_leases(conn, [(r["t"], r["p"]) for r in rows], until)
        for r in rows:
            self._leases[(r["t"], r["p"])] = until

    async def mark_gone(self, table_id: str, player_id: str) -> None:
        """This instance's last socket of the player at the table closed: the lease it wrote
        is cut to ``presence_linger`` from now (long enough for another instance where the
        player is still connected to renew it), unless another instance's lease is there."""
        lease = self._leases.pop((table_id, player_id), None)
        linger = utcnow() + timedelta(seconds=clocks.presence_linger(self.touch_seconds))
        if lease is None or lease <= linger:
            return
        async with self.core.writer, self.core.db.begin() as conn:
            await repo.cut_lease(conn, table_id, player_id, lease, linger)

    # ------------------------------------------------------------------ the keeper's passes
    #
    # The clock keeper (app.tables.clocks.clock_keeper) does not walk every table each
    # tick: a full pass (``clock_tick``) now and then, and in between a pass over the
    # tables that changed (``table_changed``, told by the broker for every instance's
    # updates) or fall due (``_due``, the moment each clocked table next needs a look).

    def table_changed(self, table_id: str) -> None:
        """The table changed here or on another instance (a move, a start, a takeover, a
        player who came or went): the keeper's next pass looks at it again."""
        self._changed.add(table_id)
        self.changed.set()

    def rescan(self) -> None:
        """Updates may have been missed (the broker lost its connection): the keeper's next
        pass walks every table."""
        self._rescan = True
        self.changed.set()

    def seconds_to_due(self) -> float | None:
        """How long until some table needs the keeper (0: one changed), on the service's
        clock; None when no table is waiting for anything."""
        if self._changed or self._rescan:
            return 0.0
        if not self._due:
            return None
        return max(0.0, min(self._due.values()) - self.now())

    async def clock_tick(self) -> int:
        """A full pass of the clock keeper over every playing table with a time control:
        time-outs and automatic takeovers. Returns how many seats it acted on."""
        self.changed.clear()
        self._changed.clear()
        self._rescan = False
        async with self.core.sessionmaker() as session:
            rows = await repo.clocked_tables(session, PLAYING)
        acted = 0
        now = self.now()
        self._unclocked.clear()
        self._due.clear()
        for table_id, stored in rows:
            tc = time_control_of(stored)
            if not _kept(tc):
                self._unclocked.add(table_id)
                continue
            acted += await self._look_at(table_id, tc, now)
        return acted

    async def clock_due(self) -> int:
        """A pass over the tables that changed since the last pass or whose moment has come."""
        if self._rescan:
            return await self.clock_tick()
        self.changed.clear()
        now = self.now()
        tables = self._changed | {t for t, at in self._due.items() if at <= now}
        self._changed = set()
        acted = 0
        for table_id in tables:
            if table_id in self._unclocked:
                continue
            try:
                # The time control never changes: the cached table tells whether it has one.
                tc = (await self.core.snapshot(table_id, fresh=False)).time_control
            except errors.NotFound:
                self._due.pop(table_id, None)
                continue
            except Exception:
                log.exception("clock keeper failed on a table", extra={"table": table_id})
                continue
            if not _kept(tc):
                self._unclocked.add(table_id)
                continue
            acted += await self._look_at(table_id, tc, now)
        return acted

    async def _look_at(self, table_id: str, tc: clocks.TimeControl, now: float) -> int:
        """Time-outs and automatic takeovers at one table, and when it next needs a look."""
        acted = 0
        self._due.pop(table_id, None)
        try:
            snap = await self.core.snapshot(table_id)
            if snap.status != PLAYING:
                return 0
            for seat in clocks.overdue(tc, snap.clocks, sorted(snap.to_act()), now):
                acted += await self.time_out(table_id, seat, snap.version)
                snap = await self.core.snapshot(table_id)
            if tc.abandon == "auto":
                for seat in [s for s in snap.to_act() if not snap.is_bot(s)]:
                    if snap.seats[seat].player_id and (
                        await self.away_seconds(snap, seat) >= tc.grace_seconds
                    ):
                        with contextlib.suppress(errors.NoTakeover):
                            # Asked again in the takeover's own transaction.
                            await self.take_over(table_id, seat, reason="away", absent=snap)
                            acted += 1
            if acted:
                # What it did was published: the table is looked at again on the next pass.
                return acted
            moment = await self._next_look(snap, tc, now)
        except errors.NotFound:
            return acted
        except errors.AppError:
            moment = now  # as before the schedule: tried again on the next pass
        except Exception:
            log.exception("clock keeper failed on a table", extra={"table": table_id})
            moment = now
        if moment is not None:
            self._due[table_id] = moment
        return acted

    async def _next_look(self, snap: Snapshot, tc: clocks.TimeControl, now: float) -> float | None:
        """The earliest moment (service clock) a seat of the table may run out of time or be
        away past the grace, as far as this instance can tell now; None if nothing runs.
        Anything that would bring it forward (a move, a player who leaves on any instance)
        is published, and the table is then looked at again."""
        due = snap.to_act()
        moments = [d for s in due if (d := clocks.deadline(tc, snap.clocks, s)) is not None]
        if tc.abandon == "auto":
            for seat in [s for s in due if not snap.is_bot(s)]:
                if not snap.seats[seat].player_id:
                    continue
                if snap.seats[seat].player_id in self.core.presence(snap.id):
                    continue  # connected here: leaving is published
                away = await self.away_seconds(snap, seat)
                # A lease renewed meanwhile on another instance only makes the look early.
                moments.append(now + max(0.0, tc.grace_seconds - away))
        return min(moments, default=None)


def _kept(tc: clocks.TimeControl) -> bool:
    """Whether the clock keeper has anything to do at a table with this time control."""
    return tc.clock != "none" or tc.abandon == "auto"
