"""Readable on a phone (issue 18.2) and solo Ginkgopolis right everywhere (issue 18.7).

At 390×844 every game's final score tables fit the screen or sit in a sideways scrolling
box that shows it scrolls; the top bar of every page is one line (at 1366×768 too); the
numbers of the Ginkgopolis city are not covered by its badges; a card, a tile or the city
zooms and closes. Solo Ginkgopolis: Hal's revealed card is drawn while his token moves, the
banner and the result name the winner with Hal in the ranking, and the player page never
says "place 2 of 1".

One server with the four games for the module; its finished tables are played through the
API (a random legal action for the person, bots for the other seats) before any page loads.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import auth, make_player
from tests.e2e.helpers import context_factory, seated_table, shot

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}


@pytest.fixture(scope="module")
def rd_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    import uuid
    from concurrent.futures import ThreadPoolExecutor

    from app.games import REGISTRY
    from app.main import create_app
    from app.migrate import upgrade_to_head
    from tests.conftest import test_settings
    from tests.support.live import LiveServer

    path = tmp_path_factory.mktemp("readable-db") / f"readable-{uuid.uuid4().hex[:8]}.sqlite3"
    url = f"sqlite+aiosqlite:///{path}"
    with ThreadPoolExecutor(1) as pool:  # the Playwright driver owns this thread's loop
        pool.submit(upgrade_to_head, url).result()
    settings = test_settings(url)
    server = LiveServer(
        create_app(settings, games=REGISTRY), ws_max_size=settings.ws_max_frame_bytes
    )
    server.start()
    yield server
    server.stop()


@pytest.fixture
def rd_context(browser: Any, rd_server: Any) -> Iterator[Any]:
    yield from context_factory(browser, rd_server)


def _play(api: httpx.Client, player: dict[str, str], tid: str, stop: Any = None) -> dict[str, Any]:
    """Answer the person's decisions with random legal actions until the end (or ``stop``)."""
    rng = random.Random(tid)
    for _ in range(3000):
        state: dict[str, Any] = api.get(f"/tables/{tid}/state", headers=auth(player)).json()
        if state["status"] == "finished" or (stop and stop(state)):
            return state
        if not state["legal_actions"]:
            time.sleep(0.02)  # a bot's move is on its way
            continue
        action = rng.choice(state["legal_actions"])
        api.post(
            f"/tables/{tid}/actions",
            json={"version": state["version"], "action": action},
            headers=auth(player),
        )
    raise AssertionError(f"table {tid} did not end")


def _hal_moves(state: dict[str, Any]) -> bool:
    decision = state["view"].get("decision")
    return bool(decision) and state["view"]["players"][decision["player"]]["hal"]


def _finished(url: str, ana: dict[str, str], game: str, seats: int) -> tuple[str, Any]:
    """A table of ``game`` played to the end: Ana at seat 0, random bots at the others."""
    with httpx.Client(base_url=url, timeout=30) as api:
        tid = seated_table(api, ana, bots=0, seats=seats, game=game, start=False)
        for _ in range(seats - 1):
            api.post(
                f"/tables/{tid}/bots", json={"level": "random"}, headers=auth(ana)
            ).raise_for_status()
        api.post(f"/tables/{tid}/start", headers=auth(ana)).raise_for_status()
        return tid, _play(api, ana, tid)["result"]


@pytest.fixture(scope="module")
def rd_tables(rd_server: Any) -> dict[str, Any]:
    from concurrent.futures import ThreadPoolExecutor

    url = rd_server.url + "/api/v1"
    with httpx.Client(base_url=url, timeout=30) as api:
        ana = make_player(api, "Ana")
        out: dict[str, Any] = {"ana": ana}
        # The widest tables: four in Glück Auf, five in Luz; MINE! with its dummy. Played
        # side by side: most of the time is spent waiting for the other seats.
        games = (("ginkgopolis", 1), ("gluckauf", 4), ("mine", 2), ("luz", 5))
        with ThreadPoolExecutor(len(games)) as pool:
            done = pool.map(lambda g: _finished(url, ana, *g), games)
            for (game, _), (tid, result) in zip(games, done, strict=True):
                out[game], out[f"{game}_result"] = tid, result
        # A solo game stopped while the person moves Hal's token (random games reach one
        # within a dozen moves).
        for _ in range(5):
            tid = seated_table(api, ana, bots=0, seats=1, game="ginkgopolis")
            if _play(api, ana, tid, stop=_hal_moves)["status"] == "playing":
                out["hal_moves"] = tid
                break
        assert "hal_moves" in out, "no solo game had Hal urbanize where his token had a choice"
        return out


# ------------------------------------------------------------------ score tables

_TABLES = """() => {
  const width = window.innerWidth;
  return [...document.querySelectorAll('#main table')].filter((t) => t.getClientRects().length).map((t) => {
    const box = t.getBoundingClientRect();
    const fits = box.left >= -0.5 && box.right <= width + 0.5;
    const s = t.closest('.table-scroll, [data-hscroll]');
    const sbox = s ? s.getBoundingClientRect() : null;
    return {
      fits,
      scroller: s && {
        inside: sbox.left >= -0.5 && sbox.right <= width + 0.5,
        overflowX: getComputedStyle(s).overflowX,
        scrolls: s.scrollWidth > s.clientWidth,
        cue: s.dataset.overflow,
        mask: getComputedStyle(s).maskImage || getComputedStyle(s).webkitMaskImage,
        hint: getComputedStyle(s, '::before').content,
      },
    };
  });
}"""


@pytest.mark.parametrize("locale", ["en-GB", "es-ES"])
def test_score_tables_fit_the_phone_or_show_that_they_scroll(
    rd_context: Any, rd_tables: dict[str, Any], locale: str
) -> None:
    page = rd_context(locale=locale, player=rd_tables["ana"], viewport=PHONE).new_page()
    for game in ("ginkgopolis", "gluckauf", "mine", "luz"):
        page.goto(f"/tables/{rd_tables[game]}")
        page.wait_for_selector("body[data-status='finished'] #result:not([hidden])")
        tables = page.evaluate(_TABLES)
        assert tables, f"{game}: no score table at the end"
        for table in tables:
            if table["fits"]:
                continue
            box = table["scroller"]
            assert box, f"{game}: a table is cut off outside any scrolling box"
            assert box["inside"] and box["overflowX"] in ("auto", "scroll") and box["scrolls"], box
            # The visible cue: the hidden side fades and a line says to swipe.
            assert box["cue"] in ("right", "left", "both"), box
            assert "gradient" in box["mask"] and box["hint"] not in ("none", "normal"), box
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{game}: the page scrolls sideways ({width}px)"
        if game == "gluckauf":
            # The final scoring itself fits: all four players, none cut off.
            final = page.get_by_test_id("gluckauf-final").locator("table")
            assert final.evaluate("t => t.getBoundingClientRect().right") <= PHONE["width"]
        if game == "ginkgopolis":
            total = page.locator(".gk-final thead th").last
            assert total.evaluate("t => t.getBoundingClientRect().right") <= PHONE["width"]


# ------------------------------------------------------------------ the top bar

_TOPBAR = """() => {
  const bar = document.querySelector('.topbar');
  const items = [...bar.querySelectorAll('.brand, .table-title, .howto-link, .conn, .whoami-name, .whoami .btn, .lang select')]
    .filter((e) => e.getClientRects().length && e.getBoundingClientRect().width > 0);
  const boxes = items.map((e) => e.getBoundingClientRect());
  const style = getComputedStyle(bar);
  const inner = bar.getBoundingClientRect().height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom) - parseFloat(style.borderBottomWidth);
  return {
    inner,
    tallest: Math.max(...boxes.map((b) => b.height)),
    rows: new Set(boxes.map((b) => Math.round((b.top + b.bottom) / 2 / 12))).size,
    right: Math.max(...boxes.map((b) => b.right)),
    width: window.innerWidth,
    overflow: bar.scrollWidth - bar.clientWidth,
  };
}"""


# The bar holds what it will hold: the languages, the player's name, the page's title.
_TOPBAR_FILLED = """() => {
  const lang = document.querySelector('#lang-switch');
  const who = document.querySelector('#whoami');
  const title = document.querySelector('.topbar .table-title');
  return lang?.options.length > 0 && (!who || who.children.length > 0) && (!title || title.textContent.trim() !== '');
}"""


@pytest.mark.parametrize("locale", ["en-GB", "es-ES"])
def test_the_top_bar_is_one_line_on_every_page(
    rd_context: Any, rd_tables: dict[str, Any], locale: str
) -> None:
    page = rd_context(locale=locale, player=rd_tables["ana"], viewport=PHONE).new_page()
    pages = [
        "/",
        f"/tables/{rd_tables['hal_moves']}",
        f"/replays/{rd_tables['luz']}",
        f"/players/{rd_tables['ana']['id']}",
        "/games/ginkgopolis/rules",
        "/admin",
    ]
    for path in pages:
        page.set_viewport_size(PHONE)
        page.goto(path)
        page.wait_for_function(_TOPBAR_FILLED)
        for size in (PHONE, LAPTOP):
            page.set_viewport_size(size)
            bar = page.evaluate(_TOPBAR)
            where = f"{path} at {size['width']}px"
            # One line: the bar is no taller than its tallest item, nothing wraps or spills.
            assert bar["inner"] <= bar["tallest"] + 2, (where, bar)
            assert bar["rows"] == 1 and bar["overflow"] <= 0, (where, bar)
            assert bar["right"] <= bar["width"], (where, bar)


# ------------------------------------------------------------------ Ginkgopolis city and zoom

_COVERED = """() => {
  const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const out = [];
  for (const b of document.querySelectorAll('.gk-city .gk-building')) {
    const num = b.querySelector('.gk-num').getBoundingClientRect();
    for (const badge of b.querySelectorAll('.gk-glyph, .gk-height, .gk-owner, .gk-pawn')) {
      if (hit(num, badge.getBoundingClientRect())) out.push(`${b.dataset.cell}: ${badge.className}`);
    }
  }
  return [document.querySelectorAll('.gk-city .gk-building').length, out];
}"""


def test_ginkgopolis_city_numbers_are_not_covered_by_badges(
    rd_context: Any, rd_tables: dict[str, Any]
) -> None:
    page = rd_context(player=rd_tables["ana"], viewport=PHONE).new_page()
    page.goto(f"/tables/{rd_tables['ginkgopolis']}")
    page.wait_for_selector("body[data-status='finished'] .gk-city .gk-building")
    for size in (PHONE, LAPTOP):
        page.set_viewport_size(size)
        count, covered = page.evaluate(_COVERED)
        assert count > 9 and covered == [], (size, covered)
        # Readable: a number at least 12 px high on the phone.
        height = page.locator(".gk-city .gk-num").first.evaluate(
            "n => n.getBoundingClientRect().height"
        )
        assert height >= 12, (size, height)
    # Whatever the city's width: at the smallest cell the phone layout allows (1.9rem, a wide
    # city), no badge covers a number either.
    page.set_viewport_size(PHONE)
    page.evaluate("document.querySelector('.gk-city-grid').style.setProperty('--cell', '1.9rem')")
    # ... and with every badge a building can carry (a height, an owner, the pending pawn),
    # whatever this game's end left on the board.
    page.evaluate(
        """() => { for (const roof of document.querySelectorAll('.gk-city .gk-roof')) {
          const add = (cls, text) => { if (!roof.querySelector('.' + cls)) {
            const s = document.createElement('span'); s.className = cls; s.textContent = text;
            roof.append(s); } };
          add('gk-height', '3▴'); add('gk-owner', '▲3'); add('gk-pawn', '♟'); } }"""
    )
    count, covered = page.evaluate(_COVERED)
    assert count > 9 and covered == [], ("1.9rem cells", covered)


def test_a_card_and_the_city_zoom_and_close(rd_context: Any, rd_tables: dict[str, Any]) -> None:
    page = rd_context(player=rd_tables["ana"], viewport=PHONE, has_touch=True).new_page()
    page.goto(f"/tables/{rd_tables['ginkgopolis']}")
    # On a phone Hal's area is a one-line summary that opens on a tap (issue 35.2).
    page.wait_for_selector("body[data-status='finished'] .gk-player.hal", state="attached")
    page.locator("#board details.fold:has(.gk-player.hal) > summary").tap()
    page.wait_for_selector("body[data-status='finished'] .gk-tableau [data-zoom]")
    zoom = page.get_by_test_id("zoom")
    card = page.locator(".gk-player.hal .gk-tableau [data-zoom]").first
    small = card.evaluate("c => c.getBoundingClientRect().width")

    # A long press of a finger opens the enlarged copy with the card's text; a tap closes it.
    card.scroll_into_view_if_needed()
    card.evaluate(
        """c => { const b = c.getBoundingClientRect();
        c.dispatchEvent(new PointerEvent('pointerdown', {bubbles: true, pointerType: 'touch',
          isPrimary: true, button: 0, clientX: b.x + 5, clientY: b.y + 5})); }"""
    )
    expect(zoom).to_be_visible()
    copy = zoom.locator(".zoom-copy")
    assert copy.get_attribute("data-card") == card.get_attribute("data-card")
    assert copy.evaluate("c => c.getBoundingClientRect().width") >= 2 * small
    expect(zoom.locator(".zoom-caption")).to_have_text(card.get_attribute("title") or "")
    card.evaluate("c => c.dispatchEvent(new PointerEvent('pointerup', {bubbles: true}))")
    zoom.click(position={"x": 5, "y": 5})
    expect(zoom).to_be_hidden()

    # The keyboard: "z" in the board opens its first card or tile, the arrows go through
    # them all (no tab stop per card), Esc closes and the focus is back on the board.
    page.focus("#board")
    page.keyboard.press("z")
    expect(zoom).to_be_visible()
    first = zoom.locator(".zoom-copy").get_attribute("data-card")
    page.keyboard.press("ArrowRight")
    expect(zoom.locator(".zoom-copy")).not_to_have_attribute("data-card", first or "")
    page.keyboard.press("Escape")
    expect(zoom).to_be_hidden()
    assert page.evaluate("document.activeElement.id") == "board"

    # The city has its own button: the zoomed city view, the whole city fitted to the
    # screen (tests/e2e/test_zoom.py checks every zoomable of every game).
    button = page.locator(".gk-city [data-zoom-button]")
    button.click()
    expect(zoom.locator(".zoom-copy .gk-city-grid")).to_be_visible()
    city = zoom.locator(".zoom-copy").bounding_box()
    assert city is not None and city["x"] >= 0 and city["x"] + city["width"] <= PHONE["width"]
    page.keyboard.press("Escape")
    expect(zoom).to_be_hidden()

    # A mouse: the right button.
    page.set_viewport_size(LAPTOP)
    card.click(button="right")
    expect(zoom).to_be_visible()
    page.keyboard.press("Escape")
    expect(zoom).to_be_hidden()


# ------------------------------------------------------------------ solo Ginkgopolis


def test_solo_ginkgopolis_shows_hal_everywhere(rd_context: Any, rd_tables: dict[str, Any]) -> None:
    page = rd_context(player=rd_tables["ana"], viewport=PHONE).new_page()
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))

    # While the person moves Hal's token, Hal's revealed card is drawn (no blank "0" card).
    page.goto(f"/tables/{rd_tables['hal_moves']}")
    spot = page.locator(".gk-spot[data-player='1']")
    expect(page.locator(".gk-decision.move")).to_be_visible()
    card = spot.locator(".gk-card[data-card]")
    expect(card).to_have_count(1)
    assert re.fullmatch(r"U-[A-L]", card.get_attribute("data-card") or "")
    assert "undefined" not in (card.get_attribute("title") or "")
    expect(card.locator(".gk-card-letter")).to_have_text(re.compile("^[A-L]$"))
    expect(spot.locator(".gk-tile[data-tile]")).to_have_count(1)

    # The end: the banner names the winner, the ranking lists Hal in his place.
    result = rd_tables["ginkgopolis_result"]
    hal = result["others"][0]
    winner = "Hal" if hal["place"] == 1 else "Ana"
    page.goto(f"/tables/{rd_tables['ginkgopolis']}")
    expect(page.locator("#turn-banner .turn-text")).to_have_text(f"Game over — {winner} wins!")
    rows = page.locator("#result .ranking .rank-row")
    expect(rows).to_have_count(2)
    expect(rows.first).to_contain_text(winner)
    expect(page.locator("#result .rank-row[data-other='hal']")).to_contain_text(
        f"{hal['place']}.Hal{hal['score']} points"
    )
    page.locator("#result").scroll_into_view_if_needed()
    shot(page, "ginkgopolis-solo-result.png")

    # The player page: "place n of 2" (never "of 1"), and why the game is not rated.
    page.goto(f"/players/{rd_tables['ana']['id']}")
    solo = page.locator(f".history-item[data-table-id='{rd_tables['ginkgopolis']}']")
    expect(solo.get_by_test_id("place")).to_have_text(re.compile(r"place [12] of 2"))
    expect(solo.get_by_test_id("unrated")).to_be_visible()
    expect(page.get_by_test_id("history")).not_to_contain_text(re.compile(r"of 1\b"))
    expect(page.get_by_test_id("unrated-hint")).to_contain_text("Hal")
    assert not problems, problems
