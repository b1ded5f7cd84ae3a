"""The anonymous-socket cap of an address is per deployment (issue 34.1).

Two server processes share one fresh PostgreSQL and a redis-server of this test's own,
with the per-address cap at its default of 32 and the rate limits on. Spectator sockets
from one address spread over both instances share one allowance: the 33rd is refused
on either, a place given back on one is free on the other, and the players behind that
address connect and play whatever the spectators hold. When Redis goes away, each
instance counts its own (the address is neither locked out nor unbounded), and nothing
fails.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from app.games import REGISTRY
from tests.scaleout.test_redis_outage import RedisServer
from tests.support.client import Player, make_table, new_player
from tests.support.databases import fresh_database
from tests.support.process import ServerProcess
from tests.support.wsclient import Socket

GAME = "luz" if "luz" in REGISTRY else sorted(REGISTRY)[0]
SEATS = REGISTRY[GAME].info.min_players
CAP = 32


@pytest.fixture
def deployment(tmp_path: Path) -> Iterator[tuple[RedisServer, ServerProcess, ServerProcess]]:
    redis_server = RedisServer(tmp_path)
    redis_server.start()
    try:
        with fresh_database("postgresql", tmp_path, migrate=False) as url:
            env = {
                "PARTIDA_REDIS_URL": redis_server.url,
                "PARTIDA_REDIS_CHANNEL": f"partida-caps-{uuid.uuid4().hex[:8]}",
                "PARTIDA_RATE_LIMIT_ENABLED": "true",
                "PARTIDA_WS_MAX_SOCKETS_PER_IP": str(CAP),
                # Silent spectators stay: the counts change only when the test says so.
                "PARTIDA_WS_SILENT_SECONDS": "0",
            }
            first = ServerProcess(url, **env).start()
            second = ServerProcess(url, **env).start()
            try:
                yield redis_server, first, second
            finally:
                first.stop()
                second.stop()
    finally:
        redis_server.stop()


def _spectator(server: ServerProcess, tid: str) -> Socket | None:
    """A spectator socket that got its state, or None when refused (rate_limited, 1008)."""
    sock = Socket(f"{server.ws_url}/api/v1/tables/{tid}/ws")
    try:
        sock.until(lambda f: f["type"] == "state")
        return sock
    except ConnectionClosed as closed:
        assert closed.rcvd is not None and closed.rcvd.code == 1008, sock.frames
        assert sock.frames[-1]["error"]["code"] == "rate_limited", sock.frames
        return None


def _spectators(server: ServerProcess, tid: str, count: int) -> tuple[list[Socket], int]:
    """Try ``count`` spectator sockets: those held, and how many were refused."""
    tries = [_spectator(server, tid) for _ in range(count)]
    held = [s for s in tries if s is not None]
    return held, count - len(held)


def _table(server: ServerProcess) -> tuple[list[Player], str]:
    http = httpx.Client(base_url=server.url, timeout=30)
    players = [new_player(http, f"P{i}") for i in range(SEATS)]
    tid = make_table(players[0], GAME, SEATS)["id"]
    for p in players[1:]:
        assert p.post(f"/api/v1/tables/{tid}/join").status_code == 200
    assert players[0].post(f"/api/v1/tables/{tid}/start").status_code == 200
    return players, tid


def _play_once(server: ServerProcess, players: list[Player], tid: str) -> None:
    """Every player connects to ``server`` (half with an auth frame) and gets its seat's
    state; the one to act acts through its socket and is answered."""
    sockets = []
    for i, p in enumerate(players):
        if i % 2:
            sock = Socket(f"{server.ws_url}/api/v1/tables/{tid}/ws?token={p.token}")
        else:
            sock = Socket(f"{server.ws_url}/api/v1/tables/{tid}/ws?auth=frame")
            sock.send({"type": "auth", "token": p.token})
        sockets.append(sock)
    states = [s.until(lambda f: f["type"] == "state" and f["seat"] is not None) for s in sockets]
    assert sorted(st["seat"] for st in states) == list(range(len(players)))
    mover = next(i for i, st in enumerate(states) if st["legal_actions"])
    state: dict[str, Any] = states[mover]
    ref = f"move-{state['version']}"
    sockets[mover].send(
        {"type": "action", "version": state["version"], "action": state["legal_actions"][0],
         "id": ref}
    )  # fmt: skip
    answer = sockets[mover].until(lambda f: f.get("ref") == ref)
    assert answer["type"] == "state" and answer["version"] > state["version"], answer
    for sock in sockets:
        sock.close()


def test_the_anonymous_cap_of_an_address_is_shared_by_every_instance(
    deployment: tuple[RedisServer, ServerProcess, ServerProcess],
) -> None:
    _redis, first, second = deployment
    players, tid = _table(first)
    on_first, refused = _spectators(first, tid, 20)
    assert (len(on_first), refused) == (20, 0)
    on_second, refused = _spectators(second, tid, 20)
    # One allowance of 32 for the deployment, not 32 per instance.
    assert (len(on_second), refused) == (CAP - 20, 20 - (CAP - 20))
    assert _spectator(first, tid) is None
    assert _spectator(second, tid) is None
    # The players behind the full address play, on either instance.
    _play_once(first, players, tid)
    _play_once(second, players, tid)
    # A place given back on one instance is free on the other (once that close is seen).
    on_first.pop().close()
    for _ in range(200):
        if (again := _spectator(second, tid)) is not None:
            break
    else:
        raise AssertionError("the closed spectator's place was never freed")
    assert _spectator(first, tid) is None
    for sock in [*on_first, *on_second, again]:
        sock.close()


def test_without_redis_each_instance_counts_its_own(
    deployment: tuple[RedisServer, ServerProcess, ServerProcess],
) -> None:
    redis_server, first, second = deployment
    players, tid = _table(first)
    held, _refused = _spectators(first, tid, CAP)
    assert len(held) == CAP
    redis_server.stop()
    # Redis is gone: the second instance admits on its own count (its own 32), no more.
    on_second, refused = _spectators(second, tid, CAP + 1)
    assert (len(on_second), refused) == (CAP, 1)
    assert _spectator(first, tid) is None
    _play_once(second, players, tid)
    for sock in [*held, *on_second]:
        sock.close()
    # Nothing failed on the way.
    for server in (first, second):
        metrics = httpx.get(f"{server.url}/metrics", timeout=30).text
        assert not [
            line
            for line in metrics.splitlines()
            if line.startswith("partida_http_requests_total{") and 'status="5' in line
        ]
