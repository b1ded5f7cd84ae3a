"""A move at a table: the gauntlet every action passes (the table, the seat, the status,
the version, the turn, the rules), the commit that stores it (compare-and-set of the
version, the snapshot, the clocks, the log line, in one transaction), the undo of the
last move, and the fan-out after it (sockets, webhooks, ratings, the bots).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from datetime import UTC
from typing import Any, NoReturn, Protocol, cast

from pydantic import BaseModel, ValidationError
from sqlalchemy import Table, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession, async_sessionmaker

from app import errors
from app.db import repo
from app.db.models import ActionRecord, GameTable, Player, Seat, utcnow
from app.db.writer import ActionCommit, GroupCommit
from app.games.base import (
    Engine,
    GameOver,
    Locale,
    NotYourTurn,
    RulesError,
    parse_action,
    why_final,
)
from app.metrics import ACTION_LATENCY, ACTIONS
from app.realtime.broker import TableKind
from app.refusals import validation_failed
from app.tables import clocks
from app.tables.bots import SERVER_MOVES
from app.tables.history import History, redact_events, shown
from app.tables.outcomes import DEFAULT_ON_RESIGN, with_resignations
from app.tables.presenter import Presenter
from app.tables.replay import ACTION, UNDO
from app.tables.snapshot import (
    FINISHED,
    OPEN,
    PLAYING,
    UNDO_MOVER,
    UNDO_SETTLED,
    Snapshot,
    may_undo,
)

log = logging.getLogger("partida.tables")

# The refusals counted in the actions metric, by the label they are counted under.
_REFUSAL_LABELS: dict[type[errors.AppError], str] = {
    errors.NotPlaying: "not_playing",
    errors.StaleVersion: "stale_version",
    errors.NotYourTurnError: "not_your_turn",
    errors.ValidationFailed: "validation_error",
    errors.IllegalActionError: "illegal_action",
}

# The plain tables behind the models: the commit's statements skip the ORM layer entirely.
_TABLES = cast(Table, GameTable.__table__)
_LOG = cast(Table, ActionRecord.__table__)


def _check_client_id(client_id: str | None) -> None:
    if client_id is not None and client_id.startswith(SERVER_MOVES):
        raise errors.ValidationFailed(
            "action ids starting with 'bot:' or 'timeout:' are reserved for the server",
            reason="reserved_id",
            field="id",
        )


class Tables(Protocol):
    """What the moves use of the table service (no import of it: the service builds this
    part)."""

    sessionmaker: async_sessionmaker[AsyncSession]
    db: AsyncEngine
    writer: AbstractAsyncContextManager[Any]
    group: GroupCommit | None
    presenter: Presenter
    history: History

    def table_lock(self, table_id: str) -> asyncio.Lock: ...

    async def snapshot(self, table_id: str, *, fresh: bool = True) -> Snapshot: ...

    async def visible_snapshot(
        self, table_id: str, viewer: Player | None, invite: str | None = None
    ) -> Snapshot: ...

    def invalidate(self, table_id: str) -> None: ...

    async def publish(self, table_id: str, version: int, kind: TableKind) -> None: ...

    def game_finished(self, table_id: str) -> None: ...

    def alert_new_turns(self, snap: Snapshot, before: set[int]) -> None: ...


class Moves:
    """The gauntlet, the commit and the undo."""

    RECENT_EVENTS = 64

    def __init__(
        self,
        core: Tables,
        cache: dict[str, Snapshot],
        schedule_bots: Callable[[str], None],
        now: Callable[[], float],
    ) -> None:
        self.core = core
        # The service's cache of tables: a commit leaves the new snapshot there.
        self.cache = cache
        self.schedule_bots = schedule_bots
        # The wall clock (the service's, read late: a test may set it).
        self.now = now

    async def state_for(
        self,
        table_id: str,
        player: Player | None,
        lang: Locale | None = None,
        invite: str | None = None,
    ) -> dict[str, Any]:
        snap = await self.core.visible_snapshot(table_id, player, invite)
        seat = snap.seat_of(player.id if player else None)
        await self.check_undo(snap, seat)
        return self.core.presenter.picture(snap, seat, lang=lang)

    async def check_undo(self, snap: Snapshot, seat: int | None) -> None:
        """Settle ``snap.undo_seat`` for a table loaded without it (after a restart, or moved by
        another instance), before ``seat``'s picture says whether it may take back the last move.
        The same questions as :meth:`undo`'s; only the mover's picture needs the rules' answer
        (a re-play), so every other seat's is settled by one log read, or none."""
        if snap.undo == UNDO_SETTLED or seat is None or snap.status != PLAYING:
            return
        if snap.undo == UNDO_MOVER and seat != snap.undo_seat:
            return
        records = await self.core.history.log_records(snap.id, snap.version - 1, limit=1)
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
        snap = self.cache.get(table_id) or await self.core.snapshot(table_id)
        if snap.status == OPEN:
            snap = await self.core.snapshot(table_id)
        seat = self._my_seat(snap, player)
        _check_client_id(client_id)
        return await self.act_as_seat(snap.id, seat, version, action, client_id)

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

    async def act_as_seat(
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
        async with self.core.table_lock(table_id):
            # The cached snapshot is trusted when the client agrees with its version: the
            # compare-and-set in _commit catches another instance having moved on. Anything
            # else is checked against the database first.
            cached = self.cache.get(table_id)
            if cached is not None and cached.version == version and cached.status == PLAYING:
                snap = cached
            else:
                snap = await self.core.snapshot(table_id)
            # An idempotent retry is not a new action. A retry comes after its first attempt
            # moved the table on, so it fails the gauntlet or the commit's check: only then is
            # its id looked up, and an action that passes costs no read.
            retry = client_id is not None and not client_id.startswith(SERVER_MOVES)
            try:
                parsed, new_state, event_dicts = self._gauntlet(snap, seat, version, action)
                if timed_out:
                    event_dicts.append({"type": "clock_timeout", "seat": seat, "visible_to": None})
                # A move the server made for the seat stands (see undo); so does what the rules
                # make final or what revealed something (the engine's undoable).
                server_move = (client_id or "").startswith(SERVER_MOVES)
                undoable = (
                    not server_move
                    and snap.state is not None
                    and snap.engine.undoable(snap.state, seat, parsed)
                )
                await self._commit(
                    snap, seat, parsed.model_dump(mode="json"), new_state, event_dicts,
                    client_id, timed_out=timed_out, undo_seat=seat if undoable else None,
                )  # fmt: skip
            except errors.AppError as refusal:
                if retry and client_id is not None:
                    current = self.cache.get(table_id) or await self.core.snapshot(table_id)
                    replayed = await self._idempotent_answer(current, seat, client_id)
                    if replayed is not None:
                        return replayed
                if (label := _REFUSAL_LABELS.get(type(refusal))) is not None:
                    ACTIONS.labels(snap.game, label).inc()
                raise
            new_snap = self.cache[table_id]
        return await self._after_commit(snap, new_snap, seat, event_dicts, started)

    @staticmethod
    def _gauntlet(
        snap: Snapshot, seat: int, version: int, action: Any
    ) -> tuple[BaseModel, BaseModel, list[dict[str, Any]]]:
        """Checks 3 to 7 of an action (the table is playing, at the version the client acted
        on, the seat is to act, the engine takes the action) and the rules' answer: the action
        parsed, the new state and the events."""
        engine = snap.engine
        # 3. playing
        if snap.status != PLAYING or snap.state is None:
            raise errors.NotPlaying(f"the table is {snap.status}, not playing")
        # 4. the version the client acted on
        if version != snap.version:
            raise errors.StaleVersion(
                f"you acted on version {version} but the table is at version {snap.version}",
                current_version=snap.version,
            )
        # 6. the seat must act now
        if seat not in engine.to_act(snap.state):
            raise errors.NotYourTurnError(
                f"seat {seat} is not to act now; waiting for seats {snap.to_act()}",
                to_act=snap.to_act(),
            )
        # 7. the engine accepts
        try:
            parsed = parse_action(engine, action)
        except ValidationError as exc:
            raise validation_failed(
                f"that is not a {engine.info.title} action",
                exc.errors(include_url=False),
                document=action,
                root="action",
            ) from None
        try:
            new_state, events = engine.apply(snap.state, seat, parsed)
        except NotYourTurn as exc:
            raise errors.NotYourTurnError(exc.message) from None
        except GameOver as exc:
            raise errors.NotPlaying(exc.message) from None
        except RulesError as exc:
            raise errors.IllegalActionError(
                exc.message, reason=exc.reason, params=exc.params
            ) from None
        return parsed, new_state, [e.model_dump(mode="json") for e in events]

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
        self.core.alert_new_turns(new_snap, set(snap.to_act()))
        ACTION_LATENCY.labels(snap.game).observe(time.perf_counter() - started)
        await self.core.publish(table_id, new_snap.version, "state")
        if new_snap.status == FINISHED:
            await self.core.publish(table_id, new_snap.version, "table")
            self.core.game_finished(table_id)
        self.schedule_bots(table_id)
        mine = shown(new_snap, redact_events([(new_snap.version, seat, event_dicts)], seat), seat)
        return self.core.presenter.picture(new_snap, seat, events=mine)

    async def undo(
        self, table_id: str, player: Player, version: int, client_id: str | None
    ) -> dict[str, Any]:
        """Take back the caller's own last action: allowed while nobody has acted since and
        the engine says the action revealed nothing (``Engine.undoable``)."""
        started = time.perf_counter()
        snap = self.cache.get(table_id) or await self.core.snapshot(table_id)
        seat = self._my_seat(snap, player)
        _check_client_id(client_id)
        async with self.core.table_lock(table_id):
            snap = await self.core.snapshot(table_id)
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
            records = await self.core.history.log_records(table_id, snap.version - 1, limit=1)
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
            taken = parse_action(engine, last.action)
            if not engine.undoable(before, seat, taken):
                rule = why_final(engine, before, seat, taken)
                if rule is not None:
                    # The game names the rule that makes it final (a Luz bet, §5.5).
                    raise errors.NotUndoable(
                        f"that action cannot be taken back: {rule}",
                        reason=rule.reason,
                        params=rule.params,
                    )
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
                    set(engine.to_act(snap.state)), set(engine.to_act(before)), self.now(),
                    (moved_at if moved_at.tzinfo else moved_at.replace(tzinfo=UTC)).timestamp(),
                )  # fmt: skip
            await self._commit(
                snap, seat, {"undoes": last.version}, before, events, client_id, kind=UNDO,
                restored_clocks=restored,
            )  # fmt: skip
            new_snap = self.cache[table_id]
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
        values: dict[str, Any] = {"version": snap.version + 1, "updated_at": now}
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
                self.now(),
                timed_out=timed_out,
            )
            if kind == ACTION:
                values["clocks"] = clocks.with_undo_point(
                    values["clocks"], snap.clocks, snap.version + 1
                )
        group = self.core.group
        try:
            stored: bool | None = None
            if group is not None and kind == ACTION:
                final = values.get("result")
                commit = ActionCommit(
                    snap.id, snap.version, new_state.model_dump_json(), values.get("clocks"),
                    seat, action, events, client_id, kind, now,
                    finish=None if final is None else (
                        lambda resigned, mode: with_resignations(
                            final, resigned, mode or DEFAULT_ON_RESIGN, engine
                        )
                    ),
                )  # fmt: skip
                try:
                    stored = await group.commit(commit)
                    if stored and final is not None:
                        values["result"] = commit.result
                except Exception:
                    log.warning("the group commit failed; the action takes the ORM path",
                                exc_info=True, extra={"table": snap.id})  # fmt: skip
            if stored is False:
                async with self.core.db.connect() as conn:
                    await self._refusal(conn, snap)
            elif stored is None:
                values["state"] = new_state.model_dump(mode="json")
                # Core statements on one connection: the hot path skips the ORM unit of work.
                async with self.core.writer, self.core.db.begin() as conn:
                    if result is not None:
                        # The game's end: resignations (committed by any instance) rank the seats.
                        values["result"] = await self._resigned_result(
                            conn, snap.id, values["result"], engine
                        )
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
                        await self._refusal(conn, snap)
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
            self.core.invalidate(snap.id)
            latest = await self.core.snapshot(snap.id)
            raise errors.StaleVersion(
                "another action was applied first", current_version=latest.version
            ) from None
        except (errors.StaleVersion, errors.NotFound, errors.NotPlaying):
            self.core.invalidate(snap.id)
            raise
        recent = snap.recent
        recent[snap.version + 1] = (seat, events)
        while len(recent) > self.RECENT_EVENTS:
            recent.popitem(last=False)
        self.cache[snap.id] = snap.renewed(
            status=FINISHED if result is not None else PLAYING,
            version=snap.version + 1,
            state=new_state,
            result=values.get("result"),
            clocks=values.get("clocks", snap.clocks),
            cancel_vote=None if result is not None else snap.cancel_vote,
            previous=(snap.version, snap.state) if snap.state is not None else None,
            recent=recent,
            undo_seat=undo_seat if result is None else None,
            undo=UNDO_SETTLED,
        )

    @staticmethod
    async def _refusal(conn: AsyncConnection, snap: Snapshot) -> NoReturn:
        """Why the table's row did not move from ``snap``'s version: gone, no longer playing,
        or moved on (the same version: the action's client id was used at the table)."""
        current, status = (
            await conn.execute(
                select(_TABLES.c.version, _TABLES.c.status).where(_TABLES.c.id == snap.id)
            )
        ).one_or_none() or (None, None)
        if current is None:
            # Deleted meanwhile (by another instance: this one's cache still had it).
            raise errors.NotFound(f"no table '{snap.id}'", reason="table")
        if status != PLAYING:
            raise errors.NotPlaying(f"the table is {status}, not playing")
        raise errors.StaleVersion("another action was applied first", current_version=current)

    @staticmethod
    async def _resigned_result(
        conn: AsyncConnection, table_id: str, result: dict[str, Any], engine: Engine
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
        return with_resignations(result, list(resigned), mode or DEFAULT_ON_RESIGN, engine)

    async def _state_before_last(self, snap: Snapshot) -> BaseModel:
        """The state before the table's last version (kept from the last commit, or re-played)."""
        if snap.previous is not None and snap.previous[0] == snap.version - 1:
            return snap.previous[1]
        return await self.core.history.replay_state(snap, upto=snap.version - 1)

    async def _idempotent_answer(
        self, snap: Snapshot, seat: int, client_id: str
    ) -> dict[str, Any] | None:
        async with self.core.sessionmaker() as session:
            record = await repo.record_by_client_id(session, snap.id, client_id)
        if record is None:
            return None
        if record.seat != seat:
            raise errors.IdempotencyConflict("that action id was already used by another seat")
        past = await self.core.history.snapshot_at(snap, record.version)
        events = shown(
            snap, redact_events([(record.version, record.seat, record.events)], seat), seat
        )
        answer = self.core.presenter.picture(past, seat, events=events)
        # The same question as the first answer's, asked now: still the table's last move,
        # the seat's own, and one the rules let it take back.
        await self.check_undo(snap, seat)
        answer["undoable"] = record.version == snap.version and may_undo(snap, seat)
        answer["replayed"] = True
        return answer
