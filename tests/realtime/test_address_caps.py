"""The anonymous sockets of an address, counted per deployment through Redis (issue 34.1):
instances share one allowance, a dead instance's places lapse with their lease, and
without Redis each instance counts its own, never refusing everybody and never failing."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Callable

import pytest
import redis

from app.realtime.address_caps import AddressCaps, AddressHold
from tests.support.process import free_port

REDIS_URL = "redis://127.0.0.1:6379/0"
IP = "203.0.113.7"


@pytest.fixture
async def deployment() -> AsyncIterator[Callable[..., AddressCaps]]:
    """Instances' address counts sharing one Redis, under a prefix of this test's own."""
    prefix = f"partida-test-{uuid.uuid4().hex[:8]}"
    made: list[AddressCaps] = []

    def instance(limit: int = 3, lease_seconds: float = 30.0) -> AddressCaps:
        caps = AddressCaps(limit, redis_url=REDIS_URL, prefix=prefix, lease_seconds=lease_seconds)
        made.append(caps)
        return caps

    yield instance
    for caps in made:
        await caps.close()


async def _holds(caps: AddressCaps, count: int, ip: str = IP) -> list[AddressHold]:
    holds = [await caps.hold(ip, "spectator") for _ in range(count)]
    assert all(holds), "a spectator was refused below the cap"
    return [h for h in holds if h is not None]


async def test_instances_share_one_allowance_per_address(
    deployment: Callable[..., AddressCaps],
) -> None:
    first, second = deployment(limit=4), deployment(limit=4)
    held = [*await _holds(first, 2), *await _holds(second, 2)]
    assert await first.hold(IP, "spectator") is None
    assert await second.hold(IP, "spectator") is None
    # Another address has its own allowance; players and sockets awaiting their auth frame
    # are never refused for the spectators.
    assert await second.hold("198.51.100.1", "spectator") is not None
    assert await first.hold(IP, "player") is not None
    assert await first.hold(IP, "awaiting_auth") is not None
    # A place given back on one instance is free on the other.
    await first.release(held[0])
    await first.release(held[0])  # twice: nothing more
    assert await second.hold(IP, "spectator") is not None
    assert await first.hold(IP, "spectator") is None


async def test_a_dead_instance_places_lapse_with_their_lease(
    deployment: Callable[..., AddressCaps],
) -> None:
    dead, alive = deployment(limit=3, lease_seconds=1.0), deployment(limit=3, lease_seconds=1.0)
    await _holds(dead, 3)
    assert await alive.hold(IP, "spectator") is None
    # The instance dies with its sockets open: nothing released, nothing renewed.
    await dead.close()
    for _ in range(600):
        if await alive.hold(IP, "spectator") is not None:
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError("the dead instance's places never lapsed")
    await _holds(alive, 2)
    assert await alive.hold(IP, "spectator") is None


async def test_a_living_instance_keeps_its_places_by_renewing_them(
    deployment: Callable[..., AddressCaps],
) -> None:
    holder, other = deployment(limit=2, lease_seconds=3.0), deployment(limit=2)
    await _holds(holder, 2)
    # Two leases go by, renewed as the renewal loop does (and it runs too, every second).
    for _ in range(12):
        await holder.renew()
        await asyncio.sleep(0.5)
        assert await other.hold(IP, "spectator") is None


async def test_without_redis_each_instance_counts_its_own() -> None:
    # Nothing listens there: every Redis call fails at once.
    caps = AddressCaps(3, redis_url=f"redis://127.0.0.1:{free_port()}/0")
    try:
        held = await _holds(caps, 3)
        assert await caps.hold(IP, "spectator") is None
        await caps.release(held[0])
        assert await caps.hold(IP, "spectator") is not None
        with pytest.raises(redis.exceptions.ConnectionError):
            await caps.renew()
        assert await caps.hold(IP, "spectator") is None
    finally:
        await caps.close()


async def test_places_taken_while_redis_was_away_count_once_it_is_back(
    deployment: Callable[..., AddressCaps],
) -> None:
    first, second = deployment(limit=3), deployment(limit=3)
    # Redis stops answering the first instance: it admits on its own count ...
    first._lost_redis()
    await _holds(first, 3)
    assert await second.hold(IP, "spectator") is not None
    # ... and registers them with its next renewal: the deployment's allowance is spent.
    await first.renew()
    assert await second.hold(IP, "spectator") is None
    assert await first.hold(IP, "spectator") is None
