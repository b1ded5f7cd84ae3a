"""Ginkgopolis in the browser: a person plays a complete solo game against Hal by clicks, and
the board shows nobody a card or a tile the view does not give them.

The package's server (conftest.py) hosts Luz and the test game only, so this module starts
its own server with the Ginkgopolis engine.
"""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import auth, make_player
from tests.e2e.helpers import (
    GAME_OVER,
    LAPTOP,
    PHONE,
    SIZES_AND_LANGUAGES,
    TURN_OR_END,
    assert_in_view,
    assert_no_sideways_scroll,
    game_fixtures,
    seated_table,
    shot,
)

gk_server, gk_api, gk_context = game_fixtures("ginkgopolis", "gk")


_DECISION = "() => [document.querySelector('.gk-decision')?.classList[1] ?? null, document.body.dataset.version]"


def _one_move(page: Any, moves: dict[str, int], shots: set[str], look: Any = None) -> None:
    """Answer one decision of the person by clicks.

    Every third selection adds a tile (urbanize or build up) when one is offered; the others
    exploit, preferring blue buildings and tiles. ``look(page, board=...)`` runs before every
    click, when given (see ``helpers.assert_in_view``).
    """
    if look is not None:
        look(page, board=True)
    kind, before = page.evaluate(_DECISION)
    if kind == "select":
        n = moves["select"]
        legal = ".gk-hand button.gk-card.legal"
        if n % 3 == 1:
            page.locator(legal).first.click()
        else:
            page.locator(f"{legal}.c-B, {legal}.urb, {legal}").first.click()
        if n < 2:
            # Step 2 (alone or with a tile) is the current one, in either language.
            expect(page.locator(".gk-decision .gk-steps li").nth(1)).to_have_class("now")
            # The armed card's target is outlined in the city (a building or a token site).
            expect(page.locator(".gk-city .target")).to_have_count(1)
        tiles = page.locator(".gk-screen button.gk-tile.legal")
        expect(page.locator(".gk-decision .gk-cancel")).to_be_visible()  # the card is armed
        if look is not None:
            look(page, board=False)
        count = tiles.count()
        if "choosing" not in shots and count:
            shot(page, "ginkgopolis-choosing.png", full_page=True)
            shots.add("choosing")
        if n % 3 == 1 and count:
            tiles.nth(n % count).click()
            moves["with_tile"] += 1
        else:
            page.click(".gk-decision .gk-alone")
            moves["alone"] += 1
        moves["select"] += 1
    elif kind == "take":
        page.locator(
            ".gk-decision.take button[data-item=tile], .gk-decision.take button"
        ).first.click()
        moves["take"] += 1
    elif kind == "move":
        if "move" not in shots:
            shot(page, "ginkgopolis-token-move.png", full_page=True)
            assert (
                page.locator(".gk-city button.gk-move").count()
                == page.locator(".gk-decision.move button.gk-move-btn").count()
            )
            shots.add("move")
        page.locator(".gk-city button.gk-move").first.click()
        moves["move"] += 1
    else:
        raise AssertionError(f"my turn, but no decision panel on the board: {kind}")
    page.wait_for_function(
        "v => document.body.dataset.version !== v || document.body.dataset.status === 'finished'",
        arg=before,
    )


def test_a_person_plays_a_complete_solo_game_against_hal(
    gk_context: Any, gk_api: httpx.Client
) -> None:
    owner = make_player(gk_api, "Ana")
    table_id = seated_table(gk_api, owner, bots=0, seats=1, game="ginkgopolis")
    # A small laptop: at every decision the prompt and a target are in view (issue 18.1).
    page = gk_context(player=owner, viewport=LAPTOP).new_page()
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.goto(f"/tables/{table_id}")

    page.wait_for_selector(TURN_OR_END)
    # The starting city: 9 tiles and 12 lettered tokens; Hal's card lies face down.
    expect(page.locator(".gk-city .gk-building")).to_have_count(9)
    expect(page.locator(".gk-city .gk-site")).to_have_count(12)
    expect(page.locator(".gk-player.hal")).to_contain_text("Hal")
    expect(page.locator(".gk-spot[data-player='1'] .gk-card.back")).to_have_count(1)
    expect(page.locator(".gk-hand button.gk-card")).to_have_count(3)
    expect(page.locator(".gk-screen button.gk-tile")).to_have_count(6)
    expect(page.locator(".gk-player.is-me .gk-sp")).to_have_text("6 SP")
    shot(page, "ginkgopolis-start.png", full_page=True)

    # Arming a card and changing one's mind: nothing is sent.
    version = page.get_attribute("body", "data-version")
    page.locator(".gk-hand button.gk-card.legal").first.click()
    expect(page.locator(".gk-decision .gk-alone")).to_be_visible()
    page.click(".gk-decision .gk-cancel")
    expect(page.locator(".gk-decision .gk-alone")).to_have_count(0)
    expect(page.locator(".gk-city .target")).to_have_count(0)
    assert page.get_attribute("body", "data-version") == version

    moves = {"select": 0, "alone": 0, "with_tile": 0, "take": 0, "move": 0}
    shots: set[str] = set()
    for _ in range(150):
        if (
            page.wait_for_selector(TURN_OR_END, timeout=15_000).get_attribute("data-status")
            == "finished"
        ):
            break
        if moves["select"] == 6 and "mid" not in shots:
            shot(page, "ginkgopolis-midgame.png", full_page=True)
            shots.add("mid")
        _one_move(page, moves, shots, look=assert_in_view)
    else:
        raise AssertionError(f"the game did not end: {moves}")

    assert moves["select"] >= 5 and moves["with_tile"] >= 2 and moves["alone"] >= 1, moves
    # The final result: the shell's ranking and the board's breakdown against Hal.
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#result .ranking .rank-row")).to_have_count(2)  # you and Hal
    expect(page.locator(".gk-final")).to_be_visible()
    expect(page.locator(".gk-final tbody tr")).to_have_count(2)
    expect(page.locator(".gk-final tbody tr", has_text="Hal")).to_have_count(1)
    expect(page.locator(".gk-final h3")).to_have_text(
        re.compile("You beat Hal!|Hal wins this time.")
    )
    log = page.locator("#log-list")
    expect(log).to_contain_text("Game over")
    expect(log).to_contain_text("Hal reveals")
    # Both final score lines, with their sums (district and card lines also hold " = ").
    final_score = re.compile(r"SP \+ \d+ from districts \+ \d+ from cards \+ \d+ from tokens = \d+")
    expect(log.locator("li", has_text=final_score)).to_have_count(2)
    # The districts as scored at the end, and the colour stacks, open on demand.
    page.click(".gk-districts summary")
    expect(page.locator(".gk-districts li").first).to_be_visible()
    shot(page, "ginkgopolis-end.png", full_page=True)
    assert not problems, problems


@pytest.mark.parametrize(("viewport", "locale"), SIZES_AND_LANGUAGES)
def test_the_decision_and_a_target_are_always_in_view(
    gk_context: Any, gk_api: httpx.Client, viewport: dict[str, int], locale: str
) -> None:
    """Issue 18.1: the selection steps, the hand and the screen sit in the bar docked at the
    bottom of the phone, the city above it; every decision of a solo game, before each click."""
    owner = make_player(gk_api, "Lucía")
    table_id = seated_table(gk_api, owner, bots=0, seats=1, game="ginkgopolis")
    page = gk_context(locale=locale, player=owner, viewport=viewport).new_page()
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.goto(f"/tables/{table_id}")
    moves = {"select": 0, "alone": 0, "with_tile": 0, "take": 0, "move": 0}
    shots = {"choosing", "move", "mid"}  # the laptop game takes those

    def look(page: Any, board: bool = True) -> None:
        assert_in_view(page, board=board)
        # a card armed: play it alone or with a tile
        if not board and moves["select"] == 1 and (viewport, locale) == (PHONE, "es-ES"):
            shot(page, "ginkgopolis-decision-phone.png")

    for _ in range(150):
        page.wait_for_selector(TURN_OR_END, timeout=15_000)
        if page.get_attribute("body", "data-status") == "finished":
            break
        _one_move(page, moves, shots, look=look)
    else:
        raise AssertionError(f"the game did not end: {moves}")
    assert moves["select"] >= 5 and moves["with_tile"] >= 2, moves
    expect(page.locator("#turn-banner")).to_contain_text(GAME_OVER[locale])
    assert_no_sideways_scroll(page, "the result")  # issue 35.3
    assert not problems, problems


def _attr_values(page: Any, scope: str, attr: str) -> list[str]:
    return list(
        page.locator(f"{scope} [{attr}]").evaluate_all(
            f"els => els.map(e => e.getAttribute('{attr}'))"
        )
    )


def _public_cards(view: dict[str, Any]) -> set[str]:
    shown: set[str] = set()
    for p in view["players"]:
        shown |= set(p["characters"]) | set(p["tableau"])
        if p["revealed"]:
            shown.add(p["revealed"]["card"])
    if view["decision"]:
        shown.add(view["decision"]["card"])
    return shown


def _public_tiles(view: dict[str, Any]) -> set[str]:
    return {
        p["revealed"]["tile"] for p in view["players"] if p["revealed"] and p["revealed"]["tile"]
    }


def test_nobody_sees_a_card_or_tile_the_view_does_not_give_them(
    gk_context: Any, gk_api: httpx.Client
) -> None:
    owner = make_player(gk_api, "Olga")
    # Two seats (Olga and a bot): hands, screens and secret selections exist on both sides.
    table_id = seated_table(gk_api, owner, bots=1, seats=2, game="ginkgopolis")
    state_url = f"/tables/{table_id}/state"
    state: dict[str, Any] = {}
    for _ in range(100):
        state = gk_api.get(state_url, headers=auth(owner)).json()
        if 0 in state["to_act"] and any(a["type"] == "select" for a in state["legal_actions"]):
            if state["view"]["players"][1]["has_selected"]:
                break
        elif 0 in state["to_act"]:
            # the New Hand window: keep the hand
            keep = next(a for a in state["legal_actions"] if a["type"] == "keep_hand")
            answer = gk_api.post(
                f"/tables/{table_id}/actions",
                json={"version": state["version"], "action": keep},
                headers=auth(owner),
            )
            assert answer.status_code in (200, 409), answer.text  # 409: the bot moved first
            continue
        time.sleep(0.05)
    mine = state["view"]
    me, bot = mine["players"][0], mine["players"][1]
    assert bot["has_selected"] and bot["hand"] is None and bot["tiles"] is None
    public = gk_api.get(state_url).json()["view"]

    # The spectator: no hand, no screen, only public cards; the bot's choice is a card back.
    watcher = gk_context(locale="es-ES").new_page()
    watcher.goto(f"/tables/{table_id}")
    expect(watcher.locator(".gk-root.spectator")).to_be_visible()
    expect(watcher.locator(".gk-hand")).to_have_count(0)
    expect(watcher.locator(".gk-screen")).to_have_count(0)
    assert set(_attr_values(watcher, ".gk-root", "data-card")) <= _public_cards(public)
    assert set(_attr_values(watcher, ".gk-root", "data-tile")) <= _public_tiles(public)
    expect(watcher.locator(".gk-spot[data-player='1'] .gk-card.back")).to_have_count(1)
    expect(watcher.locator(".gk-spot[data-player='1']")).to_contain_text("ya ha elegido")
    expect(watcher.locator(".gk-status")).to_contain_text("Ronda")
    shot(watcher, "ginkgopolis-spectator-es.png", full_page=True)

    # The player: exactly her hand and her tiles; of the bot only counts and its tableau.
    page = gk_context(player=owner).new_page()
    page.goto(f"/tables/{table_id}")
    page.wait_for_selector(TURN_OR_END)
    assert sorted(_attr_values(page, ".gk-hand", "data-card")) == sorted(me["hand"])
    assert sorted(_attr_values(page, ".gk-screen", "data-tile")) == sorted(me["tiles"])
    allowed_cards = set(me["hand"]) | _public_cards(mine)
    assert set(_attr_values(page, ".gk-root", "data-card")) <= allowed_cards
    assert set(_attr_values(page, ".gk-root", "data-tile")) <= set(me["tiles"]) | _public_tiles(
        mine
    )
    bot_panel = page.locator(".gk-player[data-player='1']")
    expect(bot_panel.locator(".gk-stat.tiles")).to_contain_text(str(bot["tile_count"]))
    expect(bot_panel.locator(".gk-stat.hand")).to_contain_text(str(bot["hand_count"]))
    expect(page.locator(".gk-spot[data-player='1'] .gk-card.back")).to_have_count(1)
    shot(page, "ginkgopolis-two-players.png", full_page=True)

    # A phone: one column, the hand and the decision reachable, no sideways scrolling.
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator(".gk-hand button.gk-card.legal").first.click()
    expect(page.locator(".gk-decision .gk-alone")).to_be_visible()
    shot(page, "ginkgopolis-phone.png", full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 400, width
