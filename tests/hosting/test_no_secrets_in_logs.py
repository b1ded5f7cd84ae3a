"""No secret in a log (issues 17.2 and 34.4): a real server process, logging everything it can
(DEBUG, access log on), goes through a session of REST and WebSocket use with player tokens,
the admin token, the access code, invite codes and wrong tokens in every place a client may
put them, under a key or bare, and starts games (their seed secrets, read from the database
afterwards); not one of those secrets appears anywhere in what the process wrote to stdout
and stderr.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from pathlib import Path

import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine
from websockets.exceptions import ConnectionClosed

from app.games import REGISTRY
from tests.support.client import Player, acting, make_table
from tests.support.databases import BACKENDS, fresh_database
from tests.support.process import ServerProcess
from tests.support.wsclient import Socket

GAME = "gluckauf" if "gluckauf" in REGISTRY else sorted(REGISTRY)[0]


def _closed_with(sock: Socket) -> int | None:
    """Read until the server closes the socket; the close code."""
    try:
        while True:
            sock.recv(timeout=10)
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None


def _new_player(http: httpx.Client, name: str, access_code: str) -> Player:
    r = http.post("/api/v1/players", json={"name": name, "access_code": access_code})
    assert r.status_code == 201, r.text
    body = r.json()
    return Player(body["id"], body["name"], body["token"], http)


def _private_session(server: ServerProcess, players: list[Player], guest: Player) -> list[str]:
    """A private table: its invite code in query strings (REST and WebSocket), in a body, in
    a path with no key naming it; wrong codes too. Returns every code used."""
    a, b = players
    table = a.post("/api/v1/tables", {"game": GAME, "seats": 2, "private": True}).json()
    tid, code = table["id"], table["invite_code"]
    wrong = f"wrong{secrets.token_urlsafe(9)}"
    assert guest.get(f"/api/v1/tables/{tid}/state?invite={code}").status_code == 200
    assert guest.get(f"/api/v1/tables/{tid}?invite={wrong}").status_code == 404
    assert guest.get(f"/api/v1/tables/{code}").status_code == 404
    assert b.post(f"/api/v1/tables/{tid}/join", {"invite": code}).status_code == 200
    assert a.post(f"/api/v1/tables/{tid}/start").status_code == 200
    watcher = Socket(f"{server.ws_url}/api/v1/tables/{tid}/ws?invite={code}")
    watcher.until(lambda f: f["type"] == "state")
    watcher.close()
    refused = Socket(f"{server.ws_url}/api/v1/tables/{tid}/ws?invite={wrong}")
    assert _closed_with(refused) == 4404
    return [code, wrong]


def _stored_secrets(url: str) -> list[str]:
    """Every table's seed secret and invite code, as the database holds them."""

    async def read() -> list[str]:
        engine = create_async_engine(url)
        try:
            async with engine.connect() as conn:
                rows = await conn.execute(text("SELECT seed_secret, invite_code FROM game_tables"))
                return [value for row in rows for value in row if value]
        finally:
            await engine.dispose()

    return asyncio.run(read())


def _session(server: ServerProcess, admin_token: str, access_code: str) -> list[str]:
    """REST and WebSocket use with every kind of secret; returns every secret used."""
    used: list[str] = [admin_token, access_code]
    http = httpx.Client(base_url=server.url, timeout=30)
    players = [_new_player(http, "Ana", access_code), _new_player(http, "Bo", access_code)]
    used += [p.token for p in players]
    a, b = players
    # REST: the caller, a table, play, chat; then bad requests of every kind.
    assert a.get("/api/v1/me").status_code == 200
    tid = make_table(a, GAME, 2)["id"]
    assert b.post(f"/api/v1/tables/{tid}/join").status_code == 200
    assert a.post(f"/api/v1/tables/{tid}/start").status_code == 200
    mover, state = acting(players, tid)
    assert mover.act(tid, state["version"], state["legal_actions"][0]).status_code == 200
    assert a.post(f"/api/v1/tables/{tid}/chat", {"text": "hola"}).status_code == 201
    assert a.post(f"/api/v1/tables/{tid}/actions", {"version": "x"}).status_code == 422
    assert a.get("/api/v1/tables/no-such-table/state").status_code == 404
    wrong = [f"wrong-{secrets.token_urlsafe(24)}" for _ in range(4)]
    used += wrong
    bad = Player("x", "x", wrong[0], http)
    assert bad.get("/api/v1/me").status_code == 401
    # A token where it does not belong: in a REST query string.
    assert http.get(f"/api/v1/tables?token={a.token}").status_code == 200
    assert http.get(f"/api/v1/me?token={b.token}").status_code == 401
    admin = {"Authorization": f"Bearer {admin_token}"}
    assert http.get("/api/v1/admin/players", headers=admin).status_code == 200
    # Secrets under keys naming no secret, and bare in a path: redacted by what they are.
    assert http.get(f"/api/v1/admin/players?k={admin_token}", headers=admin).status_code == 200
    assert http.get(f"/api/v1/games?c={access_code}&p={a.token}").status_code == 200
    assert http.get(f"/api/v1/tables/{b.token}").status_code == 404
    assert http.get("/api/v1/admin/players", headers={"Authorization": "Bearer " + wrong[1]})
    # WebSocket: the token as a query parameter, as the first frame, as a later auth frame.
    ws = f"{server.ws_url}/api/v1/tables/{tid}/ws"
    by_query = Socket(f"{ws}?token={a.token}&since=1")
    by_query.until(lambda f: f["type"] == "state")
    by_frame = Socket(f"{ws}?auth=frame")
    by_frame.send({"type": "auth", "token": b.token})
    by_frame.until(lambda f: f["type"] == "state" and f["seat"] is not None)
    later = Socket(ws)
    later.until(lambda f: f["type"] == "state")
    later.send({"type": "auth", "token": a.token})
    later.until(lambda f: f["type"] == "state" and f["seat"] is not None)
    by_query.send({"type": "chat", "text": "por el socket"})
    by_query.until(lambda f: f["type"] == "chat")
    by_query.send({"type": "ping", "token": a.token})  # a malformed frame carrying a token
    assert by_query.until(lambda f: f["type"] == "error")["error"]["code"] == "validation_error"
    # Wrong tokens in each place: answered and closed with 4401.
    assert _closed_with(Socket(f"{ws}?token={wrong[2]}")) == 4401
    refused = Socket(f"{ws}?auth=frame")
    refused.send({"type": "auth", "token": wrong[3]})
    assert _closed_with(refused) == 4401
    for sock in (by_query, by_frame, later):
        sock.close()
    guest = _new_player(http, "Cy", access_code)
    used += [guest.token, *_private_session(server, players, guest)]
    http.close()
    return used


@pytest.mark.parametrize(("backend", "log_json"), [(b, j) for b in BACKENDS for j in (False, True)])
def test_no_token_appears_in_the_server_logs(
    backend: str, log_json: bool, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    admin_token = "admin-" + secrets.token_urlsafe(24)
    access_code = "code-" + secrets.token_urlsafe(12)
    with fresh_database(backend, tmp_path, migrate=False) as url:
        server = ServerProcess(
            url,
            PARTIDA_LOG_LEVEL="DEBUG",
            PARTIDA_ACCESS_LOG="true",
            PARTIDA_LOG_JSON=json.dumps(log_json),
            PARTIDA_ADMIN_TOKEN=admin_token,
            PARTIDA_ACCESS_CODE=access_code,
        ).start()
        try:
            used = _session(server, admin_token, access_code)
        finally:
            server.stop()
        stored = _stored_secrets(url)
    assert len(stored) == 3  # two seed secrets and one invite code
    used += stored
    out, err = capfd.readouterr()
    logs = out + err
    # None of the secrets is in the logs ...
    leaked = [secret for secret in used if secret in logs]
    assert leaked == [], f"{len(leaked)} of {len(used)} secrets in the logs"
    # ... which are there all the same (access lines, socket handshakes, masked tokens).
    assert "GET /api/v1/me" in logs and "WebSocket /api/v1/tables/" in logs
    assert "[redacted]" in logs
