"""Ending a table other than by its rules, and the next one (issue 18.3): a player resigns,
the players agree to cancel the game, the owner deletes an open table, "Play again".

Every change holds the table's row (as the lobby changes do, app.tables.seating) so that
it is ordered with the others on any instance, then announces the table. None of these
makes a new version of the game: the state and the log stay the engine's (``/replay``
and ``python -m app.verify`` re-play them as they are); the table's ``result`` and seats
say what happened. What a resignation does to the result is app.tables.outcomes.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import select

from app import errors
from app.db.models import GameTable, Player, Seat, utcnow
from app.fairness import new_secret, seed_from_secret
from app.games.base import automatic_opponents
from app.tables.cancelling import finish, settle_cancel
from app.tables.clocks import time_control_of
from app.tables.outcomes import early_result, game_goes_on
from app.tables.service import TableService
from app.tables.snapshot import FINISHED, OPEN, PLAYING, Snapshot, as_utc, new_id

log = logging.getLogger("partida.endings")


def _seat_of(row: GameTable, player: Player) -> Seat:
    for seat in row.seats:
        if seat.player_id == player.id:
            return seat
    if row.private:
        raise errors.NotFound(f"no table '{row.id}'", reason="table")  # not confirmed to outsiders
    raise errors.NotSeated("you hold no seat at this table")


def _check_say(seat: Seat) -> None:
    """Only a person playing their own seat has a say in a cancel (snapshot.is_cancel_voter)."""
    if seat.resigned_at is not None:
        raise errors.Resigned("you resigned from this game; you have no say in cancelling it")
    if seat.bot_level is not None:
        raise errors.SeatTakenOver("a bot is playing your seat; take it back first to vote")


class Endings:
    def __init__(self, service: TableService) -> None:
        self.service = service

    # ------------------------------------------------------------------ resign

    async def resign(self, table_id: str, player: Player) -> Snapshot:
        """The player leaves the running game for good: a bot plays the seat from now on,
        and the table's ``on_resign`` says what the seat's result is. A game with no person's
        seat left ends at once, and with "last" one left with a single seat
        (outcomes.game_goes_on)."""
        service = self.service
        ended = False
        async with service.table_lock(table_id):
            async with service.sessionmaker() as session, session.begin():
                row = await service.lock_row(session, table_id)
                mine = _seat_of(row, player)
                if row.status != PLAYING:
                    raise errors.NotPlaying(f"the table is {row.status}, not playing")
                if mine.resigned_at is not None:
                    raise errors.Resigned("you have already resigned from this game")
                now = utcnow()
                mine.resigned_at = now
                mine.bot_level = time_control_of(row.time_control).bot_level(
                    service.engine(row.game).info
                )
                mine.takeover_votes = None
                row.updated_at = now
                in_play = [s for s in row.seats if s.resigned_at is None]
                people = [s.seat for s in in_play if s.player_id is not None]
                if not game_goes_on(row.on_resign, [s.seat for s in in_play], people):
                    # A solo game resigned is lost to its automatic opponent (early_result).
                    finish(row, self._early_result(row))
                    ended = True
                if not ended:
                    # The player no longer has a say: those left may all have agreed already,
                    # or nobody but the proposer may be left to agree.
                    settle_cancel(row)
                    ended = row.status == FINISHED
            service.invalidate(table_id)
            snap = await service.snapshot(table_id)
        log.info(
            "player resigned",
            extra={"table": table_id, "seat": mine.seat, "mode": snap.on_resign, "ended": ended},
        )
        await self._announce(snap, state=True)
        if snap.status == FINISHED and snap.result and not snap.result.get("cancelled"):
            self.service.game_finished(table_id)
        elif snap.status == PLAYING:
            service.bots.schedule_bots(table_id)
        return snap

    def _early_result(self, row: GameTable) -> dict[str, Any]:
        """The result of a game ended by its resignations (outcomes.early_result), with the
        automatic opponents still in it: a solo game resigned is lost to its opponent."""
        # A moment read back from SQLite has no zone, the one just set has: compare in UTC.
        order = sorted((as_utc(s.resigned_at), s.seat) for s in row.seats if s.resigned_at)
        engine = self.service.engine(row.game)
        state = engine.State.model_validate(row.state) if row.state is not None else None
        others = [] if state is None else automatic_opponents(engine, state)
        return early_result(row.seat_count, [seat for _, seat in order], others)

    # ------------------------------------------------------------------ cancel

    async def propose_cancel(self, table_id: str, player: Player) -> Snapshot:
        """The owner proposes to cancel the running game; the proposal counts as their yes.
        Proposing again while a vote is under way counts the votes again. Refused when the
        owner has no say (resigned, or a bot plays their seat) or nobody else has one."""

        def change(row: GameTable) -> None:
            if row.owner_id != player.id:
                raise errors.Forbidden("only the table's owner may propose to cancel the game")
            if row.status != PLAYING:
                raise errors.NotPlaying(f"the table is {row.status}, not playing")
            _check_say(_seat_of(row, player))
            vote = dict(row.cancel_vote or {"by": player.id, "at": time.time(), "yes": []})
            yes = list(vote.get("yes") or ())
            if player.id not in yes:
                yes.append(player.id)
            row.cancel_vote = {**vote, "by": player.id, "yes": yes}
            if settle_cancel(row) == "refused":
                raise errors.CancelNeedsAnotherPlayer(
                    "cancelling needs the yes of another player who plays their own seat, and "
                    "every other seat is a bot's or resigned: resign, or play the game out"
                )

        return await self._vote_change(table_id, change, "cancel proposed")

    async def vote_cancel(self, table_id: str, player: Player, agree: bool) -> Snapshot:
        """A seated player answers the owner's proposal: every yes ends the game as
        cancelled; one no turns the proposal down (the owner may propose again)."""

        def change(row: GameTable) -> None:
            mine = _seat_of(row, player)
            if row.status != PLAYING:
                raise errors.NotPlaying(f"the table is {row.status}, not playing")
            _check_say(mine)
            if not isinstance(row.cancel_vote, dict):
                raise errors.CancelNotProposed(
                    "nobody has proposed to cancel this game (only its owner can)"
                )
            if not agree:
                row.cancel_vote = None
                return
            yes = list(row.cancel_vote.get("yes") or ())
            if player.id not in yes:
                yes.append(player.id)
            row.cancel_vote = {**row.cancel_vote, "yes": yes}
            settle_cancel(row)

        return await self._vote_change(
            table_id, change, "cancel agreed" if agree else "cancel refused"
        )

    async def _vote_change(
        self, table_id: str, change: Callable[[GameTable], None], what: str
    ) -> Snapshot:
        service = self.service
        async with service.table_lock(table_id):
            async with service.sessionmaker() as session, session.begin():
                row = await service.lock_row(session, table_id)
                change(row)
                row.updated_at = utcnow()
            service.invalidate(table_id)
            snap = await service.snapshot(table_id)
        log.info(what, extra={"table": table_id, "status": snap.status})
        await self._announce(snap, state=snap.status == FINISHED)
        return snap

    # ------------------------------------------------------------------ delete

    async def delete(self, table_id: str, player: Player) -> None:
        """The owner removes their open table (nobody has played at it); everyone seated
        there and every socket on it is told that it is gone."""
        service = self.service
        async with service.table_lock(table_id):
            async with service.sessionmaker() as session, session.begin():
                row = await service.lock_row(session, table_id)
                if row.owner_id != player.id:
                    raise errors.Forbidden("only the table's owner may delete it")
                if row.status != OPEN:
                    raise errors.AlreadyStarted(
                        f"only an open table can be deleted; this one is {row.status}"
                    )
                # The finished tables whose "Play again" made this one lose their pointer
                # (the database clears it): their pages stop offering to go there.
                before = (
                    await session.execute(
                        select(GameTable.id).where(GameTable.next_table_id == table_id)
                    )
                ).scalars()
                previous = list(before)
                await session.delete(row)
            service.invalidate(table_id)
        log.info("table deleted by its owner", extra={"table": table_id})
        await service.announce_table(table_id)
        for old in previous:
            service.invalidate(old)
            await service.announce_table(old)

    # ------------------------------------------------------------------ play again

    async def rematch(self, table_id: str, player: Player) -> tuple[Snapshot, bool]:
        """The next table of a finished one: same game, options, seats, privacy, time
        control and resign rule; every player seated again at their own seat (they may
        leave it), every bot again at its level; the caller is its owner. Made once: every
        later call, by any of its players, answers the same table (True: made now)."""
        service = self.service
        created: GameTable | None = None
        async with service.table_lock(table_id):
            # The writer (SQLite) and the table's row order this with every other change;
            # the caller's row orders their creates for the cap (service.check_table_cap).
            async with service.writer, service.sessionmaker() as session, session.begin():
                row = await service.lock_row(session, table_id)
                _seat_of(row, player)
                if row.status != FINISHED:
                    raise errors.NotFinished("play again once this game has ended")
                existing = (
                    await session.get(GameTable, row.next_table_id) if row.next_table_id else None
                )
                if existing is None:
                    await service.lobby.check_table_cap(session, player)
                    created = self._next_table(row, player)
                    session.add(created)
                    # Inserted first: the old table's pointer refers to it.
                    await session.flush()
                    row.next_table_id = created.id
                    next_id = created.id
                else:
                    next_id = existing.id
            service.invalidate(table_id)
            old = await service.snapshot(table_id)
        snap = await service.snapshot(next_id)
        if created is not None:
            log.info("play again", extra={"table": table_id, "next": next_id})
            await service.announce_table(next_id, snap.version)
            await service.announce_table(table_id, old.version)
        return snap, created is not None

    def _next_table(self, row: GameTable, player: Player) -> GameTable:
        engine = self.service.engine(row.game)
        options = self.service.lobby.table_options(engine, row.options, row.seat_count)
        secret = new_secret()
        now = utcnow()
        table = GameTable(
            id=new_id(),
            game=row.game,
            options=options.model_dump(mode="json"),
            status=OPEN,
            seat_count=row.seat_count,
            seed=seed_from_secret(secret),
            seed_secret=secret,
            version=0,
            private=row.private,
            invite_code=secrets.token_urlsafe(9) if row.private else "",
            time_control=row.time_control,
            on_resign=row.on_resign,
            owner_id=player.id,
            created_at=now,
            updated_at=now,
        )
        seats = []
        for old in row.seats:
            person = old.player_id if old.player is not None and not old.player.is_blocked else None
            # A person keeps their seat (a bot that played for them does not come along);
            # a bot seat comes back at its level; a seat whose player is gone is free.
            bot = None if old.player_id is not None else old.bot_level
            seats.append(Seat(seat=old.seat, player_id=person, bot_level=bot))
        table.seats = seats
        return table

    # ------------------------------------------------------------------ fan-out

    async def _announce(self, snap: Snapshot, *, state: bool) -> None:
        """Seats and status to every instance's sockets; with ``state`` also a state frame
        (legal actions gone for a resigned seat, or the result), at the same version."""
        await self.service.announce_table(snap.id, snap.version)
        if state:
            await self.service.publish(snap.id, snap.version, "refresh")
