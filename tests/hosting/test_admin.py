"""The host's admin API and the housekeeping of open tables."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest

from tests.support.client import make_table, new_player
from tests.support.live import LiveServer, temporary_server

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
