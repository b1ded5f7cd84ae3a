"""Issue 35.1, the end in view: when the last move lands, the result (its heading and the final
ranking) comes into view on the page of a player who made the last decision far down the
page, and on a spectator's, in each of the four games on a phone and in the three that score
mid-game on a laptop; smooth only for people who did not ask for reduced motion. A round's scoring a renderer marks comes into
view the same way (data-scored).

The human seat's decisions go through the API (the engine's own bot chooses them); the
longer games are played without pages up to a point with a scoring still to come, then the
pages look on from the bottom of the page: what matters is where the page is when the end
frame arrives, wherever the last click was. On a laptop the player's page stays where its
decisions put it, with its animation frames held between them: a scoring drawn late never
takes the page away from the person's next decision.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from app.games import REGISTRY
from app.games.base import action_adapter
from tests.e2e.conftest import auth, make_player
from tests.e2e.helpers import LAPTOP, PHONE, assert_in_view, game_fixtures, seated_table, shot

GAMES = ("gluckauf", "mine", "luz", "ginkgopolis")
SEATS = {"gluckauf": 2, "mine": 2, "luz": 3, "ginkgopolis": 2}
# The games that score between two decisions (a shift, a round, a deal); Ginkgopolis scores
# only at the end.
SCORE_MID_GAME = ("gluckauf", "mine", "luz")
# The longer games are played through the API alone up to here, and the pages open with a
# scoring still to come: the second shift, the last deal but one, Ginkgopolis's tenth round
# (its games between two bots last 17 to 27).
OPEN_PAGES_AT: dict[str, Callable[[dict[str, Any]], bool]] = {
    "gluckauf": lambda view: view["shift"] >= 2,
    "luz": lambda view: view["deal"] >= view["deals_total"] - 1,
    "ginkgopolis": lambda view: view["round"] >= 10,
}
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


def _wait_for(page: Any, drawn: str, version: int) -> None:
    """``drawn(version)`` holds on the page, polled by a timer (held frames poll nothing; a
    busy machine delays them); on a timeout, the page's state says why."""
    try:
        page.wait_for_function(drawn, arg=version, polling=50, timeout=30_000)
    except Exception as exc:
        body = page.evaluate("({ ...document.body.dataset })")
        raise AssertionError(f"the page never drew {drawn} for {version}: {body}") from exc


DRAWN = "(version) => Number(document.body.dataset.version) >= version"


# Animation frames held back while window.__hold is set, then run in order on release: what a
# frame was asked to do runs after the frames that came meanwhile, as on a slow phone or when
# a bot answers within one frame.
HOLD_FRAMES = """
window.__hold = false;
window.__held = [];
const requestFrame = window.requestAnimationFrame.bind(window);
window.requestAnimationFrame = (callback) => {
  if (!window.__hold) return requestFrame(callback);
  window.__held.push(callback);
  return 0;
};
window.__release = () => new Promise((done) => {
  window.__hold = false;
  for (const callback of window.__held.splice(0)) requestFrame(callback);
  // Two frames later every held callback has run, and whatever it scrolled has landed.
  requestFrame(() => requestFrame(() => done()));
});
"""

SCORED_KEY = "document.querySelector('#board [data-scored]')?.dataset.scored ?? null"
MY_NEXT_DECISION = """
(version) => document.body.dataset.status === 'finished'
  || (Number(document.body.dataset.version) > version && document.body.dataset.turn === 'me')
"""


def _play_out(
    api: httpx.Client,
    table_id: str,
    player: dict[str, str],
    pages: list[Any],
    *,
    settle: bool,
    held: Any = None,
) -> int:
    """Play the game out by the API while the pages look at their bottom. ``settle``: wait
    for the player's page (the first) to draw every decision first (slow with motion: the
    laptop run only needs the pages scrolled away from the top when the game ends).

    ``held`` (the player's page on a laptop): it stays where its decisions put it, as when a
    person clicks; its animation frames are held from each decision sent until the person's
    next decision is drawn, and then a legal target of that decision is in view: a scoring
    that came meanwhile, and asked for a scroll on a frame that ran only now, does not take
    the page away from it. Returns how many times a scoring came while held."""
    rng = random.Random(35)
    sent: list[tuple[int, Any]] = []

    def to_bottom(version: int) -> None:
        for page in pages:
            # The page has drawn this decision (and brought its target into view), then the
            # person scrolls down the page and takes it there.
            if settle and page is pages[0]:
                _wait_for(page, DRAWN, version)
            if page is not held:  # the held page stays where its decisions put it
                page.evaluate(TO_BOTTOM)
        if held is not None:
            sent.append((version, held.evaluate(SCORED_KEY)))
            held.evaluate("window.__hold = true")

    scored_while_held = 0
    for _ in range(3000):
        going = _decide(api, table_id, player, rng, to_bottom)
        if held is not None and sent:
            version, scored_before = sent.pop()
            _wait_for(held, MY_NEXT_DECISION, version)
            playing = held.get_attribute("body", "data-status") != "finished"
            scored_while_held += playing and held.evaluate(SCORED_KEY) != scored_before
            held.evaluate("window.__release()")
            if playing:
                assert_in_view(held)
        if not going:
            return scored_while_held
    raise AssertionError("the game did not end")


def _play_until(
    api: httpx.Client, table_id: str, player: dict[str, str], done: Callable[[dict[str, Any]], bool]
) -> None:
    """The player's decisions through the API alone until ``done(view)`` at one of them."""
    rng = random.Random(34)
    for _ in range(3000):
        state = _state(api, table_id, player)
        if state["status"] == "playing" and state["legal_actions"] and done(state["view"]):
            return
        assert _decide(api, table_id, player, rng, lambda version: None), "the game ended first"
    raise AssertionError("the point to open the pages never came")


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


# Every game on a phone in Spanish with reduced motion; on a laptop in English with motion,
# the games that score between two decisions, whose player's page is held (a Ginkgopolis end
# on a laptop is the same shell code as theirs, with nothing to race with before it).
CASES = [
    *(pytest.param(game, PHONE, "es-ES", "reduce", id=f"phone-es-{game}") for game in GAMES),
    *(
        pytest.param(game, LAPTOP, "en-GB", "motion", id=f"laptop-en-motion-{game}")
        for game in SCORE_MID_GAME
    ),
]


@pytest.mark.parametrize(("game", "viewport", "locale", "motion"), CASES)
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
    if game in OPEN_PAGES_AT:
        _play_until(ev_api, table_id, owner, OPEN_PAGES_AT[game])
    pages = []
    problems: list[str] = []
    # On a laptop the player's page plays as a person clicks (it stays where its decisions put
    # it, its frames held between them: _play_out), with reduced motion so that every scroll
    # has landed when it is read; the spectator's reads from the bottom, with motion.
    laptop = viewport == LAPTOP
    hold = laptop and game in SCORE_MID_GAME
    for who in (owner, None):
        held = hold and who is owner
        context = ev_context(locale=locale, player=who, viewport=viewport)
        context.add_init_script(RECORD_SCROLLS)
        if held:
            context.add_init_script(HOLD_FRAMES)
        page = context.new_page()
        page.on("pageerror", lambda exc: problems.append(str(exc)))
        if motion == "motion" and not held:
            page.emulate_media(reduced_motion="no-preference")
        page.goto(f"/tables/{table_id}")
        expect(page.locator("body")).to_have_attribute("data-status", "playing")
        pages.append(page)
    player_page, spectator_page = pages
    # The pages must be longer than the screen for this to mean anything.
    height = player_page.evaluate("document.documentElement.scrollHeight")
    assert height > viewport["height"], height

    scored_while_held = _play_out(
        ev_api, table_id, owner, pages, settle=not laptop, held=player_page if hold else None
    )
    if hold:
        # The player's page met the race it was held for: a scoring between two decisions.
        assert scored_while_held, "no scoring came between two decisions of the player"

    _assert_result_in_view(player_page, "reduce" if hold else motion)
    _assert_result_in_view(spectator_page, motion)
    expect(player_page.locator("#result [data-action=play-again]")).to_be_visible()
    if viewport == PHONE and game in SCORE_MID_GAME:
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
