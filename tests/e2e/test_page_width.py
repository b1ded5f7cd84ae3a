"""Nothing wider than the screen, on any page (issue 35.3).

Every page the suite reaches, at 390×844 and 1366×768, in Spanish and English: the lobby, a
table of each game in play and finished (its result), its replay, the player page, the
admin page signed in, each game's rules, a gone table and an unknown page. None scrolls
sideways, and nothing reaches past the right edge except inside a box that scrolls sideways
by itself (``helpers.assert_no_sideways_scroll``). Each game's decisions, discards included,
are checked by its by-click test (``helpers.assert_in_view`` calls the same check).

One server with the four games for the module; its tables are played through the API (a
random legal action for the person, random bots for the other seats) before any page loads.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from tests.e2e.conftest import make_player
from tests.e2e.helpers import (
    LAPTOP,
    PHONE,
    assert_no_sideways_scroll,
    context_factory,
    games_server,
    played_tables,
    seated_table,
    shot,
)

ADMIN = "page-width-admin-token-0123456789"
GAMES = (("ginkgopolis", 2), ("gluckauf", 4), ("mine", 2), ("luz", 5))


@pytest.fixture(scope="module")
def pw_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    yield from games_server(tmp_path_factory, tuple(g for g, _ in GAMES), admin_token=ADMIN)


@pytest.fixture
def pw_context(browser: Any, pw_server: Any) -> Iterator[Any]:
    yield from context_factory(browser, pw_server)


@pytest.fixture(scope="module")
def pw_tables(pw_server: Any) -> dict[str, Any]:
    url = pw_server.url + "/api/v1"
    with httpx.Client(base_url=url, timeout=30) as api:
        ana = make_player(api, "Alejandra Fernández")
        with ThreadPoolExecutor(len(GAMES)) as pool:
            done = pool.map(lambda g: played_tables(url, ana, *g), GAMES)
            tables = dict(zip((g for g, _ in GAMES), done, strict=True))
        waiting = seated_table(api, ana, bots=1, seats=3, game="gluckauf", start=False)
    return {"ana": ana, "tables": tables, "waiting": waiting}


def _pages(data: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(name, path, a selector that is there once the page has drawn itself)."""
    pages = [
        ("lobby", "/", "#create-game option"),
        ("waiting", f"/tables/{data['waiting']}", "#seats .seat-name"),
        ("player", f"/players/{data['ana']['id']}", "#ratings table, #ratings .empty"),
        ("admin", "/admin", "tr[data-table]"),
        ("gone-table", "/tables/0000000000", ".gone"),
        ("not-found", "/no/such/page", "#gone"),
    ]
    for game, ids in data["tables"].items():
        pages += [
            (f"{game}-playing", f"/tables/{ids['playing']}", f"[data-game='{game}']"),
            (f"{game}-result", f"/tables/{ids['finished']}", "#result:not([hidden])"),
            (f"{game}-replay", f"/replays/{ids['finished']}", f"[data-game='{game}']"),
            (f"{game}-rules", f"/games/{game}/rules", "main h1, main h2"),
        ]
    return pages


# Both languages on a phone; a laptop in Spanish, whose words are the longer (the table and
# the result in English are read at every decision of each game's laptop playthrough).
@pytest.mark.parametrize(
    ("size", "locale"),
    [
        pytest.param(PHONE, "es-ES", id="phone-es"),
        pytest.param(PHONE, "en-GB", id="phone-en"),
        pytest.param(LAPTOP, "es-ES", id="laptop-es"),
    ],
)
def test_no_page_is_wider_than_the_screen(
    pw_context: Any, pw_tables: dict[str, Any], size: dict[str, int], locale: str
) -> None:
    context = pw_context(locale=locale, player=pw_tables["ana"], viewport=size)
    context.add_init_script(f"sessionStorage.setItem('partida.admin_token', '{ADMIN}');")
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    label = f"{'phone' if size == PHONE else 'laptop'}-{locale[:2]}"
    for name, path, ready in _pages(pw_tables):
        page.goto(path)
        page.wait_for_selector(ready, state="attached")
        page.wait_for_function("document.fonts.status === 'loaded'")
        assert_no_sideways_scroll(page, f"{name} at {size['width']}px in {locale}")
        if name in ("player", "admin"):
            shot(page, f"width-{name}-{label}.png", full_page=True)
    assert not problems, problems


# A last move's name tag hangs off its element's corner (lastmove.js): beside the right edge
# of a box that scrolls sideways (a city's scroller) it slides back inside that box.
_TAG_IN_A_SCROLLER = """async () => {
  const { markLastMoves } = await import('/static/js/lastmove.js');
  const root = document.createElement('div');
  root.innerHTML = `<div class="scroller" style="overflow:auto;width:200px">
    <div style="display:flex;justify-content:flex-end;width:200px">
      <span data-flip="cell" style="display:inline-block;width:30px;height:30px"></span>
    </div></div>`;
  document.body.prepend(root);
  markLastMoves(root, new Map([[1, { version: 1, keys: ['cell'] }]]), () => 'A long seat name (random)');
  const scroller = root.querySelector('.scroller');
  const tag = root.querySelector('.last-move-tag').getBoundingClientRect();
  const box = scroller.getBoundingClientRect();
  return { scroll: scroller.scrollWidth, client: scroller.clientWidth, inside: tag.right <= box.right + 0.5 && tag.left >= box.left - 0.5 };
}"""


def test_a_last_move_tag_stays_inside_the_box_that_scrolls_its_element(pw_context: Any) -> None:
    page = pw_context(viewport=PHONE).new_page()
    page.goto("/")
    seen = page.evaluate(_TAG_IN_A_SCROLLER)
    assert seen["inside"] and seen["scroll"] <= seen["client"], seen
