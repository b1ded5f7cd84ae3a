"""Issue 18.5 and 18.6 in the browser: the new-table form words every game's options for
players in Spanish and English, and a refusal reads in the page's language.

The form is built from GET /games alone, so the page gets all four games' schemas (as the
server publishes them) from a routed answer: no server with every game is started for it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from app.games import REGISTRY
from app.games.base import parse_options
from app.tables.service import TableService
from tests.e2e.conftest import auth, make_player
from tests.e2e.helpers import seated_table, shot

STATIC = Path(__file__).resolve().parents[2] / "static"
GAMES = sorted(REGISTRY)
# What the schemas say for developers, which must not reach the form.
RAW = re.compile(r"\bnull\b|§|\btrue\b|\bfalse\b|\bauto\b|_|\bNone\b|\bD\d+\b")


def _strings(lang: str) -> dict[str, str]:
    data = json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _games() -> list[dict[str, Any]]:
    """GET /games of a server with every game (the service's own answer)."""
    return TableService.games_public(SimpleNamespace(games=REGISTRY))  # type: ignore[arg-type]


def _choices(schema: dict[str, Any], root: dict[str, Any]) -> list[Any] | None:
    """The fixed choices of an option (a seat is not one: seats are numbered by the form)."""
    if "$ref" in schema:
        schema = root["$defs"][schema["$ref"].split("/")[-1]]
    if schema.get("type") == "boolean":
        return None
    if "enum" in schema:
        return list(schema["enum"])
    variants = schema.get("anyOf") or []
    if not variants:
        return None
    out: list[Any] = []
    for v in variants:
        if v.get("type") == "null":
            out.insert(0, None)
        elif "const" in v:
            out.append(v["const"])
        elif v.get("type") == "boolean":
            out += [True, False]
    return out


def _word(value: Any) -> str:
    return "null" if value is None else json.dumps(value).strip('"')


def _open_form(page: Any, game: str) -> None:
    page.select_option("#create-game", game)
    details = page.locator("details.options")
    if details.get_attribute("open") is None:
        page.click("details.options summary")


@pytest.mark.parametrize(("locale", "lang"), [("es-ES", "es"), ("en-GB", "en")])
def test_every_games_options_read_in_words_for_players(
    new_context: Any, api: httpx.Client, locale: str, lang: str
) -> None:
    strings = _strings(lang)
    games = _games()
    sent: list[dict[str, Any]] = []
    context = new_context(locale=locale, player=make_player(api, "Opciones"))
    page = context.new_page()
    page.route("**/api/v1/games", lambda route: route.fulfill(json=games))

    def capture(route: Any) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        sent.append(route.request.post_data_json)
        route.fulfill(status=409, json={"error": {"code": "table_full", "message": "x"}})

    page.route("**/api/v1/tables", capture)
    page.goto("/")
    expect(page.locator("#create-form")).to_be_visible()
    for game in games:
        gid, schema = game["id"], game["options_schema"]
        _open_form(page, gid)
        grid = page.locator(".options-grid")
        for name, prop in schema["properties"].items():
            field = grid.locator(f"[data-option='{name}']")
            expect(field.locator("label")).to_contain_text(strings[f"options.{gid}.{name}"])
            expect(field.locator(".hint")).to_have_text(strings[f"options.{gid}.{name}.help"])
            choices = _choices(prop, schema)
            if choices is None:
                continue
            words = [strings[f"options.{gid}.{name}.{_word(v)}"] for v in choices]
            shown = field.locator("option").all_inner_texts()
            assert shown[: len(words)] == words, (gid, name, shown)
            # A seat is offered as "Seat n" for each seat of the table, the creator first.
            seats = shown[len(words) :]
            numbered = [strings["options.seat"].replace("{n}", str(n)) for n in range(2, 9)]
            assert seats in ([], [strings["options.seat_you"], *numbered][: len(seats)]), seats
        text = grid.inner_text()
        assert not RAW.search(text), (gid, RAW.search(text))
        for prop in schema["properties"].values():
            assert prop.get("description", "\0") not in text
        # What the form sends is what the game accepts: every choice away from its default.
        for select in grid.locator("select").all():
            values = select.locator("option").evaluate_all("els => els.map(e => e.value)")
            select.select_option(values[-1])
        for box in grid.locator("input[type=checkbox]").all():
            box.check()
        seats = int(page.input_value("#create-seats"))
        # This form's own request, not the one before (whose toast may still be showing).
        with page.expect_request(
            lambda r: r.method == "POST" and r.url.endswith("/api/v1/tables")
        ) as posted:
            page.click("#create-submit")
        body = posted.value.post_data_json
        expect(page.locator(".toast-error").last).to_have_text(strings["error.table_full"])
        engine = REGISTRY[gid]
        assert body["game"] == gid and body["seats"] == seats
        engine.validate_options(parse_options(engine, body["options"]), seats)
    # The seat choices follow the number of seats.
    _open_form(page, "luz")
    page.fill("#create-seats", "5")
    expect(page.locator("#opt-luz-first_player option")).to_have_count(6)
    page.fill("#create-seats", "3")
    expect(page.locator("#opt-luz-first_player option")).to_have_count(4)


def test_the_options_form_on_a_phone_and_a_laptop(new_context: Any, api: httpx.Client) -> None:
    games = _games()
    context = new_context(locale="es-ES", player=make_player(api, "Pantalla"))
    page = context.new_page()
    page.route("**/api/v1/games", lambda route: route.fulfill(json=games))
    page.goto("/")
    for width, height in ((390, 844), (1366, 768)):
        page.set_viewport_size({"width": width, "height": height})
        for game in games:
            _open_form(page, game["id"])
            # Nothing wider than the page: labels, help and choices wrap.
            overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 0, (game["id"], width, overflow)
            shot(page.locator("#create-form"), f"options-{game['id']}-{width}x{height}.png")


def test_a_refusal_reads_in_the_pages_language(new_context: Any, api: httpx.Client) -> None:
    """A seat taken between the lobby's look and the click: the server says table_full, the
    page says it in Spanish, without the server's English."""
    owner, late, quick = (make_player(api, n) for n in ("Dueña", "Tarde", "Rápido"))
    table_id = seated_table(api, owner, bots=1, start=False)
    page = new_context(locale="es-ES", player=late).new_page()
    page.goto("/")
    join = page.locator(f"[data-table-id='{table_id}'] [data-action=join]")
    expect(join).to_be_visible()
    api.post(f"/tables/{table_id}/join", headers=auth(quick)).raise_for_status()
    join.click()
    toast = page.locator(".toast-error").last
    expect(toast).to_have_text(_strings("es")["error.table_full"])
    expect(toast).not_to_contain_text("seat")
