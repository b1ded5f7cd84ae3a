"""The table WebSocket of API.md: per-seat state frames, actions, sync, ping.

A malformed frame is answered with an error frame and the socket stays open;
the socket is closed only for auth failure (4401), an unknown table (4404),
oversized frames (1009) or flooding (1008).

A player the host blocks loses its sockets at once: the admin publishes a
"revoked" notice through the broker and every instance's hub closes that
player's sockets (4401, reason "player blocked"). As a safety net for a notice
that never arrived (a Redis subscription being re-established), a socket
re-reads its player's status before a frame when the last read is older than
RECHECK_SECONDS, and a frame that still arrives on a revoked socket is dropped.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Annotated, Any, Literal

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from app import errors
from app.api.deps import TableId, query_since
from app.api.schemas import IdempotencyKey
from app.db.models import Player
from app.games.base import Locale
from app.metrics import FRAMES, SOCKETS
from app.realtime.broker import TableUpdate
from app.realtime.hub import BLOCKED, CLOSE_AUTH, Connection, Hub
from app.tables.service import TableService, validation_details

log = logging.getLogger("partida.realtime")
router = APIRouter()

_LANGS: dict[str, Locale] = {"es": "es", "en": "en"}

CLOSE_NOT_FOUND, CLOSE_TOO_BIG, CLOSE_FLOOD = 4404, 1009, 1008
# A player socket re-reads the player's status (blocked? deleted?) before a frame at most
# this often; the broker's "revoked" notice closes the sockets at once, this only bounds
# the damage of a notice that was lost.
RECHECK_SECONDS = 5.0


class _Frame(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ActionFrame(_Frame):
    type: Literal["action"]
    version: int
    action: Any
    id: IdempotencyKey | None = None


class UndoFrame(_Frame):
    type: Literal["undo"]
    version: int = Field(description="the table's current version (right after your action)")
    id: IdempotencyKey | None = None


class SyncFrame(_Frame):
    type: Literal["sync"]
    version: int | None = Field(default=None, description="the last version this client saw")


class PingFrame(_Frame):
    type: Literal["ping"]


class AuthFrame(_Frame):
    type: Literal["auth"]
    token: str = Field(max_length=200)


class ChatFrame(_Frame):
    type: Literal["chat"]
    text: str = Field(max_length=500)


ClientFrame = Annotated[
    ActionFrame | UndoFrame | SyncFrame | PingFrame | AuthFrame | ChatFrame,
    Field(discriminator="type"),
]
_FRAMES: TypeAdapter[Any] = TypeAdapter(ClientFrame)


class _Bucket:
    """Token bucket: ``rate`` frames per second, bursts up to ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.stamp = time.monotonic()
        self.strikes = 0

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            self.strikes = 0
            return True
        self.strikes += 1
        return False


def _error_frame(exc: errors.AppError, ref: Any = None) -> dict[str, Any]:
    frame: dict[str, Any] = {"type": "error", **exc.envelope()}
    if ref is not None:
        frame["ref"] = ref
    return frame


@router.websocket("/api/v1/tables/{table_id}/ws")
async def table_socket(websocket: WebSocket, table_id: TableId) -> None:
    """One socket per client per table; without a token it is a spectator's."""
    service: TableService = websocket.app.state.service
    hub: Hub = websocket.app.state.hub
    settings = service.settings
    await websocket.accept()
    player = None
    verified_at = time.monotonic()
    token = websocket.query_params.get("token")
    if token:
        player = await service.player_by_token(token)
        if player is None:
            await websocket.send_json(_error_frame(errors.Unauthorized("unknown or revoked token")))
            await websocket.close(CLOSE_AUTH, "unauthorized")
            return
    try:
        snap = await service.snapshot(table_id)
    except errors.NotFound as exc:
        await websocket.send_json(_error_frame(exc))
        await websocket.close(CLOSE_NOT_FOUND, "no such table")
        return
    since = query_since(websocket.query_params.get("since"))

    conn = Connection(websocket, table_id, player)
    conn.verified_at = verified_at
    conn.lang = _LANGS.get(websocket.query_params.get("lang") or "")
    conn.delta = websocket.query_params.get("delta") in ("1", "true")
    hub.add(conn)
    SOCKETS.inc()
    try:
        if hub.revoked_since(conn.player_id, verified_at):
            # Blocked between the token check and hub.add: the notice missed this socket.
            await conn.revoke()
            return
        if player is not None and snap.seat_of(player.id) is not None:
            await service.broker.publish(TableUpdate(table_id, snap.version, "table"))
        else:
            await conn.send(
                {"type": "table", "table": service.table_public(snap, conn.player_id, conn.lang)}
            )
        await conn.send_state(service, since=since or 0)
        await _serve(
            websocket,
            conn,
            service,
            settings.ws_max_frame_bytes,
            _Bucket(settings.ws_messages_per_second, settings.ws_burst),
        )
    except WebSocketDisconnect:
        pass
    finally:
        hub.remove(conn)
        SOCKETS.dec()
        if player is not None:
            try:
                snap = await service.snapshot(table_id, fresh=False)
                if snap.seat_of(player.id) is not None:
                    await service.broker.publish(TableUpdate(table_id, snap.version, "table"))
            except Exception:
                log.debug("presence update failed", exc_info=True)


async def _serve(
    websocket: WebSocket, conn: Connection, service: TableService, max_bytes: int, bucket: _Bucket
) -> None:
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect" or conn.revoked:
            # A frame already queued when the socket was revoked is dropped unread.
            return
        raw = message.get("text")
        if raw is None and message.get("bytes") is not None:
            raw = message["bytes"].decode("utf-8", errors="replace")
        raw = raw or ""
        if len(raw) > max_bytes:
            await websocket.close(CLOSE_TOO_BIG, f"frames are limited to {max_bytes} bytes")
            return
        if not bucket.take():
            if bucket.strikes > bucket.burst:
                await websocket.close(CLOSE_FLOOD, "too many frames")
                return
            await conn.send(_error_frame(errors.RateLimited("too many frames; slow down")))
            continue
        await _handle(raw, conn, service)


async def _handle(raw: str, conn: Connection, service: TableService) -> None:
    ref: Any = None
    try:
        data = json.loads(raw)
    except ValueError:
        await conn.send(_error_frame(errors.ValidationFailed("frames must be JSON objects")))
        return
    if isinstance(data, dict):
        ref = data.get("id") if isinstance(data.get("id"), str | int) else None
    try:
        frame = _FRAMES.validate_python(data)
    except ValidationError as exc:
        FRAMES.labels("in", "invalid").inc()
        await conn.send(
            _error_frame(
                errors.ValidationFailed(
                    "unknown or malformed frame; expected type action, undo, sync, ping, chat or auth",
                    errors=validation_details(exc),
                ),
                ref,
            )
        )
        return
    FRAMES.labels("in", frame.type).inc()
    if not isinstance(frame, PingFrame) and not await _still_allowed(conn, service):
        return
    try:
        if isinstance(frame, PingFrame):
            await conn.send({"type": "pong"})
        elif isinstance(frame, SyncFrame):
            await conn.send_state(service, since=frame.version if frame.version is not None else 0)
        elif isinstance(frame, ChatFrame):
            if conn.player is None:
                raise errors.Unauthorized(
                    "spectators without a token cannot chat; connect with a token"
                )
            chat = conn.websocket.app.state.chat
            await chat.post(conn.table_id, conn.player, frame.text)
        elif isinstance(frame, AuthFrame):
            verified_at = time.monotonic()
            player = await service.player_by_token(frame.token)
            if player is None:
                await conn.send(_error_frame(errors.Unauthorized("unknown or revoked token")))
                await conn.websocket.close(CLOSE_AUTH, "unauthorized")
                return
            conn.player, conn.verified_at = player, verified_at
            hub: Hub = conn.websocket.app.state.hub
            if hub.revoked_since(player.id, verified_at):
                await conn.revoke()
                return
            await conn.send_state(service, since=0)
        else:
            if conn.player is None:
                raise errors.Unauthorized("spectators cannot act; connect with a token")
            if isinstance(frame, UndoFrame):
                picture = await service.undo(conn.table_id, conn.player, frame.version, frame.id)
            else:
                picture = await service.act(
                    conn.table_id, conn.player, frame.version, frame.action, frame.id
                )
            if picture["version"] >= conn.last_version:
                conn.last_version = max(conn.last_version, picture["version"])
                snap = await service.snapshot(conn.table_id, fresh=False)
                if conn.lang and picture.get("events"):
                    picture["events"] = service.with_text(snap, picture["events"], conn.lang)
                picture["result"] = service.with_result_text(
                    snap.engine, picture.get("result"), conn.lang
                )
                await conn.send({"type": "state", **conn.encode(snap, picture), "ref": frame.id})
            else:
                await conn.send_state(service, since=picture["version"], ref=frame.id)
    except errors.AppError as exc:
        await conn.send(_error_frame(exc, ref))


async def _still_allowed(conn: Connection, service: TableService) -> bool:
    """False (and the socket revoked) when the socket's player was blocked or deleted.

    Reads the player at most every RECHECK_SECONDS; a fresh read also picks up a rename.
    """
    if conn.revoked:
        return False
    if conn.player is None or time.monotonic() - conn.verified_at < RECHECK_SECONDS:
        return True
    checked = time.monotonic()
    async with service.sessionmaker() as session:
        player = await session.get(Player, conn.player.id)
    if player is None or player.is_blocked:
        await conn.revoke(BLOCKED if player is not None else "player deleted")
        return False
    conn.player, conn.verified_at = player, checked
    return True
