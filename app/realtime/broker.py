"""Publish "table T is at version V" to every instance (boardgame.io's pubsub, minus the payload).

Only the table id, version and kind travel: each socket handler then loads the
state and sends its own seat's view, so no hidden information is ever published.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal, Protocol

log = logging.getLogger(__name__)

# state: a new version; table: seats or status changed; refresh: the same version
# reads differently (a seat taken back, its clock restarted); chat: a chat line;
# revoked: not a table update: table_id carries the id of a player the host blocked,
# whose open sockets every instance closes (version is 0).
Kind = Literal["state", "table", "refresh", "chat", "revoked"]


@dataclass(frozen=True, slots=True)
class TableUpdate:
    table_id: str
    version: int
    kind: Kind


Listener = Callable[[TableUpdate], Awaitable[None]]


class Broker(Protocol):
    async def start(self, listener: Listener) -> None: ...
    async def publish(self, update: TableUpdate) -> None: ...
    async def stop(self) -> None: ...
    async def ping(self) -> bool: ...


class MemoryBroker:
    """One process: publishing calls the local listener directly."""

    def __init__(self) -> None:
        self._listener: Listener | None = None

    async def start(self, listener: Listener) -> None:
        self._listener = listener

    async def publish(self, update: TableUpdate) -> None:
        if self._listener is not None:
            await self._listener(update)

    async def stop(self) -> None:
        self._listener = None

    async def ping(self) -> bool:
        return True


class RedisBroker:
    """Several processes: updates go through one Redis pub/sub channel."""

    def __init__(self, url: str, channel: str = "partida:tables") -> None:
        from redis.asyncio import Redis

        self.CHANNEL = channel
        self._redis: Redis = Redis.from_url(url)
        self._task: asyncio.Task[None] | None = None
        self._listener: Listener | None = None
        self._ready = asyncio.Event()

    async def start(self, listener: Listener) -> None:
        self._listener = listener
        self._task = asyncio.create_task(self._listen(), name="redis-broker")
        await asyncio.wait_for(self._ready.wait(), timeout=10)

    async def _listen(self) -> None:
        while True:
            try:
                pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
                await pubsub.subscribe(self.CHANNEL)
                self._ready.set()
                async for message in pubsub.listen():
                    if message.get("type") != "message" or self._listener is None:
                        continue
                    try:
                        data = json.loads(message["data"])
                        update = TableUpdate(str(data["t"]), int(data["v"]), data["k"])
                    except (ValueError, KeyError, TypeError):
                        log.warning("ignored a malformed broker message")
                        continue
                    try:
                        await self._listener(update)
                    except Exception:
                        log.exception("broker listener failed")
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("redis subscription lost; retrying in 1 s")
                await asyncio.sleep(1)

    async def publish(self, update: TableUpdate) -> None:
        payload = json.dumps({"t": update.table_id, "v": update.version, "k": update.kind})
        await self._redis.publish(self.CHANNEL, payload)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        await self._redis.aclose()

    async def ping(self) -> bool:
        try:
            return bool(await self._redis.ping())
        except Exception:
            return False


def make_broker(redis_url: str | None, channel: str = "partida:tables") -> Broker:
    return RedisBroker(redis_url, channel) if redis_url else MemoryBroker()
