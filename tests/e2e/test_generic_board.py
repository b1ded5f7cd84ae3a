"""A game without its own renderer is still playable: the shell falls back to the generic board."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import expect

from tests.e2e.conftest import make_player
from tests.e2e.helpers import TURN_OR_END, seated_table


def test_a_game_without_a_renderer_is_played_with_the_generic_board(
    new_context: Any, api: httpx.Client
) -> None:
    owner = make_player(api, "Gil")
    table_id = seated_table(api, owner, bots=1, seats=2, game="pick", options={"pile": 6})
    page = new_context(player=owner).new_page()
    page.goto(f"/tables/{table_id}")
    expect(page.locator(".generic-view")).to_be_visible()
    for _ in range(20):
        page.wait_for_selector(TURN_OR_END)
        if page.get_attribute("body", "data-status") == "finished":
            break
        buttons = page.locator(".generic-actions button")
        expect(buttons.first).to_be_enabled()
        buttons.first.click()
    else:
        raise AssertionError("the game did not end")
    expect(page.locator("#result .ranking .rank-row")).to_have_count(2)
    expect(page.locator("#log-list li").first).not_to_have_text("Nothing has happened yet.")
