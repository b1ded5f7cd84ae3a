"""Accessibility (issue 18.9): axe-core finds no serious or critical violation on any page; every
control of a mid-game table is reachable by keyboard, shows a focus ring, and a move is played
with keys only; colour is never the only sign of a piece's colour.

One server hosts the four games (and the admin page); each game test opens one table started
through the API with bots, at 1366×768, then plays on at 390×844.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.e2e.conftest import auth, make_player
from tests.e2e.helpers import game_fixtures, seated_table, shot

SEATS = {"gluckauf": 2, "mine": 3, "luz": 3, "ginkgopolis": 2}
ADMIN = "a11y-admin-token-0123456789"
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
MY_TURN = "body[data-turn='me']"
AXE = Axe()
a11y_server, a11y_api, a11y_context = game_fixtures(tuple(SEATS), "a11y", admin_token=ADMIN)
FIGURES_DRAWN = """() => {
  const figures = Array.from(document.querySelectorAll('figure[data-figure]'));
  return figures.length > 0 && figures.every((f) => f.dataset.figureState === 'drawn');
}"""


# Moderate and minor findings that fail all the same (issue 35.8): every page has a heading
# of its own (h1), landmarks of one kind are told apart by their names, and every column
# or row header says what it heads.
STRUCTURE_RULES = frozenset({"page-has-heading-one", "landmark-unique", "empty-table-header"})


def serious(page: Any, context: Any = None, options: dict[str, Any] | None = None) -> list[str]:
    """The serious and critical axe-core violations on the page (and those of
    STRUCTURE_RULES, whatever their impact), one line per rule."""
    results = AXE.run(
        page, context=context, options={"resultTypes": ["violations"], **(options or {})}
    )
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes'][:4]]}"
        f" {' '.join(v['nodes'][0]['failureSummary'].split())[:300]}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical") or v["id"] in STRUCTURE_RULES
    ]


# ------------------------------------------------------------------ keyboard

# Every control a person can use: shown, enabled, not taken out of the tab order. Its key
# survives a re-render (tag, data-* attributes, name), so the board may redraw meanwhile.
CONTROLS = """
(root) => {
  const key = (el) => [el.tagName, ...Array.from(el.attributes).filter((a) => a.name.startsWith('data-')).map((a) => `${a.name}=${a.value}`),
                       (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 60)].join('|');
  const sel = 'a[href], button, input, select, textarea, summary, [tabindex]';
  const all = Array.from(document.querySelector(root).querySelectorAll(sel)).filter((el) =>
    !el.disabled && el.tabIndex >= 0 && el.checkVisibility({ visibilityProperty: true }) && !el.closest('[inert], [aria-hidden=true]'));
  return all.map(key);
}
"""

# The focused control's key and whether a focus ring is drawn around it.
FOCUSED = """
() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const key = [el.tagName, ...Array.from(el.attributes).filter((a) => a.name.startsWith('data-')).map((a) => `${a.name}=${a.value}`),
               (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 60)].join('|');
  const style = getComputedStyle(el);
  const ring = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2) || style.boxShadow !== 'none';
  return [key, ring, el.matches(':focus-visible')];
}
"""


def tab_cycle(page: Any, limit: int = 400) -> list[Any]:
    """Tab from the top of the page through every stop and back: the stops, in order."""
    page.evaluate("document.activeElement?.blur(); window.getSelection()?.removeAllRanges()")
    stops: list[Any] = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        if focused is None or (stops and focused[0] == stops[0][0]):
            return stops
        stops.append(focused)
    raise AssertionError(f"Tab never came back to the first stop: {stops[:5]}…")


def tab_to(page: Any, selector: str, limit: int = 300) -> None:
    """Tab forward from the focus until the focused control matches ``selector``."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement?.matches(s)", selector):
            return
    raise AssertionError(f"no control matching {selector!r} in the tab order")


def press_on(page: Any, selector: str, key: str = "Enter") -> None:
    tab_to(page, selector)
    page.keyboard.press(key)


def moved(page: Any, version: str | None) -> None:
    page.wait_for_function("v => document.body.dataset.version !== v", arg=version)


def keyboard_move(page: Any, game: str) -> str:
    """Play one move of ``game`` with Tab, Enter and Space only; return what was done."""
    version = page.get_attribute("body", "data-version")
    if game == "luz":
        press_on(page, ".bet-option:not(:disabled)", "Space")
        press_on(page, ".bet-confirm:not(:disabled)")
        moved(page, version)
        return "bet"
    if game == "gluckauf":
        press_on(page, ".gluckauf button.legal:not(:disabled)")
        moved(page, version)
        return "gluckauf:" + page.evaluate("document.querySelector('.gluckauf').dataset.phase")
    if game == "mine":
        press_on(page, ".mine-hand button.mcard.legal:not(:disabled)", "Space")
        # The location: in the prompt's list, or (the prompt docked) on the own board.
        press_on(
            page,
            ".mine-decision button.target-choice:not(:disabled), "
            ".mine-director.is-me button.target-btn.legal:not(:disabled)",
        )
        moved(page, version)
        return "mine:place"
    assert game == "ginkgopolis"
    if page.locator(".gk-decision.select").count() == 0:  # the New Hand question comes first
        press_on(page, ".gk-decision button:not(:disabled)")
        moved(page, version)
        page.wait_for_selector(f"{MY_TURN} .gk-decision.select")
        version = page.get_attribute("body", "data-version")
    press_on(page, ".gk-hand button.gk-card.legal:not(:disabled)", "Space")
    press_on(page, ".gk-decision .gk-alone:not(:disabled)")
    moved(page, version)
    return "ginkgopolis:select"


# ------------------------------------------------------------------ colour

# Each coloured piece, the class that names its colour, and the mark it must show besides the
# colour (English letters; shapes and glyphs are the same in every language).
COLOUR_MARKS: dict[str, list[tuple[str, str, dict[str, str]]]] = {
    "luz": [(".card", "c-", {"R": "R", "Y": "Y", "G": "G", "B": "B", "P": "P"})],
    "gluckauf": [
        (".cube, .spot, .tile", "c-", {"Y": "Y", "B": "B", "G": "G", "K": "K"}),
        (".worker", "s-", {"0": "▲", "1": "●", "2": "■", "3": "◆"}),
    ],
    "mine": [
        (
            ".swatch, .colour-card, .mine-director, .turn-order li, .target-btn, .target-choice",
            "col-c",
            {"0": "▲", "1": "●", "2": "■", "3": "◆", "4": "★", "5": "✚"},
        )
    ],
    "ginkgopolis": [
        (
            ".gk-tile, .gk-card:not(.back):not(.urb), .gk-building",
            "c-",
            {"R": "⚙", "Y": "★", "B": "▦"},
        ),
        (
            ".gk-swatch, .gk-owner",
            "pc-",
            {"orange": "●", "green": "▲", "black": "■", "pink": "◆", "natural": "✚"},
        ),
    ],
}

# For every piece: its colour (from its class), the text it shows, and what names it: the label
# of the piece or of the labelled element it is drawn in (a card, a seat), else the words
# printed next to it (a decorative swatch beside a player's name).
PIECES = """
([root, selector, prefix]) => Array.from(document.querySelectorAll(`:is(${root}) :is(${selector})`))
  .filter((el) => el.checkVisibility())
  .map((el) => {
    const cls = Array.from(el.classList).find((c) => c.startsWith(prefix) && c.length > prefix.length);
    let named = el;
    for (let up = 0; named && up < 4 && !named.hasAttribute('aria-label'); up += 1) named = named.parentElement;
    const beside = el.parentElement ? el.parentElement.innerText.replace(el.innerText, '') : '';
    const name = named?.hasAttribute('aria-label') ? named.getAttribute('aria-label') : beside;
    return [cls ? cls.slice(prefix.length) : null, el.innerText, name, el.outerHTML.slice(0, 120)];
  })
"""


def colour_problems(page: Any, game: str, root: str = "#board") -> tuple[int, list[str]]:
    """How many coloured pieces the boards under ``root`` show, and those whose colour is their
    only sign."""
    seen, problems = 0, []
    for selector, prefix, marks in COLOUR_MARKS[game]:
        for colour, text, name, html in page.evaluate(PIECES, [root, selector, prefix]):
            if colour not in marks:
                continue
            seen += 1
            if marks[colour] not in text:
                problems.append(f"no {marks[colour]!r} shown on {html}")
            if not name.strip():
                problems.append(f"no accessible name for {html}")
    return seen, problems


# ------------------------------------------------------------------ the tests


@pytest.mark.parametrize("game", list(SEATS))
def test_a_mid_game_table_is_accessible_and_playable_by_keyboard(
    game: str, a11y_context: Any, a11y_api: httpx.Client
) -> None:
    owner = make_player(a11y_api, "Ada")
    table_id = seated_table(a11y_api, owner, bots=SEATS[game] - 1, seats=SEATS[game], game=game)
    page = a11y_context(player=owner, viewport=LAPTOP).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"/tables/{table_id}")
    page.wait_for_selector(MY_TURN)

    assert serious(page) == [], f"{game} table at 1366×768"

    seen, problems = colour_problems(page, game)
    assert seen >= 5 and problems == [], problems

    # Every control of the board is a stop of the tab order, and each stop shows a focus ring.
    controls = set(page.evaluate(CONTROLS, "#board"))
    stops = tab_cycle(page)
    assert controls and controls <= {key for key, _, _ in stops}, controls - {s[0] for s in stops}
    assert [key for key, ring, visible in stops if not (ring and visible)] == []

    keyboard_move(page, game)
    page.set_viewport_size(PHONE)
    page.wait_for_selector(MY_TURN, timeout=15_000)
    assert serious(page) == [], f"{game} table at 390×844, after a move"
    seen, problems = colour_problems(page, game)
    assert problems == [], problems
    shot(page, f"a11y-{game}-phone.png", full_page=True)
    assert errors == []


def test_the_lobby_creates_a_table_by_keyboard(a11y_context: Any) -> None:
    page = a11y_context(viewport=PHONE).new_page()
    page.goto("/")
    page.wait_for_selector("#identity:not([hidden]) #player-name")
    assert serious(page) == [], "lobby, first visit"
    tab_to(page, "#player-name")
    page.keyboard.type("Kim")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("whoami")).to_contain_text("Kim")
    page.wait_for_selector("#create-form")
    # The game is chosen with the arrow keys, the seats typed over, the form sent with Enter.
    tab_to(page, "#create-game")
    for _ in range(len(SEATS)):
        if page.input_value("#create-game") == "mine":
            break
        page.keyboard.press("ArrowDown")
    assert page.input_value("#create-game") == "mine"
    tab_to(page, "#create-seats")
    page.keyboard.press("Control+A")
    page.keyboard.type("2")
    assert serious(page) == [], "lobby, create form"
    press_on(page, "#create-submit")
    page.wait_for_url(re.compile(r"/tables/[0-9a-f]+$"))
    page.wait_for_selector("#setup [data-action=add-bot]")
    assert serious(page) == [], "the waiting room"
    press_on(page, "#setup [data-action=add-bot]")
    expect(page.locator("#seats .seat-name", has_text="Bot")).to_have_count(1)
    press_on(page, "#setup [data-action=start]:not(:disabled)")
    page.wait_for_selector("body[data-status='playing']")


def test_the_lobby_rules_and_admin_pages_have_no_serious_violation(
    a11y_context: Any, a11y_api: httpx.Client
) -> None:
    owner = make_player(a11y_api, "Ada")
    table_id = seated_table(a11y_api, owner, bots=2, seats=3, game="luz")
    page = a11y_context(player=owner, viewport=LAPTOP).new_page()
    found: dict[str, list[str]] = {}

    page.goto("/")
    page.wait_for_selector(f"#my-tables [href$='{table_id}']")
    found["lobby"] = serious(page)
    for game in SEATS:
        page.goto(f"/games/{game}/rules")
        page.wait_for_function(FIGURES_DRAWN)
        # The figures are boards drawn by the renderers whose colours the table tests check:
        # contrast over six boards at once takes half a minute, so it is checked on the text
        # (one stylesheet for every game) of one page only.
        found[f"rules {game}"] = serious(
            page, options={"rules": {"color-contrast": {"enabled": False}}}
        )
        # The figures show moments a fresh table does not (a mined pit, the end): colour signs.
        seen, found[f"rules {game} colours"] = colour_problems(page, game, ".figure-board")
        assert seen >= 10, game
        if game == "luz":
            found["rules text"] = serious(
                page, {"exclude": [[".figure-board"]]}, {"runOnly": ["color-contrast"]}
            )
    page.goto("/admin")
    page.fill("#token", ADMIN)
    page.press("#token", "Enter")
    page.wait_for_selector(f"tr[data-table='{table_id}']")
    found["admin"] = serious(page)
    failing = {name: v for name, v in found.items() if v}
    assert failing == {}, "\n".join(f"{name}: {line}" for name, v in failing.items() for line in v)


def test_the_replay_and_player_pages_have_no_serious_violation(
    new_context: Any, api: httpx.Client
) -> None:
    """On the package's server: a finished game of the test game "pick" (played through the API)."""
    ana, ben = make_player(api, "Ana"), make_player(api, "Ben")
    table_id = seated_table(
        api, ana, others=(ben,), bots=0, seats=2, game="pick", options={"pile": 5}
    )
    for _ in range(10):
        for player in (ana, ben):
            state = api.get(f"/tables/{table_id}/state", headers=auth(player)).json()
            takes = [a for a in state["legal_actions"] if a["type"] == "take"]
            if state["status"] != "finished" and takes:
                body = {"version": state["version"], "action": takes[0]}
                api.post(
                    f"/tables/{table_id}/actions", json=body, headers=auth(player)
                ).raise_for_status()
    page = new_context(player=ana, viewport=PHONE).new_page()
    page.goto(f"/tables/{table_id}")
    page.wait_for_selector("body[data-status='finished'] #result:not([hidden])")
    found = {"table, finished": serious(page)}
    page.goto(f"/replays/{table_id}")
    page.wait_for_selector("#log-list li")
    found["replay"] = serious(page)
    page.goto(f"/players/{ana['id']}")
    page.wait_for_selector(f"main [href$='{table_id}']")
    found["player"] = serious(page)
    failing = {name: v for name, v in found.items() if v}
    assert failing == {}, "\n".join(f"{name}: {line}" for name, v in failing.items() for line in v)
