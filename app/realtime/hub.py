"""The sockets of each table held by this process, and the per-socket fan-out.

On "table T is at version V" every socket of T loads the (cached) state and
sends its own seat's view: redaction happens per socket, after the commit.
Bursts coalesce: a socket that is still sending marks itself dirty and sends
the newest picture once more, never a backlog of stale ones. A socket's state frames
are made one at a time (its catch-up, the live updates, a sync's answer, its own action's
answer, a resync), each with the events after the last version it was sent, and the live
updates start only after the catch-up: each version's events reach a socket once.

A "revoked" notice (the host blocked a player) closes every socket of that
player held here at once: an ``unauthorized`` error frame, then close 4401.

Per-client limits: at most PARTIDA_WS_MAX_SOCKETS_PER_PLAYER sockets per player (per
process) and PARTIDA_WS_MAX_SOCKETS_PER_IP anonymous sockets per client address (spectators
per deployment, app.realtime.address_caps: a player's sockets never count against their
address); message credits belong to the player (a spectator: its address), not to the
socket, so a reconnect does not refill them. Presence changes (a ``table`` frame to the
table) only when a player's first socket at a table opens or its last one closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable
from typing import Any

import orjson
from starlette.websockets import WebSocket, WebSocketState

from app import errors
from app.db.models import Player
from app.games.base import Locale
from app.metrics import FRAMES
from app.realtime.address_caps import AddressCaps, AddressHold
from app.realtime.broker import BrokerMessage, ChatPosted, PlayerRevoked, Resync, TableUpdate
from app.realtime.delta import view_patch
from app.realtime.roster import Roster
from app.tables.chat import Chat
from app.tables.service import TableService
from app.tables.snapshot import may_undo

log = logging.getLogger("partida.realtime")

# The auth-failure close code of API.md; a blocked player's sockets close with it too
# (reason BLOCKED), so clients stop reconnecting with a token that no longer works.
CLOSE_AUTH = 4401
CLOSE_NOT_FOUND = 4404  # as app.realtime.ws: the table is gone, or no longer readable
BLOCKED = "player blocked"
# How long the hub remembers a revocation, for sockets whose token was checked before the
# block but that register only after the notice (see Hub.revoked_since).
REVOKED_MEMORY_SECONDS = 300.0
# A socket that sent a frame this recently is playing: the shared read of players keeps it
# checked, so that its next frame (a seat's turn comes every few seconds) reads nothing of
# its own. With 1,000 sockets at a move every 4 s per seat, those reads of their own were
# 7 % of the event loop. A socket quiet for longer costs nothing until it speaks again.
ACTIVE_SECONDS = 30.0


class Credits:
    """Token bucket: ``rate`` frames per second, bursts up to ``burst``; ``strikes`` counts
    the frames refused in a row."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.stamp = time.monotonic()
        self.strikes = 0

    def _refill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def take(self) -> bool:
        self._refill()
        if self.tokens >= 1:
            self.tokens -= 1
            self.strikes = 0
            return True
        self.strikes += 1
        return False

    def full(self) -> bool:
        self._refill()
        return self.tokens >= self.burst and self.strikes == 0


class Connection:
    """One open socket: who is behind it and the last version it was sent."""

    def __init__(
        self, websocket: WebSocket, table_id: str, player: Player | None, ip: str = "unknown"
    ) -> None:
        self.websocket = websocket
        self.table_id = table_id
        self.player = player
        self.ip = ip
        # The message credits this socket draws on (shared by every socket of its player).
        self.credits: Credits | None = None
        # Its place in its address's count while it is a spectator's (released on sign-in).
        self.address: AddressHold | None = None
        self.last_version = 0
        # With a language, every event a frame carries also has its readable line (text).
        self.lang: Locale | None = None
        # Delta mode (opt-in): after the first full view, state frames carry a JSON Patch
        # from the last view this socket was sent: (its version, seat, view).
        self.delta = False
        self._last_view: tuple[int, int | None, Any] | None = None
        self._send_lock = asyncio.Lock()
        self._pump: asyncio.Task[None] | None = None
        self._dirty = False
        self._target = 0
        # last_version: the newest version this socket was sent (once ``opened``: its first
        # state frame went out). Every state frame carries the events after it, so each
        # version's events reach the socket once; a sync frame naming an older version asks
        # for them again.
        self.opened = False
        # Held while a state frame is made and sent: the catch-up, the live updates, a sync's
        # answer and an action's answer never interleave, and each starts where the last
        # one ended.
        self._state_lock = asyncio.Lock()
        # This socket's own action is being committed: its answer carries its events, so the
        # live updates wait for it.
        self._acting = False
        # When the player's status was last read from the database (taken before the read);
        # revoked: the player was blocked, the socket is closed and takes no more frames.
        self.verified_at = time.monotonic()
        self.revoked = False
        # When the client last sent a frame (monotonic; None: not yet): Hub.recheck_players
        # reads the players of the sockets that spoke within ACTIVE_SECONDS.
        self.spoke_at: float | None = None

    @property
    def player_id(self) -> str | None:
        return self.player.id if self.player else None

    async def send(self, frame: dict[str, Any]) -> None:
        await self.send_raw(orjson.dumps(frame), str(frame.get("type")))

    async def send_raw(self, payload: bytes, kind: str) -> None:
        if self.revoked or self.websocket.application_state != WebSocketState.CONNECTED:
            return
        async with self._send_lock:
            # Checked again under the lock: revoke() may have closed the socket meanwhile.
            if self.revoked or self.websocket.application_state != WebSocketState.CONNECTED:
                return
            await self.websocket.send_text(payload.decode())
        FRAMES.labels("out", kind).inc()

    async def revoke(self, reason: str = BLOCKED) -> None:
        """The player may no longer play (blocked, or gone): say so with an ``unauthorized``
        error frame, close with 4401 and ``reason``, and take no more frames."""
        if self.revoked:
            return
        self.revoked = True
        self.cancel()
        frame = {
            "type": "error",
            **errors.Unauthorized(
                f"{reason} by the host; this token no longer works", reason="blocked"
            ).envelope(),
        }
        async with self._send_lock:
            if self.websocket.application_state != WebSocketState.CONNECTED:
                return
            try:
                await self.websocket.send_text(orjson.dumps(frame).decode())
                await self.websocket.close(CLOSE_AUTH, reason)
            except Exception:
                log.debug("closing a revoked socket failed", exc_info=True)

    async def lose_table(self) -> None:
        """The socket may no longer read its (private) table: a ``not_found`` error frame,
        close 4404 as for an unknown table, and no more frames."""
        if self.revoked:
            return
        self.revoked = True
        self.cancel()
        gone = errors.NotFound(f"no table '{self.table_id}'", reason="table")
        frame = {"type": "error", **gone.envelope()}
        async with self._send_lock:
            if self.websocket.application_state != WebSocketState.CONNECTED:
                return
            try:
                await self.websocket.send_text(orjson.dumps(frame).decode())
                await self.websocket.close(CLOSE_NOT_FOUND, "no such table")
            except Exception:
                log.debug("closing a socket that lost its table failed", exc_info=True)

    async def send_state(
        self, service: TableService, *, since: int | None = None, ref: Any = None
    ) -> None:
        """Send the current picture, in full, with the events after ``since`` (the version a
        client names: ``?since=`` on connect, a sync frame's), else with those after the last
        version this socket was sent. The live updates wait for it, then go on after it."""
        async with self._state_lock:
            if since is None and not self.opened:
                # A refresh or resync before this socket's first frame: that frame (its
                # catch-up, still to come) reads the table afresh and says it all.
                return
            snap = await service.snapshot(self.table_id)
            self._last_view = None
            if since is None:
                await self._send_picture(service, snap, self.last_version, ref, seen=self.opened)
            else:
                await self._send_picture(service, snap, since, ref)
        self._resume(service)

    async def answer(
        self, service: TableService, move: Awaitable[dict[str, Any]], ref: Any
    ) -> None:
        """Run this socket's own action (or undo) and send its answer, which carries the
        action's events; the live updates of the versions it brings wait for the answer."""
        self._acting = True
        try:
            picture = await move
            async with self._state_lock:
                if self.opened and picture["version"] == self.last_version + 1:
                    self.last_version = picture["version"]
                    snap = await service.snapshot(self.table_id, fresh=False)
                    await self.send(self.state_frame(service, snap, picture, ref))
                    return
                # Other versions came first (or this one was sent already, or this is a
                # retry's answer): the table as it stands, with what this socket has not had,
                # still saying whether it answers a retry.
                least = max(picture["version"], self.last_version)
                snap = await service.snapshot_at_least(self.table_id, least)
                replayed = {"replayed": True} if picture.get("replayed") else None
                await self._send_picture(
                    service, snap, self.last_version, ref, seen=self.opened, extra=replayed
                )
        finally:
            self._acting = False
            self._resume(service)

    def encode(self, snap: Any, picture: dict[str, Any]) -> dict[str, Any]:
        """In delta mode, the picture with its view replaced by a patch against the last view
        this socket got (patches are cached per version and seat: every socket of a seat at
        the same base shares one)."""
        if not self.delta:
            # Nothing to patch against later: no socket keeps a view it will never diff.
            return picture
        view, seat, version = picture.get("view"), picture.get("seat"), picture["version"]
        last, self._last_view = self._last_view, (version, seat, view)
        if last is None or view is None or last[2] is None or last[1] != seat or last[0] >= version:
            return picture
        key = (seat, last[0])
        patches = snap.renders.patches if snap is not None and snap.version == version else {}
        patch = patches.get(key)
        if patch is None:
            patch = patches[key] = view_patch(last[2], view)
        out = {k: v for k, v in picture.items() if k != "view"}
        out["base_version"] = last[0]
        out["view_patch"] = patch
        return out

    async def _send_picture(
        self,
        service: TableService,
        snap: Any,
        since: int,
        ref: Any = None,
        seen: bool = False,
        extra: dict[str, Any] | None = None,
    ) -> None:
        """``since`` 0 asks for no events, unless ``seen``: this socket was sent version 0 (an
        open table) and now gets the start, whose setup events are version 1. ``extra``: more
        fields of an answer (never shared: it has a ``ref``)."""
        seat = snap.seat_of(self.player_id)
        await service.moves.check_undo(snap, seat)
        # None: no events (``since`` 0 and not ``seen``).
        after = since if since or seen else None
        # Every socket of a seat (a spectator: of everybody watching) that is sent the same
        # version since the same one gets the same bytes: encoded once. Not a frame in delta
        # mode (its patch is from this socket's own last view), one answering a frame (ref), or
        # one with running clocks (read when sent).
        key = (seat, after, self.lang, may_undo(snap, seat))
        shared = not self.delta and ref is None and snap.time_control.clock == "none"
        payload = snap.renders.frames.get(key) if shared else None
        if payload is None:
            events = [] if after is None else await service.history.events_since(snap, after, seat)
            frame = self.state_frame(
                service, snap, service.presenter.picture(snap, seat, events=events or []), ref
            )
            if events is None:
                frame["events_complete"] = False
            frame.update(extra or {})
            payload = orjson.dumps(frame)
            if shared:
                snap.renders.frames[key] = payload
        self.last_version = max(self.last_version, snap.version)
        self.opened = True
        await self.send_raw(payload, "state")

    def state_frame(
        self, service: TableService, snap: Any, picture: dict[str, Any], ref: Any = None
    ) -> dict[str, Any]:
        """The one place a state frame is made, whether it follows a change or answers this
        socket's own action: the picture's events and result read in the socket's language,
        the view as a patch in delta mode, and ``ref``, the frame it answers."""
        if self.lang:
            picture = {
                **picture,
                "result": service.presenter.with_result_text(
                    snap.engine, picture.get("result"), self.lang
                ),
            }
            if picture.get("events"):
                picture["events"] = service.presenter.with_text(snap, picture["events"], self.lang)
        frame: dict[str, Any] = {"type": "state", **self.encode(snap, picture)}
        if ref is not None:
            frame["ref"] = ref
        return frame

    def request_update(self, service: TableService, version: int) -> None:
        self._target = max(self._target, version)
        if self._pump is not None and not self._pump.done():
            self._dirty = True
            return
        self._pump = asyncio.create_task(self._run_pump(service))

    def _resume(self, service: TableService) -> None:
        """After a catch-up or an answer: the live updates that waited for it go on."""
        if self._target > self.last_version:
            self.request_update(service, self._target)

    async def _run_pump(self, service: TableService) -> None:
        try:
            while True:
                self._dirty = False
                # Not before the first state frame (the catch-up), nor during this socket's
                # own action: each calls _resume when done.
                if self.opened and not self._acting and self._target > self.last_version:
                    async with self._state_lock:
                        await self._send_live(service)
                if not self._dirty:
                    return
        except errors.NotFound:
            return
        except Exception:
            log.debug("socket update failed", exc_info=True)

    async def _send_live(self, service: TableService) -> None:
        # Checked again under the lock: the frame sent meanwhile may have covered the target.
        if self._target > self.last_version:
            snap = await service.snapshot_at_least(self.table_id, self._target)
            if snap.version > self.last_version:
                await self._send_picture(service, snap, self.last_version, seen=True)

    def cancel(self) -> None:
        if self._pump is not None:
            self._pump.cancel()


class Hub:
    """Sockets per table in this process (boardgame.io's roomInfo/clientInfo)."""

    def __init__(self, service: TableService, chat: Chat, roster: Roster[Connection]) -> None:
        self.service = service
        self.chat = chat
        self.roster = roster
        self.tables = roster.tables
        # player id -> when this process got the notice that the player was blocked.
        self._revoked: dict[str, float] = {}
        # Open sockets per player, anonymous ones per client address; message credits per
        # player (spectators: per address), kept across reconnects.
        self._per_player: dict[str, int] = {}
        settings = service.settings
        # Per address like the REST limits (PARTIDA_RATE_LIMIT_ENABLED turns both off: a
        # test run or a load test connects everything from one address).
        self.addresses = AddressCaps(
            settings.ws_max_sockets_per_ip,
            enabled=settings.rate_limit_enabled,
            redis_url=settings.redis_url,
            prefix=settings.redis_channel,
        )
        self._credits: dict[str, Credits] = {}
        self._rechecking: asyncio.Task[None] | None = None

    def keep_rechecking(self, every: float) -> None:
        """Re-read the status of the players whose sockets here are talking, all in one read,
        every ``every`` seconds (started once, by the first socket): the safety net under the
        broker's "revoked" notice costs one read per interval for the whole process, not
        one per socket, and a socket whose read is fresh reads nothing before its frames."""
        if self._rechecking is None or self._rechecking.done():
            self._rechecking = asyncio.create_task(self._recheck_loop(every), name="recheck")

    async def _recheck_loop(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            try:
                await self.recheck_players()
            except Exception:
                # A socket reads its player itself before its next frame instead.
                log.warning("rechecking the connected players failed", exc_info=True)

    async def recheck_players(self) -> None:
        """Read at once every player whose socket here sent a frame in the last
        ACTIVE_SECONDS: a player blocked or deleted meanwhile loses its sockets here (4401),
        every other socket counts as checked (and learns a rename). A socket quiet for longer
        costs no read; its next frame reads its player first if the last read is old
        (ws._still_allowed)."""
        checked = time.monotonic()
        conns = [
            c
            for cs in list(self.tables.values())
            for c in cs
            if c.player is not None
            and c.spoke_at is not None
            and checked - c.spoke_at < ACTIVE_SECONDS
        ]
        if not conns:
            return
        players = await self.service.players({c.player.id for c in conns if c.player})
        for conn in conns:
            if conn.revoked or conn.player is None:
                continue
            player = players.get(conn.player.id)
            if player is None or player.is_blocked:
                await conn.revoke(BLOCKED if player is not None else "player deleted")
            elif conn.verified_at < checked:
                conn.player, conn.verified_at = player, checked

    async def close(self) -> None:
        if self._rechecking is not None:
            self._rechecking.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._rechecking
        await self.addresses.close()

    def refusal(self, conn: Connection, player: Player | None = None) -> str | None:
        """Why a new socket ``conn`` (or, with ``player``, ``conn`` becoming that player's)
        would pass the player's socket limit; None when it may go on."""
        pid = conn.player_id if player is None else player.id
        if pid is None or (player is not None and player.id == conn.player_id):
            return None
        limit = self.service.settings.ws_max_sockets_per_player
        if self._per_player.get(pid, 0) >= limit:
            return f"too many open sockets for this player (limit {limit})"
        return None

    def add(self, conn: Connection) -> bool:
        """Register ``conn``; True when its player was not connected to the table before."""
        first = conn.player_id is not None and conn.player_id not in self.connected_players(
            conn.table_id
        )
        self.tables.setdefault(conn.table_id, set()).add(conn)
        if conn.player_id is not None:
            self._count(self._per_player, conn.player_id, 1)
        conn.credits = self.credits_for(conn)
        return first

    def remove(self, conn: Connection) -> bool:
        """Unregister ``conn``; True when it was its player's last socket at the table."""
        conns = self.tables.get(conn.table_id)
        if conns is not None and conn in conns:
            conns.discard(conn)
            if not conns:
                del self.tables[conn.table_id]
            if conn.player_id is not None:
                self._count(self._per_player, conn.player_id, -1)
        conn.cancel()
        return conn.player_id is not None and conn.player_id not in self.connected_players(
            conn.table_id
        )

    def reassign(self, conn: Connection, player: Player) -> set[str]:
        """``conn`` now belongs to ``player`` (an auth frame): the players whose presence at
        the table changed (the old player's last socket, the new player's first)."""
        before = self.connected_players(conn.table_id)
        if conn.player_id is not None:
            self._count(self._per_player, conn.player_id, -1)
        conn.player = player
        self._count(self._per_player, player.id, 1)
        conn.credits = self.credits_for(conn)
        return before ^ self.connected_players(conn.table_id)

    def credits_for(self, conn: Connection) -> Credits:
        """The message credits of ``conn``'s player (a spectator: its address)."""
        key = f"player:{conn.player_id}" if conn.player_id is not None else f"ip:{conn.ip}"
        credits = self._credits.get(key)
        if credits is None:
            if len(self._credits) > 10_000:
                # Forget the credits that have refilled: a fresh bucket is the same.
                for k, c in list(self._credits.items()):
                    if c.full():
                        del self._credits[k]
            settings = self.service.settings
            credits = self._credits[key] = Credits(
                settings.ws_messages_per_second, settings.ws_burst
            )
        return credits

    @staticmethod
    def _count(counts: dict[str, int], key: str, delta: int) -> None:
        value = counts.get(key, 0) + delta
        if value > 0:
            counts[key] = value
        else:
            counts.pop(key, None)

    def connected_players(self, table_id: str) -> set[str]:
        return self.roster.connected_players(table_id)

    def connected_by_table(self) -> list[tuple[str, set[str]]]:
        return self.roster.connected_by_table()

    def count(self) -> int:
        return self.roster.count()

    async def revoke_player(self, player_id: str) -> int:
        """Close every socket of ``player_id`` held here (4401); returns how many."""
        now = time.monotonic()
        for pid, at in list(self._revoked.items()):
            if now - at > REVOKED_MEMORY_SECONDS:
                del self._revoked[pid]
        self._revoked[player_id] = now
        conns = [c for cs in list(self.tables.values()) for c in cs if c.player_id == player_id]
        await asyncio.gather(*(c.revoke() for c in conns), return_exceptions=True)
        if conns:
            log.info("closed a blocked player's sockets", extra={"count": len(conns)})
        return len(conns)

    def revoked_since(self, player_id: str | None, verified_at: float) -> bool:
        """Was ``player_id`` revoked after its status was read at ``verified_at``? (A socket
        that checked its token just before the block but registered just after the notice.)"""
        at = self._revoked.get(player_id) if player_id is not None else None
        return at is not None and at >= verified_at

    async def resync(self) -> None:
        """The broker may have missed updates (Redis was unreachable): forget every cached
        table (seats and take-overs change without a new version), then send each socket held
        here its table as it stands and its state with the events it missed."""
        self.service.invalidate_all()
        for table_id, conns in list(self.tables.items()):
            try:
                snap = await self.service.snapshot(table_id)
            except errors.NotFound:
                gone = {"type": "table", "table": None, "deleted": table_id}
                await asyncio.gather(*(c.send(gone) for c in list(conns)), return_exceptions=True)
                continue
            except Exception:
                log.warning("could not resync a table", exc_info=True, extra={"table": table_id})
                continue
            await asyncio.gather(
                *(self._catch_up(c, snap) for c in list(conns)), return_exceptions=True
            )

    async def _catch_up(self, conn: Connection, snap: Any) -> None:
        table = self.service.presenter.table_public(snap, conn.player_id, conn.lang)
        await conn.send({"type": "table", "table": table})
        await conn.send_state(self.service)

    async def on_update(self, update: BrokerMessage) -> None:
        match update:
            case PlayerRevoked(player_id):
                await self.revoke_player(player_id)
                return
            case Resync():
                await self.resync()
                return
            case ChatPosted(table_id, message_id):
                conns = self.tables.get(table_id)
                message = await self.chat.message(message_id) if conns else None
                if conns and message is not None:
                    frame = {"type": "chat", "message": message}
                    await asyncio.gather(
                        *(c.send(frame) for c in list(conns)), return_exceptions=True
                    )
                return
            case TableUpdate():
                await self._table_changed(update)

    async def _table_changed(self, update: TableUpdate) -> None:
        if update.kind in ("table", "refresh"):
            # Seats change without a new version: whatever this process cached is old.
            self.service.invalidate(update.table_id)
        conns = self.tables.get(update.table_id)
        if not conns:
            return
        if update.kind == "state":
            for conn in list(conns):
                conn.request_update(self.service, update.version)
            return
        if update.kind == "refresh":
            await asyncio.gather(
                *(c.send_state(self.service) for c in list(conns)), return_exceptions=True
            )
            return
        try:
            snap = await self.service.snapshot(update.table_id)
        except errors.NotFound:
            gone = {"type": "table", "table": None, "deleted": update.table_id}
            await asyncio.gather(*(c.send(gone) for c in list(conns)), return_exceptions=True)
            return
        if snap.private:
            # A player who left a private table (and holds no invite) may not read it any more.
            for c in list(conns):
                try:
                    self.service.check_visible(
                        snap, c.player_id, c.websocket.query_params.get("invite")
                    )
                except errors.NotFound:
                    await c.lose_table()
            conns = {c for c in conns if not c.revoked}
        # Each socket gets the table as its player may see it (a private table's invite
        # code goes to the players seated there only).
        await asyncio.gather(
            *(
                c.send(
                    {
                        "type": "table",
                        "table": self.service.presenter.table_public(snap, c.player_id, c.lang),
                    }
                )
                for c in list(conns)
            ),
            return_exceptions=True,
        )
