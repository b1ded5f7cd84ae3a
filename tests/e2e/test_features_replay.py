"""A finished game: the replay page steps through it from several points of view, the table
page links to it and shows the revealed seed, and the player page lists the game."""

from __future__ import annotations

import os
import time
from typing import Any

import httpx
from playwright.sync_api import expect

from tests.e2e.conftest import auth, make_player
from tests.e2e.helpers import seated_table

SHOTS = os.environ.get("PARTIDA_SHOTS")


def _play_pick_to_the_end(api: httpx.Client, table_id: str, players: list[dict[str, str]]) -> int:
    """Both players take one token per turn through the REST API; returns the final version."""
    for _ in range(60):
        for player in players:
            state = api.get(f"/tables/{table_id}/state", headers=auth(player)).json()
            if state["status"] == "finished":
                return int(state["version"])
            takes = [a for a in state["legal_actions"] if a["type"] == "take"]
            if takes:
                body = {"version": state["version"], "action": takes[0]}
                api.post(
                    f"/tables/{table_id}/actions", json=body, headers=auth(player)
                ).raise_for_status()
    raise AssertionError("the game did not end")


def test_a_finished_game_has_a_replay_and_shows_on_the_player_page(
    new_context: Any, api: httpx.Client
) -> None:
    ana = make_player(api, "Ana")
    ben = make_player(api, "Ben")
    table_id = seated_table(
        api, ana, others=(ben,), bots=0, seats=2, game="pick", options={"pile": 5}
    )
    final = _play_pick_to_the_end(api, table_id, [ana, ben])
    assert final == 6  # the initial position + five takes of one token
    table = api.get(f"/tables/{table_id}").json()
    ana_seat = next(s["seat"] for s in table["seats"] if s["player"]["id"] == ana["id"])

    # The table page: the result links to the replay; the seed is revealed with the command.
    page = new_context(player=ana).new_page()
    page.goto(f"/tables/{table_id}")
    expect(page.locator("body")).to_have_attribute("data-status", "finished")
    page.click("[data-testid=fair-verify] summary")
    expect(page.locator("[data-testid=fair-verify] .fair-command")).to_contain_text(
        f"/api/v1/tables/{table_id} --commitment {table['seed_commitment']}"
    )
    secret = api.get(f"/tables/{table_id}/replay").json()["seed_secret"]
    expect(page.locator(".fair-secret")).to_have_text(secret)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/table-finished.png", full_page=True)
    page.click("#result [data-action=replay]")

    # The replay: Ana's own point of view first, at the starting position.
    expect(page).to_have_url(f"{page.url.split('/replays/')[0]}/replays/{table_id}")
    expect(page.locator("body")).to_have_attribute("data-status", "ready")
    expect(page.locator("#perspective")).to_have_value(str(ana_seat))
    expect(page.locator("[data-testid=replay-step]")).to_have_text("Step 1 of 6")
    expect(page.locator("[data-testid=step-action]")).to_have_text("Starting position")
    expect(page.locator("#replay-prev")).to_be_disabled()
    page.click("#replay-next")
    expect(page.locator("[data-testid=replay-step]")).to_have_text("Step 2 of 6")
    # The game's own line for the action (the server's, in the page's language), not its JSON.
    expect(page.locator("[data-testid=step-action]")).to_contain_text("played: take 1")
    expect(page.locator("#board")).to_contain_text("pile")
    expect(page.locator("#board .generic-view")).to_contain_text("4")
    page.keyboard.press("ArrowRight")
    expect(page.locator("body")).to_have_attribute("data-version", "3")
    page.click("#replay-prev")
    expect(page.locator("body")).to_have_attribute("data-version", "2")
    page.click("#replay-last")
    expect(page.locator("[data-testid=replay-step]")).to_have_text("Step 6 of 6")
    expect(page.locator("#replay-next")).to_be_disabled()
    # A game without a renderer of its own: the server's readable line, as on the table page.
    expect(page.locator("#log-list li.current").first).to_contain_text("takes 1; 0 left")
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/replay-seat.png", full_page=True)

    # Full information: the whole state, every bonus card included.
    page.select_option("#perspective", "full")
    expect(page.locator("body")).to_have_attribute("data-perspective", "full")
    expect(page.locator("body")).to_have_attribute("data-status", "ready")
    expect(page.locator(".replay-full-note")).to_be_visible()
    expect(page.locator("#board")).to_contain_text("bonuses")
    expect(page.locator("[data-testid=replay-step]")).to_have_text("Step 6 of 6")
    page.click("#replay-first")
    expect(page.locator("body")).to_have_attribute("data-version", "1")
    # The spectator sees no private bonus card in the log.
    page.select_option("#perspective", "spectator")
    expect(page.locator("body")).to_have_attribute("data-perspective", "spectator")
    page.click("#replay-next")
    expect(page.locator("#log-list")).not_to_contain_text("bonus")
    # Autoplay runs to the end by itself (from the next-to-last step, to keep it short).
    page.click("#replay-last")
    page.click("#replay-prev")
    expect(page.locator("body")).to_have_attribute("data-version", "5")
    page.click("#replay-play")
    expect(page.locator("#replay-play")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("body")).to_have_attribute("data-version", "6", timeout=10_000)
    expect(page.locator("#replay-play")).to_have_attribute("aria-pressed", "false")
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/replay-spectator.png", full_page=True)

    # In Spanish, with the seat names in the selector.
    es = new_context(locale="es-ES").new_page()
    es.goto(f"/replays/{table_id}?perspective=full&v=2")
    expect(es.locator("[data-testid=replay-step]")).to_have_text("Paso 2 de 6")
    expect(es.locator("#perspective option")).to_contain_text(
        ["Información completa", "Espectador", "Lo que vio", "Lo que vio"]
    )
    expect(es.locator("#perspective option[value='0']")).to_contain_text(
        table["seats"][0]["player"]["name"]
    )
    if SHOTS:
        phone = new_context(locale="es-ES", viewport={"width": 390, "height": 800}).new_page()
        phone.goto(f"/replays/{table_id}?perspective=0&v=3")
        expect(phone.locator("[data-testid=replay-step]")).to_have_text("Paso 3 de 6")
        phone.screenshot(path=f"{SHOTS}/replay-phone.png", full_page=True)

    # The player page: the game with Ana's place and score, her rating, the leaderboard.
    places = table["result"]["places"]
    place = places[str(ana_seat)]
    player = new_context(player=ana).new_page()
    player.goto(f"/players/{ana['id']}")
    expect(player.locator("[data-testid=player-name]")).to_contain_text("Ana")
    expect(player.locator("[data-testid=player-stats]")).to_contain_text("Games played: 1")
    row = player.locator(f"[data-testid=history] li[data-table-id='{table_id}']")
    expect(row.locator("[data-testid=place]")).to_contain_text(f"place {place} of 2")
    expect(row.locator("a[data-action=replay]")).to_have_attribute("href", f"/replays/{table_id}")
    rating = api.get(f"/players/{ana['id']}").json()["ratings"][0]
    expect(player.locator("[data-testid=ratings] tr[data-game='pick'] .rating-cell")).to_have_text(
        str(round(rating["rating"]))
    )
    board = player.locator("[data-testid=leaderboard]")
    expect(board.locator(f"li[data-player-id='{ana['id']}']")).to_have_class("leader-row mine")
    expect(board.locator(f"li[data-player-id='{ben['id']}']")).to_contain_text("Ben")
    if SHOTS:
        player.screenshot(path=f"{SHOTS}/player.png", full_page=True)
    row.locator("a[data-action=replay]").click()
    expect(player.locator("[data-testid=replay-step]")).to_have_text("Step 1 of 6")


def test_the_replay_draws_each_step_with_the_games_own_renderer(
    new_context: Any, api: httpx.Client
) -> None:
    ana = make_player(api, "Ana")
    table_id = seated_table(api, ana, bots=2, options={"first_player": 0})
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline:  # Ana plays her first legal action; the bots answer
        state = api.get(f"/tables/{table_id}/state", headers=auth(ana)).json()
        if state["status"] == "finished":
            break
        if state["legal_actions"]:
            body = {"version": state["version"], "action": state["legal_actions"][0]}
            api.post(f"/tables/{table_id}/actions", json=body, headers=auth(ana))
        else:
            time.sleep(0.02)
    assert state["status"] == "finished"

    page = new_context(player=ana, locale="es-ES").new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(f"/replays/{table_id}?v=2")
    expect(page.locator("body")).to_have_attribute("data-status", "ready")
    expect(page.locator("#perspective")).to_have_value("0")
    # Luz's own board, from Ana's seat: her hand as backs, nothing to click.
    expect(page.locator("#board .luz-player[data-seat='0']")).to_be_visible()
    expect(page.locator("#board .bet-confirm")).to_have_count(0)
    expect(page.locator("[data-testid=step-events]")).to_contain_text("Ana apostó")
    page.click("#replay-last")
    expect(page.locator("#board")).to_contain_text("Partida terminada")
    page.select_option("#perspective", "spectator")
    expect(page.locator("body")).to_have_attribute("data-perspective", "spectator")
    expect(page.locator("#board .luz-player[data-seat='1']")).to_be_visible()
    page.click("#replay-first")
    expect(page.locator("[data-testid=step-action]")).to_have_text("Posición inicial")
    assert errors == []
