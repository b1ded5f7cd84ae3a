"""What the Luz board shows: no hidden values, and only legal cards respond."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
from playwright.sync_api import expect

from tests.e2e.conftest import make_player
from tests.e2e.helpers import TURN_OR_END, my_move, seated_table


def test_a_spectator_sees_only_card_backs_of_unplayed_cards(
    new_context: Any, api: httpx.Client
) -> None:
    owner = make_player(api, "Olga")
    table_id = seated_table(api, owner, bots=2)

    watcher = new_context().new_page()
    watcher.goto(f"/tables/{table_id}")
    expect(watcher.locator(".luz.spectator")).to_be_visible()
    hands = watcher.locator(".luz-hand")
    expect(hands).to_have_count(3)
    expect(watcher.locator(".luz-hand .card.back")).to_have_count(30)
    expect(watcher.locator(".luz-hand .card.face")).to_have_count(0)
    assert watcher.locator(".luz-hand [data-card]").count() == 0
    for text in hands.all_inner_texts():
        assert not re.search(r"\d", text), text
    expect(watcher.locator("#turn-banner")).to_contain_text("Watching")
    expect(watcher.locator(".hand-mine")).to_have_count(0)

    # The player sees the others' faces, and only backs (colours) of the own hand.
    player = new_context(player=owner).new_page()
    player.goto(f"/tables/{table_id}")
    expect(player.locator(".hand-mine .card.back")).to_have_count(10)
    expect(player.locator(".hand-mine .card.face")).to_have_count(0)
    assert not re.search(r"\d", player.locator(".hand-mine").inner_text())
    expect(player.locator(".hand-faces .card.face")).to_have_count(20)
    expect(player.locator(".hand-mine .plus-marker")).to_have_count(1)
    player.screenshot(path="/tmp/partida-luz-player.png")
    watcher.screenshot(path="/tmp/partida-luz-spectator.png")


def test_only_highlighted_cards_respond_to_clicks(new_context: Any, api: httpx.Client) -> None:
    owner = make_player(api, "Iker")
    # Seat 1 (a bot) leads, so the person often has to follow a colour.
    table_id = seated_table(api, owner, bots=2, options={"first_player": 1})
    page = new_context(player=owner).new_page()
    sent: list[dict[str, Any]] = []
    page.on(
        "websocket",
        lambda ws: ws.on("framesent", lambda payload: sent.append(json.loads(payload))),
    )
    page.goto(f"/tables/{table_id}")
    for _ in range(40):
        page.wait_for_selector(TURN_OR_END)
        illegal = page.locator(".hand-mine button.card.illegal")
        if page.locator(".bet-panel").count() == 0 and illegal.count() > 0:
            break
        my_move(page)
    else:
        raise AssertionError("never had to follow a colour while holding other colours")

    version = page.get_attribute("body", "data-version")
    actions_before = sum(1 for f in sent if f.get("type") == "action")
    legal = page.locator(".hand-mine button.card.legal")
    assert legal.count() >= 1
    expect(illegal.first).to_be_disabled()
    illegal.first.click(force=True)
    page.wait_for_timeout(300)
    assert sum(1 for f in sent if f.get("type") == "action") == actions_before
    assert page.get_attribute("body", "data-version") == version
    expect(page.locator("body")).to_have_attribute("data-turn", "me")

    # The highlighted card does respond, with exactly the legal action and the version.
    slot = int(legal.first.get_attribute("data-slot") or "-1")
    legal.first.click()
    page.wait_for_function(
        "v => document.body.dataset.turn !== 'me' || document.body.dataset.version !== v",
        arg=version,
    )
    actions = [f for f in sent if f.get("type") == "action"]
    assert actions[-1]["action"] == {"type": "play_card", "slot": slot}
    assert actions[-1]["version"] == int(version or 0)


def test_the_servers_errors_are_shown_as_readable_messages(
    new_context: Any, api: httpx.Client
) -> None:
    owner = make_player(api, "Eva")
    table_id = seated_table(api, owner, bots=2, options={"first_player": 0})
    page = new_context(player=owner).new_page()
    page.goto(f"/tables/{table_id}")
    expect(page.locator("body")).to_have_attribute("data-turn", "me")
    expect(page).to_have_title(re.compile(r"^▶ Your turn"))
    # An action on an old version, as a client with a stale picture would send it.
    page.evaluate(
        """() => window.partida.socket.send({type: "action", version: 0, id: "old",
            action: {type: "place_bet", tricks: 1, safety: false}})"""
    )
    toast = page.locator(".toast-error")
    expect(toast).to_have_text("The table moved on; your view was refreshed.")
    # The page's own words: the server's English sentence is for developers (issue 18.5).
    expect(toast).not_to_contain_text("you acted on version 0")
    # The page resyncs and it is still this player's turn.
    expect(page.locator("body")).to_have_attribute("data-turn", "me")


def test_the_sorter_chooses_the_plus_side_when_the_option_is_on(
    new_context: Any, api: httpx.Client
) -> None:
    owner = make_player(api, "Sara")
    table_id = seated_table(api, owner, bots=2, options={"manual_sort_direction": True})
    page = new_context(player=owner, locale="es-ES").new_page()
    page.goto(f"/tables/{table_id}")
    panel = page.locator(".high-end-panel")
    expect(panel).to_contain_text("¿dónde va el «+»?")
    expect(panel.locator("button")).to_have_count(2)
    panel.locator("button[data-side='left']").click()
    expect(page.locator("#log-list")).to_contain_text("a la izquierda")
    # Seat 0 sorted seat 1's hand: its "+" is now drawn on the left.
    expect(page.locator(".luz-player[data-seat='1'] .plus-marker.plus-left")).to_have_count(1)


def test_strict_memory_leaves_no_older_trick_in_the_log_panel(
    new_context: Any, api: httpx.Client
) -> None:
    """With strict_memory the log panel drops the cards of a trick once it is no longer the
    last completed one, although this page saw each card played live; a reload shows the
    same. Who won each trick stays."""
    owner = make_player(api, "Mnemo")
    table_id = seated_table(api, owner, bots=2, options={"strict_memory": True})
    page = new_context(player=owner).new_page()
    page.goto(f"/tables/{table_id}")
    view: dict[str, Any] = {}
    for _ in range(60):
        page.wait_for_selector(TURN_OR_END)
        view = page.evaluate("window.partida.state.picture.view")
        if view["phase"] == "playing" and view["hidden_tricks"] >= 4:
            break
        my_move(page)
    assert view["hidden_tricks"] >= 4, view["hidden_tricks"]
    # The page received every card of the deal's tricks live ...
    live = page.evaluate("window.partida.state.log.filter((e) => e.type === 'card_played').length")
    assert live >= 15, live
    # ... and shows only the last completed trick's and the current trick's (3 seats).
    played = page.locator("#log-list li.log-card_played")
    assert played.count() <= 6, played.all_inner_texts()
    assert page.locator("#log-list li.log-trick_won").count() >= 5
    page.reload()
    page.wait_for_selector(TURN_OR_END)
    expect(page.locator("#log-list li.log-trick_won").first).to_be_visible()
    assert page.locator("#log-list li.log-card_played").count() <= 6
    assert page.locator("#log-list li.log-trick_won").count() >= 5
