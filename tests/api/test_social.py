"""Async play and the table's social side: my tables, turn webhooks, chat."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.tables.notify import TurnNotifier
from tests.support.client import Player, make_table, new_player
from tests.support.live import LiveServer, temporary_server
from tests.support.wsclient import Socket


def _started(http: httpx.Client, n: int = 2) -> tuple[list[Player], str]:
    players = [new_player(http, f"P{i}") for i in range(n)]
    tid = make_table(players[0], "pick", n, {"pile": 30})["id"]
    for p in players[1:]:
        p.post(f"/api/v1/tables/{tid}/join")
    players[0].post(f"/api/v1/tables/{tid}/start")
    return players, tid


def test_my_tables_puts_the_tables_where_it_is_my_turn_first(http: httpx.Client) -> None:
    (a, b), tid = _started(http)
    waiting = make_table(a, "pick", 2)["id"]
    mine = {t["id"]: t for t in a.get("/api/v1/me/tables").json()}
    theirs = {t["id"]: t for t in b.get("/api/v1/me/tables").json()}
    assert mine[tid]["my_turn"] != theirs[tid]["my_turn"]
    assert mine[waiting]["my_turn"] is False and mine[waiting]["my_seat"] == 0
    first = a.get("/api/v1/me/tables").json()[0]
    assert first["my_turn"] == any(t["my_turn"] for t in mine.values())
    assert http.get("/api/v1/me/tables").status_code == 401


class _Hook(BaseHTTPRequestHandler):
    received: list[dict[str, Any]] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["content-length"]))
        _Hook.received.append(json.loads(body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def hook() -> Iterator[str]:
    _Hook.received = []
    server = HTTPServer(("127.0.0.1", 0), _Hook)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/turn"
    server.shutdown()


def test_webhook_gets_a_post_when_it_becomes_my_turn(tmp_path: Path, hook: str) -> None:
    with (
        temporary_server(
            tmp_path, webhook_allow_private=True, public_url="https://games.example"
        ) as live,
        httpx.Client(base_url=live.url) as http,
    ):
        a, b = new_player(http, "A"), new_player(http, "B")
        r = b.http.patch("/api/v1/me", json={"webhook_url": hook}, headers=b.auth)
        assert r.status_code == 200 and r.json()["webhook_url"] == hook
        tid = make_table(a, "pick", 2, {"pile": 30})["id"]
        b.post(f"/api/v1/tables/{tid}/join")
        a.post(f"/api/v1/tables/{tid}/start")
        for _ in range(4):
            p = a if a.state(tid)["legal_actions"] else b
            s = p.state(tid)
            p.act(tid, s["version"], {"type": "take", "count": 1})
        deadline = time.monotonic() + 10
        while len(_Hook.received) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(_Hook.received) >= 2
        alert = _Hook.received[-1]
        assert alert["event"] == "your_turn" and alert["table_id"] == tid and alert["seat"] == 1
        assert alert["table_url"] == f"https://games.example/tables/{tid}"


def test_webhooks_to_private_addresses_are_refused_by_default(http: httpx.Client) -> None:
    a = new_player(http, "A")
    for url in ("http://127.0.0.1:9/x", "http://10.0.0.1/x", "ftp://example.org/x", "not a url"):
        r = a.http.patch("/api/v1/me", json={"webhook_url": url}, headers=a.auth)
        assert r.status_code == 422 and r.json()["error"]["code"] == "validation_error", url
    r = a.http.patch("/api/v1/me", json={"webhook_url": None}, headers=a.auth)
    assert r.status_code == 200 and r.json()["webhook_url"] is None


async def test_a_webhook_host_is_checked_again_when_the_alert_is_sent(hook: str) -> None:
    """A name saved while it pointed outside may point inside later (DNS rebinding)."""
    notifier = TurnNotifier(None, allow_private=False)
    try:
        notifier.your_turn(hook, {"event": "your_turn", "table_id": "t", "seat": 0})
        await notifier.flush()
    finally:
        await notifier.close()
    assert notifier.refused == 1 and notifier.sent == 0 and _Hook.received == []


async def test_a_webhook_post_goes_to_the_address_that_was_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[httpx.Request] = []

    def reply(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(204)

    async def resolve(host: str, port: int, **_: Any) -> list[Any]:
        assert (host, port) == ("hooks.example", 8443)
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.216.34", port))]

    notifier = TurnNotifier(None, allow_private=False, transport=httpx.MockTransport(reply))
    monkeypatch.setattr(asyncio.get_running_loop(), "getaddrinfo", resolve)
    try:
        notifier.your_turn("https://hooks.example:8443/turn", {"table_id": "t"})
        await notifier.flush()
    finally:
        await notifier.close()
    (request,) = seen
    assert notifier.sent == 1
    assert (request.url.host, request.url.port, request.url.path) == (
        "93.184.216.34",
        8443,
        "/turn",
    )
    assert request.headers["host"] == "hooks.example:8443"
    assert request.extensions["sni_hostname"] == "hooks.example"


def test_chat_over_rest_and_websocket_reaches_everyone(
    http: httpx.Client, live: LiveServer
) -> None:
    (a, b), tid = _started(http)
    watcher = new_player(http, "Watcher")
    sock_b = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws?token={b.token}")
    spectator = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws")
    sock_b.until(lambda f: f["type"] == "state")
    r = a.post(f"/api/v1/tables/{tid}/chat", {"text": "  ¡Hola,   mesa!  "})
    assert r.status_code == 201 and r.json()["text"] == "¡Hola, mesa!"
    assert sock_b.until(lambda f: f["type"] == "chat")["message"]["player"]["name"] == "P0"
    assert spectator.until(lambda f: f["type"] == "chat")["message"]["text"] == "¡Hola, mesa!"
    sock_b.send({"type": "chat", "text": "buenas"})
    assert spectator.until(lambda f: f["type"] == "chat")["message"]["text"] == "buenas"
    spectator.send({"type": "chat", "text": "I have no token"})
    assert spectator.until(lambda f: f["type"] == "error")["error"]["code"] == "unauthorized"
    # Watchers read the chat but only seated players post (issue 17.13).
    r = watcher.post(f"/api/v1/tables/{tid}/chat", {"text": "watching"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_seated"
    assert b.post(f"/api/v1/tables/{tid}/chat", {"text": "watching"}).status_code == 201
    history = http.get(f"/api/v1/tables/{tid}/chat").json()
    assert [m["text"] for m in history] == ["¡Hola, mesa!", "buenas", "watching"]
    assert (
        http.get(f"/api/v1/tables/{tid}/chat", params={"since": history[0]["id"]}).json()[0]["text"]
        == "buenas"
    )
    for bad in ({"text": ""}, {"text": "x" * 501}, {"text": "a\u0007b"}, {}):
        r = a.post(f"/api/v1/tables/{tid}/chat", bad)
        assert r.status_code == 422 and r.json()["error"]["code"] == "validation_error", bad
    assert http.post(f"/api/v1/tables/{tid}/chat", json={"text": "anon"}).status_code == 401
    assert a.post("/api/v1/tables/nope/chat", {"text": "hi"}).status_code == 404
    sock_b.close()
    spectator.close()
