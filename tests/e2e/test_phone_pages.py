"""Short phone pages (issue 35.2): at 390×844, mid-game, a page of each of the four games is
shorter than two and a half screens, for a player and for a spectator, in Spanish and in
English; the other players' areas, the reference panels, the log and the chat are one-line
summaries (static/js/fold.js) that open on a tap or a key and stay open when the board is drawn
again; on a laptop (1366×768) everything is drawn whole as before.

One server with the four games for the module; each mid-game table is played through the API
(random legal actions for Ana, random bots at the other seats) up to Ana's next ordinary
decision after six to twelve moves, before any page loads. A Glück Auf page, which grows as its
game goes on, is measured through a whole game besides (4 seats, every eighth move and at
both draws of five).
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import auth, make_player
from tests.e2e.helpers import (
    LAPTOP,
    PHONE,
    assert_in_view,
    context_factory,
    games_server,
    seated_table,
    shot,
)

GAMES = ("gluckauf", "mine", "luz", "ginkgopolis")
LOG_TITLE = {"es": "Registro de la partida", "en": "Game log"}
MAX_SCREENS = 2.5

# Each game's table: its seats, Ana's moves before "mid-game", and the ordinary decision to stop
# at (the one a player meets most: placing a worker, placing a card, playing a card, selecting).
Stop = Callable[[dict[str, Any]], bool]


def _types(state: dict[str, Any]) -> set[str]:
    return {str(a.get("type")) for a in state["legal_actions"]}


MIDGAME: dict[str, tuple[int, int, Stop]] = {
    "gluckauf": (3, 12, lambda s: _types(s) == {"place_worker"}),
    "mine": (4, 8, lambda s: "place" in _types(s)),
    "luz": (4, 6, lambda s: "play_card" in _types(s)),
    "ginkgopolis": (4, 6, lambda s: "select" in _types(s)),
}

# A player's area on each board: the viewer's own carries .is-me.
AREA = {
    "gluckauf": ".ga-player",
    "mine": ".mine-director",
    "luz": ".luz-player",
    "ginkgopolis": ".gk-player",
}


@pytest.fixture(scope="module")
def pp_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    yield from games_server(tmp_path_factory, GAMES)


@pytest.fixture
def pp_context(browser: Any, pp_server: Any) -> Iterator[Any]:
    yield from context_factory(browser, pp_server)


def play_until(
    api: httpx.Client, player: dict[str, str], tid: str, moves: int, stop: Stop
) -> dict[str, Any]:
    """Random legal actions for ``player`` until ``moves`` are made and ``stop`` holds at
    one of its decisions (bots play their seats on their own)."""
    rng = random.Random(tid)
    made = 0
    for _ in range(4000):
        state: dict[str, Any] = api.get(f"/tables/{tid}/state", headers=auth(player)).json()
        if state["status"] == "finished":
            raise AssertionError(f"table {tid} ended before mid-game")
        if not state["legal_actions"]:
            time.sleep(0.02)  # a bot's move is on its way
            continue
        if made >= moves and stop(state):
            return state
        action = rng.choice(state["legal_actions"])
        answer = api.post(
            f"/tables/{tid}/actions",
            json={"version": state["version"], "action": action},
            headers=auth(player),
        )
        if answer.status_code == 200:
            made += 1
    raise AssertionError(f"table {tid} never reached mid-game")


def table_with_bots(api: httpx.Client, ana: dict[str, str], game: str, seats: int) -> str:
    tid = seated_table(api, ana, bots=0, seats=seats, game=game, start=False)
    for _ in range(seats - 1):
        api.post(
            f"/tables/{tid}/bots", json={"level": "random"}, headers=auth(ana)
        ).raise_for_status()
    api.post(f"/tables/{tid}/start", headers=auth(ana)).raise_for_status()
    return tid


@pytest.fixture(scope="module")
def midgame(pp_server: Any) -> dict[str, Any]:
    from concurrent.futures import ThreadPoolExecutor

    url = pp_server.url + "/api/v1"
    with httpx.Client(base_url=url, timeout=30) as api:
        ana = make_player(api, "Ana")

    def build(game: str) -> tuple[str, int]:
        seats, moves, stop = MIDGAME[game]
        with httpx.Client(base_url=url, timeout=30) as api:
            tid = table_with_bots(api, ana, game, seats)
            play_until(api, ana, tid, moves, stop)
            return tid, seats

    out: dict[str, Any] = {"ana": ana}
    with ThreadPoolExecutor(len(GAMES)) as pool:
        for game, (tid, seats) in zip(GAMES, pool.map(build, GAMES), strict=True):
            out[game] = tid
            out[f"{game}_seats"] = seats
    return out


def open_table(page: Any, tid: str, seated: bool) -> None:
    page.goto(f"/tables/{tid}")
    if seated:
        page.wait_for_selector("body[data-turn='me'] #board [data-decision]")
    else:
        page.wait_for_selector("body[data-status='playing'] #board [data-version]")
    page.wait_for_function("() => document.fonts.status === 'loaded'")


# ------------------------------------------------------------------ the height


HEIGHTS: dict[str, int] = {}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seated", [True, False], ids=["player", "spectator"])
@pytest.mark.parametrize("locale", ["en-GB", "es-ES"])
def test_a_phone_page_mid_game_is_under_two_and_a_half_screens(
    pp_context: Any, midgame: dict[str, Any], game: str, seated: bool, locale: str
) -> None:
    player = midgame["ana"] if seated else None
    page = pp_context(locale=locale, player=player, viewport=PHONE).new_page()
    open_table(page, midgame[game], seated)
    height = page.evaluate("document.documentElement.scrollHeight")
    HEIGHTS[f"{game} {'player' if seated else 'spectator'} {locale}"] = height
    print(f"phone page height: {game} {'player' if seated else 'spectator'} {locale}: {height}")
    assert height < MAX_SCREENS * PHONE["height"], (game, seated, locale, height)
    # Nothing of the page is wider than the phone either.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # Every other player's area is there: drawn, or folded into its summary.
    areas = page.locator(f"#board {AREA[game]}:not(.is-me)")
    expect(areas).to_have_count(midgame[f"{game}_seats"] - (1 if seated else 0))
    if seated and locale == "en-GB":
        page.evaluate("window.scrollTo(0, 0)")
        shot(page, f"{game}-midgame-phone.png", full_page=True)


# ------------------------------------------------------------------ Glück Auf through a whole game

# Glück Auf's page grows as a game goes on (orders taken, tiles stacked in the pit, orders
# delivered): it is measured at every eighth of Ana's moves from the first to the last place
# decision, and at a draw of five (orders, then tiles) with the five drawn items in the prompt.
GA_EVERY = 8
GA_DRAWS = {16: "ORDER-DRAW", 28: "FACT-DRAW"}  # steered to, from that many moves on


def _ga_checkpoint(state: dict[str, Any], made: int, next_at: int, drawn: set[str]) -> str | None:
    """What to measure at this decision of Ana's, if anything."""
    view = state["view"]
    if view["phase"] == "keep" and len((view.get("draw") or {}).get("drawn") or []) == 5:
        kind = "order" if view["draw"]["kind"] == "order" else "tile"
        if kind not in drawn:
            return f"draw of five {kind}s after {made} moves"
    if made >= next_at and _types(state) == {"place_worker"}:
        return f"after {made} moves"
    return None


def _ga_choose(state: dict[str, Any], made: int, drawn: set[str], rng: random.Random) -> Any:
    """A random legal action, but a draw space when its checkpoint is due (and open)."""
    for after, space in GA_DRAWS.items():
        kind = "order" if space == "ORDER-DRAW" else "tile"
        if made >= after and kind not in drawn:
            for action in state["legal_actions"]:
                if action.get("type") == "place_worker" and action.get("space") == space:
                    return action
    return rng.choice(state["legal_actions"])


# Four seats: the tallest page (three other players, every space open); fewer seats only
# lock spaces and drop players, as the mid-game tests show at three.
@pytest.mark.parametrize("seats", [4])
def test_a_gluckauf_phone_page_stays_short_through_a_whole_game(
    pp_context: Any, pp_server: Any, seats: int
) -> None:
    """At every checkpoint from the first moves to the last place decision, in Spanish and in
    English, the page is under two and a half screens, and the prompt and a legal target are
    in view with no scroll (targets big enough, nothing wider than the phone)."""
    with httpx.Client(base_url=pp_server.url + "/api/v1", timeout=30) as api:
        ana = make_player(api, f"Gus{seats}")
    pages = {
        locale: pp_context(locale=locale, player=ana, viewport=PHONE).new_page()
        for locale in ("es-ES", "en-GB")
    }
    heights: list[tuple[int, str]] = []
    drawn: set[str] = set()
    with httpx.Client(base_url=pp_server.url + "/api/v1", timeout=30) as api:
        tid = table_with_bots(api, ana, "gluckauf", seats)
        rng = random.Random(f"{tid}-{seats}")
        made, next_at = 0, GA_EVERY
        for _ in range(20000):
            state: dict[str, Any] = api.get(f"/tables/{tid}/state", headers=auth(ana)).json()
            if state["status"] == "finished":
                break
            if not state["legal_actions"]:
                time.sleep(0.02)  # a bot's move is on its way
                continue
            point = _ga_checkpoint(state, made, next_at, drawn)
            if point is not None:
                for locale, page in pages.items():
                    open_table(page, tid, True)
                    page.evaluate("window.scrollTo(0, 0)")
                    page.wait_for_selector("#board .legal")
                    height = page.evaluate("document.documentElement.scrollHeight")
                    print(f"gluckauf {seats} seats {locale} {point}: {height}")
                    heights.append((height, f"{locale} {point}"))
                    # The table brings the decision into view on load: prompt and target in view.
                    assert_in_view(page)
                    if point.startswith("draw") and locale == "es-ES":
                        shot(
                            page, f"gluckauf-draw-of-five-{state['view']['draw']['kind']}-phone.png"
                        )
                if point.startswith("draw"):
                    drawn.add(state["view"]["draw"]["kind"])
                else:
                    next_at = made + GA_EVERY
            action = _ga_choose(state, made, drawn, rng)
            answer = api.post(
                f"/tables/{tid}/actions",
                json={"version": state["version"], "action": action},
                headers=auth(ana),
            )
            if answer.status_code == 200:
                made += 1
        else:
            raise AssertionError(f"table {tid} did not end")
    worst = max(heights)
    print(f"gluckauf {seats} seats: {len(heights)} pages, worst {worst}")
    # The whole game was measured: the middle and the end of it, and both draws of five.
    assert len(heights) >= 2 * 6 and drawn == {"order", "tile"}, (heights, drawn)
    assert worst[0] < MAX_SCREENS * PHONE["height"], heights


# ------------------------------------------------------------------ every part can be reached

_CLOSED = """() => [...document.querySelectorAll('#main details.fold, #main details[data-fold]')]
  .filter((d) => !d.open && d.getClientRects().length > 0 && !d.closest('details:not([open]) details'))
  .map((d) => d.dataset.fold || d.className)"""

_SHOWN = """(d) => [...d.children].filter((c) => c.tagName !== 'SUMMARY')
  .some((c) => c.getBoundingClientRect().height > 0)"""


@pytest.mark.parametrize("game", GAMES)
def test_every_folded_part_opens_on_a_tap_and_stays_open(
    pp_context: Any, midgame: dict[str, Any], game: str
) -> None:
    page = pp_context(player=midgame["ana"], viewport=PHONE, has_touch=True).new_page()
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    open_table(page, midgame[game], True)
    # Folded on the phone: each other player's area, the log, the chat, the seat list.
    others = page.locator(f"#board details.fold:has({AREA[game]}:not(.is-me))")
    if game != "luz":  # a Luz player reads the other hands at every trick: drawn whole
        expect(others).to_have_count(midgame[f"{game}_seats"] - 1)
    for panel in ("#log", "#chat", "#seats"):
        expect(page.locator(f"{panel} details.fold")).not_to_have_attribute("open", "")
    closed = page.evaluate(_CLOSED)
    assert len(closed) >= 4, closed
    for _ in range(len(closed)):
        remaining = page.locator(
            "#main :is(details.fold, details[data-fold]):not([open]) > summary"
        ).filter(visible=True)
        if not remaining.count():
            break
        summary = remaining.first
        key = summary.locator("xpath=..").get_attribute("data-fold")
        details = page.locator(f"#main details[data-fold='{key}']")
        summary.tap()
        expect(details).to_have_attribute("open", "")
        assert details.evaluate(_SHOWN), details.evaluate("d => d.outerHTML.slice(0, 200)")
    assert page.evaluate(_CLOSED) == []
    # What is inside can be read: every other player's area, the log's lines, the seats.
    for area in page.locator(f"#board {AREA[game]}:not(.is-me)").all():
        expect(area).to_be_visible()
    expect(page.locator("#log-list li").last).to_be_visible()
    expect(page.locator("#seats .seat-row").first).to_be_visible()
    expect(page.locator("#chat-input")).to_be_visible()

    # The board is drawn again (the language changes and back): what was opened stays open.
    opened = page.locator("#main :is(details.fold, details[data-fold])[open]").count()
    for lang in ("es", "en"):
        page.select_option("#lang-switch", lang)
        expect(page.locator("html")).to_have_attribute("lang", re.compile(f"^{lang}"))
        expect(page.locator("#log h2")).to_have_text(LOG_TITLE[lang])
    page.wait_for_selector("#board [data-decision]")
    expect(page.locator("#main :is(details.fold, details[data-fold])[open]")).to_have_count(opened)
    assert page.evaluate(_CLOSED) == []

    # The keyboard: Enter on a summary closes its part, Enter again opens it.
    fold = page.locator("#board details.fold, #board details[data-fold]").first
    summary = fold.locator("> summary")
    summary.focus()
    page.keyboard.press("Enter")
    expect(fold).not_to_have_attribute("open", "")
    page.keyboard.press("Enter")
    expect(fold).to_have_attribute("open", "")
    assert not problems, problems


@pytest.mark.parametrize("game", GAMES)
def test_a_spectator_finds_every_player_folded_on_a_phone(
    pp_context: Any, midgame: dict[str, Any], game: str
) -> None:
    page = pp_context(viewport=PHONE).new_page()
    open_table(page, midgame[game], False)
    seats = midgame[f"{game}_seats"]
    folds = page.locator(f"#board details.fold:has({AREA[game]})")
    expect(folds).to_have_count(0 if game == "luz" else seats)
    for summary in folds.locator("> summary").all():
        # The summary says something real: a name and numbers.
        text = summary.inner_text()
        assert any(ch.isdigit() for ch in text) and len(text) > 10, text
        summary.click()
    for area in page.locator(f"#board {AREA[game]}").all():
        expect(area).to_be_visible()


# ------------------------------------------------------------------ the laptop


@pytest.mark.parametrize("game", GAMES)
def test_the_laptop_shows_everything(pp_context: Any, midgame: dict[str, Any], game: str) -> None:
    page = pp_context(player=midgame["ana"], viewport=LAPTOP).new_page()
    open_table(page, midgame[game], True)
    # The players' areas are drawn whole, as before: no summary in their place.
    expect(page.locator("#board details.fold")).to_have_count(0)
    areas = page.locator(f"#board {AREA[game]}")
    expect(areas).to_have_count(midgame[f"{game}_seats"])
    for area in areas.all():
        expect(area).to_be_visible()
    # The seats, the log and the chat are open.
    expect(page.locator("#seats .seat-row").first).to_be_visible()
    expect(page.locator("#log-list li").last).to_be_visible()
    expect(page.locator("#chat-input")).to_be_visible()
    # Going down to a phone's width folds them; back up, they are whole again.
    page.set_viewport_size(PHONE)
    expect(page.locator("#log details.fold")).not_to_have_attribute("open", "")
    if game != "luz":
        expect(page.locator("#board details.fold").first).to_be_visible()
    page.set_viewport_size(LAPTOP)
    expect(page.locator("#board details.fold")).to_have_count(0)
    expect(page.locator("#log-list li").last).to_be_visible()
