"""Regenerate the README screenshots of the web client (lobby and a Luz table).

    .venv/bin/python -m tests.e2e.screenshots [output-dir]   # default: static/screenshots

Starts an in-process server on a fresh SQLite database, seeds a few tables, plays a few
Luz moves by clicks and saves PNGs. Not a test; the browser tests live beside it.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

import httpx
from playwright.sync_api import sync_playwright

from app.config import Settings
from app.games.luz import ENGINE
from app.main import create_app
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.e2e.helpers import TURN_OR_END, my_move
from tests.support.databases import fresh_database
from tests.support.live import LiveServer


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, fresh_database("sqlite", Path(tmp)) as url:
        settings = Settings(database_url=url, bot_delay=0, environment="test", log_level="WARNING")
        server = LiveServer(create_app(settings, games={"luz": ENGINE})).start()  # type: ignore[dict-item]
        try:
            api = httpx.Client(base_url=server.url + "/api/v1")
            ana, ben = (api.post("/players", json={"name": n}).json() for n in ("Ana", "Ben"))
            auth = {"Authorization": f"Bearer {ana['token']}"}
            open_table = api.post("/tables", json={"game": "luz", "seats": 4}, headers=auth).json()
            api.post(f"/tables/{open_table['id']}/bots", json={}, headers=auth)
            mine = api.post(
                "/tables",
                json={"game": "luz", "seats": 3, "options": {"first_player": 1}},
                headers=auth,
            ).json()
            for _ in range(2):
                api.post(f"/tables/{mine['id']}/bots", json={}, headers=auth)
            api.post(f"/tables/{mine['id']}/start", headers=auth)
            api.post(
                "/tables",
                json={"game": "luz", "seats": 5},
                headers={"Authorization": f"Bearer {ben['token']}"},
            )
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
                )
                context = browser.new_context(
                    base_url=server.url,
                    locale="en-GB",
                    viewport={"width": 1280, "height": 820},
                    reduced_motion="reduce",
                )
                context.add_init_script(
                    f"localStorage.setItem('partida.player', {json.dumps(json.dumps(ana))});"
                )
                page = context.new_page()
                page.goto("/")
                page.wait_for_selector(".table-card")
                page.screenshot(path=str(out / "lobby.png"))
                page.goto(f"/tables/{mine['id']}")
                for _ in range(5):
                    page.wait_for_selector(TURN_OR_END)
                    my_move(page, bet=2)
                page.wait_for_selector(TURN_OR_END)
                page.mouse.move(0, 0)
                page.evaluate("window.scrollTo(0, 0)")
                page.screenshot(path=str(out / "luz-table.png"))
                page.set_viewport_size({"width": 390, "height": 844})
                page.wait_for_timeout(200)
                page.evaluate("window.scrollTo(0, 0)")
                page.screenshot(path=str(out / "luz-table-phone.png"), full_page=True)
                browser.close()
        finally:
            server.stop()
    print(f"screenshots written to {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("static/screenshots"))
