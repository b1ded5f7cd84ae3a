"""Targets a thumb can hit (issue 35.4): on a table of each game in play, at 390×844 and
1366×768 in Spanish and English, every legal target and every control of the decision prompt
is at least 24×24 CSS px, and at least 44 px tall in the prompt docked on a phone — before the
first click of a decision and after it (a card armed, its targets offered), for a few
decisions in a row (``helpers.assert_targets_hit``; each game's by-click test checks every
decision of a whole game the same way through ``assert_in_view``).

One server with the four games for the module; its tables are played a few moves in through
the API (random legal actions, random bots) before any page loads.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from tests.e2e.conftest import make_player
from tests.e2e.helpers import (
    LAPTOP,
    PHONE,
    TURN_OR_END,
    assert_targets_hit,
    context_factory,
    games_server,
    played_tables,
)

GAMES = (("ginkgopolis", 1), ("gluckauf", 2), ("mine", 2), ("luz", 3))
VIEWS = ("phone-en-GB", "laptop-es-ES")


@pytest.fixture(scope="module")
def tg_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    yield from games_server(tmp_path_factory, tuple(g for g, _ in GAMES))


@pytest.fixture
def tg_context(browser: Any, tg_server: Any) -> Iterator[Any]:
    yield from context_factory(browser, tg_server)


@pytest.fixture(scope="module")
def tg_tables(tg_server: Any) -> dict[str, Any]:
    import httpx

    url = tg_server.url + "/api/v1"
    with httpx.Client(base_url=url, timeout=30) as api:
        ana = make_player(api, "Ana")
    # A table per test (each makes moves): two per game.
    plans = [(g, seats, view) for g, seats in GAMES for view in VIEWS]
    with ThreadPoolExecutor(len(GAMES)) as pool:
        done = pool.map(lambda p: played_tables(url, ana, p[0], p[1], finished=False), plans)
        tables = {(g, v): ids["playing"] for (g, _, v), ids in zip(plans, done, strict=True)}
    return {"ana": ana, "tables": tables}


# The first legal target the prompt or the hand offers (a card to arm, a bet, a space).
_FIRST = "#board [data-decision] .legal:not(:disabled), #board .legal:not(:disabled)"


# The by-click tests measure every target of every decision of a whole game on a phone in
# Spanish and a laptop in English (assert_in_view): here the other two combinations.
@pytest.mark.parametrize(
    ("size", "locale"),
    [pytest.param(PHONE, "en-GB", id="phone-en"), pytest.param(LAPTOP, "es-ES", id="laptop-es")],
)
@pytest.mark.parametrize("game", [g for g, _ in GAMES])
def test_every_target_is_big_enough_to_hit(
    tg_context: Any, tg_tables: dict[str, Any], game: str, size: dict[str, int], locale: str
) -> None:
    page = tg_context(locale=locale, player=tg_tables["ana"], viewport=size).new_page()
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    view = f"{'phone' if size == PHONE else 'laptop'}-{locale}"
    page.goto(f"/tables/{tg_tables['tables'][game, view]}")
    checked = 0
    for _ in range(4):
        page.wait_for_selector(TURN_OR_END, timeout=15_000)
        if page.get_attribute("body", "data-status") == "finished":
            break
        seen = assert_targets_hit(page)
        checked += seen["count"]
        version = page.get_attribute("body", "data-version")
        page.locator(_FIRST).first.click()
        # Either the click armed something (its targets now offered) or the move was sent.
        page.wait_for_function(
            "v => document.body.dataset.version !== v || document.querySelector('#board .armed,"
            " #board .selected, #board [aria-pressed=true], #board .target')",
            arg=version,
        )
        if page.get_attribute("body", "data-version") == version:
            checked += assert_targets_hit(page)["count"]
            page.locator(_FIRST).last.click()
    assert checked, "no target was offered"
    assert not problems, problems
