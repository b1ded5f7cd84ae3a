"""Two server processes, one PostgreSQL, one Redis: every socket stays in sync.

Players connect to different instances; every action, sent to either one, is
broadcast through Redis so each instance sends fresh views to its own sockets.
A race across instances shows the version compare-and-set holds.
"""

from __future__ import annotations

import random
import threading
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import redis

from app.games import REGISTRY
from tests.support.client import Player, make_table, new_player
from tests.support.databases import fresh_database
from tests.support.process import ServerProcess
from tests.support.wsclient import Socket

REDIS_URL = "redis://127.0.0.1:6379/0"
GAME = "luz" if "luz" in REGISTRY else sorted(REGISTRY)[0]


@pytest.fixture(scope="module")
def instances(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    redis.Redis.from_url(REDIS_URL).ping()
    with fresh_database("postgresql", tmp_path_factory.mktemp("pg"), migrate=False) as url:
        # A private channel per test run, so parallel runs on one Redis never cross.
        channel = f"partida-test-{uuid.uuid4().hex[:8]}"
        env = {"PARTIDA_REDIS_URL": REDIS_URL, "PARTIDA_REDIS_CHANNEL": channel}
        first = ServerProcess(url, **env).start()
        second = ServerProcess(url, **env).start()
        try:
            yield first, second
        finally:
            first.stop()
            second.stop()


def _seat_table(first: ServerProcess, second: ServerProcess, n: int) -> tuple[list[Player], str]:
    http_a = httpx.Client(base_url=first.url, timeout=30)
    http_b = httpx.Client(base_url=second.url, timeout=30)
    players = [new_player(http_a if i % 2 == 0 else http_b, f"P{i}") for i in range(n)]
    tid = make_table(players[0], GAME, n)["id"]
    for p in players[1:]:
        assert p.post(f"/api/v1/tables/{tid}/join").status_code == 200
    assert players[0].post(f"/api/v1/tables/{tid}/start").status_code == 200
    return players, tid


def test_a_full_game_across_two_instances_keeps_every_socket_in_sync(
    instances: tuple[ServerProcess, ServerProcess],
) -> None:
    first, second = instances
    players, tid = _seat_table(first, second, 4)
    servers = [first if i % 2 == 0 else second for i in range(4)]
    sockets = [
        Socket(f"{servers[i].ws_url}/api/v1/tables/{tid}/ws?token={p.token}")
        for i, p in enumerate(players)
    ]
    spectators = [Socket(f"{s.ws_url}/api/v1/tables/{tid}/ws") for s in (first, second)]
    rng = random.Random(7)
    try:
        current = [s.state_at(1) for s in sockets]
        version = 1
        while current[0]["status"] != "finished":
            movers = [i for i, st in enumerate(current) if st["legal_actions"]]
            assert movers, "nobody may act"
            i = movers[0]
            action = rng.choice(current[i]["legal_actions"])
            # Alternate the instance that receives the action: REST on the other one, or the socket.
            if version % 2:
                sockets[i].send(
                    {"type": "action", "version": version, "action": action, "id": f"v{version}"}
                )
            else:
                other = second if servers[i] is first else first
                with httpx.Client(base_url=other.url, timeout=30) as http:
                    r = http.post(
                        f"/api/v1/tables/{tid}/actions",
                        json={"version": version, "action": action},
                        headers=players[i].auth,
                    )
                    assert r.status_code == 200, r.text
            version += 1
            current = [s.state_at(version, timeout=15) for s in sockets]
            seen = [s.state_at(version, timeout=15) for s in spectators]
            assert {st["version"] for st in current + seen} == {version}
            assert seen[0]["view"] == seen[1]["view"]
        assert all(st["result"] == current[0]["result"] for st in current)
    finally:
        for s in (*sockets, *spectators):
            s.close()


def test_version_compare_and_set_holds_across_instances(
    instances: tuple[ServerProcess, ServerProcess],
) -> None:
    first, second = instances
    players, tid = _seat_table(first, second, 3)
    with httpx.Client(base_url=first.url, timeout=30) as http:
        states = [http.get(f"/api/v1/tables/{tid}/state", headers=p.auth).json() for p in players]
    mover = next(i for i, s in enumerate(states) if s["legal_actions"])
    state = states[mover]
    action = state["legal_actions"][0]
    answers: list[Any] = [None] * 10
    barrier = threading.Barrier(10)

    def send(k: int) -> None:
        server = first if k % 2 else second
        with httpx.Client(base_url=server.url, timeout=30) as http:
            barrier.wait()
            r = http.post(
                f"/api/v1/tables/{tid}/actions",
                json={"version": state["version"], "action": action},
                headers=players[mover].auth,
            )
            answers[k] = (r.status_code, r.json())

    threads = [threading.Thread(target=send, args=(k,)) for k in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    codes = [code for code, _ in answers]
    assert codes.count(200) == 1
    assert all(body["error"]["code"] == "stale_version" for code, body in answers if code != 200)
    with httpx.Client(base_url=second.url, timeout=30) as http:
        log = http.get(f"/api/v1/tables/{tid}/log", params={"since": 1}).json()
    # Version 1 is the setup's; after it, one action and only one.
    assert {e["version"] for e in log["events"]} == {state["version"] + 1}
