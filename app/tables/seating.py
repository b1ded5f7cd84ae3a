"""The lobby: making a table, its seats while it is open (join, leave, a bot), its start,
and the lists of tables (the lobby's pages, a player's own tables).

Every seat change holds the table's row (``lock_row``) in one transaction, so that it is
ordered with the others on any instance, then announces the table; the listing query
itself is app.tables.lobby.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable, Mapping
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel, ValidationError
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm.exc import StaleDataError

from app import errors
from app.db import repo
from app.db.models import ActionRecord, GameTable, Player, Seat, utcnow
from app.fairness import new_secret, seed_from_secret
from app.games.base import Engine, InvalidOptions, parse_options
from app.realtime.broker import TableKind
from app.refusals import choices, validation_failed
from app.signing import DeploymentSigner
from app.tables import clocks, lobby
from app.tables.clocks import TimeControl, time_control_of
from app.tables.outcomes import DEFAULT_ON_RESIGN
from app.tables.presenter import Presenter
from app.tables.replay import SETUP
from app.tables.snapshot import (
    FINISHED,
    OPEN,
    PLAYING,
    STATUSES,
    SeatInfo,
    Snapshot,
    later,
    new_id,
    vote_ids,
)

log = logging.getLogger("partida.tables")
# What a lobby change returns (the seat it took, or nothing), passed on by _change_seats.
Outcome = TypeVar("Outcome")


class Tables(Protocol):
    """What the lobby uses of the table service (no import of it: the service builds the
    lobby)."""

    sessionmaker: async_sessionmaker[AsyncSession]
    games: Mapping[str, Engine]
    writer: AbstractAsyncContextManager[Any]
    presenter: Presenter

    def engine(self, game_id: str) -> Engine: ...

    def table_lock(self, table_id: str) -> asyncio.Lock: ...

    async def snapshot(self, table_id: str, *, fresh: bool = True) -> Snapshot: ...

    def invalidate(self, table_id: str) -> None: ...

    def check_visible(
        self, snap: Snapshot, viewer_id: str | None, invite: str | None = None
    ) -> None: ...

    async def lock_row(self, session: AsyncSession, table_id: str) -> GameTable: ...

    async def publish(self, table_id: str, version: int, kind: TableKind) -> None: ...

    def alert_new_turns(self, snap: Snapshot, before: set[int]) -> None: ...


class Lobby:
    """Tables before their game, and the lists of tables."""

    def __init__(
        self,
        core: Tables,
        schedule_bots: Callable[[str], None],
        now: Callable[[], float],
        cap: int,
        cursors: DeploymentSigner,
    ) -> None:
        self.core = core
        # Signs the listing's cursors with the deployment's key (every instance honours them).
        self.cursors = cursors
        self.schedule_bots = schedule_bots
        # The wall clock (the service's, read late: a test may set it).
        self.now = now
        # How many tables that can still move one player may own.
        self.cap = cap

    async def create_table(
        self,
        owner: Player,
        game: str,
        options: dict[str, Any] | None,
        seats: int | None,
        private: bool = False,
        time_control: TimeControl | None = None,
        on_resign: str = DEFAULT_ON_RESIGN,
    ) -> Snapshot:
        engine = self.core.engine(game)
        info = engine.info
        seat_count = seats if seats is not None else max(2, info.min_players)
        if not info.min_players <= seat_count <= info.max_players:
            raise errors.ValidationFailed(
                f"{info.title} is for {info.min_players} to {info.max_players} players, not {seat_count}",
                reason="seat_count",
                params={"min": info.min_players, "max": info.max_players, "seats": seat_count},
                field="seats",
            )
        parsed = self.table_options(engine, options or {}, seat_count)
        level = time_control.takeover_level if time_control else None
        if level is not None and level not in info.bot_levels:
            raise errors.ValidationFailed(
                f"takeover_level must be one of {', '.join(info.bot_levels)}",
                reason="not_a_choice",
                params={"expected": choices([f"'{level}'" for level in info.bot_levels])},
                field="time_control.takeover_level",
            )
        secret = new_secret()
        table = GameTable(
            id=new_id(),
            game=game,
            options=parsed.model_dump(mode="json"),
            status=OPEN,
            seat_count=seat_count,
            seed=seed_from_secret(secret),
            seed_secret=secret,
            version=0,
            private=private,
            time_control=(time_control or TimeControl()).model_dump(),
            invite_code=secrets.token_urlsafe(9) if private else "",
            on_resign=on_resign,
            owner_id=owner.id,
            created_at=utcnow(),
            updated_at=utcnow(),
        )
        table.seats = [Seat(seat=i) for i in range(seat_count)]
        table.seats[0].player_id = owner.id
        # The count and the insert are one transaction that holds the owner's row (PostgreSQL:
        # every instance's creates by this owner queue there) or the writer (SQLite, one
        # process): concurrent creates cannot all pass a count that none of them has changed.
        async with self.core.writer, self.core.sessionmaker() as session, session.begin():
            await self.check_table_cap(session, owner)
            session.add(table)
        snap = await self.core.snapshot(table.id)
        await self.core.publish(snap.id, snap.version, "table")
        return snap

    async def check_table_cap(self, session: AsyncSession, owner: Player) -> None:
        """Refuse a table beyond the owner's cap; call it in the transaction that inserts."""
        cap = self.cap
        if not await repo.hold_player(session, owner.id):
            raise errors.Unauthorized("this player no longer exists", reason="unknown_player")
        count = await repo.tables_that_can_still_move(session, owner.id)
        if count >= cap:
            raise errors.TooManyTables(
                f"you already own {count} tables that can still move (the limit is {cap}); "
                "finish, cancel or delete some first",
                count=count, limit=cap,
            )  # fmt: skip

    @staticmethod
    def table_options(engine: Engine, options: dict[str, Any], seat_count: int) -> BaseModel:
        if not isinstance(options, dict):
            raise errors.ValidationFailed(
                "options must be a JSON object",
                reason="not_object",
                field="options",
            )
        try:
            parsed = parse_options(engine, options)
        except ValidationError as exc:
            raise validation_failed(
                f"invalid options for {engine.info.title}",
                exc.errors(include_url=False),
                document=options,
                root="options",
            ) from None
        try:
            engine.validate_options(parsed, seat_count)
        except InvalidOptions as exc:
            # A game's check across options names the option it refuses, as pydantic would.
            loc = [] if exc.option is None else exc.option.split(".")
            raise errors.ValidationFailed(
                exc.message,
                reason=exc.reason,
                params=exc.params,
                field=".".join(["options", *loc]),
                errors=[{"loc": loc, "msg": exc.message, "type": exc.reason or "invalid"}],
            ) from None
        return parsed

    async def list_tables(
        self,
        status: str | None,
        game: str | None,
        viewer: Player | None = None,
        limit: int = lobby.MAX_PAGE,
        cursor: str | None = None,
    ) -> tuple[list[dict[str, Any]], str | None]:
        """One page of tables, newest first, and the cursor of the next page (None at the end).

        Private tables are excluded by the query itself unless the viewer is seated at them
        (app.tables.lobby), so a page is always full of tables the viewer may see."""
        if status is not None and status not in STATUSES:
            raise errors.ValidationFailed(
                f"status must be one of {', '.join(STATUSES)}",
                reason="not_a_choice",
                params={"expected": ", ".join(STATUSES)},
                field="status",
            )
        if game is not None:
            self.core.engine(game)
        if not 1 <= limit <= lobby.MAX_PAGE:
            raise errors.ValidationFailed(
                f"limit is 1..{lobby.MAX_PAGE}",
                reason="out_of_range",
                params={"min": 1, "max": lobby.MAX_PAGE},
                field="limit",
            )
        viewer_id = viewer.id if viewer else None
        signer = await self.cursors.signer()
        after = lobby.decode_cursor(signer, cursor) if cursor is not None else None
        query = lobby.listing_query(
            status=status, game=game, games=self.core.games, viewer_id=viewer_id, after=after,
            limit=limit + 1,
        )  # fmt: skip
        async with self.core.sessionmaker() as session:
            rows = list((await session.execute(query)).unique().scalars().all())
            more = len(rows) > limit
            rows = rows[:limit]
            snaps = [self.lightweight(row) for row in rows]
        following = lobby.encode_cursor(signer, rows[-1].created_at, rows[-1].id) if more else None
        return [self.core.presenter.table_public(s, viewer_id) for s in snaps], following

    def lightweight(self, row: GameTable) -> Snapshot:
        """A snapshot for listings: no state parsing (the listing never shows a view)."""
        return Snapshot(
            id=row.id, game=row.game, engine=self.core.games[row.game], options=row.options,
            status=row.status, version=row.version, seat_count=row.seat_count, seed=row.seed,
            owner_id=row.owner_id, owner_name=row.owner.name,
            seats=[SeatInfo(s.seat, s.player_id, s.player.name if s.player else None, s.bot_level,
                            None, vote_ids(s.takeover_votes, s.last_seen_at), s.last_seen_at,
                            s.resigned_at)
                   for s in row.seats],
            state=None, result=row.result, created_at=row.created_at,
            private=row.private, invite_code=row.invite_code, seed_secret=row.seed_secret,
            time_control=time_control_of(row.time_control), clocks=row.clocks,
            on_resign=row.on_resign, cancel_vote=row.cancel_vote, next_table=row.next_table_id,
        )  # fmt: skip

    async def _change_seats(
        self, table_id: str, change: Callable[[GameTable], Outcome]
    ) -> tuple[Snapshot, Outcome]:
        """Run a lobby change on an open table in one transaction, then announce it. An open
        table left with nobody seated is removed in that same transaction."""
        async with self.core.table_lock(table_id):
            try:
                async with self.core.sessionmaker() as session, session.begin():
                    row = await self.core.lock_row(session, table_id)
                    if row.status != OPEN:
                        raise errors.AlreadyStarted("the game has already started; seats are fixed")
                    outcome = change(row)
                    row.updated_at = utcnow()
                    if not any(s.player_id is not None for s in row.seats):
                        await session.delete(row)
            except IntegrityError:
                # The only constraint a lobby change can meet: one seat per player per table.
                self.core.invalidate(table_id)
                raise errors.AlreadySeated("you already hold a seat at this table") from None
            except StaleDataError:
                # Removed under the change (by the host or the housekeeping).
                self.core.invalidate(table_id)
                raise errors.NotFound(f"no table '{table_id}'", reason="table") from None
            self.core.invalidate(table_id)
            try:
                snap = await self.core.snapshot(table_id)
            except errors.NotFound:
                await self.core.publish(table_id, 0, "table")
                raise
        await self.core.publish(table_id, snap.version, "table")
        return snap, outcome

    async def join(
        self, table_id: str, player: Player, invite: str | None = None
    ) -> tuple[Snapshot, int]:
        def change(row: GameTable) -> int:
            seated = any(s.player_id == player.id for s in row.seats)
            if (
                row.private
                and not seated
                and not secrets.compare_digest((invite or "").encode(), row.invite_code.encode())
            ):
                # Without its code a private table is not confirmed to exist; a wrong code is
                # a guess, counted against the caller's address (WrongInvite).
                raise (errors.WrongInvite if invite else errors.NotFound)(
                    f"no table '{table_id}'", reason="table"
                )
            if seated:
                raise errors.AlreadySeated("you already hold a seat at this table")
            free = [s for s in row.seats if s.player_id is None and s.bot_level is None]
            if not free:
                raise errors.TableFull("every seat at this table is taken")
            free[0].player_id = player.id
            return free[0].seat

        # Checked before the lobby rules too: a running private table is not confirmed either.
        self.core.check_visible(await self.core.snapshot(table_id), player.id, invite)
        return await self._change_seats(table_id, change)

    async def leave(self, table_id: str, player: Player) -> Snapshot | None:
        """Give up the seat; the owner hands the table to the next player, and a table left
        with nobody is removed (in the same transaction, so nobody joins a table being
        removed). None when the table is gone."""

        def change(row: GameTable) -> None:
            mine = [s for s in row.seats if s.player_id == player.id]
            if not mine:
                raise errors.NotSeated("you hold no seat at this table")
            for s in mine:
                s.player_id = None
            humans = [s for s in row.seats if s.player_id is not None]
            if row.owner_id == player.id and humans:
                row.owner_id = humans[0].player_id  # type: ignore[assignment]
            return None

        try:
            snap, _ = await self._change_seats(table_id, change)
        except errors.NotFound:
            return None
        return snap

    async def add_bot(
        self, table_id: str, player: Player, level: str | None
    ) -> tuple[Snapshot, int]:
        snap = await self.core.snapshot(table_id)
        levels = snap.engine.info.bot_levels
        chosen = level or snap.engine.info.default_bot_level
        if chosen not in levels:
            raise errors.ValidationFailed(
                f"bot level must be one of {', '.join(levels)}",
                reason="not_a_choice",
                params={"expected": ", ".join(levels)},
                field="level",
            )

        def change(row: GameTable) -> int:
            if row.owner_id != player.id:
                raise errors.Forbidden("only the table's owner may add bots", reason="owner_only")
            free = [s for s in row.seats if s.player_id is None and s.bot_level is None]
            if not free:
                raise errors.TableFull("every seat at this table is taken")
            free[0].bot_level = chosen
            return free[0].seat

        return await self._change_seats(table_id, change)

    async def start(self, table_id: str, player: Player) -> Snapshot:
        async with self.core.table_lock(table_id):
            async with self.core.sessionmaker() as session, session.begin():
                # Holds the row as the lobby changes do: no seat empties under a start.
                row = await self.core.lock_row(session, table_id)
                if row.owner_id != player.id:
                    raise errors.Forbidden(
                        "only the table's owner may start the game", reason="owner_only"
                    )
                if row.status != OPEN:
                    raise errors.AlreadyStarted("the game has already started")
                taken = sum(1 for s in row.seats if s.player_id or s.bot_level)
                if taken < row.seat_count:
                    raise errors.TableNotFull(
                        f"{taken} of {row.seat_count} seats are taken; add bots or wait for players",
                        taken=taken, seats=row.seat_count,
                    )  # fmt: skip
                engine = self.core.engine(row.game)
                options = self.table_options(engine, row.options, row.seat_count)
                state, setup_events = engine.start(row.seat_count, row.seed, options)
                row.state = state.model_dump(mode="json")
                row.version = 1
                row.status = PLAYING
                row.started_at = row.updated_at = utcnow()
                # The setup's events (deal 1 or round 1 begun, first player drawn) are version
                # 1 of the log, by nobody: a client following the log sees the first deal too.
                session.add(
                    ActionRecord(
                        table_id=row.id,
                        version=1,
                        seat=None,
                        action={},
                        events=[e.model_dump(mode="json") for e in setup_events],
                        kind=SETUP,
                        created_at=row.started_at,
                    )
                )
                tc = time_control_of(row.time_control)
                if tc.clock != "none":
                    row.clocks = clocks.start_clocks(
                        tc, row.seat_count, set(engine.to_act(state)), self.now()
                    )
                for seat_row in row.seats:
                    seat_row.last_seen_at = later(seat_row.last_seen_at, row.started_at)
                self._finish_if_over(engine, state, row)
            self.core.invalidate(table_id)
            snap = await self.core.snapshot(table_id)
        log.info("table started", extra={"table": table_id, "game": snap.game})
        await self.core.publish(table_id, snap.version, "table")
        await self.core.publish(table_id, snap.version, "state")
        self.core.alert_new_turns(snap, set())
        self.schedule_bots(table_id)
        return snap

    @staticmethod
    def _finish_if_over(engine: Engine, state: BaseModel, row: GameTable) -> None:
        result = engine.result(state)
        if result is not None:
            row.status = FINISHED
            row.result = result.model_dump(mode="json")
            row.finished_at = utcnow()

    async def my_tables(self, player: Player, limit: int = 100) -> list[dict[str, Any]]:
        """The tables the player sits at, newest first, with whether it is their turn."""
        async with self.core.sessionmaker() as session:
            ids = await repo.table_ids_of_player(session, player.id, limit)
        out = []
        for table_id in ids:
            try:
                snap = await self.core.snapshot(table_id)
            except errors.NotFound:
                continue
            seat = snap.seat_of(player.id)
            table = self.core.presenter.table_public(snap, player.id)
            table["my_seat"] = seat
            table["my_turn"] = seat is not None and seat in snap.to_act()
            out.append(table)
        out.sort(key=lambda t: (not t["my_turn"], t["status"] == FINISHED))
        return out

    async def set_webhook(self, player: Player, url: str | None) -> None:
        async with self.core.sessionmaker() as session, session.begin():
            table_ids = await repo.set_webhook(session, player.id, url)
        player.webhook_url = url
        for table_id in table_ids:
            self.core.invalidate(table_id)
