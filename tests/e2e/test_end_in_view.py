"""Issue 35.1, the end in view: when the last move lands, the result (its heading and the final
ranking) comes into view on the page of a player who made the last decision far down the
page, and on a spectator's, in each of the four games, on a phone and on a laptop; smooth only
for people who did not ask for reduced motion. A round's scoring a renderer marks comes into
view the same way (data-scored).

The human seat's decisions go through the API (the engine's own bot chooses them) while the
pages look on from the bottom of the page: what matters is where the page is when the end
frame arrives, wherever the last click was.
"""

from __future__ import annotations

import random
import time
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from app.games import REGISTRY
from app.games.base import action_adapter
from tests.e2e.conftest import auth, make_player
from tests.e2e.helpers import LAPTOP, PHONE, game_fixtures, seated_table, shot

GAMES = ("gluckauf", "mine", "luz", "ginkgopolis")
SEATS = {"gluckauf": 2, "mine": 2, "luz": 3, "ginkgopolis": 2}
ev_server, ev_api, ev_context = game_fixtures(GAMES, "ev")

# Every scrollIntoView the page asks for, with its behaviour (smooth or instant).
RECORD_SCROLLS = """
window.__scrolls = [];
const original = Element.prototype.scrollIntoView;
Element.prototype.scrollIntoView = function (options) {
  window.__scrolls.push({ id: this.id || '', scored: this.dataset?.scored || null,
                          behavior: (options && options.behavior) || 'auto' });
  return original.call(this, options);
};
// Each new scoring mark, and whether it stood in view once the page settled: a mark already
// on the screen needs no scroll.
window.__scored_seen = [];
let lastScored = null;
new MutationObserver(() => {
  const el = document.querySelector('#board [data-scored]');
  const key = el ? el.dataset.scored : null;
  if (key === lastScored) return;
  lastScored = key;
  if (!key) return;
  // Read once the table has placed the page (two frames: table.js scrolls on the next one).
  requestAnimationFrame(() => requestAnimationFrame(() => {
    // The mark as drawn now (a redraw replaces the element).
    const now = document.querySelector('#board [data-scored]') || el;
    const r = now.getBoundingClientRect();
    window.__scored_seen.push({ key, in_view: r.bottom > 0 && r.top < window.innerHeight });
  }));
}).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-scored'] });
"""

# The result's heading and its ranking, whole inside the viewport.
RESULT_IN_VIEW = """
() => {
  const inside = (el) => {
    if (!el || !el.getClientRects().length) return false;
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0;
  };
  return inside(document.querySelector('#result h2'))
    && inside(document.querySelector('#result [data-testid=ranking]'));
}
"""

BOXES = """
() => ({
  viewport: window.innerHeight, scroll: window.scrollY,
  height: document.documentElement.scrollHeight,
  heading: document.querySelector('#result h2')?.getBoundingClientRect().toJSON(),
  ranking: document.querySelector('#result [data-testid=ranking]')?.getBoundingClientRect().toJSON(),
  scrolls: window.__scrolls,
})
"""

TO_BOTTOM = "window.scrollTo(0, document.documentElement.scrollHeight)"


def _state(api: httpx.Client, table_id: str, player: dict[str, str]) -> dict[str, Any]:
    response = api.get(f"/tables/{table_id}/state", headers=auth(player))
    response.raise_for_status()
    return dict(response.json())


def _decide(
    api: httpx.Client, table_id: str, player: dict[str, str], rng: random.Random, before: Any
) -> bool:
    """One decision of ``player`` chosen by the game's bot and sent through the API; False
    once the game is over. Waits (by polling the state) while it is someone else's turn."""
    engine = REGISTRY[_game(api, table_id)]
    for _ in range(2000):
        state = _state(api, table_id, player)
        if state["status"] == "finished":
            return False
        if state["legal_actions"]:
            break
        time.sleep(0.02)  # a bot is deciding
    else:
        raise AssertionError("the player never got a decision")
    adapter = action_adapter(engine)
    legal = [adapter.validate_python(a) for a in state["legal_actions"]]
    view = engine._view_model.model_validate(state["view"])  # type: ignore[attr-defined]
    choice = engine.bot(view, legal, rng)
    before(state["version"])
    answer = api.post(
        f"/tables/{table_id}/actions",
        json={"version": state["version"], "action": choice.model_dump(mode="json")},
        headers=auth(player),
    )
    if answer.status_code == 409:  # the table moved on meanwhile (a bot): ask again
        return True
    answer.raise_for_status()
    return True


_GAME_OF: dict[str, str] = {}


def _game(api: httpx.Client, table_id: str) -> str:
    if table_id not in _GAME_OF:
        _GAME_OF[table_id] = api.get(f"/tables/{table_id}").json()["game"]
    return _GAME_OF[table_id]


def _play_out(
    api: httpx.Client, table_id: str, player: dict[str, str], pages: list[Any], *, settle: bool
) -> None:
    """Play the game out by the API while the pages look at their bottom. ``settle``: wait
    for each page to draw every decision first (slow with motion: the laptop run only needs
    the pages scrolled away from the top when the game ends)."""
    rng = random.Random(35)

    def to_bottom(version: int) -> None:
        for page in pages:
            # The page has drawn this decision (and brought its target into view), then the
            # person scrolls down the page and takes it there.
            if settle:
                page.wait_for_function(f"() => Number(document.body.dataset.version) >= {version}")
            page.evaluate(TO_BOTTOM)

    for _ in range(3000):
        if not _decide(api, table_id, player, rng, to_bottom):
            return
    raise AssertionError("the game did not end")


def _assert_result_in_view(page: Any, motion: str) -> None:
    expect(page.locator("body")).to_have_attribute("data-status", "finished", timeout=30_000)
    try:
        page.wait_for_function(RESULT_IN_VIEW, timeout=10_000)
    except Exception as exc:
        boxes = page.evaluate(BOXES)
        raise AssertionError(f"the result is not in view: {boxes}") from exc
    scrolls = page.evaluate("window.__scrolls.filter((s) => s.id === 'result')")
    # What counts is that the result is in view (above); a page that already showed it where
    # the reader was needs no scroll. A scroll, when there was one, respects reduced motion.
    assert {s["behavior"] for s in scrolls} <= {"smooth" if motion == "motion" else "auto"}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    ("viewport", "locale", "motion"),
    [
        pytest.param(PHONE, "es-ES", "reduce", id="phone-es"),
        pytest.param(LAPTOP, "en-GB", "motion", id="laptop-en-motion"),
    ],
)
def test_the_result_comes_into_view_for_the_player_and_a_spectator(
    ev_context: Any,
    ev_api: httpx.Client,
    game: str,
    viewport: dict[str, int],
    locale: str,
    motion: str,
) -> None:
    owner = make_player(ev_api, "Alice2")
    table_id = seated_table(ev_api, owner, bots=SEATS[game] - 1, seats=SEATS[game], game=game)
    pages = []
    problems: list[str] = []
    for who in (owner, None):
        context = ev_context(locale=locale, player=who, viewport=viewport)
        context.add_init_script(RECORD_SCROLLS)
        page = context.new_page()
        page.on("pageerror", lambda exc: problems.append(str(exc)))
        if motion == "motion":
            page.emulate_media(reduced_motion="no-preference")
        page.goto(f"/tables/{table_id}")
        expect(page.locator("body")).to_have_attribute("data-status", "playing")
        pages.append(page)
    player_page, spectator_page = pages
    # The pages must be longer than the screen for this to mean anything.
    height = player_page.evaluate("document.documentElement.scrollHeight")
    assert height > viewport["height"], height

    _play_out(ev_api, table_id, owner, pages, settle=viewport == PHONE)

    for page in pages:
        _assert_result_in_view(page, motion)
    expect(player_page.locator("#result [data-action=play-again]")).to_be_visible()
    if viewport == PHONE and game != "ginkgopolis":  # Ginkgopolis scores only at the end
        # A deal, a round or a shift scored while the spectator looked at the bottom of the
        # page: what it gave came into view (the renderer's data-scored mark).
        scrolled = spectator_page.evaluate("window.__scrolls.filter((s) => s.scored)")
        seen = spectator_page.evaluate("window.__scored_seen")
        assert scrolled or any(s["in_view"] for s in seen), (
            f"no scoring came into view for the spectator: {seen}"
        )
    size = "phone" if viewport == PHONE else "laptop"
    shot(player_page, f"{game}-end-{size}.png")
    shot(spectator_page, f"{game}-end-{size}-spectator.png")
    assert not problems, problems
