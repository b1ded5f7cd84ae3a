"""Presence across server processes (issue 17.12): two instances on one PostgreSQL + Redis.

Both players hold their sockets on instance A. Instance B, with a 1 s grace and a clock
keeper ten times a second, is where the votes arrive and where an automatic takeover
could be decided. Nobody connected is ever handed to a bot; once they really leave, the
seats do go to bots (so the refusals are not just a server that refuses everything).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
import redis

from tests.support.client import Player, new_player
from tests.support.databases import fresh_database
from tests.support.process import ServerProcess
from tests.support.wsclient import Socket

REDIS_URL = "redis://127.0.0.1:6379/0"
GAME = "mine"  # two seats
TOUCH = 2.0  # both instances' presence heartbeat


@pytest.fixture(scope="module")
def instances(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    redis.Redis.from_url(REDIS_URL).ping()
    with fresh_database("postgresql", tmp_path_factory.mktemp("pg"), migrate=False) as url:
        env = {
            "PARTIDA_REDIS_URL": REDIS_URL,
            "PARTIDA_REDIS_CHANNEL": f"partida-test-{uuid.uuid4().hex[:8]}",
            "PARTIDA_CLOCK_TICK_SECONDS": "0.1",
            "PARTIDA_PRESENCE_TOUCH_SECONDS": str(TOUCH),
        }
        first = ServerProcess(url, **env).start()
        second = ServerProcess(url, **env).start()
        try:
            yield first, second
        finally:
            first.stop()
            second.stop()


def _open(players: list[Player], abandon: str) -> str:
    body = {"game": GAME, "seats": 2, "options": {},
            "time_control": {"abandon": abandon, "grace_seconds": 1}}  # fmt: skip
    r = players[0].post("/api/v1/tables", body)
    assert r.status_code == 201, r.text
    tid: str = r.json()["id"]
    assert players[1].post(f"/api/v1/tables/{tid}/join").status_code == 200
    return tid


def _seats(http: httpx.Client, tid: str) -> list[dict[str, Any]]:
    seats: list[dict[str, Any]] = http.get(f"/api/v1/tables/{tid}").json()["seats"]
    return seats


def _until(check: Callable[[], Any], timeout: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if value := check():
            return value
        time.sleep(0.1)
    raise AssertionError("timed out waiting")


def test_players_connected_to_one_instance_are_never_taken_over_through_another(
    instances: tuple[ServerProcess, ServerProcess],
) -> None:
    a_server, b_server = instances
    with (
        httpx.Client(base_url=a_server.url, timeout=30) as on_a,
        httpx.Client(base_url=b_server.url, timeout=30) as on_b,
    ):
        on_b_players = [new_player(on_b, "Ana"), new_player(on_b, "Ben")]
        auto, voted = _open(on_b_players, "auto"), _open(on_b_players, "vote")
        # Both connect to A before the start, and stay; everything else goes through B.
        sockets = [
            Socket(f"{a_server.ws_url}/api/v1/tables/{tid}/ws?token={p.token}")
            for tid in (auto, voted)
            for p in on_b_players
        ]
        try:
            for sock in sockets:
                sock.until(lambda f: f["type"] == "state")
            for tid in (auto, voted):
                assert on_b_players[0].post(f"/api/v1/tables/{tid}/start").status_code == 200
            seat_of = {p.id: p.state(voted)["seat"] for p in on_b_players}
            attempts = 0
            watch_until = time.monotonic() + 3.5 * TOUCH  # past several heartbeats and leases
            while time.monotonic() < watch_until:
                for voter, target in (on_b_players, reversed(on_b_players)):
                    r = voter.post(f"/api/v1/tables/{voted}/seats/{seat_of[target.id]}/takeover")
                    assert r.status_code == 409, r.text
                    assert r.json()["error"]["code"] == "takeover_refused"
                    attempts += 1
                for tid in (auto, voted):
                    assert not any(s["taken_over"] for s in _seats(on_b, tid))
                time.sleep(0.2)
            assert attempts >= 20
        finally:
            for sock in sockets:
                sock.close()
        # Once they are gone, B does hand the due seat of the "auto" table to a bot, and a
        # vote on the other table succeeds.
        _until(lambda: any(s["taken_over"] for s in _seats(on_b, auto)))
        ana, ben = on_b_players

        def vote() -> bool:
            r = ana.post(f"/api/v1/tables/{voted}/seats/{seat_of[ben.id]}/takeover")
            return r.status_code == 200 and bool(r.json()["seats"][seat_of[ben.id]]["taken_over"])

        _until(vote)
        assert _seats(on_a, voted)[seat_of[ben.id]]["taken_over"] is True
