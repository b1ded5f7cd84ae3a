"""Abuse limits, a private server, private tables, headers and CORS."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from app.main import create_app
from tests.conftest import test_games, test_settings
from tests.support.client import make_table, new_player
from tests.support.databases import fresh_database
from tests.support.live import LiveServer, temporary_server


@contextmanager
def server(tmp_path: Path, **overrides: Any) -> Iterator[httpx.Client]:
    with (
        temporary_server(tmp_path, **overrides) as live,
        httpx.Client(base_url=live.url, timeout=30) as http,
    ):
        yield http


def test_rest_is_rate_limited_per_ip_with_the_envelope(tmp_path: Path) -> None:
    with server(tmp_path, rate_limit_enabled=True, rate_limit_ip="5/minute") as http:
        codes = [http.get("/api/v1/games").status_code for _ in range(7)]
        assert codes[:5] == [200] * 5 and codes[5:] == [429, 429]
        r = http.get("/api/v1/games")
        assert r.json()["error"]["code"] == "rate_limited" and r.headers["retry-after"] == "60"
        assert http.get("/healthz").status_code == 200  # pages and probes are not API calls


def test_rest_is_rate_limited_per_token(tmp_path: Path) -> None:
    with server(tmp_path, rate_limit_enabled=True, rate_limit_token="3/minute") as http:
        ana = new_player(http, "Ana")
        codes = [ana.get("/api/v1/me").status_code for _ in range(5)]
        assert codes == [200, 200, 200, 429, 429]
        assert http.get("/api/v1/games").status_code == 200  # other callers are unaffected


def test_player_creation_is_limited_per_ip(tmp_path: Path) -> None:
    with server(tmp_path, rate_limit_enabled=True, rate_limit_new_players="2/hour") as http:
        codes = [http.post("/api/v1/players", json={"name": f"P{i}"}).status_code for i in range(3)]
        assert codes == [201, 201, 429]


def test_large_bodies_are_refused_with_413(tmp_path: Path) -> None:
    with server(tmp_path, max_body_bytes=2048) as http:
        r = http.post("/api/v1/players", json={"name": "x" * 5000})
        assert r.status_code == 413 and r.json()["error"]["code"] == "payload_too_large"

        def chunks() -> Iterator[bytes]:
            yield b'{"name": "'
            yield b"y" * 4096
            yield b'"}'

        r = http.post(
            "/api/v1/players", content=chunks(), headers={"content-type": "application/json"}
        )
        assert r.status_code == 413


def test_access_code_guards_player_creation(tmp_path: Path) -> None:
    with server(tmp_path, access_code="amigos-2026") as http:
        r = http.post("/api/v1/players", json={"name": "Eve"})
        assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
        r = http.post("/api/v1/players", json={"name": "Eve", "access_code": "wrong"})
        assert r.status_code == 403
        r = http.post("/api/v1/players", json={"name": "Ana", "access_code": "amigos-2026"})
        assert r.status_code == 201


def test_private_tables_are_unlisted_and_need_the_invite(tmp_path: Path) -> None:
    with server(tmp_path) as http:
        owner, friend, stranger = (
            new_player(http, "O"),
            new_player(http, "F"),
            new_player(http, "S"),
        )
        r = owner.post("/api/v1/tables", {"game": "pick", "seats": 3, "private": True})
        table = r.json()
        tid, code = table["id"], table["invite_code"]
        assert table["private"] is True and code
        assert tid not in {t["id"] for t in stranger.get("/api/v1/tables").json()}
        assert tid in {t["id"] for t in owner.get("/api/v1/tables").json()}
        assert stranger.get(f"/api/v1/tables/{tid}").status_code == 404
        # Without its code a private table is not confirmed to exist (issue 17.13).
        r = stranger.post(f"/api/v1/tables/{tid}/join")
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
        r = stranger.post(f"/api/v1/tables/{tid}/join", {"invite": "guess"})
        assert r.status_code == 404
        assert friend.post(f"/api/v1/tables/{tid}/join", {"invite": code}).json() == {"seat": 1}
        assert friend.get(f"/api/v1/tables/{tid}").json()["invite_code"] == code


def test_tables_per_player_are_capped(tmp_path: Path) -> None:
    with server(tmp_path, max_open_tables_per_player=2) as http:
        owner = new_player(http, "O")
        make_table(owner, "pick", 2)
        make_table(owner, "pick", 2)
        r = owner.post("/api/v1/tables", {"game": "pick"})
        assert r.status_code == 409 and r.json()["error"]["code"] == "too_many_tables"


def test_security_headers_and_cors_closed_by_default(tmp_path: Path) -> None:
    with server(tmp_path) as http:
        r = http.get("/api/v1/games", headers={"Origin": "https://evil.example"})
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["x-frame-options"] == "DENY"
        assert "access-control-allow-origin" not in r.headers
        page = http.get("/")
        if page.status_code == 200:
            assert "script-src 'self'" in page.headers["content-security-policy"]


def test_cors_opens_for_configured_origins(tmp_path: Path) -> None:
    with server(tmp_path, cors_origins=["https://friends.example"]) as http:
        r = http.get("/api/v1/games", headers={"Origin": "https://friends.example"})
        assert r.headers["access-control-allow-origin"] == "https://friends.example"
        r = http.get("/api/v1/games", headers={"Origin": "https://evil.example"})
        assert "access-control-allow-origin" not in r.headers


def test_tokens_are_stored_only_as_hashes(tmp_path: Path) -> None:
    with fresh_database("sqlite", tmp_path) as url:
        live = LiveServer(create_app(test_settings(url), games=test_games())).start()  # type: ignore[arg-type]
        try:
            with httpx.Client(base_url=live.url) as http:
                ana = new_player(http, "Ana")
        finally:
            live.stop()

        async def stored() -> list[Any]:
            engine = create_async_engine(url)
            async with engine.connect() as conn:
                rows = (await conn.execute(text("SELECT token_hash FROM players"))).all()
            await engine.dispose()
            return [r[0] for r in rows]

        hashes = asyncio.run(stored())
    assert ana.token not in hashes and len(hashes[0]) == 64


@pytest.mark.parametrize("header", ["Bearer", "Basic abc", "Bearer " + "x" * 500])
def test_odd_authorization_headers_are_unauthorized(header: str, http: httpx.Client) -> None:
    r = http.get("/api/v1/me", headers={"Authorization": header})
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
