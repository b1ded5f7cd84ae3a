"""MINE! in the browser: a person plays a whole 2-seat game with the dummy against a bot by
clicks, and the board shows nobody a card the view does not give them.

The package's server (conftest.py) hosts Luz and the test game only, so this module starts
its own server with the MINE! engine.
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

mine_server, mine_api, mine_context = game_fixtures("mine", "mine")


def _table(api: httpx.Client, owner: dict[str, str], **options: Any) -> str:
    return seated_table(
        api, owner, bots=1, seats=2, game="mine", options={"dummy": True, **options}
    )


def _one_move(page: Any, moves: dict[str, int], look: Any = None) -> None:
    """Answer one decision of the person by clicks, spreading the cards over the locations
    (``look(page, board=...)`` before every click, when given: see ``helpers.assert_in_view``)."""
    if look is not None:
        look(page, board=True)
    if page.locator(".mine-decision.discard").count():
        if not moves["discard"]:
            shot(page, "mine-discard.png", full_page=True)
        page.locator(".mine-hand button.mcard.discardable").first.click()
        moves["discard"] += 1
        return
    total = moves["place"] + moves["pass"]
    passing = page.locator(".mine-decision [data-action=pass]")
    if total % 9 == 8 and passing.count():
        passing.click()
        moves["pass"] += 1
        return
    cards = page.locator(".mine-hand button.mcard.legal")
    cards.nth(total % cards.count()).click()
    # Step 2 (its location) is the current one, in either language.
    expect(page.locator(".mine-decision .steps li").nth(1)).to_have_class("now")
    # The own board offers the card's locations (the docked prompt leaves its list to it).
    choices = page.locator(".mine-director.is-me button.target-btn")
    # Locations differ from card to card; every highlighted one is a legal action.
    expect(choices.first).to_be_visible()
    if look is not None:
        look(page, board=False)
    recruit = choices.and_(page.locator("[data-location=recruitment]"))
    if page.get_attribute(".mine-game", "data-round") == "1" and recruit.count():
        recruit.click()  # four recruiters: ten cards in hand, so two discards by click
    else:
        choices.nth((total * 7) % choices.count()).click()
    moves["place"] += 1


def test_a_person_plays_a_two_seat_game_with_the_dummy_against_a_bot(mine_context: Any) -> None:
    # A small laptop: at every decision the prompt and a target are in view (issue 18.1).
    page = mine_context(viewport=LAPTOP).new_page()
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))

    # The lobby: a name, MINE! for two seats (the dummy is on by default at two), a bot.
    page.goto("/")
    page.fill("#player-name", "Ana")
    page.click("form.name-form button[type=submit]")
    expect(page.get_by_test_id("whoami")).to_contain_text("Ana")
    page.select_option("#create-game", "mine")
    page.fill("#create-seats", "2")
    page.click("#create-submit")
    page.wait_for_url(re.compile(r"/tables/[0-9a-f]+$"))
    page.click("#setup [data-action=add-bot]")
    expect(page.locator("#seats .seat-name", has_text="Bot")).to_have_count(1)
    page.click("#setup [data-action=start]")

    page.wait_for_selector(TURN_OR_END)
    expect(page.locator(".mine-director")).to_have_count(3)  # two seats and the dummy
    expect(page.locator(".mine-director.dummy .dir-name")).to_contain_text("Dummy director")
    for colour in ("Red", "Blue", "Green"):
        expect(page.locator(".mine-director .dir-colour", has_text=colour)).to_have_count(1)
    expect(page.locator(".mine-gear .pawn")).to_have_count(3)
    expect(page.locator(".mine-hand button.mcard.legal")).to_have_count(8)
    shot(page, "mine-start.png", full_page=True)

    # The first card: choosing it highlights its locations on the own board too.
    page.locator(".mine-hand button.mcard.legal").first.click()
    expect(page.locator(".mine-director.is-me .loc.target")).to_have_count(4)
    expect(page.locator(".mine-director.is-me .loc-shelter .target-btn")).to_have_count(2)
    shot(page, "mine-choosing.png", full_page=True)
    page.click(".mine-decision .cancel-choice")
    expect(page.locator(".mine-director.is-me .loc.target")).to_have_count(0)

    moves = {"place": 0, "pass": 0, "discard": 0}
    shot_mid = False
    for _ in range(120):
        page.wait_for_selector(TURN_OR_END, timeout=15_000)
        if page.get_attribute("body", "data-status") == "finished":
            break
        if not shot_mid and page.locator(".mine-report").count() and moves["place"] >= 9:
            shot(page, "mine-midgame.png", full_page=True)
            shot_mid = True
        _one_move(page, moves, look=assert_in_view)
    else:
        raise AssertionError(f"the game did not end: {moves}")

    assert moves["place"] >= 8 and moves["discard"] >= 1, moves
    expect(page.locator("#result")).to_be_visible()
    # The shell's ranking: both seats and the dummy, each in its place (issue 18.7).
    expect(page.locator("#result .ranking .rank-row")).to_have_count(3)
    expect(page.locator("#result .ranking .rank-row", has_text="Ana")).to_have_count(1)
    expect(page.locator("#result .ranking .rank-row[data-other='dummy']")).to_have_text(
        re.compile("Dummy director")
    )
    # The dummy is ranked on the board, under its own label, with its score.
    final = page.get_by_test_id("mine-final")
    expect(final.locator("li")).to_have_count(3)
    dummy = final.locator("li.dummy")
    expect(dummy).to_have_count(1)
    expect(dummy).to_contain_text("Dummy director")
    expect(dummy.locator(".final-score")).to_have_text(re.compile(r"^\d+ pts$"))
    expect(page.locator("#log-list")).to_contain_text("Game over")
    expect(page.locator("#log-list")).to_contain_text("sells")
    expect(
        page.locator("#log-list li", has_text=re.compile(r"[Ee]xtraction \d+"))
    ).not_to_have_count(0)
    shot(page, "mine-end.png", full_page=True)
    assert not problems, problems
    # About 20 s on an idle machine; the bound leaves room for a loaded CI runner.


@pytest.mark.parametrize(("viewport", "locale"), SIZES_AND_LANGUAGES)
def test_the_decision_and_a_target_are_always_in_view(
    mine_context: Any, mine_api: httpx.Client, viewport: dict[str, int], locale: str
) -> None:
    """Issue 18.1: the hand and the choice sit in the bar docked at the bottom of the phone;
    every decision of a whole game (a card, then its location), read before each click."""
    owner = make_player(mine_api, "Lucía")
    table_id = _table(mine_api, owner, first_player=0)
    page = mine_context(locale=locale, player=owner, viewport=viewport).new_page()
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.goto(f"/tables/{table_id}")
    moves = {"place": 0, "pass": 0, "discard": 0}

    def look(page: Any, board: bool = True) -> None:
        assert_in_view(page, board=board)
        # the second card chosen: its locations offered
        if not board and moves["place"] == 1 and (viewport, locale) == (PHONE, "es-ES"):
            shot(page, "mine-decision-phone.png")

    for _ in range(120):
        page.wait_for_selector(TURN_OR_END, timeout=15_000)
        if page.get_attribute("body", "data-status") == "finished":
            break
        _one_move(page, moves, look=look)
    else:
        raise AssertionError(f"the game did not end: {moves}")
    assert moves["place"] >= 8 and moves["discard"] >= 1, moves
    expect(page.locator("#turn-banner")).to_contain_text(GAME_OVER[locale])
    assert_no_sideways_scroll(page, "the result")  # issue 35.3
    assert not problems, problems


def _data_cards(page: Any, selector: str) -> list[int]:
    return [
        int(x)
        for x in page.locator(f"{selector} [data-card]").evaluate_all(
            "els => els.map(e => e.dataset.card)"
        )
    ]


def test_nobody_sees_a_card_the_view_does_not_give_them(
    mine_context: Any, mine_api: httpx.Client
) -> None:
    owner = make_player(mine_api, "Olga")
    # The bot holds the die: it and the dummy place face down before Olga's turn.
    table_id = _table(mine_api, owner, first_player=1)
    state_url = f"/tables/{table_id}/state"
    for _ in range(50):
        state = mine_api.get(state_url, headers=auth(owner)).json()
        if 0 in state["to_act"]:
            break
        time.sleep(0.1)
    place = next(
        a for a in state["legal_actions"] if a["type"] == "place" and a["location"] == "mine"
    )
    mine_api.post(
        f"/tables/{table_id}/actions",
        json={"version": state["version"], "action": place},
        headers=auth(owner),
    ).raise_for_status()
    for _ in range(50):
        state = mine_api.get(state_url, headers=auth(owner)).json()
        if 0 in state["to_act"]:
            break
        time.sleep(0.1)
    mine_view = state["view"]
    public = mine_api.get(state_url).json()["view"]
    placed_by_others = sum(d["placed_count"] for d in public["directors"] if d["seat"] != 0)
    assert placed_by_others >= 2

    # The spectator: only card backs on the boards, no hand; the pile top is public.
    watcher = mine_context(locale="es-ES").new_page()
    watcher.goto(f"/tables/{table_id}")
    expect(watcher.locator(".mine-game.spectator")).to_be_visible()
    expect(watcher.locator(".mine-hand")).to_have_count(0)
    total_placed = sum(d["placed_count"] for d in public["directors"])
    expect(watcher.locator(".mine-director .mcard.back")).to_have_count(total_placed)
    assert _data_cards(watcher, ".mine-director") == []
    shown = set(_data_cards(watcher, ".mine-game"))
    assert shown <= set(public["discard_pile"]), shown
    expect(watcher.locator(".mine-status")).to_contain_text("Ronda")
    for word in ("Minero", "Entibador", "Capataz", "Vigilante", "Matón", "Ingeniero", "ATQ"):
        expect(watcher.locator(".mine-director", has_text=word)).to_have_count(0)
    shot(watcher, "mine-spectator-es.png", full_page=True)

    # The player: her hand and her own face-down card, nothing of the others'.
    page = mine_context(player=owner).new_page()
    page.goto(f"/tables/{table_id}")
    expect(page.locator(".mine-hand button.mcard")).to_have_count(len(mine_view["hand"]))
    assert sorted(_data_cards(page, ".mine-hand")) == sorted(mine_view["hand"])
    own = _data_cards(page, ".mine-director.is-me .locations")
    assert own == [place["card"]]
    expect(page.locator(".mine-director.is-me .mcard.secret")).to_have_count(1)
    assert _data_cards(page, ".mine-others") == []
    expect(page.locator(".mine-others .mcard.back")).to_have_count(placed_by_others)
    visible = set(_data_cards(page, ".mine-game"))
    assert visible <= set(mine_view["hand"]) | {place["card"]} | set(mine_view["discard_pile"])
    # The raid stacks name their victims publicly (the colour card), never the cards.
    for d in public["directors"]:
        for stack in d["stacks"]:
            board = page.locator(f".mine-director[data-director='{d['director']}']")
            expect(
                board.locator(f".raid-stack[data-victim='{stack['victim']}'] .mcard.back")
            ).to_have_count(stack["size"])

    page.set_viewport_size({"width": 1024, "height": 800})
    shot(page, "mine-tablet.png", full_page=True)
    # A phone: the same board, one column, the hand and the decision still reachable.
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator(".mine-hand button.mcard.legal").first.click()
    # The card's locations are offered on the own board, above the docked hand.
    expect(page.locator(".mine-director.is-me button.target-btn").first).to_be_visible()
    shot(page.locator(".mine-decision"), "mine-phone-decision.png")
    shot(page, "mine-phone.png", full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 400, width


def test_four_directors_with_the_die_card_variant(
    mine_context: Any, mine_api: httpx.Client
) -> None:
    owner = make_player(mine_api, "Iker")
    table_id = seated_table(
        mine_api, owner, bots=3, seats=4, game="mine", options={"variant": True, "first_player": 2}
    )
    page = mine_context(locale="es-ES", player=owner).new_page()
    page.goto(f"/tables/{table_id}")
    page.wait_for_selector(TURN_OR_END)
    expect(page.locator(".mine-director")).to_have_count(4)
    expect(page.locator(".mine-director.dummy")).to_have_count(0)
    expect(page.locator(".mine-central .die-card")).to_have_count(1)
    expect(page.locator(".mine-status")).to_contain_text("Mina máx.")
    # Three directors placed before Iker: their cards are backs, with a 3-coal start.
    expect(page.locator(".mine-others .mcard.back")).to_have_count(2)
    expect(page.locator(".mine-director[data-director='0'] .stock")).to_have_attribute(
        "data-stock", "3"
    )
    shot(page, "mine-variant-4-seats.png", full_page=True)
