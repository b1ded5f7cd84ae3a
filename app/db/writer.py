"""The durable fast path of an action: one writer per process with group commit.

An action is committed before anyone sees it (API.md). Done one transaction per action
through the ORM's pool, the commit is most of an action's cost: statement building, a pool
checkout, and a hop to the driver's thread for each of BEGIN, UPDATE, INSERT and COMMIT. The
writer here keeps one connection of its own with its statements ready, and commits in groups:
the actions of every table that arrive while a commit is in flight go into the next
transaction together, and each caller is answered only after the transaction holding its
action has committed (or failed).

Each action in a group is a compare-and-set of the table's row (its version, still playing)
that also checks the action's client id is new at the table, and, when that holds, the log
line. The move that ends a game is one of them too: its final result ranks the resignations
read inside the same transaction. An action whose check fails changes nothing and is
answered ``False``: the caller works out why (another move came first, the game ended, the
id was used) on the ORM path. Anything else going wrong fails the group: each of its actions
is then committed alone on the ORM path, so one bad action cannot sink the others, and a
database that is down answers as it always does (503). What this writer does not take (an
undo, a database it does not speak) goes through the ORM path unchanged.

SQLite: a connection of the standard library's driver on a thread of its own, which runs a
whole group per hop. PostgreSQL: an asyncpg connection with prepared statements.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol, cast

import orjson
from sqlalchemy import DateTime
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.engine import make_url

from app.config import Settings

log = logging.getLogger("partida.db")

# How long the writer waits for SQLite's write lock before the group fails (as the ORM's
# connections wait: app.db.session).
BUSY_SECONDS = 30.0

# SQLAlchemy's own text form of a datetime in SQLite, so rows written here read back exactly
# as rows the ORM wrote.
_SQLITE = sqlite_dialect.dialect()
_SQLITE_DATETIME = cast(
    Callable[[datetime], str],
    DateTime(timezone=True).dialect_impl(_SQLITE).bind_processor(_SQLITE),
)


@dataclass(slots=True)
class ActionCommit:
    """One action to store: the table moves from ``version`` to ``version + 1``."""

    table_id: str
    version: int
    # The new state, as JSON text.
    state_json: str
    # None: the table keeps the clocks it has (no time control, or none changed).
    clocks: dict[str, Any] | None
    seat: int | None
    action: dict[str, Any]
    events: list[dict[str, Any]]
    client_id: str | None
    kind: str
    at: datetime
    # The move that ends the game: the final result from the seats that resigned (in the
    # order they resigned) and the table's on_resign, both read inside the transaction, so
    # that a resignation committed meanwhile by any process counts. None: the game goes on.
    finish: Callable[[list[int], str | None], dict[str, Any]] | None = None
    # What ``finish`` answered, once stored.
    result: dict[str, Any] | None = None


class Store(Protocol):
    """A connection that commits a group of actions in one transaction."""

    async def commit_group(self, group: Sequence[ActionCommit]) -> list[bool]: ...

    async def close(self) -> None: ...


# The compare-and-set: the row moves on only from the version the action was decided on,
# while the game is being played, and only for a client id the table has not seen.
_UPDATE = """UPDATE game_tables SET version = {v1}, state = {state}{clocks}, updated_at = {at}
WHERE id = {id} AND version = {v} AND status = 'playing'
AND ({cid} IS NULL OR NOT EXISTS (
  SELECT 1 FROM action_log WHERE action_log.table_id = {id} AND action_log.client_id = {cid}))"""
# The game's end: what a finished table's row says besides its last version.
_FINISH = """, status = 'finished', result = {result}, finished_at = {at}, cancel_vote = NULL"""
# The resignations the final result ranks (app.tables.outcomes), read inside the transaction.
_ON_RESIGN_QMARK = "SELECT on_resign FROM game_tables WHERE id = ?"
_RESIGNED_QMARK = """SELECT seat FROM seats WHERE table_id = ? AND resigned_at IS NOT NULL
ORDER BY resigned_at, seat"""
_ON_RESIGN_HELD = "SELECT on_resign FROM game_tables WHERE id = $1 FOR NO KEY UPDATE"
_RESIGNED_NUMBERED = _RESIGNED_QMARK.replace("?", "$1")
_INSERT = """INSERT INTO action_log (table_id, version, seat, action, events, client_id, kind, created_at)
VALUES ({})"""


class SqliteStore:
    """SQLite through the standard library's driver, one thread doing every group."""

    def __init__(self, path: Path) -> None:
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="partida-writer")
        self._path = path
        self._conn: sqlite3.Connection | None = None
        named = {"id": ":id", "v": ":v", "v1": ":v1", "state": ":state", "at": ":at", "cid": ":cid"}
        self._update = _UPDATE.format(clocks="", **named)
        self._update_clocks = _UPDATE.format(clocks=", clocks = :clocks", **named)
        self._insert = _INSERT.format(":id, :v1, :seat, :action, :events, :cid, :kind, :at")
        finish = _FINISH.format(result=":result", at=":at")
        self._finish = _UPDATE.format(clocks=finish, **named)
        self._finish_clocks = _UPDATE.format(clocks=", clocks = :clocks" + finish, **named)

    def _connect(self) -> sqlite3.Connection:
        # Autocommit mode: this writer opens and ends its transactions itself.
        conn = sqlite3.connect(self._path, isolation_level=None, check_same_thread=False)
        # The same settings as the ORM's connections (app.db.session).
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=ON")
        # No busy handler: it sleeps up to 100 ms at a time while another connection (the
        # ORM's: a lobby change, a presence lease) holds the write lock, and every table's
        # actions would wait out the sleep. _begin asks again every half millisecond instead.
        conn.execute("PRAGMA busy_timeout=0")
        return conn

    @staticmethod
    def _begin(conn: sqlite3.Connection) -> None:
        deadline = time.monotonic() + BUSY_SECONDS
        while True:
            try:
                conn.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
            time.sleep(0.0005)

    def _run(self, rows: list[dict[str, Any]], group: Sequence[ActionCommit]) -> list[bool]:
        conn = self._conn
        if conn is None:
            conn = self._conn = self._connect()
        done: list[bool] = []
        self._begin(conn)
        try:
            for row, c in zip(rows, group, strict=True):
                if c.finish is None:
                    update = self._update_clocks if "clocks" in row else self._update
                else:
                    update = self._finish_clocks if "clocks" in row else self._finish
                    mode = conn.execute(_ON_RESIGN_QMARK, (c.table_id,)).fetchone()
                    resigned = [r[0] for r in conn.execute(_RESIGNED_QMARK, (c.table_id,))]
                    c.result = c.finish(resigned, mode[0] if mode else None)
                    row["result"] = orjson.dumps(c.result).decode()
                moved = conn.execute(update, row).rowcount == 1
                if moved:
                    conn.execute(self._insert, row)
                done.append(moved)
            conn.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            raise
        return done

    async def commit_group(self, group: Sequence[ActionCommit]) -> list[bool]:
        rows = []
        for c in group:
            at = _SQLITE_DATETIME(c.at)
            row = {
                "id": c.table_id, "v": c.version, "v1": c.version + 1,
                "state": c.state_json, "at": at, "cid": c.client_id, "seat": c.seat,
                "action": orjson.dumps(c.action).decode(),
                "events": orjson.dumps(c.events).decode(), "kind": c.kind,
            }  # fmt: skip
            if c.clocks is not None:
                row["clocks"] = orjson.dumps(c.clocks).decode()
            rows.append(row)
        return await asyncio.get_running_loop().run_in_executor(
            self._thread, self._run, rows, group
        )

    async def close(self) -> None:
        def shut() -> None:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

        await asyncio.get_running_loop().run_in_executor(self._thread, shut)
        self._thread.shutdown(wait=True)


class PostgresStore:
    """PostgreSQL through an asyncpg connection of its own, statements prepared once."""

    # A statement that takes longer fails the group (whose actions then take the ORM path):
    # a database gone silent does not hold the writer for ever.
    COMMAND_TIMEOUT = 30.0

    def __init__(self, dsn: str, timeout: float) -> None:
        self._dsn = dsn
        self._timeout = timeout
        self._conn: Any = None
        self._statements: dict[str, Any] = {}
        numbered = {"id": "$1", "v": "$2", "v1": "$2 + 1", "state": "$3::json", "at": "$4",
                    "cid": "$5::varchar"}  # fmt: skip
        # RETURNING says whether the row moved (a prepared statement's fetch has no rowcount).
        self._update = _UPDATE.format(clocks="", **numbered) + " RETURNING 1"
        self._update_clocks = (
            _UPDATE.format(clocks=", clocks = $6::json", **numbered) + " RETURNING 1"
        )
        self._finish = (
            _UPDATE.format(clocks=_FINISH.format(result="$6::json", at="$4"), **numbered)
            + " RETURNING 1"
        )
        self._finish_clocks = (
            _UPDATE.format(
                clocks=", clocks = $6::json" + _FINISH.format(result="$7::json", at="$4"),
                **numbered,
            )
            + " RETURNING 1"
        )
        self._insert = _INSERT.format("$1, $2, $3, $4::json, $5::json, $6, $7, $8")

    async def _connection(self) -> Any:
        import asyncpg  # type: ignore[import-untyped]

        if self._conn is None or self._conn.is_closed():
            self._conn = await asyncpg.connect(
                self._dsn, timeout=self._timeout, command_timeout=self.COMMAND_TIMEOUT
            )
            self._statements = {
                "update": await self._conn.prepare(self._update),
                "update_clocks": await self._conn.prepare(self._update_clocks),
                "finish": await self._conn.prepare(self._finish),
                "finish_clocks": await self._conn.prepare(self._finish_clocks),
            }
        return self._conn

    async def commit_group(self, group: Sequence[ActionCommit]) -> list[bool]:
        try:
            conn = await self._connection()
            done: list[bool] = []
            log_rows = []
            async with conn.transaction():
                for c in group:
                    args: list[Any] = [c.table_id, c.version, c.state_json, c.at,
                                       c.client_id]  # fmt: skip
                    name = "update" if c.finish is None else "finish"
                    if c.clocks is not None:
                        name += "_clocks"
                        args.append(orjson.dumps(c.clocks).decode())
                    if c.finish is not None:
                        # Held first, as a resignation holds it: one committing meanwhile
                        # is read here, not lost.
                        mode = await conn.fetchval(_ON_RESIGN_HELD, c.table_id)
                        resigned = [r[0] for r in await conn.fetch(_RESIGNED_NUMBERED, c.table_id)]
                        c.result = c.finish(resigned, mode)
                        args.append(orjson.dumps(c.result).decode())
                    moved = await self._statements[name].fetchval(*args) is not None
                    done.append(moved)
                    if moved:
                        log_rows.append(
                            (c.table_id, c.version + 1, c.seat, orjson.dumps(c.action).decode(),
                             orjson.dumps(c.events).decode(), c.client_id, c.kind, c.at)
                        )  # fmt: skip
                if log_rows:
                    await conn.executemany(self._insert, log_rows)
            return done
        except BaseException:
            # A connection in doubt is not reused: the next group opens a new one.
            await self._drop()
            raise

    async def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.terminate()

    async def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.close(), self._timeout)


class GroupCommit:
    """Commits actions in groups: while one group's transaction is in flight, the actions
    that arrive wait together for the next. ``commit`` answers once its own group has
    committed: True when the action was stored, False when its check failed."""

    # A group stays small enough that no caller waits behind a very long transaction.
    MAX_GROUP = 256

    def __init__(self, store: Store) -> None:
        self.store = store
        self._waiting: list[tuple[ActionCommit, asyncio.Future[bool]]] = []
        self._flushing: asyncio.Task[None] | None = None
        # Figures for the benchmarks: groups committed and actions in them.
        self.groups = 0
        self.actions = 0

    async def commit(self, action: ActionCommit) -> bool:
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._waiting.append((action, future))
        if self._flushing is None or self._flushing.done():
            self._flushing = asyncio.create_task(self._flush())
        return await future

    async def _flush(self) -> None:
        while self._waiting:
            group = self._waiting[: self.MAX_GROUP]
            del self._waiting[: self.MAX_GROUP]
            try:
                # Not in the in-process turn the ORM's writers take (TableService.writer):
                # a lobby change or a presence lease holding it would hold every table's
                # moves. SQLite's lock is the writer's own affair (SqliteStore._begin).
                done = await self.store.commit_group([a for a, _ in group])
            except Exception as exc:
                # Every action of the group is answered with the failure: its caller commits
                # it alone on the ORM path, so one bad action cannot sink the others.
                for _, future in group:
                    if not future.done():
                        future.set_exception(exc)
                continue
            self.groups += 1
            self.actions += len(group)
            for (_, future), moved in zip(group, done, strict=True):
                if not future.done():
                    future.set_result(moved)

    async def close(self) -> None:
        if self._flushing is not None:
            with contextlib.suppress(Exception):
                await self._flushing
        await self.store.close()


def group_commit(settings: Settings) -> GroupCommit | None:
    """The writer for the configured database; None where actions keep the ORM path (an
    in-memory SQLite database, which a second connection would not see, or a driver this
    module does not speak)."""
    if not settings.group_commit:
        return None
    if settings.is_sqlite:
        path = settings.sqlite_path()
        return GroupCommit(SqliteStore(path)) if path is not None else None
    url = make_url(settings.database_url)
    if url.get_backend_name() != "postgresql":
        return None
    dsn = url.set(drivername="postgresql").render_as_string(hide_password=False)
    return GroupCommit(PostgresStore(dsn, settings.database_connect_timeout_seconds))
