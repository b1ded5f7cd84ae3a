"""The lobby's "My tables": your-turn badges first, a turn notification, the webhook settings."""

from __future__ import annotations

import os
from typing import Any

import httpx
from playwright.sync_api import expect

from tests.e2e.conftest import auth, make_player
from tests.e2e.helpers import seated_table

SHOTS = os.environ.get("PARTIDA_SHOTS")

# Chromium headless has no notification UI: record what the page would show.
FAKE_NOTIFICATIONS = """
window.__notes = [];
window.Notification = class {
  constructor(title, options) { window.__notes.push({ title, body: options && options.body }); }
  static get permission() { return "granted"; }
  static requestPermission() { return Promise.resolve("granted"); }
};
"""


def _turn(api: httpx.Client, table_id: str, player: dict[str, str]) -> bool:
    state = api.get(f"/tables/{table_id}/state", headers=auth(player)).json()
    return bool(state["legal_actions"])


def _take_one(api: httpx.Client, table_id: str, player: dict[str, str]) -> None:
    state = api.get(f"/tables/{table_id}/state", headers=auth(player)).json()
    body = {"version": state["version"], "action": {"type": "take", "count": 1}}
    api.post(f"/tables/{table_id}/actions", json=body, headers=auth(player)).raise_for_status()


def test_my_tables_show_my_turn_first_notify_and_the_webhook_settings(
    new_context: Any, api: httpx.Client
) -> None:
    ana = make_player(api, "Ana")
    ben = make_player(api, "Ben")
    mine = seated_table(api, ana, others=(ben,), bots=0, seats=2, game="pick")
    if not _turn(api, mine, ana):
        _take_one(api, mine, ben)
    waiting = seated_table(api, ana, others=(ben,), bots=0, seats=2, game="pick")
    if _turn(api, waiting, ana):
        _take_one(api, waiting, ana)

    context = new_context(player=ana)
    context.add_init_script(FAKE_NOTIFICATIONS)
    page = context.new_page()
    page.goto("/")
    rows = page.locator("#my-table-list > li")
    expect(rows).to_have_count(2)
    expect(rows.first).to_have_attribute("data-table-id", mine)
    expect(rows.first.locator("[data-testid=your-turn]")).to_have_text("Your turn")
    expect(
        page.locator(f"#my-table-list li[data-table-id='{waiting}'] [data-testid=your-turn]")
    ).to_have_count(0)
    expect(page.locator("[data-testid=turn-count]")).to_have_text("1")
    expect(rows.first.locator("a")).to_have_attribute("href", f"/tables/{mine}")
    expect(page.locator("#my-page-link")).to_have_attribute("href", f"/players/{ana['id']}")

    # Opt in to notifications; Ben's move makes it Ana's turn at the other table.
    page.click("#notify-toggle")
    expect(page.locator("#notify-toggle")).to_have_attribute("aria-pressed", "true")
    _take_one(api, waiting, ben)
    expect(page.locator("[data-testid=turn-count]")).to_have_text("2", timeout=12_000)
    notes = page.evaluate("window.__notes")
    assert len(notes) == 1 and "Pick" in notes[0]["body"], notes

    # The webhook: a private address is refused with the server's reason (in the page's words,
    # naming the host), then set and cleared.
    page.click("#webhook summary")
    page.fill("#webhook-url", "http://127.0.0.1:8080/hook")
    page.click("#webhook-save")
    expect(page.locator("#webhook-error")).to_have_text(
        "“127.0.0.1” is not a public internet address: alerts can only go to public ones."
    )
    expect(page.locator("#webhook-url")).to_have_value("http://127.0.0.1:8080/hook")
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/lobby-mine.png", full_page=True)
    page.fill("#webhook-url", "https://1.1.1.1/partida-hook")
    page.click("#webhook-save")
    expect(page.locator("#webhook-status")).to_contain_text(
        "Alerts go to https://1.1.1.1/partida-hook"
    )
    expect(page.locator("#webhook-error")).to_have_count(0)
    assert api.get("/me", headers=auth(ana)).json()["webhook_url"] == "https://1.1.1.1/partida-hook"
    page.reload()
    page.click("#webhook summary")
    expect(page.locator("#webhook-url")).to_have_value("https://1.1.1.1/partida-hook")
    page.click("#webhook-clear")
    expect(page.locator("#webhook-status")).to_contain_text("No webhook set.")
    assert api.get("/me", headers=auth(ana)).json()["webhook_url"] is None

    # In Spanish too.
    es = new_context(player=ana, locale="es-ES").new_page()
    es.goto("/")
    expect(es.locator("#my-tables-title")).to_contain_text("Mis mesas")
    expect(es.locator("#my-table-list [data-testid=your-turn]").first).to_have_text("Te toca")
    if SHOTS:
        es.screenshot(path=f"{SHOTS}/lobby-mine-es.png", full_page=True)
