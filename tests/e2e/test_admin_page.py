"""The host's admin page: sign in with the admin token, end and delete tables, block players."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.support.client import make_table, new_player
from tests.support.live import LiveServer, temporary_server

ADMIN = "host-secret-token-0123456789"


@pytest.fixture
def admin_live(tmp_path: Path) -> Iterator[LiveServer]:
    with temporary_server(tmp_path, admin_token=ADMIN) as live:
        yield live


@pytest.mark.e2e
def test_admin_page_ends_and_deletes_tables_and_blocks_players(
    admin_live: LiveServer, browser: Any
) -> None:
    with httpx.Client(base_url=admin_live.url) as http:
        owner, guest = new_player(http, "Owner"), new_player(http, "Guest")
        running = make_table(owner, "pick", 2)
        guest.post(f"/api/v1/tables/{running['id']}/join")
        owner.post(f"/api/v1/tables/{running['id']}/start")
        idle = make_table(owner, "pick", 2)
    context = browser.new_context(locale="es-ES")
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"{admin_live.url}/admin")
    expect(page.locator("h1")).to_have_text("Administración del servidor")
    page.fill("#token", "wrong-token")
    page.click("#token-form button")
    page.wait_for_selector("#admin-error:not([hidden])")
    page.fill("#token", ADMIN)
    page.click("#token-form button")
    page.wait_for_selector(f"tr[data-table='{running['id']}']")
    page.click(f"tr[data-table='{running['id']}'] button:has-text('Terminar partida')")
    page.wait_for_selector(f"tr[data-table='{running['id']}'] td:has-text('Terminada')")
    page.click(f"tr[data-table='{idle['id']}'] button:has-text('Borrar')")
    page.wait_for_selector(f"tr[data-table='{idle['id']}']", state="detached")
    page.click(f"tr[data-player='{guest.id}'] button:has-text('Bloquear')")
    page.wait_for_selector(f"tr[data-player='{guest.id}'] td:has-text('bloqueado')")
    with httpx.Client(base_url=admin_live.url) as http:
        assert http.get("/api/v1/me", headers=guest.auth).status_code == 401
        assert http.get(f"/api/v1/tables/{idle['id']}").status_code == 404
    context.close()
