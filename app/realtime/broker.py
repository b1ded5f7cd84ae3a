"""Publish "table T is at version V" to every instance (boardgame.io's pubsub, minus the payload).

Only the table id, version and kind travel: each socket handler then loads the
state and sends its own seat's view, so no hidden information is ever published.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol

log = logging.getLogger(__name__)

# What travels between instances: each kind of notice is its own type, so nothing carries a
# value under another's name.
#   TableUpdate: table T changed. state: a new version; table: seats or status changed;
#     refresh: the same version reads differently (a seat taken back, its clock restarted).
#   ChatPosted: a chat line was said at table T (each instance reads it by its id).
#   PlayerRevoked: the host blocked a player, whose open sockets every instance closes.
#   Resync: updates may have been missed (Redis was unreachable): every socket is brought up
#     to date.
TableKind = Literal["state", "table", "refresh"]


@dataclass(frozen=True, slots=True)
class TableUpdate:
    table_id: str
    version: int
    kind: TableKind


@dataclass(frozen=True, slots=True)
class ChatPosted:
    table_id: str
    message_id: int


@dataclass(frozen=True, slots=True)
class PlayerRevoked:
    player_id: str


@dataclass(frozen=True, slots=True)
class Resync:
    pass


BrokerMessage = TableUpdate | ChatPosted | PlayerRevoked | Resync


def encode(message: BrokerMessage, origin: str) -> str:
    """The wire form, unchanged since v1 so instances of mixed versions understand each other:
    {"t": table or player id, "v": version or message id, "k": kind, "o": origin}."""
    match message:
        case TableUpdate(table_id, version, kind):
            t, v, k = table_id, version, str(kind)
        case ChatPosted(table_id, message_id):
            t, v, k = table_id, message_id, "chat"
        case PlayerRevoked(player_id):
            t, v, k = player_id, 0, "revoked"
        case Resync():
            t, v, k = "", 0, "resync"
    return json.dumps({"t": t, "v": v, "k": k, "o": origin})


def decode(data: dict[str, Any]) -> BrokerMessage:
    """The message of a wire form; ValueError, KeyError or TypeError when it is none."""
    t, v, k = str(data["t"]), int(data["v"]), data["k"]
    if k in ("state", "table", "refresh"):
        return TableUpdate(t, v, k)
    if k == "chat":
        return ChatPosted(t, v)
    if k == "revoked":
        return PlayerRevoked(t)
    if k == "resync":
        return Resync()
    raise ValueError(f"unknown broker message kind {k!r}")


Listener = Callable[[BrokerMessage], Awaitable[None]]


class Broker(Protocol):
    async def start(self, listener: Listener) -> None: ...
    async def publish(self, update: BrokerMessage) -> None: ...
    async def stop(self) -> None: ...
    async def ping(self) -> bool: ...


class MemoryBroker:
    """One process: publishing calls the local listener directly."""

    def __init__(self) -> None:
        self._listener: Listener | None = None

    async def start(self, listener: Listener) -> None:
        self._listener = listener

    async def publish(self, update: BrokerMessage) -> None:
        if self._listener is not None:
            await self._listener(update)

    async def stop(self) -> None:
        self._listener = None

    async def ping(self) -> bool:
        return True


# How long one Redis command (publish, ping) or connection attempt may take: a Redis that
# hangs never holds up an answer longer than this.
REDIS_TIMEOUT_SECONDS = 2.0
# The subscriber's reconnection backoff: 0.25 s, doubling, at most this.
RECONNECT_CAP_SECONDS = 4.0


class RedisBroker:
    """Several processes: updates go through one Redis pub/sub channel.

    Redis is an accelerator, not a dependency. A publication reaches this process's own
    listener first, straight away, then Redis for the other instances; a Redis failure is
    logged, never raised (the commit already happened). The subscriber reconnects with a
    backoff; whenever its subscription comes back after a loss it hands its listener a
    ``resync`` notice (this instance may have missed updates), and an instance that could
    not publish something tells every other instance to resync too once Redis is back.
    """

    def __init__(self, url: str, channel: str = "partida:tables") -> None:
        from redis.asyncio import Redis
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        self.CHANNEL = channel
        # Messages carry their origin: the subscriber skips its own (delivered locally first).
        self.origin = uuid.uuid4().hex
        # Commands: bounded in time, one immediate reconnection (a stale pooled connection),
        # no sleeping retries in the request path.
        self._redis: Redis = Redis.from_url(
            url,
            socket_connect_timeout=REDIS_TIMEOUT_SECONDS,
            socket_timeout=REDIS_TIMEOUT_SECONDS,
            retry=Retry(NoBackoff(), 1),
        )
        # The subscription: no silent retries, so that _listen sees every loss and resyncs.
        self._sub: Redis = Redis.from_url(
            url, socket_connect_timeout=REDIS_TIMEOUT_SECONDS, retry=Retry(NoBackoff(), 0)
        )
        self._task: asyncio.Task[None] | None = None
        self._listener: Listener | None = None
        self._ready = asyncio.Event()
        # Set when an update might not have reached the other instances (a failed publish, or
        # no subscription at start-up): settled by a "resync" to everybody once Redis is back.
        self._owe_resync = False
        self._missed_start = False

    async def start(self, listener: Listener) -> None:
        self._listener = listener
        self._task = asyncio.create_task(self._listen(), name="redis-broker")
        try:
            await asyncio.wait_for(self._ready.wait(), timeout=10)
        except TimeoutError:
            # Serve without Redis (this instance's own sockets still get every update); the
            # subscriber keeps trying and resyncs this instance when it gets through.
            self._missed_start = True
            log.warning("redis is unreachable; serving without it until it answers")

    async def _listen(self) -> None:
        failures = 0
        while True:
            pubsub = self._sub.pubsub()
            try:
                await pubsub.subscribe(self.CHANNEL)
                async for message in pubsub.listen():
                    kind = message.get("type")
                    if kind == "subscribe":
                        # A subscription (the first, or one back after a loss).
                        failures = 0
                        await self._subscribed()
                    elif kind == "message":
                        await self._received(message["data"])
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                failures += 1
                delay = min(RECONNECT_CAP_SECONDS, 0.25 * 2 ** (failures - 1))
                if failures == 1:
                    log.warning("redis subscription lost (%s); reconnecting", exc)
                else:
                    log.debug("redis still unreachable; next try in %.2f s", delay)
                await asyncio.sleep(delay)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()

    async def _subscribed(self) -> None:
        if not self._ready.is_set() and not self._missed_start:
            self._ready.set()
            return
        self._ready.set()
        self._missed_start = False
        log.info("redis subscription restored; catching up")
        await self._deliver(Resync())
        if self._owe_resync:
            await self._publish_remote(Resync())

    async def _received(self, raw: Any) -> None:
        try:
            data = json.loads(raw)
            if data.get("o") == self.origin:
                return  # ours: delivered locally when it was published
            update = decode(data)
        except (ValueError, KeyError, TypeError, AttributeError):
            log.warning("ignored a malformed broker message")
            return
        await self._deliver(update)

    async def _deliver(self, update: BrokerMessage) -> None:
        if self._listener is None:
            return
        try:
            await self._listener(update)
        except Exception:
            log.exception("broker listener failed")

    async def publish(self, update: BrokerMessage) -> None:
        # Local delivery first: this instance's sockets never wait on Redis, nor miss an
        # update because Redis is down.
        await self._deliver(update)
        if self._owe_resync and not isinstance(update, Resync):
            await self._publish_remote(Resync())
        await self._publish_remote(update)

    async def _publish_remote(self, update: BrokerMessage) -> None:
        payload = encode(update, self.origin)
        try:
            await self._redis.publish(self.CHANNEL, payload)
        except Exception as exc:
            if not self._owe_resync:
                log.warning("redis publish failed (%s); the others catch up when it is back", exc)
            self._owe_resync = True
            return
        if isinstance(update, Resync):
            self._owe_resync = False

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        await self._redis.aclose()
        await self._sub.aclose()

    async def ping(self) -> bool:
        try:
            return bool(await self._redis.ping())
        except Exception:
            return False


def make_broker(redis_url: str | None, channel: str = "partida:tables") -> Broker:
    return RedisBroker(redis_url, channel) if redis_url else MemoryBroker()
