"""A person plays Luz in the browser, by clicks only, against two bots."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import (
    GAME_OVER,
    LAPTOP,
    PHONE,
    SIZES_AND_LANGUAGES,
    TURN_OR_END,
    assert_in_view,
    assert_no_sideways_scroll,
    play_to_the_end,
    shot,
)


def test_a_new_user_creates_a_luz_table_and_plays_it_to_the_end(new_context: Any) -> None:
    # A small laptop: at every decision the prompt and a target are in view (issue 18.1).
    page = new_context(viewport=LAPTOP).new_page()
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))

    page.goto("/")
    page.fill("#player-name", "Ana")
    page.click("form.name-form button[type=submit]")
    expect(page.get_by_test_id("whoami")).to_contain_text("Ana")
    page.select_option("#create-game", "luz")
    page.fill("#create-seats", "3")
    page.click("#create-submit")
    page.wait_for_url(re.compile(r"/tables/[0-9a-f]+$"))

    expect(page.locator("#seats .seat-row")).to_have_count(3)
    page.click("#setup [data-action=add-bot]")
    expect(page.locator("#seats .seat-name", has_text="Bot")).to_have_count(1)
    page.click("#setup [data-action=add-bot]")
    expect(page.locator("#seats .seat-name", has_text="Bot")).to_have_count(2)
    page.click("#setup [data-action=start]")
    page.wait_for_selector(TURN_OR_END)
    if page.get_attribute("body", "data-turn") == "me":
        expect(page).to_have_title(re.compile(r"^▶ Your turn"))
    page.screenshot(path="/tmp/partida-luz-start.png")

    moves = play_to_the_end(page, look=assert_in_view)

    assert moves["bet"] == 4 and moves["card"] == 40, moves
    expect(page.locator("#result")).to_be_visible()
    ranking = page.locator("#result .ranking .rank-row")
    expect(ranking).to_have_count(3)
    expect(ranking.filter(has_text="Ana")).to_have_count(1)
    expect(page.locator("#turn-banner")).to_contain_text("Game over")
    expect(page.locator(".luz-sheet tbody tr")).to_have_count(4)
    expect(page.locator("#log-list")).to_contain_text("Game over after 4 deals")
    page.screenshot(path="/tmp/partida-luz-end.png", full_page=True)

    # A reload shows the same ending, with the log rebuilt from the server.
    page.reload()
    expect(page.locator("#result .ranking .rank-row")).to_have_count(3)
    expect(page.locator("#log-list")).to_contain_text("Deal 4 scored")
    expect(page.locator("#log-list")).to_contain_text("Game over after 4 deals")
    assert not problems, problems


@pytest.mark.parametrize(("viewport", "locale"), SIZES_AND_LANGUAGES)
def test_a_user_plays_luz_to_the_end_at_each_size_and_language(
    new_context: Any, viewport: dict[str, int], locale: str
) -> None:
    """The same game on a phone in Spanish (the laptop in English is the game above): every
    control reachable by clicks, the page's language throughout, and nothing wider than the
    screen."""
    page = new_context(locale=locale, viewport=viewport).new_page()
    width = viewport["width"]
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))

    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", locale[:2])
    page.fill("#player-name", "Lucía")
    page.click("form.name-form button[type=submit]")
    expect(page.get_by_test_id("whoami")).to_contain_text("Lucía")
    page.select_option("#create-game", "luz")
    page.fill("#create-seats", "3")
    page.click("#create-submit")
    page.wait_for_url(re.compile(r"/tables/[0-9a-f]+$"))
    page.click("#setup [data-action=add-bot]")
    expect(page.locator("#seats .seat-name", has_text="Bot")).to_have_count(1)
    page.click("#setup [data-action=add-bot]")
    expect(page.locator("#seats .seat-name", has_text="Bot")).to_have_count(2)
    page.click("#setup [data-action=start]")
    page.wait_for_selector(TURN_OR_END)
    assert _page_width(page) <= width, "the table is wider than the screen"

    def look(page: Any, board: bool = True) -> None:
        """Issue 18.1: the bet panel docked at the bottom, the own cards above it."""
        assert_in_view(page, board=board)
        # the first bet being composed
        if not board and not looked and (viewport, locale) == (PHONE, "es-ES"):
            shot(page, "luz-decision-phone.png")
            looked.append(True)

    looked: list[bool] = []
    moves = play_to_the_end(page, look=look)

    assert moves["bet"] == 4 and moves["card"] == 40, moves
    expect(page.locator("#result .ranking .rank-row")).to_have_count(3)
    expect(page.locator("#turn-banner")).to_contain_text(GAME_OVER[locale])
    if locale == "es-ES":
        expect(page.locator("#log-list")).not_to_contain_text("Game over after 4 deals")
    assert _page_width(page) <= width, "the result is wider than the screen"
    assert_no_sideways_scroll(page, "the result")  # issue 35.3
    assert not problems, problems


def _page_width(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))
