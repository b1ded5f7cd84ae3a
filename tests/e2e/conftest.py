"""Browser tests: Debian's Chromium driven by Playwright against an in-process server.

One server (SQLite, the Luz engine and the test game "pick", bots without delay) and one
browser serve this package; every test gets fresh browser contexts, so identities never
leak between tests.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.config import Settings
from app.main import create_app
from tests.support.databases import fresh_database
from tests.support.live import LiveServer

CHROMIUM = os.environ.get("PARTIDA_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

playwright_api = pytest.importorskip("playwright.sync_api")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test here that drives the browser is an e2e test (``-m "not e2e"`` skips them)."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="package")
def e2e_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    from app.games.luz import ENGINE
    from tests.support.pickgame import PICK  # a game without a renderer: the generic board

    with fresh_database("sqlite", tmp_path_factory.mktemp("e2e-db")) as url:
        settings = Settings(
            database_url=url,
            bot_delay=0,
            environment="test",
            log_level="WARNING",
            rate_limit_enabled=False,  # every browser here comes from 127.0.0.1
            max_open_tables_per_player=1000,
            # A closed page stops counting as present after touch + 2 s (the presence lease):
            # short, so that a takeover test waits seconds, not the production 17.
            presence_touch_seconds=0.25,
        )
        server = LiveServer(
            create_app(settings, games={"luz": ENGINE, "pick": PICK}),  # type: ignore[dict-item]
            ws_max_size=settings.ws_max_frame_bytes,
        ).start()
        yield server
        server.stop()


@pytest.fixture(scope="package")
def browser(e2e_server: LiveServer) -> Iterator[Any]:
    # The server comes first: its migrations use asyncio.run, which cannot run once the
    # sync Playwright driver owns this thread's event loop. Both live only while this
    # package's tests run (package scope), so the async tests collected after it get
    # their thread back.
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM}")
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def new_context(browser: Any, e2e_server: LiveServer) -> Iterator[Callable[..., Any]]:
    """Open a browser context on the test server: new_context(locale="es-ES", player=...)."""
    contexts: list[Any] = []

    def make(locale: str = "en-GB", player: dict[str, str] | None = None, **kwargs: Any) -> Any:
        context = browser.new_context(
            base_url=e2e_server.url,
            locale=locale,
            extra_http_headers={"Accept-Language": locale},
            viewport=kwargs.pop("viewport", {"width": 1360, "height": 900}),
            reduced_motion=kwargs.pop("reduced_motion", "reduce"),
            **kwargs,
        )
        context.set_default_timeout(10_000)
        if player is not None:
            context.add_init_script(
                f"localStorage.setItem('partida.player', {json.dumps(json.dumps(player))});"
            )
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def api(e2e_server: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=e2e_server.url + "/api/v1", timeout=30) as client:
        yield client


def make_player(api: httpx.Client, name: str) -> dict[str, str]:
    response = api.post("/players", json={"name": name})
    response.raise_for_status()
    return dict(response.json())


def auth(player: dict[str, str]) -> dict[str, str]:
    return {"Authorization": f"Bearer {player['token']}"}
