"""How many sockets nobody has signed in to a client address may hold.

A cap per address must never lock a real player out of their own game: a carrier NAT, a
school or a club LAN puts many people behind one address. So only anonymous sockets count
against their address; a socket that authenticates (a ``token`` query, an auth frame)
leaves its address's count and lives on its player's budget (PARTIDA_WS_MAX_SOCKETS_PER_PLAYER,
in the hub). Two counts, each at most PARTIDA_WS_MAX_SOCKETS_PER_IP per address:

- Spectators (no token), per deployment. With PARTIDA_REDIS_URL set, N instances share one
  allowance: each address is a Redis sorted set of the spectator sockets open on every
  instance, scored by the end of their lease. An instance renews the leases of its own
  sockets every third of a lease; the sockets of an instance that died without closing them
  drop out when their lease ends (the next admission at that address sweeps them), so a
  crash never leaks places for longer than LEASE_SECONDS. Redis is reached only when a
  spectator socket opens or closes and at the renewal, never for a frame.
- Sockets waiting for their auth frame (``?auth=frame``), per instance. They are never
  refused because of the spectators (the player behind one would be locked out), and
  they live PARTIDA_WS_AUTH_SECONDS at most (app.realtime.ws), too short to be worth a
  Redis round trip: this bound only keeps one address from opening them without end.

Redis is an accelerator, not a dependency. Without it, or while it does not answer, an
instance counts its own spectator sockets (never refusing everybody, never failing a
socket); its renewal keeps trying and, once Redis answers, registers the sockets it
admitted meanwhile so that they count for the whole deployment again.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from app.realtime.broker import REDIS_TIMEOUT_SECONDS

log = logging.getLogger("partida.realtime")

# How long a spectator socket's place in Redis lasts without renewal: the longest a dead
# instance's sockets keep counting. Renewed every third of it, so two renewals may fail
# (or the event loop stall for 20 s) before a living socket's place lapses.
LEASE_SECONDS = 30.0

# spectator: no token; awaiting_auth: ?auth=frame before its frame; player: a token query.
Standing = Literal["spectator", "awaiting_auth", "player"]

# Admit a spectator at KEYS[1] unless ARGV[1] live places are taken: sweep the lapsed
# leases first (a dead instance's), then take a place for ARGV[2] ms under the name
# ARGV[3]. Redis's clock, so that the instances' clocks need not agree.
_ADMIT = """
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
"""
# Renew the places at KEYS[1] for ARGV[1] ms: the ARGV[2] names after it only if they are
# still there (one released meanwhile stays released), the rest (admitted while Redis was
# unreachable) whether or not.
_RENEW = """
local t = redis.call('TIME')
local lease = tonumber(ARGV[1])
local ends = t[1] * 1000 + math.floor(t[2] / 1000) + lease
local held = tonumber(ARGV[2])
for i = 3, #ARGV do
  if i <= held + 2 then
    redis.call('ZADD', KEYS[1], 'XX', ends, ARGV[i])
  else
    redis.call('ZADD', KEYS[1], ends, ARGV[i])
  end
end
redis.call('PEXPIRE', KEYS[1], lease)
return 1
"""


@dataclass(eq=False)
class AddressHold:
    """One socket's place in its address's count (none for a player's socket)."""

    ip: str
    standing: Standing
    name: str = ""
    # Whether Redis holds this place too (a spectator admitted while Redis answered, or
    # registered by a renewal since).
    shared: bool = False
    released: bool = False


class AddressCaps:
    """The anonymous sockets of each address: spectators per deployment, sockets awaiting
    their auth frame per instance (see the module's docstring)."""

    def __init__(
        self,
        limit: int,
        enabled: bool = True,
        redis_url: str | None = None,
        prefix: str = "partida:tables",
        lease_seconds: float = LEASE_SECONDS,
    ) -> None:
        self.limit, self.enabled = limit, enabled
        self.lease_seconds = lease_seconds
        self._prefix = f"{prefix}:anonymous:"
        self._names = (f"{uuid.uuid4().hex}:{n}" for n in itertools.count())
        # This instance's open places: address -> its spectators' holds; address -> how
        # many sockets there await their auth frame.
        self._spectators: dict[str, set[AddressHold]] = {}
        self._awaiting: dict[str, int] = {}
        self._redis: Redis | None = None
        # Nothing to share while the cap is off (rate limits off: a load test, a test run).
        if redis_url and enabled:
            self._redis = Redis.from_url(
                redis_url,
                socket_connect_timeout=REDIS_TIMEOUT_SECONDS,
                socket_timeout=REDIS_TIMEOUT_SECONDS,
                retry=Retry(NoBackoff(), 1),
            )
            self._admit = self._redis.register_script(_ADMIT)
            self._renew = self._redis.register_script(_RENEW)
        # False after Redis failed to answer: admissions count here only (no 2 s wait per
        # socket on a Redis that hangs) until a renewal gets through again.
        self._reachable = True
        self._renewing: asyncio.Task[None] | None = None

    async def hold(self, ip: str, standing: Standing) -> AddressHold | None:
        """A place for a new socket from ``ip``; None when its address has no place left."""
        hold = AddressHold(ip, standing)
        if standing == "player":
            hold.released = True  # nothing to give back
            return hold
        if standing == "awaiting_auth":
            waiting = self._awaiting.get(ip, 0)
            if self.enabled and waiting >= self.limit:
                return None
            self._awaiting[ip] = waiting + 1
            return hold
        hold.name = next(self._names)
        if self.enabled:
            admitted = await self._admit_shared(hold)
            if admitted is None:
                admitted = len(self._spectators.get(ip, ())) < self.limit
            if not admitted:
                return None
        self._spectators.setdefault(ip, set()).add(hold)
        self._keep_renewing()
        return hold

    async def release(self, hold: AddressHold | None) -> None:
        """Give ``hold``'s place back (once: a second release does nothing)."""
        if hold is None or hold.released:
            return
        hold.released = True
        if hold.standing == "awaiting_auth":
            left = self._awaiting.get(hold.ip, 0) - 1
            if left > 0:
                self._awaiting[hold.ip] = left
            else:
                self._awaiting.pop(hold.ip, None)
            return
        held = self._spectators.get(hold.ip)
        if held is not None:
            held.discard(hold)
            if not held:
                del self._spectators[hold.ip]
        if hold.shared and self._redis is not None and self._reachable:
            try:
                await self._redis.zrem(self._prefix + hold.ip, hold.name)
            except Exception:
                # Its lease runs out instead.
                self._lost_redis()

    def spectators(self, ip: str) -> int:
        """The spectator sockets from ``ip`` open on this instance."""
        return len(self._spectators.get(ip, ()))

    async def _admit_shared(self, hold: AddressHold) -> bool | None:
        """Redis's word on admitting ``hold``; None when Redis is not there to ask."""
        if self._redis is None or not self._reachable:
            return None
        try:
            lease_ms = int(self.lease_seconds * 1000)
            admitted = await self._admit(
                keys=[self._prefix + hold.ip], args=[self.limit, lease_ms, hold.name]
            )
        except Exception:
            self._lost_redis()
            return None
        hold.shared = bool(admitted)
        return hold.shared

    def _lost_redis(self) -> None:
        if self._reachable:
            log.warning("redis is unreachable; counting anonymous sockets per instance")
        self._reachable = False
        # Their leases may lapse before Redis is back: the renewal that gets through then
        # registers them all again.
        for holds in self._spectators.values():
            for hold in holds:
                hold.shared = False

    def _keep_renewing(self) -> None:
        if self._redis is not None and (self._renewing is None or self._renewing.done()):
            self._renewing = asyncio.create_task(self._renew_loop(), name="address-leases")

    async def _renew_loop(self) -> None:
        while True:
            await asyncio.sleep(self.lease_seconds / 3)
            try:
                await self.renew()
            except Exception:
                self._lost_redis()

    async def renew(self) -> None:
        """Extend the leases of this instance's spectator places in one round trip, and
        register those admitted while Redis did not answer; raises when Redis does not."""
        if self._redis is None:
            return
        held = {ip: list(holds) for ip, holds in self._spectators.items()}
        if not held:
            await self._redis.ping()
        else:
            lease_ms = int(self.lease_seconds * 1000)
            async with self._redis.pipeline(transaction=False) as pipe:
                for ip, holds in held.items():
                    await self._renew(
                        keys=[self._prefix + ip], args=_renewal(lease_ms, holds), client=pipe
                    )
                await pipe.execute()
            for holds in held.values():
                for hold in holds:
                    hold.shared = True
        if not self._reachable:
            log.info("redis answers again; anonymous sockets count per deployment")
        self._reachable = True

    async def close(self) -> None:
        if self._renewing is not None:
            self._renewing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._renewing
        if self._redis is not None:
            with contextlib.suppress(Exception):
                await self._redis.aclose()


def _renewal(lease_ms: int, holds: Iterable[AddressHold]) -> list[Any]:
    """_RENEW's arguments: the lease, then the places Redis holds, then those it does not."""
    shared = [h.name for h in holds if h.shared]
    local = [h.name for h in holds if not h.shared]
    return [lease_ms, len(shared), *shared, *local]
