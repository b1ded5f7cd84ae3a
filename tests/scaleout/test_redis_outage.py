"""Redis is an accelerator, not a dependency: two instances ride out a Redis outage.

Two server processes share one fresh PostgreSQL and a private redis-server of this test
(never the shared one at :6379, which other tests use), which the test kills and starts
again on the same port. While Redis is down, the instance that commits a move still
updates its own sockets and answers 2xx; when Redis is back, every socket on every
instance catches up to the latest version without anybody moving again, and moves flow
across instances through Redis as before. No request ever answers 500.
"""

from __future__ import annotations

import asyncio
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from redis.asyncio import Redis

from app.games import REGISTRY
from app.realtime.broker import BrokerMessage, RedisBroker, Resync, TableUpdate
from tests.support.client import Player, make_table, new_player
from tests.support.databases import fresh_database
from tests.support.process import ServerProcess, free_port
from tests.support.wsclient import Socket

GAME = "luz" if "luz" in REGISTRY else sorted(REGISTRY)[0]
SEATS = max(3, REGISTRY[GAME].info.min_players)


class RedisServer:
    """A redis-server of the test's own, on a port that stays the same across restarts."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.workdir = workdir
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.workdir)],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        client = redis.Redis.from_url(self.url)
        deadline = time.monotonic() + 30
        while True:
            try:
                if client.ping():
                    return
            except redis.ConnectionError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the test's redis-server did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=30)


@pytest.fixture
def outage_world(tmp_path: Path) -> Iterator[tuple[RedisServer, ServerProcess, ServerProcess]]:
    server = RedisServer(tmp_path)
    server.start()
    try:
        with fresh_database("postgresql", tmp_path, migrate=False) as url:
            env = {
                "PARTIDA_REDIS_URL": server.url,
                "PARTIDA_REDIS_CHANNEL": f"partida-outage-{uuid.uuid4().hex[:8]}",
            }
            first = ServerProcess(url, **env).start()
            second = ServerProcess(url, **env).start()
            try:
                yield server, first, second
            finally:
                first.stop()
                second.stop()
    finally:
        server.stop()


class Answers:
    """Every REST answer of the test, to show that none was a 5xx."""

    def __init__(self) -> None:
        self.codes: list[tuple[str, int]] = []

    def move(self, server: ServerProcess, players: list[Player], tid: str) -> int:
        """The player to act (as ``server`` reads the table) moves through ``server``."""
        with httpx.Client(base_url=server.url, timeout=30) as http:
            for player in players:
                r = http.get(f"/api/v1/tables/{tid}/state", headers=player.auth)
                self.codes.append((f"state via {server.port}", r.status_code))
                state = r.json()
                if state["legal_actions"]:
                    break
            r = http.post(
                f"/api/v1/tables/{tid}/actions",
                json={"version": state["version"], "action": state["legal_actions"][0]},
                headers=player.auth,
            )
        self.codes.append((f"move via {server.port}", r.status_code))
        assert r.status_code == 200, r.text
        return int(r.json()["version"])


def _latest_state(socket: Socket) -> dict[str, Any]:
    return next(f for f in reversed(socket.frames) if f["type"] == "state")


def _http_5xx(server: ServerProcess) -> list[str]:
    metrics = httpx.get(f"{server.url}/metrics", timeout=30).text
    return [
        line
        for line in metrics.splitlines()
        if line.startswith("partida_http_requests_total{") and 'status="5' in line
    ]


def test_sockets_on_both_instances_ride_out_a_redis_outage(
    outage_world: tuple[RedisServer, ServerProcess, ServerProcess],
) -> None:
    redis_server, a, b = outage_world
    answers = Answers()
    with httpx.Client(base_url=a.url, timeout=30) as http:
        players = [new_player(http, f"P{i}") for i in range(SEATS)]
        tid = make_table(players[0], GAME, SEATS)["id"]
        for p in players[1:]:
            assert p.post(f"/api/v1/tables/{tid}/join").status_code == 200
        assert players[0].post(f"/api/v1/tables/{tid}/start").status_code == 200
    # Every player has a socket on each instance.
    on_a = [Socket(f"{a.ws_url}/api/v1/tables/{tid}/ws?token={p.token}") for p in players]
    on_b = [Socket(f"{b.ws_url}/api/v1/tables/{tid}/ws?token={p.token}") for p in players]
    try:
        for s in on_a + on_b:
            s.state_at(1)

        redis_server.stop()

        # A move through A: A answers 2xx and A's sockets show it (Redis is down: only the
        # local delivery can have brought it).
        version = answers.move(a, players, tid)
        assert {s.state_at(version, timeout=30)["version"] for s in on_a} == {version}
        # A move through B, during the same outage: B answers 2xx, B's sockets show it.
        moved_on_b = answers.move(b, players, tid)
        assert moved_on_b == version + 1
        version = moved_on_b
        assert {s.state_at(version, timeout=30)["version"] for s in on_b} == {version}

        redis_server.start()

        # Nobody moves: every socket on both instances catches up to the latest version
        # (A's missed B's move, B's missed A's), each seat with the same view on both.
        caught_a = [s.state_at(version, timeout=60) for s in on_a]
        caught_b = [s.state_at(version, timeout=60) for s in on_b]
        assert {st["version"] for st in caught_a + caught_b} == {version}
        assert [st["view"] for st in caught_a] == [_latest_state(s)["view"] for s in on_b]

        # And Redis carries moves across instances again: a move through B reaches A.
        version = answers.move(b, players, tid)
        assert {s.state_at(version, timeout=30)["version"] for s in on_a} == {version}
    finally:
        for s in on_a + on_b:
            s.close()
    assert all(code < 500 for _, code in answers.codes), answers.codes
    assert _http_5xx(a) == [] and _http_5xx(b) == []


async def _one_sided_outage(url: str) -> None:
    channel = f"partida-outage-{uuid.uuid4().hex[:8]}"
    got: dict[str, list[BrokerMessage]] = {"a": [], "b": []}

    def listener(name: str) -> Any:
        async def receive(update: BrokerMessage) -> None:
            got[name].append(update)

        return receive

    async def until_b_has(update: BrokerMessage) -> None:
        for _ in range(600):
            if update in got["b"]:
                return
            await asyncio.sleep(0.05)
        raise AssertionError(f"instance B never got {update}: {got['b']}")

    a, b = RedisBroker(url, channel), RedisBroker(url, channel)
    await a.start(listener("a"))
    await b.start(listener("b"))
    try:
        first = TableUpdate("t1", 2, "state")
        await a.publish(first)
        await until_b_has(first)
        # The publisher got its own update once: locally, not a second time through Redis.
        assert got["a"] == [first]

        # A alone loses Redis for one publication (B's subscription notices nothing): A's
        # sockets still get it, the caller sees no error.
        link = a._redis
        a._redis = Redis.from_url(f"redis://127.0.0.1:{free_port()}/0")  # nothing listens
        lost = TableUpdate("t1", 3, "state")
        await a.publish(lost)
        assert got["a"][-1] == lost
        await a._redis.aclose()
        a._redis = link

        # A's next publication first tells every instance to resync (B catches up on what
        # it missed), then carries the update itself.
        later = TableUpdate("t2", 1, "table")
        await a.publish(later)
        await until_b_has(later)
        assert lost not in got["b"]
        assert got["b"][-2:] == [Resync(), later]
    finally:
        await a.stop()
        await b.stop()


def test_an_instance_that_could_not_publish_makes_the_others_resync(tmp_path: Path) -> None:
    server = RedisServer(tmp_path)
    server.start()
    try:
        asyncio.run(_one_sided_outage(server.url))
    finally:
        server.stop()
