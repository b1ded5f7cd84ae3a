"""An instance killed (SIGKILL) under 200+ sockets while the games go on: its sockets reconnect
to the other instance with ``?since=`` the last version they saw, and every socket (seats,
spectators, delta mode) gets each version's events exactly once, in order, none missing.

Two server processes share PostgreSQL and Redis; the moves go through the surviving one."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
import redis
import websockets

from app.games import REGISTRY
from tests.support.databases import fresh_database
from tests.support.process import ServerProcess

REDIS_URL = "redis://127.0.0.1:6379/0"
GAME = "luz" if "luz" in REGISTRY else sorted(REGISTRY)[0]
TABLES, SEATS, SPECTATORS = 4, 3, 44  # 4 × (3 seats × 2 sockets + 44 watchers) = 200 sockets
BEFORE, AFTER = 4, 10  # moves per table before the kill, and from it on
PATIENCE = 120.0  # seconds: a safety net only, never a measure


@pytest.fixture
def instances(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[ServerProcess]]:
    redis.Redis.from_url(REDIS_URL).ping()
    with fresh_database("postgresql", tmp_path_factory.mktemp("pg"), migrate=False) as url:
        env = {
            "PARTIDA_REDIS_URL": REDIS_URL,
            "PARTIDA_REDIS_CHANNEL": f"partida-test-{uuid.uuid4().hex[:8]}",
        }
        servers = [ServerProcess(url, **env).start(), ServerProcess(url, **env).start()]
        try:
            yield servers
        finally:
            for server in servers:
                server.stop()


@dataclass
class Watcher:
    """One client socket: its state frames, per connection; on a drop it reconnects to the
    surviving instance with ``?since=`` the last version it saw."""

    table: str
    token: str | None
    url: str
    delta: bool
    connections: list[list[dict[str, Any]]] = field(default_factory=list)
    last: int | None = None
    backoff: random.Random = field(default_factory=random.Random)

    def query(self) -> str:
        parts = [f"token={self.token}"] if self.token else []
        parts += ["delta=1"] if self.delta else []
        parts += [f"since={self.last}"] if self.last is not None else []
        return "&".join(parts)

    async def run(self, survivor: str, final: dict[str, int]) -> None:
        while True:
            url = f"{self.url}/api/v1/tables/{self.table}/ws?{self.query()}"
            frames: list[dict[str, Any]] = []
            self.connections.append(frames)
            try:
                async with websockets.connect(url, max_size=2**22, open_timeout=30) as ws:
                    await self._read(ws, frames, final)
                    return
            except (websockets.ConnectionClosed, OSError):
                # The instance is gone: the other one, from the last version seen, after a
                # random backoff as real clients do (the reconnects spread over many moves).
                self.url = survivor
                await asyncio.sleep(self.backoff.uniform(0, 0.5))

    async def _read(self, ws: Any, frames: list[dict[str, Any]], final: dict[str, int]) -> None:
        while self.last is None or self.last < final.get(self.table, 1 << 62):
            try:
                # recv is safe to cancel: a poll, so that the last version is noticed once
                # the games stop, not a measure of anything.
                frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=1))
            except TimeoutError:
                continue
            if frame["type"] == "state":
                frames.append(frame)
                self.last = frame["version"]
        # Anything already on its way (a second copy of a version) comes before the answer
        # to a ping: a pong, or (the watchers share one address's message credits) an error.
        await ws.send(json.dumps({"type": "ping"}))
        while (frame := json.loads(await ws.recv()))["type"] not in ("pong", "error"):
            if frame["type"] == "state":
                frames.append(frame)


async def _move(http: httpx.AsyncClient, tid: str, tokens: list[str], rng: random.Random) -> int:
    """One legal move by whoever is to act; the new version."""
    for token in tokens:
        auth = {"Authorization": f"Bearer {token}"}
        state = (await http.get(f"/api/v1/tables/{tid}/state", headers=auth)).json()
        if state["legal_actions"]:
            body = {"version": state["version"], "action": rng.choice(state["legal_actions"])}
            r = await http.post(f"/api/v1/tables/{tid}/actions", json=body, headers=auth)
            assert r.status_code == 200, r.text
            return int(r.json()["version"])
    raise AssertionError("nobody to act")


async def _seat_table(http: httpx.AsyncClient, n: int) -> tuple[str, list[str]]:
    tokens = []
    for i in range(SEATS):
        r = await http.post("/api/v1/players", json={"name": f"P{n}{i}"})
        tokens.append(r.json()["token"])
    auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
    body = {"game": GAME, "seats": SEATS, "options": {}}
    tid = (await http.post("/api/v1/tables", json=body, headers=auth[0])).json()["id"]
    for a in auth[1:]:
        assert (await http.post(f"/api/v1/tables/{tid}/join", headers=a)).status_code == 200
    assert (await http.post(f"/api/v1/tables/{tid}/start", headers=auth[0])).status_code == 200
    return tid, tokens


def _problem(watcher: Watcher, log: list[dict[str, Any]]) -> str | None:
    """What is wrong with the events ``watcher`` got, against its reader's ``log``."""
    frames = [f for conn in watcher.connections for f in conn]
    start = frames[0]["version"]
    per_frame = [sorted({e["version"] for e in f["events"]}) for f in frames]
    versions = [v for vs in per_frame for v in vs]
    if len(versions) != len(set(versions)) or versions != sorted(versions):
        return f"versions twice or out of order: {per_frame}"
    got = [(e["version"], e["type"]) for f in frames for e in f["events"]]
    if got != [(e["version"], e["type"]) for e in log if e["version"] > start]:
        return f"events missing or changed since {start}: {got}"
    for conn in watcher.connections:
        for previous, frame in itertools.pairwise(conn):
            if frame.get("base_version", previous["version"]) != previous["version"]:
                return f"a patch from {frame['base_version']} after {previous['version']}"
    return None


async def _failover(servers: list[ServerProcess]) -> list[tuple[Watcher, list[dict[str, Any]]]]:
    doomed, survivor = servers
    rng = random.Random(34)
    async with httpx.AsyncClient(base_url=survivor.url, timeout=60) as http:
        tables = [await _seat_table(http, n) for n in range(TABLES)]
        watchers = [
            Watcher(tid, token, (doomed if k % 3 else survivor).ws_url, delta=k % 4 == 0)
            for tid, tokens in tables
            for k, token in enumerate([*tokens, *tokens, *[None] * SPECTATORS])
        ]
        final: dict[str, int] = {}
        doomed_watchers = [w for w in watchers if w.url == doomed.ws_url]
        reading = [asyncio.create_task(w.run(survivor.ws_url, final)) for w in watchers]
        while not all(w.last is not None for w in watchers):
            await asyncio.sleep(0.05)

        def reconnected() -> bool:
            return all(len(w.connections) > 1 and w.connections[-1] for w in doomed_watchers)

        async def play(tid: str, tokens: list[str], moves: int, going_on: bool = False) -> int:
            """``moves`` moves, and (``going_on``) more until every socket came back."""
            version = 0
            for _ in range(moves):
                version = await _move(http, tid, tokens, rng)
            while going_on and not reconnected():
                version = await _move(http, tid, tokens, rng)
            return version

        await asyncio.gather(*(play(tid, tokens, BEFORE) for tid, tokens in tables))
        going = asyncio.gather(*(play(tid, tokens, AFTER, True) for tid, tokens in tables))
        await asyncio.to_thread(doomed.kill)
        for (tid, _), version in zip(tables, await going, strict=True):
            final[tid] = version
        await asyncio.wait_for(asyncio.gather(*reading), timeout=PATIENCE)
        logs: dict[tuple[str, str | None], list[dict[str, Any]]] = {}
        for w in watchers:
            if (w.table, w.token) not in logs:
                auth = {"Authorization": f"Bearer {w.token}"} if w.token else {}
                got = await http.get(f"/api/v1/tables/{w.table}/log", headers=auth)
                logs[w.table, w.token] = got.json()["events"]
        return [(w, logs[w.table, w.token]) for w in watchers]


def test_sockets_of_a_killed_instance_reconnect_and_get_each_version_once(
    instances: list[ServerProcess],
) -> None:
    checked = asyncio.run(_failover(instances))
    assert len(checked) >= 200
    moved = [w for w, _ in checked if len(w.connections) > 1]
    assert len(moved) >= len(checked) // 2  # the killed instance's sockets all came over
    problems = [p for w, log in checked if (p := _problem(w, log)) is not None]
    assert not problems, f"{len(problems)} of {len(checked)} sockets: {problems[:3]}"
