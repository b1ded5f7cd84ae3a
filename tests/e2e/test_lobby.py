"""The lobby's table cards: add bots and start from the list, spectate a running game."""

from __future__ import annotations

import re
from typing import Any

import httpx
from playwright.sync_api import expect

from tests.e2e.conftest import make_player
from tests.e2e.helpers import seated_table


def test_the_host_fills_and_starts_a_table_from_the_lobby_and_others_watch(
    new_context: Any, api: httpx.Client
) -> None:
    host = make_player(api, "Hugo")
    table_id = seated_table(api, host, bots=0, start=False)
    page = new_context(player=host).new_page()
    page.goto("/")
    card = page.locator(f".table-card[data-table-id='{table_id}']")
    expect(card).to_have_attribute("data-status", "open")
    expect(card.locator(".seat-chip.free")).to_have_count(2)
    card.locator("[data-action=add-bot]").click()
    expect(card.locator(".seat-chip.bot")).to_have_count(1)
    card.locator("[data-action=add-bot]").click()
    expect(card.locator(".seat-chip.bot")).to_have_count(2)
    card.locator("[data-action=start]").click()
    page.wait_for_url(re.compile(f"/tables/{table_id}$"))
    expect(page.locator(".hand-mine .card.back")).to_have_count(10)

    # Someone without a name finds the running game in the lobby and watches it.
    watcher = new_context(locale="es-ES").new_page()
    watcher.goto("/")
    running = watcher.locator(f"[data-group=playing] .table-card[data-table-id='{table_id}']")
    expect(running.locator(".seat-chip .dot.online")).to_have_count(3)
    running.locator("[data-action=open]").click()
    watcher.wait_for_url(re.compile(f"/tables/{table_id}$"))
    expect(watcher.locator(".luz.spectator")).to_be_visible()
    expect(watcher.locator("#turn-banner")).to_contain_text("Mirando")


def test_a_card_can_be_played_with_the_keyboard(new_context: Any, api: httpx.Client) -> None:
    player = make_player(api, "Kira")
    table_id = seated_table(api, player, bots=2, options={"first_player": 0})
    page = new_context(player=player).new_page()
    page.goto(f"/tables/{table_id}")
    page.locator(".bet-option[data-tricks='0']").focus()
    page.keyboard.press("Enter")
    page.locator(".bet-confirm").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#log-list")).to_contain_text("Kira bet 0 tricks")
    # Seat 0 leads trick 1: every card is legal; Tab reaches them, Enter plays one.
    legal = page.locator(".hand-mine button.card.legal")
    expect(legal).to_have_count(10)
    legal.first.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#log-list")).to_contain_text("Kira played")
    expect(page.locator(".hand-mine .card")).to_have_count(9)
