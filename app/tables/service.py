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
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import replace
from datetime import UTC
from typing import Any, cast

from pydantic import BaseModel, ValidationError
from sqlalchemy import (
    Table,
    insert,
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
from app.tables.absence import Absence
from app.tables.bots import SERVER_MOVES, Bots
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
        self.absence = Absence(
            self,
            self._act,
            self.bots.schedule_bots,
            self.presenter.now,
            settings.presence_touch_seconds,
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
