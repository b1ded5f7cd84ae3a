"""The table service: lobby rules, seats, the action gauntlet, bots, replay.

Everything that changes a table goes through here. REST routes and the
WebSocket handler are thin adapters over these methods. Nothing here knows any
game's rules: it speaks only the engine protocol of ``app.games.base``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from pydantic import BaseModel, ValidationError
from sqlalchemy import (
    Table,
    bindparam,
    case,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession, async_sessionmaker

from app import errors
from app.config import Settings
from app.db import repo
from app.db.models import ActionRecord, GameTable, Player, Seat, utcnow
from app.games.base import (
    Engine,
    GameOver,
    Locale,
    NotYourTurn,
    RulesError,
    action_adapter,
    parse_action,
)
from app.metrics import ACTION_LATENCY, ACTIONS
from app.realtime.broker import Broker, TableKind, TableUpdate
from app.refusals import validation_reason
from app.tables import clocks
from app.tables.bots import SERVER_MOVES, TIMEOUT_MOVE, Bots
from app.tables.clocks import time_control_of
from app.tables.history import History, redact_events, shown
from app.tables.notify import TurnNotifier
from app.tables.outcomes import (
    DEFAULT_ON_RESIGN,
    with_resignations,
)
from app.tables.presenter import Presenter, validation_details
from app.tables.replay import (
    ACTION,
    UNDO,
    ReplayWork,
)
from app.tables.seating import Lobby
from app.tables.snapshot import (
    FINISHED,
    OPEN,
    PLAYING,
    UNDO_MOVER,
    UNDO_SETTLED,
    SeatInfo,
    Snapshot,
    as_utc,
    current_votes,
    later,
    may_undo,
    new_id,
    vote_ids,
)

log = logging.getLogger("partida.tables")

# The plain tables behind the models: the commit's statements skip the ORM layer entirely.
_TABLES = cast(Table, GameTable.__table__)
_LOG = cast(Table, ActionRecord.__table__)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _check_client_id(client_id: str | None) -> None:
    if client_id is not None and client_id.startswith(SERVER_MOVES):
        raise errors.ValidationFailed(
            "action ids starting with 'bot:' or 'timeout:' are reserved for the server",
            reason="reserved_id",
            field="id",
        )


Catalog = Mapping[str, Engine]
# Who has a socket open to a table in this process (the realtime roster answers).
Presence = Callable[[str], set[str]]
# Called with a table's id once its game has ended (ratings).
OnFinished = Callable[[str], Coroutine[Any, Any, Any]]


def game_engine(games: Catalog, game_id: str) -> Engine:
    """The engine of ``game_id``, or NotFound naming the games there are."""
    engine = games.get(game_id)
    if engine is None:
        known = ", ".join(sorted(games))
        raise errors.NotFound(
            f"no game '{game_id}'; known games: {known}",
            reason="game",
            params={"game": game_id},
        )
    return engine


class TableService:
    """The gauntlet, persistence calls, the state cache and the bot drivers."""

    RECENT_EVENTS = 64

    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        games: Catalog,
        broker: Broker,
        settings: Settings,
        *,
        presence: Presence | None = None,
        notifier: TurnNotifier | None = None,
        on_finished: OnFinished | None = None,
    ) -> None:
        self.sessionmaker = sessionmaker
        self.db: AsyncEngine = sessionmaker.kw["bind"]
        self.games = games
        self.broker = broker
        self.settings = settings
        self._cache: dict[str, Snapshot] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        # SQLite has one writer: two transactions that meet wait in its busy handler, which
        # sleeps up to 100 ms at a time. Taking turns here instead keeps commits in order and
        # the slowest ones fast. PostgreSQL writes different rows concurrently; no lock.
        self.writer: contextlib.AbstractAsyncContextManager[Any] = (
            asyncio.Lock() if settings.is_sqlite else contextlib.nullcontext()
        )
        self.presence: Presence = presence or (lambda _table_id: set())
        # Late-bound: the clock is this module's ``time`` whenever it is asked.
        self.presenter = Presenter(self.presence, now=lambda: time.time())
        # (table, player) -> the presence lease this instance last wrote (see mark_seen).
        self._leases: dict[tuple[str, str], datetime] = {}
        self.notifier = notifier
        self.on_finished = on_finished
        self._background: set[asyncio.Task[Any]] = set()
        # Every re-play of a log runs here: paced, few at a time, shared and kept.
        self.replays = ReplayWork(
            max_bytes=settings.replay_cache_bytes,
            max_states=settings.replay_cache_states,
            slice_seconds=settings.replay_slice_seconds,
            lanes=settings.replay_concurrency,
            share=settings.replay_share,
        )
        self.history = History(
            sessionmaker,
            self.presenter,
            self.replays,
            self.visible_snapshot,
            settings.catch_up_limit,
        )
        self.bots = Bots(
            sessionmaker, self.snapshot, self._cache.get, self._act, settings.bot_delay
        )
        self.lobby = Lobby(
            self, self.bots.schedule_bots, self.presenter.now, settings.max_open_tables_per_player
        )

    # ------------------------------------------------------------------ players

    async def create_player(self, name: str) -> tuple[Player, str]:
        token = secrets.token_urlsafe(24)
        player = Player(id=new_id(), name=name, token_hash=hash_token(token), created_at=utcnow())
        async with self.sessionmaker() as session, session.begin():
            session.add(player)
        return player, token

    async def player(self, player_id: str) -> Player | None:
        """The player's row as it is now (renamed, blocked), or None when it was deleted."""
        async with self.sessionmaker() as session:
            return await repo.player_by_id(session, player_id)

    async def player_by_token(self, token: str) -> Player | None:
        async with self.sessionmaker() as session:
            player = await repo.player_by_token_hash(session, hash_token(token))
        if player is None or player.is_blocked:
            return None
        # The lookup is by hash; the final comparison is constant-time all the same.
        if not secrets.compare_digest(player.token_hash, hash_token(token)):
            return None
        return player

    # ------------------------------------------------------------------ games

    def engine(self, game_id: str) -> Engine:
        return game_engine(self.games, game_id)

    def games_public(self) -> list[dict[str, Any]]:
        return [
            {
                "id": e.info.id,
                "title": e.info.title,
                "min_players": e.info.min_players,
                "max_players": e.info.max_players,
                "bot_levels": list(e.info.bot_levels),
                "options_schema": e.Options.model_json_schema(),
                "action_schema": action_adapter(e).json_schema(),
            }
            for e in self.games.values()
        ]

    # ------------------------------------------------------------------ loading

    def table_lock(self, table_id: str) -> asyncio.Lock:
        """The in-process lock that orders every change of one table."""
        return self._lock(table_id)

    async def announce_table(self, table_id: str, version: int = 0) -> None:
        """Tell every instance that the table's seats or status changed (or that it is gone)."""
        await self.publish(table_id, version, "table")

    def _lock(self, table_id: str) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    async def _load_row(self, session: AsyncSession, table_id: str) -> GameTable:
        row = await session.get(GameTable, table_id, populate_existing=True)
        if row is None:
            raise errors.NotFound(f"no table '{table_id}'", reason="table")
        return row

    def _snapshot_from_row(self, row: GameTable) -> Snapshot:
        engine = self.engine(row.game)
        cached = self._cache.get(row.id)
        state: BaseModel | None
        if cached is not None and cached.version == row.version and cached.status == row.status:
            state = cached.state
            recent = cached.recent
        else:
            state = engine.State.model_validate(row.state) if row.state is not None else None
            recent = cached.recent if cached is not None else OrderedDict()
        snap = Snapshot(
            id=row.id,
            game=row.game,
            engine=engine,
            options=row.options,
            status=row.status,
            version=row.version,
            seat_count=row.seat_count,
            seed=row.seed,
            owner_id=row.owner_id,
            owner_name=row.owner.name,
            seats=[
                SeatInfo(
                    s.seat,
                    s.player_id,
                    s.player.name if s.player else None,
                    s.bot_level,
                    s.player.webhook_url if s.player else None,
                    vote_ids(s.takeover_votes, s.last_seen_at),
                    s.last_seen_at,
                    s.resigned_at,
                )
                for s in row.seats
            ],
            state=state,
            result=row.result,
            created_at=row.created_at,
            private=row.private,
            invite_code=row.invite_code,
            seed_secret=row.seed_secret,
            time_control=time_control_of(row.time_control),
            clocks=row.clocks,
            on_resign=row.on_resign,
            cancel_vote=row.cancel_vote,
            next_table=row.next_table_id,
            previous=cached.previous if cached is not None and state is cached.state else None,
            recent=recent,
        )
        if cached is not None and state is cached.state:
            snap.undo_seat, snap.undo = cached.undo_seat, cached.undo
        self._cache[row.id] = snap
        return snap

    async def snapshot(self, table_id: str, *, fresh: bool = True) -> Snapshot:
        """The table as stored now; the parsed state is reused while the version is unchanged."""
        if "\x00" in table_id:
            # No id holds a NUL, and PostgreSQL cannot even compare text holding one.
            raise errors.NotFound(
                "no table with that id (ids hold no NUL character)", reason="table"
            )
        cached = self._cache.get(table_id)
        if cached is not None and not fresh:
            return cached
        async with self.sessionmaker() as session:
            if cached is not None:
                version, status = (
                    await session.execute(
                        select(GameTable.version, GameTable.status).where(GameTable.id == table_id)
                    )
                ).one_or_none() or (None, None)
                if version is None:
                    self._cache.pop(table_id, None)
                    raise errors.NotFound(f"no table '{table_id}'", reason="table")
                # An open table's seats change without a new version (joins, bots, leaves on
                # any instance): it is always read afresh, so no answer shows a stale lobby.
                if version == cached.version and status == cached.status and status != OPEN:
                    return cached
            row = await self._load_row(session, table_id)
            return self._snapshot_from_row(row)

    async def snapshot_at_least(self, table_id: str, version: int) -> Snapshot:
        """Used on broker notifications: reload only if the cache is older than ``version``."""
        cached = self._cache.get(table_id)
        if cached is not None and cached.version >= version:
            return cached
        async with self._lock(table_id):
            cached = self._cache.get(table_id)
            if cached is not None and cached.version >= version:
                return cached
            return await self.snapshot(table_id)

    def invalidate(self, table_id: str) -> None:
        self._cache.pop(table_id, None)

    @staticmethod
    def check_visible(snap: Snapshot, viewer_id: str | None, invite: str | None = None) -> None:
        """A private table is readable only by its seated players and by holders of its invite
        code; to anybody else it answers exactly as a table that does not exist (404), so its id
        is never confirmed."""
        if not snap.private or snap.seat_of(viewer_id) is not None:
            return
        if invite and secrets.compare_digest(invite.encode(), snap.invite_code.encode()):
            return
        # A wrong code answers as no code does; the error handler counts it as a guess.
        raise (errors.WrongInvite if invite else errors.NotFound)(
            f"no table '{snap.id}'", reason="table"
        )

    async def visible_snapshot(
        self, table_id: str, viewer: Player | None, invite: str | None = None
    ) -> Snapshot:
        """The table as stored now, if the viewer may read it (see ``check_visible``)."""
        snap = await self.snapshot(table_id)
        self.check_visible(snap, viewer.id if viewer else None, invite)
        return snap

    def invalidate_all(self) -> None:
        """Forget every cached table (after a broker outage: some notices may be lost)."""
        self._cache.clear()

    # ------------------------------------------------------------------ public shapes

    # ------------------------------------------------------------------ lobby

    async def lock_row(self, session: AsyncSession, table_id: str) -> GameTable:
        """Load the table inside a transaction that holds its row (PostgreSQL): every lobby
        change of the table, on any instance, waits here for the one before it to commit,
        then reads the seats as that one left them. SQLite has one writer process; the
        in-process table lock orders its changes."""
        # FOR NO KEY UPDATE: lobby changes queue on it, while rows that merely refer to the
        # table (chat lines, log records) are written without waiting.
        found = await session.execute(
            select(GameTable.id).where(GameTable.id == table_id).with_for_update(key_share=True)
        )
        if found.scalar_one_or_none() is None:
            raise errors.NotFound(f"no table '{table_id}'", reason="table")
        return await self._load_row(session, table_id)

    # ------------------------------------------------------------------ playing

    async def state_for(
        self,
        table_id: str,
        player: Player | None,
        lang: Locale | None = None,
        invite: str | None = None,
    ) -> dict[str, Any]:
        snap = await self.visible_snapshot(table_id, player, invite)
        seat = snap.seat_of(player.id if player else None)
        await self.check_undo(snap, seat)
        return self.presenter.picture(snap, seat, lang=lang)

    async def check_undo(self, snap: Snapshot, seat: int | None) -> None:
        """Settle ``snap.undo_seat`` for a table loaded without it (after a restart, or moved by
        another instance), before ``seat``'s picture says whether it may take back the last move.
        The same questions as :meth:`undo`'s; only the mover's picture needs the rules' answer
        (a re-play), so every other seat's is settled by one log read, or none."""
        if snap.undo == UNDO_SETTLED or seat is None or snap.status != PLAYING:
            return
        if snap.undo == UNDO_MOVER and seat != snap.undo_seat:
            return
        records = await self.history.log_records(snap.id, snap.version - 1, limit=1)
        last = records[0] if records else None
        if (
            last is None
            or last.version != snap.version
            or last.kind != ACTION
            or last.seat is None
            or (last.client_id or "").startswith(SERVER_MOVES)
        ):
            snap.undo_seat, snap.undo = None, UNDO_SETTLED
            return
        snap.undo_seat, snap.undo = last.seat, UNDO_MOVER
        if last.seat != seat or snap.state is None:
            return  # not this seat's move: its picture says no without asking the rules
        engine = snap.engine
        before = await self._state_before_last(snap)
        undoable = engine.undoable(before, seat, parse_action(engine, last.action))
        snap.undo_seat, snap.undo = (seat if undoable else None), UNDO_SETTLED

    async def act(
        self,
        table_id: str,
        player: Player,
        version: int,
        action: Any,
        client_id: str | None,
    ) -> dict[str, Any]:
        """A player's action through the gauntlet; answers the caller's new picture."""
        # 1. the table exists; 2. the caller holds a seat (seats are fixed once a game starts,
        # so a cached snapshot answers this; an open table is re-read).
        snap = self._cache.get(table_id) or await self.snapshot(table_id)
        if snap.status == OPEN:
            snap = await self.snapshot(table_id)
        seat = self._my_seat(snap, player)
        _check_client_id(client_id)
        return await self._act(snap.id, seat, version, action, client_id)

    @staticmethod
    def _my_seat(snap: Snapshot, player: Player) -> int:
        seat = snap.seat_of(player.id)
        if seat is None and snap.private:
            # not confirmed to outsiders
            raise errors.NotFound(f"no table '{snap.id}'", reason="table")
        if seat is None:
            raise errors.NotSeated("you hold no seat at this table; spectators cannot act")
        if snap.seats[seat].resigned:
            raise errors.Resigned("you resigned from this game; a bot plays your seat")
        if snap.seats[seat].taken_over:
            raise errors.SeatTakenOver(
                "a bot is playing your seat; take it back first (POST /tables/{id}/take-back)"
            )
        return seat

    async def _act(
        self,
        table_id: str,
        seat: int,
        version: int,
        action: Any,
        client_id: str | None,
        *,
        timed_out: bool = False,
    ) -> dict[str, Any]:
        """The gauntlet and the commit. The answer says whether the seat may take the action
        back now (``undoable``), so that no client offers what the rules make final or what
        revealed something."""
        started = time.perf_counter()
        async with self._lock(table_id):
            # The cached snapshot is trusted when the client agrees with its version: the
            # compare-and-set in _commit catches another instance having moved on. Anything
            # else is checked against the database first.
            cached = self._cache.get(table_id)
            if cached is not None and cached.version == version and cached.status == PLAYING:
                snap = cached
            else:
                snap = await self.snapshot(table_id)
            engine = snap.engine
            # An idempotent retry is not a new action: it is answered before the status and
            # version checks, which the first attempt already passed (and which it moved on).
            if client_id is not None and not client_id.startswith(SERVER_MOVES):
                replayed = await self._idempotent_answer(snap, seat, client_id)
                if replayed is not None:
                    return replayed
            # 3. playing
            if snap.status != PLAYING or snap.state is None:
                ACTIONS.labels(snap.game, "not_playing").inc()
                raise errors.NotPlaying(f"the table is {snap.status}, not playing")
            # 4. the version the client acted on
            if version != snap.version:
                ACTIONS.labels(snap.game, "stale_version").inc()
                raise errors.StaleVersion(
                    f"you acted on version {version} but the table is at version {snap.version}",
                    current_version=snap.version,
                )
            # 6. the seat must act now
            if seat not in engine.to_act(snap.state):
                ACTIONS.labels(snap.game, "not_your_turn").inc()
                raise errors.NotYourTurnError(
                    f"seat {seat} is not to act now; waiting for seats {snap.to_act()}",
                    to_act=snap.to_act(),
                )
            # 7. the engine accepts
            try:
                parsed = parse_action(engine, action)
            except ValidationError as exc:
                ACTIONS.labels(snap.game, "validation_error").inc()
                reason, params = validation_reason(exc.errors(), root="action")
                raise errors.ValidationFailed(
                    f"that is not a {engine.info.title} action",
                    reason=reason,
                    params=params,
                    field="action",
                    errors=validation_details(exc),
                ) from None
            try:
                new_state, events = engine.apply(snap.state, seat, parsed)
            except NotYourTurn as exc:
                raise errors.NotYourTurnError(exc.message) from None
            except GameOver as exc:
                raise errors.NotPlaying(exc.message) from None
            except RulesError as exc:
                ACTIONS.labels(snap.game, "illegal_action").inc()
                raise errors.IllegalActionError(
                    exc.message, reason=exc.reason, params=exc.params
                ) from None
            event_dicts = [e.model_dump(mode="json") for e in events]
            if timed_out:
                event_dicts.append({"type": "clock_timeout", "seat": seat, "visible_to": None})
            # A move the server made for the seat stands (see undo); so does what the rules
            # make final or what revealed something (the engine's undoable).
            server_move = (client_id or "").startswith(SERVER_MOVES)
            undoable = not server_move and engine.undoable(snap.state, seat, parsed)
            await self._commit(
                snap, seat, parsed.model_dump(mode="json"), new_state, event_dicts, client_id,
                timed_out=timed_out, undo_seat=seat if undoable else None,
            )  # fmt: skip
            new_snap = self._cache[table_id]
        return await self._after_commit(snap, new_snap, seat, event_dicts, started)

    async def _after_commit(
        self,
        snap: Snapshot,
        new_snap: Snapshot,
        seat: int,
        event_dicts: list[dict[str, Any]],
        started: float,
    ) -> dict[str, Any]:
        table_id = snap.id
        ACTIONS.labels(snap.game, "accepted").inc()
        self.alert_new_turns(new_snap, set(snap.to_act()))
        ACTION_LATENCY.labels(snap.game).observe(time.perf_counter() - started)
        await self.publish(table_id, new_snap.version, "state")
        if new_snap.status == FINISHED:
            await self.publish(table_id, new_snap.version, "table")
            self.game_finished(table_id)
        self.bots.schedule_bots(table_id)
        mine = shown(new_snap, redact_events([(new_snap.version, seat, event_dicts)], seat), seat)
        return self.presenter.picture(new_snap, seat, events=mine)

    async def undo(
        self, table_id: str, player: Player, version: int, client_id: str | None
    ) -> dict[str, Any]:
        """Take back the caller's own last action: allowed while nobody has acted since and
        the engine says the action revealed nothing (``Engine.undoable``)."""
        started = time.perf_counter()
        snap = self._cache.get(table_id) or await self.snapshot(table_id)
        seat = self._my_seat(snap, player)
        _check_client_id(client_id)
        async with self._lock(table_id):
            snap = await self.snapshot(table_id)
            if client_id is not None:
                replayed = await self._idempotent_answer(snap, seat, client_id)
                if replayed is not None:
                    return replayed
            if snap.status != PLAYING or snap.state is None:
                raise errors.NotPlaying(f"the table is {snap.status}, not playing")
            if version != snap.version:
                raise errors.StaleVersion(
                    f"you asked to undo at version {version} but the table is at version {snap.version}",
                    current_version=snap.version,
                )
            records = await self.history.log_records(table_id, snap.version - 1, limit=1)
            last = records[0] if records else None
            if last is None or last.version != snap.version or last.kind != ACTION:
                raise errors.NotUndoable(
                    "there is no action to take back: the last move was not an action",
                    reason="no_action",
                )
            if last.seat != seat:
                raise errors.NotUndoable(
                    "you can take back only your own last action, before anybody else acts",
                    reason="not_yours",
                )
            if (last.client_id or "").startswith(SERVER_MOVES):
                raise errors.NotUndoable(
                    "a bot made that move for your seat; it stands", reason="server_move"
                )
            before = await self._state_before_last(snap)
            engine = snap.engine
            if not engine.undoable(before, seat, parse_action(engine, last.action)):
                raise errors.NotUndoable(
                    "that action cannot be taken back: it revealed hidden information or drew chance",
                    reason="final",
                )
            events = [
                {"type": "action_undone", "seat": seat, "undoes": last.version, "visible_to": None}
            ]
            # The clocks go back to where they stood before the move: no time is won by
            # moving and taking it back, and the time since keeps counting.
            restored = None
            tc = snap.time_control
            if tc.clock != "none" and snap.clocks is not None:
                moved_at = last.created_at
                restored = clocks.after_undo(
                    tc, snap.clocks, last.version, seat,
                    set(engine.to_act(snap.state)), set(engine.to_act(before)), time.time(),
                    (moved_at if moved_at.tzinfo else moved_at.replace(tzinfo=UTC)).timestamp(),
                )  # fmt: skip
            await self._commit(
                snap, seat, {"undoes": last.version}, before, events, client_id, kind=UNDO,
                restored_clocks=restored,
            )  # fmt: skip
            new_snap = self._cache[table_id]
        log.info("action undone", extra={"table": table_id, "seat": seat, "undoes": last.version})
        return await self._after_commit(snap, new_snap, seat, events, started)

    async def _commit(
        self,
        snap: Snapshot,
        seat: int,
        action: dict[str, Any],
        new_state: BaseModel,
        events: list[dict[str, Any]],
        client_id: str | None,
        *,
        kind: str = "action",
        timed_out: bool = False,
        restored_clocks: dict[str, Any] | None = None,
        undo_seat: int | None = None,
    ) -> None:
        """One transaction: compare-and-set the version, write the snapshot (and the clocks),
        append the log. An action's clocks carry those from before it (the undo point);
        an undo writes ``restored_clocks``, the clocks from before the move it takes back.
        ``undo_seat`` is the seat that may take this move back (None: nobody)."""
        engine = snap.engine
        result = engine.result(new_state)
        now = utcnow()
        values: dict[str, Any] = {
            "version": snap.version + 1,
            "state": new_state.model_dump(mode="json"),
            "updated_at": now,
        }
        if result is not None:
            values.update(status=FINISHED, result=result.model_dump(mode="json"), finished_at=now)
            values["cancel_vote"] = None
        tc = snap.time_control
        if restored_clocks is not None:
            values["clocks"] = restored_clocks
        elif tc.clock != "none" and snap.clocks is not None and snap.state is not None:
            values["clocks"] = clocks.after_move(
                tc,
                snap.clocks,
                seat,
                set(engine.to_act(snap.state)),
                set() if result is not None else set(engine.to_act(new_state)),
                time.time(),
                timed_out=timed_out,
            )
            if kind == ACTION:
                values["clocks"] = clocks.with_undo_point(
                    values["clocks"], snap.clocks, snap.version + 1
                )
        try:
            # Core statements on one connection: the hot path skips the ORM unit of work.
            async with self.writer, self.db.begin() as conn:
                if result is not None:
                    # The game's end: resignations (committed by any instance) rank the seats.
                    values["result"] = await self._resigned_result(conn, snap.id, values["result"])
                # Still playing: a cancel or an early end (no new version) stops every action.
                done = await conn.execute(
                    update(_TABLES)
                    .where(
                        _TABLES.c.id == snap.id,
                        _TABLES.c.version == snap.version,
                        _TABLES.c.status == PLAYING,
                    )
                    .values(**values)
                )
                if done.rowcount != 1:
                    current, now_status = (
                        await conn.execute(
                            select(GameTable.version, GameTable.status).where(
                                GameTable.id == snap.id
                            )
                        )
                    ).one_or_none() or (None, None)
                    if current is None:
                        # Deleted meanwhile (by another instance: this one's cache still had it).
                        raise errors.NotFound(f"no table '{snap.id}'", reason="table")
                    if now_status != PLAYING:
                        raise errors.NotPlaying(f"the table is {now_status}, not playing")
                    raise errors.StaleVersion(
                        "another action was applied first", current_version=current
                    )
                await conn.execute(
                    insert(_LOG).values(
                        table_id=snap.id,
                        version=snap.version + 1,
                        seat=seat,
                        action=action,
                        events=events,
                        client_id=client_id,
                        kind=kind,
                        created_at=now,
                    )
                )
        except IntegrityError:
            self.invalidate(snap.id)
            latest = await self.snapshot(snap.id)
            raise errors.StaleVersion(
                "another action was applied first", current_version=latest.version
            ) from None
        except (errors.StaleVersion, errors.NotFound, errors.NotPlaying):
            self.invalidate(snap.id)
            raise
        recent = snap.recent
        recent[snap.version + 1] = (seat, events)
        while len(recent) > self.RECENT_EVENTS:
            recent.popitem(last=False)
        self._cache[snap.id] = replace(
            snap,
            status=FINISHED if result is not None else PLAYING,
            version=snap.version + 1,
            state=new_state,
            result=values.get("result"),
            clocks=values.get("clocks", snap.clocks),
            cancel_vote=None if result is not None else snap.cancel_vote,
            previous=(snap.version, snap.state) if snap.state is not None else None,
            recent=recent,
            pictures={},
            patches={},
            undo_seat=undo_seat if result is None else None,
            undo=UNDO_SETTLED,
        )

    @staticmethod
    async def _resigned_result(
        conn: AsyncConnection, table_id: str, result: dict[str, Any]
    ) -> dict[str, Any]:
        """The engine's final result with the table's resignations applied (outcomes.py).
        The table's row is held first (PostgreSQL), as a resignation holds it: one that
        commits meanwhile is read here, not lost."""
        mode = (
            await conn.execute(
                select(_TABLES.c.on_resign)
                .where(_TABLES.c.id == table_id)
                .with_for_update(key_share=True)
            )
        ).scalar_one_or_none()
        seats = cast(Table, Seat.__table__)
        resigned = (
            await conn.execute(
                select(seats.c.seat)
                .where(seats.c.table_id == table_id, seats.c.resigned_at.is_not(None))
                .order_by(seats.c.resigned_at, seats.c.seat)
            )
        ).scalars()
        return with_resignations(result, list(resigned), mode or DEFAULT_ON_RESIGN)

    async def _state_before_last(self, snap: Snapshot) -> BaseModel:
        """The state before the table's last version (kept from the last commit, or re-played)."""
        if snap.previous is not None and snap.previous[0] == snap.version - 1:
            return snap.previous[1]
        return await self.history.replay_state(snap, upto=snap.version - 1)

    async def _idempotent_answer(
        self, snap: Snapshot, seat: int, client_id: str
    ) -> dict[str, Any] | None:
        async with self.sessionmaker() as session:
            record = await repo.record_by_client_id(session, snap.id, client_id)
        if record is None:
            return None
        if record.seat != seat:
            raise errors.IdempotencyConflict("that action id was already used by another seat")
        past = await self.history.snapshot_at(snap, record.version)
        events = shown(
            snap, redact_events([(record.version, record.seat, record.events)], seat), seat
        )
        answer = self.presenter.picture(past, seat, events=events)
        # The same question as the first answer's, asked now: still the table's last move,
        # the seat's own, and one the rules let it take back.
        await self.check_undo(snap, seat)
        answer["undoable"] = record.version == snap.version and may_undo(snap, seat)
        answer["replayed"] = True
        return answer

    def alert_new_turns(self, snap: Snapshot, before: set[int]) -> None:
        """Webhook alerts for human seats that have just become due to act."""
        if self.notifier is None:
            return
        for seat in snap.to_act():
            info = snap.seats[seat]
            if seat not in before and info.webhook_url and info.bot_level is None:
                self.notifier.your_turn(
                    info.webhook_url,
                    {"event": "your_turn", "table_id": snap.id, "game": snap.game, "seat": seat,
                     "version": snap.version, "player": info.player_name},
                )  # fmt: skip

    # ------------------------------------------------------------------ clocks and takeover

    async def time_out(self, table_id: str, seat: int, version: int) -> bool:
        """The seat ran out of time at ``version``: apply the table's policy. Several instances
        may try at once; the idempotency key and the compare-and-set let one of them win."""
        snap = await self.snapshot(table_id)
        if snap.status != PLAYING or snap.version != version or snap.state is None:
            return False
        if snap.is_bot(seat) or seat not in snap.to_act():
            return False
        if not clocks.overdue(snap.time_control, snap.clocks, [seat], time.time()):
            return False
        if snap.time_control.on_timeout == "bot_takeover" and snap.seats[seat].player_id:
            await self.take_over(table_id, seat, reason="timeout")
            return True
        engine = snap.engine
        view = engine.view(snap.state, seat)
        legal = engine.legal_actions(snap.state, seat)
        rng = random.Random(f"{snap.seed}:{snap.version}:{seat}:timeout")
        choice = engine.bot(view, legal, rng, "normal")
        try:
            await self._act(
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
        if snap.seats[seat].player_id in self.presence(snap.id):
            return 0.0, now
        client = ActionRecord.client_id
        acted = (
            await session.execute(
                select(func.max(ActionRecord.created_at)).where(
                    ActionRecord.table_id == snap.id,
                    ActionRecord.seat == seat,
                    or_(
                        client.is_(None),
                        ~or_(*(client.startswith(prefix) for prefix in SERVER_MOVES)),
                    ),
                )
            )
        ).scalar_one_or_none()
        since = max(as_utc(m) for m in (seen, acted, snap.created_at) if m is not None)
        return max(0.0, (now - since).total_seconds()), since

    async def away_seconds(self, snap: Snapshot, seat: int) -> float:
        """How long the seat's player has been neither connected nor acting (any instance)."""
        async with self.sessionmaker() as session:
            seen = (
                await session.execute(
                    select(Seat.last_seen_at).where(Seat.table_id == snap.id, Seat.seat == seat)
                )
            ).scalar_one_or_none()
            away, _ = await self._absence(session, snap, seat, seen)
        return away

    async def _seat_for_takeover(
        self, session: AsyncSession, snap: Snapshot, seat: int
    ) -> tuple[Seat, datetime]:
        """The seat row, locked, if its player is still there and away past the grace now,
        and since when; asked inside the transaction that hands the seat to a bot, so that a
        player seen meanwhile (on any instance) keeps it."""
        tc = snap.time_control
        row = (
            await session.execute(
                select(Seat)
                .where(Seat.table_id == snap.id, Seat.seat == seat)
                .with_for_update(of=Seat)
                .execution_options(populate_existing=True)
            )
        ).scalar_one_or_none()
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
            raise errors.NoTakeover(
                f"seat {seat}'s player has been away {int(away)} s; a seat can be handed to a bot "
                f"after {tc.grace_seconds} s",
                reason="too_soon",
                seat=seat,
                away_seconds=int(away), grace_seconds=tc.grace_seconds,
            )  # fmt: skip
        return row, since

    async def vote_takeover(self, table_id: str, voter: Player, seat: int) -> Snapshot:
        """A seated player votes to hand an absent player's seat to a bot; a majority of the
        other seated players decides. A vote belongs to the absence it was cast in: once the
        player is seen again (connected or acting), it no longer counts."""
        snap = await self.snapshot(table_id)
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
        async with self._lock(table_id), self.sessionmaker() as session, session.begin():
            row, since = await self._seat_for_takeover(session, snap, seat)
            votes = [v for v in current_votes(row.takeover_votes, since) if v["voter"] in voters]
            if voter.id not in {v["voter"] for v in votes}:
                votes.append({"voter": voter.id, "at": utcnow().timestamp()})
            taken = len(votes) * 2 > len(voters)
            if taken:
                row.bot_level = "normal"
                row.takeover_votes = None
            else:
                row.takeover_votes = votes
        return await self._after_takeover(table_id, seat, "vote" if taken else None)

    async def take_over(
        self, table_id: str, seat: int, reason: str, *, absent: Snapshot | None = None
    ) -> Snapshot:
        """A bot plays the seat from now on; its player stays seated and may take it back.
        With ``absent`` (the table as the caller saw it), only if the player is still away
        past the grace, checked again in the transaction (``NoTakeover`` otherwise)."""
        async with self._lock(table_id), self.sessionmaker() as session, session.begin():
            if absent is not None:
                row, _ = await self._seat_for_takeover(session, absent, seat)
            else:
                found = await session.get(Seat, (table_id, seat))
                if found is None or found.player_id is None:
                    raise errors.NoTakeover(
                        f"seat {seat} has no player to replace", reason="no_player", seat=seat
                    )
                row = found
            row.bot_level = row.bot_level or "normal"
            row.takeover_votes = None
        return await self._after_takeover(table_id, seat, reason)

    async def _after_takeover(self, table_id: str, seat: int, reason: str | None) -> Snapshot:
        self.invalidate(table_id)
        snap = await self.snapshot(table_id)
        if reason is not None:
            log.info(
                "seat taken over by a bot",
                extra={"table": table_id, "seat": seat, "reason": reason},
            )
        await self.publish(table_id, snap.version, "table")
        if reason is not None:
            self.bots.schedule_bots(table_id)
        return snap

    async def take_back(self, table_id: str, player: Player) -> Snapshot:
        """The player returns: the bot leaves the seat and the clock restarts from now."""
        async with self._lock(table_id):
            snap = await self.snapshot(table_id)
            seat = snap.seat_of(player.id)
            if seat is None:
                raise errors.NotSeated("you hold no seat at this table")
            if snap.seats[seat].resigned:
                raise errors.Resigned("you resigned from this game; the seat stays with its bot")
            if not snap.seats[seat].taken_over:
                raise errors.NoTakeover("no bot is playing your seat", reason="not_taken_over")
            async with self.sessionmaker() as session, session.begin():
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
                        snap.clocks, seat, seat in snap.to_act(), time.time()
                    )
            self.invalidate(table_id)
            snap = await self.snapshot(table_id)
        await self.publish(table_id, snap.version, "table")
        await self.publish(table_id, snap.version, "refresh")
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
        until = utcnow() + timedelta(
            seconds=clocks.presence_lease(self.settings.presence_touch_seconds)
        )
        seats = cast(Table, Seat.__table__)
        seen = seats.c.last_seen_at
        lease = bindparam("u", type_=seen.type)
        async with self.writer, self.db.begin() as conn:
            await conn.execute(
                update(seats)
                .where(seats.c.table_id == bindparam("t"), seats.c.player_id == bindparam("p"))
                .values(
                    last_seen_at=case((or_(seen.is_(None), seen < lease), lease), else_=seen),
                    takeover_votes=None,
                ),
                [{**r, "u": until} for r in rows],
            )
        for r in rows:
            self._leases[(r["t"], r["p"])] = until

    async def mark_gone(self, table_id: str, player_id: str) -> None:
        """This instance's last socket of the player at the table closed: the lease it wrote
        is cut to ``presence_linger`` from now (long enough for another instance where the
        player is still connected to renew it), unless another instance's lease is there."""
        lease = self._leases.pop((table_id, player_id), None)
        linger = utcnow() + timedelta(
            seconds=clocks.presence_linger(self.settings.presence_touch_seconds)
        )
        if lease is None or lease <= linger:
            return
        seats = cast(Table, Seat.__table__)
        async with self.writer, self.db.begin() as conn:
            await conn.execute(
                update(seats)
                .where(
                    seats.c.table_id == table_id,
                    seats.c.player_id == player_id,
                    seats.c.last_seen_at == lease,
                )
                .values(last_seen_at=linger)
            )

    async def clock_tick(self) -> int:
        """One pass of the clock keeper: time-outs and automatic takeovers. Returns how many
        seats it acted on."""
        async with self.sessionmaker() as session:
            rows = (
                await session.execute(
                    select(GameTable.id, GameTable.time_control).where(
                        GameTable.status == PLAYING, GameTable.time_control.is_not(None)
                    )
                )
            ).all()
        acted = 0
        now = time.time()
        for table_id, stored in rows:
            tc = time_control_of(stored)
            if tc.clock == "none" and tc.abandon != "auto":
                continue
            try:
                snap = await self.snapshot(table_id)
                due = [s for s in snap.to_act() if not snap.is_bot(s)]
                for seat in clocks.overdue(tc, snap.clocks, due, now):
                    acted += await self.time_out(table_id, seat, snap.version)
                    snap = await self.snapshot(table_id)
                if tc.abandon == "auto":
                    for seat in [s for s in snap.to_act() if not snap.is_bot(s)]:
                        if snap.seats[seat].player_id and (
                            await self.away_seconds(snap, seat) >= tc.grace_seconds
                        ):
                            with contextlib.suppress(errors.NoTakeover):
                                # Asked again in the takeover's own transaction.
                                await self.take_over(table_id, seat, reason="away", absent=snap)
                                acted += 1
            except errors.AppError:
                continue
            except Exception:
                log.exception("clock keeper failed on a table", extra={"table": table_id})
        return acted

    async def close(self) -> None:
        await self.bots.close()

    # ------------------------------------------------------------------ fan-out

    def game_finished(self, table_id: str) -> None:
        """Tell ``on_finished`` (the ratings) in the background that a game has ended."""
        if self.on_finished is None:
            return
        task: asyncio.Task[Any] = asyncio.create_task(self.on_finished(table_id))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def publish(self, table_id: str, version: int, kind: TableKind) -> None:
        try:
            await self.broker.publish(TableUpdate(table_id, version, kind))
        except Exception:
            # The commit stands; sockets resync on their next sync or reconnect.
            log.exception("broker publish failed", extra={"table": table_id})
