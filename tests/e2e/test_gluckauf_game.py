"""Glück Auf in the browser: a person plays a whole 2-player game against a bot by clicks,
and the board shows nobody a delivered card or a drawn tile the view does not give them.

The package's server (conftest.py) hosts Luz and the test game only, so this module starts
its own server with the Glück Auf engine.
"""

from __future__ import annotations

import random
import re
import time
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect
from pydantic import TypeAdapter

from tests.e2e.conftest import auth, make_player
from tests.e2e.helpers import (
    GAME_OVER,
    LAPTOP,
    PHONE,
    SIZES_AND_LANGUAGES,
    TURN_OR_END,
    assert_in_view,
    assert_no_sideways_scroll,
    game_fixtures,
    seated_table,
    shot,
)

ga_server, ga_api, ga_context = game_fixtures("gluckauf", "ga")


# ------------------------------------------------------------------ playing by clicks

# One evaluation reads the board and names the highlighted button to click (its index among
# the board's legal buttons); the click itself is an ordinary Playwright click.
PLAN = """
([turn, drawing]) => {
  const q = (sel, root = document) => Array.from(root.querySelectorAll(sel));
  const legal = q('.gluckauf button.legal');
  const pick = (el, kind) => (el ? [legal.indexOf(el), kind] : null);
  const game = document.querySelector('.gluckauf');
  const phase = game.dataset.phase;
  const me = document.querySelector('.ga-player.is-me');
  if (phase === 'draft') return pick(q('.ga-draft button.order.legal')[0], 'draft');
  if (phase === 'place') {
    const spaces = q('.ga-board button.space.legal');
    const ids = spaces.map((e) => e.dataset.space);
    const rotation = ['MINE', 'FACT-', 'ORDER-', 'MINE', 'MONEY', 'FACT-DRAW', 'MINE', 'FACT-', 'ORDER-', 'MINE', 'MONEY', 'ORDER-DRAW'];
    // One draw of each kind in the first shift shows those steps; later turns skip them.
    let prefix = rotation[turn % rotation.length];
    if (prefix.endsWith('DRAW') && !drawing) prefix = 'MONEY';
    const wanted = ids.filter((s) => s.startsWith('DELIV'));
    if (prefix === 'FACT-') wanted.push(...ids.filter((s) => s.startsWith('FACT-') && s !== 'FACT-DRAW'));
    else wanted.push(...ids.filter((s) => s.startsWith(prefix)));
    wanted.push(...ids.filter((s) => s.startsWith('MINE')));
    const choice = wanted.length ? wanted[0] : ids[0];
    return pick(spaces[ids.indexOf(choice)], 'place');
  }
  if (phase === 'mining') {
    const fill = me.querySelector('.order [data-ga-action=unload_cube], .order [data-ga-action=place_stored_cube]');
    if (fill) return pick(fill, 'mining');
    const cage = q('.cage .cube', me).length;
    const level = Number(me.querySelector('.shaft.has-cage').dataset.level);
    const steps = Number(document.querySelector('.mining-steps').dataset.stepsLeft);
    const load = me.querySelector('.load-btn');
    if (load && cage < 2 && steps > level + 1) return pick(load, 'mining');
    const up = me.querySelector(".move-here[data-level='0']");
    if (cage && level !== 0 && up) return pick(up, 'mining');
    const store = me.querySelector('.store-btn');
    if (cage && level === 0 && store) return pick(store, 'mining');
    for (const spot of q('.order .spot.open', me)) {
      const target = { Y: 1, B: 2, G: 3, K: 4 }[spot.dataset.colour];
      const full = me.querySelector(`.pit-row[data-level='${target}'] .cart.full`);
      const move = me.querySelector(`.move-here[data-level='${target}']`);
      if (full && move && steps >= target + 3) return pick(move, 'mining');
    }
    return pick(document.querySelector('.ga-decision .stop-mining'), 'stop');
  }
  if (phase === 'two_for_one') return pick(document.querySelector('.ga-decision [data-ga-action=add_cube]'), 'mining');
  if (phase === 'keep') {
    // Orders are kept (the first one drawn); tiles are left (keep nothing).
    const order = document.querySelector('.ga-decision .drawn.kind-order button.drawn-item');
    return pick(order || document.querySelector('.ga-decision .keep-none'), 'draw');
  }
  if (phase === 'choose_end') return pick(document.querySelector(".ga-decision .end-btn[data-end='bottom']"), 'draw');
  if (phase === 'return') return pick(document.querySelector('.ga-decision button.drawn-item'), 'draw');
  if (phase === 'choose_coal') return pick(document.querySelector('.ga-decision [data-ga-action=choose_coal]'), 'draw');
  return null;
}
"""


def _one_move(page: Any, moves: dict[str, int], look: Any = None) -> None:
    """Answer one decision of the person with one click on a highlighted button
    (``look(page, board=True)`` first, when given: see ``helpers.assert_in_view``)."""
    if look is not None:
        look(page, board=True)
    plan = page.evaluate(PLAN, [moves["place"], moves["place"] < 12])
    assert plan is not None and plan[0] >= 0, f"nothing to click: {plan}"
    index, kind = plan
    moves[kind] += 1
    if kind == "stop":
        moves["mining"] += 1
    page.locator(".gluckauf button.legal").nth(index).click()


def test_a_person_plays_a_two_player_game_against_a_bot_by_clicks(
    ga_context: Any, ga_api: httpx.Client
) -> None:
    started = time.monotonic()
    owner = make_player(ga_api, "Ana")
    table_id = seated_table(
        ga_api, owner, bots=1, seats=2, game="gluckauf", options={"starting_player": 0}
    )
    # A small laptop: at every decision the prompt and a target are in view (issue 18.1).
    page = ga_context(player=owner, viewport=LAPTOP).new_page()
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.goto(f"/tables/{table_id}")

    # The draft: the bot (to the starter's right) picks first; Ana's cards are highlighted.
    page.wait_for_selector(TURN_OR_END)
    expect(page.locator(".gluckauf")).to_have_attribute("data-phase", "draft")
    expect(page.locator(".ga-draft button.order.legal").first).to_be_visible()
    expect(page.locator(".ga-player")).to_have_count(2)
    expect(page.locator(".ga-board .space.locked")).to_have_count(7)
    shot(page, "gluckauf-draft.png", full_page=True)

    moves = {"draft": 0, "place": 0, "mining": 0, "stop": 0, "draw": 0}
    shots = {"place": False, "mining": False}
    for _ in range(600):
        page.wait_for_selector(TURN_OR_END, timeout=15_000)
        if page.get_attribute("body", "data-status") == "finished":
            break
        phase = page.get_attribute(".gluckauf", "data-phase")
        if phase == "place" and not shots["place"] and moves["place"] >= 6:
            shot(page, "gluckauf-place.png", full_page=True)
            shots["place"] = True
        if phase == "mining" and not shots["mining"] and moves["mining"] >= 2:
            expect(page.locator(".ga-decision .stop-mining")).to_be_visible()
            expect(page.locator(".ga-player.is-me .move-here").first).to_be_visible()
            shot(page, "gluckauf-mining.png", full_page=True)
            shots["mining"] = True
        _one_move(page, moves, look=assert_in_view)
    else:
        raise AssertionError(f"the game did not end: {moves}")
    elapsed = time.monotonic() - started
    print("moves", moves, f"{elapsed:.1f}s")

    assert moves["draft"] == 3 and moves["place"] >= 15 and moves["mining"] >= 5, moves
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#result .ranking .rank-row")).to_have_count(2)
    expect(page.locator("#result .ranking .rank-row", has_text="Ana")).to_have_count(1)
    final = page.get_by_test_id("gluckauf-final")
    expect(final.locator("tr.row-total td")).to_have_count(2)
    expect(page.locator(".gluckauf")).to_have_attribute("data-phase", "over")
    log = page.locator("#log-list")
    expect(log).to_contain_text("Shift 3 scoring")
    expect(log).to_contain_text("Game over")
    delivered = log.locator("li", has_text=re.compile(r"delivered by .*→ \+\d+ VP"))
    expect(delivered).not_to_have_count(0)
    # One final-scoring line per player; a total can be negative (open orders, imbalance).
    expect(log.locator("li", has_text=re.compile(r"→ -?\d+ VP"))).to_have_count(2)
    shot(page, "gluckauf-end.png", full_page=True)
    assert not problems, problems


@pytest.mark.parametrize(("viewport", "locale"), SIZES_AND_LANGUAGES)
def test_the_decision_and_a_target_are_always_in_view(
    ga_context: Any, ga_api: httpx.Client, viewport: dict[str, int], locale: str
) -> None:
    """Issue 18.1: the mining counter and "stop mining" sit in the bar docked at the bottom
    while the shaft is on the screen; every decision of a whole game, read before each click."""
    owner = make_player(ga_api, "Lucía")
    table_id = seated_table(
        ga_api, owner, bots=1, seats=2, game="gluckauf", options={"starting_player": 0}
    )
    page = ga_context(locale=locale, player=owner, viewport=viewport).new_page()
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.goto(f"/tables/{table_id}")
    moves = {"draft": 0, "place": 0, "mining": 0, "stop": 0, "draw": 0}
    for _ in range(600):
        page.wait_for_selector(TURN_OR_END, timeout=15_000)
        if page.get_attribute("body", "data-status") == "finished":
            break
        if page.get_attribute(".gluckauf", "data-phase") == "mining" and moves["mining"] == 2:
            expect(page.locator(".ga-decision .mining-steps")).to_contain_text(
                {"es-ES": "pasos", "en-GB": "steps"}[locale]
            )
            if (viewport, locale) == (PHONE, "es-ES"):
                shot(page, "gluckauf-decision-phone.png")
        _one_move(page, moves, look=assert_in_view)
    else:
        raise AssertionError(f"the game did not end: {moves}")
    assert moves["draft"] == 3 and moves["mining"] >= 5, moves
    expect(page.locator("#turn-banner")).to_contain_text(GAME_OVER[locale])
    assert_no_sideways_scroll(page, "the result")  # issue 35.3
    assert not problems, problems


# ------------------------------------------------------------------ hidden information


def _state(
    api: httpx.Client, table_id: str, player: dict[str, str] | None = None
) -> dict[str, Any]:
    headers = auth(player) if player else {}
    response = api.get(f"/tables/{table_id}/state", headers=headers)
    response.raise_for_status()
    return dict(response.json())


def _bot_move(api: httpx.Client, table_id: str, player: dict[str, str], rng: random.Random) -> None:
    """Let the engine's bot choose for ``player`` and send its choice through the API."""
    from app.games.gluckauf import ENGINE
    from app.games.gluckauf.actions import Action
    from app.games.gluckauf.view import GluckaufView

    state = _state(api, table_id, player)
    adapter: TypeAdapter[Any] = TypeAdapter(Action)
    legal = [adapter.validate_python(a) for a in state["legal_actions"]]
    choice = ENGINE.bot(GluckaufView.model_validate(state["view"]), legal, rng)
    api.post(
        f"/tables/{table_id}/actions",
        json={"version": state["version"], "action": choice.model_dump(mode="json")},
        headers=auth(player),
    ).raise_for_status()


def _data(page: Any, selector: str, attr: str) -> list[int]:
    values = page.locator(selector).evaluate_all(f"els => els.map(e => e.dataset.{attr})")
    return sorted(int(v) for v in values)


def test_nobody_sees_a_delivered_card_or_a_drawn_tile_the_view_does_not_give_them(
    ga_context: Any, ga_api: httpx.Client
) -> None:
    ana, ben = make_player(ga_api, "Ana"), make_player(ga_api, "Ben")
    table_id = seated_table(
        ga_api, ana, bots=0, others=(ben,), seats=2, game="gluckauf", options={"starting_player": 0}
    )
    players = {0: ana, 1: ben}
    rng = random.Random(5)
    # Both play by the engine's bot until each has delivered, then Ana draws five tiles.
    for _ in range(400):
        public = _state(ga_api, table_id)
        view = public["view"]
        seat = public["to_act"][0]
        done = all(p["delivered_count"] > 0 for p in view["players"])
        if done and seat == 0 and view["phase"] == "place":
            mine = _state(ga_api, table_id, ana)
            draw = next((a for a in mine["legal_actions"] if a.get("space") == "FACT-DRAW"), None)
            if draw is not None:
                ga_api.post(
                    f"/tables/{table_id}/actions",
                    json={"version": mine["version"], "action": draw},
                    headers=auth(ana),
                ).raise_for_status()
                break
        _bot_move(ga_api, table_id, players[seat], rng)
    else:
        raise AssertionError("no delivery by both players and no draw in time")

    ana_view = _state(ga_api, table_id, ana)["view"]
    ben_view = _state(ga_api, table_id, ben)["view"]
    public = _state(ga_api, table_id)["view"]
    drawn = sorted(t["id"] for t in ana_view["draw"]["drawn"])
    assert len(drawn) == 5 and ben_view["draw"]["drawn"] is None and public["draw"]["drawn"] is None
    ana_delivered = sorted(o["id"] for o in ana_view["players"][0]["delivered"])
    ben_delivered = sorted(o["id"] for o in ben_view["players"][1]["delivered"])

    # The spectator: counts only, no delivered card, no drawn tile.
    watcher = ga_context(locale="es-ES").new_page()
    watcher.goto(f"/tables/{table_id}")
    expect(watcher.locator(".gluckauf.spectator")).to_be_visible()
    expect(watcher.locator(".ga-status")).to_contain_text("Turno")
    expect(watcher.locator(".delivered-area .hidden-pile")).to_have_count(2)
    assert _data(watcher, ".delivered-area [data-order]", "order") == []
    expect(watcher.locator(".ga-decision .drawn")).to_have_count(0)
    expect(watcher.locator(".ga-decision")).to_contain_text("5 túneles")
    shot(watcher, "gluckauf-spectator-es.png", full_page=True)
    # Every tile the spectator's page shows is public: on the board or in a pit.
    public_tiles = {s["tile"]["id"] for s in public["spaces"] if s["tile"]}
    public_tiles |= {t["tile"]["id"] for p in public["players"] for t in p["tiles"]}
    assert set(_data(watcher, "[data-tile]", "tile")) <= public_tiles

    # Ben: his own delivered cards, Ana's only as a count, none of Ana's drawn tiles.
    ben_page = ga_context(player=ben).new_page()
    ben_page.goto(f"/tables/{table_id}")
    expect(ben_page.locator(".ga-player.is-me .delivered-area .order")).to_have_count(
        len(ben_delivered)
    )
    assert (
        _data(ben_page, ".ga-player.is-me .delivered-area [data-order]", "order") == ben_delivered
    )
    expect(ben_page.locator(".ga-player[data-seat='0'] .hidden-pile")).to_have_count(1)
    assert _data(ben_page, ".ga-player[data-seat='0'] .delivered-area [data-order]", "order") == []
    expect(ben_page.locator(".ga-decision .drawn")).to_have_count(0)
    assert set(_data(ben_page, "[data-tile]", "tile")) <= public_tiles

    # Ana: her five tiles to choose from, her delivered cards, Ben's pile face down.
    page = ga_context(player=ana).new_page()
    page.goto(f"/tables/{table_id}")
    expect(page.locator(".ga-decision .drawn-item")).to_have_count(5)
    assert _data(page, ".ga-decision .drawn-item", "item") == drawn
    assert _data(page, ".ga-player.is-me .delivered-area [data-order]", "order") == ana_delivered
    expect(page.locator(".ga-player[data-seat='1'] .hidden-pile")).to_have_count(1)
    expect(page.locator(".ga-decision .keep-none")).to_be_visible()
    shot(page, "gluckauf-draw.png", full_page=True)
    shot(page.locator(".ga-decision"), "gluckauf-draw-decision.png")
    shot(page.locator(".ga-player.is-me"), "gluckauf-pit.png")

    # A phone: one column, the decision and the pits still reachable, no sideways scroll.
    page.set_viewport_size({"width": 390, "height": 844})
    expect(page.locator(".ga-decision .keep-none")).to_be_visible()
    shot(page, "gluckauf-phone.png", full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    wide = page.evaluate(
        """() => Array.from(document.querySelectorAll('.gluckauf *'))
          .filter((e) => e.getBoundingClientRect().right > 392)
          .slice(0, 8).map((e) => e.tagName + '.' + e.className)"""
    )
    assert width <= 400, (width, wide)


RARE = """
async () => {
  const mod = await import('/static/js/games/gluckauf.js');
  const base = window.partida.state.picture;
  const draw = (change) => {
    const picture = structuredClone(base);
    change(picture);
    const root = document.createElement('div');
    const sent = [];
    const ctx = { t: (k) => k, act: (a) => sent.push(a), seatName: (s) => 'S' + s, mySeat: 0, pending: false };
    mod.render(root, picture, ctx);
    const buttons = Array.from(root.querySelectorAll('button.legal'));
    buttons.forEach((b) => b.click());
    return { types: buttons.map((b) => b.dataset.gaAction), sent, fallback: root.querySelectorAll('.fallback button').length };
  };
  const tfo = draw((p) => {
    p.view.phase = 'two_for_one';
    p.view.draw = null;
    p.view.mining = { space: 'MINE-6', steps_left: 3, two_for_one_order: 7, two_for_one_colour: 'G', two_for_one_cubes: ['Y'] };
    p.legal_actions = [{ type: 'add_cube', source: 'storage', colour: 'B' }];
  });
  const coal = draw((p) => {
    p.view.phase = 'choose_coal';
    p.view.draw = null;
    p.view.shortage = { tile: { id: 5, type_id: 'Y2D', colour: 'Y', level: 1, carts: 2, side: 'dark', cost: 2 }, carts_waiting: 1 };
    p.legal_actions = [{ type: 'choose_coal', colour: 'B' }, { type: 'choose_coal', colour: 'K' }];
  });
  const unknown = draw((p) => { p.legal_actions = [{ type: 'something_new', x: 1 }]; });
  return { tfo, coal, unknown };
}
"""


def test_the_rare_decisions_offer_exactly_their_legal_actions(
    ga_context: Any, ga_api: httpx.Client
) -> None:
    """Two-for-one, a coal shortage and an unforeseen action, drawn from edited pictures."""
    owner = make_player(ga_api, "Eva")
    table_id = seated_table(
        ga_api, owner, bots=1, seats=2, game="gluckauf", options={"starting_player": 0}
    )
    page = ga_context(player=owner).new_page()
    page.goto(f"/tables/{table_id}")
    page.wait_for_selector(TURN_OR_END)
    out = page.evaluate(RARE)
    assert out["tfo"]["sent"] == [{"type": "add_cube", "source": "storage", "colour": "B"}], out
    assert out["coal"]["types"] == ["choose_coal", "choose_coal"], out
    assert [a["colour"] for a in out["coal"]["sent"]] == ["B", "K"], out
    assert out["unknown"]["fallback"] == 1 and out["unknown"]["sent"] == [
        {"type": "something_new", "x": 1}
    ]
    assert out["tfo"]["fallback"] == 0 and out["coal"]["fallback"] == 0
