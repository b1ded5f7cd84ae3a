"""The table WebSocket of API.md: per-seat state frames, actions, sync, ping.

A malformed frame is answered with an error frame and the socket stays open;
the socket is closed only for auth failure (4401), an unknown table (4404),
oversized frames (1009), flooding (1008), or silence before its first frame (4408).

A player the host blocks loses its sockets at once: the admin publishes a
"revoked" notice through the broker and every instance's hub closes that
player's sockets (4401, reason "player blocked"). As a safety net for a notice
that never arrived (a Redis subscription being re-established), a socket
re-reads its player's status before a frame when the last read is older than
RECHECK_SECONDS, and a frame that still arrives on a revoked socket is dropped.

The token may come as the ``token`` query parameter (third-party clients) or, with
``?auth=frame``, in the first frame ``{"type": "auth", "token"}`` (the browser client: no
secret in a URL); the server's logs redact it either way (app/logging.py). A socket beyond
the per-player limit, or an anonymous one beyond its address's (app.realtime.address_caps),
gets a ``rate_limited`` error frame and close 1008.

A socket nobody signed in to must not hold a place for ever: one with ``?auth=frame``
whose auth frame has not come within PARTIDA_WS_AUTH_SECONDS, and a spectator's that has
sent no frame at all within PARTIDA_WS_SILENT_SECONDS (the ping deadline: the browser pings
every 15 s; only while the per-address cap is on), get an error frame and close 4408. A
player's socket is never closed for silence (a bot may listen there and act over REST).

Every frame the parser cannot take (not JSON, nested too deeply, numbers past 64 bits,
control characters in ids, wrong types) is answered with a ``validation_error`` frame.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections.abc import Awaitable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import (
    Field,
    TypeAdapter,
    ValidationError,
)

from app import errors
from app.api.deps import query_since
from app.api.schemas import MAX_ACTION_DEPTH, IdempotencyKey, RequestBody, nesting_depth
from app.games.base import Locale
from app.metrics import FRAMES, SOCKETS
from app.realtime.address_caps import AddressHold, Standing
from app.realtime.broker import TableUpdate
from app.realtime.hub import BLOCKED, CLOSE_AUTH, Connection, Credits, Hub
from app.refusals import validation_failed
from app.tables.chat_rate import check_chat_rate
from app.tables.service import TableService

log = logging.getLogger("partida.realtime")
router = APIRouter()

_LANGS: dict[str, Locale] = {"es": "es", "en": "en"}

CLOSE_NOT_FOUND, CLOSE_TOO_BIG, CLOSE_FLOOD = 4404, 1009, 1008
# An anonymous socket silent too long before its first frame (HTTP's 408, request timeout).
CLOSE_SILENT = 4408
# A player socket re-reads the player's status (blocked? deleted?) before a frame at most
# this often; the broker's "revoked" notice closes the sockets at once, this only bounds
# the damage of a notice that was lost.
RECHECK_SECONDS = 5.0
# Versions and numeric ids are 64-bit signed integers on the wire and in the database.
MAX_INT = 2**63 - 1
# Client ids (idempotency keys) are printable: no NUL or other control characters.
Version = Annotated[int, Field(ge=0, le=MAX_INT)]
# No frame of the protocol nests deeper than this (an action is a few levels at most).
MAX_DEPTH = MAX_ACTION_DEPTH
_SINCE = re.compile(r"[0-9]{1,19}")


class _Frame(RequestBody):
    """A client frame is as strict as a request body: ``"version": "7"`` is a
    validation_error, as it is over REST."""


class ActionFrame(_Frame):
    type: Literal["action"]
    version: Version
    action: Any
    id: IdempotencyKey | None = None


class UndoFrame(_Frame):
    type: Literal["undo"]
    version: int = Field(
        ge=0, le=MAX_INT, description="the table's current version (right after your action)"
    )
    id: IdempotencyKey | None = None


class SyncFrame(_Frame):
    type: Literal["sync"]
    version: int | None = Field(
        default=None, ge=0, le=MAX_INT, description="the last version this client saw"
    )


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


# The message credits of a socket (kept here under their old name for imports).
_Bucket = Credits


def _error_frame(exc: errors.AppError, ref: Any = None) -> dict[str, Any]:
    frame: dict[str, Any] = {"type": "error", **exc.envelope()}
    if ref is not None:
        frame["ref"] = ref
    return frame


def _ref(data: Any) -> str | int | None:
    """The frame's ``id``, echoed as ``ref`` when it can be (a short string, a 64-bit int)."""
    ref = data.get("id") if isinstance(data, dict) else None
    if isinstance(ref, str) and len(ref) <= 64:
        return ref
    if isinstance(ref, int) and not isinstance(ref, bool) and -MAX_INT - 1 <= ref <= MAX_INT:
        return ref
    return None


def _client_ip(websocket: WebSocket) -> str:
    return websocket.client.host if websocket.client else "unknown"


def _standing(websocket: WebSocket) -> Standing:
    """Who is behind a socket as it opens, for its address's count."""
    if websocket.query_params.get("auth") == "frame":
        return "awaiting_auth"
    return "player" if websocket.query_params.get("token") else "spectator"


async def _first_message(websocket: WebSocket, seconds: float, waiting_for: str) -> Any:
    """The socket's first message, or None after an error frame and close 4408 when none
    came within ``seconds``."""
    try:
        async with asyncio.timeout(seconds):
            return await websocket.receive()
    except TimeoutError:
        pass
    await websocket.send_json(
        _error_frame(errors.Unauthorized(f"no {waiting_for} within {seconds:g} s", reason="silent"))
    )
    await websocket.close(CLOSE_SILENT, f"no {waiting_for} in time")
    return None


async def _first_frame_token(websocket: WebSocket, max_bytes: int, seconds: float) -> str | None:
    """With ``?auth=frame`` the first frame must be ``{"type": "auth", "token"}``, within
    ``seconds``: its token, or None after answering (error frame) and closing (4401; 4408
    when it did not come in time; 1009 for an oversized frame)."""
    message = await _first_message(websocket, seconds, "auth frame")
    if message is None or message["type"] == "websocket.disconnect":
        return None
    raw = message.get("text")
    if raw is None:
        raw = (message.get("bytes") or b"").decode("utf-8", errors="replace")
    if len(raw) > max_bytes:
        await websocket.close(CLOSE_TOO_BIG, f"frames are limited to {max_bytes} bytes")
        return None
    try:
        frame = _FRAMES.validate_python(json.loads(raw))
    except (ValueError, RecursionError):
        frame = None
    if isinstance(frame, AuthFrame):
        return frame.token
    await websocket.send_json(
        _error_frame(
            errors.Unauthorized('with ?auth=frame the first frame is {"type": "auth", "token"}')
        )
    )
    await websocket.close(CLOSE_AUTH, "unauthorized")
    return None


async def _publish_presence(service: TableService, table_id: str, players: set[str]) -> bool:
    """Tell the table that some of ``players`` (seated there) came or went; False when none
    of them is seated (nothing to say)."""
    if not players:
        return False
    snap = await service.snapshot(table_id, fresh=False)
    seated = {pid for pid in players if snap.seat_of(pid) is not None}
    if not seated:
        return False
    # The presence lease every instance reads before a takeover: written when a player's
    # first socket here opens, wound down when the last one closes (the heartbeat renews it
    # in between, and writes it again if this write fails).
    here = service.presence(table_id)
    try:
        if came := seated & here:
            await service.absence.mark_seen([(table_id, came)])
        for player_id in seated - here:
            await service.absence.mark_gone(table_id, player_id)
    except Exception:
        log.warning("presence write failed", exc_info=True)
    await service.broker.publish(TableUpdate(table_id, snap.version, "table"))
    return True


@router.websocket("/api/v1/tables/{table_id}/ws")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    """One socket per client per table; without a token it is a spectator's."""
    hub: Hub = websocket.app.state.hub
    ip = _client_ip(websocket)
    # Counted before the handshake completes, while nobody is signed in: a spectator's
    # socket, or one awaiting its auth frame (a token query counts on its player instead).
    hold = await hub.addresses.hold(ip, _standing(websocket))
    await websocket.accept()
    if hold is None:
        limit = hub.addresses.limit
        refused = f"too many open sockets from this address (limit {limit})"
        await websocket.send_json(_error_frame(errors.RateLimited(refused, reason="sockets")))
        await websocket.close(CLOSE_FLOOD, "too many sockets")
        return
    try:
        await _table_socket(websocket, table_id, ip, hold)
    finally:
        await hub.addresses.release(hold)


async def _table_socket(websocket: WebSocket, table_id: str, ip: str, hold: AddressHold) -> None:
    service: TableService = websocket.app.state.service
    hub: Hub = websocket.app.state.hub
    settings = service.settings
    player = None
    verified_at = time.monotonic()
    token = websocket.query_params.get("token")
    if websocket.query_params.get("auth") == "frame":
        try:
            token = await _first_frame_token(
                websocket, settings.ws_max_frame_bytes, settings.ws_auth_seconds
            )
        except WebSocketDisconnect:
            return
        # Signed in or closed: either way no longer its address's.
        await hub.addresses.release(hold)
        if token is None:
            return
        verified_at = time.monotonic()
    if token:
        player = await service.player_by_token(token)
        if player is None:
            await websocket.send_json(
                _error_frame(errors.Unauthorized("unknown or revoked token", reason="bad_token"))
            )
            await websocket.close(CLOSE_AUTH, "unauthorized")
            return
    try:
        snap = await service.snapshot(table_id)
        # A private table is a 4404 like an unknown one, unless seated or holding the invite.
        service.check_visible(
            snap, player.id if player else None, websocket.query_params.get("invite")
        )
    except errors.NotFound as exc:
        await websocket.send_json(_error_frame(exc))
        await websocket.close(CLOSE_NOT_FOUND, "no such table")
        return
    raw_since = websocket.query_params.get("since")
    since = query_since(raw_since)
    bad_since = raw_since is not None and since is None

    conn = Connection(websocket, table_id, player, ip)
    conn.verified_at = verified_at
    conn.address = hold
    conn.lang = _LANGS.get(websocket.query_params.get("lang") or "")
    conn.delta = websocket.query_params.get("delta") in ("1", "true")
    if (refused := hub.refusal(conn)) is not None:
        await websocket.send_json(_error_frame(errors.RateLimited(refused, reason="sockets")))
        await websocket.close(CLOSE_FLOOD, "too many sockets")
        return
    first = hub.add(conn)
    hub.keep_rechecking(max(RECHECK_SECONDS / 2, 0.5))
    SOCKETS.inc()
    try:
        if hub.revoked_since(conn.player_id, verified_at):
            # Blocked between the token check and hub.add: the notice missed this socket.
            await conn.revoke()
            return
        # Only a seated player's first socket here changes the table's presence; any other
        # socket gets the table for itself.
        if not (first and await _publish_presence(service, table_id, {conn.player_id or ""})):
            await conn.send(
                {
                    "type": "table",
                    "table": service.presenter.table_public(snap, conn.player_id, conn.lang),
                }
            )
        if bad_since:
            await conn.send(
                _error_frame(
                    errors.ValidationFailed(
                        "since is a version: a whole number from 0; sending the current state",
                        reason="not_integer",
                        field="since",
                    )
                )
            )
        # Registered above before this read: a version committed meanwhile is either in this
        # first frame or sent after it by the live updates, which wait for it (never both).
        await conn.send_state(service, since=since or 0)
        await _serve(websocket, conn, service, settings.ws_max_frame_bytes)
    except WebSocketDisconnect:
        pass
    finally:
        last = hub.remove(conn)
        SOCKETS.dec()
        if last and conn.player_id is not None:
            try:
                await _publish_presence(service, table_id, {conn.player_id})
            except Exception:
                log.debug("presence update failed", exc_info=True)


async def _serve(
    websocket: WebSocket, conn: Connection, service: TableService, max_bytes: int
) -> None:
    settings = service.settings
    # A spectator's socket holds a place of its address's, and a client that never speaks is
    # indistinguishable from one that left it open: once the address has places to hold
    # (the cap is on), it must speak (a ping will do) within the ping deadline.
    silent = settings.ws_silent_seconds if settings.rate_limit_enabled else 0
    while True:
        if conn.player is None and conn.spoke_at is None and silent > 0:
            message = await _first_message(websocket, silent, "frame")
            if message is None:
                return
        else:
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
        conn.spoke_at = time.monotonic()
        # The credits are the player's (a spectator's: its address's), not this socket's.
        bucket = conn.credits
        if bucket is not None and not bucket.take():
            if bucket.strikes > bucket.burst:
                await websocket.close(CLOSE_FLOOD, "too many frames")
                return
            await conn.send(
                _error_frame(errors.RateLimited("too many frames; slow down", reason="frames"))
            )
            continue
        try:
            await _handle(raw, conn, service)
        except WebSocketDisconnect:
            raise
        except Exception:
            # A bug of ours must not cost the client its socket: answered, logged, kept open.
            log.exception("a socket frame failed")
            await conn.send(
                {
                    "type": "error",
                    **errors.envelope(
                        "internal_error", "something went wrong on our side; it has been logged"
                    ),
                }
            )


def _parse(raw: str) -> tuple[Any, errors.AppError | None]:
    too_deep = errors.ValidationFailed(
        f"frames must be JSON objects nested at most {MAX_DEPTH} levels deep",
        reason="too_deep",
        params={"max_depth": MAX_DEPTH},
    )
    try:
        data = json.loads(raw)
    except RecursionError:
        return None, too_deep
    except ValueError:
        # "" names the whole frame, as a validation error's path does (the frame was "frame").
        return None, errors.ValidationFailed(
            "frames must be JSON objects", reason="bad_format", field=""
        )
    if nesting_depth(data) > MAX_DEPTH:
        return None, too_deep
    return data, None


async def _handle(raw: str, conn: Connection, service: TableService) -> None:
    data, problem = _parse(raw)
    if problem is not None:
        FRAMES.labels("in", "invalid").inc()
        await conn.send(_error_frame(problem))
        return
    ref = _ref(data)
    try:
        frame = _FRAMES.validate_python(data)
    except (ValidationError, RecursionError) as exc:
        FRAMES.labels("in", "invalid").inc()
        # The path of the offending value in the frame ("version", "action.type"; "" for
        # the whole frame), as a REST body's.
        await conn.send(
            _error_frame(
                validation_failed(
                    "unknown or malformed frame; expected type action, undo, sync, ping, chat or auth",
                    exc.errors(include_url=False) if isinstance(exc, ValidationError) else [],
                    document=data,
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
            # Without a version: the events this socket has not been sent (usually none).
            await conn.send_state(service, since=frame.version)
        elif isinstance(frame, ChatFrame):
            if conn.player is None:
                raise errors.Unauthorized(
                    "spectators without a token cannot chat; connect with a token",
                    reason="spectator",
                )
            app_state = conn.websocket.app.state
            await check_chat_rate(
                app_state.limiter, service.settings.rate_limit_chat, conn.player.id
            )
            invite = conn.websocket.query_params.get("invite")
            await app_state.chat.post(conn.table_id, conn.player, frame.text, invite)
        elif isinstance(frame, AuthFrame):
            await _authenticate(frame, conn, service)
        else:
            await conn.answer(service, _move(frame, conn, service), frame.id)
    except errors.AppError as exc:
        await conn.send(_error_frame(exc, ref))


def _move(
    frame: ActionFrame | UndoFrame, conn: Connection, service: TableService
) -> Awaitable[dict[str, Any]]:
    """The commit of an action or undo frame (awaited by Connection.answer); a spectator's
    is refused at once."""
    if conn.player is None:
        raise errors.Unauthorized("spectators cannot act; connect with a token", reason="spectator")
    if isinstance(frame, UndoFrame):
        return service.moves.undo(conn.table_id, conn.player, frame.version, frame.id)
    return service.moves.act(conn.table_id, conn.player, frame.version, frame.action, frame.id)


async def _authenticate(frame: AuthFrame, conn: Connection, service: TableService) -> None:
    """An auth frame: the socket becomes the token's player's (within the socket limits)."""
    verified_at = time.monotonic()
    player = await service.player_by_token(frame.token)
    if player is None:
        await conn.send(
            _error_frame(errors.Unauthorized("unknown or revoked token", reason="bad_token"))
        )
        await conn.websocket.close(CLOSE_AUTH, "unauthorized")
        return
    hub: Hub = conn.websocket.app.state.hub
    if (refused := hub.refusal(conn, player)) is not None:
        await conn.send(_error_frame(errors.RateLimited(refused, reason="sockets")))
        await conn.websocket.close(CLOSE_FLOOD, "too many sockets")
        return
    changed = hub.reassign(conn, player)
    conn.verified_at = verified_at
    # A player's socket now: it lives on the player's budget, no longer its address's.
    await hub.addresses.release(conn.address)
    if hub.revoked_since(player.id, verified_at):
        await conn.revoke()
        return
    await _publish_presence(service, conn.table_id, changed)
    # The new seat's picture, with the events this socket has not been sent (none twice).
    await conn.send_state(service)


async def _still_allowed(conn: Connection, service: TableService) -> bool:
    """False (and the socket revoked) when the socket's player was blocked or deleted.

    Reads the player at most every RECHECK_SECONDS; a fresh read also picks up a rename.
    """
    if conn.revoked:
        return False
    if conn.player is None or time.monotonic() - conn.verified_at < RECHECK_SECONDS:
        return True
    checked = time.monotonic()
    player = await service.player(conn.player.id)
    if player is None or player.is_blocked:
        await conn.revoke(BLOCKED if player is not None else "player deleted")
        return False
    conn.player, conn.verified_at = player, checked
    return True
