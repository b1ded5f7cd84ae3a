"""Resign and "Play again" in the browser (issue 18.3): one player resigns with a
confirmation on a phone, the game goes on to its end, and one click on "Play again" brings
both open pages to the new table. The rules behind it are tested over the API
(tests/api/test_endings.py); this is only the pages."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
from playwright.sync_api import expect

from tests.e2e.conftest import auth, make_player
from tests.e2e.helpers import shot

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}


def _finish(api: httpx.Client, table_id: str, who: dict[str, str]) -> None:
    """``who`` takes tokens whenever it is their turn (the bots play the other seats)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        state = api.get(f"/tables/{table_id}/state", headers=auth(who)).json()
        if state["status"] == "finished":
            return
        if state["legal_actions"]:
            take = [a for a in state["legal_actions"] if a["type"] == "take"][-1]
            api.post(
                f"/tables/{table_id}/actions",
                json={"version": state["version"], "action": take},
                headers=auth(who),
            )
        else:
            time.sleep(0.05)
    raise AssertionError("the game did not end")


def test_resign_then_play_again_brings_everybody_to_the_new_table(
    new_context: Any, api: httpx.Client
) -> None:
    ana, ben = make_player(api, "Ana"), make_player(api, "Ben")
    created = api.post(
        "/tables", json={"game": "pick", "seats": 3, "options": {"pile": 9}}, headers=auth(ana)
    )
    table_id = created.json()["id"]
    api.post(f"/tables/{table_id}/join", headers=auth(ben)).raise_for_status()
    api.post(f"/tables/{table_id}/bots", json={"level": "random"}, headers=auth(ana))
    api.post(f"/tables/{table_id}/start", headers=auth(ana)).raise_for_status()

    ana_page = new_context(player=ana, viewport=LAPTOP).new_page()
    ana_page.goto(f"/tables/{table_id}")
    ben_page = new_context(player=ben, locale="es-ES", viewport=PHONE).new_page()
    ben_page.goto(f"/tables/{table_id}")
    for page in (ana_page, ben_page):
        expect(page.locator("#conn")).to_have_attribute("data-conn", "open")

    # Ben resigns on his phone: asked first, then out for good; everybody sees it.
    ben_page.click("#endings [data-action=resign]")
    expect(ben_page.locator("#endings")).to_contain_text("Quedarás último")
    ben_page.click("#endings [data-action=resign-cancel]")
    expect(ben_page.locator("#endings [data-action=resign-confirm]")).to_have_count(0)
    ben_page.click("#endings [data-action=resign]")
    ben_page.click("#endings [data-action=resign-confirm]")
    expect(ben_page.locator("[data-testid=resigned-note]")).to_have_text(
        "Has abandonado. Un bot juega tu asiento hasta el final."
    )
    expect(ben_page.locator("#endings")).to_be_hidden()
    expect(ana_page.locator("#seats [data-seat='1'] [data-testid=resigned]")).to_have_text(
        re.compile("resigned")
    )

    # The game goes on without him and ends; he is ranked last, and the result offers
    # "Play again" to its players.
    _finish(api, table_id, ana)
    expect(ana_page.locator("body")).to_have_attribute("data-status", "finished")
    ranking = ana_page.locator("[data-testid=ranking] li")
    expect(ranking.last).to_have_attribute("data-seat", "1")
    expect(ranking.last.locator(".tag-resigned")).to_be_visible()
    play_again = ana_page.locator("#result [data-action=play-again]")
    expect(play_again).to_have_text(re.compile("Play again"))
    expect(ben_page.locator("#turn-banner [data-action=play-again]")).to_have_text(
        re.compile("Jugar otra vez")
    )
    shot(ana_page.locator("#result"), "result-play-again.png")

    # One click: a new table, and both pages go there.
    play_again.click()
    new_table = re.compile(r"/tables/(?!" + table_id + r")[0-9a-f]+$")
    for page in (ana_page, ben_page):
        expect(page).to_have_url(new_table)
        expect(page.locator("body")).to_have_attribute("data-status", "open")
    assert ana_page.url == ben_page.url
    seats = ben_page.locator(".waiting-seat.taken")
    expect(seats).to_have_count(3)
