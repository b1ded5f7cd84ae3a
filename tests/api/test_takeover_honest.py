"""Presence and takeover are honest (issue 17.12).

A player connected to any instance keeps the seat, whatever the table's grace and the
heartbeat cadence: instance A holds the socket, instance B (same database, its own clock
keeper) decides takeovers, by vote and automatically. Once the player really leaves, the
seat does go to a bot. Takeover votes belong to the absence they were cast in: a player
who came back (connected, or acted) and left again starts a new absence, and the old
votes no longer count.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.main import create_app
from tests.conftest import test_games, test_settings
from tests.support.client import Player, new_player
from tests.support.databases import BACKENDS, fresh_database
from tests.support.live import LiveServer
from tests.support.wsclient import Socket

PASS = {"type": "pass_turn"}
# The heartbeat of both instances: a takeover between two heartbeats was the old failure.
TOUCH = 1.5


@contextmanager
def two_instances(backend: str, tmp_path: Path) -> Iterator[tuple[LiveServer, LiveServer]]:
    with fresh_database(backend, tmp_path) as url:
        servers = [
            LiveServer(
                create_app(
                    test_settings(url, clock_tick_seconds=0.1, presence_touch_seconds=TOUCH),
                    games=test_games(),  # type: ignore[arg-type]
                )
            ).start()
            for _ in range(2)
        ]
        try:
            yield servers[0], servers[1]
        finally:
            for server in servers:
                server.stop()


def _open(players: list[Player], abandon: str) -> str:
    """An open pick table seating ``players``, with a 1 s grace."""
    body = {"game": "pick", "seats": len(players), "options": {"pile": 30},
            "time_control": {"abandon": abandon, "grace_seconds": 1}}  # fmt: skip
    r = players[0].post("/api/v1/tables", body)
    assert r.status_code == 201, r.text
    tid: str = r.json()["id"]
    for p in players[1:]:
        assert p.post(f"/api/v1/tables/{tid}/join").status_code == 200
    return tid


def _start(players: list[Player], tid: str, due: Player) -> int:
    """Start the game and pass (or let a bot pass) until ``due`` is to act; ``due``'s seat."""
    assert players[0].post(f"/api/v1/tables/{tid}/start").status_code == 200
    seat: int = due.state(tid)["seat"]
    while (state := due.state(tid))["to_act"] != [seat]:
        for p in players:
            if p is not due and p.state(tid)["legal_actions"]:
                p.act(tid, state["version"], PASS)
        time.sleep(0.02)
    return seat


def _seat(http: httpx.Client, tid: str, seat: int) -> dict[str, Any]:
    seats: list[dict[str, Any]] = http.get(f"/api/v1/tables/{tid}").json()["seats"]
    return seats[seat]


def _until(check: Callable[[], Any], timeout: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if value := check():
            return value
        time.sleep(0.1)
    raise AssertionError("timed out waiting")


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_player_connected_to_another_instance_is_never_taken_over(
    backend: str, tmp_path: Path
) -> None:
    with (
        two_instances(backend, tmp_path) as (a_server, b_server),
        httpx.Client(base_url=a_server.url, timeout=30) as on_a,
        httpx.Client(base_url=b_server.url, timeout=30) as on_b,
    ):
        ana, ben = new_player(on_a, "Ana"), new_player(on_b, "Ben")
        auto, voted = _open([ana, ben], "auto"), _open([ana, ben], "vote")
        # Ana connects to instance A before the games start, and stays.
        sockets = [
            Socket(f"{a_server.ws_url}/api/v1/tables/{tid}/ws?token={ana.token}")
            for tid in (auto, voted)
        ]
        # A second device of hers on instance B, which she closes after a while.
        second: Socket | None = Socket(
            f"{b_server.ws_url}/api/v1/tables/{auto}/ws?token={ana.token}"
        )
        try:
            for sock in (*sockets, second):
                sock.until(lambda f: f["type"] == "state")  # registered
            ana_auto = _start([ana, ben], auto, due=ana)  # Ana is due to act
            ana_voted = _start([ana, ben], voted, due=ana)
            # Ana stays connected to A past several heartbeats and presence leases while B
            # tries, every few tenths of a second, to hand her seats to bots (and both
            # instances' clock keepers look for absent players ten times a second).
            refused = checks = 0
            started = time.monotonic()
            watch_until = started + 4.5 * TOUCH
            while time.monotonic() < watch_until:
                if second is not None and time.monotonic() > started + TOUCH:
                    second.close()
                    second = None
                r = ben.post(f"/api/v1/tables/{voted}/seats/{ana_voted}/takeover")
                assert r.status_code == 409, r.text
                assert r.json()["error"]["code"] == "takeover_refused"
                refused += 1
                seat = _seat(on_b, auto, ana_auto)
                assert seat["taken_over"] is False
                assert _seat(on_b, voted, ana_voted)["taken_over"] is False
                checks += 1
                time.sleep(0.25)
            assert refused >= 10 and checks >= 10
            assert ana.state(auto)["to_act"] == [ana_auto]
        finally:
            for sock in sockets:
                sock.close()
            if second is not None:
                second.close()

        # Once she is gone, the same policies do hand her seats over.
        _until(lambda: _seat(on_b, auto, ana_auto)["taken_over"])
        r = _until(
            lambda: (
                r
                if (r := ben.post(f"/api/v1/tables/{voted}/seats/{ana_voted}/takeover")).status_code
                == 200
                else None
            )
        )
        assert r.json()["seats"][ana_voted]["taken_over"] is True


def _vote(voter: Player, tid: str, seat: int) -> httpx.Response:
    """Vote as soon as the seat's player has been away past the grace."""

    def attempt() -> httpx.Response | None:
        r = voter.post(f"/api/v1/tables/{tid}/seats/{seat}/takeover")
        if r.status_code == 409 and "away" in r.json()["error"]["message"]:
            return None
        return r

    response: httpx.Response = _until(attempt)
    assert response.status_code == 200, response.text
    return response


@pytest.mark.parametrize("backend", BACKENDS)
def test_votes_expire_with_the_absence_they_were_cast_in(backend: str, tmp_path: Path) -> None:
    with (
        two_instances(backend, tmp_path) as (a_server, b_server),
        httpx.Client(base_url=a_server.url, timeout=30) as on_a,
        httpx.Client(base_url=b_server.url, timeout=30) as on_b,
    ):
        cid = new_player(on_a, "Cid")
        ana, ben = new_player(on_b, "Ana"), new_player(on_b, "Ben")
        tid = _open([cid, ana, ben], "vote")
        sc = _start([cid, ana, ben], tid, due=cid)
        # Cid is away: Ana's vote is one of the two needed.
        r = _vote(ana, tid, sc)
        assert r.json()["seats"][sc]["takeover_votes"] == 1
        assert r.json()["seats"][sc]["taken_over"] is False
        # He comes back to instance A for a moment, then leaves again.
        sock = Socket(f"{a_server.ws_url}/api/v1/tables/{tid}/ws?token={cid.token}")
        sock.state_at(1)
        sock.close()
        # Ben's vote in the new absence does not join Ana's old one.
        r = _vote(ben, tid, sc)
        assert r.json()["seats"][sc]["takeover_votes"] == 1
        assert r.json()["seats"][sc]["taken_over"] is False
        # The same when he comes back by acting (no socket at all): Ben's vote is old now.
        version = cid.state(tid)["version"]
        assert cid.act(tid, version, PASS).status_code == 200
        r = _vote(ana, tid, sc)
        assert r.json()["seats"][sc]["takeover_votes"] == 1
        assert r.json()["seats"][sc]["taken_over"] is False
        # Two votes cast in one absence are a majority.
        r = _vote(ben, tid, sc)
        assert r.json()["seats"][sc]["taken_over"] is True
