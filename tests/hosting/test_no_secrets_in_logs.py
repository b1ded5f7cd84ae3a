"""No secret in a log (issue 17.2): a real server process, logging everything it can (DEBUG,
access log on), goes through a session of REST and WebSocket use with player tokens, the
admin token and wrong tokens in every place a client may put them; afterwards not one of
those secrets appears anywhere in what the process wrote to stdout and stderr.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from app.games import REGISTRY
from tests.support.client import Player, acting, make_table, new_player
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


def _session(server: ServerProcess, admin_token: str) -> list[str]:
    """REST and WebSocket use with every kind of token; returns every secret used."""
    used: list[str] = [admin_token]
    http = httpx.Client(base_url=server.url, timeout=30)
    players = [new_player(http, "Ana"), new_player(http, "Bo")]
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
    http.close()
    return used


@pytest.mark.parametrize(("backend", "log_json"), [(b, j) for b in BACKENDS for j in (False, True)])
def test_no_token_appears_in_the_server_logs(
    backend: str, log_json: bool, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    admin_token = "admin-" + secrets.token_urlsafe(24)
    with fresh_database(backend, tmp_path, migrate=False) as url:
        server = ServerProcess(
            url,
            PARTIDA_LOG_LEVEL="DEBUG",
            PARTIDA_ACCESS_LOG="true",
            PARTIDA_LOG_JSON=json.dumps(log_json),
            PARTIDA_ADMIN_TOKEN=admin_token,
        ).start()
        try:
            used = _session(server, admin_token)
        finally:
            server.stop()
    out, err = capfd.readouterr()
    logs = out + err
    # None of the secrets is in the logs ...
    leaked = [token for token in used if token in logs]
    assert leaked == [], f"{len(leaked)} of {len(used)} secrets in the logs"
    # ... which are there all the same (access lines, socket handshakes, masked tokens).
    assert "GET /api/v1/me" in logs and "WebSocket /api/v1/tables/" in logs
    assert "[redacted]" in logs
