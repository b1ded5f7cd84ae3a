"""The table service: the core every part of a table shares (the players, the games, the
cache of snapshots, the tables' locks, the fan-out) and the parts built on it, one job each:
``lobby`` (app.tables.seating), ``moves`` (the gauntlet and the commit), ``bots``,
``absence`` (clocks and takeovers) and ``history`` (the log and the replays).

Everything that changes a table goes through these parts. REST routes and the WebSocket
handler are thin adapters over them. Nothing here knows any game's rules: it speaks only
the engine protocol of ``app.games.base``.
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
from typing import Any

from pydantic import BaseModel
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app import errors
from app.config import Settings
from app.db import repo
from app.db.models import GameTable, Player, utcnow
from app.db.writer import GroupCommit, group_commit
from app.games.base import Engine, SearchBudget, action_adapter
from app.known_secrets import remember
from app.realtime.broker import Broker, TableKind, TableUpdate
from app.signing import DeploymentSigner
from app.tables.absence import Absence
from app.tables.bots import SERVER_MOVES, Bots
from app.tables.clocks import time_control_of
from app.tables.history import History
from app.tables.moves import Moves
from app.tables.notify import TurnNotifier
from app.tables.presenter import Presenter
from app.tables.replay import ACTION, ReplayWork
from app.tables.seating import Lobby
from app.tables.snapshot import (
    OPEN,
    PLAYING,
    UNDO_MOVER,
    UNDO_SETTLED,
    SeatInfo,
    Snapshot,
    new_id,
    vote_ids,
)
from app.tables.thinking import ThinkingPool

log = logging.getLogger("partida.tables")


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


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
    """The core of the tables (players, games, the snapshot cache, locks, fan-out) and its parts."""

    # Invalidated snapshots kept aside at most (see invalidate).
    DROPPED_KEPT = 1024

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
        # Snapshots invalidated since, by table: their state is reused by the next read at the
        # same version (see invalidate).
        self._dropped: dict[str, Snapshot] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        # SQLite has one writer: two transactions that meet wait in its busy handler, which
        # sleeps up to 100 ms at a time. Taking turns here instead keeps commits in order and
        # the slowest ones fast. PostgreSQL writes different rows concurrently; no lock.
        self.writer: contextlib.AbstractAsyncContextManager[Any] = (
            asyncio.Lock() if settings.is_sqlite else contextlib.nullcontext()
        )
        # The actions' own writer (app.db.writer); None: each action is an ORM transaction.
        self.group: GroupCommit | None = group_commit(settings)
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
            per_client=settings.replay_queue_per_client,
        )
        self.history = History(
            sessionmaker,
            self.presenter,
            self.replays,
            self.visible_snapshot,
            settings.catch_up_limit,
        )
        self.moves = Moves(
            self,
            self._cache,
            # Late-bound: the bots, built next, make their moves through this part.
            lambda table_id: self.bots.schedule_bots(table_id),
            self.presenter.now,
        )
        self.bots = Bots(
            sessionmaker,
            self.snapshot,
            self._cache.get,
            self.moves.act_as_seat,
            settings.bot_delay,
            ThinkingPool(settings.bot_workers),
            SearchBudget(settings.bot_search_iterations, settings.bot_search_seconds),
            self.presenter.now,
        )
        self.absence = Absence(
            self,
            self.moves.act_as_seat,
            self.bots.schedule_bots,
            self.presenter.now,
            settings.presence_touch_seconds,
        )
        self.lobby = Lobby(
            self,
            self.bots.schedule_bots,
            self.presenter.now,
            settings.max_open_tables_per_player,
            DeploymentSigner(sessionmaker, settings.secret_key, purpose="lobby cursor"),
        )

    # ------------------------------------------------------------------ players

    async def create_player(self, name: str) -> tuple[Player, str]:
        token = remember(secrets.token_urlsafe(24))
        player = Player(id=new_id(), name=name, token_hash=hash_token(token), created_at=utcnow())
        async with self.sessionmaker() as session, session.begin():
            session.add(player)
        return player, token

    async def player(self, player_id: str) -> Player | None:
        """The player's row as it is now (renamed, blocked), or None when it was deleted."""
        async with self.sessionmaker() as session:
            return await repo.player_by_id(session, player_id)

    async def players(self, player_ids: set[str]) -> dict[str, Player]:
        """The rows of those of ``player_ids`` that still exist, by id (one read)."""
        async with self.sessionmaker() as session:
            return await repo.players_by_id(session, player_ids)

    async def player_by_token(self, token: str) -> Player | None:
        async with self.sessionmaker() as session:
            player = await repo.player_by_token_hash(session, hash_token(token))
        if player is None or player.is_blocked:
            return None
        # The lookup is by hash; the final comparison is constant-time all the same.
        if not secrets.compare_digest(player.token_hash, hash_token(token)):
            return None
        remember(token)  # proved: a token made before a restart or by another instance
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
                "default_bot_level": e.info.default_bot_level,
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
        cached = self._cache.get(row.id) or self._dropped.pop(row.id, None)
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
            if cached is not None and cached.status == PLAYING:
                caught = await self._catch_up(cached)
                if caught is not None:
                    return caught
            return await self.snapshot(table_id)

    async def _catch_up(self, cached: Snapshot) -> Snapshot | None:
        """``cached`` moved on by the moves another process committed: its row's moving parts
        and the log lines since, two plain reads (the seats, which no move changes, stay; a
        change of seats comes as a "table" notice, which drops the cached table). None when
        the table is no longer being played: it is then read in full."""
        async with self.sessionmaker() as session:
            row = await repo.table_progress(session, cached.id)
            if row is None or row.status != PLAYING or row.version <= cached.version:
                return None
            records = await repo.log_records(session, cached.id, cached.version)
        recent = cached.recent
        for r in records:
            if r.version <= row.version:
                recent[r.version] = (r.seat, r.events)
        while len(recent) > self.moves.RECENT_EVENTS:
            recent.popitem(last=False)
        last = records[-1] if records and records[-1].version == row.version else None
        mover = (
            last.seat
            if last is not None
            and last.kind == ACTION
            and last.seat is not None
            and not (last.client_id or "").startswith(SERVER_MOVES)
            else None
        )
        snap = cached.renewed(
            version=row.version,
            state=cached.engine.State.model_validate(row.state),
            clocks=row.clocks,
            result=row.result,
            cancel_vote=row.cancel_vote,
            previous=None,
            recent=recent,
            # The mover's picture asks the rules whether it may take the move back.
            undo_seat=mover,
            undo=UNDO_MOVER if mover is not None else UNDO_SETTLED,
        )
        self._cache[cached.id] = snap
        return snap

    def invalidate(self, table_id: str) -> None:
        """Read the table afresh next time (its seats or status changed). What is dear to
        rebuild and cannot have changed at the same version (the parsed state, the state
        before the last move, who may take it back) is kept aside for that read."""
        dropped = self._cache.pop(table_id, None)
        if dropped is not None:
            if len(self._dropped) >= self.DROPPED_KEPT:
                self._dropped.clear()
            # Without the pictures and frames built from it: the read makes its own.
            self._dropped[table_id] = dropped.renewed()

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
        self._dropped.clear()

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

    # ------------------------------------------------------------------ fan-out

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

    async def close(self) -> None:
        await self.bots.close()
        if self.group is not None:
            await self.group.close()

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
