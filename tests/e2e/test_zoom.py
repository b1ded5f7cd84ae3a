"""Zoom shows the whole thing (issue 35.7).

Every zoomable thing of each game's table in play, at 390×844 and 1366×768: its enlarged copy
(static/js/zoom.js) is fitted to the screen with all it draws (a factory tile's price under
it, the city's row and column numbers) inside the zoom dialog and the viewport. On a touch
screen (touch emulation, real touch events) a finger held on a card opens the zoom, its
release does not play the card, and a tap closes it.

One server with the four games for the module; its tables are played a few moves in through
the API (random legal actions, random bots) before any page loads.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import make_player
from tests.e2e.helpers import (
    LAPTOP,
    PHONE,
    context_factory,
    games_server,
    played_tables,
    shot,
)

GAMES = (("ginkgopolis", 2), ("gluckauf", 2), ("mine", 2), ("luz", 3))


@pytest.fixture(scope="module")
def zoom_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    yield from games_server(tmp_path_factory, tuple(g for g, _ in GAMES))


@pytest.fixture
def zoom_context(browser: Any, zoom_server: Any) -> Iterator[Any]:
    yield from context_factory(browser, zoom_server)


@pytest.fixture(scope="module")
def zoom_tables(zoom_server: Any) -> dict[str, Any]:
    import httpx

    url = zoom_server.url + "/api/v1"
    with httpx.Client(base_url=url, timeout=30) as api:
        ana = make_player(api, "Ana")
    with ThreadPoolExecutor(len(GAMES)) as pool:
        done = pool.map(lambda g: played_tables(url, ana, *g, finished=False), GAMES)
        tables = {g: ids["playing"] for (g, _), ids in zip(GAMES, done, strict=True)}
    return {"ana": ana, "tables": tables}


# Open every zoomable of the board in turn (the right click of a mouse: zoom.js's own
# handler), and measure what its copy draws against the dialog and the viewport.
_EVERY_ZOOM = """() => {
  const vw = window.innerWidth, vh = window.innerHeight;
  const all = [...document.querySelectorAll('#board [data-zoom]')].filter((el) => el.getClientRects().length);
  const out = { count: all.length, opened: 0, cut: [], scales: [] };
  for (const [i, el] of all.entries()) {
    el.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true, button: 2 }));
    const dialog = document.querySelector('[data-testid=zoom]');
    if (!dialog?.open) { out.cut.push(`#${i} ${el.className}: did not open`); continue; }
    out.opened += 1;
    out.scales.push(Number(dialog.dataset.scale));
    const box = dialog.getBoundingClientRect();
    const copy = dialog.querySelector('.zoom-copy');
    for (const node of [copy, ...copy.querySelectorAll('*')]) {
      for (const r of node.getClientRects()) {
        if (r.width <= 0 || r.height <= 0) continue;
        const inside = r.left >= box.left - 0.5 && r.right <= box.right + 0.5 && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5
          && r.left >= -0.5 && r.top >= -0.5 && r.right <= vw + 0.5 && r.bottom <= vh + 0.5;
        // What the copy draws must not be cut off by the stage either.
        const stage = dialog.querySelector('.zoom-stage').getBoundingClientRect();
        const seen = r.left >= stage.left - 0.5 && r.right <= stage.right + 0.5 && r.top >= stage.top - 0.5 && r.bottom <= stage.bottom + 0.5;
        if (!inside || !seen) {
          out.cut.push(`#${i} ${el.className} → ${node.className || node.tagName} [${Math.round(r.left)},${Math.round(r.top)},${Math.round(r.right)},${Math.round(r.bottom)}] dialog [${Math.round(box.left)},${Math.round(box.top)},${Math.round(box.right)},${Math.round(box.bottom)}]`);
          break;
        }
      }
    }
    dialog.close();
  }
  return out;
}"""


@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["phone", "laptop"])
@pytest.mark.parametrize("game", [g for g, _ in GAMES])
def test_every_zoom_shows_all_of_its_thing_inside_the_screen(
    zoom_context: Any, zoom_tables: dict[str, Any], game: str, size: dict[str, int]
) -> None:
    page = zoom_context(player=zoom_tables["ana"], viewport=size).new_page()
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.goto(f"/tables/{zoom_tables['tables'][game]}")
    page.wait_for_selector(f"[data-game='{game}'] [data-zoom]")
    seen = page.evaluate(_EVERY_ZOOM)
    assert seen["count"] and seen["opened"] == seen["count"], seen
    assert not seen["cut"], seen["cut"][:5]
    # Small things are enlarged; at least one of each board is shown bigger than on the page.
    assert max(seen["scales"]) > 1, seen["scales"]
    label = "phone" if size == PHONE else "laptop"
    big = {"ginkgopolis": ".gk-city", "gluckauf": ".ga-board .tile"}.get(game, "[data-zoom]")
    page.locator(f"#board {big}[data-zoom]").first.click(button="right")
    expect(page.get_by_test_id("zoom")).to_be_visible()
    shot(page, f"zoom-{game}-{label}.png")
    page.keyboard.press("Escape")
    assert not problems, problems


@pytest.mark.parametrize("game", [g for g, _ in GAMES])
def test_a_long_press_on_a_touch_screen_opens_the_zoom(
    zoom_context: Any, zoom_tables: dict[str, Any], game: str
) -> None:
    context = zoom_context(
        player=zoom_tables["ana"], viewport=PHONE, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    page.goto(f"/tables/{zoom_tables['tables'][game]}")
    page.wait_for_selector(f"[data-game='{game}'] [data-zoom]")
    version = page.get_attribute("body", "data-version")
    zoom = page.get_by_test_id("zoom")
    # A card or tile in the player's own area when there is one (a finger rests on it).
    thing = page.locator("#board [data-zoom]:not(.gk-city)").first
    thing.scroll_into_view_if_needed()
    box = thing.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + min(box["height"] / 2, 12)
    cdp = context.new_cdp_session(page)
    cdp.send(
        "Input.dispatchTouchEvent",
        {"type": "touchStart", "touchPoints": [{"x": x, "y": y, "id": 1}]},
    )
    # The finger stays down until the zoom is open (the hold), then lifts.
    expect(zoom).to_be_visible()
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    expect(zoom.locator(".zoom-copy")).to_have_count(1)
    expect(zoom).to_be_visible()
    # The release did not play the card.
    assert page.get_attribute("body", "data-version") == version
    # A tap closes it.
    page.touchscreen.tap(10, 10)
    expect(zoom).to_be_hidden()
