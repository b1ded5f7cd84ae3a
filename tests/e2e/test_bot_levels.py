"""Bot levels in the pages (issue 21.6): the lobby and the waiting room offer each of the
game's levels with a line on what to expect, the seats and the replay name each bot's level,
and the creation form chooses the level of the bot that takes a seat over.

Every level list is read from GET /games (bot_levels), never written per game here: the
engines gain levels on their own schedule. Set PARTIDA_SHOTS to a folder to keep the
screenshots of the phone and the laptop."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import auth, make_player
from tests.e2e.helpers import LAPTOP, PHONE, seated_table, shot

EN = json.loads(
    (Path(__file__).resolve().parents[2] / "static" / "i18n" / "en.json").read_text("utf-8")
)
TABLES = re.compile(r"/api/v1/tables$")


def _levels(api: httpx.Client, game: str) -> list[str]:
    games = {g["id"]: g for g in api.get("/games").json()}
    return list(games[game]["bot_levels"])


def _default(levels: list[str]) -> str:
    return "normal" if "normal" in levels else levels[0]


def _other(levels: list[str]) -> str:
    """A level that is not the default one: the last the game lists."""
    return next(level for level in reversed(levels) if level != _default(levels))


def _values(select: Any) -> list[str]:
    return list(select.locator("option").evaluate_all("os => os.map((o) => o.value)"))


def _finish(api: httpx.Client, table_id: str, who: dict[str, str]) -> None:
    """``who`` takes the last pile whenever it is their turn; the bots play the other seats."""
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


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_lobby_and_the_waiting_room_offer_the_games_levels_and_the_seats_show_them(
    new_context: Any, api: httpx.Client, viewport: dict[str, int]
) -> None:
    levels = _levels(api, "luz")
    default, other = _default(levels), _other(levels)
    host = make_player(api, "Lea")
    table_id = seated_table(api, host, bots=0, start=False)
    page = new_context(player=host, viewport=viewport).new_page()
    page.goto("/")
    card = page.locator(f".table-card[data-table-id='{table_id}']")
    select = card.locator("select.bot-level")
    hint = card.locator("[data-testid=bot-level-hint]")
    # The server's order, the default chosen, and what that level plays like.
    expect(select.locator("option")).to_have_count(len(levels))
    assert _values(select) == levels
    expect(select).to_have_value(default)
    expect(hint).to_have_text(EN[f"bot.hint.{default}"])
    select.select_option(other)
    expect(hint).to_have_text(EN[f"bot.hint.{other}"])
    expect(select).to_have_attribute("title", EN[f"bot.hint.{other}"])
    card.locator("[data-action=add-bot]").click()
    bot = card.locator(".seat-chip.bot")
    expect(bot).to_have_text(re.compile(re.escape(f"Bot 2 ({EN[f'bot.level.{other}']})")))
    expect(select).to_have_value(other)  # the choice outlives the list's redraw
    size = f"{viewport['width']}x{viewport['height']}"
    shot(page, f"bot-levels-lobby-{size}.png")

    # The waiting room: the same levels; the host adds a bot at the default level.
    page.goto(f"/tables/{table_id}")
    room = page.locator("#setup #bot-level")
    expect(room.locator("option")).to_have_count(len(levels))
    assert _values(room) == levels
    expect(room).to_have_value(default)
    expect(page.locator("#setup [data-testid=bot-level-hint]")).to_have_text(
        EN[f"bot.hint.{default}"]
    )
    page.click("#setup [data-action=add-bot]")
    seats = page.locator("#seats .seat-row .seat-name")
    expect(seats.nth(1)).to_contain_text(f"Bot 2 ({EN[f'bot.level.{other}']})")
    expect(seats.nth(2)).to_contain_text(f"Bot 3 ({EN[f'bot.level.{default}']})")
    shot(page, f"bot-levels-table-{size}.png")


def test_the_creation_form_sends_the_takeover_level_only_when_it_is_not_the_default(
    new_context: Any, api: httpx.Client
) -> None:
    levels = _levels(api, "luz")
    default, other = _default(levels), _other(levels)
    host = make_player(api, "Teo")
    page = new_context(player=host).new_page()
    page.goto("/")
    page.select_option("#create-game", "luz")
    takeover = page.locator("#tc-takeover-level")
    expect(takeover.locator("option")).to_have_count(len(levels))
    assert _values(takeover) == levels
    expect(takeover).to_have_value(default)
    expect(takeover.locator(f"option[value='{default}']")).to_have_text(
        f"{EN[f'bot.level.{default}']} (default)"
    )
    with page.expect_request(lambda r: r.method == "POST" and TABLES.search(r.url)) as sent:
        page.click("#create-submit")
    assert "takeover_level" not in sent.value.post_data_json["time_control"]
    page.wait_for_url(re.compile(r"/tables/[0-9a-f]+$"))

    page.goto("/")
    page.select_option("#create-game", "luz")
    page.select_option("#tc-takeover-level", other)
    expect(page.locator("#tc-takeover-level-hint")).to_contain_text(EN[f"bot.hint.{other}"])
    with page.expect_request(lambda r: r.method == "POST" and TABLES.search(r.url)) as sent:
        page.click("#create-submit")
    assert sent.value.post_data_json["time_control"]["takeover_level"] == other


def test_a_table_made_with_a_takeover_level_keeps_it_and_its_resigned_seat_shows_it(
    new_context: Any, api: httpx.Client
) -> None:
    levels = _levels(api, "pick")
    other = _other(levels)
    ana, ben = make_player(api, "Ana"), make_player(api, "Ben")
    page = new_context(player=ana).new_page()
    page.goto("/")
    page.select_option("#create-game", "pick")
    page.select_option("#tc-takeover-level", other)
    with page.expect_response(lambda r: r.request.method == "POST" and TABLES.search(r.url)) as got:
        page.click("#create-submit")
    assert got.value.status == 201, got.value.text()
    page.wait_for_url(re.compile(r"/tables/[0-9a-f]+$"))
    table_id = page.url.rsplit("/", 1)[1]
    table = api.get(f"/tables/{table_id}").json()
    assert table["time_control"]["takeover_level"] == other
    api.post(f"/tables/{table_id}/join", headers=auth(ben)).raise_for_status()
    for _ in range(len(table["seats"]) - 2):
        api.post(f"/tables/{table_id}/bots", json={}, headers=auth(ana)).raise_for_status()
    api.post(f"/tables/{table_id}/start", headers=auth(ana)).raise_for_status()
    api.post(f"/tables/{table_id}/resign", headers=auth(ben)).raise_for_status()
    expect(page.locator("#seats [data-seat='1'] [data-testid=resigned-bot]")).to_have_text(
        f"a bot ({EN[f'bot.level.{other}']}) plays on"
    )


def test_a_resigned_seat_and_the_replay_name_the_bots_levels(
    new_context: Any, api: httpx.Client
) -> None:
    levels = _levels(api, "pick")
    other = _other(levels)
    ana, ben = make_player(api, "Ana"), make_player(api, "Ben")
    created = api.post(
        "/tables", json={"game": "pick", "seats": 3, "options": {"pile": 9}}, headers=auth(ana)
    )
    table_id = created.json()["id"]
    api.post(f"/tables/{table_id}/join", headers=auth(ben)).raise_for_status()
    api.post(f"/tables/{table_id}/bots", json={"level": other}, headers=auth(ana))
    api.post(f"/tables/{table_id}/start", headers=auth(ana)).raise_for_status()
    api.post(f"/tables/{table_id}/resign", headers=auth(ben)).raise_for_status()
    resigned = api.get(f"/tables/{table_id}").json()["seats"][1]["bot_level"]

    page = new_context(player=ana, locale="es-ES").new_page()
    page.goto(f"/tables/{table_id}")
    es = json.loads(
        (Path(__file__).resolve().parents[2] / "static" / "i18n" / "es.json").read_text("utf-8")
    )
    expect(page.locator("#seats [data-seat='1'] [data-testid=resigned-bot]")).to_have_text(
        f"sigue un bot ({es[f'bot.level.{resigned}']})"
    )
    expect(page.locator("#seats [data-seat='2'] .seat-name")).to_contain_text(
        f"Bot 3 ({es[f'bot.level.{other}']})"
    )

    _finish(api, table_id, ana)
    page = new_context(player=ana).new_page()
    page.goto(f"/replays/{table_id}")
    expect(page.locator("#seats [data-seat='1'] [data-testid=bot-level]")).to_have_text(
        f"bot ({EN[f'bot.level.{resigned}']}) took over"
    )
    expect(page.locator("#seats [data-seat='2'] .seat-name")).to_contain_text(
        f"Bot 3 ({EN[f'bot.level.{other}']})"
    )
    expect(page.locator("#seats [data-seat='0'] [data-testid=bot-level]")).to_have_count(0)
