"""Table chat (REST history + live over the socket) and the fair-shuffle line on the table page."""

from __future__ import annotations

import os
from typing import Any

import httpx
from playwright.sync_api import expect

from tests.e2e.conftest import auth, make_player
from tests.e2e.helpers import seated_table

SHOTS = os.environ.get("PARTIDA_SHOTS")


def test_two_players_and_a_spectator_share_the_table_chat(
    new_context: Any, api: httpx.Client
) -> None:
    ana = make_player(api, "Ana")
    ben = make_player(api, "Ben")
    table_id = seated_table(api, ana, others=(ben,), bots=0, seats=2, game="pick")
    # History from before the pages opened comes from the REST endpoint.
    api.post(f"/tables/{table_id}/chat", json={"text": "¡Buena suerte!"}, headers=auth(ben))

    ana_page = new_context(player=ana).new_page()
    ana_page.goto(f"/tables/{table_id}")
    ben_page = new_context(player=ben, locale="es-ES").new_page()
    ben_page.goto(f"/tables/{table_id}")
    watcher = new_context().new_page()
    watcher.goto(f"/tables/{table_id}")

    expect(ana_page.locator("#chat-list")).to_contain_text("¡Buena suerte!")
    for page in (ana_page, ben_page, watcher):
        expect(page.locator("#conn")).to_have_attribute("data-conn", "open")

    ana_page.fill("#chat-input", "Hola Ben")
    ana_page.click("#chat-send")
    expect(ana_page.locator("#chat-input")).to_have_value("")
    expect(ben_page.locator("#chat-list .chat-line").last).to_contain_text("Hola Ben")
    expect(ben_page.locator("#chat-list .chat-line").last).to_contain_text("Ana")
    expect(watcher.locator("#chat-list")).to_contain_text("Hola Ben")

    ben_page.fill("#chat-input", "¡Hola, Ana!")
    ben_page.press("#chat-input", "Enter")
    expect(ana_page.locator("#chat-list .chat-line").last).to_contain_text("¡Hola, Ana!")
    expect(ben_page.locator("#chat-list .chat-line.mine")).to_have_count(2)
    expect(watcher.locator("#chat-list .chat-line")).to_have_count(3)

    # A spectator reads the chat but cannot post (only seated players chat, issue 17.13).
    expect(watcher.locator("#chat-input")).to_be_disabled()
    expect(watcher.locator("#chat-hint")).to_contain_text("Only the players at this table")
    expect(ben_page.locator("#chat-title")).to_have_text("Chat de la mesa")

    # The fair-shuffle line shows the commitment published at creation.
    commitment = api.get(f"/tables/{table_id}").json()["seed_commitment"]
    expect(ana_page.locator("[data-testid=seed-commitment]")).to_have_attribute("title", commitment)
    if SHOTS:
        ana_page.screenshot(path=f"{SHOTS}/chat-ana.png", full_page=True)
        watcher.screenshot(path=f"{SHOTS}/chat-watcher.png", full_page=True)
