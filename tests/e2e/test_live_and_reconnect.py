"""Two people at one table see each other's moves live; a dropped page resyncs."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import expect

from tests.e2e.conftest import make_player
from tests.e2e.helpers import seated_table


def test_two_browsers_see_each_others_moves_and_a_dropped_one_resyncs(
    new_context: Any, api: httpx.Client
) -> None:
    ana = make_player(api, "Ana")
    ben = make_player(api, "Ben")
    table_id = seated_table(api, ana, others=(ben,), bots=1, options={"first_player": 0})

    ben_context = new_context(player=ben, locale="es-ES")
    ben_page = ben_context.new_page()
    ben_page.goto(f"/tables/{table_id}")
    ana_page = new_context(player=ana).new_page()
    ana_page.goto(f"/tables/{table_id}")

    expect(ana_page.locator("body")).to_have_attribute("data-turn", "me")
    expect(ben_page.locator("#turn-banner")).to_contain_text("Esperando a Ana")
    expect(ana_page.locator("#seats .seat-row[data-seat='1'] .dot.online")).to_have_count(1)

    # Ben's network goes away; the page drops its socket (Chromium's offline emulation
    # leaves open sockets alone, the page reacts to the "offline" event) and retries.
    ben_context.set_offline(True)
    expect(ben_page.locator("#conn")).to_have_attribute("data-conn", "reconnecting")
    expect(ana_page.locator("#seats .seat-row[data-seat='1'] .dot.offline")).to_have_count(1)

    # Ana bets while Ben is away.
    ana_page.click(".bet-option[data-tricks='3']")
    ana_page.click(".bet-confirm")
    expect(ana_page.locator("#log-list")).to_contain_text("Ana bet 3 tricks")

    # Ben comes back: the page reconnects by itself and catches up (state and log).
    ben_context.set_offline(False)
    expect(ben_page.locator("#conn")).to_have_attribute("data-conn", "open", timeout=15_000)
    expect(ben_page.locator("body")).to_have_attribute("data-turn", "me")
    expect(ben_page.locator("#log-list")).to_contain_text("Ana apostó 3 bazas")
    expect(ben_page.locator(".luz-player[data-seat='0'] .luz-bet-text")).to_contain_text(
        "apuesta 3"
    )
    expect(ana_page.locator("#seats .seat-row[data-seat='1'] .dot.online")).to_have_count(1)

    # Ben's bet reaches Ana live.
    ben_page.click(".bet-option[data-tricks='2']")
    ben_page.click("#bet-safety")
    ben_page.click(".bet-confirm")
    expect(ana_page.locator("#log-list")).to_contain_text("Ben bet 2 tricks with the safety bead")
    expect(ana_page.locator(".luz-player[data-seat='1'] .bead-safety")).to_have_count(1)


def test_a_friend_joins_a_private_table_through_its_invite_link(
    new_context: Any, api: httpx.Client
) -> None:
    ana = make_player(api, "Ana")
    table_id = seated_table(api, ana, bots=1, start=False, private=True)
    host = new_context(player=ana).new_page()
    host.goto(f"/tables/{table_id}")
    expect(host.locator("#setup [data-action=start]")).to_be_disabled()
    link = host.input_value("#invite-link")
    assert f"/tables/{table_id}?invite=" in link

    friend = new_context(locale="es-ES").new_page()
    friend.goto("/")  # a private table is not listed in the lobby
    # Other tests share this server (and, under xdist, run in any order): the lobby may list
    # their tables, never this private one.
    expect(friend.locator("#tables-list")).not_to_contain_text("Cargando")
    expect(friend.locator(f"#tables-list a[href='/tables/{table_id}']")).to_have_count(0)
    friend.goto(link)
    expect(friend.locator("#setup")).to_contain_text("Elige un nombre")
    friend.fill("#player-name", "Carla")
    friend.click("#setup form.name-form button[type=submit]")
    friend.click("#setup [data-action=join]")
    expect(friend.locator("#seats .seat-row.mine")).to_contain_text("Carla")
    expect(host.locator("#seats .seat-row[data-seat='2']")).to_contain_text("Carla")
    expect(host.locator("#seats .seat-row[data-seat='2'] .dot.online")).to_have_count(1)

    host.click("#setup [data-action=start]")
    expect(friend.locator(".hand-mine .card.back")).to_have_count(10)
    expect(host.locator(".hand-mine .card.back")).to_have_count(10)
    expect(friend.locator("#setup")).to_be_hidden()
