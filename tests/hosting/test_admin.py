"""The host's admin API and the housekeeping of open tables."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Coroutine, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from sqlalchemy import delete, update
from websockets.exceptions import ConnectionClosed
from websockets.frames import Close

from app.db.models import Player as PlayerRow
from app.games import REGISTRY
from app.realtime import ws
from tests.support.client import Player, make_table, new_player
from tests.support.databases import fresh_database
from tests.support.live import LiveServer, temporary_server
from tests.support.process import ServerProcess
from tests.support.wsclient import Socket

ADMIN = "host-secret-token-0123456789"


@pytest.fixture
def admin_server(tmp_path: Path) -> Iterator[LiveServer]:
    with temporary_server(tmp_path, admin_token=ADMIN) as live:
        yield live


def _admin(http: httpx.Client) -> dict[str, str]:
    return {"Authorization": f"Bearer {ADMIN}"}


def test_admin_api_needs_the_admin_token(admin_server: LiveServer) -> None:
    with httpx.Client(base_url=admin_server.url) as http:
        player = new_player(http, "Mallory")
        assert http.get("/api/v1/admin/tables").status_code == 401
        r = http.get("/api/v1/admin/tables", headers=player.auth)
        assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
        assert http.get("/api/v1/admin/tables", headers=_admin(http)).status_code == 200


def test_without_an_admin_token_the_admin_api_is_forbidden(http: httpx.Client) -> None:
    r = http.get("/api/v1/admin/players", headers={"Authorization": "Bearer anything"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"


def test_admin_lists_deletes_and_ends_tables(admin_server: LiveServer) -> None:
    with httpx.Client(base_url=admin_server.url) as http:
        owner, guest = new_player(http, "O"), new_player(http, "G")
        private = owner.post("/api/v1/tables", {"game": "pick", "seats": 2, "private": True}).json()
        running = make_table(owner, "pick", 2)
        guest.post(f"/api/v1/tables/{running['id']}/join")
        owner.post(f"/api/v1/tables/{running['id']}/start")

        listed = {t["id"]: t for t in http.get("/api/v1/admin/tables", headers=_admin(http)).json()}
        assert (
            private["id"] in listed
            and listed[private["id"]]["invite_code"] == private["invite_code"]
        )

        ended = http.post(f"/api/v1/admin/tables/{running['id']}/end", headers=_admin(http))
        assert ended.status_code == 200 and ended.json()["status"] == "finished"
        state = owner.state(running["id"])
        assert state["status"] == "finished" and state["result"]["ended_by_admin"] is True
        assert state["legal_actions"] == []
        again = http.post(f"/api/v1/admin/tables/{running['id']}/end", headers=_admin(http))
        assert again.status_code == 409

        assert (
            http.delete(f"/api/v1/admin/tables/{private['id']}", headers=_admin(http)).status_code
            == 204
        )
        assert http.get(f"/api/v1/tables/{private['id']}").status_code == 404
        assert (
            http.delete(f"/api/v1/admin/tables/{private['id']}", headers=_admin(http)).status_code
            == 404
        )


def test_admin_renames_and_blocks_players(admin_server: LiveServer) -> None:
    with httpx.Client(base_url=admin_server.url) as http:
        troll = new_player(http, "Troll")
        r = http.patch(
            f"/api/v1/admin/players/{troll.id}", json={"name": "  Polite  "}, headers=_admin(http)
        )
        assert r.json()["name"] == "Polite"
        assert troll.get("/api/v1/me").json()["name"] == "Polite"
        http.patch(
            f"/api/v1/admin/players/{troll.id}", json={"blocked": True}, headers=_admin(http)
        )
        assert troll.get("/api/v1/me").status_code == 401
        players = {
            p["id"]: p for p in http.get("/api/v1/admin/players", headers=_admin(http)).json()
        }
        assert players[troll.id]["blocked"] is True
        http.patch(
            f"/api/v1/admin/players/{troll.id}", json={"blocked": False}, headers=_admin(http)
        )
        assert troll.get("/api/v1/me").status_code == 200
        r = http.patch("/api/v1/admin/players/nobody", json={"blocked": True}, headers=_admin(http))
        assert r.status_code == 404


def test_prune_removes_only_old_finished_games(admin_server: LiveServer) -> None:
    with httpx.Client(base_url=admin_server.url) as http:
        owner, guest = new_player(http, "O"), new_player(http, "G")
        t = make_table(owner, "pick", 2)
        guest.post(f"/api/v1/tables/{t['id']}/join")
        owner.post(f"/api/v1/tables/{t['id']}/start")
        http.post(f"/api/v1/admin/tables/{t['id']}/end", headers=_admin(http))
        keep = make_table(owner, "pick", 2)
        past = (datetime.now(UTC) - timedelta(days=1)).isoformat()
        r = http.post("/api/v1/admin/prune", json={"finished_before": past}, headers=_admin(http))
        assert r.json() == {"deleted": 0}
        future = (datetime.now(UTC) + timedelta(days=1)).isoformat()
        r = http.post("/api/v1/admin/prune", json={"finished_before": future}, headers=_admin(http))
        assert r.json() == {"deleted": 1}
        assert http.get(f"/api/v1/tables/{t['id']}").status_code == 404
        assert http.get(f"/api/v1/tables/{keep['id']}").status_code == 200


def test_open_tables_nobody_joined_expire(admin_server: LiveServer) -> None:
    with httpx.Client(base_url=admin_server.url) as http:
        owner, guest = new_player(http, "O"), new_player(http, "G")
        lonely = make_table(owner, "pick", 2)
        joined = make_table(owner, "pick", 3)
        guest.post(f"/api/v1/tables/{joined['id']}/join")
        with_bot = make_table(owner, "pick", 2)
        owner.post(f"/api/v1/tables/{with_bot['id']}/bots")
        admin = admin_server.app.state.admin
        fresh = asyncio.run_coroutine_threadsafe(
            admin.expire_open_tables(timedelta(hours=1)), admin_server.app.state.loop
        ).result(30)
        assert fresh == 0
        expired = asyncio.run_coroutine_threadsafe(
            admin.expire_open_tables(timedelta(seconds=0)), admin_server.app.state.loop
        ).result(30)
        assert expired == 1
        assert http.get(f"/api/v1/tables/{lonely['id']}").status_code == 404
        assert http.get(f"/api/v1/tables/{joined['id']}").status_code == 200
        assert http.get(f"/api/v1/tables/{with_bot['id']}").status_code == 200


# ----------------------------------------------------------------- blocked players' sockets


def _on_loop(live: LiveServer, coro: Coroutine[Any, Any, Any]) -> Any:
    return asyncio.run_coroutine_threadsafe(coro, live.app.state.loop).result(30)


def _open(ws_url: str, tid: str, player: Player) -> Socket:
    sock = Socket(f"{ws_url}/api/v1/tables/{tid}/ws?token={player.token}")
    sock.until(lambda f: f["type"] == "state")
    return sock


def _close_of(sock: Socket, timeout: float = 10) -> Close:
    """Read until the server closes the socket; the close frame it sent."""
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            sock.recv(timeout=timeout)
    assert closed.value.rcvd is not None, "the server sent no close frame"
    return closed.value.rcvd


def _last_error(sock: Socket) -> dict[str, Any]:
    return next(f for f in reversed(sock.frames) if f["type"] == "error")["error"]


def _started_pair(http: httpx.Client) -> tuple[Player, Player, str]:
    troll, friend = new_player(http, "Troll"), new_player(http, "Friend")
    tid = make_table(troll, "pick", 2)["id"]
    assert friend.post(f"/api/v1/tables/{tid}/join").status_code == 200
    assert troll.post(f"/api/v1/tables/{tid}/start").status_code == 200
    return troll, friend, tid


def test_blocking_a_player_closes_their_open_sockets(admin_server: LiveServer) -> None:
    with httpx.Client(base_url=admin_server.url, timeout=30) as http:
        troll, friend, tid = _started_pair(http)
        elsewhere = make_table(friend, "pick", 2)["id"]
        troll_sock = _open(admin_server.ws_url, tid, troll)
        watching = _open(admin_server.ws_url, elsewhere, troll)  # a token spectator elsewhere
        friend_sock = _open(admin_server.ws_url, tid, friend)
        troll_sock.send({"type": "chat", "text": "before"})
        friend_sock.until(lambda f: f["type"] == "chat")

        r = http.patch(
            f"/api/v1/admin/players/{troll.id}", json={"blocked": True}, headers=_admin(http)
        )
        assert r.status_code == 200 and r.json()["blocked"] is True

        # Every socket of the blocked player: an unauthorized error frame, then 4401.
        for sock in (troll_sock, watching):
            close = _close_of(sock)
            assert (close.code, close.reason) == (ws.CLOSE_AUTH, "player blocked")
            assert _last_error(sock)["code"] == "unauthorized"
        # A new socket with the token is refused, and so is REST.
        again = Socket(f"{admin_server.ws_url}/api/v1/tables/{tid}/ws?token={troll.token}")
        assert (_close_of(again).code, _last_error(again)["code"]) == (4401, "unauthorized")
        assert troll.get("/api/v1/me").status_code == 401
        assert troll.post(f"/api/v1/tables/{tid}/chat", {"text": "rest"}).status_code == 401
        assert troll.act(tid, 1, {"type": "take", "count": 1}).status_code == 401

        # The other player's socket on the same table carries on.
        friend_sock.send({"type": "ping"})
        assert friend_sock.until(lambda f: f["type"] == "pong")
        friend_sock.send({"type": "chat", "text": "still here"})
        line = friend_sock.until(lambda f: f["type"] == "chat")["message"]
        assert (line["text"], line["player"]["id"]) == ("still here", friend.id)
        texts = [m["text"] for m in http.get(f"/api/v1/tables/{tid}/chat").json()]
        assert texts == ["before", "still here"]

        # Unblocked, the same token connects again.
        http.patch(
            f"/api/v1/admin/players/{troll.id}", json={"blocked": False}, headers=_admin(http)
        )
        back = _open(admin_server.ws_url, tid, troll)
        back.send({"type": "ping"})
        assert back.until(lambda f: f["type"] == "pong")
        for sock in (back, friend_sock):
            sock.close()


def test_a_socket_whose_notice_was_lost_refuses_the_next_frame(
    admin_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The safety net: blocked (or deleted) in the database without the broker's notice, the
    player's socket re-reads its status before the next frame and closes instead of acting."""
    monkeypatch.setattr(ws, "RECHECK_SECONDS", 0.0)
    sessionmaker = admin_server.service().sessionmaker

    async def block(player_id: str) -> None:
        async with sessionmaker() as session, session.begin():
            await session.execute(
                update(PlayerRow).where(PlayerRow.id == player_id).values(is_blocked=True)
            )

    async def remove(player_id: str) -> None:
        async with sessionmaker() as session, session.begin():
            await session.execute(delete(PlayerRow).where(PlayerRow.id == player_id))

    with httpx.Client(base_url=admin_server.url, timeout=30) as http:
        troll, friend, tid = _started_pair(http)
        watcher = new_player(http, "Watcher")
        troll_sock = _open(admin_server.ws_url, tid, troll)
        watcher_sock = _open(admin_server.ws_url, tid, watcher)
        friend_sock = _open(admin_server.ws_url, tid, friend)
        state = troll.state(tid)

        _on_loop(admin_server, block(troll.id))
        _on_loop(admin_server, remove(watcher.id))
        if state["seat"] in state["to_act"]:
            troll_sock.send({"type": "action", "version": 1, "action": state["legal_actions"][0]})
        else:
            troll_sock.send({"type": "chat", "text": "sneaky"})
        close = _close_of(troll_sock)
        assert (close.code, close.reason) == (4401, "player blocked")
        watcher_sock.send({"type": "chat", "text": "ghost"})
        close = _close_of(watcher_sock)
        assert (close.code, close.reason) == (4401, "player deleted")

        assert http.get(f"/api/v1/tables/{tid}/chat").json() == []
        assert friend.state(tid)["version"] == 1
        friend_sock.send({"type": "sync"})
        assert friend_sock.until(lambda f: f["type"] == "state")["version"] == 1
        friend_sock.close()


def test_a_socket_whose_notice_was_lost_is_closed_while_it_only_pings(
    admin_server: LiveServer,
) -> None:
    """The safety net reads at once every player whose socket spoke, every RECHECK_SECONDS
    / 2: blocked in the database without the broker's notice, a player whose socket only
    pings (a ping reads nothing) loses it too."""
    sessionmaker = admin_server.service().sessionmaker

    async def block(player_id: str) -> None:
        async with sessionmaker() as session, session.begin():
            await session.execute(
                update(PlayerRow).where(PlayerRow.id == player_id).values(is_blocked=True)
            )

    with httpx.Client(base_url=admin_server.url, timeout=30) as http:
        troll, friend, tid = _started_pair(http)
        troll_sock = _open(admin_server.ws_url, tid, troll)
        friend_sock = _open(admin_server.ws_url, tid, friend)
        _on_loop(admin_server, block(troll.id))
        deadline = time.monotonic() + ws.RECHECK_SECONDS * 2
        with pytest.raises(ConnectionClosed) as closed:
            while time.monotonic() < deadline:
                troll_sock.send({"type": "ping"})
                troll_sock.recv(timeout=1)
                time.sleep(0.2)
        assert closed.value.rcvd is not None
        assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (4401, "player blocked")
        friend_sock.send({"type": "ping"})
        assert friend_sock.until(lambda f: f["type"] == "pong")
        friend_sock.close()


def test_a_socket_that_plays_now_and_then_is_checked_by_the_shared_read_alone(
    admin_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seat speaks every few seconds (its turn comes round), often more than
    RECHECK_SECONDS apart: the shared read of the players whose sockets spoke lately keeps
    it checked, so that its next frame reads nothing of its own (with 1,000 sockets those
    reads were 7 % of the event loop)."""
    monkeypatch.setattr(ws, "RECHECK_SECONDS", 1.0)  # the shared read every 0.5 s
    service = admin_server.service()
    own_reads: list[str] = []
    read = service.player

    async def player(player_id: str) -> Any:
        own_reads.append(player_id)
        return await read(player_id)

    with httpx.Client(base_url=admin_server.url, timeout=30) as http:
        _troll, friend, tid = _started_pair(http)
        sock = _open(admin_server.ws_url, tid, friend)
        monkeypatch.setattr(service, "player", player)
        for text in ("my turn", "my turn again"):
            sock.send({"type": "chat", "text": text})
            assert sock.until(lambda f: f["type"] == "chat")["message"]["text"] == text
            time.sleep(ws.RECHECK_SECONDS * 1.8)  # quiet for longer than a check lasts
        sock.send({"type": "chat", "text": "and again"})
        assert sock.until(lambda f: f["type"] == "chat")["message"]["text"] == "and again"
        assert own_reads == []
        sock.close()


REDIS_URL = "redis://127.0.0.1:6379/0"
GAME = "luz" if "luz" in REGISTRY else sorted(REGISTRY)[0]


def test_a_block_closes_the_players_sockets_on_every_instance(tmp_path: Path) -> None:
    try:
        redis.Redis.from_url(REDIS_URL).ping()
    except redis.RedisError:
        pytest.skip("no Redis at " + REDIS_URL)
    env = {
        "PARTIDA_REDIS_URL": REDIS_URL,
        "PARTIDA_REDIS_CHANNEL": f"partida-test-{uuid.uuid4().hex[:8]}",
        "PARTIDA_ADMIN_TOKEN": ADMIN,
    }
    with fresh_database("postgresql", tmp_path, migrate=False) as url:
        first = ServerProcess(url, **env).start()
        second = ServerProcess(url, **env).start()
        try:
            with (
                httpx.Client(base_url=first.url, timeout=30) as http_a,
                httpx.Client(base_url=second.url, timeout=30) as http_b,
            ):
                # The server processes have the real catalog (no test game): an open table.
                troll, friend = new_player(http_b, "Troll"), new_player(http_b, "Friend")
                tid = make_table(troll, GAME, 4)["id"]
                assert friend.post(f"/api/v1/tables/{tid}/join").status_code == 200
                troll_sock = _open(second.ws_url, tid, troll)
                friend_sock = _open(second.ws_url, tid, friend)
                # The admin call goes to the other instance: only the broker can tell this one.
                r = http_a.patch(
                    f"/api/v1/admin/players/{troll.id}",
                    json={"blocked": True},
                    headers=_admin(http_a),
                )
                assert r.status_code == 200
                # Well within ws.RECHECK_SECONDS, and without a frame from the client.
                close = _close_of(troll_sock, timeout=3)
                assert (close.code, close.reason) == (4401, "player blocked")
                assert troll.get("/api/v1/me").status_code == 401
                friend_sock.send({"type": "chat", "text": "still here"})
                assert friend_sock.until(lambda f: f["type"] == "chat")["message"]["text"] == (
                    "still here"
                )
                friend_sock.close()
        finally:
            first.stop()
            second.stop()
